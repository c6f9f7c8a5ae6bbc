// Package pet assembles one character from its preset: the transport its
// chat_api names, the screen permission gate, the client tools (look for
// main), the per-turn screenshot hook, the voice and the session that owns
// them. It is the one place that reads preset.chat_api; the core (one pet
// per enabled preset) and `yui console` (one pet) both build characters
// here, and pass callbacks (prompt, save, where the body is) rather than
// being reached into.
//
// A Character is built stopped: its Session's Start starts the transport
// too, and its Close ends both. Its parts are safe for concurrent use as
// their own packages say.
package pet
