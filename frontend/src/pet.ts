import { Character } from './character';
import type { CoreMessage, DesktopActionKind, PageMessage } from './protocol';
import type { Rect } from './host';
import { mediaMotionPreference, realScheduler, type MotionPreference, type Scheduler } from './scheduler';
import { SpeechBubble } from './bubble';
import { StatusPill } from './pill';
import { DelegationsChip } from './chip';
import { UsageReadout } from './usage';
import { ReasoningView } from './reasoning';
import { AttachmentTray, type ImageReader } from './attachments';
import { PermissionPromptView } from './permission';
import { PendingSend, type SentDraft } from './draft';

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
}

/** Pointer travel (px) that turns a press on the character into a drag. */
export const DRAG_THRESHOLD = 4;

let menuSeq = 0;

const PICKER_ICON = `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><rect x="2.5" y="4" width="15" height="12" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="7.5" cy="8.5" r="1.6" fill="currentColor"/><path d="M4 14.5 L8.5 10.5 L11 12.5 L13.5 9.5 L16.5 13" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>`;

/**
 * The pet page: the character on a fixed stage, the speech bubble above her
 * head, the reasoning disclosure and delegations chip in the top corners,
 * the status pill and plate under her, the usage readout, and the composer
 * opened by clicking her. Everything but the stage is absolutely placed or
 * reserved, so nothing that appears moves her. It renders what the core
 * sends and sends user actions back; the only state it keeps is
 * presentation (open/closed, hover, hide timers, a drag in progress).
 */
/** The plate's action buttons by the action the core names. */
const PLATE_ACTIONS: Record<string, string> = { reconnect: 'Reconnect', reset: 'New thread', settings: 'Settings…' };

export class PetView {
  readonly root: HTMLElement;
  readonly character: Character;
  readonly bubble: SpeechBubble;
  readonly pill: StatusPill;
  readonly chip: DelegationsChip;
  readonly usage: UsageReadout;
  readonly reasoning: ReasoningView;
  readonly tray: AttachmentTray;
  private readonly notice: HTMLElement;
  private readonly permission: PermissionPromptView;
  private readonly plate: HTMLElement;
  private readonly plateText: HTMLElement;
  private readonly plateAction: HTMLButtonElement;
  private readonly composer: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly pickBtn: HTMLButtonElement;
  private readonly fileInput: HTMLInputElement;
  private readonly errorLine: HTMLElement;
  private readonly menu: HTMLElement;
  private readonly menuSettings: HTMLButtonElement;
  /** "Mute voice" / "Unmute voice" (this character), and "Unmute all
   * characters" while the global mute is on. */
  /** This character's Mute voice / Unmute voice. */
  private readonly menuMuteCharacter: HTMLButtonElement;
  private voice = { muted: false, globalMuted: false };
  /** "New conversation", and the question it turns into in the menu. */
  private readonly menuReset: HTMLButtonElement;
  private readonly menuConfirm: HTMLElement;
  private readonly menuYes: HTMLButtonElement;
  private readonly menuCancel: HTMLButtonElement;
  /** The app-wide items (the tray's, for desktops without one): shown
   * once the core has sent their state (the desktop topic). */
  private readonly menuDesktop: HTMLElement;
  private readonly menuHide: HTMLButtonElement;
  private readonly menuResetPosition: HTMLButtonElement;
  private readonly menuMute: HTMLButtonElement;
  private readonly menuLogin: HTMLButtonElement;
  private readonly menuQuit: HTMLButtonElement;
  /** Where the menu was asked to open (it is placed again when its size
   * changes). */
  private menuAt = { x: 0, y: 0 };
  /** Where the focus was when the menu opened (it goes back there). */
  private menuReturn: HTMLElement | null = null;
  /** Where the focus was at the last pointer press: a right-button press
   * moves it before the menu event comes. A key press forgets it. */
  private pressFocus: Element | null = null;
  private locked = false;
  private readonly pending: PendingSend;
  private noticeId = '';
  private regionQueued = false;

