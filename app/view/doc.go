// Package view is the core's side of the view protocol: JSON messages, one
// per WebSocket frame, between the core process and the window processes
// (their Go shells and their web pages). docs/view-protocol.md is the
// protocol's reference.
//
// A Server listens on 127.0.0.1 only and refuses (403) any request whose
// Host is not its own loopback address or localhost with its port (DNS
// rebinding). Every view connection must present a token the core issued
// (Issue: a fresh 256-bit random value per grant and core run) in the
// token query parameter; the token decides the connection's role (pet,
// settings, shell) and preset (none for the settings window), so a role
// is never taken on the peer's word: a role or preset in the query must
// be the token's. A connection from a browser page (an Origin header) is
// admitted only from WindowOrigin or the server's own http origin, and
// never as a shell. Every refusal is a 403 before the WebSocket upgrade,
// logged as view_refused with the reason (never the token).
//
// State the pages show is published as sticky messages: the Server keeps the
// last message of each topic per preset and replays them, in publication
// order, to every page that connects, so a page holds nothing the core did
// not send it and a reloaded page shows the same thing.
//
// All Server methods may be called from any goroutine. Action handlers run
// on the connection's read goroutine, one message at a time per connection.
package view
