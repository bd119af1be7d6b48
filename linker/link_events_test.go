// Tests of the linker: observed events and their handlers (observe forms, tables, wrappers,
// loops, catch-all reconcilers).

package linker

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

func TestUndeclaredIndexedEventNamedAsTheYAMLWould(t *testing.T) {
	// on["osd_disk"].storage_attached is the storage osd-disk (ops reads a key's - as _): an
	// undeclared one is named with hyphens, as an attribute's is.
	c := charm("demo", ".", "storage:data")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on["osd_disk"].storage_attached, self._attached)
        self.framework.observe(self.on.cache_dir_storage_detaching, self._attached)

    def _attached(self, event):
        pass
`})
	expect(t, "findings", findings(cl), "src/charm.py:6 undeclared-storage osd-disk\nsrc/charm.py:7 undeclared-storage cache-dir")
}

func TestEventForms(t *testing.T) {
	c := charm("demo", ".", "relation:db", "relation:cluster-peers", "relation:old-api", "relation:tls",
		"action:rotate-password", "action:backup", "container:web-app", "storage:data")
	cl := link1(t, c, files{
		"src/constants.py": `
PEERS = "cluster-peers"
TLS = "tls"
`,
		"src/charm.py": `
import ops
from constants import PEERS, TLS as CERTS
import constants as k

DB = "db"

class DemoCharm(ops.CharmBase):
    _storage = "data"

    def __init__(self, framework):
        super().__init__(framework)
        observe = self.framework.observe
        observe(self.on.db_relation_joined, self._on_db)
        self.framework.observe(self.on[DB].relation_changed, self._on_db)
        self.framework.observe(self.on[PEERS].relation_departed, self._on_peer)
        self.framework.observe(self.on[k.PEERS].relation_created, self._on_peer)
        self.framework.observe(self.on[CERTS].relation_broken, self._on_tls)
        self.framework.observe(self.on["old-api"].relation_joined, self._on_old)
        self.framework.observe(getattr(self.on, "rotate_password_action"), self._on_rotate)
        self.framework.observe(self.on["backup"].action, self._on_backup)
        self.framework.observe(self.on.web_app_pebble_ready, self._on_ready)
        self.framework.observe(self.on.web_app_pebble_custom_notice, self._on_ready)
        self.framework.observe(self.on[self._storage].storage_attached, self._on_storage)
        self.framework.observe(self.on.data_storage_detaching, self._on_storage)
        self.framework.observe(self.on.install, self._on_install)
        self.framework.observe(self.on.leader_settings_changed, self._on_install)
        self.framework.observe(self.on.secret_rotate, self._on_install)
        self.framework.observe(self.on.collect_app_status, self._on_install)

    def _on_db(self, e): ...
    def _on_peer(self, e): ...
    def _on_tls(self, e): ...
    def _on_old(self, e): ...
    def _on_rotate(self, e): ...
    def _on_backup(self, e): ...
    def _on_ready(self, e): ...
    def _on_storage(self, e): ...
    def _on_install(self, e): ...
`,
	})
	expect(t, "db", handlers(cl, KindRelation, "db"), "db_relation_joined>DemoCharm._on_db[observe] relation_changed>DemoCharm._on_db[on-index]")
	expect(t, "peers", handlers(cl, KindRelation, "cluster-peers"), "relation_created>DemoCharm._on_peer[on-index] relation_departed>DemoCharm._on_peer[on-index]")
	expect(t, "tls", handlers(cl, KindRelation, "tls"), "relation_broken>DemoCharm._on_tls[on-index]")
	expect(t, "old-api", handlers(cl, KindRelation, "old-api"), "relation_joined>DemoCharm._on_old[on-index]")
	expect(t, "rotate", handlers(cl, KindAction, "rotate-password"), "rotate_password_action>DemoCharm._on_rotate[observe]")
	expect(t, "backup", handlers(cl, KindAction, "backup"), "action>DemoCharm._on_backup[on-index]")
	expect(t, "web-app", handlers(cl, KindContainer, "web-app"), "web_app_pebble_custom_notice>DemoCharm._on_ready[observe] web_app_pebble_ready>DemoCharm._on_ready[observe]")
	expect(t, "data", handlers(cl, KindStorage, "data"), "data_storage_detaching>DemoCharm._on_storage[observe] storage_attached>DemoCharm._on_storage[on-index]")
	expect(t, "install", handlers(cl, KindLifecycle, "install"), "install>DemoCharm._on_install[observe]")
	expect(t, "leader-settings", handlers(cl, KindLifecycle, "leader-settings-changed"), "leader_settings_changed>DemoCharm._on_install[observe]")
	expect(t, "secret", handlers(cl, KindSecret, "secret-rotate"), "secret_rotate>DemoCharm._on_install[observe]")
	expect(t, "status", handlers(cl, KindStatus, "collect-app-status"), "collect_app_status>DemoCharm._on_install[observe]")
	expect(t, "findings", findings(cl), "")
	// interfaces: declared in YAML order, then observed events in kind order
	var order []string
	for _, it := range cl.Interfaces {
		order = append(order, it.Kind+":"+it.Name)
	}
	expect(t, "order", strings.Join(order, " "), "relation:db relation:cluster-peers relation:old-api relation:tls "+
		"action:rotate-password action:backup container:web-app storage:data lifecycle:install "+
		"lifecycle:leader-settings-changed secret:secret-rotate status:collect-app-status")
}

// TestLoopOverDictKeyedByConstants: a dict whose keys are constants ({CONFIG_METRICS: ...})
// gives a loop over its keys or items the constants' values, in a for statement and in a
// comprehension.
func TestLoopOverDictKeyedByConstants(t *testing.T) {
	c := charm("demo", ".", "config:metrics_pipeline", "config:logs_pipeline", "config:traces_pipeline")
	cl := link1(t, c, files{
		"src/consts.py": `
class Keys:
    TRACES = "traces_pipeline"