  constructor(private readonly host: PetHost, sched: Scheduler = realScheduler, opts: PetOptions = {}) {
    const motion = opts.motion ?? mediaMotionPreference();
    this.root = document.createElement('main');
    this.root.className = 'pet';
    // Constant markup only; every text from the core goes in via textContent.
    this.root.innerHTML = `
      <div class="notice" role="status" aria-live="polite" hidden>
        <span class="notice-text"></span><button type="button" class="notice-close" aria-label="Dismiss">×</button>
      </div>
      <div class="topbar"></div>
      <div class="sky"><div class="bubble-wrap"></div></div>
      <div class="stage"></div>
      <div class="dock"><div class="status-row">
        <div class="plate" role="status" aria-live="polite" hidden>
          <span class="plate-text"></span><span class="plate-dots" aria-hidden="true"><i></i><i></i><i></i></span><button type="button" class="plate-action" hidden></button>
        </div>
      </div></div>
      <form class="composer" hidden>
        <textarea class="composer-input" rows="2" placeholder="Say something…" aria-label="Message"></textarea>
        <div class="composer-buttons">
          <button type="button" class="composer-pick" aria-label="Attach images" title="Attach images (or paste / drop them)">${PICKER_ICON}</button>
          <button type="submit" class="composer-send" aria-label="Send">Send</button>
        </div>
        <input type="file" class="composer-file" accept="image/*" multiple hidden>
        <div class="composer-error" role="alert" hidden></div>
      </form>
      <div class="pet-menu" role="menu" aria-label="Character menu" hidden>
        <button type="button" class="pet-menu-item" role="menuitem" data-action="settings">Settings…</button>
        <button type="button" class="pet-menu-item" role="menuitem" data-action="reset">New conversation</button>
        <div class="pet-menu-confirm" role="group" hidden>
          <div class="pet-menu-ask">Start over?</div>
          <div class="pet-menu-choices">
            <button type="button" class="pet-menu-item pet-menu-choice" role="menuitem" data-action="reset-yes">Yes</button>
            <button type="button" class="pet-menu-item pet-menu-choice" role="menuitem" data-action="reset-cancel">Cancel</button>
          </div>
        </div>
        <button type="button" class="pet-menu-item" role="menuitem" data-action="mute-character" hidden>Mute voice</button>
        <div class="pet-menu-desktop" role="group" aria-label="Yui" hidden>
          <div class="pet-menu-sep" role="separator"></div>
          <button type="button" class="pet-menu-item" role="menuitem" data-action="hide">Hide</button>
          <button type="button" class="pet-menu-item" role="menuitem" data-action="reset-position">Reset position</button>
          <button type="button" class="pet-menu-item pet-menu-check" role="menuitemcheckbox" aria-checked="false" data-action="mute">Mute voices</button>
          <button type="button" class="pet-menu-item pet-menu-check" role="menuitemcheckbox" aria-checked="false" data-action="start-at-login">Start at login</button>
          <div class="pet-menu-sep" role="separator"></div>
          <button type="button" class="pet-menu-item" role="menuitem" data-action="quit">Quit Yui</button>
        </div>
      </div>`;
    const $ = <T extends Element>(sel: string) => this.root.querySelector(sel) as T;
    const changed = () => this.queueRegion();
    this.pending = new PendingSend(() => sched.now());
    this.character = new Character(sched, motion);
    $('.stage').append(this.character.el);
    this.bubble = new SpeechBubble(sched, (u) => this.openURL(u), changed);
    $('.bubble-wrap').append(this.bubble.el);
    this.reasoning = new ReasoningView(changed);
    this.chip = new DelegationsChip(sched, changed);
    $('.topbar').append(this.reasoning.el, this.chip.chip);
    this.root.append(this.chip.list);
    // The capture segment opens this character's settings at Screen.
    this.pill = new StatusPill(() => this.openSettings('permissions'));
    $('.status-row').prepend(this.pill.el);
    this.usage = new UsageReadout();
    this.root.append(this.usage.el);
    this.tray = new AttachmentTray(changed, opts.readImage);
    this.permission = new PermissionPromptView((id, answer) => this.host.send({ type: 'permission_answer', id, answer }));
    this.root.append(this.permission.el);
    this.notice = $('.notice');
    this.plate = $('.plate');
    this.plateText = $('.plate-text');
    this.plateAction = $('.plate-action');
    this.composer = $('.composer');
    this.composer.prepend(this.tray.el);
    this.input = $('.composer-input');
    this.sendBtn = $('.composer-send');
    this.pickBtn = $('.composer-pick');
    this.fileInput = $('.composer-file');
    this.errorLine = $('.composer-error');
    this.menu = $('.pet-menu');
    this.menuSettings = $('.pet-menu-item');
    this.menuReset = $('.pet-menu-item[data-action="reset"]');
    this.menuMuteCharacter = $('.pet-menu-item[data-action="mute-character"]');
    this.menuConfirm = $('.pet-menu-confirm');
    this.menuYes = $('.pet-menu-choice[data-action="reset-yes"]');
    this.menuCancel = $('.pet-menu-choice[data-action="reset-cancel"]');
    this.menuDesktop = $('.pet-menu-desktop');
    this.menuHide = $('.pet-menu-item[data-action="hide"]');
    this.menuResetPosition = $('.pet-menu-item[data-action="reset-position"]');
    this.menuMute = $('.pet-menu-item[data-action="mute"]');
    this.menuLogin = $('.pet-menu-item[data-action="start-at-login"]');
    this.menuQuit = $('.pet-menu-item[data-action="quit"]');
    const ask = $<HTMLElement>('.pet-menu-ask');
    ask.id = `pet-menu-ask-${++menuSeq}`;
    this.menuConfirm.setAttribute('aria-labelledby', ask.id);
    this.menuYes.setAttribute('aria-describedby', ask.id);
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
    const settled = this.pending.answer(m);
    if (settled?.answer === 'accepted') this.clearSentDraft(settled.draft);
    switch (m.type) {
      case 'preset':
        this.root.dataset.preset = m.id;
        this.character.el.setAttribute('aria-label', m.name);
        this.character.el.title = m.name;
        this.menuHide.textContent = `Hide ${m.name}`;
        this.character.setLook(m.look);
        break;
      case 'desktop':
        this.menuDesktop.hidden = false;
        this.menuMute.setAttribute('aria-checked', String(m.voices_muted));
        this.menuLogin.setAttribute('aria-checked', String(m.start_at_login));
        this.menuLogin.hidden = !m.start_at_login_available;
        if (this.menuOpen) this.placeMenu(); // it may have grown
        break;
      case 'plate':
        this.plate.hidden = m.kind === '' || m.text === '';
        this.plate.dataset.kind = m.kind;
        this.plateText.textContent = m.text;
        this.plateAction.hidden = !m.action;
        this.plateAction.dataset.action = m.action ?? '';
        this.plateAction.textContent = PLATE_ACTIONS[m.action ?? ''] ?? (m.action ?? '');
        break;
      case 'composer':
        this.locked = m.locked;
        this.input.disabled = m.locked;
        this.pickBtn.disabled = m.locked;
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
      case 'permission':
        this.permission.apply(m);
        break;
      case 'notice':
        this.noticeId = m.id;
        this.notice.hidden = m.text === '';
        this.notice.querySelector('.notice-text')!.textContent = m.text;
        break;
      case 'character':
        this.character.set(m);
        return; // the character's box never changes
      case 'mouth':
        this.character.setLevels(m.at, m.step_ms, m.levels ?? []);
        return;
      case 'voice':
        this.voice = { muted: m.muted, globalMuted: m.global_muted };
        this.root.dataset.muted = String(m.muted || m.global_muted);
        this.menuMuteCharacter.textContent = m.muted ? 'Unmute voice' : 'Mute voice';
        this.menuMuteCharacter.dataset.muted = String(m.muted);
        this.menuMuteCharacter.hidden = m.engine === 'off';
        if (this.menuOpen) this.placeMenu();
        return;
      case 'bubble':
        this.bubble.apply(m);
        return; // the bubble reports its own changes
      case 'pill':
        this.pill.apply(m);
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
        return;
    }
    this.queueRegion();
  }

