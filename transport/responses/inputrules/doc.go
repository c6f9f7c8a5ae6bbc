// Package inputrules holds the rules real Responses servers enforce on a
// request's input, for the Responses servers in this repository (the test
// servers of transport/responses and the demo backend): a server here is
// as strict as the real ones, so a request Yui would have refused in the
// field is refused in the tests too.
//
// The rules are the union of two real servers', each with the text that
// server answers:
//
//   - llama.cpp's llama-server (tools/server/server-chat.cpp,
//     server_chat_convert_responses_to_chatcmpl, in the source node-llama-cpp
//     3.22.1 ships): previous_response_id is refused ("llama.cpp does not
//     support 'previous_response_id'."); an input item it cannot classify
//     is "Cannot determine type of 'item'" — an assistant message without
//     "type": "message", a function_call without a string arguments,
//     call_id and name, a function_call_output without call_id or output;
//     a user/system/developer part must be input_text (with text),
//     input_image (with image_url) or input_file (refused); an assistant
//     part output_text or refusal.
//   - OpenAI's: every item names its type here (OpenAI accepts an untyped
//     easy input message, llama-server only for user roles; Yui types them
//     all, so an untyped one is refused with llama-server's text); an
//     assistant part of type input_text is refused; a function_call_output
//     must answer a function_call of the same input (unless the request
//     chains on a previous response): "No tool call found for function
//     call output with call_id <id>.".
//
// Error answers are HTTP 400 with llama-server's body
// {"error":{"code":400,"message":…,"type":"invalid_request_error"}} for
// [LlamaServer] and OpenAI's {"error":{"message":…,"type":
// "invalid_request_error","param":…,"code":null}} for [OpenAI].
package inputrules
