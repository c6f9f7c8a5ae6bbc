// The message window (docs/message-window.md) and the pet's popovers, in
// Debian's Chromium against a real core with the demo backend.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;
let preset;

before(async () => {
  // A long delegation: its chip stays while the popover test runs.
  core = await startCore({ demo: true, delegationDelay: '10m' });
  preset = core.settings.presets[0].id;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

const petURL = () => `${core.ready.pages_url}?role=pet&preset=${preset}&token=${encodeURIComponent(core.tokenFor(preset))}`;
const messagesURL = () =>
  `${core.ready.pages_url}?role=message&preset=${preset}&token=${encodeURIComponent(core.ready.page_tokens[`message:${preset}`])}`;

async function openMessages() {
  const page = await newPage(browser, { viewport: { width: 420, height: 560 } });
  await page.goto(messagesURL());
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.waitForSelector('.messages[data-preset]');
  return page;
}

/** Sends a line from a message window's composer and waits until the core took it. */
async function send(page, text) {
  await page.locator('.composer-input').fill(text);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.composer[data-locked="true"]');
  await page.waitForSelector('.composer[data-locked="false"]');
}

test('the pet menu and Ctrl+M ask the core for the message window', async () => {
  const pet = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await pet.goto(petURL());
  await pet.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await pet.locator('.character svg.yui-figure').click({ button: 'right' });
  await pet.getByRole('menuitem', { name: 'Messages…' }).click();
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'open_messages', 'open_messages');
  assert.equal(e.role, 'pet');
  assert.equal(e.preset, preset);
  const n = core.events.filter((e) => e.event === 'view_in' && e.message?.type === 'open_messages').length;
  await pet.keyboard.press('Control+m');
  await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'open_messages'
    && core.events.filter((x) => x.event === 'view_in' && x.message?.type === 'open_messages').length > n, 'a second open_messages');
  await pet.close();
});

test('a reply streams into the message window with its reasoning folded; the composer sends through the pet session', async () => {
  const pet = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await pet.goto(petURL());
  await pet.waitForFunction(() => document.documentElement.dataset.core === 'open');
  const page = await openMessages();
  assert.equal(await page.locator('.msg-title').textContent(), 'Yui');
  await page.locator('.composer-input').fill('hello there');
  await page.keyboard.press('Enter');
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'send_text' && e.role === 'message', 'send_text from the message page');
  assert.equal(e.message.text, 'hello there');
  assert.equal(e.preset, preset);
  // The pet's session runs the turn: the pet page locks too (one session).
  await pet.waitForSelector('.composer[data-locked="true"]', { state: 'attached' });
  await page.waitForSelector('.msg[data-kind="user"] .msg-text >> text=hello there');
  // Her reply grows sentence by sentence while she says it…
  const reply = page.locator('.msg[data-kind="reply"]').last();
  await page.waitForSelector('.msg[data-kind="reply"][data-state="streaming"] .msg-text:not(:empty)');
  const first = await reply.locator('.msg-text').textContent();
  await page.waitForSelector('.msg[data-kind="reply"][data-state="done"]');
  const whole = await reply.locator('.msg-text').textContent();
  assert.ok(whole.startsWith(first) && whole.length > first.length, `the reply grew: ${JSON.stringify(first)} → ${JSON.stringify(whole)}`);
  // …and the pet's bubble said the same sentences.
  // The reasoning is folded at the top of the reply, and opens on a click.
  const toggle = reply.locator('.reasoning-toggle');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await reply.locator('.reasoning-text').isVisible(), false);
  const toggleBox = await toggle.boundingBox();
  const textBox = await reply.locator('.msg-text').boundingBox();
  assert.ok(toggleBox.y < textBox.y, 'the reasoning sits above the reply');
  await toggle.click();
  await reply.locator('.reasoning-text').waitFor();
  assert.ok((await reply.locator('.reasoning-text').textContent()).length > 0);
  await page.screenshot({ path: process.env.YUI_BROWSER_SHOT_MESSAGES ?? '/tmp/yui-browser-messages.png' });
  await pet.close();
  await page.close();
});

