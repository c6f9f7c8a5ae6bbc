// The VRM look (docs/looks.md) in Debian's Chromium with software WebGL
// (SwiftShader) against a real core: the generated VRM 1.0 and 0.x models
// (tests/vrm/generate.mjs) are imported through the settings page (the
// file picker and a drop; bad files refused with what is wrong, the look
// unchanged), worn by the character, and drawn in every emotion and motion
// — each frame compared with its reference image in tests/vrm/refs/
// (tolerant: pixels off by more than 40 levels in a channel count as
// different, up to 1.5 % of them); a pointer near her turns her head; a pat
// and a poke play their reactions and reach the core; without WebGL she
// wears the built-in look with one notice, and the core logs why.
//
// YUI_UPDATE_SCREENSHOTS=1 rewrites the references.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, newPage as openPage, startCore } from './core.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const models = join(here, '..', 'vrm');
const refs = join(models, 'refs');
const update = process.env.YUI_UPDATE_SCREENSHOTS === '1';
const shots = process.env.YUI_BROWSER_SHOTS ?? '/tmp/yui-browser';
mkdirSync(shots, { recursive: true });
mkdirSync(refs, { recursive: true });

const EMOTIONS = ['neutral', 'happy', 'angry', 'sad', 'relaxed', 'surprised', 'thinking', 'curious', 'sleepy', 'embarrassed'];
const MAX_DIFF = 0.015;

let core;
let browser;

