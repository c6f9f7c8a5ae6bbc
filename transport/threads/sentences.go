package threads

import (
	"bytes"
	"hash/fnv"
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
	done, cut, _ := cutFrom([]byte(text), 0, final)
	return done, text[cut:]
}

// cutFrom is cutSentences for text that grows as it streams: the scan
// starts at from, the resume point an earlier call on a prefix of text
// returned (0 at first), so each byte of a streamed message is scanned
// about once however small its chunks. It returns the sentences finished,
// the bytes of text they took (cut), and where the next scan of a longer
// text must start (resume ≥ cut: the start of a .!?… run whose end the
// text does not show yet, else the end of text).
func cutFrom(text []byte, from int, final bool) (done []string, cut, resume int) {
	add := func(end int) {
		if s := bytes.TrimSpace(text[cut:end]); len(s) > 0 {
			done = append(done, string(s))
		}
		cut = end
	}
	resume = len(text)
	for i := from; i < len(text); {
		r, w := utf8.DecodeRune(text[i:])
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
				r2, w2 := utf8.DecodeRune(text[j:])
				if r2 != '.' && r2 != '!' && r2 != '?' && r2 != '…' {
					break
				}
				j += w2
			}
			j = skipClosers(text, j)
			switch {
			case j == len(text) && !final:
				resume = i // what follows the run decides: scan it again then
			case j < len(text):
				if next, _ := utf8.DecodeRune(text[j:]); unicode.IsSpace(next) {
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
	return done, cut, max(resume, cut)
}

func skipClosers(s []byte, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRune(s[i:])
		if !strings.ContainsRune(`"')]}”’」』）】`, r) {
			return i
		}
		i += w
	}
	return i
}

// sentenceKey is a sentence as compared for "already spoken": a hash of
// its words (whitespace runs collapsed), so what a draft remembers of
// what it said is 8 bytes a sentence, however long the sentence.
type sentenceKey uint64

func keyOf(s string) sentenceKey {
	h := fnv.New64a()
	for i, f := range strings.Fields(s) {
		if i > 0 {
			h.Write([]byte{' '})
		}
		h.Write([]byte(f))
	}
	return sentenceKey(h.Sum64())
}

// unspoken is what of content was not yet spoken, given the sentences
// spoken (in order). When the spoken sentences are content's first
// sentences, the rest follows them; otherwise every sentence of content is
// taken except one occurrence of each spoken one.
func unspoken(content string, spoken []sentenceKey) []string {
	all, _ := cutSentences(content, true)
	if len(spoken) == 0 {
		return all
	}
	keys := make([]sentenceKey, len(all))
	for i, s := range all {
		keys[i] = keyOf(s)
	}
	prefix := len(spoken) <= len(all)
	for i := 0; prefix && i < len(spoken); i++ {
		prefix = keys[i] == spoken[i]
	}
	if prefix {
		return all[len(spoken):]
	}
	left := map[sentenceKey]int{}
	for _, s := range spoken {
		left[s]++
	}
	var out []string
	for i, s := range all {
		if n := left[keys[i]]; n > 0 {
			left[keys[i]] = n - 1
			continue
		}
		out = append(out, s)
	}
	return out
}
