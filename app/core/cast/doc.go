// Package cast keeps the core's running characters by preset id: the set
// (Set: who runs, whether Run has started them) and what a settings save
// does to each (Plan: who stops, who starts, who is made anew with a new
// connection, who changes in place). It knows no character's parts: the
// core makes, closes and updates them.
package cast
