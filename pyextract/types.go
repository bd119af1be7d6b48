// Package pyextract reads one Python source file with tree-sitter and returns what the later
// stages need: its definitions (classes, functions, methods, module constants) with one-line
// signatures, the names it references and imports, and the syntactic facts the linker resolves
// against the charm's YAML (observe calls, assignments, calls, key reads).
//
// Input: a root-relative path and the file's bytes. Output: a File, a plain value that is
// JSON-serialisable so the cache can store it. Extraction is error-tolerant: tree-sitter
// recovers from syntax errors, and a broken function costs only that function.
//
// pyextract never executes or imports the code it reads.
package pyextract

// Symbol kinds.
const (
	KindClass    = "class"
	KindFunction = "function"
	KindMethod   = "method"
	KindConstant = "constant"
	// KindField is an attribute a class body assigns: an annotated field of a dataclass or
	// pydantic model (log_level: str = "info") or a constant-like name (PEERS = "peers" in a
	// class of names). Qualifier is the class; Name is Class.attr.
	KindField = "field"
)

// File is everything extracted from one Python file.
type File struct {
	Path    string   `json:"path"`
	Lines   int      `json:"lines"`
	Symbols []Symbol `json:"symbols,omitempty"` // in source order
	// Refs counts the identifiers the file uses (names and attribute names), excluding the
	// names it defines at the point of definition and Python keywords/builtins. Sorted by Name.
	Refs []Ref `json:"refs,omitempty"`
	// Attrs are the names the file assigns as attributes of self (self.port = ..., self.a,
	// self.b = ..., self.n += 1), sorted, unique: an instance's own attributes. A use of
	// such a name in the file is that attribute far more often than another file's function
	// of the same name (review rev105: alloy-sub's ConfigBuilder keeps self._queue_size, which
	// credited the charm's method _queue_size with a file's rank).
	Attrs   []string `json:"attrs,omitempty"`
	Imports []Import `json:"imports,omitempty"` // in source order
	Facts   Facts    `json:"facts"`
	// Words are the distinct lower-case words of the file's string literals and docstrings
	// (SplitWords; f-string text without the interpolations), sorted, at most MaxWords: the
	// prose that says what the file is about where its identifiers do not.
	Words []string `json:"words,omitempty"`
	// Comments are the distinct words of the file's comments that are not in Words (tool
	// directives such as "# type: ignore" left out), sorted, at most MaxWords: the notes
	// that explain a value or a workaround ("# MySQL 8.0.37" beside a snap revision).
	Comments []string `json:"comments,omitempty"`
	// Errors counts tree-sitter ERROR/MISSING nodes; >0 means the file was only partly read.
	Errors int `json:"errors,omitempty"`
	// ErrorLine is the line of the first syntax error tree-sitter found (at or a little after
	// the broken code), 0 when Errors is 0 or the file was not parsed.
	ErrorLine int `json:"error_line,omitempty"`
	// Template is set on a Jinja template (IsTemplate) that does not parse, or that lies under
	// a templates/ folder: templates/<release>/local_settings.py, rendered into Python at deploy
	// time. Nothing is extracted from it: its names are the template's, not code the charm runs.
	Template bool `json:"template,omitempty"`
}

