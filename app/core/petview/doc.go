// Package petview is one character's presenter: her session's events come
// in, and the pet page's sticky topics (bubble, plate, character, pill,
// reasoning, usage, delegations, composer, error line, voice, permission
// prompt) and the message window's transcript rows go out.
//
// A View keeps one state for both: the composer's lock that the page
// shows is the lock that tells the transcript a reply is still running,
// and the client's ease back to neutral that ends her last motion is the
// one that marks the replies she was saying done. Each event type has one
// case in OnEvent, which updates the state, records the transcript row and
// publishes the topics it changes.
//
// A View talks to the pages through Pages (the view server) and asks the
// core only what Host offers: the preset as saved now, where it connects,
// and the settings window's status and history lists.
package petview
