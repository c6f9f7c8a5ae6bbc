package push

import "time"

// turnWatch is the frame wait of one turn sent on a socket.
type turnWatch struct {
	id       string
	sock     *socket
	timer    *time.Timer
	seq      uint64
	rendered bool
	sent     bool
	ended    bool // its turn_end came
}

// watchTurn starts the frame wait of a turn about to be written on s; nil
// when s is no longer the ready socket.
func (c *Client) watchTurn(s *socket, id string) *turnWatch {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur != s || s.killed || !s.ready {
		return nil
	}
	if old := c.turns[id]; old != nil {
		old.timer.Stop()
	}
	w := &turnWatch{id: id, sock: s}
	c.turns[id] = w
	c.armLocked(w)
	return w
}

func (c *Client) armLocked(w *turnWatch) {
	if w.timer != nil {
		w.timer.Stop()
	}
	w.seq++
	seq := w.seq
	w.timer = time.AfterFunc(TurnFrameWait, func() { c.turnWaitPassed(w, seq) })
}

// markTurnSent records that the turn frame is out. The write completed,
// so the turn is sent even when its socket ended meanwhile (a backend
// that closes the moment it reads the turn): the socket's end did not
// report the turn (endTurnsLocked reports only turns marked sent), so it
// is reported here, as the turn of a socket that left ready.
func (c *Client) markTurnSent(w *turnWatch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turns[w.id] == w {
		w.sent = true
		return
	}
	if w.sock.killed && !w.ended && !c.closed {
		// Not a turn_end (that sets ended): the socket ended mid-write.
		c.log.Warn(EventNetworkDrop, "stage", stageOf(w), "turn_id", w.id)
		c.emitTurnWaitLocked(TurnWaitEnded{TurnID: w.id, Rendered: w.rendered, Reason: SocketLeftReady})
	}
}

func (c *Client) unwatchTurn(w *turnWatch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turns[w.id] == w {
		w.timer.Stop()
		delete(c.turns, w.id)
	}
}

// ForgetTurn stops the frame wait of a turn without reporting it.
func (c *Client) ForgetTurn(turnID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w := c.turns[turnID]; w != nil {
		w.timer.Stop()
		delete(c.turns, turnID)
	}
}

// noteTurnFrameLocked restarts the frame wait of the frame's turn, records
// its first render, and ends the wait on turn_end.
func (c *Client) noteTurnFrameLocked(f Frame) {
	id := TurnIDOf(f)
	if id == "" {
		return
	}
	w := c.turns[id]
	if w == nil {
		return
	}
	switch f.(type) {
	case TurnEnd:
		w.timer.Stop()
		w.ended = true
		delete(c.turns, id)
		return
	case Render, Speech:
		w.rendered = true
	}
	c.armLocked(w)
}

func (c *Client) turnWaitPassed(w *turnWatch, seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.turns[w.id] != w || w.seq != seq {
		return
	}
	delete(c.turns, w.id)
	c.log.Warn(EventNetworkStall, "stage", stageOf(w), "turn_id", w.id)
	c.emitTurnWaitLocked(TurnWaitEnded{TurnID: w.id, Rendered: w.rendered, Reason: WaitPassed})
}

// endTurnsLocked ends every watched turn because their socket is gone.
// Turns whose frame was fully written are reported when the socket had been
// ready; the others are left to SendTurn's error. The reports go out after
// the state change that follows (setStateLocked), so a Handler learns the
// socket left ready before it learns which turns that ended.
func (c *Client) endTurnsLocked(wasReady bool) {
	for id, w := range c.turns {
		w.timer.Stop()
		delete(c.turns, id)
		if wasReady && w.sent {
			c.log.Warn(EventNetworkDrop, "stage", stageOf(w), "turn_id", id)
			c.leftReady = append(c.leftReady, TurnWaitEnded{TurnID: id, Rendered: w.rendered, Reason: SocketLeftReady})
		}
	}
}

// flushLeftReadyLocked emits the turns endTurnsLocked ended.
func (c *Client) flushLeftReadyLocked() {
	for _, e := range c.leftReady {
		c.emitTurnWaitLocked(e)
	}
	c.leftReady = nil
}

func (c *Client) emitTurnWaitLocked(e TurnWaitEnded) {
	h := c.handler
	c.disp.Push(func() { h.HandleTurnWait(e) })
}

func stageOf(w *turnWatch) string {
	if w.rendered {
		return StagePushTurnEnd
	}
	return StagePushWait
}
