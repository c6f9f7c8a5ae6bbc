// Boots the pet window's page: the character and everything around her.
import './theme.css';
import { CoreConnection } from './connection';
import { inWails, startupStep, viewPath, moveWindow, openExternal, setInputRegion, windowMoved, windowPosition, type PageConfig } from './host';
import { PetView } from './pet';

/** `socket` opens the view socket (src/earlysocket.ts); by default a new one. */
export function bootPet(cfg: PageConfig, socket?: (url: string) => WebSocket): void {
  document.documentElement.dataset.host = inWails() ? 'wails' : 'browser';
  const app = document.getElementById('app')!;
  let conn: CoreConnection | null = null;
  const view = new PetView({
    send: (m) => conn?.send(m) ?? false,
    setInputRegion,
    windowPosition,
    moveWindow,
    windowMoved,
    openURL: openExternal,
  }, undefined, { lookURL: (path) => viewPath(cfg.view_url, path) });
  view.mount(app);
  conn = new CoreConnection(cfg.view_url, (m) => {
    view.apply(m);
    startupStep('first_state');
  }, (s) => {
    document.documentElement.dataset.core = s;
    if (s === 'open') startupStep('view_socket');
  }, socket);
  conn.open();
}
