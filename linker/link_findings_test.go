// Tests of the linker: findings, and what lowers or drops them (code that runs only under a
// condition, dead code, classes never built, unknown events, missing modules).

package linker

import (
	"fmt"
	"github.com/cantrip-dev/charmcraft-map/templates"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

func TestEventHandlersBuiltAroundDataObject(t *testing.T) {
	// data_platform_libs builds in two steps: a data object given the relation's name, then
	// an event-handler object given the data object. The handler object serves the data
	// object's relation, so the charm's handlers of its events are that relation's; an
	// object given something else bound to nothing binds nothing.
	c := charm("demo", ".", "relation:kafka", "relation:other")
	cl := link1(t, c, files{
		"lib/charms/dp/v0/interfaces.py": `
import ops

class TopicEvents(ops.ObjectEvents):
    topic_created = ops.EventSource(ops.EventBase)

class RequirerData:
    def __init__(self, model, relation_name: str, topic: str = ""):
        self.relation_name = relation_name

class RequirerEventHandlers(ops.Object):
    on = TopicEvents()

    def __init__(self, charm, relation_data: RequirerData, unique_key: str = ""):
        super().__init__(charm, unique_key)
        self.relation_data = relation_data
        self.framework.observe(charm.on[self.relation_data.relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass
`,
		"src/state.py": `
from charms.dp.v0.interfaces import RequirerData

class State:
    def __init__(self, model):
        self.kafka_data = RequirerData(model, relation_name="kafka")
        self.plain = object()
`,
		"src/watcher.py": `
import ops
from charms.dp.v0.interfaces import TopicEvents

class Watcher(ops.Object):
    on = TopicEvents()

    def __init__(self, charm, data):
        super().__init__(charm, "watcher")
        self.data = data
`,
		"src/charm.py": `
import ops
from charms.dp.v0.interfaces import RequirerEventHandlers
from state import State
from watcher import Watcher

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.state = State(self.model)
        self.kafka = RequirerEventHandlers(self, relation_data=self.state.kafka_data)
        self.framework.observe(self.kafka.on.topic_created, self._on_topic_created)
        self.plain = RequirerEventHandlers(self, relation_data=self.state.plain)
        self.framework.observe(self.plain.on.topic_created, self._on_plain)
        self.watcher = Watcher(self, self.state.kafka_data)
        self.framework.observe(self.watcher.on.topic_created, self._on_watched)

    def _on_topic_created(self, event):
        pass

    def _on_plain(self, event):
        pass

    def _on_watched(self, event):
        pass
`,
	})
	// the charm's own Watcher, handed the data object, does not serve its relation
	expect(t, "kafka", handlers(cl, KindRelation, "kafka"),
		"relation_changed>RequirerEventHandlers._on_changed[library-inner] topic_created>DemoCharm._on_topic_created[library]")
	expect(t, "other", handlers(cl, KindRelation, "other"), "")
}

func TestCustomOnAndFindings(t *testing.T) {
	c := charm("demo", ".", "relation:db", "action:go(force)", "config:port", "container:app", "storage:data")
	cl := link1(t, c, files{
		"src/base.py": `
import ops

class Base(ops.CharmBase):
    def _on_inherited(self, event): ...
`,
		"src/charm.py": `
import ops
from base import Base
from somewhere import Mystery

class DemoEvents(ops.CharmEvents):
    db_relation_refreshed = ops.EventSource(ops.EventBase)
    cache_relation_changed = ops.EventSource(ops.EventBase)

class DemoCharm(Base):
    on = DemoEvents()

    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.cache_relation_changed, self._on_inherited)
        self.framework.observe(self.on.nope_relation_changed, self._on_inherited)
        self.framework.observe(self.on["nope"].relation_joined, self._on_inherited)
        self.framework.observe(self.on.stop_action, self._on_inherited)
        self.framework.observe(self.on.go_action, self._on_missing)
        self.framework.observe(self.on.sidecar_pebble_ready, self._on_inherited)
        self.framework.observe(self.on["scratch"].storage_attached, self._on_inherited)
        if self.unit.is_leader():
            self.framework.observe(self.on.other_relation_joined, self._on_inherited)
        self.unit.get_container("app")
        self.unit.get_container("nope")
        self.model.storages["data"]
        self.mystery = Mystery(self)
        self.framework.observe(self.on.install, self.mystery.handle)

    def _on_go(self, event):
        event.params["force"]
        event.params.get("dry-run")
        self.config["port"]
        self.config.get("prot")
`,
		"src/helper.py": `
import ops
from somewhere import Open

class Helper(Open):
    def __init__(self, charm):
        super().__init__(charm, "h")
        self.framework.observe(charm.on.install, self._defined_in_unknown_base)
`,
	})
	expect(t, "findings", findings(cl), strings.Join([]string{
		"src/charm.py:15 undeclared-relation nope",
		"src/charm.py:16 undeclared-relation nope",
		"src/charm.py:17 undeclared-action stop",
		"src/charm.py:18 missing-handler _on_missing",
		"src/charm.py:19 undeclared-container sidecar",
		"src/charm.py:20 undeclared-storage scratch",
		"src/charm.py:22 undeclared-relation other (cond)",
		"src/charm.py:24 undeclared-container nope",
		"src/charm.py:29 unobserved-handler DemoCharm._on_go", // go_action is observed with _on_missing
		"src/charm.py:33 undeclared-config prot",
	}, "\n"))
	// the custom event named like a relation event is not a relation event
	expect(t, "db", handlers(cl, KindRelation, "db"), "")
}

func TestObjectBuiltInAReplacedBaseMethod(t *testing.T) {
	// An object a shared base's method builds, when the charm's class replaces that method,
	// is never built for this charm: what its code uses is no finding here, though the base's
	// property now names the container the base's default would (service_name).
	c := charm("heat", "charms/heat", "container:heat-api")
	cl := link1(t, c, files{
		"shared/pkg/__init__.py": "",
		"shared/pkg/base.py": `
import ops

class Handler(ops.Object):
    def __init__(self, charm, container_name):
        super().__init__(charm, container_name)
        self.charm = charm
        self.container_name = container_name

    def ready(self):
        return self.charm.unit.get_container(self.container_name)

class BaseCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.handlers = self.get_handlers()

    @property
    def service_name(self):
        return "heat"

    def get_handlers(self):
        return [Handler(self, self.service_name)]
`,
		"charms/heat/src/charm.py": `
import ops
from pkg.base import BaseCharm, Handler

class HeatCharm(BaseCharm):
    def get_handlers(self):
        return [Handler(self, "heat-api")]

if __name__ == "__main__":
    ops.main(HeatCharm)
`,
	})
	expect(t, "findings", findings(cl), "")
	expect(t, "heat-api", reads(cl, KindContainer, "heat-api"), "shared/pkg/base.py:10/lookup/")
}

func TestLookupsAndUnresolved(t *testing.T) {
	c := charm("demo", ".", "relation:db", "relation:peers", "relation:otlp", "container:app", "storage:data", "resource:image")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops
PEER = "peers"

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.container = self.unit.get_container("app")
        self.framework.observe(self.on[f"{PEER}"].relation_changed, self._on_peer)

    def _on_peer(self, event):
        rel = self.model.get_relation("db")
        self.model.relations[PEER]
        self.meta.storages["data"].location
        path = self.model.resources.fetch("image")
        self.model.get_binding("db")
        self.model.get_relation(event.params["name"])
        self.model.relations.get("otlp", [])

    def _dynamic(self, name):
        self.framework.observe(self.on[name].relation_changed, self._on_peer)
        self.config[f"{name}-port"]
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "peers", handlers(cl, KindRelation, "peers"), "relation_changed>DemoCharm._on_peer[on-index]")
	expect(t, "db", reads(cl, KindRelation, "db"), "src/charm.py:11/lookup/ src/charm.py:15/lookup/") // get_relation, get_binding
	expect(t, "peers reads", reads(cl, KindRelation, "peers"), "src/charm.py:12/lookup/")
	expect(t, "app", reads(cl, KindContainer, "app"), "src/charm.py:7/lookup/")
	expect(t, "data", reads(cl, KindStorage, "data"), "src/charm.py:13/lookup/")
	expect(t, "image", reads(cl, KindResource, "image"), "src/charm.py:14/lookup/")
	expect(t, "otlp", reads(cl, KindRelation, "otlp"), "src/charm.py:17/lookup/") // relations.get(name, default)
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%d/%s/%s", u.Line, u.Via, u.Detail))
	}
	expect(t, "unresolved", strings.Join(un, " "), `16/lookup/self.model.get_relation(event.params["name"]) `+
		`20/observe/self.on[name].relation_changed 21/config-read/self.config[f"{name}-port"]`)
}

func TestUnresolvedBindingNamesItsArgument(t *testing.T) {
	// A library object built with an endpoint name the linker cannot resolve is an unresolved
	// site that shows the argument as written, not only the class.
	c := charm("demo", ".", "requires:logging")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
from charms.loki_k8s.v1.loki_push_api import LogForwarder

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self._fwd = LogForwarder(self, relation_name=self._mapping()["logging"])
`}.parse()})
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%s:%d/%s", u.File, u.Line, u.Detail))
	}
	expect(t, "unresolved", strings.Join(un, " "), `src/charm.py:7/LogForwarder(relation_name=self._mapping()["logging"])`)
}

func TestUnresolvedNamesOfOneKind(t *testing.T) {
	// An unresolved name that can be of one kind only says so (NameKind): a library object's
	// endpoint, and on[name].relation_departed, are relations; on[name].pebble_ready a
	// container; a lookup's name is of the lookup's kind; a config key says nothing (check
	// takes the kinds from the via).
	c := charm("demo", ".", "requires:logging")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
from charms.loki_k8s.v1.loki_push_api import LogForwarder

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self._fwd = LogForwarder(self, relation_name=self._mapping()["logging"])
        self.framework.observe(self.on[self._name()].relation_departed, self._gone)
        self.framework.observe(self.on[self._name()].pebble_ready, self._ready)
        self.config[self._key()]
        self.model.get_relation(self._key())
        self.model.resources.fetch(self._key())

    def _gone(self, event):
        pass

    def _ready(self, event):
        pass
`}.parse()})
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%d/%s", u.Line, u.NameKind))
	}
	slices.Sort(un)
	expect(t, "unresolved", strings.Join(un, " "), "10/ 11/relation 12/resource 7/relation 8/relation 9/container")
}

