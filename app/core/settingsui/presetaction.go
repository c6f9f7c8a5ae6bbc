package settingsui

import (
	"log/slog"

	"yui/app/core/route"
	"yui/app/view"
)

// PresetActs are what the settings window's buttons do to a running
// character T (preset_action): reconnect, a new conversation, show her
// hidden window.
type PresetActs[T any] struct {
	// Find is preset id's running character (ok false: switched off).
	Find             func(id string) (T, bool)
	Reconnect, Reset func(T)
	// Show shows her hidden window (its error, no such character, is
	// dropped: she was just found running).
	Show func(id string) error
}

// Routes registers preset_action, from the settings window only. A
// preset with no running character or an unknown action is logged and
// dropped.
func (a PresetActs[T]) Routes(t *route.Table, lg *slog.Logger) {
	t.Add(route.Only(lg, route.Roles(view.RoleSettings), "pet pages act on their own preset",
		route.JSON(lg, func(_ view.Peer, pa view.PresetAction) { a.act(lg, pa) })), view.TypePresetAction)
}

func (a PresetActs[T]) act(lg *slog.Logger, pa view.PresetAction) {
	ch, ok := a.Find(pa.Preset)
	if !ok {
		lg.Warn("view_unknown_preset", "preset", pa.Preset, "type", view.TypePresetAction)
		return
	}
	switch pa.Action {
	case view.TypeReconnect:
		a.Reconnect(ch)
	case view.TypeReset:
		a.Reset(ch)
	case "show":
		_ = a.Show(pa.Preset)
	default:
		lg.Warn("view_malformed", "type", view.TypePresetAction, "action", pa.Action)
		return
	}
	lg.Info("view_action", "type", pa.Action, "preset", pa.Preset, "from", view.RoleSettings)
}
