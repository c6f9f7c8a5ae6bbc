import './pet.css';
// The character's own CSS is imported here, not in character.ts: vite.config.ts
// reads the vocabulary from character.ts when it builds, where CSS cannot load.
import './character.css';
import { Character } from './character';
import type { CoreMessage, PageMessage } from './protocol';
import type { Rect } from './host';
import { mediaMotionPreference, realScheduler, type MotionPreference, type Scheduler } from './scheduler';
import { SpeechBubble } from './bubble';
import { StatusPill } from './pill';
import { ListenSegment, PushToTalk } from './listen';
import { DelegationsChip } from './chip';
import { UsageReadout } from './usage';
import { ReasoningView } from './reasoning';
import { AttachmentTray, type ImageReader } from './attachments';
import { PermissionPromptView } from './permission';
import { PlateCause } from './platecause';
import { phrase } from './corephrases';
import { ComposerView } from './composer';
import { PetMenu } from './menu';
import { button, el } from './dom';
import { VrmHost } from './vrmhost';
import { PoseView, asleep } from './pose';
import { t, type Key } from './i18n';

export interface PetHost {
  send(m: PageMessage): boolean;
  setInputRegion(r: Rect[]): void;
  windowPosition(): Promise<{ x: number; y: number } | null>;
  moveWindow(x: number, y: number): void;
  /** A drag ended (optional: only a window shell cares). */
  windowMoved?(): void;
  openURL?(url: string): void;
}

export interface PetOptions {
  motion?: MotionPreference;
  readImage?: ImageReader;
  /** A view-server path with the page's token (a VRM look's model). */
  lookURL?: (path: string) => string;
}

/** Pointer travel (px) that turns a press on the character into a drag. */
export const DRAG_THRESHOLD = 4;

/** Popovers and the bubble (fitPopovers): the least height a popover
 * keeps, the most of the bubble's height kept beside it, the gap. */
const POPOVER_MIN = 48;
const BUBBLE_KEEP = 90;
const GAP = 6;

/**
 * The pet page: the character on a fixed stage, the speech bubble above her
 * head, the reasoning disclosure and delegations chip in the top corners,
 * the status pill and plate under her, the usage readout, the composer
 * (src/composer.ts) opened by clicking her and her menu (src/menu.ts)
 * opened by a right-click. Everything but the stage is absolutely placed or
 * reserved, so nothing that appears moves her. It renders what the core
 * sends and sends user actions back; the only state it keeps is
 * presentation (open/closed, hover, hide timers, a drag in progress).
 */
/** The plate's action buttons by the action the core names. */
const PLATE_ACTIONS: Record<string, Key> = { reconnect: 'plate.reconnect', reset: 'plate.reset', settings: 'plate.settings' };

export class PetView {
  readonly root: HTMLElement;
  readonly character: Character;
  /** Her body's pose and walk cycle (src/pose.ts). */
  private readonly pose: PoseView;
  readonly bubble: SpeechBubble;
  readonly pill: StatusPill;
  /** The pill's voice segment (listening) and push-to-talk: src/listen.ts. */
  readonly listen: ListenSegment;
  readonly pushToTalk: PushToTalk;
  readonly chip: DelegationsChip;
  readonly usage: UsageReadout;
  readonly reasoning: ReasoningView;
  readonly composer: ComposerView;
  readonly menu: PetMenu;
  /** A VRM look, when she wears one (src/vrmhost.ts). */
  readonly vrm: VrmHost;
  private readonly notice: HTMLElement;
  private readonly noticeText: HTMLElement;
  private readonly noticeClose: HTMLButtonElement;
  private readonly permission: PermissionPromptView;
  private readonly plate: HTMLElement;
  private readonly plateText: HTMLElement;
  private readonly plateAction: HTMLButtonElement;
  private readonly plateCause: PlateCause;
  /** Where the focus was at the last pointer press: a right-button press
   * moves it before the menu event comes. A key press forgets it. */
  private pressFocus: Element | null = null;
  private noticeId = '';
  private regionQueued = false;
  private readonly bubbleWrap: HTMLElement;
  private readonly statusRow: HTMLElement;

