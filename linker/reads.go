package linker

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

func (l *charmLinker) read(kind, name string, s Site) {
	it := l.iface(kind, name)
	it.Reads = append(it.Reads, s)
}

// dynamicBinding is the unresolved site of a relation-bound object built with a name the
// linker could not resolve, its detail the class and that argument as written
// (`LogForwarder(relation_name=endpoint_mapping["logging"])`, not just LogForwarder).
func dynamicBinding(at Site, call *pyextract.Value, param string) Site {
	at.NameKind = KindRelation
	if param == "" {
		return at
	}
	if v := argValue(call, 0, 0, pyextract.Param{Name: param}); v != nil { // by keyword
		at.Detail += "(" + param + "=" + v.String() + ")"
	} else {
		at.Detail += "(" + param + ")"
	}
	return at
}

// linkBindings records where first-party code builds a relation-bound object (a library
// object such as DatabaseRequires(self, "db"), or a helper taking a relation name) as a
// read of the endpoint with via "library"; an undeclared name given to a *relation*
// parameter is a finding.
func (l *charmLinker) linkBindings() {
	for _, s := range l.sites {
		if s.file.library {
			continue
		}
		sc := s.scope()
		name := s.value.Chain[len(s.value.Chain)-1].Name
		at := siteAt(s.file, sc, ViaLibrary, name)
		for _, c := range l.contexts(s.file, s.cls, s.fn) {
			inst := &instance{cls: s.target, call: s.value, at: c}
			eps := l.endpoints(inst)
			if eps.dyn && len(eps.names) == 0 {
				l.unresolved = append(l.unresolved, dynamicBinding(at, s.value, eps.dynParam))
			}
			var bound []string
			for _, ep := range eps.names {
				d, ok := l.lookup(KindRelation, ep.name)
				if ok {
					l.read(KindRelation, d, at)
					bound = appendUniq(bound, d)
				}
				// (a library looks its relation up as written: peer_relation_name="sloth_peers"
				// finds no sloth-peers)
				if (!ok || asWrittenOnly(ep.name, d)) && ep.strong {
					f := at
					f.Conditional = f.Conditional || ep.cond
					l.findIn(FindUndeclaredRelation, ep.name, f, c)
				}
			}
			if len(bound) == 1 {
				l.callbacks(s, c, bound[0])
				l.validated(s, inst, bound[0], at)
			}
		}
	}
}

// validated checks the endpoint d an object built at s is bound to as its class's constructor
// does, when it calls the observability libraries' validator (pyextract.RelationValidator)
// on it: the validator raises while the charm is being constructed, so every hook fails,
// when the YAML declares d on the other side (RelationRoleMismatchError) or with another
// interface (RelationInterfaceMismatchError). Either is a relation-mismatch finding at the
// construction.
func (l *charmLinker) validated(s *site, inst *instance, d string, at Site) {
	if s.target == nil {
		return
	}
	i := slices.IndexFunc(l.ch.Relations, func(r charmyaml.Relation) bool { return r.Name == d })
	if i < 0 {
		return
	}
	rel := l.ch.Relations[i]
	for _, k := range l.mro(s.target) {
		if k.methods["__init__"] == nil {
			continue
		}
		c := &ctx{file: k.file, cls: k, fn: "__init__", inst: inst}
		for j := range k.file.Facts.Calls {
			v, sc := &k.file.Facts.Calls[j].Value, k.file.Facts.Calls[j].Scope
			if sc.Class != k.name || sc.Func != "__init__" || lastName(v.Chain) != pyextract.RelationValidator {
				continue
			}
			name := argValue(v, 0, 2, pyextract.Param{Name: "relation_name"})
			if name == nil {
				continue
			}
			names, _ := l.strVals(name, c.at(sc.Line))
			if !slices.ContainsFunc(names, func(n aval) bool { return n.str == d && !n.loose }) {
				continue
			}
			mismatch := func(what, expected, declared string) {
				if f := l.find(FindRelationMismatch, d, at); f != nil {
					f.Mismatch, f.Expected, f.Declared = what, expected, declared
				}
			}
			if role := argValue(v, 0, 4, pyextract.Param{Name: "expected_relation_role"}); role != nil && role.Kind == pyextract.ValChain &&
				len(role.Chain) >= 2 && role.Chain[len(role.Chain)-2].Name == "RelationRole" {
				if want := lastName(role.Chain); (want == charmyaml.RoleProvides || want == charmyaml.RoleRequires) && want != rel.Role {
					mismatch("role", want, rel.Role)
					return
				}
			}
			if iface := argValue(v, 0, 3, pyextract.Param{Name: "expected_relation_interface"}); iface != nil {
				ifaces, ok := l.strVals(iface, c.at(sc.Line))
				if ok && len(ifaces) == 1 && !ifaces[0].loose && ifaces[0].str != rel.Interface {
					mismatch("interface", ifaces[0].str, rel.Interface)
				}
			}
			return
		}
	}
}

// callbacks links the methods of the charm's code that the object built at s is given as
// keywords (RollingOpsManager(self, relation="restart", callback=self._restart)) to the one
// relation d it is bound to: the library calls them on that relation's events, so a
// keyword named as a callback (callbackKeyword) gives a handler, as the events of a library
// object do (via "library", event the keyword's name). A method handed over under another
// keyword supplies what the library publishes (COSAgentProvider(scrape_configs=
// self._scrape_configs), Worker(pebble_layer=self.pebble_layer)): a read of the relation at
// the method (via "callback"), the keyword as its detail, not a handler of an event. An object bound to
// several relations (a coordinator's) calls them for any.
//
// A method handed over by position is named by the parameter it binds when the class is in the
// tree (ops-sunbeam's RelationHandler(charm, relation_name, callback_f, mandatory): callback_f
// is a callback); of a class from outside the tree, it is a read (detail "argument N").
func (l *charmLinker) callbacks(s *site, c *ctx, d string) {
	type given struct {
		name string
		v    *pyextract.Value
	}
	var args []given
	for i := range s.value.Kwargs {
		args = append(args, given{s.value.Kwargs[i].Name, &s.value.Kwargs[i].Value})
	}
	for i := range s.value.Args {
		if isSplat(s.value.Args[i]) {
			break
		}
		args = append(args, given{l.positionalParam(s.target, i+1), &s.value.Args[i]})
	}
	for _, kw := range args {
		if kw.v.Kind != pyextract.ValChain || len(kw.v.Chain) < 2 {
			continue
		}
		h, _ := l.handler(kw.v, c)
		if h == nil || h.file.library || h.Kind != pyextract.KindMethod || slices.ContainsFunc(h.Decorators, func(d string) bool {
			return strings.HasSuffix(d, "property") // its value is handed over, not the method
		}) {
			continue
		}
		if !callbackKeyword(kw.name) {
			l.read(KindRelation, d, Site{File: h.file.Path, Line: h.Line, Symbol: h.Name, Via: ViaCallback, Detail: kw.name, Conditional: s.cond})
			continue
		}
		it := l.iface(KindRelation, d)
		hd := Handler{Event: kw.name, Symbol: h.Name, File: h.file.Path, Line: h.Line, Via: ViaLibrary,
			ObserveFile: s.file.Path, ObserveLine: s.line, Conditional: s.cond}
		if !slices.ContainsFunc(it.Handlers, func(x Handler) bool { return x.Symbol == hd.Symbol && x.Event == hd.Event }) {
			it.Handlers = append(it.Handlers, hd)
		}
	}
}

// positionalParam names the parameter of cls's construction that its i-th positional argument
// (from 1: the charm, mostly) binds, by the first __init__ up its classes; "argument i" when
// the class or its __init__ is not in the tree, or the argument falls to *args.
func (l *charmLinker) positionalParam(cls *classInfo, i int) string {
	if cls != nil {
		for _, k := range l.mro(cls) {
			init := k.methods["__init__"]
			if init == nil {
				continue
			}
			for j, p := range positional(init.Params) {
				if strings.HasPrefix(p.Name, "*") {
					break
				}
				if j == i {
					return p.Name
				}
			}
			break
		}
	}
	return fmt.Sprintf("argument %d", i)
}

// callbackKeyword reports a keyword that names what it is given as a callback: callback,
// callback_f (ops-sunbeam's), on_ready, restart_callback, is_ready_cb, relation_handler,
// refresh_hook.
func callbackKeyword(name string) bool {
	n := strings.ToLower(name)
	return n == "callback" || strings.HasPrefix(n, "callback_") || n == "cb" || n == "handler" || strings.HasPrefix(n, "on_") ||
		slices.ContainsFunc([]string{"_callback", "_cb", "_handler", "_hook"}, func(s string) bool { return strings.HasSuffix(n, s) })
}

