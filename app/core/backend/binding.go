package backend

import (
	"errors"

	"yui/app/permission"
	"yui/app/settings"
)

// Store is the settings file.
type Store interface {
	Get() settings.Settings
	Change(func(*settings.Settings) error) error
}

// Endpoint is where preset p connects: its chat_base_url, with demo (the
// embedded demo backend's actual address, "" when it does not run)
// standing for settings.DemoBaseURL; "" when available says this build
// lacks its chat_api (no connection: the plate says why).
func Endpoint(p settings.Preset, demo string, available func(string) bool) string {
	if !available(p.ChatAPI) {
		return ""
	}
	if p.ChatBaseURL == settings.DemoBaseURL && demo != "" {
		return demo
	}
	return p.ChatBaseURL
}

// Binding is a character's session bound to the backend it was made for:
// should her preset's URL move to another origin before the session is
// replaced, it gets no endpoint and no key, and what it saves (an
// "Always" answered to the old backend, the thread it made) is not saved
// for the new one.
type Binding struct {
	store     Store
	id, bound string // the preset, and the origin it was made for
	demo      func() string
	available func(string) bool
}

// Bound binds preset p's session to its backend now. demo is where the
// embedded demo backend listens; available says which chat_api this
// build runs.
func Bound(store Store, p settings.Preset, demo func() string, available func(string) bool) *Binding {
	return &Binding{store: store, id: p.ID, bound: Origin(p.ChatBaseURL), demo: demo, available: available}
}

// preset is the preset now, while its URL has the bound origin.
func (b *Binding) preset() (settings.Preset, bool) {
	all := b.store.Get()
	p, ok := all.Preset(b.id)
	return p, ok && Origin(p.ChatBaseURL) == b.bound
}

// Endpoint is where the session connects, "" once the origin moved.
func (b *Binding) Endpoint() string {
	p, ok := b.preset()
	if !ok {
		return ""
	}
	return Endpoint(p, b.demo(), b.available)
}

// Key is the preset's key while its URL has the bound origin, else "".
// The key is read with the URL from one snapshot of the settings, and a
// save that changes the origin drops the key in the same write, so a key
// never goes with another origin's endpoint.
func (b *Binding) Key() string {
	p, ok := b.preset()
	if !ok {
		return ""
	}
	return p.Key
}

// change runs fn on the preset in the file, refusing (why) once its
// origin moved; a preset that is gone is refused when gone is not nil.
func (b *Binding) change(why string, gone error, fn func(*settings.Preset)) error {
	return b.store.Change(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID != b.id {
				continue
			}
			if Origin(s.Presets[i].ChatBaseURL) != b.bound {
				return errors.New("the character's backend changed since " + why)
			}
			fn(&s.Presets[i])
			return nil
		}
		return gone
	})
}

// SavePermission saves a standing screen permission answered to this
// backend.
func (b *Binding) SavePermission(m permission.Mode) error {
	return b.change("it asked", nil, func(p *settings.Preset) { p.Permissions.Screen = string(m) })
}

// SaveThread remembers the thread a Standard Agents character made, while
// the preset still points at the runtime it was made on.
func (b *Binding) SaveThread(thread string) error {
	return b.change("it made the thread", settings.ErrNoCharacter, func(p *settings.Preset) { p.ThreadID = thread })
}
