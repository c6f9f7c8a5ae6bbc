// Package permission is the screen-capture permission of one preset: the
// state machine behind "ask / allow / deny", the prompt the pet window shows
// (Allow once · Always for this character · Deny) and the Grant that a
// capture needs.
//
// # Rules
//
//   - Mode comes from the preset's settings (Permissions.Screen): ask (the
//     default, also for an unknown value), allow or deny.
//   - allow: every Request is granted. deny: every Request answers
//     ErrDenied ("permission denied").
//   - ask: a Request with no standing permission answers ErrPending
//     ("permission pending: asked the user") at once — the look tool's wait
//     is 2 s, far shorter than a person takes to answer — and opens a
//     Prompt naming the preset's backend and the monitor (OnPrompt). One
//     prompt is open at a time: a request for the monitor it names opens
//     nothing new; a request for another monitor replaces it (OnPromptClosed
//     for the old one, OnPrompt for the new).
//   - Answer Once: the next Request for the prompt's monitor within
//     OnceFor (2 minutes) of the answer is granted, once.
//   - Answer Always: the mode becomes allow and Save(ModeAllow) persists it
//     (the core calls settings.Store.Update); a failed save is logged and the
//     mode stays allow for this run.
//   - Answer Deny (decision): the asked request is denied, and so is the
//     next Request within OnceFor of the answer — answered ErrDenied without
//     a new prompt, so a model that retries at once does not nag the user.
//     After that the gate asks again. The settings mode is not changed: a
//     standing deny is the settings window's "deny".
//   - RequestEachTurn is the per-turn screenshot ("send a screenshot with
//     each turn"): the user turning that setting on is the standing
//     permission for it, so it is granted in ask and allow modes while the
//     setting is on, ErrOff while it is off, and ErrDenied in deny mode
//     (deny wins). It never prompts.
//   - Every applied answer is told to OnAnswered (the prompt and the
//     choice), after the gate's state changed: the caller starts the
//     follow-up turn (`trigger: permission screen allowed once (monitor 0)`,
//     docs/decisions.md), so a look that answered "pending" is not a dead
//     end. A refused answer (stale prompt) tells nothing.
//   - SetPermissions applies a settings change: a change of mode forgets a
//     remembered once/deny answer and closes an open prompt.
//
// # Grants
//
// A *Grant is the only key to a capture (app/capture's Source.Capture takes
// one): it can be minted only by a Gate that granted a request, names one
// monitor, and is used up by its first Use. The zero Grant and a nil one are
// refused. Keep grants short-lived: take one, capture, drop it.
//
// # Concurrency
//
// A Gate is safe for concurrent use. The callbacks (OnPrompt,
// OnPromptClosed, OnAnswered, Save) are called without the gate's lock
// held, on the goroutine of the Request/Answer/SetPermissions call that
// caused them, so they may call back into the gate; they should return
// promptly (Request is on the look tool's 2 s wait). Time comes from Config.Now.
package permission
