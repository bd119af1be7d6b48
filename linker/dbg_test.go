package linker

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

func TestDbg(t *testing.T) {
	root := os.Getenv("DBGROOT")
	if root == "" {
		t.Skip()
	}
	ch, _, _ := charmyaml.Load(root, ".")
	var files []pyextract.File
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "tests" || d.Name() == ".tox") {
			return fs.SkipDir
		}
		if strings.HasSuffix(p, ".py") {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files = append(files, pyextract.Parse(rel, b))
		}
		return nil
	})
	ix := newIndex(Input{Charms: []charmyaml.Charm{ch}, Files: files})
	l := newCharmLinker(ix, 0)
	l.computeScope()
	for _, fi := range l.scope {
		if fi.vendored {
			continue
		}
		for _, name := range sortedKeys(fi.classes) {
			if cl := fi.classes[name]; l.isCharm(cl) {
				l.charmCls = append(l.charmCls, cl)
			}
		}
	}
	l.collectSites()
	fi := ix.files[os.Getenv("DBGFILE")]
	cl := fi.classes[os.Getenv("DBGCLASS")]
	for _, c := range l.contexts(fi, cl, "__init__") {
		fmt.Printf("ctx inst=%+v\n", c.inst)
		for _, o := range fi.Facts.Observes {
			fmt.Println(o.Event.String(), l.eval(o.Event, c))
		}
	}
	fmt.Println(l.charmCls)
}
