package render_test

import (
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
	"github.com/cantrip-dev/charmcraft-map/render"
)

// BenchmarkRenderFull renders the full view of a ranked generated tree at the default
// budget with each tokenizer (the first cl100k/o200k call also loads the vocabulary once).
func BenchmarkRenderFull(b *testing.B) {
	t := benchtree.Tree(b, benchtree.Files)
	ranked := t.Rank(t.Link(), nil, nil)
	for _, tok := range []string{render.TokCL100k, render.TokO200k, render.TokChars4} {
		b.Run(tok, func(b *testing.B) {
			opt := render.Options{View: render.ViewFull, Tokens: 1500, Tokenizer: tok}
			for b.Loop() {
				out, err := render.Render(ranked, opt)
				if err != nil || out.UsedTokens == 0 || out.UsedTokens > 1500 {
					b.Fatalf("Render: %d tokens, err %v", out.UsedTokens, err)
				}
			}
		})
	}
}
