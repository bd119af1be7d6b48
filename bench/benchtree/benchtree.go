// Package benchtree gives the per-stage benchmarks their input: a synthetic charm repository
// (bench/synth) written to a test's temporary directory and loaded with repomap, so every
// stage is measured on the same realistic tree.
package benchtree

import (
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/synth"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// Files is the size of the tree the stage benchmarks use: three charms of about 100 files.
const Files = 300

// Dir generates a synthetic repository of files Python files (seed 1) in a temporary
// directory and returns it.
func Dir(tb testing.TB, files int) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := synth.Generate(dir, files, 1); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Tree generates a repository of files Python files and loads it without the cache.
func Tree(tb testing.TB, files int) *repomap.Tree {
	tb.Helper()
	t, err := repomap.Load(repomap.Options{Root: Dir(tb, files), NoCache: true})
	if err != nil {
		tb.Fatal(err)
	}
	if t.Stats.Files != files {
		tb.Fatalf("loaded %d files of %d", t.Stats.Files, files)
	}
	return t
}
