package linker

// Lookups by name: model.get_relation(X), model.relations[X], unit.get_container(X),
// model.storages[X], resources.fetch(X), charm-helpers' config(X) and resource_get(X), each X
// resolved to a declared interface or reported undeclared; and the helpers the read passes
// of the other files share.

import (
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

func (l *charmLinker) read(kind, name string, s Site) {
	it := l.iface(kind, name)
	it.Reads = append(it.Reads, s)
}

// lookupCalls and lookupKeys are the calls and key reads that look an interface up, with
// the name of the step before them (model.get_relation, unit.get_container, meta.storages).
var (
	lookupCalls = map[string]struct{ kind, owner string }{
		"get_relation":  {KindRelation, "model"},
		"get_relations": {KindRelation, "model"},
		"get_container": {KindContainer, "unit"},
		"fetch":         {KindResource, "resources"},
	}
	lookupKeys = map[string]string{"relations": KindRelation, "storages": KindStorage, "containers": KindContainer}
	keyOwners  = map[string]bool{"model": true, "meta": true, "unit": true}
)

func ownerName(s string) string { return strings.TrimLeft(s, "_") }

// importsSDI reports a file importing serialized_data_interface (get_interfaces).
func importsSDI(fi *fileInfo) bool {
	return slices.ContainsFunc(fi.Imports, func(im pyextract.Import) bool {
		return im.Module == "serialized_data_interface" || strings.HasPrefix(im.Module, "serialized_data_interface.")
	})
}

// linkLookups: model.get_relation(X), model.relations[X] (or .get(X, default)), unit.get_container(X),
// model/meta.storages[X], model.resources.fetch(X).
func (l *charmLinker) linkLookups() {
	for _, fi := range l.scope {
		for i := range fi.Facts.Calls {
			c := &fi.Facts.Calls[i]
			l.lookupCall(fi, c.Scope, &c.Value)
		}
		for i := range fi.Facts.Assigns {
			a := &fi.Facts.Assigns[i]
			if a.Value.Kind == pyextract.ValCall {
				l.lookupCall(fi, a.Scope, &a.Value)
			}
		}
		for i := range fi.Facts.Keys {
			k := &fi.Facts.Keys[i]
			n := len(k.Object)
			if n < 1 || k.Via != "index" && k.Via != "get" && k.Via != "in" { // relations["db"], relations.get("db", []), "db" in relations
				continue
			}
			if n == 1 && k.Object[0].Name == "interfaces" && k.Via != "in" && importsSDI(fi) {
				// interfaces = get_interfaces(self); interfaces["object-storage"]: the Kubeflow
				// charms' serialized_data_interface keys its requirers and providers by
				// relation name (review rev124: mlflow, kubeflow-profiles, zenml-server)
				l.lookupName(fi, k.Scope, KindRelation, &k.Key, keyExpr(k), k.Via == "index", ViaLookup, "")
				continue
			}
			if n < 2 {
				continue
			}
			kind, ok := lookupKeys[k.Object[n-1].Name]
			if ok && keyOwners[ownerName(k.Object[n-2].Name)] {
				detail := ""
				switch {
				case k.Asserted:
					detail = "assert"
				case k.Via == "in":
					detail = "in"
				}
				l.lookupName(fi, k.Scope, kind, &k.Key, keyExpr(k), k.Via == "index", ViaLookup, detail)
			}
		}
	}
}

func (l *charmLinker) lookupCall(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) {
	if l.helperConfigRead(fi, sc, v) || l.helperResourceGet(fi, sc, v) || l.helperConfigureSources(fi, sc, v) {
		return
	}
	n := len(v.Chain)
	if n < 2 {
		return
	}
	if v.Chain[n-1].Name == "get_binding" && ownerName(v.Chain[n-2].Name) == "model" {
		if len(v.Args) > 0 {
			l.bindingLookup(fi, sc, &v.Args[0])
		} else if k := slices.IndexFunc(v.Kwargs, func(a pyextract.Kwarg) bool { return a.Name == "binding_key" }); k >= 0 {
			l.bindingLookup(fi, sc, &v.Kwargs[k].Value)
		}
		return
	}
	lc, ok := lookupCalls[v.Chain[n-1].Name]
	if !ok || ownerName(v.Chain[n-2].Name) != lc.owner {
		return
	}
	if sc.Guarded && lc.kind != KindContainer {
		// try: resources.fetch("x") / model.get_relation("x") except ModelError: the lookup
		// runs, and an undeclared name raises NameError / KeyError, which the handler (of an
		// unattached resource, of too many related apps) does not catch; get_container raises
		// ModelError for a container it does not know
		sc.Conditional = false
	}
	var arg *pyextract.Value
	if len(v.Args) > 0 {
		arg = &v.Args[0]
	} else {
		for i := range v.Kwargs {
			switch v.Kwargs[i].Name {
			case "relation_name", "container_name", "name":
				arg = &v.Kwargs[i].Value
			}
		}
	}
	if arg == nil {
		return
	}
	l.lookupName(fi, sc, lc.kind, arg, v.String(), true, ViaLookup, "")
}

// importedPath is the dotted path a chain names through the import of its first name
// (NRPE of `from m import NRPE` is m.NRPE; x.NRPE of `import m as x` is m.NRPE), and the
// module imported; "" when its first name is not imported.
func importedPath(fi *fileInfo, chain pyextract.Chain) (full, module string) {
	if len(chain) == 0 {
		return "", ""
	}
	im, ok := fi.imports[chain[0].Name]
	if !ok {
		return "", ""
	}
	full = im.Module
	if im.Name != "" {
		full = joinModule(im.Module, im.Name)
	}
	for _, st := range chain[1:] {
		full += "." + st.Name
	}
	return full, im.Module
}

// hookenvConfig is charm-helpers' config accessor, which older ops charms (OpenStack's,
// Ceph's) still call: config("x") and hookenv.config("x") read the option x.
const hookenvConfig = "charmhelpers.core.hookenv.config"

// helperConfigRead links config("x") or hookenv.config("x") of charm-helpers as a read of x;
// it reports whether v was such a call.
func (l *charmLinker) helperConfigRead(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) bool {
	if len(v.Args) == 0 || !helperCall(fi, v, hookenvConfig) {
		return false
	}
	l.lookupName(fi, sc, KindConfig, &v.Args[0], v.String(), true, ViaConfig, "")
	return true
}

// helperCall reports a call v, in code that is not a test's, of the function full of a
// package outside the tree (charm-helpers' charmhelpers.core.hookenv.config), as fi imports it.
func helperCall(fi *fileInfo, v *pyextract.Value, full string) bool {
	if len(v.Chain) == 0 || fi.test {
		return false
	}
	f, _ := importedPath(fi, v.Chain)
	return f == full
}

// hookenvConfigureSources is charm-helpers' configure_sources(update=False,
// sources_var='install_sources', keys_var='install_keys'): it reads the two options its
// arguments name, config(sources_var) and config(keys_var), to add the apt sources and keys.
const hookenvConfigureSources = "charmhelpers.fetch.configure_sources"

// helperConfigureSources links charm-helpers' configure_sources(...) as reads of the options
// it names (userdir-ldap's configure_sources(True, "apt-repo-spec", "apt-repo-keys"): review
// rev99), or of its defaults install_sources and install_keys when the charm declares them
// (an undeclared default is no finding: the call reads None, and adds nothing); it reports
// whether v was such a call.
func (l *charmLinker) helperConfigureSources(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) bool {
	if !helperCall(fi, v, hookenvConfigureSources) {
		return false
	}
	for i, p := range []pyextract.Param{{Name: "sources_var"}, {Name: "keys_var"}} {
		if arg := argValue(v, 0, 2+i, p); arg != nil {
			l.lookupName(fi, sc, KindConfig, arg, v.String(), true, ViaConfig, "")
		} else if d, ok := l.lookup(KindConfig, []string{"install_sources", "install_keys"}[i]); ok {
			l.read(KindConfig, d, siteAt(fi, sc, ViaConfig, ""))
		}
	}
	return true
}

// hookenvResourceGet is charm-helpers' resource accessor: resource_get("x") fetches the
// resource x (and returns False for one the charm does not declare).
const hookenvResourceGet = "charmhelpers.core.hookenv.resource_get"

// helperResourceGet links charm-helpers' resource_get("x") (or name="x") as a lookup of the
// resource x; it reports whether v was such a call.
func (l *charmLinker) helperResourceGet(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) bool {
	if !helperCall(fi, v, hookenvResourceGet) {
		return false
	}
	if arg := argValue(v, 0, 1, pyextract.Param{Name: "name"}); arg != nil {
		l.lookupName(fi, sc, KindResource, arg, v.String(), true, ViaLookup, "")
	}
	return true
}

// lookupName links a looked-up name under every context of the site; an undeclared one is a
// finding. detail is the site's: "in" for a test of membership (`"data" in
// self.model.storages`), which for an undeclared name is always false, "assert" for one an
// assert statement asserts, which then always fails. A name that cannot be resolved reads,
// loosely, the declared names its f-string text fits (fitting), or else is recorded as
// unresolved when dynamic is set: a tolerant lookup (relations.get(name, [])) is code asking
// whether a relation exists, and says nothing about one the charm may have left unhandled.
func (l *charmLinker) lookupName(fi *fileInfo, sc pyextract.Scope, kind string, key *pyextract.Value, expr string, dynamic bool, via, detail string) {
	at := siteAt(fi, sc, via, detail)
	// a parameter's names are those of the recorded calls (argsFromCallers); pyextract records
	// only some calls, so unless every use of the function is one of them, another caller
	// may pass another name
	// (a constructor's parameters are the arguments of each object's construction, all of
	// which are recorded)
	partial := isParam(fi, sc, key) && sc.Func != "__init__" && !l.callersComplete(fi, sc, key)
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		names, ok := l.strValsOrigins(key, c)
		none := !ok && len(names) == 0
		if none && !fi.vendored && l.readFittingAny(l.keyFStrings(fi, sc, key, c), kind, at) {
			continue // config('check-{}s'.format(resource)): the names its text fits
		}
		if (partial || none) && !fi.library && dynamic {
			u := at
			u.Detail = expr
			u.NameKind = kind // get_relation(name) names a relation, resource_get(name) a resource
			l.unresolved = append(l.unresolved, u)
		}
		if none {
			continue
		}
		for _, n := range names {
			s, vendored := atOrigin(at, fi, n)
			d, ok := l.lookup(kind, n.str)
			if ok {
				all := at
				s.CatchAll, all.CatchAll = n.every, n.every
				l.readAtBoth(kind, d, s, all)
			}
			if (!ok || asWrittenOnly(n.str, d)) && !vendored && !n.loose {
				l.findIn(undeclaredKind[kind], n.str, s, c)
			}
		}
	}
}

