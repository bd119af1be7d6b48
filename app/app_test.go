package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/repomap"
	"github.com/tiktoken-go/tokenizer"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const charmsDir = "../testdata/charms"

// fixtureCharms lists the fixture roots under testdata/charms.
func fixtureCharms(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(charmsDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) < 4 {
		t.Fatalf("only %d fixture charms", len(out))
	}
	return out
}

// copyTree copies a fixture into a temporary root so a test may write its cache there.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func runMap(t *testing.T, o MapOptions) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	if o.Format == "" {
		o.Format = "text"
	}
	if o.Tokenizer == "" {
		o.Tokenizer = "cl100k"
	}
	if o.Top == 0 {
		o.Top = 10
	}
	err := RunMap(o, IO{Out: &out, Err: &errb})
	return out.String(), errb.String(), err
}

func countCL100k(t *testing.T, s string) int {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	ids, _, _ := enc.Encode(s)
	return len(ids)
}

// TestGolden compares the full and all views of every fixture with testdata/golden; run
// `go test ./app -update` after an intended change and review the diff. Each fixture is
// mapped as a copy outside any repository, as a user's exported charm would be: in this
// repository git tracks every fixture file, also those a fixture's .gitignore lists (which
// are there to be left out), and tracked files are mapped.
func TestGolden(t *testing.T) {
	for _, name := range fixtureCharms(t) {
		root := filepath.Join(t.TempDir(), name)
		if err := os.CopyFS(root, os.DirFS(filepath.Join(charmsDir, name))); err != nil {
			t.Fatal(err)
		}
		for _, view := range []string{"full", "all"} {
			t.Run(name+"/"+view, func(t *testing.T) {
				o := MapOptions{Common: Common{Root: root, NoCache: true}, Tokens: DefaultTokens}
				o.Full, o.All = view == "full", view == "all"
				got, _, err := runMap(t, o)
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("..", "testdata", "golden", name+"."+view+".txt")
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./app -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the golden file; got:\n%s", golden, got)
				}
			})
		}
	}
}

// TestColdWarmNoCacheIdentical: the cache must never change what is printed.
func TestColdWarmNoCacheIdentical(t *testing.T) {
	for _, name := range fixtureCharms(t) {
		t.Run(name, func(t *testing.T) {
			root := copyTree(t, filepath.Join(charmsDir, name))
			o := MapOptions{Common: Common{Root: root}, Full: true, Tokens: DefaultTokens}
			cold, _, err := runMap(t, o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(root, ".cantrip-repomap.json")); err != nil {
				t.Fatalf("cold run wrote no cache: %v", err)
			}
			warm, _, _ := runMap(t, o)
			o.NoCache = true
			nocache, _, _ := runMap(t, o)
			if cold != warm || cold != nocache {
				t.Errorf("outputs differ:\ncold:\n%s\nwarm:\n%s\nno-cache:\n%s", cold, warm, nocache)
			}
		})
	}
}

// actionCharm writes a charm with one action, add-key, and the files of more into a new root.
func actionCharm(t *testing.T, more map[string]string) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: as\nsummary: x\ndescription: x\n")
	write(t, root, "actions.yaml", "add-key:\n  description: add\n")
	write(t, root, "src/charm.py", "import ops\n\nclass C(ops.CharmBase):\n    def __init__(self, f):\n        super().__init__(f)\n")
	for rel, content := range more {
		write(t, root, rel, content)
	}
	return root
}

// TestWarmFollowsLoaderInputs: a remembered map is not reprinted after a change to what the
// charm loader reads besides the YAML and Python files (an action's script in actions/, a
// built charm's .build.manifest), though no file the walk lists changed.
func TestWarmFollowsLoaderInputs(t *testing.T) {
	root := actionCharm(t, map[string]string{
		"layer.yaml":  "includes: ['layer:basic']\n",
		"src/keys.py": "def add_key():\n    pass\n",
	})
	o := MapOptions{Common: Common{Root: root}, All: true}
	script := filepath.Join(root, "actions", "add-key")
	steps := []struct {
		what string
		do   func() error
	}{
		{"script added", func() error {
			if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
				return err
			}
			return os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
		}},
		{"script made not executable", func() error { return os.Chmod(script, 0o644) }},
		{"script made executable again", func() error { return os.Chmod(script, 0o755) }},
		{"script replaced by a link to a module", func() error {
			if err := os.Remove(script); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(root, "src", "add_key.py"), []byte("#!/usr/bin/env python3\n"), 0o755); err != nil {
				return err
			}
			return os.Symlink("../src/add_key.py", script)
		}},
		{"link retargeted", func() error {
			if err := os.Remove(script); err != nil {
				return err
			}
			if err := os.Chmod(filepath.Join(root, "src", "keys.py"), 0o755); err != nil {
				return err
			}
			return os.Symlink("../src/keys.py", script)
		}},
		{"script removed", func() error { return os.Remove(script) }},
		{".build.manifest added", func() error {
			return os.WriteFile(filepath.Join(root, ".build.manifest"), []byte("{}\n"), 0o644)
		}},
	}
	prev, _, err := runMap(t, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if warm, _, _ := runMap(t, o); warm != prev { // remembered
			t.Fatalf("before %s: the warm run differs from the run before it", s.what)
		}
		if err := s.do(); err != nil {
			t.Fatal(err)
		}
		warm, _, err := runMap(t, o)
		if err != nil {
			t.Fatal(err)
		}
		nc := o
		nc.NoCache = true
		cold, _, _ := runMap(t, nc)
		if warm != cold {
			t.Errorf("%s: the warm run reprinted a stale map:\n%s\nwant (--no-cache):\n%s", s.what, warm, cold)
		}
		if cold == prev {
			t.Errorf("%s: the map did not change (the step tests nothing):\n%s", s.what, cold)
		}
		prev = cold
	}
}

