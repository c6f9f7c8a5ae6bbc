// Package pulse plays audio through PulseAudio's native protocol (which
// PipeWire's pipewire-pulse also serves) in pure Go, without cgo or
// libpulse. It uses the wire protocol package of
// github.com/jfreymuth/pulse (proto: framing, commands, replies) under its
// own small stream, not that module's high-level PlaybackStream, which has
// three defects for a voice: every stream gets sync group 0, so the
// server refuses a second stream of another format in the same group; it
// touches stream state from two goroutines without locks; and it leaves
// the buffer attributes to the server, whose 2 s prebuffer stalls the
// start of every clip on an idle sink.
//
// Here each stream has its own sync id, explicit buffer attributes (target
// length Options.Buffer, default 250 ms; prebuffer and minimum request
// 10 ms), and credit-based writes: the server's requests grant room, Write
// sends at most that, so a writer is never more than one buffer ahead and
// Close (deleting the stream) is silent within one buffer. Write returns
// when its first sample will be heard, estimated from the stream's play
// position and the sink latency the server reported.
//
// Output connects lazily and shares one connection among all streams.
// When there is no server it fails fast with audio.ErrNoServer and tries
// again at most every Options.RetryAfter (30 s); a connection the server
// closed is re-dialled by the next Open.
//
// The server is found as libpulse does: $PULSE_SERVER, then
// $XDG_RUNTIME_DIR/pulse/native, then /run/user/<uid>/pulse/native, then
// the system instance's /run/pulse/native. The cookie is read from
// $PULSE_COOKIE or ~/.config/pulse/cookie (a zero cookie is sent when
// there is none, which a server with auth-anonymous accepts).
//
// Recorder records a source (a sink's monitor) for tests and benchmarks.
package pulse
