// Boots a message window's page: one character's conversation and a
// composer (src/message.ts). An ordinary opaque window: it brings its own
// stylesheet; the pet page's transparent layout is not loaded.
import './theme.css';
import { CoreConnection } from './connection';
import { t } from './i18n';
import { closeKeys, closeWindow, inWails, openExternal, startupStep, type PageConfig } from './host';
import { MessageView } from './message';

/** `socket` opens the view socket (src/earlysocket.ts); by default a new one. */
export function bootMessages(cfg: PageConfig, socket?: (url: string) => WebSocket): void {
  document.documentElement.dataset.host = inWails() ? 'wails' : 'browser';
  document.title = t('message.window_title');
  const app = document.getElementById('app')!;
  let conn: CoreConnection | null = null;
  const view = new MessageView({ send: (m) => conn?.send(m) ?? false, close: closeWindow, openURL: openExternal });
  view.mount(app);
  // Esc and Ctrl+W close (hide) the window; Escape first closes what is
  // open in it (the page marks that Escape used).
  closeKeys(document, closeWindow);
  conn = new CoreConnection(cfg.view_url, (m) => {
    view.apply(m);
    startupStep('first_state');
  }, (s) => {
    document.documentElement.dataset.core = s;
    if (s === 'open') startupStep('view_socket');
  }, socket);
  conn.open();
}
