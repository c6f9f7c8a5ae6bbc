// Package audio is the sound a voice makes once it is synthesised: PCM
// clips, WAV decoding, the loudness levels that drive lip-sync, and the
// small Output interface every sound path implements (PulseAudio's native
// protocol on Linux in package pulse, a cgo-free WASAPI path on Windows in
// package oto, and Memory, an in-memory speaker for tests).
//
// # PCM
//
// A PCM clip is signed 16-bit samples, interleaved by channel, at a
// sample rate. DecodeWAV reads RIFF/WAVE files of 8-, 16-, 24- or 32-bit
// integer or 32-bit float PCM and converts them to 16-bit. A RIFF or data
// size that is a placeholder (0, 0xFFFFFFFF, or larger than what follows,
// as espeak-ng --stdout and streaming HTTP servers write) is read as "to
// the end of the input". ReadPCM reads raw s16le.
//
// # Output and Stream
//
// Output.Open starts one Stream for one clip format on a named sink ("" is
// the default device). Stream.Write blocks until the samples are queued
// (waiting for room in the device's buffer, which is bounded, so a writer
// is never more than one buffer ahead of the speaker) and returns when its
// first sample will be heard. Drain waits until everything written was
// played; Close drops what was not heard yet — stop and barge-in are
// silent within one device buffer. Streams are independent: several
// characters may speak at once and the sound server (or the Windows mixer)
// mixes them.
//
// # Levels
//
// Levels cuts a clip into 20 ms windows and reports each window's RMS
// loudness, normalised to the clip's loudest window (0–100, with windows
// quieter than -45 dBFS at 0), for the page to move the mouth. Tones
// gives each of those windows a brightness (0–100) from three band-pass
// energies of its pre-emphasised signal, for the VRM look's vowel shapes.
//
// All functions are pure unless documented; Memory is safe for concurrent
// use and keeps time with the time package, so testing/synctest fakes it.
package audio