func TestNestedClassConstantsAndPassedUnknowns(t *testing.T) {
	// Config.Relations.LOGGING names a nested class's attribute. An argument passed on from a
	// caller nobody constructs is unknown, not the parameter's default: no undeclared
	// "remote" relation is reported for it.
	c := charm("db", ".", "relation:logging", "relation:remote-provider")
	cl := link1(t, c, files{
		"src/config.py": `
class Config:
    class Relations:
        LOGGING = "logging"
`,
		"src/remote.py": `
from ops import Object

class Remote(Object):
    def __init__(self, charm, relation_name="remote"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class RemoteHandler:
    def __init__(self, charm, relation_name):
        self.charm = charm
        self.relation_name = relation_name

    def setup(self):
        return Remote(self.charm, self.relation_name)
`,
		"src/charm.py": `
import ops
from config import Config
from charms.loki_k8s.v0.loki_push_api import LogProxyConsumer

class DbCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.logs = LogProxyConsumer(self, relation_name=Config.Relations.LOGGING)
`})
	if got := reads(cl, KindRelation, "logging"); !strings.Contains(got, "/library/") {
		t.Errorf("logging: reads %q, want a library binding", got)
	}
	if f := findings(cl); strings.Contains(f, `remote`) && !strings.Contains(f, "remote-provider") {
		t.Errorf("findings:\n%s", f)
	}
	for _, f := range cl.Findings {
		if f.Kind == FindUndeclaredRelation {
			t.Errorf("undeclared relation reported: %+v", f)
		}
	}
}

func TestNamesTakenAsWritten(t *testing.T) {
	// A config read, a lookup, a hook's name and a binding take the name as written: one that
	// names a declared interface only once "-" and "_" are one is undeclared there (ops
	// raises, charm-helpers finds nothing), though the site still reads what it means. An
	// event's name folds: self.on["sloth_peers"] is sloth-peers' events.
	c := charm("demo", ".", "relation:sloth-peers", "config:slo-period", "config:ssl_ca", "container:work-load")
	cl := link1(t, c, files{
		"src/charm.py": `import ops


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on["sloth_peers"].relation_changed, self._on_changed)

    def _on_changed(self, event):
        period = self.config.get("slo_period")
        rel = self.model.get_relation("sloth_peers")
        box = self.unit.get_container("work_load")
        addr = self.model.get_binding("sloth_peers").network.bind_address
        ok = self.config["slo-period"], self.model.get_relation("sloth-peers")
`,
		"hooks/hooks.py": `from charmhelpers.core.hookenv import Hooks, config, relation_ids

hooks = Hooks()


@hooks.hook("sloth_peers-relation-joined")
def joined():
    return config("ssl-ca"), relation_ids("sloth_peers")
`})
	expect(t, "slo-period", reads(cl, KindConfig, "slo-period"), "src/charm.py:10/config-read/get src/charm.py:14/config-read/index")
	expect(t, "ssl_ca", reads(cl, KindConfig, "ssl_ca"), "hooks/hooks.py:8/config-read/")
	expect(t, "findings", findings(cl), `hooks/hooks.py:7 undeclared-relation sloth_peers
hooks/hooks.py:8 undeclared-config ssl-ca
hooks/hooks.py:8 undeclared-relation sloth_peers
src/charm.py:10 undeclared-config slo_period
src/charm.py:11 undeclared-relation sloth_peers
src/charm.py:12 undeclared-container work_load
src/charm.py:13 undeclared-relation sloth_peers`)
}

func TestUnknownEvent(t *testing.T) {
	// An attribute of the charm's on that is no event ops defines for the YAML, and none of the
	// charm's own events class, raises AttributeError: a finding. Not when code of the charm
	// defines events at run time (define_event), nor when its class derives from a base outside
	// the tree, which may redefine on.
	c := charm("demo", ".", "relation:cos-agent")
	src := `import ops


class DemoEvents(ops.CharmEvents):
    reconcile = ops.EventSource(ops.EventBase)


class DemoCharm(%s):
    on = DemoEvents()

    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.cos_agent_joined, self._on_joined)
        framework.observe(self.on.reconcile, self._on_joined)
        framework.observe(self.on.cos_agent_relation_joined, self._on_joined)
        framework.observe(self.on.install, self._on_joined)
        framework.observe(self.on["cos-agent"].relation_joind, self._on_joined)
        framework.observe(self.on["cos-agent"].relation_joined, self._on_joined)
        %s

    def _on_joined(self, event):
        pass
`
	for _, tc := range []struct{ base, extra, want string }{
		{"ops.CharmBase", "", "src/charm.py:13 unknown-event cos_agent_joined\nsrc/charm.py:17 unknown-event cos_agent_relation_joind"},
		{"ops.CharmBase", `self.on.define_event("later", ops.EventBase)`, ""},
		{"sunbeam.OSBaseOperatorCharm", "", ""},
	} {
		cl := link1(t, c, files{"src/charm.py": fmt.Sprintf(src, tc.base, tc.extra)})
		var got []string
		for _, f := range cl.Findings {
			if f.Kind == FindUnknownEvent {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Kind, f.Subject))
			}
		}
		expect(t, tc.base+" "+tc.extra, strings.Join(got, "\n"), tc.want)
	}
	// A library object defining events on its own on (data_interfaces' DatabaseRequires, its
	// events named after its relation aliases) defines none of the charm's: the finding
	// stands (review rev104: 91 of 500 trees vendor it); the object's own events are open.
	lib := `import ops


class DbEvents(ops.ObjectEvents):
    database_created = ops.EventSource(ops.EventBase)


class DatabaseRequires(ops.Object):
    on = DbEvents()

    def __init__(self, charm, relation_name, aliases=()):
        super().__init__(charm, relation_name)
        for alias in aliases:
            self.on.define_event(f"{alias}_database_created", ops.EventBase)
`
	charmPy := `import ops
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.db = DatabaseRequires(self, "cos-agent", aliases=["c1"])
        framework.observe(self.on.cnofig_changed, self._on_joined)
        framework.observe(self.db.on.c1_database_created, self._on_joined)

    def _on_joined(self, event):
        pass
`
	cl := link1(t, c, files{"src/charm.py": charmPy, "lib/charms/data_platform_libs/v0/data_interfaces.py": lib})
	var got []string
	for _, f := range cl.Findings {
		if f.Kind == FindUnknownEvent {
			got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Kind, f.Subject))
		}
	}
	expect(t, "a library's own define_event", strings.Join(got, "\n"), "src/charm.py:9 unknown-event cnofig_changed")
	// a mixin of the charm's class defines events on the charm's on (review rev106)
	cl = link1(t, c, files{"src/charm.py": `import ops


class ReloadMixin:
    def _setup_reload(self):
        self.on.define_event("reload_workload", ops.EventBase)


class DemoCharm(ReloadMixin, ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self._setup_reload()
        framework.observe(self.on.reload_workload, self._on_reload)
        framework.observe(self.on["update"].status, self._on_reload)

    def _on_reload(self, event):
        pass
`})
	expect(t, "a mixin's define_event", findings(cl), "")
}

func TestUnknownObjectEvent(t *testing.T) {
	// An object's events class read whole in the tree: an event it does not define raises
	// AttributeError where the charm observes it (a library's v0 name after an upgrade to v1);
	// the finding lists the class's events. An events class with a base outside the tree may
	// define more: no finding.
	lib := `import ops


class CertificatesRemovedEvent(ops.EventBase):
    pass


class TransferEvents(%s):
    certificates_removed = ops.EventSource(CertificatesRemovedEvent)


class CertificateTransferRequires(ops.Object):
    on = TransferEvents()

    def __init__(self, charm, relationship_name):
        super().__init__(charm, relationship_name)
`
	charmPy := `import ops
from charms.certificate_transfer_interface.v1.certificate_transfer import CertificateTransferRequires


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.cert = CertificateTransferRequires(self, "receive-ca-cert")
        framework.observe(self.cert.on.certificate_removed, self._on_removed)
        framework.observe(self.cert.on.certificates_removed, self._on_removed)

    def _on_removed(self, event):
        pass
`
	c := charm("demo", ".", "relation:receive-ca-cert")
	for _, tc := range []struct{ base, want, handlers string }{
		{"ops.ObjectEvents", "src/charm.py:9 unknown-event certificate_removed CertificateTransferRequires [certificates_removed]",
			"certificates_removed>DemoCharm._on_removed[library]"},
		{"other.BaseTransferEvents", "",
			"certificate_removed>DemoCharm._on_removed[library] certificates_removed>DemoCharm._on_removed[library]"},
	} {
		cl := link1(t, c, files{
			"lib/charms/certificate_transfer_interface/v1/certificate_transfer.py": fmt.Sprintf(lib, tc.base),
			"src/charm.py": charmPy,
		})
		var got []string
		for _, f := range cl.Findings {
			got = append(got, fmt.Sprintf("%s:%d %s %s %s %v", f.File, f.Line, f.Kind, f.Subject, f.Detail, f.Events))
		}
		expect(t, tc.base, strings.Join(got, "\n"), tc.want)
		expect(t, tc.base+" handlers", handlers(cl, KindRelation, "receive-ca-cert"), tc.handlers)
	}
}