test('a second message window mirrors the first; a tool row shows; New conversation asks, then clears both', async () => {
  const a = await openMessages();
  const b = await openMessages();
  // The transcript so far came to the new windows.
  await b.waitForSelector('.msg[data-kind="user"] .msg-text >> text=hello there');
  await send(a, 'check my notes');
  await b.waitForSelector('.msg[data-kind="user"] .msg-text >> text=check my notes');
  await b.waitForSelector('.msg[data-kind="tool"][data-state="done"]');
  await b.waitForSelector('.msg[data-kind="reply"][data-state="done"] >> nth=1');
  // Sending in b locks a as well (the pet's one session), and a shows b's line.
  await b.locator('.composer-input').fill('and hello again');
  await b.keyboard.press('Enter');
  await a.waitForSelector('.composer[data-locked="true"]');
  await a.waitForSelector('.msg[data-kind="user"] .msg-text >> text=and hello again');
  await a.waitForSelector('.composer[data-locked="false"]');
  // A reload shows the same conversation.
  const rows = await a.locator('.msg').count();
  await a.reload();
  await a.waitForSelector('.msg[data-kind="user"] .msg-text >> text=and hello again');
  assert.equal(await a.locator('.msg').count(), rows);
  // New conversation asks first; Cancel keeps everything.
  await a.getByRole('button', { name: 'New conversation' }).click();
  await a.getByRole('alertdialog').waitFor();
  await a.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await a.locator('.msg').count(), rows);
  // Escape closes the question first (the window stays).
  await a.getByRole('button', { name: 'New conversation' }).click();
  await a.keyboard.press('Escape');
  await a.getByRole('alertdialog').waitFor({ state: 'hidden' });
  await a.getByRole('button', { name: 'New conversation' }).click();
  await a.getByRole('button', { name: 'Clear' }).click();
  await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'reset' && e.role === 'message', 'reset from the message page');
  await a.waitForSelector('.msg', { state: 'detached' });
  await b.waitForSelector('.msg', { state: 'detached' });
  await a.waitForSelector('.msg-empty:not([hidden])');
  await a.close();
  await b.close();
});

test('the thoughts panel and the tasks card open one at a time and never cover the bubble', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  const say = async (text) => {
    await page.locator('.character svg.yui-figure').click();
    await page.waitForSelector('.composer:not([hidden])');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.composer[data-locked="true"]');
  };
  await say('please delegate this');
  await page.waitForSelector('.chip:not([hidden])');
  await page.waitForSelector('.composer[data-locked="false"]');
  await page.keyboard.press('Escape');
  // A slow reply: reasoning first, then sentences for several seconds.
  await say('tell it slowly');
  await page.waitForSelector('.reasoning:not([hidden])');
  await page.waitForSelector('.bubble:not([hidden])');
  const boxes = () => page.evaluate(() => {
    const r = (sel) => {
      const e = document.querySelector(sel);
      if (!e || e.closest('[hidden]')) return null;
      const b = e.getBoundingClientRect();
      return { x: b.left, y: b.top, w: b.width, h: b.height };
    };
    return { bubble: r('.bubble'), thoughts: r('.reasoning-text'), tasks: r('.delegations') };
  });
  const apart = (p, q) => !p || !q || p.y + p.h <= q.y || q.y + q.h <= p.y || p.x + p.w <= q.x || q.x + q.w <= p.x;
  await page.locator('.reasoning-toggle').click();
  await page.waitForSelector('.reasoning-text:not([hidden])');
  await page.waitForSelector('.bubble:not([hidden])');
  let b = await boxes();
  assert.ok(b.thoughts && !b.tasks, `only the thoughts are open: ${JSON.stringify(b)}`);
  assert.ok(apart(b.thoughts, b.bubble), `the thoughts cover the bubble: ${JSON.stringify(b)}`);
  await page.locator('.chip').click();
  await page.waitForSelector('.delegations:not([hidden])');
  await page.waitForSelector('.bubble:not([hidden])');
  b = await boxes();
  assert.ok(b.tasks && !b.thoughts, `only the tasks are open: ${JSON.stringify(b)}`);
  assert.ok(apart(b.tasks, b.bubble), `the tasks cover the bubble: ${JSON.stringify(b)}`);
  await page.screenshot({ path: process.env.YUI_BROWSER_SHOT_POPOVER ?? '/tmp/yui-browser-popover.png' });
  await page.locator('.reasoning-toggle').click();
  await page.waitForSelector('.delegations', { state: 'hidden' });
  await page.close();
});

test('the composer opens and closes without moving her', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  // The character's box (her motions animate the drawing inside it).
  const at = () => page.locator('.character').boundingBox();
  const before = await at();
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.composer:not([hidden])');
  const open = await at();
  await page.keyboard.press('Escape');
  await page.waitForSelector('.composer', { state: 'hidden' });
  const closed = await at();
  assert.deepEqual(open, before, 'opening the composer moved her');
  assert.deepEqual(closed, before, 'closing the composer moved her');
  await page.close();
});