// Symbol is one definition.
type Symbol struct {
	Name      string `json:"name,omitempty"`      // "Class", "func", "CONST", or "Class.method" for methods
	Kind      string `json:"kind,omitempty"`      // KindClass, KindFunction, KindMethod, KindConstant, KindField
	Qualifier string `json:"qualifier,omitempty"` // the enclosing class for methods and nested classes, else ""
	Line      int    `json:"line,omitempty"`      // 1-based line of the `def`/`class`/assignment
	EndLine   int    `json:"end_line,omitempty"`
	// Signature is one line: "class Foo(ops.CharmBase):", "def f(self, a: int = 1) -> str:",
	// "async def g():", "NAME = \"value\"" (long values truncated with "…", a PEM block after
	// its header), with the decorators first ("@property def port(self) -> int:"). A long def
	// keeps its first parameters and its return type ("def f(self, a: int, …) -> str:").
	Signature string `json:"signature,omitempty"`
	// Digest is set when Signature leaves part of the source out ("…"): a hash of the whole
	// one-line text (decorators, header or assignment), so that a change in the part not
	// shown (a parameter in the middle of a long def, an entry at the end of a long list) is
	// still a changed signature to diff.
	Digest     string   `json:"digest,omitempty"`
	Bases      []string `json:"bases,omitempty"`      // classes: base expressions as written
	Decorators []string `json:"decorators,omitempty"` // as written, without "@" (on one line, cut at 160 runes; a hook or flag decorator at 2000)
	Params     []Param  `json:"params,omitempty"`     // functions and methods, including self
	// Value is set for constants whose value is a plain value (string literal, name, call...).
	Value *Value `json:"value,omitempty"`
	// Words, for a function or method, are the distinct lower-case words of the names,
	// strings and comments of its body (SplitWords; "self" and words of one character left
	// out), the first MaxSymbolWords in source order, sorted: what it does, for a task that
	// names neither the function nor its file ("prefixed topic names" → add_acl, whose body
	// builds `--resource-pattern-type=PREFIXED` for a topic).
	Words []string `json:"words,omitempty"`
	// ParamsHanded, for a function or method, is set when its body uses one of its parameters
	// (self and cls aside) other than as the object of an attribute (event.params,
	// event.set_results(...)): handed to a call, stored, returned, put in a container. Code
	// it may reach then sees the parameter too (handedParams).
	ParamsHanded bool `json:"params_handed,omitempty"`
	// Calls, for a function or method, are the names its body calls (f(), self.f(), x.f():
	// the callee's last name) with how many times, sorted by name: the linker follows them to
	// find code only dead code calls.
	Calls []Ref `json:"calls,omitempty"`
}

// Param is one function parameter.
type Param struct {
	Name    string `json:"name"` // "a", "*args", "**kw", or the bare "*" and "/" markers
	Default *Value `json:"default,omitempty"`
}

// Ref is an identifier the file uses and how many times.
type Ref struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Import is one imported name.
//
//	import a.b            -> {Module: "a.b"}
//	import a.b as c       -> {Module: "a.b", Alias: "c"}
//	from a.b import X     -> {Module: "a.b", Name: "X"}
//	from .state import X as Y -> {Module: ".state", Name: "X", Alias: "Y"}
type Import struct {
	Module string `json:"module"`
	Name   string `json:"name,omitempty"`
	Alias  string `json:"alias,omitempty"`
	Line   int    `json:"line"`
	// TypeOnly marks an import under `if TYPE_CHECKING:`, which never runs.
	TypeOnly bool `json:"type_only,omitempty"`
	// Nested marks an import that is not a statement of the module's top level (in a
	// function, a class, an if, a try whose handler may catch its ImportError, an unparsed
	// stretch): it may never run, or fail quietly.
	Nested bool `json:"nested,omitempty"`
}

