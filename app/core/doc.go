// Package core is Yui's core process: it owns the settings, the view
// server every window connects to, and the window processes (one pet window
// per enabled preset, kept running by a supervisor). It has no window of its
// own.
//
// Run blocks until its context ends, then closes every window and returns
// nil; that is how SIGINT and SIGTERM end the app with status 0.
package core
