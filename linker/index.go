package linker

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

// index holds every file, class, constant and import of the tree in maps, built once per Link.
type index struct {
	files   map[string]*fileInfo
	ordered []*fileInfo             // by path
	modules map[string][]moduleFile // dotted module suffix -> files (a/b/c.py: c, b.c, a.b.c)
	pkgDirs map[string]bool         // folders holding an __init__.py
	classes map[string]bool         // names of every class in the tree
	charms  []charmyaml.Charm
	tmpls   []templates.File    // Input.Templates
	hooks   map[string]string   // Input.HookLinks
	runs    map[string][]string // Input.HookRuns
	shell   []string            // Input.ShellCode
	// tmplCharm is, for each of tmpls, the index of the charm whose folder holds it (charmOf),
	// -1 for none
	tmplCharm []int
	// handlerRefs counts, per view, for every name like an event handler's (_on_*), its uses
	// in the code of that view (handlerUses)
	handlerRefs map[view]map[string]int
	// refTotals, names and computed are, for a viewpoint (seenBy), every name's uses
	// (uses), every name of a step of a fact's value chain (chainNamed), and whether its code
	// computes names (computesNames); each built on first use
	refTotals map[view]map[string]int
	names     map[view]*viewNames // chainNamed, stringNamed, aliasNamed, per viewpoint (namesIn)
	computed  map[computedKey]bool
	roots     map[string]bool // every charm's src/ and lib/ (importRoot)
	// charmRefs: for every name, the charms whose own non-test code uses it (built on first
	// use: usedByCharms)
	charmRefs map[string][]int
}

// usedByCharms lists the charms (indexes into charms, ascending) whose own directory's
// non-test code uses name as an identifier or attribute.
func (ix *index) usedByCharms(name string) []int {
	if ix.charmRefs == nil {
		ix.charmRefs = map[string][]int{}
		for _, fi := range ix.ordered {
			if fi.test || fi.charm < 0 {
				continue
			}
			for _, r := range fi.Refs {
				if cs := ix.charmRefs[r.Name]; !slices.Contains(cs, fi.charm) {
					ix.charmRefs[r.Name] = append(cs, fi.charm)
				}
			}
		}
		for _, cs := range ix.charmRefs {
			slices.Sort(cs)
		}
	}
	return ix.charmRefs[name]
}

// servesCharm reports whether code outside every charm's folder may reach the code of charm
// v: any file, unless it is a test whose nearest folder that holds a charm's folder (ceph-fs/
// for ceph-fs/unit_tests/, beside the charm ceph-fs/src/) holds no folder of v (a test beside
// one charm of a monorepo tests that charm, not its siblings).
func (ix *index) servesCharm(fi *fileInfo, v int) bool {
	if !fi.test {
		return true
	}
	for d := fi.dir; ; d = path.Dir(d) {
		if d == "." || d == "/" || d == "" {
			return true
		}
		if slices.ContainsFunc(ix.charms, func(c charmyaml.Charm) bool { return inDir(c.Dir, d) }) {
			return inDir(ix.charms[v].Dir, d)
		}
	}
}

// A view is a viewpoint on the tree's code: the code that can reach the code of one charm
// (charm: its index; its own files, and shared ones that serve it, servesCharm, not another
// charm's, which no charm imports), or every file (charm -1). Without tests, it is the code
// the deployed charm runs.
type view struct {
	charm   int
	noTests bool
}

// wholeTree is the viewpoint of every file of the tree, tests included.
var wholeTree = view{charm: -1}

// seenBy reports whether fi's code is code of the viewpoint v.
func (ix *index) seenBy(fi *fileInfo, v view) bool {
	if v.noTests && fi.test {
		return false
	}
	return v.charm < 0 || fi.charm == v.charm || fi.charm < 0 && ix.servesCharm(fi, v.charm)
}

// viewOf is the viewpoint of code defined in fi: its charm's, when a charm's folder holds it
// (another charm's code cannot call it), else the whole tree's.
func viewOf(fi *fileInfo, noTests bool) view {
	return view{charm: max(fi.charm, -1), noTests: noTests}
}

