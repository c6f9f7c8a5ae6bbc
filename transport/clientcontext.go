package transport

import "strings"

// The client_context block (client-notes §3) as each wire carries it
// beside the utterance. Push sends the block and the utterance apart
// (turn.client_context, turn.text).

// ContextInput is the user input of the wires that carry the block with
// the utterance in one text (Responses' input_text, a Standard Agents
// message): the block, a blank line, then the utterance; either alone when
// the other is empty.
func ContextInput(block, utterance string) string {
	switch {
	case block == "":
		return utterance
	case utterance == "":
		return block
	}
	return block + "\n\n" + utterance
}

// ContextSystem is Chat Completions' client_context system message:
// "client_context:" and the block's lines without the tags.
func ContextSystem(block string) string {
	inner := strings.TrimPrefix(block, "<client_context>\n")
	inner = strings.TrimSuffix(inner, "\n</client_context>")
	return "client_context:\n" + inner
}
