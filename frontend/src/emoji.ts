// Decorative emoji are stripped from bubble text (client-notes §4). Text
// symbols that happen to be Extended_Pictographic but read as text
// (© ® ™) are kept.

const EMOJI = /(?![\u00A9\u00AE\u2122])\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}\uFE0F\u200D\u20E3]/gu;

export function stripEmoji(text: string): string {
  if (!EMOJI.test(text)) return text;
  EMOJI.lastIndex = 0;
  return text
    .replace(EMOJI, '')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +([.,!?;:…])/g, '$1')
    .trim();
}
