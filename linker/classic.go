package linker

// Classic and reactive charms: charm-helpers' @hooks.hook functions, charms.reactive's
// @when handlers and flags, hook scripts Juju runs by name, action dispatch tables, the
// lookups of charm-helpers and charms.reactive by name or flag, and the last resort for an ops
// charm, handlers named _on_<relation>_relation_<event>.

import (
	"iter"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// linkNaming is the last resort for a declared relation nothing else links: first-party
// methods named _on_<endpoint>_relation_<event>.
func (l *charmLinker) linkNaming() {
	var byEndpoint map[string][]Handler // built on first need
	for _, r := range l.ch.Relations {
		it := l.ifaces[ifaceKey{KindRelation, r.Name}]
		if it == nil || len(it.Handlers) > 0 || len(it.Reads) > 0 {
			continue
		}
		if byEndpoint == nil {
			byEndpoint = l.namedHandlers()
		}
		it.Handlers = append(it.Handlers, byEndpoint[norm(r.Name)]...)
	}
}

// linkActionTables links a declared action that nothing observes to the function a table of
// the charm's code maps its name to: a module-level dict whose key is the action's name and
// whose value names a module-level function of the tree (ACTIONS = {"cluster-kick":
// cluster_kick, "remove-services": cinder_manage.remove_services}, the dispatch of classic and
// reactive charms, whose actions/<name> scripts call a main that looks their own name up in
// it): of the same module, imported by name, or of an imported module (moduleFunc). Not in
// libraries, and not to a library's function.
func (l *charmLinker) linkActionTables() {
	pending := map[string]*Interface{}
	for _, a := range l.ch.Actions {
		if it := l.ifaces[ifaceKey{KindAction, a.Name}]; it != nil && len(it.Handlers) == 0 {
			pending[a.Name] = it
		}
	}
	if len(pending) == 0 {
		return
	}
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for i := range fi.Facts.Assigns {
			a := &fi.Facts.Assigns[i]
			if a.Func != "" || a.Class != "" || a.Value.Kind != pyextract.ValDict {
				continue
			}
			linked := 0
			var others []string // keys mapped to a function of the tree that name no declared action
			for _, kw := range a.Value.Kwargs {
				if kw.Value.Kind != pyextract.ValChain {
					continue
				}
				sym, in := l.moduleFunc(fi, kw.Value.Chain)
				if sym == nil || in.library {
					continue
				}
				if it := pending[kw.Name]; it != nil {
					it.Handlers = append(it.Handlers, Handler{Event: kw.Name, Symbol: sym.Name, File: in.Path, Line: sym.Line, Via: ViaTable,
						ObserveFile: fi.Path, ObserveLine: a.Line})
					linked++
				} else if _, declared := l.lookup(KindAction, kw.Name); !declared && kw.Name != "" {
					others = append(others, kw.Name)
				}
			}
			// (one declared action is enough in a module an actions/<name> link runs: a table
			// of two that lost an entry or a declaration, review rev109's barbican)
			if linked < 2 && !(linked == 1 && l.actionScript(fi)) || !l.readAsTable(fi, a) {
				continue // a dict that maps names to functions, not surely the actions' table
			}
			l.tableGaps(fi, a, others, pending)
		}
	}
}

// actionScript reports a module that a declared action's own script is (actions/<name>, or a
// link of it to the module): Juju runs it for that action.
func (l *charmLinker) actionScript(fi *fileInfo) bool {
	return slices.ContainsFunc(l.ch.Actions, func(a charmyaml.Action) bool {
		it := l.ifaces[ifaceKey{KindAction, a.Name}]
		return it != nil && it.Script == fi.Path
	})
}

// readAsTable reports a dict a that is surely the whole dispatch table of its module, so that
// what it lacks is lacking (review rev106): every key a string written out, no item of it set
// elsewhere (ACTIONS["security-checklist"] = ...), and the module using it (ACTIONS[name]),
// not a dict nothing reads.
func (l *charmLinker) readAsTable(fi *fileInfo, a *pyextract.Assign) bool {
	if len(a.Target) != 1 {
		return false
	}
	name := a.Target[0].Name
	for _, kw := range a.Value.Kwargs {
		if kw.Name == "" || kw.Key != nil {
			return false
		}
	}
	for i := range fi.Facts.Assigns {
		if b := &fi.Facts.Assigns[i]; b.Item && len(b.Target) == 1 && b.Target[0].Name == name {
			return false
		}
	}
	for i := range fi.Facts.Stores {
		if k := &fi.Facts.Stores[i]; len(k.Object) == 1 && k.Object[0].Name == name {
			return false
		}
	}
	// used once (ACTIONS[name], as every table of the 500 trees is): more uses may add to it
	// or read it otherwise
	return fi.refCount(name) == 1
}

