// The one error line of a settings section outside a character's form (the
// Listening and Speaking first sections): the core's reason for a refused
// field, moved under that field's control while it shows.

import { el } from '../dom';

export class ErrorLine {
  /** The line (class `field-error` and cls, role alert); hidden while
   * nothing is refused. */
  readonly el: HTMLElement;

  constructor(cls: string) {
    this.el = el('div', `field-error ${cls}`);
    this.el.setAttribute('role', 'alert');
    this.el.hidden = true;
  }

  /** Shows text; with ctl, under ctl's row, ctl marked invalid and
   * focused (scroll: also scrolled to the middle). */
  show(text: string, ctl: HTMLElement | undefined, scroll: boolean): void {
    this.el.textContent = text;
    this.el.hidden = false;
    if (ctl) {
      ctl.setAttribute('aria-invalid', 'true');
      ctl.closest('.field')?.querySelector('.field-body')?.append(this.el);
      ctl.focus({ preventScroll: true });
      if (scroll) ctl.scrollIntoView?.({ block: 'center' });
    }
  }

  /** Hides the line, if shown, and unmarks controls. */
  clear(controls: Iterable<Element>): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.el.textContent = '';
    for (const c of controls) c.removeAttribute('aria-invalid');
  }
}
