package linker

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Link ties each charm's declared interfaces to the code of the tree.
func Link(in Input) Result {
	ix := newIndex(in)
	res := Result{Charms: make([]CharmLinks, 0, len(in.Charms))}
	var unresolved []Site
	for ci := range in.Charms {
		l := newCharmLinker(ix, ci)
		l.run()
		res.Charms = append(res.Charms, l.result())
		unresolved = append(unresolved, l.unresolved...)
	}
	res.Unresolved = sortSites(unresolved)
	return res
}

type ifaceKey struct{ kind, name string }

// scopeKey names a function in a file.
type scopeKey struct {
	file      string
	class, fn string
}

// site is a call that builds an object of a class found in the tree (target) or not (nil).
type site struct {
	file   *fileInfo
	cls    *classInfo
	fn     string
	line   int
	cond   bool
	loop   bool // in the body of a loop over something not literal (Scope.InLoop)
	after  int  // Scope.AfterReturn
	usual  bool // Scope.ExceptReturn
	value  *pyextract.Value
	target *classInfo
}

// scope is the Scope of the call s (its class, function, line and conditions).
func (s *site) scope() pyextract.Scope {
	return pyextract.Scope{Class: className(s.cls), Func: s.fn, Line: s.line, Conditional: s.cond, ExceptReturn: s.usual}
}

// charmLinker links one charm.
type charmLinker struct {
	*evaluator
	ch         *charmyaml.Charm
	scope      []*fileInfo
	ifaces     map[ifaceKey]*Interface
	declared   map[string]map[string]string // kind -> norm(name) -> declared name
	findings   []Finding
	unresolved []Site
	sites      []*site
	byClass    map[*classInfo][]*site // sites by built class and each of its bases
	calls      map[string][]*site     // every recorded call, by the callee's last name
	insts      map[*classInfo][]*instance
	building   map[*classInfo]bool // classes whose instances are being collected
	// charmBases are the charm's classes and their bases; ownBases the same for the charm
	// classes in the charm's folder (nil when there is none: its class is in shared code)
	charmBases, ownBases map[*classInfo]bool
	// observedAs records, for each handler ("file:Class.method"), the observe calls that
	// register it for an interface the charm declares, and those for one it does not
	// (observedFor, onlyForUndeclared)
	observedAs map[string]*observedHandler
	ownCls     []*classInfo // the charm classes in the charm's folder
	// featurePkgs are the modules linkFeaturePackages found named after an interface: what
	// they handle is known, so they are not delegates (linkDelegates)
	featurePkgs map[string]bool
	typed       *bool                     // typedConfig, once known
	splats      map[fileLine][]*classInfo // classes loaded from the whole config (loadSplats), once known
	actions     map[scopeKey][]string     // action handler -> the actions it handles
	customOn    map[*classInfo]customEvents
	boundDepth  int                 // nesting of boundArguments
	wrappers    map[*classInfo]bool // config wrapper classes some subscript uses (subscripted), once known
	stored      map[string]bool     // keys the code stores into the config (storedConfig), once known
	storedAt    *Site               // the first store into the config under a key it cannot name
	openstack   *bool               // openstackAdapters, once known
	scopeRefs   map[string]int      // every name's uses in the scope's non-test files (scopeUses)
	code        map[*fileInfo]bool  // the files the charm's classes import, directly or not (charmCode), once known
}

type customEvents struct {
	names map[string]bool
	open  bool // `on` is redefined with a class not in the tree
}

// maxInstances bounds the instances a class is evaluated under: k8s-operator's literals.py
// builds 28 option objects of one class, each read through its get(); 16 had left 12 of its
// options "read by nothing".
const maxInstances = 64

func newCharmLinker(ix *index, ci int) *charmLinker {
	l := &charmLinker{
		evaluator: &evaluator{ix: ix, charm: ci, memo: map[memoKey][]aval{}, globals: map[globalKey][]aval{}, busy: map[any]bool{},
			concreteOf: map[*classInfo]*classInfo{}},
		ch:          &ix.charms[ci],
		ifaces:      map[ifaceKey]*Interface{},
		declared:    map[string]map[string]string{},
		byClass:     map[*classInfo][]*site{},
		calls:       map[string][]*site{},
		insts:       map[*classInfo][]*instance{},
		building:    map[*classInfo]bool{},
		actions:     map[scopeKey][]string{},
		customOn:    map[*classInfo]customEvents{},
		featurePkgs: map[string]bool{},
	}
	l.callerArgs = l.argsFromCallers
	l.subclassArgs = l.argsFromSubclasses
	c := l.ch
	app := c.AppFramework()
	for _, r := range c.Relations {
		ext := r.Extension
		if ext == "" && app != "" && slices.Contains(charmyaml.AppIntegrations, r.Interface) {
			ext = app
		}
		l.declare(KindRelation, r.Name, &Interface{Role: r.Role, Interface: r.Interface, File: r.File, Line: r.Line, Extension: ext})
	}
	for _, o := range c.Config {
		ext := o.Extension
		if ext == "" {
			ext = app // a 12-factor app hands every option to the workload
		}
		l.declare(KindConfig, o.Name, &Interface{File: o.File, Line: o.Line, Extension: ext})
	}
	for _, a := range c.Actions {
		l.declare(KindAction, a.Name, &Interface{File: a.File, Line: a.Line, Extension: a.Extension, Script: a.Script})
	}
	// a 12-factor charm's workload container and its image are the framework's to run
	for _, ct := range c.Containers {
		l.declare(KindContainer, ct.Name, &Interface{File: ct.File, Line: ct.Line, Extension: app})
	}
	for _, s := range c.Storage {
		l.declare(KindStorage, s.Name, &Interface{File: s.File, Line: s.Line})
	}
	for _, r := range c.Resources {
		l.declare(KindResource, r.Name, &Interface{File: r.File, Line: r.Line, Extension: app})
	}
	return l
}

func (l *charmLinker) declare(kind, name string, it *Interface) {
	key := ifaceKey{kind, name}
	if l.ifaces[key] != nil {
		return
	}
	it.Kind, it.Name = kind, name
	l.ifaces[key] = it
	if l.declared[kind] == nil {
		l.declared[kind] = map[string]string{}
	}
	if _, dup := l.declared[kind][norm(name)]; !dup {
		l.declared[kind][norm(name)] = name
	}
}

// lookup returns the declared name of kind matching name (exactly, else with - and _ folded).
func (l *charmLinker) lookup(kind, name string) (string, bool) {
	if l.ifaces[ifaceKey{kind, name}] != nil {
		return name, true
	}
	d, ok := l.declared[kind][norm(name)]
	return d, ok
}

// iface returns the interface of kind and name, adding lifecycle/secret/status ones.
func (l *charmLinker) iface(kind, name string) *Interface {
	key := ifaceKey{kind, name}
	if it := l.ifaces[key]; it != nil {
		return it
	}
	it := &Interface{Kind: kind, Name: name}
	l.ifaces[key] = it
	return it
}

func (l *charmLinker) run() {
	l.computeScope()
	var own []*classInfo // in the charm's folder
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for _, name := range sortedKeys(fi.classes) {
			if cl := fi.classes[name]; l.isCharm(cl) {
				l.charmCls = append(l.charmCls, cl)
				if inDir(fi.Path, l.ch.Dir) {
					own = append(own, cl)
				}
			}
		}
	}
	l.charmBases = l.basesOf(l.charmCls)
	l.ownCls = own
	if len(own) > 0 {
		l.ownBases = l.basesOf(own)
	}
	clear(l.concreteOf) // computed against the whole charmCls only
	l.collectSites()
	l.linkObserves()
	l.checkEventArgs()
	l.linkReconcilers()
	l.linkBindings()
	l.linkResourceArgs()
	l.linkPackageFunctionArgs()
	l.linkKnownReaders()
	l.linkContainerArgs()
	l.linkLookups()
	l.linkConfig()
	l.linkTemplates()
	l.linkParams()
	l.linkNaming()
	l.linkActionTables()
	l.linkHelperParams()
	reactive := l.reactiveImport() != ""
	flags := l.ownFlags(reactive)
	l.linkDecorated(flags)
	l.linkHookScripts(reactive)
	l.linkNamedLookups(reactive, flags)
	l.linkFeaturePackages()
	l.linkDelegates()
	l.linkStoragePaths()
	l.linkUnobserved()
	l.findMissingModules()
	l.doubtStoredConfig()
}

// findMissingModules reports the imports at the top level of the charm's code (charmCode:
// the files its charm classes import, directly or not) of a module of one of the charm's
// own packages (a folder of Python under its src/ or lib/, but charms/, whose libraries
// charmcraft may fetch at build time) that the tree does not have: the import raises
// ModuleNotFoundError on every hook (a module deleted while the charm still imports it).
// An import in a function, under an if or a try (pyextract Import.Nested) or for type
// checkers only is not reported, nor one whose name is a folder (a namespace package).
func (l *charmLinker) findMissingModules() {
	code := l.charmCode()
	if len(code) == 0 {
		return
	}
	roots := []string{path.Join(l.ch.Dir, "src"), path.Join(l.ch.Dir, "lib")}
	var dirs map[string]bool // every folder holding a file of the tree under one of the roots, once an import needs them
	for _, fi := range l.scope {
		if !code[fi] || fi.library || fi.test || !inDir(fi.Path, l.ch.Dir) {
			continue
		}
		for _, im := range fi.Imports {
			if im.Nested || im.TypeOnly || strings.HasPrefix(im.Module, ".") || !strings.Contains(im.Module, ".") {
				continue
			}
			top, _, _ := strings.Cut(im.Module, ".")
			if top == "charms" || l.ix.module(fi, im.Module, l.charm) != nil {
				continue
			}
			if dirs == nil {
				dirs = l.ix.foldersUnder(roots)
			}
			for _, r := range roots {
				if dirs[path.Join(r, top)] && !dirs[path.Join(r, strings.ReplaceAll(im.Module, ".", "/"))] {
					l.find(FindMissingModule, im.Module, Site{File: fi.Path, Line: im.Line})
					break
				}
			}
		}
	}
}

