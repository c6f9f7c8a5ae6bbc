package inputrules

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Server is whose rules a check applies.
type Server int

const (
	// OpenAI chains on previous_response_id.
	OpenAI Server = iota
	// LlamaServer is llama.cpp's server: no previous_response_id.
	LlamaServer
)

// The texts the servers answer.
const (
	NoPreviousResponseID = "llama.cpp does not support 'previous_response_id'."
	UntypedItem          = "Cannot determine type of 'item'"
	InputRequired        = "'input' is required"
	InputShape           = "'input' must be a string or array of objects"
	UserPartType         = "'type' must be one of 'input_text', 'input_image', or 'input_file'"
	AssistantPartType    = "'type' must be one of 'output_text' or 'refusal'"
	InputTextNeedsText   = "'Input text' requires 'text'"
	OutputTextNeedsText  = "'Output text' requires 'text'"
	ImageNeedsURL        = "'image_url' is required"
	InputFileUnsupported = "'input_file' is not supported by llamacpp at this moment"
	ToolOutputPartType   = "Output of tool call should be 'Input text' or 'Input image'"
	Unreadable           = "the request body is not a JSON object"
)

// Refusal is a request a server refuses: HTTP 400 with Message.
type Refusal struct {
	Server  Server
	Message string
	Param   string // OpenAI's param field ("input", "previous_response_id")
}

// Write answers the refusal as the server does.
func (r *Refusal) Write(w http.ResponseWriter) {
	var body any
	if r.Server == LlamaServer {
		body = map[string]any{"error": map[string]any{"code": http.StatusBadRequest, "message": r.Message, "type": "invalid_request_error"}}
	} else {
		body = map[string]any{"error": map[string]any{"message": r.Message, "type": "invalid_request_error", "param": r.Param, "code": nil}}
	}
	b, _ := json.Marshal(body)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(b)
}

// Check applies the server's rules to a request body; nil when it passes.
func Check(body []byte, srv Server) *Refusal {
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil || req == nil {
		return &Refusal{Server: srv, Message: Unreadable}
	}
	refuse := func(param, msg string) *Refusal { return &Refusal{Server: srv, Message: msg, Param: param} }
	raw, ok := req["input"]
	if !ok {
		return refuse("input", InputRequired)
	}
	var prev string
	if p, ok := req["previous_response_id"]; ok && string(p) != "null" {
		if json.Unmarshal(p, &prev) != nil {
			return refuse("previous_response_id", "previous_response_id must be a string")
		}
	}
	if prev != "" && srv == LlamaServer {
		return refuse("previous_response_id", NoPreviousResponseID)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return nil
	}
	var items []map[string]json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return refuse("input", InputShape)
	}
	calls := map[string]bool{}
	for i, it := range items {
		msg := checkItem(it, calls, prev != "")
		if msg != "" {
			return refuse(fmt.Sprintf("input[%d]", i), msg)
		}
	}
	return nil
}

// item is an input item's members as the rules read them.
type item struct {
	typ, role        string
	typed, roled     bool
	content          json.RawMessage
	callID, name     string
	hasCallID        bool
	hasName, hasArgs bool
	output           json.RawMessage
	outputText       bool
	outputParts      []map[string]json.RawMessage
	summary          json.RawMessage
}

func read(it map[string]json.RawMessage) item {
	var x item
	x.typed = str(it, "type", &x.typ)
	x.roled = str(it, "role", &x.role)
	x.content = it["content"]
	x.hasCallID = str(it, "call_id", &x.callID)
	x.hasName = str(it, "name", &x.name)
	var args string
	x.hasArgs = str(it, "arguments", &args)
	x.output = it["output"]
	var o string
	x.outputText = json.Unmarshal(x.output, &o) == nil
	if !x.outputText {
		_ = json.Unmarshal(x.output, &x.outputParts)
	}
	x.summary = it["summary"]
	return x
}

// str reads a string member; false when absent or not a string.
func str(it map[string]json.RawMessage, key string, into *string) bool {
	raw, ok := it[key]
	return ok && json.Unmarshal(raw, into) == nil
}

// checkItem is one item's rules; calls collects the function_call ids seen
// so far. It returns the refusal text, "" when the item passes.
func checkItem(it map[string]json.RawMessage, calls map[string]bool, chained bool) string {
	x := read(it)
	switch {
	case !x.typed:
		return UntypedItem
	case x.typ == "message" && x.roled && (x.role == "user" || x.role == "system" || x.role == "developer"):
		return checkParts(x.content, userPart)
	case x.typ == "message" && x.roled && x.role == "assistant":
		return checkParts(x.content, assistantPart)
	case x.typ == "function_call" && x.hasArgs && x.hasCallID && x.hasName:
		calls[x.callID] = true
		return ""
	case x.typ == "function_call_output" && x.hasCallID && (x.outputText || x.outputParts != nil):
		if !chained && !calls[x.callID] {
			return fmt.Sprintf("No tool call found for function call output with call_id %s.", x.callID)
		}
		return checkToolOutput(x)
	case x.typ == "reasoning" && len(x.summary) > 0 && x.summary[0] == '[':
		return ""
	}
	return UntypedItem
}

// checkParts checks a message's content: a string, or parts each checked
// by part.
func checkParts(content json.RawMessage, part func(map[string]json.RawMessage) string) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return ""
	}
	var parts []map[string]json.RawMessage
	if json.Unmarshal(content, &parts) != nil {
		return UntypedItem
	}
	for _, p := range parts {
		if msg := part(p); msg != "" {
			return msg
		}
	}
	return ""
}

func userPart(p map[string]json.RawMessage) string {
	var typ, v string
	str(p, "type", &typ)
	switch typ {
	case "input_text":
		if _, ok := p["text"]; !ok {
			return InputTextNeedsText
		}
	case "input_image":
		if !str(p, "image_url", &v) {
			return ImageNeedsURL
		}
	case "input_file":
		return InputFileUnsupported
	default:
		return UserPartType
	}
	return ""
}

func assistantPart(p map[string]json.RawMessage) string {
	var typ, v string
	str(p, "type", &typ)
	switch typ {
	case "output_text":
		if !str(p, "text", &v) {
			return OutputTextNeedsText
		}
	case "refusal":
		if !str(p, "refusal", &v) {
			return "'Refusal' requires 'refusal'"
		}
	default:
		return AssistantPartType
	}
	return ""
}

func checkToolOutput(x item) string {
	for _, p := range x.outputParts {
		var typ string
		str(p, "type", &typ)
		switch typ {
		case "input_text":
		case "input_image":
			if _, ok := p["image_url"]; !ok {
				return ImageNeedsURL
			}
		default:
			return ToolOutputPartType
		}
	}
	return ""
}

// Handler refuses what the server would refuse and passes the rest to
// next (the body readable again).
func Handler(srv Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := readBody(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if ref := Check(b, srv); ref != nil {
			ref.Write(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}