// branchesOn reports a module with a branch of its own for the string s (if name ==
// "openstack-upgrade": ...): a script that runs an action outside its table.
func branchesOn(fi *fileInfo, s string) bool {
	return slices.ContainsFunc(fi.Facts.Narrows, func(n pyextract.Narrowing) bool {
		return n.Value.Kind == pyextract.ValStr && n.Value.Str == s ||
			n.Value.Kind == pyextract.ValSeq && slices.ContainsFunc(n.Value.Args, func(v pyextract.Value) bool { return v.Kind == pyextract.ValStr && v.Str == s })
	})
}

// tableGaps reports what a dispatch table a (one that maps two or more declared actions to
// functions of the tree) lacks or has too much (review rev104): each declared action whose own
// script is the table's module and which the table does not map (NotInTable: the script's main
// looks its name up there and fails, "Action pause undefined"), and each key naming no declared
// action (others: `juju run` rejects the name, so the entry never runs), an undeclared-action
// finding at the table (Detail "table", the table's name in Key).
func (l *charmLinker) tableGaps(fi *fileInfo, a *pyextract.Assign, others []string, pending map[string]*Interface) {
	name := a.Target.String()
	for _, act := range l.ch.Actions {
		it := l.ifaces[ifaceKey{KindAction, act.Name}]
		if it == nil || it.Script != fi.Path || len(it.Handlers) > 0 || pending[act.Name] == nil || branchesOn(fi, act.Name) {
			continue
		}
		it.NotInTable = &Site{File: fi.Path, Line: a.Line, Key: name}
	}
	if fi.test || fi.vendored {
		return
	}
	for _, k := range others {
		l.find(FindUndeclaredAction, k, Site{File: fi.Path, Line: a.Line, Detail: "table", Key: name})
	}
}

// moduleFunc resolves ch, as written in fi, to a module-level function of the tree: one of fi
// (cluster_kick), one fi imports by name (from manage import remove_services), or one of a
// module fi imports (cinder_manage.remove_services). Nil when it is none of these.
func (l *charmLinker) moduleFunc(fi *fileInfo, ch pyextract.Chain) (*pyextract.Symbol, *fileInfo) {
	fn := func(m *fileInfo, name string) (*pyextract.Symbol, *fileInfo) {
		if sym := m.funcSyms[funcKey{"", name}]; sym != nil && sym.Kind == pyextract.KindFunction {
			return sym, m
		}
		return nil, nil
	}
	switch {
	case len(ch) == 1 && ch[0].Name != "":
		if sym, m := fn(fi, ch[0].Name); sym != nil {
			return sym, m
		}
		if im, ok := fi.imports[ch[0].Name]; ok && im.Name != "" {
			if m := l.ix.module(fi, im.Module, l.charm); m != nil {
				return fn(m, im.Name)
			}
		}
	case len(ch) == 2 && ch[0].Name != "" && ch[1].Name != "":
		for _, a := range l.chain(ch[:1], &ctx{file: fi}) {
			if a.kind == aModule && a.file != nil {
				return fn(a.file, ch[1].Name)
			}
		}
	}
	return nil, nil
}