// uses is how many times the tree's code seen from v (seenBy) uses a name (as an identifier
// or an attribute), tests included unless v leaves them out, and the charms' templates read
// it as an attribute.
func (ix *index) uses(name string, v view) int {
	if ix.refTotals[v] == nil {
		if ix.refTotals == nil {
			ix.refTotals = map[view]map[string]int{}
		}
		totals := map[string]int{}
		for _, fi := range ix.ordered {
			if ix.seenBy(fi, v) {
				for _, r := range fi.Refs {
					totals[r.Name] += r.Count
				}
			}
		}
		for _, t := range ix.tmpls { // {{ server.port }}: a property the template reads
			for _, a := range t.Attrs {
				totals[a]++
			}
		}
		ix.refTotals[v] = totals
	}
	return ix.refTotals[v][name]
}

// namedNowhere reports that no code seen from v names name (uses, chainNamed) nor computes
// names that could be it (computesNames; method: name is a method's, else a module
// function's): a function or method so named is never called.
func (ix *index) namedNowhere(name string, v view, method bool) bool {
	return ix.uses(name, v) == 0 && !ix.chainNamed(name, v) && !ix.aliasNamed(name, v) && !ix.computesNames(v, method)
}

// handlerUses is how many times the code seen from v (seenBy) uses the name of a
// handler-like method (_on_*): a charm's own handler is named by its charm's code and the
// shared code serving it, not by a sibling charm's handlers of the same name (review rev105:
// in a monorepo every charm's _on_config_changed hid the others' missing observes).
func (ix *index) handlerUses(name string, v view) int {
	if ix.handlerRefs[v] == nil {
		if ix.handlerRefs == nil {
			ix.handlerRefs = map[view]map[string]int{}
		}
		refs := map[string]int{}
		for _, fi := range ix.ordered {
			// tests outside every charm's folder (a monorepo's tests/unit) may call any
			// charm's handlers (review rev107)
			if !ix.seenBy(fi, v) && !(fi.test && fi.charm < 0) {
				continue
			}
			for _, r := range fi.Refs {
				if strings.HasPrefix(r.Name, "_on_") {
					refs[r.Name] += r.Count
				}
			}
			for _, s := range fi.Facts.HandlerStrings { // patch.object(C, "_on_start")
				refs[s]++
			}
			for _, o := range fi.Facts.Observes { // observe(self.on.start, getattr(self, "_on_start"))
				if ch := o.Handler.Chain; len(ch) > 0 && strings.HasPrefix(ch[len(ch)-1].Name, "_on_") {
					refs[ch[len(ch)-1].Name]++
				}
			}
		}
		ix.handlerRefs[v] = refs
	}
	return ix.handlerRefs[v][name]
}

// chainNamed reports whether a step of a call, assignment or observed handler in the tree's
// code seen from v (seenBy) has the name, or a string names it (stringNamed), which no Refs
// hold.
func (ix *index) chainNamed(name string, v view) bool {
	n := ix.namesIn(v)
	return n.steps[name] || n.strs[name]
}

// stringNamed reports a name the code seen from v (seenBy) writes as a string that may call
// it: a recorded call's string argument, or one of Facts.HandlerStrings (getattr(self,
// "configure"), patch.object(Charm, "_configure")).
func (ix *index) stringNamed(name string, v view) bool {
	return ix.namesIn(v).strs[name]
}

// aliasNamed reports a name the code seen from v (seenBy) imports under another (from m
// import public_address as addr): its uses are the alias's, which no Refs of the name count
// (review rev118), so it counts as named.
func (ix *index) aliasNamed(name string, v view) bool {
	return ix.namesIn(v).aliased[name]
}

// viewNames are the names of the code seen from one viewpoint that no Refs hold: the steps of
// the facts' values, the strings that may name a method, and the names imported under an
// alias.
type viewNames struct {
	steps, strs, aliased map[string]bool
}

