// Screenshots of the pet page in states driven by a fake core (Playwright's
// routeWebSocket), for looking at the UI: node tests/browser/shots.mjs [outdir]
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveDist } from './static.mjs';

const out = process.argv[2] ?? '/tmp/yui-shots';
mkdirSync(out, { recursive: true });
const site = await serveDist();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });

async function open(bg = '#8fa6b8') {
  const page = await browser.newPage({ viewport: { width: 300, height: 420 } });
  let ws;
  await page.routeWebSocket(/\/view/, (w) => { ws = w; });
  await page.goto(site.url + '?role=pet&preset=p1&token=t');
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.addStyleTag({ content: `html { background: ${bg} !important; }` });
  const send = async (...msgs) => {
    for (const m of msgs) ws.send(JSON.stringify(m));
    await page.waitForTimeout(120);
  };
  await send({ type: 'preset', id: 'p1', name: 'Yui', look: 'yui' });
  return { page, send };
}

const shot = (page, name) => page.screenshot({ path: join(out, name + '.png') });
const now = Date.now();
const ch = (emotion, motion = 'idle', speaking = false) => ({ type: 'character', emotion, motion, speaking });

{
  const { page, send } = await open();
  await send({ type: 'usage', total_tokens: 1342, context_window: 128000 });
  await shot(page, 'idle');
  await send({ type: 'plate', kind: 'thinking', text: 'Thinking' }, ch('thinking', 'thinking'),
    { type: 'reasoning', turn_id: 't1', text: 'The user wants to know about the weather. Let me check the tool…', streaming: true },
    { type: 'pill', tool: { tool_id: 'weather', state: 'running', label: 'weather', phrase: 'Using weather…' }, error: '' },
    { type: 'composer', locked: true });
  await shot(page, 'thinking-pill');
  await send({ type: 'plate', kind: '', text: '' }, ch('happy', 'happy', true),
    { type: 'pill', tool: { tool_id: 'weather', state: 'done', label: 'weather' }, error: '' },
    { type: 'reasoning', turn_id: 't1', text: 'The user wants to know about the weather. It is sunny.', streaming: false },
    { type: 'bubble', seq: 3, turn_id: 't1', kind: 'speech', text: 'It is sunny and 24 °C in Lisbon today ☀️ — see [the forecast](https://example.com/forecast) for the week!', speaking: true, muted: false });
  await page.waitForTimeout(1900);
  await shot(page, 'speaking');
  await send({ type: 'delegations', items: [
    { id: 'd-1', title: 'Sort the regression test list', started_at: now - 3 * 60_000, state: 'running' },
    { id: 'd-2', title: 'Check log file sizes', started_at: now - 40 * 60_000, state: 'done', ended_at: now - 12 * 60_000, status: 'ok', summary: 'All three logs are under 10 MB; the biggest is app.log at 7.2 MB.' },
    { id: 'd-3', title: 'Rebuild the index', started_at: now - 20 * 60_000, state: 'done', ended_at: now - 2 * 60_000, status: 'error', summary: 'The index directory is read-only.' },
  ] });
  await page.click('.chip');
  await page.click('.delegation[data-id="d-2"] .delegation-summary');
  await shot(page, 'delegations');
  await page.click('.chip');
  await page.click('.reasoning-toggle');
  await shot(page, 'reasoning-open');
  await page.click('.reasoning-toggle');
  await send({ type: 'bubble', seq: 5, turn_id: 't2', kind: 'failure', text: "Sorry, I gave up waiting for a reply — can you say that again?", speaking: false, muted: false },
    ch('sad'), { type: 'pill', tool: null, error: 'The backend failed: rate limited.' }, { type: 'composer', locked: false });
  await shot(page, 'failure');
  await send({ type: 'plate', kind: 'connection', text: 'Wrong key', action: 'reconnect' }, { type: 'pill', tool: null, error: '' },
    { type: 'bubble', seq: 6, turn_id: 't3', kind: 'filler', text: 'Hmm...', speaking: true, muted: false }, ch('neutral'));
  await page.locator('.character svg.yui-figure').click();
  await page.keyboard.type('what about tomorrow?');
  await send({ type: 'error_line', text: 'Not connected to the backend, so that could not be sent.', where: 'composer' });
  await shot(page, 'composer');
  await page.close();
}
{
  const { page, send } = await open();
  await send({ type: 'pill', tool: { tool_id: 'look', state: 'running', label: 'Look' }, error: '', capture: true },
    { type: 'permission', id: 4, backend: 'The demo backend', monitor: 0, label: 'DP-1', text: '' });
  await shot(page, 'permission');
  await page.close();
}
{
  const { page, send } = await open();
  for (const e of ['neutral', 'happy', 'angry', 'sad', 'relaxed', 'surprised', 'thinking', 'curious', 'sleepy', 'embarrassed']) {
    await send(ch(e));
    await page.waitForTimeout(500);
    await page.locator('.character').screenshot({ path: join(out, `emotion-${e}.png`) });
  }
  await page.close();
}
await browser.close();
await site.close();
console.log('wrote', out);
