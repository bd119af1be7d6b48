package linker

// Action parameters: what an action's handler, and the helpers it hands the event or its
// params to, read from event.params (or charm-helpers' action_get), matched against the
// parameters the action declares.

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// linkParams: event.params[...] / .get(...) inside a method observed for an action, or a
// helper it hands its event to (handedActions), is a read of that action's parameter; a
// parameter none of its actions declares is a finding (not in a helper that may run for
// actions the linker does not know), unless the same function stores it into the params
// itself (event.params["disk_devices"] = event.params["disk-devices"].split()): it reads back
// its own value.
func (l *charmLinker) linkParams() {
	runs, partial := l.handedActions()
	params := map[string]map[string]bool{}
	for _, a := range l.ch.Actions {
		params[a.Name] = map[string]bool{}
		for _, p := range a.Params {
			params[a.Name][p.Name] = true
		}
	}
	stored := map[scopeKey]map[string]bool{}
	for _, fi := range l.scope {
		for i := range fi.Facts.Stores {
			k := &fi.Facts.Stores[i]
			sk := scopeKey{fi.Path, k.Class, k.Func}
			if len(runs[sk]) == 0 || !l.paramsObject(fi, k) {
				continue
			}
			names, _ := l.strVals(&k.Key, &ctx{file: fi, cls: fi.classes[k.Class], fn: k.Func, line: k.Line})
			for _, n := range names {
				if stored[sk] == nil {
					stored[sk] = map[string]bool{}
				}
				stored[sk][n.str] = true
			}
		}
	}
	l.paramsUnsure = map[string]bool{}
	unsure := func(actions []string) {
		for _, act := range actions {
			l.paramsUnsure[act] = true
		}
	}
	for sk := range partial {
		unsure(runs[sk])
	}
	for _, fi := range l.scope {
		for i := range fi.Facts.Keys {
			k := &fi.Facts.Keys[i]
			actions := runs[scopeKey{fi.Path, k.Class, k.Func}]
			if len(actions) == 0 || !l.paramsObject(fi, k) {
				continue
			}
			if k.Via == "all" {
				unsure(actions)
				continue
			}
			at := siteAt(fi, k.Scope, ViaParam, k.Via)
			names, ok := l.strVals(&k.Key, &ctx{file: fi, cls: fi.classes[k.Class], fn: k.Func, line: k.Line})
			if !ok && len(names) == 0 {
				l.unresolvedKey(fi, at, k)
				unsure(actions)
				continue
			}
			if slices.ContainsFunc(names, func(n aval) bool { return n.loose }) {
				unsure(actions) // a name among several, or fitted to an f-string's text
			}
			for _, n := range names {
				read := false
				for _, act := range actions {
					if params[act][n.str] {
						s := at
						s.Key = n.str
						l.read(KindAction, act, s)
						read = true
					}
				}
				if sk := (scopeKey{fi.Path, k.Class, k.Func}); !read && !fi.vendored && !n.loose && !stored[sk][n.str] && !partial[sk] {
					if f := l.find(FindUndeclaredParam, n.str, at); f != nil {
						f.SeveralActions, f.Actions = len(actions) > 1, slices.Sorted(slices.Values(actions))
					}
				}
			}
		}
	}
}

