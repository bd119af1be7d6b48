// Package linker ties a charm's declared interfaces (charmyaml) to the Python code that
// handles them (pyextract facts): which methods observe which relation, action, container,
// storage, lifecycle, secret and status events, where config options and action parameters
// are read, and where endpoints, containers and storages are looked up.
//
// Input: the charms and the extracted Python files of one tree. Output: a Result, a plain
// value that the ranker (to tie YAML and handlers in the graph), the `interfaces` command and
// the `check` rules consume. The linker resolves names (module and imported constants, class
// attributes, `self.x` set from parameter defaults, library objects built with a relation
// name) but never reads files itself: vendored libraries are just more pyextract Files.
//
// Decisions:
//   - Which code belongs to which charm: a file belongs to the deepest charm directory that
//     holds it. A file in no charm directory (a monorepo's common/) is linked into every charm
//     whose code imports it, directly or through other such files. Tests (a tests/, test/ or
//     unit_tests/ folder at any depth, test_*.py, *_test.py, conftest.py) are never linked.
//   - Names are evaluated to abstract values (strings, the charm, objects, classes, modules,
//     charm.on and its events), never executed: locals (all assignments in the function, for
//     loops over literal sequences included), parameters, module constants, imports, class
//     attributes and `self.x` assignments across the class hierarchy, a property's getter
//     (what it returns: a name, a constant, or self.m()'s return, the charm's override
//     answering a base's), "a".replace(..), f-strings of constants. A for loop over anything else binds its names to the elements
//     of what that evaluates to (a list, tuple or set display, a dict's keys, .keys(),
//     .values(), .items(), an item of a tuple target), and m.get(key, default) is its default
//     (and, for a dict display, the value under key). Such names are loose: a declared one
//     links, an undeclared one is no finding, since the loop may skip it (`if key not in
//     self.config: continue`) and the mapping may hold another; an event taken from such a
//     loop is observed unconditionally (a condition inside the loop picks among its elements).
//     A loop over model.relations or meta.relations (or their keys) runs over the charm's
//     declared relations, meta.containers over its containers, meta.config over its options;
//     meta.name is the YAML's name; NAMES["key"] of a dict display is the value under key.
//     A charm class in a library, or in a monorepo's shared code outside the charm's folder,
//     runs for this charm only when the charm's class derives from it (a library may publish a
//     charm class for other charms to derive from; shared code may hold the bases of several). A
//     comprehension's for clause binds its names as a loop does.
//     In a base charm class, self is the charm that subclasses it (its class attributes
//     first); an object of a class the tree does not hold has the attributes its call names
//     by keyword (SimpleNamespace(peer="replicas").peer), loose too.
//     `a or b` and `a if c else b` are one of a and b, loose; a local whose value names
//     itself (names = names or DEFAULTS) reads there the parameter or global before it. Absolute imports resolve by matching the dotted name against
//     file paths below a folder that is not itself a package (src-relative, lib/charms/...,
//     a monorepo's shared folder), preferring the charm's own files; relative imports against
//     the importing file's folder.
//   - An `__init__` parameter is bound per object by its constructor call (following
//     super().__init__(...), Base.__init__(self, ...) and *args forwarding); a parameter of
//     any other function by the calls to it in the charm's code; unbound, it takes its
//     default. Code of a charm class (a base, written or resolved, names CharmBase, or is a
//     framework's Charm such as paas_charm.flask.Charm: IsCharmBase) runs once;
//     code of any other class once per object built of it (or of a subclass), and, if no
//     object is built, once with defaults, except in charm libraries (lib/charms/...), where
//     classes nobody builds do not run.
//   - A relation-bound object is one whose class's __init__ takes a relation-naming
//     parameter (relation_name, relationship_name, relation, endpoint, *_relation_name ...);
//     for a class from a pip package, a relation-naming keyword or a positional string that
//     names a declared endpoint; a subclass whose own __init__ takes none binds the name it
//     passes up (super().__init__(charm, "radosgw", cb)), and self.<relation-naming name>
//     that no class of the tree sets is the __init__ parameter of that name when a class
//     derives from one outside the tree (ops_sunbeam's RelationHandler keeps it); for either, a map of roles to endpoints given as endpoints=
//     or relations= (cosl's Coordinator: endpoints={"cluster": "tempo-cluster", ...}), whose
//     declared names it binds, also when a subclass hands them to the class outside the tree
//     in its own super().__init__ (a tempo worker: endpoints={"cluster": "tempo-cluster"}).
//     An object built around one bound to an endpoint serves that endpoint: data_platform_libs'
//     KafkaRequirerEventHandlers(charm, relation_data=KafkaRequirerData(model,
//     relation_name="kafka")) emits the kafka relation's events. A pip package's object bound by a relation-naming keyword also
//     binds the declared relations its other *_name keywords hold (ServiceMeshConsumer's
//     cross_model_mesh_provides_name=, roleNameParam). Events observed on such an object link to its endpoint (via
//     "library"); its construction site is a Read of the endpoint with via "library" and the
//     class name as Detail (a binding). A library class observing charm.on[x] with x not
//     resolvable is taken to observe its own object's endpoint.
//   - Via says how, most specific first: "library-inner" for observe calls in lib/charms/...
//     files, "library" for events of an object, "helper" for calls in non-charm classes,
//     "getattr" for getattr(self.on, NAME) with a non-literal NAME (a literal getattr reads
//     as an attribute), then "on-index" or "observe". "naming" (_on_<endpoint>_relation_<ev>
//     methods) is added only for an endpoint nothing else links.
//   - Events of charm.on are classified by name (lifecycle, secret, status lists; suffixes
//     _relation_<ev>, _action, _pebble_*, _storage_*), except names defined by the events
//     class the charm's `on` is redefined with, which are custom events; a custom event named
//     <declared endpoint>_relation_<x> (the redis library's redis_relation_updated, emitted by
//     its handlers of that relation) links its observer to the relation. A handler observed
//     through a loop over a collection (every relation) is Loose: the ranker lists it last.
//   - Config reads: keys of the charm config (self.config, model.config, charm.config, an
//     alias or a parameter it was passed to) with Detail "index"/"get", tests for a key
//     ("in"); attribute reads of a declared option on a config object ("attr"); fields of
//     typed config classes (a charm's config_type, load_config(Cls), Cls(**self.config), or a
//     first-party *Config* class most of whose fields are options) ("field"). A key that is a parameter of its function (a helper such as
//     get_string_config(key)) takes the names its recorded callers pass (pyextract records
//     the calls of config helpers), each read (or finding) at its call; the helper's site
//     stays unresolved too unless every use of the helper in the charm's code is a recorded
//     call passing a name the linker resolves, as other calls may pass other names. Action parameters:
//     event.params[...] / .get(...) in a method observed for that action, or in a helper
//     it hands its event to, Site.Key naming the parameter.
//   - Findings and unresolved sites: never from vendored libraries, and unresolved sites
//     never from any charm library (their names are parameters by design). An undeclared
//     name given to a library parameter is a finding only when the parameter is called
//     *relation*; one given to relation= / endpoint= that is not a string is ignored (it may
//     be a Relation object).
//   - Everything is sorted and deduplicated; evaluation is bounded in depth and breadth
//     (maxDepth, maxVals, maxInstances) so any input terminates.
package linker

