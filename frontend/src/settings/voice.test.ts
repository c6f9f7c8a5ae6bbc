import { describe, expect, it } from 'vitest';
import { parseTags, tagsText } from './model';
import { byLabel, choose, q, saveButton, setup, state, type } from './test-fixtures';

const row = (field: string) => q(`.field[data-field="${field}"]`);

describe('Voice section', () => {
  it('shows the chosen engine’s fields only', () => {
    const { view } = setup();
    view.apply(state());
    expect(q('#section-voice h2').textContent).toBe('Voice');
    expect(byLabel<HTMLSelectElement>('Voice').value).toBe('system');
    expect(row('voice.program').hidden).toBe(false);
    expect(row('voice.base_url').hidden).toBe(true);
    // flite is not installed: listed, not choosable.
    const flite = [...byLabel<HTMLSelectElement>('Program').options].find((o) => o.value === 'flite')!;
    expect(flite.disabled).toBe(true);
    expect(flite.textContent).toContain('not installed');
    // The installed voices are suggestions for the voice name.
    const voices = document.getElementById(byLabel<HTMLInputElement>('System voice').getAttribute('list')!) as HTMLDataListElement;
    expect(voices.options[0]!.value).toBe('en-us');
    choose(byLabel<HTMLSelectElement>('Voice'), 'endpoint');
    expect(row('voice.program').hidden).toBe(true);
    expect(row('voice.base_url').hidden).toBe(false);
    expect(row('voice.key').hidden).toBe(false);
    choose(byLabel<HTMLSelectElement>('Voice'), 'off');
    expect(row('voice.volume').hidden).toBe(true);
    expect(row('voice.muted').hidden).toBe(true);
  });

  it('sends the endpoint, its own key only when typed, the tag table, volume and mutes', () => {
    const { view, saves } = setup();
    view.apply(state());
    choose(byLabel<HTMLSelectElement>('Voice'), 'endpoint');
    type(byLabel('Speech endpoint'), 'https://tts.example/v1');
    type(byLabel('Speech key'), 'sk-speech');
    type(byLabel('Endpoint voice'), 'nova');
    choose(byLabel<HTMLSelectElement>('Audio format'), 'pcm');
    type(byLabel<HTMLTextAreaElement>('Voice tags'), '👂 = in a whisper\n\n😆: joyfully\n');
    const vol = byLabel('Volume');
    vol.value = '60';
    vol.dispatchEvent(new Event('input', { bubbles: true }));
    choose(byLabel('Mute this character'), true);
    choose(byLabel('Mute all voices'), true);
    saveButton().click();
    const req = saves()[0]!;
    expect(req.presets[0]!.voice).toEqual({
      engine: 'endpoint', program: 'espeak-ng', system_voice: '', rate: 0, base_url: 'https://tts.example/v1', model: '',
      endpoint_voice: 'nova', format: 'pcm', emotion_text_map: { '👂': 'in a whisper', '😆': 'joyfully' }, volume: 60, muted: true,
    });
    expect(req.presets[0]!.voice_key).toBe('sk-speech');
    expect('voice_key' in req.presets[1]!).toBe(false);
    expect(req.audio).toEqual({ muted: true, device: '' });
    expect(q('.range-value').textContent).toBe('60 %');
  });

  it('lists the devices and says when there is no sound server', () => {
    const { view, saves } = setup();
    view.apply(state({ audio: { muted: false, device: 'usb' } }));
    view.apply({ type: 'settings_audio', server: 'PulseAudio 16.1', note: '', devices: [
      { id: '', label: 'Default output device', available: true },
      { id: 'speaker', label: 'Speaker (default)', available: true },
      { id: 'usb', label: 'usb', available: false, note: 'not connected now: the default device plays' },
    ] });
    const dev = byLabel<HTMLSelectElement>('Output device');
    expect(dev.value).toBe('usb');
    expect(q('.sound-note').textContent).toBe('Playing through PulseAudio 16.1.');
    choose(dev, 'speaker');
    saveButton().click();
    expect(saves()[0]!.audio).toEqual({ muted: false, device: 'speaker' });
    view.apply({ type: 'settings_audio', server: '', note: 'No sound server was found.', devices: [{ id: '', label: 'Default output device', available: true }] });
    expect(q('.sound-note').textContent).toBe('No sound server was found.');
    expect(q('.sound-note').dataset.kind).toBe('warning');
  });

  it('marks a refused voice field and the shared device field', () => {
    const { view, saves } = setup();
    view.apply(state());
    choose(byLabel<HTMLSelectElement>('Voice'), 'endpoint');
    saveButton().click();
    view.apply({ type: 'settings_result', request_id: saves()[0]!.request_id, ok: false, field: 'presets[0].voice.base_url',
      error: 'the speech endpoint needs a URL' });
    const url = byLabel('Speech endpoint');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(url);
    expect(row('voice.base_url').querySelector('.field-error')!.textContent).toBe('the speech endpoint needs a URL');
    type(url, 'https://tts.example/v1');
    expect(url.hasAttribute('aria-invalid')).toBe(false);
    saveButton().click();
    view.apply({ type: 'settings_result', request_id: saves()[1]!.request_id, ok: false, field: 'audio.device', error: 'too long' });
    expect(byLabel('Output device').getAttribute('aria-invalid')).toBe('true');
  });

  it('removes a saved speech key', () => {
    const { view, saves } = setup();
    view.apply(state({ presets: [{ ...state().presets![0]!, has_voice_key: true,
      voice: { ...state().presets![0]!.voice, engine: 'endpoint', base_url: 'https://tts.example/v1' } }] }));
    expect(byLabel('Speech key').placeholder).toBe('saved — type to replace');
    const remove = [...row('voice.key').querySelectorAll('button')].find((b) => b.textContent === 'Remove key')!;
    remove.click();
    expect(byLabel('Speech key').placeholder).toContain('removed');
    saveButton().click();
    expect(saves()[0]!.presets[0]!.voice_key).toBe('');
    expect('key' in saves()[0]!.presets[0]!).toBe(false);
  });
});

describe('the tag table text', () => {
  it('reads lines of tag = meaning (or tag: meaning), sorted, and writes them back', () => {
    expect(parseTags(' b = two \n\na: one\nlonely')).toEqual({ a: 'one', b: 'two', lonely: '' });
    expect(tagsText({ '😆': 'joyfully', '👂': 'in a whisper' })).toBe('👂 = in a whisper\n😆 = joyfully');
    expect(parseTags(tagsText({ x: 'y = z' }))).toEqual({ x: 'y = z' });
    expect(tagsText(null)).toBe('');
  });
});
