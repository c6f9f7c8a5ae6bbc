// The pet page and the settings window in each UI language, in Debian's
// Chromium against a real core (docs/languages.md): the page takes
// ?lang=, sets <html lang>, its composer, pet menu and the settings
// window's sections (every one, the voice rows of each engine too) speak
// the language, and nothing in them overflows its box. Screenshots go to
// $YUI_BROWSER_SHOT_DIR (or /tmp) as yui-lang-<tag>.png,
// yui-lang-<tag>-settings.png and yui-lang-<tag>-settings-<section>.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, newPage, startCore } from './core.mjs';

let core;
let browser;

before(async () => {
  core = await startCore({ demo: true });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (core) assert.equal(await core.stop(), 0, 'core exits 0 on SIGTERM');
});

// The send button's label in each catalogue (src/locales).
const send = { en: 'Send', ja: '送信', ko: '보내기', 'zh-Hans': '发送' };
const menuSettings = { en: 'Settings…', ja: '設定…', ko: '설정…', 'zh-Hans': '设置…' };
const placeholder = { en: 'Say something…', ja: '話しかけてね…', ko: '말을 걸어 보세요…', 'zh-Hans': '说点什么吧…' };

/** Elements under selector whose box leaves the container's box, or whose
 * content is wider than their box (clipped text). */
async function overflows(page, selector) {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    if (!root || root.hidden) return [`${sel} not shown`];
    const box = root.getBoundingClientRect();
    const bad = [];
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // A label only assistive technology reads (1×1 px, clipped) is not shown text.
      if (r.width <= 1 && r.height <= 1) continue;
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) bad.push(`${el.className} leaves ${sel}`);
      if (el.tagName !== 'TEXTAREA' && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
        bad.push(`${el.className} clips its text (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    return bad;
  }, selector);
}

for (const lang of Object.keys(send)) {
  test(`the pet page in ${lang}`, async () => {
    const preset = core.settings.presets[0].id;
    const token = core.tokenFor(preset);
    const page = await newPage(browser, { viewport: { width: 300, height: 420 } });
    await page.goto(`${core.ready.pages_url}?role=pet&preset=${preset}&token=${encodeURIComponent(token)}&lang=${lang}`);
    await page.waitForSelector('.character svg');
    await page.waitForFunction(() => document.documentElement.dataset.core === 'open');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    await page.locator('.character svg.yui-figure').click();
    await page.waitForSelector('.composer:not([hidden])');
    assert.equal((await page.locator('.composer-send').textContent()).trim(), send[lang]);
    assert.equal(await page.locator('.composer-input').getAttribute('placeholder'), placeholder[lang]);
    assert.deepEqual(await overflows(page, '.composer'), [], `${lang}: composer`);
    await page.screenshot({ path: join(process.env.YUI_BROWSER_SHOT_DIR ?? '/tmp', `yui-lang-${lang}.png`) });
    // The pet menu: translated, and its longest items fit.
    await page.keyboard.press('Escape');
    await page.locator('.character svg.yui-figure').click({ button: 'right' });
    await page.getByRole('menuitem', { name: menuSettings[lang] }).waitFor();
    assert.deepEqual(await overflows(page, '.pet-menu'), [], `${lang}: pet menu`);
    await page.screenshot({ path: join(process.env.YUI_BROWSER_SHOT_DIR ?? '/tmp', `yui-lang-${lang}-menu.png`) });
    await page.close();
  });
}

// The settings window's translated parts: the Languages section's title,
// and the footer's Save.
const languagesTitle = { en: 'Languages', ja: '言語', ko: '언어', 'zh-Hans': '语言' };
const save = { en: 'Save', ja: '保存', ko: '저장', 'zh-Hans': '保存' };
const talkTitle = { en: 'Among friends (all characters)', ja: '仲間どうし（全キャラクター）', ko: '친구끼리 (모든 캐릭터)', 'zh-Hans': '角色之间（所有角色）' };
const mindTitle = { en: 'What she remembers', ja: '覚えていること', ko: '기억하고 있는 것', 'zh-Hans': '她记得的事' };
const sessionTitle = { en: 'Session', ja: 'セッション', ko: '세션', 'zh-Hans': '会话' };

for (const lang of Object.keys(send)) {
  test(`the settings window in ${lang}`, async () => {
    const token = core.tokenFor('');
    const page = await newPage(browser, { viewport: { width: 760, height: 560 } });
    await page.goto(`${core.ready.pages_url}?role=settings&token=${encodeURIComponent(token)}&lang=${lang}`);
    await page.waitForSelector('.preset-form');
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal((await page.locator('#language-title').textContent()).trim(), languagesTitle[lang]);
    assert.equal((await page.locator('.footer .btn-primary').textContent()).trim(), save[lang]);
    // Every section with its translated hints (the Mind and Session ones
    // come with the first settings_mind / settings_history).
    await page.waitForSelector('#section-mind .section-title');
    assert.equal((await page.locator('#section-talk .section-title').textContent()).trim(), talkTitle[lang]);
    assert.equal((await page.locator('#section-mind .section-title').textContent()).trim(), mindTitle[lang]);
    assert.equal((await page.locator('#section-session .section-title').textContent()).trim(), sessionTitle[lang]);
    const sections = ['#section-language', '#section-listen', '#section-proactive', '#section-talk', '#section-character',
      '#section-backend', '#section-voice', '#section-permissions', '#section-mind', '#section-session', '.footer', '.sidebar'];
    const dir = process.env.YUI_BROWSER_SHOT_DIR ?? '/tmp';
    for (const sel of sections) {
      assert.deepEqual(await overflows(page, sel), [], `${lang}: ${sel}`);
    }
    await page.locator('#section-language').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(dir, `yui-lang-${lang}-settings.png`) });
    // The voice rows of each engine (a draft: nothing is saved).
    const engine = page.locator('#section-voice select').first();
    for (const value of ['system', 'endpoint']) {
      if (!(await engine.locator(`option[value="${value}"]`).count())) continue;
      await engine.selectOption(value);
      assert.deepEqual(await overflows(page, '#section-voice'), [], `${lang}: #section-voice (${value})`);
    }
    for (const sel of ['#section-backend', '#section-voice', '#section-permissions', '#section-talk', '#section-mind']) {
      await page.locator(sel).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(dir, `yui-lang-${lang}-settings-${sel.slice(9)}.png`) });
    }
    await page.close();
  });
}

