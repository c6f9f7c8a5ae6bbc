// Package turnid mints client turn ids and tells them apart from ids the
// backend minted.
//
// Contract (client-notes §2, push spec "Turns"):
//
//   - An id is a decimal string with no sign and no leading zero.
//   - A Counter is seeded once, at construction, with the wall clock in Unix
//     milliseconds read through the injected clock; each Next returns the
//     seed, then seed+1, seed+2, ... A clock before the epoch seeds 0.
//   - Because a run hands out at most one id per turn and a restart reseeds
//     from a later clock reading, ids never repeat across restarts as long as
//     a run issues fewer turns than milliseconds elapse before the next start.
//   - IsClientMinted reports whether an id was issued by this Counter (this
//     run). Every other id — an earlier run's, or a backend-minted one such as
//     "hermes-7" — is to be treated as backend-started.
//   - All methods are safe for concurrent use.
package turnid