// TestIgnoredActionScript: an action's script that the ignore file names is not shown as the
// action's code, and editing the ignore file is seen by the next (warm) run.
func TestIgnoredActionScript(t *testing.T) {
	root := actionCharm(t, map[string]string{
		repomap.IgnoreFile:     "actions/add-key\n",
		"actions/add-key":      "#!/bin/sh\necho add\n",
		"actions/other-script": "#!/bin/sh\n",
	})
	if err := os.Chmod(filepath.Join(root, "actions", "add-key"), 0o755); err != nil {
		t.Fatal(err)
	}
	o := MapOptions{Common: Common{Root: root}, All: true}
	out, _, err := runMap(t, o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "actions/add-key") {
		t.Errorf("an ignored script is shown as the action's code:\n%s", out)
	}
	write(t, root, repomap.IgnoreFile, "# nothing\n")
	out, _, _ = runMap(t, o) // warm: the memo must not be reprinted
	if !strings.Contains(out, "[action] add-key -> actions/add-key") {
		t.Errorf("with the ignore line gone, the script is not shown:\n%s", out)
	}
}

func TestBudgetAndPressure(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	for _, tokens := range []int{50, 200, 400, 1500} {
		out, _, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: tokens})
		if err != nil {
			t.Fatal(err)
		}
		if n := countCL100k(t, out); n > tokens {
			t.Errorf("--tokens %d printed %d tokens", tokens, n)
		}
	}
	full, _, _ := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: 400})
	half, _, _ := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: 400, Pressure: 0.85})
	if n := countCL100k(t, half); n > 200 || n == 0 || len(half) >= len(full) {
		t.Errorf("pressure 0.85: %d tokens (full view %d bytes, halved %d bytes)", n, len(full), len(half))
	}
	empty, _, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: 400, Pressure: 0.96})
	if err != nil || empty != "" {
		t.Errorf("pressure 0.96 printed %q (err %v)", empty, err)
	}
	zero, _, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: 0})
	if err != nil || zero != "" {
		t.Errorf("--tokens 0 printed %q (err %v)", zero, err)
	}
}

func TestCompactViewHub(t *testing.T) {
	out, _, err := runMap(t, MapOptions{Common: Common{Root: filepath.Join(charmsDir, "unified"), NoCache: true}, Tokens: DefaultTokens})
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "src/charm.py — ") {
		t.Errorf("compact view does not start with src/charm.py:\n%s", out)
	}
}

func TestMapJSON(t *testing.T) {
	out, _, err := runMap(t, MapOptions{Common: Common{Root: filepath.Join(charmsDir, "split"), NoCache: true, Format: "json"}, Full: true, Tokens: 300})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SchemaVersion int `json:"schema_version"`
		Budget        struct {
			Tokens, EffectiveTokens, UsedTokens int
		}
		Files []struct {
			Path  string
			Score float64
			Shown bool
		}
		Text string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != 1 || len(doc.Files) == 0 || doc.Text == "" {
		t.Fatalf("doc = %+v", doc)
	}
	for i := 1; i < len(doc.Files); i++ {
		if doc.Files[i].Score > doc.Files[i-1].Score {
			t.Errorf("files not in rank order at %d", i)
		}
	}
	for _, f := range doc.Files {
		if f.Shown != (strings.Contains(doc.Text, f.Path+":\n") || strings.Contains(doc.Text, "\n  "+f.Path+"\n")) {
			t.Errorf("%s: shown=%v disagrees with the text", f.Path, f.Shown)
		}
	}
}

func TestErrorsAndExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	cases := []struct {
		name string
		o    MapOptions
	}{
		{"missing root", MapOptions{Common: Common{Root: missing, Format: "json"}}},
		{"bad format", MapOptions{Common: Common{Root: ".", Format: "xml"}}},
		{"bad tokenizer", MapOptions{Common: Common{Root: ".", Format: "json"}, Tokenizer: "gpt2"}},
		{"negative tokens", MapOptions{Common: Common{Root: ".", Format: "json"}, Tokens: -1}},
		{"pressure > 1", MapOptions{Common: Common{Root: ".", Format: "json"}, Pressure: 1.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := runMap(t, c.o)
			if ExitCode(err) != ExitFailure {
				t.Fatalf("exit = %d (err %v), want 2", ExitCode(err), err)
			}
			var o, e bytes.Buffer
			ReportError(IO{Out: &o, Err: &e}, c.o.Format, err)
			if strings.Count(e.String(), "\n") != 1 {
				t.Errorf("stderr is not one line: %q", e.String())
			}
			if c.o.Format == "json" {
				var doc struct {
					SchemaVersion int `json:"schema_version"`
					Error         struct{ Code, Message string }
				}
				if err := json.Unmarshal(o.Bytes(), &doc); err != nil || doc.SchemaVersion != 1 || doc.Error.Message == "" {
					t.Errorf("error document %q (%v)", o.String(), err)
				}
			}
			if out != "" {
				t.Errorf("printed %q before failing", out)
			}
		})
	}
}