func TestLibraryBindingTakenAsWritten(t *testing.T) {
	// A library object given a relation by a relation keyword looks it up as written: a name
	// declared only with "-" for "_" is undeclared there, and still bound.
	c := charm("demo", ".", "relation:sloth-peers", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `import ops
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires, PeerData


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.peers = PeerData(self, peer_relation_name="sloth_peers")
        self.db = DatabaseRequires(self, relation_name="db")
`})
	expect(t, "findings", findings(cl), "src/charm.py:8 undeclared-relation sloth_peers")
	expect(t, "reads", reads(cl, KindRelation, "sloth-peers"), "src/charm.py:8/library/PeerData")
}

func TestLibraryRepeatsDropped(t *testing.T) {
	// A wrong name the charm hands its own library's object is one finding, at the
	// construction: the library's observe and lookups with it are not reported again.
	c := charm("prometheus", ".", "relation:self-metrics-endpoint")
	cl := link1(t, c, files{
		"lib/charms/prometheus/v0/scrape.py": `import ops


class MetricsEndpointProvider(ops.Object):
    def __init__(self, charm, relation_name: str = "metrics-endpoint"):
        super().__init__(charm, relation_name)
        self._charm = charm
        self._relation_name = relation_name
        self.framework.observe(self._charm.on[relation_name].relation_joined, self._set)

    def _set(self, _):
        for relation in self._charm.model.relations[self._relation_name]:
            pass
`,
		"src/charm.py": `import ops
from charms.prometheus.v0.scrape import MetricsEndpointProvider


class PrometheusCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.self_monitoring = MetricsEndpointProvider(self, relation_name="self-monitoring-metrics-endpoint")
`})
	expect(t, "findings", findings(cl), "src/charm.py:8 undeclared-relation self-monitoring-metrics-endpoint")
}

func TestBuiltUnderCondition(t *testing.T) {
	// A helper built after an early return registers its handlers only then: they are
	// conditional, BuiltFile and BuiltLine name the construction and BuiltClass the class built there (the
	// outer object, when it builds the one that observes). One built per element of a loop
	// is not conditional.
	c := charm("built", ".", "relation:db", "relation:web", "relation:x", "relation:y")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/helpers.py": `
import ops

class Inner(ops.Object):
    def __init__(self, charm, name):
        super().__init__(charm, name)
        self.framework.observe(charm.on[name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class Outer(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "outer")
        self.inner = Inner(charm, "web")
`,
		"src/charm.py": `
import ops
from helpers import Inner, Outer

class BuiltCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.loops = [Inner(self, name) for name in ["x"]]
        for name in ["y"]:
            Inner(self, name)
        if not self.unit.is_leader():
            return
        self.db = Inner(self, "db")
        self.outer = Outer(self)
`,
	}.parse()})
	cl := res.Charms[0]
	at := func(name string) string {
		var out []string
		for _, h := range iface(cl, KindRelation, name).Handlers {
			at := ""
			if h.BuiltFile != "" {
				at = fmt.Sprintf("%s:%d", h.BuiltFile, h.BuiltLine)
			}
			out = append(out, fmt.Sprintf("%v %s %s", h.Conditional, at, h.BuiltClass))
		}
		return strings.Join(out, "; ")
	}
	expect(t, "db", at("db"), "true src/charm.py:12 Inner")
	expect(t, "web", at("web"), "true src/charm.py:13 Outer")
	expect(t, "y", at("y"), "false  ")
}

func TestBuiltByFactoryUnderCondition(t *testing.T) {
	// A library's factory function builds the object; the charm calls it only under a
	// condition, so the object's handlers are conditional, built at that call. A factory the
	// charm also calls unconditionally builds an unconditional object.
	c := charm("factory", ".", "relation:route", "relation:other")
	lib := `
import ops

class RouteRequirer(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

def require_route(charm, relation_name="route"):
    return RouteRequirer(charm, relation_name)

def require_other(charm):
    return RouteRequirer(charm, "other")
`
	cl := link1(t, c, files{
		"lib/charms/route/v0/route.py": lib,
		"src/charm.py": `
import ops
from charms.route.v0.route import require_other, require_route

class FactoryCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        if self.unit.is_leader():
            self.unrelated = self.helper.require_route(1)
        if self.config.get("routed"):
            self.route = require_route(self)
        self.other = require_other(self)
        if self.unit.is_leader():
            self.again = require_other(self)
`,
	})
	at := func(name string) string {
		var out []string
		for _, h := range iface(cl, KindRelation, name).Handlers {
			out = append(out, fmt.Sprintf("%v %s:%d %s", h.Conditional, h.BuiltFile, h.BuiltLine, h.BuiltClass))
		}
		return strings.Join(out, "; ")
	}
	expect(t, "route", at("route"), "true src/charm.py:10 RouteRequirer")
	expect(t, "other", at("other"), "false :0 ")
}

func TestNarrowedHelperArgument(t *testing.T) {
	// A dispatcher hands each name to the helper its branch picks (notebook's jupyter-ui:
	// `elif key in DEFAULT_WITH_OPTIONS_CONFIGS: return self._get_with_default_config(key)`): the helper
	// reads f"{key}-default" only for the names that branch allows, so the other options the
	// dispatcher is called with are no undeclared "<name>-default" options.
	c := charm("demo", ".", "config:images", "config:gpu", "config:gpu-default",
		"config:tolerations", "config:tolerations-default", "config:port")
	cl := link1(t, c, files{"src/charm.py": `
import ops

WITH_DEFAULT = ["gpu", "tolerations"]
PORT = "port"

class DemoCharm(ops.CharmBase):
    def _get_config(self, key):
        if key in WITH_DEFAULT:
            return self._get_with_default_config(key)
        elif key == PORT:
            return int(self.config[key])
        return self.config[key]

    def _get_with_default_config(self, key):
        default_key = f"{key}-default"
        return self.config[key], self.config[default_key]

    def _render(self):
        images = self._get_config("images")
        self._get_config("gpu")
        self._get_config("tolerations")
        return images, self._get_config(PORT)
`})
	expect(t, "gpu-default", reads(cl, KindConfig, "gpu-default"), "src/charm.py:16/config-read/index")
	expect(t, "tolerations-default", reads(cl, KindConfig, "tolerations-default"), "src/charm.py:16/config-read/index")
	expect(t, "images", reads(cl, KindConfig, "images"), "src/charm.py:19/config-read/index")
	expect(t, "port", reads(cl, KindConfig, "port"), "src/charm.py:22/config-read/index")
	expect(t, "findings", findings(cl), "")
}

func TestNarrowingLimits(t *testing.T) {
	// A guard narrows only while it is all there is to know: not after the body rebinds the
	// name, not when X is only partly known (a splat of something unresolved), and a local X
	// narrows as a module constant does.
	c := charm("demo", ".", "config:images", "config:gpu", "config:gpu-default", "config:tolerations")
	cl := link1(t, c, files{"src/charm.py": `
import ops

WITH_DEFAULT = [*unknown_options(), "tolerations"]

class DemoCharm(ops.CharmBase):
    def _get_config(self, key):
        if key == "gpu":
            key = f"{key}-default"
            return self.config.get(key)
        return None

    def _get_partial_config(self, key):
        if key in WITH_DEFAULT:
            return self.config.get(key)

    def _get_local_config(self, key):
        with_default = ["gpu"]
        if key in with_default:
            return self._get_default_config(key)
        return self.config.get(key)

    def _get_default_config(self, key):
        default_key = f"{key}-default"
        return self.config[default_key]

    def _render(self):
        self._get_config("gpu")
        self._get_partial_config("tolerations")
        self._get_partial_config("gpu")
        self._get_local_config("images")
        self._get_local_config("gpu")
`})
	// the rebound key is read on line 9; the partly known guard leaves "gpu" to line 29's call;
	// the local list keeps "images" from the default helper
	expect(t, "gpu-default", reads(cl, KindConfig, "gpu-default"), "src/charm.py:24/config-read/index src/charm.py:9/config-read/get")
	expect(t, "gpu", reads(cl, KindConfig, "gpu"), "src/charm.py:27/config-read/get src/charm.py:29/config-read/get src/charm.py:31/config-read/get")
	expect(t, "findings", findings(cl), "")
}

func TestFindingsInClassesNotBuilt(t *testing.T) {
	// A class no code of the tree names (dead code, or run from outside the tree): its
	// missing names are findings marked NotBuilt, which check does not fail a build on. A
	// class that is named runs: built under a condition or in a try, used through a static
	// or class method, a validator, or a subclass, its findings stay as they are.
	c := charm("demo", ".", "config:port")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

class Unused:
    def __init__(self, charm):
        self.charm = charm

    def domain(self):
        return self.charm.config["domain-name"]

class Sometimes:
    def __init__(self, charm):
        self.charm = charm

    def port(self):
        return self.charm.config["prot"]

class State:
    @classmethod
    def from_charm(cls, charm):
        return charm.config["hots"]

class Base:
    def __init__(self, charm):
        self.charm = charm

    def level(self):
        return self.charm.config["levle"]

class Sub(Base):
    pass

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        try:
            self.sometimes = Sometimes(self)
        except ValueError:
            pass
        State.from_charm(self)
        Sub(self)
`}.parse()})
	var got []string
	for _, f := range res.Charms[0].Findings {
		got = append(got, fmt.Sprintf("%s %s not-built=%v", f.Symbol, f.Subject, f.NotBuilt))
	}
	slices.Sort(got)
	want := "Base.level levle not-built=false|Sometimes.port prot not-built=false|State.from_charm hots not-built=false|Unused.domain domain-name not-built=true"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("findings:\n got  %s\n want %s", g, want)
	}
}

