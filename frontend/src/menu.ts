// The character's menu (right-click on her): Settings…, Messages…, New conversation
// (asking "Start over?" in the menu itself), Mute <name> for this character,
// and the tray's app-wide items (docs/view-protocol.md, "Desktop menu").
// It keeps only presentation state: open or closed, where, and where the
// focus goes back. Every choice is handed to its owner through MenuActions.
import './menu.css';
import { button, el } from './dom';
import type { Companion, DesktopActionKind, Desktop, PresetInfo, VoiceState } from './protocol';
import { t } from './i18n';

/** What the menu's items do; the owner sends the core's messages. */
export interface MenuActions {
  settings(): void;
  /** Opens her message window. */
  messages(): void;
  /** "Yes" to "Start over?". */
  reset(): void;
  /** This character's Mute <name> / Unmute <name>: the wanted state. */
  muteCharacter(muted: boolean): void;
  /** "Send my voice here": spoken turns go to this character. */
  listenTarget(): void;
  /** Quiet <name> (scope character) or Quiet companion (all): the wanted state. */
  quiet(scope: 'character' | 'all', quiet: boolean): void;
  desktop(action: DesktopActionKind): void;
  /** Go to bed / Wake up (her body, docs/desktop-life.md). */
  bed?(action: 'go_to_bed' | 'wake'): void;
  /** The menu's shown parts changed (the click region). */
  changed(): void;
  /** The room the menu is placed in (0 × 0: no layout yet). */
  room(): { width: number; height: number };
}

let menuSeq = 0;

export class PetMenu {
  readonly el: HTMLElement;
  private readonly settings: HTMLButtonElement;
  private readonly messages: HTMLButtonElement;
  private readonly reset: HTMLButtonElement;
  private readonly confirm: HTMLElement;
  private readonly yes: HTMLButtonElement;
  private readonly cancel: HTMLButtonElement;
  private readonly muteCharacter: HTMLButtonElement;
  private readonly listenTarget: HTMLButtonElement;
  /** Quiet <name>: she does not speak first (docs/proactive.md). */
  private readonly quietCharacter: HTMLButtonElement;
  /** Go to bed, or Wake up while she sleeps. */
  private readonly bed: HTMLButtonElement;
  /** The app-wide items: shown once the core has sent their state. */
  private readonly desktop: HTMLElement;
  private readonly hide: HTMLButtonElement;
  private readonly resetPosition: HTMLButtonElement;
  private readonly mute: HTMLButtonElement;
  private readonly quietAll: HTMLButtonElement;
  private readonly login: HTMLButtonElement;
  private readonly quit: HTMLButtonElement;
  private voice = { muted: false };
  /** The character's name, for "Mute Yui" ('' until the core says). */
  private name = '';
  /** Where the menu was asked to open (it is placed again when its size changes). */
  private at = { x: 0, y: 0 };
  /** Where the focus was when the menu opened (it goes back there). */
  private returnTo: HTMLElement | null = null;

