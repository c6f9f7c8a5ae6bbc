package petview

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"yui/app/core/route"
	"yui/app/permission"
	"yui/app/phrase"
	"yui/app/view"
	"yui/transport/dataurl"
)

// Character is what her page's actions reach: her session, her permission
// gate and her voice.
type Character interface {
	// SendTyped sends a typed line with its images; an error refuses it.
	SendTyped(text string, images [][]byte) (string, error)
	Stop()
	Reconnect()
	// Reset starts a new conversation (the session's part).
	Reset()
	// AnswerPrompt answers screen permission prompt id.
	AnswerPrompt(id uint64, c permission.Choice) error
	// CaptureEachTurn reports whether a screenshot goes with each turn
	// (the pill shows it).
	CaptureEachTurn() bool
	// Voiced reports whether her voice is heard now.
	Voiced() bool
}

// MaxAttachments is the most images one typed turn carries.
const MaxAttachments = 6

// Routes registers what a pet page (or her message page) asks of her: a
// typed line, stop, reconnect, New conversation, a prompt's answer, a
// notice dismissed (on pages). find is the View of a running character
// (nil: none).
func Routes(t *route.Table, lg *slog.Logger, pages Pages, find func(preset string) *View) {
	t.Add(decoded(lg, find, (*View).SendText), view.TypeSendText)
	t.Add(decoded(lg, find, (*View).AnswerPrompt), view.TypePermissionAnswer)
	t.Add(func(peer view.Peer, m view.Message) {
		v := find(peer.Preset)
		if v == nil {
			lg.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		lg.Info("view_action", "type", m.Type, "preset", v.id)
		switch m.Type {
		case view.TypeStop:
			v.cfg.Character.Stop()
		case view.TypeReconnect:
			v.cfg.Character.Reconnect()
		case view.TypeReset:
			v.Reset()
		}
	}, view.TypeStop, view.TypeReconnect, view.TypeReset)
	t.Add(func(p view.Peer, m view.Message) {
		var d view.Dismiss
		if json.Unmarshal(m.Body, &d) == nil && d.ID != "" {
			pages.Publish(p.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: d.ID}))
		}
	}, view.TypeDismiss)
}

// decoded decodes a message into a T for fn on the sender's View; one that
// does not decode, or from a preset with no running character, is logged
// and dropped.
func decoded[T any](lg *slog.Logger, find func(string) *View, fn func(*View, T)) route.Handler {
	return route.JSON(lg, func(peer view.Peer, x T) {
		v := find(peer.Preset)
		if v == nil {
			lg.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		fn(v, x)
	})
}

// SendText hands a typed line (and its attached images) to her session.
// An image the session refuses is reported in the composer's error line
// and the text is not sent, so nothing the user meant to send goes out
// without it.
func (v *View) SendText(st view.SendText) {
	if v.cfg.OnTyped != nil {
		v.cfg.OnTyped()
	}
	text := strings.TrimSpace(st.Text)
	if text == "" && len(st.Images) == 0 {
		return
	}
	v.cfg.Logger.Info("view_action", "type", view.TypeSendText, "preset", v.id, "chars", utf8.RuneCountInString(text), "images", len(st.Images))
	if len(st.Images) > MaxAttachments {
		v.composerError(fmt.Sprintf("At most %d images can go with one message.", MaxAttachments))
		return
	}
	images := make([][]byte, len(st.Images))
	for i, u := range st.Images {
		_, data, err := dataurl.Decode(u) // the type is not trusted: the session sniffs the bytes
		if err != nil {
			v.composerError(fmt.Sprintf("Image %d could not be attached: %v.", i+1, err))
			return
		}
		images[i] = data
	}
	// All or nothing: a refused image refuses the message, and the page
	// keeps the text and images for the user to fix.
	if _, err := v.cfg.Character.SendTyped(text, images); err != nil {
		v.composerError("The message was not sent: " + strings.TrimPrefix(err.Error(), "session: ") + ".")
	}
}

func (v *View) composerError(text string) {
	v.publish(view.TypeErrorLine, view.ErrorLine{Text: text, Where: "composer"})
}

// AnswerPrompt passes the prompt's answer to her gate; an unknown answer
// is logged and dropped. The prompt goes either way: an answer to a
// stale prompt has nothing left to show, and a failed save of "Always" is
// told as a notice.
func (v *View) AnswerPrompt(a view.PermissionAnswer) {
	choice, ok := permission.ParseChoice(a.Answer)
	if !ok {
		v.cfg.Logger.Warn("view_malformed", "type", view.TypePermissionAnswer, "answer", a.Answer)
		return
	}
	err := v.cfg.Character.AnswerPrompt(a.ID, choice)
	v.ClosePrompt()
	if err != nil {
		v.cfg.Logger.Warn("permission_answer_refused", "preset", v.id, "err", err.Error())
		if choice == permission.Always {
			v.publish(view.TypeNotice, view.NoticeOf("permission_save", phrase.New("core.notice.permission_save", "error", err.Error())))
		}
	}
}

// Reset is New conversation, from the pet menu, the settings window or
// the message window: the session stops and resets, and the transcript is
// emptied (what is shown and what a request transport sends).
func (v *View) Reset() {
	v.cfg.Character.Reset()
	v.ClearTranscript()
}
