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
			if name, _ := decoratorCall(d); name == "hook" {
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
			f.NotCalled = l.uncalledFunc(fi, name, false)
			f.TestsOnly = !f.NotCalled && !fi.test && l.uncalledFunc(fi, name, true)
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
		f.NotCalled = l.uncalled(cls, m, false)
		f.TestsOnly = !f.NotCalled && !cls.file.test && l.uncalled(cls, m, true)
	}
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
	sym := cls.methods[m]
	if sym == nil || strings.HasPrefix(m, "__") || slices.ContainsFunc(sym.Decorators, mayRegister) || frameworkCalls[m] {
		return false
	}
	for _, k := range l.mro(cls) {
		if k.openBases || k.file.dispatch {
			return false
		}
	}
	return l.ix.namedNowhere(m, viewOf(cls.file, noTests), true)
}

// uncalledFunc is uncalled for a module-level function of fi (hooks/utils.py's get_networks,
// copied from a sibling charm and never called): no decorator that may register it
// (mayRegister: a hook or reactive handler is registered by one), not a dunder, in a file that does not dispatch by computed
// names, and no code of the tree names it nor computes names, tests included, and other
// charms' code too unless a charm's folder holds fi (a monorepo's ceph-mon calls its own
// get_public_addr, not ceph-proxy's copy: viewOf); with noTests, tests' code does not count.
func (l *charmLinker) uncalledFunc(fi *fileInfo, name string, noTests bool) bool {
	sym := fi.funcSyms[funcKey{"", name}]
	if sym == nil || strings.HasPrefix(name, "__") || slices.ContainsFunc(sym.Decorators, mayRegister) || fi.dispatch || name == "main" {
		return false
	}
	return l.ix.namedNowhere(name, viewOf(fi, noTests), false)
}

// mayRegister reports a decorator that may register the function it decorates, to be called
// by name (a hook, a reactive handler, a route): any but the memoizers, which only wrap it
// (charm-helpers' @cached, functools' cache and lru_cache).
func mayRegister(decorator string) bool {
	d, _, _ := strings.Cut(decorator, "(")
	switch strings.TrimPrefix(d[strings.LastIndexByte(d, '.')+1:], "@") {
	case "cached", "cache", "lru_cache":
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
