// Boots the settings window's page: one form for every character. It is an
// ordinary opaque window, so it brings its own stylesheets (page.css here,
// form.css and history.css with their components; the pet page's CSS, made
// for a transparent window, is not loaded here).
import './page.css';
import { CoreConnection } from '../connection';
import { t } from '../i18n';
import { closeKeys, closeWindow, inWails, keepAboveWhileFocused, startupStep, viewPath, type PageConfig } from '../host';
import type { ImportAnswer } from './lookimport';
import { SettingsView } from './view';
import { ListenSection } from './listen';
import { ProactiveSection } from './proactive';
import { LanguageSection } from './language';
import { TalkSection } from './talk';
import { LanguageFollower } from './relanguage';

/** `socket` opens the view socket (src/earlysocket.ts); by default a new one. */
export function bootSettings(cfg: PageConfig, socket?: (url: string) => WebSocket): void {
  document.documentElement.dataset.host = inWails() ? 'wails' : 'browser';
  keepAboveWhileFocused();
  const app = document.getElementById('app')!;
  let conn: CoreConnection | null = null;
  const send = (m: Parameters<CoreConnection['send']>[0]) => conn?.send(m) ?? false;
  // The window's parts, built again when the UI language changes
  // (relanguage.ts).
  let parts = build();
  let state: 'connecting' | 'open' | 'closed' = 'connecting';
  function build() {
    app.replaceChildren();
    document.title = t('settings.window_title');
    const view = new SettingsView({ send }, {
      looks: {
        send,
        // The model goes to the core's importer over the view server, with
        // this page's token (docs/looks.md).
        upload: async (file) => {
          const res = await fetch(viewPath(cfg.view_url, `/look/import?name=${encodeURIComponent(file.name)}`), {
            method: 'POST', body: file, headers: { 'Content-Type': 'model/gltf-binary' }, credentials: 'omit',
          });
          return (await res.json()) as ImportAnswer;
        },
        modelURL: (look) => viewPath(cfg.view_url, `/look/file?look=${encodeURIComponent(look)}&file=model.vrm`),
      },
    });
    view.mount(app);
    // Listening is for every character: below the character form.
    // Its edits are saved and reverted by the form's Save and Revert.
    const listen = new ListenSection({ send: (m) => conn?.send(m) ?? false });
    listen.mount(app.querySelector('.pane') ?? app);
    view.addPart(listen);
    // Speaking first, for every character: below Listening (docs/proactive.md).
    const proactive = new ProactiveSection();
    proactive.mount(app.querySelector('.pane') ?? app);
    view.addPart(proactive);
    // The languages: the UI's and each character's spoken lines.
    const language = new LanguageSection();
    language.mount(app.querySelector('.pane') ?? app);
    view.addPart(language);
    // How characters talk among themselves, for every character: below it.
    const talk = new TalkSection();
    talk.mount(app.querySelector('.pane') ?? app);
    view.addPart(talk);
    return { view, listen, proactive, language, talk };
  }
  const follower = new LanguageFollower({
    idle: () => !parts.view.saving && !parts.view.hasDrafts,
    rebuild: () => {
      parts = build();
      parts.view.setConnection(state);
      if (state === 'open') parts.listen.reconnected();
    },
    apply: (m) => {
      parts.view.apply(m);
      parts.listen.apply(m);
      parts.proactive.apply(m);
      parts.language.apply(m);
      parts.talk.apply(m);
    },
  });
  // Esc and Ctrl+W close (hide) the window.
  closeKeys(document, closeWindow);
  conn = new CoreConnection(cfg.view_url, (m) => {
    follower.apply(m);
    startupStep('first_state');
  }, (s) => {
    state = s;
    document.documentElement.dataset.core = s;
    if (s === 'open') startupStep('view_socket');
    parts.view.setConnection(s);
    if (s === 'open') parts.listen.reconnected();
  }, socket);
  conn.open();
}
