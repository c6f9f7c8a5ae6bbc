// Package route is the core's table of what the windows send: one handler
// per view message type, registered by the room that owns the message.
// A room adds its routes with Add, guarding them with Only (who may send
// it) and decoding bodies with JSON; the core serves every received
// message through the one table. A type nobody registered is logged and
// dropped, a refused peer or a malformed body likewise.
package route
