package transport

import "context"

type imageRoomKey struct{}

// WithImageRoom returns ctx carrying room, the bytes a tool's result
// images may take as data URLs (see ImageRoom). A wire sets it on the
// context of every tool Run; tests of a tool set it themselves.
func WithImageRoom(ctx context.Context, room int) context.Context {
	return context.WithValue(ctx, imageRoomKey{}, room)
}

// ImageRoom reports how many bytes of data URLs the result images of the
// call running under ctx may take so that the wire can carry its result
// (push: the tool_result frame's limit, max_turn_bytes or 256 KiB, with
// the frame's ids and a short result text already counted). A tool that
// makes images — look's screenshot — fits them into this room itself, at
// once and within its wait, instead of leaving a lossless image for the
// wire to re-encode after the wait. The wire still checks what it sends
// and fits again when a longer result text leaves less room. ok is false
// when the wire set no room.
func ImageRoom(ctx context.Context) (room int, ok bool) {
	room, ok = ctx.Value(imageRoomKey{}).(int)
	return room, ok
}
