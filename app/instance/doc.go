// Package instance keeps one Yui core per config dir and lets a second
// launch hand its arguments to the first.
//
// The first core takes an exclusive lock on <config dir>/instance.lock
// (flock on Linux, LockFileEx on Windows; the OS drops it when the process
// ends however it ends, so a kill -9'd core leaves no lock behind) and then
// listens on a local socket named after the config dir: a unix socket
// (<config dir>/instance.sock; for a path too long for a socket, one in
// $XDG_RUNTIME_DIR, or without it one in a 0700 directory of its own with
// an unpredictable name under the temp dir, recorded in
// <config dir>/instance.addr — no predictable name in a shared directory)
// on Linux, a named pipe (\\.\pipe\yui-<hash>) on Windows. A later launch
// finds the lock held, dials the socket, sends its arguments as one JSON
// line, reads the one-line reply and exits.
//
// The socket answers only the user who owns the core: on Linux both ends
// check the peer's uid (SO_PEERCRED) and the socket lives in a 0700
// directory; on Windows the pipe's DACL grants the current user alone.
// A request is at most MaxRequest bytes and must arrive within IOTimeout.
//
// Acquire, Send and the Primary's methods may be called from any
// goroutine.
package instance
