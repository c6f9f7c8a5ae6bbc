// Package voice is a character's voice: a playback.Voice that synthesises
// each sentence with the engine the character's settings name (package
// tts) and plays it on the computer's sound output (package audio), with
// per-character mute and volume, a global mute shared by every character,
// and mouth levels for lip-sync.
//
// # Sentences
//
// Synthesize runs the engine for one sentence (the player calls it for up
// to two sentences ahead of the one playing, so the next is ready when
// the current one ends; the order of playback is the player's and never
// changes). The cue's emotion_text becomes the engine's Tone — in enum
// mode (the engine has a tag table) the tag's meaning, an unknown tag
// dropped; in free mode the tag as written — and its caption the Caption;
// neither is ever spoken or shown. A sentence with nothing pronounceable
// ("…") is not sent to the engine.
//
// A synthesis that fails does not stall the queue: its clip shows the
// sentence for its reading time (15 characters a second) in silence,
// reports the error's short text through OnError when its turn comes (the
// status pill), and returns the error from Play (the player logs it and
// marks the sentence's speech_end); the failure is also logged at once
// with its full reason (voice_synthesize_failed).
//
// # Silent timing
//
// With the engine Off, with no sound server (Output nil, or its Server
// call failing — logged once as voice_no_output until it comes back), or
// when a sentence has nothing to say, a clip plays for the sentence's
// reading time in silence. While the character or everyone is muted,
// sentences are not synthesised (an endpoint costs money); a clip made
// while muted synthesises when it plays if the mute was lifted by then.
//
// # Playing
//
// A clip opens its own stream on the settings' device, writes 100 ms
// chunks scaled by the volume (volume v in 0..1 is a gain of v², which
// sounds even across the slider), and reports the mouth levels of each
// chunk (20 ms windows, audio.Levels) stamped with when they will be
// heard (OnMouth). Stop and barge-in cancel Play's context: the stream is
// closed at once (the sound stops within one device buffer), a Mouth with
// no levels says the mouth closes now, and Play returns the context's
// error. Muting while a clip plays does the same to the sound but lets the
// clip run to its natural end in silence, so the bubble keeps its pace.
// Volume changes apply from the next chunk.
//
// A clip returns its stream's start latency (at most MaxLead) before its
// sound ends, so the next sentence's stream, opened then, is heard as this
// one ends: no pause but the clips' own. That last moment (the tail) plays
// on; Hush (the player's, on stop, barge-in and close), a mute and Close
// silence it at once, with a mouth-closing Mouth.
//
// # Concurrency
//
// Speaker and Mute are safe for concurrent use. OnMouth and OnError are
// called from the goroutine playing the clip and must not block.
package voice
