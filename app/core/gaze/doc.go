// Package gaze is the room that tells a pet page where the pointer is
// while it is near her, so a VRM look's eyes and head can follow it
// outside her own window.
//
// A Follower is fed by a motion source (on X11, x11.WatchPointerMotion:
// XInput2 raw motion; on Windows, a WH_MOUSE_LL hook; both event driven) and asks for the pointer's position
// only when it moved, at most once per Interval, with one trailing report
// so the last position is always sent. It sends view.Pointer messages in
// her window's own pixels while the pointer is within Reach of her window,
// and one Near=false when it leaves (or the watch ends). Nothing runs while
// the pointer is still: no polling, no timer.
package gaze
