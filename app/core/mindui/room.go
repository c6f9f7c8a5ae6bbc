package mindui

import (
	"errors"
	"log/slog"
	"slices"
	"sort"
	"strings"

	"yui/app/core/route"
	"yui/app/memory"
	"yui/app/pet"
	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/view"
)

// Memory is one character's memory store.
type Memory interface {
	State() memory.State
	Set(summary string, facts []string) error
}

// Host is what the room asks of the core.
type Host interface {
	// Memory is preset id's memory (one store per character).
	Memory(id string) Memory
	// SaveMCP saves preset id's MCP servers and answers, validated; the
	// core then makes her anew with them. A refused value is a
	// *settings.FieldError naming the field.
	SaveMCP(id string, servers []settings.MCPServer, grants settings.MCPGrants) error
}

// Store is the settings file.
type Store interface{ Get() settings.Settings }

// Pages is the view server.
type Pages interface {
	PublishSettings(topic string, m view.Message)
	Send(role, preset string, m view.Message)
}

// Config makes a Room.
type Config struct {
	Store  Store
	Pages  Pages
	Host   Host
	Logger *slog.Logger
}

// Room is the section's controller.
type Room struct {
	cfg Config
	log *slog.Logger
}

// New makes the room; nothing is published until Publish.
func New(cfg Config) *Room {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Room{cfg: cfg, log: lg}
}

// Routes registers mind_save (the settings window only).
func (r *Room) Routes(t *route.Table) {
	t.Add(route.Only(r.log, route.Roles(view.RoleSettings), "only the settings window edits what she remembers",
		route.JSON(r.log, func(_ view.Peer, req view.MindSave) { r.Save(req) })), view.TypeMindSave)
}

// Note is what the section says of a character whose backend keeps her
// memory and tools ("" on a request wire).
func Note(p settings.Preset) string {
	return note(p).English()
}

// note is Note as a phrase (the zero Phrase for a request wire).
func note(p settings.Preset) phrase.Phrase {
	if pet.IsRequestWire(p.ChatAPI) {
		return phrase.Phrase{}
	}
	if n := strings.TrimSpace(p.Name); n != "" {
		return phrase.New("core.note.mind_off", "name", n, "api", p.ChatAPI)
	}
	return phrase.New("core.note.mind_off_unnamed", "api", p.ChatAPI)
}

// Publish sends every character's section (after a save, a memory change,
// a settings change).
func (r *Room) Publish() {
	all := r.cfg.Store.Get()
	out := view.SettingsMind{Presets: []view.MindPreset{}}
	for _, p := range all.Presets {
		st := r.cfg.Host.Memory(p.ID).State()
		mp := view.MindPreset{ID: p.ID, Applies: pet.IsRequestWire(p.ChatAPI), Note: Note(p), NoteMsg: note(p).Ptr(),
			Summary: st.Summary, Facts: st.Facts, Servers: []view.MCPServerForm{}, Grants: []view.MCPGrantForm{}}
		if mp.Facts == nil {
			mp.Facts = []string{}
		}
		for _, s := range p.MCPServers {
			mp.Servers = append(mp.Servers, view.MCPServerForm{Name: s.Name, Command: s.Command, Args: nonNil(s.Args), URL: s.URL, Off: s.Off})
		}
		tools := make([]string, 0, len(p.MCPGrants))
		for t := range p.MCPGrants {
			tools = append(tools, t)
		}
		sort.Strings(tools)
		for _, t := range tools {
			mp.Grants = append(mp.Grants, view.MCPGrantForm{Tool: t, Mode: p.MCPGrants[t]})
		}
		out.Presets = append(out.Presets, mp)
	}
	r.cfg.Pages.PublishSettings(view.TypeSettingsMind, view.MustEncode(view.TypeSettingsMind, out))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

// Save applies one mind_save and answers it.
func (r *Room) Save(req view.MindSave) {
	res := view.MindResult{RequestID: req.RequestID, OK: true}
	if err := r.save(req); err != nil {
		res.OK, res.Error = false, err.Error()
		var fe *settings.FieldError
		if errors.As(err, &fe) {
			res.Field, res.Error = fe.Field, fe.Reason
			if strings.HasPrefix(res.Field, "presets[") {
				// Validate names the preset; the section is hers.
				_, res.Field, _ = strings.Cut(res.Field, "].")
			}
		}
		r.log.Warn("mind_save_refused", "preset", req.Preset, "field", res.Field)
	} else {
		r.log.Info("mind_saved", "preset", req.Preset, "memory", req.Memory != nil, "mcp", req.MCP != nil)
	}
	r.cfg.Pages.Send(view.RoleSettings, "", view.MustEncode(view.TypeMindResult, res))
	r.Publish()
}

func (r *Room) save(req view.MindSave) error {
	all := r.cfg.Store.Get()
	p, ok := all.Preset(req.Preset)
	if !ok {
		return errors.New("no such character (save the form first)")
	}
	if req.MCP != nil {
		if !pet.IsRequestWire(p.ChatAPI) && len(req.MCP.Servers) > 0 {
			return &settings.FieldError{Field: "mcp_servers", Reason: Note(p)}
		}
		servers := make([]settings.MCPServer, 0, len(req.MCP.Servers))
		for _, s := range req.MCP.Servers {
			servers = append(servers, settings.MCPServer{Name: strings.TrimSpace(s.Name), Command: strings.TrimSpace(s.Command),
				Args: s.Args, URL: strings.TrimSpace(s.URL), Off: s.Off})
		}
		var grants settings.MCPGrants
		for _, g := range req.MCP.Grants {
			if grants == nil {
				grants = settings.MCPGrants{}
			}
			grants[g.Tool] = g.Mode
		}
		if err := r.cfg.Host.SaveMCP(p.ID, servers, grants); err != nil {
			return err
		}
	}
	if req.Memory != nil {
		if err := r.cfg.Host.Memory(p.ID).Set(req.Memory.Summary, req.Memory.Facts); err != nil {
			field := "facts"
			if errors.Is(err, memory.ErrSummaryLong) {
				field = "summary"
			}
			return &settings.FieldError{Field: field, Reason: err.Error()}
		}
	}
	return nil
}