func TestFocusOnAFileNotMappedWarns(t *testing.T) {
	// --focus on a path the map does not hold (a typo, a file outside the root) is ignored
	// with a warning; a mapped one is not warned about, and the memo repeats the warning
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	o := MapOptions{Common: Common{Root: root}, Tokens: 1000, Focus: []string{"src/charm.py", "src/nope.py"}}
	o.Focus = append(o.Focus, "src/nope.py") // named twice, warned once
	for run := range 2 {
		out, errs, err := runMap(t, o)
		if err != nil || out == "" || errs != "warning: --focus src/nope.py: not a Python or charm YAML file the map holds; ignored\n" {
			t.Errorf("run %d: err %v, stderr %q", run, err, errs)
		}
	}
	// an empty --focus ("$FILE" with nothing in it) says so, once, not "--focus : not a Python
	// file", and is no focus: the JSON query holds none (review rev95: it held ".", so diff
	// said the queries differed)
	if out, errs, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true, Format: "json"}, Tokens: 1000, Focus: []string{"", " "}}); err != nil ||
		errs != "warning: --focus is empty; ignored\n" || strings.Contains(out, `"query"`) {
		t.Errorf("empty focus: err %v, stderr %q, query in %.300s", err, errs, out)
	}
	// a path written from a folder below the root is not taken from there (paths are
	// root-relative), and the warning says what it would be called
	t.Chdir(filepath.Join(root, "src"))
	if _, errs, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Tokens: 1000, Focus: []string{"charm.py"}}); err != nil ||
		errs != "warning: --focus charm.py: paths are relative to the root (this one is src/charm.py there); ignored\n" {
		t.Errorf("focus from src/: err %v, stderr %q", err, errs)
	}
	// a file whose name starts with two dots is inside the root
	if err := os.WriteFile(filepath.Join(root, "..dots.py"), []byte("class Dots:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, Tokens: 1000, Focus: []string{filepath.Join(root, "..dots.py")}}); err != nil || errs != "" {
		t.Errorf("focus ..dots.py: err %v, stderr %q", err, errs)
	}
	// an absolute path through a link to the root, or into the root through a link, is the file
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, focus string }{{link, filepath.Join(root, "src/charm.py")}, {root, filepath.Join(link, "src/charm.py")}} {
		_, errs, err := runMap(t, MapOptions{Common: Common{Root: c.root, NoCache: true}, Tokens: 1000, Focus: []string{c.focus}})
		if err != nil || errs != "" {
			t.Errorf("root %s, focus %s: err %v, stderr %q", c.root, c.focus, err, errs)
		}
	}
}

func TestNothingToMap(t *testing.T) {
	// A tree with neither Python nor charm YAML maps to nothing, successfully, and says why;
	// a charm does not get the note.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# moved\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, err := runMap(t, MapOptions{Common: Common{Root: dir, NoCache: true}})
	if err != nil || out != "" || errs != "warning: nothing to map: no Python files and no charm YAML under the root\n" {
		t.Errorf("empty tree: err %v, out %q, stderr %q", err, out, errs)
	}
	out, errs, err = runMap(t, MapOptions{Common: Common{Root: filepath.Join(charmsDir, "split"), NoCache: true}, Tokens: 1500})
	if err != nil || out == "" || strings.Contains(errs, "nothing to map") {
		t.Errorf("split charm: err %v, stderr %q", err, errs)
	}
	// locate says so too, and still prints its (empty) picks
	var lout, lerr bytes.Buffer
	err = RunLocate(LocateOptions{Common: Common{Root: dir, NoCache: true, Format: "text"}, Text: "fix the db relation"}, IO{Out: &lout, Err: &lerr})
	if err != nil || !strings.Contains(lout.String(), "(none)") || lerr.String() != "warning: nothing to map: no Python files and no charm YAML under the root\n" {
		t.Errorf("locate on an empty tree: err %v, out %q, stderr %q", err, lout.String(), lerr.String())
	}
}

func TestLayerRepositoryMapped(t *testing.T) {
	// A reactive layer's repository, with no Python (the layer's code is a shell script): its
	// options are the map, and interfaces names it a layer.
	dir := t.TempDir()
	for name, text := range map[string]string{
		"layer.yaml":       "includes: ['layer:basic']\n",
		"config.yaml":      "options:\n  cuda-version:\n    type: string\n    default: '9.1.85-1'\n    description: The cuda-repo package version to install.\n",
		"reactive/cuda.sh": "#!/bin/bash\n",
	} {
		write(t, dir, name, text)
	}
	out, errs, err := runMap(t, MapOptions{Common: Common{Root: dir, NoCache: true}, Full: true, Tokens: 500})
	if err != nil || errs != "" || !strings.Contains(out, "config.yaml:\n  [config] cuda-version (string, default \"9.1.85-1\")\n") {
		t.Errorf("err %v, stderr %q, out:\n%s", err, errs, out)
	}
	var iout, ierr bytes.Buffer
	if err := RunInterfaces(InterfacesOptions{Common: Common{Root: dir, NoCache: true, Format: "json"}}, IO{Out: &iout, Err: &ierr}); err != nil ||
		!strings.Contains(iout.String(), `"layer": true`) {
		t.Errorf("interfaces: err %v, stderr %q, out:\n%s", err, ierr.String(), iout.String())
	}
}