`,
		"src/charm.py": `
import ops
from consts import Keys

CONFIG_METRICS = "metrics_pipeline"
CONFIG_LOGS = "logs_pipeline"

class DemoCharm(ops.CharmBase):
    def _pipelines(self):
        mapping = {CONFIG_METRICS: "metrics", CONFIG_LOGS: "logs"}
        return [name for key, name in mapping.items() if self.config.get(key, False)]

    def _traces(self):
        for key in {Keys.TRACES: "traces"}:
            self.config[key]
`,
	})
	expect(t, "metrics", reads(cl, KindConfig, "metrics_pipeline"), "src/charm.py:10/config-read/get")
	expect(t, "logs", reads(cl, KindConfig, "logs_pipeline"), "src/charm.py:10/config-read/get")
	expect(t, "traces", reads(cl, KindConfig, "traces_pipeline"), "src/charm.py:14/config-read/index")
}

func TestEventsUnderAnotherName(t *testing.T) {
	// A helper whose events live in a class attribute other than on (_on = InfluxDBEvents(),
	// an ObjectEvents subclass): observing helper._on.x is observing the helper's event x, of
	// the relation it is bound to. Another attribute (a plain object) is no event namespace.
	c := charm("ctl", ".", "relation:influxdb")
	cl := link1(t, c, files{
		"src/influx.py": `import ops


class AvailableEvent(ops.EventBase):
    pass


class InfluxDBEvents(ops.ObjectEvents):
    influxdb_available = ops.EventSource(AvailableEvent)


class Settings:
    influxdb_ready = None


class InfluxDB(ops.Object):
    _on = InfluxDBEvents()
    _settings = Settings()

    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self._relation_name = relation_name
`,
		"src/charm.py": `import ops
from influx import InfluxDB


class CtlCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self._influxdb = InfluxDB(self, "influxdb")
        framework.observe(self._influxdb._on.influxdb_available, self._on_available)
        framework.observe(self._influxdb._settings.influxdb_ready, self._on_ready)

    def _on_available(self, event):
        pass

    def _on_ready(self, event):
        pass
`})
	expect(t, "handlers", handlers(cl, KindRelation, "influxdb"), "influxdb_available>CtlCharm._on_available[library]")
}

func TestEventArgs(t *testing.T) {
	// An event of the charm's on handed to a call other than observe (a library's
	// refresh_event=[...]) is read there: one ops does not define for the YAML raises, as in an
	// observe call. Lifecycle events and the declared names' are fine.
	c := charm("demo", ".", "container:traefik", "relation:metrics")
	cl := link1(t, c, files{"src/charm.py": `import ops
from charms.prometheus_k8s.v0.prometheus_scrape import MetricsEndpointProvider


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.metrics = MetricsEndpointProvider(
            charm=self,
            refresh_event=[self.on.grafana_pebble_ready, self.on.update_status, self.on.traefik_pebble_ready],
        )
        Watcher(self, self.on.metrics_relation_joined, self.on.metric_relation_joined, self.on.refresh)
`})
	expect(t, "findings", findings(cl), `src/charm.py:8 undeclared-container grafana
src/charm.py:12 undeclared-relation metric
src/charm.py:12 unknown-event refresh`)
}

func TestLoopsOverCollections(t *testing.T) {
	// A for loop over a collection bound elsewhere (a module constant, an import, a local, a
	// dict's keys, values or items, a tuple target's item) runs over its elements: declared
	// names link, undeclared ones are no finding (the loop may skip them), and an event the
	// loop observes is observed whenever the loop runs. m.get(key, default) is its default
	// and, for a dict display, the value under key. A comprehension's for clause binds its
	// names the same way. A literal loop stays strict.
	c := charm("demo", ".", "relation:db", "relation:cache", "relation:metrics", "relation:logs",
		"config:port", "config:host", "config:mode", "container:web", "relation:peers")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/consts.py": `
OPTIONS = ["port", "host", "not-an-option"]
ENDPOINTS = {"db": "primary", "cache": "secondary"}
`,
		"src/charm.py": `
import ops
from consts import OPTIONS, ENDPOINTS

