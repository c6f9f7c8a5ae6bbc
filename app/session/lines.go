package session

import (
	"embed"
	"fmt"
	"strings"

	"yui/app/i18n"
)

// lineFiles holds one lines_<tag>.json per i18n.Supported language.
//
//go:embed lines_*.json
var lineFiles embed.FS

// Lines are the fixed texts the session speaks or shows (client-notes §4),
// loaded from a language file.
type Lines struct {
	Thinking       []string `json:"thinking"`         // fillers at the start of a turn, used in turn
	Later          string   `json:"later"`            // filler when the wait goes on (LaterFillerAfter)
	Tool           string   `json:"tool"`             // filler when the turn's first tool runs
	GaveUp         string   `json:"gave_up"`          // frame wait passed before any reply
	NoConnection   string   `json:"no_connection"`    // no connection (not ready, socket left ready)
	Failed         string   `json:"failed"`           // the turn got an error frame
	ToolPhrase     string   `json:"tool_phrase"`      // pill phrase; {tool} is the tool id
	TooLong        string   `json:"too_long"`         // turn frame over the limit
	ImagesRefused  string   `json:"images_refused"`   // images to a backend without max_turn_bytes
	ImagesTooLarge string   `json:"images_too_large"` // images that do not fit max_turn_bytes
	NotConnected   string   `json:"not_connected"`    // reset (or another action) while not ready
	ErrorGeneric   string   `json:"error_generic"`    // error line for an error frame without a message
}

// EnglishLines returns the embedded English lines.
func EnglishLines() Lines { return LinesFor(i18n.English) }

// LinesFor returns the embedded lines of a supported language; English for
// "" or a language without a file.
func LinesFor(lang i18n.Lang) Lines {
	data, err := i18n.CatalogueFile(lineFiles, "lines_", lang)
	if err != nil {
		panic(err) // the embedded files are part of the build; a test covers them
	}
	l, err := ParseLines(data)
	if err != nil {
		panic(fmt.Errorf("lines_%s.json: %w", lang, err)) // a test covers every file
	}
	return l
}

// ParseLines reads a language file and checks that every line is present
// and no unknown key is there.
func ParseLines(data []byte) (Lines, error) {
	var l Lines
	if err := i18n.DecodeStrict(data, &l); err != nil {
		return Lines{}, fmt.Errorf("session: parse lines: %w", err)
	}
	if len(l.Thinking) == 0 {
		return Lines{}, fmt.Errorf("session: parse lines: no thinking fillers")
	}
	for name, v := range map[string]string{"later": l.Later, "tool": l.Tool, "gave_up": l.GaveUp,
		"no_connection": l.NoConnection, "failed": l.Failed, "tool_phrase": l.ToolPhrase,
		"too_long": l.TooLong, "images_refused": l.ImagesRefused,
		"images_too_large": l.ImagesTooLarge, "not_connected": l.NotConnected, "error_generic": l.ErrorGeneric} {
		if strings.TrimSpace(v) == "" {
			return Lines{}, fmt.Errorf("session: parse lines: %q is missing", name)
		}
	}
	return l, nil
}

// phrase returns the pill phrase for a tool.
func (l Lines) phrase(toolID string) string {
	return strings.ReplaceAll(l.ToolPhrase, "{tool}", toolID)
}
