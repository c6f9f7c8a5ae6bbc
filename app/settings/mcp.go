package settings

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// MCPServer is one MCP server a character on a request wire may use
// (docs/mcp.md): a command started over stdio, or a streamable HTTP URL.
type MCPServer struct {
	// Name namespaces its tools (mcp_<name>__<tool>): 1–24 of a–z, 0–9, _.
	Name string `json:"name"`
	// Command is the program to start (stdio); Args are its arguments.
	// It starts with a clean environment: no key of Yui's reaches it.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// URL is a streamable HTTP endpoint (instead of Command).
	URL string `json:"url,omitempty"`
	// Off keeps the server listed but not started.
	Off bool `json:"off,omitempty"`
}

// MCPGrants are the user's saved answers to MCP tool prompts, by
// namespaced tool name: "allow" (Always) or "deny".
type MCPGrants map[string]string

// Bounds of a preset's MCP settings.
const (
	MaxMCPServers = 8
	MaxMCPArgs    = 32
)

var mcpNamePattern = regexp.MustCompile(`^[a-z0-9_]{1,24}$`)

// validateMCP checks a preset's MCP servers and grants; a bad value is
// refused naming its field (mcp_servers[i].name, …).
func validateMCP(p Preset) error {
	if len(p.MCPServers) > MaxMCPServers {
		return &FieldError{Field: "mcp_servers", Reason: fmt.Sprintf("at most %d servers", MaxMCPServers)}
	}
	names := map[string]bool{}
	for i, s := range p.MCPServers {
		f := func(name string) string { return fmt.Sprintf("mcp_servers[%d].%s", i, name) }
		switch {
		case !mcpNamePattern.MatchString(s.Name):
			return &FieldError{Field: f("name"), Reason: fmt.Sprintf("%q is not 1–24 of a–z, 0–9 and _", s.Name)}
		case names[s.Name]:
			return &FieldError{Field: f("name"), Reason: "two servers are named " + s.Name}
		case (s.Command == "") == (s.URL == ""):
			return &FieldError{Field: f("command"), Reason: "give a command (stdio) or a URL (streamable HTTP), not both"}
		case len(s.Args) > MaxMCPArgs:
			return &FieldError{Field: f("args"), Reason: fmt.Sprintf("at most %d arguments", MaxMCPArgs)}
		case strings.ContainsFunc(s.Command, unicode.IsControl) || len(s.Command) > 1024:
			return &FieldError{Field: f("command"), Reason: "a command is one line of at most 1024 bytes"}
		}
		for _, a := range s.Args {
			if strings.ContainsFunc(a, func(r rune) bool { return r == 0 }) || len(a) > 4096 {
				return &FieldError{Field: f("args"), Reason: "an argument is at most 4096 bytes, without NUL"}
			}
		}
		if s.URL != "" {
			u, err := url.Parse(s.URL)
			if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
				return &FieldError{Field: f("url"), Reason: fmt.Sprintf("%q is not an http(s) URL with a host", s.URL)}
			}
		}
		names[s.Name] = true
	}
	for tool, mode := range p.MCPGrants {
		if !slices.Contains([]string{"allow", "deny"}, mode) || tool == "" || len(tool) > 64 {
			return &FieldError{Field: "mcp_grants." + tool, Reason: fmt.Sprintf("%q is not allow or deny", mode)}
		}
	}
	return nil
}

// cloneMCP copies a preset's MCP settings (Store.Get hands out copies).
func cloneMCP(servers []MCPServer, grants MCPGrants) ([]MCPServer, MCPGrants) {
	if servers != nil {
		servers = slices.Clone(servers)
		for i := range servers {
			servers[i].Args = slices.Clone(servers[i].Args)
		}
	}
	if grants != nil {
		g := make(MCPGrants, len(grants))
		maps.Copy(g, grants)
		grants = g
	}
	return servers, grants
}

// ErrNoCharacter is a change to a preset that is gone.
var ErrNoCharacter = errors.New("the character is gone")

// SetMCP sets preset id's MCP servers and answers; ErrNoCharacter when
// there is none.
func (s *Settings) SetMCP(id string, servers []MCPServer, grants MCPGrants) error {
	for i := range s.Presets {
		if s.Presets[i].ID == id {
			s.Presets[i].MCPServers, s.Presets[i].MCPGrants = servers, grants
			return nil
		}
	}
	return ErrNoCharacter
}

// SetMCPGrant saves the user's always or deny (mode) for one of preset
// id's MCP tools; ErrNoCharacter when there is none.
func (s *Settings) SetMCPGrant(id, tool, mode string) error {
	for i := range s.Presets {
		if s.Presets[i].ID != id {
			continue
		}
		if s.Presets[i].MCPGrants == nil {
			s.Presets[i].MCPGrants = MCPGrants{}
		}
		s.Presets[i].MCPGrants[tool] = mode
		return nil
	}
	return ErrNoCharacter
}

// MCPChanged reports a change of the MCP servers from a to b (what makes
// her hub, and the tools her transport declares, anew); answers are no
// change.
func MCPChanged(a, b Preset) bool {
	return !slices.EqualFunc(a.MCPServers, b.MCPServers, func(x, y MCPServer) bool {
		return x.Name == y.Name && x.Command == y.Command && x.URL == y.URL && x.Off == y.Off && slices.Equal(x.Args, y.Args)
	})
}
