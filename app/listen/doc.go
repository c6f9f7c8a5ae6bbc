// Package listen is Yui's ear: it records the microphone in the core,
// finds utterances with an energy voice detector, sends each to an
// OpenAI-compatible transcription endpoint and hands the transcript to the
// session as a spoken turn; speech that starts while a character talks
// barges in.
//
// # Pieces
//
//   - Detector (detector.go): 10 ms frames, levels smoothed over 30 ms, a
//     noise floor that is the quietest level of the last 3 s (so a steady
//     noise becomes the floor within 3 s), a start threshold Margin(s) dB
//     above it (sensitivity s, 1–100), 50 ms of loud frames to open, a
//     600 ms hangover to close, 200 ms of loud frames to keep it, a 15 s
//     cap, 300 ms of pre-roll and 250 ms of tail. An utterance whose level
//     hardly varies (standard deviation under 3 dB) is a steady noise and
//     is dropped. It counts samples, not clocks: the same audio gives the
//     same events.
//   - Endpoint (transcribe.go): POST {base}/audio/transcriptions,
//     multipart (file speech.wav, 16 kHz mono s16; model; language when
//     set; response_format json), its own key, 30 s, no redirect, 64 KiB
//     answer. Blank reports transcripts without words ("[BLANK_AUDIO]").
//   - Listener (listener.go): the capture loop (100 ms chunks from an
//     audio.Input), push-to-talk, barge-in, the pill state, the level
//     meter.
//
// # Concurrency
//
// Listener methods are safe from any goroutine. The capture loop runs on
// a goroutine of its own while the microphone is open (listening on, or
// push-to-talk held); each transcription runs on its own goroutine.
// Options callbacks are called from those goroutines.
//
// # Privacy
//
// Audio lives in memory only: it is never written to disk or logged; logs
// carry durations, byte counts and character counts. The microphone is
// open only while listening is on or push-to-talk is held; State.Open says
// so.
package listen
