// Typing into the settings form while the page is slow (issue 24): the
// page's main thread is kept busy (120 ms of every 150), and halfway
// through each field the core's settings state changes under the form
// (a new look among its choices, as when a look is imported or a voice
// list arrives), which rebuilds the form. Then Ctrl+S at once, without
// waiting for anything: every field holds exactly what was typed, and the
// file holds exactly that too. In Debian's Chromium against a real core.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;

before(async () => {
  core = await startCore({ demo: true });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

test('typed on a busy page while the form is rebuilt, every field holds exactly what was typed, and Save stores it', async () => {
  const page = await newPage(browser, { viewport: { width: 760, height: 560 } });
  // The page's view socket goes through the test, which can add a
  // settings_state of its own (the core's last one with one more look).
  let toPage = null;
  let lastState = null;
  await page.routeWebSocket(/\/view/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const s = String(m);
      if (s.includes('"settings_state"')) lastState = s;
      ws.send(m);
    });
    toPage = ws;
  });
  await page.goto(core.pageURL(''));
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.waitForSelector('.preset-form');
  assert.ok(toPage && lastState, 'the settings state came through the test');
  const reshaped = (n) => {
    const m = JSON.parse(lastState);
    m.choices.looks = [...(m.choices.looks ?? []), { id: `extra-${n}`, label: `Extra look ${n}`, available: true }];
    return JSON.stringify(m);
  };

  // A slow machine: the main thread is busy 80 % of the time.
  await page.evaluate(() => {
    window.__busy = setInterval(() => {
      const t = performance.now();
      while (performance.now() - t < 120);
    }, 150);
  });
  const typed = [
    ['Name', 'Rin Okabe-Smith'],
    ['Base URL', 'http://127.0.0.1:8123/v1'],
    ['API key', 'sk-typed-' + 'abcdefghij0123456789ABCDEFGHIJ'],
    ['Model', 'gpt-test-mini'],
    ['Character card', 'A calm cat who likes rain.\nShe answers in short sentences.'],
  ];
  const formBefore = await page.locator('.preset-form').elementHandle();
  let n = 0;
  for (const [label, text] of typed) {
    const field = page.getByLabel(label, { exact: true });
    await field.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    const half = Math.floor(text.length / 2);
    await page.keyboard.type(text.slice(0, half));
    toPage.send(reshaped(++n)); // the form is rebuilt under the caret
    await page.keyboard.type(text.slice(half));
  }
  await page.keyboard.press('Control+s');
  assert.equal(await formBefore.evaluate((f) => f.isConnected), false, 'the form was rebuilt while typing');
  await page.waitForFunction(() => {
    const s = document.querySelector('.footer .status');
    return s.textContent === 'Saved';
  });
  await page.evaluate(() => clearInterval(window.__busy));
  for (const [label, text] of typed) {
    if (label === 'API key') continue; // blank after a save: the key never comes back to a page
    assert.equal(await page.getByLabel(label, { exact: true }).inputValue(), text, `${label} shows what was typed`);
  }
  const path = (await page.locator('.footer .path').textContent()).trim();
  const saved = JSON.parse(readFileSync(path, 'utf8')).presets[0];
  assert.deepEqual(
    { name: saved.name, url: saved.chat_base_url, key: saved.key, model: saved.model, card: saved.card },
    { name: typed[0][1], url: typed[1][1], key: typed[2][1], model: typed[3][1], card: typed[4][1] },
    'the file holds exactly what was typed',
  );
  await page.close();
});
