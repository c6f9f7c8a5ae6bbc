// Package backend is what the core's rooms share about a character's
// backend: the origin her key is bound to (docs/security.md, "Keys and
// backends"), what a save that moves her to another origin takes back,
// and how the windows name a backend and a chat_api.
package backend
