// The settings window follows a change of the UI language at once
// (docs/languages.md): the core's settings_state says the language in force
// (ui_language); when it changes (from the first one this page saw) to one
// other than the page's, and nothing is being edited or saved, the page
// takes it and builds its sections again, then
// gives them the latest of each message it has had (what the core would
// replay on a new connection). Answers to requests (a test's, a save's)
// and the level meter are not replayed.

import { catalogues, language, setLanguage, type Lang } from '../i18n';
import type { CoreMessage } from '../protocol';

const TRANSIENT = new Set(['connection_test', 'settings_result', 'mind_result', 'listen_level', 'settings_focus']);

/** A page whose parts can be built again in another language. */
export interface Rebuildable {
  /** Nothing is edited or waiting for the core's answer. */
  idle(): boolean;
  /** Drops the parts and builds them again (in the language now set). */
  rebuild(): void;
  /** Gives a message to the parts. */
  apply(m: CoreMessage): void;
}

export class LanguageFollower {
  private readonly latest = new Map<string, CoreMessage>();
  private wanted: Lang | null = null;
  /** The ui_language of the latest settings_state ('' before one). */
  private seen = '';

  constructor(private readonly page: Rebuildable) {}

  /** Records m, gives it to the page, and switches when the time is right. */
  apply(m: CoreMessage): void {
    if (!TRANSIENT.has(m.type)) {
      this.latest.delete(m.type);
      this.latest.set(m.type, m);
    }
    if (m.type === 'settings_state' && m.ui_language) {
      // The first state says the language the window was started in (the
      // page's own, or ?lang= in a browser): only a change is followed.
      if (this.seen !== '' && m.ui_language !== this.seen && m.ui_language in catalogues) this.wanted = m.ui_language as Lang;
      this.seen = m.ui_language;
    }
    this.page.apply(m);
    this.follow();
  }

  /** Switches to the wanted language when it differs and the page is idle. */
  follow(): void {
    if (!this.wanted || this.wanted === language() || !this.page.idle()) return;
    setLanguage(this.wanted);
    this.page.rebuild();
    for (const m of this.latest.values()) this.page.apply(m);
  }
}
