// Package listentest is an OpenAI-compatible transcription server for
// tests: POST /v1/audio/transcriptions (multipart: file, model, language,
// response_format) answered with {"text": …}. It does real speech
// recognition: CMU PocketSphinx (Debian's python3-pocketsphinx with the
// pocketsphinx-en-us acoustic model) constrained by a JSGF grammar of the
// test's phrases, in one long-lived Python process fed 16 kHz mono
// samples. Audio that matches no phrase well enough answers
// "[BLANK_AUDIO]". It records what each request carried (model,
// language, key, audio length) but no audio.
package listentest
