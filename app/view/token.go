package view

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
)

// NewToken returns a fresh unguessable token: 32 bytes from a CSPRNG,
// base64url without padding.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// tokenMatches compares in constant time. An empty want never matches.
func tokenMatches(got, want string) bool {
	if want == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
