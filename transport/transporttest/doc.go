// Package transporttest holds what tests of the transport contract share:
// [Fake], a function-field Transport for session tests, and [Run], the
// conformance suite every wire passes (the same scripted reply gives the
// same events over push, Chat Completions, Responses and Standard Agents
// threads, except where the spec's table or Carries says a wire cannot
// carry it).
package transporttest
