import { describe, expect, it } from 'vitest';
import { ListenSection } from './listen';
import type { PageMessage, SettingsListen } from '../protocol';

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

  it('shows the saved form without the key and saves the edits with a typed key only', () => {
    const { s, sent } = section();
    s.apply(state);
    expect((s.el.querySelector('#listen-key') as HTMLInputElement).placeholder).toContain('saved');
    (s.el.querySelector('#listen-on') as HTMLInputElement).checked = true;
    (s.el.querySelector('#listen-device') as HTMLSelectElement).value = 'alsa_input.usb';
    s.save();
    const m = sent.at(-1) as Extract<PageMessage, { type: 'save_listen' }>;
    expect(m.type).toBe('save_listen');
    expect(m.form.on).toBe(true);
    expect(m.form.device).toBe('alsa_input.usb');
    expect(m.form.language).toBe('en');
    expect('key' in m).toBe(false);
    (s.el.querySelector('#listen-key') as HTMLInputElement).value = 'sk-new';
    s.save();
    expect((sent.at(-1) as { key?: string }).key).toBe('sk-new');
    s.apply({ type: 'settings_result', request_id: (sent.at(-1) as { request_id: string }).request_id, ok: true });
    expect(s.el.textContent).toContain('Saved');
  });
});
