package push

// Log event names: the slog message of each line the client writes. The
// names are the spec's (Logging section) and client-notes §7's.
const (
	EventOpen          = "ws_open"
	EventOpenFailed    = "ws_open_failed"
	EventReady         = "ws_ready"
	EventClose         = "ws_close"
	EventReconnect     = "ws_reconnect"
	EventReadyTimeout  = "ws_ready_timeout"
	EventNotConfigured = "ws_not_configured"
	EventFrameOversize = "frame_oversize"
	EventParseFailed   = "frame_parse_failed"
	EventMalformed     = "frame_malformed"
	EventUnknown       = "frame_unknown"
	EventBeforeReady   = "frame_before_ready"
	EventNetworkStall  = "network_stall"
	EventNetworkDrop   = "network_drop"
	EventToolDuplicate = "tool_call_duplicate"
	EventToolDropped   = "tool_result_dropped"
	EventToolTooLarge  = "tool_result_too_large"
	EventToolTimedOut  = "tool_call_timed_out"
	EventToolAbandoned = "tool_run_abandoned"
	EventToolRefused   = "tool_call_refused"
	EventPushStop      = "push.stop"
)

// Stage values of network_stall and network_drop.
const (
	StagePushWait    = "push_wait"
	StagePushTurnEnd = "push_turn_end"
)
