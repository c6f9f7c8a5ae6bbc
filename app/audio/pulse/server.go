package pulse

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// address is one place a server may listen.
type address struct{ network, addr string }

// serverAddresses lists where to look for the server, in order. spec is
// Options.Server; "" means the environment and the usual places.
func serverAddresses(spec string) []address {
	if spec == "" {
		spec = os.Getenv("PULSE_SERVER")
	}
	if spec != "" {
		return parseServer(spec)
	}
	var out []address
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		out = append(out, address{"unix", filepath.Join(d, "pulse", "native")})
	}
	out = append(out,
		address{"unix", "/run/user/" + strconv.Itoa(os.Getuid()) + "/pulse/native"},
		address{"unix", "/run/pulse/native"})
	return dedupe(out)
}

// parseServer reads a PulseAudio server string: space-separated entries
// of unix:/path, /path, tcp:host:port, tcp4:, tcp6:, each optionally
// prefixed by {hostname} (entries for another host are skipped).
func parseServer(s string) []address {
	host, _ := os.Hostname()
	var out []address
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "{") {
			end := strings.IndexByte(f, '}')
			if end < 0 {
				continue
			}
			if f[1:end] != host {
				continue
			}
			f = f[end+1:]
		}
		switch {
		case f == "":
		case strings.HasPrefix(f, "/"):
			out = append(out, address{"unix", f})
		case strings.HasPrefix(f, "unix:"):
			out = append(out, address{"unix", f[len("unix:"):]})
		case strings.HasPrefix(f, "tcp4:"):
			out = append(out, address{"tcp4", withPort(f[len("tcp4:"):])})
		case strings.HasPrefix(f, "tcp6:"):
			out = append(out, address{"tcp6", withPort(f[len("tcp6:"):])})
		case strings.HasPrefix(f, "tcp:"):
			out = append(out, address{"tcp", withPort(f[len("tcp:"):])})
		}
	}
	return out
}

// withPort adds PulseAudio's default port 4713 when none is given.
func withPort(hp string) string {
	if strings.HasPrefix(hp, "[") {
		if strings.Contains(hp, "]:") {
			return hp
		}
		return hp + ":4713"
	}
	if strings.Contains(hp, ":") {
		return hp
	}
	return hp + ":4713"
}

func dedupe(in []address) []address {
	seen := map[address]bool{}
	var out []address
	for _, a := range in {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// cookie returns the authentication cookie: $PULSE_COOKIE, or
// ~/.config/pulse/cookie, or 256 zero bytes.
func cookie() []byte {
	paths := []string{}
	if p := os.Getenv("PULSE_COOKIE"); p != "" {
		paths = append(paths, p)
	}
	if d, err := os.UserConfigDir(); err == nil {
		paths = append(paths, filepath.Join(d, "pulse", "cookie"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		paths = append(paths, filepath.Join(h, ".config", "pulse", "cookie"), filepath.Join(h, ".pulse-cookie"))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil && len(b) == 256 {
			return b
		}
	}
	return make([]byte, 256)
}
