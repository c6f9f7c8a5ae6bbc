package core

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"yui/app/conncause"
	"yui/app/cue"
	"yui/app/delegation"
	"yui/app/listen"
	"yui/app/look"
	"yui/app/permission"
	apppet "yui/app/pet"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/view"
	"yui/app/voice"
	"yui/transport/push"
)

// SpeechRate is the pace of a sentence shown without sound, in characters
// per second: the engine is off, there is no sound server, the character
// is muted, or the sentence's synthesis failed.
const SpeechRate = 15

// pet is one enabled preset's pet window as the core sees it: the session
// that owns the preset's connection, and the translation of its events into
// the view protocol's sticky topics.
//
// onEvent runs on the session's goroutine, one event at a time; the mutex
// guards the view state against the initial publish and against actions.
type pet struct {
	core    *Core
	preset  string
	sess    *session.Session
	speaker *voice.Speaker
	heard   listen.Heard // when her voice is heard (the listener's barge-in guard)
	gate    *permission.Gate
	log     *slog.Logger
	// transcript is what the message window shows and a request
	// transport sends (messagewin.go).
	transcript *transcript.Store
	// replyLocked: a turn runs (the composer's lock, for the transcript's
	// reply rows).
	replyLocked bool

	mu     sync.Mutex
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
	emotion    string
	motion     string
	speaking   bool
	voiced     bool // the sentence playing is heard: the mouth follows its levels
	bubbleSeq  uint64
	bubble     view.Bubble
	pillTool   *view.PillTool
	pillErr    string
	voiceErr   string // a sentence's voice failure, until the next turn
	// totalTokens is the last turn_end's usage, shown beside the preset's
	// context window.
	totalTokens int64
}

func (c *Core) newPet(p settings.Preset, main bool, vocab cue.Vocabulary, turnLog *slog.Logger) (*pet, error) {
	pt := &pet{core: c, preset: p.ID, log: c.log.With("preset", p.ID), socket: "disconnected", emotion: "neutral", motion: "idle"}
	id := p.ID
	pt.speaker = c.newSpeaker(pt, p)
	tr, terr := transcript.Open(transcriptPath(c.opts.ConfigDir, p.ID), pt.log, nil)
	if terr != nil {
		// Kept aside, never lost; the character starts a new transcript.
		c.view.Publish(p.ID, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "transcript_bad",
			Text: fmt.Sprintf("%s's conversation could not be read and starts afresh (the old file is kept): %v", p.Name, terr)}))
	}
	pt.transcript = tr
	// The character is bound to the backend it was made for: should the
	// preset's URL move to another origin before it is replaced, it gets no
	// endpoint and no key, and an "Always" answered to the old backend is
	// not saved for the new one (keybind.go).
	bound := backendOrigin(p.ChatBaseURL)
	ch, err := apppet.New(apppet.Config{
		Preset:    p,
		PresetNow: func() settings.Preset { q, _ := c.presetNow(id); return q },
		Main:      main,
		ConfigDir: c.opts.ConfigDir,
		History:   tr,
		Endpoint:  func() string { return c.boundEndpoint(id, bound) },
		Key:       func() string { return c.boundKey(id, bound) },
		Backend:   backendName(p),
		Screen:    c.screen,
		Windows:   look.X11Windows{},
		Body:      func() look.BodyState { return c.bodyState(id) },
		SavePermission: func(m permission.Mode) error {
			err := c.store.Change(func(s *settings.Settings) error {
				for i := range s.Presets {
					if s.Presets[i].ID != id {
						continue
					}
					if backendOrigin(s.Presets[i].ChatBaseURL) != bound {
						return errors.New("the character's backend changed since it asked")
					}
					s.Presets[i].Permissions.Screen = string(m)
				}
				return nil
			})
			if err == nil {
				c.publishSettingsState()
			}
			return err
		},
		OnPrompt: func(pr permission.Prompt) {
			pt.publish(view.TypePermission, view.PermissionPrompt{ID: pr.ID, Backend: pr.Backend, Monitor: pr.Monitor, Label: pr.Label, Text: pr.Text()})
		},
		OnPromptClosed: func(uint64) { pt.publish(view.TypePermission, view.PermissionPrompt{}) },
		SaveThread:     func(thread string) error { return c.saveThread(id, bound, thread) },
		OnThread:       pt.onThread,
		Voice:          pt.speaker,
		Vocabulary:     voiceConfig(p, settings.Audio{}).Vocabulary(vocab),
		Frontmost:      c.front.Current,
		Logger:         c.log.With("preset", p.ID),
		TurnLog:        turnLog.With("preset", p.ID),
		OnEvent:        pt.onEvent,
	})
	if err != nil {
		pt.speaker.Close()
		tr.Close()
		return nil, fmt.Errorf("core: session for %s: %w", p.ID, err)
	}
	s := ch.Session
	pt.gate = ch.Gate
	pt.sess = s
	return pt, nil
}

