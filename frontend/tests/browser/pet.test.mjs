// The pet page in Debian's Chromium against a real core process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;

before(async () => {
  // The demo backend on a private port keeps the test independent of
  // whatever listens on the machine's default demo address.
  core = await startCore({ demo: true });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

function petURL(token = core.tokenFor(core.settings.presets[0].id)) {
  const preset = core.settings.presets[0].id;
  return `${core.ready.pages_url}?role=pet&preset=${preset}&token=${encodeURIComponent(token)}`;
}

test('renders the character and the core state, then sends a typed line', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  const box = await page.locator('.character svg.yui-figure').boundingBox();
  assert.ok(box && box.width > 100 && box.height > 100, `character drawn at ${JSON.stringify(box)}`);
  // Connected to the demo backend: the connection plate goes away.
  await page.waitForSelector('.plate[hidden]', { state: 'attached' });
  assert.equal(await page.locator('.character').getAttribute('aria-label'), 'Yui');
  assert.equal(await page.locator('.character').getAttribute('data-emotion'), 'neutral');

  await page.locator('.character svg.yui-figure').click();
  await page.waitForSelector('.composer:not([hidden])');
  await page.keyboard.type('hello from chromium');
  await page.keyboard.press('Enter');
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'send_text', 'send_text');
  assert.equal(e.message.text, 'hello from chromium');
  assert.equal(e.role, 'pet');
  assert.equal(e.preset, core.settings.presets[0].id);
  // The page keeps the line until the core accepts the turn (it locks the
  // composer), then clears it.
  await page.waitForSelector('.composer[data-locked="true"]');
  assert.equal(await page.locator('.composer-input').inputValue(), '');
  await page.screenshot({ path: process.env.YUI_BROWSER_SHOT ?? '/tmp/yui-browser-pet.png' });
  await page.close();
});

test('a page with a wrong token gets no state', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL('not-the-token'));
  await page.waitForFunction(() => document.documentElement.dataset.core === 'closed');
  assert.equal(await page.locator('.plate').isHidden(), true);
  await page.close();
});

test('right-click on the character → Settings… asks the core for the settings window', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  const item = page.getByRole('menuitem', { name: 'Settings…' });
  await item.waitFor();
  // The composer stays closed: a right-click is not a click on her.
  assert.equal(await page.locator('.composer').isHidden(), true);
  await item.click();
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'open_settings', 'open_settings');
  assert.equal(e.role, 'pet');
  assert.equal(e.preset, core.settings.presets[0].id);
  assert.equal(e.message.section, undefined);
  await page.waitForSelector('.pet-menu', { state: 'hidden' });
  await page.close();
});

test('right-click on the character → Mute Yui mutes her, and the menu then offers Unmute Yui beside Mute all voices', async () => {
  const page = await browser.newPage({ viewport: { width: 300, height: 420 } });
  await page.goto(petURL(core.ready.token));
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  // Her own mute is named after her; the app-wide one says "all".
  await page.getByRole('menuitemcheckbox', { name: 'Mute all voices', exact: true }).waitFor();
  await page.getByRole('menuitem', { name: 'Mute Yui', exact: true }).click();
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'mute', 'mute');
  assert.equal(e.role, 'pet');
  assert.deepEqual({ scope: e.message.scope, muted: e.message.muted }, { scope: 'character', muted: true });
  await page.waitForSelector('.pet[data-muted="true"]');
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Unmute Yui', exact: true }).click();
  await page.waitForSelector('.pet[data-muted="false"]');
  await page.close();
});

