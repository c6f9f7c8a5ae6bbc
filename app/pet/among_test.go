package pet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/browse"
	"yui/app/pet"
	"yui/app/relation"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/talk"
	"yui/transport/responses/inputrules"
)

type oneCast struct{}

func (oneCast) Character(name string) (string, bool) {
	if strings.EqualFold(name, "Mika") {
		return "p-0000000b", true
	}
	return "", false
}
func (oneCast) Name(string) string { return "Mika" }

type addressed struct {
	mu  sync.Mutex
	got []string
}

func (a *addressed) Address(from, character, text string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !strings.EqualFold(character, "Mika") {
		return talk.ErrUnknown
	}
	a.got = append(a.got, from+" → "+character+": "+text)
	return nil
}

// The calls the model makes in its first reply, and what the client
// must answer each.
var amongCalls = []struct{ name, args, want string }{
	{"rate_relation", `{"target":"user","delta":4,"reason":"kind words"}`, "ok: user 4 (neutral)"},
	{"address_character", `{"character":"Mika","text":"Shall we wave?"}`, "ok"},
	{"address_character", `{"character":"Nobody","text":"hi"}`, "error: invalid field character"},
	{"browser", `{"action":"read","url":"http://news.example/today"}`, "Tide library opens\n\nThe harbour town opened a library powered by the tide under its pier, the first in the region. Children watch the turbines through a window in the floor."},
	{"browser", `{"action":"read","url":"http://127.0.0.1/admin"}`, "error: blocked"},
}

