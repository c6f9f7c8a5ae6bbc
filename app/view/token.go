package view

import (
	"crypto/rand"
	"encoding/base64"
)

// NewToken returns a fresh unguessable token: 32 bytes from a CSPRNG,
// base64url without padding.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
