// Package demobackend is Yui's embedded demo backend: a small scripted,
// keyword-driven agent running on transport/pushserver, so a new user can
// chat on first run without any AI service, and so every push feature can be
// seen and tested (docs/demo-backend.md lists the exact trigger words).
//
// # Contracts
//
//   - [New] returns a [Backend], an http.Handler serving the push socket
//     (mount it at /ws). [Backend.Run] listens on an address and serves /ws
//     until its context ends; [Backend.Serve] does the same on a listener.
//     Both close the Backend when they return; [Backend.Routes] is what
//     they serve (every route), for serving it another way. [Main] is the
//     `yui demo-backend` command.
//   - Behaviour is deterministic: the same text gives the same frames, in the
//     same order, with the same delays (scaled by Config.TimeScale). Small
//     talk is chosen by an FNV hash of the normalised text.
//   - One conversation per chat_id. A turn arriving while another runs on the
//     same chat interrupts it: the older turn sends nothing more, the newer
//     one runs, and the older one's turn_end follows the newer one's
//     turn_end (spec: "gets its turn_end after the later turn's frames").
//   - stop: every named turn still running (or interrupted and owed a
//     turn_end) gets its turn_end at once, and no frame of it follows. Ids
//     the backend does not hold are ignored. Delegations keep running. The
//     "stubborn" scenario ignores stop, as the spec lets a backend do.
//   - reset: a new conversation; running delegations are cancelled, the
//     list is emptied (pushserver sends the empty delegations frame), and the
//     token count starts over. A turn still running is left to finish.
//   - Backend-started turns (delegation reports) carry ids "demo-<n>".
//   - Hooks never block: each turn and each delegation runs in its own
//     goroutine; CallTool (the look tool) is only called from those.
//   - [Backend.Close] cancels every turn, delegation and tool call, closes
//     every socket, and returns when no goroutine or timer of the Backend is
//     left. The API key never reaches a log.
package demobackend
