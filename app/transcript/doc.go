// Package transcript keeps a character's conversation as the user reads it
// in the message window: their lines, her replies (with the reasoning
// folded at their top), tool and delegation events as small rows, and
// errors. One file per character in the config directory, bounded and
// written atomically; it survives a restart and is emptied by New
// conversation. It is also the History a request transport sends
// (transport.History): one store for what is shown and what is sent.
//
// A Store is safe for concurrent use. docs/message-window.md describes the
// file and the bounds.
package transcript
