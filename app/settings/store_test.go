package settings

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestFirstRunCreatesDemoPreset(t *testing.T) {
	dir := t.TempDir()
	st, rep, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Created || rep.Problem != nil {
		t.Fatalf("report %+v, want Created", rep)
	}
	s := st.Get()
	if len(s.Presets) != 1 || s.Presets[0].Name != "Yui" || !s.Presets[0].Enabled {
		t.Fatalf("presets %+v", s.Presets)
	}
	p := s.Presets[0]
	if p.ChatBaseURL != DemoBaseURL || p.ChatAPI != "push" || s.ActivePreset != p.ID {
		t.Fatalf("first preset %+v", p)
	}
	if !regexp.MustCompile(`^yui-[0-9a-f]{8}$`).MatchString(p.ChatID) {
		t.Fatalf("chat_id %q", p.ChatID)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestChatIDGeneratedOnceAndKept(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := Open(dir)
	first := st.Get().Presets[0].ChatID
	st2, rep, err := Open(dir)
	if err != nil || rep.Created || rep.Problem != nil {
		t.Fatalf("reopen: %+v %v", rep, err)
	}
	if got := st2.Get().Presets[0].ChatID; got != first {
		t.Fatalf("chat_id changed across loads: %s -> %s", first, got)
	}
}

func TestNewChatIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewChatID()
		if seen[id] {
			t.Fatalf("repeated chat id %s", id)
		}
		seen[id] = true
	}
}

func TestBadFileKeptAsideAndNamed(t *testing.T) {
	cases := []struct {
		name      string
		mutate    func(m map[string]any)
		raw       string
		wantField string
	}{
		{name: "bad chat_api", mutate: func(m map[string]any) { preset0(m)["chat_api"] = "smoke" }, wantField: "presets[0].chat_api"},
		{name: "bad screen mode", mutate: func(m map[string]any) { preset0(m)["permissions"] = map[string]any{"screen": "sometimes"} }, wantField: "presets[0].permissions.screen"},
		{name: "bad chat_id", mutate: func(m map[string]any) { preset0(m)["chat_id"] = "abc" }, wantField: "presets[0].chat_id"},
		{name: "empty name", mutate: func(m map[string]any) { preset0(m)["name"] = "  " }, wantField: "presets[0].name"},
		{name: "bad url", mutate: func(m map[string]any) { preset0(m)["chat_base_url"] = "ftp://x" }, wantField: "presets[0].chat_base_url"},
		{name: "wrong type", mutate: func(m map[string]any) { preset0(m)["enabled"] = "yes" }, wantField: "presets.enabled"},
		{name: "active missing", mutate: func(m map[string]any) { m["active_preset"] = "p-00000000" }, wantField: "active_preset"},
		{name: "negative context", mutate: func(m map[string]any) { preset0(m)["context_window"] = -1 }, wantField: "presets[0].context_window"},
		{name: "thread id with a path", mutate: func(m map[string]any) { preset0(m)["thread_id"] = "a/../b" }, wantField: "presets[0].thread_id"},
		{name: "agent id on two lines", mutate: func(m map[string]any) { preset0(m)["agent_id"] = "a\nb" }, wantField: "presets[0].agent_id"},
		{name: "no presets", mutate: func(m map[string]any) { m["presets"] = []any{} }, wantField: "presets"},
		{name: "future version", mutate: func(m map[string]any) { m["version"] = 9 }, wantField: "version"},
		{name: "not json", raw: "{\"version\": 1,", wantField: "(file)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := []byte(tc.raw)
			if tc.mutate != nil {
				d := Defaults()
				b, _ := json.Marshal(d)
				var m map[string]any
				json.Unmarshal(b, &m)
				tc.mutate(m)
				data, _ = json.Marshal(m)
			}
			path := filepath.Join(dir, FileName)
			os.WriteFile(path, data, 0o600)
			st, rep, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			var fe *FieldError
			if !errors.As(rep.Problem, &fe) || fe.Field != tc.wantField {
				t.Fatalf("problem %v, want field %s", rep.Problem, tc.wantField)
			}
			kept, err := os.ReadFile(rep.KeptAs)
			if err != nil || string(kept) != string(data) {
				t.Fatalf("bad file not kept byte for byte at %s: %v", rep.KeptAs, err)
			}
			if rep.KeptAs != path+".bad" {
				t.Fatalf("kept as %s", rep.KeptAs)
			}
			if st.Get().Presets[0].Name != "Yui" {
				t.Fatal("defaults not in use")
			}
			if _, rep2, _ := Open(dir); rep2.Problem != nil {
				t.Fatalf("defaults written are not valid: %v", rep2.Problem)
			}
		})
	}
}

func TestSecondBadFileDoesNotOverwriteFirst(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte("first"), 0o600)
	Open(dir)
	os.WriteFile(path, []byte("second"), 0o600)
	_, rep, _ := Open(dir)
	if rep.KeptAs != path+".bad.1" {
		t.Fatalf("kept as %s", rep.KeptAs)
	}
	a, _ := os.ReadFile(path + ".bad")
	b, _ := os.ReadFile(path + ".bad.1")
	if string(a) != "first" || string(b) != "second" {
		t.Fatalf("kept files %q %q", a, b)
	}
}

func TestUpdateRefusesInvalidAndKeepsFile(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := Open(dir)
	before, _ := os.ReadFile(st.Path())
	err := st.Update(func(s *Settings) { s.Presets[0].ChatAPI = "carrier-pigeon" })
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "presets[0].chat_api" {
		t.Fatalf("err %v", err)
	}
	after, _ := os.ReadFile(st.Path())
	if string(before) != string(after) || st.Get().Presets[0].ChatAPI != "push" {
		t.Fatal("refused update changed something")
	}
}

func TestUpdateWritesAtomicallyWithMode(t *testing.T) {
	dir := t.TempDir()
	st, _, _ := Open(dir)
	if err := st.Update(func(s *Settings) { s.Presets[0].Window = &Position{X: 10, Y: 20} }); err != nil {
		t.Fatal(err)
	}
	st2, rep, _ := Open(dir)
	if rep.Problem != nil {
		t.Fatal(rep.Problem)
	}
	w := st2.Get().Presets[0].Window
	if w == nil || w.X != 10 || w.Y != 20 {
		t.Fatalf("window %+v", w)
	}
	fi, _ := os.Stat(st.Path())
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "tmp") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
}

func TestGetReturnsCopy(t *testing.T) {
	st, _, _ := Open(t.TempDir())
	st.Update(func(s *Settings) { s.Presets[0].Window = &Position{X: 1, Y: 2} })
	s := st.Get()
	s.Presets[0].Name = "changed"
	s.Presets[0].Window.X = 99
	if g := st.Get(); g.Presets[0].Name != "Yui" || g.Presets[0].Window.X != 1 {
		t.Fatal("Get leaked internal state")
	}
}

func TestDuplicateIDsRefused(t *testing.T) {
	s := Defaults()
	p := s.Presets[0]
	p.ChatID = NewChatID()
	s.Presets = append(s.Presets, p)
	var fe *FieldError
	if err := Validate(&s); !errors.As(err, &fe) || fe.Field != "presets[1].id" {
		t.Fatalf("err %v", err)
	}
	s.Presets[1].ID = "p-0badbeef"
	s.Presets[1].ChatID = s.Presets[0].ChatID
	if err := Validate(&s); !errors.As(err, &fe) || fe.Field != "presets[1].chat_id" {
		t.Fatalf("err %v", err)
	}
}

func preset0(m map[string]any) map[string]any {
	return m["presets"].([]any)[0].(map[string]any)
}
