package pet

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"yui/app/atomicfile"
	"yui/app/jpegfit"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/push"
	"yui/transport/responses"
	"yui/transport/threads"
)

// The chat_api values this build runs, in the order the settings window
// offers them.
const (
	Push            = "push"
	ChatCompletions = "chat_completions"
	Responses       = "responses"
	StandardAgents  = threads.Name
)

// Wires are the chat_api values this build can run.
var Wires = []string{Push, Responses, ChatCompletions, StandardAgents}

// LogWire is the name the chat_api's wire logs its turns under
// (session.Options.Wire): push.speech, chat_completions.speech,
// responses.speech, threads.speech. A chat_api this build cannot run
// gets the push transport, and push's names.
func LogWire(chatAPI string) string {
	switch chatAPI {
	case ChatCompletions, Responses:
		return chatAPI
	case StandardAgents:
		return "threads"
	}
	return Push
}

// IsRequestWire reports a chat_api whose connection is one request per
// turn (an OpenAI-style API with GET {base}/models).
func IsRequestWire(chatAPI string) bool { return chatAPI == ChatCompletions || chatAPI == Responses }

// ThreadStatus is what a Standard Agents character tells its owner about
// its thread: which one it follows, and whether it was deleted or its
// agent is unknown (nothing reconnects then; a new thread does).
type ThreadStatus struct {
	Thread       string
	Deleted      bool
	AgentUnknown bool
}

// newTransport builds the wire the preset's chat_api names. A chat_api
// this build cannot run gets a push transport that is never configured, so
// the pet says so rather than failing.
func newTransport(cfg Config, tools []transport.Tool, vocab transport.Vocabulary, lg *slog.Logger) (transport.Transport, error) {
	p := cfg.Preset
	if IsRequestWire(p.ChatAPI) {
		rc := chatcompletions.Config{
			Endpoint: cfg.Endpoint,
			Key:      cfg.Key,
			Params: func() chatcompletions.Params {
				q := cfg.Preset
				if cfg.PresetNow != nil {
					q = cfg.PresetNow()
				}
				return chatcompletions.Params{Model: q.Model, ReasoningEffort: q.ReasoningEffort, Card: q.Card, ContextWindow: q.ContextWindow}
			},
			Character:   p.Name,
			Tools:       tools,
			Vocabulary:  vocab,
			ImageFitter: jpegfit.URLFitter{},
			History:     cfg.History,
			Memory:      wireMemory(cfg.Memory),
			MoreTools:   mcpTools(cfg),
			Store:       conversationFile{path: filepath.Join(cfg.ConfigDir, "conversation-"+atomicfile.SafeName(p.ID)+"-"+p.ChatAPI+".json")},
			HTTPClient:  cfg.HTTPClient,
			Logger:      lg,
		}
		var (
			t   transport.Transport
			err error
		)
		if p.ChatAPI == ChatCompletions {
			t, err = chatcompletions.New(rc)
		} else {
			t, err = responses.New(rc)
		}
		if err != nil {
			return nil, fmt.Errorf("%s transport: %w", p.ChatAPI, err)
		}
		return t, nil
	}
	if p.ChatAPI == StandardAgents {
		agent := func() string {
			q := cfg.Preset
			if cfg.PresetNow != nil {
				q = cfg.PresetNow()
			}
			return q.AgentID
		}
		onStatus := cfg.OnThread
		t, err := threads.New(threads.Config{
			Endpoint:   cfg.Endpoint,
			Key:        cfg.Key,
			Agent:      agent,
			Thread:     p.ThreadID,
			SaveThread: cfg.SaveThread,
			OnStatus: func(st threads.Status) {
				if onStatus != nil {
					onStatus(ThreadStatus{Thread: st.Thread, Deleted: st.Problem == threads.ProblemDeleted, AgentUnknown: st.Problem == threads.ProblemAgent})
				}
			},
			HTTPClient: cfg.HTTPClient,
			Logger:     lg,
		})
		if err != nil {
			return nil, fmt.Errorf("%s transport: %w", p.ChatAPI, err)
		}
		return t, nil
	}
	endpoint := cfg.Endpoint
	if p.ChatAPI != Push {
		endpoint = func() string { return "" }
	}
	t, err := push.NewTransport(push.Config{
		Endpoint:    endpoint,
		Key:         cfg.Key,
		ChatID:      p.ChatID,
		Vocabulary:  vocab,
		Tools:       tools,
		ImageFitter: jpegfit.URLFitter{},
		Logger:      lg,
		HTTPClient:  cfg.HTTPClient,
	})
	if err != nil {
		return nil, fmt.Errorf("push transport: %w", err)
	}
	return t, nil
}

// maxConversationFile bounds what is read of a conversation file.
const maxConversationFile = 32 << 20

// conversationFile is a request transport's Store: one file per preset and
// wire in the config directory, written atomically, private to the user.
type conversationFile struct{ path string }

func (f conversationFile) Load() ([]byte, error) {
	fh, err := os.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pet: read %s: %w", f.path, err)
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxConversationFile+1))
	if err != nil {
		return nil, fmt.Errorf("pet: read %s: %w", f.path, err)
	}
	if len(b) > maxConversationFile {
		return nil, fmt.Errorf("pet: %s is over %d bytes", f.path, maxConversationFile)
	}
	return b, nil
}

func (f conversationFile) Save(b []byte) error {
	if err := atomicfile.Write(f.path, b, 0o600); err != nil {
		return fmt.Errorf("pet: write %s: %w", f.path, err)
	}
	return nil
}
