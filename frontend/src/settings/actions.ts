// What the settings page can do to a running character beside editing it
// (docs/view-protocol.md, "Settings window": preset_action): the Backend
// section's connection line with its Reconnect button, and the Session
// section's "New conversation". Both act on the saved, switched-on preset
// the core runs — a new character or one switched off has no connection,
// so they show a short note instead. The view decides and sends; these
// only show and report clicks.

import { el } from '../dom';
// tr: t() (these views name their targets t).
import { t as tr } from '../i18n';
import { phrase } from '../corephrases';
import type { PresetStatus } from '../protocol';

/** The selected character as the actions see it. */
export interface ActionTarget {
  /** Saved and switched on: the core runs its connection. */
  live: boolean;
  /** The draft is switched on (what the note asks for when not live). */
  enabledDraft: boolean;
  /** Its connection as settings_status says, if it said. */
  status?: PresetStatus;
}

/** The note for a character the core does not run. */
export function offNote(t: ActionTarget, what: 'connect' | 'talk'): string {
  if (what === 'connect') return tr(t.enabledDraft ? 'settings.off_save_connect' : 'settings.off_switch_connect');
  return tr(t.enabledDraft ? 'settings.off_save_talk' : 'settings.off_switch_talk');
}


function setText(e: HTMLElement, text: string): void {
  if (e.textContent !== text) e.textContent = text;
}

let seq = 0;

/** A row of the Backend section: "Connection  ● connected  [Reconnect]". */
export class ConnectionLine {
  readonly el: HTMLElement;
  private readonly row: HTMLElement;
  private readonly state: HTMLElement;
  private readonly text: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly note: HTMLElement;

  constructor(onReconnect: () => void) {
    const id = `conn${++seq}`;
    this.el = el('div', 'field connection-line');
    this.el.dataset.field = 'connection';
    const label = el('div', 'field-label', tr('settings.connection'));
    label.id = `${id}-label`;
    const body = el('div', 'field-body');
    const line = (this.row = el('div', 'inline conn-row'));
    this.state = el('span', 'conn-status');
    const dot = el('span', 'dot');
    dot.setAttribute('aria-hidden', 'true');
    this.text = el('span', 'conn-text');
    this.text.id = `${id}-text`;
    // Announced when it changes (connecting → connected), not on every render.
    this.text.setAttribute('role', 'status');
    this.text.setAttribute('aria-live', 'polite');
    this.state.append(dot, this.text);
    this.button = el('button', 'btn btn-small conn-reconnect', tr('settings.reconnect'));
    this.button.type = 'button';
    this.button.title = tr('settings.reconnect_tip');
    this.button.setAttribute('aria-describedby', `${label.id} ${this.text.id}`);
    this.button.addEventListener('click', () => onReconnect());
    line.append(this.state, this.button);
    this.note = el('div', 'hint conn-note');
    body.append(line, this.note);
    this.el.append(label, body);
  }

  show(t: ActionTarget): void {
    this.row.hidden = !t.live;
    this.state.hidden = !t.live;
    this.button.hidden = !t.live;
    this.button.disabled = !t.live;
    this.note.hidden = t.live;
    if (!t.live) {
      setText(this.note, offNote(t, 'connect'));
      delete this.state.dataset.state;
      setText(this.text, '');
      return;
    }
    const st = t.status;
    if (st?.state) this.state.dataset.state = st.state;
    else delete this.state.dataset.state;
    setText(this.text, st ? phrase(st.msg, st.text) || st.state : tr('settings.no_status'));
  }
}

/** The Session section's "New conversation" button with its hint. */
export class NewConversation {
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly hint: HTMLElement;

  constructor(onReset: () => void) {
    const id = `reset${++seq}`;
    this.el = el('div', 'session-actions');
    this.button = el('button', 'btn new-conversation', tr('settings.new_conversation'));
    this.button.type = 'button';
    // A focus request for the Session section goes to the history, not here.
    this.button.dataset.noFocus = 'true';
    this.button.addEventListener('click', () => onReset());
    this.hint = el('div', 'hint session-actions-hint');
    this.hint.id = `${id}-hint`;
    this.button.setAttribute('aria-describedby', this.hint.id);
    this.el.append(this.button, this.hint);
  }

  show(t: ActionTarget): void {
    const connected = !t.status || t.status.state === 'ready';
    const can = t.live && connected;
    this.button.disabled = !can;
    setText(this.hint, !t.live ? offNote(t, 'talk')
      : !connected ? tr('settings.once_connected')
      : tr('settings.new_conversation_hint'));
  }
}

/** What the connection test shows: idle, running, or its answer. */
export type TestState =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; kind: string; text: string; cause?: string };

/** A row of the Backend section: "[Test connection]  Connected: 3 models
 * listed." It tests the backend as the form has it, saved or not. */
export class TestConnectionLine {
  readonly el: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly result: HTMLElement;
  private readonly chooseAPI: HTMLButtonElement;

  /** onChooseAPI takes the user to the Chat API field (the server answered
   * the push upgrade with an HTTP status, or a request wire's /models with
   * something that is not a model list: it speaks another API). */
  constructor(onTest: () => void, onChooseAPI: () => void = () => {}) {
    const id = `test${++seq}`;
    this.el = el('div', 'field test-connection');
    this.el.dataset.field = 'test_connection';
    this.el.append(el('div', 'field-label', ''));
    const body = el('div', 'field-body');
    const line = el('div', 'inline');
    this.button = el('button', 'btn btn-small test-connection-btn', tr('settings.test'));
    this.button.type = 'button';
    this.button.title = tr('settings.test_tip');
    this.button.addEventListener('click', () => onTest());
    this.result = el('span', 'test-result');
    this.result.id = `${id}-result`;
    this.result.setAttribute('role', 'status');
    this.result.setAttribute('aria-live', 'polite');
    this.button.setAttribute('aria-describedby', this.result.id);
    this.chooseAPI = el('button', 'btn btn-small test-choose-api', tr('settings.choose_api'));
    this.chooseAPI.type = 'button';
    this.chooseAPI.hidden = true;
    this.chooseAPI.addEventListener('click', () => onChooseAPI());
    line.append(this.button, this.result, this.chooseAPI);
    body.append(line);
    this.el.append(body);
  }

  show(t: TestState): void {
    this.button.disabled = t.state === 'running';
    this.chooseAPI.hidden = t.state !== 'done' || (t.cause !== 'not_push' && t.cause !== 'not_api');
    if (t.state === 'idle') {
      delete this.result.dataset.kind;
      setText(this.result, '');
      return;
    }
    if (t.state === 'running') {
      this.result.dataset.kind = 'running';
      setText(this.result, tr('settings.testing'));
      return;
    }
    this.result.dataset.kind = t.kind;
    setText(this.result, t.text);
  }
}