func TestControlCharactersInNamesEscaped(t *testing.T) {
	// A file name with a newline, ESC or a bidi override is printed escaped in every text
	// view, so that no line of ours is a CI workflow command or a terminal escape; JSON keeps
	// the real name.
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	evil := "src/x\n::error file=a::y\x1b[31m\u202e.py"
	src := "import ops\n\nclass Evil(ops.Object):\n    def __init__(self, charm):\n        super().__init__(charm, \"evil\")\n" +
		"        self.framework.observe(charm.on.website_relation_joined, self._on_joined)\n\n    def _on_joined(self, event):\n        pass\n"
	if err := os.WriteFile(filepath.Join(root, evil), []byte(src), 0o644); err != nil {
		t.Skipf("file name not allowed here: %v", err)
	}
	var outs []string
	for _, run := range []func(io IO) error{
		func(io IO) error {
			return RunMap(MapOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, All: true, Tokenizer: "cl100k", Top: 10}, io)
		},
		func(io IO) error {
			return RunInterfaces(InterfacesOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, io)
		},
		func(io IO) error {
			return RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, io)
		},
		func(io IO) error {
			return RunLocate(LocateOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, Text: "the evil joined handler"}, io)
		},
	} {
		var out, errb bytes.Buffer
		_ = run(IO{Out: &out, Err: &errb})
		outs = append(outs, out.String()+errb.String())
	}
	for i, o := range outs {
		if strings.ContainsAny(o, "\x1b\u202e") || strings.Contains(o, "\n::error") {
			t.Errorf("output %d prints a control character or a workflow command:\n%s", i, o)
		}
	}
	if !strings.Contains(outs[0], `src/x\n::error file=a::y\x1b[31m\u202e.py`) {
		t.Errorf("the map does not name the file escaped:\n%s", outs[0])
	}
	var js bytes.Buffer
	if err := RunMap(MapOptions{Common: Common{Root: root, NoCache: true, Format: "json"}, All: true, Tokenizer: "cl100k", Top: 10}, IO{Out: &js, Err: io.Discard}); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Files []struct{ Path string } }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || !slices.ContainsFunc(doc.Files, func(f struct{ Path string }) bool { return f.Path == evil }) {
		t.Errorf("JSON does not hold the real name (err %v)", err)
	}
}

func TestRootAndLinkShareTheMemo(t *testing.T) {
	// --root real and --root link are one tree: once each has run, alternating them replays
	// the remembered outputs and leaves the cache as it is.
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	o := func(r string) MapOptions {
		return MapOptions{Common: Common{Root: r, Format: "json"}, Tokens: 800, Full: true}
	}
	first := map[string]string{}
	for _, r := range []string{root, link} {
		out, _, err := runMap(t, o(r))
		if err != nil {
			t.Fatal(err)
		}
		first[r] = out
	}
	cache := filepath.Join(root, ".cantrip-repomap.json")
	before, _ := os.ReadFile(cache)
	for _, r := range []string{root, link, root} {
		if out, _, _ := runMap(t, o(r)); out != first[r] {
			t.Errorf("%s: output changed", r)
		}
	}
	if after, _ := os.ReadFile(cache); string(after) != string(before) {
		t.Error("alternating the root and a link to it rewrote the cache")
	}
	if first[root] == first[link] {
		t.Error("the JSON documents should name the root as given")
	}
}

// TestMemoFollowsWhatFocusNames: a remembered output is replayed only for a --focus that
// names what it named then: not for another path that JSON would spell alike (invalid UTF-8),
// not when a link it goes through points elsewhere now, not from another current folder.
func TestMemoFollowsWhatFocusNames(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	for name, src := range map[string]string{"x\xe9.py": "def alpha():\n    pass\n", "x\xe8.py": "class Beta:\n    pass\n"} {
		if err := os.WriteFile(filepath.Join(root, "src", name), []byte(src), 0o644); err != nil {
			t.Skipf("no such file name here: %v", err)
		}
	}
	run := func(focus string, noCache bool) string {
		t.Helper()
		out, errs, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: noCache}, Full: true, Tokens: 800, Focus: []string{focus}})
		if err != nil {
			t.Fatal(err)
		}
		return out + errs
	}
	check := func(what, focus string) {
		t.Helper()
		if got, want := run(focus, false), run(focus, true); got != want {
			t.Errorf("%s: the cached run printed\n%s\nwant\n%s", what, got, want)
		}
	}
	run("src/x\xe9.py", false)
	check("another invalid-UTF-8 name", "src/x\xe8.py")

	link := filepath.Join(t.TempDir(), "f.py")
	os.Symlink(filepath.Join(root, "src", "charm.py"), link)
	run(link, false)
	os.Remove(link)
	os.Symlink(filepath.Join(root, "src", "relations.py"), link)
	check("a focus link pointing elsewhere", link)

	t.Chdir(filepath.Join(root, "src"))
	run("charm.py", false) // from src/: the warning names src/charm.py
	t.Chdir(t.TempDir())
	check("the same --focus from another folder", "charm.py")
}

