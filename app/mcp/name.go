package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxNameBytes is the longest function name the OpenAI-style APIs take.
const maxNameBytes = 64

// Name is the namespaced name a server's tool is declared under:
// mcp_<server>__<tool>, the tool's name reduced to a–z, A–Z, 0–9, _ and -
// and, over 64 bytes, cut and ended by a hash of the whole.
func Name(server, tool string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, tool)
	n := "mcp_" + server + "__" + clean
	if len(n) <= maxNameBytes && clean == tool {
		return n
	}
	h := sha256.Sum256([]byte(server + "\x00" + tool))
	suffix := "_" + hex.EncodeToString(h[:4])
	if len(n) > maxNameBytes-len(suffix) {
		n = n[:maxNameBytes-len(suffix)]
	}
	return n + suffix
}
