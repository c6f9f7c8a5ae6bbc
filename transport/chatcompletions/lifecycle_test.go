package chatcompletions_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/pipenet"
	"yui/transport/internal/request"
)

// pipeEnv runs a transport against h over pipenet, inside a bubble.
func pipeEnv(t *testing.T, h http.HandlerFunc) (*request.Engine, *rec) {
	t.Helper()
	l, stop := pipenet.Serve(h)
	t.Cleanup(stop)
	tr, err := chatcompletions.New(chatcompletions.Config{
		Endpoint: func() string { return "http://backend.test/v1" }, HTTPClient: l.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := newRec()
	tr.Start(r.Handler())
	t.Cleanup(func() { tr.Close() })
	return tr, r
}

func TestIdleLimitBeforeTheFirstEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, r := pipeEnv(t, func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-req.Context().Done()
		})
		start := time.Now()
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
		time.Sleep(request.FirstEventWait - time.Second)
		synctest.Wait()
		if len(r.Got()) != 0 {
			t.Fatalf("ended early: %q", r.Got())
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		eqLines(t, r.Got(), []string{"wait true rendered=false", "end"})
		if d := time.Since(start); d < request.FirstEventWait {
			t.Fatalf("ended after %v", d)
		}
	})
}

func TestIdleLimitBetweenEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, r := pipeEnv(t, func(w http.ResponseWriter, req *http.Request) {
			sse(w, content("One sentence. And"))
			time.Sleep(30 * time.Second)
			sse(w, content(" more"))
			<-req.Context().Done()
		})
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
		time.Sleep(30*time.Second + request.BetweenEventsWait - time.Second)
		synctest.Wait()
		eqLines(t, r.Got(), []string{"say One sentence."})
		time.Sleep(2 * time.Second)
		synctest.Wait()
		eqLines(t, r.Got(), []string{"say One sentence.", "say And more", "wait true rendered=true", "end"})
	})
}

func TestStopAbortsAndTheNextTurnStartsClean(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var aborted atomic.Bool
		var n atomic.Int32
		var bodies []string
		tr, r := pipeEnv(t, func(w http.ResponseWriter, req *http.Request) {
			b, _ := io.ReadAll(req.Body)
			bodies = append(bodies, string(b))
			if n.Add(1) == 1 {
				sse(w, content("First sentence. Second"))
				<-req.Context().Done()
				aborted.Store(true)
				return
			}
			sse(w, content("Fresh."), finish("stop"), "[DONE]")
		})
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "one"})
		synctest.Wait()
		tr.Stop(context.Background(), []string{"1"})
		synctest.Wait()
		if !aborted.Load() {
			t.Fatal("the request was not aborted")
		}
		eqLines(t, r.Got(), []string{"say First sentence.", "end"})
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "2", Text: "two"})
		synctest.Wait()
		eqLines(t, r.Got()[2:], []string{"say Fresh.", "end"})
		if strings.Contains(bodies[1], "First sentence") || strings.Contains(bodies[1], `"one"`) {
			t.Fatalf("the stopped turn leaked into the next request: %s", bodies[1])
		}
	})
}

func TestForgetTurnEndsTheIdleReport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, r := pipeEnv(t, func(w http.ResponseWriter, req *http.Request) {
			sse(w, content("Hi. And"))
			<-req.Context().Done()
		})
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
		synctest.Wait()
		tr.ForgetTurn("1")
		time.Sleep(time.Hour)
		synctest.Wait()
		eqLines(t, r.Got(), []string{"say Hi."})
	})
}

func TestNotConfigured(t *testing.T) {
	tr, err := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return " " }})
	if err != nil {
		t.Fatal(err)
	}
	r := newRec()
	tr.Start(r.Handler())
	defer tr.Close()
	err = tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
	if !errors.Is(err, transport.ErrNotReady) || !errors.Is(err, transport.ErrNotConfigured) {
		t.Fatalf("err %v", err)
	}
	tr.Close()
	if st := r.States(); len(st) == 0 || !errors.Is(st[0].Err, transport.ErrNotConfigured) {
		t.Fatalf("states %+v", st)
	}
}

func TestUnreachableIsANetworkFailure(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	tr, _ := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return "http://" + addr + "/v1" }})
	r := newRec()
	tr.Start(r.Handler())
	defer tr.Close()
	tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
	r.WaitEnd(t, "1")
	eqLines(t, r.Got(), []string{"wait false rendered=false", "end"})
}

// The key goes only to the base URL: a redirect elsewhere is not followed.
func TestRedirectIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
	}))
	defer other.Close()
	e := newEnv(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}, chatcompletions.Config{})
	e.turn("1", "hi")
	e.rec.WaitEnd(t, "1")
	if elsewhere.Load() != 0 {
		t.Fatal("the redirect was followed")
	}
	if l := e.rec.Got()[0]; !strings.HasPrefix(l, "error HTTP 307") {
		t.Fatalf("got %q", e.rec.Got())
	}
}

// keepAliveCutter answers the first request of each connection with a
// complete streamed reply and keeps the connection; on the connection's
// second request it closes without answering (what llama.cpp's server was
// measured doing).
func keepAliveCutter(t *testing.T) (string, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func(c net.Conn) {
				defer c.Close()
				br := bufio.NewReader(c)
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				body := "data: " + content("Hi.") + "\n\ndata: " + finish("stop") + "\n\ndata: [DONE]\n\n"
				fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
				if req2, err := http.ReadRequest(br); err == nil {
					io.Copy(io.Discard, req2.Body) // read, then hang up unanswered
				}
			}(c)
		}
	}()
	return "http://" + ln.Addr().String() + "/v1", &conns
}

func TestIdempotencyKeyLetsADeadPooledConnectionRetry(t *testing.T) {
	base, conns := keepAliveCutter(t)
	tr, _ := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return base }})
	r := newRec()
	tr.Start(r.Handler())
	defer tr.Close()
	for i := range 5 {
		id := fmt.Sprint(i + 1)
		tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: "hi"})
		r.WaitEnd(t, id)
	}
	for _, l := range r.Got() {
		if strings.HasPrefix(l, "wait") || strings.HasPrefix(l, "error") {
			t.Fatalf("a request failed: %q", r.Got())
		}
	}
	if conns.Load() < 5 {
		t.Fatalf("%d connections: the server never cut one", conns.Load())
	}
}

// A base URL carrying a token in its query or user info: the network
// failure's log line shows the URL without them, and so does the model
// list's error (shown in the settings window).
func TestURLSecretsStayOutOfLogsAndErrors(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	base := "http://me:pw-SECRET@" + addr + "/v1?token=q-SECRET#f-SECRET"
	var logs strings.Builder
	var mu sync.Mutex
	lg := slog.New(slog.NewJSONHandler(writerFunc(func(b []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(b)
	}), nil))
	tr, _ := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return base }, Logger: lg})
	r := newRec()
	tr.Start(r.Handler())
	tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
	r.WaitEnd(t, "1")
	tr.Close()
	mu.Lock()
	got := logs.String()
	mu.Unlock()
	if !strings.Contains(got, "network_drop") || !strings.Contains(got, addr+"/v1/chat/completions") || strings.Contains(got, "SECRET") {
		t.Fatalf("log:\n%s", got)
	}
	_, err := chatcompletions.ListModels(context.Background(), nil, base, "")
	if err == nil || !strings.Contains(err.Error(), addr) || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("model list error %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
