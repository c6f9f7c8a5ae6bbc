// Boots the settings window's page: one form for every character. It is an
// ordinary opaque window, so it brings its own stylesheet (the pet's
// style.css, made for a transparent window, is not loaded here).
import './settings.css';
import { CoreConnection } from '../connection';
import { inWails, keepAboveWhileFocused, type PageConfig } from '../host';
import { SettingsView } from './view';

export function bootSettings(cfg: PageConfig): void {
  document.documentElement.dataset.host = inWails() ? 'wails' : 'browser';
  document.title = 'Yui — Settings';
  keepAboveWhileFocused();
  const app = document.getElementById('app')!;
  let conn: CoreConnection | null = null;
  const view = new SettingsView({ send: (m) => conn?.send(m) ?? false });
  view.mount(app);
  conn = new CoreConnection(cfg.view_url, (m) => view.apply(m), (s) => {
    document.documentElement.dataset.core = s;
    view.setConnection(s);
  });
  conn.open();
}
