package shell

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testGuard() (*guard, *bytes.Buffer) {
	var buf bytes.Buffer
	return newGuard(slog.New(slog.NewJSONHandler(&buf, nil)), nil), &buf
}

// TestNavigationStaysOnTheAppsPages: the web view loads only wails://wails
// pages, in any frame, and never opens a window.
func TestNavigationStaysOnTheAppsPages(t *testing.T) {
	g, log := testGuard()
	for _, u := range []string{"wails://wails/", "wails://wails/index.html", "WAILS://WAILS/#x", "wails://wails/?a=1"} {
		if !g.navigation(u, false) {
			t.Fatalf("refused the app's page %s", u)
		}
	}
	for _, u := range []string{
		"http://127.0.0.1:8000/evil?token=secret", "https://evil.example/", "file:///etc/passwd", "about:blank",
		"data:text/html,<script>x</script>", "javascript:alert(1)", "wails://evil/", "wails://wails.evil/",
		"wails:wails", "blob:wails://wails/1", "", "ws://127.0.0.1:1/view",
	} {
		if g.navigation(u, false) {
			t.Fatalf("allowed a navigation to %q", u)
		}
	}
	if g.navigation("wails://wails/", true) {
		t.Fatal("allowed a new window")
	}
	if !strings.Contains(log.String(), "window_navigation_refused") || strings.Contains(log.String(), "secret") {
		t.Fatalf("log %s: want the refusals without query strings", log)
	}
}

// TestMessagesOnlyFromTheAppsPagesAndNeverBrowserOpen: the Wails runtime
// and the Bridge answer only the app's own page, and the runtime's
// unchecked BrowserOpenURL never reaches the OS.
func TestMessagesOnlyFromTheAppsPagesAndNeverBrowserOpen(t *testing.T) {
	g, _ := testGuard()
	call := `C{"name":"shell.Bridge.Config","args":[],"callbackID":"x"}`
	if !g.message("wails://wails/", call) || !g.message("wails://wails/", "DomReady") {
		t.Fatal("refused the app page's own messages")
	}
	for _, page := range []string{"http://evil.example/", "file:///tmp/x.html", "about:blank", ""} {
		if g.message(page, call) {
			t.Fatalf("a page at %q may call the bindings", page)
		}
	}
	for _, m := range []string{"BO:file:///etc/passwd", "BO:https://example.com/", "BO:"} {
		if g.message("wails://wails/", m) {
			t.Fatalf("runtime message %q passed", m)
		}
	}
}

// TestAWindowThatCannotBeGuardedDoesNotRun: fail closed when the web view
// or Wails' message handler is not found.
func TestAWindowThatCannotBeGuardedDoesNotRun(t *testing.T) {
	for _, c := range []struct{ views, gated int }{{0, 0}, {1, 0}, {2, 1}} {
		stopped := false
		g := newGuard(slog.New(slog.DiscardHandler), func() { stopped = true })
		g.installed(c.views, c.gated)
		if !stopped {
			t.Fatalf("views %d gated %d: the window runs unguarded", c.views, c.gated)
		}
	}
	stopped := false
	newGuard(slog.New(slog.DiscardHandler), func() { stopped = true }).installed(1, 1)
	if stopped {
		t.Fatal("a guarded window was stopped")
	}
}

func TestOpenURLTakesOnlyWebLinks(t *testing.T) {
	for _, ok := range []string{"https://example.com/a?b=c#d", "http://127.0.0.1:8080/", "HTTPS://Example.com"} {
		if _, err := checkOpenURL(ok); err != nil {
			t.Fatalf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{
		"file:///etc/passwd", "javascript:alert(1)", "mailto:a@b.c", "smb://host/share", "-e http://x",
		"http:/x", "https://", "http://exa mple.com/", "https://example.com/\nfile:///x", "ftp://example.com",
		"//example.com", "example.com", "x-scheme-handler://a", "", "https:" + strings.Repeat("a", 9000),
	} {
		if _, err := checkOpenURL(bad); !errors.Is(err, ErrNotWebURL) {
			t.Fatalf("%q: %v, want ErrNotWebURL", bad, err)
		}
	}
}

// fakeOpener is an opener whose "browser" writes its arguments and
// environment to out.
func fakeOpener(t *testing.T) (opener, string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n{ echo \"ARG=$1\"; env; } > "+out+".tmp && mv "+out+".tmp "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return opener{command: func(u string) (string, []string) { return script, []string{u} }}, out
}

func waitFile(t *testing.T, p string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never written", p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOpenedBrowserNeverGetsTheToken: the browser a link opens in gets
// the URL and an environment without YUI_CORE_TOKEN, even if it were still
// set; a refused URL starts nothing.
func TestOpenedBrowserNeverGetsTheToken(t *testing.T) {
	t.Setenv(TokenEnv, "the-window-token")
	op, out := fakeOpener(t)
	b := newBridge("ws://127.0.0.1:1/view", "page-token", "pet", "p", op)
	if err := b.OpenURL("file:///etc/passwd"); !errors.Is(err, ErrNotWebURL) {
		t.Fatalf("file URL: %v", err)
	}
	if err := b.OpenURL("https://example.com/x"); err != nil {
		t.Fatal(err)
	}
	got := waitFile(t, out)
	if !strings.Contains(got, "ARG=https://example.com/x\n") {
		t.Fatalf("browser got %s", got)
	}
	if strings.Contains(got, "the-window-token") || strings.Contains(got, TokenEnv) {
		t.Fatalf("the browser inherited the token:\n%s", got)
	}
	if !strings.Contains(got, "PATH=") {
		t.Fatalf("the browser lost the rest of the environment:\n%s", got)
	}
}

// TestPageGetsOnlyItsOwnToken: the page's view URL carries the page token
// from window_config, never the shell's.
func TestPageGetsOnlyItsOwnToken(t *testing.T) {
	b := newBridge("ws://127.0.0.1:1/view", "page-token", "settings", "", opener{})
	if c := b.Config(); !strings.Contains(c.ViewURL, "token=page-token") || strings.Contains(c.ViewURL, "shell") {
		t.Fatalf("page config %+v", c)
	}
}

func TestLogURLDropsSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:pw@example.com/a?token=x#f": "https://example.com/a",
		"file:///etc/passwd":                      "file:///etc/passwd",
		"javascript:alert(1)":                     "javascript:alert(1)",
	} {
		if got := logURL(in); got != want {
			t.Fatalf("logURL(%q) = %q, want %q", in, got, want)
		}
	}
}
