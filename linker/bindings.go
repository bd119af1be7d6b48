package linker

// Relation-bound objects: where first-party code builds a library object bound to an
// endpoint (DatabaseRequires(self, relation_name="database")), what the object then reads or
// calls back, and the other calls that hand a declared name to code that uses it (a resource
// given to OCIImageResource, a container name given to a helper).

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

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
				// finds no sloth-peers; a helper class of the charm's own is judged by what it
				// does with the name: its on[name] folds '_' as ops does, and its lookups
				// as written are findings at their own lines)
				if (!ok || asWrittenOnly(ep.name, d) && !ownHelper(s.target)) && ep.strong {
					f := at
					if ep.cond {
						f.Conditional, f.AfterGuard = true, false
					}
					if ep.near {
						f.Detail = "near" // check: a warning
					}
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

// ownHelper reports a class of the charm's own code (not a vendored charm library's).
func ownHelper(cls *classInfo) bool {
	return cls != nil && cls.file != nil && !cls.file.library && !cls.file.vendored
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
	l.roleByName(s.target, d, rel, at)
}

// roleSuffix matches a library class named for the side of a relation it binds
// (DatabaseRequires, TLSCertificatesProvidesV4, IngressPerAppRequirer, LokiPushApiConsumer).
var roleSuffix = regexp.MustCompile(`^(.*?)(Requires|Requirer|Consumer|Provides|Provider)(V[0-9]+)?$`)

// roleByName checks the side a relation-bound object of a vendored library binds when its
// constructor checks nothing (validated): a class named …Requires, …Requirer or …Consumer
// binds the requires side, one named …Provides or …Provider the provides side, when its
// module also defines the counterpart (DatabaseRequires beside DatabaseProvides: the name says
// the side, not the remote's, as charmed-kubernetes' LBProvider's does). The YAML declaring
// the endpoint on the other side is a relation-mismatch (Mismatch "role-name", a warning):
// the object reads and writes the other side's data (review rev109: 14 of 17 seeded role
// swaps passed; none of the 500 trees' 190 such bindings disagrees).
func (l *charmLinker) roleByName(cls *classInfo, d string, rel charmyaml.Relation, at Site) {
	// (not a container-scoped relation: a subordinate and its principal pick their sides as
	// Juju lets them, filesystem-client's MountProvides on its requires endpoint "mount")
	if cls == nil || cls.file == nil || !cls.file.library || rel.Role == charmyaml.RolePeers || rel.Scope == "container" {
		return
	}
	m := roleSuffix.FindStringSubmatch(cls.name)
	if m == nil {
		return
	}
	role, counters := charmyaml.RoleRequires, []string{"Provides", "Provider"}
	switch m[2] {
	case "Provides":
		role, counters = charmyaml.RoleProvides, []string{"Requires"}
	case "Provider":
		role, counters = charmyaml.RoleProvides, []string{"Requirer", "Consumer"}
	case "Requires":
		counters = []string{"Provides"}
	case "Requirer", "Consumer":
		counters = []string{"Provider"}
	}
	if role == rel.Role || !slices.ContainsFunc(counters, func(c string) bool { return cls.file.classes[m[1]+c+m[3]] != nil }) {
		return
	}
	if f := l.find(FindRelationMismatch, d, at); f != nil {
		f.Mismatch, f.Expected, f.Declared = "role-name", role, rel.Role
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
// outside the tree (coordinated_workers' Worker(charm=self, container_name="pyroscope")), of
// a vendored charm library's class, or of a class of the tree derived from one (chisme's
// PebbleServiceComponent), has that object
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
		// (or a vendored charm library's class: KubernetesComputeResourcesPatch(self,
		// container_name=...), LogProxyConsumer(..., container_name=CONTAINER), review rev117)
		if s.target != nil && l.externalBase(s.target) == "" && !s.target.file.vendored || s.target == nil && l.outsideModule(s.file, s.value.Chain[0].Name) == "" {
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
