// CJK text in the speech bubble, in Debian's Chromium (docs/languages.md):
// the bubble's own CSS (theme.css + bubble.css) on Japanese, Korean and
// Chinese replies. Each wraps inside the bubble (no horizontal overflow),
// keeps the kinsoku rules (no line starts with closing punctuation or a
// small kana, none ends with an opening bracket), Korean breaks between
// words only, and the text is drawn in a CJK font, not as boxes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, newPage } from './core.mjs';

const css = ['src/theme.css', 'src/bubble.css'].map((f) => readFileSync(f, 'utf8')).join('\n');

const texts = {
  ja: 'こんにちは！今日はいい天気ですね。「散歩に行きませんか？」って聞いたら、ちょっと考えてから「うん、行こう」って言ってくれたよ。ありがとう、ちゃんと覚えておくね。',
  ko: '안녕하세요! 오늘은 날씨가 정말 좋네요. 산책하러 갈까요? 제가 좋아하는 공원이 근처에 있어요. 같이 가면 분명히 즐거울 거예요.',
  zh: '你好！今天天气很好。我们去散步吧？我知道附近有一个很漂亮的公园，那里有很多花，还有一个小湖。我们可以在那里坐一会儿，聊聊天。',
};
const lang = { ja: 'ja', ko: 'ko', zh: 'zh-Hans' };

// Characters that must not start a line (closing punctuation, small kana,
// the prolonged sound mark) and that must not end one (opening brackets).
const noStart = '。、，．！？」』）】〕》〉・ーぁぃぅぇぉっゃゅょァィゥェォッャュョ…';
const noEnd = '「『（【〔《〈';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Lays out text in a bubble and returns its lines (characters grouped by
 * the top of their boxes) and its overflow. */
async function layout(page, text, language) {
  await page.setContent(`<!doctype html><html lang="${language}"><head><style>${css}</style></head>
    <body><div class="bubble"><p class="bubble-text" lang="${language}"></p></div></body></html>`);
  return page.evaluate((t) => {
    const p = document.querySelector('.bubble-text');
    p.textContent = t;
    const node = p.firstChild;
    const range = document.createRange();
    const lines = [];
    let top = null;
    for (let i = 0; i < t.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getClientRects()[0];
      if (!r) continue; // a collapsed space at a break
      if (top === null || Math.abs(r.top - top) > 2) {
        lines.push('');
        top = r.top;
      }
      lines[lines.length - 1] += t[i];
    }
    return { lines, scrollWidth: p.scrollWidth, clientWidth: p.clientWidth };
  }, text);
}

for (const key of Object.keys(texts)) {
  test(`the bubble wraps ${lang[key]} text`, async () => {
    const page = await newPage(browser, { viewport: { width: 320, height: 480 } });
    const { lines, scrollWidth, clientWidth } = await layout(page, texts[key], lang[key]);
    assert.ok(lines.length >= 3, `${key}: wrapped into ${lines.length} lines: ${JSON.stringify(lines)}`);
    assert.ok(scrollWidth <= clientWidth, `${key}: overflows ${scrollWidth} > ${clientWidth}`);
    assert.equal(lines.join(''), texts[key], 'every character laid out once');
    for (const [i, line] of lines.entries()) {
      const trimmed = line.trim();
      if (i > 0) assert.ok(!noStart.includes(trimmed[0]), `${key}: line ${i} starts with ${trimmed[0]}: ${JSON.stringify(lines)}`);
      if (i < lines.length - 1) assert.ok(!noEnd.includes(trimmed.at(-1)), `${key}: line ${i} ends with ${trimmed.at(-1)}`);
    }
    if (key === 'ko') {
      // keep-all: every break is at a space, so each line holds whole words.
      const words = texts.ko.split(' ');
      for (const line of lines) {
        for (const w of line.trim().split(' ')) assert.ok(words.includes(w), `ko: "${w}" is a broken word: ${JSON.stringify(lines)}`);
      }
    }
    await page.close();
  });
}

test('CJK text is drawn in a CJK font, not as boxes', async () => {
  const page = await newPage(browser);
  await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body></body></html>`);
  // A font with the glyphs draws 你 and 好 differently; the fallback box
  // (tofu) draws every missing glyph the same.
  const same = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 40;
    c.height = 40;
    const g = c.getContext('2d');
    const draw = (ch) => {
      g.clearRect(0, 0, 40, 40);
      g.font = `32px ${getComputedStyle(document.documentElement).fontFamily}`;
      g.fillText(ch, 2, 32);
      return Array.from(g.getImageData(0, 0, 40, 40).data).join(',');
    };
    return { zh: draw('你') === draw('好'), ko: draw('한') === draw('글'), ja: draw('あ') === draw('い') };
  });
  assert.deepEqual(same, { zh: false, ko: false, ja: false }, 'a CJK font is installed (fonts-noto-cjk)');
  await page.close();
});
