package jpegfit

import "math"

// JPEG size follows the quantiser scale of the IJG quality mapping roughly
// as size ∝ scale^-gamma; defaultGamma is a typical exponent for screen
// content, refined from two measurements once the search has them.
const defaultGamma = 0.52

// quantScale is the IJG quantiser scale in percent for quality q (1..100).
func quantScale(q int) float64 {
	if q < 50 {
		return 5000 / float64(q)
	}
	return float64(200 - 2*q)
}

// qualityFor inverts quantScale, rounding towards the smaller file.
func qualityFor(scale float64) int {
	if scale > 100 {
		return int(math.Ceil(5000 / scale))
	}
	return int(math.Floor((200 - scale) / 2))
}

// sample is one encode of the search: a quality and the bytes it gave.
type sample struct {
	quality int
	size    int
}

// predictQuality picks the quality expected to give target bytes from the
// last sample, with gamma fitted on two samples when they differ.
func predictQuality(last, other sample, target int) int {
	gamma := defaultGamma
	if other.quality != 0 && other.quality != last.quality && other.size != last.size {
		g := math.Log(float64(last.size)/float64(other.size)) /
			math.Log(quantScale(other.quality)/quantScale(last.quality))
		if g > 0.15 && g < 2 {
			gamma = g
		}
	}
	scale := quantScale(last.quality) * math.Pow(float64(last.size)/float64(target), 1/gamma)
	return qualityFor(min(max(scale, 1), 5000))
}
