// Package console is `yui console`: the same session (turn engine) as a
// pet window, with the terminal as its view. Stdin lines are typed turns or
// commands (/stop, /reset, /reconnect, /barge, /spoken TEXT, /attach PATH,
// /allow once|always|deny, /quit); stdout shows the session's events, as readable lines or, with
// --json, one JSON object per event. docs/console.md is the public
// description of the flags, commands and JSON events.
//
// Run is the entry point for tests and embedders; Main parses the flags and
// is what main.go calls. Run reads stdin on its own goroutine and writes
// stdout from the session's goroutine (one event at a time) and its own;
// the writes are serialised. The look tool (app/look) runs on the push
// client's tool goroutine; its permission prompts print from there. At end of input Run waits until no turn is
// running and playback is done, then closes the session and returns nil.
package console