CHECKS = [(int, "port"), (str, "mode")]

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        events = [self.on.config_changed, self.on.web_pebble_ready]
        for event in events:
            self.framework.observe(event, self._configure)
        for endpoint in ENDPOINTS:
            self.framework.observe(self.on[endpoint].relation_changed, self._on_changed)
        if self.unit.is_leader():
            for endpoint in ENDPOINTS.keys():
                self.framework.observe(self.on[endpoint].relation_joined, self._on_changed)
        names = {"metrics": "metrics", "logs": "logging"}
        self.framework.observe(self.on[names.get("logs", "logs")].relation_broken, self._on_changed)
        self.framework.observe(self.on[names.get("traces", "traces")].relation_broken, self._on_changed)
        for rel in ("peers", "undeclared"):
            self.framework.observe(self.on[rel].relation_changed, self._on_changed)

    def _configure(self, event):
        for key in OPTIONS:
            if key in self.config:
                self.config[key]
        for cast, option in CHECKS:
            cast(self.config[option])
        for role, name in ENDPOINTS.items():
            self.model.get_relation(role)
            self.model.get_relation(name)
        return {opt: str(self.config[opt]) for opt in ("port", "host") if opt in self.config}

    def _on_changed(self, event):
        pass
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "config-changed", handlers(cl, KindLifecycle, "config-changed"), "config_changed>DemoCharm._configure[observe]")
	expect(t, "web", handlers(cl, KindContainer, "web"), "web_pebble_ready>DemoCharm._configure[observe]")
	for _, h := range iface(cl, KindContainer, "web").Handlers {
		if h.Conditional {
			t.Errorf("web: the loop over a non-empty list observes it unconditionally: %+v", h)
		}
	}
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>DemoCharm._on_changed[on-index] relation_joined>DemoCharm._on_changed[on-index]")
	for _, h := range iface(cl, KindRelation, "db").Handlers {
		if want := h.Event == "relation_joined"; h.Conditional != want {
			t.Errorf("db %s: conditional %v, want %v (under an if)", h.Event, h.Conditional, want)
		}
		if !h.Loose {
			t.Errorf("db %s: observed in a loop over a constant, not loose", h.Event)
		}
	}
	expect(t, "logs", handlers(cl, KindRelation, "logs"), "relation_broken>DemoCharm._on_changed[on-index]")
	expect(t, "peers", handlers(cl, KindRelation, "peers"), "relation_changed>DemoCharm._on_changed[on-index]")
	// (key in self.config, opt in self.config: tests for the option, reads of it too)
	expect(t, "port", reads(cl, KindConfig, "port"),
		"src/charm.py:25/config-read/in src/charm.py:26/config-read/index src/charm.py:28/config-read/index src/charm.py:32/config-read/in src/charm.py:32/config-read/index")
	expect(t, "host", reads(cl, KindConfig, "host"),
		"src/charm.py:25/config-read/in src/charm.py:26/config-read/index src/charm.py:32/config-read/in src/charm.py:32/config-read/index")
	// the reads through a loop's element are loose: check does not report them
	for _, r := range iface(cl, KindConfig, "port").Reads {
		if !r.Loose {
			t.Errorf("port read at line %d is not loose", r.Line)
		}
	}
	expect(t, "mode", reads(cl, KindConfig, "mode"), "src/charm.py:28/config-read/index")
	expect(t, "cache", reads(cl, KindRelation, "cache"), "src/charm.py:30/lookup/")
	expect(t, "findings", findings(cl), "src/charm.py:21 undeclared-relation undeclared")
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved: %+v", res.Unresolved)
	}

	// A caller pyextract does not record (a computed name) may pass another name: the
	// lookup stays a dynamic site, beside what the recorded callers pass.
	res = Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

DB = "db"

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.update_status, self._on_update_status)

    def _on_update_status(self, event):
        if self._created(DB) and self._created("cache") and self._created(self._peer_name):
            pass

    def _created(self, relation_name):
        return bool(self.model.get_relation(relation_name))
`}.parse()})
	cl = res.Charms[0]
	// (each at the call that passes it, TestLookupThroughHelperAtCaller)
	expect(t, "db", reads(cl, KindRelation, "db"), "src/charm.py:11/lookup/")
	expect(t, "cache", reads(cl, KindRelation, "cache"), "src/charm.py:11/lookup/")
	if len(res.Unresolved) != 1 || res.Unresolved[0].Line != 15 {
		t.Errorf("unresolved: %+v", res.Unresolved)
	}
}

func TestLoopOverDeclaredRelations(t *testing.T) {
	// A loop over model.relations (or meta.relations, or their keys) runs over the charm's
	// declared relations; a condition inside it dispatches, so the handlers are not
	// conditional. A branch under `if endpoint == "juju-info"` runs for that relation only;
	// an else branch is not narrowed (it links to every relation). NAMES["key"] of a dict
	// display is the value under key.
	c := charm("demo", ".", "relation:db", "relation:ingress", "relation:juju-info")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops

MODES = {"ambient": "ingress", "sidecar": "mesh"}

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        for rel in self.model.relations.keys():
            self.framework.observe(self.on[rel].relation_changed, self._on_event)
        for endpoint in self.meta.relations:
            if endpoint == "juju-info":
                self.framework.observe(self.on[endpoint].relation_departed, self._on_subordinate)
            else:
                self.framework.observe(self.on[endpoint].relation_broken, self._on_event)
        self.model.get_relation(MODES["ambient"])

    def _on_event(self, event):
        pass

    def _on_subordinate(self, event):
        pass
`,
	})
	expect(t, "db", handlers(cl, KindRelation, "db"),
		"relation_broken>DemoCharm._on_event[on-index] relation_changed>DemoCharm._on_event[on-index]")
	expect(t, "juju-info", handlers(cl, KindRelation, "juju-info"),
		"relation_broken>DemoCharm._on_event[on-index] relation_changed>DemoCharm._on_event[on-index] relation_departed>DemoCharm._on_subordinate[on-index]")
	for _, it := range cl.Interfaces {
		for _, h := range it.Handlers {
			if h.Conditional {
				t.Errorf("%s %s: %+v is conditional", it.Kind, it.Name, h)
			}
		}
	}
	expect(t, "ingress", reads(cl, KindRelation, "ingress"), "src/charm.py:15/lookup/")
	expect(t, "findings", findings(cl), "")
}

func TestCustomEventNamedAfterRelation(t *testing.T) {
	// A library's custom charm event named after a declared relation (redis_relation_updated,
	// emitted by its handlers of that relation) links its observer to the relation; one named
	// after an undeclared endpoint, or not after a relation, links nothing and is no finding.
	c := charm("demo", ".", "relation:redis")
	cl := link1(t, c, files{
		"lib/charms/redis_k8s/v0/redis.py": `
import ops

class RedisRelationCharmEvents(ops.CharmEvents):
    redis_relation_updated = ops.EventSource(ops.EventBase)
    cache_relation_updated = ops.EventSource(ops.EventBase)
    refreshed = ops.EventSource(ops.EventBase)
`,
		"src/charm.py": `
import ops
from charms.redis_k8s.v0.redis import RedisRelationCharmEvents

class DemoCharm(ops.CharmBase):
    on = RedisRelationCharmEvents()

    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.redis_relation_updated, self._on_redis)
        self.framework.observe(self.on.cache_relation_updated, self._on_redis)
        self.framework.observe(self.on.refreshed, self._on_redis)

    def _on_redis(self, event):
        pass
`,
	})
	expect(t, "redis", handlers(cl, KindRelation, "redis"), "redis_relation_updated>DemoCharm._on_redis[observe]")
	expect(t, "findings", findings(cl), "")
}

