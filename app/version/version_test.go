package version

import (
	"runtime/debug"
	"testing"
)

func TestFallback(t *testing.T) {
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "0.0.0-dev"},
		{"no vcs", &debug.BuildInfo{}, true, "0.0.0-dev"},
		{"clean", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c"}, {Key: "vcs.modified", Value: "false"}}}, true, "0.0.0-dev+1a2b3c4d5e6f"},
		{"dirty", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1a2b3c4"}, {Key: "vcs.modified", Value: "true"}}}, true, "0.0.0-dev+1a2b3c4.dirty"},
	}
	for _, c := range cases {
		if got := fallback(c.bi, c.ok); got != c.want {
			t.Errorf("%s: fallback = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLinkerValueWins(t *testing.T) {
	old := value
	t.Cleanup(func() { value = old })
	value = "1.2.3+4.gabcdef0"
	if got := String(); got != "1.2.3+4.gabcdef0" {
		t.Fatalf("String() = %q", got)
	}
}
