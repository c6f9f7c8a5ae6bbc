package view

import (
	"net/http"
	"slices"
)

// Route is an HTTP route of the view server beside /view, answered only
// for a token whose role is one of Roles (the same token, Host and Origin
// checks as a view connection: docs/security.md). Browser pages call it
// with fetch, from the window's origin (wails://wails) or the server's
// own: the answer carries the CORS header for that origin, and a
// preflight (OPTIONS) is answered without the token.
type Route struct {
	Roles []string
	Serve func(w http.ResponseWriter, r *http.Request, g Grant)
}

// granted wraps rt: admission, role, CORS.
func (s *Server) granted(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && s.originAllowed(origin) {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Vary", "Origin")
		}
		if r.Method == http.MethodOptions {
			if origin == "" || !s.originAllowed(origin) {
				s.log.Warn("view_refused", "reason", "foreign origin", "origin", cut(origin), "path", r.URL.Path)
				http.Error(w, "forbidden", http.StatusForbidden)
				return
			}
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		g, ok := s.admit(w, r)
		if !ok {
			return
		}
		if !slices.Contains(rt.Roles, g.Role) {
			s.log.Warn("view_refused", "reason", "role may not use the route", "role", g.Role, "path", r.URL.Path)
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		rt.Serve(w, r, g)
	})
}
