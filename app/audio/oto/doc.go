// Package oto plays audio on Windows through github.com/ebitengine/oto/v3,
// which talks to WASAPI (falling back to WinMM) through system calls
// without cgo. The code is in _windows.go files; on other systems the
// package is empty (Linux uses package pulse).
//
// oto allows one context per process at one sample rate, so Output runs
// one 48 kHz mono context for every character and resamples each stream
// to it (linear interpolation, enough for speech); oto mixes the players.
// Each Stream is an oto player reading from a bounded queue of samples
// (Options.Buffer, default 50 ms): Write blocks while it is full, Close
// pauses and closes the player at once, dropping what was queued. oto
// cannot enumerate or choose devices: Sinks lists only the default
// device, and a stream plays there whatever its Sink says.
package oto
