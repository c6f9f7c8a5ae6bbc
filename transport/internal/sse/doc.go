// Package sse reads a text/event-stream (the WHATWG server-sent events
// format) the way the request transports need it: one event at a time,
// data lines joined, comments and retry fields skipped, every line
// bounded. It allocates nothing per event beyond growing its buffer to the
// largest event seen.
package sse