func TestNamesakeOfABuiltClassIsNotBuilt(t *testing.T) {
	// A copy of a package no code imports holds a class of the same name as one the charm
	// builds: the charm's uses of the name are the class it imports, so the copy is not built.
	c := charm("demo", ".")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from events.broker import BrokerOperator

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.broker = BrokerOperator(self)
`,
		"src/events/broker.py": `
import ops

class BrokerOperator(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "broker")
        self.workload = charm.unit.get_container("broker")
`,
		"common/pkg/events/broker.py": `
import ops
from .controller import KRaftHandler

class BrokerOperator(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "broker")
        self.workload = charm.unit.get_container("kafka")
        self.kraft = KRaftHandler(self)
`,
		// built only by the dead copy: dead too
		"common/pkg/events/controller.py": `
import ops

class KRaftHandler(ops.Object):
    def __init__(self, broker):
        super().__init__(broker, "kraft")
        self.workload = broker.charm.unit.get_container("controller")
`})
	var got []string
	for _, f := range cl.Findings {
		got = append(got, fmt.Sprintf("%s %s not-built=%v", f.File, f.Subject, f.NotBuilt))
	}
	slices.Sort(got)
	want := "common/pkg/events/broker.py kafka not-built=true|common/pkg/events/controller.py controller not-built=true|src/events/broker.py broker not-built=false"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("findings:\n got  %s\n want %s", g, want)
	}
}

func TestFindingsInMethodsNotCalled(t *testing.T) {
	// A method nothing in the tree names (a shared base class's method kept for the other
	// charms of its family), or a module function (a helper copied from a sibling charm),
	// marks its findings NotCalled, which check does not fail a build
	// on (a property no code reads too); a method called, referenced, observed, named by a
	// string (getattr), decorated by what may register it (a route), a
	// dunder, one ops calls by name (an event's restore), or in a class with a base from
	// outside the tree (which may call it by name) is not so marked.
	c := charm("demo", ".", "config:port")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
import framework_pkg

class FamilyBase(ops.CharmBase):
    def public_url(self):
        return self.config["public-host"]

    def listen(self):
        return self.config["prot"]

    def handler(self, event):
        return self.config["hots"]

    @app.route("/level")
    def level(self):
        return self.config["levle"]

    @property
    def unread(self):
        return self.config["unrd"]

    def __str__(self):
        return self.config["nmae"]

    def _by_string(self):
        return self.config["strnig"]

class Ready(ops.EventBase):
    def restore(self, snapshot):
        self.framework.model.get_relation("dbx")

class OtherCharm(framework_pkg.BaseCharm):
    def hook_name(self):
        return self.config["dmoain"]

class DemoCharm(FamilyBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.start, self.handler)
        self.listen()
        getattr(self, "_by_string")()
        self.event_type = Ready
        helper_used()
`, "src/helpers.py": `
from charmhelpers.core.hookenv import config

def helper_used():
    return config("usde")

def helper_dead():
    return config("daed")

@cached
def helper_cached():
    return config("cchd")

@hooks.hook("install")
def install():
    return config("hkok")
`}.parse()})
	var got []string
	for _, f := range res.Charms[0].Findings {
		if f.Kind == FindUndeclaredConfig || f.Kind == FindUndeclaredRelation {
			got = append(got, fmt.Sprintf("%s not-called=%v", f.Subject, f.NotCalled))
		}
	}
	slices.Sort(got)
	want := "cchd not-called=true|daed not-called=true|dbx not-called=false|dmoain not-called=false|hkok not-called=false|hots not-called=false|levle not-called=false|nmae not-called=false|prot not-called=false|" +
		"public-host not-called=true|strnig not-called=false|unrd not-called=true|usde not-called=false"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("findings:\n got  %s\n want %s", g, want)
	}
	// where code computes a method's name, any method may be called
	computed := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
from dispatch import run

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        run(self, "mode")

    def public_url(self):
        return self.config["public-host"]
`, "src/dispatch.py": `
def run(obj, name):
    return getattr(obj, "_" + name)()
`}.parse()})
	if len(computed.Charms[0].Findings) == 0 {
		t.Error("computed names: no finding")
	}
	for _, f := range computed.Charms[0].Findings {
		if f.NotCalled {
			t.Errorf("computed names: %+v marked not called", f)
		}
	}
	// an instance's computed attribute is one of its methods, never a module's function
	// (ceph-mon registers its action methods with getattr(self, method_name))
	own := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        for name in ("a", "b"):
            self.framework.observe(self.on.start, getattr(self, "on_" + name))

    def public_url(self):
        return self.config["public-host"]
`, "actions/ops.py": `
from charmhelpers.core.hookenv import config

def pool_get():
    return config("pool-nmae")
`}.parse()})
	got = nil
	for _, f := range own.Charms[0].Findings {
		if f.Kind == FindUndeclaredConfig {
			got = append(got, fmt.Sprintf("%s not-called=%v", f.Subject, f.NotCalled))
		}
	}
	slices.Sort(got)
	if g := strings.Join(got, "|"); g != "pool-nmae not-called=true|public-host not-called=false" {
		t.Errorf("getattr(self, name): %s", g)
	}
}

func TestFindingsInCodeOnlyTestsCall(t *testing.T) {
	// A method or function that only the tree's tests call (kafka-broker's create_log_dir, run
	// by a unit test alone) is dead code to the deployed charm: its findings are TestsOnly, not
	// NotCalled (tests do call it); code the charm calls too is neither. A test that computes
	// names (getattr(obj, name)) may call any method, so one nothing names is TestsOnly too.
	c := charm("demo", ".", "config:port")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
from helpers import format_disk, mount_disk

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.start, self._on_start)

    def _on_start(self, event):
        mount_disk()
        self.used()

    def used(self):
        return self.config["usde"]

    def tested(self):
        return self.config["tsted"]

    def nowhere(self):
        return self.config["nwhere"]
`, "src/helpers.py": `
from charmhelpers.core.hookenv import config

def format_disk():
    return config("mkfs-flags")

def mount_disk():
    return config("mnt-opts")
`, "tests/unit/test_charm.py": `
from helpers import format_disk

def test_format(harness):
    harness.charm.tested()
    format_disk()
    harness.charm.used()
    getattr(harness.charm, "prop_" + "x")
`}.parse()})
	var got []string
	for _, f := range res.Charms[0].Findings {
		if f.Kind == FindUndeclaredConfig {
			got = append(got, fmt.Sprintf("%s not-called=%v tests-only=%v", f.Subject, f.NotCalled, f.TestsOnly))
		}
	}
	slices.Sort(got)
	want := "mkfs-flags not-called=false tests-only=true|mnt-opts not-called=false tests-only=false|nwhere not-called=false tests-only=true|" +
		"tsted not-called=false tests-only=true|usde not-called=false tests-only=false"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("findings:\n got  %s\n want %s", g, want)
	}
}

func TestMethodCalledByASiblingCharmIsCalled(t *testing.T) {
	// A shared base class's method that only one charm of a monorepo calls is called: the
	// other charm's finding there is not marked NotCalled (check merges the two into one).
	alpha, beta := charm("alpha", "charms/alpha"), charm("beta", "charms/beta")
	res := Link(Input{Charms: []charmyaml.Charm{alpha, beta}, Files: files{
		"common/base.py": `
import ops

class FamilyBase(ops.CharmBase):
    def beta_only(self):
        return self.config["nowhere"]
`,
		"charms/alpha/src/charm.py": `
from common.base import FamilyBase

class AlphaCharm(FamilyBase):
    pass
`,
		"charms/beta/src/charm.py": `
from common.base import FamilyBase

class BetaCharm(FamilyBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.beta_only()
`}.parse()})
	n := 0
	for _, cl := range res.Charms {
		for _, f := range cl.Findings {
			if f.Subject == "nowhere" {
				n++
				if f.NotCalled {
					t.Errorf("%s: %+v marked not called", cl.Name, f)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no finding for the undeclared option")
	}
}

func TestFunctionCalledOnlyByDeadCode(t *testing.T) {
	// A helper that only helpers nothing calls call never runs (review rev112: ceph-proxy's
	// get_host_ip): its undeclared read is no error. The name of another module's function
	// (a vendored package defining and calling its own host_ip) does not call it; a call from
	// a hook, or from a file that reaches the name by an attribute, does.
	ch := charm("demo", ".")
	in := files{
		"src/charm.py": `
import ops
from netutil import listen_port

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        self.unit.set_ports(listen_port(self))
`,
		"src/netutil.py": `
def host_ip(charm):
    return charm.config["prefer-ipv6"]

def public_address(charm):
    return host_ip(charm)

def listen_port(charm):
    return charm.config["port"]
`,
		"lib/vendored/net.py": `
def host_ip(name):
    return name

def resolve(unit):
    return host_ip(unit)

ADDRESS = resolve("here")
`,
	}
	why := func(in files) string {
		for _, cl := range Link(Input{Charms: []charmyaml.Charm{ch}, Files: in.parse()}).Charms {
			for _, f := range cl.Findings {
				if f.Subject == "prefer-ipv6" {
					return fmt.Sprintf("not-called=%v dead-callers=%v tests-only=%v", f.NotCalled, f.DeadCallers, f.TestsOnly)
				}
			}
		}
		return "no finding"
	}
	if got := why(in); got != "not-called=false dead-callers=true tests-only=false" {
		t.Errorf("called only by dead code: %s", got)
	}
	// a test pytest runs is no dead code: a helper only it reaches is the tests' only
	in["tests/unit/test_net.py"] = "from netutil import public_address\n\ndef test_public():\n    public_address(None)\n"
	if got := why(in); got != "not-called=false dead-callers=false tests-only=true" {
		t.Errorf("called by a test through its caller: %s", got)
	}
	delete(in, "tests/unit/test_net.py")
	in["src/charm.py"] = strings.Replace(in["src/charm.py"], "listen_port(self)", "listen_port(self) + public_address(self)", 1)
	in["src/charm.py"] = strings.Replace(in["src/charm.py"], "import listen_port", "import listen_port, public_address", 1)
	if got := why(in); got != "not-called=false dead-callers=false tests-only=false" {
		t.Errorf("called by a hook through its caller: %s", got)
	}
	delete(in, "src/charm.py")
	in["src/charm.py"] = "import ops\nimport helpers\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n        helpers.net.public_address(self)\n"
	if got := why(in); got != "not-called=false dead-callers=false tests-only=false" {
		t.Errorf("called by an attribute from a file not importing it: %s", got)
	}
	// an aliased import's calls are the name's (review rev118: `from netutil import
	// public_address as addr` made host_ip dead, and its error an info)
	in["src/charm.py"] = "import ops\nfrom netutil import public_address as addr\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n        addr(self)\n"
	if got := why(in); got != "not-called=false dead-callers=false tests-only=false" {
		t.Errorf("called through an aliased import: %s", got)
	}
	// a helper only its own recursive calls, or another dead helper's, call never runs
	// (rev118: the fixed point kept both live)
	in["src/charm.py"] = "import ops\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n        pass\n"
	in["src/netutil.py"] = "def host_ip(charm, n):\n    return host_ip(charm, n - 1) if n else charm.config[\"prefer-ipv6\"]\n"
	if got := why(in); got != "not-called=true dead-callers=false tests-only=false" {
		t.Errorf("called only by itself: %s", got)
	}
	in["src/netutil.py"] = "def host_ip(charm, n):\n    return ping(charm, n) if n else charm.config[\"prefer-ipv6\"]\n\ndef ping(charm, n):\n    return host_ip(charm, n - 1)\n"
	if got := why(in); got != "not-called=false dead-callers=true tests-only=false" {
		t.Errorf("called only by a helper it calls: %s", got)
	}
	in["src/charm.py"] = "import ops\nfrom netutil import ping\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n        ping(self, 3)\n"
	if got := why(in); got != "not-called=false dead-callers=false tests-only=false" {
		t.Errorf("a recursion the charm enters: %s", got)
	}
}

