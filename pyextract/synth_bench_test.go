package pyextract

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/bench/synth"
	sitter "github.com/smacker/go-tree-sitter"
)

// synthFiles generates a synthetic repository (bench/synth, the tree cmbench measures) and
// returns its Python sources.
func synthFiles(b *testing.B, files int) [][]byte {
	dir := b.TempDir()
	if err := synth.Generate(dir, files, 1); err != nil {
		b.Fatal(err)
	}
	var srcs [][]byte
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		srcs = append(srcs, src)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return srcs
}

// BenchmarkParseSynth parses the files of a 300-file synthetic repository, one op per file;
// BenchmarkRawSynth is its floor, the tree-sitter parse alone as cmbench's raw parse does it.
func BenchmarkParseSynth(b *testing.B) {
	srcs := synthFiles(b, 300)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Parse("x.py", srcs[i%len(srcs)])
	}
}

func BenchmarkRawSynth(b *testing.B) {
	srcs := synthFiles(b, 300)
	p := sitter.NewParser()
	p.SetLanguage(pyLang)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tr, err := p.ParseCtx(context.Background(), nil, srcs[i%len(srcs)])
		if err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
}
