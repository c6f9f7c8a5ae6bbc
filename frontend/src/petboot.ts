// Boots the pet window's page: the character and everything around her.
import './theme.css';
import { CoreConnection } from './connection';
import { inWails, moveWindow, openExternal, setInputRegion, windowMoved, windowPosition, type PageConfig } from './host';
import { PetView } from './pet';

/** A path on the core's view server with the page's token: the view URL's
 * host and token, over http. */
export function viewPath(viewURL: string, path: string): string {
  const v = new URL(viewURL);
  const u = new URL(path, `${v.protocol === 'wss:' ? 'https:' : 'http:'}//${v.host}`);
  u.searchParams.set('token', v.searchParams.get('token') ?? '');
  return u.toString();
}

export function bootPet(cfg: PageConfig): void {
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
  conn = new CoreConnection(cfg.view_url, (m) => view.apply(m), (s) => {
    document.documentElement.dataset.core = s;
  });
  conn.open();
}