// Facts are the syntactic facts the linker resolves. pyextract records them without
// interpreting names: resolving constants, library objects and YAML names is the linker's job.
type Facts struct {
	Observes []Observe   `json:"observes,omitempty"`
	Assigns  []Assign    `json:"assigns,omitempty"`
	Calls    []Call      `json:"calls,omitempty"`
	Keys     []KeyAccess `json:"keys,omitempty"`
	// Stores are the item assignments X[key] = value on the objects Keys records reads of
	// (Via "store"): charm-helpers' config() is a dict saved between hooks, and classic charms
	// keep their own state in it (config["vhost-ready"] = True), under keys no YAML declares.
	Stores  []KeyAccess `json:"stores,omitempty"`
	Attrs   []AttrRead  `json:"attrs,omitempty"`
	Narrows []Narrowing `json:"narrows,omitempty"`
	// Returns are the values functions return that are a string, an f-string, a chain
	// (`return DB_RELATION_NAME`: a template method a subclass overrides with a name), a
	// call of a method of self without arguments (`return self._get_container_name()`) or
	// an object's construction (`return cls(port=port)`, `return State(...)`).
	Returns []Return `json:"returns,omitempty"`
	// Dispatch: the file gets attributes by computed names or lists an object's members
	// (getattr, hasattr, operator.methodcaller or attrgetter, __getattribute__ given a name
	// that is no string literal; inspect.getmembers, vars, dir; a __dict__ read): it may call
	// a method no code names. A getattr or hasattr of a dotted name (getattr(self._stored,
	// key)) is not counted here but in DispatchOn, for the linker to judge what that object is.
	Dispatch bool `json:"dispatch,omitempty"`
	// DispatchOn are the objects, as written, of the getattr and hasattr calls given a name
	// that is no string literal, when the object is a dotted name (self, self._stored,
	// logger), sorted: a StoredState or a logger holds no method of the tree, self does. A
	// bare self or cls in a method is written with its class, "self@BaseConfigModel": the
	// members reached are that class's and its subclasses'.
	DispatchOn []string `json:"dispatch_on,omitempty"`
	// HandlerDispatch: such a computed name is built on "_on_" (getattr(self, "_on_" + kind),
	// f"_on_{kind}"): code that calls handler-like methods by name, of any object.
	HandlerDispatch bool `json:"handler_dispatch,omitempty"`
	// HandlerStrings are the string literals that may be a private method's name, a
	// handler-like one's among them ("_on_start" in getattr(self, "_on_start") or
	// patch.object(C, "_on_start"), "_configure"), and any name getattr, hasattr or setattr
	// is given ("configure"), sorted.
	HandlerStrings []string `json:"handler_strings,omitempty"`
	// Paths are the absolute paths written as string literals in functions ("/data" in
	// ["server", "/data"], container.make_dir("/var/www/html/revocation")), once per function
	// and path, in source order: the linker links a storage mounted there to the function.
	Paths []PathString `json:"paths,omitempty"`
	// FileNames are the file names string literals write, the last element of a path with an
	// extension ("glauth.cfg.j2" of open("templates/glauth.cfg.j2"), "gnocchi.conf" of
	// "/etc/gnocchi/gnocchi.conf"), sorted, at most MaxFileNames: locate offers a template
	// whose name an edit pick writes.
	FileNames []string `json:"file_names,omitempty"`
}

// MaxFileNames caps Facts.FileNames.
const MaxFileNames = 64

// PathString is an absolute path written as a string literal in a function.
type PathString struct {
	Scope
	Path string `json:"path"`
}

// Return is a `return VALUE` in a function, VALUE a string, f-string, chain or self.m().
type Return struct {
	Scope
	Value Value `json:"value"`
}