// readAtBoth records a read of declared name d at s, where the name is given (atOrigin), and
// also at the lookup itself (at) when that is in another file: a helper module that looks a
// relation up for its callers (a provider's update_address(name)) handles the relation too.
func (l *charmLinker) readAtBoth(kind, d string, s, at Site) {
	l.read(kind, d, s)
	if s.File != at.File {
		l.read(kind, d, at)
	}
}

// atOrigin is where a name looked up at site at of file fi is reported: for a name a call
// passed to a parameter of the function (aval.origin: get_relation(self, name) called with
// "database"), at that call, as a config read through a helper is (configKey), so that a
// misspelt name is reported, and can be silenced, on its own line, not on the helper's
// that serves every caller; vendored is the reporting file's.
func atOrigin(at Site, fi *fileInfo, n aval) (Site, bool) {
	o := n.origin
	if o == nil {
		return at, fi.vendored
	}
	return Site{File: o.file.Path, Line: o.line, Symbol: o.file.symbolAt(className(o.cls), o.fn, o.line), Via: at.Via, Detail: at.Detail,
		Conditional: o.cond, NameKind: at.NameKind}, o.file.vendored
}

// asWrittenOnly reports a name looked up where it is taken as written (a config read, a
// relation, container, storage or resource looked up by name) that names declared d only
// once '-' and '_' are taken as one (config["slo_period"], get_relation("sloth_peers")):
// ops raises KeyError or ModelError, charm-helpers returns None or nothing, as for any
// undeclared name. The site still reads d, which is what the code means. (Event names fold:
// self.on["sloth_peers"] is sloth-peers'.)
func asWrittenOnly(name, d string) bool { return d != name }

