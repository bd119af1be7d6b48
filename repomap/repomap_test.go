package repomap

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// writeTree creates files (path → content) under a new temporary root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// touchLater moves the mtime of rel (under root) three hours ahead: a change every run must see.
func touchLater(root, rel string) {
	future := time.Now().Add(3 * time.Hour) // hours from the tests' clock (main_test.go): not racy
	os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), future, future)
}

// memoStaleAfter saves a memo of tr under key "k", checks that the next run is served it, then
// changes rel (touchLater) and checks that the run after is not.
func memoStaleAfter(t *testing.T, tr *Tree, root, rel string) {
	t.Helper()
	tr.Save(&Memo{Key: "k", Out: "map"})
	if hit, _ := Load(Options{Root: root, MemoKey: "k"}); hit.Memo == nil {
		t.Fatal("memo not served")
	}
	touchLater(root, rel)
	if stale, _ := Load(Options{Root: root, MemoKey: "k"}); stale.Memo != nil {
		t.Fatalf("memo trusted after %s changed", rel)
	}
}

const smallCharm = `name: demo
requires:
  database:
    interface: postgresql_client
`

const smallPy = `import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.database_relation_changed, self._on_db)

    def _on_db(self, event):
        pass
`

func TestDiscoverIgnoresAndSkips(t *testing.T) {
	root := writeTree(t, map[string]string{
		"metadata.yaml":              smallCharm,
		"src/charm.py":               smallPy,
		"src/gen/out.py":             "X = 1\n",
		"src/.gitignore":             "gen/\n",
		".gitignore":                 "*.tmp.py\n!keep.tmp.py\n",
		"a.tmp.py":                   "",
		"keep.tmp.py":                "",
		IgnoreFile:                   "scratch/\n",
		"scratch/notes.py":           "",
		"build/lib/x.py":             "",
		"k8s/prime/src/charm.py":     "", // build output beside a charm's charmcraft.yaml
		"src/build/steps.py":         "", // a package named build: code
		".tox/py/x.py":               "",
		"env1/pyvenv.cfg":            "home = /usr\n",
		"env1/lib/site.py":           "",
		"lib/charms/x/v0/x.py":       "",
		"k8s/charmcraft.yaml":        "name: k\n",
		"k8s/src/charm.py":           "",
		"other/src/gen/out.py":       "", // the nested src/.gitignore must not apply here
		"tests/unit/test_charm.py":   "",
		"src/__pycache__/charm.py":   "",
		"README.md":                  "",
		"src/templates/config.yaml":  "a: 1\n",
		"node_modules/pkg/index.py":  "",
		"docs/conf.py":               "",
		"src/relations/__init__.py":  "",
		"src/relations/database.py":  "",
		"src/relations/.gitignore":   "# comment only\n\n",
		"src/relations/scratch.py":   "",
		"src/relations/data/x.json":  "",
		"src/relations/ok/inner.py":  "",
		"src/relations/ok/.keep":     "",
		"src/relations/ok/inner2.py": "",
		// a project generator's charm skeleton: Jinja, not a charm
		"templates/{{cookiecutter.name}}/metadata.yaml": "name: {{ cookiecutter.name }}\n",
		"templates/{{cookiecutter.name}}/src/charm.py":  "class {{ cookiecutter.cls }}:\n",
	})
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"docs/conf.py", "k8s/src/charm.py", "keep.tmp.py", "lib/charms/x/v0/x.py", "other/src/gen/out.py",
		"src/build/steps.py", "src/charm.py", "src/relations/__init__.py", "src/relations/database.py", "src/relations/ok/inner.py",
		"src/relations/ok/inner2.py", "src/relations/scratch.py", "tests/unit/test_charm.py",
	}
	if !reflect.DeepEqual(d.Python, want) {
		t.Errorf("Python =\n%q\nwant\n%q", d.Python, want)
	}
	if want := []string{".", "k8s", "src/templates"}; !reflect.DeepEqual(d.CharmDirs, want) {
		t.Errorf("CharmDirs = %q, want %q", d.CharmDirs, want)
	}

	scoped, err := Discover(root, []string{"k8s"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"k8s/src/charm.py"}; !reflect.DeepEqual(scoped.Python, want) {
		t.Errorf("scoped Python = %q, want %q", scoped.Python, want)
	}
	// the YAML of the charm the scope is (k8s), not the one whose folder holds it (review
	// rev120: opencti's connectors showed the platform charm's relations, unhandled)
	if want := []string{"k8s"}; !reflect.DeepEqual(scoped.CharmDirs, want) {
		t.Errorf("scoped CharmDirs = %q, want %q", scoped.CharmDirs, want)
	}
	// a scope inside the nested charm keeps it, and one in the root charm's own code the root
	if d, err := Discover(root, []string{"k8s/src"}); err != nil || !reflect.DeepEqual(d.CharmDirs, []string{"k8s"}) {
		t.Errorf("scope k8s/src: CharmDirs %q, err %v", d.CharmDirs, err)
	}
	if d, err := Discover(root, []string{"src/relations"}); err != nil || !reflect.DeepEqual(d.CharmDirs, []string{"."}) {
		t.Errorf("scope src/relations: CharmDirs %q, err %v", d.CharmDirs, err)
	}
	if slices.Contains(scoped.YAML, "src/templates/config.yaml") || !slices.Contains(scoped.YAML, "k8s/charmcraft.yaml") {
		t.Errorf("scoped YAML = %q", scoped.YAML)
	}
	// in a monorepo, a scope in one charm keeps that charm's YAML; a scope in no charm (shared
	// code) keeps every charm's, since any may import it
	mono := writeTree(t, map[string]string{"charms/a/charmcraft.yaml": "name: a\n", "charms/a/src/charm.py": "",
		"charms/b/metadata.yaml": "name: b\n", "common/x.py": "", "common/templates/config.yaml": "options: {}\n",
		"tests/integration/app/metadata.yaml": "name: app\n"})
	for scope, want := range map[string][]string{
		"charms/a/src": {"charms/a"},
		"common":       {"charms/a", "charms/b", "common/templates", "tests/integration/app"}, // a template is no charm
		"charms":       {"charms/a", "charms/b"},
		"tests":        {"tests/integration/app"},
	} {
		d, err := Discover(mono, []string{scope})
		if err != nil || !reflect.DeepEqual(d.CharmDirs, want) {
			t.Errorf("--scope %s: CharmDirs %q (%v), want %q", scope, d.CharmDirs, err, want)
		}
		if len(d.Warnings) != 0 {
			t.Errorf("--scope %s: warnings %q", scope, d.Warnings)
		}
	}
	// a scope under which nothing is mapped says so (rev94: the charms' YAML was printed
	// without a word); the other scope of the run is unaffected
	mono = writeTree(t, map[string]string{"charms/a/charmcraft.yaml": "name: a\n", "charms/a/src/charm.py": "",
		"charms/a/tests/README.md": "", "scratch/x.py": "", IgnoreFile: "scratch/\n"})
	for _, scope := range []string{"scratch", "charms/a/tests"} {
		d, err := Discover(mono, []string{"charms/a/src", scope, scope}) // named twice, warned once
		want := []string{"--scope " + scope + ": no file under it is mapped (no Python or charm YAML there, or an ignore file hides it)"}
		if err != nil || !reflect.DeepEqual(d.Warnings, want) {
			t.Errorf("--scope %s: warnings %q (%v), want %q", scope, d.Warnings, err, want)
		}
	}
	// a charm's hooks in another language are code the map holds (review rev95: the shell code
	// was listed after the scopes were judged)
	mono = writeTree(t, map[string]string{"charms/b/metadata.yaml": "name: b\n", "charms/b/hooks/install": "#!/bin/sh\necho hi\n"})
	if d, err := Discover(mono, []string{"charms/b/hooks"}); err != nil || len(d.Warnings) != 0 || len(d.ShellCode) != 1 {
		t.Errorf("--scope charms/b/hooks: warnings %q, shell code %q (%v)", d.Warnings, d.ShellCode, err)
	}
}

func TestDiscoverRocks(t *testing.T) {
	// A folder holding a rockcraft.yaml other than a charm's is a rock's project (review
	// rev115: temporal-worker's resource_sample_py/).
	root := writeTree(t, map[string]string{
		"metadata.yaml":                      smallCharm,
		"src/charm.py":                       smallPy,
		"sample_py/rockcraft.yaml":           "name: sample\n",
		"sample_py/sample/worker.py":         "def run():\n    pass\n",
		"app_rock/rockcraft.yaml":            "name: app\n",
		"k8s/charmcraft.yaml":                "name: k\n",
		"k8s/rockcraft.yaml":                 "name: k\n", // a charm's own folder: not a rock's
		"k8s/src/charm.py":                   "",
		"not_a_rock/rockcraft.yaml.template": "",
	})
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Rocks, []string{"app_rock", "sample_py"}) {
		t.Errorf("rocks %v", d.Rocks)
	}
}

func TestDiscoverWarnsOfUnreadIgnoreFiles(t *testing.T) {
	// an ignore file that exists and cannot be read hides nothing, and says so: what it was
	// meant to hide is in the map
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy,
		IgnoreFile + "/x": "", "src/.gitignore/x": ""})
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{IgnoreFile + ": not read (not a regular file); its patterns are not applied",
		"src/.gitignore: not read (not a regular file); its patterns are not applied"}
	if !reflect.DeepEqual(d.Warnings, want) {
		t.Errorf("warnings %q, want %q", d.Warnings, want)
	}
}

