// The looks picker and look folders (docs/looks.md) in Debian's Chromium
// against a real core: the settings window offers the three built-in looks
// and a valid look folder, greys out a refused folder and says which file
// is at fault; choosing a folder look draws its art in the pet page (as
// images of sanitised SVG), choosing a built-in one draws that figure.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, newPage as openPage, startCore } from './core.mjs';

const EMOTIONS = ['neutral', 'happy', 'angry', 'sad', 'relaxed', 'surprised', 'thinking', 'curious', 'sleepy', 'embarrassed'];
const svg = (fill) => `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 240">\n  <circle cx="100" cy="120" r="80" fill="${fill}"/>\n</svg>\n`;

/** Writes a look folder with every emotion, `bad` replacing some files,
 * `extra` adding others (its own poses). */
function writeLook(config, id, name, bad = {}, extra = {}) {
  const dir = join(config, 'looks', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'look.json'), JSON.stringify({ name }));
  for (const e of EMOTIONS) writeFileSync(join(dir, `${e}.svg`), bad[`${e}.svg`] ?? svg('#3a86ff'));
  for (const [f, body] of Object.entries(extra)) writeFileSync(join(dir, f), body);
}

let core;
let browser;
const shots = process.env.YUI_BROWSER_SHOTS ?? '/tmp/yui-browser';
mkdirSync(shots, { recursive: true });

