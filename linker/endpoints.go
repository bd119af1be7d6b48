package linker

// Endpoints: which relations an object of a charm library or interface package is bound to,
// from the relation-naming parameters of its class's __init__ (relation_name=, endpoint=),
// their defaults, the arguments its construction passes, or, for a class outside the tree,
// the keywords of the call.

import (
	"cmp"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

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
	// strong: named by a parameter or attribute called *relation* or *integration* (not just
	// *endpoint*), so an undeclared name is a finding.
	strong bool
	// cond: the parameter that names it is used only under conditions in the constructor
	// (cert_handler's peer_relation_name, for Juju without secrets): a finding is a warning.
	cond bool
	// near: a positional argument a letter or two from a declared relation's name (positional),
	// which the library may take for something else ("https" beside http): a finding is a
	// warning (review rev107).
	near bool
}

// endpoints returns the relations an object is bound to: the value of its class's
// relation-naming __init__ parameter (relation_name, relationship_name, relation,
// endpoint, ...: argument or default), else of such a self attribute; for a class not in
// the tree, relation-naming keyword arguments (a bare relation= or endpoint= only with a
// declared name) and positional strings naming a declared relation.
func (l *charmLinker) endpoints(inst *instance) endpointSet {
	b := &binding{l: l, inst: inst}
	if inst.cls == nil {
		if inst.call == nil {
			return b.out
		}
		return b.outsideCall()
	}
	if b.initParams() {
		return b.out
	}
	b.selfAttrs()
	if !b.out.relParam {
		b.endpointMaps()
		if b.out.relParam && inst.call != nil {
			// a subclass of a class we cannot read (cosl's Coordinator): the declared names of
			// its relation-naming keywords beside the map bind too (peer_relation=)
			b.relationKeywords(true)
		}
	}
	if !b.out.relParam {
		if up := l.boundArguments(inst); len(up.names) > 0 {
			return up
		}
		// A subclass that passes the names on to the class we cannot read in its own
		// super().__init__ (tempo's TempoWorker(Worker): endpoints={"cluster":
		// "tempo-cluster"}): that call is the library object's construction.
		if call, at := l.outsideSuperInit(inst); call != nil {
			up := l.endpoints(&instance{call: call, at: at, cond: inst.cond})
			up.dyn = up.dyn || b.out.dyn
			return up
		}
		// A subclass without an __init__ of its own of a class we cannot read (a charm
		// library fetched when the charm is packed: class StoreRequirer(S3Requirer)): its
		// construction is the outside class's, arguments and all.
		if inst.call != nil && builtWithCharm(inst.call) && l.outsideInit(inst.cls) {
			return b.outsideCall()
		}
	}
	return b.out
}

// binding collects, for endpoints, the relations one object is bound to.
type binding struct {
	l    *charmLinker
	inst *instance
	out  endpointSet
}

// add binds the relation names among vals, the values of param ("" for a role's name);
// declaredOnly binds only declared ones. A *name parameter none of whose values is a name
// makes the set dynamic.
func (b *binding) add(param string, vals []aval, declaredOnly bool) {
	lower := strings.ToLower(param)
	strong := strings.Contains(lower, "relation") || strings.Contains(lower, "integration")
	found := false
	for _, v := range vals {
		if v.kind != aStr {
			continue
		}
		if _, ok := b.l.lookup(KindRelation, v.str); (declaredOnly || v.loose) && !ok {
			continue
		}
		found = true
		b.out.names = append(b.out.names, endpointName{name: v.str, strong: strong})
	}
	if !found && !declaredOnly && strings.Contains(lower, "name") {
		b.out.dyn = true // relation=, endpoint= may hold a Relation object, not a name
		b.out.dynParam = cmp.Or(b.out.dynParam, param)
	}
}

// endpointMaps binds the declared names of a map of roles to endpoint names handed to a
// library object ("endpoints={"cluster": "tempo-cluster", ...}", cosl's Coordinator).
func (b *binding) endpointMaps() {
	call := b.inst.call
	if call == nil {
		return
	}
	for i := range call.Kwargs {
		kw := &call.Kwargs[i]
		if kw.Value.Kind != pyextract.ValDict || !endpointMapParam(kw.Name) {
			continue
		}
		for j := range kw.Value.Kwargs {
			b.add("", b.l.eval(&kw.Value.Kwargs[j].Value, b.inst.at), true)
		}
	}
	b.out.relParam = b.out.relParam || len(b.out.names) > 0
}

// relationKeywords binds the relation-naming keywords of a call to a class we cannot read
// (declaredOnly: only declared names bind); it reports whether there was one.
func (b *binding) relationKeywords(declaredOnly bool) bool {
	found := false
	call := b.inst.call
	for i := range call.Kwargs {
		if kw := &call.Kwargs[i]; relationParam(kw.Name) {
			found = true
			// A bare relation= or endpoint= names other things too (an ACL tuple's
			// relation in an authorization client: relation="member"): only a declared
			// name binds, and an undeclared one is no finding.
			bare := paramKey(kw.Name)
			b.add(kw.Name, b.l.eval(&kw.Value, b.inst.at), declaredOnly || bare == "relation" || bare == "endpoint")
		}
	}
	return found
}

