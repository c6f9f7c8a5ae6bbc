package push

// imageRoomSlack is the result text the room leaves space for ("ok" and
// short answers fit; a longer text makes the client fit again).
const imageRoomSlack = 256

// imageRoomFor is the room of one call's result images on a socket whose
// ready stated mtb (0: none): what transport.ImageRoom reports to the
// tool's Run.
func imageRoomFor(call ToolCall, mtb int) int {
	bare, err := Encode(ToolResult{ID: call.ID, TurnID: call.TurnID, Result: ""})
	if err != nil {
		return 0
	}
	limit := FrameLimit(ToolResult{Images: []string{""}}, mtb)
	// ,"images":[] plus the quotes of one URL.
	return max(limit-len(bare)-len(`,"images":[]`)-2-imageRoomSlack, 0)
}
