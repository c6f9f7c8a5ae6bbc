package threads

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cutSentences splits text into its finished sentences and the rest, by the
// speech rules (client-notes §4): an ASCII .!?… run (with closing quotes
// or brackets) followed by whitespace ends a sentence, CJK 。！？ end one
// at once, a newline always does. When final is set the text is complete,
// so its last piece is a sentence too. Sentences are trimmed; empty ones
// are left out.
func cutSentences(text string, final bool) (done []string, rest string) {
	start := 0
	add := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			done = append(done, s)
		}
		start = end
	}
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n':
			add(i + w)
			i += w
		case r == '。' || r == '！' || r == '？':
			j := skipClosers(text, i+w)
			add(j)
			i = j
		case r == '.' || r == '!' || r == '?' || r == '…':
			j := i + w
			for j < len(text) {
				r2, w2 := utf8.DecodeRuneInString(text[j:])
				if r2 != '.' && r2 != '!' && r2 != '?' && r2 != '…' {
					break
				}
				j += w2
			}
			j = skipClosers(text, j)
			if j < len(text) {
				if next, _ := utf8.DecodeRuneInString(text[j:]); unicode.IsSpace(next) {
					add(j)
				}
			}
			i = j
		default:
			i += w
		}
	}
	if final {
		add(len(text))
	}
	return done, text[start:]
}

func skipClosers(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(`"')]}”’」』）】`, r) {
			return i
		}
		i += w
	}
	return i
}

// norm is a sentence as compared for "already spoken": whitespace runs
// collapsed.
func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// unspoken is what of content was not yet spoken, given the sentences
// spoken (in order). When the spoken sentences are content's first
// sentences, the rest follows them; otherwise every sentence of content is
// taken except one occurrence of each spoken one.
func unspoken(content string, spoken []string) []string {
	all, _ := cutSentences(content, true)
	if len(spoken) == 0 {
		return all
	}
	prefix := len(spoken) <= len(all)
	for i := 0; prefix && i < len(spoken); i++ {
		prefix = norm(all[i]) == spoken[i]
	}
	if prefix {
		return all[len(spoken):]
	}
	left := map[string]int{}
	for _, s := range spoken {
		left[s]++
	}
	var out []string
	for _, s := range all {
		if n := left[norm(s)]; n > 0 {
			left[norm(s)] = n - 1
			continue
		}
		out = append(out, s)
	}
	return out
}
