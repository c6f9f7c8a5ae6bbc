// Package conncause names why a connection to a backend failed, in words a
// user understands: the one place Yui turns a dial, TLS, HTTP or key error
// into the cause the pet's plate and the settings window's Test connection
// show.
//
// # Contract
//
//   - Explain(err, endpoint) returns a Cause: a Kind (Refused, NoHost,
//     Timeout, Unreachable, TLS, NotPush, NotAPI, Key, HTTP, Other; None for a nil
//     error), one plain sentence naming host:port where it helps, and
//     Settings when the fix is in Settings → Backend (the UI offers a
//     button that opens it).
//   - It reads the error chain only (errors.Is / errors.As on net, syscall,
//     crypto/x509, crypto/tls and transport's typed errors); it never
//     dials, never logs, and never puts a key or a URL's user info or
//     query in the text (host:port only).
//   - Unexpected(err, endpoint, want) is NotAPI for an answer whose body
//     is not what was asked for (a web page where a model list was due),
//     naming want; Explain says the same with a generic want.
//   - A nil error, and a wire's own "not configured", are None: the caller
//     keeps its own wording for those.
//
// Safe for concurrent use (no state).
package conncause