  constructor(private readonly actions: MenuActions) {
    const item = (action: string, label: string, hidden = false, cls = 'pet-menu-item') =>
      button(cls, label, { role: 'menuitem', 'data-action': action }, hidden);
    const check = (action: string, label: string) =>
      button('pet-menu-item pet-menu-check', label, { role: 'menuitemcheckbox', 'aria-checked': 'false', 'data-action': action });
    const sep = () => el('div', { class: 'pet-menu-sep', attrs: { role: 'separator' } });
    this.settings = item('settings', t('menu.settings'));
    // Shown once the core says which character this window shows.
    this.messages = item('messages', t('menu.messages'), true);
    this.messages.title = t('menu.messages_tip');
    this.reset = item('reset', t('menu.reset'));
    this.yes = item('reset-yes', t('menu.yes'), false, 'pet-menu-item pet-menu-choice');
    this.cancel = item('reset-cancel', t('menu.cancel'), false, 'pet-menu-item pet-menu-choice');
    const ask = el('div', { class: 'pet-menu-ask', attrs: { id: `pet-menu-ask-${++menuSeq}` } }, t('menu.start_over'));
    this.confirm = el('div', { class: 'pet-menu-confirm', attrs: { role: 'group', 'aria-labelledby': ask.id }, hidden: true },
      ask, el('div', 'pet-menu-choices', this.yes, this.cancel));
    this.yes.setAttribute('aria-describedby', ask.id);
    // Two mutes side by side: this character's is named after her, the
    // app-wide one says "all" (docs/decisions.md, "Two mutes, two names").
    this.muteCharacter = item('mute-character', t('menu.mute_voice'), true);
    this.muteCharacter.title = t('menu.mute_character_tip');
    // Shown while listening is on and spoken turns go to another character.
    this.listenTarget = item('listen-target', t('menu.listen_target'), true);
    this.quietCharacter = check('quiet-character', t('menu.quiet'));
    this.quietCharacter.title = t('menu.quiet_tip');
    this.quietCharacter.hidden = true;
    // Shown once the core says how her body is (the body topic).
    this.bed = item('bed', t('menu.bed'), true);
    this.hide = item('hide', t('menu.hide'));
    this.resetPosition = item('reset-position', t('menu.reset_position'));
    this.resetPosition.title = t('menu.reset_position_tip');
    this.mute = check('mute', t('menu.mute_all'));
    this.mute.title = t('menu.mute_all_tip');
    this.quietAll = check('quiet-all', t('menu.quiet_all'));
    this.quietAll.title = t('menu.quiet_all_tip');
    this.login = check('start-at-login', t('menu.login'));
    this.quit = item('quit', t('menu.quit'));
    this.desktop = el('div', { class: 'pet-menu-desktop', attrs: { role: 'group', 'aria-label': 'Yui' }, hidden: true },
      sep(), this.hide, this.resetPosition, this.bed, this.mute, this.quietAll, this.login, sep(), this.quit);
    this.el = el('div', { class: 'pet-menu', attrs: { role: 'menu', 'aria-label': t('menu.label') }, hidden: true },
      this.settings, this.messages, this.reset, this.confirm, this.muteCharacter, this.quietCharacter, this.listenTarget,
      this.desktop);
    this.wire();
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Whether the menu asks "Start over?" now. */
  get confirming(): boolean {
    return !this.confirm.hidden;
  }

  /** Applies the core's state for the menu's items. */
  applyPreset(m: PresetInfo): void {
    this.hide.textContent = t('menu.hide_named', { name: m.name });
    this.messages.hidden = false;
    this.name = m.name;
    this.nameMute();
    this.quietCharacter.textContent = m.name.trim() ? t('menu.quiet_named', { name: m.name.trim() }) : t('menu.quiet_all');
  }

  /** The quiet companion switches: hers and everyone's. */
  applyCompanion(m: Companion): void {
    this.quietCharacter.hidden = false;
    this.quietCharacter.setAttribute('aria-checked', String(m.quiet));
    this.quietAll.setAttribute('aria-checked', String(m.global_quiet));
    if (this.open) this.place();
  }

  applyDesktop(m: Desktop): void {
    this.desktop.hidden = false;
    this.mute.setAttribute('aria-checked', String(m.voices_muted));
    this.login.setAttribute('aria-checked', String(m.start_at_login));
    this.login.hidden = !m.start_at_login_available;
    if (this.open) this.place(); // it may have grown
  }

  applyVoice(m: VoiceState): void {
    this.voice = { muted: m.muted };
    this.nameMute();
    this.muteCharacter.dataset.muted = String(m.muted);
    this.muteCharacter.hidden = m.engine === 'off';
    if (this.open) this.place();
  }

  /** Her posture (the core's body topic): Wake up while she sleeps. */
  applyBody(posture: string): void {
    const sleeping = posture === 'sleeping';
    this.bed.hidden = false;
    this.bed.textContent = sleeping ? t('menu.wake') : t('menu.bed');
    this.bed.dataset.action = sleeping ? 'wake' : 'bed';
  }

  /** "Mute Yui" / "Unmute Yui" ("Mute voice" before the name is known). */
  private nameMute(): void {
    const name = this.name.trim();
    const muted = this.voice.muted;
    this.muteCharacter.textContent = name
      ? t(muted ? 'menu.unmute_named' : 'menu.mute_named', { name })
      : t(muted ? 'menu.unmute_voice' : 'menu.mute_voice');
  }

  /** Shows "Send my voice here" when spoken turns go elsewhere (`offer`). */
  offerListenTarget(offer: boolean): void {
    this.listenTarget.hidden = !offer;
    if (this.open) this.place();
  }

  /** Opens the menu at (x, y) in the room's pixels, kept inside it, with
   * its first item focused. */
  openAt(x: number, y: number, returnTo: Element | null = document.activeElement): void {
    if (this.el.hidden) {
      this.returnTo = returnTo instanceof HTMLElement && returnTo !== document.body && !this.el.contains(returnTo) ? returnTo : null;
    }
    this.el.hidden = false;
    this.showConfirm(false);
    this.at = { x, y };
    this.place();
    this.items()[0]?.focus();
    this.actions.changed();
  }

  /** Closes the menu. A focus inside it goes back where it was before the
   * menu opened (or leaves it, when nothing had the focus). */
  close(): void {
    if (this.el.hidden) return;
    const hadFocus = this.el.contains(document.activeElement);
    this.el.hidden = true;
    this.showConfirm(false);
    const back = this.returnTo;
    this.returnTo = null;
    if (hadFocus) {
      if (back?.isConnected && !(back as HTMLButtonElement).disabled) back.focus();
      if (this.el.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    }
    this.actions.changed();
  }

  /** Keeps the menu at its point, inside the room. Without a layout (no
   * size yet) the point is used as it is. */
  private place(): void {
    const { x, y } = this.at;
    const room = this.actions.room();
    const fit = (v: number, space: number, size: number) => (space > 0 ? Math.max(4, Math.min(v, space - size - 4)) : v);
    this.el.style.left = `${Math.round(fit(x, room.width, this.el.offsetWidth))}px`;
    this.el.style.top = `${Math.round(fit(y, room.height, this.el.offsetHeight))}px`;
  }

  /** Swaps "New conversation" for its question (Yes / Cancel) or back. */
  private showConfirm(on: boolean): void {
    if (this.confirm.hidden === !on) return;
    this.reset.hidden = on;
    this.confirm.hidden = !on;
  }

  /** "New conversation" asks first, in the menu itself (the window is too
   * small for a dialog): Cancel has the focus, so a double click or a held
   * Enter does not start over by accident. */
  private askReset(): void {
    this.showConfirm(true);
    this.place(); // it grew
    this.cancel.focus();
    this.actions.changed();
  }

  /** The items that can take the focus, in order (not Yes and Cancel
   * while their question is hidden). */
  private items(): HTMLElement[] {
    const shown = (e: HTMLElement) => {
      for (let n: HTMLElement | null = e; n && n !== this.el; n = n.parentElement) if (n.hidden) return false;
      return true;
    };
    return [...this.el.querySelectorAll<HTMLElement>('[role=menuitem],[role=menuitemcheckbox]')]
      .filter((e) => shown(e) && !(e as HTMLButtonElement).disabled);
  }

  /** Arrow keys (wrapping), Home and End move among the items; Left and
   * Right also move between Yes and Cancel, side by side. */
  private key(e: KeyboardEvent): void {
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && this.confirming) {
      const a = document.activeElement;
      if (a === this.yes || a === this.cancel) {
        e.preventDefault();
        (a === this.yes ? this.cancel : this.yes).focus();
      }
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const items = this.items();
    if (items.length === 0) return;
    e.preventDefault();
    const i = items.indexOf(document.activeElement as HTMLElement);
    const n = items.length;
    const j = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1
      : e.key === 'ArrowDown' ? (i + 1) % n : i < 0 ? n - 1 : (i - 1 + n) % n;
    items[j]!.focus();
  }

  private wire(): void {
    this.settings.addEventListener('click', () => {
      this.close();
      this.actions.settings();
    });
    // The core saves the mute and answers with a new `voice` state.
    this.messages.addEventListener('click', () => {
      this.close();
      this.actions.messages();
    });
    this.muteCharacter.addEventListener('click', () => {
      this.close();
      this.actions.muteCharacter(!this.voice.muted);
    });
    this.listenTarget.addEventListener('click', () => {
      this.close();
      this.actions.listenTarget();
    });
    const quiet = (btn: HTMLButtonElement, scope: 'character' | 'all') => btn.addEventListener('click', () => {
      const on = btn.getAttribute('aria-checked') !== 'true';
      this.close();
      this.actions.quiet(scope, on);
    });
    quiet(this.quietCharacter, 'character');
    quiet(this.quietAll, 'all');
    this.bed.addEventListener('click', () => {
      const a = this.bed.dataset.action === 'wake' ? 'wake' : 'go_to_bed';
      this.close();
      this.actions.bed?.(a);
    });
    this.reset.addEventListener('click', () => this.askReset());
    this.yes.addEventListener('click', (e) => {
      // The second click of a double click on the item (the menu may have
      // moved up as it grew, putting Yes under the pointer) is no answer.
      if (e.detail > 1) return;
      this.close();
      this.actions.reset();
    });
    this.cancel.addEventListener('click', () => this.close());
    const desktop = (btn: HTMLButtonElement, action: () => DesktopActionKind) => btn.addEventListener('click', () => {
      const a = action();
      this.close();
      this.actions.desktop(a);
    });
    desktop(this.hide, () => 'hide');
    desktop(this.resetPosition, () => 'reset_position');
    desktop(this.mute, () => (this.mute.getAttribute('aria-checked') === 'true' ? 'unmute' : 'mute'));
    desktop(this.login, () => (this.login.getAttribute('aria-checked') === 'true' ? 'start_at_login_off' : 'start_at_login_on'));
    desktop(this.quit, () => 'quit');
    this.el.addEventListener('keydown', (e) => this.key(e));
  }
}
