// Boots the settings window's page: one form for every character. It is an
// ordinary opaque window, so it brings its own stylesheets (page.css here,
// form.css and history.css with their components; the pet page's CSS, made
// for a transparent window, is not loaded here).
import './page.css';
import { CoreConnection } from '../connection';
import { closeKeys, closeWindow, inWails, type PageConfig } from '../host';
import { SettingsView } from './view';

export function bootSettings(cfg: PageConfig): void {
  document.documentElement.dataset.host = inWails() ? 'wails' : 'browser';
  document.title = 'Yui — Settings';
  const app = document.getElementById('app')!;
  let conn: CoreConnection | null = null;
  const view = new SettingsView({ send: (m) => conn?.send(m) ?? false });
  view.mount(app);
  // Esc and Ctrl+W close (hide) the window.
  closeKeys(document, closeWindow);
  conn = new CoreConnection(cfg.view_url, (m) => view.apply(m), (s) => {
    document.documentElement.dataset.core = s;
    view.setConnection(s);
  });
  conn.open();
}
