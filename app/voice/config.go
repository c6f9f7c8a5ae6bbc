package voice

import (
	"maps"
	"math"

	"yui/app/cue"
	"yui/app/tts"
)

// Engines a character's voice can use.
const (
	EngineSystem   = "system"   // a local synthesiser (tts.System)
	EngineEndpoint = "endpoint" // an OpenAI-compatible speech endpoint (tts.Endpoint)
	EngineOff      = "off"      // text only
)

// Config is one character's voice as the settings say.
type Config struct {
	// Engine is EngineSystem, EngineEndpoint or EngineOff; "" is
	// EngineSystem.
	Engine string
	// System and Endpoint are the two engines' settings; the one Engine
	// names is used.
	System   tts.System
	Endpoint tts.Endpoint
	// TextMap is the engine's emotion_text tag table: with entries the
	// vocabulary is in enum mode and a tag's meaning is the Tone; empty
	// is free mode.
	TextMap map[string]string
	// Volume is 0 (silent) to 1 (full).
	Volume float64
	// Muted is the character's own mute.
	Muted bool
	// Device names the output sink; "" is the default device.
	Device string
}

func (c Config) engineName() string {
	if c.Engine == "" {
		return EngineSystem
	}
	return c.Engine
}

// Vocabulary returns v with the engine's tag table (enum mode when it has
// entries).
func (c Config) Vocabulary(v cue.Vocabulary) cue.Vocabulary {
	if c.engineName() != EngineEndpoint {
		return v.WithTextMap(nil)
	}
	return v.WithTextMap(c.TextMap)
}

// tone resolves a cue's emotion_text for the engine.
func (c Config) tone(emotionText string) string {
	t, _ := c.Vocabulary(cue.Vocabulary{}).VoiceTag(emotionText)
	return t
}

// gain is the amplitude factor of the volume: v², clamped to 0..1.
func (c Config) gain() float64 {
	v := math.Max(0, math.Min(1, c.Volume))
	return v * v
}

// engine builds the engine c names (nil for Off).
func (c Config) engine() tts.Engine {
	switch c.engineName() {
	case EngineSystem:
		s := c.System
		return &s
	case EngineEndpoint:
		e := c.Endpoint
		return &e
	}
	return nil
}

// sameEngine reports whether a and b build the same engine.
func sameEngine(a, b Config) bool {
	return a.engineName() == b.engineName() && a.System == b.System &&
		a.Endpoint.BaseURL == b.Endpoint.BaseURL && a.Endpoint.Key == b.Endpoint.Key &&
		a.Endpoint.Model == b.Endpoint.Model && a.Endpoint.Voice == b.Endpoint.Voice &&
		a.Endpoint.Format == b.Endpoint.Format && a.Endpoint.MaxBytes == b.Endpoint.MaxBytes &&
		maps.Equal(a.TextMap, b.TextMap)
}