// outsideCall reads the call of a class we cannot read: its relation-naming keywords, its
// positional strings naming a declared relation, a charm library's default endpoint.
func (b *binding) outsideCall() endpointSet {
	call := b.inst.call
	b.endpointMaps() // and the relation-naming keywords beside the map (peer_relation=)
	b.out.relParam = b.relationKeywords(false) || b.out.relParam
	// Other *_name keywords that hold a declared relation's name bind it too
	// (cross_model_mesh_provides_name="provide-cmr-mesh" beside mesh_relation_name=):
	// a library object given several endpoints names the others by role.
	if b.out.relParam {
		for i := range call.Kwargs {
			if kw := &call.Kwargs[i]; !relationParam(kw.Name) && roleNameParam(kw.Name) {
				b.add("", b.l.eval(&kw.Value, b.inst.at), true)
			}
		}
	}
	if !b.out.relParam {
		for i := range call.Args {
			if a := &call.Args[i]; a.Kind == pyextract.ValStr || a.Kind == pyextract.ValChain {
				b.positional(b.l.eval(a, b.inst.at))
			}
		}
		b.out.relParam = len(b.out.names) > 0
	}
	if !b.out.relParam {
		if name := b.l.absentLibraryEndpoint(b.inst); name != "" {
			b.out.names = append(b.out.names, endpointName{name: name})
			b.out.relParam = true
		}
	}
	return b.out
}

// positional binds the relation names among vals, a positional argument of a call to a class
// the tree does not hold: a declared relation's name binds it; a name that matches one only
// with '-' and '_' swapped, or is a letter or two from one (MountRequires(self, "mounts") for
// mount), binds as written and strongly, a finding, as the relation_name= keyword's would be
// (reviews rev104, rev105: the object was bound to the declared relation, or, with no name
// bound, to its library's interface by absentLibraryEndpoint, and the misspelling hidden).
// Only in an object built with the charm (builtWithCharm: a charm library's), and not a name
// among several (loose). Other strings bind nothing (a positional argument is as often a
// key, a label or a path; InfoMetricFamily("wazuh_api", ...) is a metric's name).
func (b *binding) positional(vals []aval) {
	withCharm := b.inst.call != nil && builtWithCharm(b.inst.call)
	for _, v := range vals {
		if v.kind != aStr {
			continue
		}
		d, ok := b.l.lookup(KindRelation, v.str)
		switch {
		case ok && (!asWrittenOnly(v.str, d) || v.loose || !withCharm):
			b.out.names = append(b.out.names, endpointName{name: v.str})
		case !v.loose && withCharm && ok:
			b.out.names = append(b.out.names, endpointName{name: v.str, strong: true})
		case !v.loose && withCharm && b.l.nearRelation(v.str):
			b.out.names = append(b.out.names, endpointName{name: v.str, strong: true, near: true})
		}
	}
}

// nearRelation reports a name of four or more characters a letter or two from exactly one
// declared relation's (typoOf).
func (l *charmLinker) nearRelation(name string) bool {
	if len(name) < 4 {
		return false
	}
	n := 0
	for _, r := range l.ch.Relations {
		if typoOf(name, r.Name) {
			n++
		}
	}
	return n == 1
}

// initParams binds the relation-naming parameters of the first __init__ up the classes that
// takes one, and reports whether there was one: a subclass whose own __init__ takes none
// passes the name on (super().__init__(charm, "radosgw", callback), a sunbeam-style handler),
// and bind follows that call to the parameter.
func (b *binding) initParams() bool {
	l := b.l
	for _, k := range l.mro(b.inst.cls) {
		init := k.methods["__init__"]
		if init == nil {
			continue
		}
		for i, p := range positional(init.Params) {
			if i == 0 || !relationParam(p.Name) {
				continue
			}
			b.out.relParam = true
			init := &ctx{file: k.file, cls: k, fn: "__init__", inst: b.inst}
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
			n := len(b.out.names)
			b.add(p.Name, vals, helpersDefault)
			if usedOnlyUnderCondition(k, "__init__", p.Name) {
				for j := n; j < len(b.out.names); j++ {
					b.out.names[j].cond = true
				}
			}
		}
		if b.out.relParam {
			return true
		}
	}
	return false
}

// selfAttrs binds the relation-naming self attributes of the first class up the classes that
// sets one.
func (b *binding) selfAttrs() {
	for _, k := range b.l.mro(b.inst.cls) {
		for _, name := range sortedKeys(k.selfAttrs) {
			if relationParam(name) {
				b.out.relParam = true
				b.add(name, b.l.member(b.inst.cls, b.inst, name), false)
			}
		}
		if b.out.relParam {
			return
		}
	}
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
			// a package installed into ops' namespace is not ops (rev96), however it is
			// imported: from ops.interface_x import C, from ops import interface_x (the base
			// interface_x.C), import ops.interface_x (ops.interface_x.C; review rev97)
			if top == "ops" && (opsInterfacePackage(im.Module) != "" || opsInterfacePackage(im.Module+"."+im.Name) != "" || opsInterfacePackage(b) != "") {
				top = "interface_"
			}
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
