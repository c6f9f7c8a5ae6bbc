import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { catalogues, formatTime, matchLanguage, pickLanguage, plural, setLanguage, t, type Lang } from './i18n';
import { en } from './locales/en';

const SRC = join(__dirname);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) {
      if (f !== 'locales') out.push(...sources(p));
    } else if (f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'i18n.ts') {
      out.push(readFileSync(p, 'utf8'));
    }
  }
  return out;
}

afterEach(() => setLanguage('en', document.documentElement));

describe('catalogues', () => {
  const keys = Object.keys(en).sort();
  for (const [lang, cat] of Object.entries(catalogues)) {
    it(`${lang} has every key, no extra one, none blank, the same placeholders`, () => {
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const k of keys) {
        const v = (cat as Record<string, string>)[k];
        expect(v.trim(), `${lang} ${k}`).not.toBe('');
        const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        expect(ph(v), `${lang} ${k}`).toEqual(ph((en as Record<string, string>)[k]));
      }
    });
  }

  it('every key is used by some page code', () => {
    const code = sources(SRC).join('\n');
    const unused = Object.keys(en).filter((k) => !code.includes(`'${k}'`));
    expect(unused).toEqual([]);
  });

  it('translations differ from English', () => {
    for (const lang of ['ja', 'ko', 'zh-Hans'] as Lang[]) {
      expect(catalogues[lang]['composer.send']).not.toBe(en['composer.send']);
    }
  });
});

describe('language choice', () => {
  it('matches system locales', () => {
    expect(matchLanguage('ja-JP')).toBe('ja');
    expect(matchLanguage('ko')).toBe('ko');
    expect(matchLanguage('zh-CN')).toBe('zh-Hans');
    expect(matchLanguage('zh_SG')).toBe('zh-Hans');
    expect(matchLanguage('zh-TW')).toBeNull();
    expect(matchLanguage('de-DE')).toBeNull();
    expect(matchLanguage('en-GB')).toBe('en');
    expect(matchLanguage('!!')).toBeNull();
  });

  it('prefers ?lang=, then the first matching preferred language', () => {
    expect(pickLanguage('ko', ['ja-JP'])).toBe('ko');
    expect(pickLanguage(null, ['de-DE', 'ja-JP', 'en'])).toBe('ja');
    expect(pickLanguage('xx', ['de'])).toBe('en');
  });

  it('t() follows the language and sets the root lang', () => {
    setLanguage('ja', document.documentElement);
    expect(t('composer.send')).toBe('送信');
    expect(document.documentElement.lang).toBe('ja');
    setLanguage('zh-Hans', document.documentElement);
    expect(t('plate.reset')).toBe('新对话');
  });

  it('plural() picks the form by the language\'s rules and formats the count', () => {
    setLanguage('en', document.documentElement);
    expect(plural(1, 'message.found_one', 'message.found')).toBe('1 message found');
    expect(plural(1200, 'message.found_one', 'message.found')).toBe('1,200 messages found (newest first)');
    setLanguage('ja', document.documentElement);
    expect(plural(1, 'message.found_one', 'message.found')).toBe('1 件のメッセージが見つかりました（新しい順）');
    setLanguage('ko', document.documentElement);
    expect(plural(2, 'chip.running_one', 'chip.running')).toBe('백그라운드 작업 2개 실행 중');
  });

  it('formats times in the locale', () => {
    const d = new Date(2026, 11, 4, 15, 4);
    setLanguage('en', document.documentElement);
    expect(formatTime(d)).toMatch(/3:04\s?PM/);
    // Node's ICU may lack the Korean day periods (오후); the order (period
    // first) is Korean either way.
    setLanguage('ko', document.documentElement);
    expect(formatTime(d)).toMatch(/^(오후|PM)\s?3:04$/);
    setLanguage('ja', document.documentElement);
    expect(formatTime(d)).toBe('15:04');
  });
});