func TestReusedLoopVariable(t *testing.T) {
	// Two loops in one function reuse `relation`: the first over objects, the second over
	// relation names. Each observe call sees the binding of the loop around it.
	c := charm("reuse", ".", "relation:peer-certs", "relation:client-certs")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops
from tls import Requires

PEER = "peer-certs"
CLIENT = "client-certs"

class ReuseCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.peer = Requires(self, PEER)
        self.client = Requires(self, CLIENT)
        for relation in [self.peer, self.client]:
            self.framework.observe(relation.on.certificate_available, self._on_available)
        for relation in [PEER, CLIENT]:
            self.framework.observe(self.on[relation].relation_created, self._on_created)

    def _on_available(self, event):
        pass

    def _on_created(self, event):
        pass
`,
	}.parse()})
	cl := res.Charms[0]
	const want = "certificate_available>ReuseCharm._on_available[library] relation_created>ReuseCharm._on_created[on-index]"
	expect(t, "peer-certs", handlers(cl, KindRelation, "peer-certs"), want)
	expect(t, "client-certs", handlers(cl, KindRelation, "client-certs"), want)
	if len(res.Unresolved) > 0 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
}

func TestObservedAlsoUnconditionally(t *testing.T) {
	// Observed under a condition and again without one, a handler is one unconditional record.
	c := charm("twice", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class TwiceCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        if self.unit.is_leader():
            self.framework.observe(self.on.db_relation_changed, self._on_db)
        self.framework.observe(self.on.db_relation_changed, self._on_db)
        if self.unit.is_leader():
            self.framework.observe(self.on.db_relation_joined, self._on_db)

    def _on_db(self, event):
        pass
`})
	var got []string
	for _, h := range iface(cl, KindRelation, "db").Handlers {
		got = append(got, fmt.Sprintf("%s:%v", h.Event, h.Conditional))
	}
	expect(t, "db", strings.Join(got, " "), "db_relation_changed:false db_relation_joined:true")
}

func TestCatchAllIsALoopOverEveryRelation(t *testing.T) {
	// A handler observed in a loop over self.model.relations runs for every relation and is
	// none's own (CatchAll); one observed in a loop over events the charm lists is each
	// listed event's own (Loose only: it is one of several).
	c := charm("demo", ".", "relation:db", "relation:pki", "relation:peers")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        configure_events = [self.on.pki_relation_changed, self.on.db_relation_changed]
        for event in configure_events:
            self.framework.observe(event, self._configure)
        for rel in self.model.relations:
            self.framework.observe(self.on[rel].relation_departed, self._on_departed)

    def _configure(self, event): ...
    def _on_departed(self, event): ...
`})
	var got []string
	for _, it := range cl.Interfaces {
		for _, h := range it.Handlers {
			got = append(got, fmt.Sprintf("%s>%s loose=%v all=%v", it.Name, h.Event, h.Loose, h.CatchAll))
		}
	}
	slices.Sort(got)
	want := "db>db_relation_changed loose=true all=false|db>relation_departed loose=true all=true|peers>relation_departed loose=true all=true|" +
		"pki>pki_relation_changed loose=true all=false|pki>relation_departed loose=true all=true"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("handlers:\n got  %s\n want %s", g, want)
	}
}

func TestLoopOverClassesIsUnconditional(t *testing.T) {
	// for service in SERVICES: observe(self.on[service.name].pebble_ready, ...): each
	// service's name is one the loop runs over, so the handler is registered whenever the
	// loop runs (not under a condition), and a name the YAML does not declare is no finding.
	c := charm("demo", ".", "container:gms", "container:frontend")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class Gms:
    name = "gms"

class Frontend:
    name = "frontend"

class Retired:
    name = "retired"

SERVICES = [Gms, Frontend, Retired]

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        for service in SERVICES:
            self.framework.observe(self.on[service.name].pebble_ready, self._on_pebble_ready)

    def _on_pebble_ready(self, event): ...
`})
	for _, name := range []string{"gms", "frontend"} {
		it := iface(cl, KindContainer, name)
		if len(it.Handlers) != 1 || it.Handlers[0].Conditional {
			t.Errorf("%s: handlers %+v", name, it.Handlers)
		}
	}
	expect(t, "findings", findings(cl), "")
}

func TestComprehensionsReusingAName(t *testing.T) {
	// Two comprehensions of one function that reuse a name each bind their own: the options
	// of each dict are read where that dict's comprehension reads them.
	c := charm("demo", ".", "config:log-level", "config:auth-enabled", "config:auth-url")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _env(self):
        base = {"log-level": "LOG_LEVEL", "auth-enabled": "AUTH"}
        env = {var: self.config[key] for key, var in base.items()}
        extra = {"auth-url": "AUTH_URL"}
        env.update({
            var: self.config[key]
            for key, var in extra.items()
        })
        return env
`})
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:6/config-read/index")
	expect(t, "auth-url", reads(cl, KindConfig, "auth-url"), "src/charm.py:9/config-read/index")
}

func TestObserveTableOfEventsAndHandlers(t *testing.T) {
	// for event, handler in {self.on.x: self._on_x, ...}.items(): observe(event, handler),
	// the table inline or in a local name: each event is linked to its own handler, never to
	// another pair's, and the loop, over every pair, is no condition.
	c := charm("table", ".", "action:refresh", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class TableCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        table = {
            self.on.install: self._on_install,
            self.on.refresh_action: self._on_refresh,
        }
        for event, handler in table.items():
            self.framework.observe(event, handler)
        for ev, fn in {self.on.db_relation_changed: self._on_db}.items():
            framework.observe(ev, fn)

    def _on_install(self, _):
        pass

    def _on_refresh(self, event):
        pass

    def _on_db(self, event):
        pass
`})
	expect(t, "refresh", handlers(cl, KindAction, "refresh"), "refresh_action>TableCharm._on_refresh[observe]")
	expect(t, "install", handlers(cl, KindLifecycle, "install"), "install>TableCharm._on_install[observe]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "db_relation_changed>TableCharm._on_db[observe]")
	expect(t, "findings", findings(cl), "")
	for _, in := range cl.Interfaces {
		for _, h := range in.Handlers {
			if h.Conditional {
				t.Errorf("%s %s: conditional", in.Name, h.Symbol)
			}
		}
	}
}

