// Package ttstest is an OpenAI-compatible speech server for tests: POST
// /v1/audio/speech with {model, voice, input, response_format,
// instructions} answers speech that espeak-ng really synthesised (wav
// streamed with espeak-ng's placeholder sizes, or pcm at 24 kHz s16le
// mono), checks the bearer key when one is set, and records every request
// so a test can see what each carried. Failures can be injected per
// request. It listens on loopback only.
//
// Without espeak-ng, Start skips the test, or fails it when CI=true.
package ttstest
