package session

import (
	"log/slog"
	"time"

	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/playback"
	"yui/app/settings"
	"yui/transport"
)

// Timing decisions where the spec is silent.
const (
	// LaterFillerAfter is how long a turn may think before the "later"
	// filler line is spoken (once per turn).
	LaterFillerAfter = 8 * time.Second
	// PillHold is how long a done or failed tool state stays in the pill
	// (limits table: 1.5 s).
	PillHold = 1500 * time.Millisecond
	// ErrorLineMax is the most code points of an error message shown.
	ErrorLineMax = 200
	// closedMemory is how many closed turn ids are remembered, so a late
	// frame of a closed backend turn does not make it outstanding again.
	closedMemory = 1024
)

// Options configure a Session. Preset.ChatID and a config directory are
// required; everything else has a default.
type Options struct {
	// Preset is the preset this session serves: its ID names the
	// persisted files, ChatID the conversation, ContextWindow the usage
	// readout.
	Preset settings.Preset
	// Transport is the preset's wire (app/pet builds it from chat_api).
	// Required. The session starts it with its own handler and closes it.
	Transport transport.Transport
	// Wire names the wire in the log's event names: "push" (also for ""),
	// "chat_completions", "responses", "threads" — push.speech,
	// responses.turn_end, threads.render … (push's are the spec's).
	Wire string
	// ConfigDir holds the previous-turn record and the delegation history
	// of the preset.
	ConfigDir string
	// Voice speaks sentences; nil is the instant silent voice.
	Voice playback.Voice
	// Vocabulary is what the character renders; zero is cue.Default().
	Vocabulary cue.Vocabulary
	// Declared are the names of the client tools the transport declares;
	// a backend tool_status naming browser, which the client runs
	// itself, leaves the pill alone only when it is declared.
	Declared []string
	// Screenshot takes the per-turn screenshot ("send a screenshot with
	// each turn") for every turn the client sends; ok false means none this
	// turn (capture off, denied or failed — the hook logs why). It runs on
	// the session's goroutine, so it must return promptly; the core's hook
	// asks the preset's permission.Gate (RequestEachTurn) and captures the
	// character's monitor. A turn with a screenshot carries the
	// "screenshot: monitor N (label)" line, and its pixels first in
	// turn.images when the backend stated max_turn_bytes. Nil: none.
	Screenshot func() (shot TurnScreenshot, ok bool)
	// Body reports the character's posture for the client_context block;
	// nil reads standing.
	Body func() clientctx.Body
	// Frontmost reports the user's frontmost window for the block's
	// frontmost line (nil result: unknown, the line is left out). It runs
	// on the session's goroutine for every turn; it must return promptly.
	// Nil: no frontmost line.
	Frontmost func() *clientctx.Frontmost
	// Zone is the time zone of the block's time line; nil is the
	// machine's, named (clientctx.LocalZone).
	Zone *time.Location
	// Lines are the filler and failure texts; zero is EnglishLines().
	Lines Lines
	// Logger is the app log; TurnLog the separate turn log. Nil discards.
	Logger  *slog.Logger
	TurnLog *slog.Logger
	// OnEvent receives every UI event; see the concurrency contract in
	// doc.go. Nil drops events.
	OnEvent func(Event)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}