// TestMemoFollowsTheRootPrinted: the JSON document prints the absolute root as reached; a
// run from a linked folder that leads to the same tree prints its own path, cached or not.
func TestMemoFollowsTheRootPrinted(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	via := filepath.Join(t.TempDir(), "via")
	if err := os.Symlink(root, via); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	run := func(dir string, noCache bool) string {
		t.Helper()
		t.Chdir(dir)
		out, _, err := runMap(t, MapOptions{Common: Common{Root: ".", NoCache: noCache, Format: "json"}, Tokens: 500})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	run(root, false)
	if got, want := run(via, false), run(via, true); got != want || !strings.Contains(got, `"root": "`+via+`"`) {
		t.Errorf("from the linked folder, the cached run printed\n%s\nwant\n%s", got, want)
	}
}

// TestMemoKeepsIgnoredFlagsWarning: `map --all --top 10` after `map --all` warns that --top
// is not used, as it does without the cache.
func TestMemoKeepsIgnoredFlagsWarning(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	o := MapOptions{Common: Common{Root: root}, All: true, Tokens: DefaultTokens, Top: 10}
	if _, errs, err := runMap(t, o); err != nil || errs != "" {
		t.Fatalf("map --all: %v, stderr %q", err, errs)
	}
	o.BudgetFlags = []string{"--top"}
	if _, errs, err := runMap(t, o); err != nil || !strings.Contains(errs, "--top not used") {
		t.Errorf("map --all --top 10 after map --all: %v, stderr %q", err, errs)
	}
}

// TestMemoForgetsTheBrokenCache: a run that finds the cache file broken says so and rewrites
// it; a later run served from the remembered output does not say it again.
func TestMemoForgetsTheBrokenCache(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	o := MapOptions{Common: Common{Root: root}, Tokens: DefaultTokens, Top: 10}
	if _, errs, err := runMap(t, o); err != nil || errs != "" {
		t.Fatalf("first map: %v, stderr %q", err, errs)
	}
	cache := filepath.Join(root, repomap.CacheFile)
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cache, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, err := runMap(t, o); err != nil || !strings.Contains(errs, "unreadable") {
		t.Errorf("map on the broken cache: %v, stderr %q; want it said", err, errs)
	}
	if _, errs, err := runMap(t, o); err != nil || errs != "" {
		t.Errorf("map on the rewritten cache: %v, stderr %q; want nothing", err, errs)
	}
}

// TestNoCharmFailsInOneLine: check and interfaces under a root with no charm fail with one
// line on stderr, the error; the tree's own warnings (a Python file's syntax error) are not
// printed before it; and, the cache on, they leave no cache file behind (a run in the wrong
// folder, $HOME for one, must not litter it).
func TestNoCharmFailsInOneLine(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "charm.py"), []byte("def broken(:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, run := range map[string]func(Common, IO) error{
		"check":      func(c Common, io IO) error { return RunCheck(CheckOptions{Common: c}, io) },
		"interfaces": func(c Common, io IO) error { return RunInterfaces(InterfacesOptions{Common: c}, io) },
	} {
		for _, noCache := range []bool{true, false} {
			var out, errb bytes.Buffer
			err := run(Common{Root: root, Format: "text", NoCache: noCache}, IO{Out: &out, Err: &errb})
			if ExitCode(err) != ExitFailure {
				t.Errorf("%s: exit %d, want %d", name, ExitCode(err), ExitFailure)
			}
			if errb.String() != "" {
				t.Errorf("%s: stderr %q before the error is printed, want nothing", name, errb.String())
			}
			if _, err := os.Lstat(filepath.Join(root, repomap.CacheFile)); !os.IsNotExist(err) {
				t.Errorf("%s (no-cache %v): the cache file is there (%v), want none", name, noCache, err)
			}
		}
	}
	// map maps any Python tree, and caches it
	if err := RunMap(MapOptions{Common: Common{Root: root, Format: "text"}, Tokens: 100, Tokenizer: "cl100k"}, IO{Out: io.Discard, Err: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, repomap.CacheFile)); err != nil {
		t.Errorf("map wrote no cache: %v", err)
	}
}

// TestNoCharmNamesMetadataVariants: a charm for several substrates keeps a metadata.yaml for
// each under other names and has its build copy one in place (rev89: apr-operator); the
// error of check names them and says what to do.
func TestNoCharmNamesMetadataVariants(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"charmcraft.yaml":       "type: charm\n",
		"k8s_metadata.yaml":     "name: demo\nsummary: s\ndescription: d\n",
		"machine_metadata.yaml": "name: demo\nsummary: s\ndescription: d\n",
		"src/charm.py":          "import ops\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := RunCheck(CheckOptions{Common: Common{Root: root, Format: "text", NoCache: true}}, IO{Out: io.Discard, Err: io.Discard})
	want := "; k8s_metadata.yaml, machine_metadata.yaml may be its metadata.yaml under another name: copy the one to check to metadata.yaml first"
	if ExitCode(err) != ExitFailure || err == nil || !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("exit %d, error %v", ExitCode(err), err)
	}
}