// A language saved in the settings window applies to that window at once
// (settings/relanguage.ts): it builds itself again in Japanese, with the
// core's phrases (the connection status) in Japanese too.
test('the settings window follows a saved language at once', async () => {
  const own = await startCore({ demo: true });
  try {
    const page = await newPage(browser, { viewport: { width: 760, height: 560 } });
    await page.goto(`${own.ready.pages_url}?role=settings&token=${encodeURIComponent(own.tokenFor(''))}&lang=en`);
    await page.waitForSelector('.preset-form');
    assert.equal((await page.locator('.footer .btn-primary').textContent()).trim(), 'Save');
    await page.locator('#language-ui').selectOption('ja');
    await page.locator('.footer .btn-primary').click();
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    await page.waitForFunction(() => document.querySelector('#language-title')?.textContent?.trim() === '言語');
    assert.equal((await page.locator('.footer .btn-primary').textContent()).trim(), save.ja);
    assert.equal(await page.locator('#language-ui').inputValue(), 'ja', 'the rebuilt form shows the saved language');
    await page.waitForFunction(() => document.querySelector('.preset-sub')?.textContent?.includes('接続済み'));
    for (const sel of ['#section-language', '.footer', '.sidebar']) {
      assert.deepEqual(await overflows(page, sel), [], `after the switch: ${sel}`);
    }
    await page.screenshot({ path: join(process.env.YUI_BROWSER_SHOT_DIR ?? '/tmp', 'yui-lang-switched-settings.png') });
    await page.close();
  } finally {
    assert.equal(await own.stop(), 0, 'core exits 0 on SIGTERM');
  }
});