func TestObserveTableOfNamesAndHandlers(t *testing.T) {
	// A table of names and handlers, the event spelt from the name in the loop
	// (self.on[name].action, the handler the loop's value, or getattr(self, value)): each
	// pair's name and handler take their places, never another pair's.
	c := charm("names", ".", "action:restart", "action:list-apps", "relation:db", "relation:cache")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class NamesCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        actions = {"restart": self._on_restart, "list_apps": self._on_list}
        for name, observer in actions.items():
            self.framework.observe(self.on[name].action, observer)
        for rel, meth in (("db", "_on_db"), ("cache", "_on_cache")):
            self.framework.observe(self.on[rel].relation_changed, getattr(self, meth))
        for pair in [("db", self._on_db)]:
            self.framework.observe(self.on[pair[0]].relation_joined, pair[1])

    def _on_restart(self, event):
        pass

    def _on_list(self, event):
        pass

    def _on_db(self, event):
        pass

    def _on_cache(self, event):
        pass
`})
	expect(t, "restart", handlers(cl, KindAction, "restart"), "action>NamesCharm._on_restart[on-index]")
	expect(t, "list-apps", handlers(cl, KindAction, "list-apps"), "action>NamesCharm._on_list[on-index]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>NamesCharm._on_db[on-index] relation_joined>NamesCharm._on_db[on-index]")
	expect(t, "cache", handlers(cl, KindRelation, "cache"), "relation_changed>NamesCharm._on_cache[on-index]")
	expect(t, "findings", findings(cl), "")
	// a table that splats another ({**base, ...}) holds pairs not known here: the call stays
	// unresolved, never resolved to the pairs written out
	splat := link1(t, charm("splat", ".", "action:starred", "action:comp"), files{"src/charm.py": `
import ops

class SplatCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        base = {"starred": self._on_starred}
        for name, fn in {**base, "comp": self._on_comp}.items():
            self.framework.observe(self.on[name].action, fn)

    def _on_starred(self, event):
        pass

    def _on_comp(self, event):
        pass
`})
	if h := handlers(splat, KindAction, "comp"); h != "" || len(splat.Unresolved) != 1 {
		t.Errorf("splatted table: comp handlers %q, unresolved %+v", h, splat.Unresolved)
	}
}

func TestLoopOverJoinedLists(t *testing.T) {
	// for rel in A + B and for rel in [*A, "x"]: the loop runs over every element of both,
	// each relation observed; a starred part is not lost.
	c := charm("joined", ".", "relation:alerts", "relation:scrape", "relation:orchestrator", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class JoinedCharm(ops.CharmBase):
    EXTERNAL = ["alerts", "scrape"]
    INTERNAL = ["orchestrator"]

    def __init__(self, framework):
        super().__init__(framework)
        for rel in self.EXTERNAL + self.INTERNAL:
            framework.observe(self.on[rel].relation_broken, self._on_broken)
        for rel in [*self.INTERNAL, "db"]:
            framework.observe(self.on[rel].relation_joined, self._on_joined)

    def _on_broken(self, event):
        pass

    def _on_joined(self, event):
        pass
`})
	expect(t, "alerts", handlers(cl, KindRelation, "alerts"), "relation_broken>JoinedCharm._on_broken[on-index]")
	expect(t, "orchestrator", handlers(cl, KindRelation, "orchestrator"), "relation_broken>JoinedCharm._on_broken[on-index] relation_joined>JoinedCharm._on_joined[on-index]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_joined>JoinedCharm._on_joined[on-index]")
	expect(t, "findings", findings(cl), "")
}