// Scope says where a fact sits.
type Scope struct {
	Class string `json:"class,omitempty"` // innermost enclosing class ("" at module level)
	Func  string `json:"func,omitempty"`  // innermost enclosing function or method name
	Line  int    `json:"line"`
	// Conditional is true when the fact sits under an if/elif/else, try/except, for/while, or
	// match inside its function (so it may not run every time), or after a return under such
	// a condition (an early exit). The body of a for loop over a literal list/tuple/set and a
	// finally block are not conditional.
	Conditional bool `json:"conditional,omitempty"`
	// AfterReturn is, for a fact conditional only because it follows a return under a
	// condition in its function (`if not self.unit.is_leader(): return` early in __init__),
	// the line of that return, also in the body of a loop that follows it; 0 otherwise.
	AfterReturn int `json:"after_return,omitempty"`
	// ExceptReturn is true when every such return is in an except clause (`try: cfg =
	// self.config` / `except Exception: return`): the fact is on the function's usual path,
	// which stops only when the try's body raised. Conditional is true too: handlers
	// registered there are registered only when it did not raise, but a read there is not
	// code that runs only under a condition.
	ExceptReturn bool `json:"except_return,omitempty"`
	// InLoop is true when the fact sits in the body of a for loop over something other than
	// a literal (`for event in EVENTS:`) that is itself unconditional: such a loop runs
	// whenever what it runs over is not empty, which the linker can sometimes tell, and a
	// condition inside it picks among the elements.
	InLoop bool `json:"in_loop,omitempty"`
	// LoopAfterReturn is true for a fact in the body of a loop (over something not literal)
	// that follows a return under a condition: AfterReturn is set, but the loop is a
	// condition of its own, as it is without the return (review rev107).
	LoopAfterReturn bool `json:"loop_after_return,omitempty"`
	// Guarded is true when the fact's only condition is the body of a try whose handlers
	// catch none of the errors a missing name raises (KeyError, NameError, LookupError,
	// AttributeError, Exception, or all): `try: resources.fetch("x") except ModelError:`
	// runs the fetch, and ops raises NameError for an undeclared resource, which the try does
	// not catch. Conditional is true too; the linker decides where a try is no condition.
	Guarded bool `json:"guarded,omitempty"`
	// Leader is true when every condition the fact sits under is the body of an `if
	// self.unit.is_leader():` (any chain ending in is_leader()): it runs whenever the unit is
	// the leader, as the code after `if not self.unit.is_leader(): return` does. Conditional
	// is true too (a handler registered there is registered on the leader only).
	Leader bool `json:"leader,omitempty"`
	// CatchesModelError is true when the fact sits in the body of a try a handler of which
	// catches ops' ModelError, a base of it (Exception, BaseException) or everything:
	// `try: model.get_binding("public").network except ModelError:` probes for a binding,
	// which raises ModelError when Juju does not know it.
	CatchesModelError bool `json:"catches_model_error,omitempty"`
}

// Step is one link of an expression chain such as self.on["db"].relation_joined.
// Exactly one of Name, Index, GetAttr is set, or Call is true.
type Step struct {
	Name    string `json:"name,omitempty"`    // identifier (the first step) or ".attr"
	Index   *Value `json:"index,omitempty"`   // [value]
	GetAttr *Value `json:"getattr,omitempty"` // getattr(prev, value) with a non-literal value; a string literal becomes Name
	Call    bool   `json:"call,omitempty"`    // prev(...) (arguments dropped)
}

// Chain is an expression built from a name by attribute, index, getattr and call steps.
// getattr(self.on, "x") is recorded as the chain self.on.x.
type Chain []Step

// Value kinds.
const (
	ValStr   = "str"   // a plain string literal (no interpolation)
	ValChain = "chain" // a name or attribute chain: PEER, self.relation_name, consts.DB
	ValCall  = "call"  // a call: Cls(self, "db", relation_name=X)
	ValFStr  = "fstr"  // an f-string; Str holds its text with {...} kept
	ValDict  = "dict"  // a dict display {k: v}: Kwargs holds its pairs, Name the key when it is a plain string literal (else "")
	ValSeq   = "seq"   // a list, tuple or set display: Args holds its elements (up to 32)
	// ValElem is an element of what a for loop runs over (`for key in OPTIONS`, `for fn,
	// key in CHECKS`, `for k, v in MAP.items()`): Args[0] is the iterable as written, Pos the
	// 1-based position of the name in a tuple target (0: the whole element).
	ValElem = "elem"
	ValOr   = "or" // one of its Args: `a or b` (a chain of them flattened), `a if c else b`
	// ValConcat is its Args joined: `A + B` of two names, chains or displays (sequences
	// joined, or strings), and a display with a starred part, `[*A, "x"]` (A joined with
	// ["x"]).
	ValConcat = "concat"
	ValOther  = "other" // anything else (numbers, containers, expressions); Str holds short source text
)

