package linker_test

import (
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
	"github.com/cantrip-dev/charmcraft-map/linker"
)

// BenchmarkLink links the charms of a generated tree to its code.
func BenchmarkLink(b *testing.B) {
	t := benchtree.Tree(b, benchtree.Files)
	in := linker.Input{Charms: t.Charms, Files: t.Files}
	for b.Loop() {
		if res := linker.Link(in); len(res.Charms) != len(t.Charms) {
			b.Fatalf("%d charms linked of %d", len(res.Charms), len(t.Charms))
		}
	}
}