import (
	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

// Input is what the linker reads. Files are all Python files of the tree, root-relative paths.
type Input struct {
	Charms []charmyaml.Charm
	Files  []pyextract.File
	// Templates are the option names the charms' templates use: each is a read of the
	// declared option it names (via "template"), by the charm whose folder holds it.
	Templates []templates.File
	// HookLinks are the charms' hook scripts that are symbolic links to a file of Files
	// (hooks/install -> hooks.py): link → target, both root-relative. Juju runs the target
	// for the hook.
	HookLinks map[string]string
	// HookRuns are, for the charms' hooks that are shell scripts (or links to one), the
	// scripts of the hooks folder each runs: hooks/<hook> → their names (storage.real). A
	// function registered under such a name (@hooks.hook('storage.real')) handles the hook.
	HookRuns map[string][]string
	// ShellCode are the charms' code files that are not Python, root-relative: hooks/<hook>
	// scripts in another language and reactive/*.sh handlers. None is read; a charm whose only
	// code they are is not checked against its YAML (CharmLinks.ShellCode).
	ShellCode []string
}

// Interface kinds (the `kind` of CONTRACT §3 interfaces).
const (
	KindRelation  = "relation"
	KindConfig    = "config"
	KindAction    = "action"
	KindContainer = "container"
	KindStorage   = "storage"
	KindResource  = "resource"
	KindLifecycle = "lifecycle"
	KindSecret    = "secret"
	KindStatus    = "status"
)

// Via values say how a link was made.
const (
	ViaObserve    = "observe"       // framework.observe(self.on.<x>, handler)
	ViaIndex      = "on-index"      // self.on[NAME].<event>
	ViaGetattr    = "getattr"       // getattr(self.on, "...")
	ViaLibrary    = "library"       // an event of a library object bound to the endpoint
	ViaPackage    = "package"       // a package the charm imports, named after the interface, may handle it (linkFeaturePackages)
	ViaDelegate   = "delegate"      // an object of a package outside the tree, given the charm, may read the option or handle the action (linkDelegates)
	ViaBase       = "charm-base"    // the charm's class derives from a base charm class of a package outside the tree, which may handle it (linkDelegates)
	ViaLibInner   = "library-inner" // registered by a library on the charm's behalf
	ViaHelper     = "helper"        // observed in an ops.Object helper class via charm.on
	ViaNaming     = "naming"        // only the _on_<endpoint>_relation_<event> name matches (weak)
	ViaTable      = "action-table"  // a module's table of actions to functions: ACTIONS = {"cluster-kick": cluster_kick}
	ViaFlag       = "reactive-flag" // a reactive handler of the endpoint's flags: @when('endpoint.db.joined'), @when('db.available')
	ViaHook       = "hook"          // a function registered for the endpoint's hooks: @hooks.hook('db-relation-changed')
	ViaHookScript = "hook-script"   // a Python script of the charm's that Juju runs for the hook: hooks/db-relation-changed
	ViaLookup     = "lookup"        // model.get_relation / relations[...] / get_container / storages[...]
	ViaConfig     = "config-read"   // config option read
	ViaTemplate   = "template"      // config option used by a template ({{ options.debug }})
	ViaParam      = "param-read"    // action parameter read
	ViaPath       = "mount-path"    // a string constant naming where a storage is mounted, or a path under it
	// ViaCallback: a method the charm hands to an object bound to the endpoint under a
	// keyword that does not call it a callback (scrape_configs=self._scrape_configs): it
	// supplies what the library publishes (Site.Detail: the keyword)
	ViaCallback = "callback"
)

// Result is the linker's output.
type Result struct {
	Charms []CharmLinks `json:"charms"`
	// Unresolved are the observe/lookup/read sites whose name the linker could not resolve
	// statically (dynamic names); check reports each as an unresolved-name info, never an
	// error, and counts them.
	Unresolved []Site `json:"unresolved,omitempty"`
}

// CharmLinks are the links of one charm.
type CharmLinks struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// Layer marks a reactive layer's folder, not a charm's (charmyaml.Charm.Layer).
	Layer      bool        `json:"layer,omitempty"`
	Interfaces []Interface `json:"interfaces"` // grouped by kind in the order of the kind constants, then YAML order
	// Findings are code sites that name an interface the YAML does not declare, or otherwise
	// disagree with it; check turns them into diagnostics.
	Findings []Finding `json:"findings,omitempty"`
	// NoCode is true when the charm's own code holds no charm class (IsCharmBase): a
	// directory that only declares, such as a unit test's metadata.yaml fixture beside test
	// helpers, whose interfaces no code of its own could handle.
	NoCode bool `json:"-"`
	// UnlinkedCode is, for a charm with no charm class, no charm-helpers hook function or
	// script and no charms.reactive import, its first own Python file in its hooks/ folder,
	// or "": hook code that runs some other way (a main(hook_name) dispatch, charm-helpers'
	// services framework) that the linker does not follow. (A library's repository with a
	// placeholder charm, or a test's fixture YAML, has no hooks/ code.)
	UnlinkedCode string `json:"-"`
	// ShellCode is, for a charm with none of the code UnlinkedCode looks for and no hooks/
	// Python, its first code file that is not Python (Input.ShellCode: hooks/install in shell,
	// reactive/cuda.sh), or "": its hooks run code the linker cannot read.
	ShellCode string `json:"-"`
	// Classic is, for a charm with no charm class (NoCode), where its own code registers its
	// first charm-helpers hook function ("file:line"), else its first Python hook script
	// ("hooks/config-changed:1"), or "": a classic charm, whose code handles its hooks
	// without a class, and reads its options through charm-helpers and templates check
	// cannot follow.
	Classic string `json:"-"`
	// Reactive is where the charm's code first imports charms.reactive ("file:line"), or "":
	// a reactive charm's handlers run on flags that its layers, most of them outside the
	// tree (interface:<name>), set; check cannot say what they leave unhandled.
	Reactive string `json:"-"`
	// Unresolved are the sites of Result.Unresolved that this charm's code reached, shared
	// code's (outside every charm's folder) included: a name there may be one of this charm's.
	Unresolved []Site `json:"-"`
}

