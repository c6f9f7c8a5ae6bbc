package clientctx

import "strings"

// ResponsesInput is the Responses API user input: the block, a blank line,
// then the utterance; the block alone when the utterance is empty.
func ResponsesInput(block, utterance string) string {
	if utterance == "" {
		return block
	}
	return block + "\n\n" + utterance
}

// ChatCompletionsSystem is the Chat Completions system message:
// "client_context:" and the block's lines without the tags.
func ChatCompletionsSystem(block string) string {
	inner := strings.TrimPrefix(block, openTag+"\n")
	inner = strings.TrimSuffix(inner, "\n"+closeTag)
	return "client_context:\n" + inner
}
