import { afterEach, describe, expect, it } from 'vitest';
import { language, setLanguage, t } from '../i18n';
import type { CoreMessage } from '../protocol';
import { LanguageFollower } from './relanguage';

afterEach(() => setLanguage('en', document.documentElement));

function page(idle = () => true) {
  const applied: string[] = [];
  let builds = 0;
  let words = '';
  const f = new LanguageFollower({
    idle,
    rebuild: () => {
      builds++;
      applied.length = 0;
      words = t('settings.save');
    },
    apply: (m) => applied.push(m.type),
  });
  return { f, applied, builds: () => builds, words: () => words };
}

const state = (ui: string) => ({ type: 'settings_state', ui_language: ui }) as unknown as CoreMessage;
const msg = (type: string) => ({ type }) as unknown as CoreMessage;

describe('the settings window follows a change of the UI language', () => {
  it('keeps the language it started in, then rebuilds in the new one and replays the latest messages', () => {
    const p = page();
    p.f.apply(state('en'));
    p.f.apply(msg('settings_audio'));
    p.f.apply(msg('connection_test'));
    expect(p.builds()).toBe(0);
    p.f.apply(state('ja'));
    expect(language()).toBe('ja');
    expect(p.builds()).toBe(1);
    expect(p.words()).toBe('保存');
    // The latest of each, in the order last received; no answers replayed.
    expect(p.applied).toEqual(['settings_audio', 'settings_state']);
  });

  it('waits while something is edited or saving, and switches with the next message', () => {
    let idle = false;
    const p = page(() => idle);
    p.f.apply(state('en'));
    p.f.apply(state('ko'));
    expect(language()).toBe('en');
    idle = true;
    p.f.apply(msg('settings_result'));
    expect(language()).toBe('ko');
    expect(p.builds()).toBe(1);
  });

  it('does not take the first state\'s language over the page\'s own (?lang= in a browser)', () => {
    setLanguage('zh-Hans', document.documentElement);
    const p = page();
    p.f.apply(state('en'));
    p.f.apply(state('en'));
    expect(language()).toBe('zh-Hans');
    expect(p.builds()).toBe(0);
  });
});