func TestSharedMethodASiblingCharmCalls(t *testing.T) {
	// In a monorepo, a shared method only a sibling charm's class calls runs in that charm:
	// for the other, it is no code that never runs (review rev118); its error names both.
	a, b := charm("demo-a", "a"), charm("demo-b", "b")
	charmPy := "import ops\nfrom common.peers import PeerState\n%s\nclass %s(ops.CharmBase):\n    def __init__(self, framework):\n        super().__init__(framework)\n" +
		"        self.peers = PeerState(self)\n        framework.observe(self.on.config_changed, self._on_config_changed)\n\n" +
		"    def _on_config_changed(self, event):\n        %s\n"
	in := files{
		"a/src/charm.py":     fmt.Sprintf(charmPy, "", "ACharm", "pass"),
		"b/src/charm.py":     fmt.Sprintf(charmPy, "from workload import Workload\n", "BCharm", "Workload(self.peers).render()"),
		"b/src/workload.py":  "class Workload:\n    def __init__(self, peers):\n        self.peers = peers\n\n    def render(self):\n        return self.peers.address()\n",
		"common/__init__.py": "",
		"common/peers.py": "import ops\n\nclass PeerState(ops.Object):\n    def __init__(self, charm):\n        super().__init__(charm, \"peers\")\n        self._charm = charm\n\n" +
			"    def address(self):\n        return self._charm.config[\"prefer-ipv6\"]\n",
	}
	var got []string
	for _, cl := range Link(Input{Charms: []charmyaml.Charm{a, b}, Files: in.parse()}).Charms {
		for _, f := range cl.Findings {
			if f.Subject == "prefer-ipv6" {
				got = append(got, fmt.Sprintf("%s: not-called=%v dead-callers=%v not-built=%v", cl.Name, f.NotCalled, f.DeadCallers, f.NotBuilt))
			}
		}
	}
	expect(t, "findings", strings.Join(got, "; "),
		"demo-a: not-called=false dead-callers=false not-built=false; demo-b: not-called=false dead-callers=false not-built=false")
}

func TestPropertiesAndBuiltinNamesNotDead(t *testing.T) {
	// A property only a template reads ({{ charm.listen }}), and a method named like a builtin
	// (exec, which no file's Refs counts), are live: their wrong reads stay errors (review
	// rev114); a property nothing reads is dead.
	c := charm("demo", ".", "config:port")
	src := `
import ops

class Helper:
    def exec(self, charm):
        return charm.config["prot"]

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.config_changed, self._on_config_changed)

    @property
    def listen(self):
        return self.config["lsten"]

    @property
    def unread(self):
        return self.config["unrd"]

    def _on_config_changed(self, event):
        self.config["port"]
        Helper().exec(self)
`
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": src}.parse(),
		Templates: []templates.File{templates.Scan("templates/demo.conf.j2", []byte("listen {{ charm.listen }}\n"))}})
	var got []string
	for _, f := range res.Charms[0].Findings {
		if f.Kind == FindUndeclaredConfig {
			got = append(got, fmt.Sprintf("%s not-called=%v", f.Subject, f.NotCalled))
		}
	}
	slices.Sort(got)
	if want := "lsten not-called=false|prot not-called=false|unrd not-called=true"; strings.Join(got, "|") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
}

func TestReadsInDeadCodeMarked(t *testing.T) {
	// A lookup in a property no code reads (kube-state-metrics' monitoring_address, review
	// rev111) is a dead site; one in a handler is not.
	c := charm("demo", ".", "relation:metrics-endpoint")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.start, self._on_start)

    def _on_start(self, event):
        self.model.get_relation("metrics-endpoint")

    @property
    def monitoring_address(self):
        return self.model.get_binding("metrics-endpoint")
`}.parse()})
	var got []string
	for _, it := range res.Charms[0].Interfaces {
		for _, r := range it.Reads {
			got = append(got, fmt.Sprintf("%s dead=%v", r.Symbol, r.Dead))
		}
	}
	slices.Sort(got)
	if want := "DemoCharm._on_start dead=false|DemoCharm.monitoring_address dead=true"; strings.Join(got, "|") != want {
		t.Errorf("reads %v, want %s", got, want)
	}
}

func TestFunctionCalledOnlyByASiblingsCopyIsUncalled(t *testing.T) {
	// A module function in one charm's folder that only another charm of the monorepo names
	// (its own copy of the helper, and that charm's unit tests beside it) is uncalled: no
	// charm's code reaches into a sibling's folder. The sibling's __eq__ comparing instance
	// dicts computes no method name. A test beside no charm (the root's tests/) may test any.
	proxy, mon, fs := charm("proxy", "proxy"), charm("mon", "mon"), charm("fs", "fs/src")
	in := files{
		"proxy/hooks/utils.py": `
from charmhelpers.core.hookenv import config

def get_public_addr():
    return config("ceph-public-network")
`,
		"proxy/hooks/hooks.py": `
import ops

class ProxyCharm(ops.CharmBase):
    def __eq__(self, other):
        return self.__dict__ == other.__dict__
`,
		"mon/hooks/utils.py": `
from charmhelpers.core.hookenv import config

def get_public_addr():
    return config("ceph-public-network")
`,
		"mon/hooks/hooks.py": `
from utils import get_public_addr

def install():
    get_public_addr()
`,
		"fs/src/reactive/fs.py": `
def noop():
    pass
`,
		"fs/unit_tests/test_fs.py": `
def test_addr(charm):
    charm.get_public_addr()
`,
	}
	notCalled := func(in files) map[string]bool {
		out := map[string]bool{}
		for _, cl := range Link(Input{Charms: []charmyaml.Charm{proxy, mon, fs}, Files: in.parse()}).Charms {
			for _, f := range cl.Findings {
				if f.Subject == "ceph-public-network" {
					out[cl.Name] = f.NotCalled
				}
			}
		}
		return out
	}
	if got := notCalled(in); !got["proxy"] || got["mon"] {
		t.Errorf("not called by charm: %v, want proxy true, mon false", got)
	}
	in["tests/test_all.py"] = "def test_addr(charm):\n    charm.get_public_addr()\n"
	if got := notCalled(in); got["proxy"] {
		t.Errorf("with a root test naming it: %v, want proxy false", got)
	}
}

func TestSharedMethodReplacedByTheCharm(t *testing.T) {
	// A shared base's method that a charm's class replaces never runs for that charm: its
	// undeclared read is held against the charm that inherits it, not the one that replaces
	// it, nor the one whose replacement calls super (which runs the base's).
	alpha, beta, gamma := charm("alpha", "charms/alpha"), charm("beta", "charms/beta"), charm("gamma", "charms/gamma")
	res := Link(Input{Charms: []charmyaml.Charm{alpha, beta, gamma}, Files: files{
		"common/base.py": `
import ops