// Value is an argument, index, default or assigned value.
type Value struct {
	Kind   string  `json:"kind"`
	Str    string  `json:"str,omitempty"`
	Chain  Chain   `json:"chain,omitempty"`  // ValChain; for ValCall, the callee
	Args   []Value `json:"args,omitempty"`   // ValCall positional arguments
	Kwargs []Kwarg `json:"kwargs,omitempty"` // ValCall keyword arguments, ValDict pairs, in source order
	Pos    int     `json:"pos,omitempty"`    // ValElem: the name's position in a tuple target
}

// Kwarg is one keyword argument.
type Kwarg struct {
	Name  string `json:"name"`
	Value Value  `json:"value"`
	// Key is a ValDict pair's key when it is a name or an attribute ({CONFIG_PORT: 8080,
	// Keys.HOST: "h"}), which a loop over the dict's keys may evaluate to a string; nil for a
	// string literal key (Name) and any other key.
	Key *Value `json:"key,omitempty"`
}

// Observe is a call of framework.observe (any callee chain ending in ".observe", or a local
// alias of one such as `observe = self.framework.observe`).
type Observe struct {
	Scope
	Event   Value `json:"event"`   // usually ValChain: self.on.db_relation_changed
	Handler Value `json:"handler"` // usually ValChain: self._on_db_changed
	// Receiver is X of a call self.X.observe(...) other than self.framework (ipmi-exporter's
	// self.framwork, which raises AttributeError), "" for any other receiver.
	Receiver string `json:"receiver,omitempty"`
}

// Assign is an assignment whose target is a name or attribute chain: module constants,
// class attributes (including annotated fields `x: int = 1`, Value.Kind ValOther when no
// value), `self.x = ...` in methods, and local names (`for x in (A, B)` gives one Assign
// per element of a literal sequence of plain values, any other for loop a ValElem Assign
// per name of its target, tuple targets included). Tuple targets of assignments are
// skipped. In functions only string, f-string, chain and
// call values are kept, a call's arguments only when its callee looks like a class or a
// lookup or when it passes a config-like chain.
type Assign struct {
	Scope
	Target     Chain  `json:"target"`
	Value      Value  `json:"value"`
	Annotation string `json:"annotation,omitempty"`
	// LoopEnd is, for the binding of a for statement's target (ValElem, or one element of a
	// literal sequence the loop runs over), the loop's last line: inside Line..LoopEnd the name
	// is this loop's element, even when another loop of the function reuses it.
	LoopEnd int `json:"loop_end,omitempty"`
	// Item marks an assignment to an item of self.x in a method, `self.x[key] = value`
	// (Target self.x): the object keeps value under some key (a library object per
	// relation, self.relations[rel] = DatabaseRequires(self, rel)).
	Item bool `json:"item,omitempty"`
	// Key is, for an Item, the key it is kept under (rel, "db").
	Key *Value `json:"key,omitempty"`
	// Fills marks an assignment to a name inside `if not NAME:` or `if NAME is None:` (a
	// parameter's fallback: refresh_event = [charm.on.update_status]); it runs only when the
	// name holds nothing, so a caller that passes a value never sees it.
	Fills bool `json:"fills,omitempty"`
}

// Call is a call that is not itself an observe call and is either a lookup (callee's last
// name is one of LookupCalls, or x.resources.fetch), a constructor chain call (callee's last
// name is __init__), a call passing a config-like chain as an argument (f(self.config)), a
// call of a config helper with arguments (self.facade.get_string_config("port")), a call of
// charm-helpers' config, action_get or function_get given a name (config("port")), or
// looks like a class instantiation (callee's last name starts with an upper-case letter,
// except *Error, *Exception, *Status and raised calls), with or without arguments: a
// charm-helpers context built bare in a resource map (keystone's context.SyslogContext()) is
// what makes its __call__ run. Calls assigned to something appear as Assign values instead of
// here.
type Call struct {
	Scope
	Value Value `json:"value"` // Kind ValCall
}

