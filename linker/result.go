package linker

import (
	"cmp"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// result assembles the charm's links: declared interfaces in YAML order within their kind,
// then the lifecycle, secret and status events observed, each list sorted and deduplicated.
func (l *charmLinker) result() CharmLinks {
	c := l.ch
	var keys []ifaceKey
	for _, r := range c.Relations {
		keys = append(keys, ifaceKey{KindRelation, r.Name})
	}
	for _, o := range c.Config {
		keys = append(keys, ifaceKey{KindConfig, o.Name})
	}
	for _, a := range c.Actions {
		keys = append(keys, ifaceKey{KindAction, a.Name})
	}
	for _, ct := range c.Containers {
		keys = append(keys, ifaceKey{KindContainer, ct.Name})
	}
	for _, s := range c.Storage {
		keys = append(keys, ifaceKey{KindStorage, s.Name})
	}
	for _, r := range c.Resources {
		keys = append(keys, ifaceKey{KindResource, r.Name})
	}
	var events []ifaceKey
	for k := range l.ifaces {
		switch k.kind {
		case KindLifecycle, KindSecret, KindStatus:
			events = append(events, k)
		}
	}
	slices.SortFunc(events, func(a, b ifaceKey) int {
		return cmp.Or(cmp.Compare(kindOrder(a.kind), kindOrder(b.kind)),
			cmp.Compare(eventOrder(a.name), eventOrder(b.name)), cmp.Compare(a.name, b.name))
	})
	keys = append(keys, events...)

	out := CharmLinks{Name: c.Name, Dir: c.Dir, Layer: c.Layer, Interfaces: make([]Interface, 0, len(keys))}
	out.NoCode = len(l.charmCls) == 0
	out.Reactive = l.reactiveImport()
	out.Unresolved = sortSites(slices.Clone(l.unresolved))
	seen := map[ifaceKey]bool{}
	for _, k := range keys {
		if seen[k] {
			continue // a name declared twice
		}
		seen[k] = true
		it := *l.ifaces[k]
		it.Handlers = sortHandlers(it.Handlers)
		it.Reads = sortSites(it.Reads)
		for r := range it.Reads {
			it.Reads[r].Dead = l.deadSite(it.Reads[r])
		}
		out.Interfaces = append(out.Interfaces, it)
	}
	if out.NoCode {
		out.Classic = l.classicHooks()
		if out.Classic == "" { // or its first hook script (hooks/config-changed), in path order
			first := ""
			for _, it := range out.Interfaces {
				for _, h := range it.Handlers {
					// the hook's own path: a script's, or a link's to a script (Input.HookLinks)
					if p := path.Join(l.ch.Dir, "hooks", h.Event); h.Via == ViaHookScript && (first == "" || p < first) {
						first = p
					}
				}
			}
			if first != "" {
				out.Classic = first + ":1"
			}
		}
	}
	if out.NoCode && out.Classic == "" && out.Reactive == "" {
		for _, fi := range l.scope { // in path order
			if !fi.library && !fi.test && strings.HasPrefix(l.ix.charmRel(fi), "hooks/") {
				out.UnlinkedCode = fi.Path
				break
			}
		}
		if out.UnlinkedCode == "" {
			for _, f := range l.ix.shell { // sorted
				if path.Dir(path.Dir(f)) == l.ch.Dir {
					out.ShellCode = f
					break
				}
			}
		}
	}
	l.markUnbuilt()
	l.unmarkGuardedByTest()
	l.findings = l.libraryRepeatsDropped()
	out.Findings = sortFindings(l.defaultRepeatsJoined())
	return out
}

// libraryRepeatsDropped is the findings without those in a charm library's code (the charm's
// own library: vendored code has none) that repeat, kind and name, one in the charm's other
// code: a wrong name the charm hands a library object (relation_name=...) is one fault, at
// the construction, not one more at every lookup the library makes with it.
func (l *charmLinker) libraryRepeatsDropped() []Finding {
	type key struct{ kind, subject string }
	outside := map[key]bool{}
	for _, f := range l.findings {
		// (not a function registered for a flag or hook of the name, which hands the library
		// nothing: a reactive handler of config.changed.user beside the layer library's own
		// config["user"], review rev109)
		if fi := l.ix.files[f.File]; fi != nil && !fi.library && f.Registered == "" {
			outside[key{f.Kind, f.Subject}] = true
		}
	}
	return slices.DeleteFunc(l.findings, func(f Finding) bool {
		fi := l.ix.files[f.File]
		return fi != nil && fi.library && outside[key{f.Kind, f.Subject}]
	})
}

// defaultRepeatsJoined joins the findings that one wrong default of a class's constructor
// makes (`def __init__(self, charm, endpoint="calico-enterprises")`, then a lookup of
// self.endpoint in four methods: review rev105 counted five findings for one typo): two or
// more of one kind and name in methods of the class, whose __init__ has a parameter with that
// name as its default, are one finding at the __init__ (Detail "default", Key the parameter,
// Uses the lines of the uses), as the most severe of them says (unconditional before
// conditional). For relations, containers, storage and resources: what a lookup names.
func (l *charmLinker) defaultRepeatsJoined() []Finding {
	type key struct{ kind, subject, file, class string }
	groups := map[key][]int{}
	for k, f := range l.findings {
		switch f.Kind {
		case FindUndeclaredRelation, FindUndeclaredContainer, FindUndeclaredStorage, FindUndeclaredResource:
		default:
			continue
		}
		if class, _, ok := strings.Cut(f.Symbol, "."); ok && f.Registered == "" && f.LookedUp == "" && f.Detail == "" {
			groups[key{f.Kind, f.Subject, f.File, class}] = append(groups[key{f.Kind, f.Subject, f.File, class}], k)
		}
	}
	drop := map[int]bool{}
	for g, ks := range groups {
		fi := l.ix.files[g.file]
		if len(ks) < 2 || fi == nil || fi.classes[g.class] == nil {
			continue
		}
		init := fi.classes[g.class].methods["__init__"]
		if init == nil {
			continue
		}
		k := slices.IndexFunc(init.Params, func(p pyextract.Param) bool {
			return p.Default != nil && p.Default.Kind == pyextract.ValStr && p.Default.Str == g.subject
		})
		if k < 0 {
			continue
		}
		worst := ks[0] // unconditional first, then on the usual path, then the first
		rank := func(f *Finding) int {
			switch {
			case !f.Conditional:
				return 0
			case f.AfterGuard:
				return 1
			}
			return 2
		}
		var uses []int
		for _, i := range ks {
			uses = append(uses, l.findings[i].Line)
			if rank(&l.findings[i]) < rank(&l.findings[worst]) {
				worst = i
			}
			drop[i] = true
		}
		slices.Sort(uses)
		f := l.findings[worst]
		f.Line, f.Symbol, f.Detail, f.Key, f.Uses = init.Line, g.class+".__init__", "default", init.Params[k].Name, slices.Compact(uses)
		l.findings = append(l.findings, f)
	}
	if len(drop) == 0 {
		return l.findings
	}
	out := make([]Finding, 0, len(l.findings)-len(drop))
	for i, f := range l.findings {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

// classicHooks is where a charm with no charm class registers its first charm-helpers hook
// function of its own (@hooks.hook('install'), "file:line"), or "": a classic charm, whose
// hooks run that code.
func (l *charmLinker) classicHooks() string {
	for fi, s := range l.topFunctions() { // in path order
		if fi.test {
			continue
		}
		for _, d := range s.Decorators {
			if name, _, _ := decoratorCall(d); name == "hook" {
				return fmt.Sprintf("%s:%d", fi.Path, s.Line)
			}
		}
	}
	return ""
}

// unmarkGuardedByTest clears AfterGuard of a finding that follows, in its function, a test
// for the same name (`if "ingress" not in self.model.relations: return`, itself a finding:
// always false) or a .get() of it (`if not self.config.get("x"): return`: always the
// default): the function returns there, and the code after the guard never runs (reviews
// rev106, rev107).
func (l *charmLinker) unmarkGuardedByTest() {
	for k := range l.findings {
		f := &l.findings[k]
		if !f.AfterGuard {
			continue
		}
		f.AfterGuard = !slices.ContainsFunc(l.findings, func(g Finding) bool {
			return g.Kind == f.Kind && g.Subject == f.Subject && g.File == f.File && g.Symbol == f.Symbol && (g.Detail == "in" || g.Detail == "get") && g.Line < f.Line
		})
	}
}

// markUnbuilt marks the findings in methods of classes no code of the tree names (NotBuilt):
// neither the class nor a subclass is referenced anywhere outside its own definition, so
// no code builds it, calls its static or class methods, or hands it to a validator. Dead
// code, or code run from outside the tree; a missing name there breaks no hook. Of the rest,
// it marks those in methods nothing names (NotCalled, uncalled).
func (l *charmLinker) markUnbuilt() {
	memo := map[*classInfo]bool{}
	for k := range l.findings {
		f := &l.findings[k]
		name, m, method := strings.Cut(f.Symbol, ".")
		fi := l.ix.files[f.File]
		if !method && fi != nil && name != "" {
			l.markDead(f, fi, fi.funcSyms[funcKey{"", name}], func(noTests bool) bool { return l.uncalledFunc(fi, name, noTests) })
			continue
		}
		if !method || fi == nil || fi.classes[name] == nil {
			continue
		}
		cls := fi.classes[name]
		if !l.isCharm(cls) { // a charm class is built by ops.main
			named, ok := memo[cls]
			if !ok {
				named = l.named(cls)
				memo[cls] = named
			}
			if f.NotBuilt = !named; f.NotBuilt {
				continue
			}
		}
		l.markDead(f, cls.file, cls.methods[m], func(noTests bool) bool { return l.uncalled(cls, m, noTests) })
	}
}

// markDead marks a finding in function or method sym of fi that never runs: NotCalled when
// nothing names it (uncalled, or only its own recursive calls do: deadSyms), else
// DeadCallers when only code that never runs calls it, else TestsOnly when, but for the
// tests, one of these would hold.
func (l *charmLinker) markDead(f *Finding, fi *fileInfo, sym *pyextract.Symbol, uncalled func(noTests bool) bool) {
	why := l.deadSyms(viewOf(fi, false))[sym]
	f.NotCalled = uncalled(false) || why == deadUncalled
	f.DeadCallers = !f.NotCalled && why == deadCallers
	f.TestsOnly = !f.NotCalled && !f.DeadCallers && !fi.test && (uncalled(true) || l.deadSyms(viewOf(fi, true))[sym] != 0)
}

// uncalled reports a method m of cls that no code of the tree names, tests included, and
// other charms' code too unless a charm's folder holds the class (their code cannot reach it:
// viewOf): no identifier or attribute (a file's Refs, ix.uses), no step of a fact's value
// chain nor a string naming it (getattr(self, "_configure"): ix.chainNamed), in a class whose every base
// the tree holds or ops provides (an outside base may call m by name), with no decorator that
// may register it (mayRegister), not a dunder (Python calls those) nor a name a framework calls
// (frameworkCalls), as the unobserved-handler rule asks, and in a tree where no code computes
// a method name (computedAttr: getattr(self, "_" + name)). With noTests, the tests' code
// does not count: a method only tests call is one the deployed charm never runs.
func (l *charmLinker) uncalled(cls *classInfo, m string, noTests bool) bool {
	return l.methodByNameOnly(cls, m, cls.methods[m]) && l.ix.namedNowhere(m, viewOf(cls.file, noTests), true)
}

// methodByNameOnly reports a method sym, named m, of cls that only code naming m can call:
// not a dunder (Python calls those), nor a name a framework calls (frameworkCalls), nor one
// no file's Refs counts (pyextract.Uncounted: exec, format, hash, open; review rev114), with no
// decorator that may register it (mayRegister), in a class whose every base the tree holds or
// ops provides (an outside base may call m by name) and whose files do not dispatch by
// computed names.
func (l *charmLinker) methodByNameOnly(cls *classInfo, m string, sym *pyextract.Symbol) bool {
	if sym == nil || strings.HasPrefix(m, "__") || slices.ContainsFunc(sym.Decorators, mayRegister) || frameworkCalls[m] || pyextract.Uncounted(m) {
		return false
	}
	for _, k := range l.mro(cls) {
		if k.openBases || k.file.dispatch {
			return false
		}
	}
	return true
}

// funcByNameOnly is methodByNameOnly for a module-level function of fi: not a dunder nor
// main, with no decorator that may register it, in a file that does not dispatch.
func funcByNameOnly(fi *fileInfo, name string, sym *pyextract.Symbol) bool {
	return sym != nil && !strings.HasPrefix(name, "__") && !slices.ContainsFunc(sym.Decorators, mayRegister) && !fi.dispatch && name != "main" &&
		!pyextract.Uncounted(name)
}

// deadSyms are the functions and methods of the code seen from v that never run, with why
// (deadUncalled, deadCallers): the methods of classes no code names (named), and the
// functions and methods callable by name only that no running code calls. Liveness flows
// forward: a candidate is live when code outside every candidate's body names it (a use
// beyond the calls of their bodies, Symbol.Calls), when a string may name it (getattr(self,
// "x"), patch.object) or an aliased import does (from m import f as g), and then so is every
// candidate its body calls; the rest never run: ceph-proxy's get_host_ip, called only by
// get_public_addr and two more helpers nothing calls (review rev112), and a helper only it
// itself, or one other dead helper, calls (recursion, review rev118). A module function's
// name counts only in its own file and the files importing that module (importers):
// charm-helpers' own get_host_ip does not call hooks/utils.py's. No name is dead in a tree
// that computes names.
func (l *charmLinker) deadSyms(v view) map[*pyextract.Symbol]deadWhy {
	if d, ok := l.dead[v]; ok {
		return d
	}
	type def struct {
		sym    *pyextract.Symbol
		name   string
		file   *fileInfo // a module function's file, nil for a method
		method bool
	}
	dead := map[*pyextract.Symbol]deadWhy{}
	var files []*fileInfo
	for _, fi := range l.ix.ordered {
		if l.ix.seenBy(fi, v) {
			files = append(files, fi)
		}
	}
	owner := map[*pyextract.Symbol]*fileInfo{}
	var open []def                 // callable by name only: live or dead as their callers are
	var bodies []*pyextract.Symbol // the candidates' bodies and the dead ones': their calls are not roots
	built := map[*classInfo]bool{}
	for _, fi := range files {
		if fi.test {
			continue // pytest calls tests' functions, and builds their classes, by name
		}
		for i := range fi.Symbols {
			s := &fi.Symbols[i]
			owner[s] = fi
			switch {
			case s.Kind == pyextract.KindFunction && s.Qualifier == "":
				if funcByNameOnly(fi, s.Name, s) {
					open = append(open, def{s, s.Name, fi, false})
					bodies = append(bodies, s)
				}
			case s.Kind == pyextract.KindMethod && fi.classes[s.Qualifier] != nil:
				cls, m := fi.classes[s.Qualifier], strings.TrimPrefix(s.Name, s.Qualifier+".")
				named, ok := built[cls]
				if !ok {
					// (a class of a file this charm's code does not hold, a sibling charm's
					// in a monorepo, is judged by that charm: named looks in this one's only)
					named = l.isCharm(cls) || !slices.Contains(l.scope, fi) || l.named(cls)
					built[cls] = named
				}
				switch {
				case !named:
					dead[s] = deadUncalled
					bodies = append(bodies, s)
				case l.methodByNameOnly(cls, m, s):
					open = append(open, def{s, m, nil, true})
					bodies = append(bodies, s)
				}
			}
		}
	}
	// the bodies' calls, per file and all files together
	bodyCalls := map[*fileInfo]map[string]int{}
	bodyTotal := map[string]int{}
	for _, s := range bodies {
		fi := owner[s]
		if bodyCalls[fi] == nil {
			bodyCalls[fi] = map[string]int{}
		}
		for _, c := range s.Calls {
			bodyCalls[fi][c.Name] += c.Count
			bodyTotal[c.Name] += c.Count
		}
	}
	// a module function's name counts in the files its module reaches (importers), and in a
	// file that neither defines nor imports the name (x.name() may be the module's function
	// reached otherwise); a method's, in every file seen from v
	res := l.resolveImports(files)
	reach := map[*pyextract.Symbol]map[*fileInfo]bool{}
	counts := func(d def, fi *fileInfo) bool {
		if d.file == nil {
			return true
		}
		if reach[d.sym] == nil {
			reach[d.sym] = importers(d.file, d.name, files, res)
		}
		return reach[d.sym][fi] || !ownNames(fi)[d.name]
	}
	live := map[*pyextract.Symbol]bool{}
	var queue []*pyextract.Symbol
	uses := make([]int, len(open))
	byName := map[string][]int{} // name → the candidates of that name
	for k, d := range open {
		byName[d.name] = append(byName[d.name], k)
		var fromBodies int
		if d.file == nil {
			uses[k], fromBodies = l.ix.uses(d.name, v), bodyTotal[d.name]
		} else {
			for _, fi := range files {
				if counts(d, fi) {
					uses[k] += fi.refCount(d.name)
					fromBodies += bodyCalls[fi][d.name]
				}
			}
		}
		// (a name no Refs hold may be a step of a fact's chain: self.x().y, a method only)
		if l.ix.computesNames(v, d.method) || l.ix.stringNamed(d.name, v) || l.ix.aliasNamed(d.name, v) ||
			uses[k] > fromBodies || uses[k] == 0 && d.method && l.ix.chainNamed(d.name, v) {
			live[d.sym] = true
			queue = append(queue, d.sym)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, c := range s.Calls {
			for _, k := range byName[c.Name] {
				if d := open[k]; !live[d.sym] && counts(d, owner[s]) {
					live[d.sym] = true
					queue = append(queue, d.sym)
				}
			}
		}
	}
	for k, d := range open {
		if live[d.sym] {
			continue
		}
		why := deadCallers
		if uses[k] == countOf(d.sym.Calls, d.name) {
			why = deadUncalled // (but for its own recursive calls)
		}
		dead[d.sym] = why
	}
	if l.dead == nil {
		l.dead = map[view]map[*pyextract.Symbol]deadWhy{}
	}
	l.dead[v] = dead
	return dead
}

// deadSite reports a site in a function or method of the tree that never runs (deadSyms,
// seen from its own file, tests included): kube-state-metrics' monitoring_address looks up
// the metrics-endpoint binding, and nothing calls it (review rev111).
func (l *charmLinker) deadSite(s Site) bool {
	fi := l.ix.files[s.File]
	if fi == nil || s.Symbol == "" {
		return false
	}
	cls, fn, method := strings.Cut(s.Symbol, ".")
	if !method {
		cls, fn = "", cls
	}
	sym := fi.funcSyms[funcKey{cls, fn}]
	return sym != nil && l.deadSyms(viewOf(fi, false))[sym] != 0
}

// Why deadSyms holds a function dead.
type deadWhy int8

const (
	deadUncalled deadWhy = 1 + iota // no code that may reach it names it
	deadCallers                     // only code that never runs calls it
)

// importers are, of files, those whose code may call module function name of fi by its
// name: fi itself, the files importing fi's module (import m, from m import name, from m
// import *, from pkg import m), and, to a fixed point, those importing the name from one of
// these (a re-export). res holds each file's imports resolved (resolveImports).
func importers(fi *fileInfo, name string, files []*fileInfo, res map[*fileInfo][]resolvedImport) map[*fileInfo]bool {
	in := map[*fileInfo]bool{fi: true}
	for changed := true; changed; {
		changed = false
		for _, g := range files {
			if in[g] {
				continue
			}
			if slices.ContainsFunc(res[g], func(r resolvedImport) bool {
				return r.module != nil && in[r.module] && (r.name == "" || r.name == name || r.name == "*") || r.sub != nil && in[r.sub]
			}) {
				in[g] = true
				changed = true
			}
		}
	}
	return in
}

// ownNames are the names fi's module level binds: its top-level definitions, the names it
// imports and those it assigns (a bare use of one is that, not another module's function).
func ownNames(fi *fileInfo) map[string]bool {
	if fi.own == nil {
		fi.own = map[string]bool{}
		for _, s := range fi.Symbols {
			if s.Qualifier == "" {
				fi.own[s.Name] = true
			}
		}
		for _, im := range fi.Imports {
			fi.own[cmp.Or(im.Alias, im.Name)] = true
		}
		for _, a := range fi.Facts.Assigns { // get_host_ip = ip.get_host_ip
			if a.Func == "" && a.Class == "" && len(a.Target) == 1 {
				fi.own[a.Target[0].Name] = true
			}
		}
	}
	return fi.own
}

// resolvedImport is an import of a file with what it names in the tree: the module's file
// (import m, from m import x), the name imported ("" for import m), and the file of
// module.name when that is a module (from pkg import m).
type resolvedImport struct {
	module, sub *fileInfo
	name        string
}

// resolveImports resolves the imports of files to the tree's files, for importers.
func (l *charmLinker) resolveImports(files []*fileInfo) map[*fileInfo][]resolvedImport {
	out := map[*fileInfo][]resolvedImport{}
	for _, g := range files {
		for _, im := range g.Imports {
			r := resolvedImport{module: l.ix.module(g, im.Module, g.charm), name: im.Name}
			if im.Name != "" && im.Name != "*" {
				r.sub = l.ix.module(g, im.Module+"."+im.Name, g.charm)
			}
			if r.module != nil || r.sub != nil {
				out[g] = append(out[g], r)
			}
		}
	}
	return out
}

// uncalledFunc is uncalled for a module-level function of fi (hooks/utils.py's get_networks,
// copied from a sibling charm and never called): no decorator that may register it
// (mayRegister: a hook or reactive handler is registered by one), not a dunder, in a file that does not dispatch by computed
// names, and no code of the tree names it nor computes names, tests included, and other
// charms' code too unless a charm's folder holds fi (a monorepo's ceph-mon calls its own
// get_public_addr, not ceph-proxy's copy: viewOf); with noTests, tests' code does not count.
func (l *charmLinker) uncalledFunc(fi *fileInfo, name string, noTests bool) bool {
	return funcByNameOnly(fi, name, fi.funcSyms[funcKey{"", name}]) && l.ix.namedNowhere(name, viewOf(fi, noTests), false)
}

// mayRegister reports a decorator that may register the function it decorates, to be called
// by name (a hook, a reactive handler, a route): any but the memoizers, which only wrap it
// (charm-helpers' @cached, functools' cache and lru_cache), and Python's own property,
// staticmethod and classmethod (a property is read by its name).
func mayRegister(decorator string) bool {
	d, _, _ := strings.Cut(decorator, "(")
	switch strings.TrimPrefix(d[strings.LastIndexByte(d, '.')+1:], "@") {
	case "cached", "cache", "lru_cache",
		// nor those that make it a property, a class's or a static method: still called by name
		"property", "cached_property", "setter", "getter", "deleter", "staticmethod", "classmethod":
		return false
	}
	return true
}

// frameworkCalls are method names ops and pydantic call on a charm's classes: an event's
// snapshot and restore (ops saves and re-emits deferred events), a model's model_post_init.
var frameworkCalls = map[string]bool{"snapshot": true, "restore": true, "model_post_init": true}

// named reports whether any file of the scope refers to cls's name or to one of its
// subclasses' (a file's Refs do not hold the names it defines), other than by building it in
// classes that are not named themselves (a copied package's dead BrokerOperator builds the
// copy's KRaftHandler: both are dead).
func (l *charmLinker) named(cls *classInfo) bool {
	return l.namedFrom(cls, map[*classInfo]bool{})
}

// namedFrom is named, with the classes whose names are being looked for up the construction
// chain (visiting): one built only by those, in a cycle, is not named by them.
func (l *charmLinker) namedFrom(cls *classInfo, visiting map[*classInfo]bool) bool {
	visiting[cls] = true
	defer delete(visiting, cls)
	names := map[string]bool{cls.name: true}
	for _, fi := range l.scope {
		for _, k := range fi.classes {
			if k != cls && slices.Contains(l.mro(k), cls) {
				names[k.name] = true
			}
		}
	}
	for _, fi := range l.scope {
		for _, r := range fi.Refs {
			if names[r.Name] && r.Count > 0 && !l.bindsElsewhere(fi, r.Name, cls) && !l.builtOnlyByDead(fi, r, cls, visiting) {
				return true
			}
		}
	}
	return false
}

// builtOnlyByDead reports whether every use r of a name of cls in fi builds it in a method of
// a class no code names (namedFrom): a construction in a module function, in cls itself or in
// a charm class counts as a use, and so does anything but a construction.
func (l *charmLinker) builtOnlyByDead(fi *fileInfo, r pyextract.Ref, cls *classInfo, visiting map[*classInfo]bool) bool {
	n := 0
	for _, s := range l.byClass[cls] {
		if s.file != fi || lastName(s.value.Chain) != r.Name {
			continue
		}
		if s.cls == nil || s.cls == cls || l.isCharm(s.cls) || !visiting[s.cls] && l.namedFrom(s.cls, visiting) {
			return false
		}
		n++
	}
	return n > 0 && n == r.Count
}

// bindsElsewhere reports a file in which name n is a class of the tree other than cls and its
// subclasses, one it defines or imports from another module: its uses of n are that class's
// (kafka's src/charm.py builds the BrokerOperator of src/events/broker.py, which says nothing of
// the namesake in a copied package no code imports).
func (l *charmLinker) bindsElsewhere(fi *fileInfo, n string, cls *classInfo) bool {
	other := func(k *classInfo) bool { return k != nil && k != cls && !slices.Contains(l.mro(k), cls) }
	if k := fi.classes[n]; k != nil {
		return other(k)
	}
	im, ok := fi.imports[n]
	if !ok || im.Name == "" {
		return false
	}
	m := l.ix.module(fi, im.Module, l.charm)
	return m != nil && other(m.classes[im.Name])
}

func sortHandlers(hs []Handler) []Handler {
	slices.SortFunc(hs, func(a, b Handler) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Event, b.Event),
			cmp.Compare(a.Symbol, b.Symbol), cmp.Compare(a.Via, b.Via),
			cmp.Compare(a.ObserveFile, b.ObserveFile), cmp.Compare(a.ObserveLine, b.ObserveLine),
			compareBool(a.Conditional, b.Conditional), cmp.Compare(a.AfterReturn, b.AfterReturn))
	})
	hs = slices.Compact(hs)
	// A handler also observed without a condition for the same event runs whenever the event
	// comes: its conditional records add nothing and would be reported as conditional.
	type handled struct {
		event, symbol, file string
		line                int
	}
	always := map[handled]bool{}
	for _, h := range hs {
		if !h.Conditional {
			always[handled{h.Event, h.Symbol, h.File, h.Line}] = true
		}
	}
	hs = slices.DeleteFunc(hs, func(h Handler) bool { return h.Conditional && always[handled{h.Event, h.Symbol, h.File, h.Line}] })
	if len(hs) == 0 {
		hs = []Handler{}
	}
	return hs
}

func compareSites(a, b Site) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Symbol, b.Symbol),
		cmp.Compare(a.Via, b.Via), cmp.Compare(a.Detail, b.Detail), cmp.Compare(a.Key, b.Key),
		compareBool(a.Conditional, b.Conditional))
}

