package synth

// Vocabulary the generator builds identifiers, names and prose from. The words are the ones
// charm code is made of, so identifiers look like real ones (get_primary_endpoint,
// BackupCredentials, _on_database_relation_changed) and tokenise like them.
var (
	nouns = []string{
		"database", "cluster", "backup", "replica", "user", "password", "certificate",
		"endpoint", "secret", "status", "unit", "peer", "storage", "snapshot", "schema",
		"member", "leader", "primary", "standby", "volume", "metrics", "log", "alert",
		"dashboard", "ingress", "route", "token", "credential", "bucket", "archive", "upgrade",
		"workload", "service", "socket", "port", "address", "host", "index", "shard", "topic",
		"partition", "broker", "consumer", "producer", "quota", "policy", "role", "grant",
		"session", "connection", "pool", "query", "plan", "timeline", "checkpoint", "restore",
		"stanza", "lock", "relation", "tls", "key", "chain", "scrape", "job", "rule", "target",
		"probe", "trace", "profile", "plugin", "extension", "module", "model", "machine",
		"network", "binding", "layer", "pebble", "container", "mount", "path", "version",
		"revision", "channel", "release", "request", "response", "payload", "config", "option",
		"action", "event", "handler", "state", "data", "cache", "queue", "worker", "task",
		"tenant", "realm", "client", "server", "listener", "proxy", "gateway", "record",
	}
	verbs = []string{
		"get", "set", "update", "create", "delete", "ensure", "check", "validate", "render",
		"build", "fetch", "load", "store", "sync", "apply", "reconcile", "handle", "process",
		"compute", "parse", "emit", "publish", "rotate", "restart", "start", "stop", "enable",
		"disable", "refresh", "list", "collect", "register", "remove", "configure", "open",
		"close", "wait", "retry", "promote", "join", "scale", "prepare", "cleanup", "resolve",
		"generate", "read", "write", "push", "pull", "merge", "filter", "convert", "reset",
	}
	adjectives = []string{
		"active", "default", "current", "primary", "remote", "local", "pending", "stale",
		"external", "internal", "secure", "shared", "cached", "initial", "final", "raw",
	}
	products = []string{
		"ledger", "quarry", "harbor", "beacon", "lantern", "orchard", "meadow", "granite",
		"tundra", "cascade", "summit", "falcon", "willow", "ember", "aurora", "basalt",
		"canyon", "delta", "fjord", "glacier", "heron", "iris", "juniper", "kestrel", "lagoon",
		"marlin", "nebula", "onyx", "prairie", "quartz", "raven", "sierra", "thistle",
		"umber", "vale", "wren", "yarrow", "zephyr", "alder", "birch", "cedar", "dune",
	}
	pyTypes = []string{
		"str", "int", "bool", "float", "Dict[str, str]", "List[str]", "Optional[str]",
		"Dict[str, Any]", "Optional[int]", "Set[str]",
	}
	exceptions = []string{"KeyError", "ValueError", "RuntimeError", "TimeoutError", "OSError"}
	prose      = []string{
		"the", "charm", "relation", "data", "unit", "application", "is", "when", "this",
		"library", "provides", "requires", "returns", "event", "handler", "called", "each",
		"leader", "all", "units", "that", "not", "yet", "ready", "configured", "workload",
		"container", "with", "from", "for", "and", "or", "if", "a", "an", "of", "to", "in",
		"on", "should", "must", "will", "be", "value", "option", "remote", "local", "secret",
		"databag", "field", "written", "read", "only", "once", "after", "before", "update",
	}
	lifecycleEvents = []string{
		"install", "start", "config_changed", "update_status", "leader_elected",
		"upgrade_charm", "stop", "remove", "secret_changed", "collect_unit_status",
	}
	relationEvents = []string{"relation_joined", "relation_changed", "relation_departed", "relation_broken"}
)
