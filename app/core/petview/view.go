package petview

import (
	"log/slog"
	"sync"
	"time"

	"yui/app/conncause"
	"yui/app/permission"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/view"
	"yui/app/voice"
)

// Pages is where a character's view goes (the view server).
type Pages interface {
	// Publish makes m preset's sticky message of topic.
	Publish(preset, topic string, m view.Message)
	// PublishDelta sends live pages the delta and keeps whole sticky.
	PublishDelta(preset, topic string, whole, live view.Message)
	// Send sends m to the pages of role and preset now connected.
	Send(role, preset string, m view.Message)
}

// Host is what a View asks of the core.
type Host interface {
	// Preset is preset id as saved now.
	Preset(id string) (settings.Preset, bool)
	// Endpoint is where the preset's session connects ("" when nowhere:
	// not configured, or a chat_api this build lacks).
	Endpoint(id string) string
	// Available reports whether this build runs chat_api.
	Available(chatAPI string) bool
	// GlobalMuted reports the global mute.
	GlobalMuted() bool
	// SetStatus tells the settings window's list the connection (nil:
	// the character is gone). Called with the View's lock held.
	SetStatus(id string, st *view.PresetStatus)
	// SetHistory tells the settings window the delegation history.
	// Called with the View's lock held.
	SetHistory(id string, items []view.DelegationItem)
}

// Config makes a View.
type Config struct {
	Preset string
	Pages  Pages
	Host   Host
	// Transcript is what the message window shows and a request wire
	// sends; nil keeps none.
	Transcript *transcript.Store
	// Character is her session, gate and voice, as her page's actions
	// and the pill reach them.
	Character Character
	// OnTyped is told each typed line, before it is sent (nil: nobody).
	OnTyped func()
	Logger  *slog.Logger
}

// View is one character's presenter. OnEvent runs on the session's
// goroutine, one event at a time; the lock guards the state against the
// other calls (the initial publish, the voice's errors, the countdown).
type View struct {
	cfg Config
	id  string

	mu sync.Mutex
	st state
}

// state is everything the pet page and the transcript show, in one place.
type state struct {
	socket string
	// unauthorized: the backend refused the key (the plate says so).
	unauthorized bool
	// cause is why the connection last failed, until it is ready again.
	cause conncause.Cause
	// problem keeps a Standard Agents character from its thread
	// (view.ProblemThreadDeleted, view.ProblemAgentUnknown) or is "".
	problem string
	retryAt time.Time // reconnecting: when the next attempt starts
	// retryEvery is the reconnect delay once the schedule has reached its
	// cap (0 before): the plate says how often, not a countdown.
	retryEvery time.Duration
	countdown  *time.Timer // re-publishes the plate each second while reconnecting
	thinking   bool
	// locked: a turn runs — the composer's lock, and what keeps the
	// transcript's replies streaming past the ease back to neutral.
	locked    bool
	emotion   string
	motion    string
	speaking  bool
	voiced    bool // the sentence playing is heard: the mouth follows its levels
	bubbleSeq uint64
	pillTool  *view.PillTool
	pillErr   string
	voiceErr  string // a sentence's voice failure, until the next turn
	// totalTokens is the last turn_end's usage, shown beside the preset's
	// context window.
	totalTokens int64
}

// New makes the View of cfg.Preset; it publishes nothing until
// PublishAll.
func New(cfg Config) *View {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &View{cfg: cfg, id: cfg.Preset, st: state{socket: "disconnected", emotion: "neutral", motion: "idle"}}
}

func (v *View) publish(topic string, body any) {
	v.cfg.Pages.Publish(v.id, topic, view.MustEncode(topic, body))
}

// PublishAll sends every topic's current state (at start, and when a new
// session replaces one of the same preset: the cleared topics hide what
// the old conversation showed).
func (v *View) PublishAll() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.publish(view.TypeBubble, view.Bubble{})
	v.publish(view.TypeReasoning, view.Reasoning{})
	v.publish(view.TypePermission, view.PermissionPrompt{})
	v.publish(view.TypeErrorLine, view.ErrorLine{Where: session.WhereComposer})
	v.publishUsage()
	v.publishPlate()
	v.publishStatus()
	v.publishCharacter()
	v.publish(view.TypeComposer, view.Composer{})
	v.publishPill()
	v.PublishVoice()
}

