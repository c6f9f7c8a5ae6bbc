package request

import (
	"encoding/json"
	"slices"
	"strings"

	"yui/transport"
)

// CueTool is the name of the cue tool; any name ending in it plays as a cue.
const CueTool = "generate_express"

// IsCue reports whether a called tool is the cue tool.
func IsCue(name string) bool { return strings.HasSuffix(name, CueTool) }

// CueSchema is the generate_express declaration for vocabulary v: every
// field optional, enums from the vocabulary, no other field.
func CueSchema(v transport.Vocabulary) transport.FunctionSchema {
	v = v.Normalized()
	props := map[string]any{
		"emotion_id": map[string]any{"type": "string", "enum": v.EmotionIDs, "description": "Facial expression for the sentence that follows"},
		"motion_id":  map[string]any{"type": "string", "enum": v.MotionIDs, "description": "Body motion"},
		"caption":    map[string]any{"type": "string", "description": "A free-text voice direction for speech synthesis; never shown or spoken"},
	}
	et := map[string]any{"type": "string", "description": "Voice tone tag for speech synthesis; never shown or spoken"}
	if v.EmotionTextMode == "enum" && len(v.EmotionTextMap) > 0 {
		keys := make([]string, 0, len(v.EmotionTextMap))
		for k := range v.EmotionTextMap {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		et["enum"] = keys
	}
	props["emotion_text"] = et
	if len(v.EmotionIDs) == 0 {
		delete(props["emotion_id"].(map[string]any), "enum")
	}
	if len(v.MotionIDs) == 0 {
		delete(props["motion_id"].(map[string]any), "enum")
	}
	params, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "additionalProperties": false})
	return transport.FunctionSchema{
		Name: CueTool,
		Description: "Set the character's face, motion and voice tone for the sentence that follows. " +
			"Call it before the sentence it applies to; it returns ok at once.",
		Parameters: params,
	}
}

// readCue reads generate_express arguments; unreadable fields are dropped.
func readCue(args json.RawMessage) transport.Cue {
	var c transport.Cue
	_ = json.Unmarshal(args, &c)
	return c
}
