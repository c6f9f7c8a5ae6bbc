// The pet page in Debian's Chromium against a real core running the
// embedded demo backend (trigger words: docs/demo-backend.md). Each test
// types a line and watches the DOM state the page exposes, recorded by a
// MutationObserver installed from the test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

/** The blink timing constants of src/character.ts. */
const BLINK = (() => {
  const src = readFileSync(new URL('../../src/character.ts', import.meta.url), 'utf8');
  const num = (name) => {
    const m = src.match(new RegExp(`export const ${name} = (\\d+);`));
    assert.ok(m, `${name} in character.ts`);
    return Number(m[1]);
  };
  return { min: num('BLINK_MIN_MS'), spread: num('BLINK_SPREAD_MS'), ms: num('BLINK_MS') };
})();

let core;
let browser;
const shots = process.env.YUI_BROWSER_SHOTS ?? '/tmp/yui-browser';
mkdirSync(shots, { recursive: true });
const shot = (page, name) => page.screenshot({ path: join(shots, `${name}.png`) });

before(async () => {
  core = await startCore({ demo: true, delegationDelay: '3s' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

/** Opens the pet page, waits for the backend to be ready and for any
 * earlier turn to be over, and installs the recorder. */
async function openPet({ reducedMotion = 'no-preference' } = {}) {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.emulateMedia({ reducedMotion });
  const preset = core.settings.presets[0].id;
  await page.goto(core.pageURL(preset));
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  // Ready: no connection plate, composer not locked.
  await page.waitForFunction(() => {
    const plate = document.querySelector('.plate');
    return (plate.hidden || plate.dataset.kind !== 'connection') && document.querySelector('.composer').dataset.locked !== 'true';
  });
  await page.evaluate(() => {
    const ch = document.querySelector('.character');
    const svg = ch.querySelector('svg');
    const rec = (window.__rec = { character: [], bubbles: [], pill: [], mouth: new Set(), closes: 0, mouthFadeIns: 0, badFrames: [], faceUnrendered: 0 });
    // The mouth: how often it closed; how often the face's mouth left the
    // render tree (display: none) or faded in — it stays rendered, hidden,
    // while a talking frame shows, so its fade-in (WebKit replays it each
    // time it is shown again) comes only with an emotion; and any change
    // after which not exactly the frame named was visible.
    const mouthGroups = ['[data-part="mouth"]', '.talk[data-frame="1"]', '.talk[data-frame="2"]'];
    ch.addEventListener('animationstart', (e) => {
      if (e.animationName === 'face-in' && e.target.parentElement?.dataset.part === 'mouth') rec.mouthFadeIns++;
    });
    const t0 = performance.now();
    new MutationObserver((ms) => {
      for (const m of ms) {
        if (m.attributeName === 'data-mouth') {
          rec.mouth.add(ch.dataset.mouth);
          if (ch.dataset.mouth === '0' && m.oldValue !== '0') rec.closes++;
          const face = ch.querySelector(mouthGroups[0]);
          if (getComputedStyle(face).display === 'none') rec.faceUnrendered++;
          const shown = mouthGroups.map((q) => {
            const g = ch.querySelector(q);
            for (let e = g; e !== ch; e = e.parentElement) if (getComputedStyle(e).display === 'none') return false;
            return getComputedStyle(g).visibility === 'visible';
          });
          if (shown.filter(Boolean).length !== 1 || !shown[Number(ch.dataset.mouth)]) rec.badFrames.push(`${ch.dataset.mouth}: ${shown}`);
        }
        else rec.character.push({ t: performance.now() - t0, attr: m.attributeName, emotion: ch.dataset.emotion, motion: ch.dataset.motion, speaking: ch.dataset.speaking, posed: ch.querySelector('.yui-motion').style.transform !== '' });
      }
    }).observe(ch, { attributes: true, attributeOldValue: true, attributeFilter: ['data-emotion', 'data-motion', 'data-speaking', 'data-mouth'] });
    const bubble = document.querySelector('.bubble');
    new MutationObserver(() => {
      const text = bubble.querySelector('.bubble-text').textContent;
      const last = rec.bubbles[rec.bubbles.length - 1];
      if (!bubble.hidden && (!last || last.text !== text)) rec.bubbles.push({ t: performance.now() - t0, text, kind: bubble.dataset.kind, emotion: ch.dataset.emotion });
    }).observe(bubble, { attributes: true, childList: true, characterData: true, subtree: true });
    const pill = document.querySelector('.pill');
    new MutationObserver(() => {
      const tool = pill.querySelector('.pill-tool');
      const state = pill.hidden ? 'hidden' : tool.hidden ? 'no-tool' : tool.dataset.state;
      const last = rec.pill[rec.pill.length - 1];
      if (!last || last.state !== state) rec.pill.push({ t: performance.now() - t0, state, label: tool.textContent });
    }).observe(pill, { attributes: true, childList: true, characterData: true, subtree: true });
  });
  return page;
}

const rec = (page) => page.evaluate(() => ({ ...window.__rec, mouth: [...window.__rec.mouth] }));

async function say(page, text) {
  if (await page.locator('.composer').isHidden()) await page.locator('.character svg.yui-figure').click();
  await page.locator('.composer-input').fill(text);
  await page.locator('.composer-input').press('Enter');
  // The turn is under way once the core locks the composer.
  await page.waitForSelector('.composer[data-locked="true"]');
}

const unlocked = (page) => page.waitForSelector('.composer:not([data-locked="true"])');

/** A log line's ts (RFC 3339, up to nanoseconds) as nanoseconds. */
function nanos(ts) {
  const m = ts.match(/^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/);
  return BigInt(Date.parse(m[1] + m[3])) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** The texts in `want` appear in `got` in this order. */
function inOrder(got, want) {
  let i = 0;
  for (const g of got) if (i < want.length && g === want[i]) i++;
  return i === want.length;
}

test('a typed turn locks the composer, shows thinking, then plays its sentences in order with their emotions', async () => {
  const page = await openPet();
  await shot(page, 'idle');
  await say(page, 'hello');
  await page.waitForSelector('.composer[data-locked="true"]');
  assert.equal(await page.locator('.composer-send').textContent(), 'Stop');
  assert.equal(await page.locator('.composer-input').isDisabled(), true);
  await page.waitForSelector('.plate[data-kind="thinking"]:not([hidden])');
  await page.waitForFunction(() => document.querySelector('.character').dataset.speaking === 'true');
  await shot(page, 'speaking');
  await unlocked(page);
  await page.waitForSelector('.plate', { state: 'hidden' });
  // After playback the face eases back to neutral.
  await page.waitForFunction(() => document.querySelector('.character').dataset.emotion === 'neutral');
  const r = await rec(page);
  const speech = r.bubbles.filter((b) => b.kind === 'speech');
  const want = [
    ['Hi there!', 'happy'],
    ["I'm the demo backend, running right inside Yui.", 'relaxed'],
    ['Say help to see what I can show you.', 'curious'],
  ];
  assert.ok(inOrder(speech.map((b) => b.text), want.map((w) => w[0])), `sentences in order: ${JSON.stringify(speech)}`);
  for (const [text, emotion] of want) {
    assert.equal(speech.find((b) => b.text === text).emotion, emotion, `emotion while "${text}" played`);
  }
  const emotions = r.character.filter((c) => c.attr === 'data-emotion').map((c) => c.emotion);
  assert.ok(inOrder(emotions, ['happy', 'relaxed', 'curious', 'neutral']), `emotion history ${emotions}`);
  assert.ok(r.character.some((c) => c.speaking === 'true'), 'data-speaking was true while speech played');
  assert.ok(r.mouth.includes('1') || r.mouth.includes('2'), `the mouth moved: ${r.mouth}`);
  assert.deepEqual(r.badFrames, [], 'each mouth change shows exactly its frame');
  // The face's mouth stays rendered while the mouth talks, and fades in
  // only when an emotion changes it, not each time the mouth closes.
  assert.ok(r.closes >= 2, `the mouth closed while talking: ${r.closes}`);
  assert.equal(r.faceUnrendered, 0, "the face's mouth never left the render tree");
  assert.ok(r.mouthFadeIns <= emotions.length, `face mouth fade-ins ${r.mouthFadeIns}, emotion changes ${emotions.length}, closes ${r.closes}`);
  const hop = r.character.find((c) => c.motion === 'happy');
  assert.equal(hop?.posed, true, "the happy motion poses the figure's layer (the frame clock runs)");
  // The bubble stays after the last sentence, then hides by itself.
  await page.waitForSelector('.bubble', { state: 'hidden' });
  // Idle again: the motions are bounded, so every CSS animation ends.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  // ...and the motions' frame clock stops with them: the figure at rest.
  await page.waitForFunction(() => document.querySelector('.character .yui-motion').style.transform === '');
  await page.close();
});

test('stop mid-reply unlocks the composer and drops the rest of the reply', async () => {
  const page = await openPet();
  const turnRecords = () => core.logLines().filter((l) => l.event === 'turn');
  const earlier = turnRecords().length;
  await say(page, 'slow please');
  await page.waitForFunction(() => document.querySelector('.bubble-text').textContent === 'Okay, this one takes a while.');
  // The turn's id, from its turn record in the turn log.
  await core.waitLog(() => turnRecords().length > earlier, 'the turn record');
  const id = turnRecords()[earlier].turn_id;
  await page.locator('.composer-send').click(); // Stop
  await unlocked(page);
  // The backend ends a stopped turn with its turn_end, after every frame
  // of it it sent; the client handles frames in order. So once the
  // turn_end is logged, every render of the turn has been handled: none
  // after the stop may have played.
  await core.waitLog((l) => l.event === 'push.stop', 'push.stop');
  await core.waitLog((l) => l.event === 'push.turn_end' && l.turn_id === id, `push.turn_end of ${id}`);
  const lines = core.logLines(); // the app log and the turn log: ordered by ts
  const stoppedAt = nanos(lines.find((l) => l.event === 'push.stop').ts);
  const played = lines.filter((l) => l.event === 'push.render' && l.turn_id === id && l.dropped === undefined && nanos(l.ts) > stoppedAt);
  assert.deepEqual(played, [], 'no render of the stopped turn played after the stop');
  const r = await rec(page);
  const texts = r.bubbles.map((b) => b.text);
  for (const late of ["Then I'll weigh every option, slowly.", 'You can press stop at any time, by the way.', 'And there it is: the long answer, at last.']) {
    assert.ok(!texts.includes(late), `"${late}" was dropped: ${JSON.stringify(texts)}`);
  }
  assert.equal(await page.locator('.composer-send').textContent(), 'Send');
  await page.close();
});

test('the pill shows a tool while it runs, then done, then hides', async () => {
  const page = await openPet();
  await say(page, 'check my notes');
  await page.waitForSelector('.pill-tool[data-state="running"]');
  assert.match(await page.locator('.pill-label').textContent(), /read file/i);
  await shot(page, 'thinking-pill');
  await page.waitForSelector('.pill-tool[data-state="done"]');
  await page.waitForSelector('.pill', { state: 'hidden' });
  const r = await rec(page);
  // Running, then done, then gone, in that order. How long done is held
  // (session.PillHold, 1.5 s) is the core's timer, tested under fake time
  // in app/session (TestDoneHeldForOnePointFiveSeconds); a wall clock here would only measure
  // how busy the machine is.
  const states = r.pill.map((p) => p.state);
  const done = states.indexOf('done');
  assert.ok(states.indexOf('running') >= 0 && states.indexOf('running') < done, `pill states ${JSON.stringify(r.pill)}`);
  assert.ok(states.slice(done + 1).some((s) => s === 'hidden' || s === 'no-tool'), `pill states ${JSON.stringify(r.pill)}`);
  await unlocked(page);
  await page.close();
});

test('an error frame shows the cut line under the composer', async () => {
  const page = await openPet();
  await say(page, 'error please');
  await page.waitForSelector('.composer-error:not([hidden])');
  const line = await page.locator('.composer-error').textContent();
  assert.ok(line.length > 0 && line.length <= 200, `error line: ${line}`);
  assert.match(line, /fail|wrong|error/i);
  await unlocked(page);
  await page.close();
});

test('reduced motion: no decorative motion and no mouth flap, blinking stays', async () => {
  const page = await openPet({ reducedMotion: 'reduce' });
  await say(page, 'hello');
  await unlocked(page);
  await page.waitForFunction(() => document.querySelector('.character').dataset.emotion === 'neutral');
  const r = await rec(page);
  assert.ok(r.character.some((c) => c.speaking === 'true'), 'speech played');
  assert.deepEqual(r.mouth.filter((m) => m !== '0'), [], 'the mouth did not flap');
  const moving = r.character.filter((c) => c.motion !== 'idle');
  assert.ok(moving.length > 0, 'the core sent motions');
  for (const c of moving) assert.equal(c.posed, false, `no motion drawn for ${c.motion}`);
  assert.equal(await page.evaluate(() => document.querySelector('.character').dataset.reducedMotion), 'true');
  // Blinking still happens: one every BLINK_MIN_MS..+BLINK_SPREAD_MS
  // (4–9 s), lasting BLINK_MS (character.ts). The wait is for the blink
  // itself; LIMIT only bounds a page that never blinks.
  assert.ok(BLINK.min + BLINK.spread + BLINK.ms < 60_000, 'a blink is due well within the wait');
  await page.waitForFunction(() => document.querySelector('.character .eye').style.transform !== '', null, { polling: 20 });
  await page.waitForFunction(() => document.querySelector('.character .eye').style.transform === '', null, { polling: 20 });
  await page.close();
});

test('the chip lists a delegation and its later report plays', async () => {
  const page = await openPet();
  await say(page, 'delegate the sheep count');
  await page.waitForSelector('.chip:not([hidden])[data-state="running"]');
  assert.equal(await page.locator('.chip-count').textContent(), '1');
  await page.locator('.chip').click();
  await page.waitForSelector('.delegations:not([hidden])');
  assert.equal(await page.locator('.delegation-title').first().textContent(), 'delegate the sheep count');
  assert.equal(await page.locator('.delegation-state').first().textContent(), 'running');
  assert.equal(await page.locator('.delegation-age').first().textContent(), 'just now');
  // The 3 s delegation ends: the list shows it done, and the report plays.
  await page.waitForSelector('.delegation[data-state="done"]');
  await page.waitForFunction(() => document.querySelector('.bubble-text').textContent.includes('background task is done'));
  const summary = page.locator('.delegation-summary').first();
  if (await summary.count()) {
    await summary.click();
    assert.equal(await summary.getAttribute('data-expanded'), 'true');
  }
  await shot(page, 'delegations');
  const r = await rec(page);
  assert.ok(r.bubbles.some((b) => b.text === 'Good news: the background task is done.' && b.emotion === 'happy'), JSON.stringify(r.bubbles));
  await page.close();
});
