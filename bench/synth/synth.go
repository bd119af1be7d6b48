// Package synth writes synthetic charm-shaped repositories for benchmarks: a deterministic
// function of (file count, seed), so a benchmark can be rerun on the same tree anywhere.
//
// Decisions:
//   - The shape follows what CHARMS.md measured on real charms. A charm holds a src/charm.py
//     hub that wires its declared relations, actions, containers, storage and lifecycle events
//     with framework.observe in every common form (self.on.x_relation_changed, self.on[PEER],
//     getattr(self.on, ...), library objects built with a relation name, helper ops.Object
//     classes, actions), src/*.py helpers the hub imports and calls, vendored libraries under
//     lib/charms/<lib>/v<N>/ (about 12% of the files and 80% of the non-test lines, 2-3k-line
//     files among them), and unit and integration tests (most of the files).
//   - Sizes are log-normal around the medians measured on real charms (tests ~110 lines,
//     src ~165, libraries ~950; ~150 over all files), so parse cost per file matches reality.
//   - Up to 150 files make one charm at the root; more make a monorepo of charms/<name>/
//     directories of about 100 files each. Charms alternate between split YAML (metadata,
//     config, actions plus a build-only charmcraft.yaml) and one unified charmcraft.yaml.
//   - All choices come from one seeded generator drawn in a fixed order, and nothing iterates
//     a map, so the same (files, seed) always yields a byte-identical tree.
package synth

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Generate writes a synthetic charm repository holding exactly files Python files into dir
// (created if missing). The same files and seed always write byte-identical content.
func Generate(dir string, files int, seed int64) error {
	if files < 1 {
		return fmt.Errorf("synth: files must be at least 1, not %d", files)
	}
	g := newGen(seed)
	w := &writer{root: dir}
	w.file(".gitignore", "*.charm\nbuild/\n.tox/\n.venv/\n__pycache__/\n")
	sizes := g.split(files)
	names := g.namer()
	for _, n := range sizes {
		c := g.planCharm(names, n)
		if len(sizes) > 1 {
			c.dir = "charms/" + c.name
		}
		g.writeCharm(w, c)
	}
	return w.err
}

// split divides files among charms of about 100 files each, sizes varying by ±30%.
func (g *gen) split(files int) []int {
	n := 1
	if files > 150 {
		n = (files + 50) / 100
	}
	weights := make([]float64, n)
	sum := 0.0
	for i := range weights {
		weights[i] = 0.7 + 0.6*g.r.Float64()
		sum += weights[i]
	}
	sizes := make([]int, n)
	left := files
	for i := range sizes {
		sizes[i] = max(1, int(float64(files)*weights[i]/sum))
		left -= sizes[i]
	}
	for i := 0; left != 0; i = (i + 1) % n {
		if left > 0 {
			sizes[i]++
			left--
		} else if sizes[i] > 1 {
			sizes[i]--
			left++
		}
	}
	return sizes
}

// writer writes files under root, keeping the first error.
type writer struct {
	root string
	err  error
}

func (w *writer) file(rel, content string) {
	if w.err != nil {
		return
	}
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	if w.err = os.MkdirAll(filepath.Dir(p), 0o755); w.err == nil {
		w.err = os.WriteFile(p, []byte(content), 0o644)
	}
}

// The charm model: what the YAML declares and where the Python code lives.
type (
	charm struct {
		dir, name, product, class string
		split, k8s                bool
		peer                      string
		relations                 []*relation
		config                    []option
		actions                   []*action
		container, storage        string
		own                       *libModule // the charm's own library, if any
		libs                      []*libModule
		consts                    bool // src/constants.py exists
		charmLines                int
		helpers                   []*helper
		tests                     []testFile
	}
	relation struct {
		name, role, iface string
		lib               *libModule // the vendored library implementing it, or nil
		attr              string     // the charm attribute holding the library object
		constName         string     // its constant in constants.py, or ""
	}
	option struct{ name, typ, def string }
	action struct {
		name   string
		params []option
		owner  int // 0: the charm class; i: helper i-1's manager class
	}
	libModule struct {
		path, module, stem string
		defaultRel         string // the requirer/provider's default relation name; "" for a plain library
		events             []string
		exports            []string // plain library: names other files import
		lines              int
	}
	helper struct {
		path, module string
		manager      string // its ops.Object class the charm instantiates, or ""
		classes      []string
		funcs        []string
		lines        int
	}
	testFile struct {
		path        string
		lines       int
		integration bool
	}
)

