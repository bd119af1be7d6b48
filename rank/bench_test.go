package rank_test

import (
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
