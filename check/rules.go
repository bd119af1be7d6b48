package check

// Severities, from most to least severe.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Rule names: the first eleven are CONTRACT §4's ten and undeclared-resource (ours, beside its
// kin); the rest are ours too.
const (
	RuleUndeclaredRelation   = "undeclared-relation"
	RuleUndeclaredAction     = "undeclared-action"
	RuleUndeclaredConfig     = "undeclared-config"
	RuleUndeclaredContainer  = "undeclared-container"
	RuleUndeclaredStorage    = "undeclared-storage"
	RuleUndeclaredResource   = "undeclared-resource"
	RuleMissingHandler       = "missing-handler"
	RuleUnhandledRelation    = "unhandled-relation"
	RuleUnhandledAction      = "unhandled-action"
	RuleUnusedConfig         = "unused-config"
	RuleUndeclaredParam      = "undeclared-action-param"
	RuleUnusedParam          = "unused-action-param"
	RuleActionNameUnderscore = "action-name-underscore"
	RuleConfigNoDefaultIndex = "config-no-default-index"
	RuleParamNoDefaultIndex  = "action-param-no-default-index"
	RuleHandlerConditional   = "handler-conditional"
	RuleYAMLProblem          = "yaml-problem"
	RuleUnresolvedName       = "unresolved-name"
	RuleUnobservedHandler    = "unobserved-handler"
	RuleUnlinkedCode         = "unlinked-code"
	RuleUnreadCode           = "unread-code"
	RuleRelationMismatch     = "relation-mismatch"
	RuleUnknownEvent         = "unknown-event"
	RuleMissingModule        = "missing-module"
	RuleMisspeltFramework    = "misspelt-framework"
)

// Rule documents one check rule. Rules is the single source for the SARIF rule
// descriptions and the rule table of check's help (app.CheckHelp).
type Rule struct {
	Name     string
	Severity string // the default severity
	Short    string // what is reported, one line
	Why      string // why it matters, and what lowers the severity
}