// Interface is one declared (or, for lifecycle/secret/status, observed) interface.
type Interface struct {
	Kind      string    `json:"kind"`
	Name      string    `json:"name"`      // as declared; Juju event name (hyphenated) for lifecycle/secret/status
	Role      string    `json:"role"`      // relations: requires/provides/peers; else ""
	Interface string    `json:"interface"` // relations: the interface name; else ""
	File      string    `json:"file"`      // declaring YAML file ("" for lifecycle/secret/status)
	Line      int       `json:"line"`
	Handlers  []Handler `json:"handlers"` // sorted by file, line, event
	Reads     []Site    `json:"reads"`    // config/param reads and lookups, sorted by file, line
	// Extension is the charmcraft extension that handles the interface for the charm: one
	// that declares it (django-framework's metrics-endpoint), or, in a 12-factor charm, the
	// framework that wires a declared integration (postgresql_client, s3, ...) or option to
	// the workload, or runs its container and image. "" otherwise.
	Extension string `json:"extension,omitempty"`
	// Script is, for an action, its own executable in the charm (charmyaml Action.Script),
	// which runs it. "" otherwise.
	Script string `json:"script,omitempty"`
	// ImageOf is, for a resource, the containers whose image it is (charmyaml
	// Container.Resource), in the YAML's order: Juju runs it as their workload, whatever
	// the code does with it. Empty otherwise.
	ImageOf []string `json:"image_of,omitempty"`
	// NotInTable is, for an action run by its script through a dispatch table in that script
	// (ACTIONS = {"pause": pause, ...}) that maps other declared actions but not this one,
	// where the table is: the script's main looks the action's name up there and fails.
	NotInTable *Site `json:"-"`
	// ParamsUnread is, for an action that declares parameters, the handler that never looks
	// at them (Class.method): the action's only handlers are plain methods of the charm's own
	// code observed for it that surely read none (linkUnreadParams). "" otherwise.
	ParamsUnread string `json:"params_unread,omitempty"`
	// ParamsNotRead is, for such an action whose handler reads some of its parameters, each
	// by a key written out, and never uses the params whole or by a key not known, the
	// declared parameters it never reads (in the YAML's order; ParamsUnread names the
	// handler). Empty otherwise.
	ParamsNotRead []string `json:"params_not_read,omitempty"`
}

