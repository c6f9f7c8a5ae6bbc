package push_test

import (
	"context"
	"errors"
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
