// The status pill: the tool segment (running dot, done check, failed mark;
// the core holds done/failed for 1.5 s), a spoken turn's error line and a
// short voice error (a sentence shown without its sound).
// Hidden when there is nothing to say. The capture segment (a screenshot
// goes with every turn) is a button: it opens the character's settings at
// the Screen section, where that is switched off. Only the tool and error
// segments are the live region (a button inside one would be read out with
// every change, and a live region should hold text only).

import './pill.css';
import { el } from './dom';
import type { Pill as PillMsg } from './protocol';
import { t } from './i18n';

const MARK: Record<string, string> = { running: '', done: '✓', failed: '✕' };

export class StatusPill {
  readonly el: HTMLElement;
  /** The live region: the tool and error segments. */
  private readonly live: HTMLElement;
  private readonly tool: HTMLElement;
  private readonly mark: HTMLElement;
  private readonly label: HTMLElement;
  private readonly error: HTMLElement;
  private readonly voice: HTMLElement;
  private readonly capture: HTMLElement;

  constructor(private readonly openSettings: () => void = () => {}) {
    this.el = el('div');
    this.el.className = 'pill';
    this.el.hidden = true;
    this.live = el('span');
    this.live.className = 'pill-live';
    this.live.setAttribute('role', 'status');
    this.live.setAttribute('aria-live', 'polite');
    this.live.dataset.empty = 'true';
    this.tool = el('span');
    this.tool.className = 'pill-seg pill-tool';
    this.tool.hidden = true;
    this.mark = el('span');
    this.mark.className = 'pill-mark';
    this.mark.setAttribute('aria-hidden', 'true');
    this.label = el('span');
    this.label.className = 'pill-label';
    this.tool.append(this.mark, this.label);
    this.error = el('span');
    this.error.className = 'pill-seg pill-error';
    this.error.hidden = true;
    this.voice = el('span');
    this.voice.className = 'pill-seg pill-voice';
    this.voice.hidden = true;
    this.capture = el('span');
    this.capture.className = 'pill-seg pill-capture';
    this.capture.hidden = true;
    this.capture.textContent = 'screen';
    this.capture.title = t('pill.capture_tip');
    this.capture.setAttribute('aria-label', t('pill.capture_label'));
    this.capture.setAttribute('role', 'button');
    this.capture.tabIndex = 0;
    this.capture.addEventListener('click', () => this.openSettings());
    this.capture.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        this.openSettings();
      }
    });
    this.live.append(this.tool, this.error, this.voice);
    this.el.append(this.capture, this.live);
  }

  apply(m: PillMsg): void {
    const t = m.tool;
    if (t) {
      const state = t.state in MARK ? t.state : 'running';
      this.tool.hidden = false;
      this.tool.dataset.state = state;
      this.tool.dataset.tool = t.tool_id;
      this.mark.textContent = MARK[state]!;
      const name = t.label || t.tool_id;
      this.label.textContent = name;
      this.tool.setAttribute('aria-label', `${name}: ${state}`);
      // The phrase ("Using read_file…") is the longer line for the user's own turn.
      this.tool.title = t.phrase ? `${t.phrase} (${state})` : `${name} (${state})`;
    } else {
      this.tool.hidden = true;
      delete this.tool.dataset.state;
    }
    this.error.hidden = !m.error;
    this.error.textContent = m.error ?? '';
    this.error.title = m.error ?? '';
    // A sentence that could not be voiced ("voice: check the speech key").
    this.voice.hidden = !m.voice;
    this.voice.textContent = m.voice ?? '';
    this.voice.title = m.voice ? `${m.voice} — the text still shows` : '';
    this.capture.hidden = !m.capture;
    // An empty live region stays in the page (so what comes next is
    // announced) but out of the pill's row (no gap after the capture segment).
    const quiet = this.tool.hidden && this.error.hidden && this.voice.hidden;
    if (quiet) this.live.dataset.empty = 'true';
    else delete this.live.dataset.empty;
    this.el.hidden = quiet && this.capture.hidden;
  }
}
