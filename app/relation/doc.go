// Package relation keeps how each character feels about the user and the
// other characters (the rate_relation client tool, client-notes §5).
//
// # Rules
//
//   - A standing is kept per (character, target): the character is a preset
//     id, the target is "user" or another character's preset id. It starts
//     at 0 and moves by the call's delta (an integer -5..5), clamped to
//     -100..100. The last reason given (cut to MaxReason characters) and
//     when it was given are kept beside it.
//   - The bands (Band) name a standing: -100..-60 hostile, -59..-20 cold,
//     -19..19 neutral, 20..59 friendly, 60..100 close. The tool answers
//     "ok: <target> <standing> (<band>)", e.g. "ok: user 42 (friendly)".
//   - The standings live in one file beside the settings (relations.json,
//     atomicfile.JSONFile: written atomically, 0600, a corrupt file kept
//     aside and read as none). A change is applied in memory at once and
//     saved behind it by the store's own writer, so a call never waits on
//     the disk (the tool's wait is 2 s); Close saves what is still owed.
//   - Reset forgets one standing (the settings window's reset button);
//     Forget drops a character's standings when the character is removed.
//
// A Store is safe for concurrent use.
package relation
