package playback_test

import (
	"fmt"

	"yui/app/cue"
	"yui/app/playback"
)

// A session forwards events to its own mailbox; here a channel stands in.
func ExamplePlayer() {
	events := make(chan playback.Event, 64)
	p := playback.New(playback.Options{
		Voice:   playback.Silent{CharsPerSecond: 0}, // instant
		OnEvent: func(ev playback.Event) { events <- ev },
	})
	defer p.Close()

	p.Speech("1789365854947", []playback.Segment{{Cues: []cue.Cue{{EmotionID: "happy"}}, Speech: "All green."}})
	p.Render("1789365854947", []playback.Segment{
		{Speech: "All green."}, // repeats the streamed sentence: skipped
		{Cues: []cue.Cue{{EmotionID: "curious"}}, Speech: "Want the slow ones listed?"},
	})
	for ev := range events {
		switch ev.Kind {
		case playback.CueFired:
			fmt.Println(ev.Kind, ev.Cue.EmotionID)
		case playback.Idle:
			fmt.Println(ev.Kind)
			return
		default:
			fmt.Println(ev.Kind, ev.Text)
		}
	}
	// Output:
	// cue happy
	// speech_start All green.
	// speech_end All green.
	// cue curious
	// speech_start Want the slow ones listed?
	// speech_end Want the slow ones listed?
	// utterance_end All green. Want the slow ones listed?
	// idle
}
