// Package lookfolder reads the user's look folders: character art dropped
// into <config dir>/looks/<id>/ as a manifest (look.json) and one SVG per
// emotion (docs/looks.md). Scan validates every folder and sanitises every
// SVG: scripts, foreign content, event handlers, entity declarations and
// references outside the document are refused with an error naming the
// file (and line); editors' metadata (Inkscape, Sodipodi, <metadata>) is
// dropped; what is left is re-serialised from a whitelist, so the pet
// window only ever draws plain SVG shapes that load nothing.
//
// Functions are safe for concurrent use; Scan reads the disk each call.
package lookfolder
