package view

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The page's side of the protocol, frontend/src/protocol.ts, is checked
// against this package's types (docs/view-protocol.md, "Keeping the two
// sides in step"): every message type the Go side defines is either
// mapped to its struct here or named as one no page sees; each mapped
// message's TypeScript interface has exactly the struct's JSON fields
// (nested interfaces too, by the field's type name); and the page's list
// of the core's message types is exactly the core → page ones.

// tsMessages maps each message type a page sends or receives to its Go
// body (struct{} for a message with no fields), and whether it goes core →
// page (the page's `known` set).
var tsMessages = map[string]struct {
	body   any
	toPage bool
}{
	TypePreset: {PresetInfo{}, true}, TypePlate: {Plate{}, true}, TypeComposer: {Composer{}, true},
	TypeErrorLine: {ErrorLine{}, true}, TypeNotice: {Notice{}, true}, TypeCharacter: {Character{}, true},
	TypeMouth: {Mouth{}, true}, TypeVoice: {VoiceState{}, true}, TypeBubble: {Bubble{}, true}, TypePill: {Pill{}, true},
	TypePermission: {PermissionPrompt{}, true}, TypeReasoning: {Reasoning{}, true}, TypeUsage: {Usage{}, true},
	TypeDelegations: {Delegations{}, true}, TypeDesktop: {Desktop{}, true},
	TypeSettingsState: {SettingsState{}, true}, TypeSettingsAudio: {SettingsAudio{}, true},
	TypeSettingsFocus: {SettingsFocus{}, true}, TypeSettingsStatus: {SettingsStatus{}, true},
	TypeSettingsResult: {SettingsResult{}, true}, TypeSettingsHistory: {SettingsHistory{}, true},
	TypeConnectionTest: {ConnectionTest{}, true},
	TypeTranscript:     {Transcript{}, true}, TypeTranscriptEntry: {TranscriptEntry{}, true},
	TypeHistoryResults: {HistoryResults{}, true}, TypeHistoryExported: {HistoryExported{}, true},
	TypeHistoryPage: {HistoryPage{}, true}, TypeHistoryMore: {HistoryMore{}, false},
	TypeHistorySearch: {HistorySearch{}, false}, TypeHistoryExport: {HistoryExport{}, false},
	TypeOpenComposer: {struct{}{}, true}, TypeLookArt: {LookArt{}, true}, TypePointer: {Pointer{}, true},
	TypeTouch: {Touch{}, false}, TypeLookFailed: {LookFailed{}, false}, TypeLookThumbnail: {LookThumbnail{}, false},
	TypeLookOptions: {LookOptions{}, false},

	TypeSendText: {SendText{}, false}, TypeStop: {struct{}{}, false}, TypeReconnect: {struct{}{}, false},
	TypeDismiss: {Dismiss{}, false}, TypeReset: {struct{}{}, false}, TypePermissionAnswer: {PermissionAnswer{}, false},
	TypeMute: {Mute{}, false}, TypeSaveSettings: {SaveSettings{}, false}, TypeOpenSettings: {OpenSettings{}, false},
	TypePresetAction: {PresetAction{}, false}, TypeDesktopAction: {DesktopAction{}, false},
	TypeTestConnection: {TestConnection{}, false},
	TypeOpenMessages:   {struct{}{}, false},
	TypeResetStanding:  {ResetStanding{}, false},

	TypeListen: {ListenState{}, true}, TypeSettingsListen: {SettingsListen{}, true}, TypeListenLevel: {ListenLevel{}, true},
	TypeListenHold: {ListenHold{}, false}, TypeListenTarget: {struct{}{}, false}, TypeListenMeter: {ListenMeter{}, false},
	TypeQuiet: {Quiet{}, false}, TypeCompanion: {Companion{}, true}, TypeSettingsProactive: {SettingsProactive{}, true},

	TypeSettingsMind: {SettingsMind{}, true}, TypeMindResult: {MindResult{}, true}, TypeMindSave: {MindSave{}, false},

	TypeBody: {Body{}, true}, TypeBodyDrag: {BodyDrag{}, false}, TypeBodyMenu: {BodyMenu{}, false},
}

// goOnly are the message types no page sends or receives: the shell's,
// and show_window, which the core accepts from a pet page but no page
// sends yet.
var goOnly = []string{TypeWindowConfig, TypeWindowPosition, TypeWindowShow, TypeWindowTitle, TypeShowWindow, TypeWindowMove, TypeWindowHidden, TypeWindowQuit, TypeWindowStep}

// tsInterface is one interface (or inline object type) of protocol.ts:
// its fields and their types as written.
type tsInterface struct {
	name   string
	fields map[string]string
}

