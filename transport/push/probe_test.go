package push_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"yui/transport/push"
	"yui/transport/pushserver"
)

func TestProbe(t *testing.T) {
	srv := pushserver.New(pushserver.Config{Key: "right"})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()
	if err := push.Probe(context.Background(), nil, hs.URL, "right", "yui-00000001"); err != nil {
		t.Fatalf("right key: %v", err)
	}
	if err := push.Probe(context.Background(), nil, hs.URL, "wrong", "yui-00000001"); !errors.Is(err, push.ErrUnauthorized) {
		t.Fatalf("wrong key: %v", err)
	}
	hs.Close()
	if err := push.Probe(context.Background(), nil, hs.URL, "right", "yui-00000001"); err == nil || errors.Is(err, push.ErrUnauthorized) {
		t.Fatalf("closed server: %v", err)
	}
}

// A handshake answered with a redirect is not followed: the hello, which
// carries the key, never reaches the server redirected to (it did with
// http.DefaultClient, the default before issue 23).
func TestAHandshakeRedirectIsNotFollowed(t *testing.T) {
	elsewhere := pushserver.New(pushserver.Config{Key: "right"})
	hellos := 0
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hellos++
		elsewhere.ServeHTTP(w, r)
	}))
	defer other.Close()
	defer elsewhere.Close()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer hs.Close()
	err := push.Probe(context.Background(), nil, hs.URL, "right", "yui-00000001")
	if err == nil || hellos != 0 {
		t.Fatalf("probe through a redirect: err %v, %d handshakes at the other server: the redirect was followed", err, hellos)
	}
}
