// Starts a real Yui core (no windows) for browser tests and collects its
// trace lines (core_ready, view_in, ...).
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** LIMIT bounds every wait of the browser tests (Playwright's default
 * timeout included). Each wait ends when what it awaits is there (a DOM
 * state, a trace line, a log line), so the limit only stops a hung test;
 * no pass depends on how fast the machine is (docs/testing.md). */
export const LIMIT = 60_000;

/** Launches Debian's Chromium ($CHROMIUM overrides) as every browser test
 * runs it: no sandbox (root in CI), no GPU, no background traffic. `webgl`:
 * WebGL on SwiftShader, Chromium's software GL (the VRM look's tests);
 * `noWebGL`: none at all (its fallback). */
export function launchBrowser({ webgl = false, noWebGL = false } = {}) {
  const gl = webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : noWebGL ? ['--disable-webgl', '--disable-3d-apis'] : [];
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', ...gl],
  });
}

/** Opens a page with LIMIT as its default timeout. */
export async function newPage(browser, options) {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(LIMIT);
  return page;
}

/** Starts a core. `demo: true` runs the embedded demo backend on a private
 * port (--demo-addr 127.0.0.1:0) with the given delegation delay.
 * `prepare(configDir)` runs before the core starts (to put files in its
 * config dir). `env` adds to its environment (a DISPLAY of the test's own
 * Xvfb for the screen capture). */
export async function startCore({ demo = false, delegationDelay = '', prepare = null, env: extraEnv = {} } = {}) {
  const bin = resolve(process.env.YUI_BIN ?? '../build/bin/yui');
  const dir = mkdtempSync(join(tmpdir(), 'yui-browser-'));
  if (prepare) await prepare(join(dir, 'config'));
  const demoArgs = demo ? ['--demo-addr', '127.0.0.1:0', ...(delegationDelay ? ['--demo-delegation-delay', delegationDelay] : [])] : ['--demo=false'];
  // A desktop of its own: Start at login writes under this XDG_CONFIG_HOME,
  // and with no session bus the core starts no tray.
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg'), XDG_RUNTIME_DIR: join(dir, 'run'), DBUS_SESSION_BUS_ADDRESS: '', ...extraEnv };
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
  const waitEvent = (pred, what, ms = LIMIT) =>
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
  /** The page's own token: each page role has one (the settings page's;
   * each pet's, also for a pet added later by a save). */
  const tokenFor = (preset) => {
    if (preset === '') return ready.page_tokens.settings;
    const added = events.findLast((e) => e.event === 'page_token' && e.preset === preset);
    return added?.token ?? ready.page_tokens[preset];
  };
  /** The URL a browser loads the settings page (preset '') or a pet page
   * from, with that page's token. */
  const pageURL = (preset) => {
    const q = new URLSearchParams(preset === '' ? { role: 'settings' } : { role: 'pet', preset });
    q.set('token', tokenFor(preset) ?? '');
    return `${ready.pages_url}?${q}`;
  };
  /** Every JSON line of the core's log files (app log and turn log). */
  const logLines = () => {
    const out = [];
    const logs = join(dir, 'logs');
    for (const f of readdirSync(logs).filter((f) => f.endsWith('.log')).sort()) {
      for (const line of readFileSync(join(logs, f), 'utf8').split('\n')) {
        try {
          out.push(JSON.parse(line));
        } catch {
          // not a JSON line
        }
      }
    }
    return out;
  };
  /** Resolves with the first log line matching pred, reading the files
   * again every 50 ms, up to LIMIT. */
  const waitLog = async (pred, what) => {
    const deadline = Date.now() + LIMIT;
    for (;;) {
      const hit = logLines().find(pred);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} in the log`);
      await new Promise((res) => setTimeout(res, 50));
    }
  };
  return { ready, settings, events, waitEvent, logLines, waitLog, stop, tokenFor, pageURL, dir };
}