// saveThread remembers the thread a Standard Agents character made, in
// its preset, while the preset still points at the runtime it was made on.
// The running pet already follows it, so nothing is replaced.
func (c *Core) saveThread(id, bound, thread string) error {
	err := c.store.Change(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID != id {
				continue
			}
			if backendOrigin(s.Presets[i].ChatBaseURL) != bound {
				return errors.New("the character's backend changed since it made the thread")
			}
			s.Presets[i].ThreadID = thread
			return nil
		}
		return errors.New("the character is gone")
	})
	if err != nil {
		return err
	}
	c.log.Info("thread_saved", "preset", id, "thread", thread)
	c.publishSettingsState()
	return nil
}

// onThread shows what keeps a Standard Agents character from its thread.
func (pt *pet) onThread(st apppet.ThreadStatus) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch {
	case st.Deleted:
		pt.problem = view.ProblemThreadDeleted
	case st.AgentUnknown:
		pt.problem = view.ProblemAgentUnknown
	default:
		pt.problem = ""
	}
	pt.publishPlate()
	s := pt.status()
	pt.core.setStatus(pt.preset, &s)
}

// presetNow reads the preset fresh from the settings.
func (c *Core) presetNow(id string) (settings.Preset, bool) {
	all := c.store.Get()
	return all.Preset(id)
}

// endpoint is the preset's chat_base_url, with the demo URL standing for
// the embedded demo backend's actual address; "" when the preset's
// chat_api is not available in this version.
func (c *Core) endpoint(id string) string {
	p, ok := c.presetNow(id)
	if !ok || !slices.Contains(AvailableChatAPIs, p.ChatAPI) {
		// A request transport this version does not have: no connection
		// (the plate says why).
		return ""
	}
	if p.ChatBaseURL == settings.DemoBaseURL {
		if u := c.demoURL(); u != "" {
			return u
		}
	}
	return p.ChatBaseURL
}

// boundEndpoint is endpoint(id) while the preset's URL has origin bound,
// else "".
func (c *Core) boundEndpoint(id, bound string) string {
	if p, ok := c.presetNow(id); !ok || backendOrigin(p.ChatBaseURL) != bound {
		return ""
	}
	return c.endpoint(id)
}

// boundKey is the preset's key while its URL has origin bound, else "".
// The key is read with the URL from one snapshot of the settings, and a
// save that changes the origin drops the key in the same write, so a key
// never goes with another origin's endpoint.
func (c *Core) boundKey(id, bound string) string {
	p, ok := c.presetNow(id)
	if !ok || backendOrigin(p.ChatBaseURL) != bound {
		return ""
	}
	return p.Key
}

func (pt *pet) publish(topic string, v any) {
	pt.core.view.Publish(pt.preset, topic, view.MustEncode(topic, v))
}

// publishAll sends every topic's current state (at start, and when the
// pet replaces one of the same preset: the cleared topics hide what the old
// conversation showed).
func (pt *pet) publishAll() {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.publish(view.TypeBubble, view.Bubble{})
	pt.publish(view.TypeReasoning, view.Reasoning{})
	pt.publish(view.TypePermission, view.PermissionPrompt{})
	pt.publish(view.TypeErrorLine, view.ErrorLine{Where: session.WhereComposer})
	pt.publishUsage()
	pt.publishPlate()
	st := pt.status()
	pt.core.setStatus(pt.preset, &st)
	pt.publishCharacter()
	pt.publish(view.TypeComposer, view.Composer{})
	pt.publishPill()
	pt.publishVoice()
	pt.core.publishListenTo(pt)
}