// namesIn is, filled once per viewpoint, what chainNamed, stringNamed and aliasNamed look up.
func (ix *index) namesIn(v view) *viewNames {
	if n := ix.names[v]; n != nil {
		return n
	}
	if ix.names == nil {
		ix.names = map[view]*viewNames{}
	}
	n := &viewNames{steps: map[string]bool{}, strs: map[string]bool{}, aliased: map[string]bool{}}
	for _, fi := range ix.ordered {
		if !ix.seenBy(fi, v) {
			continue
		}
		for _, val := range factValues(&fi.Facts) {
			for _, st := range val.Chain {
				if st.Name != "" {
					n.steps[st.Name] = true
				}
			}
			if val.Kind == pyextract.ValStr {
				n.strs[val.Str] = true // an argument (factValues lists a call's)
			}
		}
		for _, hs := range fi.Facts.HandlerStrings { // getattr(self, "_configure")
			n.strs[hs] = true
		}
		for _, im := range fi.Imports {
			if im.Alias != "" && im.Name != "" && im.Name != "*" {
				n.aliased[im.Name] = true
			}
		}
	}
	ix.names[v] = n
	return n
}

// refCount is how many times fi's code uses name (its Refs): 0 for none.
func (fi *fileInfo) refCount(name string) int { return countOf(fi.Refs, name) }

// countOf is the count of name in refs, sorted by name (a file's Refs, a symbol's Calls): 0
// for none.
func countOf(refs []pyextract.Ref, name string) int {
	if k, ok := slices.BinarySearchFunc(refs, name, func(r pyextract.Ref, n string) int { return strings.Compare(r.Name, n) }); ok {
		return refs[k].Count
	}
	return 0
}

// symbolAt names the code at line of fi whose scope is function fn of class (either may be
// ""), as Site.Symbol does: Class.method, function or Class. A function nested in another
// is no symbol of the file (`def command():` inside _flog_layer, review rev116), so its
// code is the enclosing definition's, the innermost function or method around line.
func (fi *fileInfo) symbolAt(class, fn string, line int) string {
	if fn == "" || fi.funcSyms[funcKey{class, fn}] != nil {
		return symbolName(class, fn)
	}
	var in *pyextract.Symbol
	for i := range fi.Symbols {
		s := &fi.Symbols[i]
		if (s.Kind == pyextract.KindFunction || s.Kind == pyextract.KindMethod) && s.Line <= line && line <= s.EndLine &&
			(in == nil || s.Line >= in.Line) {
			in = s
		}
	}
	if in == nil {
		return symbolName(class, "")
	}
	return in.Name
}

// computesNames reports a file of the tree seen from v (seenBy), not a vendored library, that
// may call a method (method) or a module function (!method) by a name no code writes
// (fileInfo.dispatch: inspect.getmembers, globals(), getattr(self, name), ...; computedAttr).
func (ix *index) computesNames(v view, method bool) bool {
	k := computedKey{v, method}
	if c, ok := ix.computed[k]; ok {
		return c
	}
	if ix.computed == nil {
		ix.computed = map[computedKey]bool{}
	}
	c := slices.ContainsFunc(ix.ordered, func(fi *fileInfo) bool {
		return ix.seenBy(fi, v) && !fi.library && (fi.dispatch || computedAttr(&fi.Facts, method))
	})
	ix.computed[k] = c
	return c
}

// computedKey keys index.computed: a viewpoint, and whether methods or module functions are
// looked up.
type computedKey struct {
	v      view
	method bool
}

// factValues are the values of a file's facts that may name a method: those assigned, the
// handlers observed, and the calls with their arguments.
func factValues(f *pyextract.Facts) []*pyextract.Value {
	var vals []*pyextract.Value
	for i := range f.Assigns {
		vals = append(vals, &f.Assigns[i].Value)
	}
	for i := range f.Observes {
		vals = append(vals, &f.Observes[i].Handler)
	}
	for i := range f.Calls {
		vals = append(vals, &f.Calls[i].Value)
		for j := range f.Calls[i].Value.Args {
			vals = append(vals, &f.Calls[i].Value.Args[j])
		}
	}
	return vals
}

