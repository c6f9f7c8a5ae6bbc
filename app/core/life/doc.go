// Package life is the core's room for her life on the desktop: the
// body_action runner and her body's one source of truth (app/body) per
// character.
//
// The runner walks her window (window_step messages to her shell, a
// window_move at the end so the place is saved), sits her on a window's
// top edge and keeps her there while the window moves (perch.Desktop's
// watch: event driven, nothing runs while the window keeps still), lands
// her on the screen's bottom edge when that window is minimised, closed,
// goes fullscreen or is covered, slides her to a screen edge to peek, and
// puts her to bed. The pet page reports drags (body_drag: a drag
// interrupts an action and stands her up; a drop within SnapDistance of a
// window's top edge perches her) and her menu's Go to bed / Wake up
// (body_menu); a typed or spoken turn and any speech wake her (OnEvent).
//
// What reads the body: the client_context body line (Context), `look at:
// body` (Look) and her page's pose (the body topic). One action runs at a
// time per character: a newer one (from the tool or her menu) interrupts
// the one running, which answers "error: interrupted"; an action while
// the user holds her is "error: busy". Without a desktop (Config.Desktop
// nil) every action is "error: unsupported".
package life