func (pt *pet) onEvent(e session.Event) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.record(e)
	switch e.Kind {
	case session.KindSocket:
		pt.socket, pt.unauthorized = e.State, e.Unauthorized
		switch {
		case e.State == "ready":
			pt.cause = conncause.Cause{}
		case e.Cause != nil:
			pt.cause = conncause.Explain(e.Cause, pt.core.endpoint(pt.preset))
		}
		delay := time.Duration(e.DelayMS) * time.Millisecond
		pt.retryAt = time.Now().Add(delay)
		pt.retryEvery = 0
		if delay >= push.ReconnectCap {
			pt.retryEvery = delay
		}
		pt.publishPlate()
		st := pt.status()
		pt.core.setStatus(pt.preset, &st)
	case session.KindPlate:
		pt.thinking = e.Text == "thinking"
		pt.publishPlate()
	case session.KindComposer:
		pt.publish(view.TypeComposer, view.Composer{Locked: e.Locked})
	case session.KindTurnSent:
		// A new turn clears the last turn's error lines.
		pt.publish(view.TypeErrorLine, view.ErrorLine{Where: session.WhereComposer})
		if pt.pillErr != "" || pt.voiceErr != "" {
			pt.pillErr, pt.voiceErr = "", ""
			pt.publishPill()
		}
	case session.KindCue:
		if e.Cue.EmotionID != "" {
			pt.emotion = e.Cue.EmotionID
		}
		if e.Cue.MotionID != "" {
			pt.motion = e.Cue.MotionID
		}
		// The client's own ease back to neutral after playback also ends
		// the last motion, so a reloaded page does not replay it.
		if e.TurnID == "" && e.Cue.EmotionID == "neutral" && e.Cue.MotionID == "" {
			pt.motion = "idle"
		}
		pt.publishCharacter()
	case session.KindSpeechStart:
		pt.speaking = true
		pt.voiced = !e.Muted && pt.speaker.Voiced()
		pt.publishCharacter()
		pt.showBubble(e.TurnID, "speech", e.Text, true, e.Muted)
	case session.KindSpeechEnd:
		pt.speaking, pt.voiced = false, false
		pt.publishCharacter()
		pt.showBubble(e.TurnID, "speech", e.Text, false, e.Muted)
	case session.KindFiller:
		pt.showBubble(e.TurnID, "filler", e.Text, false, false)
	case session.KindFailureLine:
		pt.showBubble(e.TurnID, "failure", e.Text, false, false)
	case session.KindErrorLine:
		if e.Where == session.WherePill {
			pt.pillErr = e.Text
			pt.publishPill()
		} else {
			pt.publish(view.TypeErrorLine, view.ErrorLine{Text: e.Text, Where: session.WhereComposer})
		}
	case session.KindPill:
		pt.pillTool = nil
		if e.Tool != nil {
			pt.pillTool = &view.PillTool{ToolID: e.Tool.ToolID, State: e.Tool.State, Label: toolLabel(e.Tool.ToolID), Phrase: e.Tool.Phrase}
		}
		pt.publishPill()
	case session.KindReasoning:
		whole := view.Reasoning{TurnID: e.TurnID, Text: e.Text, Streaming: e.Streaming, Cut: e.Cut}
		if !e.Append {
			pt.publish(view.TypeReasoning, whole)
			break
		}
		// Live pages get the delta; one that connects later the whole text.
		pt.core.view.PublishDelta(pt.preset, view.TypeReasoning, view.MustEncode(view.TypeReasoning, whole),
			view.MustEncode(view.TypeReasoning, view.Reasoning{TurnID: e.TurnID, Text: e.Delta, Streaming: e.Streaming, Cut: e.Cut, Append: true}))
	case session.KindUsage:
		pt.totalTokens = e.TotalTokens
		pt.publishUsage()
	case session.KindDelegations:
		items := viewItems(e.Items)
		pt.publish(view.TypeDelegations, view.Delegations{Items: items})
		pt.core.setHistory(pt.preset, viewItems(e.History))
	case session.KindTurnEnd, session.KindToolCall, session.KindToolResult:
		// Nothing to show; the session logs them.
	}
}

func (pt *pet) showBubble(turnID, kind, text string, speaking, muted bool) {
	pt.bubbleSeq++
	pt.bubble = view.Bubble{Seq: pt.bubbleSeq, TurnID: turnID, Kind: kind, Text: text, Speaking: speaking, Muted: muted}
	pt.publish(view.TypeBubble, pt.bubble)
}

func (pt *pet) publishCharacter() {
	pt.publish(view.TypeCharacter, view.Character{Emotion: pt.emotion, Motion: pt.motion, Speaking: pt.speaking, Voiced: pt.voiced})
}

func (pt *pet) publishPill() {
	pt.publish(view.TypePill, view.Pill{Tool: pt.pillTool, Error: pt.pillErr, Capture: pt.gate.EachTurn(), Voice: pt.voiceErr})
}

// publishPlate shows the connection state while the socket is not ready,
// else "thinking" while a turn runs, else nothing.
func (pt *pet) publishPlate() {
	pt.publish(view.TypePlate, pt.plate())
	pt.armCountdown()
}

// armCountdown keeps "reconnecting in N s" counting down: one timer, armed
// only while reconnecting, firing at the next whole second. Call with mu
// held.
func (pt *pet) armCountdown() {
	if pt.countdown != nil {
		pt.countdown.Stop()
		pt.countdown = nil
	}
	if pt.socket != "reconnecting" || pt.cause.Kind == conncause.NotPush && pt.retryEvery > 0 {
		return // nothing counts down ("not a push server … retrying every 30 s")
	}
	left := time.Until(pt.retryAt)
	if left <= 0 {
		return
	}
	next := left % time.Second
	if next == 0 {
		next = time.Second
	}
	pt.countdown = time.AfterFunc(next+time.Millisecond, func() {
		pt.mu.Lock()
		defer pt.mu.Unlock()
		if pt.socket == "reconnecting" {
			pt.publishPlate()
		}
	})
}

