package linker

import (
	"fmt"
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
	file  *fileInfo
	cls   *classInfo
	fn    string
	line  int
	cond  bool
	loop  bool // in the body of a loop over something not literal (Scope.InLoop)
	after int  // Scope.AfterReturn
	// loopAfter: Scope.LoopAfterReturn
	loopAfter bool
	usual     bool // Scope.ExceptReturn
	value     *pyextract.Value
	target    *classInfo
}

// scope is the Scope of the call s (its class, function, line and conditions).
func (s *site) scope() pyextract.Scope {
	return pyextract.Scope{Class: className(s.cls), Func: s.fn, Line: s.line, Conditional: s.cond, AfterReturn: s.after,
		LoopAfterReturn: s.loopAfter, ExceptReturn: s.usual}
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
	// misspelt holds the functions (file, class, function, receiver) whose misspelt
	// self.framework is reported: at its first observe call only, since the lookup raises there
	misspelt map[[4]string]bool
	ownCls   []*classInfo // the charm classes in the charm's folder
	// featurePkgs are the modules linkFeaturePackages found named after an interface: what
	// they handle is known, so they are not delegates (linkDelegates)
	featurePkgs map[string]bool
	typed       *bool                                  // typedConfig, once known
	splats      map[fileLine][]*classInfo              // classes loaded from the whole config (loadSplats), once known
	defines     int8                                   // definesEvents, once known: 1 yes, -1 no, 0 not yet
	ownDefiners map[*classInfo]bool                    // classes defining events on their own on (definesEvents), once known
	nearMiss    map[string]string                      // a missing handler's name → the method a letter or two from it (handler)
	dead        map[view]map[*pyextract.Symbol]deadWhy // deadSyms, per viewpoint, once known
	actions     map[scopeKey][]string                  // action handler -> the actions it handles
	// paramsUnsure are the actions some code running for which uses the params whole
	// (dict(event.params), **event.params, .items()), by a key not known, or in a helper the
	// linker followed only in part (linkParams): which parameters it reads is not known
	paramsUnsure map[string]bool
	customOn     map[*classInfo]customEvents
	boundDepth   int                 // nesting of boundArguments
	wrappers     map[*classInfo]bool // config wrapper classes some subscript uses (subscripted), once known
	stored       map[string]bool     // keys the code stores into the config (storedConfig), once known
	storedAt     *Site               // the first store into the config under a key it cannot name
	openstack    *bool               // openstackAdapters, once known
	scopeRefs    map[string]int      // every name's uses in the scope's non-test files (scopeUses)
	libRefs      map[string]int      // those in its charm libraries (libraryUses)
	code         map[*fileInfo]bool  // the files the charm's classes import, directly or not (charmCode), once known
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
		var image []string
		for _, ct := range c.Containers {
			if ct.Resource == r.Name {
				image = append(image, ct.Name)
			}
		}
		l.declare(KindResource, r.Name, &Interface{File: r.File, Line: r.Line, Extension: app, ImageOf: image})
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
	l.linkUnreadParams()
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
			link(fi, p.Line, fi.symbolAt(p.Class, p.Func, p.Line), &pyextract.Value{Kind: pyextract.ValStr, Str: p.Path})
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
// base's, does or lists an object's members (fileInfo.dispatch: dir(type(self)),
// inspect.getmembers(self), getattr(self, name) in a method of the class or a base, not of
// another class of the file; not getattr(self._stored, key), a StoredState's, which holds no
// method). A class with a decorator or a metaclass (which may register its
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
	// reached: the classes a getattr(self, name) of a class's method may reach, every class
	// of the method order of a class that has it (a subclass's or a sibling mixin's getattr
	// reaches a base's handlers: review rev107)
	reached := map[*classInfo]bool{}
	for _, fi := range l.scope { // (the charm's code: the method order of another charm's classes is not resolved here)
		for _, cl := range fi.classes {
			mro := l.mro(cl)
			if slices.ContainsFunc(mro, func(k *classInfo) bool { return k.file.dispatchBy[k.name] }) {
				for _, k := range mro {
					reached[k] = true
				}
			}
		}
	}
	for _, fi := range l.scope {
		if fi.library || fi.test {
			continue
		}
		for _, name := range sortedKeys(fi.classes) {
			cl := fi.classes[name]
			mro := l.mro(cl)
			if reached[cl] || slices.ContainsFunc(mro, func(k *classInfo) bool { return k.openBases || dynamic(k.file) || k.file.dispatchElse }) {
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
				if l.ix.handlerUses(m, viewOf(fi, false)) == 0 {
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
				after: sc.AfterReturn, loopAfter: sc.LoopAfterReturn, usual: sc.ExceptReturn, value: v}
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
	// as is the body of `if self.unit.is_leader():`, which runs whenever the unit leads
	// (Scope.Leader): both are the usual path (AfterGuard)
	leader := sc.Conditional && !sc.ExceptReturn && sc.Leader
	return Site{File: fi.Path, Line: sc.Line, Symbol: fi.symbolAt(sc.Class, sc.Func, sc.Line), Via: via, Detail: detail, Conditional: sc.Conditional && !sc.ExceptReturn,
		AfterGuard: sc.Conditional && !sc.ExceptReturn && sc.AfterReturn > 0 && !sc.LoopAfterReturn || leader, Leader: leader}
}

// findIn is find for code running in c: in an object built only under a condition (a
// helper the charm builds behind an if), the finding is conditional too.
func (l *charmLinker) findIn(kind, subject string, s Site, c *ctx) *Finding {
	if l.builtInReplaced(c) {
		return nil
	}
	if c.builtUnderAnyCondition() {
		s.Conditional, s.AfterGuard = true, false
	}
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
	class, _, _ := strings.Cut(s.Symbol, ".")
	if near := l.nearMiss[nearKey(s.File, class, subject)]; kind == FindMissingHandler && near != "" {
		s.Detail, s.Key = "near", near // a class with a base from outside the tree (handler)
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

// undeclaredKind maps an interface kind to its undeclared-name finding.
var undeclaredKind = map[string]string{
	KindRelation: FindUndeclaredRelation, KindAction: FindUndeclaredAction, KindConfig: FindUndeclaredConfig,
	KindContainer: FindUndeclaredContainer, KindStorage: FindUndeclaredStorage, KindResource: FindUndeclaredResource,
}
