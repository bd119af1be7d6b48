package linker

// Config reads: self.config["x"], .get("x"), charm-helpers' config("x"), typed config
// classes (pydantic models built from the config, TypedCharmBase), options a template names,
// and the charm's own keys stored in charm-helpers' config dict, which no YAML declares.

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

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
	if fi.vendored || fi.test {
		return
	}
	if pyextract.ModelDumps[a.Attr] {
		l.typedDump(fi, a)
		return
	}
	if strings.HasPrefix(a.Attr, "_") || strings.HasPrefix(a.Attr, "model_") || modelMembers[a.Attr] {
		return
	}
	vals := l.typedConfigOf(fi, a)
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

// typedConfigOf is the classes the object of a is the charm's typed config of: a local
// assigned `self.load_config(Cls)`, or the charm's typed config (config_type) itself.
func (l *charmLinker) typedConfigOf(fi *fileInfo, a *pyextract.AttrRead) []aval {
	var vals []aval
	if len(a.Object) == 1 && a.Func != "" {
		assigns, _ := fi.local(funcKey{a.Class, a.Func}, a.Object[0].Name, a.Line)
		for _, as := range assigns {
			vals = append(vals, l.loadedConfig(fi, as.Scope, &as.Value)...)
		}
	} else if l.typedConfig() && l.isConfig(fi, a.Scope, a.Object) {
		vals = l.configTypes()
	}
	return vals
}

// typedDump: a dump of the charm's typed config (`for key, value in
// self.config.model_dump().items()`, which writes every option into a properties file)
// reads every option its fields load, loosely, as a loop over config.items() does (review
// rev117: kafka-connect's converters had no read but their fields).
func (l *charmLinker) typedDump(fi *fileInfo, a *pyextract.AttrRead) {
	s := siteAt(fi, a.Scope, ViaConfig, "attr")
	s.Loose = true
	var classes []*classInfo
	for _, c := range l.typedConfigOf(fi, a) {
		if c.kind == aClass && c.cls != nil {
			classes = append(classes, c.cls)
		}
	}
	if len(classes) == 0 && (l.isConfig(fi, a.Scope, a.Object) || strings.HasSuffix(strings.ToLower(lastName(a.Object)), "config") && l.inCharmCode(fi) && !l.builtElsewise(fi, a)) {
		// the config held elsewhere (self.typed_config = self.load_config(Cls), a helper's
		// self.config given it; an object named *config, as an option's attribute read
		// above): the classes the charm loads its options into
		all, loaded, _ := l.configClasses()
		classes = all[:loaded]
	}
	for _, cls := range classes {
		for _, k := range l.mro(cls) {
			for _, f := range k.fields {
				if d, ok := l.lookup(KindConfig, fieldOption(f)); ok {
					l.read(KindConfig, d, s)
				}
			}
		}
	}
}