// publishUsage shows the last usage beside the context window saved now.
// Call with mu held.
func (pt *pet) publishUsage() {
	pt.publish(view.TypeUsage, view.Usage{TotalTokens: pt.totalTokens, ContextWindow: pt.contextWindow()})
}

// contextWindow is the preset's context window as saved now (the settings
// window may change it while the session runs).
func (pt *pet) contextWindow() int {
	p, _ := pt.core.presetNow(pt.preset)
	return p.ContextWindow
}

// status is the connection as the settings window's list shows it. Call
// with mu held.
func (pt *pet) status() view.PresetStatus {
	st := view.PresetStatus{ID: pt.preset, State: pt.socket, Problem: pt.problem}
	switch pt.socket {
	case "ready":
		st.Text = "connected"
	case "reconnecting":
		st.Text = "reconnecting"
	default:
		st.Text = strings.TrimSuffix(pt.plate().Text, "…")
	}
	return st
}

// close ends the pet's session (its connection and playback) and timers;
// the pet publishes nothing afterwards. Not from the session's OnEvent.
func (pt *pet) close() {
	pt.sess.Close()
	pt.transcript.Close() // what waits for its fsync goes to the disk
	pt.speaker.Close()
	pt.stop()
	pt.core.setStatus(pt.preset, nil)
}

// stop ends the countdown timer (core shutdown).
func (pt *pet) stop() {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.socket = "closed"
	if pt.countdown != nil {
		pt.countdown.Stop()
		pt.countdown = nil
	}
}

func (pt *pet) plate() view.Plate {
	switch pt.socket {
	case "ready":
		if pt.thinking {
			return view.Plate{Kind: "thinking", Text: "thinking"}
		}
		return view.Plate{}
	case "connecting":
		return view.Plate{Kind: "connection", Text: "connecting…"}
	case "reconnecting":
		left := time.Until(pt.retryAt)
		p := view.Plate{Kind: "connection", Text: conncause.Retrying(pt.cause, left, pt.retryEvery)}
		if left > 0 {
			p.Action = "reconnect"
		}
		return pt.withCause(p)
	case "failed":
		switch {
		case pt.problem == view.ProblemThreadDeleted:
			// No reconnect: the thread is gone; a new one is the way on.
			return view.Plate{Kind: "connection", Text: "thread deleted", Action: "reset"}
		case pt.problem == view.ProblemAgentUnknown:
			return view.Plate{Kind: "connection", Text: "agent not found", Action: "settings"}
		case pt.unauthorized && pt.chatAPI() == apppet.StandardAgents:
			return pt.withCause(view.Plate{Kind: "connection", Text: "key refused", Action: "reconnect"})
		case pt.unauthorized:
			return pt.withCause(view.Plate{Kind: "connection", Text: "wrong key", Action: "reconnect"})
		}
		return pt.withCause(view.Plate{Kind: "connection", Text: "can't connect", Action: "reconnect"})
	default:
		if p, _ := pt.core.presetNow(pt.preset); !slices.Contains(AvailableChatAPIs, p.ChatAPI) {
			return view.Plate{Kind: "connection", Text: chatAPILabel(p.ChatAPI) + " is not in this version"}
		}
		if pt.core.endpoint(pt.preset) == "" {
			return view.Plate{Kind: "connection", Text: "not configured"}
		}
		return view.Plate{Kind: "connection", Text: "not connected"}
	}
}

// withCause adds why the connection failed to a plate. Call with mu held.
func (pt *pet) withCause(p view.Plate) view.Plate {
	p.Cause, p.Settings = pt.cause.Text, pt.cause.Settings
	return p
}

// chatAPI is the preset's chat_api as saved now.
func (pt *pet) chatAPI() string {
	p, _ := pt.core.presetNow(pt.preset)
	return p.ChatAPI
}

// viewItems converts delegation items for the view protocol.
func viewItems(in []delegation.Item) []view.DelegationItem {
	out := make([]view.DelegationItem, len(in))
	for i, it := range in {
		out[i] = view.DelegationItem{ID: it.ID, Title: it.Title, StartedAt: it.StartedAt, State: it.State,
			EndedAt: it.EndedAt, Status: it.Status, Summary: it.Summary}
	}
	return out
}

// toolLabel turns a backend tool id into a short label: "read_file" →
// "Read file".
func toolLabel(id string) string {
	s := strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(id)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "Tool"
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