// planCharm draws one charm of n Python files.
func (g *gen) planCharm(names *namer, n int) *charm {
	product := names.take(g.pick(products), "")
	c := &charm{product: product, k8s: g.chance(0.6)}
	c.name = product
	if c.k8s {
		c.name += "-k8s"
	}
	c.class = camel(product) + "Charm"
	c.split = g.chance(0.55)
	local := g.namer()

	nSrc := max(1, (n*12+50)/100)
	nLib := min((n*14+50)/100, n-nSrc)
	nTest := n - nSrc - nLib

	// vendored libraries; with four or more, the first is the charm's own library
	libNames := g.namer()
	for i := 0; i < nLib; {
		lib := libNames.snake(nouns, []string{"interface", "k8s", "libs", "operator", "provider"})
		ver := fmt.Sprintf("v%d", g.intn(2))
		own := i == 0 && nLib >= 4
		if own {
			lib, ver = snakeOf(c.name), "v0"
		}
		mods := g.namer()
		for range min(g.between(1, 3), nLib-i) {
			mod := mods.snake(nouns)
			if own {
				mod = product
			}
			m := &libModule{
				path:   path.Join("lib/charms", lib, ver, mod+".py"),
				module: strings.Join([]string{"charms", lib, ver, mod}, "."),
				stem:   camel(mod),
				lines:  g.lognormal(950, 0.85, 150, 3400),
			}
			i++
			if own {
				m.exports = []string{camel(product) + "Client", camel(product) + "Error"}
				c.own = m
				c.libs = append(c.libs, m)
				break
			}
			m.defaultRel = local.take(strings.ReplaceAll(mod, "_", "-"), "-")
			evs := g.namer()
			for range g.between(2, 3) {
				m.events = append(m.events, evs.snake(nouns, []string{"available", "changed", "removed", "created", "ready"}))
			}
			c.libs = append(c.libs, m)
			r := &relation{name: m.defaultRel, iface: mod, lib: m, role: g.pick([]string{"requires", "provides"})}
			if g.chance(0.35) {
				r.name = local.take(g.pick(nouns), "-")
			}
			r.attr = snakeOf(r.name) + "_" + r.role[:len(r.role)-1]
			c.relations = append(c.relations, r)
		}
	}
	c.peer = local.take(g.pick([]string{product + "-peers", "cluster", "replicas", "peers"}), "-")
	for range g.between(1, 3) {
		name := local.take(g.pick(nouns)+g.pick([]string{"", "-" + g.pick(nouns)}), "-")
		c.relations = append(c.relations, &relation{name: name, role: g.pick([]string{"requires", "provides"}), iface: snakeOf(name) + "_" + g.pick(nouns)})
	}

	opts := g.namer()
	for range g.between(4, 12) {
		o := option{name: opts.take(g.pick(append(adjectives, verbs...))+"-"+g.pick(nouns), "-")}
		switch o.typ = g.pick([]string{"string", "string", "int", "boolean", "float", "secret"}); o.typ {
		case "string":
			o.def = fmt.Sprintf("%q", g.pick(nouns))
		case "int":
			o.def = fmt.Sprint(g.between(1, 65535))
		case "boolean":
			o.def = g.pick([]string{"true", "false"})
		case "float":
			o.def = fmt.Sprintf("%.1f", g.r.Float64()*10)
		}
		c.config = append(c.config, o)
	}
	acts := g.namer()
	for range g.between(2, 6) {
		a := &action{name: acts.take(g.pick(verbs)+"-"+g.pick(nouns), "-")}
		ps := g.namer()
		for range g.between(0, 3) {
			a.params = append(a.params, option{name: ps.take(g.pick(nouns), "-"), typ: g.pick([]string{"string", "string", "boolean", "integer"})})
		}
		c.actions = append(c.actions, a)
	}
	if c.k8s {
		c.container = product
	}
	if g.chance(0.5) {
		c.storage = g.pick([]string{"data", "archive", "logs"})
	}

	// src: charm.py, then constants.py, then helpers (in src/relations/ past six)
	c.charmLines = g.lognormal(700, 0.5, 150, 2500)
	helpers := g.namer()
	helpers.reserve("charm", "constants")
	for i := 1; i < nSrc; i++ {
		if i == 1 {
			c.consts = true
			continue
		}
		mod := helpers.take(g.pick(nouns), "_")
		dir := "src"
		if len(c.helpers) >= 6 {
			dir = "src/relations"
			if len(c.helpers) == 6 {
				c.helpers = append(c.helpers, &helper{path: "src/relations/__init__.py", module: "relations"})
				continue
			}
		}
		h := &helper{path: dir + "/" + mod + ".py", module: strings.ReplaceAll(strings.TrimPrefix(dir, "src")+"/"+mod, "/", ".")[1:],
			lines: g.lognormal(165, 1.2, 30, 1500)}
		if g.chance(0.5) {
			h.manager = camel(mod) + "Manager"
		}
		fns := g.namer()
		for range g.between(2, 5) {
			h.funcs = append(h.funcs, fns.snake(verbs, nouns))
		}
		for range g.between(0, 2) {
			h.classes = append(h.classes, helpers.take(camel(g.pick(adjectives)+"_"+mod), ""))
		}
		c.helpers = append(c.helpers, h)
	}
	for _, a := range c.actions {
		var managers []int
		for i, h := range c.helpers {
			if h.manager != "" {
				managers = append(managers, i)
			}
		}
		if len(managers) > 0 && g.chance(0.3) {
			a.owner = managers[g.intn(len(managers))] + 1
		}
	}
	for _, r := range c.relations {
		if c.consts && g.chance(0.4) {
			r.constName = upper(r.name) + "_RELATION"
		}
	}

	tests := g.namer()
	for i := range nTest {
		dir := "tests/unit"
		if nTest >= 10 && i >= nTest*2/3 {
			dir = "tests/integration"
		}
		t := testFile{path: dir + "/test_" + tests.snake(nouns) + ".py", lines: g.lognormal(110, 1.0, 12, 1200), integration: dir == "tests/integration"}
		if (i == 0 && nTest >= 3) || (dir == "tests/integration" && i == nTest*2/3) {
			t = testFile{path: dir + "/__init__.py"}
		}
		c.tests = append(c.tests, t)
	}
	return c
}

// writeCharm writes a planned charm's YAML and Python files.
func (g *gen) writeCharm(w *writer, c *charm) {
	at := func(rel string) string { return path.Join(c.dir, rel) }
	g.writeYAML(w, c, at)
	w.file(at("src/charm.py"), g.charmPy(c))
	if c.consts {
		w.file(at("src/constants.py"), g.constantsPy(c))
	}
	for i, h := range c.helpers {
		w.file(at(h.path), g.helperPy(c, i, h))
	}
	for _, m := range c.libs {
		w.file(at(m.path), g.libPy(c, m))
	}
	for _, t := range c.tests {
		w.file(at(t.path), g.testPy(c, t))
	}
}
