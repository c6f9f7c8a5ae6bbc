package view

import (
	"io"
	"net/http"
	"testing"
)

func TestRoutesAnswerOnlyTheirRolesTokens(t *testing.T) {
	s := startServer(t, Config{Routes: map[string]Route{
		"/look/file": {Roles: []string{RolePet}, Serve: func(w http.ResponseWriter, r *http.Request, g Grant) {
			io.WriteString(w, "bytes for "+g.Preset)
		}},
	}})
	pet, _ := s.Issue(Grant{Role: RolePet, Preset: "p1"})
	settings, _ := s.Issue(Grant{Role: RoleSettings})
	get := func(token, origin, method string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, "http://"+s.Addr()+"/look/file?token="+token, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, string(b)
	}
	if res, body := get(pet, WindowOrigin, http.MethodGet); res.StatusCode != 200 || body != "bytes for p1" ||
		res.Header.Get("Access-Control-Allow-Origin") != WindowOrigin || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("pet token: %d %q %v", res.StatusCode, body, res.Header)
	}
	for name, tc := range map[string]struct{ token, origin string }{
		"no token":       {"", WindowOrigin},
		"a wrong token":  {"x" + pet, WindowOrigin},
		"another role":   {settings, WindowOrigin},
		"foreign origin": {pet, "http://evil.example"},
	} {
		if res, body := get(tc.token, tc.origin, http.MethodGet); res.StatusCode != http.StatusForbidden || body == "bytes for p1" {
			t.Errorf("%s: %d %q", name, res.StatusCode, body)
		}
	}
	// A preflight from the window is answered without the token; from
	// another origin it is refused.
	if res, _ := get("", WindowOrigin, http.MethodOptions); res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Methods") == "" {
		t.Fatalf("preflight: %d %v", res.StatusCode, res.Header)
	}
	if res, _ := get("", "http://evil.example", http.MethodOptions); res.StatusCode != http.StatusForbidden || res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("foreign preflight: %d %v", res.StatusCode, res.Header)
	}
}