func TestCacheWriteWarningHasNoTempName(t *testing.T) {
	tmp := filepath.Join("root", CacheFile+".tmp-780664111")
	for _, err := range []error{
		&fs.PathError{Op: "write", Path: tmp, Err: syscall.ENOSPC},
		&os.LinkError{Op: "rename", Old: tmp, New: CacheFile, Err: syscall.ENOSPC},
	} {
		if got := withoutTempName(err); got != syscall.ENOSPC {
			t.Errorf("withoutTempName(%v) = %v", err, got)
		}
	}
}

func TestDiscoverSkipsNamesThatAreNotUTF8(t *testing.T) {
	// JSON would spell both names "src/x\ufffd.py": one path for two files
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	for _, name := range []string{"x\xe9.py", "x\xe8.py"} {
		if err := os.WriteFile(filepath.Join(root, "src", name), []byte(smallPy), 0o644); err != nil {
			t.Skipf("no such file name here: %v", err)
		}
	}
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/x\xe8.py: skipped: the path is not UTF-8", "src/x\xe9.py: skipped: the path is not UTF-8"}
	if !reflect.DeepEqual(d.Python, []string{"src/charm.py"}) || !reflect.DeepEqual(d.Warnings, want) {
		t.Errorf("Python %q, warnings %q", d.Python, d.Warnings)
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.py": "TOKEN = 1\n", "dir/x.py": ""})
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, "src/plugin": smallPy, "other/__init__.py": ""})
	links := map[string]string{
		// under another name than a mapped target's: the same module twice (PyLinks)
		"src/inside_link.py": filepath.Join(root, "src/charm.py"),
		// under its target's name: listed as a copy of it
		"other/charm.py": filepath.Join(root, "src/charm.py"),
		// to a file mapped under no other name: the module
		"src/plugin.py":   filepath.Join(root, "src/plugin"),
		"src/outside.py":  filepath.Join(outside, "secret.py"),
		"src/dangling.py": filepath.Join(root, "nope.py"),
		"linkdir":         filepath.Join(outside, "dir"),
		"loop":            filepath.Join(root, "loop"),
		"src/selfdir":     filepath.Join(root, "src"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"other/__init__.py", "other/charm.py", "src/charm.py", "src/inside_link.py", "src/plugin.py"}; !reflect.DeepEqual(d.Python, want) {
		t.Errorf("Python = %q, want %q", d.Python, want)
	}
	if want := map[string]string{"src/inside_link.py": "src/charm.py"}; !reflect.DeepEqual(d.PyLinks, want) {
		t.Errorf("PyLinks = %q, want %q", d.PyLinks, want)
	}
	joined := strings.Join(d.Warnings, "\n")
	for _, w := range []string{"src/outside.py", "src/dangling.py"} {
		if !strings.Contains(joined, w) {
			t.Errorf("no warning for %s in %q", w, joined)
		}
	}
}

// linkedHandlers lists the handlers of the first charm of tr, "interface>symbol" each.
func linkedHandlers(tr *Tree) string {
	var out []string
	for _, in := range tr.Link().Charms[0].Interfaces {
		for _, h := range in.Handlers {
			out = append(out, in.Name+">"+h.Symbol)
		}
	}
	return strings.Join(out, " ")
}