// computedAttr reports code that may call a method (method) of any object, or a module
// function (!method), by a name no code writes: a getattr(name, <not a literal>) among the
// facts (a value assigned, an observe's handler, a call's argument), or a computed name
// built on "_on_" (Facts.HandlerDispatch). An instance's or class's attributes
// (getattr(self, name), getattr(cls, name)) are its methods, not the functions of a module
// (ceph-mon's charm registers its actions' methods so, and its actions/ceph_ops.py functions
// stay uncalled).
func computedAttr(f *pyextract.Facts, method bool) bool {
	if f.HandlerDispatch && method {
		return true
	}
	for _, v := range factValues(f) {
		if len(v.Chain) > 1 && v.Chain[1].GetAttr != nil && (method || !selfOrCls(v.Chain[0].Name)) {
			return true
		}
	}
	return false
}

// selfOrCls reports the conventional names of a method's instance and class parameters.
func selfOrCls(name string) bool { return name == "self" || name == "cls" }

// moduleFile is a file a dotted module name may refer to, and the folder the name is
// relative to there (a/b/c.py as b.c: "a").
type moduleFile struct {
	*fileInfo
	root string
}

// funcKey names a function: the class ("" for module functions) and the function name.
type funcKey struct{ class, fn string }

// localKey names a local variable of a function.
type localKey struct {
	funcKey
	name string
}

type fileInfo struct {
	*pyextract.File
	dir      string
	charm    int  // index of the charm whose directory holds the file, -1 for none
	library  bool // lib/charms/...: a charm library, the charm's own or vendored; or vendored
	vendored bool // lib/charms/<another charm>/..., a copy of charm-helpers (.../charmhelpers/...) or lib/ops/...
	test     bool
	// dispatch: the file may reach a method or function by a name no code writes
	// (Facts.Dispatch, or a getattr of an object that may hold the tree's methods: holdsNoMethods)
	dispatch bool
	// dispatchElse is dispatch but for getattr(self, name) in a class's methods, which
	// dispatchBy holds by class: those reach only members of that class and its subclasses
	// (data_models' BaseConfigModel.__getitem__, no charm's: review rev105)
	dispatchElse bool
	dispatchBy   map[string]bool
	consts       map[string][]*pyextract.Value       // module-level name = value
	imports      map[string]pyextract.Import         // local name -> import
	own          map[string]bool                     // ownNames, once known
	classes      map[string]*classInfo               // by name
	funcs        map[string]*pyextract.Symbol        // module functions
	funcSyms     map[funcKey]*pyextract.Symbol       // functions and methods
	locals       map[localKey][]*pyextract.Assign    // built on first use (local)
	narrows      map[localKey][]*pyextract.Narrowing // built on first use (narrowings)
}

type classInfo struct {
	file      *fileInfo
	sym       *pyextract.Symbol
	name      string
	methods   map[string]*pyextract.Symbol // bare method name -> symbol
	attrs     map[string][]classAttr       // class-level name = value
	selfAttrs map[string][]selfAttr        // self.x = value, any method
	fields    []classAttr                  // class-level assignments in source order
	bases     []*classInfo                 // resolved lazily
	basesDone bool
	openBases bool // a base could not be found (and is not a known ops base)
}

type classAttr struct {
	name  string
	value *pyextract.Value
	line  int
}

type selfAttr struct {
	fn    string
	value *pyextract.Value
	item  bool             // self.x[key] = value: an item of self.x (pyextract Assign.Item)
	key   *pyextract.Value // the item's key
}

// knownBases are base classes outside the tree that define no handler methods.
var knownBases = map[string]bool{
	"object": true, "Object": true, "CharmBase": true, "ABC": true, "Generic": true, "Protocol": true,
	"ObjectEvents": true, "CharmEvents": true, "EventBase": true, "EventSource": true,
	"TypedCharmBase": true, "Enum": true, "BaseModel": true, "StoredState": true,
}