  get composerOpen(): boolean {
    return !this.composer.hidden;
  }

  openComposer(): void {
    this.composer.hidden = false;
    this.root.dataset.composer = 'open';
    this.input.focus();
    this.queueRegion();
  }

  closeComposer(): void {
    this.composer.hidden = true;
    delete this.root.dataset.composer;
    this.queueRegion();
  }

  get menuOpen(): boolean {
    return !this.menu.hidden;
  }

  /** Opens the character's menu at (x, y) in page pixels, kept inside the
   * window, with its first item focused. */
  openMenu(x: number, y: number, returnTo: Element | null = document.activeElement): void {
    if (this.menu.hidden) {
      const was = returnTo;
      this.menuReturn = was instanceof HTMLElement && was !== document.body && !this.menu.contains(was) ? was : null;
    }
    this.menu.hidden = false;
    this.showConfirm(false);
    this.menuAt = { x, y };
    this.placeMenu();
    this.menuItems()[0]?.focus();
    this.queueRegion();
  }

  /** Whether the menu asks "Start over?" now. */
  get menuConfirming(): boolean {
    return !this.menuConfirm.hidden;
  }

  /** Keeps the menu at its point, inside the window. Without a layout (no
   * size yet) the point is used as it is. */
  private placeMenu(): void {
    const { x, y } = this.menuAt;
    const fit = (v: number, room: number, size: number) => (room > 0 ? Math.max(4, Math.min(v, room - size - 4)) : v);
    this.menu.style.left = `${Math.round(fit(x, this.root.clientWidth, this.menu.offsetWidth))}px`;
    this.menu.style.top = `${Math.round(fit(y, this.root.clientHeight, this.menu.offsetHeight))}px`;
  }

