package archive

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"yui/app/atomicfile"
	"yui/app/history"
	"yui/app/view"
)

// Export formats.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Export writes conversation m.Conv (0: the current one) to a new file in
// the host's ExportDir (atomically, mode 0600) and tells the message
// pages where it went.
func (r *Room) Export(preset string, m view.HistoryExport) {
	st := r.store(preset, view.TypeHistoryExport)
	if st == nil {
		return
	}
	if m.Conv <= 0 {
		m.Conv = st.Conv()
	}
	out := view.HistoryExported{Conv: m.Conv, Format: m.Format}
	path, err := r.export(preset, st, m)
	if err != nil {
		r.log.Warn("history_export_failed", "preset", preset, "conv", m.Conv, "err", err.Error())
		out.Error = err.Error()
	} else {
		r.log.Info("history_exported", "preset", preset, "conv", m.Conv, "path", path)
		out.Path = path
	}
	r.pages.Send(view.RoleMessage, preset, view.MustEncode(view.TypeHistoryExported, out))
}

func (r *Room) export(preset string, st Store, m view.HistoryExport) (string, error) {
	var ext string
	switch m.Format {
	case FormatMarkdown:
		ext = ".md"
	case FormatJSON:
		ext = ".json"
	default:
		return "", fmt.Errorf("unknown export format %q (markdown or json)", m.Format)
	}
	rows, err := st.DB().Conversation(m.Conv)
	if err != nil {
		return "", fmt.Errorf("could not read the conversation: %w", err)
	}
	if len(rows) == 0 {
		return "", fmt.Errorf("conversation %d is empty", m.Conv)
	}
	name := r.host.Name(preset)
	now := r.now()
	var b []byte
	if m.Format == FormatJSON {
		b, err = JSON(name, m.Conv, now, rows)
		if err != nil {
			return "", err
		}
	} else {
		b = []byte(Markdown(name, rows))
	}
	dir := r.host.ExportDir()
	file := fmt.Sprintf("%s-conversation-%d-%s%s", atomicfile.SafeName(name), m.Conv, now.Format("20060102-150405"), ext)
	path := filepath.Join(dir, file)
	if err := atomicfile.Write(path, b, 0o600); err != nil {
		return "", fmt.Errorf("could not write %s: %w", path, err)
	}
	return path, nil
}

// exportFile is the JSON export's shape.
type exportFile struct {
	Character    string        `json:"character"`
	Conversation int64         `json:"conversation"`
	ExportedAt   int64         `json:"exported_at"`
	Entries      []history.Row `json:"entries"`
}

// JSON is the conversation as a JSON document: who, which conversation,
// when exported (epoch ms), and its rows oldest first.
func JSON(name string, conv int64, now time.Time, rows []history.Row) ([]byte, error) {
	for i := range rows {
		rows[i].Sent = "" // what a wire sent is not the conversation
	}
	b, err := json.MarshalIndent(exportFile{Character: name, Conversation: conv, ExportedAt: now.UnixMilli(), Entries: rows}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("could not encode the conversation: %w", err)
	}
	return append(b, '\n'), nil
}

// Markdown is the conversation as the user reads it: who said what and
// when, her thoughts as a quote above her reply, tool and task rows in
// italics, errors marked.
func Markdown(name string, rows []history.Row) string {
	var b strings.Builder
	at := func(ms int64) string { return time.UnixMilli(ms).Format("2006-01-02 15:04") }
	fmt.Fprintf(&b, "# Conversation with %s\n\n", mdEscape(name))
	fmt.Fprintf(&b, "%s – %s\n\n", at(rows[0].At), at(rows[len(rows)-1].At))
	for _, r := range rows {
		switch r.Kind {
		case "user":
			fmt.Fprintf(&b, "**You** · %s\n\n%s\n\n", at(r.At), quoteBlock(r.Text, ""))
		case "reply":
			fmt.Fprintf(&b, "**%s** · %s\n\n", mdEscape(name), at(r.At))
			if r.Reasoning != "" {
				fmt.Fprintf(&b, "%s\n\n", quoteBlock("*Thoughts:* "+r.Reasoning, "> "))
			}
			if r.Text != "" {
				fmt.Fprintf(&b, "%s\n\n", quoteBlock(r.Text, ""))
			}
		case "tool":
			fmt.Fprintf(&b, "*Tool: %s — %s* · %s\n\n", mdEscape(r.Text), r.State, at(r.At))
		case "delegation":
			fmt.Fprintf(&b, "*Background task: %s — %s* · %s\n\n", mdEscape(r.Text), map[bool]string{true: "started", false: "finished"}[r.State == "running"], at(r.At))
		default:
			fmt.Fprintf(&b, "**Error** · %s: %s\n\n", at(r.At), mdEscape(r.Text))
		}
	}
	return b.String()
}

// quoteBlock prefixes each line of s (a quote: "> ").
func quoteBlock(s, prefix string) string {
	if prefix == "" {
		return strings.TrimSpace(s)
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// mdEscape keeps a one-line value from starting Markdown of its own.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`).Replace(s)
}