  constructor(private readonly host: PetHost, sched: Scheduler = realScheduler, opts: PetOptions = {}) {
    const motion = opts.motion ?? mediaMotionPreference();
    const changed = () => this.queueRegion();
    this.noticeText = el('span', 'notice-text');
    this.noticeClose = button('notice-close', '×', { 'aria-label': t('notice.dismiss') });
    this.notice = el('div', { class: 'notice', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true }, this.noticeText, this.noticeClose);
    this.plateText = el('span', 'plate-text');
    this.plateAction = button('plate-action', '', {}, true);
    this.plate = el('div', { class: 'plate', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true },
      this.plateText, el('span', { class: 'plate-dots', attrs: { 'aria-hidden': 'true' } }, el('i'), el('i'), el('i')), this.plateAction);
    this.plateCause = new PlateCause(() => this.openSettings('backend'));
    this.character = new Character(sched, motion);
    this.pose = new PoseView(this.character.el, sched, motion);
    this.vrm = new VrmHost({
      character: this.character, sched, motion, send: (m) => this.host.send(m), changed,
      resolve: opts.lookURL ?? ((p) => p),
    });
    this.bubble = new SpeechBubble(sched, (u) => this.openURL(u), () => {
      this.reasoning?.setBubble(this.bubble.visible);
      changed();
    });
    this.reasoning = new ReasoningView(changed, { besideBubble: true });
    this.chip = new DelegationsChip(sched, changed);
    // The capture segment opens this character's settings at Screen.
    this.pill = new StatusPill(() => this.openSettings('permissions'));
    this.listen = new ListenSegment(() => this.openSettings('listen'));
    this.pushToTalk = new PushToTalk(() => this.listen.key, (held) => this.host.send({ type: 'listen_hold', held }));
    this.usage = new UsageReadout();
    this.permission = new PermissionPromptView((id, answer) => this.host.send({ type: 'permission_answer', id, answer }));
    this.composer = new ComposerView({
      send: (m) => this.host.send(m),
      now: () => sched.now(),
      changed,
      readImage: opts.readImage,
      rows: 1,
      maxLines: 4,
      toggled: (open) => {
        if (open) this.root.dataset.composer = 'open';
        else delete this.root.dataset.composer;
        // The usage readout sits at the window's bottom edge, where the
        // open composer goes (it showed half under it): while the composer
        // is open it joins the status row on the composer's top edge.
        if (open) this.statusRow.append(this.usage.el);
        else this.root.insertBefore(this.usage.el, this.permission.el);
      },
    });
    this.menu = new PetMenu({
      settings: () => this.openSettings(),
      messages: () => this.host.send({ type: 'open_messages' }),
      reset: () => this.host.send({ type: 'reset' }),
      muteCharacter: (muted) => this.host.send({ type: 'mute', scope: 'character', muted }),
      listenTarget: () => this.host.send({ type: 'listen_target' }),
      quiet: (scope, quiet) => this.host.send({ type: 'quiet', scope, quiet }),
      desktop: (action) => this.host.send({ type: 'desktop_action', action }),
      bed: (action) => this.host.send({ type: 'body_menu', action }),
      changed,
      room: () => ({ width: this.root.clientWidth, height: this.root.clientHeight }),
    });
    this.root = el('main', 'pet',
      this.notice,
      this.plateCause.el,
      el('div', 'topbar', this.reasoning.el, this.chip.chip),
      el('div', 'sky', this.bubbleWrap = el('div', 'bubble-wrap', this.bubble.el)),
      el('div', 'stage', this.character.el),
      el('div', 'dock', this.statusRow = el('div', 'status-row', this.pill.el, this.listen.el, this.plate)),
      this.composer.el,
      this.menu.el,
      this.chip.list,
      this.usage.el,
      this.permission.el,
    );
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

  /** Timers armed right now (the idle test: only the blink). */
  get pendingTimers(): number {
    return this.character.pendingTimers + this.bubble.pendingTimers + this.chip.pendingTimers;
  }

  /** Applies one message from the core. */
  apply(m: CoreMessage): void {
    if (this.composer.apply(m)) {
      this.queueRegion();
      return;
    }
    switch (m.type) {
      case 'preset':
        this.root.dataset.preset = m.id;
        // Named for assistive technology only: a title's tooltip covered
        // her face and her right-click menu (issue 21); her menu names her.
        this.character.el.setAttribute('aria-label', m.name);
        this.menu.applyPreset(m);
        this.character.setLook(m.look);
        break;
      case 'desktop':
        this.menu.applyDesktop(m);
        break;
      case 'plate':
        const text = phrase(m.msg, m.text);
        this.plate.hidden = m.kind === '' || text === '';
        this.plate.dataset.kind = m.kind;
        this.plateText.textContent = text;
        this.plate.title = text;
        this.plateAction.hidden = !m.action;
        this.plateAction.dataset.action = m.action ?? '';
        this.plateAction.textContent = m.action && PLATE_ACTIONS[m.action] ? t(PLATE_ACTIONS[m.action]) : (m.action ?? '');
        this.plateCause.show(m);
        break;
      case 'permission':
        this.permission.apply(m);
        break;
      case 'notice':
        this.noticeId = m.id;
        this.notice.hidden = m.text === '';
        this.noticeText.textContent = phrase(m.msg, m.text);
        break;
      case 'character':
        this.character.set(m);
        this.vrm.set(m);
        return; // the character's box never changes
      case 'mouth':
        this.character.setLevels(m.at, m.step_ms, m.levels ?? []);
        this.vrm.setLevels(m.at, m.step_ms, m.levels ?? [], m.tones);
        return;
      case 'pointer':
        this.vrm.setPointer(m.near ? { x: m.x, y: m.y } : null);
        return;
      case 'voice':
        this.root.dataset.muted = String(m.muted || m.global_muted);
        this.menu.applyVoice(m);
        return;
      case 'companion':
        this.menu.applyCompanion(m);
        return;
      case 'bubble':
        this.bubble.apply(m);
        return; // the bubble reports its own changes
      case 'pill':
        this.pill.apply(m);
        break;
      case 'listen':
        this.listen.apply(m);
        break;
      case 'reasoning':
        this.reasoning.apply(m);
        return;
      case 'usage':
        this.usage.apply(m);
        break;
      case 'delegations':
        this.chip.apply(m);
        return;
      case 'open_composer': // the global shortcut
        this.openComposer();
        break;
      case 'look_art':
        this.character.setArt(m.emotions);
        this.pose.setPoses(m.emotions ? m.poses : null);
        this.vrm.show(m.look, m.vrm);
        return;
      case 'body': // her pose (src/pose.ts); her box never changes
        this.pose.apply(m);
        this.menu.applyBody(m.posture);
        return;
    }
    this.queueRegion();
  }

  /** The attachment tray of the composer. */
  get tray(): AttachmentTray {
    return this.composer.tray;
  }

  get composerOpen(): boolean {
    return this.composer.isOpen;
  }

  openComposer(): void {
    this.composer.open();
  }

  closeComposer(): void {
    this.composer.close();
  }

  get menuOpen(): boolean {
    return this.menu.open;
  }

  /** Whether the menu asks "Start over?" now. */
  get menuConfirming(): boolean {
    return this.menu.confirming;
  }

  /** Opens the character's menu at (x, y) in page pixels, kept inside the
   * window, with its first item focused. */
  openMenu(x: number, y: number, returnTo: Element | null = document.activeElement): void {
    this.menu.openAt(x, y, returnTo);
  }

  closeMenu(): void {
    this.menu.close();
  }

  /** Asks the core to open the settings window on this character. */
  private openSettings(section?: 'permissions' | 'listen' | 'backend'): void {
    this.host.send(section ? { type: 'open_settings', section } : { type: 'open_settings' });
  }

  private openURL(url: string): void {
    this.host.openURL?.(url);
  }

  private wire(): void {
    this.root.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }
    });
    this.root.addEventListener('drop', (e) => {
      if (this.composer.attach(e.dataTransfer?.files)) e.preventDefault();
    });
    this.noticeClose.addEventListener('click', () => {
      this.host.send({ type: 'dismiss', id: this.noticeId });
    });
    this.plateAction.addEventListener('click', () => {
      // reconnect; reset (a new thread for a deleted one); settings (the
      // Backend section, where the agent is chosen).
      const a = this.plateAction.dataset.action;
      if (a === 'reset') this.host.send({ type: 'reset' });
      else if (a === 'settings') this.host.send({ type: 'open_settings', section: 'backend' });
      else this.host.send({ type: 'reconnect' });
    });
    // The thoughts panel and the background-tasks card open one at a time.
    this.reasoning.el.addEventListener('click', () => {
      if (this.reasoning.open) this.chip.setOpen(false);
      this.queueRegion();
    });
    this.chip.chip.addEventListener('click', () => {
      if (this.chip.open) this.reasoning.setOpen(false);
      this.queueRegion();
    });
    // Right-click on the character: a tiny menu (Settings…, New
    // conversation, Mute <name> for this character, and the tray's items:
    // Hide, Mute all voices, Start at login, Quit Yui).
    this.character.el.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      const box = this.root.getBoundingClientRect();
      const before = this.pressFocus ?? document.activeElement;
      this.pressFocus = null;
      this.openMenu(e.clientX - box.left, e.clientY - box.top, before);
    });
    // Spoken turns go to this character: offered while another one hears.
    this.listen.onTarget = (t) => this.menu.offerListenTarget(!t);
    // A press anywhere else (in the window) or the window losing focus
    // closes it; presses outside the click region go to other windows.
    document.addEventListener('pointerdown', (e) => {
      this.pressFocus = document.activeElement;
      if (this.menuOpen && !(e.target instanceof Node && this.menu.el.contains(e.target))) this.closeMenu();
    }, true);
    window.addEventListener('blur', () => this.closeMenu());
    document.addEventListener('keydown', () => { this.pressFocus = null; }, true);
    document.addEventListener('keydown', (e) => {
      // Ctrl+Space opens the composer from anywhere in the window.
      if (e.key === ' ' && e.ctrlKey) {
        e.preventDefault();
        this.openComposer();
      } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        // The keyboard's way to her menu: under her face.
        e.preventDefault();
        if (this.menuOpen) return;
        const box = this.root.getBoundingClientRect();
        const face = this.character.el.getBoundingClientRect();
        this.openMenu(face.left - box.left + face.width / 2, face.top - box.top + face.height / 3);
      } else if (e.key.toLowerCase() === 'm' && e.ctrlKey && !e.altKey && !e.shiftKey) {
        // Ctrl+M opens her message window.
        e.preventDefault();
        this.closeMenu();
        this.host.send({ type: 'open_messages' });
      } else if (e.key === ',' && (e.ctrlKey || e.metaKey)) {
        // Ctrl+, opens the settings window on this character.
        e.preventDefault();
        this.closeMenu();
        this.openSettings();
      } else if (e.key === 'Escape' && this.menuOpen) {
        this.closeMenu();
      } else if (e.key === 'Escape' && this.chip.open) {
        this.chip.setOpen(false);
      } else if (e.key === 'Escape' && this.composerOpen) {
        // Also when the composer is locked: its input is disabled then,
        // so the key reaches the document instead.
        this.closeComposer();
      }
    });
    this.wireDrag();
    // A part is measured when it changes, which may be mid-animation (the
    // bubble's pop-in scales and shifts it): measure again once a part's
    // animation or transition has ended, so the region is the settled box.
    const settled = (e: Event) => {
      if (e.target instanceof Element && this.regionParts().includes(e.target)) this.queueRegion();
    };
    this.root.addEventListener('animationend', settled);
    this.root.addEventListener('transitionend', settled);
  }

  /** A press on the character either drags the window or, if the pointer
   * barely moved, is a click that toggles the composer. The window's
   * position is asked for at the press; moves made before it answers (a
   * quick flick, a busy machine) are applied when it does, and a drag that
   * ended meanwhile is reported moved then, so no drag is lost. */
  private wireDrag(): void {
    const el = this.character.el;
    type Press = { sx: number; sy: number; dx: number; dy: number; win: { x: number; y: number } | null; asked: boolean; ended: boolean };
    let start: Press | null = null;
    let dragging = false;
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      start = { sx: e.screenX, sy: e.screenY, dx: 0, dy: 0, win: null, asked: true, ended: false };
      dragging = false;
      el.setPointerCapture?.(e.pointerId);
      const s = start;
      this.host.windowPosition().then((p) => {
        s.win = p;
        s.asked = false;
        if (!p || (s.dx === 0 && s.dy === 0)) return; // no window, or no drag yet
        if (s.ended) {
          // The drag ended before the position came: finish it now.
          this.host.moveWindow(p.x + s.dx, p.y + s.dy);
          this.host.windowMoved?.();
          this.host.send({ type: 'body_drag', phase: 'end', x: p.x + s.dx, y: p.y + s.dy });
        } else if (start === s && dragging) {
          // Catch up with the moves made while asking.
          this.host.moveWindow(p.x + s.dx, p.y + s.dy);
        }
      });
    });
    el.addEventListener('pointermove', (e) => {
      if (!start) return;
      const dx = e.screenX - start.sx;
      const dy = e.screenY - start.sy;
      if (!dragging && Math.hypot(dx, dy) >= DRAG_THRESHOLD) {
        dragging = true;
        this.character.setMotion('drag');
        // Held: her action stops, she leaves her perch (the core's life room).
        this.host.send({ type: 'body_drag', phase: 'start', x: 0, y: 0 });
      }
      if (!dragging) return;
      start.dx = dx;
      start.dy = dy;
      if (start.win) this.host.moveWindow(start.win.x + dx, start.win.y + dy);
    });
    const end = (e: PointerEvent) => {
      if (!start) return;
      const s = start;
      const wasDrag = dragging;
      start = null;
      dragging = false;
      if (wasDrag) {
        // Let go where the pointer is now: moves still in flight when the
        // button came up (a quick flick) are not lost.
        const dx = e.screenX - s.sx;
        const dy = e.screenY - s.sy;
        if (dx !== s.dx || dy !== s.dy) {
          s.dx = dx;
          s.dy = dy;
          if (s.win) this.host.moveWindow(s.win.x + dx, s.win.y + dy);
        }
        this.character.setMotion('idle');
        s.ended = true;
        // Still asking for the position: the answer finishes the drag.
        if (!s.asked) this.host.windowMoved?.();
        // Where she was let go: on a window's top edge she perches there.
        if (!s.asked && s.win) this.host.send({ type: 'body_drag', phase: 'end', x: s.win.x + s.dx, y: s.win.y + s.dy });
      } else if (asleep(this.character.el)) this.host.send({ type: 'body_menu', action: 'wake' }); // a click wakes her
      else if (this.composerOpen) this.closeComposer();
      else this.openComposer();
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', () => {
      if (dragging) {
        this.character.setMotion('idle');
        if (start?.win) this.host.send({ type: 'body_drag', phase: 'end', x: start.win.x + start.dx, y: start.win.y + start.dy });
      }
      start = null;
      dragging = false;
    });
  }

  /** Reports the boxes of everything visible as the window's click region,
   * at most once per task. */
  private queueRegion(): void {
    if (this.regionQueued) return;
    this.regionQueued = true;
    queueMicrotask(() => {
      this.regionQueued = false;
      this.fitPopovers();
      this.fitStatusRow();
      this.host.setInputRegion(this.visibleRects());
    });
  }

  /** An open popover (the thoughts panel or the tasks card) never covers
   * the speech bubble: it gets the room above the bubble (at least
   * POPOVER_MIN px, leaving the bubble up to BUBBLE_KEEP px), and the
   * bubble's area starts under it (its text scrolls if it must). */
  private fitPopovers(): void {
    const pop = this.reasoning.open ? this.reasoning.panel : this.chip.open ? this.chip.list : null;
    const wrap = this.bubbleWrap;
    if (!pop) {
      wrap.style.top = '';
      this.reasoning.panel.style.maxHeight = '';
      this.chip.list.style.maxHeight = '';
      return;
    }
    const wrapBox = wrap.getBoundingClientRect();
    if (wrapBox.height <= 0) return; // no layout (tests without one)
    pop.style.maxHeight = '';
    const top = pop.getBoundingClientRect().top;
    const natural = pop.scrollHeight;
    const bubbleH = this.bubble.el.hidden ? 0 : Math.min(this.bubble.el.scrollHeight + 10, BUBBLE_KEEP);
    const room = wrapBox.bottom - top - GAP - bubbleH;
    const max = Math.max(POPOVER_MIN, Math.min(natural, room));
    pop.style.maxHeight = `${Math.floor(max)}px`;
    const sky = wrap.offsetParent instanceof HTMLElement ? wrap.offsetParent.getBoundingClientRect().top : 0;
    wrap.style.top = `${Math.ceil(top + Math.min(max, natural) + GAP - sky)}px`;
  }

  /** While the composer is open (over the dock), the status row sits on
   * its top edge, however tall the composer grew. */
  private fitStatusRow(): void {
    const row = this.statusRow;
    if (!this.composer.isOpen) {
      row.style.bottom = '';
      return;
    }
    const c = this.composer.el.getBoundingClientRect();
    const dock = row.parentElement!.getBoundingClientRect();
    if (c.height <= 0 || dock.height <= 0) return; // no layout
    row.style.bottom = `${Math.ceil(dock.bottom - c.top + 4)}px`;
  }

  /** The elements whose boxes make the click region. */
  private regionParts(): Element[] {
    return [
      this.character.el.querySelector('svg') ?? this.character.el,
      this.notice, this.permission.el, this.reasoning.el, this.chip.chip, this.chip.list, this.bubble.el,
      this.pill.el, this.plate, this.plateCause.el, this.usage.el, this.composer.el, this.menu.el,
    ];
  }

  visibleRects(): Rect[] {
    const out: Rect[] = [];
    // A VRM look clicks only on her silhouette.
    const vrm = this.vrm.region();
    if (vrm) out.push(...vrm);
    const parts = this.regionParts();
    for (const p of vrm ? parts.slice(1) : parts) {
      if ((p as HTMLElement).hidden) continue;
      const r = p.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      out.push({ x: Math.floor(r.left), y: Math.floor(r.top), w: Math.ceil(r.width), h: Math.ceil(r.height) });
    }
    return out;
  }
}
