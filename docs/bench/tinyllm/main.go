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

// tensor is one F32 tensor of the model.
type tensor struct {
	name string
	dims []uint64
	data []float32
}

// vocab is the tokenizer's tokens with their types and scores, by id.
type vocab struct {
	toks   []string
	types  []int32
	scores []float32
}

// add appends a token and returns its id.
func (v *vocab) add(t string, ty int32, s float32) int {
	v.toks = append(v.toks, t)
	v.types = append(v.types, ty)
	v.scores = append(v.scores, s)
	return len(v.toks) - 1
}

func main() {
	const nEmbd, nFF, nHead, ctx = 64, 128, 4, 4096
	which := os.Args[2]
	v, ids := buildVocab()
	nVocab := len(v.toks)
	emb, outW := bigramWeights(v, ids[which], nEmbd)
	zeros := func(n int) []float32 { return make([]float32, n) }
	ones := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = 1
		}
		return out
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
		{"tokenizer.ggml.tokens", v.toks},
		{"tokenizer.ggml.scores", v.scores},
		{"tokenizer.ggml.token_type", v.types},
		{"tokenizer.ggml.bos_token_id", uint32(1)},
		{"tokenizer.ggml.eos_token_id", uint32(2)},
		{"tokenizer.ggml.unknown_token_id", uint32(0)},
		{"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.add_eos_token", false},
	}
	pos := writeGGUF(os.Args[1], meta, tensors)
	fmt.Println("vocab", nVocab, "bytes", pos)
}

// buildVocab is the one vocabulary of every model (special tokens, bytes,
// letters, then each chain's tokens) and the ids of each chain position.
func buildVocab() (*vocab, map[string][][]int) {
	v := &vocab{}
	v.add("<unk>", 2, 0)
	v.add("<s>", 3, 0)
	v.add("</s>", 3, 0)
	for i := 0; i < 256; i++ {
		v.add(fmt.Sprintf("<0x%02X>", i), 6, 0)
	}
	for c := 'a'; c <= 'z'; c++ {
		v.add("▁"+string(c), 1, -100)
		v.add(string(c), 1, -101)
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
				uniq[t] = v.add(t, ty, -1)
				row = append(row, uniq[t])
			}
			ids[name] = append(ids[name], row)
		}
	}
	return v, ids
}

// bigramWeights are the embedding and output weights that make each
// token of rows pick its one successor.
func bigramWeights(v *vocab, rows [][]int, nEmbd int) (emb, outW []float32) {
	nVocab := len(v.toks)
	rng := rand.New(rand.NewSource(7))
	emb = make([]float32, nEmbd*nVocab)
	for i := range emb {
		emb[i] = float32(rng.NormFloat64() * 0.01)
	}
	outW = make([]float32, nEmbd*nVocab)
	dim := 0
	succ := map[int]int{}
	for _, row := range rows {
		for i := 0; i+1 < len(row); i++ {
			cur, next := row[i], row[i+1]
			if s, ok := succ[cur]; ok {
				if s != next {
					panic(fmt.Sprintf("token %q has two successors", v.toks[cur]))
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
	return emb, outW
}

// ggufWriter writes little-endian GGUF values and counts the bytes.
type ggufWriter struct {
	w   *bufio.Writer
	pos int
}

func (g *ggufWriter) put(v any) { binary.Write(g.w, binary.LittleEndian, v); g.pos += binary.Size(v) }
func (g *ggufWriter) str(s string) {
	g.put(uint64(len(s)))
	g.w.WriteString(s)
	g.pos += len(s)
}

// value writes one metadata value with its GGUF type.
func (g *ggufWriter) value(val any) {
	put := g.put
	switch v := val.(type) {
	case string:
		put(uint32(8))
		g.str(v)
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
			g.str(s)
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

// writeGGUF writes a GGUF v3 file of meta and tensors (32-byte aligned)
// to path and returns its size.
func writeGGUF(path string, meta []kv, tensors []tensor) int {
	f, _ := os.Create(path)
	g := &ggufWriter{w: bufio.NewWriter(f)}
	g.w.WriteString("GGUF")
	g.pos += 4
	g.put(uint32(3))
	g.put(uint64(len(tensors)))
	g.put(uint64(len(meta)))
	for _, m := range meta {
		g.str(m.key)
		g.value(m.val)
	}
	off := uint64(0)
	align := func(x uint64) uint64 { return (x + 31) / 32 * 32 }
	for _, t := range tensors {
		g.str(t.name)
		g.put(uint32(len(t.dims)))
		for _, d := range t.dims {
			g.put(d)
		}
		g.put(uint32(0)) // F32
		g.put(off)
		off = align(off + uint64(4*len(t.data)))
	}
	for g.pos%32 != 0 {
		g.w.WriteByte(0)
		g.pos++
	}
	start := g.pos
	for _, t := range tensors {
		for (g.pos-start)%32 != 0 {
			g.w.WriteByte(0)
			g.pos++
		}
		g.put(t.data)
	}
	g.w.Flush()
	f.Close()
	return g.pos
}