// Handler is one method that handles an event of an interface.
type Handler struct {
	Event  string `json:"event"`  // the event attribute as observed: database_created, relation_changed, app_pebble_ready
	Symbol string `json:"symbol"` // Class.method or function
	File   string `json:"file"`   // file that defines the handler
	Line   int    `json:"line"`   // line of the handler's def
	Via    string `json:"via"`    // one of the Via constants
	// ObserveFile/ObserveLine locate the observe call (or the library object binding).
	ObserveFile string `json:"observe_file,omitempty"`
	ObserveLine int    `json:"observe_line,omitempty"`
	Conditional bool   `json:"conditional,omitempty"`
	// AfterReturn is, for a handler Conditional only because its observe call follows a
	// return under a condition in the same function (a fast exit early in __init__), the line
	// of that return in ObserveFile; 0 otherwise.
	AfterReturn int `json:"after_return,omitempty"`
	// BuiltFile and BuiltLine are where the charm's own code builds, under a condition, the
	// helper or library object whose code observes the event (that is why the handler is
	// Conditional); BuiltClass is the class it builds there. BuiltFile is "" otherwise.
	BuiltFile  string `json:"built_file,omitempty"`
	BuiltLine  int    `json:"built_line,omitempty"`
	BuiltClass string `json:"built_class,omitempty"`
	// BuiltAfterReturn is, when the construction is conditional only because it follows a
	// return under a condition in its function, that return's line in BuiltFile.
	BuiltAfterReturn int `json:"built_after_return,omitempty"`
	// Loose is true when the event came from a collection a loop runs over (for name in
	// self.model.relations: observe(self.on[name].relation_departed, …)): a catch-all that
	// handles this interface among others.
	Loose bool `json:"loose,omitempty"`
	// CatchAll is true when the event's endpoint came from every declared relation or
	// container (for name in self.model.relations: observe(self.on[name]...)): the handler
	// runs for this interface as for all others, and is none's own. (Loose is also set for a
	// loop over a list the charm wrote, whose events are each meant.)
	CatchAll bool `json:"catch_all,omitempty"`
	// Vendored is true when the observe call sits in a charm library vendored from another
	// charm (lib/charms/<other>/): upstream's code, not the charm's to change.
	Vendored bool `json:"-"`
}

