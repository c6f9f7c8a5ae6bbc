package chatcompletions_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
)

type (
	rec      = wiretest.Rec
	memStore = wiretest.MemStore
)

var (
	newRec    = wiretest.NewRec
	sse       = wiretest.SSE
	content   = wiretest.Content
	reasoning = wiretest.Reasoning
	finish    = wiretest.Finish
	lookTool  = wiretest.LookTool
	eqLines   = wiretest.EqLines
)

const usage = wiretest.Usage

type env struct {
	t   *testing.T
	srv *httptest.Server
	be  *wiretest.Backend
	tr  *request.Engine
	rec *rec
}

func newEnv(t *testing.T, reply func(n int, w http.ResponseWriter, r *http.Request), cfg chatcompletions.Config) *env {
	t.Helper()
	be := &wiretest.Backend{Reply: reply}
	srv := httptest.NewServer(be)
	t.Cleanup(srv.Close)
	if cfg.Endpoint == nil {
		cfg.Endpoint = func() string { return srv.URL + "/v1" }
	}
	if cfg.Key == nil {
		cfg.Key = func() string { return "sk-test" }
	}
	if cfg.Params == nil {
		cfg.Params = func() request.Params {
			return request.Params{Model: "m-1", ReasoningEffort: "low", Card: "You are Yui.", ContextWindow: 8192}
		}
	}
	cfg.Character = "Yui"
	cfg.Vocabulary = transport.Vocabulary{EmotionIDs: []string{"neutral", "happy"}, MotionIDs: []string{"dance"}}
	tr, err := chatcompletions.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRec()
	tr.Start(r.Handler())
	t.Cleanup(func() { tr.Close() })
	return &env{t: t, srv: srv, be: be, tr: tr, rec: r}
}

func (e *env) turn(id, text string, images ...string) {
	e.t.Helper()
	err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text, Images: images,
		ClientContext: "<client_context>\ntime: now\ntrigger: user message\n</client_context>"})
	if err != nil {
		e.t.Fatal(err)
	}
}