test('right-click on the character → New conversation → Yes asks the core to reset', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  const resets = () => core.events.filter((e) => e.event === 'view_in' && e.message?.type === 'reset').length;
  const before = resets();
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  const item = page.getByRole('menuitem', { name: 'New conversation' });
  await item.waitFor();
  // Below Settings…, above this character's mute and the tray's items.
  assert.deepEqual(await page.getByRole('menuitem').allTextContents(), ['Settings…', 'Messages…', 'New conversation', 'Mute Yui', 'Hide Yui', 'Reset position', 'Go to bed', 'Quit Yui']);
  await item.click();
  // The item turns into a question in the menu; nothing is sent yet.
  await page.getByText('Start over?').waitFor();
  assert.equal(await item.isHidden(), true);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
  const menuBox = await page.locator('.pet-menu').boundingBox();
  assert.ok(menuBox.x >= 0 && menuBox.y >= 0 && menuBox.x + menuBox.width <= 300 && menuBox.y + menuBox.height <= 420,
    `menu inside the window: ${JSON.stringify(menuBox)}`);
  await page.screenshot({ path: process.env.YUI_BROWSER_MENU_SHOT ?? '/tmp/yui-browser-pet-menu.png' });
  assert.equal(resets(), before);
  // From the keyboard: Left moves to Yes, Enter answers.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Yes');
  await page.keyboard.press('Enter');
  const e = await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'reset', 'reset');
  assert.equal(e.role, 'pet');
  assert.equal(e.preset, core.settings.presets[0].id);
  await page.waitForSelector('.pet-menu', { state: 'hidden' });
  assert.equal(resets(), before + 1);
  // Cancel sends nothing. Proven in order: the page then asks for the
  // settings window, and the core gets that message after anything Cancel
  // would have sent on the same socket.
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'New conversation' }).click();
  await page.getByRole('menuitem', { name: 'Cancel' }).click();
  await page.waitForSelector('.pet-menu', { state: 'hidden' });
  const seen = core.events.length;
  await page.locator('.character svg.yui-figure').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Settings…' }).click();
  await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'open_settings' && core.events.indexOf(e) >= seen, 'open_settings after Cancel');
  assert.equal(resets(), before + 1);
  await page.close();
});

test('right-click → Mute all voices and Start at login act on the real core, and the checks follow it', async () => {
  const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await page.goto(petURL());
  await page.waitForSelector('.character svg');
  await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
  const open = async () => {
    await page.locator('.character svg.yui-figure').click({ button: 'right' });
    await page.getByRole('menuitemcheckbox', { name: 'Mute all voices' }).waitFor();
  };
  const checked = (name) => page.getByRole('menuitemcheckbox', { name }).getAttribute('aria-checked');
  await open();
  assert.deepEqual(await page.getByRole('menuitemcheckbox').allTextContents(), ['Quiet Yui', 'Mute all voices', 'Quiet companion', 'Start at login']);
  assert.equal(await checked('Mute all voices'), 'false');
  await page.getByRole('menuitemcheckbox', { name: 'Mute all voices' }).click();
  await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'desktop_action' && e.message.action === 'mute', 'mute');
  await page.waitForFunction(() => document.querySelector('[data-action="mute"]')?.getAttribute('aria-checked') === 'true');
  const saved = JSON.parse(readFileSync(join(core.dir, 'config', 'settings.json'), 'utf8'));
  assert.equal(saved.audio?.muted, true);

  // Start at login writes the autostart entry of this core's desktop.
  const entry = join(core.dir, 'xdg', 'autostart', 'yui.desktop');
  await open();
  await page.getByRole('menuitemcheckbox', { name: 'Start at login' }).click();
  await page.waitForFunction(() => document.querySelector('[data-action="start-at-login"]')?.getAttribute('aria-checked') === 'true');
  assert.ok(existsSync(entry), 'no autostart entry');
  await open();
  await page.getByRole('menuitemcheckbox', { name: 'Start at login' }).click();
  await page.waitForFunction(() => document.querySelector('[data-action="start-at-login"]')?.getAttribute('aria-checked') === 'false');
  assert.equal(existsSync(entry), false);
  // Unmute, for the other tests.
  await open();
  await page.getByRole('menuitemcheckbox', { name: 'Mute all voices' }).click();
  await page.waitForFunction(() => document.querySelector('[data-action="mute"]')?.getAttribute('aria-checked') === 'false');

  // The quiet companion, hers and everyone's (docs/proactive.md): saved,
  // and the checks follow the core's companion topic.
  for (const [name, action, read] of [
    ['Quiet Yui', 'quiet-character', (s) => s.presets[0].quiet],
    ['Quiet companion', 'quiet-all', (s) => s.proactive?.quiet],
  ]) {
    for (const on of [true, false]) {
      await open();
      await page.getByRole('menuitemcheckbox', { name }).click(); // checked, its name has the mark too
      await core.waitEvent((e) => e.event === 'view_in' && e.message?.type === 'quiet' && e.message.quiet === on, `quiet ${name} ${on}`);
      await page.waitForFunction(([a, v]) => document.querySelector(`[data-action="${a}"]`)?.getAttribute('aria-checked') === v, [action, String(on)]);
      const s = JSON.parse(readFileSync(join(core.dir, 'config', 'settings.json'), 'utf8'));
      assert.equal(!!read(s), on, `${name} saved`);
    }
  }
  await page.close();
});
