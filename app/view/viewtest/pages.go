// Package viewtest has an in-memory stand-in for the view server, for
// tests of the core's rooms: it keeps every message in the order sent, as
// the page of each role and preset would receive it (a message page
// mirrors the pet page of its preset), and the sticky state.
package viewtest

import (
	"encoding/json"
	"sync"

	"yui/app/view"
)

// Pages records what the core publishes and sends. The zero value is
// ready; it is safe from any goroutine.
type Pages struct {
	mu      sync.Mutex
	msgs    []Msg
	sticky  map[page]map[string]map[string]any
	discons []page
}

// Msg is one message a page received.
type Msg struct {
	Role, Preset string
	Body         map[string]any // the decoded JSON, type included
}

type page struct{ role, preset string }

func decode(m view.Message) map[string]any {
	var b map[string]any
	if err := json.Unmarshal(m.Body, &b); err != nil {
		panic("viewtest: a message that is no JSON object: " + string(m.Body))
	}
	return b
}

func (p *Pages) add(role, preset string, m view.Message, sticky bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := decode(m)
	p.msgs = append(p.msgs, Msg{Role: role, Preset: preset, Body: b})
	if sticky {
		p.stickLocked(role, preset, m.Type, b)
	}
}

func (p *Pages) stickLocked(role, preset, topic string, b map[string]any) {
	if p.sticky == nil {
		p.sticky = map[page]map[string]map[string]any{}
	}
	k := page{role, preset}
	if p.sticky[k] == nil {
		p.sticky[k] = map[string]map[string]any{}
	}
	p.sticky[k][topic] = b
}

// Publish is view.Server's Publish: preset's pet pages' sticky topic.
func (p *Pages) Publish(preset, topic string, m view.Message) { p.add(view.RolePet, preset, m, true) }

// PublishDelta is view.Server's PublishDelta: live pages get the delta,
// the sticky state the whole.
func (p *Pages) PublishDelta(preset, topic string, whole, live view.Message) {
	p.add(view.RolePet, preset, live, false)
	p.mu.Lock()
	p.stickLocked(view.RolePet, preset, topic, decode(whole))
	p.mu.Unlock()
}

// PublishSettings is view.Server's PublishSettings.
func (p *Pages) PublishSettings(topic string, m view.Message) { p.add(view.RoleSettings, "", m, true) }

// Send is view.Server's Send.
func (p *Pages) Send(role, preset string, m view.Message) { p.add(role, preset, m, false) }

// Disconnect is view.Server's Disconnect: recorded.
func (p *Pages) Disconnect(role, preset string) {
	p.mu.Lock()
	p.discons = append(p.discons, page{role, preset})
	p.mu.Unlock()
}

// Forget is view.Server's Forget: preset's pet pages' sticky state goes.
func (p *Pages) Forget(preset string) {
	p.mu.Lock()
	delete(p.sticky, page{view.RolePet, preset})
	p.mu.Unlock()
}

// Got returns every message the page of role and preset received, in
// order (a message page also gets its preset's pet topics).
func (p *Pages) Got(role, preset string) []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, m := range p.msgs {
		if m.Preset == preset && (m.Role == role || (role == view.RoleMessage && m.Role == view.RolePet)) {
			out = append(out, m.Body)
		}
	}
	return out
}

// Of returns the messages of type typ the page of role and preset
// received, in order.
func (p *Pages) Of(role, preset, typ string) []map[string]any {
	var out []map[string]any
	for _, m := range p.Got(role, preset) {
		if m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// Last is the latest message of type typ the page received (nil: none).
func (p *Pages) Last(role, preset, typ string) map[string]any {
	all := p.Of(role, preset, typ)
	if len(all) == 0 {
		return nil
	}
	return all[len(all)-1]
}

// Sticky is what a pet page (role pet) or the settings page (role
// settings) that connects now would get for topic (nil: nothing).
func (p *Pages) Sticky(role, preset, topic string) map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sticky[page{role, preset}][topic]
}

// Disconnected reports whether the pages of role and preset were
// disconnected.
func (p *Pages) Disconnected(role, preset string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range p.discons {
		if d == (page{role, preset}) {
			return true
		}
	}
	return false
}
