// Package view is the core's side of the view protocol: JSON messages, one
// per WebSocket frame, between the core process and the window processes
// (their Go shells and their web pages). docs/view-protocol.md is the
// protocol's reference.
//
// A Server listens on 127.0.0.1 only. Every connection must present the
// run's token (a fresh 256-bit random value per core run) in the token query
// parameter; a wrong or missing token is refused with 403 before any
// WebSocket upgrade. Connections name their role (pet, settings, shell) and preset (none for the
// settings window).
//
// State the pages show is published as sticky messages: the Server keeps the
// last message of each topic per preset and replays them, in publication
// order, to every page that connects, so a page holds nothing the core did
// not send it and a reloaded page shows the same thing.
//
// All Server methods may be called from any goroutine. Action handlers run
// on the connection's read goroutine, one message at a time per connection.
package view