// builtElsewise reports a dumped object whose value the code shows is no loaded config: a
// local or self attribute every assignment of which constructs a class other than one the
// charm loads its options into (peer_config =
// RelationData(...), kiali's KialiConfigSpec(...), review rev121), or an attribute of another
// object (data.ociconfig). A name with no assignment in view (a parameter, a helper's
// attribute set elsewhere) may be the config.
func (l *charmLinker) builtElsewise(fi *fileInfo, a *pyextract.AttrRead) bool {
	var values []*pyextract.Value
	switch obj := a.Object; {
	case len(obj) == 1 && a.Func != "":
		assigns, _ := fi.local(funcKey{a.Class, a.Func}, obj[0].Name, a.Line)
		for _, as := range assigns {
			values = append(values, &as.Value)
		}
	case len(obj) == 2 && obj[0].Name == "self":
		if cls := fi.classes[a.Class]; cls != nil {
			for _, k := range l.mro(cls) {
				for _, sa := range k.selfAttrs[obj[1].Name] {
					values = append(values, sa.value)
				}
			}
		}
	case len(obj) > 1:
		// through another object: data.ociconfig (a name glued to "config") is that object's
		// model; charm.typed_config or self.charm.config (config a word of its own) may be
		// the charm's (review rev125)
		last := strings.ToLower(lastName(obj))
		return last != "config" && !strings.HasSuffix(last, "_config")
	}
	all, _, _ := l.configClasses()
	return len(values) > 0 && !slices.ContainsFunc(values, func(v *pyextract.Value) bool {
		return v == nil || v.Kind != pyextract.ValCall || !isUpper(lastName(v.Chain)) ||
			slices.ContainsFunc(all, func(c *classInfo) bool { return c.name == lastName(v.Chain) }) // CharmConfig(**config)
	})
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
		// a local name the whole config is put in first (config = dict(self.model.config.items()),
		// then CharmConfig(**config) on the next line: istio, kiali; review rev103)
		type local struct{ class, fn, name string }
		assigned := map[local][]int{} // → the lines it is assigned at, whatever it is given
		changed := map[local]bool{}   // an item of it is set (config["namespace"] = ...)
		for i := range fi.Facts.Assigns {
			a := &fi.Facts.Assigns[i]
			if len(a.Target) != 1 || a.Scope.Func == "" {
				continue
			}
			at := local{a.Scope.Class, a.Scope.Func, a.Target[0].Name}
			if a.Item {
				changed[at] = true
			} else {
				assigned[at] = append(assigned[at], a.Line)
			}
		}
		for i := range fi.Facts.Stores {
			if k := &fi.Facts.Stores[i]; len(k.Object) == 1 && k.Func != "" {
				changed[local{k.Class, k.Func, k.Object[0].Name}] = true
			}
		}
		// holds is the line the whole config was last put in the local before line, 0 when
		// it was not, or the local is changed after (review rev106: a local given other keys,
		// or another dict later, is no longer the config)
		holds := func(at local, line int) int {
			last := 0
			for _, l := range assigned[at] {
				if l < line && l > last {
					last = l
				}
			}
			if last == 0 || !whole[last] || changed[at] {
				return 0
			}
			return last
		}
		built := func(sc pyextract.Scope, v *pyextract.Value) {
			if v.Kind != pyextract.ValCall || len(v.Args) != 1 || len(v.Kwargs) > 0 ||
				v.Args[0].Kind != pyextract.ValOther || !strings.HasPrefix(v.Args[0].Str, "**") {
				return
			}
			var lines []int
			if l := holds(local{sc.Class, sc.Func, strings.TrimPrefix(v.Args[0].Str, "**")}, sc.Line); l > 0 {
				lines = []int{l}
			}
			if whole[sc.Line] {
				lines = []int{sc.Line}
			}
			for _, a := range l.chain(v.Chain, &ctx{file: fi, cls: fi.classes[sc.Class], fn: sc.Func}) {
				if a.kind != aClass || a.cls == nil || !slices.ContainsFunc(l.mro(a.cls), func(k *classInfo) bool { return len(k.fields) > 0 }) {
					continue
				}
				for _, line := range lines { // the site the whole config is handed over at
					if at := (fileLine{fi.Path, line}); !slices.Contains(l.splats[at], a.cls) {
						l.splats[at] = append(l.splats[at], a.cls)
					}
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

// otherCallers reports a read of key k on a parameter of a module function that the charm's
// code (its tests aside) names more often than the calls the linker was given of it
// (pyextract keeps a call only when its arguments matter to the linker: one handing on the
// config does, one handing on a dict decoded from JSON does not): the others pass it
// something else. Only a private name of two words or more (_save_creds): a use counts by
// name alone, and a plain one (render, configure) is as often another object's method
// (review rev106).
func (l *charmLinker) otherCallers(fi *fileInfo, k *pyextract.KeyAccess, c *ctx) bool {
	if k.Class != "" || !strings.HasPrefix(k.Func, "_") || !strings.Contains(strings.Trim(k.Func, "_"), "_") || len(k.Object) == 0 {
		return false
	}
	if _, _, ok := paramOf(fi.funcSyms[funcKey{"", k.Func}], k.Object[0].Name); !ok {
		return false
	}
	known := 0
	for _, s := range l.calls[k.Func] {
		if l.callsFunc(s, c) {
			known++
		}
	}
	return known > 0 && l.ix.uses(k.Func, viewOf(fi, true)) > known
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
				f.Field, f.Required = true, fieldRequired(s.Signature)
			}
		}
	}
}

// fieldRequired reports whether the annotated field of signature sig ("port: int = 8080") has
// no default: no value (`port: int`), `...`, or pydantic's Field() without a default (neither
// `default=`, `default_factory=` nor a first positional argument but `...`). An Optional or
// `| None` annotation with no value is not required (pydantic v1 gives it None), unlike one
// given `...` (`Optional[str] = Field(...)`); nor is a signature the map shortened (…): what
// was left out may be the default.
func fieldRequired(sig string) bool {
	head, value, hasValue := strings.Cut(sig, "=")
	if strings.Contains(sig, "…") {
		return false
	}
	value = strings.TrimSpace(value)
	if !hasValue {
		return !strings.Contains(head, "Optional") && !strings.Contains(head, "None")
	}
	if value == "..." {
		return true
	}
	call, ok := strings.CutPrefix(value, "Field(")
	if !ok {
		call, ok = strings.CutPrefix(value, "pydantic.Field(")
	}
	if !ok || !strings.HasSuffix(call, ")") {
		return false // a value, or a call that makes one
	}
	args := strings.TrimSpace(strings.TrimSuffix(call, ")"))
	if strings.Contains(args, "default=") || strings.Contains(args, "default_factory=") {
		return false
	}
	first, _, _ := strings.Cut(args, ",")
	first = strings.TrimSpace(first)
	return first == "" || first == "..." || strings.Contains(first, "=")
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
	if k.Guarded && k.Via == "index" && at.Detail != "typed-index" {
		// try: ... self.config["x"] ... except ValueError: the read runs, and an undeclared
		// name raises KeyError, which no handler catches (as a lookup's, reads.go)
		at.Conditional, at.AfterGuard = false, false
	}
	sawConfig := false
	defer func() {
		if !sawConfig {
			l.namedConfigKey(fi, k, at)
		}
	}()
	for _, c := range l.contexts(fi, fi.classes[k.Class], k.Func) {
		// maybe: a parameter some caller gives the config and another a value the linker
		// cannot tell (vsphere-integrator's _save_creds(config), _save_creds(creds_data) of
		// juju trust's credentials): a read of it may be of either, so a name the YAML does
		// not declare is no finding (review rev104's own-layer code)
		isCfg, maybe := false, false
		for _, a := range l.chain(k.Object, c) {
			isCfg = isCfg || a.kind == aConfig
			maybe = maybe || a.kind == aUnknown
		}
		if !isCfg {
			continue
		}
		maybe = maybe || l.otherCallers(fi, k, c)
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
				s = Site{File: o.file.Path, Line: o.line, Symbol: o.file.symbolAt(className(o.cls), o.fn, o.line), Via: ViaConfig,
					Detail: at.Detail, Conditional: o.cond}
				vendored = o.file.vendored
			}
			s.Loose = v.loose || maybe
			if seen[siteName{s, v.str}] {
				continue
			}
			seen[siteName{s, v.str}] = true
			d, ok := l.lookup(KindConfig, v.str)
			if ok {
				l.read(KindConfig, d, s)
			}
			// (a typed config's __getitem__ reads the field, "-" as "_": both spellings work)
			if (!ok || asWrittenOnly(v.str, d) && at.Detail != "typed-index") && !vendored && !v.loose && !maybe && !l.storedConfig(v.str) {
				// a function that looks the name up among the declared options first
				// (option = charm.meta.config.get(self.name); if option is None: raise)
				// reads only a declared one
				if checksDeclared(fi, k.Scope) {
					s.Conditional, s.AfterGuard = true, false
				}
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
	if !wrapper && (!named || !l.untraced(fi, k.Scope, k.Object) || !l.inCharmCode(fi)) {
		// (nor in a file the charm's code does not import: a workload script under
		// templates/ reading its own dict, review rev110)
		return
	}
	// a guess from the name alone matches an option as written: a dict of another kind under
	// such a name (polkadot's _snap_config, a row of a constants table) spells its keys with
	// '_', which ops would not take for the option spelt with '-'
	if d, ok := l.lookup(KindConfig, k.Key.Str); ok && (wrapper || d == k.Key.Str) {
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