before(async () => {
  core = await startCore({
    prepare: (config) => {
      writeLook(config, 'ocean', 'Ocean');
      // Its own sleeping pose (and a refused sitting one: the built-in pose).
      writeLook(config, 'posed', 'Posed', {}, {
        'sleep.svg': svg('#ff006e'),
        'sit.svg': '<svg xmlns="http://www.w3.org/2000/svg">\n<image href="https://example.com/x.png"/>\n</svg>',
      });
      writeLook(config, 'broken', 'Broken', {
        'curious.svg': '<svg xmlns="http://www.w3.org/2000/svg">\n<script>fetch("https://example.com")</script>\n</svg>',
      });
    },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

async function newPage(url, viewport = { width: 760, height: 560 }) {
  const page = await openPage(browser, { viewport });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  return page;
}

async function saveAndWait(page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForFunction(() => {
    const s = document.querySelector('.footer .status');
    const save = document.querySelector('.footer .btn-primary');
    return s.textContent !== '' && save.textContent === 'Save';
  });
  return page.locator('.footer .status').textContent();
}

test('the settings window offers the looks and names the file a refused look folder is refused for', async () => {
  const page = await newPage(core.pageURL(''));
  await page.waitForSelector('.preset-form');
  const look = page.getByLabel('Look', { exact: true });
  const options = await look.locator('option').evaluateAll((os) => os.map((o) => ({ value: o.value, text: o.textContent, disabled: o.disabled })));
  const byValue = Object.fromEntries(options.map((o) => [o.value, o]));
  for (const id of ['yui', 'mika', 'sora', 'ocean']) {
    assert.ok(byValue[id] && !byValue[id].disabled, `look ${id} offered: ${JSON.stringify(options)}`);
  }
  assert.match(byValue.ocean.text, /^Ocean/);
  assert.ok(byValue.broken?.disabled, `the broken look is greyed out: ${JSON.stringify(byValue.broken)}`);
  // The note under Look says which file, which line, and why.
  const note = page.locator('.look-note');
  await note.waitFor({ state: 'visible' });
  const text = await note.textContent();
  assert.match(text, /looks\/broken\/curious\.svg: line 2: <script> is not allowed/);
  const noteId = await note.getAttribute('id');
  assert.ok((await look.getAttribute('aria-describedby')).split(' ').includes(noteId), 'the Look select is described by the note');
  await page.screenshot({ path: join(shots, 'settings-looks.png') });
  await page.close();
});

test('choosing a look folder draws its art in the pet; a built-in look draws that figure', async () => {
  const id = core.settings.presets[0].id;
  const pet = await newPage(core.pageURL(id), { width: 300, height: 420 });
  await pet.waitForSelector('.character[data-look="yui"]', { state: 'attached' });
  const page = await newPage(core.pageURL(''));
  await page.waitForSelector('.preset-form');
  const look = page.getByLabel('Look', { exact: true });

  await look.selectOption('ocean');
  assert.equal(await saveAndWait(page), 'Saved');
  const settingsPath = join(core.dir, 'config', 'settings.json');
  assert.equal(JSON.parse(readFileSync(settingsPath, 'utf8')).presets[0].look, 'ocean');
  const img = pet.locator('.character img.look-art');
  await img.waitFor({ state: 'visible' });
  const src = await img.getAttribute('src');
  assert.match(src, /^data:image\/svg\+xml;base64,/);
  const doc = Buffer.from(src.split(',')[1], 'base64').toString('utf8');
  assert.match(doc, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 200 240">/, 'the sanitised SVG (no XML declaration)');
  assert.ok(await pet.locator('.character svg.yui-figure').evaluate((s) => s.getAttribute('display') === 'none'));
  // Not drawn: the art takes its place (a display attribute alone loses to CSS).
  assert.equal(await pet.locator('.character svg.yui-figure').evaluate((s) => getComputedStyle(s).display), 'none');
  await pet.waitForFunction(() => document.querySelector('.character img.look-art').complete
    && document.querySelector('.character img.look-art').naturalWidth > 0);
  await pet.screenshot({ path: join(shots, 'pet-look-folder.png') });

  await look.selectOption('sora');
  assert.equal(await saveAndWait(page), 'Saved');
  await pet.waitForSelector('.character[data-look="sora"]', { state: 'attached' });
  await img.waitFor({ state: 'detached' });
  const outfit = await pet.locator('.character .body path').first().getAttribute('fill');
  assert.equal(outfit, '#f0c04a', 'Sora wears her mustard sweater');
  await pet.screenshot({ path: join(shots, 'pet-look-sora.png') });
  await Promise.all([pet.close(), page.close()]);
});

test('the shortcut field records the keys pressed and the save keeps them', async () => {
  const page = await newPage(core.pageURL(''));
  await page.waitForSelector('.preset-form');
  const field = page.getByLabel('Shortcut to talk', { exact: true });
  assert.equal(await field.inputValue(), 'Ctrl+Alt+Y');
  await field.focus();
  await page.keyboard.press('Control+Alt+KeyK');
  assert.equal(await field.inputValue(), 'Ctrl+Alt+K');
  assert.equal(await saveAndWait(page), 'Saved');
  const settingsPath = join(core.dir, 'config', 'settings.json');
  assert.deepEqual(JSON.parse(readFileSync(settingsPath, 'utf8')).keyboard, { shortcut: 'Ctrl+Alt+K' });
  // A bare key is not a shortcut: refused at the field, the file untouched.
  await field.fill('K');
  assert.match(await saveAndWait(page), /^Not saved: .*needs Ctrl, Alt or Super/);
  assert.deepEqual(JSON.parse(readFileSync(settingsPath, 'utf8')).keyboard, { shortcut: 'Ctrl+Alt+K' });
  await page.close();
});

test("a look folder's own pose is drawn; a folder without one takes the built-in pose", async () => {
  const id = core.settings.presets[0].id;
  const pet = await newPage(core.pageURL(id), { width: 300, height: 420 });
  await pet.waitForSelector('.character[data-pose="standing"]', { state: 'attached' });
  const page = await newPage(core.pageURL(''));
  await page.waitForSelector('.preset-form');
  const look = page.getByLabel('Look', { exact: true });
  // The refused sit.svg is named under Look; the look stays usable.
  const note = page.locator('.look-note');
  await note.waitFor({ state: 'visible' });
  assert.match(await note.textContent(), /Posed \(look folder\) draws the built-in pose instead: looks\/posed\/sit\.svg: line 2: <image> is not allowed/);
  const menu = async (action) => {
    await pet.locator('.character').click({ button: 'right' });
    await pet.locator(`[data-action="${action}"]`).click();
  };
  /** What shows while she sleeps: which image, its source's fill, and the
   * figure's transform (the built-in pose's). */
  const asleep = () => pet.evaluate(() => {
    const shown = [...document.querySelectorAll('.character img')].filter((i) => getComputedStyle(i).display !== 'none' && getComputedStyle(i).visibility !== 'hidden');
    return shown.map((i) => ({
      cls: i.className,
      fill: /fill="([^"]+)"/.exec(atob(i.getAttribute('src').split(',')[1]))?.[1],
      transform: getComputedStyle(i).transform,
    }));
  });

  await look.selectOption('posed');
  assert.equal(await saveAndWait(page), 'Saved');
  await pet.waitForSelector('.character img.look-art', { state: 'visible' });
  await menu('bed');
  await pet.waitForSelector('.character[data-pose="sleeping"][data-pose-art="sleep"] img.pose-art', { state: 'visible' });
  assert.deepEqual(await asleep(), [{ cls: 'pose-art', fill: '#ff006e', transform: 'none' }], 'her own sleeping drawing, untransformed, instead of the emotion art');
  await pet.screenshot({ path: join(shots, 'pet-look-own-pose.png') });
  await menu('wake');
  await pet.waitForSelector('.character[data-pose="standing"]', { state: 'attached' });
  assert.deepEqual((await asleep()).map((i) => i.cls), ['yui-figure look-art'], 'awake: her emotion art again');

  await look.selectOption('ocean');
  assert.equal(await saveAndWait(page), 'Saved');
  await pet.waitForFunction(() => !document.querySelector('.character img.look-art')?.getAttribute('src')?.includes(btoa('#ff006e')));
  await menu('bed');
  await pet.waitForSelector('.character[data-pose="sleeping"]', { state: 'attached' });
  const shown = await asleep();
  assert.equal(shown.length, 1, JSON.stringify(shown));
  assert.equal(shown[0].cls, 'yui-figure look-art', 'no pose of its own: the emotion art');
  assert.equal(shown[0].fill, '#3a86ff');
  assert.notEqual(shown[0].transform, 'none', 'in the built-in sleeping pose (slumped)');
  assert.equal(await pet.locator('.character').getAttribute('data-pose-art'), null);
  await menu('wake');
  await Promise.all([pet.close(), page.close()]);
});
