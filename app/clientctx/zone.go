package clientctx

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LocalZone returns the machine's time zone under its IANA name, for the
// time line: Go names the zone it reads from /etc/localtime "Local", which
// tells the model nothing. The name comes from $TZ, then /etc/timezone,
// then the /etc/localtime link's target under a zoneinfo directory. When
// none gives a zone Go can load, it returns time.Local (the line then ends
// in "(Local)").
func LocalZone() *time.Location {
	return localZone(os.Getenv, os.ReadFile, os.Readlink)
}

func localZone(getenv func(string) string, readFile func(string) ([]byte, error), readlink func(string) (string, error)) *time.Location {
	var names []string
	if tz := strings.TrimPrefix(getenv("TZ"), ":"); tz != "" {
		names = append(names, tz)
	}
	if b, err := readFile("/etc/timezone"); err == nil {
		names = append(names, strings.TrimSpace(string(b)))
	}
	if target, err := readlink("/etc/localtime"); err == nil {
		if _, after, ok := strings.Cut(filepath.ToSlash(target), "zoneinfo/"); ok {
			names = append(names, after)
		}
	}
	for _, n := range names {
		// An absolute TZ path (":/usr/share/zoneinfo/Asia/Seoul") names
		// its zone by the part after zoneinfo/.
		if _, after, ok := strings.Cut(n, "zoneinfo/"); ok {
			n = after
		}
		if n == "" || n == "Local" || strings.HasPrefix(n, "/") {
			continue
		}
		if loc, err := time.LoadLocation(n); err == nil {
			return loc
		}
	}
	return time.Local
}