// linkResourceArgs: the charm's own code handing a declared resource's name to an object of a
// package from outside the tree (OCIImageResource(self, "csi-image") of oci_image) has it
// read the resource; recorded as a read with via "library", as a relation-bound object's
// construction is.
func (l *charmLinker) linkResourceArgs() {
	if len(l.ch.Resources) == 0 {
		return
	}
	for _, s := range l.sites {
		if s.target != nil || s.file.vendored || s.file.test || len(s.value.Chain) == 0 {
			continue
		}
		if l.outsideModule(s.file, s.value.Chain[0].Name) == "" {
			continue // Path("templates"), a class of the tree: not a package reading a resource
		}
		sc := s.scope()
		at := siteAt(s.file, sc, ViaLibrary, lastName(s.value.Chain))
		seen := map[string]bool{}
		l.anyArg(s, func(v aval) bool {
			if d, ok := l.lookup(KindResource, v.str); ok && v.kind == aStr && !seen[d] {
				seen[d] = true
				l.read(KindResource, d, at)
			}
			return false // every argument
		})
	}
}

// linkPackageFunctionArgs: the charm's own code calling a function of a package from outside
// the tree with the charm and a declared relation's name (hpc_libs' get_ingress_address(self,
// PEER)) has it look the relation up; recorded as a read with via "library", as the
// construction of a package's object given the name is (linkBindings).
func (l *charmLinker) linkPackageFunctionArgs() {
	for _, name := range slices.Sorted(maps.Keys(l.calls)) {
		if isUpper(name) {
			continue // a class: linkBindings
		}
		for _, s := range l.calls[name] {
			if s.file.library || s.file.test || len(s.value.Chain) == 0 || len(s.value.Args) < 2 ||
				l.outsideModule(s.file, s.value.Chain[0].Name) == "" {
				continue
			}
			sc := s.scope()
			at := siteAt(s.file, sc, ViaLibrary, name)
			for _, c := range l.contexts(s.file, s.cls, s.fn) {
				if !slices.ContainsFunc(l.eval(&s.value.Args[0], c), func(a aval) bool { return a.kind == aCharm }) {
					continue
				}
				for i := 1; i < len(s.value.Args); i++ {
					for _, v := range l.eval(&s.value.Args[i], c) {
						if d, ok := l.lookup(KindRelation, v.str); ok && v.kind == aStr && !v.loose {
							l.read(KindRelation, d, at)
						}
					}
				}
			}
		}
	}
}

// knownReaders are classes of packages from outside the tree, by their module and name, that
// read config options of the charm themselves: charm-helpers' NRPE() reads nagios_context and
// nagios_servicegroups through hookenv.config, which charms declare for it.
var knownReaders = map[string][]string{
	"charmhelpers.contrib.charmsupport.nrpe.NRPE": {"nagios_context", "nagios_servicegroups"},
}

// linkKnownReaders records the options a knownReaders object reads where the charm's code
// builds it, as a read with via "library": the class itself (`NRPE()`), or a class of the
// tree derived from it (`class CustomNRPE(nrpe.NRPE)`), whose construction runs the
// reader's __init__. (A construction with a call chained on and nothing assigned,
// `nrpe.NRPE().write()`, is no site: not followed.)
func (l *charmLinker) linkKnownReaders() {
	for _, s := range l.sites {
		if s.file.vendored || s.file.test || len(s.value.Chain) == 0 {
			continue
		}
		opts := l.knownReader(s)
		if len(opts) == 0 {
			continue
		}
		sc := s.scope()
		for _, o := range opts {
			if d, ok := l.lookup(KindConfig, o); ok {
				l.read(KindConfig, d, siteAt(s.file, sc, ViaLibrary, lastName(s.value.Chain)))
			}
		}
	}
}

// knownReader is the options of the knownReaders class a site builds, directly or through a
// class of the tree derived from it; nil for none.
func (l *charmLinker) knownReader(s *site) []string {
	if s.target != nil {
		for _, k := range l.mro(s.target) {
			for _, b := range k.sym.Bases {
				chain := baseChain(b)
				if chain == nil {
					continue
				}
				if full, module := importedPath(k.file, chain); full != "" && l.external(k.file, module) && len(knownReaders[full]) > 0 {
					return knownReaders[full]
				}
			}
		}
		return nil
	}
	if full, module := importedPath(s.file, s.value.Chain); full != "" && l.external(s.file, module) {
		return knownReaders[full]
	}
	return nil
}

// linkContainerArgs: the charm's own code handing a declared container's name, as a keyword
// about a container (container_name=, workload_container=), to an object of a package from
// outside the tree (coordinated_workers' Worker(charm=self, container_name="pyroscope")), or
// of a class of the tree derived from one (chisme's PebbleServiceComponent), has that object
// manage the container; recorded as a read with via "library", as for resources. Only such
// keywords: a container is often named as its service is ("nginx"), and a service name
// passed on is not the container.
func (l *charmLinker) linkContainerArgs() {
	if len(l.ch.Containers) == 0 {
		return
	}
	for _, s := range l.sites {
		if s.file.vendored || s.file.test || len(s.value.Chain) == 0 {
			continue
		}
		// a class of the tree derived from such a package's (a chisme PebbleServiceComponent)
		// hands the name on to it
		if s.target != nil && l.externalBase(s.target) == "" || s.target == nil && l.outsideModule(s.file, s.value.Chain[0].Name) == "" {
			continue
		}
		sc := s.scope()
		at := siteAt(s.file, sc, ViaLibrary, lastName(s.value.Chain))
		seen := map[string]bool{}
		for i := range s.value.Kwargs {
			kw := &s.value.Kwargs[i]
			if !strings.Contains(strings.ToLower(kw.Name), "container") {
				continue
			}
			for _, c := range l.contexts(s.file, s.cls, s.fn) {
				for _, v := range l.eval(&kw.Value, c) {
					if d, ok := l.lookup(KindContainer, v.str); ok && v.kind == aStr && !seen[d] {
						seen[d] = true
						l.read(KindContainer, d, at)
					}
				}
			}
		}
	}
}

