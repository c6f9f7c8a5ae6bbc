// The composer: a text box, the attachment tray, the image picker and the
// send button (a stop button while a turn runs), with the one-line error
// under it. It keeps a sent line until the core answers it (src/draft.ts;
// docs/view-protocol.md, "Page presentation state"). The pet window and
// the message window each have one; both send through the pet's session.
import './composer.css';
import { AttachmentTray, type ImageReader } from './attachments';
import { asset, button, el } from './dom';
import { PendingSend, type SentDraft } from './draft';
import type { CoreMessage, PageMessage } from './protocol';
import { t } from './i18n';

export interface ComposerOptions {
  /** Sends a message to the core; false when the socket is not open. */
  send(m: PageMessage): boolean;
  /** Milliseconds now (the pending send's clock). */
  now(): number;
  /** The shown parts changed (the click region). */
  changed(): void;
  /** The composer opened or closed (not called for the same state twice). */
  toggled?(open: boolean): void;
  readImage?: ImageReader;
  /** Starts open, and Escape does not close it (the message window's). */
  fixed?: boolean;
  placeholder?: string;
  /** The text box's rows (2 by default). */
  rows?: number;
  /** The text box grows with its text up to this many lines, then
   * scrolls (the pet's one-line box: a second line used to show half of
   * the first). 0 or absent: its height is the stylesheet's. */
  maxLines?: number;
}

const PICKER_ICON = `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><rect x="2.5" y="4" width="15" height="12" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="7.5" cy="8.5" r="1.6" fill="currentColor"/><path d="M4 14.5 L8.5 10.5 L11 12.5 L13.5 9.5 L16.5 13" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>`;

export class ComposerView {
  readonly el: HTMLFormElement;
  readonly tray: AttachmentTray;
  readonly input: HTMLTextAreaElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly pickBtn: HTMLButtonElement;
  private readonly fileInput: HTMLInputElement;
  private readonly errorLine: HTMLElement;
  private readonly pending: PendingSend;
  private lockedNow = false;

  constructor(private readonly opts: ComposerOptions) {
    this.pending = new PendingSend(() => opts.now());
    this.tray = new AttachmentTray(opts.changed, opts.readImage);
    this.input = el('textarea', { class: 'composer-input', attrs: { rows: opts.rows ?? 2, placeholder: opts.placeholder ?? t('composer.placeholder'), 'aria-label': t('composer.message') } });
    this.pickBtn = button('composer-pick', asset(PICKER_ICON), { 'aria-label': t('composer.attach'), title: t('composer.attach_tip') });
    this.sendBtn = el('button', { class: 'composer-send', attrs: { type: 'submit', 'aria-label': t('composer.send') } }, t('composer.send'));
    this.fileInput = el('input', { class: 'composer-file', attrs: { type: 'file', accept: 'image/*', multiple: true }, hidden: true });
    this.errorLine = el('div', { class: 'composer-error', attrs: { role: 'alert' }, hidden: true });
    this.el = el('form', { class: 'composer', hidden: !opts.fixed },
      this.tray.el, this.input, el('div', 'composer-buttons', this.pickBtn, this.sendBtn), this.fileInput, this.errorLine);
    if (opts.fixed) this.el.dataset.fixed = 'true';
    // A closed composer takes no keys (see close()).
    this.el.toggleAttribute('inert', !opts.fixed);
    this.wire();
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  get locked(): boolean {
    return this.lockedNow;
  }

  /** Reads every message from the core: the answer to a pending send, the
   * lock and the composer's error line. Returns whether it changed what
   * the composer shows. */
  apply(m: CoreMessage): boolean {
    const settled = this.pending.answer(m);
    if (settled?.answer === 'accepted') this.clearSentDraft(settled.draft);
    switch (m.type) {
      case 'composer':
        this.lockedNow = m.locked;
        this.input.disabled = m.locked;
        this.pickBtn.disabled = m.locked;
        this.sendBtn.textContent = m.locked ? t('composer.stop') : t('composer.send');
        this.sendBtn.setAttribute('aria-label', m.locked ? t('composer.stop') : t('composer.send'));
        this.el.dataset.locked = String(m.locked);
        return true;
      case 'error_line':
        if (m.where !== 'composer') return false;
        this.errorLine.hidden = m.text === '';
        this.errorLine.textContent = m.text;
        return true;
    }
    return false;
  }

  open(): void {
    const was = this.isOpen;
    this.el.hidden = false;
    this.el.removeAttribute('inert');
    this.fitHeight();
    this.input.focus();
    if (!was) this.opts.toggled?.(true);
    this.opts.changed();
  }

  close(): void {
    if (this.opts.fixed || !this.isOpen) return;
    // A hidden input keeps the focus in WebKitGTK: keys typed after Escape
    // went into it and came back as a surprise draft when it reopened. The
    // focus leaves it, and inert keeps it (and a click, a paste) out.
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && this.el.contains(focused)) focused.blur();
    this.el.toggleAttribute('inert', true);
    this.el.hidden = true;
    this.opts.toggled?.(false);
    this.opts.changed();
  }

