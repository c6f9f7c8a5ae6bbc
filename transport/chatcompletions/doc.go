// Package chatcompletions is the OpenAI Chat Completions request transport
// (POST {base}/chat/completions, streamed over server-sent events), for
// OpenAI, OpenRouter, Ollama, LM Studio, vLLM, llama.cpp's server and the
// like. The client holds the conversation: messages are the card as the
// first system message, the transcript (persisted per preset, trimmed to
// the context window, a boundary on reset), the client_context system
// message, and the user message (image_url parts — screenshot first, then
// attachments — then the text). Speech comes from delta.content, cut into
// sentences as they complete; reasoning from reasoning_content or
// reasoning; tool calls are accumulated per index. The turn engine, the
// HTTP and error rules are transport/internal/request's.
//
// No official SDK: a small typed reader of the fields used.
package chatcompletions
