// Package httpapi is how Yui calls an HTTP API with a key — the chat wires
// (Chat Completions, Responses), the Standard Agents runtime, the speech
// and transcription endpoints, the push handshake and the settings' Test
// connection — so each rule exists once:
//
//   - The client: the proxy the environment names (HTTPS_PROXY,
//     HTTP_PROXY, NO_PROXY, as every desktop program reads them; Proxy),
//     never for a loopback address; no redirect followed (the key stays
//     with the URL it was entered for, and a POST never turns into a GET
//     elsewhere); keep-alive on. NewClient and Guard.
//   - The URL: a path under an http(s) base with a host, without user
//     info or fragment (JoinURL).
//   - The request: the key as "Authorization: Bearer <key>", never in a
//     URL (NewRequest).
//   - The error answer: its status and one line of the server's text
//     ({"error":"…"}, {"error":{"message":…}}, {"message":…},
//     {"detail":…}, plain text, an HTML page's title), read bounded, with
//     the key cut out wherever the server echoed it (ReadError,
//     transport.RedactKey) — the text reaches a log and, for a failed
//     turn, the screen.
//
// docs/transports.md ("HTTP clients") writes the rules down.
package httpapi
