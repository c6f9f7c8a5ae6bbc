package version

import "runtime/debug"

// value is set by the linker (-X yui/app/version.value=...).
var value string

// String returns the version: the linker-set value, or "0.0.0-dev" plus
// the commit the toolchain stamped ("0.0.0-dev+1a2b3c4d5e6f", "+dirty"
// when the tree had changes). Safe for concurrent use.
func String() string {
	if value != "" {
		return value
	}
	return fallback(debug.ReadBuildInfo())
}

func fallback(bi *debug.BuildInfo, ok bool) string {
	v := "0.0.0-dev"
	if !ok {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += "+" + rev
		if dirty {
			v += ".dirty"
		}
	}
	return v
}
