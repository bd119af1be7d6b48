package charmyaml_test

import (
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

// BenchmarkLoad reads and parses the YAML of one generated charm (split files).
func BenchmarkLoad(b *testing.B) {
	dir := benchtree.Dir(b, 100)
	for b.Loop() {
		if _, ok, err := charmyaml.Load(dir, "."); !ok || err != nil {
			b.Fatalf("Load: ok %v, err %v", ok, err)
		}
	}
}