// linkStoragePaths links a storage to the charm's string constants, module-level or in a
// class body, that name where it is mounted (the storage's location, or a container's mount
// of it) or a path under it (CONFIG_DIR = "/sdcore/config", _log_path =
// "/var/lib/zincsearch/zinc.log"): the code that reads and writes the storage's files goes
// through them; and to the functions that write such a path out (["server", "/data"],
// container.make_dir("/var/www/html/revocation"): pyextract Facts.Paths). A location of "/"
// alone names nothing.
func (l *charmLinker) linkStoragePaths() {
	type mount struct{ storage, at string }
	var mounts []mount
	add := func(storage, at string) {
		if at = strings.TrimRight(at, "/"); at != "" {
			mounts = append(mounts, mount{storage, at})
		}
	}
	for _, st := range l.ch.Storage {
		add(st.Name, st.Location)
	}
	for _, c := range l.ch.Containers {
		for _, m := range c.Mounts {
			if storage, at, ok := strings.Cut(m, ":"); ok {
				add(storage, at)
			}
		}
	}
	if len(mounts) == 0 {
		return
	}
	link := func(fi *fileInfo, line int, symbol string, v *pyextract.Value) {
		if v == nil || v.Kind != pyextract.ValStr {
			return
		}
		for _, m := range mounts {
			if v.Str == m.at || strings.HasPrefix(v.Str, m.at+"/") {
				if d, ok := l.lookup(KindStorage, m.storage); ok {
					l.read(KindStorage, d, Site{File: fi.Path, Line: line, Symbol: symbol, Via: ViaPath})
				}
			}
		}
	}
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for i := range fi.Symbols {
			if s := &fi.Symbols[i]; s.Kind == pyextract.KindConstant && s.Qualifier == "" {
				link(fi, s.Line, s.Name, s.Value)
			}
		}
		for _, name := range sortedKeys(fi.classes) {
			for _, a := range fi.classes[name].fields {
				link(fi, a.line, name+"."+a.name, a.value)
			}
		}
		for i := range fi.Facts.Paths {
			p := &fi.Facts.Paths[i]
			link(fi, p.Line, symbolName(p.Class, p.Func), &pyextract.Value{Kind: pyextract.ValStr, Str: p.Path})
		}
	}
}