class FamilyBase(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        self.ensure()

    def ensure(self):
        return self.config.get("devmode", False)
`,
		"charms/alpha/src/charm.py": `
from common.base import FamilyBase

class AlphaCharm(FamilyBase):
    pass
`,
		"charms/beta/src/charm.py": `
from common.base import FamilyBase

class BetaCharm(FamilyBase):
    def ensure(self):
        """No-op."""
`,
		"charms/gamma/src/charm.py": `
from common.base import FamilyBase

class GammaCharm(FamilyBase):
    def ensure(self):
        super().ensure()
        return True
`}.parse()})
	var got []string
	for _, cl := range res.Charms {
		for _, f := range cl.Findings {
			if f.Subject == "devmode" {
				got = append(got, cl.Name)
			}
		}
	}
	if !slices.Equal(got, []string{"alpha", "gamma"}) {
		t.Errorf("charms held to the base's read: %v, want alpha and gamma", got)
	}
}

func TestHandlerOfAnUndeclaredInterfaceNeverRuns(t *testing.T) {
	// A handler only an observe of an undeclared action registers (under a guard a shared
	// base writes for the charms that declare it) never runs: the observe call is the finding,
	// not the handler's reads. Called from other code too, its reads are findings again.
	src := `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        if "refresh-snap" in (self.meta.actions or {}):
            self.framework.observe(self.on["refresh-snap"].action, self._on_refresh)
%s
    def _on_refresh(self, event):
        return self.model.config.get("devmode", False)
`
	kinds := func(cl CharmLinks) []string {
		var out []string
		for _, f := range cl.Findings {
			out = append(out, f.Kind+" "+f.Subject)
		}
		slices.Sort(out)
		return out
	}
	cl := link1(t, charm("demo", "."), files{"src/charm.py": fmt.Sprintf(src, "")})
	if got := kinds(cl); !slices.Equal(got, []string{"undeclared-action refresh-snap"}) {
		t.Errorf("only observed: %v", got)
	}
	cl = link1(t, charm("demo", "."), files{"src/charm.py": fmt.Sprintf(src, `
    def retry(self):
        self._on_refresh(None)
`)})
	if got := kinds(cl); !slices.Equal(got, []string{"undeclared-action refresh-snap", "undeclared-config devmode"}) {
		t.Errorf("also called: %v", got)
	}
	// a method of the same name that another file's class defines and uses for itself (a
	// library nothing imports) says nothing of this one: the findings do not depend on it
	namesake := `
import ops

class OtherProvider(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "other")
        self.framework.observe(charm.on.install, self._on_refresh)

    def _on_refresh(self, event):
        pass
`
	cl = link1(t, charm("demo", "."), files{"src/charm.py": fmt.Sprintf(src, ""), "lib/charms/other/v0/other.py": namesake})
	if got := kinds(cl); !slices.Equal(got, []string{"undeclared-action refresh-snap"}) {
		t.Errorf("beside a namesake: %v", got)
	}
	// unless that file names the class, whose method it may call
	cl = link1(t, charm("demo", "."), files{"src/charm.py": fmt.Sprintf(src, ""), "src/retry.py": namesake + `
from charm import DemoCharm

def retry(charm: DemoCharm):
    charm._on_refresh(None)
`})
	if got := kinds(cl); !slices.Equal(got, []string{"undeclared-action refresh-snap", "undeclared-config devmode"}) {
		t.Errorf("beside a namesake that names the class: %v", got)
	}
}

func TestHandlersAfterAnEarlyReturn(t *testing.T) {
	// Observe calls after a fast exit (`if not self.unit.is_leader(): return`) are conditional
	// because of that return, and say which, in a loop that follows it too; one under its own
	// if is not attributed to it.
	c := charm("demo", ".", "relation:db", "relation:peers")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.install, self._on_install)
        if not self.unit.is_leader():
            return
        self.framework.observe(self.on.db_relation_changed, self._on_db)
        if self.config.get("peers"):
            self.framework.observe(self.on.peers_relation_changed, self._on_db)
        for rel in self.model.relations.keys():
            self.framework.observe(self.on[rel].relation_departed, self._on_db)

    def _on_install(self, event): ...
    def _on_db(self, event): ...
`})
	var got []string
	for _, it := range cl.Interfaces {
		for _, h := range it.Handlers {
			got = append(got, fmt.Sprintf("%s:%d cond=%v after=%d", h.Event, h.ObserveLine, h.Conditional, h.AfterReturn))
		}
	}
	// the loop over every relation after the return is registered only when it does not
	// return, as the lines before it
	want := "db_relation_changed:9 cond=true after=8|relation_departed:13 cond=true after=8|peers_relation_changed:11 cond=true after=0|" +
		"relation_departed:13 cond=true after=8|install:6 cond=false after=0"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("handlers:\n got  %s\n want %s", g, want)
	}
}

func TestAfterAReturnInAnExceptClause(t *testing.T) {
	// What follows a try whose except clause returns is the usual path: a wrong name read
	// there is no conditional finding; handlers registered there still are registered only
	// when the try's body did not raise (check's handler-conditional info at the return).
	c := charm("demo", ".", "relation:db", "config:storage-class")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        try:
            self.state = State.from_charm(self)
        except InvalidStateError:
            return
        self.framework.observe(self.on.db_relation_changed, self._on_db)

    def _on_db(self, event):
        try:
            cfg = self.config
        except Exception:
            return
        self.cls = cfg.get("storage_class")
`})
	expect(t, "findings", findings(cl), "src/charm.py:17 undeclared-config storage_class")
	var got []string
	for _, it := range cl.Interfaces {
		for _, h := range it.Handlers {
			got = append(got, fmt.Sprintf("%s:%d cond=%v after=%d", h.Event, h.ObserveLine, h.Conditional, h.AfterReturn))
		}
	}
	if g, want := strings.Join(got, "|"), "db_relation_changed:10 cond=true after=9"; g != want {
		t.Errorf("handlers:\n got  %s\n want %s", g, want)
	}
}

func TestMissingModule(t *testing.T) {
	// A top-level import, in the charm's code, of a module of one of its own packages that the
	// tree does not have fails on every hook. Not an import in a try, a function or for type
	// checkers, a namespace folder, a charm library (fetched at build time), a package of no
	// folder of the charm's (a pip package), nor one in a file the charm's code never imports.
	c := charm("demo", ".")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
import typing
from utils import present
from utils.gone import Thing
import utils.also_gone
from utils.sub.deeper import x
from requests.adapters import HTTPAdapter
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires
try:
    from utils.optional import y
except ImportError:
    y = None
if typing.TYPE_CHECKING:
    from utils.types_only import Z

class DemoCharm(ops.CharmBase):
    def _later(self):
        from utils.lazy import w
`,
		"src/utils/__init__.py":        "",
		"src/utils/present.py":         "",
		"src/utils/sub/deeper/x.py":    "",
		"lib/charms/other/v0/other.py": "",
		"src/tools/unused.py":          "from utils.gone_too import z\n",
	})
	expect(t, "findings", findings(cl), "src/charm.py:4 missing-module utils.gone\nsrc/charm.py:5 missing-module utils.also_gone")
}

func TestUnobservedHandlers(t *testing.T) {
	// A method named like a handler that no code of the tree names never runs: ops calls only
	// what is observed. Any use of its name counts (a call, a test); a decorated method, one of
	// a class with a base outside the tree, and library code are not held to it.
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from outside import Base

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.db_relation_changed, self._on_db_changed)

    def _on_db_changed(self, event):
        self._on_called_directly()

    def _on_called_directly(self): ...
    def _on_update_status(self, event): ...
    def _on_tested(self, event): ...
    @some_registry.handles("start")
    def _on_decorated(self, event): ...
    def _on_(self): ...

class FromOutside(Base):
    def _on_registered_by_base(self, event): ...
`,
		"lib/charms/demo/v0/api.py": `
import ops

class Api(ops.Object):
    def _on_library_thing(self, event): ...
`,
		"tests/unit/test_charm.py": `
def test_it(harness):
    harness.charm._on_tested(None)
`,
	})
	expect(t, "findings", findings(cl), "src/charm.py:13 unobserved-handler DemoCharm._on_update_status")

	// code that gets attributes of a name by computed names may call any method
	cl = link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        for name in ("update_status",):
            self.framework.observe(getattr(self.on, name), getattr(self, "_on_" + name))

    def _on_update_status(self, event): ...
`})
	expect(t, "computed", findings(cl), "")

	// so does code that calls what getattr gives at once, or lists the members; a name
	// written as a string (a test's patch.object) is a use of it
	for _, body := range []string{
		`getattr(self, f"_on_{event.handle.kind}")(event)`,
		`for name, m in inspect.getmembers(self): pass`,
	} {
		cl = link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)

    def _dispatch(self, event):
        ` + body + `

    def _on_update_status(self, event): ...
`})
		expect(t, body, findings(cl), "")
	}
	// a getattr of an object that holds no method (a StoredState of the class, the charm's
	// events, a logger, a module of the standard library) calls none; one of an object the
	// file cannot tell (a base class's stored state) may
	for body, want := range map[string]string{
		`return getattr(self._stored, key, None)`:                 "src/charm.py:17 unobserved-handler DemoCharm._on_purge_cache_action",
		`return getattr(self.on, key)`:                            "src/charm.py:17 unobserved-handler DemoCharm._on_purge_cache_action",
		`return getattr(logger, key)("x")`:                        "src/charm.py:17 unobserved-handler DemoCharm._on_purge_cache_action",
		`return getattr(sys, key)`:                                "src/charm.py:17 unobserved-handler DemoCharm._on_purge_cache_action",
		`return getattr(self._state, key, None)`:                  "",
		`return getattr(self, key)`:                               "",
		`return getattr(self._stored, key) or getattr(self, key)`: "",
	} {
		cl = link1(t, c, files{"src/charm.py": `
import logging
import sys

import ops

logger = logging.getLogger(__name__)

class DemoCharm(ops.CharmBase):
    _stored = ops.StoredState()

    def __init__(self, *args):
        super().__init__(*args)

    def _value(self, key):
        ` + body + `

    def _on_purge_cache_action(self, event): ...
`})
		expect(t, body, findings(cl), want)
	}
	// a listing of members in another file, of another object, reaches no handler here
	cl = link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _on_update_status(self, event): ...
`, "src/models.py": `
class Model:
    def dump(self):
        return dict(vars(self))
`})
	expect(t, "vars elsewhere", findings(cl), "src/charm.py:4 unobserved-handler DemoCharm._on_update_status")
	cl = link1(t, c, files{"src/charm.py": `
import ops

@trace_charm(tracing_endpoint="x")
class DemoCharm(ops.CharmBase):
    def _on_update_status(self, event): ...
    def _on_patched(self, event): ...
`, "tests/test_charm.py": `
def test_it():
    with patch.object(DemoCharm, "_on_patched"):
        pass
`})
	// a class decorator may register its methods, or only wrap them: in doubt
	if len(cl.Findings) != 1 || cl.Findings[0].Subject != "DemoCharm._on_update_status" || cl.Findings[0].Doubt == "" {
		t.Errorf("decorated class: %+v", cl.Findings)
	}
}

func TestHelperCalledWithNames(t *testing.T) {
	// A helper method looking up the relation its callers name (sdcore's
	// _relation_created(relation_name)) links every name they pass, constants and the
	// elements of a loop over a literal, each at its call, and leaves no dynamic name behind.
	c := charm("demo", ".", "relation:n2", "relation:db", "relation:cache")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

N2 = "n2"
DB = "db"

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.update_status, self._on_update_status)

    def _on_update_status(self, event):
        if not self._relation_created(N2):
            return
        for relation in [DB, "cache"]:
            self._relation_created(relation)

    def _relation_created(self, relation_name):
        return bool(self.model.get_relation(relation_name))