func TestHookLinks(t *testing.T) {
	// charm-helpers' layout: each hook a link to one script. The links in the charm's hooks/
	// to a mapped script are HookLinks, and link the script to their hooks; a link leading out
	// of the root, to an unmapped or ignored file, or in a folder of no charm's, is not one.
	// Adding or removing one changes the map: a memo does not outlive it.
	outside := writeTree(t, map[string]string{"x.py": "X = 1\n"})
	root := writeTree(t, map[string]string{
		"metadata.yaml":     "name: demo\nrequires:\n  db:\n    interface: pgsql\n  web:\n    interface: http\n",
		"hooks/services.py": "def manage():\n    pass\n",
		"hooks/notes.txt":   "",
		"hooks/ignored.py":  "Y = 1\n",
		"tools/hooks/a.py":  "",
		IgnoreFile:          "hooks/ignored.py\n",
	})
	for link, target := range map[string]string{
		"hooks/db-relation-changed":  "services.py",
		"hooks/install":              "services.py",
		"hooks/web-relation-joined":  filepath.Join(outside, "x.py"),
		"hooks/web-relation-changed": "notes.txt",
		"hooks/web-relation-broken":  "ignored.py",
		"tools/hooks/install":        "a.py",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hooks/db-relation-changed": "hooks/services.py", "hooks/install": "hooks/services.py"}
	if !reflect.DeepEqual(d.HookLinks, want) || slices.Contains(d.Python, "hooks/install") {
		t.Errorf("HookLinks %q (Python %q), want %q", d.HookLinks, d.Python, want)
	}
	tr, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if got := linkedHandlers(tr); got != "db>hooks/services.py install>hooks/services.py" {
		t.Errorf("handlers %q", got)
	}
	tr.Save(&Memo{Key: "k", Out: "map"})
	if hit, _ := Load(Options{Root: root, MemoKey: "k"}); hit.Memo == nil {
		t.Fatal("not remembered")
	}
	if err := os.Remove(filepath.Join(root, "hooks/install")); err != nil {
		t.Fatal(err)
	}
	stale, _ := Load(Options{Root: root, MemoKey: "k"})
	if stale.Memo != nil {
		t.Fatal("memo trusted after a hook link was removed")
	}
	if got := linkedHandlers(stale); got != "db>hooks/services.py" {
		t.Errorf("handlers after the removal %q", got)
	}
}

func TestHookRuns(t *testing.T) {
	// A hook that is a shell script, or a link to one, runs the scripts of the hooks folder its
	// text names outside comments (charm-helpers' storage.bootstrap: `exec ./hooks/storage.real`):
	// HookRuns, and a function registered under that name handles the hook. Not a Python
	// script's, nor a hook of a folder of no charm's. Editing what a wrapper runs changes the
	// map: a memo does not outlive it.
	root := writeTree(t, map[string]string{
		"metadata.yaml": "name: demo\nstorage:\n  data:\n    type: filesystem\n",
		"hooks/hooks.py": "import sys\nfrom charmhelpers.core.hookenv import Hooks\n\nhooks = Hooks()\n\n\n" +
			"@hooks.hook('storage.real')\ndef attach():\n    pass\n\n\n@hooks.hook('other.real')\ndef other():\n    pass\n\n\n" +
			"hooks.execute(sys.argv)\n",
		"hooks/storage.bootstrap": "#!/bin/sh\n# ./hooks/commented.real\nif ! dpkg -s demo; then exit 0; fi\nexec ./hooks/storage.real\n",
		"hooks/install":           "#!/bin/bash -e\n./hooks/install_deps\nexec \"$CHARM_DIR/hooks/install.real\"\n",
		"hooks/config-changed":    "#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['hooks/not-a-wrapper'])\n",
		"tools/hooks/install":     "#!/bin/sh\n./hooks/install.real\n",
	})
	for link, target := range map[string]string{"hooks/data-storage-attached": "storage.bootstrap", "hooks/storage.real": "hooks.py"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"hooks/data-storage-attached": {"storage.real"}, "hooks/install": {"install.real", "install_deps"}}
	if !reflect.DeepEqual(d.HookRuns, want) {
		t.Errorf("HookRuns %q, want %q", d.HookRuns, want)
	}
	tr, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if got := linkedHandlers(tr); got != "data>attach config-changed>hooks/config-changed" {
		t.Errorf("handlers %q, want data>attach and the Python hook script", got)
	}
	tr.Save(&Memo{Key: "k", Out: "map"})
	if hit, _ := Load(Options{Root: root, MemoKey: "k"}); hit.Memo == nil {
		t.Fatal("not remembered")
	}
	if err := os.WriteFile(filepath.Join(root, "hooks/storage.bootstrap"), []byte("#!/bin/sh\nexec ./hooks/other.real\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stale, _ := Load(Options{Root: root, MemoKey: "k"})
	if stale.Memo != nil {
		t.Fatal("memo trusted after a wrapper's script changed")
	}
	if got := linkedHandlers(stale); got != "data>other config-changed>hooks/config-changed" {
		t.Errorf("handlers after the edit %q, want data>other and the Python hook script", got)
	}
}

func TestLinkedModuleMappedOnce(t *testing.T) {
	// A module linked under another name is mapped once: under the name the code imports
	// (from db_helper import ...), else under its target's; under both when both are imported.
	for _, tc := range []struct {
		imports string
		want    []string
	}{
		{"", []string{"src/charm.py", "src/helper_impl.py"}},
		{"from db_helper import DBHelper\n", []string{"src/charm.py", "src/db_helper.py"}},
		{"from db_helper import DBHelper\nimport helper_impl\n", []string{"src/charm.py", "src/db_helper.py", "src/helper_impl.py"}},
	} {
		root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": tc.imports + smallPy,
			"src/helper_impl.py": "class DBHelper:\n    pass\n"})
		if err := os.Symlink("helper_impl.py", filepath.Join(root, "src", "db_helper.py")); err != nil {
			t.Fatal(err)
		}
		for _, noCache := range []bool{true, false, false} {
			tr, err := Load(Options{Root: root, NoCache: noCache})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range tr.Files {
				got = append(got, f.Path)
			}
			if !reflect.DeepEqual(got, tc.want) || tr.Stats.Files != len(tc.want) {
				t.Errorf("imports %q (no cache %v): %q (%d files), want %q", tc.imports, noCache, got, tr.Stats.Files, tc.want)
			}
		}
	}
}

func TestSameNameLinkLinkedOnce(t *testing.T) {
	// A classic charm links its hooks module into actions/ under the same name, for its action
	// scripts to import: both are mapped, and what the linker finds in them is one module's,
	// reported once at the file itself; what only the link's folder has stays.
	meta := "name: demo\nrequires:\n  db:\n    interface: pgsql\n"
	hooks := `from charmhelpers.core.hookenv import Hooks, config, relation_get
hooks = Hooks()

@hooks.hook("db-relation-changed")
def db_changed():
    relation_get("host")
    config("port")
    config("undeclared-one")
`
	root := writeTree(t, map[string]string{"metadata.yaml": meta, "config.yaml": "options:\n  port: {type: int}\n",
		"hooks/demo_hooks.py": hooks, "actions/actions.py": "from demo_hooks import db_changed\n"})
	if err := os.Symlink("../hooks/demo_hooks.py", filepath.Join(root, "actions", "demo_hooks.py")); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Files) != 3 {
		t.Fatalf("files %d, want 3 (the link is mapped: actions/ imports it)", len(tr.Files))
	}
	res := tr.Link()
	var got []string
	for _, in := range res.Charms[0].Interfaces {
		for _, h := range in.Handlers {
			got = append(got, fmt.Sprintf("handler %s %s:%d", in.Name, h.File, h.Line))
		}
		for _, r := range in.Reads {
			got = append(got, fmt.Sprintf("read %s %s:%d", in.Name, r.File, r.Line))
		}
	}
	for _, f := range res.Charms[0].Findings {
		got = append(got, fmt.Sprintf("finding %s %s:%d", f.Subject, f.File, f.Line))
	}
	want := []string{"handler db hooks/demo_hooks.py:5", "read port hooks/demo_hooks.py:7", "finding undeclared-one hooks/demo_hooks.py:8"}
	if !slices.Equal(got, want) {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The bootstack layout: the charm is src/ (built with source-subdir: src), and the root's
// metadata.yaml is a link to src/metadata.yaml beside a build-only charmcraft.yaml. The link
// is the same charm, not a second one in "."; a link to YAML found nowhere else is kept.
func TestDiscoverLinkedCharmYAML(t *testing.T) {
	root := writeTree(t, map[string]string{
		"charmcraft.yaml":     "type: charm\nparts:\n  charm:\n    source-subdir: src\n",
		"src/metadata.yaml":   smallCharm,
		"src/config.yaml":     "options: {}\n",
		"src/reactive/foo.py": smallPy,
		"other/real.yaml":     smallCharm,
		"c/metadata.yaml":     smallCharm,
	})
	// c shares src's config.yaml through a link across: c's own YAML, which stays
	for name, target := range map[string]string{"metadata.yaml": "src/metadata.yaml", "b/metadata.yaml": "../other/real.yaml", "c/config.yaml": "../src/config.yaml"} {
		_ = os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Discover(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	// other/real.yaml is no charm YAML by name; b/metadata.yaml, its only link, stays
	if want := []string{"b/metadata.yaml", "c/config.yaml", "c/metadata.yaml", "charmcraft.yaml", "src/config.yaml", "src/metadata.yaml"}; !reflect.DeepEqual(d.YAML, want) {
		t.Errorf("YAML = %q, want %q", d.YAML, want)
	}
	if want := []string{".", "b", "c", "src"}; !reflect.DeepEqual(d.CharmDirs, want) {
		t.Errorf("CharmDirs = %q, want %q", d.CharmDirs, want)
	}
	if want := []string{"metadata.yaml"}; !reflect.DeepEqual(d.SkippedYAML, want) {
		t.Errorf("SkippedYAML = %q, want %q", d.SkippedYAML, want)
	}
	// and the map reads one charm, in src, from the tree
	m, err := Load(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, c := range m.Charms {
		dirs = append(dirs, c.Dir)
	}
	if want := []string{"b", "c", "src"}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("charms in %q, want %q", dirs, want)
	}
	// the root's build-only charmcraft.yaml is src's, the charm the root's link names: its
	// parts are mapped with it
	src := m.Charms[2]
	if !slices.Contains(src.Files, "charmcraft.yaml") || len(src.Parts) != 1 || src.Parts[0].File != "charmcraft.yaml" {
		t.Errorf("src charm: files %q, parts %+v", src.Files, src.Parts)
	}
}

// A project folder whose build-only charmcraft.yaml builds a charm from a subfolder
// ("source: layer/", the OpenStack reactive layout without a root metadata.yaml link) gives
// that charm its build file; one the subfolder has of its own is kept.
func TestBuildFileOfSubfolderCharm(t *testing.T) {
	root := writeTree(t, map[string]string{
		"charmcraft.yaml":           "type: charm\nparts:\n  charm:\n    source: layer/\n    plugin: reactive\n",
		"layer/metadata.yaml":       smallCharm,
		"layer/reactive/x.py":       smallPy,
		"other/charmcraft.yaml":     "type: charm\nparts:\n  charm:\n    source: own\n",
		"other/own/metadata.yaml":   smallCharm,
		"other/own/charmcraft.yaml": "type: charm\nparts:\n  mine:\n    plugin: charm\n",
	})
	m, err := Load(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range m.Charms {
		for _, p := range c.Parts {
			got[c.Dir] = append(got[c.Dir], p.File+":"+p.Name)
		}
	}
	want := map[string][]string{"layer": {"charmcraft.yaml:charm"}, "other/own": {"other/own/charmcraft.yaml:mine"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parts by charm = %q, want %q", got, want)
	}
}

func TestRootThatIsASymlink(t *testing.T) {
	// A root that is itself a link (a linked checkout, macOS's /tmp) is the tree it leads to,
	// and its cache is the tree's.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(Options{Root: link})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Files) != 1 || tr.Files[0].Path != "src/charm.py" || len(tr.Charms) != 1 || !tr.Stats.CacheWritten {
		t.Fatalf("files %d, charms %d, stats %+v", len(tr.Files), len(tr.Charms), tr.Stats)
	}
	if warm, _ := Load(Options{Root: root}); warm.Stats.Reused != 1 {
		t.Errorf("the link's cache is not the tree's: %+v", warm.Stats)
	}
}

func TestNothingToMapKeepsTheCache(t *testing.T) {
	// A run that finds nothing to map does not replace a cache with entries: the root is more
	// likely a wrong folder or a checkout being switched than an emptied charm.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(root, CacheFile))
	away := t.TempDir()
	for _, p := range []string{"src", "metadata.yaml"} {
		if err := os.Rename(filepath.Join(root, p), filepath.Join(away, p)); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	tr.Save(&Memo{Key: "k"})
	if after, _ := os.ReadFile(filepath.Join(root, CacheFile)); len(tr.Files) != 0 || string(after) != string(before) {
		t.Errorf("files %d; cache rewritten (%d → %d bytes)", len(tr.Files), len(before), len(after))
	}
	// nor one it cannot read (another version's), nor does it create one
	other := []byte(`{"version": 2, "entries": [{"file": "src/x.py"}]}`)
	os.WriteFile(filepath.Join(root, CacheFile), other, 0o644)
	tr, _ = Load(Options{Root: root, MemoKey: "k"})
	tr.Save(&Memo{Key: "k"})
	if after, _ := os.ReadFile(filepath.Join(root, CacheFile)); string(after) != string(other) {
		t.Errorf("a cache of another version was rewritten: %s", after)
	}
	empty := t.TempDir()
	tr, _ = Load(Options{Root: empty, MemoKey: "k"})
	tr.Save(&Memo{Key: "k"})
	if _, err := os.Stat(filepath.Join(empty, CacheFile)); err == nil {
		t.Error("a cache was written for an empty tree")
	}
}

func TestLoadRootErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o644)
	for _, root := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		_, err := Load(Options{Root: root})
		var u *UsageError
		if err == nil || !asUsage(err, &u) {
			t.Errorf("Load(%q) = %v, want a UsageError", root, err)
		}
	}
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm})
	for _, scope := range []string{"../x", "missing", "/etc"} {
		if _, err := Load(Options{Root: root, Scope: []string{scope}}); err == nil {
			t.Errorf("scope %q accepted", scope)
		}
	}
}

// A --scope written from the current folder, below the root, is refused with the path to give.
func TestScopeFromCurrentFolder(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "c1")
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "metadata.yaml"), []byte(smallCharm), 0o644)
	t.Chdir(parent)
	_, err := Load(Options{Root: "c1", Scope: []string{"c1/src"}})
	if err == nil || err.Error() != `scope "c1/src": paths are relative to the root (this one is "src" there)` {
		t.Errorf("Load with scope c1/src from the root's parent: %v", err)
	}
	// every value is checked, in either order, a "." (the whole tree) among them too (rev90)
	for _, scope := range [][]string{{"missing"}, {".", "missing"}, {"missing", "."}} {
		_, err = Load(Options{Root: "c1", Scope: scope})
		if err == nil || err.Error() != `scope "missing" is not a directory under the root` {
			t.Errorf("Load with scopes %q: %v", scope, err)
		}
	}
}

func asUsage(err error, u **UsageError) bool {
	v, ok := err.(*UsageError)
	*u = v
	return ok
}

func readCache(t *testing.T, root string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("cache is not JSON: %v", err)
	}
	return doc
}

