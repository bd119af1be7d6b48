package rank_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
)

// BenchmarkRank ranks a generated tree without and with personalisation.
func BenchmarkRank(b *testing.B) {
	t := benchtree.Tree(b, benchtree.Files)
	links := t.Link()
	for _, bc := range []struct {
		name            string
		focus, mentions []string
	}{
		{"plain", nil, nil},
		{"focus", []string{t.Files[len(t.Files)/2].Path}, []string{"fix the database relation handler"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if r := t.Rank(links, bc.focus, bc.mentions); len(r.Files) < len(t.Files) {
					b.Fatalf("%d files ranked of %d", len(r.Files), len(t.Files))
				}
			}
		})
	}
}

// BenchmarkLongTaskText ranks with a pasted log for a task text: 20,000 identifiers, each
// written once (rev90: the identifiers were each looked for in the whole text, so time grew
// with the text's square; 230 KB took locate 10.7 s). Compare the sizes: time should about
// double with the text.
func BenchmarkLongTaskText(b *testing.B) {
	t := benchtree.Tree(b, benchtree.Files)
	links := t.Link()
	for _, n := range []int{5000, 10000, 20000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "w%d_%d relation joins\n", i*7919%1000003, i)
		}
		text := sb.String()
		b.Run(fmt.Sprintf("idents=%d", n), func(b *testing.B) {
			for b.Loop() {
				t.Rank(links, nil, []string{text})
			}
		})
	}
}