// anyArg reports whether pred holds for a value of an argument (positional or keyword) of
// the call at s, in any context s runs in; it stops at the first.
func (l *charmLinker) anyArg(s *site, pred func(aval) bool) bool {
	args := slices.Clone(s.value.Args)
	for i := range s.value.Kwargs {
		args = append(args, s.value.Kwargs[i].Value)
	}
	for _, c := range l.contexts(s.file, s.cls, s.fn) {
		for i := range args {
			if slices.ContainsFunc(l.eval(&args[i], c), pred) {
				return true
			}
		}
	}
	return false
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
			if n < 2 || k.Via != "index" && k.Via != "get" && k.Via != "in" { // relations["db"], relations.get("db", []), "db" in relations
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
	if l.helperConfigRead(fi, sc, v) || l.helperResourceGet(fi, sc, v) {
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
	if len(v.Chain) == 0 || len(v.Args) == 0 || fi.test {
		return false
	}
	if full, _ := importedPath(fi, v.Chain); full != hookenvConfig {
		return false
	}
	l.lookupName(fi, sc, KindConfig, &v.Args[0], v.String(), true, ViaConfig, "")
	return true
}

// hookenvResourceGet is charm-helpers' resource accessor: resource_get("x") fetches the
// resource x (and returns False for one the charm does not declare).
const hookenvResourceGet = "charmhelpers.core.hookenv.resource_get"

// helperResourceGet links charm-helpers' resource_get("x") (or name="x") as a lookup of the
// resource x; it reports whether v was such a call.
func (l *charmLinker) helperResourceGet(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) bool {
	if len(v.Chain) == 0 || fi.test {
		return false
	}
	if full, _ := importedPath(fi, v.Chain); full != hookenvResourceGet {
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
		names, ok := l.strVals(key, c)
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
			d, ok := l.lookup(kind, n.str)
			if ok {
				l.read(kind, d, at)
			}
			if (!ok || asWrittenOnly(n.str, d)) && !fi.vendored && !n.loose {
				l.findIn(undeclaredKind[kind], n.str, at, c)
			}
		}
	}
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
		names, _ := l.strVals(key, c)
		for _, n := range names {
			d, ok := l.lookup(KindRelation, n.str)
			if ok {
				l.read(KindRelation, d, at)
			}
			if (!ok || asWrittenOnly(n.str, d)) && !fi.vendored && !n.loose && n.str != jujuInfo && !slices.ContainsFunc(l.ch.ExtraBindings,
				func(b charmyaml.Binding) bool { return b.Name == n.str }) { // as written: no event name spells it
				if f := l.findIn(FindUndeclaredRelation, n.str, at, c); f != nil && sc.CatchesModelError {
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
	return n > 0 && n >= l.scopeUses(c.fn)
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
		l.scopeRefs = map[string]int{}
		for _, fi := range l.scope {
			if fi.test {
				continue
			}
			for _, r := range fi.Refs {
				l.scopeRefs[r.Name] += r.Count
			}
			// a name indexed or read with .get (model.config.get(key), self.config["x"]) is a
			// mapping there, not a call of a function of that name (a helper method named
			// config): those uses do not count
			for k := range fi.Facts.Keys {
				if o := fi.Facts.Keys[k].Object; len(o) > 1 {
					if last := o[len(o)-1]; !last.Call && last.Index == nil && last.GetAttr == nil {
						l.scopeRefs[last.Name]--
					}
				}
			}
		}
	}
	return max(l.scopeRefs[name], 0) // a name Refs leave out (stopNames) has no uses to take
}

// linkConfig: config[...] and config.get(...) on the charm config, attribute reads of
// options on a (typed) config object, and the fields of typed config classes.
func (l *charmLinker) linkConfig() {
	for _, fi := range l.scope {
		for i := range fi.Facts.Keys {
			k := &fi.Facts.Keys[i]
			if n := len(k.Object); n >= 2 && lookupKeys[k.Object[n-1].Name] != "" || lastName(k.Object) == "params" {
				continue
			}
			l.configKey(fi, k)
		}
		for i := range fi.Facts.Attrs {
			a := &fi.Facts.Attrs[i]
			d, ok := l.lookup(KindConfig, a.Attr)
			if !ok {
				l.typedAttr(fi, a)
				continue
			}
			// an attribute of an object named *config (a typed config dataclass): in the
			// charm's code only (charmCode), not a workload program's own config objects
			if l.isConfig(fi, a.Scope, a.Object) || strings.HasSuffix(strings.ToLower(lastName(a.Object)), "config") && l.inCharmCode(fi) ||
				lastName(a.Object) == "options" && !fi.vendored && l.openstackAdapters() {
				l.read(KindConfig, d, siteAt(fi, a.Scope, ViaConfig, "attr"))
			}
		}
	}
	classes, loaded, given := l.configClasses()
	for i, cl := range classes {
		for _, k := range l.mro(cl) {
			for _, f := range k.fields {
				if d, ok := l.lookup(KindConfig, fieldOption(f)); ok {
					l.read(KindConfig, d, Site{File: k.file.Path, Line: f.line, Symbol: k.name, Via: ViaConfig, Detail: "field"})
				}
			}
			if i < loaded && !k.file.vendored && !k.file.test {
				l.undeclaredFields(k, given[cl])
			}
		}
	}
}

// typedAttr reports an attribute read on the charm's typed config, `self.config.x` in a
// charm with a config_type or `cfg.x` of `cfg = self.load_config(Cls)`, that names no
// declared option and nothing of the class (a field, method, property or class attribute up
// its bases, or a model's own member, model_dump or dict): a misspelt option, which raises
// AttributeError (`self.config.log_levle`). Not when a base of the class is outside the tree
// (other than pydantic's BaseModel), which may define it.
func (l *charmLinker) typedAttr(fi *fileInfo, a *pyextract.AttrRead) {
	if fi.vendored || fi.test || strings.HasPrefix(a.Attr, "_") || strings.HasPrefix(a.Attr, "model_") || modelMembers[a.Attr] {
		return
	}
	var vals []aval
	if len(a.Object) == 1 && a.Func != "" {
		assigns, _ := fi.local(funcKey{a.Class, a.Func}, a.Object[0].Name, a.Line)
		for _, as := range assigns {
			vals = append(vals, l.loadedConfig(fi, as.Scope, &as.Value)...)
		}
	} else if l.typedConfig() && l.isConfig(fi, a.Scope, a.Object) {
		vals = l.configTypes()
	}
	if !slices.ContainsFunc(vals, func(c aval) bool { return c.kind == aClass && c.cls != nil }) {
		return
	}
	for _, c := range vals {
		if c.kind != aClass || c.cls == nil {
			continue
		}
		for _, k := range l.mro(c.cls) {
			if k.openBases && !slices.ContainsFunc(k.sym.Bases, func(b string) bool { return b == "BaseModel" || strings.HasSuffix(b, ".BaseModel") }) ||
				k.methods[a.Attr] != nil || k.attrs[a.Attr] != nil || slices.ContainsFunc(k.fields, func(f classAttr) bool { return f.name == a.Attr }) {
				return
			}
		}
	}
	l.find(FindUndeclaredConfig, a.Attr, siteAt(fi, a.Scope, ViaConfig, "attr"))
}

// modelMembers are what a pydantic model or dataclass instance has of its own, besides its
// fields: not options.
var modelMembers = map[string]bool{"dict": true, "json": true, "copy": true, "fields": true, "schema": true, "keys": true,
	"items": true, "values": true, "get": true, "parse_obj": true, "construct": true, "update_forward_refs": true}

// fieldOption is the option a typed config's field loads: the alias its pydantic Field gives
// (index_name: str = Field(alias="opensearch-index-name"), or validation_alias=), else the
// field's own name.
func fieldOption(f classAttr) string {
	if v := f.value; v != nil && v.Kind == pyextract.ValCall && lastName(v.Chain) == "Field" {
		for _, k := range v.Kwargs {
			if (k.Name == "alias" || k.Name == "validation_alias") && k.Value.Kind == pyextract.ValStr {
				return k.Value.Str
			}
		}
	}
	return f.name
}

// fileLine is a line of a file: where a class is built with the whole config unpacked into
// it (loadSplats), where a helper is called (handedActions).
type fileLine struct {
	file string
	line int
}

// loadSplats are the constructions, in the charm's code, of a class of the tree that has
// fields, with the charm's whole config unpacked into it (SearchConfig(**self.config),
// CharmConfig(**self.model.config)): a typed config the charm loads by hand, whose fields say
// which options it reads, as a config_type's do, not code that may read any option. By
// site, the classes built there. Worked out once.
func (l *charmLinker) loadSplats() map[fileLine][]*classInfo {
	if l.splats != nil {
		return l.splats
	}
	l.splats = map[fileLine][]*classInfo{}
	for _, fi := range l.scope {
		if fi.library || fi.test {
			continue
		}
		whole := map[int]bool{} // lines where the config is handed on whole
		for i := range fi.Facts.Keys {
			if k := &fi.Facts.Keys[i]; k.Via == "all" && l.isConfig(fi, k.Scope, k.Object) {
				whole[k.Line] = true
			}
		}
		if len(whole) == 0 {
			continue
		}
		built := func(sc pyextract.Scope, v *pyextract.Value) {
			if v.Kind != pyextract.ValCall || !whole[sc.Line] || len(v.Args) != 1 || len(v.Kwargs) > 0 ||
				v.Args[0].Kind != pyextract.ValOther || !strings.HasPrefix(v.Args[0].Str, "**") {
				return
			}
			at := fileLine{fi.Path, sc.Line}
			for _, a := range l.chain(v.Chain, &ctx{file: fi, cls: fi.classes[sc.Class], fn: sc.Func}) {
				if a.kind == aClass && a.cls != nil && slices.ContainsFunc(l.mro(a.cls), func(k *classInfo) bool { return len(k.fields) > 0 }) &&
					!slices.Contains(l.splats[at], a.cls) {
					l.splats[at] = append(l.splats[at], a.cls)
				}
			}
		}
		for i := range fi.Facts.Calls {
			built(fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		for i := range fi.Facts.Assigns {
			built(fi.Facts.Assigns[i].Scope, &fi.Facts.Assigns[i].Value)
		}
	}
	return l.splats
}

// undeclaredFields reports the fields of k, a class the charm loads its options into, that
// name no declared option (`worker_count: int = 1` with no worker-count in the YAML): the
// field always holds its default, or loading fails without one (Finding.Field). Only
// annotated fields count (a pydantic or dataclass field), not a ClassVar, a private name or
// pydantic's model_config, one given an alias (Field(alias="x")), which names another key,
// nor one the load_config call passes itself (given).
func (l *charmLinker) undeclaredFields(k *classInfo, given map[string]bool) {
	for i := range k.file.Symbols {
		s := &k.file.Symbols[i]
		if s.Kind != pyextract.KindField || s.Qualifier != k.name {
			continue
		}
		name := strings.TrimPrefix(s.Name, k.name+".")
		head, value, _ := strings.Cut(s.Signature, "=")
		if strings.HasPrefix(name, "_") || name == "model_config" || given[name] || !strings.Contains(head, ":") ||
			strings.Contains(head, "ClassVar") || strings.Contains(value, "alias") {
			continue
		}
		if _, ok := l.lookup(KindConfig, name); !ok {
			if f := l.find(FindUndeclaredConfig, name, Site{File: k.file.Path, Line: s.Line, Symbol: k.name}); f != nil {
				f.Field = true
			}
		}
	}
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

// isConfig reports whether obj evaluates to the charm config in some context of the site.
func (l *charmLinker) isConfig(fi *fileInfo, sc pyextract.Scope, obj pyextract.Chain) bool {
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		for _, a := range l.chain(obj, c) {
			if a.kind == aConfig {
				return true
			}
		}
	}
	return false
}

func (l *charmLinker) configKey(fi *fileInfo, k *pyextract.KeyAccess) {
	at := siteAt(fi, k.Scope, ViaConfig, k.Via)
	if k.Asserted {
		at.Detail = "assert" // assert "url" in self.config
	}
	if k.Via == "index" && l.typedConfig() && !rawConfig(fi, k) {
		// config["x"] on a typed config (TypedCharmBase's self.config, a pydantic model whose
		// __getitem__ reads the field): an unset option is the field's default, not KeyError
		at.Detail = "typed-index"
	}
	sawConfig := false
	defer func() {
		if !sawConfig {
			l.namedConfigKey(fi, k, at)
		}
	}()
	for _, c := range l.contexts(fi, fi.classes[k.Class], k.Func) {
		isCfg := false
		for _, a := range l.chain(k.Object, c) {
			isCfg = isCfg || a.kind == aConfig
		}
		if !isCfg {
			continue
		}
		sawConfig = true
		if k.Via == "all" && len(l.loadSplats()[fileLine{fi.Path, k.Line}]) > 0 {
			return // SearchConfig(**self.config): the class's fields say what it reads (configClasses)
		}
		if k.Via == "all" {
			// config.items(): every option, loosely (which one matters is not known). Not in a
			// vendored library: data_models' TypedCharmBase hands every option to the charm's
			// typed config class, whose fields say which options the charm reads.
			if fi.vendored {
				return
			}
			s := at
			s.Loose = true
			for _, o := range l.ch.Config {
				if d, ok := l.lookup(KindConfig, o.Name); ok {
					l.read(KindConfig, d, s)
				}
			}
			return
		}
		type siteName struct {
			Site
			name string
		}
		seen := map[siteName]bool{}
		known := false
		for _, v := range l.eval(&k.Key, c.at(k.Line)) {
			if v.kind != aStr {
				continue
			}
			known = true
			s, vendored := at, fi.vendored
			if o := v.origin; o != nil { // where the helper is called with the name
				s = Site{File: o.file.Path, Line: o.line, Symbol: symbolName(className(o.cls), o.fn), Via: ViaConfig,
					Detail: at.Detail, Conditional: o.cond}
				vendored = o.file.vendored
			}
			s.Loose = v.loose
			if seen[siteName{s, v.str}] {
				continue
			}
			seen[siteName{s, v.str}] = true
			d, ok := l.lookup(KindConfig, v.str)
			if ok {
				l.read(KindConfig, d, s)
			}
			// (a typed config's __getitem__ reads the field, "-" as "_": both spellings work)
			if (!ok || asWrittenOnly(v.str, d) && at.Detail != "typed-index") && !vendored && !v.loose && !l.storedConfig(v.str) {
				// a function that looks the name up among the declared options first
				// (option = charm.meta.config.get(self.name); if option is None: raise)
				// reads only a declared one
				s.Conditional = s.Conditional || checksDeclared(fi, k.Scope)
				if v.origin != nil { // at the caller that passed the name: its own site says
					l.find(FindUndeclaredConfig, v.str, s)
				} else {
					l.findIn(FindUndeclaredConfig, v.str, s, c)
				}
			}
		}
		if !known && !fi.vendored {
			// config.get(f"always_enable_{receiver}"): the options its text fits; and
			// config[LINKS[loc]] of a dict whose values are f-strings
			// ({loc: f"additional-{loc}-links" for loc in LOCATIONS}): those the values fit
			known = l.readFittingAny(l.keyFStrings(fi, k.Scope, &k.Key, c.at(k.Line)), KindConfig, at)
		}
		if k.Func == "__getitem__" && isParam(fi, k.Scope, &k.Key) && l.subscripted(fi.classes[k.Class]) {
			// a config wrapper's own lookup: its callers are the subscripts wrapper["x"],
			// each linked (or left unresolved) where it is written (namedConfigKey)
			continue
		}
		if !known || isParam(fi, k.Scope, &k.Key) && (k.Func == "__init__" || !l.callersComplete(fi, k.Scope, &k.Key)) {
			// no name known, or names from the calls of a helper (get_config(key)):
			// pyextract records only some calls, so unless every use of the helper is one
			// of them, others may pass other names
			l.unresolvedKey(fi, at, k)
		}
	}
}

// linkTemplates: an option a template of the charm uses ({{ options.max_connections }},
// {% if config.debug %}) is read there.
func (l *charmLinker) linkTemplates() {
	for i, t := range l.ix.tmpls {
		if l.ix.tmplCharm[i] != l.charm || testdirs.In(path.Dir(relTo(t.Path, l.ch.Dir))) {
			continue // (a test's template, tests/functional/bundle.yaml.j2, sets options: it reads none)
		}
		for _, u := range t.Uses {
			if d, ok := l.lookup(KindConfig, u.Name); ok {
				l.read(KindConfig, d, Site{File: t.Path, Line: u.Line, Via: ViaTemplate})
			}
		}
		// a bare variable named like an option ({{ pci_alias }}): the context key a
		// charm-helpers context copies the option into (ctxt['pci_alias'] = config('pci-alias'));
		// tagged so, since the code fills the context as it likes
		for _, v := range t.Vars {
			if d, ok := l.lookup(KindConfig, v.Name); ok && !slices.ContainsFunc(t.Uses, func(u templates.Use) bool { return u == v }) {
				l.read(KindConfig, d, Site{File: t.Path, Line: v.Line, Via: ViaTemplate, Detail: "var"})
			}
		}
	}
}

// openstackAdapters reports whether the charm's own code imports an OpenStack charm framework
// (charms.openstack, ops_openstack): their configuration adapter, a charm's self.options or an
// instance of a ConfigurationAdapter subclass, has every option as an attribute, '-' read as
// '_' (self.options.max_connections, options.oidc_response_type).
func (l *charmLinker) openstackAdapters() bool {
	if l.openstack == nil {
		found := false
		for _, fi := range l.scope {
			if fi.test || fi.vendored {
				continue
			}
			for _, im := range fi.Imports {
				m := joinModule(im.Module, im.Name)
				if strings.HasPrefix(m, "charms_openstack") || strings.HasPrefix(m, "charms.openstack") || strings.HasPrefix(m, "ops_openstack") {
					found = true
				}
			}
		}
		l.openstack = &found
	}
	return *l.openstack
}

// storedConfig reports whether the charm's code stores name into its config as an item
// (config["vhost-ready"] = True): charm-helpers' config() is a dict that persists between
// hooks, and classic charms keep their own state in it. Reading such a key back reads that
// state, not an option the YAML forgot to declare.
func (l *charmLinker) storedConfig(name string) bool {
	l.collectStores()
	return l.stored[norm(name)]
}

// collectStores fills l.stored with the keys the charm's code stores into its config, and
// l.storedAt with the first store whose key the linker cannot name (config[key] = value in a
// helper given the key by calls pyextract does not record).
func (l *charmLinker) collectStores() {
	if l.stored != nil {
		return
	}
	l.stored = map[string]bool{}
	for _, fi := range l.scope {
		for i := range fi.Facts.Stores {
			k := &fi.Facts.Stores[i]
			for _, c := range l.contexts(fi, fi.classes[k.Class], k.Func) {
				if !slices.ContainsFunc(l.chain(k.Object, c), func(a aval) bool { return a.kind == aConfig }) {
					continue
				}
				known := false
				for _, v := range l.eval(&k.Key, c.at(k.Line)) {
					if v.kind == aStr {
						known, l.stored[norm(v.str)] = true, true
					}
				}
				if l.storedAt == nil && !fi.vendored &&
					(!known || isParam(fi, k.Scope, &k.Key) && !l.callersComplete(fi, k.Scope, &k.Key)) {
					l.storedAt = &Site{File: fi.Path, Line: k.Line}
				}
			}
		}
	}
}

// doubtStoredConfig: when the charm stores into its config under keys the linker cannot
// name, any undeclared option it reads may be one of them, so such a finding is in doubt.
func (l *charmLinker) doubtStoredConfig() {
	l.collectStores()
	if l.storedAt == nil {
		return
	}
	for i := range l.findings {
		if f := &l.findings[i]; f.Kind == FindUndeclaredConfig && f.Doubt == "" {
			f.Doubt = fmt.Sprintf("its code stores keys of its own into the config at %s:%d, and this may be one", l.storedAt.File, l.storedAt.Line)
		}
	}
}

// checksDeclared reports whether the function of sc looks a name up in the charm's declared
// options (meta.config.get(name), meta.config[name]).
func checksDeclared(fi *fileInfo, sc pyextract.Scope) bool {
	return slices.ContainsFunc(fi.Facts.Keys, func(k pyextract.KeyAccess) bool {
		n := len(k.Object)
		return k.Class == sc.Class && k.Func == sc.Func && n >= 2 && k.Object[n-2].Name == "meta" && k.Object[n-1].Name == "config"
	})
}

// namedConfigKey: a declared option's literal name read on an attribute named like a config
// (`self._extra_config["plugin_opensearch_knn"]`, `coordinator._charm.config["retention-period"]`)
// that the linker cannot trace to anything (a base class of another package, an
// attribute set in a library): a loose read, as an attribute read on such an object is. It
// stops a false unused-config warning and never makes a finding.
func (l *charmLinker) namedConfigKey(fi *fileInfo, k *pyextract.KeyAccess, at Site) {
	if k.Via != "index" && k.Via != "get" && k.Via != "in" {
		return
	}
	wrapper := l.wrapperOf(fi, k) != nil
	if k.Key.Kind != pyextract.ValStr {
		if !wrapper || k.Via != "index" || fi.vendored {
			return
		}
		known := false // wrapper[name]: the names it can be, else one the linker cannot name
		for _, c := range l.contexts(fi, fi.classes[k.Class], k.Func) {
			for _, v := range l.eval(&k.Key, c.at(k.Line)) {
				if d, ok := l.lookup(KindConfig, v.str); ok && v.kind == aStr {
					known = true
					s := at
					s.Loose = true
					l.read(KindConfig, d, s)
				}
			}
		}
		if !known {
			l.unresolvedKey(fi, at, k)
		}
		return
	}
	// an attribute (self._extra_config, coordinator._charm.config), or a bare name that says
	// whose config it is (config = hookenv.config() in a classic charm): another bare name is
	// a local or a parameter (relation_config), more often a dict of another kind
	last := strings.ToLower(lastName(k.Object))
	named := len(k.Object) >= 2 && strings.HasSuffix(last, "config") ||
		len(k.Object) == 1 && (last == "config" || last == "charm_config" || last == "juju_config")
	if !wrapper && (!named || !l.untraced(fi, k.Scope, k.Object)) {
		return
	}
	if d, ok := l.lookup(KindConfig, k.Key.Str); ok {
		at.Loose = true
		l.read(KindConfig, d, at)
	}
}

// wrapperOf is the class that defines __getitem__ for the object of k["..."], when that
// object is an instance of a class of the tree with one (hydra's CharmConfig wrapper:
// `self["use_ingress_for_relations"]` in its own properties, `self.charm_config["x"]` in the
// charm); nil otherwise.
func (l *charmLinker) wrapperOf(fi *fileInfo, k *pyextract.KeyAccess) *classInfo {
	getitem := func(cl *classInfo) *classInfo {
		for _, b := range l.mro(cl) {
			if b.methods["__getitem__"] != nil {
				if l.readsConfig(b, "__getitem__") {
					return b
				}
				return nil // a mapping of something else
			}
		}
		return nil
	}
	if len(k.Object) == 1 && k.Object[0].Name == "self" {
		if cl := fi.classes[k.Class]; cl != nil {
			if w := getitem(cl); w != nil {
				return w
			}
		}
	}
	for _, c := range l.contexts(fi, fi.classes[k.Class], k.Func) {
		for _, a := range l.chain(k.Object, c) {
			if a.kind == aObj && a.cls != nil {
				if w := getitem(a.cls); w != nil {
					return w
				}
			}
		}
	}
	return nil
}

// readsConfig reports whether method fn of cls reads the charm's config with a key
// (`return self._config.get(key)`): what makes a class with __getitem__ a config wrapper.
func (l *charmLinker) readsConfig(cls *classInfo, fn string) bool {
	fi := cls.file
	for i := range fi.Facts.Keys {
		if k := &fi.Facts.Keys[i]; k.Class == cls.name && k.Func == fn && l.isConfig(fi, k.Scope, k.Object) {
			return true
		}
	}
	return false
}

// subscripted reports whether some subscript the linker read (wrapper["x"]) is on an object
// of cls, the class defining __getitem__: then its callers are linked where they are
// written, and its own config.get(key) is no unresolved name. pyextract records subscripts
// only on names like config, params, cfg: a wrapper used as `self.settings["x"]` keeps its
// unresolved read, and with it the caution of "may name it" on options read by nothing.
func (l *charmLinker) subscripted(cls *classInfo) bool {
	if cls == nil {
		return false
	}
	if l.wrappers == nil {
		l.wrappers = map[*classInfo]bool{}
		for _, fi := range l.scope {
			for i := range fi.Facts.Keys {
				if k := &fi.Facts.Keys[i]; k.Via == "index" || k.Via == "get" {
					if w := l.wrapperOf(fi, k); w != nil {
						l.wrappers[w] = true
					}
				}
			}
		}
	}
	return l.wrappers[cls]
}

// untraced reports whether obj evaluates to nothing the linker knows in every context of
// the site (an attribute set in a base class of another package).
func (l *charmLinker) untraced(fi *fileInfo, sc pyextract.Scope, obj pyextract.Chain) bool {
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		for _, a := range l.chain(obj, c) {
			if a.kind != aUnknown {
				return false
			}
		}
	}
	return true
}

// keyFStrings are the f-strings a name's key may be: the key itself
// (config.get(f"always_enable_{receiver}")), a local assigned one before the read
// (name = "flannel-{}".format(arch()); resource_get(name)), the values of a dict display it
// indexes (indexedFStrings).
func (l *charmLinker) keyFStrings(fi *fileInfo, sc pyextract.Scope, key *pyextract.Value, c *ctx) []*pyextract.Value {
	if key.Kind == pyextract.ValFStr {
		return []*pyextract.Value{key}
	}
	out := l.indexedFStrings(key, c)
	if key.Kind == pyextract.ValChain && len(key.Chain) == 1 && key.Chain[0].Index == nil && !key.Chain[0].Call && sc.Func != "" {
		as, _ := fi.local(funcKey{sc.Class, sc.Func}, key.Chain[0].Name, sc.Line)
		for _, a := range as {
			if a.Value.Kind == pyextract.ValFStr {
				out = append(out, &a.Value)
			}
		}
	}
	return out
}

// readFittingAny is readFitting of each of keys; it reports whether any fits a declared name.
func (l *charmLinker) readFittingAny(keys []*pyextract.Value, kind string, at Site) bool {
	known := false
	for _, k := range keys {
		known = l.readFitting(k, kind, at) || known
	}
	return known
}

// indexedFStrings are the f-string values of the dict display key indexes (NAMES[x], where
// NAMES is a dict display or comprehension): which one x picks is not known.
func (l *charmLinker) indexedFStrings(key *pyextract.Value, c *ctx) []*pyextract.Value {
	ch := key.Chain
	if key.Kind != pyextract.ValChain || len(ch) < 2 || ch[len(ch)-1].Index == nil {
		return nil
	}
	var out []*pyextract.Value
	for _, a := range l.chain(ch[:len(ch)-1], c) {
		if a.kind != aSeq || a.seq.Kind != pyextract.ValDict {
			continue
		}
		for i := range a.seq.Kwargs {
			if v := &a.seq.Kwargs[i].Value; v.Kind == pyextract.ValFStr {
				out = append(out, v)
			}
		}
	}
	return out
}

// fitting lists the declared names of kind (config options, relations...) an f-string key can
// spell, sorted, when its literal text holds at least minFitText characters
// (f"always_enable_{receiver}" fits always_enable_zipkin and always_enable_otlp_grpc;
// f"{name}" fits anything and so nothing).
func (l *charmLinker) fitting(key *pyextract.Value, kind string) []string {
	if key.Kind != pyextract.ValFStr {
		return nil
	}
	var re strings.Builder
	literal := 0
	re.WriteString("^")
	for rest := key.Str; rest != ""; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			open = len(rest)
		}
		re.WriteString(regexp.QuoteMeta(norm(rest[:open])))
		literal += open
		rest = rest[open:]
		if rest == "" {
			break
		}
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return nil
		}
		re.WriteString(".+")
		rest = rest[end+1:]
	}
	re.WriteString("$")
	if literal < minFitText {
		return nil
	}
	pat, err := regexp.Compile(re.String())
	if err != nil {
		return nil
	}
	var out []string
	for n, d := range l.declared[kind] {
		if pat.MatchString(n) {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// readFitting reads, loosely at site at, the declared names of kind key's f-string text fits
// (fitting); it reports whether there were any.
func (l *charmLinker) readFitting(key *pyextract.Value, kind string, at Site) bool {
	fits := l.fitting(key, kind)
	at.Loose = true
	for _, d := range fits {
		l.read(kind, d, at)
	}
	return len(fits) > 0
}

// minFitText is the literal text an f-string key needs for fitting to match options by it.
const minFitText = 4

// rawConfig reports a key read on the model's ConfigData (self.model.config[...], or a local
// assigned it: raw = self.model.config), not on the charm's config property.
func rawConfig(fi *fileInfo, k *pyextract.KeyAccess) bool {
	hasModel := func(c pyextract.Chain) bool {
		return slices.ContainsFunc(c, func(s pyextract.Step) bool { return s.Name == "model" })
	}
	if hasModel(k.Object) {
		return true
	}
	if len(k.Object) == 1 {
		as, _ := fi.local(funcKey{k.Class, k.Func}, k.Object[0].Name, k.Line)
		return slices.ContainsFunc(as, func(a *pyextract.Assign) bool { return hasModel(a.Value.Chain) })
	}
	return false
}

// builtWithFields reports a class the charm's code builds giving a field by name
// (RouteConfig(rule=rule, root_url=url)): a record of values the code worked out, read where
// they come from, not a model the options load into (CharmConfig(**self.config), load_config).
func (l *charmLinker) builtWithFields(cl *classInfo) bool {
	return slices.ContainsFunc(l.byClass[cl], func(s *site) bool {
		return s.target == cl && slices.ContainsFunc(s.value.Kwargs, func(k pyextract.Kwarg) bool {
			return slices.ContainsFunc(cl.fields, func(f classAttr) bool { return f.name == k.Name })
		})
	})
}

// typedConfig reports a charm class whose config is typed: it sets config_type
// (data_models' TypedCharmBase[CharmConfig]), so self.config is a model, not ConfigData.
// Asked for every config[...] read, it is worked out once.
func (l *charmLinker) typedConfig() bool {
	if l.typed == nil {
		typed := slices.ContainsFunc(l.charmCls, func(cl *classInfo) bool {
			_, ok := l.lookupClassAttr(cl, "config_type")
			return ok
		})
		l.typed = &typed
	}
	return *l.typed
}

// configTypes are the values of the charm classes' config_type (data_models'
// TypedCharmBase[CharmConfig]): the class self.config is an instance of.
func (l *charmLinker) configTypes() []aval {
	var out []aval
	for _, cl := range l.charmCls {
		if vals, ok := l.lookupClassAttr(cl, "config_type"); ok {
			out = append(out, vals...)
		}
	}
	return out
}

// loadedConfig is what the class argument of v, a call self.load_config(Cls, ...) at sc in
// fi, evaluates to: the class the charm loads its options into; nil for any other value.
func (l *charmLinker) loadedConfig(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) []aval {
	if v.Kind != pyextract.ValCall || lastName(v.Chain) != "load_config" || len(v.Args) == 0 {
		return nil
	}
	return l.eval(&v.Args[0], &ctx{file: fi, cls: fi.classes[sc.Class], fn: sc.Func})
}

// configClasses are the typed config classes of the charm: the value of a charm class's
// `config_type`, the argument of load_config(...) and a class built with the whole config
// unpacked into it (loadSplats), the first n, which the charm loads its options into (given
// holds the fields a load_config call passes by keyword, load_config(Cls,
// partition_name=self.app.name), which are no options); then first-party classes named
// *Config* at least two of whose fields, and half of them, are declared options.
func (l *charmLinker) configClasses() (out []*classInfo, n int, given map[*classInfo]map[string]bool) {
	seen := map[*classInfo]bool{}
	given = map[*classInfo]map[string]bool{}
	add := func(vals []aval, kwargs ...pyextract.Kwarg) {
		for _, a := range vals {
			if a.kind != aClass {
				continue
			}
			for _, k := range kwargs {
				if given[a.cls] == nil {
					given[a.cls] = map[string]bool{}
				}
				given[a.cls][k.Name] = true
			}
			if !seen[a.cls] {
				seen[a.cls] = true
				out = append(out, a.cls)
			}
		}
	}
	add(l.configTypes())
	for _, fi := range l.scope {
		check := func(sc pyextract.Scope, v *pyextract.Value) {
			if vals := l.loadedConfig(fi, sc, v); len(vals) > 0 {
				add(vals, v.Kwargs...)
			}
		}
		for i := range fi.Facts.Calls {
			check(fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		for i := range fi.Facts.Assigns {
			check(fi.Facts.Assigns[i].Scope, &fi.Facts.Assigns[i].Value)
		}
	}
	splats := l.loadSplats()
	for _, at := range slices.SortedFunc(maps.Keys(splats), func(a, b fileLine) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	}) {
		for _, cl := range splats[at] {
			add([]aval{{kind: aClass, cls: cl}})
		}
	}
	n = len(out)
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for _, name := range sortedKeys(fi.classes) {
			cl := fi.classes[name]
			if seen[cl] || !strings.Contains(name, "Config") {
				continue
			}
			match := 0
			for _, f := range cl.fields {
				if _, ok := l.lookup(KindConfig, f.name); ok {
					match++
				}
			}
			if match >= 2 && 2*match >= len(cl.fields) && !l.builtWithFields(cl) {
				add([]aval{{kind: aClass, cls: cl}})
			}
		}
	}
	return out, n, given
}

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
	for _, fi := range l.scope {
		for i := range fi.Facts.Keys {
			k := &fi.Facts.Keys[i]
			actions := runs[scopeKey{fi.Path, k.Class, k.Func}]
			if len(actions) == 0 || k.Via == "all" || !l.paramsObject(fi, k) {
				continue
			}
			at := siteAt(fi, k.Scope, ViaParam, k.Via)
			names, ok := l.strVals(&k.Key, &ctx{file: fi, cls: fi.classes[k.Class], fn: k.Func, line: k.Line})
			if !ok && len(names) == 0 {
				l.unresolvedKey(fi, at, k)
				continue
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
// class or the nearest base defining it, or f, a function of the same module.
func (l *charmLinker) handedTo(fi *fileInfo, class string, callee pyextract.Chain) (scopeKey, bool) {
	switch {
	case len(callee) == 1 && fi.funcSyms[funcKey{"", callee[0].Name}] != nil:
		return scopeKey{fi.Path, "", callee[0].Name}, true
	case len(callee) == 2 && callee[0].Name == "self" && fi.classes[class] != nil:
		for _, k := range l.mro(fi.classes[class]) {
			if k.methods[callee[1].Name] != nil {
				return scopeKey{k.file.Path, k.name, callee[1].Name}, true
			}
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
			for _, kw := range a.Value.Kwargs {
				it := pending[kw.Name]
				if it == nil || kw.Value.Kind != pyextract.ValChain {
					continue
				}
				if sym, in := l.moduleFunc(fi, kw.Value.Chain); sym != nil && !in.library {
					it.Handlers = append(it.Handlers, Handler{Event: kw.Name, Symbol: sym.Name, File: in.Path, Line: sym.Line, Via: ViaTable,
						ObserveFile: fi.Path, ObserveLine: a.Line})
				}
			}
		}
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
	for fi, s := range l.topFunctions() {
		for _, d := range s.Decorators {
			name, args := decoratorCall(d)
			args = append(args, l.splatArgs(fi, d)...)
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
					}
					continue
				}
				switch name {
				case "hook":
					if ep, _, ok := strings.Cut(a, "-relation-"); ok {
						rels, via = []string{ep}, ViaHook
						if eps, ok := l.hookTemplate(ep); ok {
							rels = eps // @hook('{interface:mysql}-relation-joined'): each endpoint of it
						}
					} else if kind, ev, ok := eventKind(strings.ReplaceAll(strings.TrimSuffix(a, ".real"), "-", "_")); ok && kind == KindLifecycle {
						// @hooks.hook('config-changed'), charms.reactive's @hook('upgrade-charm'):
						// a lifecycle event, as ops' observe of self.on.config_changed is
						// ('install.real': the Python half of a charm whose install hook is a
						// shell script that runs it)
						it := l.iface(KindLifecycle, ev)
						if !slices.ContainsFunc(it.Handlers, func(h Handler) bool { return h.Symbol == s.Name && h.File == fi.Path }) {
							it.Handlers = append(it.Handlers, Handler{Event: a, Symbol: s.Name, File: fi.Path, Line: s.Line, Via: ViaHook})
						}
					}
				case "when", "when_all", "when_any":
					if ep := flagEndpoint(a); ep != "" && !own[a] {
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
					if d, ok := l.lookup(KindRelation, rel); (!ok || asWrittenOnly(rel, d)) && !fi.test && !fi.vendored && (via == ViaHook || strings.HasPrefix(a, "endpoint.")) {
						if f := l.find(FindUndeclaredRelation, rel, Site{File: fi.Path, Line: s.Line, Symbol: s.Name}); f != nil {
							f.Registered = a
						}
					}
				}
			}
		}
	}
}

// splatRE finds a *NAME argument in a decorator's arguments.
var splatRE = regexp.MustCompile(`(?:^|[(,\s])\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[,)]|$)`)

// splatArgs are the strings of the *NAME arguments of decorator d, NAME a list or tuple of
// strings (literals or constants) in fi's module (@reactive.when(*COMPLETE_INTERFACE_STATES), the OpenStack
// reactive charms' idiom), which the call receives as its arguments.
func (l *charmLinker) splatArgs(fi *fileInfo, d string) []string {
	_, rest, ok := strings.Cut(d, "(")
	if !ok || !strings.Contains(rest, "*") {
		return nil
	}
	var out []string
	for _, m := range splatRE.FindAllStringSubmatch(withoutStrings(rest), -1) {
		for _, x := range l.eval(&pyextract.Value{Kind: pyextract.ValChain, Chain: pyextract.Chain{{Name: m[1]}}}, &ctx{file: fi}) {
			if x.kind != aSeq || x.seq.Kind != pyextract.ValSeq {
				continue
			}
			for i := range x.seq.Args {
				vals, _ := l.strVals(&x.seq.Args[i], x.at)
				for _, v := range vals {
					if !v.loose {
						out = append(out, v.str)
					}
				}
			}
		}
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
	var it *Interface
	if ep, ev, ok := strings.Cut(hook, "-relation-"); ok {
		if d, ok := l.lookup(KindRelation, ep); ok && slices.Contains(relationEvents, "relation_"+ev) {
			it = l.ifaces[ifaceKey{KindRelation, d}]
		}
	} else if st, ev, ok := strings.Cut(hook, "-storage-"); ok {
		if d, ok := l.lookup(KindStorage, st); ok && slices.Contains(storageEvents, "storage_"+ev) {
			it = l.ifaces[ifaceKey{KindStorage, d}]
		}
	} else if kind, ev, ok := eventKind(strings.ReplaceAll(hook, "-", "_")); ok && kind == KindLifecycle {
		it = l.iface(KindLifecycle, ev)
	}
	if it != nil && !slices.ContainsFunc(it.Handlers, func(h Handler) bool { return h.File == fi.Path && h.Event == hook }) {
		it.Handlers = append(it.Handlers, Handler{Event: hook, Symbol: fi.Path, File: fi.Path, Line: 1, Via: ViaHookScript})
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
// each with the kind it looks up, whether it takes a flag (else a name as written), and the
// keyword its argument may be given as.
var namedLookups = map[string]struct {
	kind    string
	flag    bool
	keyword string
}{
	"endpoint_from_flag": {KindRelation, true, "flag"},
	"is_flag_set":        {KindRelation, true, "flag"},
	// the older charms.reactive's names for the same (ghost's RelationBase.from_state("database.available"))
	"is_state":           {KindRelation, true, "state"},
	"from_state":         {KindRelation, true, "state"},
	"endpoint_from_name": {KindRelation, false, "endpoint_name"},
	"relation_ids":       {KindRelation, false, "reltype"},
	// charm-helpers' relations_of_type("nrpe-external-master"): every unit's data on it
	"relations_of_type": {KindRelation, false, "reltype"},
	// charm-helpers' storage_list('osd-devices') (ceph-osd), the ids of a storage's instances;
	// not storage_get('location', sid), which takes an instance's id ("osd-devices/0"), never
	// written out
	"storage_list": {KindStorage, false, "storage_name"},
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
// storage_list("osd-devices"). A name
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
				name != "" && !fi.vendored && !(named.kind == KindRelation && name == jujuInfo) {
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
// its last name ("when") and its string literal arguments.
func decoratorCall(d string) (name string, args []string) {
	head, rest, ok := strings.Cut(d, "(")
	if !ok {
		return "", nil
	}
	if k := strings.LastIndexByte(head, '.'); k >= 0 {
		head = head[k+1:]
	}
	for {
		k := strings.IndexAny(rest, `'"`)
		if k < 0 {
			return head, args
		}
		q := rest[k]
		end := strings.IndexByte(rest[k+1:], q)
		if end < 0 {
			return head, args
		}
		args = append(args, rest[k+1:k+1+end])
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

// linkFeaturePackages is the last resort for a declared action, relation or config option
// nothing else links (or a relation only looked up: otel-collector's cycle check of
// receive-otlp and send-otlp, which charmlibs.interfaces.otlp serves): a package from outside
// the tree that the charm's code imports and that is named after a word of the interface's
// name (charm_refresh for the actions pre-refresh-check, force-refresh-start and
// resume-refresh, the peer relation refresh-v-three and the option pause-after-unit-refresh)
// may handle it on the charm's behalf. Its import is recorded as a read with via "package"
// and the module as Detail, which check reports as a possibility instead of a warning.
func (l *charmLinker) linkFeaturePackages() {
	// the charm's imports of packages from outside the tree, with the words of their names:
	// not charm libraries (charms.*), whose default endpoint absentLibraryEndpoint reads from
	// the module name, nor the standard library or ops (stdlibModules)
	type pkgImport struct {
		site Site
		top  []string // the feature words of the package's name
	}
	var imports []pkgImport
	// a package named after the charm is its workload's own (indico's plugins import
	// indico.core), not a feature the workload's options are named after
	charmWords := featureWords(nameParts(l.ch.Name))
	for _, fi := range l.scope {
		if fi.library || fi.test {
			continue
		}
		seen := map[string]bool{}
		for _, im := range fi.Imports {
			root, _, _ := strings.Cut(im.Module, ".")
			if pkg := opsInterfacePackage(im.Module); pkg != "" {
				root = "interface_" + pkg // installed into ops' namespace, not ops itself
			}
			if im.TypeOnly || seen[im.Module] || len(l.ix.modules[im.Module]) > 0 || root == "charms" || stdlibModules[root] {
				continue
			}
			seen[im.Module] = true
			top := root
			if root == "charmlibs" { // a namespace of packages: charmlibs.pathops, charmlibs.interfaces.service_mesh
				switch p := strings.Split(im.Module, "."); {
				case len(p) > 2 && p[1] == "interfaces":
					top = p[2]
				case len(p) == 2 && p[1] == "interfaces": // from charmlibs.interfaces import service_mesh
					top = im.Name
				case len(p) > 1:
					top = p[1]
				}
			}
			tw := featureWords(strings.Split(top, "_"))
			if len(tw) > 0 && !slices.ContainsFunc(tw, func(w string) bool { return !slices.Contains(charmWords, w) }) {
				continue
			}
			imports = append(imports, pkgImport{Site{File: fi.Path, Line: im.Line, Via: ViaPackage, Detail: im.Module}, tw})
		}
	}
	if len(imports) == 0 {
		return
	}
	var names []ifaceKey
	for _, a := range l.ch.Actions {
		names = append(names, ifaceKey{KindAction, a.Name})
	}
	for _, r := range l.ch.Relations {
		names = append(names, ifaceKey{KindRelation, r.Name})
	}
	for _, o := range l.ch.Config {
		names = append(names, ifaceKey{KindConfig, o.Name})
	}
	for _, key := range names {
		it := l.ifaces[key]
		if it == nil || len(it.Handlers) > 0 || key.kind == KindConfig && len(it.Reads) > 0 ||
			key.kind == KindRelation && slices.ContainsFunc(it.Reads, func(s Site) bool { return s.Via != ViaLookup }) {
			continue // a relation only looked up (a check that it exists) is not handled yet
		}
		words := featureWords(nameParts(key.name))
		for _, im := range imports {
			named := slices.ContainsFunc(im.top, func(w string) bool { return slices.Contains(words, w) })
			if key.kind == KindConfig {
				// an option's name is made of common words (k8s-service-name): every word of the
				// package's name must be in it (charm_refresh, pause-after-unit-refresh), so that
				// charmed_service_mesh_helpers does not read it
				named = len(im.top) > 0 && !slices.ContainsFunc(im.top, func(w string) bool { return !slices.Contains(words, w) })
			}
			if named {
				l.read(key.kind, key.name, im.site)
				l.featurePkgs[im.site.Detail] = true
			}
		}
	}
}

// nameParts splits a charm's or interface's name at '-' and '_'.
func nameParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' })
}

// featureWords are the words of a name that can name a feature: four letters or more, and
// not a word every charm package or action has.
func featureWords(parts []string) []string {
	var out []string
	for _, p := range parts {
		p = strings.ToLower(p)
		if len(p) >= 4 && !slices.Contains(genericWords, p) {
			out = append(out, p)
		}
	}
	return out
}

var genericWords = []string{"charm", "charms", "interfaces", "libs", "operator", "operators", "action", "actions",
	"check", "start", "stop", "status", "list", "show", "create", "delete", "remove", "update", "info", "data"}

// linkDelegates: an object of a package from outside the tree that the charm's own code
// builds and hands the charm (coordinated_workers' Worker(charm=self, ...), or a class of the
// tree derived from such a package's, as TempoCoordinator(Coordinator)) can read any of the
// charm's options, or observe its actions, where the linker cannot see. Each option nothing
// else reads, and each action nothing handles, gets a read with via "delegate" at the first
// such construction, the package's module as Detail, which check reports as a possibility
// instead of a warning; with no such object but a base charm class from outside the tree,
// the read is that class's (via "charm-base", packageCharmBase), and unhandled relations get
// it too. An object given a relation's name
// (relation_name=, tracing_relation_name=, a declared name) is an interface library, which
// reads its relation, not the charm's options; one given a declared resource's name
// (OCIImageResource(self, "image")) fetches that resource. (Relations are left alone: an interface
// library from a pip package observes its default relation, and would soften every
// unhandled relation of the charm; only a base charm class from outside the tree, which the
// charm is, gets its unhandled relations as well.)
func (l *charmLinker) linkDelegates() {
	var at *Site
	for _, s := range l.sites {
		if at != nil {
			break
		}
		if s.file.vendored || s.file.test || len(s.value.Chain) == 0 || l.namesRelation(s) || l.namesDeclared(s, KindResource) {
			continue
		}
		var module string
		if s.target != nil {
			module = l.externalBase(s.target)
		} else {
			module = l.outsideModule(s.file, s.value.Chain[0].Name)
		}
		// not an interface library published as charmlibs.interfaces.<interface> or installed as
		// ops.interface_<name>: it serves its relation (absentLibraryEndpoint), as one given its
		// relation's name does
		if module != "" && !l.featurePkgs[module] && !publishedInterfaceLibrary(module) && opsInterfacePackage(module) == "" && l.passesCharm(s) {
			at = &Site{File: s.file.Path, Line: s.line, Symbol: symbolName(className(s.cls), s.fn), Via: ViaDelegate, Detail: module}
		}
	}
	base := l.packageCharmBase()
	if base != nil {
		// a relation too, but only for a base charm class: the charm is that class, which may
		// observe any of its relations (ops_openstack's CinderStoragePluginCharm observes
		// storage-backend); an object merely given the charm serves its own relation
		for _, rel := range l.ch.Relations {
			if it := l.ifaces[ifaceKey{KindRelation, rel.Name}]; it != nil && len(it.Handlers) == 0 && len(it.Reads) == 0 {
				l.read(KindRelation, rel.Name, *base)
			}
		}
	}
	if at == nil {
		at = base
	}
	if at == nil {
		return
	}
	for _, o := range l.ch.Config {
		if it := l.ifaces[ifaceKey{KindConfig, o.Name}]; it != nil && len(it.Reads) == 0 {
			l.read(KindConfig, o.Name, *at)
		}
	}
	// an action too: such an object may observe it (data_platform_helpers' StatusHandler,
	// given the charm, handles status-detail)
	for _, a := range l.ch.Actions {
		if it := l.ifaces[ifaceKey{KindAction, a.Name}]; it != nil && len(it.Handlers) == 0 && len(it.Reads) == 0 {
			l.read(KindAction, a.Name, *at)
		}
	}
}

// packageCharmBase is the first base charm class (named ...Charm, as isCharm takes it) from a
// package outside the tree that one of the charm's own classes derives from (ops_openstack.core.OSBaseCharm, which observes the
// pause and resume actions and reads the source option itself), as a ViaBase site at the
// class: that base may handle what no code of the tree does. Nil when there is none.
func (l *charmLinker) packageCharmBase() *Site {
	for _, k := range l.charmCls {
		if !inDir(k.file.Path, l.ch.Dir) || k.file.library {
			continue
		}
		for _, b := range k.sym.Bases {
			if IsCharmBase(b) {
				continue // ops' own CharmBase handles nothing
			}
			// a charm class by its name (OSBaseCharm), not a mixin beside CharmBase
			if m := l.outsideModule(k.file, baseRoot(b)); m != "" && l.ix.outsideCharmName(lastSegment(b)) {
				return &Site{File: k.file.Path, Line: k.sym.Line, Symbol: k.name, Via: ViaBase, Detail: strings.TrimSpace(b)}
			}
		}
	}
	return nil
}

// lastSegment is the last dotted part of a base class as written, without a subscript.
func lastSegment(base string) string {
	name, _, _ := strings.Cut(base, "[")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSpace(name)
}

// external reports a module that fi imports from outside the tree (no module of the tree on
// its path has the name: a sibling charm's copy of charm-helpers is not on this charm's path)
// and that is neither the standard library, ops, a charm library (charms.<name>.v<N>, which
// a charm may fetch when it builds) nor the reactive framework's (charms.reactive,
// charms.layer). Another charms.* package is a pip package like any other
// (charms.node_base, which reads the charm's "labels" option).
func (l *charmLinker) external(fi *fileInfo, module string) bool {
	top, _, _ := strings.Cut(module, ".")
	inTree := l.ix.module(fi, module, l.charm) != nil
	if opsInterfacePackage(module) != "" {
		return !inTree // installed into ops' namespace, not ops itself
	}
	if top == "charms" {
		// the bare namespace ("import charms.x.v0.y" and "from charms import layer" reach
		// here as "charms") says nothing of which package: not outside
		return !inTree && module != "charms" && !charmLibModule(module) && !reactiveFramework(module)
	}
	return !inTree && top != "ops" && !stdlibModules[top]
}

// charmLibModule reports a charm library's module path, charms.<name>.v<N>[.<module>].
func charmLibModule(module string) bool {
	p := strings.Split(module, ".")
	if len(p) < 3 {
		return false
	}
	v, ok := strings.CutPrefix(p[2], "v")
	return ok && v != "" && strings.Trim(v, "0123456789") == ""
}

// reactiveFramework reports the reactive framework's modules (charms.reactive, charms.layer.*),
// which a reactive charm's layers bring.
func reactiveFramework(module string) bool {
	p := strings.Split(module, ".")
	return len(p) > 1 && (p[1] == "reactive" || p[1] == "layer")
}

// outsideModule is the module of an outside package (external) that fi imports name from,
// or "".
func (l *charmLinker) outsideModule(fi *fileInfo, name string) string {
	if im, ok := fi.imports[name]; ok && l.external(fi, im.Module) {
		return im.Module
	}
	return ""
}

// externalBase is the module of an external package a base of cls (or of its bases in the
// tree) is imported from, or "". The charm classes themselves do not count.
func (l *charmLinker) externalBase(cls *classInfo) string {
	for _, k := range l.mro(cls) {
		if l.isCharm(k) {
			return ""
		}
		for _, b := range k.sym.Bases {
			if m := l.outsideModule(k.file, baseRoot(b)); m != "" {
				return m
			}
		}
	}
	return ""
}

// baseRoot is the first name of a base class as written (ops_openstack for
// ops_openstack.core.OSBaseCharm, Generic for Generic[T]).
func baseRoot(base string) string {
	root, _, _ := strings.Cut(strings.TrimSpace(base), ".")
	root, _, _ = strings.Cut(root, "[")
	return root
}

// namesRelation reports a call given a relation's name: a keyword with relation in its name
// (relation_name=, tracing_relation_name=), or any argument whose value is a declared
// relation's name (SLOS_RELATION_NAME, endpoint="logging"; not readiness_check_endpoint="/ready").
//
// A peer relation does not count (Coordinator(charm=self, peer_relation="peers")): an object
// keeping state among the charm's units is the charm's own machinery, not an interface
// library, and may read its options.
func (l *charmLinker) namesRelation(s *site) bool {
	// relation reports a declared relation's name, a peer relation's or another's
	relation := func(peer bool) func(aval) bool {
		return func(a aval) bool {
			d, declared := l.lookup(KindRelation, a.str)
			return a.kind == aStr && declared && l.isPeer(d) == peer
		}
	}
	for k := range s.value.Kwargs {
		key := paramKey(s.value.Kwargs[k].Name)
		if !strings.Contains(key, "relation") || strings.HasPrefix(key, "peer") {
			continue
		}
		// relation_name="peers": still the peer relation
		for _, c := range l.contexts(s.file, s.cls, s.fn) {
			if !slices.ContainsFunc(l.eval(&s.value.Kwargs[k].Value, c), relation(true)) {
				return true
			}
		}
	}
	return l.anyArg(s, relation(false))
}

// namesDeclared reports whether the call of site s is given the name of a declared interface
// of the kind.
func (l *charmLinker) namesDeclared(s *site, kind string) bool {
	return l.anyArg(s, func(a aval) bool {
		_, declared := l.lookup(kind, a.str)
		return a.kind == aStr && declared
	})
}

// passesCharm reports whether the call of site s hands over the charm object itself.
func (l *charmLinker) passesCharm(s *site) bool {
	return l.anyArg(s, func(a aval) bool { return a.kind == aCharm })
}
