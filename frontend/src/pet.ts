import { Character, type Scheduler } from './character';
import type { CoreMessage, PageMessage } from './protocol';
import type { Rect } from './host';

export interface PetHost {
  send(m: PageMessage): boolean;
  setInputRegion(r: Rect[]): void;
  windowPosition(): Promise<{ x: number; y: number } | null>;
  moveWindow(x: number, y: number): void;
}

/** Pointer travel (px) that turns a press on the character into a drag. */
export const DRAG_THRESHOLD = 4;

/**
 * The pet page: the character, the plate under it, the composer opened by
 * clicking it, the error line and notices. It renders what the core sends
 * and sends user actions back; the only state it keeps is presentation
 * (whether the composer is open, a drag in progress).
 */
export class PetView {
  readonly root: HTMLElement;
  readonly character: Character;
  private readonly notice: HTMLElement;
  private readonly plate: HTMLElement;
  private readonly plateText: HTMLElement;
  private readonly plateAction: HTMLButtonElement;
  private readonly composer: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly errorLine: HTMLElement;
  private locked = false;
  private noticeId = '';
  private regionQueued = false;

  constructor(private readonly host: PetHost, sched?: Scheduler) {
    this.root = document.createElement('main');
    this.root.className = 'pet';
    this.root.innerHTML = `
      <div class="notice" role="status" aria-live="polite" hidden>
        <span class="notice-text"></span><button type="button" class="notice-close" aria-label="Dismiss">×</button>
      </div>
      <div class="stage"></div>
      <div class="plate" role="status" aria-live="polite" hidden>
        <span class="plate-text"></span><button type="button" class="plate-action" hidden></button>
      </div>
      <form class="composer" hidden>
        <textarea class="composer-input" rows="2" placeholder="Say something…" aria-label="Message"></textarea>
        <button type="submit" class="composer-send" aria-label="Send">Send</button>
        <div class="composer-error" role="alert" hidden></div>
      </form>`;
    this.character = new Character(sched);
    this.root.querySelector('.stage')!.append(this.character.el);
    this.notice = this.root.querySelector('.notice')!;
    this.plate = this.root.querySelector('.plate')!;
    this.plateText = this.root.querySelector('.plate-text')!;
    this.plateAction = this.root.querySelector('.plate-action')!;
    this.composer = this.root.querySelector('.composer')!;
    this.input = this.root.querySelector('.composer-input')!;
    this.sendBtn = this.root.querySelector('.composer-send')!;
    this.errorLine = this.root.querySelector('.composer-error')!;
    this.wire();
  }

  mount(parent: HTMLElement): void {
    parent.append(this.root);
    this.character.start();
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => this.queueRegion()).observe(this.root);
    }
    this.queueRegion();
  }

  /** Applies one message from the core. */
  apply(m: CoreMessage): void {
    switch (m.type) {
      case 'preset':
        this.root.dataset.preset = m.id;
        this.character.el.setAttribute('aria-label', m.name);
        this.character.el.title = m.name;
        break;
      case 'plate':
        this.plate.hidden = m.kind === '' || m.text === '';
        this.plate.dataset.kind = m.kind;
        this.plateText.textContent = m.text;
        this.plateAction.hidden = !m.action;
        this.plateAction.textContent = m.action === 'reconnect' ? 'Reconnect' : (m.action ?? '');
        break;
      case 'composer':
        this.locked = m.locked;
        this.input.disabled = m.locked;
        this.sendBtn.textContent = m.locked ? 'Stop' : 'Send';
        this.sendBtn.setAttribute('aria-label', m.locked ? 'Stop' : 'Send');
        this.composer.dataset.locked = String(m.locked);
        break;
      case 'error_line':
        if (m.where === 'composer') {
          this.errorLine.hidden = m.text === '';
          this.errorLine.textContent = m.text;
        }
        break;
      case 'notice':
        this.noticeId = m.id;
        this.notice.hidden = m.text === '';
        this.notice.querySelector('.notice-text')!.textContent = m.text;
        break;
    }
    this.queueRegion();
  }

  get composerOpen(): boolean {
    return !this.composer.hidden;
  }

  openComposer(): void {
    this.composer.hidden = false;
    this.input.focus();
    this.queueRegion();
  }

  closeComposer(): void {
    this.composer.hidden = true;
    this.queueRegion();
  }

  private submit(): void {
    if (this.locked) {
      this.host.send({ type: 'stop' });
      return;
    }
    const text = this.input.value.trim();
    if (text === '') return;
    if (this.host.send({ type: 'send_text', text })) {
      this.input.value = '';
    }
  }

  private wire(): void {
    this.composer.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        this.closeComposer();
      }
    });
    this.notice.querySelector('.notice-close')!.addEventListener('click', () => {
      this.host.send({ type: 'dismiss', id: this.noticeId });
    });
    this.plateAction.addEventListener('click', () => this.host.send({ type: 'reconnect' }));
    document.addEventListener('keydown', (e) => {
      // Ctrl+Space opens the composer from anywhere in the window.
      if (e.key === ' ' && e.ctrlKey) {
        e.preventDefault();
        this.openComposer();
      }
    });
    this.wireDrag();
  }

  /** A press on the character either drags the window or, if the pointer
   * barely moved, is a click that toggles the composer. */
  private wireDrag(): void {
    const el = this.character.el;
    let start: { sx: number; sy: number; win: { x: number; y: number } | null } | null = null;
    let dragging = false;
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      start = { sx: e.screenX, sy: e.screenY, win: null };
      dragging = false;
      el.setPointerCapture?.(e.pointerId);
      const s = start;
      this.host.windowPosition().then((p) => { s.win = p; });
    });
    el.addEventListener('pointermove', (e) => {
      if (!start) return;
      const dx = e.screenX - start.sx;
      const dy = e.screenY - start.sy;
      if (!dragging && Math.hypot(dx, dy) >= DRAG_THRESHOLD) {
        dragging = true;
        this.character.el.dataset.motion = 'drag';
      }
      if (dragging && start.win) this.host.moveWindow(start.win.x + dx, start.win.y + dy);
    });
    const end = () => {
      if (!start) return;
      const wasDrag = dragging;
      start = null;
      dragging = false;
      this.character.el.dataset.motion = 'idle';
      if (!wasDrag) {
        if (this.composerOpen) this.closeComposer();
        else this.openComposer();
      }
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', () => {
      start = null;
      dragging = false;
      this.character.el.dataset.motion = 'idle';
    });
  }

  /** Reports the boxes of everything visible as the window's click region,
   * at most once per task. */
  private queueRegion(): void {
    if (this.regionQueued) return;
    this.regionQueued = true;
    queueMicrotask(() => {
      this.regionQueued = false;
      this.host.setInputRegion(this.visibleRects());
    });
  }

  visibleRects(): Rect[] {
    const parts = [this.character.el.querySelector('svg') ?? this.character.el, this.notice, this.plate, this.composer];
    const out: Rect[] = [];
    for (const p of parts) {
      if ((p as HTMLElement).hidden) continue;
      const r = p.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      out.push({ x: Math.floor(r.left), y: Math.floor(r.top), w: Math.ceil(r.width), h: Math.ceil(r.height) });
    }
    return out;
  }
}
