// Switching the demo character to OpenAI Chat Completions in the settings
// window, in Debian's Chromium against a real core whose embedded demo
// backend also speaks Chat Completions (the same scripts as push): Test
// connection lists the demo's model, the switch applies at once on save,
// and a typed line gets its sentences back over the new wire.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;
const shots = process.env.YUI_BROWSER_SHOTS ?? '/tmp/yui-browser';
mkdirSync(shots, { recursive: true });

before(async () => {
  core = await startCore({ demo: true });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

test('switch the demo character to Chat Completions, test the connection, save, and chat', async () => {
  const preset = core.settings.presets[0].id;
  const settings = await newPage(browser, { viewport: { width: 760, height: 560 } });
  await settings.goto(core.pageURL(''));
  await settings.waitForSelector('.preset-form');

  await settings.getByLabel('Chat API').selectOption('chat_completions');
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await settings.waitForFunction(() => document.querySelector('.test-result')?.dataset.kind === 'ok');
  assert.match(await settings.locator('.test-result').textContent(), /1 model listed/);
  const listed = await settings.evaluate(() => {
    const input = document.getElementById([...document.querySelectorAll('label')].find((l) => l.textContent === 'Model').htmlFor);
    return [...document.getElementById(input.getAttribute('list')).options].map((o) => o.value);
  });
  assert.deepEqual(listed, ['yui-demo']);
  // "pick one" has a list to click (a datalist alone shows nothing until
  // a letter is typed): choosing its entry fills the field.
  const pick = settings.getByLabel('Listed models', { exact: true });
  await pick.waitFor();
  assert.deepEqual(await pick.locator('option').allTextContents(), ['Pick one…', 'yui-demo']);
  await pick.selectOption('yui-demo');
  assert.equal(await settings.locator('#section-backend').getByLabel('Model', { exact: true }).inputValue(), 'yui-demo');
  await settings.screenshot({ path: join(shots, 'settings-chat-completions.png') });

  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await settings.waitForFunction(() => document.querySelector('.footer .status').textContent === 'Saved');
  const path = (await settings.locator('.footer .path').textContent()).trim();
  const saved = JSON.parse(readFileSync(path, 'utf8')).presets[0];
  assert.equal(saved.chat_api, 'chat_completions');
  assert.equal(saved.model, 'yui-demo');

  const pet = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await pet.goto(core.pageURL(preset));
  await pet.waitForSelector('.character svg');
  await pet.waitForFunction(() => {
    const plate = document.querySelector('.plate');
    return document.documentElement.dataset.core === 'open' && (plate.hidden || plate.dataset.kind !== 'connection');
  });
  await pet.evaluate(() => {
    window.__said = [];
    const bubble = document.querySelector('.bubble');
    new MutationObserver(() => {
      const text = bubble.querySelector('.bubble-text').textContent;
      if (!bubble.hidden && bubble.dataset.kind === 'speech' && window.__said.at(-1) !== text) window.__said.push(text);
    }).observe(bubble, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  if (await pet.locator('.composer').isHidden()) await pet.locator('.character svg.yui-figure').click();
  await pet.locator('.composer-input').fill('hello');
  await pet.locator('.composer-input').press('Enter');
  await pet.waitForSelector('.composer[data-locked="true"]');
  await pet.waitForSelector('.composer:not([data-locked="true"])');
  await pet.waitForFunction(() => window.__said.length > 0);
  const said = await pet.evaluate(() => window.__said);
  assert.ok(said.every((s) => s.trim() !== ''), `spoken: ${JSON.stringify(said)}`);
  await pet.screenshot({ path: join(shots, 'pet-chat-completions.png') });
  // The core logged the turn going out over the request wire.
  await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'send_text', 'the send_text');
});
