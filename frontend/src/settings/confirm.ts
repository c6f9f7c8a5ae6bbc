// The app's own confirmation dialog (Remove character, New conversation):
// an in-page modal, not the browser's confirm(). It names what will happen
// on its confirm button, focuses Cancel (the safe answer), keeps Tab
// between its buttons, answers Esc and a click outside as Cancel, and gives
// the focus back to where it was when it closes.

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
    this.el = document.createElement('div');
    this.el.className = 'confirm-backdrop';
    this.el.hidden = true;
    this.box = document.createElement('div');
    this.box.className = 'confirm-dialog';
    this.box.setAttribute('role', 'alertdialog');
    this.box.setAttribute('aria-modal', 'true');
    this.box.id = 'confirm-dialog';
    this.text = document.createElement('p');
    this.text.className = 'confirm-text';
    this.text.id = 'confirm-dialog-text';
    this.box.setAttribute('aria-describedby', this.text.id);
    this.box.setAttribute('aria-label', 'Confirm');
    const buttons = document.createElement('div');
    buttons.className = 'confirm-buttons';
    this.cancelBtn = document.createElement('button');
    this.cancelBtn.type = 'button';
    this.cancelBtn.className = 'btn confirm-cancel';
    this.cancelBtn.textContent = 'Cancel';
    this.okBtn = document.createElement('button');
    this.okBtn.type = 'button';
    this.okBtn.className = 'btn btn-primary confirm-ok';
    buttons.append(this.cancelBtn, this.okBtn);
    this.box.append(this.text, buttons);
    this.el.append(this.box);
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
