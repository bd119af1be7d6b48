package linker

// Code outside the tree: pip packages that serve an interface the charm's own code leaves
// alone (a package named for the interface), objects of outside packages handed the charm,
// which may read its options or observe its actions where the linker cannot see
// (coordinated_workers' Worker(charm=self)), charm classes derived from an outside package's
// base, and the tests that tell an outside module from the tree's own.

import (
	"slices"
	"strings"
)

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
	var atModule string // the package's module
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
			at = &Site{File: s.file.Path, Line: s.line, Symbol: s.file.symbolAt(className(s.cls), s.fn, s.line), Via: ViaDelegate, Detail: module}
			atModule = module
		}
	}
	base, baseModule := l.packageCharmBase()
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
		at, atModule = base, baseModule
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
	top, _, _ := strings.Cut(atModule, ".")
	for _, a := range l.ch.Actions {
		if known, ok := packageActions[top]; ok && !slices.Contains(known, a.Name) {
			continue // a package whose every observed action is known, and not this one
		}
		if it := l.ifaces[ifaceKey{KindAction, a.Name}]; it != nil && len(it.Handlers) == 0 && len(it.Reads) == 0 {
			l.read(KindAction, a.Name, *at)
		}
	}
}

// packageActions are the actions that well-known packages outside the tree observe, all of
// them, by the package's top-level name: ops_openstack's OSBaseCharm observes pause and
// resume (each under a try, for a charm without them), and nothing of the package observes
// another (core.py, plugins/classes.py; the adapters observe no event). So a charm derived
// from it, or handing the charm to one of its objects, that declares another action nothing
// handles (kingfisher's template-left "fortune", ceph-iscsi's "security-checklist") has the
// warning, not an info (review rev101).
var packageActions = map[string][]string{"ops_openstack": {"pause", "resume"}}

// packageCharmBase is the first base charm class (named ...Charm, as isCharm takes it) from a
// package outside the tree that one of the charm's own classes derives from (ops_openstack.core.OSBaseCharm, which observes the
// pause and resume actions and reads the source option itself), as a ViaBase site at the
// class, with the module it is imported from: that base may handle what no code of the tree
// does. Nil when there is none.
func (l *charmLinker) packageCharmBase() (*Site, string) {
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
				return &Site{File: k.file.Path, Line: k.sym.Line, Symbol: k.name, Via: ViaBase, Detail: strings.TrimSpace(b)}, m
			}
		}
	}
	return nil, ""
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
