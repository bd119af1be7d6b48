package repomap_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

func load(b *testing.B, opt repomap.Options) *repomap.Tree {
	t, err := repomap.Load(opt)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkLoadCold loads a tree with no cache file: discovery, YAML, parsing every file,
// writing the cache.
func BenchmarkLoadCold(b *testing.B) {
	dir := benchtree.Dir(b, benchtree.Files)
	for b.Loop() {
		if err := os.Remove(filepath.Join(dir, repomap.CacheFile)); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		if t := load(b, repomap.Options{Root: dir}); t.Stats.Parsed != benchtree.Files {
			b.Fatalf("parsed %d files, want %d", t.Stats.Parsed, benchtree.Files)
		}
	}
}

// BenchmarkLoadNoCache parses every file and neither reads nor writes the cache: the
// difference from BenchmarkLoadCold is the cost of writing the cache.
func BenchmarkLoadNoCache(b *testing.B) {
	dir := benchtree.Dir(b, benchtree.Files)
	for b.Loop() {
		load(b, repomap.Options{Root: dir, NoCache: true})
	}
}

// BenchmarkLoadWarm loads a tree whose cache is current: nothing is parsed or written.
func BenchmarkLoadWarm(b *testing.B) {
	dir := benchtree.Dir(b, benchtree.Files)
	load(b, repomap.Options{Root: dir})
	for b.Loop() {
		if t := load(b, repomap.Options{Root: dir}); t.Stats.Parsed != 0 || t.Stats.CacheWritten {
			b.Fatalf("warm load parsed %d files, wrote cache: %v", t.Stats.Parsed, t.Stats.CacheWritten)
		}
	}
}

// BenchmarkLoadTouched loads a tree after one file's content changed: one parse and a cache
// rewrite.
func BenchmarkLoadTouched(b *testing.B) {
	dir := benchtree.Dir(b, benchtree.Files)
	load(b, repomap.Options{Root: dir})
	touched := filepath.Join(dir, "charms", firstCharm(b, dir), "src", "charm.py")
	i := 0
	for b.Loop() {
		b.StopTimer()
		appendLine(b, touched, fmt.Sprintf("# touch %d\n", i))
		i++
		b.StartTimer()
		if t := load(b, repomap.Options{Root: dir}); t.Stats.Parsed != 1 {
			b.Fatalf("parsed %d files, want 1", t.Stats.Parsed)
		}
	}
}

func firstCharm(b *testing.B, dir string) string {
	es, err := os.ReadDir(filepath.Join(dir, "charms"))
	if err != nil || len(es) == 0 {
		b.Fatalf("no charms in %s: %v", dir, err)
	}
	return es[0].Name()
}

func appendLine(b *testing.B, p, line string) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(line)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		b.Fatal(err)
	}
}