func sortSites(ss []Site) []Site {
	slices.SortFunc(ss, compareSites)
	ss = slices.Compact(ss)
	if ss == nil {
		ss = []Site{}
	}
	return ss
}

func sortFindings(fs []Finding) []Finding {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(compareSites(a.Site, b.Site), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Subject, b.Subject))
	})
	return slices.CompactFunc(fs, func(a, b Finding) bool { return reflect.DeepEqual(a, b) }) // (Actions is a slice)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// reactiveModule is the charms.reactive framework's package.
const reactiveModule = "charms.reactive"

// reactiveImport is where a handler module of the charm's own (a file in a reactive/ folder,
// where charm-build puts the layers' handlers; tests and libraries aside) first imports
// charms.reactive, as "file:line", or "" for none: a stray script of an ops charm that imports
// it does not make the charm reactive.
func (l *charmLinker) reactiveImport() string {
	for _, fi := range l.scope {
		if fi.test || fi.library || !inFolderNamed(fi.Path, "reactive") {
			continue
		}
		for _, im := range fi.Imports {
			if ImportsReactive(im) {
				return fmt.Sprintf("%s:%d", fi.Path, im.Line)
			}
		}
	}
	return ""
}

// ImportsReactive reports an import of the charms.reactive framework: import charms.reactive,
// from charms.reactive[.flags] import when, from charms import reactive.
func ImportsReactive(im pyextract.Import) bool {
	return im.Module == reactiveModule || strings.HasPrefix(im.Module, reactiveModule+".") ||
		im.Name != "" && joinModule(im.Module, im.Name) == reactiveModule
}
