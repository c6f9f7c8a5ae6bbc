//go:build !linux && !windows

package presence

import "time"

type unknown struct{}

func newReader(string) reader { return unknown{} }

func (unknown) idle() (time.Duration, bool) { return 0, false }
func (unknown) fullscreen() bool            { return false }
func (unknown) locked() bool                { return false }
