package chatcompletions

import "yui/transport/internal/request"

// SummaryInstructions is the system part of a memory summary request
// (Config.Memory, docs/memory.md): how a server tells one from a turn.
const SummaryInstructions = request.SummaryInstructions
