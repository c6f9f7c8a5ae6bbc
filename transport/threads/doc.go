// Package threads is the Standard Agents threads wire (chat_api
// "standard_agents"): a character attached to one thread of a runtime that
// runs an agent per thread and pushes every change of the thread over one
// WebSocket (shared/spec/thread-stream.txt; the HTTP calls around it and
// how deployed runtimes deviate are in shared/spec/threads-api.md — both
// generations work).
//
// # The wire
//
//   - Setup: the runtime's origin, an API key (Authorization: Bearer, never
//     in a URL), the agent a new thread is made for and the thread. A
//     preset without a thread gets one (POST /api/threads) on its first
//     connect; SaveThread remembers it. [API] is the HTTP surface (the
//     settings window's agent picker and Test connection use it too).
//   - Connection: a ticket for the exact stream pathname before every
//     connect, then the stream with depth=0 and reasoning=1. Reconnects
//     wait min(1 s·2^n, 30 s) ±25 % (n reset by an open). After
//     KeyCheckAfter closes before an open the key is checked (GET
//     /api/auth/me) and a refusal stops the retries (StateFailed,
//     transport.ErrUnauthorized). A refused upgrade — an HTTP answer
//     ({"error":{…}} or {"error":"text"}) or a handshake dropped with no
//     answer — makes the client read the thread once: a 404 is a deleted
//     thread. A close 1000 "Thread deleted" is one too, and so is a 404 to
//     a posted turn (taken at once: the turn's error line is DeletedLine,
//     then it ends as lost with the link). A deleted thread
//     is StateFailed with ErrThreadDeleted and Status.Problem
//     ProblemDeleted; the client does not reconnect to it (Reset makes a
//     new thread).
//   - Heartbeat: stream_ping after HeartbeatIdle without anything from the
//     runtime; stream_pong and pong are not frames. A socket silent for
//     HeartbeatIdle after its ping is dropped.
//   - Catch-up: on every (re)connect exactly one GET …/messages reconciles
//     what was missed, before any frame is applied; nothing re-reads the
//     thread on a timer.
//   - Messages are held by id and every message_data merges into the held
//     record member by member (a member a frame lacks is unknown).
//     message_chunk text accumulates per message in socket order and its
//     sentences are spoken as they complete; a message's terminal record is
//     authoritative and only what was not yet spoken of it is spoken. A
//     message that lost chunks (its socket dropped) is spoken from its
//     terminal record. A new message id of the same turn that repeats text
//     already painted (a provider retry) does not say it twice.
//     reasoning_chunk goes to the reasoning display; depth > 0 and silent
//     messages are not spoken.
//   - Runs and turns: thread_status decides running, idle and failed when
//     the runtime sends it; otherwise step_started … stopped, the assistant
//     message's status and the "Execution stopped by user" system message
//     do. Each run belongs to a Yui turn: the turn of the message this
//     client posted, or a backend turn ("sa-N") for a run no message of
//     this client started (a scheduled or tool-triggered reply, another
//     client's message). A run's end is its turn's TurnEnd; a failed run
//     gets a TurnError with no message (the generic failure line) and its
//     reason in the log.
//   - Turns go out as POST …/messages: the client_context block and the
//     utterance as the content ([Content]), images as attachments (the
//     screenshot first) within MaxTurnBytes. Stop and a turn stopped by a
//     new one end at once and post …/stop when the run going is theirs.
//   - tool_started / tool_completed are the pill; event frames are logged
//     by name and size only.
//
// # Concurrency
//
// A Transport's methods are safe for concurrent use. Handler calls come
// from one goroutine, in order. Frames are applied one at a time and wait
// while a message is being posted or the catch-up read runs, so the
// runtime's frames about a posted message are read knowing its id.
package threads
