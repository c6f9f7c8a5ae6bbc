// Dropped content and foreign pages (docs/security.md) in Debian's
// Chromium against a real core: a link or file dropped anywhere on a page
// does not navigate it, a page token opens only its own page, and a page
// from another origin cannot open a view connection even with a token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;
let evil; // a foreign site on loopback: what a dropped link points at
const evilHits = [];
let evilURL = '';
let dir;

before(async () => {
  core = await startCore();
  browser = await launchBrowser();
  evil = createServer((req, res) => {
    evilHits.push(req.url);
    // The page a hijacked window would run: it tries the core with
    // whatever token it is given.
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>evil</title><script>
      const u = new URL(location.href).searchParams.get('ws');
      if (u) { const ws = new WebSocket(u); ws.onopen = () => { document.title = 'open'; }; ws.onclose = () => { if (document.title !== 'open') document.title = 'refused'; }; }
    </script>`);
  });
  await new Promise((res) => evil.listen(0, '127.0.0.1', res));
  evilURL = `http://127.0.0.1:${evil.address().port}`;
  dir = mkdtempSync(join(tmpdir(), 'yui-drop-'));
});

after(async () => {
  await browser?.close();
  evil?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

async function open(url, viewport) {
  const page = await newPage(browser, { viewport });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  return page;
}

/** A real drag from outside the page (Chromium's input pipeline, as the
 * OS delivers one): enter, over, drop at (x, y). */
async function dropFromOutside(page, x, y, data) {
  const cdp = await page.context().newCDPSession(page);
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, x, y, data: { ...data, dragOperationsMask: 0xff } });
  }
  await cdp.detach();
}

const linkData = () => ({ items: [
  { mimeType: 'text/uri-list', data: `${evilURL}/dropped-link` },
  { mimeType: 'text/plain', data: `${evilURL}/dropped-link` },
] });

for (const [name, preset, viewport, spots] of [
  ['pet', () => core.settings.presets[0].id, { width: 300, height: 420 }, [[150, 250], [20, 20], [150, 400]]],
  ['settings', () => '', { width: 760, height: 560 }, [[380, 280], [20, 20], [700, 500]]],
]) {
  test(`a link or a file dropped anywhere on the ${name} page does not navigate it`, async () => {
    const url = core.pageURL(preset());
    const page = await open(url, viewport);
    if (name === 'pet') await page.waitForSelector('.character svg');
    else await page.waitForSelector('.preset-form');
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'not for the window');
    for (const [x, y] of spots) {
      await dropFromOutside(page, x, y, linkData());
      await dropFromOutside(page, x, y, { items: [], files: [file] });
    }
    // Give a navigation every chance to start: a fresh round trip to the
    // core's page through the same connection proves the page is still
    // ours and still connected.
    await page.waitForFunction(() => document.readyState === 'complete');
    assert.equal(page.url(), url, 'the page stayed');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.core), 'open', 'still connected to the core');
    assert.deepEqual(evilHits.filter((h) => h.startsWith('/dropped')), [], 'the dropped link was never loaded');
    await page.close();
  });
}

test('a pet page token does not open the settings page', async () => {
  const q = new URLSearchParams({ role: 'settings', token: core.tokenFor(core.settings.presets[0].id) });
  const page = await newPage(browser);
  await page.goto(`${core.ready.pages_url}?${q}`);
  await page.waitForFunction(() => document.documentElement.dataset.core === 'closed');
  await page.close();
});

test('a page from another origin cannot connect, even with a real page token', async () => {
  const ws = new URL(core.ready.view_url);
  ws.searchParams.set('token', core.tokenFor(''));
  ws.searchParams.set('role', 'settings');
  const page = await newPage(browser);
  await page.goto(`${evilURL}/probe?ws=${encodeURIComponent(ws.toString())}`);
  await page.waitForFunction(() => document.title === 'refused' || document.title === 'open');
  assert.equal(await page.title(), 'refused');
  await page.close();
});
