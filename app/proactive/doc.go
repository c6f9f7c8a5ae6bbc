// Package proactive decides when a character speaks first: greetings (the
// first presence in a part of the day, coming back after being away), idle
// check-ins, notes on the user's app (a long stretch in one, a switch to a
// new one) and the user's reminders — and the manners that hold each back
// (typing, a fullscreen or call app, her speaking, hidden or muted, a turn
// running, the quiet gap after a turn, per-source debounce, an hourly cap,
// quiet hours, back-off when a check-in is ignored, the quiet companion
// switch).
//
// The Engine is pure logic over a clock and its Sources (interfaces: the
// OS's input idle and typing, the frontmost window, fullscreen, the cast's
// speaking/hidden/muted/turn-running state), so it is tested under
// testing/synctest with fakes. Tick decides once; Run ticks on a ticker.
// Every decision on a due trigger is logged: proactive_fired source=… or
// proactive_skipped reason=… (one line per source and reason in a row).
//
// docs/proactive.md describes every trigger, default and guardrail.
package proactive
