package tts_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/tts"
	"yui/app/tts/ttstest"
)

// The test server wraps espeak-ng; each request's fields are checked as
// the server received them.
func TestEndpointRequests(t *testing.T) {
	srv := ttstest.Start(t, ttstest.Options{Key: "sk-test-123"})
	ctx := context.Background()
	wav := &tts.Endpoint{BaseURL: srv.URL, Key: "sk-test-123", Voice: "nova", Model: "tts-test"}
	p, err := wav.Synthesize(ctx, tts.Request{Text: "First sentence.", Tone: "joyfully", Caption: "Like telling a friend good news."})
	if err != nil {
		t.Fatal(err)
	}
	audible(t, p, 500*time.Millisecond)
	pcm := &tts.Endpoint{BaseURL: srv.URL + "/", Key: "sk-test-123", Format: tts.FormatPCM}
	q, err := pcm.Synthesize(ctx, tts.Request{Text: "Second sentence."})
	if err != nil {
		t.Fatal(err)
	}
	audible(t, q, 500*time.Millisecond)
	if q.Rate != 24000 || q.Channels != 1 {
		t.Fatalf("pcm format %+v, want 24 kHz mono", q.Format)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	r0, r1 := reqs[0], reqs[1]
	if r0.Path != "/v1/audio/speech" || r0.Auth != "Bearer sk-test-123" || r0.Voice != "nova" || r0.Model != "tts-test" ||
		r0.ResponseFormat != "wav" || r0.Input != "First sentence." ||
		r0.Instructions != "Tone: joyfully. Like telling a friend good news." {
		t.Errorf("first request carried %+v", r0)
	}
	if r1.Voice != tts.DefaultVoice || r1.Model != tts.DefaultModel || r1.ResponseFormat != "pcm" || r1.Instructions != "" {
		t.Errorf("second request carried %+v", r1)
	}
}

func TestEndpointErrors(t *testing.T) {
	srv := ttstest.Start(t, ttstest.Options{Key: "sk-right"})
	ctx := context.Background()
	_, err := (&tts.Endpoint{BaseURL: srv.URL, Key: "sk-wrong-secret"}).Synthesize(ctx, tts.Request{Text: "hi"})
	if tts.ShortText(err) != "voice: check the speech key" {
		t.Fatalf("wrong key: %v", err)
	}
	if strings.Contains(err.Error(), "sk-wrong-secret") {
		t.Fatalf("the key is in the error: %v", err)
	}
	srv.Fail(2, 500)
	_, err = (&tts.Endpoint{BaseURL: srv.URL, Key: "sk-right"}).Synthesize(ctx, tts.Request{Text: "hi"})
	if tts.ShortText(err) != "voice: speech endpoint error 500" || !strings.Contains(err.Error(), "injected failure 500") {
		t.Fatalf("500: %v", err)
	}
	_, err = (&tts.Endpoint{BaseURL: ""}).Synthesize(ctx, tts.Request{Text: "hi"})
	if tts.ShortText(err) != "voice: set the speech endpoint URL" {
		t.Fatalf("no URL: %v", err)
	}
	// Nothing listens there.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, err = (&tts.Endpoint{BaseURL: "http://" + addr + "/v1"}).Synthesize(ctx, tts.Request{Text: "hi"})
	if tts.ShortText(err) != "voice: can't reach the speech endpoint" {
		t.Fatalf("unreachable: %v", err)
	}
}

// The key goes only to the URL it was entered for: a redirect is not
// followed.
func TestEndpointFollowsNoRedirect(t *testing.T) {
	var leaked string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("Authorization")
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/audio/speech", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	_, err := (&tts.Endpoint{BaseURL: redirect.URL + "/v1", Key: "sk-secret"}).Synthesize(context.Background(), tts.Request{Text: "hi"})
	if err == nil || tts.ShortText(err) != "voice: the speech endpoint redirected" {
		t.Fatalf("err = %v", err)
	}
	if leaked != "" {
		t.Fatalf("the key reached another server: %q", leaked)
	}
}

func TestEndpointBoundAndCancel(t *testing.T) {
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(audio.EncodeWAVStreaming(audio.PCM{Format: audio.Format{Rate: 24000, Channels: 1}}, 0xFFFFFFFF, 0xFFFFFFFF))
		zero := make([]byte, 1<<16)
		for r.Context().Err() == nil {
			if _, err := w.Write(zero); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	_, err := (&tts.Endpoint{BaseURL: endless.URL, MaxBytes: 1 << 20}).Synthesize(context.Background(), tts.Request{Text: "hi"})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("endless answer: %v", err)
	}
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// With the body read to its end, the server notices the client
		// going away, which ends r's context.
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer hang.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := (&tts.Endpoint{BaseURL: hang.URL}).Synthesize(ctx, tts.Request{Text: "hi"})
		done <- err
	}()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}