func newIndex(in Input) *index {
	ix := &index{files: map[string]*fileInfo{}, modules: map[string][]moduleFile{}, pkgDirs: map[string]bool{},
		classes: map[string]bool{}, charms: in.Charms, tmpls: in.Templates, hooks: in.HookLinks, runs: in.HookRuns, shell: in.ShellCode}
	for _, t := range ix.tmpls {
		ix.tmplCharm = append(ix.tmplCharm, ix.charmOf(t.Path))
	}
	for i := range in.Files {
		f := &in.Files[i]
		fi := &fileInfo{
			File: f, dir: path.Dir(f.Path), charm: ix.charmOf(f.Path),
			consts: map[string][]*pyextract.Value{}, imports: map[string]pyextract.Import{},
			classes: map[string]*classInfo{}, funcs: map[string]*pyextract.Symbol{},
			funcSyms: map[funcKey]*pyextract.Symbol{},
		}
		fi.vendored = ix.isVendored(fi)
		fi.library = strings.HasPrefix(ix.charmRel(fi), "lib/charms/") || fi.vendored
		fi.test = isTest(ix.charmRel(fi))
		ix.files[f.Path] = fi
		ix.ordered = append(ix.ordered, fi)
		fi.build()
		fi.dispatchElse = f.Facts.Dispatch
		for _, o := range f.Facts.DispatchOn {
			if _, class, ok := strings.Cut(o, "@"); ok {
				if fi.dispatchBy == nil {
					fi.dispatchBy = map[string]bool{}
				}
				fi.dispatchBy[class] = true
			} else if !fi.holdsNoMethods(o) {
				fi.dispatchElse = true
			}
		}
		fi.dispatch = fi.dispatchElse || len(fi.dispatchBy) > 0
		for name := range fi.classes {
			ix.classes[name] = true
		}
		mod := strings.TrimSuffix(f.Path, ".py")
		if m, ok := strings.CutSuffix(mod, "/__init__"); ok || mod == "__init__" {
			mod = m
			ix.pkgDirs[fi.dir] = true
		}
		parts := strings.Split(mod, "/")
		for j := range parts {
			key := strings.Join(parts[j:], ".")
			ix.modules[key] = append(ix.modules[key], moduleFile{fi, strings.Join(parts[:j], "/")})
		}
	}
	sort.Slice(ix.ordered, func(a, b int) bool { return ix.ordered[a].Path < ix.ordered[b].Path })
	return ix
}

func (fi *fileInfo) build() {
	for i := range fi.Symbols {
		s := &fi.Symbols[i]
		switch s.Kind {
		case pyextract.KindClass:
			fi.classes[s.Name] = &classInfo{file: fi, sym: s, name: s.Name,
				methods: map[string]*pyextract.Symbol{}, attrs: map[string][]classAttr{}, selfAttrs: map[string][]selfAttr{}}
		case pyextract.KindFunction:
			if s.Qualifier == "" {
				fi.funcs[s.Name] = s
			}
			fi.funcSyms[funcKey{s.Qualifier, s.Name}] = s
		}
	}
	for i := range fi.Symbols {
		s := &fi.Symbols[i]
		if s.Kind != pyextract.KindMethod {
			continue
		}
		name := strings.TrimPrefix(s.Name, s.Qualifier+".")
		if c := fi.classes[s.Qualifier]; c != nil {
			c.methods[name] = s
		}
		fi.funcSyms[funcKey{s.Qualifier, name}] = s
	}
	for _, im := range fi.Imports {
		switch {
		case im.Alias != "":
			fi.imports[im.Alias] = im
		case im.Name != "":
			fi.imports[im.Name] = im
		default: // import a.b binds a
			top, _, _ := strings.Cut(im.Module, ".")
			fi.imports[top] = pyextract.Import{Module: top, Line: im.Line}
		}
	}
	// Facts name a nested class by its own name (Relations), its symbol by the path
	// (Config.Relations): the first nested class of each name takes its facts.
	nested := map[string]*classInfo{}
	for i := range fi.Symbols {
		if s := &fi.Symbols[i]; s.Kind == pyextract.KindClass && s.Qualifier != "" {
			bare := strings.TrimPrefix(s.Name, s.Qualifier+".")
			if _, taken := fi.classes[bare]; !taken && nested[bare] == nil {
				nested[bare] = fi.classes[s.Name]
			}
		}
	}
	classOf := func(name string) *classInfo {
		if c := fi.classes[name]; c != nil {
			return c
		}
		return nested[name]
	}
	for i := range fi.Facts.Assigns {
		a := &fi.Facts.Assigns[i]
		switch {
		case a.Class == "" && a.Func == "" && len(a.Target) == 1:
			fi.consts[a.Target[0].Name] = append(fi.consts[a.Target[0].Name], &a.Value)
		case a.Func == "" && len(a.Target) == 1:
			if c := classOf(a.Class); c != nil {
				ca := classAttr{a.Target[0].Name, &a.Value, a.Line}
				c.attrs[ca.name] = append(c.attrs[ca.name], ca)
				c.fields = append(c.fields, ca)
			}
		case a.Func != "" && len(a.Target) == 2 && a.Target[0].Name == "self":
			if c := classOf(a.Class); c != nil {
				c.selfAttrs[a.Target[1].Name] = append(c.selfAttrs[a.Target[1].Name], selfAttr{a.Func, &a.Value, a.Item, a.Key})
			}
		}
	}
}

