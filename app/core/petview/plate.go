package petview

import (
	"strings"
	"time"

	"yui/app/conncause"
	"yui/app/core/backend"
	apppet "yui/app/pet"
	"yui/app/phrase"
	"yui/app/view"
)

// publishPlate shows the connection state while the socket is not ready,
// else "thinking" while a turn runs, else nothing. Call with mu held.
func (v *View) publishPlate() {
	v.publish(view.TypePlate, v.plate())
	v.armCountdown()
}

// publishStatus tells the settings window's list the connection. Call
// with mu held.
func (v *View) publishStatus() {
	st := v.status()
	v.cfg.Host.SetStatus(v.id, &st)
}

// armCountdown keeps "reconnecting in N s" counting down: one timer, armed
// only while reconnecting, firing at the next whole second. Call with mu
// held.
func (v *View) armCountdown() {
	if v.st.countdown != nil {
		v.st.countdown.Stop()
		v.st.countdown = nil
	}
	if v.st.socket != "reconnecting" || v.st.cause.Kind == conncause.NotPush && v.st.retryEvery > 0 {
		return // nothing counts down ("not a push server … retrying every 30 s")
	}
	left := time.Until(v.st.retryAt)
	if left <= 0 {
		return
	}
	next := left % time.Second
	if next == 0 {
		next = time.Second
	}
	v.st.countdown = time.AfterFunc(next+time.Millisecond, func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		if v.st.socket == "reconnecting" {
			v.publishPlate()
		}
	})
}

// status is the connection as the settings window's list shows it. Call
// with mu held.
func (v *View) status() view.PresetStatus {
	st := view.PresetStatus{ID: v.id, State: v.st.socket, Problem: v.st.problem}
	var m *phrase.Phrase
	switch v.st.socket {
	case "ready":
		m = new(phrase.New("core.status.connected"))
	case "reconnecting":
		m = new(phrase.New("core.status.reconnecting"))
	default:
		m = v.plate().Msg
		if m != nil && m.Key == "core.plate.connecting" {
			m = new(phrase.New("core.status.connecting"))
		}
	}
	st.Msg = m
	if m != nil {
		st.Text = strings.TrimSuffix(m.English(), "…")
	}
	return st
}

// plate is the name plate now. Call with mu held.
func (v *View) plate() view.Plate {
	switch v.st.socket {
	case "ready":
		if v.st.thinking {
			return plate("thinking", phrase.New("core.plate.thinking"), "")
		}
		return view.Plate{}
	case "connecting":
		return plate("connection", phrase.New("core.plate.connecting"), "")
	case "reconnecting":
		left := time.Until(v.st.retryAt)
		p := plate("connection", conncause.RetryingPhrase(v.st.cause, left, v.st.retryEvery), "")
		if left > 0 {
			p.Action = "reconnect"
		}
		return v.withCause(p)
	case "failed":
		return v.failedPlate()
	default:
		p, _ := v.cfg.Host.Preset(v.id)
		if !v.cfg.Host.Available(p.ChatAPI) {
			return plate("connection", phrase.New("core.plate.not_in_version", "api", backend.Label(p.ChatAPI)), "")
		}
		if v.cfg.Host.Endpoint(v.id) == "" {
			return plate("connection", phrase.New("core.plate.not_configured"), "")
		}
		return plate("connection", phrase.New("core.plate.not_connected"), "")
	}
}

// failedPlate says why the connection failed and what is the way on.
func (v *View) failedPlate() view.Plate {
	switch {
	case v.st.problem == view.ProblemThreadDeleted:
		// No reconnect: the thread is gone; a new one is the way on.
		return plate("connection", phrase.New("core.plate.thread_deleted"), "reset")
	case v.st.problem == view.ProblemAgentUnknown:
		return plate("connection", phrase.New("core.plate.agent_unknown"), "settings")
	case v.st.unauthorized && v.chatAPI() == apppet.StandardAgents:
		return v.withCause(plate("connection", phrase.New("core.plate.key_refused"), "reconnect"))
	case v.st.unauthorized:
		return v.withCause(plate("connection", phrase.New("core.plate.wrong_key"), "reconnect"))
	}
	return v.withCause(plate("connection", phrase.New("core.plate.cant_connect"), "reconnect"))
}

// plate is a plate of kind saying m (its English as Text), offering action.
func plate(kind string, m phrase.Phrase, action string) view.Plate {
	return view.Plate{Kind: kind, Text: m.English(), Msg: m.Ptr(), Action: action}
}

// withCause adds why the connection failed to a plate. Call with mu held.
func (v *View) withCause(p view.Plate) view.Plate {
	p.Cause, p.CauseMsg, p.Settings = v.st.cause.Text, v.st.cause.Msg.Ptr(), v.st.cause.Settings
	return p
}

// chatAPI is the preset's chat_api as saved now.
func (v *View) chatAPI() string {
	p, _ := v.cfg.Host.Preset(v.id)
	return p.ChatAPI
}
