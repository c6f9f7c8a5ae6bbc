// The message window's history (docs/history.md) in Debian's Chromium
// against a real core: an older Yui's transcript file is imported at the
// start (kept as .bak), the window opens on its newest page, scrolls back
// through all of it a page at a time, searches it and exports it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

const ROWS = 300;

let core;
let browser;
let preset;
let config;
const home = mkdtempSync(join(tmpdir(), 'yui-browser-home-'));

/** A transcript file as the Yui before the history database wrote it. */
function legacyTranscript() {
  const entries = [];
  for (let id = 1; id <= ROWS; id++) {
    const user = id % 2 === 1;
    const text = id === 42 ? 'Tell me about the lighthouse again' : user ? `question ${id}` : `answer ${id}`;
    entries.push({ id, turn_id: `t${Math.ceil(id / 2)}`, kind: user ? 'user' : 'reply', text, state: user ? '' : 'done', at: 1_789_000_000_000 + id * 1000 });
  }
  return JSON.stringify({ version: 1, next_id: ROWS + 1, entries });
}

before(async () => {
  // A first run makes the settings (the character and her demo backend);
  // the second start finds her older transcript beside them.
  const first = await startCore({ demo: true });
  const settings = readFileSync(join(first.dir, 'config', 'settings.json'), 'utf8');
  preset = first.settings.presets[0].id;
  assert.equal(await first.stop(), 0);
  mkdirSync(join(home, 'Downloads'));
  core = await startCore({
    demo: true,
    env: { HOME: home },
    prepare: (dir) => {
      config = dir;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'settings.json'), settings, { mode: 0o600 });
      writeFileSync(join(dir, `transcript-${preset}.json`), legacyTranscript(), { mode: 0o600 });
    },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

const messagesURL = () =>
  `${core.ready.pages_url}?role=message&preset=${preset}&token=${encodeURIComponent(core.ready.page_tokens[`message:${preset}`])}`;

const shownIDs = (page) => page.locator('.msg').evaluateAll((ls) => ls.map((l) => Number(l.dataset.id)));

test('the older transcript is imported once and kept as .bak', () => {
  assert.ok(existsSync(join(config, `transcript-${preset}.json.bak`)), 'the backup is kept');
  assert.ok(!existsSync(join(config, `transcript-${preset}.json`)), 'the older file is not read again');
  assert.ok(existsSync(join(config, `history-${preset}.db`)), 'her history database');
});

test('the window opens on the newest page and scrolls back through the whole history', async () => {
  const page = await newPage(browser, { viewport: { width: 420, height: 560 } });
  await page.goto(messagesURL());
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.waitForSelector(`.msg[data-id="${ROWS}"]`);
  const first = await shownIDs(page);
  assert.equal(first.length, 50, 'one page, not the whole history');
  assert.deepEqual([first[0], first.at(-1)], [ROWS - 49, ROWS]);
  assert.ok(await page.locator('.msg-older').isVisible(), 'earlier messages are offered');
  // Scrolling to the top loads the page before, until there is none.
  for (let pages = 1; pages < ROWS / 50; pages++) {
    const oldest = (await shownIDs(page))[0];
    await page.locator('.msg-scroll').evaluate((s) => { s.scrollTop = 0; s.dispatchEvent(new Event('scroll')); });
    await page.waitForSelector(`.msg[data-id="${oldest - 50}"]`);
    // What the user looked at stays in place: the scroll is not at the top.
    assert.ok(await page.locator('.msg-scroll').evaluate((s) => s.scrollTop > 0), 'the view stays on the rows it showed');
  }
  const all = await shownIDs(page);
  assert.equal(all.length, ROWS);
  assert.deepEqual(all, [...all].sort((a, b) => a - b), 'in order');
  assert.equal(all[0], 1);
  await page.waitForSelector('.msg-older', { state: 'hidden' });
  const pages = core.events.filter((e) => e.event === 'view_in' && e.message?.type === 'history_more' && e.role === 'message');
  assert.equal(pages.length, ROWS / 50 - 1, 'each page asked for once');
  await page.close();
});

test('the search finds a line of the history, its words marked; Escape goes back to the conversation', async () => {
  const page = await newPage(browser, { viewport: { width: 420, height: 560 } });
  await page.goto(messagesURL());
  await page.waitForSelector(`.msg[data-id="${ROWS}"]`);
  await page.keyboard.press('Control+f');
  await page.getByRole('searchbox', { name: 'Search the history' }).fill('lighthou');
  await page.waitForSelector('.msg-hit');
  assert.equal(await page.locator('.msg-hit').count(), 1);
  assert.equal(await page.locator('.msg-hit').getAttribute('data-id'), '42');
  assert.equal(await page.locator('.msg-hit mark').textContent(), 'lighthouse');
  assert.equal(await page.locator('.msg-scroll').isVisible(), false);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.msg-search', { state: 'hidden' });
  assert.ok(await page.locator('.msg-scroll').isVisible());
  await page.close();
});

test('Export saves the conversation as Markdown and as JSON in Downloads', async () => {
  const page = await newPage(browser, { viewport: { width: 420, height: 560 } });
  await page.goto(messagesURL());
  await page.waitForSelector(`.msg[data-id="${ROWS}"]`);
  for (const [item, ext] of [['Markdown (.md)', '.md'], ['JSON (.json)', '.json']]) {
    await page.locator('.msg-export-btn').click();
    await page.getByRole('menuitem', { name: item }).click();
    await page.waitForSelector('.msg-note >> text=Saved to');
    const note = await page.locator('.msg-note').textContent();
    const path = note.replace('Saved to ', '');
    assert.ok(path.startsWith(join(home, 'Downloads')) && path.endsWith(ext), note);
    const text = readFileSync(path, 'utf8');
    if (ext === '.md') {
      assert.match(text, /^# Conversation with /);
      assert.match(text, /Tell me about the lighthouse again/);
    } else {
      const f = JSON.parse(text);
      assert.equal(f.entries.length, ROWS, 'the whole conversation, not a page');
      assert.equal(f.entries[41].text, 'Tell me about the lighthouse again');
    }
    await page.locator('.msg-note').evaluate((n) => { n.textContent = ''; });
  }
  assert.equal(readdirSync(join(home, 'Downloads')).length, 2);
  await page.close();
});