// jujuInfo is the endpoint Juju gives every charm (provides juju-info, implicitly).
const jujuInfo = "juju-info"

// bindingLookup: model.get_binding(PEER) looks up the network binding of an endpoint, a
// declared relation's (the charm's address on its peer relation), one of its extra-bindings,
// juju-info's (every charm has it), or of a Relation object: a declared relation it names is
// looked up there, and a name that is none of these (a typo) is an undeclared relation, as
// ops fails when the binding's network is read. A name that does not resolve is no finding
// and no unresolved name (the argument is as often a Relation object).
func (l *charmLinker) bindingLookup(fi *fileInfo, sc pyextract.Scope, key *pyextract.Value) {
	at := siteAt(fi, sc, ViaLookup, "")
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		names, _ := l.strValsOrigins(key, c)
		for _, n := range names {
			s, vendored := atOrigin(at, fi, n)
			d, ok := l.lookup(KindRelation, n.str)
			if ok {
				l.readAtBoth(KindRelation, d, s, at)
			}
			if (!ok || asWrittenOnly(n.str, d)) && !vendored && !n.loose && n.str != jujuInfo && !slices.ContainsFunc(l.ch.ExtraBindings,
				func(b charmyaml.Binding) bool { return b.Name == n.str }) { // as written: no event name spells it
				if f := l.findIn(FindUndeclaredRelation, n.str, s, c); f != nil && sc.CatchesModelError {
					f.Doubt = "a probe: the try around it catches the ModelError raised for a binding Juju does not know"
				}
			}
		}
	}
}

