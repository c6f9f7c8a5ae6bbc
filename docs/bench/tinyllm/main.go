// tinyllm writes a tiny llama-architecture GGUF (1 layer, 64 dims, F32)
// whose weights make it a deterministic bigram chain: the token after the
// prompt's end marker starts a fixed reply. It lets a real llama.cpp-based
// server (Ollama built from the Go module proxy) be run here, where no
// model can be downloaded. Usage: go run . OUT.gguf chat|tool|long.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"strings"
)

type kv struct {
	key string
	val any
}

// chains are the bigram chains of each model: from a prompt-end token,
// each token's one successor. A token text may appear more than once (as
// different ids) so chains never branch.
var chains = map[string][][]string{
	"chat": {{"<|a|>", "▁Checking", "▁the", "▁logs", ".", "</think>", "▁All", "▁green", "!", "▁Want", "▁details", "?", "</s>"}},
	"tool": {
		{"<|a|>", "▁Let", "▁me", "▁look", ".", "</think>", "<tool_call>", `{"name": "look", "arguments": {"at": "body"}}`, "</tool_call>", "</s>"},
		{"<|t|>", "▁Got", "▁it.", "\n</think>", "▁You", "▁are", "▁standing.", "</s>"},
	},
	"long": {{"<|a|>", "▁Singing.", "</think>", "▁La", "▁la.", "▁La"}},
}

