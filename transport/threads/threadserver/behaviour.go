package threadserver

import "time"

// Refusal is how a refused stream upgrade is answered.
type Refusal int

const (
	// RefuseObject answers HTTP with {"error":{"code","message"}}.
	RefuseObject Refusal = iota
	// RefuseText answers HTTP with {"error":"<text>"} (the 0.41.12 worker).
	RefuseText
	// RefuseDrop closes the connection without an answer (the 0.41.12 dev
	// server: the client sees 1006 and no status).
	RefuseDrop
)

// Behaviour is which runtime the server plays.
type Behaviour struct {
	// ThreadStatus sends thread_status: a snapshot when a socket opens,
	// then every change.
	ThreadStatus bool
	// FullRecords sends every message_data as the complete record (GET's
	// members); otherwise as the partial records 0.41.12 sends.
	FullRecords bool
	// EventDataNull sends "data": null for an event without data;
	// otherwise the data key is left out.
	EventDataNull bool
	// Refusal is how refused upgrades are answered.
	Refusal Refusal
	// DeleteLinger is how long after a delete the sockets that never sent
	// anything stay open (0.41.12: about 10 s); sockets that sent
	// something close at once. 0 closes every socket at once.
	DeleteLinger time.Duration
	// StopReasonCodes: the stopped telemetry and thread_status carry
	// reason codes; otherwise stopped carries prose.
	StopReasonCodes bool
}

// Spec is the runtime thread-stream.txt describes.
func Spec() Behaviour {
	return Behaviour{ThreadStatus: true, FullRecords: true, EventDataNull: true, Refusal: RefuseObject, StopReasonCodes: true}
}

// Legacy is runtime 0.41.12 as threads-api.md measured it, behind its
// worker (RefuseText); set Refusal to RefuseDrop for its dev server.
func Legacy() Behaviour {
	return Behaviour{Refusal: RefuseText, DeleteLinger: 10 * time.Second}
}
