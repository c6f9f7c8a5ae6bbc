// The settings window's "What she remembers" in Debian's Chromium against a
// real core (docs/memory.md, docs/mcp.md): off, with the reason, while the
// demo character is on push; on Chat Completions her facts and summary are
// saved at once to her memory file, and her MCP servers to the settings
// file, a refused URL named beside the section.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

test('what she remembers: off on push, saved at once on Chat Completions', async () => {
  const preset = core.settings.presets[0].id;
  const page = await newPage(browser, { viewport: { width: 760, height: 900 } });
  await page.goto(core.pageURL(''));
  await page.waitForSelector('.preset-form');
  const section = page.locator('#section-mind');
  await page.waitForFunction(() => /off for her/.test(document.querySelector('#section-mind .mind-note')?.textContent ?? ''));
  assert.equal(await section.locator('.mind-body').isHidden(), true);

  await page.getByLabel('Chat API').selectOption('chat_completions');
  await page.locator('#section-backend').getByLabel('Model', { exact: true }).fill('yui-demo');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('.footer .status').textContent === 'Saved');
  await section.locator('.mind-body').waitFor({ state: 'visible' });
  const path = (await page.locator('.footer .path').textContent()).trim();

  await section.getByLabel('Summary', { exact: true }).fill('The user is Ada; she loves green tea.');
  await section.getByLabel('Facts about you', { exact: true }).fill("The user's name is Ada\nprefers short answers");
  await section.getByRole('button', { name: 'Save memory' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('#section-mind .mind-line')].some((l) => l.textContent === 'Saved.'));
  const memFile = join(dirname(path), `memory-${preset}.json`);
  assert.ok(existsSync(memFile), memFile);
  const mem = JSON.parse(readFileSync(memFile, 'utf8'));
  assert.equal(mem.summary, 'The user is Ada; she loves green tea.');
  assert.deepEqual(mem.facts, ["The user's name is Ada", 'prefers short answers']);

  await section.getByRole('button', { name: 'Add MCP server' }).click();
  await section.getByLabel('Server 1 name').fill('web');
  await section.getByLabel('Server 1 command or URL').fill('http:///mcp');
  await section.getByRole('button', { name: 'Save MCP servers' }).click();
  await page.waitForFunction(() => /Not saved \(mcp_servers\[0\]\.url\)/.test(document.querySelector('#section-mind').textContent));
  await section.getByLabel('Server 1 command or URL').fill('http://127.0.0.1:9/mcp');
  await section.getByRole('button', { name: 'Save MCP servers' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('#section-mind .mind-line')].filter((l) => l.textContent === 'Saved.').length === 2);
  const saved = JSON.parse(readFileSync(path, 'utf8')).presets[0];
  assert.deepEqual(saved.mcp_servers, [{ name: 'web', url: 'http://127.0.0.1:9/mcp' }]);
  assert.equal(saved.chat_api, 'chat_completions', 'the form save and the section save keep each other');
  await section.screenshot({ path: join(shots, 'settings-memory.png') });
});
