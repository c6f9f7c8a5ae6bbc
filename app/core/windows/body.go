package windows

import "image"

// PetBody is the character's box inside her pet window (window pixels,
// the composer closed): the 180×216 figure centred above the 26 px dock
// and the 14 px bottom padding (frontend/src/style.css). Her feet are on
// its bottom edge. The desktop room keeps a third of it on a monitor;
// the life room stands it on windows and screen edges.
var PetBody = image.Rect(60, 164, 240, 380)
