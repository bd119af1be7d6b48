// The whole `map --full` pipeline in process (app.RunMap), for CPU and memory profiles of the
// cold, warm, new-task (an agent's turn: a task text not seen before) and touched paths
// without process start-up:
//
//	go test ./bench -run '^$' -bench Map/warm -files 2000 -cpuprofile cpu.out
//	go test ./bench -run '^$' -bench Map/cold -root ~/src/postgresql-operator -cpuprofile cpu.out
//	go test ./bench -run '^$' -bench Map/new-task -root ~/src/sunbeam-charms -scope charms/keystone-k8s
package bench_test

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/app"
	"github.com/cantrip-dev/charmcraft-map/bench/benchtree"
	"github.com/cantrip-dev/charmcraft-map/bench/internal/treecopy"
	"github.com/cantrip-dev/charmcraft-map/render"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

var (
	files = flag.Int("files", 2000, "Python files in the generated repository")
	root  = flag.String("root", "", "measure a copy of this repository instead of a generated one")
	scope = flag.String("scope", "", "map only this folder of the tree (--scope), for a monorepo's charm")
)

// tree returns the repository to measure: a copy of -root, or a generated one of -files.
func tree(b *testing.B) string {
	if *root == "" {
		return benchtree.Dir(b, *files)
	}
	dir := b.TempDir()
	if err := treecopy.Copy(*root, dir, repomap.CacheFile); err != nil {
		b.Fatal(err)
	}
	return dir
}

// newTasks counts the task texts BenchmarkMap's new-task runs have used.
var newTasks int

func BenchmarkMap(b *testing.B) {
	dir := tree(b)
	cache := filepath.Join(dir, repomap.CacheFile)
	touched := filepath.Join(dir, "src", "charm.py")
	if es, err := os.ReadDir(filepath.Join(dir, "charms")); err == nil && len(es) > 0 {
		touched = filepath.Join(dir, "charms", es[0].Name(), "src", "charm.py")
	}
	opt := app.MapOptions{Common: app.Common{Root: dir, Format: "text"}, Full: true,
		Tokens: app.DefaultTokens, Tokenizer: "cl100k"}
	if *scope != "" {
		opt.Scope = []string{*scope}
	}
	run := func(b *testing.B) {
		if err := app.RunMap(opt, app.IO{Out: io.Discard, Err: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			if err := os.Remove(cache); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
			run(b)
		}
	})
	b.Run("warm", func(b *testing.B) {
		run(b)
		for b.Loop() {
			run(b)
		}
	})
	// An agent's turn: the tree unchanged, a task text the output memo has not seen.
	b.Run("new-task", func(b *testing.B) {
		run(b)
		for b.Loop() {
			o := opt
			// a text no run has used (-count repeats the sub-benchmark on the same tree)
			o.Mention = []string{fmt.Sprintf("fix the relation data of the database after a restart %d", newTasks)}
			newTasks++
			if err := app.RunMap(o, app.IO{Out: io.Discard, Err: io.Discard}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("touched", func(b *testing.B) {
		run(b)
		i := 0
		for b.Loop() {
			b.StopTimer()
			f, err := os.OpenFile(touched, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Fprintf(f, "# touch %d\n", i)
			f.Close()
			i++
			b.StartTimer()
			run(b)
		}
	})
}

// BenchmarkStages times link, rank and render alone on the tree (-files or -root), to see
// which one grows faster than the tree.
func BenchmarkStages(b *testing.B) {
	t, err := repomap.Load(repomap.Options{Root: tree(b), NoCache: true})
	if err != nil {
		b.Fatal(err)
	}
	links := t.Link()
	ranked := t.Rank(links, nil, nil)
	b.Run("link", func(b *testing.B) {
		for b.Loop() {
			t.Link()
		}
	})
	b.Run("rank", func(b *testing.B) {
		for b.Loop() {
			t.Rank(links, nil, nil)
		}
	})
	b.Run("render", func(b *testing.B) {
		opt := render.Options{View: render.ViewFull, Tokens: app.DefaultTokens, Tokenizer: render.TokCL100k}
		for b.Loop() {
			if _, err := render.Render(ranked, opt); err != nil {
				b.Fatal(err)
			}
		}
	})
}
