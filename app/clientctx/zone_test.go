package clientctx

import (
	"errors"
	"testing"
)

func TestLocalZoneNamesTheZone(t *testing.T) {
	none := func(string) ([]byte, error) { return nil, errors.New("no file") }
	noLink := func(string) (string, error) { return "", errors.New("no link") }
	file := func(s string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) {
			if p == "/etc/timezone" {
				return []byte(s), nil
			}
			return nil, errors.New("no file")
		}
	}
	link := func(s string) func(string) (string, error) { return func(string) (string, error) { return s, nil } }
	env := func(tz string) func(string) string { return func(string) string { return tz } }
	cases := []struct {
		name     string
		getenv   func(string) string
		readFile func(string) ([]byte, error)
		readlink func(string) (string, error)
		want     string
	}{
		{"TZ", env("Asia/Seoul"), none, noLink, "Asia/Seoul"},
		{"TZ with colon", env(":Europe/Paris"), none, noLink, "Europe/Paris"},
		{"TZ as a path", env(":/usr/share/zoneinfo/America/Chicago"), none, noLink, "America/Chicago"},
		{"etc/timezone", env(""), file("Europe/Berlin\n"), noLink, "Europe/Berlin"},
		{"localtime link", env(""), none, link("/usr/share/zoneinfo/Asia/Tokyo"), "Asia/Tokyo"},
		{"relative link", env(""), none, link("../usr/share/zoneinfo/Etc/UTC"), "Etc/UTC"},
		{"bad TZ falls through", env("Not/AZone"), file("Asia/Kolkata"), noLink, "Asia/Kolkata"},
		{"nothing", env(""), none, noLink, "Local"},
	}
	for _, c := range cases {
		if got := localZone(c.getenv, c.readFile, c.readlink).String(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
