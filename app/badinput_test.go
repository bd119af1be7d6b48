package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// Bounds on one command run over a hostile tree: generous for a loaded 2-core machine, far
// below what a hang or an exponential blow-up would take.
const (
	runDeadline = 20 * time.Second
	heapLimit   = 1 << 30 // live Go heap, sampled while the command runs
)

// baseMetadata and baseCharm make a clean charm: check finds nothing and no run warns. Each
// case adds or replaces files on top of it.
const baseMetadata = "name: demo\nsummary: s\ndescription: d\nrequires:\n  database:\n    interface: pg\n"

const baseCharm = `import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.database_relation_changed, self._on_db)

    def _on_db(self, event):
        pass
`

// outsideMarker is written in every file outside the root; it must never reach the output.
const outsideMarker = "OUTSIDE_ROOT_SECRET"

// badRun is one command invocation. exec gets the case's root and format in c.
type badRun struct {
	name    string
	format  string
	exec    func(c Common, io IO) error
	exit    int
	errHas  string // exit 2: what the one-line error must mention
	errCode string // exit 2 with --format json: the error document's code
}

type badCase struct {
	name      string
	skip      string                                   // a known bug, with what to fix
	build     func(t *testing.T, root, outside string) // adds the hostile part to the base charm
	root      func(root string) string                 // the root passed to the runs (default: root)
	runs      []badRun                                 // default: stdRuns(checkExit) + extra
	extra     []badRun
	checkExit int                                       // check exits 1 when a charm YAML file is lost (a yaml-problem error) or the code uses an undeclared name
	warns     []string                                  // files every successful run names in a warning
	quiet     bool                                      // successful runs print nothing on stderr
	verify    func(t *testing.T, out map[string]string) // stdout by run name, stderr by name+".stderr"
}

// stdRuns maps the tree as JSON (cold: it writes the cache), maps it in the full text view,
// checks it and lists its interfaces without the cache, then maps it in the full view from the
// cache's parse data and as JSON from the cache's memo of the first run: each must print what
// its counterpart printed.
func stdRuns(checkExit int) []badRun {
	noCache := func(run func(c Common, io IO) error) func(c Common, io IO) error {
		return func(c Common, io IO) error {
			c.NoCache = true
			return run(c, io)
		}
	}
	return []badRun{
		{name: "map-json", format: "json", exec: mapAll},
		{name: "map-full", format: "text", exec: noCache(mapFull)},
		{name: "check", format: "text", exit: checkExit, exec: noCache(func(c Common, io IO) error {
			return RunCheck(CheckOptions{Common: c}, io)
		})},
		{name: "interfaces-json", format: "json", exec: noCache(func(c Common, io IO) error {
			return RunInterfaces(InterfacesOptions{Common: c}, io)
		})},
		{name: "map-full-warm", format: "text", exec: mapFull}, // reuses the parse data cached above, and repeats its warnings
		{name: "map-json-warm", format: "json", exec: mapAll},
	}
}

func mapAll(c Common, io IO) error {
	return RunMap(MapOptions{Common: c, All: true, Tokens: DefaultTokens, Tokenizer: "cl100k", Top: 10}, io)
}

func mapFull(c Common, io IO) error {
	return RunMap(MapOptions{Common: c, Full: true, Tokens: DefaultTokens, Tokenizer: "cl100k", Top: 10}, io)
}

func mapRun(name, format string, edit func(*MapOptions), errHas string) badRun {
	return badRun{name: name, format: format, exit: ExitFailure, errHas: errHas, errCode: "usage",
		exec: func(c Common, io IO) error {
			o := MapOptions{Common: c, Tokens: DefaultTokens, Tokenizer: "cl100k", Top: 10}
			edit(&o)
			return RunMap(o, io)
		}}
}

func failRuns(errHas string) []badRun {
	return []badRun{
		mapRun("map", "text", func(*MapOptions) {}, errHas),
		{name: "check-json", format: "json", exit: ExitFailure, errHas: errHas, errCode: "usage",
			exec: func(c Common, io IO) error { return RunCheck(CheckOptions{Common: c}, io) }},
		{name: "interfaces", format: "text", exit: ExitFailure, errHas: errHas,
			exec: func(c Common, io IO) error { return RunInterfaces(InterfacesOptions{Common: c}, io) }},
	}
}

// unreadableRootRuns: a root that exists but cannot be read is the input's fault, with JSON
// error code "input" (map, check and locate alike).
func unreadableRootRuns(errHas string) []badRun {
	return []badRun{
		{name: "map-json", format: "json", exit: ExitFailure, errHas: errHas, errCode: "input", exec: mapAll},
		{name: "check-json", format: "json", exit: ExitFailure, errHas: errHas, errCode: "input",
			exec: func(c Common, io IO) error { return RunCheck(CheckOptions{Common: c}, io) }},
		{name: "locate-json", format: "json", exit: ExitFailure, errHas: errHas, errCode: "input",
			exec: func(c Common, io IO) error { return RunLocate(LocateOptions{Common: c, Text: "the database"}, io) }},
	}
}

