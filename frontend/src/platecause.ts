// The cause card: why the connection failed, in the core's plain words
// (app/conncause), shown at the top of the pet window while she is not
// connected (the plate under her keeps the countdown), with
// an "Open settings" button when the fix is a setting (another API, the
// address, the key). It renders what the plate message says; it decides
// nothing.

import type { Plate } from './protocol';
import { button, el } from './dom';
import { phrase } from './corephrases';
import { t } from './i18n';
import './platecause.css';

export class PlateCause {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly button: HTMLButtonElement;

  /** onSettings opens the settings window at the backend section. */
  constructor(onSettings: () => void) {
    this.text = el('span', 'plate-cause-text');
    this.button = button('plate-cause-settings', t('plate.open_settings'), {}, true);
    this.button.addEventListener('click', onSettings);
    this.el = el('div', { class: 'plate-cause', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true }, this.text, this.button);
  }

  /** Shows the cause of a connection plate; hides for any other plate. */
  show(p: Plate): void {
    const cause = p.kind === 'connection' ? phrase(p.cause_msg, p.cause ?? '') : '';
    this.el.hidden = cause === '';
    this.text.textContent = cause;
    this.button.hidden = cause === '' || !p.settings;
  }
}