// Close ends the countdown and closes the transcript (what waits for its
// fsync goes to the disk); the View publishes nothing more and the
// settings window's list drops the character. Call after her session is
// closed (it reads the transcript too).
func (v *View) Close() {
	if v.cfg.Transcript != nil {
		v.cfg.Transcript.Close()
	}
	v.mu.Lock()
	v.st.socket = "closed"
	if v.st.countdown != nil {
		v.st.countdown.Stop()
		v.st.countdown = nil
	}
	v.mu.Unlock()
	v.cfg.Host.SetStatus(v.id, nil)
}

// Prompt shows a screen permission prompt.
func (v *View) Prompt(pr permission.Prompt) {
	v.publish(view.TypePermission, view.PermissionPrompt{ID: pr.ID, Backend: pr.Backend, Monitor: pr.Monitor, Label: pr.Label, Text: pr.Text(), Tool: pr.Tool})
}

// ClosePrompt takes the prompt away (answered, withdrawn or stale).
func (v *View) ClosePrompt() { v.publish(view.TypePermission, view.PermissionPrompt{}) }

// SetProblem shows what keeps a Standard Agents character from its thread
// (view.ProblemThreadDeleted, view.ProblemAgentUnknown, or "" for none).
func (v *View) SetProblem(problem string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.st.problem = problem
	v.publishPlate()
	v.publishStatus()
}

// OnVoiceError shows a sentence's voice failure in the pill.
func (v *View) OnVoiceError(short string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.st.voiceErr == short {
		return
	}
	v.st.voiceErr = short
	v.publishPill()
}

// OnMouth sends lip-sync levels to the pet's pages (not sticky: a page
// that connects later has missed that sound).
func (v *View) OnMouth(m voice.Mouth) {
	msg := view.Mouth{At: m.At.UnixMilli(), StepMS: int(m.Step / time.Millisecond), Levels: make([]int, len(m.Levels))}
	for i, lv := range m.Levels {
		msg.Levels[i] = int(lv)
	}
	v.cfg.Pages.Send(view.RolePet, v.id, view.MustEncode(view.TypeMouth, msg))
}

// PublishVoice tells the pet page the mute state for its menu.
func (v *View) PublishVoice() {
	p, _ := v.cfg.Host.Preset(v.id)
	v.publish(view.TypeVoice, view.VoiceState{Muted: p.Voice.Muted, GlobalMuted: v.cfg.Host.GlobalMuted(), Engine: p.Voice.EngineName()})
}

// Refresh shows a settings change that needs no new session: the pill
// (the screenshot-with-each-turn segment) and, when contextChanged, the
// usage readout.
func (v *View) Refresh(contextChanged bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.publishPill()
	if contextChanged {
		v.publishUsage()
	}
}

func (v *View) publishCharacter() {
	v.publish(view.TypeCharacter, view.Character{Emotion: v.st.emotion, Motion: v.st.motion, Speaking: v.st.speaking, Voiced: v.st.voiced})
}

func (v *View) publishPill() {
	v.publish(view.TypePill, view.Pill{Tool: v.st.pillTool, Error: v.st.pillErr, Capture: v.cfg.Character.CaptureEachTurn(), Voice: v.st.voiceErr})
}

// publishUsage shows the last usage beside the context window saved now.
func (v *View) publishUsage() {
	p, _ := v.cfg.Host.Preset(v.id)
	v.publish(view.TypeUsage, view.Usage{TotalTokens: v.st.totalTokens, ContextWindow: p.ContextWindow})
}

func (v *View) showBubble(turnID, kind, text string, speaking, muted bool) {
	v.st.bubbleSeq++
	v.publish(view.TypeBubble, view.Bubble{Seq: v.st.bubbleSeq, TurnID: turnID, Kind: kind, Text: text, Speaking: speaking, Muted: muted})
}
