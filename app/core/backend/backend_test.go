package backend

import "testing"

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