func TestObserveThroughAWrapper(t *testing.T) {
	// A method observing its parameter (def _observe_action(self, on_action, fn):
	// self.framework.observe(on_action, fn)) observes, at each call, the event the call passes,
	// with the handler it passes; a handler it cannot name is the wrapper itself. A call under
	// a condition registers its handler only then.
	c := charm("wrap", ".", "action:get-health", "action:rotate-key", "action:list", "relation:db")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops

class WrapCharm(ops.CharmBase):
    def _observe_action(self, on_action, fn):
        self.framework.observe(on_action, fn)

    def _observe_named(self, on_action, method_name):
        self.framework.observe(on_action, getattr(self, method_name))

    def __init__(self, framework):
        super().__init__(framework)
        self._observe_action(self.on.get_health_action, self._on_get_health)
        self._observe_named(self.on.rotate_key_action, "_on_rotate")
        self._observe_action(self.on["db"].relation_changed, fn=self._on_db)
        if self.unit.is_leader():
            self._observe_action(self.on.list_action, self._on_list)

    def _on_get_health(self, event):
        pass

    def _on_rotate(self, event):
        pass

    def _on_db(self, event):
        pass

    def _on_list(self, event):
        pass
`,
	})
	expect(t, "get-health", handlers(cl, KindAction, "get-health"), "get_health_action>WrapCharm._on_get_health[observe]")
	expect(t, "rotate-key", handlers(cl, KindAction, "rotate-key"), "rotate_key_action>WrapCharm._observe_named[observe]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>WrapCharm._on_db[on-index]")
	expect(t, "list", handlers(cl, KindAction, "list"), "list_action>WrapCharm._on_list[observe]")
	if h := iface(cl, KindAction, "list").Handlers; len(h) != 1 || !h[0].Conditional || h[0].ObserveLine != 16 {
		t.Errorf("list: %+v", h)
	}
	if h := iface(cl, KindAction, "get-health").Handlers; len(h) != 1 || h[0].Conditional {
		t.Errorf("get-health: %+v", h)
	}
	expect(t, "findings", findings(cl), "")
}

func TestObserveThroughAWrapperHandlers(t *testing.T) {
	// The handler a wrapper names is named in the wrapper's code: charm._on_changed of its
	// parameter charm is the charm's method; a computed one (getattr(charm, name)) is the
	// wrapper, a module function of another file here; a misspelled one is a finding at the
	// wrapper, and links nothing.
	c := charm("wrap", ".", "relation:db", "action:backup", "action:restore")
	cl := link1(t, c, files{
		"src/helpers.py": `
def watch(charm, event):
    charm.framework.observe(event, charm._on_changed)

def observe_action(charm, event, name):
    charm.framework.observe(event, getattr(charm, name))
`,
		"src/charm.py": `
import ops
from helpers import watch, observe_action

class WrapCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        watch(self, self.on["db"].relation_changed)
        observe_action(self, self.on.backup_action, "_on_backup")
        self._observe(self.on.restore_action)

    def _observe(self, event):
        self.framework.observe(event, self._on_restroe)

    def _on_changed(self, event):
        pass

    def _on_backup(self, event):
        pass
`,
	})
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>WrapCharm._on_changed[on-index]")
	expect(t, "backup", handlers(cl, KindAction, "backup"), "backup_action>observe_action[observe]")
	expect(t, "restore", handlers(cl, KindAction, "restore"), "")
	expect(t, "findings", findings(cl), "src/charm.py:12 missing-handler _on_restroe")
}

func TestObserveListOfEventHandlerPairs(t *testing.T) {
	// A list or tuple of (event, handler) pairs, inline or in a local name, observed in a loop
	// that unpacks each pair or indexes it (observe(p[0], p[1])): each event is linked to its
	// own handler, the loop being no condition. A list whose items are not all pairs is no
	// table.
	c := charm("pairs", ".", "action:do-thing", "action:other-thing", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class PairsCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        pairs = [
            (self.on.config_changed, self._on_config),
            (self.on.do_thing_action, self._on_do),
        ]
        for ev, h in pairs:
            self.framework.observe(ev, h)
        delegators = ((self.on.other_thing_action, self._on_other),)
        for d in delegators:
            self.framework.observe(d[0], d[1])
        for ev, h in [(self.on.db_relation_changed, self._on_db), self.on.install]:
            self.framework.observe(ev, h)

    def _on_config(self, _):
        pass

    def _on_do(self, event):
        pass

    def _on_other(self, event):
        pass

    def _on_db(self, event):
        pass
`})
	expect(t, "do-thing", handlers(cl, KindAction, "do-thing"), "do_thing_action>PairsCharm._on_do[observe]")
	expect(t, "other-thing", handlers(cl, KindAction, "other-thing"), "other_thing_action>PairsCharm._on_other[observe]")
	expect(t, "config-changed", handlers(cl, KindLifecycle, "config-changed"), "config_changed>PairsCharm._on_config[observe]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "")
	for _, in := range cl.Interfaces {
		for _, h := range in.Handlers {
			if h.Conditional {
				t.Errorf("%s %s: conditional", in.Name, h.Symbol)
			}
		}
	}
}

func TestDecoratedHandlers(t *testing.T) {
	// A reactive charm's handlers of an endpoint's flags (@when, @when_all, @when_any; the
	// interface layer's db.available or charms.reactive's endpoint.db.joined) and a classic
	// charm's hook functions (@hooks.hook('db-relation-changed')) handle that relation; a
	// handler waiting for a flag's absence (@when_not) does not, but for charms.reactive's
	// idiom of the relation gone (@when_not('endpoint.registry.joined')), nor a flag of no
	// declared endpoint.
	c := charm("reactor", ".", "relation:db", "relation:website", "relation:cluster", "relation:amqp", "relation:unused", "relation:registry")
	cl := link1(t, c, files{
		"reactive/reactor.py": `
from charms.reactive import when, when_any, when_not
from charms import reactive


@when('db.available', 'config.changed')
def configure_db(db):
    pass


@reactive.when_any('endpoint.website.joined',
                   'endpoint.website.changed')
def publish(website):
    pass


@when_not('unused.connected')
def waiting():
    pass


@when('app.registry.configured')
@when_not('endpoint.registry.joined')
def remove_registry():
    pass


@when('apt.installed.nginx')
def installed():
    pass
`,
		"hooks/hooks.py": `
from charmhelpers.core.hookenv import Hooks

hooks = Hooks()


@hooks.hook('cluster-relation-joined', 'cluster-relation-changed')
def cluster_changed():
    pass


@hooks.hook('amqp-relation-departed')
@hooks.hook('amqp-relation-broken', 'amqp-relation-departed')
def amqp_gone():
    pass
`,
	})
	expect(t, "db", handlers(cl, KindRelation, "db"), "db.available>configure_db[reactive-flag]")
	expect(t, "website", handlers(cl, KindRelation, "website"), "endpoint.website.joined>publish[reactive-flag]")
	// one handler per hook a hook function is registered for, in one decorator or stacked ones
	expect(t, "cluster", handlers(cl, KindRelation, "cluster"), "cluster-relation-changed>cluster_changed[hook] cluster-relation-joined>cluster_changed[hook]")
	expect(t, "amqp", handlers(cl, KindRelation, "amqp"), "amqp-relation-broken>amqp_gone[hook] amqp-relation-departed>amqp_gone[hook]")
	expect(t, "unused", handlers(cl, KindRelation, "unused"), "")
	expect(t, "registry", handlers(cl, KindRelation, "registry"), "not endpoint.registry.joined>remove_registry[reactive-flag]")
}