`}.parse()})
	cl := res.Charms[0]
	expect(t, "n2", reads(cl, KindRelation, "n2"), "src/charm.py:12/lookup/")
	for _, name := range []string{"db", "cache"} {
		expect(t, name, reads(cl, KindRelation, name), "src/charm.py:15/lookup/")
	}
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved: %+v", res.Unresolved)
	}
}

func TestObjectMethodCalledWithName(t *testing.T) {
	// A method of an object the charm keeps, called with a relation's name
	// (cassandra's self.provider.update_address("database", ...)), looks that relation up.
	c := charm("demo", ".", "relation:database")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
from provider import Provider

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.provider = Provider(self)
        self.framework.observe(self.on.leader_elected, self._on_leader_elected)

    def _on_leader_elected(self, event):
        self.provider.update_address("database", "10.0.0.1")
`, "src/provider.py": `
import ops

class Provider(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "provider")
        self.charm = charm

    def update_address(self, relation_name, address):
        for relation in self.charm.model.relations[relation_name]:
            relation.data[self.charm.unit]["address"] = address
`}.parse()})
	// at the call that names it, and at the lookup in the object's own module
	expect(t, "database", reads(res.Charms[0], KindRelation, "database"), "src/charm.py:11/lookup/ src/provider.py:9/lookup/")
}

func TestFindingInHelperBuiltUnderCondition(t *testing.T) {
	// A helper the charm builds only behind an if runs only then: what it does wrong is a
	// conditional finding (a warning), as if its code stood under that if.
	c := charm("demo", ".", "relation:db", "config:new-db")
	cl := link1(t, c, files{
		"src/newdb.py": `
import ops

NEW_DB = "db-client"

class NewDb(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "new-db")
        charm.framework.observe(charm.on[NEW_DB].relation_changed, self._changed)
        self.rel = charm.model.get_relation(NEW_DB)

    def _changed(self, _):
        pass
`,
		"src/charm.py": `
import ops
from newdb import NewDb

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.db_relation_changed, self._on_db)
        if self.config.get("new-db"):
            self.new = NewDb(self)

    def _on_db(self, _):
        pass
`})
	expect(t, "findings", findings(cl), "src/newdb.py:8 undeclared-relation db-client (cond)\nsrc/newdb.py:9 undeclared-relation db-client (cond)")
}

func TestSharedCharmClassOfSiblings(t *testing.T) {
	// Shared code holding several charm classes (a base and an API subclass): a charm whose
	// class derives only from the base runs the base's code, not the subclass's, which a
	// sibling charm derives from.
	plain := charm("plain", "plain", "config:domain")
	api := charm("api", "api", "config:domain", "config:public-hostname")
	fs := files{
		"common/basecharm/__init__.py": "",
		"common/basecharm/charm.py": `
import ops

class BaseServiceCharm(ops.CharmBase):
    def domain(self):
        return self.config["domain"]

class ApiServiceCharm(BaseServiceCharm):
    def public_address(self):
        return self.config.get("public-hostname")
`,
		"plain/src/charm.py": `
from basecharm.charm import BaseServiceCharm

class PlainCharm(BaseServiceCharm):
    pass
`,
		"api/src/charm.py": `
from basecharm.charm import ApiServiceCharm

class ApiCharm(ApiServiceCharm):
    pass
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{plain, api}, Files: fs.parse()})
	p, a := res.Charms[0], res.Charms[1]
	expect(t, "plain domain", reads(p, KindConfig, "domain"), "common/basecharm/charm.py:5/config-read/index")
	expect(t, "api hostname", reads(a, KindConfig, "public-hostname"), "common/basecharm/charm.py:9/config-read/get")
	expect(t, "findings", findings(p)+findings(a), "")
}

func TestSharedClassOnlySiblingsBuild(t *testing.T) {
	// A shared-code class that another charm's code builds, and this charm's never names, is
	// there for the other charm: its reads are not this charm's.
	plain := charm("plain", "plain", "config:domain")
	ceph := charm("ceph", "ceph", "config:domain", "config:pool")
	fs := files{
		"common/handlers/__init__.py": "",
		"common/handlers/pools.py": `
class PoolRequest:
    def __init__(self, charm):
        self.charm = charm

    def request(self):
        return self.charm.config["pool"]

def domain_of(charm):
    return charm.config["domain"]
`,
		"plain/src/charm.py": `
import ops
from handlers.pools import domain_of

class PlainCharm(ops.CharmBase):
    def domain(self):
        return domain_of(self)
`,
		"ceph/src/charm.py": `
import ops
from handlers.pools import PoolRequest

class CephCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.pools = PoolRequest(self)
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{plain, ceph}, Files: fs.parse()})
	p, c := res.Charms[0], res.Charms[1]
	expect(t, "ceph pool", reads(c, KindConfig, "pool"), "common/handlers/pools.py:6/config-read/index")
	expect(t, "plain domain", reads(p, KindConfig, "domain"), "common/handlers/pools.py:9/config-read/index")
	expect(t, "plain pool", reads(p, KindConfig, "pool"), "")
	expect(t, "plain findings", findings(p), "")
}

func TestHelperCalledInAComprehension(t *testing.T) {
	// [self._fetch(res) for res in RESOURCES]: the comprehension's name is bound before its
	// body, so the call is recorded and the helper's parameter takes every element.
	c := charm("compr", ".", "resource:cert-file", "resource:ca-file")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class ComprCharm(ops.CharmBase):
    def _certs(self):
        resources = ["cert-file", "ca-file"]
        return [self._fetch(res) for res in resources]

    def _fetch(self, resource):
        return self.model.resources.fetch(resource)
`})
	expect(t, "cert-file", reads(cl, KindResource, "cert-file"), "src/charm.py:6/lookup/")
	expect(t, "ca-file", reads(cl, KindResource, "ca-file"), "src/charm.py:6/lookup/")
}

func TestNameReturnedByAnOverride(t *testing.T) {
	// A base charm class observes self.on[self._db_relation_name()]: the name is what the
	// concrete charm's override returns, not the base's NotImplementedError.
	c := charm("tmpl", ".", "relation:db", "container:workload")
	cl := link1(t, c, files{
		"src/base.py": `
import ops

class BaseServiceCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on[self._db_relation_name()].relation_changed, self._on_db_changed)
        framework.observe(self.on[self._container_name()].pebble_ready, self._on_ready)

    @classmethod
    def _db_relation_name(cls):
        raise NotImplementedError()

    @classmethod
    def _container_name(cls):
        raise NotImplementedError()

    def _on_db_changed(self, event):
        pass

    def _on_ready(self, event):
        pass
`,
		"src/charm.py": `
from base import BaseServiceCharm

DB = "db"

class TmplCharm(BaseServiceCharm):
    @classmethod
    def _db_relation_name(cls):
        return DB

    @classmethod
    def _container_name(cls):
        return "workload"
`})
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>BaseServiceCharm._on_db_changed[on-index]")
	expect(t, "workload", handlers(cl, KindContainer, "workload"), "pebble_ready>BaseServiceCharm._on_ready[on-index]")
	expect(t, "findings", findings(cl), "")
}

func TestSharedClassBuiltByItsOwnFactory(t *testing.T) {
	// A shared class whose only construction is in its own classmethod (a factory the charm's
	// code calls through a shared function) still runs for the charm: the linker cannot follow
	// that construction, so it does not take it for one that runs elsewhere.
	api := charm("api", "charms/api", "relation:db")
	fs := files{
		"shared/fw/__init__.py": "",
		"shared/fw/handlers.py": `
import ops

class DBHandler(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)

    @classmethod
    def create(cls, charm):
        return DBHandler(charm, "db")

    def _on_changed(self, event):
        pass
`,
		"shared/fw/setup.py": `
from fw.handlers import DBHandler

def setup_handlers(charm):
    return [DBHandler.create(charm)]
`,
		"charms/api/src/charm.py": `
import ops
from fw.setup import setup_handlers

class APICharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.handlers = setup_handlers(self)
`,
	}
	a := Link(Input{Charms: []charmyaml.Charm{api}, Files: fs.parse()}).Charms[0]
	expect(t, "db", handlers(a, KindRelation, "db"), "relation_changed>DBHandler._on_changed[helper]")
	expect(t, "findings", findings(a), "")
}

func TestFindingAfterAGuard(t *testing.T) {
	// A finding after an early return under a condition is on its function's usual path
	// (AfterGuard); one under the condition itself, or in an object built under one, is not.
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        if not self.unit.is_leader():
            return
        self.model.get_relation("dbb")
        if self.config.get("x"):
            self.model.get_relation("dbc")
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%v %v", f.Conditional, f.AfterGuard) }),
		"src/charm.py:8 undeclared-relation dbb true true\nsrc/charm.py:9 undeclared-config x true true\nsrc/charm.py:10 undeclared-relation dbc true false")
}

func TestMissingHandlerNearAMethod(t *testing.T) {
	// A class with a base from outside the tree may get a handler from it: no finding, but for
	// a name a letter or two from a method of the class's (review rev104), which says which.
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops_openstack.core

class DemoCharm(ops_openstack.core.OSBaseCharm):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_chnaged)
        self.framework.observe(self.on.db_relation_changed, self._on_base_handler)
        self.framework.observe(self.on.start, self._on_strt)
        self.framework.observe(self.on.db_relation_joined, self.on_config_changed)
        self.framework.observe(self.on.install, self._on_install_v1)

    def _on_config_changed(self, event):
        pass

    def _on_install_v2(self, event):
        pass

    def _on_start(self, event):
        pass
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return f.Detail + " " + f.Key }),
		"src/charm.py:6 missing-handler _on_config_chnaged near _on_config_changed\nsrc/charm.py:8 missing-handler _on_strt near _on_start")
	// on_config_changed beside _on_config_changed is the base's override scheme, no near miss;
	// a near miss's event stays observed, by the observer as written (review rev106)
	expect(t, "start", handlers(cl, KindLifecycle, "start"), "start>self._on_strt[observe]")
}

func TestUnobservedBesideAnotherClassesGetattr(t *testing.T) {
	// getattr(self, name) in a method of another class of a base's file (data_models'
	// BaseConfigModel.__getitem__ beside TypedCharmBase) reaches that class's members, not the
	// charm's: a handler nothing observes is still found (review rev105); one in a base of
	// the charm's own class is not.
	c := charm("demo", ".", "relation:db")
	lib := `import ops