// TestWriteJSONKeepsArrows: JSON documents keep <, > and & as written.
func TestWriteJSONKeepsArrows(t *testing.T) {
	var b bytes.Buffer
	if err := writeJSON(&b, map[string]string{"why": "a -> b & <c>"}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"why\": \"a -> b & <c>\"\n}\n"; b.String() != want {
		t.Errorf("writeJSON = %q, want %q", b.String(), want)
	}
}

// TestClassifyUnreadable: a tree that cannot be read is the input's fault ("input"), not the
// tool's ("internal").
func TestClassifyUnreadable(t *testing.T) {
	err := fmt.Errorf("reading /x: %w", &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrPermission})
	var e *Error
	if !errors.As(classify(err), &e) || e.Code != "input" || e.Exit != ExitFailure {
		t.Errorf("classify = %+v", e)
	}
	if !errors.As(classify(&repomap.InputError{Msg: "reading /x: permission denied", Err: fs.ErrPermission}), &e) || e.Code != "input" {
		t.Errorf("classify(InputError) = %+v", e)
	}
	if !errors.As(classify(errors.New("boom")), &e) || e.Code != "internal" {
		t.Errorf("classify(other) = %+v", e)
	}
}

// TestTopZeroListsEveryFile: `--top 0` sets no limit on the compact view (the help says so),
// rather than falling back to the default ten.
func TestTopZeroListsEveryFile(t *testing.T) {
	lines := func(top int) int {
		var out, errb bytes.Buffer
		o := MapOptions{Common: Common{Root: filepath.Join(charmsDir, "monorepo"), Format: "text", NoCache: true},
			Tokenizer: "cl100k", Tokens: 100000, Top: top}
		if err := RunMap(o, IO{Out: &out, Err: &errb}); err != nil {
			t.Fatalf("top %d: %v %s", top, err, errb.String())
		}
		return strings.Count(out.String(), "\n")
	}
	all, ten := lines(0), lines(10)
	if ten != 10 || all <= ten || all != lines(1000) {
		t.Errorf("--top 0 printed %d lines, --top 10 %d, --top 1000 %d", all, ten, lines(1000))
	}
}

func TestCheckReportsYAMLProblemsOnce(t *testing.T) {
	// A charm YAML problem is a yaml-problem finding in check's report, not also a stderr
	// warning; other warnings (a Python syntax error) stay on stderr.
	var out, errb bytes.Buffer
	err := RunCheck(CheckOptions{Common: Common{Root: "../testdata/charms/broken", NoCache: true, Format: "text"}}, IO{Out: &out, Err: &errb})
	if err == nil {
		t.Fatal("broken fixture: check passed")
	}
	if !strings.Contains(out.String(), `unknown type "integer" [yaml-problem]`) {
		t.Errorf("report:\n%s", out.String())
	}
	if strings.Contains(errb.String(), "integer") || !strings.Contains(errb.String(), "syntax error") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	_, stderr, _ := runMap(t, MapOptions{Common: Common{Root: "../testdata/charms/broken", NoCache: true}})
	if !strings.Contains(stderr, `unknown type "integer"`) { // map has no report: it warns
		t.Errorf("map stderr:\n%s", stderr)
	}
}

func TestCheckSoftensFindingsOfLostCode(t *testing.T) {
	// A Python file over the size limit may read what no code read seems to: its charm's
	// unused-config findings are infos that name it. A .py file of binary data holds no code
	// and softens nothing.
	build := func(extra string) string {
		root := t.TempDir()
		write(t, root, "metadata.yaml", "name: lost\nsummary: s\ndescription: d\n")
		write(t, root, "config.yaml", "options:\n  motd:\n    type: string\n")
		write(t, root, "src/charm.py", "import ops\n\nclass LostCharm(ops.CharmBase):\n    pass\n")
		write(t, root, "src/workload.py", extra)
		return root
	}
	run := func(root string) (string, error) {
		var out, errb bytes.Buffer
		err := RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, IO{Out: &out, Err: &errb})
		return out.String(), err
	}
	huge := "def read(config):\n    return config['motd']\n" + strings.Repeat("x = 1\n", 200_000)
	if out, err := run(build(huge)); err != nil || !strings.Contains(out, `info: no code reads config option "motd" (src/workload.py was not read and may read it)`) {
		t.Errorf("huge file: %v\n%s", err, out)
	}
	if out, err := run(build("\x00\x01\x02 binary")); err != nil || !strings.Contains(out, `warning: no code reads config option "motd" [unused-config]`) {
		t.Errorf("binary file: %v\n%s", err, out)
	}
}

