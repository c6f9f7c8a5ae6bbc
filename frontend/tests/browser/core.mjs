// Starts a real Yui core (no windows) for browser tests and collects its
// trace lines (core_ready, view_in, ...).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export async function startCore() {
  const bin = resolve(process.env.YUI_BIN ?? '../build/bin/yui');
  const dir = mkdtempSync(join(tmpdir(), 'yui-browser-'));
  const proc = spawn(bin, ['--no-windows', '--demo=false', '--config-dir', join(dir, 'config'), '--log-dir', join(dir, 'logs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
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
  return { ready, settings, events, waitEvent, stop };
}