class BaseConfigModel:
    def __getitem__(self, x):
        return getattr(self, x.replace("-", "_"))


class TypedCharmBase(ops.CharmBase):
    %s
`
	charmPy := `from charms.data_platform_libs.v0.data_models import TypedCharmBase


class DemoCharm(TypedCharmBase):
    def __init__(self, *args):
        super().__init__(*args)

    def _on_upgrade_charm(self, event):
        pass
`
	for _, tc := range []struct{ extra, want string }{
		{"pass", "src/charm.py:8 unobserved-handler DemoCharm._on_upgrade_charm"},
		{"def run(self, name):\n        return getattr(self, name)()", ""},
	} {
		cl := link1(t, c, files{"src/charm.py": charmPy, "lib/charms/data_platform_libs/v0/data_models.py": fmt.Sprintf(lib, tc.extra)})
		var got []string
		for _, f := range cl.Findings {
			if f.Kind == FindUnobservedHandler {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Kind, f.Subject))
			}
		}
		expect(t, tc.extra, strings.Join(got, "\n"), tc.want)
	}
}

func TestPositionalEndpointOfAnOutsideLibrary(t *testing.T) {
	// An object of a library the tree does not hold, built with the charm and a positional
	// name a letter or two from a declared relation, or one only with '-' and '_' swapped, is
	// bound to the name as written: a finding (reviews rev104, rev105), not a bind to the
	// relation its library's interface names; a declared name binds; a string given to an
	// object not built with the charm (a metric's name) binds nothing.
	c := charm("demo", ".", "relation:mount", "relation:iscsi-dashboard")
	c.Relations[0].Interface = "mount_info"
	cl := link1(t, c, files{"src/charm.py": `
import ops
from charms.filesystem_client.v0.mount_info import MountRequires
from charms.iscsi.v0.admin import AdminAccessRequires
from prometheus_client.core import InfoMetricFamily

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.mount = MountRequires(self, "mounts")
        self.admin = AdminAccessRequires(self, "iscsi_dashboard")
        self.ok = AdminAccessRequires(self, "iscsi-dashboard")
        InfoMetricFamily("iscsi_dashboard", "info")
`})
	expect(t, "findings", findings(cl), "src/charm.py:9 undeclared-relation mounts\nsrc/charm.py:10 undeclared-relation iscsi_dashboard")
	expect(t, "mount", reads(cl, KindRelation, "mount"), "")
}

func TestGuardOfTheSameNameIsACondition(t *testing.T) {
	// After a guard that tests for the same undeclared name (always false: the function
	// returns there), a use of it is not on the function's usual path (review rev106).
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        if "ingress" not in self.model.relations:
            return
        self.model.get_relation("ingress")
        self.model.get_relation("dbb")
        for name in self.names:
            self.model.get_relation("dbc")

    def _opt(self):
        if not self.config.get("legacy"):
            return
        return self.config["legacy"]
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%s %v", f.Detail, f.AfterGuard) }),
		"src/charm.py:5 undeclared-relation ingress in false\nsrc/charm.py:7 undeclared-relation ingress  false\nsrc/charm.py:8 undeclared-relation dbb  true\n"+
			"src/charm.py:10 undeclared-relation dbc  false\n"+ // in a loop after the guard: the loop's condition, as without the guard (review rev107)
			"src/charm.py:13 undeclared-config legacy get false\nsrc/charm.py:15 undeclared-config legacy index false")
}

func TestUnobservedReachedByASubclassGetattr(t *testing.T) {
	// A subclass's getattr(self, name) reaches its base's handlers (review rev107).
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `import ops

HANDLER_PREFIX = "_on_"


class BaseCharm(ops.CharmBase):
    def _on_install(self, event):
        pass

    def _on_start(self, event):
        pass


class DemoCharm(BaseCharm):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.install, self._route)
        framework.observe(self.on.start, self._route)
        framework.observe(self.on.db_relation_changed, self._route)

    def _route(self, event):
        kind = type(event).__name__.lower().replace("event", "")
        getattr(self, HANDLER_PREFIX + kind)(event)


if __name__ == "__main__":
    ops.main(DemoCharm)
`})
	expect(t, "findings", findings(cl), "")
}

func TestUnobservedInAMonorepo(t *testing.T) {
	// A sibling charm observing its own _on_config_changed does not name this charm's (review
	// rev105); shared code's uses of a name count for every charm it serves.
	a := charm("a", "charms/a", "relation:db")
	b := charm("b", "charms/b", "relation:db")
	src := func(observe string) string {
		return "import ops\n\nclass C(ops.CharmBase):\n    def __init__(self, *args):\n        super().__init__(*args)\n        " + observe +
			"\n\n    def _on_config_changed(self, event):\n        pass\n"
	}
	res := Link(Input{Charms: []charmyaml.Charm{a, b}, Files: files{
		"charms/a/src/charm.py": src("pass"),
		"charms/b/src/charm.py": src("self.framework.observe(self.on.config_changed, self._on_config_changed)"),
	}.parse()})
	var got []string
	for _, cl := range res.Charms {
		for _, f := range cl.Findings {
			got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Kind, f.Subject))
		}
	}
	expect(t, "findings", strings.Join(got, "\n"), "charms/a/src/charm.py:8 unobserved-handler C._on_config_changed")
	// a test outside every charm's folder may call any charm's handler (review rev107)
	tc := charm("tc", "tests/integration/tc", "relation:db")
	res = Link(Input{Charms: []charmyaml.Charm{a, b, tc}, Files: files{
		"charms/a/src/charm.py":             src("pass"),
		"charms/b/src/charm.py":             src("self.framework.observe(self.on.config_changed, self._on_config_changed)"),
		"tests/unit/test_a.py":              "def test_a(harness):\n    harness.charm._on_config_changed(None)\n",
		"tests/integration/tc/src/charm.py": src("self.framework.observe(self.on.config_changed, self._on_config_changed)"),
	}.parse()})
	for _, cl := range res.Charms {
		if len(cl.Findings) > 0 {
			t.Errorf("with a root test: findings %+v", cl.Findings)
		}
	}
}

func TestLeaderBodyIsTheUsualPath(t *testing.T) {
	// A wrong name in the body of `if self.unit.is_leader():` runs whenever the unit leads: on
	// the usual path (AfterGuard, Leader), as after `if not …is_leader(): return`; its else
	// is a plain condition.
	c := charm("demo", ".", "relation:cluster")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        if self.unit.is_leader():
            self.model.get_relation("clustr")
        else:
            self.model.get_relation("clusterr")
        self.model.get_relation("cluster")
`})
	got := findingsWith(cl, func(f Finding) string { return fmt.Sprintf("guard=%v leader=%v", f.AfterGuard, f.Leader) })
	expect(t, "findings", got, "src/charm.py:10 undeclared-relation clustr guard=true leader=true\nsrc/charm.py:12 undeclared-relation clusterr guard=false leader=false")
}

func TestConstructorDefaultIsOneFinding(t *testing.T) {
	// A class's constructor whose default names an undeclared relation, which its methods
	// look up, is one finding at the __init__, listing the uses (review rev105: five for one
	// typo); a single use stays where it is, and a name its __init__ does not default to
	// stays one finding per use.
	c := charm("demo", ".", "relation:cluster")
	cl := link1(t, c, files{"src/peer.py": `
import ops

class Peer(ops.Object):
    def __init__(self, charm, endpoint="clustr"):
        super().__init__(charm, endpoint)
        self.endpoint = endpoint

    def data(self):
        return self.model.get_relation(self.endpoint)

    def units(self):
        if self.model.get_relation(self.endpoint):
            return self.model.get_relation("other").units
`,
		"src/charm.py": `
import ops
from peer import Peer

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.peer = Peer(self)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        self.peer.data()
        self.peer.units()
`})
	got := findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%s %s %v", f.Detail, f.Key, f.Uses) })
	expect(t, "findings", got, "src/peer.py:4 undeclared-relation clustr default endpoint [9 12]\nsrc/peer.py:13 undeclared-relation other   []")
}

func TestMisspeltFramework(t *testing.T) {
	// self.framwork.observe(...) raises AttributeError on every hook (ipmi-exporter, review
	// rev123): reported once per function, at its first call; not an attribute the class or
	// a base in the tree sets (self._framework = framework), nor one far from "framework",
	// nor in vendored code.
	c := charm("demo", ".", "relation:db")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from base import Base

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.framwork.observe(self.on.install, self._on_install)
        self.framwork.observe(self.on.start, self._on_install)
        self.observer.observe(self.on.stop, self._on_install)

    def _on_install(self, event):
        pass

class Other(Base):
    def __init__(self, charm):
        super().__init__(charm, "other")
        self.framewrok.observe(charm.on.db_relation_joined, self._on_db)

    def _on_db(self, event):
        pass

if __name__ == "__main__":
    ops.main(DemoCharm)
`,
		"src/base.py": `
import ops

class Base(ops.Object):
    def __init__(self, charm, key):
        super().__init__(charm, key)
        self.framewrok = charm.framework
`,
		"lib/charms/other/v0/lib.py": `
import ops

class Lib(ops.Object):
    def __init__(self, charm):
        self.framwork.observe(charm.on.install, self._x)

    def _x(self, event):
        pass
`,
	})
	var got []string
	for _, f := range cl.Findings {
		if f.Kind == FindMisspeltFramework {
			got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Subject))
		}
	}
	expect(t, "findings", strings.Join(got, "\n"), "src/charm.py:7 framwork")
}