  /** Swaps "New conversation" for its question (Yes / Cancel) or back. */
  private showConfirm(on: boolean): void {
    if (this.menuConfirm.hidden === !on) return;
    this.menuReset.hidden = on;
    this.menuConfirm.hidden = !on;
  }

  /** "New conversation" asks first, in the menu itself (the window is too
   * small for a dialog): Cancel has the focus, so a double click or a held
   * Enter does not start over by accident. */
  private askReset(): void {
    this.showConfirm(true);
    this.placeMenu(); // it grew
    this.menuCancel.focus();
    this.queueRegion();
  }

  /** Closes the menu. A focus inside it goes back where it was before the
   * menu opened (or leaves it, when nothing had the focus). */
  closeMenu(): void {
    if (this.menu.hidden) return;
    const hadFocus = this.menu.contains(document.activeElement);
    this.menu.hidden = true;
    this.showConfirm(false);
    const back = this.menuReturn;
    this.menuReturn = null;
    if (hadFocus) {
      if (back?.isConnected && !(back as HTMLButtonElement).disabled) back.focus();
      if (this.menu.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    }
    this.queueRegion();
  }

  /** The menu's items that can take the focus, in order (not Yes and
   * Cancel while their question is hidden). */
  private menuItems(): HTMLElement[] {
    const shown = (e: HTMLElement) => {
      for (let n: HTMLElement | null = e; n && n !== this.menu; n = n.parentElement) if (n.hidden) return false;
      return true;
    };
    return [...this.menu.querySelectorAll<HTMLElement>('[role=menuitem],[role=menuitemcheckbox]')]
      .filter((e) => shown(e) && !(e as HTMLButtonElement).disabled);
  }

  /** Arrow keys (wrapping), Home and End move among the menu's items;
   * Left and Right also move between Yes and Cancel, side by side. */
  private menuKey(e: KeyboardEvent): void {
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && this.menuConfirming) {
      const a = document.activeElement;
      if (a === this.menuYes || a === this.menuCancel) {
        e.preventDefault();
        (a === this.menuYes ? this.menuCancel : this.menuYes).focus();
      }
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const items = this.menuItems();
    if (items.length === 0) return;
    e.preventDefault();
    const i = items.indexOf(document.activeElement as HTMLElement);
    const n = items.length;
    const j = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1
      : e.key === 'ArrowDown' ? (i + 1) % n : i < 0 ? n - 1 : (i - 1 + n) % n;
    items[j]!.focus();
  }

  /** Asks the core to open the settings window on this character. */
  private openSettings(section?: 'permissions'): void {
    this.host.send(section ? { type: 'open_settings', section } : { type: 'open_settings' });
  }

  private openURL(url: string): void {
    this.host.openURL?.(url);
  }

  private submit(): void {
    if (this.locked) {
      this.host.send({ type: 'stop' });
      return;
    }
    const text = this.input.value.trim();
    const images = this.tray.images;
    if (text === '' && images.length === 0) return;
    // A second Enter while the core has not answered the first is ignored
    // (the text stays in the input until the core accepts it).
    if (this.pending.awaiting) return;
    const msg: PageMessage = images.length ? { type: 'send_text', text, images } : { type: 'send_text', text };
    if (this.host.send(msg)) this.pending.sent({ text, images });
  }

  /** The core accepted the sent line (docs/view-protocol.md, "Page
   * presentation state"; src/draft.ts): the text and images leave the
   * composer, unless the user changed them in the meantime. */
  private clearSentDraft(sent: SentDraft): void {
    if (this.input.value.trim() === sent.text) this.input.value = '';
    const now = this.tray.images;
    if (now.length === sent.images.length && now.every((u, i) => u === sent.images[i])) this.tray.clear();
  }

  /** Adds images from a paste, drop or the picker, opening the composer. */
  private attach(files: FileList | File[] | null | undefined): boolean {
    const list = files ? [...files].filter((f) => f.type.startsWith('image/')) : [];
    if (list.length === 0 || this.locked) return false;
    if (!this.composerOpen) this.openComposer();
    void this.tray.add(list);
    return true;
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
    this.input.addEventListener('paste', (e) => {
      if (this.attach(e.clipboardData?.files)) e.preventDefault();
    });
    this.pickBtn.addEventListener('click', () => this.fileInput.click());
    this.fileInput.addEventListener('change', () => {
      this.attach(this.fileInput.files);
      this.fileInput.value = '';
    });
    this.root.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }
    });
    this.root.addEventListener('drop', (e) => {
      if (this.attach(e.dataTransfer?.files)) e.preventDefault();
    });
    this.notice.querySelector('.notice-close')!.addEventListener('click', () => {
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
    // Right-click on the character: a tiny menu (Settings…, New
    // conversation, Mute voice for this character, and the tray's items:
    // Hide, Mute voices for all, Start at login, Quit Yui).
    this.character.el.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      const box = this.root.getBoundingClientRect();
      const before = this.pressFocus ?? document.activeElement;
      this.pressFocus = null;
      this.openMenu(e.clientX - box.left, e.clientY - box.top, before);
    });
    this.menuSettings.addEventListener('click', () => {
      this.closeMenu();
      this.openSettings();
    });
    // The core saves the mute and answers with a new `voice` state.
    this.menuMuteCharacter.addEventListener('click', () => {
      this.closeMenu();
      this.host.send({ type: 'mute', scope: 'character', muted: !this.voice.muted });
    });
    // New conversation → "Start over? Yes / Cancel" in the menu; Yes asks
    // the core to reset this character's conversation.
    this.menuReset.addEventListener('click', () => this.askReset());
    this.menuYes.addEventListener('click', (e) => {
      // The second click of a double click on the item (the menu may have
      // moved up as it grew, putting Yes under the pointer) is no answer.
      if (e.detail > 1) return;
      this.closeMenu();
      this.host.send({ type: 'reset' });
    });
    this.menuCancel.addEventListener('click', () => this.closeMenu());
    // The app-wide items: each closes the menu and asks the core.
    const desktop = (btn: HTMLButtonElement, action: () => DesktopActionKind) => btn.addEventListener('click', () => {
      const a = action();
      this.closeMenu();
      this.host.send({ type: 'desktop_action', action: a });
    });
    desktop(this.menuHide, () => 'hide');
    desktop(this.menuResetPosition, () => 'reset_position');
    desktop(this.menuMute, () => (this.menuMute.getAttribute('aria-checked') === 'true' ? 'unmute' : 'mute'));
    desktop(this.menuLogin, () => (this.menuLogin.getAttribute('aria-checked') === 'true' ? 'start_at_login_off' : 'start_at_login_on'));
    desktop(this.menuQuit, () => 'quit');
    this.menu.addEventListener('keydown', (e) => this.menuKey(e));
    // A press anywhere else (in the window) or the window losing focus
    // closes it; presses outside the click region go to other windows.
    document.addEventListener('pointerdown', (e) => {
      this.pressFocus = document.activeElement;
      if (this.menuOpen && !(e.target instanceof Node && this.menu.contains(e.target))) this.closeMenu();
    }, true);
    window.addEventListener('blur', () => this.closeMenu());
    document.addEventListener('keydown', () => { this.pressFocus = null; }, true);
    document.addEventListener('keydown', (e) => {
      // Ctrl+Space opens the composer from anywhere in the window.
      if (e.key === ' ' && e.ctrlKey) {
        e.preventDefault();
        this.openComposer();
      } else if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        // The keyboard's way to the menu: under the character's face.
        e.preventDefault();
        if (this.menuOpen) return;
        const box = this.root.getBoundingClientRect();
        const face = this.character.el.getBoundingClientRect();
        this.openMenu(face.left - box.left + face.width / 2, face.top - box.top + face.height / 3);
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
      }
      if (!dragging) return;
      start.dx = dx;
      start.dy = dy;
      if (start.win) this.host.moveWindow(start.win.x + dx, start.win.y + dy);
    });
    const end = () => {
      if (!start) return;
      const s = start;
      const wasDrag = dragging;
      start = null;
      dragging = false;
      if (wasDrag) {
        this.character.setMotion('idle');
        s.ended = true;
        // Still asking for the position: the answer finishes the drag.
        if (!s.asked) this.host.windowMoved?.();
      } else if (this.composerOpen) this.closeComposer();
      else this.openComposer();
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', () => {
      if (dragging) this.character.setMotion('idle');
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
      this.host.setInputRegion(this.visibleRects());
    });
  }

  /** The elements whose boxes make the click region. */
  private regionParts(): Element[] {
    return [
      this.character.el.querySelector('svg') ?? this.character.el,
      this.notice, this.permission.el, this.reasoning.el, this.chip.chip, this.chip.list, this.bubble.el,
      this.pill.el, this.plate, this.usage.el, this.composer, this.menu,
    ];
  }

  visibleRects(): Rect[] {
    const out: Rect[] = [];
    for (const p of this.regionParts()) {
      if ((p as HTMLElement).hidden) continue;
      const r = p.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      out.push({ x: Math.floor(r.left), y: Math.floor(r.top), w: Math.ceil(r.width), h: Math.ceil(r.height) });
    }
    return out;
  }
}