// Site is a place in the code.
type Site struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Symbol string `json:"symbol,omitempty"` // enclosing Class.method or function
	Via    string `json:"via,omitempty"`
	// Detail is, for config and param reads, how the value was read: "index" (x["k"]),
	// "typed-index" (x["k"] on a typed config, which cannot raise KeyError), "get"
	// (x.get("k")), "in" ("k" in x: a test for the key; "assert" when an assert asserts it),
	// "all" (x.items(), dict(x), f([x]),
	// f(**x): every option, loosely), "attr" (typed config class attribute), "field" (a field
	// of the class the charm loads its options into) or "flag" (a reactive config.changed.x
	// flag); for lookups, "in" for a test ("data" in model.storages; "assert" when an assert
	// asserts it), "flag" for one through
	// charms.reactive or charm-helpers (endpoint_from_flag, relation_ids, storage_list) and ""
	// otherwise; for a template's read, "var" for a bare variable; for library, callback,
	// package, delegate and charm-base sites, the class, keyword, package or base class; for
	// unresolved sites, the expression as written.
	Detail string `json:"detail,omitempty"`
	// Key is, for action parameter reads, the parameter read.
	Key         string `json:"key,omitempty"`
	Conditional bool   `json:"conditional,omitempty"`
	// AfterGuard marks a Conditional site that is so only because it follows an early return
	// under a condition in its function (`if not self.unit.is_leader(): return`, a machine
	// lock's guard in __init__), or sits in the body of `if self.unit.is_leader():` (Leader):
	// it runs on its function's usual path.
	AfterGuard bool `json:"-"`
	// Leader marks an AfterGuard site that is so because its only conditions are `if
	// self.unit.is_leader():` bodies (pyextract Scope.Leader): it runs whenever the unit leads.
	Leader bool `json:"-"`
	// Loose marks a config read whose key is one of several names the expression may take
	// (a loop over the options, an alternative): the site may never read this one with it.
	Loose bool `json:"loose,omitempty"`
	// Dead marks a site in a function or method that never runs: no code of the tree calls it,
	// or only such code does, or its class is never built (the linker's deadSyms).
	Dead bool `json:"dead,omitempty"`
	// CatchAll marks a lookup whose name came from every declared relation or container (a
	// loop over self.model.relations, or over the relations the charm loads from its own
	// metadata: any-charm's 538): it looks this one up among all others, and is none's own.
	CatchAll bool `json:"catch_all,omitempty"`
	// NameKind is, for an unresolved site whose name can only be of one kind of interface,
	// that kind: charm.on[name].relation_departed, a library object bound to an endpoint
	// named by a parameter, are relations (check lets it hedge that kind's findings only).
	NameKind string `json:"name_kind,omitempty"`
}

// Finding kinds; check maps them to its rule names.
const (
	FindUndeclaredRelation  = "undeclared-relation"
	FindUndeclaredAction    = "undeclared-action"
	FindUndeclaredConfig    = "undeclared-config"
	FindUndeclaredContainer = "undeclared-container"
	FindUndeclaredStorage   = "undeclared-storage"
	FindUndeclaredResource  = "undeclared-resource"
	FindMissingHandler      = "missing-handler"
	FindUndeclaredParam     = "undeclared-action-param"
	FindUnobservedHandler   = "unobserved-handler"
	FindRelationMismatch    = "relation-mismatch"
	FindUnknownEvent        = "unknown-event"
	FindMissingModule       = "missing-module"
	FindMisspeltFramework   = "misspelt-framework"
)

