package threadserver

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The HTTP routes under /api: auth, agents, tickets, threads and their messages.

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers an error as the behaviour's runtime does.
func writeError(w http.ResponseWriter, b Behaviour, status int, code, msg string) {
	if b.Refusal == RefuseObject {
		writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
		return
	}
	writeJSON(w, status, map[string]string{"error": msg})
}

func (s *Server) keyOK(r *http.Request) bool {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key == "" {
		return true
	}
	got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return subtle.ConstantTimeCompare([]byte(got), []byte(key)) == 1
}

// authed answers 401 unless the request carries the key.
func (s *Server) authed(w http.ResponseWriter, r *http.Request) bool {
	if s.keyOK(r) {
		return true
	}
	writeError(w, s.cfg.Behaviour, http.StatusUnauthorized, "unauthorized", "Unauthorized")
	return false
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.keyChecks++
	s.notifyLocked()
	s.mu.Unlock()
	if !s.authed(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": 1, "username": "yui", "role": "admin"}, "authType": "api_key"})
}

func (s *Server) agents(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": s.cfg.Agents})
}

// pathnamePattern is a normalized path beneath /api/.
var pathnamePattern = regexp.MustCompile(`^/api(/[^/?#]+)+$`)

// ticketPath reports whether pathname may get a ticket (thread-stream.txt,
// "Connecting").
func ticketPath(p string) bool {
	if !pathnamePattern.MatchString(p) {
		return false
	}
	low := strings.ToLower(p)
	for _, bad := range []string{"%2e", "%2f", "%5c"} {
		if strings.Contains(low, bad) {
			return false
		}
	}
	for _, seg := range strings.Split(p, "/")[1:] {
		if seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

func (s *Server) ticket(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	var body struct {
		Pathname string `json:"pathname"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&body) != nil || !ticketPath(body.Pathname) {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "pathname must be a normalized /api/* path.")
		return
	}
	b := make([]byte, 32)
	rand.Read(b)
	tk := hex.EncodeToString(b)
	s.mu.Lock()
	now := s.cfg.Now()
	for k, v := range s.tickets {
		if now.After(v.expires) {
			delete(s.tickets, k)
		}
	}
	if len(s.tickets) < 4096 {
		s.tickets[tk] = ticket{path: body.Pathname, expires: now.Add(30 * time.Second)}
	}
	s.mu.Unlock()
	s.mu.Lock()
	for _, th := range s.threads {
		if body.Pathname == "/api/threads/"+th.id+"/stream" {
			th.stats.Tickets++
			s.notifyLocked()
		}
	}
	s.mu.Unlock()
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"ticket": tk, "expires_in": 30})
}

func (s *Server) agentKnown(id string) bool {
	for _, a := range s.cfg.Agents {
		if a.ID == id {
			return true
		}
	}
	return false
}

func (s *Server) createThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	var body struct {
		AgentID string `json:"agent_id"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&body)
	switch {
	case body.AgentID == "":
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "agent_id is required")
		return
	case !s.agentKnown(body.AgentID):
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Agent not found: "+body.AgentID)
		return
	}
	s.mu.Lock()
	th := s.newThreadLocked(body.AgentID)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"threadId": th.id, "agent_id": body.AgentID})
}

// live is the thread of the request's {id}, or a 404 answered.
func (s *Server) live(w http.ResponseWriter, r *http.Request) *thread {
	id := r.PathValue("id")
	s.mu.Lock()
	th := s.threads[id]
	s.mu.Unlock()
	if th == nil || th.deleted {
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found: "+id)
		return nil
	}
	return th
}

func (s *Server) getThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"thread": map[string]any{"id": th.id, "agent_id": th.agent, "terminated": nil,
		"created_at": th.created.Unix()}, "agent": map[string]any{"id": th.agent}, "stats": map[string]any{}})
}

func (s *Server) deleteThread(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	if !s.Delete(r.PathValue("id")) {
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	s.mu.Lock()
	th.stats.Reads++
	var list []map[string]any
	for _, m := range th.msgs {
		list = append(list, m.full())
	}
	total := len(list)
	if len(list) > limit {
		list = list[len(list)-limit:]
	}
	if list == nil {
		list = []map[string]any{}
	}
	s.notifyLocked()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"messages": list, "total": total, "hasMore": total > len(list)})
}

// maxPost bounds a posted message.
const maxPost = 32 << 20

func (s *Server) send(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	var body struct {
		Role        string           `json:"role"`
		Content     string           `json:"content"`
		Attachments []map[string]any `json:"attachments"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxPost)).Decode(&body); err != nil {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "unreadable body")
		return
	}
	if strings.TrimSpace(body.Content) == "" && len(body.Attachments) == 0 {
		writeError(w, s.cfg.Behaviour, http.StatusBadRequest, "bad_request", "Message content or attachments required")
		return
	}
	if body.Role == "" {
		body.Role = "user"
	}
	s.mu.Lock()
	if th.deleted {
		s.mu.Unlock()
		writeError(w, s.cfg.Behaviour, http.StatusNotFound, "not_found", "Thread not found: "+th.id)
		return
	}
	th.stats.Posts++
	m := s.newMsgLocked(th, body.Role, &body.Content)
	m.posted = body.Attachments
	for _, a := range body.Attachments {
		ref := map[string]any{"id": newID(), "type": "file", "name": a["name"], "mimeType": a["mimeType"]}
		if d, ok := a["data"].(string); ok {
			ref["size"] = len(d) / 4 * 3
		}
		m.Attachments = append(m.Attachments, ref)
	}
	pending := "pending"
	m.Status = &pending
	m.Metadata = map[string]any{"queued": true, "queue_status": "queued"}
	// The pending record goes out before the answer, as the runtime's
	// does.
	if s.cfg.Behaviour.FullRecords {
		s.broadcastLocked(th, messageFrame(m, m.full()))
	} else {
		s.broadcastLocked(th, messageFrame(m, map[string]any{"id": m.ID, "role": m.Role, "content": m.Content,
			"attachments": m.attachments(), "created_at": m.CreatedAt, "status": "pending", "depth": 0, "silent": false,
			"metadata": m.Metadata}))
	}
	th.queue = append(th.queue, queued{user: m})
	s.mu.Unlock()
	writeJSON(w, http.StatusAccepted, map[string]any{"status": "queued", "messageId": m.ID,
		"message": "Message queued for processing. Connect via WebSocket for real-time updates."})
	s.mu.Lock()
	s.kickLocked(th)
	s.notifyLocked()
	s.mu.Unlock()
}

func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	if !s.authed(w, r) {
		return
	}
	th := s.live(w, r)
	if th == nil {
		return
	}
	s.mu.Lock()
	th.stats.Stops++
	s.stopLocked(th)
	s.notifyLocked()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"status": "stopped", "message": "Thread execution stopped"})
}