before(async () => {
  core = await startCore();
  browser = await launchBrowser({ webgl: true });
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

async function newPage(url, viewport) {
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

/** Imports a file through the settings page's picker; resolves with the
 * status line once it says how it went. */
async function pick(settings, name, bytes) {
  await settings.locator('.look-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
  return finished(settings);
}

async function finished(settings) {
  await settings.waitForFunction(() => {
    const s = document.querySelector('.look-import-status');
    return s && s.dataset.kind;
  });
  const s = settings.locator('.look-import-status');
  const r = { kind: await s.getAttribute('data-kind'), text: await s.textContent() };
  // Reset for the next import.
  await settings.evaluate(() => { const s = document.querySelector('.look-import-status'); delete s.dataset.kind; s.textContent = ''; });
  return r;
}

/** Compares a PNG with a reference in the page (decoded by the browser):
 * the fraction of pixels that differ. */
async function diff(page, png, ref) {
  return page.evaluate(async ([a, b]) => {
    const load = async (s) => createImageBitmap(await (await fetch(`data:image/png;base64,${s}`)).blob());
    const [ia, ib] = [await load(a), await load(b)];
    if (ia.width !== ib.width || ia.height !== ib.height) return 1;
    const px = (im) => {
      const c = new OffscreenCanvas(im.width, im.height);
      const g = c.getContext('2d');
      g.drawImage(im, 0, 0);
      return g.getImageData(0, 0, im.width, im.height).data;
    };
    const [pa, pb] = [px(ia), px(ib)];
    let n = 0;
    for (let i = 0; i < pa.length; i += 4) {
      for (let k = 0; k < 4; k++) {
        if (Math.abs(pa[i + k] - pb[i + k]) > 40) { n++; break; }
      }
    }
    return n / (pa.length / 4);
  }, [png.toString('base64'), ref.toString('base64')]);
}

/** Poses the look (emotion, motion, t seconds in) and checks the canvas
 * against refs/<name>.png. */
async function expectPose(pet, name, emotion, motion, t) {
  await pet.evaluate(([e, m, t]) => {
    const look = document.querySelector('.vrm-look').yuiLook;
    look.set({ emotion: e, motion: m, speaking: false });
    look.pose(t);
  }, [emotion, motion, t]);
  const png = await pet.locator('.vrm-look canvas.vrm-gl').screenshot({ omitBackground: true });
  const ref = join(refs, `${name}.png`);
  if (update || !existsSync(ref)) {
    writeFileSync(ref, png);
    if (!update) assert.fail(`no reference ${ref}: written, run again (YUI_UPDATE_SCREENSHOTS=1 rewrites them)`);
    return;
  }
  const d = await diff(pet, png, readFileSync(ref));
  if (d > MAX_DIFF) {
    writeFileSync(join(shots, `got-${name}.png`), png);
    assert.fail(`${name}: ${(100 * d).toFixed(2)} % of pixels differ from ${ref} (at most ${100 * MAX_DIFF} %); got ${join(shots, `got-${name}.png`)}`);
  }
}

test('a VRM model imported in settings is worn by the character; bad files are refused saying why', async () => {
  const id = core.settings.presets[0].id;
  const settings = await newPage(core.pageURL(''), { width: 760, height: 700 });
  await settings.waitForSelector('.preset-form');

  // Refused: each says what is wrong and nothing changes.
  const good = readFileSync(join(models, 'yui-test-1.0.vrm'));
  const corrupt = Buffer.from(good);
  corrupt[20] = '['.charCodeAt(0);
  for (const [name, bytes, want] of [
    ['half.vrm', good.subarray(0, good.length >> 1), /half\.vrm is cut short: \d+ bytes of the \d+ its header declares/],
    ['broken.vrm', corrupt, /broken\.vrm was not imported: the file is damaged: its glTF JSON does not parse/],
    ['cheer.vrm', readFileSync(join(models, 'cheer.vrma')), /cheer\.vrm was not imported: not a VRM model: this is a VRM animation/],
    ['notes.txt', Buffer.from('hello'), /notes\.txt is not a VRM model/],
  ]) {
    const r = await pick(settings, name, bytes);
    assert.equal(r.kind, 'error', `${name}: ${r.text}`);
    assert.match(r.text, want);
  }
  assert.equal(await settings.getByLabel('Look', { exact: true }).inputValue(), 'yui', 'the look is unchanged');
  const refused = core.logLines().filter((l) => l.event === 'look_import_refused').map((l) => l.err);
  assert.equal(refused.length, 2, `the core refused the two that reached it: ${refused}`);

  // The file picker: imported, selected in the form, worn once saved.
  const r = await pick(settings, 'Test Model.vrm', good);
  assert.equal(r.kind, 'ok', r.text);
  assert.match(r.text, /Imported Yui test model\. Save to wear it\./);
  await settings.waitForFunction(() => document.querySelector('select[id$="look"]')?.value === 'test-model'
    || [...document.querySelectorAll('select')].some((s) => s.value === 'test-model'));
  const look = settings.getByLabel('Look', { exact: true });
  assert.equal(await look.inputValue(), 'test-model');
  assert.match(await look.locator('option[value="test-model"]').textContent(), /^Yui test model \(VRM model\)$/);
  // Its thumbnail is rendered once from the model and kept by the core.
  await settings.waitForFunction(() => document.querySelector('img.look-thumb')?.src.startsWith('data:image/png'));
  assert.ok(existsSync(join(core.dir, 'config', 'looks', 'test-model', 'thumbnail.png')), 'thumbnail.png kept');
  await settings.screenshot({ path: join(shots, 'settings-vrm-import.png') });
  assert.equal(await saveAndWait(settings), 'Saved');
  // Her options for it: the look's own by default; a change is saved
  // with her at once, in the settings file.
  const breathing = settings.locator('#look-breathing');
  await breathing.waitFor();
  assert.equal(await breathing.inputValue(), '');
  assert.match(await breathing.locator('option[value=""]').textContent(), /^The look's own \(keeps still\)$/);
  await breathing.selectOption('low');
  await core.waitLog((l) => l.event === 'look_options' && l.preset === id && l.breathing === 'low', 'her breathing option saved');
  const saved = JSON.parse(readFileSync(join(core.dir, 'config', 'settings.json'), 'utf8'));
  assert.deepEqual(saved.presets.find((p) => p.id === id).look_options, { breathing: 'low' });
  await breathing.selectOption('');
  await core.waitLog((l) => l.event === 'look_options' && l.preset === id && l.breathing === '', 'back to the look\'s own');

  // A drop imports too (the 0.x model).
  const zero = readFileSync(join(models, 'yui-test-0.x.vrm'));
  await settings.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'zero.vrm'));
    const row = document.querySelector('.look-import-row');
    row.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    row.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, zero.toString('base64'));
  const dropped = await finished(settings);
  assert.equal(dropped.kind, 'ok', dropped.text);
  assert.equal(await look.inputValue(), 'zero');
  // Not saved: she still wears the first.
  await settings.getByLabel('Look', { exact: true }).selectOption('test-model');
  await settings.close();

  const pet = await newPage(core.pageURL(id), { width: 300, height: 420 });
  await pet.waitForSelector('.character[data-renderer="vrm"] .vrm-look canvas');
  assert.ok(await pet.locator('.character svg.yui-figure').evaluate((s) => getComputedStyle(s).display === 'none'), 'the SVG figure is hidden');
  // The model came from the core with the page's token.
  assert.ok(core.logLines().every((l) => l.event !== 'look_file_refused'));
  await pet.screenshot({ path: join(shots, 'pet-vrm.png') });
  await pet.close();
});

/** Opens the pet wearing look (saved through the settings page). */
async function wearing(lookId) {
  const id = core.settings.presets[0].id;
  const settings = await newPage(core.pageURL(''), { width: 760, height: 700 });
  await settings.waitForSelector('.preset-form');
  const select = settings.getByLabel('Look', { exact: true });
  if (await select.inputValue() !== lookId) {
    await select.selectOption(lookId);
    assert.equal(await saveAndWait(settings), 'Saved');
  }
  await settings.close();
  const pet = await newPage(core.pageURL(id), { width: 300, height: 420 });
  await pet.waitForSelector('.character[data-renderer="vrm"] .vrm-look canvas');
  return pet;
}

/** Where to pose a motion: mid-way through a bounded one, settled in a
 * held one, a fixed moment of a loop. */
const poseTime = (info) => (info.loop ? 0.6 : info.hold ? info.duration : info.duration * 0.45);

for (const [lookId, label] of [['test-model', '1.0'], ['zero', '0.x']]) {
  test(`the VRM ${label} model in every emotion and motion matches its references`, async () => {
    const pet = await wearing(lookId);
    const vocab = await pet.evaluate(() => {
      const look = document.querySelector('.vrm-look').yuiLook;
      return { motions: look.motionIds };
    });
    for (const e of EMOTIONS) await expectPose(pet, `${label}-emotion-${e}`, e, 'idle', 0);
    for (const m of vocab.motions) {
      if (m === 'idle') continue;
      const info = await pet.evaluate((m) => document.querySelector('.vrm-look').yuiLook.motionInfo(m), m);
      await expectPose(pet, `${label}-motion-${m}`, 'neutral', m, poseTime(info));
    }
    assert.ok(vocab.motions.length >= 18, `motions drawn: ${vocab.motions}`);
    await pet.close();
  });
}

test('a speaking mouth updates her face alone, shows a face it drew before from the kept frame, and that matches a full one', async () => {
  const pet = await wearing('test-model');
  await pet.waitForFunction(() => !document.querySelector('.vrm-look').yuiLook.animating);
  const shown = pet.locator('.vrm-look'); // the WebGL canvas, or the kept face over it
  const closed = await shown.screenshot({ omitBackground: true });
  const before = await pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    l.set({ emotion: 'neutral', motion: 'idle', speaking: true, voiced: true });
    // Open 1 s, closed 1 s, then open again (a face drawn before). Each
    // phase is long enough for the mouth to settle (and its face to be
    // kept) on a slow software-GL machine.
    const levels = [...Array(50).fill(90), ...Array(50).fill(0), ...Array(300).fill(90)];
    const at = Date.now();
    l.setLevels(at, 20, levels, levels.map(() => 50)); // one tone: the same shape (aa) each time
    return { frames: l.frames, face: l.faceFrames, kept: l.keptFrames, again: at + 2000 };
  });
  // Open and closed are drawn; open again (from 2 s on) is shown from the kept frame.
  await pet.waitForFunction(({ n, again }) => {
    const l = document.querySelector('.vrm-look').yuiLook;
    return Date.now() >= again && l.keptFrames > n && (l.shownWeights.aa ?? 0) > 0.5;
  }, { n: before.kept, again: before.again });
  const kept = await shown.screenshot({ omitBackground: true });
  const counts = await pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    return { frames: l.frames, face: l.faceFrames, kept: l.keptFrames, aa: l.shownWeights.aa ?? 0,
      gl: getComputedStyle(document.querySelector('.vrm-look canvas.vrm-gl')).visibility };
  });
  assert.ok(counts.aa > 0.5, `the mouth is open: ${JSON.stringify(counts)}`);
  assert.equal(counts.frames - before.frames, counts.face - before.face, 'every frame while only the mouth moves is a face frame');
  assert.ok(counts.face - before.face >= 3, `open, closed, open: ${JSON.stringify(counts)}`);
  assert.equal(counts.gl, 'hidden', 'the kept face shows over the hidden WebGL canvas');
  assert.ok((await diff(pet, kept, closed)) > 0, 'the open mouth is shown');
  // The same face drawn in full with WebGL.
  await pet.evaluate(() => document.querySelector('.vrm-look').yuiLook.pose(0));
  const full = await shown.screenshot({ omitBackground: true });
  const d = await diff(pet, kept, full);
  if (d > MAX_DIFF) {
    writeFileSync(join(shots, 'got-kept-frame.png'), kept);
    writeFileSync(join(shots, 'got-full-frame.png'), full);
  }
  assert.ok(d <= MAX_DIFF, `the kept face differs from a full frame in ${(100 * d).toFixed(2)} % of pixels`);
  await pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    l.setLevels(Date.now(), 20, []);
    l.unfreeze();
  });
  await pet.close();
});