func main() {
	const nEmbd, nFF, nHead, ctx = 64, 128, 4, 4096
	which := os.Args[2]
	var toks []string
	var types []int32
	var scores []float32
	add := func(t string, ty int32, s float32) int {
		toks = append(toks, t)
		types = append(types, ty)
		scores = append(scores, s)
		return len(toks) - 1
	}
	add("<unk>", 2, 0)
	add("<s>", 3, 0)
	add("</s>", 3, 0)
	for i := 0; i < 256; i++ {
		add(fmt.Sprintf("<0x%02X>", i), 6, 0)
	}
	for c := 'a'; c <= 'z'; c++ {
		add("▁"+string(c), 1, -100)
		add(string(c), 1, -101)
	}
	special := func(t string) bool {
		return strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">") || strings.HasPrefix(t, "{")
	}
	// ids of each chain position, same ids for every model (one vocab).
	ids := map[string][][]int{}
	uniq := map[string]int{"</s>": 2}
	for _, name := range []string{"chat", "tool", "long"} {
		for _, ch := range chains[name] {
			var row []int
			for _, t := range ch {
				if id, ok := uniq[t]; ok {
					row = append(row, id)
					continue
				}
				ty := int32(1)
				if special(t) {
					ty = 4
				}
				uniq[t] = add(t, ty, -1)
				row = append(row, uniq[t])
			}
			ids[name] = append(ids[name], row)
		}
	}
	nVocab := len(toks)
	rng := rand.New(rand.NewSource(7))
	emb := make([]float32, nEmbd*nVocab)
	for i := range emb {
		emb[i] = float32(rng.NormFloat64() * 0.01)
	}
	outW := make([]float32, nEmbd*nVocab)
	dim := 0
	succ := map[int]int{}
	for _, row := range ids[which] {
		for i := 0; i+1 < len(row); i++ {
			cur, next := row[i], row[i+1]
			if s, ok := succ[cur]; ok {
				if s != next {
					panic(fmt.Sprintf("token %q has two successors", toks[cur]))
				}
				continue
			}
			succ[cur] = next
			// cur's embedding is the one-hot state dim; next's output row
			// picks it.
			k := dim % nEmbd
			dim++
			for j := 0; j < nEmbd; j++ {
				emb[cur*nEmbd+j] = 0
			}
			emb[cur*nEmbd+k] = 1
			outW[next*nEmbd+k] = 3
		}
	}
	zeros := func(n int) []float32 { return make([]float32, n) }
	ones := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = 1
		}
		return out
	}
	type tensor struct {
		name string
		dims []uint64
		data []float32
	}
	E, F := uint64(nEmbd), uint64(nFF)
	tensors := []tensor{
		{"token_embd.weight", []uint64{E, uint64(nVocab)}, emb},
		{"output_norm.weight", []uint64{E}, ones(nEmbd)},
		{"output.weight", []uint64{E, uint64(nVocab)}, outW},
		{"blk.0.attn_norm.weight", []uint64{E}, ones(nEmbd)},
		{"blk.0.attn_q.weight", []uint64{E, E}, zeros(nEmbd * nEmbd)},
		{"blk.0.attn_k.weight", []uint64{E, E}, zeros(nEmbd * nEmbd)},
		{"blk.0.attn_v.weight", []uint64{E, E}, zeros(nEmbd * nEmbd)},
		{"blk.0.attn_output.weight", []uint64{E, E}, zeros(nEmbd * nEmbd)},
		{"blk.0.ffn_norm.weight", []uint64{E}, ones(nEmbd)},
		{"blk.0.ffn_gate.weight", []uint64{E, F}, zeros(nEmbd * nFF)},
		{"blk.0.ffn_up.weight", []uint64{E, F}, zeros(nEmbd * nFF)},
		{"blk.0.ffn_down.weight", []uint64{F, E}, zeros(nFF * nEmbd)},
	}
	meta := []kv{
		{"general.architecture", "llama"},
		{"general.name", "yui-tiny-" + which},
		{"general.alignment", uint32(32)},
		{"llama.context_length", uint32(ctx)},
		{"llama.embedding_length", uint32(nEmbd)},
		{"llama.block_count", uint32(1)},
		{"llama.feed_forward_length", uint32(nFF)},
		{"llama.attention.head_count", uint32(nHead)},
		{"llama.attention.head_count_kv", uint32(nHead)},
		{"llama.rope.dimension_count", uint32(nEmbd / nHead)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.vocab_size", uint32(nVocab)},
		{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", toks},
		{"tokenizer.ggml.scores", scores},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.bos_token_id", uint32(1)},
		{"tokenizer.ggml.eos_token_id", uint32(2)},
		{"tokenizer.ggml.unknown_token_id", uint32(0)},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
	}
	f, _ := os.Create(os.Args[1])
	w := bufio.NewWriter(f)
	le := binary.LittleEndian
	pos := 0
	put := func(v any) { binary.Write(w, le, v); pos += binary.Size(v) }
	str := func(s string) { put(uint64(len(s))); w.WriteString(s); pos += len(s) }
	w.WriteString("GGUF")
	pos += 4
	put(uint32(3))
	put(uint64(len(tensors)))
	put(uint64(len(meta)))
	for _, m := range meta {
		str(m.key)
		switch v := m.val.(type) {
		case string:
			put(uint32(8))
			str(v)
		case uint32:
			put(uint32(4))
			put(v)
		case float32:
			put(uint32(6))
			put(v)
		case bool:
			put(uint32(7))
			if v {
				put(uint8(1))
			} else {
				put(uint8(0))
			}
		case []string:
			put(uint32(9))
			put(uint32(8))
			put(uint64(len(v)))
			for _, s := range v {
				str(s)
			}
		case []float32:
			put(uint32(9))
			put(uint32(6))
			put(uint64(len(v)))
			put(v)
		case []int32:
			put(uint32(9))
			put(uint32(5))
			put(uint64(len(v)))
			put(v)
		}
	}
	off := uint64(0)
	align := func(x uint64) uint64 { return (x + 31) / 32 * 32 }
	for _, t := range tensors {
		str(t.name)
		put(uint32(len(t.dims)))
		for _, d := range t.dims {
			put(d)
		}
		put(uint32(0)) // F32
		put(off)
		off = align(off + uint64(4*len(t.data)))
	}
	for pos%32 != 0 {
		w.WriteByte(0)
		pos++
	}
	start := pos
	for _, t := range tensors {
		for (pos-start)%32 != 0 {
			w.WriteByte(0)
			pos++
		}
		put(t.data)
	}
	w.Flush()
	f.Close()

	fmt.Println("vocab", nVocab, "bytes", pos)
}
