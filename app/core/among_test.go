package core

import (
	"bytes"
	"context"
	"log/slog"
	"maps"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/relation"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/view"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// twoOnABackend is a loopback push backend with two characters on it,
// Yui and Mika, each on her own socket.
type twoOnABackend struct {
	srv       *pushserver.Server
	hellos    chan push.Hello
	turns     map[string]chan push.Turn // chat id → its turns
	yui, mika settings.Preset
	st        *started
	dir       string
}

func newTwo(t *testing.T, manners settings.Talk) *twoOnABackend {
	t.Helper()
	b := &twoOnABackend{hellos: make(chan push.Hello, 8), turns: map[string]chan push.Turn{}, dir: t.TempDir()}
	s, _, err := settings.Open(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	b.srv = pushserver.New(pushserver.Config{Key: boundsKey, Hooks: pushserver.Hooks{
		Connected: func(_ string, h push.Hello) { b.hellos <- h },
		Turn:      func(chatID string, tu push.Turn) { b.turns[chatID] <- tu },
	}})
	h := httptest.NewServer(b.srv)
	t.Cleanup(func() { b.srv.Close(); h.Close() })
	mika := settings.NewPreset("Mika")
	if err := s.Update(func(x *settings.Settings) {
		x.Presets[0].Name, x.Presets[0].ChatBaseURL, x.Presets[0].Key = "Yui", h.URL, boundsKey
		mika.ChatBaseURL, mika.Key = h.URL, boundsKey
		x.Presets = append(x.Presets, mika)
		x.Talk = manners
	}); err != nil {
		t.Fatal(err)
	}
	all := s.Get()
	b.yui, b.mika = all.Presets[0], all.Presets[1]
	b.turns[b.yui.ChatID] = make(chan push.Turn, 8)
	b.turns[b.mika.ChatID] = make(chan push.Turn, 8)
	var logBuf syncBuffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", logBuf.String())
		}
	})
	b.st = startCore(t, Options{ConfigDir: b.dir, Logger: slog.New(slog.NewJSONHandler(&logBuf, nil))})
	for range 2 {
		select {
		case hello := <-b.hellos:
			var names []string
			for _, tl := range hello.Tools {
				names = append(names, tl.Function.Name)
			}
			for _, want := range []string{"rate_relation", "address_character", "browser"} {
				if !slices.Contains(names, want) {
					t.Fatalf("%s's hello declares %v, without %s", hello.ChatID, names, want)
				}
			}
		case <-time.After(hangLimit):
			t.Fatal("the two characters did not connect")
		}
	}
	// Both sockets are ready on the client's side (a turn for a socket
	// not ready yet is not sent).
	waitFor(t, "both sockets ready", func() bool {
		l := logBuf.String()
		return strings.Contains(l, `"msg":"ws_ready","preset":"`+b.yui.ID+`"`) && strings.Contains(l, `"msg":"ws_ready","preset":"`+b.mika.ID+`"`)
	})
	return b
}

