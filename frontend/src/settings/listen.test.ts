import { describe, expect, it } from 'vitest';
import { ListenSection } from './listen';
import type { PageMessage, SettingsListen } from '../protocol';
import { saveButton, setup, state as formState } from './test-fixtures';

const state: SettingsListen = {
  type: 'settings_listen',
  form: { on: false, device: '', sensitivity: 50, barge_in: false, base_url: 'http://127.0.0.1:9/v1', model: '', language: 'en', target: '', push_to_talk_key: 'F8', has_key: true },
  devices: [{ id: '', label: 'Automatic', available: true }, { id: 'alsa_input.usb', label: 'USB mic', available: true }],
  keys: [{ id: 'F8', label: 'F8', available: true }, { id: 'F9', label: 'F9', available: true }],
  note: '',
};

function section() {
  const sent: PageMessage[] = [];
  const s = new ListenSection({ send: (m) => { sent.push(m); return true; } });
  s.mount(document.body);
  return { s, sent };
}

describe('ListenSection', () => {
  it('asks for the level meter when shown and draws each level', () => {
    const { s, sent } = section();
    expect(sent).toContainEqual({ type: 'listen_meter', on: true });
    s.apply({ type: 'listen_level', level: 70, floor: 20, threshold: 40 });
    const bar = s.el.querySelector('.listen-meter-bar') as HTMLElement;
    expect(bar.style.width).toBe('70%');
    expect((s.el.querySelector('.listen-meter') as HTMLElement).dataset.speech).toBe('true');
  });

  it('is saved and reverted by the form\'s one Save and Revert (no "Save listening" of its own)', () => {
    const { view, saves } = setup();
    view.apply(formState());
    const s = new ListenSection({ send: () => true });
    s.mount(document.body);
    view.addPart(s);
    s.apply(state);
    const ctl = <T extends HTMLElement>(id: string) => s.el.querySelector(`#${id}`) as T;
    const change = (e: HTMLElement) => e.dispatchEvent(new Event('change', { bubbles: true }));
    const input = (e: HTMLInputElement, v: string) => {
      e.value = v;
      e.dispatchEvent(new Event('input', { bubbles: true }));
    };
    expect([...document.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Save listening');
    expect(ctl<HTMLInputElement>('listen-key').placeholder).toContain('saved');
    expect(saveButton().disabled).toBe(true);
    ctl<HTMLInputElement>('listen-on').checked = true;
    change(ctl('listen-on'));
    ctl<HTMLSelectElement>('listen-device').value = 'alsa_input.usb';
    change(ctl('listen-device'));
    expect(saveButton().disabled).toBe(false);
    saveButton().click();
    const req = saves()[0]!;
    expect(req.listen).toMatchObject({ on: true, device: 'alsa_input.usb', language: 'en', push_to_talk_key: 'F8' });
    expect('listen_key' in req).toBe(false);
    view.apply({ type: 'settings_result', request_id: req.request_id, ok: true });
    expect(view.statusText).toBe('Saved');
    expect(saveButton().disabled).toBe(true); // what was sent is the saved form now

    // A typed key goes only when typed, and leaves the page once saved.
    input(ctl('listen-key'), 'sk-new');
    expect(saveButton().disabled).toBe(false);
    saveButton().click();
    const withKey = saves()[1]!;
    expect(withKey.listen_key).toBe('sk-new');
    view.apply({ type: 'settings_result', request_id: withKey.request_id, ok: true });
    expect(ctl<HTMLInputElement>('listen-key').value).toBe('');

    // Revert puts the saved values back.
    s.apply({ ...state, form: { ...state.form, on: true, device: 'alsa_input.usb' } });
    input(ctl('listen-language'), 'ja');
    expect(saveButton().disabled).toBe(false);
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Revert')!.click();
    expect(ctl<HTMLInputElement>('listen-language').value).toBe('en');
    expect(saveButton().disabled).toBe(true);

    // A refused field is marked where it is.
    input(ctl('listen-language'), 'English');
    saveButton().click();
    const bad = saves().at(-1)!;
    view.apply({ type: 'settings_result', request_id: bad.request_id, ok: false, field: 'listen.language', error: '"English" is not an ISO-639-1 code such as en' });
    expect(ctl('listen-language').getAttribute('aria-invalid')).toBe('true');
    expect(s.el.querySelector('.listen-error')!.textContent).toContain('ISO-639-1');
    expect(view.statusText).toContain('Not saved');
    input(ctl('listen-language'), 'de');
    expect(ctl('listen-language').hasAttribute('aria-invalid')).toBe(false);
  });

  it('keeps its drafts when a new saved form arrives (the pet menu chose another target)', () => {
    const { view } = setup();
    view.apply(formState());
    const s = new ListenSection({ send: () => true });
    s.mount(document.body);
    view.addPart(s);
    s.apply(state);
    const lang = s.el.querySelector('#listen-language') as HTMLInputElement;
    lang.value = 'ja';
    lang.dispatchEvent(new Event('input', { bubbles: true }));
    s.apply({ ...state, form: { ...state.form, target: 'p-0000000b' } });
    expect(lang.value).toBe('ja');
    expect(saveButton().disabled).toBe(false);
  });
});
