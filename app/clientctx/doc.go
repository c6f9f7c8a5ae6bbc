// Package clientctx builds the client_context block of client-notes §3 and
// keeps the previous-turn record it reports.
//
// Block contract:
//
//   - Lines, in this fixed order: the opening tag, the fixed header line,
//     time, frontmost, screenshot, body, previous, trigger, an optional
//     note, the closing tag. time, body and trigger are always present;
//     frontmost, screenshot and previous are left out when unknown (nil).
//   - time: Now in Zone as 2026-09-14T15:04:14+09:00 (Asia/Seoul) — always
//     a numeric offset, seconds precision, the zone's name in parentheses.
//   - Every duration is whole minutes from the one Now of the block:
//     max(0, round(Δ/60000 ms)) followed by "min"; halves round up. Raw
//     epoch values never appear. A zero Since leaves the duration out.
//   - Every sampled value (app names, titles, labels, notes, character
//     names, spoken text) goes through Sanitize: invalid UTF-8 becomes
//     U+FFFD, the text is NFKC-normalised (full-width and small forms become
//     ASCII), control, bidi-control and invisible format characters are
//     dropped, every <client_context> and </client_context> is removed with
//     its near misses (any case, spaces around the slash and name, "-" or a
//     space for "_"; repeatedly, so removal cannot form a new tag),
//     whitespace runs collapse to one space and the result is trimmed. No
//     value can add a line, close the block or reorder its text.
//   - frontmost: the app, then ` — "title"` when the title is known and
//     differs from the app name (case-insensitively), then (for Nmin). A
//     Frontmost without an app is left out.
//   - body: standing|sitting|peeking|dragging|walking (an empty or unknown
//     posture reads standing), then " on <app>" for a perch, then (for Nmin).
//   - trigger: `user message`, `proactive "<label>" (user idle Nmin)`,
//     `schedule "<label>"`, `character <name>` or `permission screen
//     allowed once|allowed always|denied (monitor N)` (the user answered
//     the screen prompt a look opened), optionally followed by one `note: …`
//     line.
//   - Push sends Block() as turn.client_context and the utterance as
//     turn.text; the other wires carry it as transport.ContextInput
//     (Responses, Standard Agents: block + "\n\n" + utterance) and
//     transport.ContextSystem (Chat Completions: "client_context:\n" + the
//     lines between the tags).
//
// Previous-turn record contract:
//
//   - A Record names the trigger label, the outcome (interrupted|failed),
//     when it happened, and for interrupted turns what the user last heard
//     (Spoken) and what was still owed (Unspoken); a failed push turn keeps
//     its turn_id for the playback frame.
//   - Spoken and Unspoken are sanitised and cut to MaxQuote (50) Unicode
//     code points when the record is made: Spoken keeps its last 50 (the
//     end of what was heard), Unspoken its first 50. A cut value spends one
//     of the 50 on an ellipsis "…" at the cut side.
//   - The line reads `previous: <trigger> <outcome> (Nmin ago)`, and for an
//     interrupted turn `, spoken: "…" unspoken: "…"`, each part present only
//     when non-empty.
//   - PreviousStore persists one record per preset as a JSON file in a
//     directory the caller gives, written with yui/app/atomicfile (mode
//     0600). A file that does not parse or holds an invalid record is
//     renamed aside with a ".bad" suffix, logged, and the store starts
//     empty; nothing here panics on bad input. A store is safe for
//     concurrent use; Context values are plain data.
package clientctx
