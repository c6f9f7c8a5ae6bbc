package pet

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"yui/app/bodyaction"
	"yui/app/browse"
	"yui/app/capture"
	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/i18n"
	"yui/app/look"
	"yui/app/mcp"
	"yui/app/memory"
	"yui/app/permission"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
	"yui/transport"
)

// Config is what a character is made from. Preset and ConfigDir are
// required; everything else has a default.
type Config struct {
	// Preset is the character as saved; its chat_api picks the transport.
	Preset settings.Preset
	// PresetNow reads the preset as saved now (model, effort, card and
	// context window apply from the next turn); nil is Preset.
	PresetNow func() settings.Preset
	// Main declares the main character's tools (look, body_action).
	Main bool
	// ConfigDir holds the preset's persisted files (previous-turn record,
	// delegation history, a request transport's conversation).
	ConfigDir string
	// History, when set, is the conversation a request transport sends
	// and records its exchanges in (the character's transcript, one store
	// with what the message window shows); nil keeps it in the
	// transport's own file.
	History transport.History
	// Memory is her memory on a request wire (the summary and facts sent
	// with each request, remember and forget declared); nil: none.
	Memory *memory.Store
	// MCP is her MCP servers' hub on a request wire (its tools declared
	// each turn); nil: none. The caller starts and closes it.
	MCP *mcp.Hub
	// Endpoint and Key are read on every connection attempt or request;
	// nil reads the preset's chat_base_url and key. Endpoint "" means not
	// configured.
	Endpoint func() string
	Key      func() string
	// Backend names the backend in permission prompts; "" is the base URL
	// (or "<name>'s backend" without one).
	Backend string

	// Screen lists and captures monitors; nil: no display (screen
	// requests fail, no per-turn screenshot).
	Screen capture.Source
	// Windows lists the windows look offers as perch targets; nil: none.
	Windows look.Windows
	// Body is where the character is; nil stands on monitor 0.
	Body func() look.BodyState
	// BodyLine is her posture for the client_context body line (the same
	// source as Body); nil says standing.
	BodyLine func() clientctx.Body
	// BodyActor runs main's body_action; nil answers every call "error:
	// unsupported" (no desktop).
	BodyActor bodyaction.Actor

	// SavePermission persists a mode the user chose in a prompt ("always");
	// nil keeps it in memory.
	SavePermission func(permission.Mode) error
	// OnPrompt shows a permission prompt; OnPromptClosed withdraws one.
	OnPrompt       func(permission.Prompt)
	OnPromptClosed func(id uint64)

	// Among are the parts of the tools every character declares
	// (rate_relation, address_character, browser: among.go).
	Among Among

	// Voice speaks replies; nil is the instant silent voice.
	Voice playback.Voice
	// Vocabulary is what the character renders; zero is cue.Default().
	Vocabulary cue.Vocabulary
	// Language is the language she speaks her fixed lines in
	// (settings.SpokenLanguage); "" is English.
	Language i18n.Lang
	// Frontmost reports the user's frontmost window (client_context).
	Frontmost func() *clientctx.Frontmost
	// HTTPClient carries the push handshake or the requests; nil is the
	// wire's default (tests pass in-memory clients).
	HTTPClient *http.Client

	// SaveThread remembers the thread a Standard Agents character made
	// (on its first connect without one, or on New conversation); nil
	// keeps it in memory. OnThread hears its thread's status (in order
	// with the session's events); nil ignores it.
	SaveThread func(id string) error
	OnThread   func(ThreadStatus)

	Logger  *slog.Logger
	TurnLog *slog.Logger
	// OnEvent receives the session's UI events (session.Options.OnEvent).
	OnEvent func(session.Event)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Character is one assembled pet.
type Character struct {
	Session   *session.Session
	Gate      *permission.Gate
	Transport transport.Transport
	// Look is the look tool when the character declares it (main), else nil.
	Look *look.Tool
	// Browser is her browser tool; Sites its open permission (prompt ids
	// permission.IsSitePrompt).
	Browser *browse.Tool
	Sites   *permission.SiteGate
}

// New assembles the character of cfg.Preset; nothing connects until
// Start.
func New(cfg Config) (*Character, error) {
	p := cfg.Preset
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	if cfg.Endpoint == nil {
		u := p.ChatBaseURL
		cfg.Endpoint = func() string { return u }
	}
	if cfg.Key == nil {
		k := p.Key
		cfg.Key = func() string { return k }
	}
	if cfg.Body == nil {
		cfg.Body = func() look.BodyState { return look.BodyState{Posture: "standing"} }
	}
	vocab := cfg.Vocabulary
	if vocab.EmotionIDs == nil && vocab.MotionIDs == nil {
		vocab = cue.Default()
	}
	ch := &Character{}
	ch.Gate = newGate(cfg, lg, ch.answered)
	var tools []transport.Tool
	if cfg.Main {
		ch.Look = look.New(look.Config{
			Body:    look.BodyFunc(cfg.Body),
			Windows: cfg.Windows,
			Screen:  cfg.Screen,
			Gate:    ch.Gate,
			OwnPIDs: []int{os.Getpid()},
			Logger:  lg,
		})
		tools = append(tools, ch.Look, bodyTool(cfg))
	}
	tools = append(tools, memoryTools(cfg)...)
	tools = append(tools, amongTools(cfg, ch, lg)...)
	tr, err := newTransport(cfg, tools, session.WireVocabulary(vocab), lg)
	if err != nil {
		return nil, fmt.Errorf("pet: %s: %w", p.ID, err)
	}
	ch.Transport = tr
	declared := make([]string, len(tools))
	for i, t := range tools {
		declared[i] = t.Schema().Name
	}
	s, err := session.New(session.Options{
		Preset:     p,
		Transport:  tr,
		Wire:       LogWire(p.ChatAPI),
		Declared:   declared,
		ConfigDir:  cfg.ConfigDir,
		Voice:      cfg.Voice,
		Vocabulary: vocab,
		Lines:      session.LinesFor(cfg.Language),
		Screenshot: screenshotHook(cfg, ch.Gate, lg),
		Body:       bodyLine(cfg),
		Frontmost:  frontmostHook(cfg),
		Logger:     lg,
		TurnLog:    cfg.TurnLog,
		OnEvent:    cfg.OnEvent,
		Now:        cfg.Now,
	})
	if err != nil {
		tr.Close()
		return nil, fmt.Errorf("pet: %s: %w", p.ID, err)
	}
	ch.Session = s
	return ch, nil
}

// answered starts the follow-up turn of a prompt the user answered: an
// empty utterance whose trigger line tells the agent the answer, so the
// agent whose look answered "permission pending" can look again (or take
// the no). The session is set before any prompt can be answered: prompts
// come from the look tool, which runs only after Start.
func (ch *Character) answered(p permission.Prompt, c permission.Choice) {
	ch.Session.StartTurn("", clientctx.FromPermission(choiceAnswer(c), p.Monitor))
}

// frontmostHook is the frontmost line's source while the preset tells the
// agent which app the user is in (read fresh each turn); nil without one.
func frontmostHook(cfg Config) func() *clientctx.Frontmost {
	if cfg.Frontmost == nil {
		return nil
	}
	now := cfg.PresetNow
	if now == nil {
		p := cfg.Preset
		now = func() settings.Preset { return p }
	}
	return func() *clientctx.Frontmost {
		if now().Permissions.HideFrontmost {
			return nil
		}
		return cfg.Frontmost()
	}
}