// everyCallRecorded reports whether every use of the function of c in the charm's code (its
// scope, tests aside) is a call pyextract recorded and that calls it
// (self._relation_created(N2) and self._relation_created("cache"), and nothing else named
// _relation_created): then the names its callers pass are all it is given. The charm's code
// only: in a monorepo every sibling may have a method of that name.
func (l *charmLinker) everyCallRecorded(c *ctx) bool {
	n := len(l.callsOf(c))
	uses := l.scopeUses(c.fn)
	if c.file != nil && !c.file.library && !c.file.vendored {
		// a vendored charm library does not call the charm's own helper: its uses of the name
		// are its own methods' (data_platform_libs' self.get_relation(...) beside a charm's
		// get_relation(name) helper)
		uses -= l.libraryUses(c.fn)
	}
	return n > 0 && n >= uses
}

// callsOf lists the recorded calls of the function of c in the charm's non-test code, one per
// call: an assigned call can be both an Assign, its arguments dropped, and a Call fact with
// them (pw = self._get(name)); the Assign is left out.
func (l *charmLinker) callsOf(c *ctx) []*site {
	type at struct {
		file *fileInfo
		line int
	}
	var all []*site
	withArgs := map[at]bool{}
	for _, s := range l.calls[c.fn] {
		if s.file.test || !l.callsFunc(s, c) {
			continue
		}
		all = append(all, s)
		if len(s.value.Args)+len(s.value.Kwargs) > 0 {
			withArgs[at{s.file, s.line}] = true
		}
	}
	return slices.DeleteFunc(all, func(s *site) bool {
		return len(s.value.Args)+len(s.value.Kwargs) == 0 && withArgs[at{s.file, s.line}]
	})
}