// linkUnreadParams marks (Interface.ParamsUnread) each action that declares parameters and
// whose handler never looks at them: an operator's value is ignored, as munge's
// rotate-munge-key generated a new key whatever munge-key said. Only what can be told for
// sure: no parameter of the action is read, and every handler of it is a plain method of the
// charm's own code (plainHandler) that names no params (namesNoParams). Or (Interface.ParamsNotRead) the
// parameters such a handler (plainHandler) never reads when it reads others, each by a key
// the linker resolved, and nothing running for the action uses the params whole or by a key
// not known (paramsUnsure).
func (l *charmLinker) linkUnreadParams() {
	for _, a := range l.ch.Actions {
		it := l.ifaces[ifaceKey{KindAction, a.Name}]
		if len(a.Params) == 0 || it == nil || len(it.Handlers) == 0 || it.Script != "" || it.Extension != "" {
			continue
		}
		read := map[string]bool{}
		for _, s := range it.Reads {
			if s.Via == ViaParam {
				read[s.Key] = true
			}
		}
		first, ok := "", true
		for _, h := range it.Handlers {
			fi := l.ix.files[h.File]
			if h.Via != ViaObserve && h.Via != ViaIndex || fi == nil || fi.library || fi.vendored || fi.test || !l.plainHandler(fi, h) ||
				len(read) == 0 && !l.namesNoParams(fi, h) {
				ok = false
				break
			}
			first = cmp.Or(first, h.Symbol)
		}
		switch {
		case !ok:
		case len(read) == 0:
			it.ParamsUnread = first
		case !l.paramsUnsure[a.Name]:
			// it reads some, each by a key written out: the others it never reads (cloudsupport's
			// stop-vms reads cloud-name, compute-node and force-all, never i-really-mean-it, its
			// safety catch: review rev101)
			for _, p := range a.Params {
				if !read[p.Name] {
					it.ParamsNotRead = append(it.ParamsNotRead, p.Name)
				}
			}
			if len(it.ParamsNotRead) > 0 {
				it.ParamsUnread = first
			}
		}
	}
}

// plainHandler reports a handler whose reads of its action's parameters the linker sees
// whole. It must be a def of its own (not a function imported into the class: livepatch's
// `from actions.enable import on_enable_action` in the class body, which pyextract keeps as a
// method), undecorated (a decorator may read them), observed for this action alone (not a
// dispatcher: kubernetes-control-plane's charm_actions picks a function by the event's kind),
// observing nothing itself (not a registrar of a lambda around the real handler: ceph-mon's
// _observe_action), not so long that its words were cut short, calling no charm-helpers
// action_get, and using its parameters only as attributes' objects (pyextract
// Symbol.ParamsHanded: an event handed to any call, stored or returned may be read where the
// linker cannot follow, since pyextract records few calls; review rev97).
func (l *charmLinker) plainHandler(fi *fileInfo, h Handler) bool {
	class, fn := handlerScope(h)
	sym := fi.funcSyms[funcKey{class, fn}]
	if sym == nil || sym.Kind != pyextract.KindMethod && sym.Kind != pyextract.KindFunction || sym.Line != h.Line ||
		!strings.HasPrefix(sym.Signature, "def ") && !strings.HasPrefix(sym.Signature, "async def ") ||
		len(l.actions[scopeKey{fi.Path, class, fn}]) != 1 || sym.ParamsHanded || len(sym.Words) >= pyextract.MaxSymbolWords {
		return false
	}
	for i := range fi.Facts.Observes {
		if o := &fi.Facts.Observes[i]; o.Class == class && o.Func == fn {
			return false
		}
	}
	for i := range fi.Facts.Calls {
		if c := &fi.Facts.Calls[i]; c.Class == class && c.Func == fn {
			if n := lastName(c.Value.Chain); n == "action_get" || n == "function_get" {
				return false
			}
		}
	}
	return true
}

// namesNoParams reports a handler whose words name no params (event.params, load_params,
// **event.params): one that reads none of them, when the linker found no read.
func (l *charmLinker) namesNoParams(fi *fileInfo, h Handler) bool {
	sym := l.handlerSym(fi, h)
	return sym != nil && !slices.ContainsFunc(sym.Words, func(w string) bool { return w == "params" || w == "param" || w == "parameters" })
}

// handlerSym is the symbol of handler h in fi, nil when fi has none of its name.
func (l *charmLinker) handlerSym(fi *fileInfo, h Handler) *pyextract.Symbol {
	class, fn := handlerScope(h)
	return fi.funcSyms[funcKey{class, fn}]
}

