package shell

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"yui/app/view"
)

// RoleBare is the hidden window role of the start-up and idle benchmarks
// (docs/bench/startup.sh, docs/bench/idle-bare.sh): a bare Wails window
// with the pet window's options (frameless, translucent, always on top,
// the same size and WebKit policy) and an empty page, no core. It is
// the baseline the pet window's time to map and idle CPU are measured
// against in the same run.
const RoleBare = "bare"

// BareOptions configure a bare window (RunBare).
type BareOptions struct {
	Width, Height int
	Logger        *slog.Logger
	// Started is when the process started (see Options.Started).
	Started time.Time
}

// barePage is the bare window's whole page.
const barePage = `<!doctype html><html><head><meta charset="utf-8"><title>bare</title></head><body style="margin:0;background:transparent"></body></html>`

// RunBare opens a bare window and blocks until it closes (SIGTERM or
// SIGINT). It logs its start-up steps as window_timing lines: webkit,
// mapped and bare_shown (its page loaded).
func RunBare(opts BareOptions) error {
	if _, set := os.LookupEnv("WEBKIT_SKIA_ENABLE_CPU_RENDERING"); !set {
		os.Setenv("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "1") // as Run does
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	timer := newStartTimer(lg, opts.Started)
	cfg := view.WindowConfig{Kind: view.WindowPet, Title: "Yui — bare", Width: opts.Width, Height: opts.Height}
	w := &window{log: lg, cfg: cfg, timer: timer}
	app := appOptions(cfg, nil, w, nil, &Bridge{})
	app.AssetServer = &assetserver.Options{Handler: http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write([]byte(barePage))
	})}
	app.OnStartup = func(ctx context.Context) {
		timer.now(StepWebKit)
		onMapped(func() { timer.now(StepMapped) })
		installClearOnDraw()
	}
	app.OnDomReady = func(context.Context) { timer.now(StepBareShown) }
	app.OnShutdown = nil
	return wails.Run(app)
}