func TestCacheColdWarmTouchedChanged(t *testing.T) {
	root := writeTree(t, map[string]string{
		"metadata.yaml": smallCharm, "src/charm.py": smallPy, "src/util.py": "def helper(x):\n    return x\n",
	})
	cold, err := Load(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if cold.Stats.Parsed != 2 || !cold.Stats.CacheWritten {
		t.Fatalf("cold stats = %+v", cold.Stats)
	}
	cacheStat, _ := os.Stat(filepath.Join(root, CacheFile))

	warm, err := Load(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Stats.Parsed != 0 || warm.Stats.Reused != 2 || warm.Stats.CacheWritten {
		t.Fatalf("warm stats = %+v", warm.Stats)
	}
	if after, _ := os.Stat(filepath.Join(root, CacheFile)); !after.ModTime().Equal(cacheStat.ModTime()) {
		t.Error("a run that changed nothing rewrote the cache")
	}
	if !reflect.DeepEqual(cold.Files, warm.Files) {
		t.Error("warm files differ from cold files")
	}

	// A new mtime with the same bytes costs a hash, not a parse.
	touchLater(root, "src/util.py")
	touched, _ := Load(Options{Root: root})
	if touched.Stats.Parsed != 0 || touched.Stats.Rehashed != 1 || !touched.Stats.CacheWritten {
		t.Fatalf("touched stats = %+v", touched.Stats)
	}

	os.WriteFile(filepath.Join(root, "src/util.py"), []byte("def helper(x, y):\n    return x\n"), 0o644)
	changed, _ := Load(Options{Root: root})
	if changed.Stats.Parsed != 1 || changed.Stats.Reused != 1 {
		t.Fatalf("changed stats = %+v", changed.Stats)
	}
	if !strings.Contains(symbolSig(changed, "helper"), "y") {
		t.Errorf("changed file not reparsed: %q", symbolSig(changed, "helper"))
	}

	refreshed, _ := Load(Options{Root: root, Refresh: true})
	if refreshed.Stats.Parsed != 2 {
		t.Errorf("refresh stats = %+v", refreshed.Stats)
	}

	// Bytes of the same size under the old mtime (cp -p, rsync -a, touch -r): the ctime
	// changed, so the file is read again, and the edit seen.
	if runtime.GOOS == "linux" {
		p := filepath.Join(root, "src/util.py")
		before, _ := os.Stat(p)
		os.WriteFile(p, []byte("def helper(x, z):\n    return x\n"), 0o644)
		os.Chtimes(p, before.ModTime(), before.ModTime())
		copied, _ := Load(Options{Root: root})
		if !strings.Contains(symbolSig(copied, "helper"), "z") {
			t.Errorf("same size, same mtime: old parse kept: %q", symbolSig(copied, "helper"))
		}
	}
}

func symbolSig(tr *Tree, name string) string {
	for _, f := range tr.Files {
		for _, s := range f.Symbols {
			if s.Name == name {
				return s.Signature
			}
		}
	}
	return ""
}

func TestCachePermissions(t *testing.T) {
	// A new cache file gets 0666 less the umask, as any file the user's tools write; a
	// rewrite keeps the permissions the user gave the file.
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	p := filepath.Join(root, CacheFile)
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new cache under umask 077: %v %v, want -rw-------", fi.Mode(), err)
	}
	syscall.Umask(0o022)
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "src/util.py"), []byte("def helper(x):\n    return x\n"), 0o644)
	res, err := Load(Options{Root: root})
	if err != nil || !res.Stats.CacheWritten {
		t.Fatalf("rewrite: %v %+v", err, res.Stats)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("rewritten cache %v %v, want the user's -rw-r-----", fi, err)
	}
}

// TestCacheCantripShape checks every entry against what Cantrip's reader accepts (CONTRACT §6).
func TestCacheCantripShape(t *testing.T) {
	root := writeTree(t, map[string]string{
		"metadata.yaml": smallCharm, "src/charm.py": smallPy + "\nPORT = 5432\n",
	})
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	doc := readCache(t, root)
	if v, ok := doc["version"].(float64); !ok || v != 1 {
		t.Fatalf("version = %v", doc["version"])
	}
	if _, ok := doc["generated_at"].(float64); !ok {
		t.Fatalf("generated_at = %v", doc["generated_at"])
	}
	entries := doc["entries"].([]any)
	files := map[string]bool{}
	for _, e := range entries {
		m := e.(map[string]any)
		file := m["file"].(string)
		files[file] = true
		if _, ok := m["mtime_ns"].(float64); !ok {
			t.Errorf("%s: mtime_ns = %v", file, m["mtime_ns"])
		}
		for _, r := range m["references"].([]any) {
			if _, ok := r.(string); !ok {
				t.Errorf("%s: reference %v is not a string", file, r)
			}
		}
		for _, d := range m["definitions"].([]any) {
			def := d.(map[string]any)
			for _, k := range []string{"name", "kind", "file", "signature", "qualifier"} {
				if _, ok := def[k].(string); !ok {
					t.Errorf("%s: definition %v lacks string %q", file, def, k)
				}
			}
			if !cantripKinds[def["kind"].(string)] {
				t.Errorf("%s: kind %q would make Cantrip drop the entry", file, def["kind"])
			}
			if def["file"] != file {
				t.Errorf("%s: definition file %v", file, def["file"])
			}
		}
	}
	if !files["src/charm.py"] || !files["metadata.yaml"] {
		t.Errorf("entries = %v", files)
	}
}