// linkDecorated links a declared relation to the module functions of the charm's code that run
// on its hooks or flags, as their decorators say:
//   - charm-helpers' hook registry, @hooks.hook('db-relation-joined', ...) (any decorator named
//     hook): a hook of the relation; of a lifecycle event (@hooks.hook('config-changed'), also
//     charms.reactive's @hook('upgrade-charm')), a handler of that event;
//   - a reactive handler, @when('endpoint.db.joined'), @when_any('db.available', ...)
//     (when, when_all, when_any: not when_not or when_none, which wait for the flag's absence):
//     a flag of the relation, named by its interface layer after the endpoint (db.available) or
//     by charms.reactive's Endpoint (endpoint.db.joined); and @when_not('endpoint.db.joined'),
//     the idiom for the relation gone (the handler that cleans up after it);
//   - a reactive handler of an option's flag (configFlag: @when('config.changed.port')) reads
//     the option (Site.Detail "flag").
//
// Not in libraries; a relation the charm's ops code already handles keeps those handlers only.
func (l *charmLinker) linkDecorated(own map[string]bool) {
	declared := map[string]*Interface{}
	for _, r := range l.ch.Relations {
		if it := l.ifaces[ifaceKey{KindRelation, r.Name}]; it != nil && len(it.Handlers) == 0 {
			declared[r.Name] = it
		}
	}
	wrapped := map[string][]string{} // a script's name → the hooks of the charm's that run it
	for _, hook := range slices.Sorted(maps.Keys(l.ix.runs)) {
		if path.Dir(path.Dir(hook)) == l.ch.Dir {
			for _, run := range l.ix.runs[hook] {
				wrapped[run] = append(wrapped[run], path.Base(hook))
			}
		}
	}
	for fi, s := range l.topFunctions() {
		for _, d := range s.Decorators {
			name, args, joined := decoratorCall(d)
			args = append(args, l.constArgs(fi, d)...)
			if name == "hook" && len(args) == 0 && strings.HasSuffix(strings.TrimSpace(d), "()") {
				// @hooks.hook(): charm-helpers registers the function's name as the hook's
				// (def db_relation_changed() is db-relation-changed)
				args = []string{strings.ReplaceAll(s.Name, "_", "-")}
			}
			for _, a := range args {
				var rels []string // the relations the decorator's argument names
				var via string
				event := a
				if opt, ok := configFlag(name, a); ok {
					if decl, ok := l.lookup(KindConfig, opt); ok {
						l.read(KindConfig, decl, Site{File: fi.Path, Line: s.Line, Symbol: s.Name, Via: ViaConfig, Detail: "flag"})
					} else if !fi.test && !fi.vendored && !own[a] {
						// layer:basic sets config.changed.<opt> for the options the built charm
						// declares only: waiting for another's, the handler never runs for it
						if f := l.find(FindUndeclaredConfig, opt, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
							f.Registered, f.Joined = a, joined[a]
						}
					}
					continue
				}
				if joined[a] && (name == "hook" && !wellFormedHook(a) || strings.HasPrefix(name, "when") && badEndpointFlag(a)) {
					// @hooks.hook('install' 'config-changed'), @when_any('endpoint.db.joined'
					// 'endpoint.db.changed'): one name no hook or flag has, for a comma
					// missing; it never runs for either (review rev121)
					if !fi.test && !fi.vendored {
						if f := l.find(FindUnknownEvent, a, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
							f.Registered, f.Joined = a, true
						}
					}
					continue
				}
				switch name {
				case "hook":
					if bad := unknownHookEvent(a); bad {
						// @hooks.hook('db-relation-chnaged'): no hook Juju runs, so the
						// function never runs for it (review rev104: 7 of 7 such typos passed)
						if !fi.test && !fi.vendored {
							if f := l.find(FindUnknownEvent, a, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
								f.Registered, f.Joined = a, joined[a]
							}
						}
					} else if ep, _, ok := strings.Cut(a, "-relation-"); ok {
						rels, via = []string{ep}, ViaHook
						if eps, ok := l.hookTemplate(ep); ok {
							rels = eps // @hook('{interface:mysql}-relation-joined'): each endpoint of it
						}
					} else if st, _, ok := cutLast(a, "-storage-"); ok {
						// @hook('data-storage-attached'): a hook of the storage
						if it, _ := l.hookInterface(a); it != nil {
							l.hookHandler(it, a, fi, s)
						} else if d, declared := l.lookup(KindStorage, st); (!declared || asWrittenOnly(st, d)) && !fi.test && !fi.vendored {
							if f := l.find(FindUndeclaredStorage, st, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
								f.Registered, f.Joined = a, joined[a]
							}
						}
					} else if kind, ev, ok := eventKind(strings.ReplaceAll(strings.TrimSuffix(a, ".real"), "-", "_")); ok && kind == KindLifecycle {
						// @hooks.hook('config-changed'), charms.reactive's @hook('upgrade-charm'):
						// a lifecycle event, as ops' observe of self.on.config_changed is
						// ('install.real': the Python half of a charm whose install hook is a
						// shell script that runs it)
						l.hookHandler(l.iface(KindLifecycle, ev), a, fi, s)
					}
					// the name of a script a hook's shell script runs (storage.real, which
					// hooks/data-storage-attached -> storage.bootstrap runs once the workload
					// is installed): a handler of each such hook
					for _, hook := range wrapped[a] {
						if it, kind := l.hookInterface(hook); it != nil && (kind != KindRelation || declared[it.Name] != nil) {
							l.hookHandler(it, a, fi, s)
						}
					}
				case "when", "when_all", "when_any":
					if ep := flagEndpoint(a); ep != "" && !own[a] && !joined[a] {
						rels, via = []string{ep}, ViaFlag
					}
				case "when_not", "when_none":
					// charms.reactive's idiom for a relation gone: @when_not("endpoint.db.joined")
					// runs once no unit of db is joined (containerd's remove_registry)
					if ep := flagEndpoint(a); ep != "" && a == "endpoint."+ep+".joined" {
						rels, via, event = []string{ep}, ViaFlag, "not "+a
					}
				}
				// A hook function registered for several hooks of the relation (keystone's
				// @hooks.hook('identity-credentials-relation-joined',
				// 'identity-credentials-relation-changed'), or nova-cloud-controller's two
				// stacked @hooks.hook decorators) runs on each: one handler per hook, as an
				// ops handler observed for two events is two. A reactive handler of several
				// flags (@when_any('endpoint.website.joined', 'endpoint.website.changed'))
				// keeps its first: flags are states the handler waits for, not events.
				same := func(h Handler) bool {
					return h.Symbol == s.Name && h.File == fi.Path && (via != ViaHook || h.Event == a)
				}
				for _, rel := range rels {
					if it := declared[rel]; it != nil && !slices.ContainsFunc(it.Handlers, same) {
						it.Handlers = append(it.Handlers, Handler{Event: event, Symbol: s.Name, File: fi.Path, Line: s.Line, Via: via})
					}
					// a hook of an endpoint the YAML does not declare never runs, nor does a
					// handler of charms.reactive's endpoint.X flags (an interface layer's
					// X.available may be another layer's flag, not an endpoint's)
					// (as written: Juju names the hooks, charms.reactive the flags, after the
					// endpoint's own spelling)
					// (an interface layer's flag of a name a letter or two from a declared
					// relation's, and from no other, is that relation's, misspelt: @when("etcdd.available"))
					if d, ok := l.lookup(KindRelation, rel); (!ok || asWrittenOnly(rel, d)) && !fi.test && !fi.vendored &&
						(via == ViaHook || strings.HasPrefix(a, "endpoint.") || via == ViaFlag && !ok && l.nearRelation(rel)) {
						if f := l.find(FindUndeclaredRelation, rel, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
							f.Registered, f.Joined = a, joined[a]
						}
					}
				}
			}
		}
	}
}

