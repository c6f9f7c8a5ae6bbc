// Screen permission that flows, and connection errors a user understands
// (issue 16): the pet page and the settings page in Debian's Chromium
// against a real core. The core captures from a private Xvfb (-displayfd),
// so "Allow once" leads to a real capture.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as netServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIMIT, launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;
let xvfb;
const shots = process.env.YUI_BROWSER_SHOTS ?? '/tmp/yui-browser';
mkdirSync(shots, { recursive: true });

/** A private X server; resolves with its display (":N") once it answers. */
function startXvfb() {
  return new Promise((resolve, reject) => {
    const p = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '800x600x24', '-nolisten', 'tcp'],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), LIMIT);
    p.stdio[3].on('data', (b) => {
      out += b.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ proc: p, display: ':' + out.trim() });
      }
    });
    p.once('error', reject);
  });
}

/** A loopback port nothing listens on. */
async function closedPort() {
  const s = netServer();
  await new Promise((res) => s.listen(0, '127.0.0.1', res));
  const port = s.address().port;
  await new Promise((res) => s.close(res));
  return port;
}

before(async () => {
  xvfb = await startXvfb();
  core = await startCore({ demo: true, env: { DISPLAY: xvfb.display } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
  xvfb?.proc.kill('SIGTERM');
});

/** Opens the pet page of preset, records every bubble text it shows. */
async function openPet(preset, { ready = true } = {}) {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(core.pageURL(preset));
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  if (ready) {
    await page.waitForFunction(() => {
      const plate = document.querySelector('.plate');
      return (plate.hidden || plate.dataset.kind !== 'connection') && document.querySelector('.composer').dataset.locked !== 'true';
    });
  }
  await page.evaluate(() => {
    window.__said = [];
    const seen = () => {
      for (const b of document.querySelectorAll('.bubble')) {
        const t = b.textContent.trim();
        if (t && window.__said.at(-1) !== t) window.__said.push(t);
      }
    };
    new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return page;
}

/** Waits like page.waitForFunction; when the wait ends without it, the
 * error says what the pet showed and what the core logged about its
 * connection, so a failure in CI names its cause. */
async function shows(page, fn, arg, what) {
  try {
    await page.waitForFunction(fn, arg);
  } catch (err) {
    const shown = await page.evaluate(() => ({
      plate: document.querySelector('.plate-text')?.textContent,
      cause: document.querySelector('.plate-cause')?.textContent,
      causeHidden: document.querySelector('.plate-cause')?.hidden,
      core: document.documentElement.dataset.core,
    })).catch((e) => ({ unreadable: String(e) }));
    const logged = core.logLines()
      .filter((l) => /^(settings_|pet_|ws_|view_)/.test(l.event ?? l.msg ?? ''))
      .slice(-25);
    throw new Error(`waiting for ${what}: ${err.message}\npet shows: ${JSON.stringify(shown)}\ncore logged: ${logged.map((l) => JSON.stringify(l)).join('\n')}`);
  }
}

const said = (page) => page.evaluate(() => window.__said);
const saidSome = (page, part) => page.waitForFunction((p) => window.__said.some((t) => t.includes(p)), part);

async function type(page, text) {
  if (await page.locator('.composer').isHidden()) await page.locator('.character').click();
  await page.locator('.composer-input').fill(text);
  await page.locator('.composer-input').press('Enter');
}

test('answering the screen prompt starts the follow-up turn: allowed, she looks; denied, she says so kindly', async () => {
  const preset = core.settings.presets[0].id;
  const page = await openPet(preset);
  await type(page, 'look at my screen');
  await page.locator('.permission').waitFor();
  // The pending look is told in plain words.
  await saidSome(page, 'Answer the little prompt');
  await page.waitForFunction(() => document.querySelector('.composer').dataset.locked !== 'true');
  const typedTurns = core.events.filter((e) => e.event === 'view_in' && e.message?.type === 'send_text').length;
  await page.screenshot({ path: join(shots, 'permission-prompt.png') });
  await page.getByRole('button', { name: 'Allow once' }).click();
  // No second line typed: the answer itself started the turn.
  await saidSome(page, 'Thanks for the screenshot');
  assert.equal(core.events.filter((e) => e.event === 'view_in' && e.message?.type === 'send_text').length, typedTurns);
  const answer = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'permission_answer', 'permission_answer');
  assert.equal(answer.message.answer, 'once');
  await core.waitLog((l) => l.event === 'permission.granted', 'the granted look');
  await page.waitForFunction(() => document.querySelector('.composer').dataset.locked !== 'true');

  // Once is once: the next look asks again; this time the user says no.
  await type(page, 'look at my screen again');
  await page.locator('.permission').waitFor();
  await page.waitForFunction(() => document.querySelector('.composer').dataset.locked !== 'true');
  await page.getByRole('button', { name: 'Deny' }).click();
  await saidSome(page, "That's okay, I won't look at your screen.");
  const all = await said(page);
  assert.ok(all.every((t) => !t.includes('error:')), `raw error text in a bubble: ${JSON.stringify(all)}`);
  await page.close();
});

test('the pet plate names why she cannot connect, and offers settings when the fix is there', async () => {
  // The web server first: the refused port is then one nothing here listens
  // on (a port freed earlier could be handed to a listener started after).
  const web = createServer((_, res) => { res.writeHead(404); res.end('not found'); });
  await new Promise((res) => web.listen(0, '127.0.0.1', res));
  const webURL = `http://127.0.0.1:${web.address().port}`;
  let refused = await closedPort();
  while (refused === web.address().port) refused = await closedPort();
  try {
    // Point the main character at a refused port, then at a web server
    // that does not speak push, through the settings page.
    const settings = await newPage(browser, { viewport: { width: 760, height: 560 } });
    await settings.goto(core.pageURL(''));
    await settings.waitForFunction(() => document.documentElement.dataset.core === 'open');
    const preset = core.settings.presets[0].id;
    await settings.locator(`.preset-item[data-id="${preset}"]`).click();
    const save = async (url) => {
      await settings.getByLabel('Base URL').fill(url);
      await settings.keyboard.press('Control+s');
      await settings.waitForFunction(() => document.querySelector('.footer .status').textContent === 'Saved');
    };
    await save(`http://127.0.0.1:${refused}`);
    const pet = await openPet(preset, { ready: false });
    await shows(pet, (hp) => {
      const cause = document.querySelector('.plate-cause');
      return cause && !cause.hidden && cause.textContent.includes(`Can't reach ${hp}: connection refused`);
    }, `127.0.0.1:${refused}`, `the cause "Can't reach 127.0.0.1:${refused}: connection refused"`);
    // The countdown stays.
    await pet.waitForFunction(() => /reconnecting/.test(document.querySelector('.plate-text').textContent));
    assert.equal(await pet.locator('.plate-cause-settings').isHidden(), true, 'a server to start is not a setting');
    await pet.screenshot({ path: join(shots, 'plate-cause-refused.png') });

    await save(webURL);
    await shows(pet, () => document.querySelector('.plate-cause')?.textContent.includes('does not speak the push protocol (HTTP 404 on upgrade)'),
      undefined, 'the cause "does not speak the push protocol (HTTP 404 on upgrade)"');
    assert.match(await pet.locator('.plate-cause').textContent(), /OpenAI-compatible server\? Choose its API in Settings/);
    await pet.screenshot({ path: join(shots, 'plate-cause-not-push.png') });
    const seen = core.events.length;
    await pet.getByRole('button', { name: 'Open settings' }).click();
    const open = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'open_settings' && core.events.indexOf(e) >= seen, 'open_settings');
    assert.equal(open.message.section, 'backend');

    // Settings → Test connection says the same, and takes the user to the API.
    await settings.getByRole('button', { name: 'Test connection' }).click();
    await settings.waitForFunction(() => document.querySelector('.test-result')?.textContent.includes('HTTP 404 on upgrade'));
    await settings.getByRole('button', { name: 'Choose its API' }).click();
    assert.equal(await settings.evaluate(() => document.activeElement?.closest('[data-field]')?.dataset.field), 'chat_api');
    await settings.getByLabel('Base URL').fill(`http://127.0.0.1:${refused}`);
    await settings.getByRole('button', { name: 'Test connection' }).click();
    await settings.waitForFunction((hp) => document.querySelector('.test-result')?.textContent.includes(`Can't reach ${hp}: connection refused`),
      `127.0.0.1:${refused}`);
    assert.equal(await settings.getByRole('button', { name: 'Choose its API' }).isHidden(), true);
    await settings.screenshot({ path: join(shots, 'settings-test-connection-cause.png') });
    await pet.close();
    await settings.close();
  } finally {
    web.close();
  }
});