func (b *twoOnABackend) call(t *testing.T, chatID, turnID, tool string, args map[string]any) string {
	t.Helper()
	res, _, err := b.srv.CallTool(context.Background(), chatID, turnID, tool, args)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (b *twoOnABackend) turn(t *testing.T, chatID string) push.Turn {
	t.Helper()
	select {
	case tu := <-b.turns[chatID]:
		return tu
	case <-time.After(hangLimit):
		t.Fatalf("no turn on %s", chatID)
	}
	return push.Turn{}
}

// reply speaks a line on the turn and ends it.
func (b *twoOnABackend) reply(t *testing.T, chatID, turnID, line string) {
	t.Helper()
	if err := b.srv.SendRender(chatID, push.Render{TurnID: turnID, Segments: []push.Segment{{Speech: line}}}); err != nil {
		t.Fatal(err)
	}
	if err := b.srv.SendTurnEnd(chatID, turnID, nil); err != nil {
		t.Fatal(err)
	}
}

// TestTwoCharactersTalkUntilTheCap: the backend on Yui's socket calls
// address_character; Mika's socket gets a turn whose client_context says
// `trigger: character Yui`; she replies and calls back; they go on until
// the chain's cap, and the hop past it is answered busy. The message
// windows' transcripts show both sides.
func TestTwoCharactersTalkUntilTheCap(t *testing.T) {
	b := newTwo(t, settings.Talk{MaxHops: 3})
	if got := b.call(t, b.yui.ChatID, "b-1", "address_character", map[string]any{"character": "mika", "text": "Mika, look at the rain!"}); got != "ok" {
		t.Fatalf("Yui → Mika: %q", got)
	}
	tu := b.turn(t, b.mika.ChatID)
	if !strings.Contains(tu.ClientContext, "\ntrigger: character Yui\n") || tu.Text != "Mika, look at the rain!" {
		t.Fatalf("Mika's turn: %q %q", tu.ClientContext, tu.Text)
	}
	b.reply(t, b.mika.ChatID, tu.TurnID, "It is lovely.")
	if got := b.call(t, b.mika.ChatID, tu.TurnID, "address_character", map[string]any{"character": "Yui", "text": "Shall we count the drops?"}); got != "ok" {
		t.Fatalf("Mika → Yui: %q", got)
	}
	tu = b.turn(t, b.yui.ChatID)
	if !strings.Contains(tu.ClientContext, "\ntrigger: character Mika\n") || tu.Text != "Shall we count the drops?" {
		t.Fatalf("Yui's turn: %q %q", tu.ClientContext, tu.Text)
	}
	if got := b.call(t, b.yui.ChatID, tu.TurnID, "address_character", map[string]any{"character": "Mika", "text": "One, two…"}); got != "ok" {
		t.Fatalf("the third hop: %q", got)
	}
	tu = b.turn(t, b.mika.ChatID)
	// The cap (3) is reached: the next hop is busy, either way round.
	if got := b.call(t, b.mika.ChatID, tu.TurnID, "address_character", map[string]any{"character": "Yui", "text": "three!"}); got != "error: busy" {
		t.Fatalf("past the cap: %q", got)
	}
	if got := b.call(t, b.yui.ChatID, "b-2", "address_character", map[string]any{"character": "Mika", "text": "four?"}); got != "error: busy" {
		t.Fatalf("past the cap, from Yui: %q", got)
	}
	for _, args := range []map[string]any{{"character": "Yui", "text": "me"}, {"character": "Nobody", "text": "hi"}} {
		if got := b.call(t, b.yui.ChatID, "b-3", "address_character", args); got != "error: invalid field character" {
			t.Fatalf("%v: %q", args, got)
		}
	}
	// Both message windows show who said what to whom.
	want := []string{"Yui → Mika: Mika, look at the rain!", "Mika → Yui: Shall we count the drops?", "Yui → Mika: One, two…"}
	for _, p := range []settings.Preset{b.yui, b.mika} {
		page := readPage(b.st.dial(t, view.RoleMessage, p.ID))
		page.wait(t, p.Name+"'s transcript", func(all []map[string]any, _ map[string]map[string]any) bool {
			rows := map[float64]string{}
			for _, m := range all {
				var es []any
				switch m["type"] {
				case view.TypeTranscript:
					es = m["entries"].([]any)
				case view.TypeTranscriptEntry:
					es = []any{m}
				}
				for _, e := range es {
					if e := e.(map[string]any); e["kind"] == transcript.KindCharacter {
						rows[e["id"].(float64)] = e["text"].(string)
					}
				}
			}
			// The addressed side's row comes from her session's turn, so
			// the two sides may interleave differently: compare as sets.
			got := slices.Sorted(maps.Values(rows))
			return slices.Equal(got, slices.Sorted(slices.Values(want)))
		})
	}
}

// Muting one character alone (her menu's Mute) ends the chain, as Mute
// all voices does: the next hop, either way round, is busy.
func TestMutingOneCharacterEndsTheChain(t *testing.T) {
	b := newTwo(t, settings.Talk{MaxHops: 5})
	if got := b.call(t, b.yui.ChatID, "b-1", "address_character", map[string]any{"character": "Mika", "text": "Hello!"}); got != "ok" {
		t.Fatalf("Yui → Mika: %q", got)
	}
	tu := b.turn(t, b.mika.ChatID)
	if err := b.st.c.Voices().SetCharacterMuted(b.mika.ID, true); err != nil {
		t.Fatal(err)
	}
	if got := b.call(t, b.mika.ChatID, tu.TurnID, "address_character", map[string]any{"character": "Yui", "text": "Hi!"}); got != "error: busy" {
		t.Fatalf("after muting Mika: %q", got)
	}
	if got := b.call(t, b.yui.ChatID, "b-2", "address_character", map[string]any{"character": "Mika", "text": "Mika?"}); got != "error: busy" {
		t.Fatalf("after muting Mika, from Yui: %q", got)
	}
}

// rate_relation over a real socket: the answer, and the standing saved
// beside the settings for the next start.
func TestRateRelationIsAnsweredAndSaved(t *testing.T) {
	b := newTwo(t, settings.Talk{})
	if got := b.call(t, b.yui.ChatID, "b-1", "rate_relation", map[string]any{"target": "user", "delta": 5, "reason": "brought tea"}); got != "ok: user 5 (neutral)" {
		t.Fatalf("rate the user: %q", got)
	}
	if got := b.call(t, b.yui.ChatID, "b-1", "rate_relation", map[string]any{"target": "Mika", "delta": -2}); got != "ok: Mika -2 (neutral)" {
		t.Fatalf("rate Mika: %q", got)
	}
	if got := b.call(t, b.yui.ChatID, "b-1", "rate_relation", map[string]any{"target": "Mika", "delta": 9}); got != "error: invalid field delta" {
		t.Fatalf("a delta of 9: %q", got)
	}
	if err := b.st.stop(); err != nil {
		t.Fatal(err)
	}
	s, err := relation.Open(relation.Config{Path: filepath.Join(b.dir, relation.FileName)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if st := s.Get(b.yui.ID, relation.User); st.Value != 5 || st.Reason != "brought tea" {
		t.Fatalf("saved %+v", st)
	}
	if st := s.Get(b.yui.ID, b.mika.ID); st.Value != -2 {
		t.Fatalf("saved %+v", st)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
