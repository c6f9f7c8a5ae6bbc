// The cause card: why the connection failed, in the core's plain words
// (app/conncause), shown at the top of the pet window while she is not
// connected (the plate under her keeps the countdown), with
// an "Open settings" button when the fix is a setting (another API, the
// address, the key). It renders what the plate message says; it decides
// nothing.

import type { Plate } from './protocol';
import './platecause.css';

export class PlateCause {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly button: HTMLButtonElement;

  /** onSettings opens the settings window at the backend section. */
  constructor(onSettings: () => void) {
    this.el = document.createElement('div');
    this.el.className = 'plate-cause';
    this.el.setAttribute('role', 'status');
    this.el.setAttribute('aria-live', 'polite');
    this.el.hidden = true;
    this.text = document.createElement('span');
    this.text.className = 'plate-cause-text';
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'plate-cause-settings';
    this.button.textContent = 'Open settings';
    this.button.hidden = true;
    this.button.addEventListener('click', onSettings);
    this.el.append(this.text, this.button);
  }

  /** Shows the cause of a connection plate; hides for any other plate. */
  show(p: Plate): void {
    const cause = p.kind === 'connection' ? (p.cause ?? '') : '';
    this.el.hidden = cause === '';
    this.text.textContent = cause;
    this.button.hidden = cause === '' || !p.settings;
  }
}