// TestBadInputs runs hostile trees and flags through map, check and interfaces. Every run must
// finish within runDeadline and heapLimit without panicking, print either a result (the bad
// part skipped or partly read, with a warning naming it) or one clear error line with exit 2,
// never print anything from outside the root, and leave nothing behind but the cache file.
func TestBadInputs(t *testing.T) {
	fakePrograms(t)
	trap := listen(t)
	cases := []badCase{
		{name: "clean charm (control)", quiet: true, verify: func(t *testing.T, out map[string]string) {
			if s := symbols(t, out["map-json"], "src/charm.py"); s["DemoCharm._on_db"].Line != 8 {
				t.Errorf("symbols = %+v", s)
			}
			if r := relation(t, out["interfaces-json"], "database"); len(r.Handlers) != 1 {
				t.Errorf("database = %+v", r)
			}
		}},
		{name: "binary data in .py files", warns: []string{"src/blob.py", "src/noise.py"},
			build: func(t *testing.T, root, _ string) {
				rng := rand.New(rand.NewPCG(6, 6))
				blob, noise := make([]byte, 64<<10), make([]byte, 256<<10)
				for i := range blob {
					blob[i] = byte(rng.Uint32())
				}
				for i := range noise {
					noise[i] = byte(1 + rng.IntN(255)) // no NUL: it reaches the parser
				}
				write(t, root, "src/blob.py", string(blob))
				write(t, root, "src/noise.py", string(noise))
			},
			verify: charmIntact},
		{name: "invalid UTF-8", checkExit: ExitFindings, warns: []string{"src/latin.py", "metadata.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "src/latin.py", "def caf\xe9(x):\n    return '\xff\xfe'\n\n\ndef ok_after():\n    pass\n")
				write(t, root, "metadata.yaml", baseMetadata+"links:\n  website: caf\xe9\xff\n")
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if s := symbols(t, out["map-json"], "src/latin.py"); s["ok_after"].Line != 5 {
					t.Errorf("the function after the bad bytes is lost: %+v", s)
				}
			}},
		{name: "UTF-8 BOM and CRLF line endings", quiet: true,
			build: func(t *testing.T, root, _ string) {
				crlf := func(s string) string { return "\uFEFF" + strings.ReplaceAll(s, "\n", "\r\n") }
				write(t, root, "src/charm.py", crlf(baseCharm))
				write(t, root, "metadata.yaml", crlf(baseMetadata))
			},
			verify: func(t *testing.T, out map[string]string) {
				s := symbols(t, out["map-json"], "src/charm.py")
				for name, line := range map[string]int{"DemoCharm": 3, "DemoCharm.__init__": 4, "DemoCharm._on_db": 8} {
					if s[name].Line != line || strings.ContainsAny(s[name].Signature, "\r\uFEFF") {
						t.Errorf("%s = %+v, want line %d and a clean signature", name, s[name], line)
					}
				}
				r := relation(t, out["interfaces-json"], "database")
				if r.Line != 5 || r.Interface != "pg" || len(r.Handlers) != 1 || r.Handlers[0].Line != 8 {
					t.Errorf("database = %+v", r)
				}
			}},
		{name: "5,000-deep nesting",
			build: func(t *testing.T, root, _ string) {
				const d = 5000
				write(t, root, "src/deep.py", "X = "+strings.Repeat("[", d)+strings.Repeat("]", d)+
					"\nY = "+strings.Repeat("f(", d)+strings.Repeat(")", d)+
					"\nZ = "+strings.Repeat("{'a': ", d)+"1"+strings.Repeat("}", d)+
					"\nW = "+strings.Repeat("not ", d)+"x\n\n\ndef ok_after():\n    pass\n")
				write(t, root, "metadata.yaml", baseMetadata+"x-list: "+strings.Repeat("[", d)+strings.Repeat("]", d)+
					"\nx-map: "+strings.Repeat("{a: ", d)+"1"+strings.Repeat("}", d)+"\n")
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if s := symbols(t, out["map-json"], "src/deep.py"); s["ok_after"].Line != 7 {
					t.Errorf("the function after the deep expressions is lost: %+v", s)
				}
			}},
		{name: "25,000 functions", // just under pyextract.MaxFileSize
			build: func(t *testing.T, root, _ string) {
				var b strings.Builder
				for i := range 25000 {
					fmt.Fprintf(&b, "def f%d(a, b=1):\n    return a\n", i)
				}
				write(t, root, "src/many.py", b.String())
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				s := symbols(t, out["map-json"], "src/many.py")
				if len(s) != 25000 || s["f24999"].Line != 49999 {
					t.Errorf("%d symbols, f24999 = %+v", len(s), s["f24999"])
				}
			}},
		{name: "3 MB single lines", warns: []string{"src/long_string.py", "src/long_expr.py"},
			build: func(t *testing.T, root, _ string) {
				const n = 3 << 20
				write(t, root, "src/long_string.py", "X = '"+strings.Repeat("a", n)+"'\n\n\ndef ok_after():\n    pass\n")
				write(t, root, "src/long_expr.py", "X = "+strings.Repeat("a+", n/2)+"a\n")
				write(t, root, "metadata.yaml", baseMetadata+"x-long: "+strings.Repeat("b", n)+"\n")
			},
			verify: charmIntact},
		{name: "symlink loops and links out of the root",
			warns: []string{"src/loop1.py", "src/loop2.py", "src/out.py", "src/rel_out.py", "src/pipe_out.py", "config.yaml", "actions.yaml"},
			build: func(t *testing.T, root, outside string) {
				// Opening one of these FIFOs blocks until the deadline: they prove the links'
				// targets are never opened, not merely never printed.
				mkfifo(t, filepath.Join(outside, "pipe.py"), filepath.Join(outside, "pipe.yaml"))
				// the target of the link inside the root: a file the map holds under no other name
				if src, err := os.ReadFile(filepath.Join(root, "src", "charm.py")); err != nil {
					t.Fatal(err)
				} else if err := os.WriteFile(filepath.Join(root, "src", "charm_code"), src, 0o644); err != nil {
					t.Fatal(err)
				}
				for link, target := range map[string]string{
					"loop":               filepath.Join(root, "loop"),
					"a":                  filepath.Join(root, "b"),
					"b":                  filepath.Join(root, "a"),
					"src/loop1.py":       filepath.Join(root, "src/loop2.py"),
					"src/loop2.py":       filepath.Join(root, "src/loop1.py"),
					"src/up":             root,
					"src/parent":         "..",
					"src/out.py":         filepath.Join(outside, "secret.py"),
					"src/rel_out.py":     "../../outside/secret.py",
					"linkdir":            filepath.Join(outside, "dir"),
					"config.yaml":        filepath.Join(outside, "config.yaml"),
					repomap.CacheFile:    filepath.Join(outside, "cache.json"),
					"src/inside_link.py": filepath.Join(root, "src/charm_code"),
					"src/pipe_out.py":    filepath.Join(outside, "pipe.py"),
					"actions.yaml":       filepath.Join(outside, "pipe.yaml"),
				} {
					if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
						t.Fatal(err)
					}
				}
			},
			extra: []badRun{
				// the walk follows no link, so a scope that is one would map nothing: refused
				mapRun("map-scope-linkdir", "json", func(o *MapOptions) { o.Scope = []string{"linkdir"} }, "symbolic link"),
				mapRun("map-scope-through-link", "json", func(o *MapOptions) { o.Scope = []string{"linkdir/sub"} }, "symbolic link"),
				mapRun("map-scope-empty", "json", func(o *MapOptions) { o.Scope = []string{""} }, "scope is empty"),
				{name: "map-focus-outside", format: "text", exec: func(c Common, io IO) error {
					return RunMap(MapOptions{Common: c, Full: true, Tokens: DefaultTokens, Tokenizer: "cl100k",
						Focus: []string{filepath.Join(c.Root, "..", "outside", "secret.py"), "../outside/dir/x.py"}, Mention: []string{outsideMarker}}, io)
				}},
				mapRun("map-scope-outside", "json", func(o *MapOptions) { o.Scope = []string{"../outside"} }, "outside the root"),
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if s := symbols(t, out["map-json"], "src/inside_link.py"); s["DemoCharm"].Line != 3 {
					t.Errorf("a link inside the root was not followed: %+v", s)
				}
				if !strings.Contains(out["map-json.stderr"], repomap.CacheFile+": not a regular file; not read or written") {
					t.Errorf("no warning that the linked cache was not written:\n%s", out["map-json.stderr"])
				}
			}},
		{name: "code that acts if it is run or imported",
			build: func(t *testing.T, root, outside string) {
				act := fmt.Sprintf("import os, subprocess\nopen(%q, 'w').write('ran')\nos.system('touch RAN')\n"+
					"subprocess.run(['python3', '-c', 'pass'])\n__import__('shutil').rmtree(%q)\n", filepath.Join(outside, "RAN"), root)
				for _, p := range []string{"setup.py", "conftest.py", "src/__init__.py", "src/sitecustomize.py", "tests/unit/test_charm.py"} {
					write(t, root, p, act)
				}
				write(t, root, "src/charm.py", baseCharm+"\n\n"+act+"\nif __name__ == '__main__':\n    ops.main(DemoCharm)\n")
			},
			verify: charmIntact},
		{name: "JSON-schema references to the network and to files outside the root", warns: []string{"actions.yaml"},
			build: func(t *testing.T, root, outside string) {
				mkfifo(t, filepath.Join(outside, "schema.json"))
				url := "http://" + trap.addr
				write(t, root, "actions.yaml", "backup:\n  description: b\n  $ref: "+url+"/a.json\n"+
					"restore:\n  $schema: "+url+"/schema\n  params:\n    target:\n      $ref: "+url+"/p.json\n"+
					"export:\n  $ref: file://"+filepath.Join(outside, "schema.json")+"\n"+
					"import:\n  definitions:\n    x: {$ref: '"+url+"/d.json'}\n  params:\n    y: {$ref: '#/definitions/x'}\n")
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if n := trap.connections(t); n > 0 {
					t.Errorf("%d connection(s) to the URLs in actions.yaml", n)
				}
			}},
		{name: "YAML alias bomb in metadata.yaml", warns: []string{"metadata.yaml"},
			// The file is refused: its declarations are lost, a yaml-problem error (exit 1);
			// the endpoint the code observes is then only an info, since it may be declared there.
			checkExit: ExitFindings,
			build: func(t *testing.T, root, _ string) {
				write(t, root, "metadata.yaml", baseMetadata+billionLaughs)
			}},
		{name: "YAML alias bombs in config.yaml and actions.yaml", checkExit: ExitFindings, warns: []string{"config.yaml", "actions.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "config.yaml", "options:\n  port:\n    type: int\n"+billionLaughs)
				write(t, root, "actions.yaml", "a: &a [*a, *a]\nb: &b {x: *a, y: *a, <<: *a}\n"+billionLaughs)
			},
			verify: charmIntact},
		{name: "malformed YAML", checkExit: ExitFindings, warns: []string{"metadata.yaml", "config.yaml", "actions.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "metadata.yaml", baseMetadata+"provides:\n  website: [unclosed\n    x: : :\n")
				write(t, root, "config.yaml", "options: {a: [\n")
				write(t, root, "actions.yaml", "\tbackup:\n  description: tab\n")
			},
			verify: charmIntact},
		{name: "empty YAML", warns: []string{"config.yaml", "charmcraft.yaml"}, // an empty actions.yaml is no actions
			build: func(t *testing.T, root, _ string) {
				write(t, root, "config.yaml", "")
				write(t, root, "actions.yaml", "# only a comment\n")
				write(t, root, "charmcraft.yaml", "\n\n")
			},
			verify: charmIntact},
		{name: "empty metadata.yaml", warns: []string{"metadata.yaml"}, checkExit: ExitFindings,
			build: func(t *testing.T, root, _ string) { write(t, root, "metadata.yaml", "") }},
		{name: "non-mapping YAML", checkExit: ExitFindings, warns: []string{"metadata.yaml", "config.yaml", "actions.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "metadata.yaml", baseMetadata+"provides: [website]\npeers: just text\n")
				write(t, root, "config.yaml", "- a\n- b\n")
				write(t, root, "actions.yaml", "42\n")
			},
			verify: charmIntact},
		{name: "non-mapping metadata.yaml", warns: []string{"metadata.yaml"}, checkExit: ExitFindings,
			build: func(t *testing.T, root, _ string) { write(t, root, "metadata.yaml", "- name: demo\n- requires\n") }},
		{name: "duplicate keys", warns: []string{"metadata.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "metadata.yaml", "name: demo\nsummary: s\nsummary: t\ndescription: d\nrequires:\n"+
					"  database:\n    interface: mysql\n  database:\n    interface: pg\n")
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if r := relation(t, out["interfaces-json"], "database"); r.Interface != "pg" || r.Line != 8 {
					t.Errorf("the last duplicate must win: %+v", r)
				}
			}},
		{name: "endpoint with no body", warns: []string{"metadata.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "metadata.yaml", "name: demo\nsummary: s\ndescription: d\nrequires:\n  database:\n"+
					"provides:\n  website: {}\npeers:\n  replicas: ~\n")
			},
			verify: func(t *testing.T, out map[string]string) {
				charmIntact(t, out)
				if r := relation(t, out["interfaces-json"], "database"); r.Interface != "" || r.Line != 5 {
					t.Errorf("database = %+v", r)
				}
			}},
		{name: "FIFOs named like source files", checkExit: ExitFindings, warns: []string{"config.yaml"},
			build: func(t *testing.T, root, _ string) {
				for _, p := range []string{"src/pipe.py", "config.yaml", ".gitignore", repomap.IgnoreFile} {
					mkfifo(t, filepath.Join(root, filepath.FromSlash(p)))
				}
			},
			verify: charmIntact},
		{name: "unreadable Python file and directory", warns: []string{"src/private.py", "src/locked"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "src/private.py", "def private():\n    pass\n")
				write(t, root, "src/locked/inner.py", "def inner():\n    pass\n")
				unreadable(t, filepath.Join(root, "src/private.py"), filepath.Join(root, "src/locked"))
			},
			verify: charmIntact},
		{name: "unreadable config.yaml", warns: []string{"config.yaml"},
			build: func(t *testing.T, root, _ string) {
				write(t, root, "config.yaml", "options:\n  port:\n    type: int\n")
				unreadable(t, filepath.Join(root, "config.yaml"))
			},
			// The charm cannot be read whole: map goes on with what it read; check and
			// interfaces, whose answer is the declarations, cannot skip it: exit 2.
			runs: []badRun{
				stdRuns(0)[0],
				{name: "check", format: "text", exit: ExitFailure, errHas: "cannot read config.yaml: permission denied", exec: func(c Common, io IO) error {
					return RunCheck(CheckOptions{Common: c}, io)
				}},
				{name: "interfaces-json", format: "json", exit: ExitFailure, errHas: "cannot read config.yaml", errCode: "input", exec: func(c Common, io IO) error {
					return RunInterfaces(InterfacesOptions{Common: c}, io)
				}},
			}},
		{name: "no charm, only Python",
			build: func(t *testing.T, root, _ string) {
				for _, f := range []string{"metadata.yaml", "config.yaml", "actions.yaml", "charmcraft.yaml"} {
					os.Remove(filepath.Join(root, f))
				}
			},
			// map and locate map any Python tree; interfaces and check need a charm: exit 2.
			runs: []badRun{
				stdRuns(0)[0],
				{name: "check", format: "text", exit: ExitFailure, errHas: "no charm", exec: func(c Common, io IO) error {
					return RunCheck(CheckOptions{Common: c}, io)
				}},
				{name: "interfaces", format: "text", exit: ExitFailure, errHas: "no charm", exec: func(c Common, io IO) error {
					return RunInterfaces(InterfacesOptions{Common: c}, io)
				}},
				{name: "interfaces-json", format: "json", exit: ExitFailure, errHas: "no charm", errCode: "usage", exec: func(c Common, io IO) error {
					return RunInterfaces(InterfacesOptions{Common: c}, io)
				}},
			}},
		{name: "root does not exist", runs: failRuns("does not exist"),
			root: func(root string) string { return filepath.Join(root, "missing") }},
		{name: "unreadable root", runs: unreadableRootRuns("permission denied"),
			build: func(t *testing.T, root, _ string) {
				write(t, root, "inner/metadata.yaml", "name: inner\n")
				unreadable(t, filepath.Join(root, "inner"))
			},
			root: func(root string) string { return filepath.Join(root, "inner") }},
		{name: "root in a folder that cannot be searched", runs: unreadableRootRuns("permission denied"),
			build: func(t *testing.T, root, _ string) {
				write(t, root, "outer/inner/metadata.yaml", "name: inner\n")
				unreadable(t, filepath.Join(root, "outer"))
			},
			root: func(root string) string { return filepath.Join(root, "outer", "inner") }},
		{name: "root is a file", runs: failRuns("not a directory"),
			root: func(root string) string { return filepath.Join(root, "metadata.yaml") }},
		{name: "bad flag values", runs: []badRun{
			mapRun("tokens -1", "text", func(o *MapOptions) { o.Tokens = -1 }, "--tokens"),
			mapRun("tokens -1 json", "json", func(o *MapOptions) { o.Tokens = -1 }, "--tokens"),
			mapRun("pressure 2", "json", func(o *MapOptions) { o.Pressure = 2 }, "--pressure"),
			mapRun("pressure -0.5", "text", func(o *MapOptions) { o.Pressure = -0.5 }, "--pressure"),
			mapRun("pressure +Inf", "json", func(o *MapOptions) { o.Pressure = math.Inf(1) }, "--pressure"),
			mapRun("tokenizer gpt2", "json", func(o *MapOptions) { o.Tokenizer = "gpt2" }, "--tokenizer"),
			mapRun("tokenizer empty", "text", func(o *MapOptions) { o.Tokenizer = "" }, "--tokenizer"),
			mapRun("top -1", "json", func(o *MapOptions) { o.Top = -1 }, "--top"),
			mapRun("full and all", "json", func(o *MapOptions) { o.Full, o.All = true, true }, "--full"),
			mapRun("map format xml", "xml", func(*MapOptions) {}, "--format"),
			{name: "check format yaml", format: "yaml", exit: ExitFailure, errHas: "--format",
				exec: func(c Common, io IO) error { return RunCheck(CheckOptions{Common: c}, io) }},
			{name: "interfaces format sarif", format: "sarif", exit: ExitFailure, errHas: "--format",
				exec: func(c Common, io IO) error { return RunInterfaces(InterfacesOptions{Common: c}, io) }},
		}},
		{name: "warnings on a warm cache", warns: []string{"src/blob.py"},
			build: func(t *testing.T, root, _ string) { write(t, root, "src/blob.py", "\x00\x01 binary") },
			runs:  []badRun{{name: "map-json", format: "json", exec: mapAll}, {name: "map-full", format: "text", exec: mapFull}}},
		{name: "pressure NaN",
			runs: []badRun{mapRun("pressure NaN", "json", func(o *MapOptions) { o.Pressure = math.NaN() }, "--pressure")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip(c.skip)
			}
			runBadCase(t, c)
		})
	}
}