func TestChangedPairTablesAreDynamic(t *testing.T) {
	// A list of pairs changed in place (append, +=) or a dict given an item (table[k] = v)
	// before the loop is no table: its display does not say what it holds. The loop's observe
	// is then a dynamic name (check softens what may be missing to infos), not a link of the
	// display's first pairs alone.
	c := charm("changed", ".", "relation:db", "action:a", "action:b")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class ChangedCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        pairs = [(self.on.a_action, self._a)]
        pairs.append((self.on.db_relation_changed, self._db))
        for ev, h in pairs:
            self.framework.observe(ev, h)
        more = [(self.on.b_action, self._b)]
        more += [(self.on.install, self._a)]
        for p in more:
            self.framework.observe(p[0], p[1])
        table = {self.on.start: self._a}
        table[self.on.stop] = self._b
        for ev, h in table.items():
            self.framework.observe(ev, h)

    def _a(self, event):
        pass

    def _b(self, event):
        pass

    def _db(self, event):
        pass
`})
	for _, n := range []string{"a", "b"} {
		expect(t, n, handlers(cl, KindAction, n), "")
	}
	expect(t, "db", handlers(cl, KindRelation, "db"), "")
	if len(cl.Unresolved) != 3 {
		t.Errorf("unresolved %+v, want the 3 loops' observe calls", cl.Unresolved)
	}
}

func TestHandlersImportedIntoTheClass(t *testing.T) {
	// `from actions.enable import on_enable_action` in the class body makes the function a
	// method: observing self.on_enable_action names no missing handler, and the action is
	// handled by it. An unknown name observed beside it still is missing.
	cl := link1(t, charm("a", ".", "action:enable", "action:restart"), files{
		"src/charm.py": `import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.enable_action, self.on_enable_action)
        framework.observe(self.on.restart_action, self.on_restart_action)

    from actions.enable import on_enable_action
`,
		"src/actions/enable.py": `def on_enable_action(self, event):
    pass
`,
	})
	expect(t, "enable", handlers(cl, KindAction, "enable"), "enable_action>DemoCharm.on_enable_action[observe]")
	expect(t, "findings", findings(cl), "src/charm.py:7 missing-handler on_restart_action")
}

func TestReconcilerObservesEveryEvent(t *testing.T) {
	// cosl.reconciler's observe_events(self, all_events, handler) (observe_all, its later
	// name, with ALL_EVENTS or no event set; or reconcilable_events_k8s, every event but
	// remove and upgrade-charm, and its machine and workload-less kin, without Pebble's)
	// observes every event of the charm with one
	// handler: each relation, container and storage, and the lifecycle, as a catch-all. A call
	// with an event set of its own the linker cannot read, or with no charm first, observes
	// nothing the linker reads.
	c := charm("demo", ".", "relation:backend", "relation:peers", "container:web", "storage:data", "action:sync")
	src := func(call string) files {
		return files{"src/charm.py": `
import ops
from cosl import reconciler
from cosl.reconciler import all_events, observe_events, observe_all

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        ` + call + `
        self.framework.observe(self.on.sync_action, self._on_sync)

    def _reconcile(self, _=None):
        pass

    def _on_sync(self, event):
        pass
`}
	}
	for _, call := range []string{
		"observe_events(self, all_events, self._reconcile)",
		"reconciler.observe_all(self, reconciler.ALL_EVENTS_K8S, self._reconcile)",
		"observe_all(self, None, callback=self._reconcile)",
		"observe_all(self, callback=self._reconcile)",
		"observe_events(self, reconcilable_events_k8s, self._reconcile)",
		"reconciler.observe_events(self, reconciler.reconcilable_events_machine, self._reconcile)",
		"observe_events(self, reconcilable_events_k8s_workloadless, self._reconcile)",
	} {
		cl := link1(t, c, src(call))
		expect(t, call+": backend", handlers(cl, KindRelation, "backend"), "backend_relation_changed>DemoCharm._reconcile[observe]")
		// the sets of machine and workload-less charms leave the Pebble events out
		web := "web_pebble_ready>DemoCharm._reconcile[observe]"
		if strings.Contains(call, "machine") || strings.Contains(call, "workloadless") {
			web = ""
		}
		expect(t, call+": web", handlers(cl, KindContainer, "web"), web)
		expect(t, call+": data", handlers(cl, KindStorage, "data"), "data_storage_attached>DemoCharm._reconcile[observe]")
		expect(t, call+": config-changed", handlers(cl, KindLifecycle, "config-changed"), "config_changed>DemoCharm._reconcile[observe]")
		expect(t, call+": sync", handlers(cl, KindAction, "sync"), "sync_action>DemoCharm._on_sync[observe]")
		for _, h := range slices.Concat(iface(cl, KindRelation, "peers").Handlers, iface(cl, KindLifecycle, "config-changed").Handlers) {
			if !h.CatchAll || !h.Loose || h.Conditional {
				t.Errorf("%s: handler %+v, want a catch-all", call, h)
			}
		}
		if f := findings(cl); f != "" {
			t.Errorf("%s: findings %s", call, f)
		}
	}
	for _, call := range []string{
		"observe_events(other, all_events, self._reconcile)",
		"observe_events(self, my_events, self._reconcile)",
		"observe_events(self, (ops.StartEvent, MyCustomThing), self._reconcile)",
	} {
		cl := link1(t, c, src(call))
		expect(t, call+": backend", handlers(cl, KindRelation, "backend"), "")
		expect(t, call+": start", handlers(cl, KindLifecycle, "start"), "")
	}
	// a set written out as ops' event classes observes those events (otel-ebpf-profiler:
	// review rev103): a lifecycle event as its own, a relation's kind of event for each
	// relation, as a catch-all
	cl := link1(t, c, src("observe_all(self, {ops.StartEvent, ops.charm.UpgradeCharmEvent, ops.RelationBrokenEvent, ops.PebbleReadyEvent}, self._reconcile)"))
	expect(t, "start", handlers(cl, KindLifecycle, "start"), "start>DemoCharm._reconcile[observe]")
	expect(t, "upgrade-charm", handlers(cl, KindLifecycle, "upgrade-charm"), "upgrade_charm>DemoCharm._reconcile[observe]")
	expect(t, "config-changed", handlers(cl, KindLifecycle, "config-changed"), "")
	expect(t, "backend", handlers(cl, KindRelation, "backend"), "backend_relation_broken>DemoCharm._reconcile[observe]")
	expect(t, "web", handlers(cl, KindContainer, "web"), "web_pebble_ready>DemoCharm._reconcile[observe]")
	expect(t, "data", handlers(cl, KindStorage, "data"), "")
	for _, h := range iface(cl, KindLifecycle, "start").Handlers {
		if h.CatchAll || h.Loose {
			t.Errorf("start handler %+v, want its own", h)
		}
	}
	for _, h := range iface(cl, KindRelation, "backend").Handlers {
		if !h.CatchAll || !h.Loose {
			t.Errorf("backend handler %+v, want a catch-all", h)
		}
	}
}

func TestHandlersTheLinkerCannotName(t *testing.T) {
	// An event observed by a lambda, a functools.partial, a class attribute bound to a method,
	// or a method of a base from outside the tree is observed all the same (review rev91: each
	// was "no code observes relation"): a lambda or partial of a method of self links that
	// method; the others link the observer's text at the observe call.
	c := charm("opq", ".", "relation:db", "relation:cache", "relation:web", "relation:mix", "action:restart")
	cl := link1(t, c, files{"src/charm.py": `
