//go:build !linux && !windows

package hotkey

import (
	"context"
	"errors"
)

// none has no global shortcuts.
type none struct{}

// System is the platform's Grabber: none on this system.
func System() Grabber { return none{} }

func (none) Listen(context.Context, Combo, func()) error {
	return errors.New("hotkey: global shortcuts are not supported on this system")
}
