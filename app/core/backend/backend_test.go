package backend

import (
	"testing"

	"yui/app/permission"
	"yui/app/settings"
)

func TestBackendOrigin(t *testing.T) {
	backendOrigin := Origin
	same := [][2]string{
		{"https://api.example.com/v1", "https://API.example.com:443/other?x=1"},
		{"http://127.0.0.1:8646", "ws://127.0.0.1:8646/ws"},
		{"wss://a.example", "https://a.example/"},
		{"http://a.example", "http://a.example:80"},
		{"", "  "},
	}
	for _, c := range same {
		if backendOrigin(c[0]) != backendOrigin(c[1]) {
			t.Fatalf("%q and %q: %q vs %q, want the same origin", c[0], c[1], backendOrigin(c[0]), backendOrigin(c[1]))
		}
	}
	differ := [][2]string{
		{"https://a.example", "http://a.example"},
		{"https://a.example", "https://a.example:8443"},
		{"https://a.example", "https://b.example"},
		{"https://a.example", "https://a.example.evil.example"},
		{"", "https://a.example"},
		{"http://[::1]:80", "http://127.0.0.1:80"},
	}
	for _, c := range differ {
		if backendOrigin(c[0]) == backendOrigin(c[1]) {
			t.Fatalf("%q and %q share origin %q", c[0], c[1], backendOrigin(c[0]))
		}
	}
}

func TestBindingFollowsOnlyTheOriginItWasMadeFor(t *testing.T) {
	store, _, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store.Update(func(s *settings.Settings) {
		s.Presets[0].ChatBaseURL, s.Presets[0].Key = "https://a.example/v1", "sk-a"
	})
	p := store.Get().Presets[0]
	all := func(string) bool { return true }
	b := Bound(store, p, func() string { return "" }, all)
	if b.Endpoint() != "https://a.example/v1" || b.Key() != "sk-a" {
		t.Fatalf("bound: %q %q", b.Endpoint(), b.Key())
	}
	if err := b.SavePermission(permission.ModeAllow); err != nil || store.Get().Presets[0].Permissions.Screen != "allow" {
		t.Fatalf("permission: %v", err)
	}
	// The path moves on the same server: still bound.
	store.Update(func(s *settings.Settings) { s.Presets[0].ChatBaseURL = "https://A.example:443/v2" })
	if b.Key() != "sk-a" {
		t.Fatal("a path change lost the key")
	}
	// Another origin: no endpoint, no key, nothing saved.
	store.Update(func(s *settings.Settings) { s.Presets[0].ChatBaseURL = "https://b.example/v1" })
	if b.Endpoint() != "" || b.Key() != "" {
		t.Fatalf("moved: %q %q", b.Endpoint(), b.Key())
	}
	if err := b.SaveThread("t-1"); err == nil || store.Get().Presets[0].ThreadID != "" {
		t.Fatalf("a thread saved for another runtime: %v", err)
	}
	if Endpoint(settings.Preset{ChatAPI: "push", ChatBaseURL: settings.DemoBaseURL}, "http://127.0.0.1:5", all) != "http://127.0.0.1:5" {
		t.Fatal("the demo URL does not follow the embedded demo")
	}
	if Endpoint(settings.Preset{ChatAPI: "later", ChatBaseURL: "https://a.example"}, "", func(string) bool { return false }) != "" {
		t.Fatal("a chat_api this build lacks got an endpoint")
	}
}
