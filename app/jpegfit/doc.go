// Package jpegfit fits images into a frame with a byte cap, as the push
// transport requires for turn.images and tool_result.images: the final
// serialized frame — ids, text and base64 data URLs included — never
// exceeds the cap.
//
// Contract:
//
//   - Fit takes the images (bytes and declared MIME type), the cap and a
//     Serializer that renders the frame for a list of data URLs. The frame
//     rendered with placeholders gives the room the images share.
//   - An image whose data URL fits an equal share of that room is passed
//     through byte for byte as data:image/<png|jpeg|gif|webp>;base64. Images
//     under their share leave their unused room to the others, repeatedly.
//   - Every other image is decoded and re-encoded as a baseline JPEG no
//     larger than its share: downscaled (never upscaled, aspect kept within
//     rounding) and/or at a lower quality, transparent parts over white.
//     Slack left by one re-encoded image goes to those after it.
//   - Order is kept: URL i is image i.
//   - Input must be PNG, JPEG, GIF (first frame) or WebP by its bytes, and
//     match its declared MIME type when one is given; anything else fails
//     with ErrUnsupported naming the image index, before any encoding.
//   - When the frame cannot fit — the frame without images is over the cap,
//     or an image does not fit its share even at the smallest size and
//     quality the fitter makes — Fit returns ErrTooLarge and no images.
//
// Concurrency: the package has no state; Fit is a pure function of its
// arguments (plus the serializer's behaviour) and is safe to call from any
// goroutine. It reads but never modifies the caller's byte slices. It uses
// up to GOMAXPROCS goroutines while resizing and returns after they end.
package jpegfit