// linkUnobserved finds the charm's methods named like event handlers (_on_<event>) whose
// name no code of the tree uses (tests included; a string that is the name counts too,
// getattr(self, "_on_start")): ops calls a handler only once it is observed, never by its
// name, so such a method never runs, a forgotten observe or dead code. Not reported: a
// decorated method (a decorator may register it), a method of a class with a base the tree
// does not hold other than ops' (that base may observe it by name), library code, and any
// method at all when the charm's own code, or a class the method's class derives from, gets
// attributes by computed names (computedAttr), nor a method of a class whose file, or a
// base's, does or lists an object's members (Facts.Dispatch: dir(type(self)),
// inspect.getmembers(self)). A class with a decorator or a metaclass (which may register its
// methods, or only wrap them, as charm_tracing's trace_charm does) leaves the finding in
// doubt.
func (l *charmLinker) linkUnobserved() {
	dispatch := map[*fileInfo]bool{}
	dynamic := func(fi *fileInfo) bool {
		d, ok := dispatch[fi]
		if !ok {
			d = computedAttr(&fi.Facts, true)
			dispatch[fi] = d
		}
		return d
	}
	for _, fi := range l.scope {
		if !fi.library && dynamic(fi) {
			return
		}
	}
	for _, fi := range l.scope {
		if fi.library || fi.test {
			continue
		}
		for _, name := range sortedKeys(fi.classes) {
			cl := fi.classes[name]
			mro := l.mro(cl)
			if slices.ContainsFunc(mro, func(k *classInfo) bool { return k.openBases || dynamic(k.file) || k.file.Facts.Dispatch }) {
				continue
			}
			doubt := ""
			if slices.ContainsFunc(mro, func(k *classInfo) bool {
				return len(k.sym.Decorators) > 0 || slices.ContainsFunc(k.sym.Bases, func(b string) bool { return strings.Contains(b, "=") })
			}) {
				doubt = "its class has a decorator or a metaclass, which may register it"
			}
			for _, m := range sortedKeys(cl.methods) {
				sym := cl.methods[m]
				if !strings.HasPrefix(m, "_on_") || len(m) == len("_on_") || len(sym.Decorators) > 0 {
					continue
				}
				if l.ix.handlerUses(m) == 0 {
					l.findings = append(l.findings, Finding{Kind: FindUnobservedHandler, Subject: symbolName(cl.name, m), Doubt: doubt,
						Site: Site{File: fi.Path, Line: sym.Line, Symbol: symbolName(cl.name, m)}})
				}
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// computeScope selects the charm's code: non-test files under its directory, plus files in
// no charm directory (a monorepo's shared folder) that they import, directly or through
// other such files.
func (l *charmLinker) computeScope() {
	var seeds []*fileInfo
	for _, fi := range l.ix.ordered {
		if fi.charm == l.charm && !fi.test {
			seeds = append(seeds, fi)
		}
	}
	in := l.importClosure(seeds, func(m *fileInfo) bool { return m.charm < 0 && !m.test })
	for _, fi := range l.ix.ordered {
		if in[fi] {
			l.scope = append(l.scope, fi)
		}
	}
}

// importClosure is seeds and every file of the tree they import, directly or not, through
// files that follow accepts (both forms of from-import: a name of the module, or a module of
// the package).
func (l *charmLinker) importClosure(seeds []*fileInfo, follow func(*fileInfo) bool) map[*fileInfo]bool {
	in := map[*fileInfo]bool{}
	queue := slices.Clone(seeds)
	for _, fi := range seeds {
		in[fi] = true
	}
	for len(queue) > 0 {
		fi := queue[0]
		queue = queue[1:]
		for _, im := range fi.Imports {
			mods := []string{im.Module}
			if im.Name != "" {
				mods = append(mods, joinModule(im.Module, im.Name))
			}
			for _, mod := range mods {
				if m := l.ix.module(fi, mod, l.charm); m != nil && !in[m] && follow(m) {
					in[m] = true
					queue = append(queue, m)
				}
			}
		}
	}
	return in
}

// charmCode is the code the charm runs: the files defining its charm classes and every file
// of the tree they import, directly or not (nil when no charm class is known, and any file
// may be its code). A workload program beside the charm (app/, a rock's source) is in the
// charm's folder and scope, but not here: its objects named *config are its own.
func (l *charmLinker) charmCode() map[*fileInfo]bool {
	if l.code == nil && len(l.charmCls) > 0 {
		var seeds []*fileInfo
		for _, cl := range l.charmCls {
			if !slices.Contains(seeds, cl.file) {
				seeds = append(seeds, cl.file)
			}
		}
		l.code = l.importClosure(seeds, func(*fileInfo) bool { return true })
	}
	return l.code
}

// collectSites finds every call in scope that builds an object: assigned calls and
// unassigned class-like calls whose callee is a class, in the tree or not.
func (l *charmLinker) collectSites() {
	for _, fi := range l.scope {
		add := func(sc pyextract.Scope, v *pyextract.Value) {
			if v.Kind != pyextract.ValCall || len(v.Chain) == 0 {
				return
			}
			if lastName(v.Chain) == pyextract.RelationValidator {
				return // read where its object is bound (validated), not followed into: its lookup is a check
			}
			s := &site{file: fi, cls: fi.classes[sc.Class], fn: sc.Func, line: sc.Line, cond: sc.Conditional, loop: sc.InLoop,
				after: sc.AfterReturn, usual: sc.ExceptReturn, value: v}
			l.calls[lastName(v.Chain)] = append(l.calls[lastName(v.Chain)], s)
			if !isUpper(lastName(v.Chain)) || builtinCall(v.Chain) {
				return
			}
			if l.mayBeClass(fi, lastName(v.Chain)) {
				for _, a := range l.chain(v.Chain, &ctx{file: fi, cls: s.cls, fn: s.fn}) {
					if a.kind == aClass {
						s.target = a.cls
						break
					}
				}
			}
			l.sites = append(l.sites, s)
			if s.target != nil {
				for _, k := range l.mro(s.target) {
					l.byClass[k] = append(l.byClass[k], s)
				}
			}
		}
		for i := range fi.Facts.Assigns {
			a := &fi.Facts.Assigns[i]
			add(a.Scope, &a.Value)
		}
		for i := range fi.Facts.Calls {
			c := &fi.Facts.Calls[i]
			add(c.Scope, &c.Value)
		}
	}
}

// mayBeClass reports whether name, called in fi, can name a class of the tree: a class name,
// or a name the file imports or assigns (import X as Y).
func (l *charmLinker) mayBeClass(fi *fileInfo, name string) bool {
	_, imported := fi.imports[name]
	_, assigned := fi.consts[name]
	return l.ix.classes[name] || imported || assigned
}

// instancesOf lists the objects of cls (or of a subclass) the charm's code builds, each
// with the context of its construction.
func (l *charmLinker) instancesOf(cls *classInfo) []*instance {
	if v, ok := l.insts[cls]; ok {
		return v
	}
	if l.building[cls] {
		return nil
	}
	l.building[cls] = true
	var out []*instance
	for _, s := range l.byClass[cls] {
		for _, c := range l.contexts(s.file, s.cls, s.fn) {
			if len(out) < maxInstances {
				in := &instance{cls: s.target, call: s.value, at: c}
				// built under a condition by the charm's own code; one object per element of a
				// loop (for rel in RELATIONS: Helper(self, rel)) is built whenever the loop runs
				if s.cond && !s.loop && !s.file.vendored {
					in.cond = s
				} else if !s.cond && s.cls == nil && s.fn != "" {
					in.cond = l.condCaller(s) // a factory function the charm calls under a condition
				}
				in.libCond = s.cond && !s.loop && s.file.vendored
				out = append(out, in)
			}
		}
	}
	delete(l.building, cls)
	l.insts[cls] = out
	return out
}

// condCaller: s builds its object in a module function (require_nginx_route(charm, ...), a
// library's factory). When the charm's own code calls that function only under conditions,
// never in a loop, the object is built only then: the first such call, as the construction
// of s's class; nil otherwise.
func (l *charmLinker) condCaller(s *site) *site {
	var first *site
	fn := &ctx{file: s.file, fn: s.fn}
	for _, c := range l.calls[s.fn] {
		if c.file.vendored || c == s || !l.callsFunc(c, fn) {
			continue
		}
		if !c.cond || c.loop {
			return nil
		}
		if first == nil {
			first = c
		}
	}
	if first == nil {
		return nil
	}
	built := *first
	built.target = s.target
	return &built
}

// argsFromCallers evaluates the arguments that calls to the function of c (a method of
// c.cls or its subclasses, or a module function of c.file) pass to its parameter i (p).
func (l *charmLinker) argsFromCallers(c *ctx, i int, p pyextract.Param) []aval {
	first := firstPositional(c)
	dflt := l.defaultOf(c, p)
	var out []aval
	for _, s := range l.calls[c.fn] {
		if !l.callsFunc(s, c) {
			continue
		}
		if omits(s.value, i-first+1, p) {
			out = append(out, dflt()...)
			continue
		}
		for _, at := range l.contexts(s.file, s.cls, s.fn) {
			at = at.at(s.line)
			for _, v := range l.argFor(s.value, at, 0, i-first+1, p) {
				if v.kind == aStr && v.origin == nil {
					v.origin = s
				}
				out = append(out, v)
			}
		}
		if len(out) >= maxCallerVals {
			break
		}
	}
	return out[:min(len(out), maxCallerVals)]
}

// omits reports whether call leaves out parameter p, the i-th positional one (from 1), which
// has a default (and passes no *args or **kwargs that may hold it): the call reads the default
// (crt_config="ssl_cert"), as one that passes a name reads that name.
func omits(call *pyextract.Value, i int, p pyextract.Param) bool {
	return p.Default != nil && argValue(call, 0, i, p) == nil && !slices.ContainsFunc(call.Args, isSplat)
}

// defaultOf evaluates, once, the default of parameter p of the function of c, for the calls
// that omit it. The values have no origin: a name the default gives is read where the
// function reads it.
func (l *charmLinker) defaultOf(c *ctx, p pyextract.Param) func() []aval {
	return sync.OnceValue(func() []aval { return l.eval(p.Default, &ctx{file: c.file}) })
}

// argsFromSubclasses evaluates what the charm's own class passes to parameter i (p) of the
// __init__ of c.cls, a base class of it whose code runs as the charm's: along the concrete
// charm class's method order, the nearest class before c.cls that defines __init__ is the
// one whose super().__init__(..., endpoint="backend") calls it. Nil (the default) when that
// class does not call it so, or passes no such argument; other subclasses do not count.
func (l *charmLinker) argsFromSubclasses(c *ctx, i int, p pyextract.Param) []aval {
	mro := l.mro(l.concrete(c.cls))
	k := slices.Index(mro, c.cls)
	if k <= 0 {
		return nil
	}
	var caller *classInfo
	for j := k - 1; j >= 0; j-- {
		if mro[j].methods["__init__"] != nil {
			caller = mro[j]
			break
		}
	}
	if caller == nil {
		return nil
	}
	first := firstPositional(c)
	var out []aval
	for _, s := range l.calls["__init__"] {
		ch := s.value.Chain
		if s.cls != caller || s.fn != "__init__" || len(ch) != 3 || ch[0].Name != "super" || !ch[1].Call {
			continue
		}
		for _, at := range l.contexts(s.file, s.cls, s.fn) {
			out = append(out, l.argFor(s.value, at.at(s.line), 0, i-first+1, p)...)
		}
	}
	return out[:min(len(out), maxCallerVals)]
}

// firstPositional is the index of the first parameter of the function of c that a positional
// argument binds: 1 for a method (self or cls), 0 for a static method or a module function.
func firstPositional(c *ctx) int {
	if c.cls != nil && !isStatic(c.file.funcSyms[funcKey{c.cls.name, c.fn}]) {
		return 1
	}
	return 0
}

// callsFunc reports whether the call at s calls the function of c.
func (l *charmLinker) callsFunc(s *site, c *ctx) bool {
	callee := s.value.Chain
	if len(callee) == 1 {
		return c.cls == nil && (s.file == c.file || s.file.imports[c.fn].Name == c.fn)
	}
	for _, owner := range l.chain(callee[:len(callee)-1], &ctx{file: s.file, cls: s.cls, fn: s.fn}) {
		switch {
		case owner.kind == aModule:
			if owner.file == c.file && c.cls == nil {
				return true
			}
		case owner.cls != nil && c.cls != nil:
			if slices.Contains(l.mro(owner.cls), c.cls) {
				return true
			}
		}
	}
	return false
}

// contexts lists the contexts code in cls.fn runs in: once for charm classes and module
// code (a charm library's function only when some code names it); once per instance for
// other classes. Code of a class no instance of which is
// built runs once with parameter defaults, except in charm libraries (lib/charms/...,
// vendored or the charm's own, written for other charms to use), where it does not run.
func (l *charmLinker) contexts(fi *fileInfo, cls *classInfo, fn string) []*ctx {
	base := &ctx{file: fi, cls: cls, fn: fn}
	if cls == nil && fn != "" && fi.library && l.ix.uses(fn, wholeTree) == 0 {
		return nil // a library function nothing names (provide_nginx_route in a requirer charm)
	}
	if cls == nil || l.isCharm(cls) {
		if cls != nil && (fi.library && !l.charmBases[cls] || !inDir(fi.Path, l.ch.Dir) && l.ownBases != nil && !l.ownBases[cls]) {
			return nil // a charm class a library, or a monorepo's shared code, has for other charms
		}
		return []*ctx{base}
	}
	insts := l.instancesOf(cls)
	if len(insts) == 0 {
		if fi.library || l.builtOnlyBySiblings(fi, cls) || len(l.charmCls) == 0 && l.isOpsObject(cls) {
			return nil
		}
		return []*ctx{base}
	}
	out := make([]*ctx, len(insts))
	for i, in := range insts {
		out[i] = &ctx{file: fi, cls: cls, fn: fn, inst: in}
	}
	return out
}

// observedHandler: see charmLinker.observedAs.
type observedHandler struct {
	declared   bool
	undeclared map[string]bool // the observe calls ("file:line") registering it for undeclared interfaces
}

// observedFor records that the observe call o in fi registers h for an interface the charm
// declares, or for one it does not.
func (l *charmLinker) observedFor(h *handlerRef, fi *fileInfo, o *pyextract.Observe, declared bool) {
	if h == nil {
		return
	}
	if l.observedAs == nil {
		l.observedAs = map[string]*observedHandler{}
	}
	k := h.file.Path + ":" + h.Name
	oh := l.observedAs[k]
	if oh == nil {
		oh = &observedHandler{undeclared: map[string]bool{}}
		l.observedAs[k] = oh
	}
	if declared {
		oh.declared = true
	} else {
		oh.undeclared[fmt.Sprintf("%s:%d", fi.Path, o.Line)] = true
	}
}

// onlyForUndeclared reports whether the method symbol of file is a handler that only observe
// calls of interfaces the charm does not declare name, and nothing else of the code that runs
// for the charm (tests left out): its event never comes (Juju runs no undeclared action, and
// `self.on["x"]` of one fails, which that observe call's own finding reports), so the method
// never runs for this charm and its findings are not the charm's (ops-sunbeam's
// _on_refresh_snap_action, registered only `if "refresh-snap" in actions`, for the charms that
// declare no such action).
func (l *charmLinker) onlyForUndeclared(file, symbol string) bool {
	oh := l.observedAs[file+":"+symbol]
	if oh == nil || oh.declared || len(oh.undeclared) == 0 {
		return false
	}
	// in the code that runs for this charm, tests left out, named by those observe calls only
	cls, m, ok := strings.Cut(symbol, ".")
	if !ok {
		return l.scopeUses(symbol) <= len(oh.undeclared)
	}
	return l.scopeUses(m)-l.usesOfOwnNamesakes(file, cls, m) <= len(oh.undeclared)
}

// foldersUnder is every folder below one of roots that holds a file of the tree, directly
// or not.
func (ix *index) foldersUnder(roots []string) map[string]bool {
	dirs := map[string]bool{}
	for p := range ix.files {
		for _, r := range roots {
			if strings.HasPrefix(p, r+"/") {
				for d := path.Dir(p); d != r && d != "."; d = path.Dir(d) {
					dirs[d] = true
				}
			}
		}
	}
	return dirs
}

// usesOfOwnNamesakes counts the uses of method name m in the scope's files other than file
// (tests left out) that define a class with a method m of their own and never name class cls
// of file: theirs, not cls's (a library's LdapProvider._on_relation_changed, observed by
// LdapProvider, says nothing of whether the charm's ClientRequires._on_relation_changed runs).
func (l *charmLinker) usesOfOwnNamesakes(file, cls, m string) int {
	n := 0
	for _, fi := range l.scope {
		if fi.test || fi.Path == file || !definesMethod(fi, m) {
			continue
		}
		count, named := 0, false
		for _, r := range fi.Refs {
			switch r.Name {
			case m:
				count += r.Count
			case cls:
				named = true
			}
		}
		if !named {
			n += count
		}
	}
	return n
}

// definesMethod reports whether a class of fi has a method named m.
func definesMethod(fi *fileInfo, m string) bool {
	for _, c := range fi.classes {
		if c.methods[m] != nil {
			return true
		}
	}
	return false
}

// overriddenHere reports whether method fn of cls, a charm class of code shared with other
// charms, never runs for this one, so that its findings are not this charm's: every charm class
// of the charm's folder that derives from cls finds fn defined below it (ops-sunbeam's
// OSCinderVolumeDriverOperatorCharm replaces OSBaseOperatorCharmSnap.ensure_snap_present with a
// no-op for the cinder-volume drivers), in a method that does not call super (no "super" among
// its body's words: it may call the base's). Only findings are dropped: what such a method
// reads still counts as read, for a replacement the linker cannot follow may read it too (the
// drivers' config_contexts builds CinderVolumeConfigurationContext where the base's built
// CharmConfigContext, which reads every option).
func (l *charmLinker) overriddenHere(cls *classInfo, fn string) bool {
	if fn == "" || cls.methods[fn] == nil {
		return false
	}
	derived := false
	for _, k := range l.ownCls {
		mro := l.mro(k)
		if !slices.Contains(mro, cls) {
			continue
		}
		for _, c := range mro {
			if c == cls {
				return false // reached: the charm runs cls's fn
			}
			if m := c.methods[fn]; m != nil {
				if slices.Contains(m.Words, "super") {
					return false
				}
				derived = true
				break
			}
		}
	}
	return derived
}

// isOpsObject reports whether cls derives from ops' Object (ops.Object, framework.Object): an
// object built with a charm. In a charm whose code has no charm class (a library's repository
// whose charmcraft.yaml is there only for charmcraft to fetch libraries; its test charms build
// the classes), nothing builds one for the charm, and its code does not run for it.
func (l *charmLinker) isOpsObject(cls *classInfo) bool {
	return l.hasBase(cls, func(b string) bool { return b == "Object" || strings.HasSuffix(b, ".Object") })
}

// builtOnlyBySiblings reports whether cls, a class of a monorepo's shared code (outside every
// charm's folder) no object of which this charm builds, is there for other charms: named by
// the code of other charms and not by this one's (ops-sunbeam's CephClientHandler, which the
// ceph-backed charms build), or built only by shared code that does not run for this charm
// (ops-sunbeam's CinderVolumeConfigurationContext, built by the cinder-volume drivers' base
// charm class). Its code does not run for this charm. A class no charm names and no code
// of the tree visibly builds, outside its own methods, still runs with its defaults: it may
// be built by a factory the linker cannot follow.
func (l *charmLinker) builtOnlyBySiblings(fi *fileInfo, cls *classInfo) bool {
	if fi.charm >= 0 {
		return false
	}
	users := l.ix.usedByCharms(cls.name)
	if len(users) > 0 {
		return !slices.Contains(users, l.charm)
	}
	// built, but by code that does not run here (instancesOf found none): a construction in
	// the class's own code (a classmethod factory, DBHandler.create) does not count, as
	// instancesOf cannot follow it, nor does one while instancesOf is still at work on it
	if l.building[cls] {
		return false
	}
	return slices.ContainsFunc(l.byClass[cls], func(s *site) bool { return s.cls != cls })
}

// usedOnlyUnderCondition reports whether every recorded use of name (assignments, calls,
// observe calls, key reads) in cls.fn is under a condition, and there is one.
func usedOnlyUnderCondition(cls *classInfo, fn, name string) bool {
	f := &cls.file.Facts
	var uses []pyextract.Scope
	use := func(sc pyextract.Scope, v *pyextract.Value) {
		if sc.Class == cls.name && sc.Func == fn && mentionsName(v, name) {
			uses = append(uses, sc)
		}
	}
	for i := range f.Assigns {
		use(f.Assigns[i].Scope, &f.Assigns[i].Value)
	}
	for i := range f.Calls {
		use(f.Calls[i].Scope, &f.Calls[i].Value)
	}
	for i := range f.Observes {
		use(f.Observes[i].Scope, &f.Observes[i].Event)
	}
	for i := range f.Keys {
		use(f.Keys[i].Scope, &f.Keys[i].Key)
	}
	return len(uses) > 0 && !slices.ContainsFunc(uses, func(sc pyextract.Scope) bool { return !sc.Conditional })
}

// mentionsName reports whether v uses the name (as a chain's first step, anywhere inside).
func mentionsName(v *pyextract.Value, name string) bool {
	if v == nil {
		return false
	}
	for i, st := range v.Chain {
		if i == 0 && st.Name == name || mentionsName(st.Index, name) || mentionsName(st.GetAttr, name) {
			return true
		}
	}
	for i := range v.Args {
		if mentionsName(&v.Args[i], name) {
			return true
		}
	}
	for i := range v.Kwargs {
		if mentionsName(&v.Kwargs[i].Value, name) {
			return true
		}
	}
	return false
}

// basesOf is the set of classes and their bases (their MROs).
func (l *charmLinker) basesOf(classes []*classInfo) map[*classInfo]bool {
	out := map[*classInfo]bool{}
	for _, k := range classes {
		for _, b := range l.mro(k) {
			out[b] = true
		}
	}
	return out
}

func symbolName(class, fn string) string {
	switch {
	case class == "":
		return fn
	case fn == "":
		return class
	}
	return class + "." + fn
}

func siteAt(fi *fileInfo, sc pyextract.Scope, via, detail string) Site {
	// what follows a return in an except clause is the usual path (Scope.ExceptReturn)
	return Site{File: fi.Path, Line: sc.Line, Symbol: symbolName(sc.Class, sc.Func), Via: via, Detail: detail, Conditional: sc.Conditional && !sc.ExceptReturn}
}

// findIn is find for code running in c: in an object built only under a condition (a
// helper the charm builds behind an if), the finding is conditional too.
func (l *charmLinker) findIn(kind, subject string, s Site, c *ctx) *Finding {
	if l.builtInReplaced(c) {
		return nil
	}
	s.Conditional = s.Conditional || c.builtUnderAnyCondition()
	return l.find(kind, subject, s)
}

// builtInReplaced reports code running in an object built (directly, or by an object so
// built) in a shared base's method that this charm's class replaces (overriddenHere): the
// construction never runs here (ops-sunbeam's get_pebble_handlers, which heat-k8s replaces
// with its own handlers for its own containers), so neither does the object's code.
func (l *charmLinker) builtInReplaced(c *ctx) bool {
	for k := 0; c != nil && c.inst != nil && k < maxDepth; k++ {
		at := c.inst.at
		if at != nil && at.cls != nil && at.file != nil && !inDir(at.file.Path, l.ch.Dir) && l.overriddenHere(at.cls, at.fn) {
			return true
		}
		c = at
	}
	return false
}

// find records a finding and returns it, for the caller to add what only it knows (valid
// until the next finding); nil when the code never runs for this charm.
func (l *charmLinker) find(kind, subject string, s Site) *Finding {
	s.Via = ""
	if l.onlyForUndeclared(s.File, s.Symbol) {
		return nil // a handler of no declared interface, which never runs here
	}
	if class, fn, ok := strings.Cut(s.Symbol, "."); ok && !inDir(s.File, l.ch.Dir) {
		if fi := l.ix.files[s.File]; fi != nil && fi.classes[class] != nil && l.overriddenHere(fi.classes[class], fn) {
			return nil // a shared base's method this charm's class replaces: it never runs here
		}
	}
	l.findings = append(l.findings, Finding{Kind: kind, Subject: subject, Site: s})
	return &l.findings[len(l.findings)-1]
}

// afterReturn is line when a conditional handler is so only because of that early return.
func afterReturn(cond bool, line int) int {
	if cond {
		return line
	}
	return 0
}

// observeThroughCallers links an observe call whose event is a parameter of its function (a
// wrapper: def _observe_action(self, on_action, fn): self.framework.observe(on_action, fn))
// at each recorded call of the function, as the observe call that call makes, with the event
// that call passes. The handler: when it is a parameter too, the one the call passes, named
// in the caller's code; else the one the wrapper names, in the wrapper's code (charm._on_changed
// of its parameter charm; a missing one is reported there, once, and links nothing); a
// handler the linker cannot name (getattr(self, name)) is the wrapper itself. It reports
// whether any call was found. A call of the wrapper from another wrapper is not followed.
func (l *charmLinker) observeThroughCallers(fi *fileInfo, o *pyextract.Observe, c *ctx) bool {
	sym := fi.funcSyms[funcKey{o.Class, o.Func}]
	calls := l.callsOf(c)
	if sym == nil || len(calls) == 0 {
		return false
	}
	first := firstPositional(c)
	argOf := func(call *pyextract.Value, name string) *pyextract.Value {
		i, p, ok := paramOf(sym, name)
		if !ok {
			return nil
		}
		return argValue(call, 0, i-first+1, p)
	}
	handlerParam := isParam(fi, o.Scope, &o.Handler)
	var own *handlerRef // the handler the wrapper names
	if !handlerParam {
		h, missing := l.handler(&o.Handler, c)
		switch {
		case missing != "":
			if !fi.vendored {
				l.find(FindMissingHandler, missing, siteAt(fi, o.Scope, "", ""))
			}
		case h != nil:
			own = h
		default:
			own = &handlerRef{sym, fi}
		}
	}
	found := false
	for _, s := range calls {
		ev := argOf(s.value, o.Event.Chain[0].Name)
		if ev == nil {
			continue
		}
		found = true
		at := pyextract.Observe{
			Scope: pyextract.Scope{Class: className(s.cls), Func: s.fn, Line: s.line, Conditional: s.cond || o.Conditional,
				InLoop: s.loop, AfterReturn: s.after},
			Event: *ev,
		}
		var hv *pyextract.Value
		if handlerParam {
			hv = argOf(s.value, o.Handler.Chain[0].Name)
		}
		for _, cc := range l.contexts(s.file, s.cls, s.fn) {
			h := own
			if hv != nil {
				var missing string
				h, missing = l.handler(hv, cc)
				if missing != "" && !s.file.vendored {
					l.find(FindMissingHandler, missing, siteAt(s.file, at.Scope, "", ""))
				}
			}
			l.observeEvent(s.file, &at, cc, h)
		}
	}
	return found
}

// undeclaredKind maps an interface kind to its undeclared-name finding.
var undeclaredKind = map[string]string{
	KindRelation: FindUndeclaredRelation, KindAction: FindUndeclaredAction, KindConfig: FindUndeclaredConfig,
	KindContainer: FindUndeclaredContainer, KindStorage: FindUndeclaredStorage, KindResource: FindUndeclaredResource,
}

// checkEventArgs reports the charm's events its own code hands to a call other than observe
// (MetricsEndpointProvider(self, refresh_event=[self.on.grafana_pebble_ready]), a library
// object that observes them): reading an event ops does not define for the YAML raises
// AttributeError there, as in an observe call. Only the charm's code is held to it; the
// library's observe of what it was given is not linked here.
func (l *charmLinker) checkEventArgs() {
	for _, fi := range l.scope {
		if fi.vendored || fi.library || fi.test {
			continue
		}
		args := func(sc pyextract.Scope, call *pyextract.Value) {
			var vals []*pyextract.Value
			for j := range call.Args {
				vals = append(vals, &call.Args[j])
			}
			for j := range call.Kwargs {
				vals = append(vals, &call.Kwargs[j].Value)
			}
			for _, v := range vals {
				if v.Kind == pyextract.ValSeq { // [self.on.a, self.on.b]
					for k := range v.Args {
						l.checkEventArg(fi, sc, &v.Args[k])
					}
				} else {
					l.checkEventArg(fi, sc, v)
				}
			}
		}
		for i := range fi.Facts.Calls {
			args(fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		for i := range fi.Facts.Assigns { // self.metrics = MetricsEndpointProvider(...)
			if a := &fi.Facts.Assigns[i]; a.Value.Kind == pyextract.ValCall {
				args(a.Scope, &a.Value)
			}
		}
	}
}

// checkEventArg reports v, an argument at sc, when it is an event of the charm's on (written
// <x>.on.<event>) that the charm does not have.
func (l *charmLinker) checkEventArg(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) {
	n := len(v.Chain)
	if v.Kind != pyextract.ValChain || n < 3 || v.Chain[n-2].Name != "on" || v.Chain[n-1].Name == "" {
		return
	}
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		for _, ev := range l.eval(v, c.at(sc.Line)) {
			if ev.kind != aEvent || ev.key != "" || ev.dyn || ev.loose {
				continue
			}
			if custom := l.custom(ev.cls); custom.names[ev.str] || custom.open {
				continue
			}
			at := siteAt(fi, sc, "", "")
			switch kind, name, ok := eventKind(ev.str); {
			case ok && (kind == KindLifecycle || kind == KindSecret || kind == KindStatus):
			case ok:
				if _, declared := l.lookup(kind, name); !declared {
					l.findIn(undeclaredKind[kind], strings.ReplaceAll(name, "_", "-"), at, c)
				}
			case l.eventsKnown(ev.cls) && !l.definesEvents():
				l.findIn(FindUnknownEvent, ev.str, at, c)
			}
		}
	}
}

// linkObserves links every observe call in scope, under each context its class runs in.
func (l *charmLinker) linkObserves() {
	for _, fi := range l.scope {
		for i := range fi.Facts.Observes {
			o := &fi.Facts.Observes[i]
			for _, c := range l.contexts(fi, fi.classes[o.Class], o.Func) {
				l.observe(fi, o, c)
			}
		}
	}
}

func (l *charmLinker) observe(fi *fileInfo, o *pyextract.Observe, c *ctx) {
	if isParam(fi, o.Scope, &o.Event) && c.fn != "__init__" && l.observeThroughCallers(fi, o, c) {
		return
	}
	h, missing := l.handler(&o.Handler, c)
	if missing != "" && !fi.vendored {
		l.find(FindMissingHandler, missing, siteAt(fi, o.Scope, "", ""))
	}
	l.observeEvent(fi, o, c, h)
}

// linkReconcilers links the calls of cosl.reconciler's observe_events(self, all_events,
// self._reconcile) and observe_all(self, ALL_EVENTS, self._reconcile) (pyextract
// ReconcilerObservers): the handler observes every event of the charm, each declared
// relation's, container's and storage's among them, and the lifecycle's (config-changed,
// update-status, leader-elected, ...), as a catch-all (Handler.Loose and CatchAll) that is
// none's own. A call given a set of its own (observe_all(self, {ops.StartEvent}, ...)) is
// left alone: which events it holds is not read.
func (l *charmLinker) linkReconcilers() {
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for i := range fi.Facts.Calls {
			c := &fi.Facts.Calls[i]
			hv, ok := reconcilerHandler(&c.Value)
			if !ok {
				continue
			}
			for _, cc := range l.contexts(fi, fi.classes[c.Class], c.Func) {
				h, missing := l.handler(hv, cc)
				if missing != "" {
					l.find(FindMissingHandler, missing, siteAt(fi, c.Scope, "", ""))
				}
				if h == nil {
					continue
				}
				add := func(kind, name, event string) {
					it := l.iface(kind, name)
					hd := Handler{Event: event, Symbol: h.Name, File: h.file.Path, Line: h.Line, Via: ViaObserve,
						ObserveFile: fi.Path, ObserveLine: c.Line, Conditional: c.Conditional, Loose: true, CatchAll: true,
						AfterReturn: afterReturn(c.Conditional, c.AfterReturn)}
					if !slices.ContainsFunc(it.Handlers, func(x Handler) bool { return x.Symbol == hd.Symbol && x.Event == hd.Event }) {
						it.Handlers = append(it.Handlers, hd)
					}
				}
				for _, r := range l.ch.Relations {
					add(KindRelation, r.Name, strings.ReplaceAll(r.Name, "-", "_")+"_relation_changed")
				}
				for _, k := range l.ch.Containers {
					add(KindContainer, k.Name, strings.ReplaceAll(k.Name, "-", "_")+"_pebble_ready")
				}
				for _, st := range l.ch.Storage {
					add(KindStorage, st.Name, strings.ReplaceAll(st.Name, "-", "_")+"_storage_attached")
				}
				for _, ev := range []string{"config_changed", "update_status", "leader_elected", "leader_settings_changed"} {
					add(KindLifecycle, strings.ReplaceAll(ev, "_", "-"), ev)
				}
			}
		}
	}
}

// reconcilerHandler returns the handler of a call of a ReconcilerObservers function given the
// charm first and every event (its event set absent, None, or named like cosl's all_events,
// ALL_EVENTS, ALL_EVENTS_K8S): the argument after the charm that is a method of self, or the
// handler= or callback= keyword.
func reconcilerHandler(v *pyextract.Value) (*pyextract.Value, bool) {
	ch := v.Chain
	if v.Kind != pyextract.ValCall || len(ch) == 0 || !pyextract.ReconcilerObservers[ch[len(ch)-1].Name] || len(v.Args) == 0 ||
		v.Args[0].Kind != pyextract.ValChain || len(v.Args[0].Chain) != 1 || v.Args[0].Chain[0].Name != "self" {
		return nil, false
	}
	var handler, events *pyextract.Value
	for i := range v.Args[1:] {
		a := &v.Args[1+i]
		switch {
		case a.Kind == pyextract.ValChain && len(a.Chain) == 2 && a.Chain[0].Name == "self":
			handler = a
		case events == nil:
			events = a
		}
	}
	for i := range v.Kwargs {
		switch kw := &v.Kwargs[i]; kw.Name {
		case "handler", "callback":
			handler = &kw.Value
		case "events", "include":
			events = &kw.Value
		}
	}
	if handler == nil {
		return nil, false
	}
	if events == nil || events.Kind == pyextract.ValOther && events.Str == "None" {
		return handler, true
	}
	if events.Kind != pyextract.ValChain || len(events.Chain) == 0 {
		return nil, false
	}
	last := strings.ToLower(events.Chain[len(events.Chain)-1].Name)
	return handler, last == "none" || strings.HasPrefix(last, "all_events")
}

// loopElement reports an observe call inside a loop whose event is a plain local name or an
// item of one (ev, pair[0]): an element of what the loop runs over.
func loopElement(o *pyextract.Observe) bool {
	ch := o.Event.Chain
	if !o.InLoop || o.Event.Kind != pyextract.ValChain || len(ch) == 0 || len(ch) > 2 || ch[0].Name == "self" {
		return false
	}
	return len(ch) == 1 || ch[1].Index != nil
}

// observeEvent links the event of the observe call o, running in c, to the handler h (nil:
// none to link).
func (l *charmLinker) observeEvent(fi *fileInfo, o *pyextract.Observe, c *ctx, h *handlerRef) {
	at := siteAt(fi, o.Scope, ViaObserve, o.Event.String())
	cond := o.Conditional // of the event being linked
	loose := false        // of the event being linked
	every := false        // of the event being linked: from every declared relation or container
	// where the object observing was built under a condition (nil: it was not)
	built := c.builtUnderCondition()
	var builtFile, builtClass string
	var builtLine, builtAfter int
	if built != nil {
		builtFile, builtLine, builtAfter = built.file.Path, built.line, built.after
		if built.target != nil {
			builtClass = built.target.name
		}
	}
	add := func(kind, name, event, via string) {
		if h == nil {
			return
		}
		l.observedFor(h, fi, o, true)
		if kind == KindAction {
			k := scopeKey{h.file.Path, h.Qualifier, strings.TrimPrefix(h.Name, h.Qualifier+".")}
			l.actions[k] = appendUniq(l.actions[k], name)
		}
		it := l.iface(kind, name)
		it.Handlers = append(it.Handlers, Handler{
			Event: event, Symbol: h.Name, File: h.file.Path, Line: h.Line, Via: via,
			ObserveFile: fi.Path, ObserveLine: o.Line, Conditional: cond, BuiltFile: builtFile, BuiltLine: builtLine, BuiltClass: builtClass, Loose: loose, CatchAll: every, Vendored: fi.vendored,
			AfterReturn: afterReturn(cond && built == nil, o.AfterReturn), BuiltAfterReturn: builtAfter,
		})
	}
	oc := *c
	oc.line = o.Line // a loop variable reused by two loops is the one of the loop around the call
	events := l.eval(&o.Event, &oc)
	if loopElement(o) && !fi.library && (h == nil || !slices.ContainsFunc(events, func(a aval) bool { return a.kind == aEvent || a.kind == aObjEvent })) {
		// for ev, h in self._more(): observe(ev, h): the events, or their handlers, are a
		// collection's the linker cannot read (or one the code changes in place:
		// pairs.append(...)); what they name is not known (check counts it as a dynamic name)
		l.unresolved = append(l.unresolved, at)
	}
	for _, ev := range events {
		loose, every = ev.loose, ev.every
		// An event taken from a collection a loop runs over (for event in EVENTS: observe,
		// for name in self.model.relations: observe(self.on[name]...)) is observed whenever
		// the loop runs, and the linker has read that it is not empty; a condition inside
		// such a loop picks among its elements (dispatch), and is not reported either.
		cond = o.Conditional && !(o.InLoop && ev.loose) || built != nil
		switch ev.kind {
		case aEvent:
			via := ev.via
			switch {
			case fi.library:
				via = ViaLibInner
			case c.cls != nil && !l.isCharm(c.cls):
				via = ViaHelper
			}
			if ev.dyn {
				// charm.on[self._relation_name] in a library object is its endpoint; a name
				// taken from a collection in a loop (for relation in policies) is not
				if kind, _ := indexedKind(ev.str); fi.library && c.inst != nil && kind == KindRelation && !o.InLoop {
					for _, ep := range l.endpoints(c.inst).names {
						if d, ok := l.lookup(KindRelation, ep.name); ok {
							add(KindRelation, d, ev.str, via)
						}
					}
				} else if !fi.library {
					u := at
					u.NameKind = kind // on[name].relation_departed names a relation
					l.unresolved = append(l.unresolved, u)
				}
				continue
			}
			kind, name, ok := "", ev.key, false
			if ev.key != "" {
				kind, ok = indexedKind(ev.str)
			} else {
				custom := l.custom(ev.cls)
				if custom.names[ev.str] {
					// a custom event named after a declared relation (redis_relation_updated, which
					// the redis library's handlers of that relation emit) is that relation's: its
					// observer handles the relation; an undeclared prefix is no finding
					if ep, _, found := strings.Cut(ev.str, "_relation_"); found && ep != "" {
						if d, declared := l.lookup(KindRelation, ep); declared {
							add(KindRelation, d, ev.str, via)
						}
					}
					continue
				}
				kind, name, ok = eventKind(ev.str)
				if ok && custom.open && kind != KindLifecycle && kind != KindSecret && kind != KindStatus {
					if _, declared := l.lookup(kind, name); !declared {
						continue // may be a custom event of an events class we cannot read
					}
				}
				if !ok && !custom.open && !fi.vendored && !fi.library && !ev.loose && l.eventsKnown(ev.cls) && !l.definesEvents() {
					// self.on.cos_agent_joined: no event ops defines for the charm, and none
					// of its own: the attribute lookup raises AttributeError
					l.findIn(FindUnknownEvent, ev.str, siteAt(fi, o.Scope, "", ""), c)
				}
			}
			if !ok {
				continue
			}
			switch kind {
			case KindLifecycle, KindSecret, KindStatus:
				add(kind, name, ev.str, via)
			default:
				if d, declared := l.lookup(kind, name); declared {
					add(kind, d, ev.str, via)
				} else if !fi.vendored && !ev.loose {
					// the YAML's spelling: an attribute's name hyphenated, and a key too, which ops
					// reads with - as _ (on["osd_disk"] is the storage osd-disk)
					name = strings.ReplaceAll(name, "_", "-")
					l.findIn(undeclaredKind[kind], name, siteAt(fi, o.Scope, "", ""), c)
					l.observedFor(h, fi, o, false)
				}
			}
		case aObjEvent:
			if ev.self && fi.library && c.inst != nil && h != nil && !h.file.library {
				// a library object observing its own event (DataUpgrade's upgrade_granted) with a
				// method the charm's subclass overrides: the charm's code reacting to the
				// object's relation
				for _, d := range l.eventEndpoints(l.endpoints(c.inst)) {
					add(KindRelation, d, ev.str, ViaLibInner)
				}
				continue
			}
			if ev.self || ev.inst == nil {
				continue
			}
			if !fi.vendored && !fi.library && !ev.loose && l.noSuchObjectEvent(ev.inst.cls, ev.str) {
				// cert_transfer.on.certificate_removed of a library whose events class (v1)
				// defines certificates_removed: AttributeError while the charm is constructed
				if f := l.findIn(FindUnknownEvent, ev.str, siteAt(fi, o.Scope, "", ev.inst.cls.name), c); f != nil {
					f.Events = slices.Sorted(maps.Keys(l.custom(ev.inst.cls).names))
				}
				continue
			}
			eps := l.endpoints(ev.inst)
			if eps.dyn && len(eps.names) == 0 && !fi.library {
				u := at
				u.NameKind = KindRelation // an object bound to an endpoint it was given
				l.unresolved = append(l.unresolved, u)
			}
			via := ViaLibrary
			if fi.library {
				via = ViaLibInner
			}
			for _, d := range l.eventEndpoints(eps) {
				add(KindRelation, d, ev.str, via)
			}
		}
	}
}

// eventsKnown reports whether every event the charm class cls (every charm class when nil)
// has is known: no class up its bases has one from outside the tree but ops' (openBases), so
// none can redefine its on with events of its own.
func (l *charmLinker) eventsKnown(cls *classInfo) bool {
	classes := l.charmCls
	if cls != nil {
		classes = []*classInfo{cls}
	}
	for _, cl := range classes {
		if slices.ContainsFunc(l.mro(cl), func(k *classInfo) bool { return k.openBases }) {
			return false
		}
	}
	return len(classes) > 0
}

// noSuchObjectEvent reports an event name that the events class of cls's on (a library
// object's: on = CertificateTransferEvents()), read whole in the tree, does not define.
func (l *charmLinker) noSuchObjectEvent(cls *classInfo, name string) bool {
	if cls == nil {
		return false
	}
	if _, found := l.lookupClassAttr(cls, "on"); !found {
		return false
	}
	ce := l.custom(cls)
	return !ce.open && len(ce.names) > 0 && !ce.names[name] && !l.definesEvents()
}

// definesEvents reports code of the charm's (its libraries' too) that defines events at run
// time, charm.on.define_event("reload_bind", ...), or juju_systemd_notices' with
// f"service_{name}_started": any name may then be one of its events.
func (l *charmLinker) definesEvents() bool {
	for _, fi := range l.scope {
		if _, found := slices.BinarySearchFunc(fi.Refs, "define_event", func(r pyextract.Ref, n string) int { return strings.Compare(r.Name, n) }); found {
			return true
		}
	}
	return false
}

// eventEndpoints are the declared relations an object's own events belong to: every endpoint
// it is bound to, except a peer relation beside another one (PrometheusRemoteWriteConsumer's
// peer_relation_name="peers" keeps state among the units; its endpoints_changed is about
// send-remote-write).
func (l *charmLinker) eventEndpoints(eps endpointSet) []string {
	var out, peers []string
	for _, ep := range eps.names {
		d, ok := l.lookup(KindRelation, ep.name)
		switch {
		case !ok || slices.Contains(out, d) || slices.Contains(peers, d):
		case l.isPeer(d):
			peers = append(peers, d)
		default:
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return peers
	}
	return out
}

// isPeer reports whether the declared relation d is a peer relation.
func (l *charmLinker) isPeer(d string) bool {
	return slices.ContainsFunc(l.ch.Relations, func(r charmyaml.Relation) bool { return r.Name == d && r.Role == charmyaml.RolePeers })
}

// custom returns the custom events of the charm class (or of every charm class when nil):
// the attributes of the events class its `on` is redefined with (on = MyEvents()).
func (l *charmLinker) custom(cls *classInfo) customEvents {
	classes := l.charmCls
	if cls != nil {
		classes = []*classInfo{cls}
	}
	out := customEvents{names: map[string]bool{}}
	for _, cl := range classes {
		ce, ok := l.customOn[cl]
		if !ok {
			ce = customEvents{names: map[string]bool{}}
			if vals, found := l.lookupClassAttr(cl, "on"); found {
				ce.open = len(vals) == 0
				for _, v := range vals {
					if v.kind != aObj || v.cls == nil {
						ce.open = true
						continue
					}
					for _, k := range l.mro(v.cls) {
						for name := range k.attrs {
							ce.names[name] = true
						}
						ce.open = ce.open || k.openBases
					}
				}
			}
			l.customOn[cl] = ce
		}
		for n := range ce.names {
			out.names[n] = true
		}
		out.open = out.open || ce.open
	}
	return out
}

// endpointSet is what an object is bound to.
type endpointSet struct {
	names []endpointName
	// relParam: the object's class takes a relation-naming parameter (or sets such an
	// attribute), so it is relation-bound; dyn: a name could not be resolved.
	relParam, dyn bool
	dynParam      string // with dyn, the first parameter whose name could not be resolved
}

type endpointName struct {
	name string
	// strong: named by a parameter or attribute called *relation* (not just *endpoint*),
	// so an undeclared name is a finding.
	strong bool
	// cond: the parameter that names it is used only under conditions in the constructor
	// (cert_handler's peer_relation_name, for Juju without secrets): a finding is a warning.
	cond bool
}

// endpoints returns the relations an object is bound to: the value of its class's
// relation-naming __init__ parameter (relation_name, relationship_name, relation,
// endpoint, ...: argument or default), else of such a self attribute; for a class not in
// the tree, relation-naming keyword arguments (a bare relation= or endpoint= only with a
// declared name) and positional strings naming a declared relation.
func (l *charmLinker) endpoints(inst *instance) endpointSet {
	var out endpointSet
	addVals := func(param string, vals []aval, declaredOnly bool) {
		lower := strings.ToLower(param)
		strong := strings.Contains(lower, "relation")
		found := false
		for _, v := range vals {
			if v.kind != aStr {
				continue
			}
			if _, ok := l.lookup(KindRelation, v.str); (declaredOnly || v.loose) && !ok {
				continue
			}
			found = true
			out.names = append(out.names, endpointName{name: v.str, strong: strong})
		}
		if !found && !declaredOnly && strings.Contains(lower, "name") {
			out.dyn = true // relation=, endpoint= may hold a Relation object, not a name
			out.dynParam = cmp.Or(out.dynParam, param)
		}
	}
	// A map of roles to endpoint names handed to a library object ("endpoints={"cluster":
	// "tempo-cluster", ...}", cosl's Coordinator): its declared names are bound to it.
	endpointMaps := func() {
		if inst.call == nil {
			return
		}
		for i := range inst.call.Kwargs {
			kw := &inst.call.Kwargs[i]
			if kw.Value.Kind != pyextract.ValDict || !endpointMapParam(kw.Name) {
				continue
			}
			for j := range kw.Value.Kwargs {
				addVals("", l.eval(&kw.Value.Kwargs[j].Value, inst.at), true)
			}
		}
		out.relParam = out.relParam || len(out.names) > 0
	}
	// The relation-naming keywords of a call to a class we cannot read (declaredOnly: only
	// declared names bind); reports whether there was one.
	relationKeywords := func(declaredOnly bool) bool {
		found := false
		for i := range inst.call.Kwargs {
			if kw := &inst.call.Kwargs[i]; relationParam(kw.Name) {
				found = true
				// A bare relation= or endpoint= names other things too (an ACL tuple's
				// relation in an authorization client: relation="member"): only a declared
				// name binds, and an undeclared one is no finding.
				bare := paramKey(kw.Name)
				addVals(kw.Name, l.eval(&kw.Value, inst.at), declaredOnly || bare == "relation" || bare == "endpoint")
			}
		}
		return found
	}
	// outsideCall reads the call of a class we cannot read: its relation-naming keywords, its
	// positional strings naming a declared relation, a charm library's default endpoint.
	outsideCall := func() endpointSet {
		endpointMaps() // and the relation-naming keywords beside the map (peer_relation=)
		out.relParam = relationKeywords(false) || out.relParam
		// Other *_name keywords that hold a declared relation's name bind it too
		// (cross_model_mesh_provides_name="provide-cmr-mesh" beside mesh_relation_name=):
		// a library object given several endpoints names the others by role.
		if out.relParam {
			for i := range inst.call.Kwargs {
				if kw := &inst.call.Kwargs[i]; !relationParam(kw.Name) && roleNameParam(kw.Name) {
					addVals("", l.eval(&kw.Value, inst.at), true)
				}
			}
		}
		if !out.relParam {
			for i := range inst.call.Args {
				if a := &inst.call.Args[i]; a.Kind == pyextract.ValStr || a.Kind == pyextract.ValChain {
					addVals("", l.eval(a, inst.at), true)
				}
			}
			out.relParam = len(out.names) > 0
		}
		if !out.relParam {
			if name := l.absentLibraryEndpoint(inst); name != "" {
				out.names = append(out.names, endpointName{name: name})
				out.relParam = true
			}
		}
		return out
	}
	if inst.cls == nil {
		if inst.call == nil {
			return out
		}
		return outsideCall()
	}
	// The first __init__ up the classes that takes a relation-naming parameter: a subclass
	// whose own __init__ takes none passes the name on (super().__init__(charm, "radosgw",
	// callback), a sunbeam-style handler), and bind follows that call to the parameter.
	for _, k := range l.mro(inst.cls) {
		init := k.methods["__init__"]
		if init == nil {
			continue
		}
		for i, p := range positional(init.Params) {
			if i > 0 && relationParam(p.Name) {
				out.relParam = true
				init := &ctx{file: k.file, cls: k, fn: "__init__", inst: inst}
				vals := l.param(init, i, p)
				if len(vals) == 0 && isNone(p.Default) {
					// left at None: the class finds its relation itself (charmhelpers'
					// coordinator.Serial() looks up the charm's peer relation), and no name
					// was given that could go unresolved
					continue
				}
				// a charm-helpers class's default left in place binds only a declared
				// relation: its defaults serve every OpenStack charm, and its lookups of a
				// relation the charm lacks find none rather than fail (nova-cloud-controller's
				// NotificationDriverContext() keeps zmq_relation='zeromq-configuration',
				// which it never looks up, beside amqp_relation='amqp')
				helpersDefault := k.file.vendored && inFolderNamed(l.ix.charmRel(k.file), charmHelpersDir) && len(l.passed(init, i, p)) == 0
				n := len(out.names)
				addVals(p.Name, vals, helpersDefault)
				if usedOnlyUnderCondition(k, "__init__", p.Name) {
					for j := n; j < len(out.names); j++ {
						out.names[j].cond = true
					}
				}
			}
		}
		if out.relParam {
			break
		}
	}
	if out.relParam {
		return out
	}
	for _, k := range l.mro(inst.cls) {
		for _, name := range sortedKeys(k.selfAttrs) {
			if relationParam(name) {
				out.relParam = true
				addVals(name, l.member(inst.cls, inst, name), false)
			}
		}
		if out.relParam {
			break
		}
	}
	if !out.relParam {
		endpointMaps()
		if out.relParam && inst.call != nil {
			// a subclass of a class we cannot read (cosl's Coordinator): the declared names of
			// its relation-naming keywords beside the map bind too (peer_relation=)
			relationKeywords(true)
		}
	}
	if !out.relParam {
		if up := l.boundArguments(inst); len(up.names) > 0 {
			return up
		}
		// A subclass that passes the names on to the class we cannot read in its own
		// super().__init__ (tempo's TempoWorker(Worker): endpoints={"cluster":
		// "tempo-cluster"}): that call is the library object's construction.
		if call, at := l.outsideSuperInit(inst); call != nil {
			up := l.endpoints(&instance{call: call, at: at, cond: inst.cond})
			up.dyn = up.dyn || out.dyn
			return up
		}
		// A subclass without an __init__ of its own of a class we cannot read (a charm
		// library fetched when the charm is packed: class StoreRequirer(S3Requirer)): its
		// construction is the outside class's, arguments and all.
		if inst.call != nil && builtWithCharm(inst.call) && l.outsideInit(inst.cls) {
			return outsideCall()
		}
	}
	return out
}

// outsideInit reports a class of the tree whose construction runs the __init__ of a class
// from outside the tree: no class up its bases in the tree defines __init__, and one of them
// derives from an imported class the tree does not hold, before any of ops' (whose Object and
// CharmBase take no relation: `class Helper(ops.Object, Mixin)` runs Object's __init__).
func (l *charmLinker) outsideInit(cls *classInfo) bool {
	outside := false
	for _, k := range l.mro(cls) {
		if k.methods["__init__"] != nil {
			return false
		}
		for _, b := range k.sym.Bases {
			im, ok := k.file.imports[baseRoot(b)]
			if !ok || len(l.ix.modules[im.Module]) > 0 || l.ix.module(k.file, im.Module, l.charm) != nil {
				continue
			}
			top, _, _ := strings.Cut(im.Module, ".")
			if top == "ops" && !outside {
				return false // ops' __init__ comes first in the MRO: Object(parent, key)
			}
			if top != "ops" && !stdlibModules[top] {
				outside = true
			}
		}
	}
	return outside
}

// boundArguments are the endpoints of the objects inst's construction hands to the first
// __init__ up its classes, other than the charm, when they are bound to endpoints: a library
// object built around another library object serves its relation (data_platform_libs'
// KafkaRequirerEventHandlers(charm, relation_data=KafkaRequirerData(model, relation_name=...))).
// Both classes must be a charm library's: the charm's own classes take shared state objects
// (a peer relation's) that they do not serve. The names are not strong: an undeclared one is
// reported where the inner object is built, not again here.
func (l *charmLinker) boundArguments(inst *instance) endpointSet {
	var out endpointSet
	if l.boundDepth >= 2 || !inst.cls.file.library {
		return out
	}
	l.boundDepth++
	defer func() { l.boundDepth-- }()
	for _, k := range l.mro(inst.cls) {
		init := k.methods["__init__"]
		if init == nil {
			continue
		}
		c := &ctx{file: k.file, cls: k, fn: "__init__", inst: inst}
		for i, p := range positional(init.Params) {
			if i == 0 {
				continue
			}
			for _, v := range l.param(c, i, p) {
				if v.kind != aObj || v.inst == nil || v.inst == inst || v.inst.cls == nil || v.inst.cls == inst.cls || !v.inst.cls.file.library {
					continue
				}
				if eps := l.endpoints(v.inst); eps.relParam {
					for _, n := range eps.names {
						out.names = append(out.names, endpointName{name: n.name})
					}
					out.dyn = out.dyn || eps.dyn
				}
			}
		}
		break
	}
	out.relParam = len(out.names) > 0
	return out
}

// outsideSuperInit is the super().__init__ call by which inst's class, or the first class up
// its in-tree bases that defines __init__ and has no base in the tree, constructs a base the
// tree does not hold, with the context its arguments are evaluated in; nil when there is none.
func (l *charmLinker) outsideSuperInit(inst *instance) (*pyextract.Value, *ctx) {
	for _, k := range l.mro(inst.cls) {
		if k.methods["__init__"] == nil || len(l.bases(k)) > 0 {
			continue
		}
		if l.externalBase(k) == "" {
			return nil, nil
		}
		for ci := range k.file.Facts.Calls {
			cf := &k.file.Facts.Calls[ci]
			if cf.Class == k.name && cf.Func == "__init__" && isSuperInit(cf.Value.Chain) {
				return &cf.Value, &ctx{file: k.file, cls: k, fn: "__init__", inst: inst}
			}
		}
		return nil, nil
	}
	return nil, nil
}

// publishedInterfaceLibrary reports a charm library published on PyPI as
// charmlibs.interfaces.<interface>.
func publishedInterfaceLibrary(module string) bool {
	return strings.HasPrefix(module, "charmlibs.interfaces.")
}

// opsInterfacePackage is <name> for a module of an ops interface package installed with pip,
// ops.interface_<name>[.requires] (Charmed Kubernetes' interface-aws, interface-gcp and
// others install into the ops namespace; their Requires objects bind the relation <name> by
// default), or "". ops' own modules (ops.charm, ops.model, ...) are not.
func opsInterfacePackage(module string) string {
	rest, ok := strings.CutPrefix(module, "ops.interface_")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, ".")
	return name
}

// absentLibraryEndpoint is the relation an object of a charm library that is not in the tree
// binds by default, when that can be told: charmcraft.yaml's charm-libs fetch libraries at
// build time, so their classes' default relation_name cannot be read, and an object built
// with only the charm (TracingEndpointRequirer(self, protocols=[...])) would leave its
// relation unhandled. Charm libraries are named after the interface they implement
// (charms.tempo_coordinator_k8s.v0.tracing for "tracing"), so such an object, its class
// imported by name from a charms.* module the tree does not hold and built with the charm
// (builtWithCharm), binds the charm's one relation of that interface. So does a charm library published
// on PyPI as charmlibs.interfaces.<interface> (ServiceMeshConsumer of
// charmlibs.interfaces.service_mesh). "" otherwise (no such relation, or several).
func (l *charmLinker) absentLibraryEndpoint(inst *instance) string {
	c := inst.call
	if c == nil || len(c.Chain) != 1 || inst.at == nil || inst.at.file == nil || !builtWithCharm(c) {
		return ""
	}
	im, ok := inst.at.file.imports[c.Chain[0].Name]
	if !ok || im.Name == "" || len(l.ix.modules[im.Module]) > 0 {
		return ""
	}
	// charmlibs.interfaces.<interface> are charm libraries published on PyPI, named the same
	// way; an ops.interface_<name> package (opsInterfacePackage) names its default relation, or
	// the relation's interface
	iface, byName := "", ""
	switch {
	case strings.HasPrefix(im.Module, "charms.") || publishedInterfaceLibrary(im.Module):
		iface = norm(im.Module[strings.LastIndex(im.Module, ".")+1:])
	case opsInterfacePackage(im.Module) != "":
		iface = norm(opsInterfacePackage(im.Module))
		byName = iface
	default:
		return ""
	}
	found := ""
	for _, r := range l.ch.Relations {
		if r.Interface != "" && norm(r.Interface) == iface || byName != "" && norm(r.Name) == byName {
			if found != "" {
				return ""
			}
			found = r.Name
		}
	}
	return found
}

// builtWithCharm reports a call whose first argument is the charm: self or charm, given
// first or as charm= (IngressPerAppRequirer(charm=self, port=8080)).
func builtWithCharm(c *pyextract.Value) bool {
	isCharm := func(a pyextract.Value) bool {
		return a.Kind == pyextract.ValChain && len(a.Chain) == 1 && (a.Chain[0].Name == "self" || a.Chain[0].Name == "charm")
	}
	if len(c.Args) > 0 {
		return isCharm(c.Args[0])
	}
	for _, k := range c.Kwargs {
		if k.Name == "charm" {
			return isCharm(k.Value)
		}
	}
	return false
}

type handlerRef struct {
	*pyextract.Symbol
	file *fileInfo
}

// handler resolves an observer to the method or function it names. missing is set when the
// observer is obj.name and no class in the (fully known) hierarchy of obj defines name.
func (l *charmLinker) handler(v *pyextract.Value, c *ctx) (h *handlerRef, missing string) {
	if v.Kind != pyextract.ValChain || len(v.Chain) == 0 {
		return nil, ""
	}
	ch := v.Chain
	name := ch[len(ch)-1].Name
	if name == "" {
		return nil, ""
	}
	if len(ch) == 1 {
		if s := c.file.funcs[name]; s != nil {
			return &handlerRef{s, c.file}, ""
		}
		return nil, ""
	}
	for _, owner := range l.chain(ch[:len(ch)-1], c) {
		var classes []*classInfo
		switch {
		case owner.kind == aCharm && owner.cls != nil:
			classes = []*classInfo{owner.cls}
		case owner.kind == aCharm:
			classes = l.charmCls
		case owner.kind == aObj && owner.cls != nil:
			classes = []*classInfo{owner.cls}
		}
		if len(classes) == 0 {
			return nil, ""
		}
		open := false
		for _, cl := range classes {
			for _, k := range l.mro(cl) {
				if s := k.methods[name]; s != nil {
					return &handlerRef{s, k.file}, ""
				}
				_, isAttr := k.attrs[name]
				_, isSelf := k.selfAttrs[name]
				open = open || k.openBases || isAttr || isSelf
			}
		}
		if !open {
			missing = name
		}
	}
	return nil, missing
}
