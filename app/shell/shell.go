package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	winopts "github.com/wailsapp/wails/v2/pkg/options/windows"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"yui/app/browse"
	"yui/app/view"
	"yui/app/x11"
	"yui/transport/httpapi"
)

// Options configure a window process.
type Options struct {
	CoreURL string
	// Token is the window's shell token (TakeToken reads it from
	// $YUI_CORE_TOKEN). It admits only this window's shell; the page gets
	// its own token from the core's window_config.
	Token  string
	Role   string
	Preset string
	Assets fs.FS
	Logger *slog.Logger
	// Started is when the window process started (its start-up steps are
	// logged as time since then); zero: when Run was called.
	Started time.Time
}

// positionPoll is how often the shell reads the window position to notice
// a move it was not told about (a window manager's keyboard move; Wails v2
// has no move events). A drag by the character is reported at once through
// Bridge.Moved.
const positionPoll = 10 * time.Second

// Run opens the window and blocks until it closes: when the core goes away,
// on SIGTERM/SIGINT, or on a fatal error.
func Run(opts Options) error {
	// The token is read; nothing this process starts may inherit it
	// (WebKit's helper processes, the browser a link opens in).
	os.Unsetenv(TokenEnv)
	// Skia's GPU raster on a software GL (Xvfb, VMs, no driver) costs ~3×
	// more per repaint than its CPU raster, and a 300×420 pet gains
	// nothing from GPU raster anyway; compositing stays on GL (see
	// gpuPolicy). An explicit setting in the environment wins.
	if _, set := os.LookupEnv("WEBKIT_SKIA_ENABLE_CPU_RENDERING"); !set {
		os.Setenv("WEBKIT_SKIA_ENABLE_CPU_RENDERING", "1")
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	timer := newStartTimer(lg, opts.Started)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	// The token goes in a header, not the URL: a dial error quotes the URL.
	shellRole := view.RoleShell
	if opts.Role == view.RoleMessage {
		shellRole = view.RoleMessageShell
	}
	q := url.Values{"role": {shellRole}, "preset": {opts.Preset}}
	ws, _, err := websocket.Dial(ctx, opts.CoreURL+"?"+q.Encode(), &websocket.DialOptions{
		HTTPClient: httpapi.NewClient(), // loopback: never proxied, no redirect
		HTTPHeader: http.Header{"Authorization": {"Bearer " + opts.Token}},
	})
	if err != nil {
		cancel()
		return fmt.Errorf("shell: dial core: %w", err)
	}
	var cfg view.WindowConfig
	_, b, err := ws.Read(ctx)
	cancel()
	if err != nil {
		return fmt.Errorf("shell: read window config: %w", err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("shell: window config: %w", err)
	}
	if cfg.PageToken == "" {
		return errors.New("shell: window config: no page token")
	}

	timer.now(StepCoreDialed)
	bridge := newBridge(opts.CoreURL, cfg.PageToken, opts.Role, opts.Preset, opener{command: browse.OpenerCommand})
	bridge.cfg.Lang = pageLang(os.Getenv)
	w := &window{log: lg, ws: ws, cfg: cfg, bridge: bridge, timer: timer}
	bridge.setShapeFunc(w.setShape)
	bridge.setStepFunc(timer.page)
	// Before the window runs: the web view refuses every navigation away
	// from the app's pages and answers only their messages.
	// A window that cannot be guarded does not run (the supervisor's
	// give-up then shows in the log).
	installGuard(newGuard(lg, func() { os.Exit(1) }))
	if cfg.Kind == view.WindowPet {
		useDamageCompositing()
	}

	return wails.Run(appOptions(cfg, opts.Assets, w, ws, bridge))
}

// appOptions are the Wails options for the window kind the core asked
// for: a pet window is frameless, transparent and always on top; the
// settings window is an ordinary window that hides when closed (the core
// shows it again with window_show).
func appOptions(cfg view.WindowConfig, assets fs.FS, w *window, ws *websocket.Conn, bridge *Bridge) *options.App {
	app := &options.App{
		Title:       cfg.Title,
		Width:       cfg.Width,
		Height:      cfg.Height,
		AssetServer: &assetserver.Options{Assets: assets, Middleware: func(next http.Handler) http.Handler {
			return pageHandler(assets, bridge.Config(), next) // the page's config and preloads in its head (page.go)
		}},
		OnStartup:   w.startup,
		OnDomReady:  w.domReady,
		OnShutdown:  func(context.Context) { ws.Close(websocket.StatusNormalClosure, "window closing") },
		Bind:        []any{bridge},
	}
	if cfg.Kind == view.WindowSettings || cfg.Kind == view.WindowMessage {
		app.MinWidth, app.MinHeight = cfg.MinWidth, cfg.MinHeight
		// Closing hides the window and tells the core, which ends the
		// process after it has been hidden for a while (window_quit);
		// HideWindowOnClose would hide it without a word.
		app.OnBeforeClose = w.beforeClose
		app.BackgroundColour = &options.RGBA{R: 246, G: 246, B: 247, A: 255}
		app.Linux = &linux.Options{
			// Opaque, so WebKit's non-composited path leaves no ghosts and
			// costs less than compositing on a software GL.
			WebviewGpuPolicy: gpuPolicy(linux.WebviewGpuPolicyNever),
			ProgramName:      "yui",
		}
		return app
	}
	app.DisableResize = true
	app.Frameless = true
	app.AlwaysOnTop = true
	app.BackgroundColour = &options.RGBA{R: 0, G: 0, B: 0, A: 0}
	app.Linux = &linux.Options{
		WindowIsTranslucent: true,
		WebviewGpuPolicy:    gpuPolicy(linux.WebviewGpuPolicyAlways),
		ProgramName:         "yui",
	}
	// Windows: the WebView2 background is transparent where the page is
	// (alpha 0 in BackgroundColour); no frame shadow or rounded corners
	// around the see-through window; no Mica/acrylic backdrop.
	app.Windows = &winopts.Options{
		WebviewIsTransparent:              true,
		DisableFramelessWindowDecorations: true,
		BackdropType:                      winopts.None,
	}
	return app
}

type window struct {
	log    *slog.Logger
	ws     *websocket.Conn
	cfg    view.WindowConfig
	bridge *Bridge
	timer  *startTimer

	ctx context.Context

	// quitting: the process is ending (the core went away, window_quit, a
	// signal): beforeClose lets the close through instead of hiding.
	quitting atomic.Bool

	mu      sync.Mutex
	nat     native // the OS window, once found (native_linux.go, native_windows.go)
	pending []x11.Rect
	hasPend bool
}

// native is the pet's OS window: what Wails v2 does not offer.
type native interface {
	// SkipTaskbar keeps the window out of task bars (and pagers).
	SkipTaskbar() error
	// SetInputShape makes only rects (window pixels, CSS pixels scaled by
	// the window's DPI where the OS needs it) take clicks.
	SetInputShape(rects []x11.Rect) error
}

func (w *window) pet() bool { return w.cfg.Kind == view.WindowPet }

// beforeClose is the settings window's close: hide it and tell the core
// (window_hidden) unless the process is ending. Wails calls it for the
// close button and for its own SIGTERM/SIGINT handling alike; our signal
// handler (startup) marks a signal as quitting and quits again, so a
// signal that races to here first still ends the process.
func (w *window) beforeClose(ctx context.Context) (prevent bool) {
	if w.quitting.Load() {
		return false
	}
	runtime.WindowHide(ctx)
	m := view.MustEncode(view.TypeWindowHidden, struct{}{})
	wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := w.ws.Write(wctx, websocket.MessageText, m.Body); err != nil {
		w.log.Warn("window_hidden_not_sent", "err", err.Error())
	}
	return true
}

// quit ends the window process.
func (w *window) quit(ctx context.Context) {
	w.quitting.Store(true)
	runtime.Quit(ctx)
}

func (w *window) startup(ctx context.Context) {
	w.ctx = ctx
	w.timer.now(StepWebKit)
	onMapped(func() { w.timer.now(StepMapped) })
	w.bridge.setMoveFunc(func(x, y int) { w.dragTo(ctx, x, y) })
	if w.pet() {
		installClearOnDraw()
	}
	if w.cfg.X != nil && w.cfg.Y != nil {
		w.moveTo(ctx, *w.cfg.X, *w.cfg.Y)
	}
	// The core going away ends the window; window_show raises a hidden
	// one.
	go func() {
		for {
			_, b, err := w.ws.Read(context.Background())
			if err != nil {
				w.log.Info("window_core_gone", "err", err.Error())
				w.quit(ctx)
				return
			}
			m, err := view.Decode(b)
			if err != nil {
				w.log.Warn("view_malformed", "err", err.Error())
				continue
			}
			switch m.Type {
			case view.TypeWindowShow:
				runtime.WindowShow(ctx)
				runtime.WindowUnminimise(ctx) // gtk_window_present: raise and focus
			case view.TypeWindowQuit:
				w.log.Info("window_idle_exit")
				w.quit(ctx)
				return
			case view.TypeWindowMove:
				var wp view.WindowPosition
				if err := json.Unmarshal(m.Body, &wp); err != nil {
					w.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
					continue
				}
				w.moveTo(ctx, wp.X, wp.Y)
				w.log.Info("window_moved_by_core", "x", wp.X, "y", wp.Y)
				w.bridge.Moved() // read back and report where it is now
			case view.TypeWindowStep:
				// A walk's step or following her perch: at once, not
				// reported back (docs/desktop-life.md).
				var wp view.WindowPosition
				if err := json.Unmarshal(m.Body, &wp); err != nil {
					w.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
					continue
				}
				w.dragTo(ctx, wp.X, wp.Y)
			case view.TypeWindowTitle:
				var t view.WindowTitle
				if err := json.Unmarshal(m.Body, &t); err != nil || t.Title == "" {
					w.log.Warn("view_malformed", "type", m.Type)
					continue
				}
				runtime.WindowSetTitle(ctx, t.Title)
			default:
				w.log.Warn("view_unknown", "type", m.Type)
			}
		}
	}()
	// SIGINT and SIGTERM are handled by Wails itself (it quits the app);
	// the settings window's beforeClose would take that for a close, so a
	// signal also marks the process as quitting and quits again.
	if !w.pet() {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
		go func() {
			<-sigs
			w.quit(ctx)
		}()
	}
	if w.pet() {
		go w.pollPosition(ctx)
	}
}

func (w *window) pollPosition(ctx context.Context) {
	lastX, lastY := -1<<30, -1<<30
	if w.cfg.X != nil {
		lastX, lastY = *w.cfg.X, *w.cfg.Y
	}
	t := time.NewTicker(positionPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.bridge.moved:
		}
		x, y := runtime.WindowGetPosition(ctx)
		if x == lastX && y == lastY {
			continue
		}
		first := lastX == -1<<30
		lastX, lastY = x, y
		if first {
			continue // where the window manager first put it, not a move
		}
		m := view.MustEncode(view.TypeWindowPosition, view.WindowPosition{X: x, Y: y})
		wctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		w.ws.Write(wctx, websocket.MessageText, m.Body)
		cancel()
	}
}

// domReady finds the OS window (it is mapped by now) to keep it out of the
// task bar and apply the input shape.
func (w *window) domReady(ctx context.Context) {
	w.timer.now(StepPageLoaded)
	if !w.pet() {
		return
	}
	go func() {
		var nat native
		var err error
		for range 50 {
			if nat, err = findNative(w.cfg.Title); err == nil || !errors.Is(err, errNotYet) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			w.log.Warn("window_native_unavailable", "err", err.Error())
			return
		}
		if err := nat.SkipTaskbar(); err != nil {
			w.log.Warn("window_skip_taskbar_failed", "err", err.Error())
		}
		w.mu.Lock()
		w.nat = nat
		pend, has := w.pending, w.hasPend
		w.mu.Unlock()
		if has {
			w.setShape(pend)
		}
	}()
}

// errNotYet: the window is not there yet (findNative is tried again).
var errNotYet = errors.New("shell: window not found yet")

func (w *window) setShape(rects []x11.Rect) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.nat == nil {
		w.pending, w.hasPend = rects, true
		return
	}
	if err := w.nat.SetInputShape(rects); err != nil {
		w.log.Warn("window_input_shape_failed", "err", err.Error())
	}
}

// gpuPolicy picks WebKit's hardware acceleration policy; def is the
// window kind's default. Always is the pet's because WebKitGTK's non-composited path never clears a
// transparent window's old pixels (moved content leaves ghosts, measured
// under Xvfb + xcompmgr); the compositing path, even on software GL, does.
// YUI_WEBVIEW_GPU=never|ondemand|always overrides it for drivers where
// compositing misbehaves.
func gpuPolicy(def linux.WebviewGpuPolicy) linux.WebviewGpuPolicy {
	switch os.Getenv("YUI_WEBVIEW_GPU") {
	case "never":
		return linux.WebviewGpuPolicyNever
	case "ondemand":
		return linux.WebviewGpuPolicyOnDemand
	case "always":
		return linux.WebviewGpuPolicyAlways
	}
	return def
}