// splatRE finds a *NAME argument in a decorator's arguments, and nameArgRE a NAME or
// module.NAME one (not a keyword's name, nor a call's).
var (
	splatRE   = regexp.MustCompile(`(?:^|[(,\s])\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[,)]|$)`)
	nameArgRE = regexp.MustCompile(`(?:^|[(,])\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:[,)]|$)`)
)

// constArgs are the strings of the constant arguments of decorator d, in fi's module: those of
// a *NAME argument, NAME a list or tuple of strings (literals or constants)
// (@reactive.when(*COMPLETE_INTERFACE_STATES), the OpenStack reactive charms' idiom), which
// the call receives as its arguments, and a NAME or module.NAME argument that is a string
// constant, of the module or imported (@reactive.when(mysql_router.DB_ROUTER_AVAILABLE)).
func (l *charmLinker) constArgs(fi *fileInfo, d string) []string {
	_, rest, ok := strings.Cut(d, "(")
	if !ok {
		return nil
	}
	rest = withoutStrings(rest)
	var out []string
	strs := func(v *pyextract.Value, c *ctx) {
		vals, _ := l.strVals(v, c)
		for _, v := range vals {
			if !v.loose {
				out = append(out, v.str)
			}
		}
	}
	for _, m := range splatRE.FindAllStringSubmatch(rest, -1) {
		for _, x := range l.eval(&pyextract.Value{Kind: pyextract.ValChain, Chain: pyextract.Chain{{Name: m[1]}}}, &ctx{file: fi}) {
			if x.kind != aSeq || x.seq.Kind != pyextract.ValSeq {
				continue
			}
			for i := range x.seq.Args {
				strs(&x.seq.Args[i], x.at)
			}
		}
	}
	for _, m := range nameArgRE.FindAllStringSubmatch(rest, -1) {
		var chain pyextract.Chain
		for _, n := range strings.Split(m[1], ".") {
			chain = append(chain, pyextract.Step{Name: strings.TrimSpace(n)})
		}
		if chain[0].Name == "True" || chain[0].Name == "False" || chain[0].Name == "None" {
			continue
		}
		strs(&pyextract.Value{Kind: pyextract.ValChain, Chain: chain}, &ctx{file: fi})
	}
	return out
}

// withoutStrings is s with its quoted strings emptied (a '*' in a flag's name is no splat).
func withoutStrings(s string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			continue
		case c == '\'' || c == '"':
			q = c
		}
		b.WriteByte(c)
	}
	return b.String()
}

// hookTemplate expands the endpoint part of a charms.reactive hook template,
// "{interface:block-storage}" (every endpoint of that interface) or "{requires:mysql}",
// "{provides:http}", "{peers:cluster}" (those of the role too), to the charm's endpoints; ok
// is false for a plain endpoint name.
func (l *charmLinker) hookTemplate(ep string) (eps []string, ok bool) {
	if !strings.HasPrefix(ep, "{") || !strings.HasSuffix(ep, "}") {
		return nil, false
	}
	inner := ep[1 : len(ep)-1]
	role, iface, ok := strings.Cut(inner, ":")
	if !ok || role != "interface" && role != charmyaml.RoleRequires && role != charmyaml.RoleProvides && role != charmyaml.RolePeers {
		return nil, false
	}
	for _, r := range l.ch.Relations {
		if r.Interface == iface && (role == "interface" || r.Role == role) {
			eps = append(eps, r.Name)
		}
	}
	return eps, true
}