// handlerScope is the class ("" for a function) and the function name of handler h.
func handlerScope(h Handler) (class, fn string) {
	class, fn, _ = strings.Cut(h.Symbol, ".")
	if fn == "" {
		class, fn = "", class
	}
	return class, fn
}

// handedActions is l.actions, the actions each handler runs for, with the helpers a handler
// hands a parameter of its own to (self._pick_pools(event), asyncio.run(self._create(event)),
// a function of its module given the charm, pick(self, event)), and theirs in turn: such a
// helper reads the action's parameters from the event it is given. A helper that several handlers call runs
// for all their actions. partial holds the helpers some use of which the linker did not
// follow (another object's method hands it the event of an action not known here): they may
// run for other actions too, so a name none of theirs declares is no finding.
func (l *charmLinker) handedActions() (runs map[scopeKey][]string, partial map[scopeKey]bool) {
	runs = maps.Clone(l.actions)
	type edge struct{ from, to scopeKey }
	var edges []edge
	calls := map[scopeKey]map[fileLine]bool{} // helper -> the followed calls of it
	queue := slices.SortedFunc(maps.Keys(l.actions), func(a, b scopeKey) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.class, b.class), cmp.Compare(a.fn, b.fn))
	})
	done := map[scopeKey]bool{}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		fi := l.ix.files[k.file]
		if fi == nil {
			continue
		}
		caller := fi.funcSyms[funcKey{k.class, k.fn}]
		for i := range fi.Facts.Calls {
			c := &fi.Facts.Calls[i]
			if c.Class != k.class || c.Func != k.fn || !handsParam(caller, &c.Value) {
				continue
			}
			callee, ok := l.handedTo(fi, k.class, c.Value.Chain)
			if !ok || callee == k {
				continue
			}
			if !done[k] {
				edges = append(edges, edge{k, callee})
				if calls[callee] == nil {
					calls[callee] = map[fileLine]bool{}
				}
				calls[callee][fileLine{k.file, c.Line}] = true
			}
			grown := false
			for _, a := range runs[k] {
				if !slices.Contains(runs[callee], a) {
					runs[callee] = append(runs[callee], a)
					grown = true
				}
			}
			if grown {
				queue = append(queue, callee)
			}
		}
		done[k] = true
	}
	partial = map[scopeKey]bool{}
	for k, at := range calls {
		if _, handler := l.actions[k]; !handler && len(at) < l.scopeUses(k.fn) {
			partial[k] = true
		}
	}
	for grown := true; grown; {
		grown = false
		for _, e := range edges {
			if _, handler := l.actions[e.to]; partial[e.from] && !handler && !partial[e.to] {
				partial[e.to], grown = true, true
			}
		}
	}
	return runs, partial
}

// handsParam reports whether call v passes a parameter of fn (not self) as it is.
func handsParam(fn *pyextract.Symbol, v *pyextract.Value) bool {
	if fn == nil {
		return false
	}
	given := func(a *pyextract.Value) bool {
		return a.Kind == pyextract.ValChain && len(a.Chain) == 1 && a.Chain[0].Name != "self" &&
			slices.ContainsFunc(fn.Params, func(p pyextract.Param) bool { return p.Name == a.Chain[0].Name })
	}
	for i := range v.Args {
		if given(&v.Args[i]) {
			return true
		}
	}
	for i := range v.Kwargs {
		if given(&v.Kwargs[i].Value) {
			return true
		}
	}
	return false
}

// handedTo is the function a call from class (of file fi) names: self.m, the method m of the
// class or the nearest base defining it, or f, a module-level function of the tree (moduleFunc:
// of the same module, imported by name, or mod.f of an imported module).
func (l *charmLinker) handedTo(fi *fileInfo, class string, callee pyextract.Chain) (scopeKey, bool) {
	switch {
	case len(callee) == 2 && callee[0].Name == "self":
		if fi.classes[class] == nil {
			break
		}
		for _, k := range l.mro(fi.classes[class]) {
			if k.methods[callee[1].Name] != nil {
				return scopeKey{k.file.Path, k.name, callee[1].Name}, true
			}
		}
	default:
		if sym, m := l.moduleFunc(fi, callee); sym != nil {
			return scopeKey{m.Path, "", sym.Name}, true
		}
	}
	return scopeKey{}, false
}

