package console

import (
	"net/http"
	"time"

	"yui/app/audio"
	"yui/app/capture"
	"yui/app/look"
)

// Options are the console's flags.
type Options struct {
	// Preset is the id or name of the preset to use; blank is the active
	// preset of the settings.
	Preset string
	// URL and Key override the preset's chat_base_url and key. ParseFlags
	// takes the key from --key-file, $YUI_KEY or (with a warning) --key.
	URL string
	Key string
	// ChatAPI and Model override the preset's chat_api (push, responses,
	// chat_completions, standard_agents) and model.
	ChatAPI string
	Model   string
	// Agent and Thread override a standard_agents preset's agent and
	// thread; Thread "new" makes a new thread.
	Agent  string
	Thread string
	// ConfigDir holds settings.json, the previous-turn record and the
	// delegation history; blank is os.UserConfigDir()/yui.
	ConfigDir string
	// LogDir receives the app log and the turn log; blank is
	// applog.DefaultDir().
	LogDir string
	// SpeechRate is the silent voice's pace in characters per second;
	// 0 plays every sentence instantly.
	SpeechRate float64
	// JSON prints one JSON object per event instead of readable lines.
	JSON bool
	// Voice speaks the replies with the preset's voice settings (engine,
	// volume, mute, the global mute and device) instead of the silent
	// pace.
	Voice bool
	// Sound is where the voice plays; nil is voice.SystemOutput (tests
	// pass a private server's output).
	Sound audio.Output
	// Listen hears the microphone: always-on listening with the settings'
	// listen section (device, sensitivity, barge-in, transcription
	// endpoint); each transcript is a spoken turn.
	Listen bool
	// Input is the microphone; nil is listen.SystemInput.
	Input audio.Input

	// Screen and Windows are what the look tool sees; nil is the X
	// display of $DISPLAY when set (tests pass capture.Fixed).
	Screen  capture.Source
	Windows look.Windows

	// HTTPClient performs the WebSocket handshake; nil is the default
	// client (tests pass pushserver.InMemoryClient).
	HTTPClient *http.Client
	// Now is the clock of the event timestamps; nil is time.Now.
	Now func() time.Time
}
