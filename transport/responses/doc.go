// Package responses is the OpenAI Responses request transport (POST
// {base}/responses, streamed over server-sent events). The backend holds
// the conversation, chained by previous_response_id (persisted per preset,
// cleared by reset); against a server that refuses previous_response_id
// (llama.cpp's answers 400) the client carries the transcript as input
// items to that server instead, and keeps working — remembered per base
// URL in the preset's conversation, so the refused id is tried once. Every
// input item names its type (message with input_text / output_text parts,
// function_call, function_call_output): llama-server refuses one without
// ("Cannot determine type of 'item'"; inputrules holds the rules the test
// servers apply). instructions carry the
// card, input the client_context block and the utterance (input_text, then
// input_image parts: screenshot first, then attachments), tools the cue
// tool and the client tools in the flat function shape. Speech comes from
// response.output_text.delta; reasoning from reasoning-text and
// reasoning-summary deltas; function calls are captured from
// output_item.added, function_call_arguments.* and output_item.done (they
// are absent from response.completed.output); usage from
// response.completed. error, response.failed and response.incomplete fail
// the turn with the generic text.
package responses