// Rules lists every rule in the order they are documented.
var Rules = []Rule{
	{RuleUndeclaredRelation, SeverityError,
		"Code observes, binds or looks up a relation endpoint the YAML does not declare.",
		"ops creates relation events only for declared endpoints, so observing an undeclared one raises on every hook; a lookup of it always finds nothing (a lookup, a hook's and a flag's name are taken as written, `get_relation(\"sloth_peers\")` does not find `sloth-peers`; an event's are not, `self.on[\"sloth_peers\"]` is its events), and `model.get_binding(name)` of a name that is no endpoint, no `extra-bindings` entry and not juju-info fails when its network is read. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info), and so is a test for the name (`\"db\" in self.model.relations`: always false, it raises nothing), a lookup through charm-helpers or charms.reactive (`relation_ids(\"db\")`, `endpoint_from_name(\"db\")`, `endpoint_from_flag(\"endpoint.db.joined\")`, `is_relation_made(\"db\")`: it finds nothing, and raises nothing; `get_relation_ip(\"db\")`, whose name may also be an `extra-bindings` entry: the unit's private address instead of the binding's), and a function registered for a hook of an undeclared endpoint (`@hooks.hook(\"volume-relation-joined\")`) or waiting for one of charms.reactive's `endpoint.<name>.*` flags of one, or for an interface layer's flag whose first word is a letter or two from one declared relation's name and declared nowhere (`@when(\"etcdd.available\")` beside relation etcd): nothing fires it, so it never runs for it, which raises nothing."},
	{RuleUndeclaredAction, SeverityError,
		"Code observes an action the YAML does not declare.",
		"ops creates `<action>_action` events only for declared actions, so observing an undeclared one raises on every hook. A classic or reactive charm's dispatch table (`ACTIONS = {...}`, mapping two or more declared actions to functions, or one in a module an action's own script runs) with a key no action declares is a warning: `juju run` rejects the name, so that entry never runs. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info)."},
	{RuleUndeclaredConfig, SeverityError,
		"Code reads a config option the YAML does not declare.",
		"An undeclared option never has a value: `config.get` silently returns the fallback and `config[...]` raises KeyError. Names are read as written: `config.get(\"slo_period\")` does not read `slo-period` (the finding says which name was meant). A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info), and so is a test for the option (`\"url\" in self.config`: always false, it raises nothing) and a field of the class the charm loads its options into (`config_type`, `load_config(Cls)`, `Cls(**self.config)`, `Cls(**config)` of a local holding the whole config) that names no declared option: it keeps its default (a warning), or, when it has none, loading fails (an error). An attribute read on the typed config (`self.config.log_levle`, `cfg.prot` of `cfg = self.load_config(Cls)`) that names neither an option nor a member of the class is an error: it raises AttributeError. A `.get()` in code several charms share, of an option a sibling charm declares, is an info: an opt-in this charm leaves out by design."},
	{RuleUndeclaredContainer, SeverityError,
		"Code uses a workload container the YAML does not declare.",
		"ops creates `<container>_pebble_ready` events and Container objects only for declared containers; anything else raises. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info), and so is a test for the name (`\"app\" in self.unit.containers`: always false, it raises nothing)."},
	{RuleUndeclaredStorage, SeverityError,
		"Code uses a storage the YAML does not declare.",
		"ops creates storage events and entries only for declared storage; anything else raises. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info), and so is a test for the name (`\"data\" in self.model.storages`: always false, it raises nothing, but an `assert` of it is an error), and charm-helpers' `storage_list(\"data\")` of one (it finds nothing)."},
	{RuleUndeclaredResource, SeverityError,
		"Code fetches a resource the YAML does not declare.",
		"`self.model.resources.fetch(name)` raises NameError for a resource the charm does not declare, and Juju attaches none. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info); the body of a `try` whose handlers catch only `ModelError` (an unattached resource) is no such condition, since NameError passes through it."},
	{RuleMissingHandler, SeverityError,
		"observe() is given a handler method that exists neither in the class nor in its bases.",
		"The attribute lookup fails with AttributeError while the charm is being constructed, so every hook fails. A class with a base from outside the tree, which may define the handler, is held to this only for a name a letter or two from a method of its classes in the tree (a warning naming it). A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info)."},
	{RuleUnhandledRelation, SeverityWarning,
		"A declared relation endpoint that no code observes, binds to a library object, or looks up (itself, or through a package function given the charm and the name).",
		"Juju lets the endpoint be integrated, but the charm never reacts, so the relation silently does nothing. Endpoints added by a charmcraft extension are handled by the framework, so are the endpoints of a 12-factor charm whose interface the framework wires to the workload (postgresql_client, mysql_client, mongodb_client, redis, s3, saml, rabbitmq, tracing, smtp, openfga, oauth, ldap, http_proxy), and a subordinate's container-scoped juju-info endpoint only attaches it to its principal: none of these is reported. Reported as info when the charm has dynamic names the linker could not resolve, which may be the missing handler, when some of its Python code was not read (too large, unreadable), which may be, when it is a reactive charm (handlers of flags its layers set may handle it) or a classic one (hooks it does not follow may), when it imports a package named after the relation, or when the charm's class derives from a base charm class of a package outside the tree. A relation whose only handler observes every relation (cosl's reconciler, `observe_events(self, reconcilable_events_k8s, self._reconcile)`, or a loop over them), which no code binds, looks up or observes by name, is an info that names that handler: it runs on the relation's events, but nothing reads the relation's data by its name."},
	{RuleUnhandledAction, SeverityWarning,
		"A declared action that no code observes.",
		"`juju run` accepts the action, but nothing handles it and it completes without doing anything. An action with its own executable, `actions/<name>` (not a link to the charm's entry point), is run by it and not reported, unless that script dispatches through a table of its own (`ACTIONS = {\"pause\": pause, ...}`) that maps other declared actions but not this one: it finds no function for the action and fails. Reported as info when the charm has dynamic names the linker could not resolve, or when the charm's class derives from a base charm class of a package outside the tree (ops_openstack's OSBaseCharm observes pause and resume), which may handle it, or when its code hands the charm to an object of such a package, which may observe it (not for a package whose every observed action is known: of ops_openstack's, only pause and resume), or when some of its Python code was not read, or when it is a reactive charm, or imports a package named after the action, or observes no event at all (every hook, an action's too, runs its __init__), or when its description says it is retired (deprecated, obsolete, no longer supported)."},
	{RuleUnusedConfig, SeverityWarning,
		"A declared config option that no code reads.",
		"Operators can set the option, but it changes nothing: either dead configuration or a forgotten read. A 12-factor charm (a charmcraft framework extension) passes every option to its workload as an environment variable: its options are not reported. Reported as info when the charm has dynamic config reads the linker could not resolve, when it imports a package named after the option, or when its code hands the charm to an object of a package outside the tree that is not an interface library (coordinated_workers' Worker(charm=self)), which may read any option, or when the charm's class derives from a base charm class of such a package (ops_openstack's OSBaseCharm), which may read it, or when some of its Python code was not read (too large, unreadable), or when it is a reactive or classic charm (whose templates and charm-helpers contexts take the whole configuration). Options a well-known package reads itself (charm-helpers' NRPE() reads nagios_context and nagios_servicegroups) are read where the charm builds its object, and charm-helpers' config(name) (hookenv.config(name)) reads the option it names, as its configure_sources(update, sources_var, keys_var) reads the two it names (install_sources and install_keys by default). An option whose description says it is retired (deprecated, obsolete, no longer used, has no effect, does nothing, is ignored) is kept for the deployments that still set it: an info that quotes the description."},
	{RuleUndeclaredParam, SeverityWarning,
		"An action handler reads a parameter the action does not declare (or action code, one no action declares).",
		"The parameter is not in the action's schema, so operators are never told about it and Juju rejects it when the schema forbids additional properties; usually a typo, and the read sees only the fallback or raises KeyError. Also charm-helpers' action_get(name) (function_get) in a classic or reactive charm: in a function of an action table or in an action's own script, a name that action does not declare; in other code, a name no action declares (action_get returns None for it). In a class no code of the tree uses, or a method or function no code of the tree calls (or only its tests), it is an info that says so."},
	{RuleUnusedParam, SeverityWarning,
		"An action declares a parameter that its handler never reads.",
		"Operators are told they can pass it (`juju run app/0 rotate-key key=...`), but the value changes nothing: a forgotten read, or a parameter left from an older version. Reported only when that can be told for sure: every handler of the action is a plain method of the charm's own code observed for it alone (not decorated, not a dispatcher of several actions, not a function imported into the class), it mentions neither params (`event.params`, `event.load_params`, `**event.params`) nor charm-helpers' `action_get`, and it uses its event only through the event's attributes (`event.set_results(...)`, `event.fail(...)`): one it hands on, stores or returns may be read elsewhere. A handler of that kind that reads some of the parameters, each by a key written out, and never uses the params whole (handed to a call, `dict(...)`, `**`, `.items()`) nor by a key not known, ignores the others: each is reported, saying which it reads and whether the one ignored is required (charm-cloudsupport's required `i-really-mean-it`, the safety catch of stop-vms, never read). One finding per parameter, at its declaration."},
	{RuleUnobservedHandler, SeverityWarning,
		"A method named like an event handler (`_on_<event>`) that no code observes, calls or names.",
		"ops runs a handler only once `framework.observe` registers it, never because of its name, so the method never runs: usually a forgotten observe (an `_on_update_status` that retries a failed step, an `_on_<relation>_relation_broken` that cleans up), else dead code. Any use of the name counts, in tests too, and so does a string that is the name (`patch.object(Charm, \"_on_start\")`). Not reported for a decorated method, a method of a class with a base outside the tree other than ops' (which may register it by name), library code, or a charm whose code gets attributes by computed names or lists an object's members (`getattr(self, \"_on_\" + event)`, `inspect.getmembers`, `dir()`, `vars()`, `__dict__`). An info when the class has a decorator or a metaclass, which may register its methods, or when no code of the tree uses the class (dead with it: a copied package's)."},
	{RuleActionNameUnderscore, SeverityWarning,
		"An action name contains `_`.",
		"Juju convention is hyphenated action names (`rotate-password`); ops maps `-` to `_` in the event name, so an underscore name is inconsistent with every other charm and its CLI usage."},
	{RuleConfigNoDefaultIndex, SeverityWarning,
		"A config option without a default is read with `config[\"name\"]`.",
		"ops omits unset options that have no default, so the index raises KeyError until an operator sets it; use `config.get(\"name\")` or declare a default. Info when the read runs only under a condition (which may be the guard; not after an early return under a condition that tests something else, nor in the body of `if self.unit.is_leader():`: the function's usual path), or when code also reads the option with `.get()` or tests for it (`\"name\" in config`), which may check it before the index. Not reported for a typed config (a charm class that sets `config_type`, as data_models' TypedCharmBase does): its `self.config[\"name\"]` reads the model's field, whose default stands in for an unset option; nor in a classic or reactive charm, whose charm-helpers `config()` holds every option (None when unset)."},
	{RuleParamNoDefaultIndex, SeverityWarning,
		"An action parameter the action neither requires nor gives a default is read with `params[\"name\"]`.",
		"Juju passes an action only the parameters the operator gives, the required ones and those with a default: when the operator leaves this one out, the index raises KeyError and the action fails with a traceback instead of a message. Use `params.get(\"name\")`, add a default, or list it under `required:`. Info when the read runs only under a condition (which may be the guard), or when code running for the action also reads the parameter with `.get()` or tests for it (`\"name\" in event.params`)."},
	{RuleHandlerConditional, SeverityInfo,
		"A handler is registered only under a condition.",
		"When the condition is false the event goes unhandled; this is often intended (substrate- or feature-specific code) but worth knowing when the interface looks unhandled. Observe calls inside vendored charm libraries (lib/charms/<other charm>/) are upstream's design and not reported. A helper object built only under a condition (after an early return in the charm's `__init__`) registers all its handlers only then: that is one finding, at the construction, naming the interfaces its handlers serve."},
	{RuleYAMLProblem, SeverityWarning,
		"A charm YAML file could not be read completely, or has a top-level key Juju ignores that is a letter or two from a section's (`providers:`).",
		"What could not be read is missing from the declarations, and so is everything under a misspelled section, which Juju ignores without a word (also an action's parameters under a key Juju does not read, `parameters:` for `params:`, and a parameter's schema key near a JSON-schema keyword, `typoe:`). An error when a file's declarations were lost (a syntax error, a file that is not a regular file or is oversized; one that cannot be opened or read at all, for permissions, fails check with exit 2 instead): the charm's interfaces are then unknown, and code using a name the YAML does not declare is reported as info, not as an error, since the name may be declared in what was lost. A problem that loses nothing (an empty file, a wrong type of one value) is a warning. Code using a name written under a misspelled section is still an error, whose message points at that name's line."},
	{RuleUnlinkedCode, SeverityInfo,
		"A charm has code of its own, but no charm class, no charm-helpers `@hooks.hook` function, no hook script (a Python file named for a hook, or a link named for a hook to one) and no reactive handler: Python in its hooks/ folder, or hooks or bash reactive handlers (reactive/*.sh) that are not Python.",
		"Its hooks run some other way the linker does not follow (hooks that are shell scripts running its Python, say), or run code the linker does not read (a charm or a layer written in shell), so nothing can be linked and its YAML is not checked against its code: without this info, `check` would pass it in silence. The first own file is named."},
	{RuleUnreadCode, SeverityError,
		"A charm has no charm class, charm-helpers `@hooks.hook` function or reactive handler that could be read, and some of its own Python files were not read (unreadable, over the size limit, or not Python: a NUL byte, which Python refuses too).",
		"Its charm class may be in what was not read (an unreadable src/charm.py), so nothing is linked and its YAML is not checked against its code: without this error, `check` would pass a charm it could not check. The files not read are named; each also has its warning on stderr."},
	{RuleRelationMismatch, SeverityError,
		"A charm library object is bound to a relation the YAML declares on the other side, or with another interface, than the library's constructor requires.",
		"The observability libraries (prometheus_scrape, grafana_dashboard, loki_push_api, tracing and others) check the endpoint in their objects' constructors and raise RelationRoleMismatchError or RelationInterfaceMismatchError, while the charm is being constructed: every hook fails. Read from the library's own check (its call of `_validate_relation_by_interface_and_direction`). A library that checks nothing is held to its class's name only, as a warning: a class named …Requires, …Requirer or …Consumer (…Provides, …Provider) whose module defines the counterpart (DatabaseRequires beside DatabaseProvides) plays that side, so binding it to an endpoint declared on the other side (not a container-scoped one) makes it read and write the other side's data. A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info)."},
	{RuleUnknownEvent, SeverityError,
		"Code observes an event of the charm's `on`, or hands one to a call (`refresh_event=[self.on.x]`), that ops defines for no name the YAML declares, and the charm defines none of that name (`self.on.cos_agent_joined`).",
		"ops defines a charm's events from its YAML (`<relation>_relation_joined`, `<container>_pebble_ready`, `<storage>_storage_attached`, `<action>_action`) beside the fixed ones (`install`, `config_changed`, ...); any other attribute of `self.on` raises AttributeError while the charm is being constructed, so every hook fails. Not when the charm's `on` is redefined with events the linker cannot read, or its class derives from a base outside the tree, which may, unless the name is a letter or two from an event ops defines for every charm (`self.on.config_chnaged` under paas_charm's `Charm`): a warning, since a base hardly adds an event spelt like ops' own. A library object's event is held to its events class when the tree holds that class whole (`self.cert.on.certificate_removed` of a library whose v1 defines `certificates_removed`). A finding in code that runs only under a condition is a warning (not one after an early return under a condition, on the function's usual path, nor one in the body of `if self.unit.is_leader():`, which runs whenever the unit leads, unless that condition tests for the same name; one in dead code, a class no code of the tree uses or a function or method only tests call, only code that never runs calls, or nothing does, an info). The finding names the event meant when one of the charm's own is a word or a letter or two from it. A function a classic or reactive charm registers for a relation's or storage's hook whose event is none Juju runs (`@hooks.hook(\"db-relation-chnaged\")`) never runs for it: a warning, with the hook meant."},
	{RuleMissingModule, SeverityError,
		"The charm's code imports, at the top level of a module it runs, a module of one of its own packages (a folder of Python under its src/ or lib/, but lib/charms/) that the tree does not have (`from utils.ldap_client import LdapRequires` when src/utils/ holds no ldap_client.py).",
		"The import raises ModuleNotFoundError while the charm's code is loaded, so every hook fails: usually a module deleted or renamed while the charm still imports it, which the rules that read names would take for code that is simply not there. Only the files the charm's classes import, directly or not, count; an import in a function, under an if or a try, or for type checkers only (`if TYPE_CHECKING:`) may never run and is not reported, nor is a charm library (lib/charms/, which charmcraft may fetch at build time)."},
	{RuleMisspeltFramework, SeverityError,
		"Code calls `observe` on an attribute of self a letter or two from `framework` that nothing sets (`self.framwork.observe(self.on.install, ...)`).",
		"The attribute lookup raises AttributeError while the charm is being constructed, so every hook fails, and none of the handlers it registers ever runs. Not reported when the file, or a class the object's class derives from in the tree, sets or defines that attribute, nor when a base from outside the tree (other than ops') may, nor in vendored code. A finding in code that runs only under a condition is a warning (one in dead code an info)."},
	{RuleUnresolvedName, SeverityInfo,
		"A name used to observe, look up or read an interface could not be resolved statically.",
		"Dynamic names (loop variables, computed strings) cannot be checked against the YAML, so they are never reported as errors; the summary counts them."},
}

// ruleSeverity is the default severity of a rule; an unknown rule is a warning.
func ruleSeverity(name string) string {
	for _, r := range Rules {
		if r.Name == name {
			return r.Severity
		}
	}
	return SeverityWarning
}