import functools
import ops
from outside.mixins import WebMixin

class OpqCharm(WebMixin, ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.db_relation_changed, lambda event: self._on_db(event))
        framework.observe(self.on.cache_relation_changed, functools.partial(self._on_cache, "cache"))
        framework.observe(self.on.web_relation_changed, self._on_web_alias)
        framework.observe(self.on.mix_relation_changed, self._on_mix_from_base)
        framework.observe(self.on.restart_action, lambda e: self._restart(e))

    def _on_db(self, event):
        pass

    def _on_cache(self, name, event):
        pass

    def _on_web(self, event):
        pass

    _on_web_alias = _on_web

    def _restart(self, event):
        pass
`})
	expect(t, "db", handlers(cl, KindRelation, "db"), "db_relation_changed>OpqCharm._on_db[observe]")
	expect(t, "cache", handlers(cl, KindRelation, "cache"), "cache_relation_changed>OpqCharm._on_cache[observe]")
	expect(t, "web", handlers(cl, KindRelation, "web"), "web_relation_changed>self._on_web_alias[observe]")
	expect(t, "mix", handlers(cl, KindRelation, "mix"), "mix_relation_changed>self._on_mix_from_base[observe]")
	expect(t, "restart", handlers(cl, KindAction, "restart"), "restart_action>OpqCharm._restart[observe]")
	expect(t, "findings", findings(cl), "")
}

func TestCalledHandlerIsNoHandler(t *testing.T) {
	// observe(..., self._on_db()) calls the handler and hands observe its None (review rev92):
	// the relation is not observed; a factory's call returning the handler is.
	c := charm("called", ".", "relation:db", "relation:cache")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class CalledCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.db_relation_changed, self._on_db())
        framework.observe(self.on.cache_relation_changed, self._handler_for("cache"))

    def _on_db(self, event=None):
        pass

    def _handler_for(self, name):
        return lambda event: None
`})
	expect(t, "db", handlers(cl, KindRelation, "db"), "")
	expect(t, "cache", handlers(cl, KindRelation, "cache"), `cache_relation_changed>self._handler_for("cache")[observe]`)
}

func TestObserverObject(t *testing.T) {
	// ops before 1.0 took an object as the observer and called its on_<event kind>: the charm
	// itself, or a helper object of the tree; a missing such method is a missing handler.
	c := charm("demo", ".", "relation:db", "relation:cache", "action:backup")
	cl := link1(t, c, files{"src/charm.py": `
from ops.charm import CharmBase
from ops.framework import Object

class Backups(Object):
    def on_backup_action(self, event):
        pass

class DemoCharm(CharmBase):
    def __init__(self, parent, key):
        super().__init__(parent, key)
        self.backups = Backups(self, "backups")
        self.framework.observe(self.on.db_relation_joined, self)
        self.framework.observe(self.on["cache"].relation_changed, self)
        self.framework.observe(self.on.backup_action, self.backups)
        self.framework.observe(self.on.install, self)

    def on_db_relation_joined(self, event):
        pass

    def on_cache_relation_changed(self, event):
        pass
`})
	expect(t, "db", handlers(cl, KindRelation, "db"), "db_relation_joined>DemoCharm.on_db_relation_joined[observe]")
	expect(t, "cache", handlers(cl, KindRelation, "cache"), "relation_changed>DemoCharm.on_cache_relation_changed[on-index]")
	expect(t, "backup", handlers(cl, KindAction, "backup"), "backup_action>Backups.on_backup_action[observe]")
	expect(t, "findings", findings(cl), "src/charm.py:15 missing-handler on_install")
}

func TestFixedEventTypoUnderAnOutsideBase(t *testing.T) {
	// Under a base from outside the tree, whose events are not known, an attribute of on a
	// letter or two from ops' own event is a near finding (rev109); another name may be the
	// base's event.
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import paas_charm.go

class DemoCharm(paas_charm.go.Charm):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_chnaged, self._on_config)
        self.framework.observe(self.on.app_restarted, self._on_config)
        self.framework.observe(self.on.instlal, self._on_config)

    def _on_config(self, event):
        pass
`})
	got := findingsWith(cl, func(f Finding) string { return f.Detail + " " + f.Key })
	expect(t, "findings", got, "src/charm.py:6 unknown-event config_chnaged near config_changed\nsrc/charm.py:8 unknown-event instlal near install")
	for _, c := range []struct {
		a, b string
		want bool
	}{{"instlal", "install", true}, {"isntall", "install", true}, {"install", "install", false}, {"installl", "install", false}, {"insatlll", "install", false}} {
		if got := transposed(c.a, c.b); got != c.want {
			t.Errorf("transposed(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
