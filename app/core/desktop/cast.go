package desktop

import (
	"yui/app/settings"
	"yui/app/supervisor"
)

// Cast is the Host the core gives the room: its running characters, its
// lock, and the narrow parts below.
type Cast struct {
	// Has reports whether preset id's character runs; IDs are those that do.
	Has func(id string) bool
	IDs func() []string
	// Spec is the process of preset p's pet window.
	Spec func(p settings.Preset) supervisor.Spec
	// Holder runs fn as Host.Hold.
	Holder func(fn func(windows bool))
	// Mute switches the global mute (the voices room).
	Mute func(on bool) error
	// OnChange is told after every change (Host.Changed).
	OnChange func()
}

// HasPet reports whether preset id's character runs.
func (c Cast) HasPet(id string) bool { return c.Has(id) }

// PetIDs are the running characters.
func (c Cast) PetIDs() []string { return c.IDs() }

// PetSpec is the process of preset p's pet window.
func (c Cast) PetSpec(p settings.Preset) supervisor.Spec { return c.Spec(p) }

// Hold runs fn while no save or shutdown changes the characters.
func (c Cast) Hold(fn func(windows bool)) { c.Holder(fn) }

// SetMuted switches the global mute.
func (c Cast) SetMuted(on bool) error { return c.Mute(on) }

// Changed is told after every change.
func (c Cast) Changed() { c.OnChange() }

var _ Host = Cast{}