// readProtocolTS parses protocol.ts's interfaces and PageMessage's inline
// object types (named "PageMessage.<type>").
func readProtocolTS(t *testing.T) (map[string]tsInterface, []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "frontend", "src", "protocol.ts"))
	if err != nil {
		t.Fatalf("read protocol.ts: %v", err)
	}
	src := regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`).ReplaceAllString(string(b), "")
	out := map[string]tsInterface{}
	head := regexp.MustCompile(`export interface (\w+)\s*\{`)
	for _, m := range head.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		body, _ := braced(src, m[1]-1)
		out[name] = tsInterface{name: name, fields: tsFields(body)}
	}
	// PageMessage's members written inline: { type: 'x'; ... }.
	if i := strings.Index(src, "export type PageMessage"); i >= 0 {
		end := strings.Index(src[i:], ";\n\n")
		part := src[i : i+end]
		for j := 0; j < len(part); j++ {
			if part[j] != '{' {
				continue
			}
			body, k := braced(part, j)
			f := tsFields(body)
			if typ, ok := f["type"]; ok {
				name := "PageMessage." + strings.Trim(typ, "'")
				out[name] = tsInterface{name: name, fields: f}
			}
			j = k
		}
	}
	var known []string
	if m := regexp.MustCompile(`(?s)const known = new Set\(\[(.*?)\]\)`).FindStringSubmatch(src); m != nil {
		for _, q := range regexp.MustCompile(`'(\w+)'`).FindAllStringSubmatch(m[1], -1) {
			known = append(known, q[1])
		}
	} else {
		t.Fatal("protocol.ts: no `known` set")
	}
	return out, known
}

// braced returns the text inside the braces opening at src[open] and the
// index of the closing brace.
func braced(src string, open int) (string, int) {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[open+1 : i], i
			}
		}
	}
	return src[open+1:], len(src)
}

// tsFields splits an object type's body into its top-level fields (name
// without "?" → type as written).
func tsFields(body string) map[string]string {
	fields := map[string]string{}
	depth := 0
	start := 0
	flush := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			return
		}
		name, typ, ok := strings.Cut(s, ":")
		if !ok {
			return
		}
		fields[strings.TrimSuffix(strings.TrimSpace(name), "?")] = strings.TrimSpace(typ)
	}
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{', '<', '(', '[':
			depth++
		case '}', '>', ')', ']':
			depth--
		case ';', '\n':
			if depth == 0 {
				flush(body[start:i])
				start = i + 1
			}
		}
	}
	flush(body[start:])
	return fields
}

// jsonFields lists a struct's JSON fields (embedded structs flattened),
// with each field's type.
func jsonFields(rt reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// elemStruct is the struct a field's type holds (through pointers, slices
// and maps), or nil.
func elemStruct(rt reflect.Type) reflect.Type {
	for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
		rt = rt.Elem()
	}
	if rt.Kind() == reflect.Struct {
		return rt
	}
	return nil
}

// tsTypeName is the interface a TypeScript field type names ("PillTool |
// null" → "PillTool", "DelegationItem[] | null" → "DelegationItem",
// "Record<string, Choice[] | null> | null" → "Choice"), or "".
func tsTypeName(typ string, ifaces map[string]tsInterface) string {
	for _, w := range regexp.MustCompile(`[A-Za-z_]\w*`).FindAllString(typ, -1) {
		if _, ok := ifaces[w]; ok {
			return w
		}
	}
	return ""
}

// compareShape reports every difference between a TS interface and a Go
// struct, following fields whose types are interfaces / structs.
func compareShape(diffs *[]string, where string, ts tsInterface, rt reflect.Type, ifaces map[string]tsInterface, seen map[string]bool) {
	errorf := func(format string, a ...any) { *diffs = append(*diffs, fmt.Sprintf(format, a...)) }
	goFields := map[string]reflect.Type{}
	if rt.Kind() == reflect.Struct {
		goFields = jsonFields(rt)
	}
	var missingTS, missingGo []string
	for name := range goFields {
		if _, ok := ts.fields[name]; !ok {
			missingTS = append(missingTS, name)
		}
	}
	for name := range ts.fields {
		if name == "type" {
			continue
		}
		if _, ok := goFields[name]; !ok {
			missingGo = append(missingGo, name)
		}
	}
	sort.Strings(missingTS)
	sort.Strings(missingGo)
	if len(missingTS) > 0 {
		errorf("%s: protocol.ts %s lacks %v that Go's %s has", where, ts.name, missingTS, rt)
	}
	if len(missingGo) > 0 {
		errorf("%s: protocol.ts %s has %v that Go's %s lacks", where, ts.name, missingGo, rt)
	}
	for name, ft := range goFields {
		tsType, ok := ts.fields[name]
		if !ok {
			continue
		}
		inner := tsTypeName(tsType, ifaces)
		st := elemStruct(ft)
		switch {
		case inner != "" && st != nil:
			key := inner + "/" + st.String()
			if !seen[key] {
				seen[key] = true
				compareShape(diffs, where+"."+name, ifaces[inner], st, ifaces, seen)
			}
		case inner != "" && st == nil:
			errorf("%s.%s: protocol.ts has interface %s, Go has %s", where, name, inner, ft)
		case inner == "" && st != nil && !strings.Contains(tsType, "{"):
			errorf("%s.%s: Go has struct %s, protocol.ts has %q", where, name, st, tsType)
		}
	}
}

// goTypeConstants lists every Type* string constant of this package.
func goTypeConstants(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]string{}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, "Type") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						out[n.Name] = v
					}
				}
			}
		}
	}
	return out
}

func TestProtocolTSAgreesWithGo(t *testing.T) {
	ifaces, known := readProtocolTS(t)
	// Every Go message type is mapped here or named as no page's.
	for name, v := range goTypeConstants(t) {
		if _, ok := tsMessages[v]; !ok && !slices.Contains(goOnly, v) {
			t.Errorf("view.%s (%q) is in neither tsMessages nor goOnly: add it to protocol.ts and this test", name, v)
		}
	}
	// Each TS interface with a `type` field, by its type.
	byType := map[string]tsInterface{}
	for _, it := range ifaces {
		if typ, ok := it.fields["type"]; ok && strings.HasPrefix(typ, "'") {
			byType[strings.Trim(typ, "'")] = it
		}
	}
	var wantKnown []string
	for typ, m := range tsMessages {
		if m.toPage {
			wantKnown = append(wantKnown, typ)
		}
		it, ok := byType[typ]
		if !ok {
			if reflect.TypeOf(m.body).NumField() == 0 && !m.toPage {
				// A page → core message with no fields may be written
				// inline; it must still be in PageMessage.
				if _, ok := ifaces["PageMessage."+typ]; !ok {
					t.Errorf("protocol.ts: PageMessage has no %q", typ)
				}
				continue
			}
			t.Errorf("protocol.ts: no interface with type %q (Go: %T)", typ, m.body)
			continue
		}
		var diffs []string
		compareShape(&diffs, typ, it, reflect.TypeOf(m.body), ifaces, map[string]bool{})
		for _, d := range diffs {
			t.Error(d)
		}
	}
	for typ := range byType {
		if _, ok := tsMessages[typ]; !ok {
			t.Errorf("protocol.ts: type %q has no Go message in tsMessages", typ)
		}
	}
	sort.Strings(wantKnown)
	sort.Strings(known)
	if !slices.Equal(known, wantKnown) {
		t.Errorf("protocol.ts known = %v, want the core → page types %v", known, wantKnown)
	}
}

// The checker itself finds a difference: a field renamed on one side, a
// nested interface missing a field.
func TestProtocolTSCheckerSeesADifference(t *testing.T) {
	ifaces := map[string]tsInterface{
		"Plate":    {name: "Plate", fields: tsFields("type: 'plate'; kind: string; txt: string; action?: string; cause?: string; settings?: boolean; msg?: Phrase | null; cause_msg?: Phrase | null")},
		"Phrase":   {name: "Phrase", fields: tsFields("key: string; vars?: Record<string, string> | null")},
		"Pill":     {name: "Pill", fields: tsFields("type: 'pill'; tool: PillTool | null; error: string; capture?: boolean; voice?: string")},
		"PillTool": {name: "PillTool", fields: tsFields("tool_id: string; state: string; label: string")},
	}
	var diffs []string
	compareShape(&diffs, "plate", ifaces["Plate"], reflect.TypeOf(Plate{}), ifaces, map[string]bool{})
	compareShape(&diffs, "pill", ifaces["Pill"], reflect.TypeOf(Pill{}), ifaces, map[string]bool{})
	want := []string{
		"plate: protocol.ts Plate lacks [text] that Go's view.Plate has",
		"plate: protocol.ts Plate has [txt] that Go's view.Plate lacks",
		"pill.tool: protocol.ts PillTool lacks [phrase] that Go's view.PillTool has",
	}
	if !slices.Equal(diffs, want) {
		t.Fatalf("diffs = %q, want %q", diffs, want)
	}
}