test('a pointer near her turns her head; a pat and a poke play their reactions and reach the core', async () => {
  const pet = await wearing('test-model');
  const box = await pet.locator('.vrm-look canvas.vrm-gl').boundingBox();
  const look = () => pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    return { turn: l.headTurn, reacting: l.reacting, happy: l.shownWeights.happy ?? 0, surprised: l.shownWeights.surprised ?? 0, animating: l.animating };
  });
  // Settled first: nothing scheduled but the blink.
  await pet.waitForFunction(() => !document.querySelector('.vrm-look').yuiLook.animating);
  // The pointer at her right edge, at head height: she turns to it (her
  // left, +yaw); at the left edge the other way.
  await pet.mouse.move(box.x + box.width - 4, box.y + 30);
  await pet.waitForFunction(() => document.querySelector('.vrm-look').yuiLook.headTurn.yaw > 0.15);
  await pet.mouse.move(box.x + 4, box.y + 30);
  await pet.waitForFunction(() => document.querySelector('.vrm-look').yuiLook.headTurn.yaw < -0.15);
  // The core's pointer feed does the same from outside the window.
  assert.ok((await look()).turn.yaw < 0);

  // A pat: strokes back and forth over her head, no button.
  const head = await pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    const c = document.querySelector('.vrm-look canvas').getBoundingClientRect();
    // The head is the top of the silhouette: its first bands.
    const bands = l.region().filter((r) => r.y < c.top + 40);
    const b = bands[Math.floor(bands.length / 2)] ?? { x: c.left + c.width / 2 - 10, y: c.top + 20, w: 20, h: 8 };
    return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
  });
  const mark = core.events.length;
  await pet.mouse.move(head.x, head.y);
  for (let i = 0; i < 4; i++) {
    await pet.mouse.move(head.x + 12, head.y, { steps: 3 });
    await pet.mouse.move(head.x - 12, head.y, { steps: 3 });
  }
  const touch = (kind) => core.waitEvent((e, i) => e.event === 'view_in' && e.message?.type === 'touch' && e.message.kind === kind, `a ${kind} at the core`);
  const pat = await touch('pat');
  assert.deepEqual(pat.message, { type: 'touch', kind: 'pat', where: 'head' });
  await pet.waitForFunction(() => document.querySelector('.vrm-look').yuiLook.reacting === 'pat');
  await pet.waitForFunction(() => (document.querySelector('.vrm-look').yuiLook.shownWeights.happy ?? 0) > 0.3);
  await pet.screenshot({ path: join(shots, 'pet-vrm-pat.png') });
  // A poke: a double click on her body.
  const body = await pet.evaluate(() => {
    const l = document.querySelector('.vrm-look').yuiLook;
    const c = document.querySelector('.vrm-look canvas').getBoundingClientRect();
    const b = l.region().find((r) => r.y > c.top + c.height * 0.45);
    return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
  });
  await pet.mouse.dblclick(body.x, body.y);
  const poke = await touch('poke');
  assert.equal(poke.message.where, 'body');
  await pet.waitForFunction(() => (document.querySelector('.vrm-look').yuiLook.shownWeights.surprised ?? 0) > 0.3);
  // The log line; touch turns are off by default, so no turn.
  const logged = await core.waitLog((l) => l.event === 'touch' && l.kind === 'poke', 'the poke logged');
  assert.equal(logged.turn, false);
  void mark;
  // Settles again: no frame scheduled once the reaction and springs end.
  await pet.mouse.move(0, 0);
  await pet.waitForFunction(() => !document.querySelector('.vrm-look').yuiLook.animating);
  await pet.close();
});

test('without WebGL she wears the built-in look, with one notice, and the core logs why', async () => {
  const id = core.settings.presets[0].id;
  const plain = await launchBrowser({ noWebGL: true });
  try {
    const pet = await plain.newPage({ viewport: { width: 300, height: 420 } });
    pet.setDefaultTimeout(60_000);
    await pet.goto(core.pageURL(id));
    const notice = pet.locator('.notice-text');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), /VRM look cannot be shown here \(WebGL is not available in this window.*\), so she wears the built-in look\./);
    assert.ok(await pet.locator('.character svg.yui-figure').isVisible(), 'the SVG figure is drawn');
    assert.equal(await pet.locator('.vrm-look').count(), 0);
    const line = await core.waitLog((l) => l.event === 'look_fallback', 'look_fallback');
    assert.match(line.reason, /WebGL is not available/);
    assert.equal(line.look, 'test-model');
    await pet.screenshot({ path: join(shots, 'pet-vrm-fallback.png') });
  } finally {
    await plain.close();
  }
});