// linkHookScripts links a Python script of the charm's own named for a hook, hooks/<hook>
// (old charms keep one script per hook, which Juju runs by its name:
// hooks/db-relation-changed), as the handler of that hook: a declared relation's or
// storage's, or a lifecycle event's; its Symbol is the script's path. A hook that is a
// symbolic link to a script of the charm's under another name (Input.HookLinks: charm-helpers'
// hooks/install -> hooks.py) is that script's, unless the script dispatches to functions
// registered for hooks (@hooks.hook("install"), linked as such) or is an ops charm's (it
// imports ops, whose observers are linked). Not in a reactive charm, whose hooks/ scripts all
// run the reactive dispatcher.
func (l *charmLinker) linkHookScripts(reactive bool) {
	if reactive {
		return
	}
	for _, fi := range l.scope {
		if fi.library || fi.test {
			continue
		}
		rel := l.ix.charmRel(fi)
		if path.Dir(rel) != "hooks" || !charmyaml.HookScriptName(rel) || fi.Errors > 0 && len(fi.Symbols) == 0 && len(fi.Refs) == 0 && len(fi.Imports) == 0 {
			continue // not a hook script of the charm's, or one the parser found no Python in
		}
		l.linkHookScript(path.Base(rel), fi)
	}
	var registers map[string]bool // scripts holding functions registered for hooks
	for _, link := range slices.Sorted(maps.Keys(l.ix.hooks)) {
		fi := l.ix.files[l.ix.hooks[link]]
		if fi == nil || fi.library || fi.test || path.Dir(path.Dir(link)) != l.ch.Dir || !inDir(fi.Path, l.ch.Dir) ||
			slices.ContainsFunc(fi.Imports, importsOps) {
			continue
		}
		if registers == nil {
			registers = map[string]bool{}
			for _, it := range l.ifaces {
				for _, h := range it.Handlers {
					if h.Via == ViaHook {
						registers[h.File] = true
					}
				}
			}
		}
		if !registers[fi.Path] {
			l.linkHookScript(path.Base(link), fi)
		}
	}
}

// linkHookScript links the script fi as the handler of hook, when the hook is a declared
// relation's or storage's, or a lifecycle event's.
func (l *charmLinker) linkHookScript(hook string, fi *fileInfo) {
	if it, _ := l.hookInterface(hook); it != nil && !slices.ContainsFunc(it.Handlers, func(h Handler) bool { return h.File == fi.Path && h.Event == hook }) {
		it.Handlers = append(it.Handlers, Handler{Event: hook, Symbol: fi.Path, File: fi.Path, Line: 1, Via: ViaHookScript})
	}
}

// hookInterface is the interface that Juju runs the hook named hook for, and its kind: a
// declared relation's (db-relation-changed) or storage's (data-storage-attached), or a
// lifecycle event's (install); nil for another name.
func (l *charmLinker) hookInterface(hook string) (*Interface, string) {
	// (as written: Juju names a hook after the endpoint or storage as the YAML spells it)
	if ep, ev, ok := strings.Cut(hook, "-relation-"); ok {
		if d, ok := l.lookup(KindRelation, ep); ok && d == ep && slices.Contains(relationEvents, "relation_"+ev) {
			return l.ifaces[ifaceKey{KindRelation, d}], KindRelation
		}
	} else if st, ev, ok := cutLast(hook, "-storage-"); ok {
		if d, ok := l.lookup(KindStorage, st); ok && d == st && slices.Contains(storageEvents, "storage_"+ev) {
			return l.ifaces[ifaceKey{KindStorage, d}], KindStorage
		}
	} else if kind, ev, ok := eventKind(strings.ReplaceAll(hook, "-", "_")); ok && kind == KindLifecycle {
		return l.iface(KindLifecycle, ev), KindLifecycle
	}
	return nil, ""
}

// hookHandler adds function s of fi, registered for hook name a, to it's handlers, once.
func (l *charmLinker) hookHandler(it *Interface, a string, fi *fileInfo, s *pyextract.Symbol) {
	if !slices.ContainsFunc(it.Handlers, func(h Handler) bool { return h.Symbol == s.Name && h.File == fi.Path }) {
		it.Handlers = append(it.Handlers, Handler{Event: a, Symbol: s.Name, File: fi.Path, Line: s.Line, Via: ViaHook})
	}
}

// importsOps reports an import of the ops framework (import ops, from ops.main import main).
func importsOps(im pyextract.Import) bool {
	return !im.TypeOnly && (im.Module == "ops" || strings.HasPrefix(im.Module, "ops."))
}

// ownFlags are the reactive flags the charm's own code sets, set_flag("docker.ready") or
// set_state(...) with a literal name: states of the charm itself, which a handler waits for
// (@when("docker.ready")), not flags an interface layer or charms.reactive's Endpoint sets for
// a relation, however their first word reads ("docker" is also the charm's relation to its
// principal). Flags of charms.reactive's Endpoint ("endpoint.docker.joined") are never the
// charm's own.
func (l *charmLinker) ownFlags(reactive bool) map[string]bool {
	out := map[string]bool{}
	for _, fi := range l.scope {
		if !l.ownCode(fi, reactive) {
			continue
		}
		for i := range fi.Facts.Calls {
			v := &fi.Facts.Calls[i].Value
			if n := lastName(v.Chain); (n == "set_flag" || n == "set_state") && len(v.Args) > 0 && v.Args[0].Kind == pyextract.ValStr &&
				!strings.HasPrefix(v.Args[0].Str, "endpoint.") {
				out[v.Args[0].Str] = true
			}
		}
	}
	return out
}

