package demobackend_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/browse"
	"yui/app/relation"
	"yui/app/talk"
	"yui/transport/push"
)

type talkRec struct {
	mu   sync.Mutex
	got  []string
	busy bool
}

func (a *talkRec) Address(_, character, text string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.busy {
		return talk.ErrBusy
	}
	a.got = append(a.got, character+": "+text)
	return nil
}

// pageConn answers every dial with a canned HTML page (no network).
func pageConn(ctx context.Context, _, _ string) (net.Conn, error) {
	c, s := net.Pipe()
	go func() {
		defer s.Close()
		buf := make([]byte, 4096)
		s.Read(buf)
		body := `<html><head><title>Rain in the harbour</title></head><body><article><h1>Rain in the harbour</h1>` +
			`<p>It rained all day in the harbour. The boats stayed in and the gulls sulked on the roofs, as they always do when the sky turns grey.</p></article></body></html>`
		fmt.Fprintf(s, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	}()
	return c, nil
}

type oneName map[string]string

func (n oneName) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	if a, ok := n[host]; ok {
		return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
	}
	return nil, fmt.Errorf("no host %s", host)
}

func amongTools(t *testing.T, to *talkRec) []push.Tool {
	store, _ := relation.Open(relation.Config{})
	t.Cleanup(func() { store.Close() })
	return []push.Tool{
		&relation.Tool{Store: store, Self: "p-0000000a"},
		&talk.Tool{Self: "p-0000000a", To: to},
		browse.New(browse.Config{Fetcher: browse.NewFetcher(browse.FetchConfig{
			Resolver: oneName{"news.example": "93.184.216.34", "router.example": "192.168.1.1"},
			Dial:     pageConn,
			Proxy:    func(*http.Request) (*url.URL, error) { return nil, nil },
		})}),
	}
}

func said(lines []string) string {
	var out []string
	for _, l := range lines {
		if i := strings.Index(l, "\""); i >= 0 && strings.Contains(l, " speech ") {
			out = append(out, l[i:])
		}
	}
	return strings.Join(out, " ")
}

func TestDemoTalksRatesAndReads(t *testing.T) {
	to := &talkRec{}
	run(t, envOpt{tools: amongTools(t, to)}, func(e *env) {
		e.take()
		e.turn("100", "please say hi to Mika")
		e.after(10 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "I'll say hi to Mika") || !strings.Contains(s, "I told Mika") {
			e.t.Fatalf("talk: %s", s)
		}
		if len(to.got) != 1 || !strings.HasPrefix(to.got[0], "Mika: Hello Mika!") {
			e.t.Fatalf("addressed %v", to.got)
		}

		// Mika's answer arrives as a turn with her trigger: she answers
		// and addresses back, until the client says busy.
		e.turnWith("101", "Hello Yui!", "trigger: character Mika")
		e.after(10 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "Oh, hi Mika!") || len(to.got) != 2 || !strings.HasPrefix(to.got[1], "Mika: Nice to hear from you, Mika!") {
			e.t.Fatalf("answer: %s %v", s, to.got)
		}
		to.busy = true
		e.turnWith("102", "And again!", "trigger: character Mika")
		e.after(10 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "We've chatted enough for now") {
			e.t.Fatalf("at the cap: %s", s)
		}

		e.turn("103", "thanks, that was sweet")
		e.after(10 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "I like you a little more now: 2 (neutral).") {
			e.t.Fatalf("rate: %s", s)
		}

		e.turn("104", "read http://news.example/rain please")
		e.after(40 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "The page is called Rain in the harbour.") || !strings.Contains(s, "It starts: It rained all day in the harbour.") {
			e.t.Fatalf("read: %s", s)
		}
		e.turn("105", "read http://router.example/admin")
		e.after(40 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "on your own machine or network") {
			e.t.Fatalf("blocked: %s", s)
		}
	})
}

func TestDemoWithoutTheToolsSaysSo(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "talk to Mika")
		e.after(10 * time.Second)
		if s := said(e.take()); !strings.Contains(s, "a tool this window didn't lend me") {
			e.t.Fatalf("%s", s)
		}
	})
}
