package jpegfit

import "errors"

// ErrTooLarge reports that the frame cannot fit its cap even with every
// oversized image at the smallest JPEG the fitter will make. A tool result
// answers error: result too large and carries no images.
var ErrTooLarge = errors.New("jpegfit: frame too large for its cap")

// ErrUnsupported reports an image whose bytes are not PNG, JPEG, GIF or
// WebP, or whose declared MIME type disagrees with its bytes. It is wrapped
// with the index of the offending image.
var ErrUnsupported = errors.New("jpegfit: unsupported image")
