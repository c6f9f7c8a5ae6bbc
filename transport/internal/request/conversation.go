package request

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"yui/transport"
)

// Store keeps a preset's conversation state for a request transport (the
// core's is a file in the config directory, written atomically). Load of
// nothing saved returns nil, nil.
type Store interface {
	Load() ([]byte, error)
	Save(data []byte) error
}

// Message is one transcript entry: role "user" or "assistant", or a
// "boundary" a reset left.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
}

// Bounds of the persisted conversation.
const (
	maxStoredMessages = 400
	maxMessageBytes   = 32 << 10
	// unknownWindowMessages is how many messages go with a request when
	// the preset states no context window.
	unknownWindowMessages = 40
)

type persisted struct {
	Messages []Message `json:"messages"`
	// ResponseID is the Responses API's last completed response.
	ResponseID string `json:"previous_response_id,omitempty"`
	// NoChain (files of earlier versions): the server refused
	// previous_response_id; which server was not kept.
	NoChain bool `json:"no_previous_response_id,omitempty"`
	// NoChainBases are the base URLs whose server refused
	// previous_response_id (the newest maxNoChainBases): the transcript
	// goes with each request to them instead.
	NoChainBases []string `json:"no_previous_response_id_bases,omitempty"`
}

// maxNoChainBases bounds the servers remembered as refusing
// previous_response_id.
const maxNoChainBases = 8

// Conversation is the client-held part of a conversation: the transcript
// (Chat Completions, and Responses against a server without chaining) and
// the stored response id. Safe for concurrent use.
type Conversation struct {
	mu    sync.Mutex
	store Store
	log   *slog.Logger
	st    persisted
	// hist, when set, holds the messages instead of st.Messages.
	hist transport.History
}

// OpenConversation reads what store holds; an unreadable state is logged
// and started afresh (the next save replaces it).
func OpenConversation(store Store, log *slog.Logger) *Conversation {
	c := &Conversation{store: store, log: log}
	if store == nil {
		return c
	}
	b, err := store.Load()
	if err != nil {
		log.Warn("conversation_load_failed", "err", err.Error())
		return c
	}
	if len(b) > 0 {
		if err := json.Unmarshal(b, &c.st); err != nil {
			log.Warn("conversation_unreadable", "err", err.Error())
			c.st = persisted{}
		}
	}
	return c
}

func (c *Conversation) saveLocked() {
	if c.store == nil {
		return
	}
	b, err := json.Marshal(c.st)
	if err == nil {
		err = c.store.Save(b)
	}
	if err != nil {
		c.log.Warn("conversation_save_failed", "err", fmt.Sprint(err))
	}
}

// Transcript returns the messages since the last boundary that fit the
// context window: the newest first kept, about four bytes a token, within
// three quarters of the window minus reserve tokens; without a window, the
// last 40 messages. It never starts on an assistant message.
func (c *Conversation) Transcript(contextWindow, reserve int) []Message {
	kept, _ := c.Window(contextWindow, reserve)
	return kept
}

// Window is Transcript and, before it, the messages since the last
// boundary that no longer fit (oldest first): what a Memory summarises.
func (c *Conversation) Window(contextWindow, reserve int) (kept, dropped []Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msgs := c.st.Messages
	if c.hist != nil {
		msgs = nil
		for _, m := range c.hist.Exchanges() {
			msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "boundary" {
			msgs = msgs[i+1:]
			break
		}
	}
	start := len(msgs)
	if contextWindow <= 0 {
		start = max(0, len(msgs)-unknownWindowMessages)
	} else {
		budget := contextWindow*3/4 - reserve
		for start > 0 {
			cost := tokens(msgs[start-1].Content) + 4
			if cost > budget {
				break
			}
			budget -= cost
			start--
		}
	}
	for start < len(msgs) && msgs[start].Role != "user" {
		start++
	}
	return slices.Clone(msgs[start:]), slices.Clone(msgs[:start])
}

// tokens is the engine's estimate of a text's tokens: four bytes each.
func tokens(s string) int { return (len(s) + 3) / 4 }

// Append records turn turnID's completed exchange and saves (in the
// History when there is one).
func (c *Conversation) Append(turnID, user, assistant string) {
	if c.hist != nil {
		c.hist.RecordExchange(turnID, cut(user), cut(assistant))
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.Messages = append(c.st.Messages, Message{Role: "user", Content: cut(user)}, Message{Role: "assistant", Content: cut(assistant)})
	if n := len(c.st.Messages); n > maxStoredMessages {
		c.st.Messages = append([]Message(nil), c.st.Messages[n-maxStoredMessages:]...)
	}
	c.saveLocked()
}

// Boundary starts a new conversation: later requests carry nothing before
// it, and the stored response id is cleared.
func (c *Conversation) Boundary() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.st.Messages); n > 0 && c.st.Messages[n-1].Role != "boundary" {
		c.st.Messages = append(c.st.Messages, Message{Role: "boundary"})
	}
	c.st.ResponseID = ""
	c.saveLocked()
}

// ResponseID is the stored previous_response_id ("" when none).
func (c *Conversation) ResponseID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st.ResponseID
}

// SetResponseID stores the last completed response id and saves.
func (c *Conversation) SetResponseID(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.ResponseID = id
	c.saveLocked()
}

// NoChain reports whether the server at base refused
// previous_response_id (remembered per base URL, persisted). A state saved
// by an earlier version, which kept no base, counts for the first base
// asked about: the server the preset was using.
func (c *Conversation) NoChain(base string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := normBase(base)
	if c.st.NoChain {
		c.st.NoChain = false
		c.addNoChainLocked(b)
		c.saveLocked()
	}
	return slices.Contains(c.st.NoChainBases, b)
}

// SetNoChain records that the server at base refused
// previous_response_id, and drops the stored response id.
func (c *Conversation) SetNoChain(base string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st.NoChain = false
	c.addNoChainLocked(normBase(base))
	c.st.ResponseID = ""
	c.saveLocked()
}

func (c *Conversation) addNoChainLocked(b string) {
	if slices.Contains(c.st.NoChainBases, b) {
		return
	}
	c.st.NoChainBases = append(c.st.NoChainBases, b)
	if n := len(c.st.NoChainBases); n > maxNoChainBases {
		c.st.NoChainBases = append([]string(nil), c.st.NoChainBases[n-maxNoChainBases:]...)
	}
}

// normBase is a base URL as the chain memory keys it.
func normBase(base string) string { return strings.TrimRight(strings.TrimSpace(base), "/") }

// cut bounds one stored message.
func cut(s string) string { return cutBytes(s, maxMessageBytes) }
