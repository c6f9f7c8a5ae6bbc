// Package session is the turn engine of one pet window: a Session owns one
// preset's transport (a transport.Transport given in Options — push,
// Responses or Chat Completions; app/pet builds it from chat_api; the
// session imports no wire) and composes the leaf packages (playback, cue,
// sentence, clientctx, delegation, turnid) into the rules of the push
// spec's Turns and Replies sections, which every wire's events follow. It knows nothing of Wails or
// the view protocol: it reports what the window shows and plays as [Event]
// values (the `yui console --json` events) and takes the user's actions as
// methods.
//
// # Concurrency contract
//
// Every exported method is safe for concurrent use. The actions (SendText,
// SendSpoken, StartTurn, Stop, BargeIn, Reset) queue work for the session's
// own goroutine (the actor) and return at once; their outcomes arrive as
// events. The user's actions (a typed or spoken turn, attachments, stop,
// barge-in, reset) run before the backend frames still queued: they never
// wait behind a flood (a run of user actions takes turns with the other
// work, one item each, so it cannot starve a state change either). Backend frames queue at most 64 deep on the actor;
// past that the push client stops reading the socket (backpressure). Every piece of session state — the outstanding turns, the pill,
// the reasoning display — is touched only by the actor, which also receives
// the transport's handler calls and the player's events, in the order
// they happened. OnEvent is called on the actor, one event at a time, in
// order; it must return promptly and may call any method except Close and
// Drain (which wait for the actor). Close ends the connection, playback and
// every timer; no event is delivered after it returns.
//
// # Turns
//
// Client turn ids come from a clock-seeded counter (turnid). A turn the
// client sent is outstanding from its turn frame to its turn_end; an id the
// client did not mint is a backend turn, outstanding from its first frame to
// its turn_end. A turn_end forgets the turn; a turn_end for a turn not held
// is ignored (logged held:false). The closed ids are remembered, so a late
// frame of a closed turn plays without making it outstanding again.
// Outstanding turns are bounded: at most MaxBackendTurns backend turns and
// MaxStoppedTurns stopped turns wait for their turn_end; past either cap
// the oldest is forgotten as if closed (turn_forgotten), which also keeps
// the stop frame within its 256 KiB (the push client refuses ids over
// push.MaxIDBytes).
//
// A sent turn is running from its turn frame until its turn_end, its frame
// wait ending, or a user action stopping it: the composer is locked, the
// plate reads "thinking", and until the turn's first render (a speech frame
// counts) the thinking motion plays (a cue event with motion_id thinking;
// its end is a cue with motion_id idle) and a filler line is spoken, the
// "later" filler after LaterFillerAfter, the tool filler at its first
// running tool_status. Filler and failure lines are spoken through the
// player (playback.Player.Say) as the client's own lines, after the speech
// already queued, with the same Voice as replies; they keep their filler /
// failure_line events and get no speech_start/speech_end. A filler is cut
// by the turn's first render or speech frame, its turn_end or wait end, and
// by any user action that stops speech; a failure line plays like a reply.
// The push client runs the 240 s frame wait and logs
// network_stall/network_drop; the session ends the turn (failure line and a
// failed record before the first render, nothing more after it) and keeps it
// outstanding, so its late render plays until a user action stops it.
// Close is no network failure: it ends the turn waits silently.
//
// # Stopping
//
// A typed or spoken turn, barge-in and the stop button interrupt playback
// (the cut becomes the interrupted previous-turn record: what the first cut
// utterance had spoken, everything still owed), mark every outstanding turn
// stopped, stop their frame waits, and drop their later render, speech,
// reasoning, error and tool_status frames until their turn_end (logged with
// dropped:"cut_turn" and stopped_count). The stop button, reset and
// barge-in send a stop frame, one, naming every outstanding turn (every
// turn still awaiting its turn_end, those an earlier action already stopped
// included), and only when there is one; a new turn only marks them
// stopped for the tool runner (decision: the backend folds a new turn's
// text into the run; barge-in stops them because the user's speech may
// come to no turn — a cough, a blank transcript — issue 17). Barge-in
// keeps the cut turns muted (shown, not voiced): playback stays muted until
// the first render or speech frame that plays of a turn the barge-in did
// not cut (a backend-started report included). Reset stops as the stop
// button does, sends reset, and clears the reasoning display and the
// previous-turn record.
//
// # Replies
//
// Render and speech frames go to the playback.Player in arrival order
// (utterances, repeats, silence, per-segment cue merging and boundary cues
// are its rules); cue events are resolved against the vocabulary. The
// socket leaving ready closes the open utterance, whatever its turn. A cue
// fired while the thinking motion of a running turn plays lands when that
// motion ends; an interrupt drops it. Error frames end their turn failed on
// its turn_end: the failure line, the message as one line of at most 200
// code points in the composer's error line (typed) or the pill (spoken),
// and a failed record; nothing for turns the client did not send. A failed
// record with a turn id saved while the socket is ready is sent as a
// playback frame; records saved while disconnected are not replayed.
// tool_status drives the pill's tool segment (done/failed held PillHold,
// a running tool cleared by its turn's turn_end or the socket leaving
// ready; browser, which the client runs itself, leaves it alone; another
// turn's tool shows without a phrase). Reasoning deltas append and a
// render's reasoning replaces the text; the text kept is capped at
// ReasoningMax bytes (newest kept: past the cap the head is dropped down to
// ReasoningKeep and the text is marked Cut), and a delta that fits goes out
// as an Append event carrying the Delta, so a consumer need not re-send the
// whole text per delta; while one turn's reasoning streams
// another turn's is not shown; a dropped render of a stopped turn abandons
// the streaming text (back to what a render finished); a turn_end ends the
// streaming. turn_end usage shows total_tokens beside the preset's context
// window. Delegations frames go through delegation.Board, with the history
// persisted per preset in the config directory.
//
// # Images
//
// A turn's images go in turn.images: the per-turn screenshot first (the
// Options.Screenshot hook, called for every turn the client sends; its
// "screenshot: monitor N (label)" line goes in the block), then the typed
// turn's attachments (PNG, JPEG, GIF or WebP). To a backend that stated
// max_turn_bytes they are fitted with jpegfit so the serialized frame fits
// it (images within an equal share byte for byte, the others re-encoded as
// smaller JPEGs). A backend that stated none gets no pixels: the
// screenshot line stays, attachments refuse the turn (error_line). A
// screenshot that cannot fit is dropped with its line; attachments that
// cannot fit refuse the turn (error_line images_too_large). Fitting and the
// hook run on the actor: a 4K screenshot costs it ~0.1–0.3 s before the
// turn frame goes out. tool_result images are fitted by the push client
// with Options.ImageFitter (default jpegfit.URLFitter).
//
// # Logs
//
// App log: push.speech, push.turn_end, push.error, push.tool_status,
// delegations (and the push client's own lines). Turn log: the turn record
// (spoke_text:false) and push.render (speech: whether any of its speech
// plays, sentences: how many sentences it queued, owed: whether reply
// speech was still owed when it arrived). No key or image data is logged.
// Those are push's names, the spec's; another wire logs the same lines
// under its own name (Options.Wire): chat_completions.speech,
// responses.turn_end, threads.render …
//
// tool_call and tool_result events come from the transport's
// HandleToolCall/HandleToolResult: every client tool call it answers, and
// the result as sent. What a wire cannot carry (playback reports,
// backend turns) its Capabilities say; the session asks before it sends.
package session
