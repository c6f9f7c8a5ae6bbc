// Package vrm reads VRM models (VRM 0.x and 1.0: glTF 2.0 binaries with the
// VRM or VRMC_vrm extension) and VRM animations (.vrma, VRMC_vrm_animation)
// far enough to refuse a file the pet page could not show, and to know
// what it can show: Inspect checks the GLB container (magic, version, the
// declared length against the file's, the JSON and BIN chunks), the glTF
// JSON (buffer views inside the binary chunk, node indices), the VRM
// extension's version, its humanoid (every required bone present, each on
// its own node) and lists the model's expressions and whether it has a
// look-at. Every refusal is an error that says what is wrong in words a
// user can act on ("not a VRM model: the glTF has no VRM extension").
//
// Inspect reads only the 20-byte header, the JSON chunk and the BIN chunk's
// header from an io.ReaderAt: a 60 MB model costs a few reads, so look
// folders can be checked every time they are listed.
//
// Mapping resolves which VRM expressions show each emotion of the
// vocabulary (docs/looks.md, "The mapping file"): the look folder's
// mapping.json over the defaults, kept to the expressions the model has.
package vrm
