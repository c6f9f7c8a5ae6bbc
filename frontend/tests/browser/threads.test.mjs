// A character set up as a Standard Agents one in the settings window, in
// Debian's Chromium against a real core whose embedded demo backend also
// runs a thread runtime (the same scripts as push): Test connection checks
// the key and lists the agents, the agent is picked, the save makes a
// thread (its id appears in the form), a typed line is spoken, and a reply
// whose stream the runtime drops mid-way ("drop") is recovered after the
// reconnect — nothing lost, nothing said twice.
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

/** Records every sentence the bubble speaks, once each. */
async function watchSpeech(pet) {
  await pet.evaluate(() => {
    window.__said = [];
    const bubble = document.querySelector('.bubble');
    let last = '';
    new MutationObserver(() => {
      const text = bubble.querySelector('.bubble-text').textContent;
      const seq = bubble.dataset.seq ?? '';
      const key = seq + '|' + text;
      if (!bubble.hidden && bubble.dataset.kind === 'speech' && text.trim() !== '' && key !== last) {
        last = key;
        if (window.__said.at(-1) !== text) window.__said.push(text);
      }
    }).observe(bubble, { attributes: true, childList: true, characterData: true, subtree: true });
  });
}

async function say(pet, text) {
  if (await pet.locator('.composer').isHidden()) await pet.locator('.character svg.yui-figure').click();
  await pet.locator('.composer-input').fill(text);
  await pet.locator('.composer-input').press('Enter');
  await pet.waitForSelector('.composer[data-locked="true"]');
  await pet.waitForSelector('.composer:not([data-locked="true"])');
}

test('set up a Standard Agents character, talk, and recover a reply across a reconnect', async () => {
  const preset = core.settings.presets[0].id;
  const settings = await newPage(browser, { viewport: { width: 760, height: 640 } });
  await settings.goto(core.pageURL(''));
  await settings.waitForSelector('.preset-form');

  await settings.getByLabel('Chat API').selectOption('standard_agents');
  // The model settings give way to the agent and the thread.
  await settings.waitForSelector('.field[data-field="agent_id"]:not([hidden])');
  assert.equal(await settings.locator('.field[data-field="model"]').isHidden(), true);
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await settings.waitForFunction(() => document.querySelector('.test-result')?.dataset.kind === 'ok');
  assert.match(await settings.locator('.test-result').textContent(), /1 agent listed; pick one/);
  const listed = await settings.evaluate(() => {
    const input = document.getElementById([...document.querySelectorAll('label')].find((l) => l.textContent === 'Agent').htmlFor);
    return [...document.getElementById(input.getAttribute('list')).options].map((o) => [o.value, o.label]);
  });
  assert.deepEqual(listed, [['yui-demo', 'Yui demo']]);
  // "pick one" has a list to click: choosing its entry fills the field.
  const pick = settings.getByLabel('Listed agents', { exact: true });
  await pick.waitFor();
  assert.deepEqual(await pick.locator('option').allTextContents(), ['Pick one…', 'Yui demo (yui-demo)']);
  await pick.selectOption('yui-demo');
  assert.equal(await settings.getByLabel('Agent', { exact: true }).inputValue(), 'yui-demo');
  assert.equal(await settings.getByLabel('Thread').inputValue(), '');
  await settings.getByRole('button', { name: 'Test connection' }).click();
  await settings.waitForFunction(() => document.querySelector('.test-result')?.dataset.kind === 'ok');
  assert.match(await settings.locator('.test-result').textContent(), /agent “Yui demo” found\. A new thread is made when you save\./);
  await settings.locator('.field[data-field="thread_id"]').scrollIntoViewIfNeeded();
  await settings.screenshot({ path: join(shots, 'settings-standard-agents.png') });

  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await settings.waitForFunction(() => document.querySelector('.footer .status').textContent === 'Saved');
  // The character connects, makes its thread, and the preset keeps its id.
  await settings.waitForFunction(() => {
    const input = document.getElementById([...document.querySelectorAll('label')].find((l) => l.textContent === 'Thread').htmlFor);
    return input.value !== '';
  });
  const thread = await settings.getByLabel('Thread').inputValue();
  const path = (await settings.locator('.footer .path').textContent()).trim();
  const saved = JSON.parse(readFileSync(path, 'utf8')).presets[0];
  assert.equal(saved.chat_api, 'standard_agents');
  assert.equal(saved.agent_id, 'yui-demo');
  assert.equal(saved.thread_id, thread);
  await settings.waitForFunction(() => document.querySelector('.conn-text')?.textContent === 'connected');

  const pet = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await pet.goto(core.pageURL(preset));
  await pet.waitForSelector('.character svg');
  await pet.waitForFunction(() => {
    const plate = document.querySelector('.plate');
    return document.documentElement.dataset.core === 'open' && (plate.hidden || plate.dataset.kind !== 'connection');
  });
  await watchSpeech(pet);

  await say(pet, 'hello');
  await pet.waitForFunction(() => window.__said.length > 0);
  const greeting = await pet.evaluate(() => window.__said.slice());
  assert.ok(greeting.every((s) => s.trim() !== ''), `spoken: ${JSON.stringify(greeting)}`);
  await core.waitLog((l) => l.event === 'threads.posted', 'the message posted to the thread');

  // The runtime drops the stream after the first sentence and a half; the
  // client reconnects (a new ticket, one catch-up read) and the rest of the
  // reply arrives on the new socket.
  await pet.evaluate(() => { window.__said = []; });
  await say(pet, 'drop it');
  await pet.waitForFunction(() => window.__said.includes('Nothing was lost.'));
  const said = await pet.evaluate(() => window.__said.slice());
  assert.deepEqual(said, [
    "I'll say this in two parts.",
    'The first part is here, and the second part came after the reconnect.',
    'Nothing was lost.',
  ]);
  const readies = core.logLines().filter((l) => l.event === 'ws_ready');
  assert.ok(readies.length >= 2, `ws_ready lines: ${readies.length}`);
  assert.ok(core.logLines().some((l) => l.event === 'ws_reconnect'), 'no ws_reconnect line');
  await pet.screenshot({ path: join(shots, 'pet-standard-agents.png') });
  const posted = core.logLines().filter((l) => l.event === 'threads.posted');
  assert.equal(posted.length, 2, 'each line posted once');
});
