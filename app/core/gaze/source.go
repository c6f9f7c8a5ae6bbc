package gaze

import "context"

// Source is the desktop's pointer: Watch calls moved each time it moves
// anywhere on the screen until ctx ends (event driven: nothing while it
// is still), and Position says where it is (screen pixels). Position is
// safe for concurrent use.
type Source interface {
	Watch(ctx context.Context, moved func()) error
	Position() (x, y int, err error)
}
