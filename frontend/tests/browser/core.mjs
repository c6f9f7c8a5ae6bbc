// Starts a real Yui core (no windows) for browser tests and collects its
// trace lines (core_ready, view_in, ...).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** Starts a core. `demo: true` runs the embedded demo backend on a private
 * port (--demo-addr 127.0.0.1:0) with the given delegation delay. */
export async function startCore({ demo = false, delegationDelay = '' } = {}) {
  const bin = resolve(process.env.YUI_BIN ?? '../build/bin/yui');
  const dir = mkdtempSync(join(tmpdir(), 'yui-browser-'));
  const demoArgs = demo ? ['--demo-addr', '127.0.0.1:0', ...(delegationDelay ? ['--demo-delegation-delay', delegationDelay] : [])] : ['--demo=false'];
  // A desktop of its own: Start at login writes under this XDG_CONFIG_HOME,
  // and with no session bus the core starts no tray.
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), XDG_RUNTIME_DIR: join(dir, 'run'), DBUS_SESSION_BUS_ADDRESS: '' };
  const proc = spawn(bin, ['--no-windows', ...demoArgs, '--config-dir', join(dir, 'config'), '--log-dir', join(dir, 'logs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const events = [];
  const waiters = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    events.push(e);
    for (const w of [...waiters]) if (w.pred(e)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(e); }
  });
  const waitEvent = (pred, what, ms = 10000) =>
    new Promise((res, rej) => {
      const hit = events.find(pred);
      if (hit) return res(hit);
      const timer = setTimeout(() => rej(new Error(`timed out waiting for ${what}`)), ms);
      waiters.push({ pred, resolve: (e) => { clearTimeout(timer); res(e); } });
    });
  const ready = await waitEvent((e) => e.event === 'core_ready', 'core_ready');
  const settings = JSON.parse(readFileSync(join(dir, 'config', 'settings.json'), 'utf8'));
  const stop = async () => {
    const exited = new Promise((res) => proc.once('exit', (code) => res(code)));
    proc.kill('SIGTERM');
    const code = await exited;
    rmSync(dir, { recursive: true, force: true });
    return code;
  };
  return { ready, settings, events, waitEvent, stop, dir };
}
