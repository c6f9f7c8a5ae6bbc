import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n';
import { wordChoices, wordDevices } from './choicewords';

afterEach(() => setLanguage('en', document.documentElement));

describe('the core\'s choices in the page\'s words', () => {
  const core = {
    chat_apis: [{ id: 'standard_agents', label: 'Standard Agents threads', available: false, note: 'not in this version yet' }],
    reasoning_efforts: [{ id: '', label: 'Model default', available: true }, { id: 'xhigh', label: 'Extra high', available: true }],
    screen_modes: [{ id: 'ask', label: 'Ask each time', available: true, note: 'You are asked each time the backend wants to see your screen' }],
    looks: [{ id: 'mine', label: 'Mine (look folder)', available: true }],
    voice_engines: [{ id: 'off', label: 'Off', available: true, note: 'text only' }],
    voice_programs: [{ id: 'flite', label: 'flite', available: false, note: 'not installed' }],
    voice_formats: [{ id: 'wav', label: 'WAV', available: true }],
  };

  it('words the ids it knows and keeps the names and unknown ids as the core has them', () => {
    setLanguage('ja', document.documentElement);
    const w = wordChoices(core);
    expect(w.chat_apis![0]).toMatchObject({ label: 'Standard Agents threads', note: 'このバージョンにはまだありません' });
    expect(w.reasoning_efforts!.map((c) => c.label)).toEqual(['モデルの既定', 'Extra high']);
    expect(w.screen_modes![0]).toMatchObject({ label: '毎回たずねる', note: 'バックエンドが画面を見たがるたびにたずねます' });
    expect(w.looks).toEqual(core.looks);
    expect(w.voice_engines![0]).toMatchObject({ label: 'オフ', note: '文字だけ' });
    expect(w.voice_programs![0]).toMatchObject({ label: 'flite', note: '未インストール' });
    expect(w.voice_formats![0]!.label).toBe('WAV');
  });

  it('in English is what the core sends', () => {
    expect(wordChoices(core)).toEqual(core);
  });

  it('words the default device and a device that is gone', () => {
    setLanguage('ko', document.documentElement);
    const out = wordDevices([{ id: '', label: 'Default output device', available: true },
      { id: 'usb', label: 'USB', available: false, note: 'not connected now: the default device plays' }], 'output');
    expect(out.map((c) => [c.label, c.note])).toEqual([['기본 출력 장치', undefined], ['USB', '지금 연결되지 않았어요: 기본 장치로 재생해요']]);
  });
});