func TestCheckSaysShellCodeWasNotChecked(t *testing.T) {
	// A charm whose hooks are shell scripts, or a reactive layer whose handlers are bash, runs
	// code the linker does not read: one unlinked-code info says its YAML was not checked,
	// where the report would otherwise be "0 errors, 0 warnings, 0 infos" (review rev86). A
	// charm with a charm class and a shell hook (a wrapper that installs, then runs Python)
	// is checked as usual, and a test's fixture YAML with no code at all says nothing.
	run := func(root string) string {
		var out, errb bytes.Buffer
		if err := RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, IO{Out: &out, Err: &errb}); err != nil {
			t.Fatalf("%s: %v %s", root, err, errb.String())
		}
		return out.String()
	}
	shell := t.TempDir()
	write(t, shell, "metadata.yaml", "name: sh\nsummary: s\ndescription: d\nrequires:\n  db:\n    interface: pgsql\n")
	write(t, shell, "config.yaml", "options:\n  port:\n    type: int\n    default: 1\n")
	write(t, shell, "hooks/install", "#!/bin/sh\napt-get install -y thing\n")
	write(t, shell, "hooks/config-changed", "#!/bin/sh\nconfig-get port\n")
	if out := run(shell); out != `metadata.yaml:1: info: charm "sh" runs code that is not Python (hooks/config-changed), which the linker does not read: its YAML is not checked against its code [unlinked-code]`+"\n0 errors, 0 warnings, 1 info\n" {
		t.Errorf("shell charm:\n%s", out)
	}
	// hooks that are links to one shell script
	linked := t.TempDir()
	write(t, linked, "metadata.yaml", "name: ln\nsummary: s\ndescription: d\n")
	write(t, linked, "scripts/hook.sh", "#!/bin/sh\necho $0\n")
	if err := os.MkdirAll(filepath.Join(linked, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../scripts/hook.sh", filepath.Join(linked, "hooks", "install")); err != nil {
		t.Fatal(err)
	}
	if out := run(linked); !strings.Contains(out, `charm "ln" runs code that is not Python (hooks/install)`) {
		t.Errorf("linked shell hook:\n%s", out)
	}
	layer := t.TempDir()
	write(t, layer, "layer.yaml", "includes: ['layer:basic']\n")
	write(t, layer, "config.yaml", "options:\n  cuda-version:\n    type: string\n    default: '12'\n")
	write(t, layer, "reactive/cuda.sh", "#!/bin/bash\nsource charms.reactive.sh\n")
	if out := run(layer); !strings.HasPrefix(out, `layer.yaml:1: info: the layer runs code that is not Python (reactive/cuda.sh)`) {
		t.Errorf("bash layer:\n%s", out)
	}
	// a layer's Python the linker does not follow, or could not read, is said at its
	// layer.yaml too, never at no file as charm "" (rev91: GitHub refuses a SARIF upload
	// holding a result with no location)
	pyLayer := t.TempDir()
	write(t, pyLayer, "layer.yaml", "includes: ['layer:basic']\n")
	write(t, pyLayer, "config.yaml", "options:\n  port:\n    type: int\n    default: 1\n")
	write(t, pyLayer, "hooks/helper.py", "def helper():\n    pass\n")
	if out := run(pyLayer); !strings.HasPrefix(out, `layer.yaml:1: info: the layer has code (hooks/helper.py) but no charm class`) {
		t.Errorf("python layer:\n%s", out)
	}
	// through the cache: the handler's removal is seen by the next run (the memo's fingerprint)
	warm := func() string {
		var out, errb bytes.Buffer
		if err := RunCheck(CheckOptions{Common: Common{Root: layer, Format: "text"}}, IO{Out: &out, Err: &errb}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if first, again := warm(), warm(); first != run(layer) || again != first {
		t.Errorf("cached runs differ:\n%s\n%s", first, again)
	}
	if err := os.Remove(filepath.Join(layer, "reactive", "cuda.sh")); err != nil {
		t.Fatal(err)
	}
	if out := warm(); strings.Contains(out, "unlinked-code") || out != run(layer) {
		t.Errorf("handler removed, cached run:\n%s", out)
	}
	wrapped := t.TempDir()
	write(t, wrapped, "metadata.yaml", "name: wr\nsummary: s\ndescription: d\n")
	write(t, wrapped, "hooks/install", "#!/bin/sh\napt-get install -y python3-ops\nexec ./src/charm.py\n")
	write(t, wrapped, "src/charm.py", "import ops\n\nclass WrCharm(ops.CharmBase):\n    pass\n")
	fixture := t.TempDir()
	write(t, fixture, "tests/unit/metadata.yaml", "name: fx\nsummary: s\ndescription: d\nrequires:\n  db:\n    interface: pgsql\n")
	for _, root := range []string{wrapped, fixture} {
		if out := run(root); strings.Contains(out, "unlinked-code") {
			t.Errorf("%s:\n%s", root, out)
		}
	}
}

func TestCheckReportsAnUnreadEntryPoint(t *testing.T) {
	// A charm whose charm class could not be read (a src/charm.py with NUL bytes, which
	// Python refuses too, or an unreadable one) is not passed in silence: one unread-code
	// error naming the file, exit 1. The same charm read whole reports its real finding.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: lost\nsummary: s\ndescription: d\nrequires:\n  bogus-db:\n    interface: postgresql_client\n")
	charm := "import ops\n\nclass LostCharm(ops.CharmBase):\n    pass\n\nif __name__ == \"__main__\":\n    ops.main(LostCharm)\n"
	run := func() (string, error) {
		var out, errb bytes.Buffer
		err := RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, IO{Out: &out, Err: &errb})
		return out.String(), err
	}
	write(t, root, "src/charm.py", charm)
	if out, err := run(); err != nil || !strings.Contains(out, `warning: no code observes, binds or looks up relation "bogus-db"`) {
		t.Errorf("read whole: exit %d\n%s", ExitCode(err), out)
	}
	write(t, root, "src/charm.py", charm+"\x00\x00\xff\xfe")
	out, err := run()
	if ExitCode(err) != ExitFindings || !strings.Contains(out, `metadata.yaml:1: error: charm "lost" has no charm class, @hooks.hook function or reactive handler that could be read: src/charm.py was not read, so its YAML was not checked against its code [unread-code]`) {
		t.Errorf("NUL bytes: exit %d\n%s", ExitCode(err), out)
	}
}

func TestCheckSuppressionComments(t *testing.T) {
	// A `# charmcraft-map: ignore[rule]` comment in the charm's YAML or Python silences the
	// finding on its line (or the next): --strict passes once every finding is silenced.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: keep\nsummary: s\ndescription: d\npeers:\n  coordinator:  # charmcraft-map: ignore[unhandled-relation] kept for upgrades\n    interface: coordinator\n")
	write(t, root, "src/charm.py", `import ops

class KeepCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        # charmcraft-map: ignore[undeclared-config] set by the operator's bundle overlay
        self.legacy = self.config.get("legacy-mode")
`)
	var out, errb bytes.Buffer
	err := RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, Strict: true}, IO{Out: &out, Err: &errb})
	if err != nil || out.String() != "0 errors, 0 warnings, 0 infos; 2 findings silenced by charmcraft-map: ignore comments\n" {
		t.Errorf("check: %v\n%s%s", err, out.String(), errb.String())
	}
}