// ownCode reports a file of the charm's own code: not a library, except, in a reactive
// charm, its lib/charms/layer/ (its own layer's library, ghost's lib/charms/layer/ghost.py,
// not a vendored one).
func (l *charmLinker) ownCode(fi *fileInfo, reactive bool) bool {
	return !fi.library || reactive && strings.HasPrefix(l.ix.charmRel(fi), "lib/charms/layer/")
}

// topFunctions yields the module-level functions of the charm's code outside libraries, tests
// included, in path and source order: where charm-helpers and charms.reactive register hook
// and flag handlers by decorator.
func (l *charmLinker) topFunctions() iter.Seq2[*fileInfo, *pyextract.Symbol] {
	return func(yield func(*fileInfo, *pyextract.Symbol) bool) {
		for _, fi := range l.scope {
			if fi.library {
				continue
			}
			for i := range fi.Symbols {
				if s := &fi.Symbols[i]; s.Kind == pyextract.KindFunction && s.Qualifier == "" && !yield(fi, s) {
					return
				}
			}
		}
	}
}

// namedLookups are the functions of charms.reactive and charm-helpers that look a relation up
// by a flag of it (endpoint.db.joined, db.available) or by its name, or a storage by its name,
// each with the kind it looks up, whether it takes a flag (else a name as written), the
// keyword its argument may be given as, and whether it takes an endpoint's network binding,
// which may also be one of the charm's extra-bindings or juju-info.
var namedLookups = map[string]struct {
	kind    string
	flag    bool
	keyword string
	binding bool
}{
	"endpoint_from_flag": {KindRelation, true, "flag", false},
	"is_flag_set":        {KindRelation, true, "flag", false},
	// the older charms.reactive's names for the same (ghost's RelationBase.from_state("database.available"))
	"is_state":           {KindRelation, true, "state", false},
	"from_state":         {KindRelation, true, "state", false},
	"endpoint_from_name": {KindRelation, false, "endpoint_name", false},
	"relation_ids":       {KindRelation, false, "reltype", false},
	// charm-helpers' relations_of_type("nrpe-external-master"): every unit's data on it
	"relations_of_type": {KindRelation, false, "reltype", false},
	// charm-helpers' storage_list('osd-devices') (ceph-osd), the ids of a storage's instances;
	// not storage_get('location', sid), which takes an instance's id ("osd-devices/0"), never
	// written out
	"storage_list": {KindStorage, false, "storage_name", false},
	// charm-helpers' is_relation_made("ha"): whether the relation has units with data
	"is_relation_made": {KindRelation, false, "relation", false},
	// charm-helpers' addresses of an endpoint's binding: get_relation_ip("cluster"),
	// network_get_primary_address("public"), network_get("admin", relation_id=None)
	"get_relation_ip":             {KindRelation, false, "interface", true},
	"network_get_primary_address": {KindRelation, false, "binding", true},
	"network_get":                 {KindRelation, false, "endpoint", true},
}

// flagEndpoint is the endpoint a reactive flag names: db in "endpoint.db.joined" and
// "db.available"; "" for a flag of one word.
func flagEndpoint(flag string) string {
	rest, endpoint := strings.CutPrefix(flag, "endpoint.")
	ep, _, ok := strings.Cut(rest, ".")
	if !ok || !endpoint && layerFlags[ep] {
		return ""
	}
	return ep
}

// layerFlags are the namespaces of the flags layers set of themselves (layer:basic's
// config.changed and apt.installed.x, layer:leadership's leadership.is_leader): a relation
// named like one ("config") is not what such a flag is about.
var layerFlags = map[string]bool{"config": true, "leadership": true, "apt": true, "snap": true, "charm": true, "layer": true}

