package demobackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Run listens on addr (host:port) and serves the push socket at /ws until
// ctx ends, then closes the Backend and returns nil. It returns a wrapped
// error when it cannot listen or the server fails.
func (b *Backend) Run(ctx context.Context, addr string) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		_ = b.Close()
		return fmt.Errorf("demobackend: listen on %s: %w", addr, err)
	}
	return b.Serve(ctx, ln)
}

// Routes is every route the demo serves: the push socket at /ws, the
// OpenAI-compatible routes under /v1, the Standard Agents routes under /api
// and a line at /. Serve serves it; a test may serve it in memory.
func (b *Backend) Routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/ws", b)
	b.mountOpenAI(mux)
	b.mountThreads(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, "Yui demo backend: connect a push client to /ws, an OpenAI Chat Completions client to /v1, or a Standard Agents threads client to this origin\n")
	})
	return mux
}

// Serve serves the push socket at /ws on ln until ctx ends, then closes the
// Backend and the listener and returns nil.
func (b *Backend) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: b.Routes(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	b.log.Info("demo.listening", "addr", ln.Addr().String())
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	// Sockets are hijacked connections: close them through the Backend,
	// then the HTTP server and its listener.
	_ = b.Close()
	_ = hs.Close()
	if err == nil {
		err = <-errc
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("demobackend: serve on %s: %w", ln.Addr(), err)
	}
	return nil
}
