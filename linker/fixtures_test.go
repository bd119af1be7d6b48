package linker_test

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// The fixture charms under testdata/charms carry their expected links as `# want`
// annotations (see testdata/charms/README.md). This test links each fixture and compares:
// handlers (sets of symbols) and reads (sets of files) on each YAML declaration line,
// lifecycle/secret/status observe lines, linker findings by rule+file+line (a warning
// severity means a conditional site), and unresolved sites by kind+file+line.

var wantRE = regexp.MustCompile(`#\s*want((?:\s+[a-z]+=\S*)+)\s*$`)

// want is one annotation: key -> set of values.
type want map[string][]string

type pos struct {
	file string
	line int
}

// annotations reads every `# want` comment of a fixture's .py and .yaml files.
func annotations(t *testing.T, root string) map[pos]want {
	t.Helper()
	out := map[pos]want{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".yaml")) {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, p)
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			m := wantRE.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			w := want{}
			for _, field := range strings.Fields(m[1]) {
				k, v, _ := strings.Cut(field, "=")
				w[k] = nil
				if v != "" {
					w[k] = strings.Split(v, ",")
				}
			}
			out[pos{filepath.ToSlash(rel), line}] = w
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedSet(list []string) []string {
	s := slices.Clone(list)
	sort.Strings(s)
	return slices.Compact(s)
}

// findingKinds are the check rules the linker reports itself.
var findingKinds = map[string]bool{
	linker.FindUndeclaredRelation: true, linker.FindUndeclaredAction: true, linker.FindUndeclaredConfig: true,
	linker.FindUndeclaredContainer: true, linker.FindUndeclaredStorage: true, linker.FindMissingHandler: true,
	linker.FindUndeclaredParam: true, linker.FindUnobservedHandler: true,
}

func TestFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/charms/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) { checkFixture(t, dir) })
	}
	if n == 0 {
		t.Fatal("no fixtures found")
	}
}

func checkFixture(t *testing.T, root string) {
	tree, err := repomap.Load(repomap.Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	res := tree.Link()
	ann := annotations(t, root)
	used := map[pos]bool{}

	// YAML lines after a `warning=yaml` annotation are neither required nor forbidden.
	brokenFrom := map[string]int{}
	for p, w := range ann {
		if slices.Contains(w["warning"], "yaml") {
			brokenFrom[p.file] = p.line
		}
	}
	unannotatedOK := func(p pos) bool { l, ok := brokenFrom[p.file]; return ok && p.line >= l }

	// Juju's rejections of a config option are warnings at the option's line, and only there.
	rejected := map[pos]bool{}
	for _, ch := range tree.Charms {
		for _, w := range ch.Warnings {
			loc, msg, _ := strings.Cut(w, ": ")
			file, line, _ := strings.Cut(loc, ":")
			if n, err := strconv.Atoi(line); err == nil && strings.Contains(msg, "invalid config") {
				rejected[pos{path.Join(ch.Dir, file), n}] = true
			}
		}
	}
	for p, w := range ann {
		if slices.Contains(w["warning"], "config-type") {
			if !rejected[p] {
				t.Errorf("%s:%d: no config-type warning here", p.file, p.line)
			}
			delete(rejected, p)
		}
	}
	for p := range rejected {
		t.Errorf("%s:%d: config-type warning, not annotated", p.file, p.line)
	}

	decls := map[pos]bool{}
	for ci, cl := range res.Charms {
		for _, it := range cl.Interfaces {
			switch it.Kind {
			case linker.KindLifecycle, linker.KindSecret, linker.KindStatus:
				for _, h := range it.Handlers {
					p := pos{h.ObserveFile, h.ObserveLine}
					w, ok := ann[p]
					if !ok || !slices.Contains(w[it.Kind], it.Name) {
						t.Errorf("%s:%d: %s %s handled by %s, not annotated", p.file, p.line, it.Kind, it.Name, h.Symbol)
					}
					used[p] = true
				}
				continue
			case linker.KindResource:
				continue
			}
			p := pos{it.File, it.Line}
			decls[p] = true
			w, ok := ann[p]
			if !ok && unannotatedOK(p) {
				continue
			}
			used[p] = true
			var handlers []string
			for _, h := range it.Handlers {
				if h.Via != linker.ViaNaming { // the weak naming guess is not a handler to the fixtures
					handlers = append(handlers, h.Symbol)
				}
			}
			if it.Kind != linker.KindConfig {
				compareSet(t, p, it.Kind+" "+it.Name+" handlers", w["handlers"], handlers)
			}
			compareSet(t, p, it.Kind+" "+it.Name+" reads", w["reads"], readFiles(it, ""))
			if it.Kind == linker.KindAction {
				checkParams(t, tree.Charms[ci], it, ann, used, unannotatedOK)
			}
		}
	}

	var gotFind, wantFind []string
	for _, cl := range res.Charms {
		for _, f := range cl.Findings {
			gotFind = append(gotFind, findingKey(f.File, f.Line, f.Kind, f.Conditional))
		}
	}
	var gotUnres, wantUnres []string
	for _, u := range res.Unresolved {
		gotUnres = append(gotUnres, findingKey(u.File, u.Line, u.Via, false))
	}
	for p, w := range ann {
		for _, rule := range w["check"] {
			if findingKinds[rule] {
				cond := slices.Contains(w["severity"], "warning") && rule != linker.FindUndeclaredParam
				wantFind = append(wantFind, findingKey(p.file, p.line, rule, cond))
			}
		}
		for _, via := range w["unresolved"] {
			wantUnres = append(wantUnres, findingKey(p.file, p.line, via, false))
		}
		if _, ok := w["handlers"]; ok && !decls[p] && !used[p] {
			t.Errorf("%s:%d: handlers annotation on a line that declares nothing the linker knows", p.file, p.line)
		}
	}
	compareSet(t, pos{root, 0}, "findings", wantFind, gotFind)
	compareSet(t, pos{root, 0}, "unresolved", wantUnres, gotUnres)
}

// checkParams compares the reads of each declared parameter of an action.
func checkParams(t *testing.T, ch charmyaml.Charm, it linker.Interface, ann map[pos]want, used map[pos]bool, skip func(pos) bool) {
	for _, a := range ch.Actions {
		if a.Name != it.Name {
			continue
		}
		for _, prm := range a.Params {
			p := pos{prm.File, prm.Line}
			if _, ok := ann[p]; !ok && skip(p) {
				continue
			}
			used[p] = true
			compareSet(t, p, "param "+a.Name+"."+prm.Name+" reads", ann[p]["reads"], readFiles(it, prm.Name))
		}
	}
}

// readFiles are the files of an interface's reads: lookups for relations, containers and
// storage (not library bindings); for actions, the reads of parameter key.
func readFiles(it linker.Interface, key string) []string {
	var files []string
	for _, r := range it.Reads {
		switch {
		case it.Kind == linker.KindAction && r.Key != key:
		case it.Kind != linker.KindConfig && it.Kind != linker.KindAction && r.Via != linker.ViaLookup:
		default:
			files = append(files, r.File)
		}
	}
	return files
}

func findingKey(file string, line int, kind string, cond bool) string {
	s := file + ":" + strconv.Itoa(line) + " " + kind
	if cond {
		s += " (conditional)"
	}
	return s
}

func compareSet(t *testing.T, p pos, what string, want, got []string) {
	t.Helper()
	w, g := sortedSet(want), sortedSet(got)
	if !slices.Equal(w, g) {
		t.Errorf("%s:%d: %s\n  got  %v\n  want %v", p.file, p.line, what, g, w)
	}
}