// callersComplete reports whether the names parameter key (a bare parameter name) of the
// function of sc is given are all known: every use of the function is a recorded call
// (everyCallRecorded), and each passes it a string the linker resolves.
func (l *charmLinker) callersComplete(fi *fileInfo, sc pyextract.Scope, key *pyextract.Value) bool {
	c := &ctx{file: fi, cls: fi.classes[sc.Class], fn: sc.Func}
	sym := fi.funcSyms[funcKey{sc.Class, sc.Func}]
	if sym == nil || !l.everyCallRecorded(c) {
		return false
	}
	i, p, ok := paramOf(sym, key.Chain[0].Name)
	if !ok {
		return false
	}
	first := firstPositional(c)
	dflt := l.defaultOf(c, p)
	names := func(vals []aval) bool {
		return len(vals) > 0 && !slices.ContainsFunc(vals, func(v aval) bool { return v.kind != aStr })
	}
	for _, s := range l.callsOf(c) {
		if omits(s.value, i-first+1, p) {
			if !names(dflt()) {
				return false
			}
			continue
		}
		for _, at := range l.contexts(s.file, s.cls, s.fn) {
			if !names(l.argFor(s.value, at.at(s.line), 0, i-first+1, p)) {
				return false
			}
		}
	}
	return true
}

// scopeUses is how many times the non-test files of the charm's scope use a name.
func (l *charmLinker) scopeUses(name string) int {
	if l.scopeRefs == nil {
		l.scopeRefs, l.libRefs = map[string]int{}, map[string]int{}
		for _, fi := range l.scope {
			if fi.test {
				continue
			}
			count := func(name string, n int) {
				l.scopeRefs[name] += n
				if fi.library {
					l.libRefs[name] += n
				}
			}
			for _, r := range fi.Refs {
				count(r.Name, r.Count)
			}
			// a name indexed or read with .get (model.config.get(key), self.config["x"]) is a
			// mapping there, not a call of a function of that name (a helper method named
			// config): those uses do not count
			for k := range fi.Facts.Keys {
				if o := fi.Facts.Keys[k].Object; len(o) > 1 {
					if last := o[len(o)-1]; !last.Call && last.Index == nil && last.GetAttr == nil {
						count(last.Name, -1)
					}
				}
			}
		}
	}
	return max(l.scopeRefs[name], 0) // a name Refs leave out (stopNames) has no uses to take
}

// libraryUses is how many of scopeUses are in the charm libraries of the scope (lib/charms).
func (l *charmLinker) libraryUses(name string) int {
	l.scopeUses(name)
	return max(l.libRefs[name], 0)
}

// inCharmCode reports whether fi is code the charm runs (charmCode; any file when unknown).
func (l *charmLinker) inCharmCode(fi *fileInfo) bool {
	code := l.charmCode()
	return code == nil || code[fi]
}

// isParam reports whether v is a bare name that is a parameter of the function of sc.
func isParam(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) bool {
	if v.Kind != pyextract.ValChain || len(v.Chain) != 1 {
		return false
	}
	sym := fi.funcSyms[funcKey{sc.Class, sc.Func}]
	return sym != nil && slices.ContainsFunc(sym.Params, func(p pyextract.Param) bool { return p.Name == v.Chain[0].Name })
}

func lastName(c pyextract.Chain) string {
	if len(c) == 0 {
		return ""
	}
	return c[len(c)-1].Name
}

// unresolvedKey records a key read whose name cannot be resolved statically; names inside
// vendored libraries are the library's business, not the charm's, except in a base class of
// the charm (opencti's connector charms derive from the library's OpenctiConnectorCharm,
// which hands every option to the workload). The charm's own library is its code
// (opensearch keeps most of its logic there: a config option read through a table in
// lib/charms/opensearch/ is this charm's read).
func (l *charmLinker) unresolvedKey(fi *fileInfo, at Site, k *pyextract.KeyAccess) {
	if fi.vendored && !l.charmBases[fi.classes[k.Class]] {
		return
	}
	at.Detail = keyExpr(k)
	l.unresolved = append(l.unresolved, at)
}

// keyExpr is a key read as written, so that a search finds it: X[key], X.get(key), or key in X.
func keyExpr(k *pyextract.KeyAccess) string {
	switch k.Via {
	case "get":
		return k.Object.String() + ".get(" + k.Key.String() + ")"
	case "in":
		return k.Key.String() + " in " + k.Object.String()
	}
	return k.Object.String() + "[" + k.Key.String() + "]"
}