// Finding is a code site that disagrees with the YAML.
type Finding struct {
	Kind    string `json:"kind"`    // a Find constant
	Subject string `json:"subject"` // the name involved (endpoint, action, option, handler)
	Site
	// NotBuilt marks a finding in a method of a class no code of the tree names (nor a
	// subclass of it): dead code, or code something outside the tree runs.
	NotBuilt bool `json:"not_built,omitempty"`
	// Uses are, for a finding at a constructor's default (Detail "default"), the lines that
	// use the name (defaultRepeatsJoined).
	Uses []int `json:"-"`
	// NotCalled marks a finding in a method no code of the tree names (no call, no reference,
	// no observe), of a class whose bases the tree holds (or are ops'): a base from outside
	// the tree may call it, a decorator may register it, so neither counts. Dead code, or
	// code kept for another charm that shares the class.
	NotCalled bool `json:"not_called,omitempty"`
	// DeadCallers marks a finding in a function or method that only code which never runs
	// calls (deadSyms: a helper of helpers nothing calls).
	DeadCallers bool `json:"dead_callers,omitempty"`
	// TestsOnly marks a finding in a method or function that, but for the tree's tests, would
	// be NotCalled: only tests call it, and the deployed charm never runs its tests.
	TestsOnly bool `json:"tests_only,omitempty"`
	// Doubt, when set, says why the finding may not hold (check reports it as an info).
	Doubt string `json:"doubt,omitempty"`
	// NoAction marks an undeclared-action-param read in code that runs for no action the
	// linker knows (a helper module of action scripts): no action declares the name.
	NoAction bool `json:"no_action,omitempty"`
	// SeveralActions marks an undeclared-action-param read in code that runs for several
	// actions (a module every action script links to): none of them declares the name.
	SeveralActions bool `json:"several_actions,omitempty"`
	// Actions, for an undeclared-action-param read, are the actions the code runs for (none
	// of which declares the name), sorted.
	Actions []string `json:"actions,omitempty"`
	// Registered is, for an undeclared-relation (undeclared-storage) finding of a function
	// registered for a hook or reactive flag of the endpoint (@hooks.hook("db-relation-joined"),
	// @when("endpoint.db.joined"); of the storage, @hook("data-storage-attached")), that hook
	// or flag: nothing fires it, so the function never runs for it (a leftover, or a misspelt
	// name), which raises nothing.
	Registered string `json:"registered,omitempty"`
	// Joined marks a Registered flag or hook that is adjacent string literals Python joins
	// into one (@when_any('config.changed.a' 'config.changed.b'): a comma left out).
	Joined bool `json:"joined,omitempty"`
	// LookedUp is, for an undeclared-relation or undeclared-storage finding of a lookup
	// through charm-helpers or charms.reactive (relation_ids("db"), endpoint_from_name("db"),
	// endpoint_from_flag("endpoint.db.joined"), storage_list("data")), the function called:
	// for a name the YAML does not declare it finds nothing, and raises nothing.
	LookedUp string `json:"looked_up,omitempty"`
	// Mismatch is, for a relation-mismatch finding (a library object whose constructor checks
	// the endpoint it is bound to, and raises), what differs, "role" or "interface", with
	// what the library requires (Expected: "provides", "prometheus_scrape") and what the YAML
	// declares (Declared); "role-name" when the library checks nothing and its class's name
	// gives the side (roleByName); Detail names the library's class.
	Mismatch string `json:"mismatch,omitempty"`
	Expected string `json:"expected,omitempty"`
	Declared string `json:"declared,omitempty"`
	// Events is, for an unknown-event finding of an object's events (cert.on.x, not the
	// charm's), the events its class defines, sorted; Detail names the class.
	Events []string `json:"events,omitempty"`
	// Field marks an undeclared-config finding of a field of a class the charm loads its
	// options into (config_type, load_config) that names no declared option: loading leaves
	// it at its default, or fails when it has none.
	Field bool `json:"field,omitempty"`
	// Required marks such a field that has no default (`tick_time: int`, `= Field(gt=0)`,
	// `= Field(...)`; not an Optional one, which pydantic v1 defaults to None): loading the
	// config fails whenever it runs (pydantic's ValidationError, a dataclass's TypeError).
	Required bool `json:"required,omitempty"`
}
