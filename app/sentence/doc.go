// Package sentence prepares reply speech for the bubble and for TTS:
// sentence splitting, silence detection, decorative emoji stripping and
// markdown link reduction (client-notes §4).
//
// Contracts:
//
//   - Split cuts text into sentences. A run of ASCII terminators . ! ?, the
//     ellipses … ⋯ ‥ and the double marks ‼ ⁇ ⁈ ⁉ ends a sentence when
//     whitespace, the end of the text, or a Han, kana or Hangul letter (or
//     a CJK opening bracket) follows it, so text without spaces splits
//     (はい!次 → はい! then 次; 3.14 and example.com stay whole); the
//     full-width terminators 。！？．｡ end one at once (a run of them, with
//     any ASCII terminators directly after, stays together). Closing quotes
//     and brackets (ASCII and CJK: 」』）】〕》…) right after a terminator run
//     belong to the sentence ("Hi." she said → `"Hi."` then `she said`;
//     「はい。」次 → 「はい。」 then 次). A line break
//     (\n, \r, U+2028, U+2029) always ends a sentence. A complete markdown
//     link [label](url) is never cut inside. Each sentence is trimmed of
//     surrounding whitespace and empty ones are dropped, so the sentences
//     concatenate back to the input modulo whitespace. Invalid UTF-8 bytes
//     are kept as they are.
//   - IsSilent reports a silent speech: empty, or trimming to exactly
//     [SILENT]. [SILENT] inside longer text is ordinary text.
//   - StripEmoji removes decorative emoji (pictographs, dingbat symbols,
//     regional-indicator flags, skin-tone modifiers, keycap marks, variation
//     selectors, tag characters and the zero-width joiners that glue emoji
//     sequences). Letters, digits, punctuation, arrows, ©, ® and ™ stay.
//     Where something was removed, runs of spaces and tabs collapse to one
//     space and lines are trimmed.
//   - ReduceLinks turns [label](url) into label and ![alt](url) into alt,
//     for TTS. Bare URLs and <autolinks> are left alone.
//   - The bubble keeps the markdown: BubbleText only strips emoji, and Links
//     lists the links of a text as structured data for a view that renders
//     them. SpeechText is what a Voice gets: emoji stripped, links reduced,
//     whitespace runs collapsed.
//
// All functions are pure and safe for concurrent use.
package sentence