func TestCacheBadFilesNeverFatal(t *testing.T) {
	cases := map[string]string{
		"truncated":     `{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 1`,
		"not json":      "\x00\x01garbage",
		"wrong types":   `{"version": 1, "entries": [{"file": 3}, "x", {"file": "src/charm.py", "mtime_ns": "no"}]}`,
		"future":        `{"version": 2, "entries": []}`,
		"version str":   `{"version": "1", "entries": []}`,
		"array":         `[1, 2]`,
		"foreign":       `{"version": 1, "generated_at": 1.5, "entries": [{"file": "src/charm.py", "mtime_ns": 0, "definitions": [{"name": "Fake", "kind": "class", "file": "src/charm.py", "line": 1, "signature": "class Fake:", "qualifier": ""}], "references": []}]}`,
		"stale ours":    `{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 0, "definitions": [], "references": [], "x_charmcraft_map": {"v": 999, "size": 1, "sha256": "x", "py": {"path": "src/charm.py", "symbols": [{"name": "Fake"}]}}}]}`,
		"wrong py path": `{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 0, "definitions": [], "references": [], "x_charmcraft_map": {"v": 1, "size": 1, "sha256": "x", "py": {"path": "other.py", "symbols": [{"name": "Fake"}]}}}]}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, CacheFile: content})
			tr, err := Load(Options{Root: root})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if tr.Stats.Parsed != 1 {
				t.Errorf("stats = %+v, want the file reparsed", tr.Stats)
			}
			if symbolSig(tr, "Fake") != "" || symbolSig(tr, "DemoCharm") == "" {
				t.Error("data not carried by the cache was trusted")
			}
			readCache(t, root) // rewritten as valid JSON
		})
	}
}

func TestForeignEntriesOfUnmappedFilesKept(t *testing.T) {
	// Cantrip's entries for files we do not map (another language, a file an ignore file
	// leaves out) are written back byte for byte while the file exists (a symbolic link to a
	// file too); an entry for a gone
	// file, for a path outside the root, or with our data for a file we no longer map is
	// dropped. None of them is read.
	js := `{"file": "web/app.js", "mtime_ns": 5, "definitions": [{"name": "App", "kind": "class", "file": "web/app.js", "line": 1, "signature": "class App", "qualifier": ""}], "references": ["x", "x"]}`
	alias := `{"file": "web/alias.js", "mtime_ns": 5, "definitions": [], "references": ["App"]}` // a symbolic link to app.js
	content := `{"version": 1, "generated_at": 1.5, "entries": [` + js + `, ` + alias + `,
		{"file": "web/dir", "mtime_ns": 5, "definitions": [], "references": []},
		{"file": "web/gone.js", "mtime_ns": 5, "definitions": [], "references": []},
		{"file": "../outside.js", "mtime_ns": 5, "definitions": [], "references": []},
		{"x_charmcraft_map": "AAAA", "file": "scratch/old.py", "mtime_ns": 5, "definitions": [], "references": []},
		{"file": "web//app.js", "mtime_ns": 5, "definitions": [], "references": []},
		{"file": "web", "mtime_ns": 5, "definitions": [], "references": []}]}`
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, "web/app.js": "class App {}\n",
		"scratch/old.py": "X = 1\n", IgnoreFile: "scratch/\n", CacheFile: content})
	if err := os.Symlink("app.js", filepath.Join(root, "web", "alias.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(root, "web", "dir")); err != nil { // a folder, not a file
		t.Fatal(err)
	}
	// exists, but outside the root
	if err := os.WriteFile(filepath.Join(root, "..", "outside.js"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(js)) || !bytes.Contains(data, []byte(alias)) {
		t.Errorf("Cantrip's entries for web/app.js and the link to it not kept byte for byte:\n%s", data)
	}
	for _, gone := range []string{"web/gone.js", "../outside.js", "scratch/old.py", "web//app.js", "web", "web/dir"} {
		if bytes.Contains(data, []byte(`"`+gone+`"`)) {
			t.Errorf("entry for %s kept", gone)
		}
	}
}

func TestCacheSymlinkNotWrittenThrough(t *testing.T) {
	outside := t.TempDir()
	target := filepath.Join(outside, "target.json")
	os.WriteFile(target, []byte("precious"), 0o644)
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	os.Symlink(target, filepath.Join(root, CacheFile))
	tr, err := Load(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Error("wrote through the symlink")
	}
	if fi, _ := os.Lstat(filepath.Join(root, CacheFile)); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("replaced the user's symlink")
	}
	// one warning says it all: the cache is neither read nor written
	if n := len(slices.DeleteFunc(slices.Clone(tr.Warnings), func(w string) bool { return !strings.HasPrefix(w, CacheFile) })); tr.Stats.CacheWritten || n != 1 ||
		!slices.Contains(tr.Warnings, CacheFile+": not a regular file; not read or written") {
		t.Errorf("stats %+v warnings %q", tr.Stats, tr.Warnings)
	}
}

func TestNoCacheWritesNothing(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	if _, err := Load(Options{Root: root, NoCache: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, CacheFile)); !os.IsNotExist(err) {
		t.Error("--no-cache wrote a cache file")
	}
}

func TestCacheConcurrentWriters(t *testing.T) {
	files := map[string]string{"metadata.yaml": smallCharm}
	for i := 0; i < 20; i++ {
		files[filepath.ToSlash(filepath.Join("src", "m"+string(rune('a'+i))+".py"))] = smallPy
	}
	root := writeTree(t, files)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := Load(Options{Root: root, Refresh: i%2 == 0})
			errs <- err
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	doc := readCache(t, root)
	if n := len(doc["entries"].([]any)); n != 21 {
		t.Errorf("entries = %d, want 21", n)
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, CacheFile+".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %q", leftovers)
	}
}

func TestScopeKeepsOtherEntries(t *testing.T) {
	root := writeTree(t, map[string]string{
		"metadata.yaml": smallCharm, "src/charm.py": smallPy, "tools/gen.py": "def gen():\n    pass\n",
	})
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(Options{Root: root, Scope: []string{"src"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Files) != 1 {
		t.Errorf("scoped files = %d", len(tr.Files))
	}
	if n := len(readCache(t, root)["entries"].([]any)); n != 3 {
		t.Errorf("scoped run dropped entries: %d left", n)
	}
}

func TestScopeFollowsLinkedFolders(t *testing.T) {
	// A folder a symbolic link inside the scope leads to, outside it, is code the scoped
	// charm runs (kafka's k8s/src/single_kernel_kafka -> ../../common/single_kernel_kafka,
	// review rev120): its Python is mapped, under its own path; a sibling folder of the
	// target, and a linked folder outside the scope, are not.
	root := writeTree(t, map[string]string{
		"k8s/metadata.yaml": smallCharm, "k8s/src/charm.py": smallPy,
		"common/kernel/core.py": "def run():\n    pass\n", "common/other/x.py": "def x():\n    pass\n",
		"vm/metadata.yaml": smallCharm, "vm/src/charm.py": smallPy,
	})
	// (nor a folder holding the scope, nor another charm's: review rev125)
	for link, target := range map[string]string{"k8s/src/kernel": "../../common/kernel", "vm/src/kernel": "../../common/kernel",
		"k8s/src/up": "../..", "k8s/src/vmsrc": "../../vm/src"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	tr, err := Load(Options{Root: root, Scope: []string{"k8s"}, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range tr.Files {
		got = append(got, f.Path)
	}
	if want := []string{"common/kernel/core.py", "k8s/src/charm.py"}; !slices.Equal(got, want) {
		t.Errorf("scoped files %v, want %v", got, want)
	}
}

func TestMemo(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	first, err := Load(Options{Root: root, MemoKey: "k1"})
	if err != nil || first.Memo != nil {
		t.Fatalf("cold run: memo %v, err %v", first.Memo, err)
	}
	if first.Stats.CacheWritten {
		t.Fatal("Load wrote the cache before Save")
	}
	first.Save(&Memo{Key: "k1", Out: "map one", Err: "warning: x\n"})
	if !first.Stats.CacheWritten {
		t.Fatal("Save wrote nothing")
	}
	hit, _ := Load(Options{Root: root, MemoKey: "k1"})
	if hit.Memo == nil || hit.Memo.Out != "map one" || hit.Memo.Err != "warning: x\n" || hit.Files != nil {
		t.Fatalf("warm run: memo %+v files %d", hit.Memo, len(hit.Files))
	}
	miss, _ := Load(Options{Root: root, MemoKey: "k2"})
	if miss.Memo != nil || miss.Stats.Reused != 1 {
		t.Fatalf("other key: memo %+v stats %+v", miss.Memo, miss.Stats)
	}
	miss.Save(&Memo{Key: "k2", Out: "map two"})
	if again, _ := Load(Options{Root: root, MemoKey: "k1"}); again.Memo == nil || again.Memo.Out != "map one" {
		t.Fatal("remembering k2 forgot k1")
	}
	// Any change to an input invalidates every memo.
	touchLater(root, "src/charm.py")
	if stale, _ := Load(Options{Root: root, MemoKey: "k1"}); stale.Memo != nil {
		t.Fatal("memo trusted after an mtime change")
	}
	os.WriteFile(filepath.Join(root, "src/new.py"), []byte("X = 1\n"), 0o644)
	if stale, _ := Load(Options{Root: root, MemoKey: "k2"}); stale.Memo != nil {
		t.Fatal("memo trusted after a file was added")
	}
	if refreshed, _ := Load(Options{Root: root, MemoKey: "k1", Refresh: true}); refreshed.Memo != nil {
		t.Fatal("refresh used the memo")
	}
	// A permission change (chmod keeps the mtime) invalidates it too: what can be read changed.
	again, _ := Load(Options{Root: root, MemoKey: "k3"})
	again.Save(&Memo{Key: "k3", Out: "map three"})
	if hit, _ := Load(Options{Root: root, MemoKey: "k3"}); hit.Memo == nil {
		t.Fatal("k3 not remembered")
	}
	os.Chmod(filepath.Join(root, "src/charm.py"), 0o600)
	if stale, _ := Load(Options{Root: root, MemoKey: "k3"}); stale.Memo != nil {
		t.Fatal("memo trusted after a chmod")
	}
	// A YAML file named like a missing declaration file (a warning) changes no file listed.
	again, _ = Load(Options{Root: root, MemoKey: "k4"})
	again.Save(&Memo{Key: "k4", Out: "map four"})
	os.WriteFile(filepath.Join(root, "actions.yml"), []byte("backup: {}\n"), 0o644)
	if stale, _ := Load(Options{Root: root, MemoKey: "k4"}); stale.Memo != nil || !slices.ContainsFunc(stale.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "actions.yml:1: named like actions.yaml")
	}) {
		t.Fatalf("memo trusted after actions.yml appeared, or no warning: %q", stale.Warnings)
	}
	// The cache Cantrip sees still starts with our memo but keeps its own keys intact.
	doc := readCache(t, root)
	if _, ok := doc["entries"]; !ok {
		t.Fatal("no entries")
	}
}

// TestMemoStaysSmall: an output too large to be worth rewriting on every call is printed but
// not remembered, and the remembered outputs together stay under maxMemoBytes, dropping the
// oldest first.
func TestMemoStaysSmall(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	save := func(key string, size int) {
		t.Helper()
		tr, err := Load(Options{Root: root, MemoKey: key})
		if err != nil {
			t.Fatal(err)
		}
		tr.Save(&Memo{Key: key, Out: strings.Repeat("x", size)})
	}
	remembered := func(key string) bool {
		tr, _ := Load(Options{Root: root, MemoKey: key})
		return tr.Memo != nil
	}
	save("huge", maxMemoOut+1)
	if remembered("huge") {
		t.Error("an output over maxMemoOut was remembered")
	}
	n := maxMemoBytes/maxMemoOut + 1 // one more than fits at the largest size kept
	for k := range n {
		save(fmt.Sprint("big", k), maxMemoOut-100)
	}
	if !remembered(fmt.Sprint("big", n-1)) || remembered("big0") {
		t.Errorf("newest remembered %v, oldest %v: want true, false", remembered(fmt.Sprint("big", n-1)), remembered("big0"))
	}
	if m := peekMemo(root); len(m.Outputs) == 0 || len(m.Outputs) > maxMemoBytes/(maxMemoOut-100) {
		t.Errorf("%d outputs remembered", len(m.Outputs))
	}
}

// TestEntryRoundTrip: what an entry stores restores the extraction exactly, and an entry that
// differs in any byte from what we wrote is not trusted.
func TestDamagedMemoNotServed(t *testing.T) {
	// A cache file cut short after the memo, added to, or whose memo was edited, is not served from the
	// memo: the run reads the tree again and prints what it finds.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	tr, _ := Load(Options{Root: root, MemoKey: "k"})
	tr.Save(&Memo{Key: "k", Out: "DemoCharm map"})
	p := filepath.Join(root, CacheFile)
	good, _ := os.ReadFile(p)
	if hit, _ := Load(Options{Root: root, MemoKey: "k"}); hit.Memo == nil {
		t.Fatal("the intact memo is not served")
	}
	for name, bad := range map[string][]byte{
		"cut":      good[:len(good)-40],
		"appended": append(slices.Clone(good), " \n"...),
		"edited":   bytes.Replace(good, []byte("DemoCharm map"), []byte("PWNED map"), 1),
		"doubled":  append(slices.Clone(good), good...), // the memo first and its trailer last, as written
	} {
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		tr, err := Load(Options{Root: root, MemoKey: "k"})
		if err != nil || tr.Memo != nil || len(tr.Files) != 1 {
			t.Errorf("%s: memo %+v, files %d, err %v", name, tr.Memo, len(tr.Files), err)
		}
	}
}

func TestEntryRoundTrip(t *testing.T) {
	src := smallPy + "\nPORT = 5432\n\nclass Other:\n    X = 1\n\n    def m(self, a: int = PORT) -> str:\n        return self.helper(a)\n"
	f := pyextract.Parse("src/charm.py", []byte(src))
	b := (&usable{mtime: 7, size: int64(len(src)), hash: "h", file: f}).encode()
	var e cacheEntry // Cantrip's view
	if err := json.Unmarshal(b, &e); err != nil || e.File != f.Path || e.MtimeNS != "7" || len(e.Definitions) == 0 {
		t.Fatalf("Cantrip's keys: %+v, %v", e, err)
	}
	// one reference per occurrence (CONTRACT §6): "framework" is used twice, helper once
	count := map[string]int{}
	for _, r := range e.References {
		count[r]++
	}
	for _, r := range f.Refs {
		if count[r.Name] != r.Count {
			t.Errorf("references list %q %d times, counted %d", r.Name, count[r.Name], r.Count)
		}
	}
	if count["framework"] != 2 || count["helper"] != 1 || len(count) != len(f.Refs) {
		t.Errorf("references %v", e.References)
	}
	// forged counts: the names listed never take more bytes than the file has
	forged := pyextract.File{Path: "src/charm.py", Refs: []pyextract.Ref{{Name: strings.Repeat("n", 1000), Count: 1 << 40}, {Name: "x", Count: -3}, {Name: "y", Count: 1 << 40}}}
	got := entryOf(&forged, 1, "", 5000).References
	size := 0
	for _, r := range got {
		size += len(r)
	}
	if size > 5000+1000+2 || !slices.Contains(got, "x") || !slices.Contains(got, "y") {
		t.Errorf("forged counts: %d references of %d bytes", len(got), size)
	}
	u, ok := decodeOurs(b)
	if !ok {
		t.Fatal("entry not usable")
	}
	if !reflect.DeepEqual(u.file, f) || u.mtime != 7 || u.size != int64(len(src)) || u.hash != "h" {
		t.Errorf("round trip changed the extraction:\n got %+v\nwant %+v", u.file, f)
	}
	for i := len(ourPrefix); i < len(b); i += 7 {
		altered := bytes.Clone(b)
		altered[i] ^= 1
		if _, ok := decodeOurs(altered); ok {
			t.Fatalf("entry altered at byte %d trusted: %s", i, altered)
		}
	}
}

// TestBlobRoundTrip: the binary form keeps every field of every pyextract type, nil and empty
// slices apart, and a truncated blob never decodes.
func TestBlobRoundTrip(t *testing.T) {
	v := &pyextract.Value{Kind: "call", Chain: pyextract.Chain{{Name: "f"}, {Call: true}},
		Args: []pyextract.Value{{Kind: "str", Str: "x"}}, Kwargs: []pyextract.Kwarg{{Name: "k", Value: pyextract.Value{Kind: "other"}}}}
	f := pyextract.File{Path: "a.py", Lines: 3, Errors: 2, Imports: []pyextract.Import{{Module: "m", Name: "n", Alias: "a", Line: -1}},
		Symbols: []pyextract.Symbol{{Name: "C", Kind: "class", Bases: []string{}, Params: []pyextract.Param{{Name: "p", Default: v}}, Value: v}},
		Refs:    []pyextract.Ref{{Name: "r", Count: 1 << 40}},
		Facts: pyextract.Facts{
			Observes: []pyextract.Observe{{Scope: pyextract.Scope{Class: "C", Func: "f", Line: 1, Conditional: true}, Event: *v, Handler: *v}},
			Keys:     []pyextract.KeyAccess{{Object: pyextract.Chain{{Index: v, GetAttr: v}}, Key: *v, Via: "get"}},
		}}
	bin := appendFileBlob(nil, &f)
	got, ok := decodeFileBlob(&blobDecoder{s: string(bin)})
	if !ok || !reflect.DeepEqual(got, f) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", ok, got, f)
	}
	for n := range len(bin) {
		if _, ok := decodeFileBlob(&blobDecoder{s: string(bin[:n])}); ok {
			t.Fatalf("blob cut to %d of %d bytes decoded", n, len(bin))
		}
	}
}

// TestAlteredEntryNotTrusted: an entry of ours edited after we wrote it (its JSON, or the
// header that says where it ends) is reparsed, and never makes the cache fatal.
func TestAlteredEntryNotTrusted(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, CacheFile)
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(orig, []byte(ourPrefix)) + len(ourPrefix)
	for name, alter := range map[string]func(b []byte) []byte{
		"signature": func(b []byte) []byte {
			return bytes.Replace(b, []byte("class DemoCharm("), []byte("class DemoCharX("), 1)
		},
		"length": func(b []byte) []byte { // another length in the header: a wrong cut
			if b[i+6] == 'A' {
				b[i+6] = 'B'
			} else {
				b[i+6] = 'A'
			}
			return b
		},
		"truncated": func(b []byte) []byte { return b[:len(b)-10] },
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(p, alter(bytes.Clone(orig)), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, err := Load(Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Stats.Parsed != 1 || symbolSig(tr, "DemoCharm") != "class DemoCharm(ops.CharmBase):" {
				t.Errorf("stats %+v, DemoCharm %q", tr.Stats, symbolSig(tr, "DemoCharm"))
			}
			if again, _ := Load(Options{Root: root}); again.Stats.Parsed != 0 {
				t.Errorf("the rewritten cache did not serve the next run: %+v", again.Stats)
			}
		})
	}
}

// TestForgedCompressedDataNotTrusted: an entry whose CRC matches but whose compressed data does not
// decompress to exactly the length it states (shorter, longer, beyond what we believe it can expand
// to, or followed by other bytes) is not trusted.
func TestForgedCompressedDataNotTrusted(t *testing.T) {
	f := pyextract.Parse("src/charm.py", []byte(smallPy))
	orig := (&usable{mtime: 7, size: int64(len(smallPy)), hash: "h", file: f}).encode()
	b64, rest, ok := ourSplit(orig)
	if !ok {
		t.Fatal("not split")
	}
	bin, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		t.Fatal(err)
	}
	d := &blobDecoder{s: string(bin[ourHead:])}
	d.uvarint()
	d.take(8)
	at := ourHead + d.i // where the decompressed length starts
	size := d.uvarint()
	stream := bin[ourHead+d.i:]
	forge := func(size uint64, stream []byte) []byte {
		b := binary.AppendUvarint(bytes.Clone(bin[:at]), size)
		b = append(b, stream...)
		binary.LittleEndian.PutUint32(b[4:], uint32(len(b)))
		binary.LittleEndian.PutUint32(b, crc32.Update(crc32.Checksum(b[4:], castagnoli), castagnoli, rest))
		out := base64.StdEncoding.AppendEncode([]byte(ourPrefix), b)
		return append(append(out, '"', ','), rest...)
	}
	if _, ok := decodeOurs(forge(size, stream)); !ok {
		t.Fatal("the unaltered entry, re-forged, is not usable: the forgery is wrong")
	}
	for name, e := range map[string][]byte{
		"shorter":  forge(size-1, stream),
		"longer":   forge(size+1, stream),
		"too long": forge(1<<40, stream),
		"trailing": forge(size, append(bytes.Clone(stream), 0)),
		"cut":      forge(size, stream[:len(stream)-1]),
	} {
		if _, ok := decodeOurs(e); ok {
			t.Errorf("%s: trusted", name)
		}
	}
}

func TestWarningsInLineOrder(t *testing.T) {
	ws := []string{"metadata.yaml:29: b", "src/x.py: syntax", "metadata.yaml:2: a", "config.yaml: empty", "metadata.yaml:3: c"}
	sortWarnings(ws)
	want := []string{"config.yaml: empty", "metadata.yaml:2: a", "metadata.yaml:3: c", "metadata.yaml:29: b", "src/x.py: syntax"}
	if !reflect.DeepEqual(ws, want) {
		t.Errorf("got %q, want %q", ws, want)
	}
}

// TestUnreadableNotRemembered: a file that cannot be read marks the load, and an output
// printed then is not remembered (the fix, a chmod or chown, need not show in the
// fingerprint).
func TestUnreadableNotRemembered(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	probe := &Tree{Root: root}
	probe.parseAll([]string{"src/gone.py"}, []stat{{err: fs.ErrPermission}}, cache{}, nil, nil, time.Now())
	if !probe.unreadable || !probe.Skipped["src/gone.py"] {
		t.Errorf("a file that could not be stat'ed: unreadable %v, skipped %v", probe.unreadable, probe.Skipped)
	}
	tr, _ := Load(Options{Root: root, MemoKey: "k"})
	tr.unreadable = true
	tr.Save(&Memo{Key: "k", Out: "map without a file"})
	if again, _ := Load(Options{Root: root, MemoKey: "k"}); again.Memo != nil {
		t.Error("an output with an unreadable file was remembered")
	}
}

// TestTempFilesCleanedUp: a run that uses the cache, also one served from the memo, removes
// temporary cache files a killed run left (older than staleTempAge) but not another live
// writer's; RemoveTempFiles removes this process's own.
func TestTempFilesCleanedUp(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	stale, live := filepath.Join(root, CacheFile+".tmp-1"), filepath.Join(root, CacheFile+".tmp-2")
	for _, p := range []string{stale, live} {
		if err := os.WriteFile(p, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleTempAge)
	os.Chtimes(stale, old, old)
	if _, err := Load(Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale temporary cache file was kept")
	}
	if _, err := os.Stat(live); err != nil {
		t.Error("a live writer's temporary file was removed")
	}
	temps.Store(live, true)
	RemoveTempFiles()
	temps.Delete(live)
	if _, err := os.Stat(live); err == nil {
		t.Error("RemoveTempFiles kept this process's temporary file")
	}
	// a run that writes nothing, served from the memo, removes a stale one too
	if first, err := Load(Options{Root: root, MemoKey: "k"}); err != nil || first.Memo != nil {
		t.Fatalf("first memo run: %v", err)
	} else {
		first.Save(&Memo{Key: "k", Out: "x"})
	}
	os.WriteFile(stale, []byte("{"), 0o644)
	os.Chtimes(stale, old, old)
	if warm, err := Load(Options{Root: root, MemoKey: "k"}); err != nil || warm.Memo == nil || warm.Stats.CacheWritten {
		t.Fatalf("warm run: memo %v, stats %+v, err %v", warm.Memo != nil, warm.Stats, err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a run served from the memo kept a stale temporary cache file")
	}
}

// TestIgnoredCharmYAML: a charm YAML file an ignore file names is not read, and a memo is not
// served after a change the walk cannot see (an ignored YAML file edited, a link out of the root
// added: its warning is part of what was printed).
func TestIgnoredCharmYAML(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy,
		"config.yaml": "options:\n  alpha: {type: string}\n", ".charmcraft-map-ignore": "config.yaml\n"})
	tr, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil || len(tr.Charms) != 1 {
		t.Fatalf("charms %d, err %v", len(tr.Charms), err)
	}
	if c := tr.Charms[0]; len(c.Config) != 0 || slices.Contains(c.Files, "config.yaml") {
		t.Errorf("ignored config.yaml read: %+v", c.Config)
	}
	memoStaleAfter(t, tr, root, "config.yaml")
	again, _ := Load(Options{Root: root, MemoKey: "k"})
	again.Save(&Memo{Key: "k", Out: "two"})
	outside := filepath.Join(t.TempDir(), "x.py")
	os.WriteFile(outside, []byte("X = 1\n"), 0o644)
	os.Symlink(outside, filepath.Join(root, "src/linked.py")) // skipped, with a warning
	if stale, _ := Load(Options{Root: root, MemoKey: "k"}); stale.Memo != nil {
		t.Fatal("memo trusted after a new walk warning")
	}
}

// TestCharmYAMLLinkOutOfRootWarnedOnce: a charm YAML file linking out of the root is skipped
// with one warning (the walk's), not a second from the charm loader.
func TestCharmYAMLLinkOutOfRootWarnedOnce(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	outside := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(outside, []byte("options:\n  a: {type: string}\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "config.yaml")); err != nil {
		t.Skip(err)
	}
	tr, err := Load(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range tr.Warnings {
		if strings.Contains(w, "config.yaml") {
			n++
		}
	}
	if n != 1 || len(tr.Charms) != 1 || len(tr.Charms[0].Config) != 0 {
		t.Errorf("warnings %q, config %+v", tr.Warnings, tr.Charms)
	}
}

func TestNamelessCharmcraftYAMLWarned(t *testing.T) {
	// A charmcraft.yaml that names no charm (cut short before its name:) in a tree with no
	// charm, or none but a test's, is said, not silently dropped; a bundle's is not a charm's,
	// and a tree with a charm elsewhere has nothing missing.
	cut := "# Copyright\n# See LICENSE\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"cut", map[string]string{"charmcraft.yaml": cut, "src/charm.py": smallPy},
			"charmcraft.yaml:1: names no charm (no name: and no metadata.yaml beside it); its relations, actions and options are not read"},
		{"bundle", map[string]string{"charmcraft.yaml": "type: bundle\n", "src/charm.py": smallPy}, ""},
		{"charm elsewhere", map[string]string{"charmcraft.yaml": cut, "k8s/metadata.yaml": smallCharm, "k8s/src/charm.py": smallPy}, ""},
		{"only a test charm", map[string]string{"charmcraft.yaml": "type: charm\n", "metadata.yaml.j2": smallCharm, "src/charm.py": smallPy,
			"tests/unit/test-charm/metadata.yaml": smallCharm, "tests/unit/test-charm/src/charm.py": smallPy},
			"charmcraft.yaml:1: names no charm (no name: and no metadata.yaml beside it); its relations, actions and options are not read (metadata.yaml.j2 beside it: copy the one to check to metadata.yaml first)"},
	} {
		tr, err := Load(Options{Root: writeTree(t, tc.files), NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range tr.Warnings {
			if strings.Contains(w, "names no charm") {
				got = append(got, w)
			}
		}
		if want := slices.DeleteFunc([]string{tc.want}, func(s string) bool { return s == "" }); !slices.Equal(got, want) {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, want)
		}
	}
	// a pipe named charmcraft.yaml is not read (reading it would wait forever)
	if runtime.GOOS == "linux" {
		root := writeTree(t, map[string]string{"src/charm.py": smallPy})
		if err := syscall.Mkfifo(filepath.Join(root, "charmcraft.yaml"), 0o644); err != nil {
			t.Skip(err)
		}
		if _, err := Load(Options{Root: root, NoCache: true}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParserPanicSkipsTheFile(t *testing.T) {
	// A panic of the parser on one file (a bug of ours) skips that file, with a warning that
	// says so; the others are mapped, nothing of the file is cached, and a run with the bug
	// fixed parses it.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, "src/bad.py": "X = 1\n"})
	parse = func(p string, src []byte) pyextract.File {
		if strings.HasSuffix(p, "bad.py") {
			panic("boom")
		}
		return pyextract.Parse(p, src)
	}
	tr, err := Load(Options{Root: root})
	parse = pyextract.Parse
	if err != nil {
		t.Fatal(err)
	}
	want := "src/bad.py: skipped: internal error while parsing (a bug; please report it): boom"
	if !slices.Contains(tr.Warnings, want) || !tr.Skipped["src/bad.py"] || !slices.Contains(tr.LostCode(), "src/bad.py") {
		t.Errorf("warnings %q, skipped %v, lost %v", tr.Warnings, tr.Skipped, tr.LostCode())
	}
	if i := slices.IndexFunc(tr.Files, func(f pyextract.File) bool { return f.Path == "src/charm.py" }); i < 0 || len(tr.Files[i].Symbols) == 0 {
		t.Errorf("src/charm.py not mapped: %+v", tr.Files)
	}
	again, err := Load(Options{Root: root})
	if err != nil || again.Skipped["src/bad.py"] || again.Stats.Parsed != 1 {
		t.Errorf("after the fix: skipped %v, stats %+v, err %v", again.Skipped, again.Stats, err)
	}
}

func TestTemplateIsSkippedNotLost(t *testing.T) {
	// A Jinja template named .py is skipped with its own warning, and is no lost code (check
	// does not soften its findings for it), on a cold run and from the cache alike.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy,
		"templates/zed/local_settings.py": "DEBUG = {{ debug }}\n{% if ssl %}\nSECURE = True\n{% endif %}\n"})
	for run := 0; run < 2; run++ {
		tr, err := Load(Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		want := "templates/zed/local_settings.py: skipped: a Jinja template, not Python"
		if !slices.Contains(tr.Warnings, want) || !tr.Skipped["templates/zed/local_settings.py"] || len(tr.LostCode()) != 0 {
			t.Errorf("run %d: warnings %q, skipped %v, lost %v", run, tr.Warnings, tr.Skipped, tr.LostCode())
		}
	}
}

func TestParallelRaisesAWorkersPanicOnTheCaller(t *testing.T) {
	// A worker's panic reaches the caller's goroutine (where the command's recover turns it
	// into one line), after every worker has stopped.
	var done atomic.Int64
	got := func() (r any) {
		defer func() { r = recover() }()
		parallel(50, func(i int) {
			if i == 7 {
				panic("worker 7")
			}
			done.Add(1)
		})
		return nil
	}()
	if got != "worker 7" || done.Load() == 0 {
		t.Errorf("recovered %v after %d calls", got, done.Load())
	}
}

// A charm built from Go (a part with the go plugin) and no Python is said to be: its map is
// its YAML alone. A Python charm with a go part (a workload built beside it) is not.
func TestForeignCodeWarning(t *testing.T) {
	root := writeTree(t, map[string]string{
		"gocharm/charmcraft.yaml":  "name: gocharm\ntype: charm\nparts:\n  charm:\n    plugin: go\n    source: .\n",
		"gocharm/main.go":          "package main\n",
		"gocharm/tests/test_it.py": "def test_it():\n    pass\n", // tests are not the charm's code
		"mixed/metadata.yaml":      smallCharm,
		"mixed/charmcraft.yaml":    "type: charm\nparts:\n  charm:\n    plugin: charm\n  tool:\n    plugin: go\n",
		"mixed/src/charm.py":       smallPy,
	})
	// --scope . is the whole tree: the same warning (rev90: it was dropped)
	for _, scope := range [][]string{nil, {"."}, {"./"}} {
		tr, err := Load(Options{Root: root, NoCache: true, Scope: scope})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range tr.Warnings {
			if strings.Contains(w, "plugin") {
				got = append(got, w)
			}
		}
		want := []string{"charm gocharm (gocharm) has no Python code of its own and a part built with the go plugin: its code is not read, only its YAML is mapped"}
		if !reflect.DeepEqual(got, want) || tr.Scopes != nil {
			t.Errorf("--scope %q: warnings = %q, want %q; scopes %q", scope, tr.Warnings, want, tr.Scopes)
		}
	}
}

func TestPythonActionScripts(t *testing.T) {
	// An extension-less action or hook script whose shebang names python is Python, and mapped.
	for rel, first := range map[string]string{
		"hooks/config-changed": "#!/usr/bin/python\nimport os\n",
		"hooks/install":        "#!/bin/sh\nexec ./hooks/install.real\n",
		"actions/add-user":     "#!/usr/local/sbin/charm-env python3\nimport sys\n",
		"src/actions/backup":   "#!/usr/bin/env python3\n",
		"actions/restart":      "#!/bin/bash\nsystemctl restart x\n",
		"actions/add-user.sh":  "#!/usr/bin/env python3\n",
		"scripts/tool":         "#!/usr/bin/env python3\n",
		"actions/README":       "Actions\n",
	} {
		want := rel == "actions/add-user" || rel == "src/actions/backup" || rel == "hooks/config-changed"
		if got := PythonScript(rel, func() []byte { return []byte(first) }); got != want {
			t.Errorf("PythonScript(%s) = %v, want %v", rel, got, want)
		}
	}
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy,
		"actions/add-user": "#!/usr/bin/env python3\nfrom charmhelpers.core.hookenv import action_get\n\ndef main():\n    action_get('user')\n",
		"actions/restart":  "#!/bin/bash\nexit 0\n"})
	tr, err := Load(Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range tr.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Contains(paths, "actions/add-user") || slices.Contains(paths, "actions/restart") {
		t.Errorf("mapped %v, want actions/add-user and not the shell script", paths)
	}
}

// TestTemplates: the files under a templates folder are read for the option names they use
// (linked as reads: "no code reads" is not said of an option a template uses), a template
// edit invalidates the memo like a Python edit, and templates leave the cache's entries alone.
func TestTemplates(t *testing.T) {
	root := writeTree(t, map[string]string{
		"metadata.yaml":         smallCharm,
		"config.yaml":           "options:\n  log-level:\n    type: string\n  unused:\n    type: string\n",
		"src/charm.py":          smallPy,
		"templates/app.conf.j2": "level = {{ config['log-level'] }}\n",
		"templates/logo.png":    "{{ options.unused }}",
		// a workload's file named like charm YAML, under a templates folder, is one too
		"templates/config.yaml": "homeserver:\n  domain: example.com\n",
		// a test's template sets options (a functional test's bundle): it reads none
		"tests/functional/bundle.yaml.j2": "options:\n  unused: {{ unused }}\n",
	})
	tree, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Templates) != 3 || tree.Templates[0].Path != "templates/app.conf.j2" || len(tree.Templates[0].Uses) != 1 ||
		tree.Templates[1].Path != "templates/config.yaml" || !slices.Equal(tree.Templates[1].Words, []string{"com", "domain", "example", "homeserver"}) {
		t.Fatalf("templates %+v", tree.Templates)
	}
	reads := map[string]string{}
	for _, in := range tree.Link().Charms[0].Interfaces {
		for _, s := range in.Reads {
			reads[in.Name] = fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Via)
		}
	}
	if reads["log-level"] != "templates/app.conf.j2:1 template" || reads["unused"] != "" {
		t.Errorf("reads %v", reads)
	}
	memoStaleAfter(t, tree, root, "templates/app.conf.j2")
	if doc := readCache(t, root); strings.Contains(fmt.Sprint(doc["entries"]), "app.conf") {
		t.Error("a template in the cache's entries")
	}
}

// TestOversizedCacheIsNotScanned: a cache file over the size bound is ignored, with a
// warning, and no memo is served from it (peekMemo now checks the size before it decodes: a
// file of blanks before a brace had the memo's JSON decoder read all of it).
func TestOversizedCacheIsNotScanned(t *testing.T) {
	root := writeTree(t, map[string]string{"metadata.yaml": "name: big\nsummary: s\ndescription: d\n"})
	defer func(n int64) { maxCacheBytes = n }(maxCacheBytes)
	maxCacheBytes = 1 << 10
	if err := os.WriteFile(filepath.Join(root, CacheFile), append(bytes.Repeat([]byte(" "), 4<<10), "{}"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := peekMemo(root); m.Fingerprint != "" {
		t.Errorf("memo of an oversized file: %+v", m)
	}
	tr, err := Load(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tr.Warnings, func(w string) bool { return strings.Contains(w, "larger than") }) {
		t.Errorf("warnings %q, want the size said", tr.Warnings)
	}
}

func TestWrapperRunsLongScript(t *testing.T) {
	// A wrapper longer than wrapperMax is read up to its last whole line within it (a cut
	// inside a character of UTF-8 does not make it "not text"); one of exactly wrapperMax
	// bytes is read whole.
	dir := t.TempDir()
	for pad := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("start%d", pad))
		text := "#!/bin/sh\nexec ./hooks/x.real\n# " + strings.Repeat("x", pad) + strings.Repeat("é", wrapperMax/2) + "\n"
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := wrapperRuns(p); !slices.Equal(got, []string{"x.real"}) {
			t.Errorf("padding %d: runs %q, want x.real", pad, got)
		}
	}
	// exactly wrapperMax bytes, the last line without a newline: whole, not cut
	head := "#!/bin/sh\n"
	last := "exec ./hooks/y.real"
	exact := head + strings.Repeat("#\n", (wrapperMax-len(head)-len(last))/2) + last
	exact = head + strings.Repeat("x", wrapperMax-len(exact)) + exact[len(head):]
	p := filepath.Join(dir, "exact")
	if err := os.WriteFile(p, []byte(exact), 0o755); err != nil || len(exact) != wrapperMax {
		t.Fatal(err, len(exact))
	}
	if got := wrapperRuns(p); !slices.Equal(got, []string{"y.real"}) {
		t.Errorf("exactly wrapperMax bytes: runs %q, want y.real", got)
	}
	// a comment in Latin-1 is text too; NUL bytes are not
	for text, want := range map[string][]string{
		"#!/bin/sh\n# caf\xe9\nexec ./hooks/z.real\n": {"z.real"},
		"#!/bin/sh\x00\nexec ./hooks/z.real\n":        nil,
	} {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := wrapperRuns(p); !slices.Equal(got, want) {
			t.Errorf("%q: runs %q, want %q", text, got, want)
		}
	}
}

func TestLongParseCheckpointsTheCache(t *testing.T) {
	// A parse that takes long writes what it has parsed so far into the cache (a caller's
	// timeout may kill it before the end, and no handler sees SIGKILL): the next run reuses
	// those files and parses only the rest. Here every file is "long": checkpointEvery 0.
	files := map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy}
	for i := range 12 {
		files[fmt.Sprintf("src/mod%02d.py", i)] = fmt.Sprintf("def f%d():\n    return %d\n", i, i)
	}
	root := writeTree(t, files)
	defer func(d time.Duration) { checkpointEvery = d }(checkpointEvery)
	checkpointEvery = 0
	tr, err := Load(Options{Root: root, SaveLater: true}) // a run killed before its Save
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.Parsed != 13 || tr.Stats.CacheWritten {
		t.Fatalf("parsed %d, written %v", tr.Stats.Parsed, tr.Stats.CacheWritten)
	}
	next, err := Load(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	// the whole parse is written before linking and ranking (a run killed in them keeps it)
	if next.Stats.Reused != 13 || next.Stats.Parsed != 0 {
		t.Errorf("after checkpoints: reused %d, parsed %d", next.Stats.Reused, next.Stats.Parsed)
	}
	// a checkpoint never replaces a cache another run wrote since this one read it
	root2 := writeTree(t, files)
	k := &checkpointer{root: root2, seen: cacheStamp(root2)} // no cache file when "read"
	other := []byte(`{"version": 1, "generated_at": 1.5, "entries": []}`)
	if err := os.WriteFile(filepath.Join(root2, CacheFile), other, 0o644); err != nil {
		t.Fatal(err)
	}
	k.write(map[string]*usable{})
	if got, _ := os.ReadFile(filepath.Join(root2, CacheFile)); string(got) != string(other) {
		t.Errorf("a checkpoint replaced another run's cache: %.80s", got)
	}
	k.seen = cacheStamp(root2) // as read: written
	k.write(map[string]*usable{})
	if got, _ := os.ReadFile(filepath.Join(root2, CacheFile)); string(got) == string(other) {
		t.Error("a checkpoint over the cache this run read was not written")
	}
	// a short parse writes none: the run's Save is the only write
	checkpointEvery = time.Hour
	root = writeTree(t, files)
	if _, err := Load(Options{Root: root, SaveLater: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, CacheFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a short parse wrote a checkpoint: %v", err)
	}
}

func TestGeneratedAtIsAlwaysAFloat(t *testing.T) {
	// Unix seconds as a float (CONTRACT §6), a whole second too: never written as an integer.
	for _, ns := range []int64{1796629545000000000, 1796629545000000100, 1796629545123456789, 0} {
		got := generatedAt(time.Unix(0, ns))
		var v any
		if err := json.Unmarshal([]byte(got), &v); err != nil || !strings.Contains(got, ".") {
			t.Errorf("%d ns: %q", ns, got)
		}
		if f, _ := v.(float64); math.Abs(f-float64(ns)/1e9) > 1e-5 {
			t.Errorf("%d ns: %q reads %v", ns, got, f)
		}
	}
}
