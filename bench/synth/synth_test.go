package synth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
	"gopkg.in/yaml.v3"
)

// tree reads every file under dir into a map of '/'-separated relative path to content.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func digest(files map[string][]byte) [32]byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n + "\x00"))
		h.Write(files[n])
		h.Write([]byte{0})
	}
	return [32]byte(h.Sum(nil))
}

func generate(t *testing.T, files int, seed int64) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := Generate(dir, files, seed); err != nil {
		t.Fatal(err)
	}
	return tree(t, dir)
}

func TestDeterministic(t *testing.T) {
	a, b := generate(t, 160, 7), generate(t, 160, 7)
	if digest(a) != digest(b) {
		t.Fatal("same seed gave different trees")
	}
	if digest(a) == digest(generate(t, 160, 8)) {
		t.Fatal("different seeds gave the same tree")
	}
}

func pyFiles(files map[string][]byte) []string {
	var out []string
	for n := range files {
		if strings.HasSuffix(n, ".py") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func TestCountsAndLayout(t *testing.T) {
	for _, n := range []int{1, 2, 5, 37, 150, 151, 420} {
		files := generate(t, n, 1)
		if got := len(pyFiles(files)); got != n {
			t.Errorf("Generate(%d): %d Python files", n, got)
		}
		var charmDirs []string
		for p := range files {
			if strings.HasSuffix(p, "charmcraft.yaml") {
				charmDirs = append(charmDirs, filepath.Dir(p))
			}
		}
		switch {
		case n <= 150 && (len(charmDirs) != 1 || charmDirs[0] != "."):
			t.Errorf("Generate(%d): charm dirs %v, want the root only", n, charmDirs)
		case n > 150 && len(charmDirs) != (n+50)/100:
			t.Errorf("Generate(%d): %d charms, want %d", n, len(charmDirs), (n+50)/100)
		}
		for _, d := range charmDirs {
			if files[filepath.ToSlash(filepath.Join(d, "src/charm.py"))] == nil {
				t.Errorf("Generate(%d): %s has no src/charm.py", n, d)
			}
		}
	}
}

// TestShape checks the line distribution the benchmark relies on: vendored libraries hold
// about 80% of the non-test lines, the median file is about 150 lines, big libraries exist.
func TestShape(t *testing.T) {
	files := generate(t, 420, 3)
	var lib, src, all []int
	libLines, nonTest := 0, 0
	for _, p := range pyFiles(files) {
		n := bytes.Count(files[p], []byte("\n"))
		all = append(all, n)
		switch {
		case strings.Contains(p, "/lib/charms/"):
			lib = append(lib, n)
			libLines += n
			nonTest += n
		case strings.Contains(p, "/src/"):
			src = append(src, n)
			nonTest += n
		}
	}
	if share := float64(libLines) / float64(nonTest); share < 0.7 || share > 0.9 {
		t.Errorf("libraries hold %.0f%% of non-test lines, want about 80%%", 100*share)
	}
	sort.Ints(all)
	if med := all[len(all)/2]; med < 100 || med > 220 {
		t.Errorf("median file has %d lines, want about 150", med)
	}
	sort.Ints(lib)
	if lib[len(lib)-1] < 2000 {
		t.Errorf("largest library has %d lines, want some of 2-3k", lib[len(lib)-1])
	}
	if len(src) == 0 || len(lib) == 0 {
		t.Errorf("%d src and %d lib files", len(src), len(lib))
	}
}

// TestValid parses every generated file: the Python has no syntax errors for tree-sitter and
// the YAML loads, so the benchmark measures real parsing rather than error recovery.
func TestValid(t *testing.T) {
	files := generate(t, 151, 5)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(python.GetLanguage())
	for name, b := range files {
		switch {
		case strings.HasSuffix(name, ".py"):
			tr, err := p.ParseCtx(context.Background(), nil, b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if tr.RootNode().HasError() {
				t.Errorf("%s: syntax error", name)
			}
			tr.Close()
		case strings.HasSuffix(name, ".yaml"):
			var v map[string]any
			if err := yaml.Unmarshal(b, &v); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

func TestRejectsNoFiles(t *testing.T) {
	if err := Generate(t.TempDir(), 0, 1); err == nil {
		t.Fatal("Generate(0) succeeded")
	}
}
