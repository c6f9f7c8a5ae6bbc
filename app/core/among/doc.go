// Package among is the room of characters talking to each other: the
// address_character tool's other end (app/talk). A call starts a turn on
// the addressed character's own session with the trigger
// `character <caller>` and the caller's text as its utterance; her reply
// comes on her own wire, in her own bubble. Both message windows show the
// exchange (Host.Said).
//
// # Manners
//
// A conversation among characters ends by itself:
//
//   - A chain is the run of address_character hops since the user last
//     said something (typed or spoken, to any character). It is capped at
//     settings.Talk.Hops() hops (default 6): the hop that reaches the cap
//     is logged (talk.chain_capped) and every later call answers
//     `error: busy` until the user speaks again.
//   - No more than settings.Talk.Rate() hops (default 6) start in any
//     minute; a call past it answers `error: busy` (talk.rate_limited).
//   - User input starts afresh (the count is back to 0). Stop, mute (all
//     voices, or one character's alone) and New conversation end the chain: calls answer `error: busy` until the
//     user speaks again.
//   - An unknown, disabled or hidden character, or the caller herself,
//     is `error: invalid field character` (talk.ErrUnknown).
//
// A Room is safe for concurrent use; it calls its Host without its lock.
package among