// linkNamedLookups records, as lookups (detail "flag"), the calls of the charm's code that
// look a declared relation or storage up through charms.reactive or charm-helpers:
// endpoint_from_flag("ovsdb-cms.connected"), is_flag_set("db.available"),
// endpoint_from_name("db"), relation_ids("cluster"), relations_of_type("monitors"),
// is_relation_made("ha"), get_relation_ip("cluster") (a binding, as the network_get
// functions take: an extra-binding's name is no finding), storage_list("osd-devices"). A name
// nothing declares is a finding (LookedUp) when the call names it exactly: a name as written,
// or a flag of charms.reactive's endpoint.<name>.* namespace; not another flag, since flags
// name many things (check hedges what a reactive charm's included layers may declare).
func (l *charmLinker) linkNamedLookups(reactive bool, own map[string]bool) {
	for _, fi := range l.scope {
		if !l.ownCode(fi, reactive) {
			continue
		}
		look := func(sc pyextract.Scope, v *pyextract.Value) {
			if v.Kind != pyextract.ValCall {
				return
			}
			if reactive && lastName(v.Chain) == "use_defaults" {
				l.useDefaults(fi, sc, v)
				return
			}
			named, ok := namedLookups[lastName(v.Chain)]
			var arg *pyextract.Value
			switch {
			case !ok:
				return
			case len(v.Args) > 0:
				arg = &v.Args[0]
			default: // relation_ids(reltype="db"), endpoint_from_flag(flag="db.available")
				for k := range v.Kwargs {
					if v.Kwargs[k].Name == named.keyword {
						arg = &v.Kwargs[k].Value
					}
				}
			}
			if arg == nil || arg.Kind != pyextract.ValStr || own[arg.Str] {
				return // is_flag_set("docker.ready") of a flag the charm sets itself
			}
			name := arg.Str
			if named.flag {
				name = flagEndpoint(arg.Str)
			}
			d, ok := l.lookup(named.kind, name)
			if ok {
				l.read(named.kind, d, siteAt(fi, sc, ViaLookup, "flag"))
			}
			if exact := !named.flag || strings.HasPrefix(arg.Str, "endpoint."); (!ok || asWrittenOnly(name, d)) && exact &&
				name != "" && !fi.vendored && !(named.kind == KindRelation && name == jujuInfo) &&
				!(named.binding && slices.ContainsFunc(l.ch.ExtraBindings, func(b charmyaml.Binding) bool { return b.Name == name })) {
				if f := l.find(undeclaredKind[named.kind], name, siteAt(fi, sc, ViaLookup, "")); f != nil {
					f.LookedUp = lastName(v.Chain)
				}
			}
		}
		for i := range fi.Facts.Calls {
			look(fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		for i := range fi.Facts.Assigns {
			look(fi.Facts.Assigns[i].Scope, &fi.Facts.Assigns[i].Value)
		}
		if reactive {
			l.requiredRelations(fi)
		}
	}
}

// requiredRelations links the relations a charms.openstack charm class lists in its
// required_relations class attribute (['shared-db', 'amqp', CERT_RELATION]): the library waits
// for each one's flags before it reports the unit ready. A name the YAML does not declare is
// no finding: most are the included layers' (layer:openstack-api's shared-db, amqp and
// identity-service), which the built charm's YAML merges in, and on the 460 trees every one
// was such an info, bar one misspelt name.
func (l *charmLinker) requiredRelations(fi *fileInfo) {
	for _, name := range sortedKeys(fi.classes) {
		cl := fi.classes[name]
		for _, a := range cl.attrs["required_relations"] {
			if a.value.Kind != pyextract.ValSeq {
				continue
			}
			sc := pyextract.Scope{Class: cl.name, Line: a.line}
			for i := range a.value.Args {
				names, _ := l.strVals(&a.value.Args[i], &ctx{file: fi, cls: cl})
				for _, n := range names {
					if n.loose {
						continue
					}
					if d, ok := l.lookup(KindRelation, n.str); ok {
						l.read(KindRelation, d, siteAt(fi, sc, ViaLookup, "flag"))
					}
				}
			}
		}
	}
}

// useDefaults links the relations a charms.openstack charm names in use_defaults(
// 'shared-db.connected', 'identity-service.available', ...): the library registers its
// default handlers for those flags (requesting the database, registering the endpoints), so
// each flag of a declared relation is a lookup of it (detail "flag"). As with
// required_relations, a flag of a relation the YAML does not declare is no finding: the
// included layers declare most.
func (l *charmLinker) useDefaults(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) {
	for i := range v.Args {
		if a := &v.Args[i]; a.Kind == pyextract.ValStr {
			if ep := flagEndpoint(a.Str); ep != "" {
				if d, ok := l.lookup(KindRelation, ep); ok {
					l.read(KindRelation, d, siteAt(fi, sc, ViaLookup, "flag"))
				}
			}
		}
	}
}

// configFlag is the option a reactive flag of layer:basic's config names, config.changed.<opt>,
// config.set.<opt> or config.default.<opt>, under any when decorator (a handler waiting for an
// option to be unset reads it as much as one waiting for it to change).
func configFlag(decorator, flag string) (string, bool) {
	if !strings.HasPrefix(decorator, "when") {
		return "", false
	}
	for _, p := range []string{"config.changed.", "config.set.", "config.default."} {
		if opt, ok := strings.CutPrefix(flag, p); ok && opt != "" {
			return opt, true
		}
	}
	return "", false
}

// decoratorCall splits a decorator as written ("reactive.when('db.available', 'x')") into
// its last name ("when") and its string literal arguments. Adjacent literals are one
// argument, as Python joins them: @when_any('config.changed.a' 'config.changed.b') waits
// for the one flag "config.changed.aconfig.changed.b" (a comma left out, review rev116:
// layer-sentry's email handler never ran); joined holds such arguments.
func decoratorCall(d string) (name string, args []string, joined map[string]bool) {
	head, rest, ok := strings.Cut(d, "(")
	if !ok {
		return "", nil, nil
	}
	if k := strings.LastIndexByte(head, '.'); k >= 0 {
		head = head[k+1:]
	}
	adjacent := false // the literal read last ended where only spaces stand before this one
	for {
		k := strings.IndexAny(rest, `'"`)
		if k < 0 {
			return head, args, joined
		}
		q := rest[k]
		end := strings.IndexByte(rest[k+1:], q)
		if end < 0 {
			return head, args, joined
		}
		lit := rest[k+1 : k+1+end]
		if adjacent && strings.TrimLeft(rest[:k], " \t\n\rbfruBFRU") == "" {
			args[len(args)-1] += lit
			if joined == nil {
				joined = map[string]bool{}
			}
			joined[args[len(args)-1]] = true
		} else {
			args = append(args, lit)
		}
		adjacent = true
		rest = rest[k+2+end:]
	}
}

// namedHandlers maps an endpoint (with underscores) to the first-party methods named
// _on_<endpoint>_relation_<event>.
func (l *charmLinker) namedHandlers() map[string][]Handler {
	out := map[string][]Handler{}
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for i := range fi.Symbols {
			s := &fi.Symbols[i]
			meth, ok := strings.CutPrefix(strings.TrimPrefix(s.Name, s.Qualifier+"."), "_on_")
			if s.Kind != pyextract.KindMethod || !ok {
				continue
			}
			for _, ev := range relationEvents {
				if ep, found := strings.CutSuffix(meth, "_"+ev); found && ep != "" {
					out[ep] = append(out[ep], Handler{Event: meth, Symbol: s.Name, File: fi.Path, Line: s.Line, Via: ViaNaming})
				}
			}
		}
	}
	return out
}

// unknownHookEvent reports a hook name of a relation or storage whose event part is none Juju
// runs (db-relation-chnaged, data-storage-atached; a ".real" script's name is the hook's).
func unknownHookEvent(hook string) bool {
	h := strings.TrimSuffix(hook, ".real")
	if strings.ContainsAny(h, "{}") {
		return false // a charms.reactive template ({interface:mysql}, data-storage-{attached,detaching})
	}
	// at the last separator: a storage named object-storage-data has hooks
	// object-storage-data-storage-attached (review rev106)
	if ep, ev, ok := cutLast(h, "-relation-"); ok && ep != "" {
		return !slices.Contains(relationEvents, "relation_"+strings.ReplaceAll(ev, "-", "_"))
	}
	if st, ev, ok := cutLast(h, "-storage-"); ok && st != "" {
		return !slices.Contains(storageEvents, "storage_"+strings.ReplaceAll(ev, "-", "_"))
	}
	return false
}

// wellFormedHook reports a hook name of a lifecycle event, or <name>-relation-<event> or
// <name>-storage-<event> of one relation's or storage's event (the name holding no
// "-relation-" of its own): what adjacent literals joined by a missing comma are not
// ("installconfig-changed", "db-relation-joinedcache-relation-changed").
func wellFormedHook(hook string) bool {
	h := strings.TrimSuffix(hook, ".real")
	if kind, _, ok := eventKind(strings.ReplaceAll(h, "-", "_")); ok && (kind == KindLifecycle || kind == KindSecret || kind == KindStatus) || classicHooks[h] {
		return true // a lifecycle, secret or status event's, or another hook Juju runs
	}
	if ep, _, ok := cutLast(h, "-relation-"); ok && ep != "" {
		return !strings.Contains(ep, "-relation-") && !unknownHookEvent(h)
	}
	if st, _, ok := cutLast(h, "-storage-"); ok && st != "" {
		return !unknownHookEvent(h)
	}
	return strings.ContainsAny(h, "{}") // a charms.reactive template
}

// classicHooks are hooks Juju runs that ops names no event of here (lifecycleEvents has the
// others: pre-series-upgrade, collect-metrics).
var classicHooks = map[string]bool{"meter-status-changed": true, "leader-deposed": true}

// badEndpointFlag reports two of charms.reactive's endpoint.<name>.<state> flags joined into
// one ("endpoint.db.joinedendpoint.db.changed"); a state of several words is one flag
// (endpoint.db.changed.field, endpoint.database.postgresql.requested: review rev125).
func badEndpointFlag(flag string) bool {
	rest, ok := strings.CutPrefix(flag, "endpoint.")
	return ok && strings.Contains(rest, "endpoint.")
}

// cutLast is strings.Cut at the last sep: a storage's name may hold "-storage-" itself
// (object-storage-data's hook object-storage-data-storage-attached).
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}
