// The whole `map --full` pipeline in process (app.RunMap), for CPU and memory profiles of the
// cold, warm and touched paths without process start-up:
//
//	go test ./bench -run '^$' -bench Map/warm -files 2000 -cpuprofile cpu.out
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
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

var files = flag.Int("files", 2000, "Python files in the generated repository")

func BenchmarkMap(b *testing.B) {
	dir := benchtree.Dir(b, *files)
	cache := filepath.Join(dir, repomap.CacheFile)
	touched := filepath.Join(dir, "src", "charm.py")
	if es, err := os.ReadDir(filepath.Join(dir, "charms")); err == nil && len(es) > 0 {
		touched = filepath.Join(dir, "charms", es[0].Name(), "src", "charm.py")
	}
	opt := app.MapOptions{Common: app.Common{Root: dir, Format: "text"}, Full: true,
		Tokens: app.DefaultTokens, Tokenizer: "cl100k"}
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
