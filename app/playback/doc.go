// Package playback is the ordered player between reply segments and what
// the character says and shows: it splits segment speech into sentences,
// synthesises ahead through a Voice, plays strictly in arrival order, fires
// cues at the right moment and reports every step as an Event.
//
// # Model
//
// The queue holds utterances in arrival order. An utterance belongs to one
// turn and holds sentences; the cue of a segment rides on the segment's
// first new sentence and fires (a cue event) right before that sentence.
// Speech opens (or extends) the turn's utterance; Render extends and closes
// it; EndUtterance closes it (turn_end, frame wait, socket leaving ready).
// A Speech or Render of another turn closes the open utterance first. An
// utterance that is closed and fully played is a playback boundary: the
// utterance_end event goes out, then every cue waiting on a boundary fires.
//
// # Cues of silent segments
//
// A segment whose speech is silent (sentence.IsSilent), or whose sentences
// were all dropped as repeats, carries its cue as a silent cue: it fires at
// once when no speech is owed (nothing playing, nothing queued), and
// otherwise waits for the next boundary. Every waiting cue fires at the
// first boundary reached, in arrival order. Cues are passed through as given
// (merged per segment with cue.MergeAll); resolving them against the
// vocabulary is the caller's job.
//
// # Repeats (push spec, speech frames)
//
// Speech frames may repeat a sentence and a render may repeat what speech
// frames already sent, possibly with two lines joined without a space. The
// utterance keeps the whitespace-free text of what it queued. A speech frame
// whose whitespace-free speech equals the previous speech frame's is dropped
// as a repeat. A render closing an utterance opened by speech frames skips
// its leading sentences while their whitespace-free text continues to match
// the queued text from the start; from its first new sentence on, nothing is
// skipped. When another turn's frame closed the utterance before its render
// came (a backend report between a reply's speech frames and its render),
// the turn's next utterance starts with what the closed one had queued, so
// the render still skips it (up to 8 such turns are remembered; Interrupt
// and EndUtterance forget them).
//
// # Voices
//
// Voice.Synthesize may run ahead: the player keeps up to Options.Ahead
// sentences past the one playing synthesising, each under a context that is
// cancelled when the sentence is dropped. Clips play one at a time, in queue
// order. A sentence whose synthesis fails is shown through the Shown voice
// and its speech_end carries the error. While muted (SetMuted), sentences
// are shown, not voiced: events flow as usual with Muted set, paced by the
// Shown voice (by default a Silent voice at 0 = instant), and the voice is
// never called. Muting stops the voice of the sentence playing at once.
// A clip may return a little before its sound ends so the next one is heard
// as it ends; such a Voice is a Husher, and Interrupt, Close and a mute
// hush that last moment too.
//
// # Bounds
//
// The queue is bounded (bound.go): at most MaxQueued reply sentences not
// yet started, MaxQueuedBytes of their text and a fixed number of
// utterances; a frame keeps at most MaxQueuedBytes of its newest speech.
// Past a bound the oldest sentences not yet started go first — those of
// turns Options.Expendable names before any other — with a
// playback.dropped log line; an utterance that lost sentences sends no
// utterance_end. Cues waiting on a boundary keep the newest 64.
//
// # Interrupt
//
// Interrupt drops everything queued — sentences, their cues, the cues
// waiting on a boundary and the cues due at once — cancels synthesis and
// playback, and returns one Cut per dropped utterance with what was spoken
// (sentences whose speech_start went out, the playing one included) and
// what was still owed. After Interrupt returns no event about anything it
// dropped is delivered; an idle event may follow.
//
// # Concurrency contract
//
// All methods are safe for concurrent use. Events are delivered one at a
// time, in order, on the player's own goroutine, never while the player's
// state lock is held. OnEvent must return promptly (forward to a mailbox)
// and may call Speech, Render, EndUtterance, SetMuted, Owed and Idle, but
// not Interrupt or Close, which wait for event delivery to finish. Close
// stops the goroutine and cancels any synthesis or playback; every method
// is a no-op afterwards.
//
// # Events
//
// speech_start and speech_end carry the turn id and the bubble text of one
// sentence (emoji stripped, markdown kept); the voice got the speech text
// (links reduced). cue carries the segment's merged cue. utterance_end
// carries the turn id and the spoken sentences joined with one space, and
// means the utterance played to its end (the turn's previous-turn record can
// be cleared). idle means nothing is left to play after at least one
// sentence played (the face eases back to neutral); a silent cue alone never
// causes an idle event.
package playback
