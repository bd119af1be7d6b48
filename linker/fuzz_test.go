package linker_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/check"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// FuzzLink links arbitrary Python, as a charm's src/charm.py beside a second module, against
// the YAML of the patterns-wiring fixture, and runs check over the result: neither may panic
// or hang, whatever the code (the parser's fuzzer covers the parse alone).
func FuzzLink(f *testing.F) {
	root := filepath.Join("..", "testdata", "charms", "patterns-wiring")
	ch, ok, err := charmyaml.Load(root, ".")
	if err != nil || !ok {
		f.Fatalf("load the fixture's YAML: ok=%v err=%v", ok, err)
	}
	_ = filepath.WalkDir(filepath.Join("..", "testdata", "charms"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b), "")
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, src, helper string) {
		files := []pyextract.File{
			pyextract.Parse("src/charm.py", []byte(src)),
			pyextract.Parse("src/helper.py", []byte(helper)),
		}
		res := linker.Link(linker.Input{Charms: []charmyaml.Charm{ch}, Files: files})
		check.Run([]charmyaml.Charm{ch}, res, check.Options{})
	})
}