// holdsNoMethods reports an object, as a getattr of fi is given it (Facts.DispatchOn), whose
// attributes are no method or function of the tree: a StoredState of a class of fi
// (self._stored, declared `_stored = ops.StoredState()`), the charm's events (self.on,
// self.charm.on), a logger (logger = logging.getLogger(__name__)) or a module of the standard
// library (sys, os). getattr(self._stored, key) reads a stored value; getattr(self, name) may
// call any method of the charm.
func (fi *fileInfo) holdsNoMethods(obj string) bool {
	parts := strings.Split(obj, ".")
	last := parts[len(parts)-1]
	switch {
	case len(parts) > 1 && last == "on":
		return true
	case len(parts) == 2 && selfOrCls(parts[0]):
		for _, c := range fi.classes {
			if slices.ContainsFunc(c.attrs[last], func(a classAttr) bool {
				return a.value.Kind == pyextract.ValCall && lastName(a.value.Chain) == "StoredState"
			}) {
				return true
			}
		}
	case len(parts) == 1:
		if im, ok := fi.imports[obj]; ok && im.Name == "" && stdlibModules[strings.Split(im.Module, ".")[0]] {
			return true // import sys; import os.path
		}
		vs := fi.consts[obj]
		return len(vs) > 0 && !slices.ContainsFunc(vs, func(v *pyextract.Value) bool {
			return v.Kind != pyextract.ValCall || lastName(v.Chain) != "getLogger"
		})
	}
	return false
}

// narrowings returns the `if name in X:` / `if name == X:` bodies of function k around line,
// outermost first.
func (fi *fileInfo) narrowings(k funcKey, name string, line int) []*pyextract.Narrowing {
	if fi.narrows == nil {
		fi.narrows = map[localKey][]*pyextract.Narrowing{}
		for i := range fi.Facts.Narrows {
			n := &fi.Facts.Narrows[i]
			lk := localKey{funcKey{n.Class, n.Func}, n.Name}
			fi.narrows[lk] = append(fi.narrows[lk], n)
		}
	}
	var out []*pyextract.Narrowing
	for _, n := range fi.narrows[localKey{k, name}] {
		if n.Start <= line && line <= n.End {
			out = append(out, n)
		}
	}
	return out
}

// rebinds reports whether function k assigns name on a line from start to before line (a
// loop's binding counts from its for statement).
func (fi *fileInfo) rebinds(k funcKey, name string, start, line int) bool {
	as, _ := fi.local(k, name, 0)
	return slices.ContainsFunc(as, func(a *pyextract.Assign) bool { return start <= a.Line && a.Line < line })
}