func TestCheckAnnotationsFromRepoTop(t *testing.T) {
	// A charm checked on its own inside a repository (one charm of a monorepo): GitHub and
	// SARIF paths are from the repository's top, where the forge resolves them; text and JSON
	// stay root-relative.
	top := t.TempDir()
	if err := os.Mkdir(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(top, "charms", "relay")
	if err := os.CopyFS(root, os.DirFS(filepath.Join(charmsDir, "inconsistent"))); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{
		"github": "file=charms/relay/metadata.yaml,", "sarif": `"uri": "charms/relay/metadata.yaml"`, "json": `"file": "metadata.yaml"`,
	} {
		var out, errb bytes.Buffer
		err := RunCheck(CheckOptions{Common: Common{Root: root, NoCache: true, Format: format}}, IO{Out: &out, Err: &errb})
		if ExitCode(err) != ExitFindings {
			t.Fatalf("%s: exit %d (%v) %s", format, ExitCode(err), err, errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s output has no %s:\n%.600s", format, want, out.String())
		}
	}
}

func TestCommandsRememberLinks(t *testing.T) {
	// check, interfaces and locate write the cache after linking, so the links they computed
	// are remembered with it: the next run over the same tree (an agent's next turn, whatever
	// the command) does not link again.
	for name, run := range map[string]func(Common, IO) error{
		"check":      func(c Common, io IO) error { return RunCheck(CheckOptions{Common: c}, io) },
		"interfaces": func(c Common, io IO) error { return RunInterfaces(InterfacesOptions{Common: c}, io) },
		"locate": func(c Common, io IO) error {
			return RunLocate(LocateOptions{Common: c, Text: "the database relation drops its data"}, io)
		},
	} {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(filepath.Join(charmsDir, "inconsistent"))); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if err := run(Common{Root: root, Format: "text"}, IO{Out: &out, Err: &errb}); err != nil && ExitCode(err) == ExitFailure {
			t.Fatalf("%s: %v", name, err)
		}
		tr, err := repomap.Load(repomap.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Link(); !tr.Stats.LinksRemembered {
			t.Errorf("%s: the links were not remembered", name)
		}
	}
}

func TestSkippedFilesAreNotInTheMap(t *testing.T) {
	// A file skipped with a warning (binary data, over the size limit) was not read: no view
	// lists it, not even under "more files:"; JSON lists it among the files, not shown (so
	// that diff does not read it as removed).
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: demo\n")
	write(t, root, "src/charm.py", "import ops\n\nclass DemoCharm(ops.CharmBase):\n    pass\n")
	write(t, root, "src/blob.py", "\x00\x01\x02binary\x00")
	write(t, root, "src/huge_pb2.py", strings.Repeat("X = 1\n", 200000)) // over 1 MiB
	for _, o := range []MapOptions{{Full: true, Tokens: 1500}, {All: true}, {Full: true, Tokens: 1500, Common: Common{Format: "json"}}} {
		o.Root, o.NoCache = root, true
		out, errs, err := runMap(t, o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(errs, "src/blob.py: skipped") || !strings.Contains(errs, "src/huge_pb2.py: skipped") {
			t.Errorf("stderr %q", errs)
		}
		text := out
		if o.Format == "json" {
			var doc struct {
				Text  string
				Files []struct {
					Path  string
					Shown bool
				}
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			text = doc.Text
			listed := map[string]bool{}
			for _, f := range doc.Files {
				listed[f.Path] = !f.Shown
			}
			if !listed["src/blob.py"] || !listed["src/huge_pb2.py"] {
				t.Errorf("json files, not shown: %v", listed)
			}
		}
		if strings.Contains(text, "blob.py") || strings.Contains(text, "huge_pb2.py") || !strings.Contains(text, "src/charm.py") {
			t.Errorf("%+v:\n%s", o, text)
		}
	}
}
