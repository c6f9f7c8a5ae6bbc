package console

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"yui/app/cue"
	"yui/app/session"
)

func TestParseLine(t *testing.T) {
	for _, c := range []struct {
		in        string
		name, arg string
		ok        bool
	}{
		{"hello", "", "hello", true},
		{"/stop", "stop", "", true},
		{"/spoken  what time is it ", "spoken", "what time is it", true},
		{"/attach /tmp/a.png", "attach", "/tmp/a.png", true},
		{"//slash", "", "/slash", true},
		{"/dance", "dance", "", false},
		{"/quit\r", "quit", "", true},
	} {
		got, ok := parseLine(c.in)
		if ok != c.ok || got.name != c.name || (ok && got.arg != c.arg) {
			t.Errorf("parseLine(%q) = %+v, %v", c.in, got, ok)
		}
	}
}

func TestJSONEventFields(t *testing.T) {
	at := time.UnixMilli(1789365854947)
	for _, c := range []struct {
		ev   session.Event
		want string
	}{
		{session.Event{Kind: session.KindSocket, At: at, State: "reconnecting", Code: 1001, DelayMS: 1000}, `{"code":1001,"delay_ms":1000,"event":"socket","state":"reconnecting","ts":1789365854947}`},
		{session.Event{Kind: session.KindSocket, At: at, State: "ready", Code: -1}, `{"code":null,"delay_ms":0,"event":"socket","state":"ready","ts":1789365854947}`},
		{session.Event{Kind: session.KindComposer, At: at, Locked: true}, `{"event":"composer","locked":true,"ts":1789365854947}`},
		{session.Event{Kind: session.KindCue, At: at, TurnID: "1", Cue: cue.Cue{EmotionID: "happy"}}, `{"emotion_id":"happy","event":"cue","ts":1789365854947,"turn_id":"1"}`},
		{session.Event{Kind: session.KindPill, At: at}, `{"event":"pill","tool":null,"ts":1789365854947}`},
		{session.Event{Kind: session.KindPill, At: at, Tool: &session.ToolPill{TurnID: "1", ToolID: "grep", State: "running"}}, `{"event":"pill","tool":{"turn_id":"1","tool_id":"grep","state":"running"},"ts":1789365854947}`},
		{session.Event{Kind: session.KindErrorLine, At: at, TurnID: "1", Text: "boom", Where: "pill"}, `{"event":"error_line","text":"boom","ts":1789365854947,"turn_id":"1","where":"pill"}`},
		{session.Event{Kind: session.KindUsage, At: at, TotalTokens: 1280, ContextWindow: 128000}, `{"context_window":128000,"event":"usage","total_tokens":1280,"ts":1789365854947}`},
		{session.Event{Kind: session.KindDelegations, At: at}, `{"event":"delegations","history":[],"items":[],"ts":1789365854947}`},
		{session.Event{Kind: session.KindToolCall, At: at, CallID: "c", TurnID: "1", Name: "look", Arguments: json.RawMessage(`{"at":"body"}`)}, `{"arguments":{"at":"body"},"event":"tool_call","id":"c","name":"look","ts":1789365854947,"turn_id":"1"}`},
		{session.Event{Kind: session.KindToolResult, At: at, CallID: "c", TurnID: "1", Result: "ok"}, `{"event":"tool_result","id":"c","result":"ok","ts":1789365854947,"turn_id":"1"}`},
		{session.Event{Kind: session.KindSpeechStart, At: at, TurnID: "1", Text: "Hi."}, `{"event":"speech_start","muted":false,"text":"Hi.","ts":1789365854947,"turn_id":"1"}`},
	} {
		b, err := json.Marshal(jsonEvent(c.ev))
		if err != nil || string(b) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.ev.Kind, b, c.want)
		}
	}
}

// A note is its own event, not an error line; a refused line is an error
// line in the composer.
func TestNotesAndRefusals(t *testing.T) {
	at := time.UnixMilli(1789365854947)
	var b bytes.Buffer
	p := &printer{w: &b, json: true, now: func() time.Time { return at }}
	p.note("thread t-1 (pass --thread t-1 to come back to it)")
	p.refuse("unknown command /nope")
	want := `{"event":"note","text":"thread t-1 (pass --thread t-1 to come back to it)","ts":1789365854947}` + "\n" +
		`{"event":"error_line","text":"unknown command /nope","ts":1789365854947,"turn_id":"","where":"composer"}` + "\n"
	if b.String() != want {
		t.Fatalf("json:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	p.json = false
	p.note("the thread t-1 was deleted; /reset makes a new one")
	p.refuse("unknown command /nope")
	if want := "-- the thread t-1 was deleted; /reset makes a new one\n! unknown command /nope\n"; b.String() != want {
		t.Fatalf("text %q, want %q", b.String(), want)
	}
}

func TestEveryKindHasTextOrIsQuiet(t *testing.T) {
	for _, k := range session.Kinds() {
		_ = textEvent(session.Event{Kind: k, Code: -1})
	}
	if s := textEvent(session.Event{Kind: session.KindSpeechStart, Text: "Hi."}); s != "yui> Hi." {
		t.Fatalf("text %q", s)
	}
}

func TestParseFlags(t *testing.T) {
	var stderr bytes.Buffer
	o, err := ParseFlags([]string{"--json", "--speech-rate", "0", "--url", "http://h:1", "--key", "k", "--preset", "Yui"}, &stderr)
	if err != nil || !o.JSON || o.SpeechRate != 0 || o.URL != "http://h:1" || o.Key != "k" || o.Preset != "Yui" {
		t.Fatalf("%+v %v", o, err)
	}
	if o, _ := ParseFlags(nil, &stderr); o.SpeechRate != 15 {
		t.Fatalf("default speech rate %v", o.SpeechRate)
	}
	for _, bad := range [][]string{{"--speech-rate", "-1"}, {"extra"}, {"--nope"}} {
		if _, err := ParseFlags(bad, &stderr); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if code := Main([]string{"--nope"}, strings.NewReader(""), &bytes.Buffer{}, &stderr); code != 2 {
		t.Fatalf("exit %d", code)
	}
}

func TestUnknownPresetIsAnError(t *testing.T) {
	var stderr bytes.Buffer
	code := Main([]string{"--config-dir", t.TempDir(), "--log-dir", t.TempDir(), "--preset", "nobody"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "nobody") {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
}

func TestLookToolValidation(t *testing.T) {
	for args, want := range map[string]string{
		`{}`: "missing field at", `{"at":"moon"}`: "invalid field at", `{"at":"body","monitor":"x"}`: "invalid field monitor",
		`{"at":"body","x":1}`: "invalid field x", `{"at":"screen","monitor":1}`: "",
	} {
		err := validateLook(json.RawMessage(args))
		if (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}
