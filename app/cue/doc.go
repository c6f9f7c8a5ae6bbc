// Package cue holds the expression cue a reply carries (the generate_express
// argument object) and the vocabulary of ids the current character renders.
//
// Contracts (client-notes §4, push spec "render"):
//
//   - A Cue has four optional fields: emotion_id (face), motion_id (body),
//     emotion_text (a voice-tone tag for TTS, never shown or spoken) and
//     caption (a free-text voice direction for TTS, never shown or spoken).
//     The JSON form omits empty fields.
//   - Merge combines the cues of one segment field by field: a later
//     non-empty field wins, an empty field never erases an earlier one.
//     Cues of different segments are never merged here.
//   - A Vocabulary lists what the character renders right now. Its JSON form
//     is exactly the hello/vocabulary frame object (emotion_ids, motion_ids,
//     emotion_text_mode, emotion_text_map); lists and the map are never
//     encoded as null. Client-only motions (idle, thinking, drag, ...) are
//     held in ClientMotionIDs, are never sent, and cannot be chosen by a cue.
//   - Resolve maps a cue onto the vocabulary: an emotion_id it does not list
//     becomes "neutral", a motion_id it does not list among the
//     agent-selectable motions becomes "idle"; empty fields stay empty. In
//     enum mode an emotion_text that is not a key of emotion_text_map is
//     dropped; in free mode it is kept. Ids compare exactly after trimming
//     surrounding whitespace.
//
// Values are plain data; nothing here is shared or synchronised.
package cue
