// Package talk is the address_character client tool (client-notes §5):
// one character speaks to another, and the addressed one answers in her
// own bubble on her own connection. The tool checks the call and hands it
// to an Addresser (the core's talk room, app/core/talk, which keeps the
// chain's manners); it answers "ok" at once, "error: invalid field
// character" for an unknown, disabled or hidden character or for the
// caller herself, and "error: busy" while the chain is over its cap.
package talk
