// Listening in the pet window (docs/voice.md, "Listening"): the status
// pill's voice segment and push-to-talk. The core does the listening; the
// page shows its state and reports the push-to-talk key.
//
// The segment shows while the microphone is open or something happens:
// "listening" (a red dot: the microphone is open), "hearing you",
// "sending…", or an error with a "fix" button that opens the settings at
// the Listening section. It is a live region of its own (the fix button
// sits beside it, not inside).

import './listen.css';
import { button, el } from './dom';
import type { ListenState } from './protocol';
import { t } from './i18n';

/** The segment's word for a listening mode. */
function modeText(mode: string): string {
  switch (mode) {
    case 'listening': return t('listen.listening');
    case 'hearing': return t('listen.hearing');
    case 'sending': return t('listen.sending');
  }
  return '';
}

export class ListenSegment {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly fix: HTMLButtonElement;
  private state: ListenState | null = null;
  /** Told whether this character is the one spoken turns go to. */
  onTarget: (target: boolean) => void = () => {};

  constructor(private readonly openSettings: () => void) {
    this.el = el('span', { class: 'pill listen-seg', hidden: true });
    this.text = el('span', { class: 'listen-text', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.fix = button('listen-fix', t('listen.fix'), {}, true);
    this.fix.addEventListener('click', () => this.openSettings());
    this.el.append(this.text, this.fix);
  }

  /** The push-to-talk key the core names (KeyboardEvent.key), "" before it said. */
  get key(): string {
    return this.state?.push_to_talk_key ?? '';
  }

  apply(m: ListenState): void {
    this.state = m;
    this.onTarget(m.target);
    const mode = m.mode;
    this.el.dataset.mode = mode;
    this.el.dataset.open = String(m.open);
    if (mode === 'error') {
      this.text.textContent = m.error || t('listen.error');
      this.fix.hidden = !m.fix;
      this.fix.setAttribute('aria-label', t('listen.fix_label', { text: m.error ?? t('listen.listening') }));
    } else {
      this.text.textContent = modeText(mode);
      this.fix.hidden = true;
    }
    this.el.title = m.open ? t('listen.open') : '';
    this.el.hidden = mode === 'off' || (mode !== 'error' && modeText(mode) === '');
  }
}

/**
 * Push-to-talk: while the key is held in this window the core records one
 * utterance. Key repeats are ignored; leaving the window (blur) or hiding
 * it releases the key, so the microphone never stays open by accident.
 */
export class PushToTalk {
  private held = false;
  private readonly down = (e: KeyboardEvent) => {
    if (!this.matches(e)) return;
    e.preventDefault();
    if (e.repeat || this.held) return;
    this.held = true;
    this.send(true);
  };
  private readonly up = (e: KeyboardEvent) => {
    if (!this.matches(e)) return;
    e.preventDefault();
    this.release();
  };
  private readonly blur = () => this.release();

  constructor(
    private readonly key: () => string,
    private readonly send: (held: boolean) => void,
    private readonly target: Window = window,
  ) {
    target.addEventListener('keydown', this.down, true);
    target.addEventListener('keyup', this.up, true);
    target.addEventListener('blur', this.blur);
  }

  private matches(e: KeyboardEvent): boolean {
    const k = this.key();
    return k !== '' && e.key === k;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.send(false);
  }

  dispose(): void {
    this.release();
    this.target.removeEventListener('keydown', this.down, true);
    this.target.removeEventListener('keyup', this.up, true);
    this.target.removeEventListener('blur', this.blur);
  }
}
