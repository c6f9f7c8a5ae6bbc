package demobackend

import (
	"net/http"
	"strings"
	"time"

	"yui/transport/push"
	"yui/transport/threads/threadserver"
)

// The Standard Agents routes: a thread runtime (transport/threads/
// threadserver, the thread-stream.txt generation) under /api, with one
// agent, DemoAgent, that plays the push scripts: speech as message
// chunks, reasoning as reasoning chunks, a backend tool as tool telemetry,
// an error as a failed run. The key is the demo key (a Bearer token, or a
// ticket on the stream). Cues and the look tool have no place on this
// wire. One word is this route's own: "drop" drops the stream mid-reply
// and finishes the reply once the client is back (a reconnect to see).

// DemoAgent is the one agent the threads routes list.
const DemoAgent = "yui-demo"

// wordsDrop picks the reconnect scenario of the threads routes.
var wordsDrop = []string{"drop"}

// dropWait bounds how long the drop scenario waits for the client to
// come back before it finishes the reply anyway.
const dropWait = 60 * time.Second

func newThreadsServer(b *Backend) *threadserver.Server {
	return threadserver.New(threadserver.Config{
		Key:       b.cfg.Key,
		Agents:    []threadserver.AgentInfo{{ID: DemoAgent, Name: DemoAgent, Title: "Yui demo", Description: "The demo backend's scripts"}},
		Agent:     b.threadsAgent,
		Behaviour: threadserver.Spec(),
		Logger:    b.log,
	})
}

func (b *Backend) mountThreads(mux *http.ServeMux) {
	mux.Handle("/api/", b.threads)
}

// threadsAgent plays the script of a user message on a thread.
func (b *Backend) threadsAgent(r *threadserver.Reply) {
	text := r.Utterance()
	if hasAny(words(text), wordsDrop) {
		b.log.Info("demo.turn", "chat_id", r.Thread(), "api", "standard_agents", "scenario", "drop")
		r.Say("I'll say this in two parts. ", "The first part is here, and the second")
		if !r.DropAndAwait(dropWait) {
			b.log.Info("demo.drop_no_client", "thread", r.Thread())
		}
		r.Say(" part came after the reconnect. ", "Nothing was lost.")
		return
	}
	fq, end, ok := b.startRun("standard_agents", text, r.Text(), r.Images(), r.Prior()+1, push.Vocabulary{})
	if !ok {
		r.Fail("the demo backend is closing")
		return
	}
	defer end()
	say := func(segs []push.Segment) {
		for _, s := range segs {
			if t := strings.TrimSpace(s.Speech); t != "" {
				r.Say(t + " ")
			}
		}
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-fq.wake:
		}
		for _, f := range fq.take() {
			switch f := f.(type) {
			case push.Reasoning:
				r.Think(f.Delta)
			case push.Speech:
				say(f.Segments)
			case push.Render:
				say(f.Segments)
			case push.ToolStatus:
				if f.State != "running" {
					r.Tool(f.ToolID, f.State != "failed")
				}
			case push.ErrorFrame:
				r.Fail(f.Message)
				return
			case push.TurnEnd:
				return
			}
		}
	}
}
