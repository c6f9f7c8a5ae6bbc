// Package dataurl reads and writes base64 data: URLs
// (data:<mime>;base64,<payload>), the form an image takes in a turn's
// images, a tool result's images, a look folder's art and the composer's
// attachments. It is the one copy of that syntax for the wires and the
// app: nothing else spells the data: URL syntax.
package dataurl