// execLog is where the fake programs on PATH record that they were run.
var execLog string

// fakePrograms puts programs a careless tool might run (an interpreter, charmcraft, juju, git,
// a shell, a downloader) first on PATH; each records its run in execLog.
func fakePrograms(t *testing.T) {
	bin := t.TempDir()
	execLog = t.TempDir()
	for _, name := range []string{"python", "python3", "pip", "tox", "charmcraft", "juju", "git", "sh", "bash", "curl", "wget"} {
		script := "#!/bin/sh\n: > '" + filepath.Join(execLog, name) + "'\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
}

// netTrap is a local listener standing behind every URL a test plants in a hostile file.
type netTrap struct {
	addr     string
	accepted chan string // the remote address of each connection, in order
}

func listen(t *testing.T) *netTrap {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	trap := &netTrap{addr: l.Addr().String(), accepted: make(chan string, 64)}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			trap.accepted <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	return trap
}

// connections returns how many connections reached the trap since the last call. It connects
// once itself and counts what is accepted before its own connection, so nothing is missed.
func (trap *netTrap) connections(t *testing.T) int {
	t.Helper()
	c, err := net.Dial("tcp", trap.addr)
	if err != nil {
		t.Fatal(err)
	}
	own := c.LocalAddr().String()
	c.Close()
	timer := time.NewTimer(runDeadline)
	defer timer.Stop()
	for n := 0; ; n++ {
		select {
		case a := <-trap.accepted:
			if a == own {
				return n
			}
		case <-timer.C:
			t.Fatal("the trap never accepted its own connection")
		}
	}
}

func mkfifo(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
}

// billionLaughs nests nine aliases nine deep under a key no reader uses: 9^9 scalars expanded.
var billionLaughs = func() string {
	var b strings.Builder
	b.WriteString("x-lol:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 9), ", "))
	}
	return b.String()
}()

func runBadCase(t *testing.T, c badCase) {
	sandbox := t.TempDir()
	root, outside := filepath.Join(sandbox, "root"), filepath.Join(sandbox, "outside")
	write(t, root, "metadata.yaml", baseMetadata)
	write(t, root, "src/charm.py", baseCharm)
	write(t, outside, "secret.py", "def "+outsideMarker+"():\n    pass\n")
	write(t, outside, "dir/x.py", "def "+outsideMarker+"_dir():\n    pass\n")
	write(t, outside, "dir/sub/y.py", "def "+outsideMarker+"_sub():\n    pass\n")
	write(t, outside, "config.yaml", "options:\n  "+outsideMarker+":\n    type: string\n")
	if c.build != nil {
		c.build(t, root, outside)
	}
	runRoot := root
	if c.root != nil {
		runRoot = c.root(root)
	}
	runs := c.runs
	if runs == nil {
		runs = append(stdRuns(c.checkExit), c.extra...)
	}
	before := snapshot(t, sandbox)
	_, cwdErr := os.Lstat(repomap.CacheFile)

	out := map[string]string{}
	for _, r := range runs {
		stdout, stderr, err := runBounded(t, r, Common{Root: runRoot, Format: r.format})
		out[r.name], out[r.name+".stderr"] = stdout, stderr
		checkRunOutput(t, c, r, stdout, stderr, err)
		checkUntouched(t, r.name, before, snapshot(t, sandbox))
		if _, err := os.Lstat(repomap.CacheFile); cwdErr != nil && err == nil {
			t.Errorf("%s: wrote %s in the working directory", r.name, repomap.CacheFile)
		}
		ran, _ := os.ReadDir(execLog)
		for _, e := range ran {
			t.Errorf("%s: ran a program: %s", r.name, e.Name())
			os.Remove(filepath.Join(execLog, e.Name()))
		}
	}
	for _, name := range []string{"map-json", "map-full"} {
		if warm, ok := out[name+"-warm"]; ok && warm != out[name] {
			t.Errorf("%s from the cache differs:\nwithout:\n%s\nfrom the cache:\n%s", name, out[name], warm)
		}
	}
	if c.verify != nil && !t.Failed() {
		c.verify(t, out)
	}
}

// checkUntouched compares two snapshots of the sandbox: only the root's cache file may have
// been created or replaced, and only by a regular file.
func checkUntouched(t *testing.T, run string, before, after map[string]fileState) {
	t.Helper()
	cache := filepath.Join("root", repomap.CacheFile)
	for p, a := range after {
		b, ok := before[p]
		switch {
		case p == cache && (!ok || b.mode.IsRegular()) && a.mode.IsRegular():
		case !ok:
			t.Errorf("%s: created %s", run, p)
		case a != b:
			t.Errorf("%s: changed %s (%v, %d bytes -> %v, %d bytes)", run, p, b.mode, b.size, a.mode, a.size)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s: removed %s", run, p)
		}
	}
}

// runBounded runs r in a goroutine and fails the test on a panic, on missing runDeadline, or
// when the live heap passes heapLimit. It returns stdout, stderr (with the error line that
// ReportError prints) and the error.
func runBounded(t *testing.T, r badRun, c Common) (string, string, error) {
	t.Helper()
	runtime.GC()
	var stdout, stderr bytes.Buffer
	io := IO{Out: &stdout, Err: &stderr}
	type result struct {
		err   error
		panic string
	}
	done := make(chan result, 1)
	stop := make(chan struct{})
	var peak atomic.Uint64
	go sampleHeap(stop, &peak)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
			}
		}()
		err := r.exec(c, io)
		ReportError(io, c.Format, err)
		done <- result{err: err}
	}()
	timer := time.NewTimer(runDeadline)
	defer timer.Stop()
	var res result
	select {
	case res = <-done:
	case <-timer.C:
		close(stop)
		t.Fatalf("%s: did not finish within %v (heap peak %d MiB so far)", r.name, runDeadline, peak.Load()>>20)
	}
	close(stop)
	if res.panic != "" {
		t.Fatalf("%s: panic: %s", r.name, res.panic)
	}
	if p := peak.Load(); p > heapLimit {
		t.Errorf("%s: live heap reached %d MiB", r.name, p>>20)
	}
	return stdout.String(), stderr.String(), res.err
}

func sampleHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

func checkRunOutput(t *testing.T, c badCase, r badRun, stdout, stderr string, err error) {
	t.Helper()
	if got := ExitCode(err); got != r.exit {
		t.Errorf("%s: exit %d, want %d (err %v)\nstderr:\n%s", r.name, got, r.exit, err, stderr)
		return
	}
	if !utf8.ValidString(stdout) || !utf8.ValidString(stderr) {
		t.Errorf("%s: output is not valid UTF-8", r.name)
	}
	if strings.Contains(stdout+stderr, outsideMarker) {
		t.Errorf("%s: printed what lies outside the root:\n%s\n%s", r.name, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if stderr == "" {
		lines = nil
	}
	if r.exit == ExitFailure {
		last := ""
		if len(lines) > 0 {
			last = lines[len(lines)-1]
		}
		if !strings.HasPrefix(last, "charmcraft-map: ") || !strings.Contains(last, r.errHas) || strings.Count(stderr, "charmcraft-map: ") != 1 {
			t.Errorf("%s: stderr must end in one error line mentioning %q:\n%s", r.name, r.errHas, stderr)
		}
		if r.format != "json" {
			if stdout != "" {
				t.Errorf("%s: printed %q before failing", r.name, stdout)
			}
			return
		}
		var doc struct {
			SchemaVersion int `json:"schema_version"`
			Error         struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.SchemaVersion != 1 || doc.Error.Message == "" ||
			(r.errCode != "" && doc.Error.Code != r.errCode) {
			t.Errorf("%s: error document %q (%v), want code %q", r.name, stdout, err, r.errCode)
		}
		return
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "warning: ") {
			t.Errorf("%s: stray stderr line %q", r.name, l)
		}
	}
	if c.quiet && stderr != "" {
		t.Errorf("%s: warned on a clean tree:\n%s", r.name, stderr)
	}
	for _, f := range c.warns {
		// check reports a charm YAML problem once, as a yaml-problem finding, not on stderr too
		if !strings.Contains(stderr, f) && !(r.name == "check" && strings.Contains(stdout, f) && strings.Contains(stdout, "[yaml-problem]")) {
			t.Errorf("%s: no warning names %s; stderr:\n%s", r.name, f, stderr)
		}
	}
	if r.format == "json" {
		var doc struct {
			SchemaVersion int `json:"schema_version"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.SchemaVersion != 1 {
			t.Errorf("%s: not a JSON document (%v):\n%s", r.name, err, stdout)
		}
	}
	if r.name == "map-full" {
		if n := countCL100k(t, stdout); n > DefaultTokens {
			t.Errorf("map-full printed %d tokens, over the budget of %d", n, DefaultTokens)
		}
	}
}

// charmIntact asserts that the base charm is still mapped and linked, whatever else broke.
func charmIntact(t *testing.T, out map[string]string) {
	t.Helper()
	if s := symbols(t, out["map-json"], "src/charm.py"); s["DemoCharm._on_db"].Line != 8 || s["DemoCharm"].Line != 3 {
		t.Errorf("src/charm.py symbols = %+v", s)
	}
	r := relation(t, out["interfaces-json"], "database")
	for _, h := range r.Handlers {
		if h.Symbol == "DemoCharm._on_db" && h.File == "src/charm.py" && h.Line == 8 {
			return
		}
	}
	t.Errorf("database = %+v", r)
}

type mapSymbol struct {
	Name, Kind, Qualifier, Signature string
	Line                             int
}

// symbols returns the symbols of file in a map JSON document, by name.
func symbols(t *testing.T, doc, file string) map[string]mapSymbol {
	t.Helper()
	var m struct {
		Files []struct {
			Path    string
			Symbols []mapSymbol
		}
	}
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("map JSON: %v", err)
	}
	out := map[string]mapSymbol{}
	for _, f := range m.Files {
		if f.Path == file {
			for _, s := range f.Symbols {
				out[s.Name] = s
			}
		}
	}
	return out
}

type ifaceEntry struct {
	Kind, Name, Role, Interface, File string
	Line                              int
	Handlers                          []struct {
		Event, Symbol, File string
		Line                int
	}
}

// relation returns the one relation called name in an interfaces JSON document.
func relation(t *testing.T, doc, name string) ifaceEntry {
	t.Helper()
	var m struct {
		Charms []struct{ Interfaces []ifaceEntry }
	}
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("interfaces JSON: %v", err)
	}
	var found []ifaceEntry
	for _, c := range m.Charms {
		for _, i := range c.Interfaces {
			if i.Kind == "relation" && i.Name == name {
				found = append(found, i)
			}
		}
	}
	if len(found) != 1 {
		t.Errorf("%d relations called %q in\n%s", len(found), name, doc)
		return ifaceEntry{}
	}
	return found[0]
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// unreadable takes all permissions from paths, or skips the test where that does not stop
// reads (as root).
func unreadable(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, fi.Mode().Perm()) })
		if f, err := os.Open(p); err == nil {
			f.Close()
			t.Skip("chmod 000 does not deny reads here (running as root)")
		}
	}
}

// fileState is what snapshot records of a path: enough to see it created, changed or removed.
type fileState struct {
	mode  fs.FileMode
	size  int64
	mtime time.Time
	link  string
	data  string // the content of a readable regular file
}

// snapshot records every path under dir without following links or opening anything but
// regular files.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		if err != nil {
			out[rel] = fileState{link: "error: " + err.Error()}
			if d != nil && d.IsDir() && rel != "." {
				return fs.SkipDir
			}
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		s := fileState{mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			s.link, _ = os.Readlink(p)
		case fi.Mode().IsRegular():
			s.size, s.mtime = fi.Size(), fi.ModTime()
			if b, err := os.ReadFile(p); err == nil {
				s.data = string(b)
			}
		}
		out[rel] = s
		return nil
	})
	return out
}

// TestShippedCodeImportsNoExecOrNetwork: no package the command is built from imports what
// runs programs, loads code or opens connections (net/url only parses). Third-party code is
// watched at run time instead: TestBadInputs puts fake programs first on PATH and a listener
// behind the URLs it plants.
func TestShippedCodeImportsNoExecOrNetwork(t *testing.T) {
	const module = "github.com/cantrip-dev/charmcraft-map/"
	forbidden := func(imp string) bool {
		switch imp {
		case "os/exec", "plugin", "syscall", "net", "crypto/tls", "golang.org/x/sys/unix":
			return true
		}
		return strings.HasPrefix(imp, "net/") && imp != "net/url" && imp != "net/netip"
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for queue := []string{"cmd/charmcraft-map"}; len(queue) > 0; queue = queue[1:] {
		pkg := queue[0]
		if seen[pkg] {
			continue
		}
		seen[pkg] = true
		files, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(pkg), "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("package %s: no Go files (%v)", pkg, err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				if imp == "syscall" && filepath.Base(file) == "signals.go" && strings.HasSuffix(filepath.Dir(file), "charmcraft-map") {
					// the command's signal handling names SIGHUP and SIGTERM, and uses nothing else of syscall
					if uses := syscallUses(t, file); !slices.Equal(slices.Sorted(slices.Values(uses)), []string{"SIGHUP", "SIGTERM"}) {
						t.Errorf("%s uses syscall.%v; only SIGHUP and SIGTERM are allowed", file, uses)
					}
					continue
				}
				if imp == "syscall" && strings.HasPrefix(filepath.Base(file), "ctime_") && strings.HasSuffix(filepath.Dir(file), "repomap") {
					// the cache reads a file's ctime from its stat record, and uses nothing else of syscall
					if uses := syscallUses(t, file); !slices.Equal(uses, []string{"Stat_t"}) {
						t.Errorf("%s uses syscall.%v; only Stat_t is allowed", file, uses)
					}
					continue
				}
				if forbidden(imp) {
					t.Errorf("%s imports %s", file, imp)
				}
				if strings.HasPrefix(imp, module) {
					queue = append(queue, strings.TrimPrefix(imp, module))
				}
			}
		}
	}
	for _, pkg := range []string{"app", "repomap", "pyextract", "charmyaml", "linker", "rank", "render", "check"} {
		if !seen[pkg] {
			t.Errorf("the command does not import %s: the walk is broken (saw %v)", pkg, seen)
		}
	}
}

// syscallUses lists the distinct names a file selects from package syscall.
func syscallUses(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "syscall" && !slices.Contains(out, sel.Sel.Name) {
				out = append(out, sel.Sel.Name)
			}
		}
		return true
	})
	return out
}