// TestAmongToolsRoundTripOnTheRequestWires: over Chat Completions and
// Responses (each server as strict as its real one), every character
// declares rate_relation, address_character and browser in tools[], the
// model's calls of them run, and the next request carries the same
// answers push's tool_result would.
func TestAmongToolsRoundTripOnTheRequestWires(t *testing.T) {
	pageSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Tide library opens</title></head><body><nav>Home · Sport</nav><article><h1>Tide library opens</h1>`+
			`<p>The harbour town opened a library powered by the tide under its pier, the first in the region. Children watch the turbines through a window in the floor.</p></article></body></html>`)
	}))
	defer pageSrv.Close()
	for _, chatAPI := range []string{pet.ChatCompletions, pet.Responses} {
		t.Run(chatAPI, func(t *testing.T) { amongRoundTrip(t, chatAPI, pageSrv) })
	}
}

// scriptedAPI is a Chat Completions or Responses server (Responses as
// strict about the input as OpenAI's) that calls the three tools in its
// first reply and says "Done." in the next; bodies are the requests so far.
func scriptedAPI(t *testing.T, chatAPI string) (*httptest.Server, func() []map[string]any) {
	var mu sync.Mutex
	var bodies []map[string]any
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var b map[string]any
		json.Unmarshal(raw, &b)
		mu.Lock()
		n := len(bodies)
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if chatAPI == pet.ChatCompletions {
			ccReply(w, n)
		} else {
			respReply(w, n)
		}
	})
	if chatAPI == pet.Responses {
		// As strict about the input as OpenAI's server.
		h = inputrules.Handler(inputrules.OpenAI, h)
	}
	api := httptest.NewServer(h)
	t.Cleanup(api.Close)
	return api, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(bodies)
	}
}

func amongRoundTrip(t *testing.T, chatAPI string, pageSrv *httptest.Server) {
	api, bodies := scriptedAPI(t, chatAPI)
	ended, ready := make(chan string, 8), make(chan struct{}, 8)
	var pills []string
	var pmu sync.Mutex
	store, _ := relation.Open(relation.Config{})
	to := &addressed{}
	p := settings.Preset{ID: "p-0000000a", Name: "Yui", ChatAPI: chatAPI, ChatBaseURL: api.URL + "/v1", Key: "sk-t", Model: "m", ChatID: "yui-0000000a"}
	ch, err := pet.New(pet.Config{Preset: p, ConfigDir: t.TempDir(),
		Among: pet.Among{Relations: store, Cast: oneCast{}, Talk: to, Fetch: browse.FetchConfig{
			Resolver: fixedDNS{"news.example": "93.184.216.34"},
			Proxy:    func(*http.Request) (*url.URL, error) { return nil, nil },
			Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, pageSrv.Listener.Addr().String())
			},
		}},
		OnEvent: func(e session.Event) {
			switch e := e.(type) {
			case session.TurnEnd:
				ended <- e.TurnID
			case session.Socket:
				if e.State == "ready" {
					ready <- struct{}{}
				}
			case session.Pill:
				if e.Tool != nil {
					pmu.Lock()
					pills = append(pills, e.Tool.ToolID+" "+e.Tool.State)
					pmu.Unlock()
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Session.Close()
	ch.Session.Start()
	select {
	case <-ready:
	case <-time.After(hangLimit):
		t.Fatal("not ready")
	}
	ch.Session.SendText("say hi to Mika and read the news")
	select {
	case <-ended:
	case <-time.After(hangLimit):
		t.Fatal("no turn_end")
	}
	if len(bodies()) != 2 {
		t.Fatalf("%d requests", len(bodies()))
	}
	names := toolNames(bodies()[0], chatAPI)
	for _, want := range []string{"rate_relation", "address_character", "browser"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools[] lacks %s: %v", want, names)
		}
	}
	got := toolOutputs(bodies()[1], chatAPI)
	if len(got) != len(amongCalls) {
		t.Fatalf("outputs %q", got)
	}
	for i, c := range amongCalls {
		if got[i] != c.want {
			t.Errorf("%s %s answered %q, want %q", c.name, c.args, got[i], c.want)
		}
	}
	if st := store.Get("p-0000000a", relation.User); st.Value != 4 || st.Reason != "kind words" {
		t.Errorf("standing %+v", st)
	}
	if len(to.got) != 1 || to.got[0] != "p-0000000a → Mika: Shall we wave?" {
		t.Errorf("addressed %v", to.got)
	}
	pmu.Lock()
	defer pmu.Unlock()
	for _, want := range []string{"browser running", "browser done", "browser failed"} {
		if !slices.Contains(pills, want) {
			t.Errorf("the pill never showed %q: %v", want, pills)
		}
	}
}

type fixedDNS map[string]string

func (d fixedDNS) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if a, ok := d[host]; ok {
		return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

func sseLines(w http.ResponseWriter, data ...string) {
	for _, d := range data {
		fmt.Fprintf(w, "data: %s\n\n", d)
	}
}

func ccReply(w http.ResponseWriter, n int) {
	if n > 0 {
		sseLines(w, `{"choices":[{"index":0,"delta":{"content":"Done."}}]}`, `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, "[DONE]")
		return
	}
	var calls []string
	for i, c := range amongCalls {
		a, _ := json.Marshal(c.args)
		calls = append(calls, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}]}}]}`, i, i, c.name, a))
	}
	sseLines(w, append(calls, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]")...)
}

func respEv(typ, fields string) string { return `{"type":"` + typ + `",` + fields + `}` }

func respReply(w http.ResponseWriter, n int) {
	if n > 0 {
		sseLines(w, respEv("response.created", `"response":{"id":"resp_2"}`),
			respEv("response.output_text.delta", `"delta":"Done."`),
			respEv("response.completed", `"response":{"id":"resp_2","output":[]}`))
		return
	}
	out := []string{respEv("response.created", `"response":{"id":"resp_1"}`)}
	for i, c := range amongCalls {
		a, _ := json.Marshal(c.args)
		item := fmt.Sprintf(`"output_index":%d,"item":{"type":"function_call","id":"fc%d","call_id":"call_%d","name":%q,"arguments":%s}`, i, i, i, c.name, a)
		out = append(out, respEv("response.output_item.added", item), respEv("response.output_item.done", item))
	}
	sseLines(w, append(out, respEv("response.completed", `"response":{"id":"resp_1","output":[]}`))...)
}

func toolNames(b map[string]any, chatAPI string) []string {
	var out []string
	tools, _ := b["tools"].([]any)
	for _, tl := range tools {
		m := tl.(map[string]any)
		if chatAPI == pet.ChatCompletions {
			m = m["function"].(map[string]any)
		}
		out = append(out, m["name"].(string))
	}
	return out
}

func toolOutputs(b map[string]any, chatAPI string) []string {
	var out []string
	if chatAPI == pet.ChatCompletions {
		for _, m := range b["messages"].([]any) {
			if mm := m.(map[string]any); mm["role"] == "tool" {
				out = append(out, mm["content"].(string))
			}
		}
		return out
	}
	for _, it := range b["input"].([]any) {
		if m := it.(map[string]any); m["type"] == "function_call_output" {
			out = append(out, m["output"].(string))
		}
	}
	return out
}