// LookupCalls are method names whose calls are always recorded as Call facts.
var LookupCalls = []string{
	"get_relation", "get_relations", "get_container", "get_binding", "get_secret",
	"load_config", "set_ports", "open_port",
	// reactive and charm-helpers lookups of a relation by flag or name (linker
	// linkNamedLookups): endpoint_from_flag("db.available"), relation_ids("cluster"),
	// relations_of_type("monitors")
	"endpoint_from_flag", "endpoint_from_name", "is_flag_set", "relation_ids", "relations_of_type",
	// and the older charms.reactive's is_state("db.available"), RelationBase.from_state(...)
	"is_state", "from_state",
	// and charm-helpers' of a storage: storage_list("osd-devices")
	"storage_list",
	// and charm-helpers' of a relation or a network binding: is_relation_made("ha"),
	// get_relation_ip("cluster"), network_get_primary_address("public"), network_get("admin")
	"is_relation_made", "get_relation_ip", "network_get_primary_address", "network_get",
	// and charms.openstack's use_defaults("shared-db.connected", ...): default handlers of flags
	"use_defaults",
	// and the flags a reactive charm sets itself, set_flag("docker.ready"): its own states,
	// not a relation's (linker ownFlags)
	"set_flag", "set_state",
}

// ReconcilerObservers are the functions of cosl.reconciler (the COS charms' "reconciler"
// pattern) that observe every event of the charm they are given with one handler:
// observe_events(charm, events, handler) and its later name observe_all(charm, include,
// callback). Their calls with the charm first are always recorded as Call facts.
var ReconcilerObservers = map[string]bool{"observe_events": true, "observe_all": true}

// RelationValidator is the function the observability charm libraries (prometheus_scrape,
// grafana_dashboard, loki_push_api, tracing, ...) call in their objects' constructors to
// check the endpoint they are bound to: validate(charm, relation_name,
// expected_relation_interface, expected_relation_role), which raises when the charm declares
// it with another interface or on another side. Its calls are always recorded.
const RelationValidator = "_validate_relation_by_interface_and_direction"

// KeyAccess is X[key], X.get(key, ...) or key in X where X is a chain (e.g. self.config["port"],
// event.params.get("user"), self.model.relations[PEER]); key is any expression: a string
// literal, f-string or chain (plugin["config"]), or a call or other expression (name +
// "-port") that only a run can tell. Only X whose last name ends in config/params/cfg, is
// relations/storages/containers, or is a local name bound to such a chain, is recorded.
type KeyAccess struct {
	Scope
	Object Chain  `json:"object"`
	Key    Value  `json:"key"`
	Via    string `json:"via"` // "index", "get", "in" (key in x, key not in x: a test for the key), or "all" (x.items(), .keys(), .values(), dict(x), x handed on as f([x]), f((x, y)) or f(**x): every key; Key is ValOther)
	// Asserted marks a test for the key that an assert statement asserts (assert "data" in
	// self.model.storages): for a key x lacks, it raises AssertionError.
	Asserted bool `json:"asserted,omitempty"`
}

// Narrowing is the body of an `if` or `elif` in a function whose condition is `NAME in X`
// or `NAME == X` (either side): on lines Start..End, NAME is one of X's elements (In) or X.
// Scope is the clause's. `if key in OPTIONS: return self._parse(key)` tells the linker that
// the helper is called only with OPTIONS, not with every name the function is given.
type Narrowing struct {
	Scope
	Name  string `json:"name"`
	In    bool   `json:"in,omitempty"`
	Value Value  `json:"value"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// AttrRead is an attribute read on a chain ending in config/params/typed-config-like names,
// e.g. self.config.log_level or self.charm_config.port: Object is the chain without the last
// attribute, Attr the attribute. Only chains whose last object step name ends in "config",
// "params" or "cfg" (or a local name bound to such a chain), or that is "options" (the
// OpenStack frameworks' configuration adapter: self.options.max_connections), are recorded,
// and not when the attribute is called (self.config.get(...)).
type AttrRead struct {
	Scope
	Object Chain  `json:"object"`
	Attr   string `json:"attr"`
}
