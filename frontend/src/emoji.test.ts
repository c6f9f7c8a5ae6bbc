import { describe, expect, it } from 'vitest';
import { stripEmoji } from './emoji';

describe('stripEmoji', () => {
  it('strips pictographs, ZWJ sequences, VS16, skin tones, flags and keycaps', () => {
    expect(stripEmoji('Hello! 😊')).toBe('Hello!');
    expect(stripEmoji('Sunny ☀️ today')).toBe('Sunny today');
    expect(stripEmoji('Family 👨‍👩‍👧 time')).toBe('Family time');
    expect(stripEmoji('Thumbs 👍🏽 up')).toBe('Thumbs up');
    expect(stripEmoji('Off to 🇯🇵 soon')).toBe('Off to soon');
    expect(stripEmoji('Step 1️⃣ first')).toBe('Step 1 first');
    expect(stripEmoji('Great job 🎉!')).toBe('Great job!');
    expect(stripEmoji('❤️')).toBe('');
  });

  it('keeps ordinary text, punctuation and text symbols', () => {
    for (const s of ['Plain text.', '24 °C — nice…', 'こんにちは。', '© 2026 Yui™ ®', 'a < b & c > d', '1 + 1 = 2']) {
      expect(stripEmoji(s)).toBe(s);
    }
  });
});