// local returns the values assigned to the local name in function k (ok false when the
// function assigns no such name). The file's locals are indexed on the first call: most
// files never have a local evaluated.
//
// line > 0 is where the name is used: when for loops binding the name contain that line, only
// the innermost one counts (two loops in one function reusing `relation`, one over objects,
// the next over names). Otherwise every assignment counts: which branch ran is not known.
func (fi *fileInfo) local(k funcKey, name string, line int) (as []*pyextract.Assign, ok bool) {
	if fi.locals == nil {
		fi.locals = map[localKey][]*pyextract.Assign{}
		for i := range fi.Facts.Assigns {
			a := &fi.Facts.Assigns[i]
			if a.Func != "" && len(a.Target) == 1 {
				lk := localKey{funcKey{a.Class, a.Func}, a.Target[0].Name}
				fi.locals[lk] = append(fi.locals[lk], a)
			}
		}
	}
	all, ok := fi.locals[localKey{k, name}]
	loop := 0 // first line of the innermost loop around line binding the name
	if line > 0 {
		for _, a := range all {
			if a.LoopEnd > 0 && a.Line <= line && line <= a.LoopEnd {
				loop = max(loop, a.Line)
			}
		}
	}
	if loop == 0 {
		return all, ok
	}
	for _, a := range all {
		if a.LoopEnd > 0 && a.Line == loop {
			as = append(as, a)
		}
	}
	return as, ok
}

// charmOf returns the charm whose directory holds p (the deepest), or -1.
func (ix *index) charmOf(p string) int {
	best, bestLen := -1, -1
	for i, c := range ix.charms {
		if inDir(p, c.Dir) && len(c.Dir) > bestLen {
			best, bestLen = i, len(c.Dir)
		}
	}
	return best
}

func inDir(p, dir string) bool {
	return dir == "." || dir == "" || strings.HasPrefix(p, dir+"/")
}

// relTo returns p relative to dir.
func relTo(p, dir string) string {
	if dir == "." || dir == "" {
		return p
	}
	return strings.TrimPrefix(p, dir+"/")
}

// charmRel is fi's path relative to its charm's directory (to the root for no charm).
func (ix *index) charmRel(fi *fileInfo) string {
	if fi.charm < 0 {
		return fi.Path
	}
	return relTo(fi.Path, ix.charms[fi.charm].Dir)
}

// isVendored reports whether fi is a charm library vendored from another charm:
// lib/charms/<lib>/... inside a charm directory, where <lib> is not the charm's own name.
//
// Or a file of charm-helpers, which classic charms copy into their tree with charm-helpers-sync
// (hooks/charmhelpers/core/hookenv.py): another project's code, which reads options and
// relations for whatever charm calls it (config("worker-multiplier") in a context class the
// charm never builds is no read of an undeclared option).
//
// Or a copy of a known package in the charm's lib/ folder (charmyaml.VendoredPackage: lib/ops/,
// the ops framework older charms carried; lib/charms_ceph/).
//
// Not a reactive charm's own layer code, lib/charms/layer/<module> but for a base layer's
// (charmyaml.VendoredLayerModule), as the ranker classifies it (review rev104: jenkins'
// lib/charms/layer/jenkins/ was read as vendored, and its reads of undeclared options dropped).
func (ix *index) isVendored(fi *fileInfo) bool {
	rel := ix.charmRel(fi)
	if inFolderNamed(rel, charmHelpersDir) {
		return true
	}
	if charmyaml.VendoredPackage(rel) {
		return true
	}
	if fi.charm < 0 {
		return ix.sharedLibrary(fi.Path)
	}
	own := strings.ReplaceAll(ix.charms[fi.charm].Name, "-", "_")
	rest, ok := strings.CutPrefix(ix.charmRel(fi), "lib/charms/")
	if !ok {
		return false
	}
	lib, inside, _ := strings.Cut(rest, "/")
	if lib == "layer" { // a reactive charm's own layer code, but for a base layer's (rank.Classify)
		module, _, _ := strings.Cut(inside, "/")
		module = strings.TrimSuffix(module, ".py")
		return charmyaml.VendoredLayerModule(module, &ix.charms[fi.charm])
	}
	return lib != own
}

// sharedLibrary reports whether p, a file outside every charm's folder, is in a folder of
// charm libraries shared by a monorepo's charms (sunbeam's libs/external/lib/charms/<lib>/,
// copied into each charm at build time), as rank.Classify sees one: under lib/charms/<lib>/
// at any depth (charmyaml.LibraryOf), where <lib> is no charm's own library.
func (ix *index) sharedLibrary(p string) bool {
	lib := charmyaml.LibraryOf(p)
	return lib != "" && !charmyaml.OwnLibrary(lib, ix.charms)
}