  /** Adds images from a paste, drop or the picker, opening the composer. */
  attach(files: FileList | File[] | null | undefined): boolean {
    const list = files ? [...files].filter((f) => f.type.startsWith('image/')) : [];
    if (list.length === 0 || this.lockedNow) return false;
    if (!this.isOpen) this.open();
    void this.tray.add(list);
    return true;
  }

  /** Sends the line (or stops the turn while locked). */
  submit(): void {
    if (this.lockedNow) {
      this.opts.send({ type: 'stop' });
      return;
    }
    const text = this.input.value.trim();
    const images = this.tray.images;
    if (text === '' && images.length === 0) return;
    // A second Enter while the core has not answered the first is ignored
    // (the text stays in the input until the core accepts it).
    if (this.pending.awaiting) return;
    const msg: PageMessage = images.length ? { type: 'send_text', text, images } : { type: 'send_text', text };
    if (this.opts.send(msg)) this.pending.sent({ text, images });
  }

  /** The core accepted the sent line: the text and images leave the
   * composer, unless the user changed them in the meantime. */
  private clearSentDraft(sent: SentDraft): void {
    if (this.input.value.trim() === sent.text) {
      this.input.value = '';
      this.fitHeight();
    }
    const now = this.tray.images;
    if (now.length === sent.images.length && now.every((u, i) => u === sent.images[i])) this.tray.clear();
  }

  /** Sizes the text box to its lines (opts.maxLines), growing upward (the
   * pet's composer is anchored at the bottom). Runs on input, so nothing
   * runs while nobody types. Reports a change of height (the click
   * region, the status row above it). */
  private fitHeight(): void {
    const max = this.opts.maxLines ?? 0;
    if (max <= 0 || this.el.hidden) return;
    const i = this.input;
    const cs = getComputedStyle(i);
    const line = parseFloat(cs.lineHeight) || 18;
    const edge = (a: string, b: string) => (parseFloat(cs.getPropertyValue(a)) || 0) + (parseFloat(cs.getPropertyValue(b)) || 0);
    const pad = edge('padding-top', 'padding-bottom');
    const border = edge('border-top-width', 'border-bottom-width');
    const before = i.style.height;
    i.style.height = '0px';
    const content = i.scrollHeight - pad; // the lines the text takes
    const lines = Math.max(1, Math.min(max, Math.round(content / line)));
    const h = `${lines * line + pad + border}px`;
    i.style.height = h;
    i.style.overflowY = content > max * line + 1 ? 'auto' : 'hidden';
    if (h !== before) this.opts.changed();
  }

  private wire(): void {
    this.input.addEventListener('input', () => this.fitHeight());
    this.el.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      } else if (e.key === 'Escape' && !this.opts.fixed) {
        e.preventDefault();
        this.close();
      }
    });
    this.input.addEventListener('paste', (e) => {
      if (this.attach(e.clipboardData?.files)) e.preventDefault();
    });
    this.pickBtn.addEventListener('click', () => this.fileInput.click());
    this.fileInput.addEventListener('change', () => {
      this.attach(this.fileInput.files);
      this.fileInput.value = '';
    });
  }
}
