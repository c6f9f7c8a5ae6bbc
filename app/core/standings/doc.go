// Package standings is the core's room for the characters' standings
// (rate_relation, app/relation): it opens relations.json beside the
// settings, names the cast for the tool, lists a character's standings
// for the settings window and resets one on its word (reset_standing).
package standings
