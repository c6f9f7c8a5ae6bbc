// Package character is one enabled preset's character as the core runs
// her: her session (her connection and turns), her voice, her permission
// gates, her MCP servers and her transcript, and what each room sees of
// her (petview.Character: her page's actions; ear.Character: heard and
// stopped; voices.Voice: her voice set). It imports no room: her page and
// the rooms she is part of are the narrow interfaces View, Talk and Body.
// The core makes her (app/core/pet.go) and ends her (Close).
package character
