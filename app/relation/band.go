package relation

// The range of a standing and of one call's delta.
const (
	MinStanding = -100
	MaxStanding = 100
	MinDelta    = -5
	MaxDelta    = 5
)

// The band names, from the lowest standing to the highest.
const (
	Hostile  = "hostile"
	Cold     = "cold"
	Neutral  = "neutral"
	Friendly = "friendly"
	Close    = "close"
)

// Band names a standing: -100..-60 hostile, -59..-20 cold, -19..19
// neutral, 20..59 friendly, 60..100 close.
func Band(standing int) string {
	switch {
	case standing <= -60:
		return Hostile
	case standing <= -20:
		return Cold
	case standing < 20:
		return Neutral
	case standing < 60:
		return Friendly
	}
	return Close
}

// clamp keeps v within the standing's range.
func clamp(v int) int { return min(MaxStanding, max(MinStanding, v)) }
