// The app's own confirmation dialog (Remove character, New conversation):
// an in-page modal, not the browser's confirm(). It names what will happen
// on its confirm button, focuses Cancel (the safe answer), keeps Tab
// between its buttons, answers Esc and a click outside as Cancel, and gives
// the focus back to where it was when it closes.

import { button, el } from '../dom';
import { t } from '../i18n';
import './confirm.css';

export interface ConfirmOptions {
  /** The question, one or two sentences. */
  message: string;
  /** The confirm button's label: the action, e.g. "Remove". */
  confirm: string;
  /** The action destroys something: the confirm button is red. */
  danger?: boolean;
}

export class ConfirmDialog {
  readonly el: HTMLElement;
  private readonly box: HTMLElement;
  private readonly text: HTMLElement;
  private readonly okBtn: HTMLButtonElement;
  private readonly cancelBtn: HTMLButtonElement;
  private answer: ((ok: boolean) => void) | null = null;
  private returnFocus: HTMLElement | null = null;

  constructor() {
    this.text = el('p', { class: 'confirm-text', attrs: { id: 'confirm-dialog-text' } });
    this.cancelBtn = button('btn confirm-cancel', t('settings.cancel'));
    this.okBtn = button('btn btn-primary confirm-ok', '');
    this.box = el('div', {
      class: 'confirm-dialog',
      attrs: { role: 'alertdialog', 'aria-modal': 'true', id: 'confirm-dialog', 'aria-describedby': 'confirm-dialog-text', 'aria-label': t('settings.confirm') },
    }, this.text, el('div', 'confirm-buttons', this.cancelBtn, this.okBtn));
    this.el = el('div', { class: 'confirm-backdrop', hidden: true }, this.box);
    this.cancelBtn.addEventListener('click', () => this.close(false));
    this.okBtn.addEventListener('click', () => this.close(true));
    this.el.addEventListener('mousedown', (e) => {
      if (e.target === this.el) this.close(false);
    });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        this.close(false);
      } else if (e.key === 'Tab') {
        e.preventDefault();
        (document.activeElement === this.okBtn ? this.cancelBtn : this.okBtn).focus();
      }
    });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Shows the question; resolves true on the confirm button, false on
   * Cancel, Esc or a click outside. A second ask while one is open
   * answers the first false. */
  ask(o: ConfirmOptions): Promise<boolean> {
    if (this.answer) this.close(false);
    this.text.textContent = o.message;
    this.okBtn.textContent = o.confirm;
    this.okBtn.classList.toggle('btn-danger', !!o.danger);
    this.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.el.hidden = false;
    this.cancelBtn.focus();
    return new Promise((resolve) => {
      this.answer = resolve;
    });
  }

  private close(ok: boolean): void {
    const answer = this.answer;
    if (!answer) return;
    this.answer = null;
    this.el.hidden = true;
    this.returnFocus?.focus?.();
    this.returnFocus = null;
    answer(ok);
  }
}
