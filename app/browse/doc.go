// Package browse is the browser client tool (client-notes §5): "open" shows
// a page in the user's default browser, "read" fetches it and answers its
// readable text. The client runs it itself (32 s) and shows its running and
// done state on the status pill.
//
// # Never a door into the user's machine or network
//
// The fetch dials only addresses it checked (Guard): every address a name
// resolves to is checked before it is dialled, and the dial itself checks
// the address it connects to again (net.Dialer.Control), so a name that
// resolves to a public address for the check and to a private one for the
// dial (DNS rebinding) is refused too. Each redirect's new URL is dialled
// the same way. Refused: loopback (127.0.0.0/8, ::1), private (10/8,
// 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10, and
// their multicast), multicast (224/4, ff00::/8), unspecified (0.0.0.0,
// ::), the broadcast address, CGNAT (100.64/10), and IPv4-mapped or
// NAT64 (64:ff9b::/96) forms of any of them — answered "error: blocked",
// unless the character may read pages on this computer and local network
// (the per-character switch).
//
// With a proxy (the environment's, as every Yui HTTP client reads it:
// transport/httpapi.Proxy), the proxy resolves the name: the fetch then
// checks the name's addresses itself before the request and dials only
// the proxy, which is the user's own choice of route.
//
// # The fetch
//
// http and https only, without user info; at most MaxRedirects redirects,
// each checked again; the whole fetch within the tool's 32 s; no cookies
// (no jar), no credentials, no Referer; the body read up to MaxBody (5
// MB) — a bigger page answers "error: page too large" and nothing past
// the cap is held. Only HTML (text/html, application/xhtml+xml) is read:
// other content answers "error: unsupported content <type>". The text
// comes from Mozilla's Readability algorithm (codeberg.org/readeck/
// go-readability): the title first, then the article's text, cut to fit
// the result frame (MaxText).
package browse
