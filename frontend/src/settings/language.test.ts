import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n';
import type { SaveSettings } from '../protocol';
import { LanguageSection } from './language';
import { preset, state } from './test-fixtures';

function req(): SaveSettings {
  return {
    type: 'save_settings', request_id: 'r', active_preset: 'p-0000000a',
    presets: [{ id: 'p-0000000a', name: 'Yui' }, { id: 'p-0000000b', name: 'Mika' }] as SaveSettings['presets'],
  };
}

function change(s: HTMLSelectElement, v: string): void {
  s.value = v;
  s.dispatchEvent(new Event('change', { bubbles: true }));
}

afterEach(() => {
  setLanguage('en', document.documentElement);
  document.body.replaceChildren();
});

describe('LanguageSection', () => {
  it('shows the saved languages, is a draft of the form\'s Save, and shows a refused field', () => {
    const s = new LanguageSection();
    document.body.append(s.el);
    let edits = 0;
    s.onEdit = () => edits++;
    s.apply(state({ language: 'ja', presets: [preset(), preset({ id: 'p-0000000b', name: 'Mika', speech_language: 'ko' })] }));
    const ui = s.el.querySelector<HTMLSelectElement>('#language-ui')!;
    const yui = s.el.querySelector<HTMLSelectElement>('#language-speech-p-0000000a')!;
    const mika = s.el.querySelector<HTMLSelectElement>('#language-speech-p-0000000b')!;
    expect(ui.value).toBe('ja');
    expect(yui.value).toBe('');
    expect(mika.value).toBe('ko');
    expect([...ui.options].map((o) => o.textContent)).toEqual(['System default', 'English', '日本語', '한국어', '简体中文']);
    expect(yui.options[0]!.textContent).toBe('Same as the UI');
    expect(s.el.textContent).toContain('Mika: her spoken lines');
    expect(s.dirty).toBe(false);
    const r0 = req();
    s.addTo(r0);
    expect(r0.language).toBeUndefined();
    expect(r0.presets.some((p) => p.speech_language !== undefined)).toBe(false);

    change(yui, 'zh-Hans');
    expect(s.dirty).toBe(true);
    expect(edits).toBeGreaterThan(0);
    const r1 = req();
    s.addTo(r1);
    expect(r1.language).toBeUndefined();
    expect(r1.presets[0]!.speech_language).toBe('zh-Hans');
    expect(r1.presets[1]!.speech_language).toBeUndefined();

    change(ui, '');
    const r2 = req();
    s.addTo(r2);
    expect(r2.language).toBe('');
    s.answered({ type: 'settings_result', request_id: 'r', ok: false, field: 'presets[0].speech_language',
      error: 'unknown language "zh"' }, r2);
    expect(yui.getAttribute('aria-invalid')).toBe('true');
    expect(yui.closest('.field')?.textContent).toContain('unknown language');
    change(yui, 'ja');
    expect(yui.hasAttribute('aria-invalid')).toBe(false);

    // A state from elsewhere keeps the drafts.
    s.apply(state({ language: 'ja', presets: [preset(), preset({ id: 'p-0000000b', name: 'Mika', speech_language: 'ko' })] }));
    expect(s.el.querySelector<HTMLSelectElement>('#language-speech-p-0000000a')!.value).toBe('ja');
    expect(s.el.querySelector<HTMLSelectElement>('#language-ui')!.value).toBe('');

    s.revert();
    expect(s.el.querySelector<HTMLSelectElement>('#language-ui')!.value).toBe('ja');
    expect(s.el.querySelector<HTMLSelectElement>('#language-speech-p-0000000a')!.value).toBe('');
    expect(s.dirty).toBe(false);
  });

  it('takes a saved save as the new baseline', () => {
    const s = new LanguageSection();
    s.apply(state());
    change(s.el.querySelector<HTMLSelectElement>('#language-ui')!, 'ko');
    const r = req();
    s.addTo(r);
    expect(r.language).toBe('ko');
    s.answered({ type: 'settings_result', request_id: 'r', ok: true }, r);
    expect(s.dirty).toBe(false);
  });

  it('speaks the UI language', () => {
    setLanguage('ja', document.documentElement);
    const s = new LanguageSection();
    s.apply(state());
    expect(s.el.querySelector('h2')!.textContent).toBe('言語');
    expect(s.el.querySelector<HTMLSelectElement>('#language-ui')!.options[0]!.textContent).toBe('システムの設定');
    expect(s.el.textContent).toContain('Yui が話すセリフ');
  });
});