// charmHelpersDir is the package folder of charm-helpers (github.com/juju/charm-helpers).
const charmHelpersDir = "charmhelpers"

// inFolderNamed reports whether a folder of path p (not its file name) has one of names.
func inFolderNamed(p string, names ...string) bool {
	return slices.ContainsFunc(strings.Split(path.Dir(p), "/"), func(seg string) bool { return slices.Contains(names, seg) })
}

// isTest reports whether p is test code: under a tests/, test/ or unit_tests/ (OpenStack's)
// folder, or test_*.py, *_test.py, conftest.py.
func isTest(p string) bool {
	if testdirs.In(path.Dir(p)) {
		return true
	}
	base := path.Base(p)
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"
}

// module resolves an imported module name seen in from to a file. Relative names resolve
// against from's folder; absolute ones by matching the dotted path against file paths,
// preferring files of the charm being linked, then files in no charm, then the nearest path.
func (ix *index) module(from *fileInfo, mod string, charm int) *fileInfo {
	if strings.HasPrefix(mod, ".") {
		dir := from.dir
		rest := mod[1:]
		for strings.HasPrefix(rest, ".") {
			dir, rest = path.Dir(dir), rest[1:]
		}
		base := dir
		if rest != "" {
			base = path.Join(dir, strings.ReplaceAll(rest, ".", "/"))
		}
		if base == "." {
			base = ""
		}
		for _, cand := range []string{base + ".py", path.Join(base, "__init__.py")} {
			if fi := ix.files[strings.TrimPrefix(cand, "/")]; fi != nil {
				return fi
			}
		}
		return nil
	}
	var best *fileInfo
	bestRank := -1
	for _, mf := range ix.modules[mod] {
		fi := mf.fileInfo
		// the name is relative to a source root, not to a folder inside a package; a bare
		// name (import utils) stays within the importer's charm, but for a package of no
		// charm's (a workspace member, pkgs/snapper/src/snapper/__init__.py); a sibling
		// charm's folder is on no other charm's path (a test charm inside a charm's folder
		// imports the charm's code and libraries)
		if ix.pkgDirs[mf.root] && !ix.importRoot(mf.root) ||
			!strings.Contains(mod, ".") && fi.charm != from.charm && (fi.charm >= 0 || path.Base(fi.Path) != "__init__.py") ||
			fi.charm >= 0 && fi.charm != charm && !ix.encloses(fi.charm, from.charm) {
			continue
		}
		r := 0
		switch {
		case fi.charm == charm && charm >= 0:
			r = 3
		case fi.charm < 0:
			r = 2
		}
		if fi.test {
			r -= 4
		}
		r = r*1000 - len(fi.Path) + commonPrefix(fi.Path, from.Path)
		if best == nil || r > bestRank || (r == bestRank && fi.Path < best.Path) {
			best, bestRank = fi, r
		}
	}
	return best
}

// encloses reports whether charm a's folder holds charm b's (or a is b), b -1 for shared code.
func (ix *index) encloses(a, b int) bool {
	return a == b || b >= 0 && inDir(ix.charms[b].Dir, ix.charms[a].Dir)
}

// importRoot reports a charm's src/, lib/ or hooks/ folder. Juju runs src/charm.py as a
// script, so src/ is the first entry of sys.path, and ops puts lib/ on PYTHONPATH: both are
// import roots even when they hold an __init__.py (gateway-api-integrator's src/__init__.py,
// whose charm imports `from state.charm_state import ...`). A classic charm's hooks are
// symlinks to a script in hooks/, so hooks/ is first on sys.path even when it holds an
// __init__.py for the unit tests' sake (charm-heat's hooks/charmhelpers/ is imported as
// charmhelpers, its hooks/heat_utils.py as heat_utils).
func (ix *index) importRoot(dir string) bool {
	if ix.roots == nil { // once: this runs for every folder of every import
		ix.roots = map[string]bool{}
		for _, c := range ix.charms {
			for _, r := range []string{"src", "lib", "hooks"} {
				ix.roots[path.Join(c.Dir, r)] = true
			}
		}
	}
	return ix.roots[dir]
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
