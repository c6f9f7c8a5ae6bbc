package push

import "context"

type imageRoomKey struct{}

// WithImageRoom returns ctx carrying room, the bytes a tool's result
// images may take as data URLs (see ImageRoom). The client sets it on the
// context of every Run; tests of a tool set it themselves.
func WithImageRoom(ctx context.Context, room int) context.Context {
	return context.WithValue(ctx, imageRoomKey{}, room)
}

// ImageRoom reports how many bytes of data URLs the result images of the
// call running under ctx may take so that its tool_result frame fits its
// limit (max_turn_bytes, or 256 KiB): the frame's ids and a short result
// text are already counted. A tool that makes images — look's screenshot —
// fits them into this room itself, at once and within its wait, instead of
// leaving a lossless image for the client to re-encode after the wait.
// The client still checks the final frame and fits again when a longer
// result text leaves less room. ok is false outside a tool Run.
func ImageRoom(ctx context.Context) (room int, ok bool) {
	room, ok = ctx.Value(imageRoomKey{}).(int)
	return room, ok
}

// imageRoomSlack is the result text the room leaves space for ("ok" and
// short answers fit; a longer text makes the client fit again).
const imageRoomSlack = 256

// imageRoomFor is the room of one call's result images on a socket whose
// ready stated mtb (0: none).
func imageRoomFor(call ToolCall, mtb int) int {
	bare, err := Encode(ToolResult{ID: call.ID, TurnID: call.TurnID, Result: ""})
	if err != nil {
		return 0
	}
	limit := FrameLimit(ToolResult{Images: []string{""}}, mtb)
	// ,"images":[] plus the quotes of one URL.
	return max(limit-len(bare)-len(`,"images":[]`)-2-imageRoomSlack, 0)
}
