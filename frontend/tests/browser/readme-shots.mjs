// The README's message-window and popover screenshots, from the real core
// with the demo backend: node tests/browser/readme-shots.mjs [outdir]
// (after make build; YUI_BIN names another binary). Not a test: it writes
// docs/screenshots/messages.png and pet-tasks.png by default.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { newPage, startCore } from './core.mjs';

const out = process.argv[2] ?? '../docs/screenshots';
mkdirSync(out, { recursive: true });
const core = await startCore({ demo: true, delegationDelay: '10m' });
const preset = core.settings.presets[0].id;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const msgs = await newPage(browser, { viewport: { width: 420, height: 560 } });
  await msgs.goto(`${core.ready.pages_url}?role=message&preset=${preset}&token=${encodeURIComponent(core.ready.page_tokens[`message:${preset}`])}`);
  await msgs.waitForSelector('.messages[data-preset]');
  const send = async (text) => {
    await msgs.locator('.composer-input').fill(text);
    await msgs.keyboard.press('Enter');
    await msgs.waitForSelector('.composer[data-locked="true"]');
    await msgs.waitForSelector('.composer[data-locked="false"]');
  };
  await send('hello Yui!');
  await send('could you check my notes?');
  await send('please delegate the log cleanup');
  await msgs.locator('.msg[data-kind="reply"] .reasoning-toggle').first().click();
  await msgs.locator('.composer-input').fill('thanks — what else is new?');
  await msgs.screenshot({ path: join(out, 'messages.png') });

  const pet = await newPage(browser, { viewport: { width: 300, height: 420 } });
  await pet.goto(`${core.ready.pages_url}?role=pet&preset=${preset}&token=${encodeURIComponent(core.tokenFor(preset))}`);
  await pet.waitForSelector('.chip:not([hidden])');
  await pet.addStyleTag({ content: 'html { background: #8fa6b8 !important; }' });
  await msgs.locator('.composer-input').fill('tell me slowly');
  await msgs.keyboard.press('Enter');
  await pet.waitForSelector('.bubble:not([hidden]) .bubble-text:not(:empty)');
  await pet.waitForSelector('.plate[hidden]', { state: 'attached' });
  await pet.locator('.chip').click();
  await pet.waitForSelector('.delegations:not([hidden])');
  await pet.screenshot({ path: join(out, 'pet-tasks.png') });
} finally {
  await browser.close();
  await core.stop();
}
