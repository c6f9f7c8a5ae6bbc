package pushserver

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
)

// InMemoryClient returns an *http.Client whose requests are served by h in
// the same process over net.Pipe connections, with no listener and no
// network. Give it to push.Config.HTTPClient to reach an embedded backend,
// or in tests running under testing/synctest, where real network I/O would
// not count as durably blocking. Each request runs h in its own goroutine;
// a websocket upgrade hands the client the other end of the pipe.
func InMemoryClient(h http.Handler) *http.Client {
	return &http.Client{Transport: inMemoryTransport{h: h}}
}

type inMemoryTransport struct{ h http.Handler }

func (t inMemoryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	clientEnd, serverEnd := net.Pipe()
	hj := &pipeHijacker{ResponseRecorder: httptest.NewRecorder(), conn: serverEnd, hijacked: make(chan *http.Response, 1)}
	returned := make(chan struct{})
	sr := r.Clone(r.Context())
	sr.RemoteAddr = "pipe"
	sr.RequestURI = r.URL.RequestURI()
	go func() {
		defer close(returned)
		t.h.ServeHTTP(hj, sr)
	}()
	select {
	case resp := <-hj.hijacked:
		resp.Body = clientEnd
		return resp, nil
	case <-returned:
		_ = clientEnd.Close()
		_ = serverEnd.Close()
		resp := hj.Result()
		resp.Request = r
		return resp, nil
	case <-r.Context().Done():
		_ = clientEnd.Close()
		_ = serverEnd.Close()
		return nil, fmt.Errorf("pushserver: in-memory round trip: %w", r.Context().Err())
	}
}

// pipeHijacker is a ResponseRecorder that can be hijacked onto a pipe end.
type pipeHijacker struct {
	*httptest.ResponseRecorder
	conn     net.Conn
	once     sync.Once
	hijacked chan *http.Response
}

func (h *pipeHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h.once.Do(func() {
		resp := h.Result()
		h.hijacked <- resp
	})
	return h.conn, bufio.NewReadWriter(bufio.NewReader(h.conn), bufio.NewWriter(h.conn)), nil
}
