import './style.css';
import { CoreConnection } from './connection';
import { inWails, moveWindow, openExternal, pageConfig, setInputRegion, windowMoved, windowPosition } from './host';
import { PetView } from './pet';

async function boot(): Promise<void> {
  const cfg = await pageConfig();
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
  });
  view.mount(app);
  conn = new CoreConnection(cfg.view_url, (m) => view.apply(m), (s) => {
    document.documentElement.dataset.core = s;
  });
  conn.open();
}

boot();