// helperParamGets are charm-helpers' accessors of the running action's parameters:
// action_get("x") and function_get("x"), its newer name, which classic and reactive charms
// call from their action scripts.
var helperParamGets = map[string]bool{
	"charmhelpers.core.hookenv.action_get":   true,
	"charmhelpers.core.hookenv.function_get": true,
}

// linkHelperParams links action_get("x") (or function_get, or action_get(key="x"), or
// args["x"] / args.get("x") of args = action_get(), the dict of every parameter) in the
// charm's code to the parameter x of the actions that code runs for: those the function
// handles (an ops observe or a table of actions, linkActionTables, which runs first), or
// else those whose script is the file, or whose shell script runs the module of its name
// beside it (actions/snap-upgrade and snap-upgrade.py); a name none of them declares is a
// finding, as action_get returns None for it. Code that runs for no action known (a helper
// module shared by several scripts) reads x of the one action declaring it, and a name no
// action declares is a finding (NoAction); one that several declare is read from none. A
// dotted name (action_get("backup.path")) reads its first part; a name that cannot be
// resolved is recorded as unresolved. A dict that the name may also hold something else
// (params = json.loads(...) on another line, a fallback dict) is read loosely: linked, never
// a finding.
func (l *charmLinker) linkHelperParams() {
	if len(l.ch.Actions) == 0 {
		return
	}
	params := map[string][]string{} // parameter -> the actions declaring it, in YAML order
	scripts := map[string][]string{}
	for _, a := range l.ch.Actions {
		for _, p := range a.Params {
			params[p.Name] = append(params[p.Name], a.Name)
		}
		if a.Script == "" {
			continue
		}
		scripts[a.Script] = append(scripts[a.Script], a.Name)
		if !strings.HasSuffix(a.Script, ".py") {
			// actions/snap-upgrade, a shell wrapper that runs actions/snap-upgrade.py (or
			// snap_upgrade.py): that module is the action's code
			dir := path.Dir(a.Script)
			for _, py := range []string{a.Name + ".py", strings.ReplaceAll(a.Name, "-", "_") + ".py"} {
				p := path.Join(dir, py)
				scripts[p] = appendUniq(scripts[p], a.Name)
			}
		}
	}
	tables := map[scopeKey][]string{}
	for _, a := range l.ch.Actions {
		if it := l.ifaces[ifaceKey{KindAction, a.Name}]; it != nil {
			for _, h := range it.Handlers {
				if h.Via == ViaTable {
					k := scopeKey{h.File, "", h.Symbol}
					tables[k] = appendUniq(tables[k], a.Name)
				}
			}
		}
	}
	// read links the parameter key names, read at sc (expr as written), to the actions the
	// code runs for
	read := func(fi *fileInfo, sc pyextract.Scope, key *pyextract.Value, expr string, loose bool) {
		runs := l.actions[scopeKey{fi.Path, sc.Class, sc.Func}]
		if len(runs) == 0 {
			runs = tables[scopeKey{fi.Path, sc.Class, sc.Func}]
		}
		if len(runs) == 0 {
			runs = scripts[fi.Path]
		}
		at := siteAt(fi, sc, ViaParam, expr)
		for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
			names, ok := l.strVals(key, c)
			if !ok && len(names) == 0 {
				if !fi.vendored {
					l.unresolved = append(l.unresolved, at)
				}
				continue
			}
			for _, n := range names {
				name, _, _ := strings.Cut(n.str, ".")
				declaring := params[name]
				if len(runs) > 0 {
					declaring = slices.DeleteFunc(slices.Clone(declaring), func(a string) bool { return !slices.Contains(runs, a) })
				}
				if len(declaring) == 0 {
					if !fi.vendored && !n.loose && !loose {
						if f := l.findIn(FindUndeclaredParam, name, at, c); f != nil {
							f.NoAction, f.SeveralActions = len(runs) == 0, len(runs) > 1
							f.Actions = slices.Sorted(slices.Values(runs))
						}
					}
					continue
				}
				if len(declaring) > 1 && len(runs) == 0 {
					continue // a helper's read of a name several actions declare: which is not known
				}
				s := at
				s.Key = name
				for _, a := range declaring {
					l.read(KindAction, a, s)
				}
			}
		}
	}
	getter := func(fi *fileInfo, v *pyextract.Value) bool {
		if v.Kind != pyextract.ValCall || len(v.Chain) == 0 {
			return false
		}
		full, _ := importedPath(fi, v.Chain)
		return helperParamGets[full]
	}
	get := func(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) {
		if fi.test || !getter(fi, v) {
			return
		}
		switch {
		case len(v.Args) > 0:
			read(fi, sc, &v.Args[0], v.String(), false)
		default: // action_get(key="host")
			if k := slices.IndexFunc(v.Kwargs, func(kw pyextract.Kwarg) bool { return kw.Name == "key" }); k >= 0 {
				read(fi, sc, &v.Kwargs[k].Value, v.String(), false)
			}
		}
	}
	for _, fi := range l.scope {
		for i := range fi.Facts.Calls { // (an assigned action_get("x") is one too)
			get(fi, fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		if fi.test {
			continue
		}
		// params = action_get() (or action_get() or {}): every parameter, a dict whose keys
		// the code then reads, params["x"] or params.get("x")
		for i := range fi.Facts.Keys {
			k := &fi.Facts.Keys[i]
			if k.Via != "index" && k.Via != "get" {
				continue
			}
			expr := keyExpr(k)
			if n := len(k.Object); n >= 2 && k.Object[n-1].Call && getter(fi, &pyextract.Value{Kind: pyextract.ValCall, Chain: k.Object[:n-1]}) {
				read(fi, k.Scope, &k.Key, expr, false) // action_get().get("dry-run"): read in place
				continue
			}
			if len(k.Object) != 1 {
				continue
			}
			var vals []*pyextract.Value // what the name may hold: its assignments in the function, or the module's
			if k.Func != "" {
				as, _ := fi.local(funcKey{k.Class, k.Func}, k.Object[0].Name, k.Line)
				for _, a := range as {
					vals = append(vals, &a.Value)
				}
			} else if k.Class == "" {
				vals = fi.consts[k.Object[0].Name] // args = action_get() in a script's top level
			}
			dict := func(v *pyextract.Value) bool {
				if v.Kind == pyextract.ValOr && len(v.Args) > 0 {
					v = &v.Args[0]
				}
				return len(v.Args) == 0 && len(v.Kwargs) == 0 && getter(fi, v)
			}
			if slices.ContainsFunc(vals, dict) {
				// (also another dict, or `or {...}` a fallback that holds what it holds)
				other := slices.ContainsFunc(vals, func(v *pyextract.Value) bool {
					return !dict(v) || v.Kind == pyextract.ValOr && slices.ContainsFunc(v.Args[1:], func(x pyextract.Value) bool {
						return x.Kind != pyextract.ValDict || len(x.Kwargs) > 0
					})
				})
				read(fi, k.Scope, &k.Key, expr, other)
			}
		}
	}
}

// paramsObject: k reads X.params, or a local bound to X.params.
func (l *charmLinker) paramsObject(fi *fileInfo, k *pyextract.KeyAccess) bool {
	if lastName(k.Object) == "params" && len(k.Object) > 1 {
		return true
	}
	if len(k.Object) != 1 {
		return false
	}
	as, _ := fi.local(funcKey{k.Class, k.Func}, k.Object[0].Name, k.Line)
	for _, a := range as {
		if v := &a.Value; v.Kind == pyextract.ValChain && lastName(v.Chain) == "params" {
			return true
		}
	}
	return false
}
