// Package pulsetest starts a private PulseAudio server for tests and
// benchmarks: its own runtime and home directories in a temporary
// directory, null sinks (speakers that play into nothing, with monitors
// that record exactly what they play) and the native protocol on a unix
// socket there, anonymous access, no D-Bus, no realtime scheduling. It
// works as root (as on CI machines) and needs only the pulseaudio binary.
//
// With no pulseaudio binary, Start skips the test — unless CI=true, where
// a missing sound server fails it (the integration tests must run there).
package pulsetest
