package linker

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// files is a tree of Python sources: path -> code.
type files map[string]string

func (fs files) parse() []pyextract.File {
	var out []pyextract.File
	for p, src := range fs {
		out = append(out, pyextract.Parse(p, []byte(strings.TrimLeft(src, "\n"))))
	}
	slices.SortFunc(out, func(a, b pyextract.File) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// charm builds a charm declaration: "relation:name", "config:name", "action:name(p1,p2)",
// "container:name", "storage:name", "resource:name".
func charm(name, dir string, decls ...string) charmyaml.Charm {
	c := charmyaml.Charm{Name: name, Dir: dir}
	for i, d := range decls {
		kind, n, _ := strings.Cut(d, ":")
		pos := charmyaml.Pos{File: dir + "/charmcraft.yaml", Line: i + 1}
		switch kind {
		case "relation":
			c.Relations = append(c.Relations, charmyaml.Relation{Name: n, Role: charmyaml.RoleRequires, Pos: pos})
		case "config":
			c.Config = append(c.Config, charmyaml.ConfigOption{Name: n, Pos: pos})
		case "action":
			a := charmyaml.Action{Name: n, Pos: pos}
			if open := strings.IndexByte(n, '('); open >= 0 {
				a.Name = n[:open]
				for _, p := range strings.Split(strings.Trim(n[open:], "()"), ",") {
					a.Params = append(a.Params, charmyaml.Param{Name: p})
				}
			}
			c.Actions = append(c.Actions, a)
		case "container":
			c.Containers = append(c.Containers, charmyaml.Container{Name: n, Pos: pos})
		case "storage":
			c.Storage = append(c.Storage, charmyaml.Storage{Name: n, Pos: pos})
		case "resource":
			c.Resources = append(c.Resources, charmyaml.Resource{Name: n, Pos: pos})
		}
	}
	return c
}

func link1(t *testing.T, c charmyaml.Charm, fs files) CharmLinks {
	t.Helper()
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: fs.parse()})
	if len(res.Charms) != 1 {
		t.Fatalf("%d charms", len(res.Charms))
	}
	return res.Charms[0]
}

func iface(cl CharmLinks, kind, name string) Interface {
	for _, it := range cl.Interfaces {
		if it.Kind == kind && it.Name == name {
			return it
		}
	}
	return Interface{Kind: kind, Name: name}
}

// handlers renders an interface's handlers as "event>Symbol[via]", sorted.
func handlers(cl CharmLinks, kind, name string) string {
	var out []string
	for _, h := range iface(cl, kind, name).Handlers {
		out = append(out, h.Event+">"+h.Symbol+"["+h.Via+"]")
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// reads renders an interface's reads as "file:line/via/detail", sorted.
func reads(cl CharmLinks, kind, name string) string {
	var out []string
	for _, r := range iface(cl, kind, name).Reads {
		s := fmt.Sprintf("%s:%d/%s/%s", r.File, r.Line, r.Via, r.Detail)
		if r.Key != "" {
			s += "/" + r.Key
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func findings(cl CharmLinks) string {
	var out []string
	for _, f := range cl.Findings {
		s := fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Kind, f.Subject)
		if f.Conditional {
			s += " (cond)"
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// findingsWith lists the findings as "file:line kind subject", each followed by what more
// says of it.
func findingsWith(cl CharmLinks, more func(Finding) string) string {
	var out []string
	for _, f := range cl.Findings {
		out = append(out, fmt.Sprintf("%s:%d %s %s %s", f.File, f.Line, f.Kind, f.Subject, more(f)))
	}
	return strings.Join(out, "\n")
}

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got  %s\n want %s", what, got, want)
	}
}

func TestLookupsInATry(t *testing.T) {
	// A lookup in a try whose handlers catch only what a present name raises runs: fetch of
	// an undeclared resource raises NameError, get_relation of an undeclared endpoint
	// KeyError, neither of which `except ModelError` catches, so the finding is not
	// conditional. A handler of NameError (or KeyError) probes for the name; get_container
	// raises ModelError itself for a container it does not know.
	c := charm("demo", ".", "relation:db", "container:app", "resource:image")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _install(self, event):
        try:
            path = self.model.resources.fetch("payload")
            rel = self.model.get_relation("dbb")
            box = self.unit.get_container("ap")
        except ops.ModelError:
            return
        try:
            self.model.resources.fetch("probe")
        except (ops.ModelError, NameError):
            pass
`})
	expect(t, "findings", findings(cl), `src/charm.py:6 undeclared-resource payload
src/charm.py:7 undeclared-relation dbb
src/charm.py:8 undeclared-container ap (cond)
src/charm.py:12 undeclared-resource probe (cond)`)
}

func TestMembershipTests(t *testing.T) {
	// `KEY in X` and `KEY not in X`, X the config, the model's storages or relations, tests for
	// the key: a declared one is read there (Detail "in"), an undeclared one is a finding with
	// Detail "in" (a test that is always false), or "assert" where an assert asserts it (an
	// assertion that always fails). After an early return, code runs only under
	// a condition.
	c := charm("demo", ".", "relation:db", "storage:logs", "config:url", "config:token")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        assert "data" in self.model.storages, "storage 'data' missing"
        if "logs" in self.model.storages and "db" not in self.model.relations:
            return
        if "url" in self.config:
            return self.config["url"]
        if "bearer" not in self.config:
            return
        if "cache" in self.model.relations:
            pass
`})
	expect(t, "findings", findings(cl), `src/charm.py:5 undeclared-storage data
src/charm.py:10 undeclared-config bearer (cond)
src/charm.py:12 undeclared-relation cache (cond)`)
	for _, f := range cl.Findings {
		if want := map[bool]string{true: "assert", false: "in"}[f.Subject == "data"]; f.Detail != want {
			t.Errorf("%s %s: detail %q, want %s", f.Kind, f.Subject, f.Detail, want)
		}
	}
	expect(t, "logs", reads(cl, KindStorage, "logs"), "src/charm.py:6/lookup/in")
	expect(t, "db", reads(cl, KindRelation, "db"), "src/charm.py:6/lookup/in")
	expect(t, "url", reads(cl, KindConfig, "url"), "src/charm.py:8/config-read/in src/charm.py:9/config-read/index")
	expect(t, "token", reads(cl, KindConfig, "token"), "")
}

func TestCharmHelpersResourceGet(t *testing.T) {
	// charm-helpers' resource_get("x") (imported, or through hookenv; by position or name=)
	// looks the resource x up; an undeclared one is a finding. A name assigned a format string
	// looks up, loosely, the resources its text fits. Another module's resource_get, and test
	// code, look nothing up.
	c := charm("classic", ".", "resource:payload", "resource:bdist", "resource:unused", "resource:flannel-amd64", "resource:flannel-arm64")
	cl := link1(t, c, files{
		"hooks/hooks.py": `
from charmhelpers.core import hookenv
from charmhelpers.core.hookenv import resource_get
from mylib import resource_get as other_get

def install():
    path = resource_get("payload")
    dist = hookenv.resource_get(name="bdist")
    other_get("unused")
    if not resource_get("paylaod"):
        return

def flannel():
    name = "flannel-{}".format(arch())
    return resource_get(name)
`,
		"unit_tests/test_hooks.py": `
from charmhelpers.core.hookenv import resource_get

def test_install():
    resource_get("unused")
`})
	expect(t, "payload", reads(cl, KindResource, "payload"), "hooks/hooks.py:6/lookup/")
	expect(t, "bdist", reads(cl, KindResource, "bdist"), "hooks/hooks.py:7/lookup/")
	expect(t, "unused", reads(cl, KindResource, "unused"), "")
	expect(t, "flannel-arm64", reads(cl, KindResource, "flannel-arm64"), "hooks/hooks.py:14/lookup/")
	expect(t, "findings", findings(cl), "hooks/hooks.py:9 undeclared-resource paylaod") // an if's condition runs
}

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

func TestHelpersAndRelationNameParams(t *testing.T) {
	c := charm("demo", ".", "relation:ingress", "relation:db", "relation:db-admin", "relation:s3", "action:list",
		"relation:replicas", "relation:certs")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from relations.ingress import IngressHandler
from relations.db import DbProvides, Backups
from relations import peers

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.ingress = IngressHandler(self)
        self.db = DbProvides(self, admin=False)
        self.db_admin = DbProvides(self, admin=True)
        self.backups = Backups(self, "s3")
        self.peers = peers.Peers(self, relation_name="replicas")
        self.tls = TlsHelper(self)

class TlsHelper(ops.Object):
    def __init__(self, parent, endpoint="certs"):
        super().__init__(parent, "tls")
        self._charm = parent
        self.endpoint = endpoint
        for event in (self._charm.on[self.endpoint].relation_joined, self._charm.on[self.endpoint].relation_changed):
            self.framework.observe(event, self._on_certs)

    def _on_certs(self, event): ...
`,
		"src/relations/__init__.py": "",
		"src/relations/ingress.py": `
import ops

class IngressHandler(ops.Object):
    def __init__(self, charm, relation_name: str = "ingress"):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)
        self.framework.observe(self.charm.on[relation_name].relation_broken, self._on_broken)

    def _on_changed(self, event): ...
    def _on_broken(self, event): ...
`,
		"src/relations/db.py": `
import ops
from .base import Base

class DbProvides(ops.Object):
    def __init__(self, charm, admin: bool = False):
        if admin:
            self.relation_name = "db-admin"
        else:
            self.relation_name = "db"
        super().__init__(charm, self.relation_name)
        self.framework.observe(charm.on[self.relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event): ...

class Backups(Base):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.framework.observe(self._charm.on[relation_name].relation_broken, self._on_gone)
        self.framework.observe(self._charm.on.list_action, self._on_list)

    def _on_list(self, event): ...
`,
		"src/relations/base.py": `
import ops

class Base(ops.Object):
    def __init__(self, charm, key):
        super().__init__(charm, key)
        self._charm = charm

    def _on_gone(self, event): ...
`,
		"src/relations/peers.py": `
import ops

class Peers(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.framework.observe(self.charm.on[relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event): ...
`,
	})
	expect(t, "ingress", handlers(cl, KindRelation, "ingress"), "relation_broken>IngressHandler._on_broken[helper] relation_changed>IngressHandler._on_changed[helper]")
	// a self attribute set under a condition takes both values
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_changed>DbProvides._on_changed[helper]")
	expect(t, "db-admin", handlers(cl, KindRelation, "db-admin"), "relation_changed>DbProvides._on_changed[helper]")
	// positional name, handler inherited from a base class in another file
	expect(t, "s3", handlers(cl, KindRelation, "s3"), "relation_broken>Base._on_gone[helper]")
	expect(t, "list", handlers(cl, KindAction, "list"), "list_action>Backups._on_list[helper]")
	expect(t, "replicas", handlers(cl, KindRelation, "replicas"), "relation_changed>Peers._on_changed[helper]")
	// a for loop over a literal tuple of events; a default parameter
	expect(t, "certs", handlers(cl, KindRelation, "certs"), "relation_changed>TlsHelper._on_certs[helper] relation_joined>TlsHelper._on_certs[helper]")
	expect(t, "findings", findings(cl), "")
}

// libHeader opens the charm libraries the tests write: the fields every library has.
const libHeader = `
LIBID = "x"
LIBAPI = 0
LIBPATCH = 1
import ops
`

// dbLib is a vendored charm library: a relation-bound object with a default endpoint that
// registers its own handlers and emits custom events.
const dbLib = `
"""Example in a docstring: self.framework.observe(self.on.nothing_relation_changed, x)"""
import ops

LIBID = "x"
DEFAULT_RELATION = "database"

class DatabaseEvents(ops.ObjectEvents):
    database_created = ops.EventSource(ops.EventBase)

class _Handlers(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_relation_changed)

    def _on_relation_changed(self, event):
        rel = self.model.get_relation(self.relation_name)

class DatabaseRequires(_Handlers):
    on = DatabaseEvents()

    def __init__(self, charm, relation_name: str = DEFAULT_RELATION, database_name: str = ""):
        self.relation_name = relation_name
        super().__init__(charm, relation_name)

class Unused(ops.Object):
    def __init__(self, charm, relation_name="never-declared"):
        self.framework.observe(charm.on[relation_name].relation_joined, self._x)
`

func TestLibraryObjects(t *testing.T) {
	c := charm("demo", ".", "relation:database", "relation:analytics", "relation:cache", "relation:logging", "relation:metrics")
	cl := link1(t, c, files{
		"lib/charms/db_lib/v0/database.py": dbLib,
		"src/charm.py": `
import ops
from charms.db_lib.v0.database import DatabaseRequires as DBR
from charms.db_lib.v0 import database
from cosl import LogForwarder, Unrelated

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.db = DBR(self)
        self.analytics = database.DatabaseRequires(self, "analytics")
        self.cache = DBR(self, relation_name="cache", database_name="c")
        self.framework.observe(self.db.on.database_created, self._on_db_created)
        self.framework.observe(self.analytics.on.database_created, self._on_db_created)
        self.framework.observe(self.cache.on["cache"].database_created, self._on_db_created)
        self._logging = LogForwarder(self, relation_name="logging")
        LogForwarder(self, "metrics")
        Unrelated(self, "nothing")

    def _on_db_created(self, event): ...
`,
	})
	lib := "relation_changed>_Handlers._on_relation_changed[library-inner]"
	expect(t, "database", handlers(cl, KindRelation, "database"), "database_created>DemoCharm._on_db_created[library] "+lib)
	expect(t, "analytics", handlers(cl, KindRelation, "analytics"), "database_created>DemoCharm._on_db_created[library] "+lib)
	expect(t, "cache", handlers(cl, KindRelation, "cache"), "database_created>DemoCharm._on_db_created[library] "+lib)
	// binding sites and the library's own lookup
	expect(t, "database reads", reads(cl, KindRelation, "database"),
		"lib/charms/db_lib/v0/database.py:16/lookup/ src/charm.py:9/library/DBR")
	// a library class from a pip package: bound by a relation-naming keyword, or by a
	// positional string that names a declared endpoint
	expect(t, "logging", reads(cl, KindRelation, "logging"), "src/charm.py:15/library/LogForwarder")
	expect(t, "metrics", reads(cl, KindRelation, "metrics"), "src/charm.py:16/library/LogForwarder")
	expect(t, "findings", findings(cl), "")
}

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

func TestAbsentCharmLibraryBindsItsInterface(t *testing.T) {
	// charmcraft.yaml's charm-libs fetch libraries at build time: the tree has no
	// lib/charms/tempo_coordinator_k8s/v0/tracing.py, so TracingEndpointRequirer's default
	// relation cannot be read; the library is named after the interface, and the one relation
	// of interface "tracing" is bound (the charm given first or as charm=); so is "service_mesh", a charm library published on PyPI
	// as charmlibs.interfaces.service_mesh. An ambiguous interface, a pip package, an object not
	// built with the charm, and a library in the tree bind nothing this way.
	c := charm("demo", ".", "relation:trace-sink", "relation:ingress", "relation:public-ingress", "relation:logs", "relation:database", "relation:mesh", "relation:dashboards", "relation:scrape")
	for i, iface := range []string{"tracing", "ingress", "ingress", "loki_push_api", "database", "service_mesh", "grafana_dashboard", "prometheus_scrape"} {
		c.Relations[i].Interface = iface
	}
	cl := link1(t, c, files{
		"lib/charms/db_lib/v0/database.py": `
class DatabaseRequires:
    def __init__(self, charm, relation_name: str = "db"):
        self.charm = charm
`,
		"src/charm.py": `
import ops
from charms.tempo_coordinator_k8s.v0.tracing import TracingEndpointRequirer
from charms.traefik_k8s.v2.ingress import IngressPerAppRequirer
from cosl.loki_push_api import LokiPushApiConsumer
from charms.loki_k8s.v1.loki_push_api import LogProxyConsumer
from charms.db_lib.v0.database import DatabaseRequires
from charmlibs.interfaces.service_mesh import ServiceMeshConsumer
from charms.grafana_k8s.v0.grafana_dashboard import GrafanaDashboardProvider
from charms.prometheus_k8s.v0.prometheus_scrape import MetricsEndpointProvider

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.dashboards = GrafanaDashboardProvider(charm=self)
        self.scrape = MetricsEndpointProvider(charm=None, jobs=[])
        self.tracing = TracingEndpointRequirer(self, protocols=["otlp_http"])
        self.ingress = IngressPerAppRequirer(self, port=8080)
        self.logs = LokiPushApiConsumer(self)
        self.proxy = LogProxyConsumer(None)
        self.db = DatabaseRequires(self)
        self.mesh = ServiceMeshConsumer(self, policies=[])
`,
	})
	expect(t, "trace-sink", reads(cl, KindRelation, "trace-sink"), "src/charm.py:16/library/TracingEndpointRequirer")
	expect(t, "mesh", reads(cl, KindRelation, "mesh"), "src/charm.py:21/library/ServiceMeshConsumer")
	// the charm given as charm= (notary's IngressPerAppRequirer(charm=self, port=...))
	expect(t, "dashboards", reads(cl, KindRelation, "dashboards"), "src/charm.py:14/library/GrafanaDashboardProvider")
	for _, name := range []string{"ingress", "public-ingress", "logs", "database", "scrape"} {
		expect(t, name, reads(cl, KindRelation, name), "")
	}
}

func TestSubclassOfAbsentLibraryBinds(t *testing.T) {
	// A class of the tree derived from a charm library class the tree lacks (fetched when the
	// charm is packed), with no __init__ of its own, is built as that class: its
	// relation_name= binds, and its events are the library's. One with its own __init__ is
	// read as usual; a helper derived from ops.Object given a relation's name as its key binds
	// nothing that way, nor does an object not built with the charm.
	c := charm("demo", ".", "relation:object-store", "relation:peers", "relation:backup")
	cl := link1(t, c, files{
		"src/store.py": `
from charms.data_platform_libs.v0.s3 import S3Requirer

class StoreRequirer(S3Requirer):
    def bucket(self):
        return self.get_s3_connection_info().get("bucket")

class OwnInit(S3Requirer):
    def __init__(self, charm):
        super().__init__(charm, "s3")
`,
		"src/models.py": `
import ops
from pydantic import BaseModel
from mixins import Tracked

class Settings(BaseModel):
    relation_name: str

class Helper(ops.Object, Tracked):
    pass
`,
		"src/charm.py": `
import ops
from store import StoreRequirer, OwnInit
from models import Settings, Helper as Tracked2

class Helper(ops.Object):
    pass

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.store = StoreRequirer(self, relation_name="object-store")
        self.framework.observe(self.store.on.credentials_changed, self._on_creds)
        self.helper = Helper(self, "peers")
        self.own = OwnInit(self)
        self.settings = Settings(relation_name="undeclared-one")
        self.tracked = Tracked2(self, "backup")

    def _on_creds(self, event):
        pass
`,
	})
	expect(t, "object-store", handlers(cl, KindRelation, "object-store"), "credentials_changed>DemoCharm._on_creds[library]")
	expect(t, "peers", reads(cl, KindRelation, "peers")+handlers(cl, KindRelation, "peers"), "")
	// not built with the charm (a pydantic model given a field named relation_name), or ops'
	// Object first among the bases (its __init__ runs: the string is its key): no binding
	expect(t, "backup", reads(cl, KindRelation, "backup")+handlers(cl, KindRelation, "backup"), "")
	expect(t, "findings", findings(cl), "")
}

func TestOpsInterfacePackageBindsItsRelation(t *testing.T) {
	// Charmed Kubernetes' interface packages install into ops' namespace
	// (ops.interface_aws.requires) and bind the relation named after them by default:
	// AWSIntegrationRequires(self) handles "aws" (interface aws-integration). A package whose
	// name matches no relation, or an object not built with the charm, binds nothing; ops' own
	// modules are not such packages.
	c := charm("demo", ".", "relation:aws", "relation:gcp", "relation:azure", "config:unused-opt", "action:do-thing")
	for i, iface := range []string{"aws-integration", "gcp-integration", "azure-integration"} {
		c.Relations[i].Interface = iface
	}
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from ops.interface_aws.requires import AWSIntegrationRequires
from ops.interface_gcp.requires import GCPIntegrationRequires
from ops.interface_azure.requires import AzureIntegrationRequires
from ops.interface_vsphere.requires import VsphereIntegrationRequires

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.aws = AWSIntegrationRequires(self)
        self.gcp = GCPIntegrationRequires(None)
        self.azure = make_azure(AzureIntegrationRequires)
        self.vsphere = VsphereIntegrationRequires(self)
`,
	})
	expect(t, "aws", reads(cl, KindRelation, "aws"), "src/charm.py:10/library/AWSIntegrationRequires")
	// imported, but not built with the charm where the linker can see: a package named after
	// the relation may handle it (an info in check)
	expect(t, "azure", reads(cl, KindRelation, "azure"), "src/charm.py:4/package/ops.interface_azure.requires")
	// an interface package's object serves its relation: it reads no option, handles no action
	for _, k := range []ifaceKey{{KindConfig, "unused-opt"}, {KindAction, "do-thing"}} {
		if got := iface(cl, k.kind, k.name).Reads; len(got) != 0 {
			t.Errorf("%s %s reads %+v", k.kind, k.name, got)
		}
	}
	expect(t, "gcp", reads(cl, KindRelation, "gcp"), "")
	for module, want := range map[string]string{"ops.interface_aws.requires": "aws", "ops.interface_kube_control": "kube_control",
		"ops.charm": "", "ops": "", "ops.interfaces": ""} {
		if got := opsInterfacePackage(module); got != want {
			t.Errorf("opsInterfacePackage(%q) = %q, want %q", module, got, want)
		}
	}
}

func TestRoleNamesBindMoreEndpoints(t *testing.T) {
	// A library object bound by mesh_relation_name= names its other endpoints by role
	// (cross_model_mesh_provides_name=): a declared relation's name there binds it too; a
	// container_name or an undeclared name binds nothing, and an object bound by no
	// relation-naming keyword takes no role names either.
	c := charm("demo", ".", "relation:service-mesh", "relation:provide-cmr-mesh", "relation:require-cmr-mesh",
		"relation:workload", "relation:peers")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from charmlibs.interfaces.service_mesh import ServiceMeshConsumer
from charmlibs.other import Thing

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.mesh = ServiceMeshConsumer(
            self,
            mesh_relation_name="service-mesh",
            cross_model_mesh_provides_name="provide-cmr-mesh",
            cross_model_mesh_requires_name="require-cmr-mesh",
            container_name="workload",
            other_name="nowhere",
        )
        self.thing = Thing(self, peer_name="peers")
`,
	})
	expect(t, "service-mesh", reads(cl, KindRelation, "service-mesh"), "src/charm.py:8/library/ServiceMeshConsumer")
	expect(t, "provide-cmr-mesh", reads(cl, KindRelation, "provide-cmr-mesh"), "src/charm.py:8/library/ServiceMeshConsumer")
	expect(t, "require-cmr-mesh", reads(cl, KindRelation, "require-cmr-mesh"), "src/charm.py:8/library/ServiceMeshConsumer")
	expect(t, "workload", reads(cl, KindRelation, "workload"), "")
	expect(t, "peers", reads(cl, KindRelation, "peers"), "")
	for _, f := range cl.Findings {
		if f.Subject == "nowhere" {
			t.Errorf("an undeclared role name is a finding: %+v", f)
		}
	}
}

func TestFeaturePackageMayHandleInterface(t *testing.T) {
	// No code observes the refresh actions or handles the refresh-v-three relation, and the
	// charm imports charm_refresh, a package from outside the tree named after them: its
	// import is recorded as a possible handler.
	// An observed action, an action sharing only a generic word ("check"), a package of the
	// tree (src/backup.py) and a module of Python's standard library get no such read.
	c := charm("demo", ".", "action:pre-refresh-check", "action:resume-refresh", "action:backup", "action:health-check", "action:get-status",
		"relation:refresh-v-three", "relation:refresh-peers", "relation:logging",
		"config:pause-after-unit-refresh", "config:pause_after_unit_refresh", "config:refresh-interval", "config:service-name",
		"relation:gateway-route", "config:demo_mode")
	cl := link1(t, c, files{
		"src/backup.py": `
def run_backup():
    pass
`,
		"src/charm.py": `
import ops
import charm_refresh
import service_mesh_helpers.models
import backup
import demo.server
from toolkit.gateway import make_route
import logging
from status_check import health

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.get_status_action, self._on_status)

    def _on_status(self, event):
        self.model.get_relation("refresh-peers")
        self.config["refresh-interval"]
`,
	})
	expect(t, "pre-refresh-check", reads(cl, KindAction, "pre-refresh-check"), "src/charm.py:2/package/charm_refresh")
	expect(t, "resume-refresh", reads(cl, KindAction, "resume-refresh"), "src/charm.py:2/package/charm_refresh")
	expect(t, "backup", reads(cl, KindAction, "backup"), "")
	expect(t, "health-check", reads(cl, KindAction, "health-check"), "")
	expect(t, "get-status", reads(cl, KindAction, "get-status"), "")
	// a relation too, also one the code only looks up (a check that it exists does not handle
	// it: otel-collector's cycle check of the endpoints charmlibs.interfaces.otlp serves)
	expect(t, "refresh-v-three", reads(cl, KindRelation, "refresh-v-three"), "src/charm.py:2/package/charm_refresh")
	expect(t, "refresh-peers", reads(cl, KindRelation, "refresh-peers"), "src/charm.py:16/lookup/ src/charm.py:2/package/charm_refresh")
	// the standard library's logging module is not the "logging" relation's package
	expect(t, "logging", reads(cl, KindRelation, "logging"), "")
	// a config option too, unless the code reads it
	expect(t, "pause-after-unit-refresh", reads(cl, KindConfig, "pause-after-unit-refresh"), "src/charm.py:2/package/charm_refresh")
	// the Kubernetes charms' spelling, which charm_refresh reads too
	expect(t, "pause_after_unit_refresh", reads(cl, KindConfig, "pause_after_unit_refresh"), "src/charm.py:2/package/charm_refresh")
	expect(t, "refresh-interval", reads(cl, KindConfig, "refresh-interval"), "src/charm.py:17/config-read/index")
	// an option shares a word with a package, but not every word of the package's name
	expect(t, "service-name", reads(cl, KindConfig, "service-name"), "")
	// the package is named after the charm (its workload's own), or only a module deep
	// inside a toolkit is named after the relation
	expect(t, "demo_mode", reads(cl, KindConfig, "demo_mode"), "")
	expect(t, "gateway-route", reads(cl, KindRelation, "gateway-route"), "")
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

func TestConfigAndParams(t *testing.T) {
	c := charm("demo", ".", "config:port", "config:log-level", "config:site-title", "config:mode", "config:unused",
		"action:backup(target,force)", "action:restore(target)")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from settings import Settings, TypedConfig
from workload import render

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.backup_action, self._on_backup)
        self.framework.observe(self.on.restore_action, self._on_restore)
        self.settings = Settings(self.config)
        self.typed = self.load_config(TypedConfig)

    def _on_backup(self, event):
        params = event.params
        target = params["target"]
        force = event.params.get("force", False)
        nope = event.params["nope"]
        port = self.config["port"]
        level = self.model.config.get("log-level")
        render(self.config)
        self.config.log_level
        self.config.not_an_option

    def _on_restore(self, event):
        event.params["target"]
        key = event.params[event.params["target"]]
`,
		"src/settings.py": `
import pydantic

class Settings:
    def __init__(self, config):
        self._config = config

    def title(self):
        return self._config["site-title"]

class TypedConfig(pydantic.BaseModel):
    mode: str = "a"
    other: int = 1
`,
		"src/workload.py": `
def render(cfg):
    cfg.get("mode")
    cfg["missing-opt"]
`,
	})
	expect(t, "port", reads(cl, KindConfig, "port"), "src/charm.py:18/config-read/index")
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:19/config-read/get src/charm.py:21/config-read/attr")
	expect(t, "site-title", reads(cl, KindConfig, "site-title"), "src/settings.py:8/config-read/index")
	expect(t, "mode", reads(cl, KindConfig, "mode"), "src/settings.py:11/config-read/field src/workload.py:2/config-read/get")
	expect(t, "unused", reads(cl, KindConfig, "unused"), "")
	expect(t, "backup", reads(cl, KindAction, "backup"), "src/charm.py:15/param-read/index/target src/charm.py:16/param-read/get/force")
	expect(t, "restore", reads(cl, KindAction, "restore"), "src/charm.py:25/param-read/index/target src/charm.py:26/param-read/index/target")
	// TypedConfig's field other, loaded with load_config, names no option
	expect(t, "findings", findings(cl), "src/charm.py:17 undeclared-action-param nope\nsrc/settings.py:12 undeclared-config other\nsrc/workload.py:3 undeclared-config missing-opt")
}

func TestLoadedConfigFieldsNameOptions(t *testing.T) {
	// Every annotated field of a class the charm loads its options into (config_type,
	// load_config) names a declared option, `_` for `-`; one that names none is a finding
	// (Field). Not a ClassVar, a private name, pydantic's model_config, a field with an alias,
	// a field the load_config call passes itself, nor the field of a class the linker only
	// guesses is a config from its name.
	c := charm("demo", ".", "config:log-level", "config:port")
	cl := link1(t, c, files{"src/charm.py": `
import typing
import ops
import pydantic

class Base(pydantic.BaseModel):
    log_level: str = "info"
    verbose: bool = False

class WorkerConfig(Base):
    model_config = pydantic.ConfigDict(frozen=True)
    port: int
    _cache: dict = {}
    KINDS: typing.ClassVar[list] = []
    region: str = pydantic.Field(alias="zone")
    partition_name: str

class GuessedConfig(pydantic.BaseModel):
    port: int
    log_level: str
    extra: str

class DemoCharm(ops.CharmBase):
    def configure(self):
        cfg = self.load_config(WorkerConfig, partition_name=self.app.name)
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%v", f.Field) }), "src/charm.py:7 undeclared-config verbose true")
}

func TestTypedConfigAttributeTypo(t *testing.T) {
	// An attribute read on the typed config (self.config.x with a config_type, cfg.x of
	// cfg = self.load_config(Cls)) that names no option and nothing of the class is a finding;
	// a field, a method or property, a model's own member, a private name, and any name on a
	// class with a base outside the tree (other than pydantic's BaseModel) are not.
	c := charm("demo", ".", "config:log-level", "config:port")
	cl := link1(t, c, files{"src/charm.py": `
import dataclasses
import ops
import pydantic
from somewhere import ExternalBase

class CharmConfig(pydantic.BaseModel):
    log_level: str = "info"

    @property
    def verbose(self):
        return self.log_level == "debug"

@dataclasses.dataclass
class Loaded:
    port: int = 80

class Open(ExternalBase):
    port: int = 80

class DemoCharm(ops.CharmBase):
    config_type = CharmConfig

    def _configure(self, event):
        print(self.config.log_level, self.config.verbose, self.config.model_dump(), self.config._x)
        print(self.config.log_levle)
        cfg = self.load_config(Loaded)
        print(cfg.port, cfg.prot)
        other_cfg = self.load_config(Open)
        print(other_cfg.anything)
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return f.Detail }), `src/charm.py:25 undeclared-config log_levle attr
src/charm.py:27 undeclared-config prot attr`)
}

func TestConfigUnpackedIntoAClass(t *testing.T) {
	// A class of the tree built with the whole config unpacked into it
	// (SearchConfig(**self.config)) is loaded as a config_type is: its fields read the options
	// they name (a pydantic Field's alias, when it has one), a field naming none is a finding,
	// and the unpacking reads no other option.
	// Unpacked into anything else (a function, dict(**self.config)), the config is read whole.
	c := charm("demo", ".", "config:index-name", "config:port", "config:leftover", "config:spare", "config:kafka-topic")
	cl := link1(t, c, files{"src/charm.py": `
import ops
import pydantic

class SearchConfig(pydantic.BaseModel):
    index_name: str
    port: int = 9200
    replicas: int = 1
    topic: str = pydantic.Field("", alias="kafka-topic")

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        cfg = SearchConfig(**self.config)
        return cfg.index_name
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%v", f.Field) }), "src/charm.py:7 undeclared-config replicas true")
	expect(t, "index-name", reads(cl, KindConfig, "index-name"), "src/charm.py:5/config-read/field")
	expect(t, "port", reads(cl, KindConfig, "port"), "src/charm.py:6/config-read/field")
	expect(t, "leftover", reads(cl, KindConfig, "leftover"), "")
	expect(t, "kafka-topic", reads(cl, KindConfig, "kafka-topic"), "src/charm.py:8/config-read/field")

	cl = link1(t, c, files{"src/charm.py": `
import ops

def render(**options):
    return options

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        return render(**self.config), dict(**self.config)
`})
	expect(t, "leftover whole", reads(cl, KindConfig, "leftover"), "src/charm.py:8/config-read/all")
}

func TestNameFromAProperty(t *testing.T) {
	// self._peer_name, a property of the class or a base, is what its getter returns: a
	// literal or a constant links (or is a finding) as the name written out would, and so does
	// a call of a method of self the getter returns, the charm's override answering.
	c := charm("demo", ".", "relation:cluster", "container:app")
	cl := link1(t, c, files{"src/charm.py": `
import functools
import ops

CONTAINER = "app"

class Base(ops.CharmBase):
    @property
    def _container_name(self) -> str:
        return CONTAINER

class DemoCharm(Base):
    @functools.cached_property
    def _peer_name(self):
        return "clustre"

    def _configure(self, event):
        self.unit.get_container(self._container_name).replan()
        self.model.get_relation(self._peer_name)
`})
	expect(t, "app", reads(cl, KindContainer, "app"), "src/charm.py:17/lookup/")
	expect(t, "findings", findings(cl), "src/charm.py:18 undeclared-relation clustre")

	// a library base's property that returns a template method's result, which the charm
	// overrides with its container's name: the library's handler and lookup are the charm's
	cl = link1(t, c, files{
		"lib/charms/base/v0/base.py": `
import ops

LIBID = "x"

class BaseWorkloadCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        ready = "%s_pebble_ready" % self._workload_container_name
        self.framework.observe(getattr(self.on, ready), self._on_ready)

    @classmethod
    def _get_workload_container_name(cls):
        raise NotImplementedError

    @property
    def _workload_container_name(self):
        return self._get_workload_container_name()

    def _on_ready(self, event):
        self.unit.get_container(self._workload_container_name).replan()
`,
		"src/charm.py": `
from charms.base.v0.base import BaseWorkloadCharm

class DemoCharm(BaseWorkloadCharm):
    @classmethod
    def _get_workload_container_name(cls):
        return "app"
`})
	expect(t, "app (library base)", handlers(cl, KindContainer, "app"), "app_pebble_ready>BaseWorkloadCharm._on_ready[library-inner]")
	expect(t, "app lookup (library base)", reads(cl, KindContainer, "app"), "lib/charms/base/v0/base.py:20/lookup/")
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

func TestLibraryValidatesItsEndpoint(t *testing.T) {
	// A library object whose constructor calls the observability libraries' validator on its
	// endpoint requires the side and interface it passes: the YAML declaring another is a
	// relation-mismatch finding at the construction; a validator of another endpoint, an
	// interface the linker cannot name, and a library that validates nothing are none.
	lib := `
from enum import Enum
import ops

LIBID = "0"
IFACE = "demo_scrape"

class RelationRole(Enum):
    requires = "requires"
    provides = "provides"

def _validate_relation_by_interface_and_direction(charm, relation_name, expected_relation_interface, expected_relation_role):
    pass

class Provider(ops.Object):
    def __init__(self, charm, relation_name="metrics"):
        super().__init__(charm, relation_name)
        _validate_relation_by_interface_and_direction(charm, relation_name, IFACE, RelationRole.provides)

class Dashboards(ops.Object):
    def __init__(self, charm, relation_name="dashboards", interface=None):
        super().__init__(charm, relation_name)
        _validate_relation_by_interface_and_direction(
            charm, relation_name, expected_relation_interface="demo_dash", expected_relation_role=RelationRole.requires)

class Loose(ops.Object):
    def __init__(self, charm, relation_name, interface):
        super().__init__(charm, relation_name)
        _validate_relation_by_interface_and_direction(charm, "other", interface, RelationRole.requires)
        _validate_relation_by_interface_and_direction(charm, relation_name, interface, RelationRole.requires)

class Silent(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
`
	c := charm("demo", ".", "relation:metrics", "relation:dashboards", "relation:logs", "relation:quiet", "config:iface")
	c.Relations[0].Interface = "demo_scrape"                           // requires: Provider wants provides
	c.Relations[1].Interface, c.Relations[1].Role = "dash", "requires" // the interface differs
	c.Relations[2].Interface = "x"                                     // Loose: interface unknown, side right
	c.Relations[3].Role = "provides"                                   // Silent checks nothing
	cl := link1(t, c, files{
		"lib/charms/demo/v0/lib.py": lib,
		"src/charm.py": `
import ops
from charms.demo.v0.lib import Dashboards, Loose, Provider, Silent

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.metrics = Provider(self)
        self.dashboards = Dashboards(self)
        self.logs = Loose(self, "logs", self.config.get("iface"))
        self.quiet = Silent(self, "quiet")
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string {
		return fmt.Sprintf("%s %s->%s %s", f.Mismatch, f.Declared, f.Expected, f.Detail)
	}), `src/charm.py:7 relation-mismatch metrics role requires->provides Provider
src/charm.py:8 relation-mismatch dashboards interface dash->demo_dash Dashboards`)
}

func TestParamsTheHandlerStores(t *testing.T) {
	// A handler that stores a value of its own into its params (a parsed copy of a declared
	// one) reads that value back, not an undeclared parameter; another handler's read of the
	// same key, which stores nothing, is still one.
	c := charm("demo", ".", "action:fio(disk-devices)", "action:other(x)")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.fio_action, self._on_fio)
        self.framework.observe(self.on.other_action, self._on_other)

    def _on_fio(self, event):
        event.params["disk_devices"] = event.params["disk-devices"].split()
        for device in event.params["disk_devices"]:
            print(device)

    def _on_other(self, event):
        return event.params["disk_devices"]
`,
	})
	expect(t, "findings", findings(cl), "src/charm.py:15 undeclared-action-param disk_devices")
	expect(t, "fio", reads(cl, KindAction, "fio"), "src/charm.py:10/param-read/index/disk-devices")
}

func TestParamsReadByAHelper(t *testing.T) {
	// A helper the handler hands its event to (a method of self, a coroutine run by asyncio,
	// a function of the module given the charm, and their helpers in turn) reads the action's parameters: an
	// undeclared one is a finding there, naming the action. A helper some code the linker does
	// not follow also calls (another object's method, with the event of another action) may
	// run for other actions: its declared names link, an undeclared one is no finding.
	c := charm("demo", ".", "action:create(pool)", "action:promote(force)")
	cl := link1(t, c, files{
		"src/charm.py": `
import asyncio
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.create_action, self._on_create)
        self.framework.observe(self.on.promote_action, self._on_promote)
        self.replication = Replication()

    def _on_create(self, event):
        self._pick(event)
        asyncio.run(self._make(event))
        check(self, event)
        self._shared(event)

    def _on_promote(self, event):
        self.replication.promote(event)

    def _pick(self, event):
        return event.params["pool"], event.params["metadata-pool"]

    async def _make(self, event):
        return event.params.get("case-id")

    def _shared(self, event):
        self._deeper(event)
        return event.params["pool"]

    def _deeper(self, event):
        return event.params.get("force")

def check(charm, ev):
    return ev.params["size"]

class Replication:
    def promote(self, event):
        DemoCharm._shared(None, event)
`,
	})
	expect(t, "findings", findings(cl), `src/charm.py:21 undeclared-action-param metadata-pool
src/charm.py:24 undeclared-action-param case-id
src/charm.py:34 undeclared-action-param size`)
	for _, f := range cl.Findings {
		if len(f.Actions) != 1 || f.Actions[0] != "create" {
			t.Errorf("%s: actions %v, want [create]", f.Subject, f.Actions)
		}
	}
	expect(t, "create", reads(cl, KindAction, "create"), "src/charm.py:21/param-read/index/pool src/charm.py:28/param-read/index/pool")
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

// jujuFacade is a helper class reading config[key] for its callers (vault's JujuFacade).
const jujuFacade = `
class JujuFacade:
    def __init__(self, charm):
        self.charm = charm

    def get_string_config(self, key: str) -> str:
        return str(self.charm.model.config.get(key)) or ""
`

// TestConfigObjectNamedConfig: an attribute named like an option on an object named *config
// (a typed config dataclass) is a read in the charm's code — the files its charm class
// imports, directly or not (here a module of a package, two imports away) — but not in a workload program beside the charm, whose own
// config objects have fields named like the options.
func TestConfigObjectNamedConfig(t *testing.T) {
	c := charm("demo", ".", "config:runner-version", "config:script-url")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from helpers import builder

class DemoCharm(ops.CharmBase):
    def _on_install(self, event):
        builder.build(self)
`,
		"src/helpers/__init__.py": "",
		"src/helpers/builder.py": `
from helpers.images import render

def build(charm):
    return render(charm)
`,
		"src/helpers/images.py": `
def render(charm, image_config):
    return image_config.runner_version
`,
		"app/image_builder/openstack.py": `
from image_builder import config

def run(image_config: config.ImageConfig):
    return image_config.runner_version, image_config.script_url
`,
	})
	expect(t, "runner-version", reads(cl, KindConfig, "runner-version"), "src/helpers/images.py:2/config-read/attr")
	expect(t, "script-url", reads(cl, KindConfig, "script-url"), "")
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

func TestConfigKeyFromDictOfFStrings(t *testing.T) {
	// An option read through a dict whose values are f-strings (kubeflow-dashboard's
	// {location: f"additional-{location}-links" for location in LOCATIONS}) reads, loosely,
	// the options those values fit; a literal dict's entry is read exactly.
	c := charm("demo", ".", "config:extra-menu-links", "config:extra-quick-links", "config:menu-order", "config:unread")
	cl := link1(t, c, files{"src/charm.py": `
import ops

LOCATIONS = ["menu", "quick"]
LINKS = {loc: f"extra-{loc}-links" for loc in LOCATIONS}
ORDER = {"menu": "menu-order"}

class DemoCharm(ops.CharmBase):
    def _links(self):
        for loc in LOCATIONS:
            yield self.model.config[LINKS[loc]]
        return self.config[ORDER["menu"]]
`})
	expect(t, "menu links", reads(cl, KindConfig, "extra-menu-links"), "src/charm.py:10/config-read/index")
	expect(t, "quick links", reads(cl, KindConfig, "extra-quick-links"), "src/charm.py:10/config-read/index")
	expect(t, "order", reads(cl, KindConfig, "menu-order"), "src/charm.py:11/config-read/index")
	expect(t, "unread", reads(cl, KindConfig, "unread"), "")
}

func TestConfigHelper(t *testing.T) {
	// A helper reads config[key] for its callers (vault's JujuFacade.get_string_config): the
	// names the calls pass are reads of those options where the calls are, in returns,
	// arguments and conditions alike, and an undeclared one is a finding there. The helper's
	// read stays a dynamic site while a caller passes a name the linker cannot resolve
	// (_extra), or a use of the helper is not a recorded call; without such a caller, every
	// name it is given is known, and nothing is left unresolved.
	c := charm("demo", ".", "config:cpu-limit", "config:log-level", "config:unread")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/facade.py": jujuFacade,
		"src/charm.py": `
import ops
from facade import JujuFacade

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.juju_facade = JujuFacade(self)

    def _limits(self):
        if self.juju_facade.get_string_config("log-level"):
            pass
        return {"cpu": self.juju_facade.get_string_config("cpu-limit"), "x": self.juju_facade.get_string_config("cpu-limt")}

    def _extra(self):
        return self.juju_facade.get_string_config(self._extra_name())
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "cpu-limit", reads(cl, KindConfig, "cpu-limit"), "src/charm.py:12/config-read/get")
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:10/config-read/get")
	expect(t, "unread", reads(cl, KindConfig, "unread"), "")
	expect(t, "findings", findings(cl), "src/charm.py:12 undeclared-config cpu-limt")
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%s:%d/%s", u.File, u.Line, u.Detail))
	}
	expect(t, "unresolved", strings.Join(un, " "), "src/facade.py:6/self.charm.model.config.get(key)")

	complete := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/facade.py": jujuFacade,
		"src/charm.py": `
import ops
from facade import JujuFacade

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.juju_facade = JujuFacade(self)

    def _limits(self):
        return self.juju_facade.get_string_config("cpu-limit")
`,
	}.parse()})
	if len(complete.Unresolved) != 0 {
		t.Errorf("every caller's name known: unresolved %+v", complete.Unresolved)
	}
}

func TestConfigHelperDefaultsAndTuplePicks(t *testing.T) {
	// A helper's option-name parameter with a default (crt_config="ssl_cert") reads the default
	// for every call that leaves it out, also when another call passes a name: the default is
	// read where the helper reads it, and one the YAML does not declare is a finding there.
	// A call with *args or **kwargs may pass it, so it reads no default. A name picked from a
	// tuple of a literal list by a literal index (for pair in [("broker", "cluster-auth")]:
	// conf = pair[1]) is a loose read of each pick. With every name known, nothing is left
	// unresolved.
	c := charm("demo", ".", "config:ssl_cert", "config:ssl_key", "config:ca", "config:cluster-auth",
		"config:external-auth", "config:unread")
	link := func(extra string) Result {
		return Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
			"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _pem(self, cn=None, crt_config="ssl_cert", key_config="ssl_key", ca_config="ssl_ca"):
        if self.config.get(crt_config) and self.config.get(key_config):
            return self.config[crt_config], self.config.get(ca_config)

    def _listeners(self):
        self._pem("host")
        self._pem("host", crt_config="ssl_key", ca_config="ca")
        for pair in [("broker", "cluster-auth"), ("external", "external-auth")]:
            conf = pair[1]
            if self.config[conf] == "kerberos":
                pass
` + extra,
		}.parse()})
	}
	res := link("")
	cl := res.Charms[0]
	expect(t, "ssl_cert (default)", reads(cl, KindConfig, "ssl_cert"), "src/charm.py:5/config-read/get src/charm.py:6/config-read/index")
	expect(t, "ssl_key (default, and passed)", reads(cl, KindConfig, "ssl_key"), "src/charm.py:10/config-read/get src/charm.py:10/config-read/index src/charm.py:5/config-read/get")
	expect(t, "ca (passed)", reads(cl, KindConfig, "ca"), "src/charm.py:10/config-read/get")
	expect(t, "cluster-auth (tuple pick)", reads(cl, KindConfig, "cluster-auth"), "src/charm.py:13/config-read/index")
	expect(t, "external-auth (tuple pick)", reads(cl, KindConfig, "external-auth"), "src/charm.py:13/config-read/index")
	expect(t, "unread", reads(cl, KindConfig, "unread"), "")
	expect(t, "findings", findings(cl), "src/charm.py:6 undeclared-config ssl_ca (cond)")
	if len(res.Unresolved) != 0 {
		t.Errorf("every name known: unresolved %+v", res.Unresolved)
	}
	splat := link("        self._pem(*self._args())\n")
	if len(splat.Unresolved) == 0 {
		t.Errorf("a call with *args may pass any name: nothing unresolved")
	}
}

func TestConfigHandedToAHelperUnderAnyName(t *testing.T) {
	// The config handed to a module function under any name (k8s's extra_args.craft(self.config,
	// ...), annotated src: ops.ConfigData) and on from there to another (unannotated): both
	// read options, and an undeclared name is a finding; a helper handed a plain dict reads no
	// option.
	c := charm("demo", ".", "config:proxy-args", "config:datastore-args", "config:unread")
	cl := link1(t, c, files{
		"src/extra.py": `
import ops

def _datastore(dest, src):
    dest.ds = src["datastore-args"]

def craft(src: ops.ConfigData, dest):
    dest.proxy = src["proxy-args"]
    dest.typo = src["proxy-arg"]
    _datastore(dest, src)

def unrelated(data):
    return data["unread"]
`,
		"src/charm.py": `
import ops
import extra

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        extra.craft(self.config, self)
        extra.unrelated({"unread": 1})
`,
	})
	expect(t, "proxy-args", reads(cl, KindConfig, "proxy-args"), "src/extra.py:7/config-read/index")
	expect(t, "datastore-args", reads(cl, KindConfig, "datastore-args"), "src/extra.py:4/config-read/index")
	expect(t, "unread", reads(cl, KindConfig, "unread"), "")
	expect(t, "findings", findings(cl), "src/extra.py:8 undeclared-config proxy-arg")
}

func TestNamingFallback(t *testing.T) {
	c := charm("demo", ".", "relation:legacy-db", "relation:used")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.used_relation_joined, self._on_used_relation_changed)

    def _on_legacy_db_relation_changed(self, event): ...
    def _on_used_relation_changed(self, event): ...
    def _on_used_relation_broken(self, event): ...
`})
	expect(t, "legacy", handlers(cl, KindRelation, "legacy-db"), "legacy_db_relation_changed>DemoCharm._on_legacy_db_relation_changed[naming]")
	// an endpoint linked otherwise gets no naming guesses
	expect(t, "used", handlers(cl, KindRelation, "used"), "used_relation_joined>DemoCharm._on_used_relation_changed[observe]")
}

func TestMonorepoSharedCode(t *testing.T) {
	machine := charm("beacon", "machine", "relation:beacon-peers", "config:interval")
	k8s := charm("beacon-k8s", "k8s", "relation:ring", "config:interval", "container:beacon")
	fs := files{
		"common/shared/__init__.py": "",
		"common/shared/peers.py": `
import ops

class PeerState(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)
        charm.config.get("interval")

    def _on_changed(self, event): ...
`,
		"common/unused.py": `
import ops

class Orphan(ops.Object):
    def __init__(self, charm):
        self.framework.observe(charm.on.orphan_relation_changed, self._x)
`,
		"machine/src/charm.py": `
import ops
from shared.peers import PeerState

class BeaconCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.peers = PeerState(self, "beacon-peers")
`,
		"k8s/src/charm.py": `
import ops
from shared import peers

class BeaconK8sCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.peers = peers.PeerState(self, relation_name="ring")
        self.framework.observe(self.on.beacon_pebble_ready, self._on_ready)

    def _on_ready(self, event): ...
`,
		"k8s/tests/unit/test_charm.py": `
class FakeCharm(ops.CharmBase):
    def __init__(self, *args):
        self.framework.observe(self.on.fake_relation_changed, self._x)
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{machine, k8s}, Files: fs.parse()})
	m, k := res.Charms[0], res.Charms[1]
	expect(t, "machine peers", handlers(m, KindRelation, "beacon-peers"), "relation_changed>PeerState._on_changed[helper]")
	expect(t, "machine config", reads(m, KindConfig, "interval"), "common/shared/peers.py:7/config-read/get")
	expect(t, "k8s ring", handlers(k, KindRelation, "ring"), "relation_changed>PeerState._on_changed[helper]")
	expect(t, "k8s config", reads(k, KindConfig, "interval"), "common/shared/peers.py:7/config-read/get")
	expect(t, "k8s container", handlers(k, KindContainer, "beacon"), "beacon_pebble_ready>BeaconK8sCharm._on_ready[observe]")
	expect(t, "findings", findings(m)+findings(k), "")
}

// TestDeterministic: the same input in any file order gives byte-identical output.
func TestDeterministic(t *testing.T) {
	c := charm("demo", ".", "relation:database", "relation:analytics", "relation:cache", "relation:logging", "relation:metrics")
	fs := files{
		"lib/charms/db_lib/v0/database.py": dbLib,
		"src/charm.py": `
import ops
from charms.db_lib.v0.database import DatabaseRequires
from charmlibs.interfaces.service_mesh import ServiceMeshConsumer

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        for name in ("analytics", "cache", "database"):
            self.framework.observe(self.on[name].relation_changed, self._on_change)
        self.db = DatabaseRequires(self)
        self.framework.observe(self.db.on.database_created, self._on_change)
        self.framework.observe(self.on.install, self._nope)

    def _on_change(self, event): ...
`,
	}.parse()
	want, _ := json.Marshal(Link(Input{Charms: []charmyaml.Charm{c}, Files: fs}))
	for i := range 5 {
		r := rand.New(rand.NewPCG(uint64(i), 1))
		shuffled := slices.Clone(fs)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		got, _ := json.Marshal(Link(Input{Charms: []charmyaml.Charm{c}, Files: shuffled}))
		if string(got) != string(want) {
			t.Fatalf("output depends on file order:\n%s\n%s", got, want)
		}
	}
}

// TestHostileInput: deep nesting, cycles, self-referencing names and junk never crash or
// hang the linker.
func TestHostileInput(t *testing.T) {
	c := charm("demo", ".", "relation:db")
	deep := "X = " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) + "\n"
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/a.py": `
from b import B as A, LOOP
import a
LOOP2 = LOOP

class A(A):
    x = A.x
    def __init__(self, charm):
        self.framework.observe(charm.on[LOOP2].relation_changed, self.handle)
        self.framework.observe(charm.on[a.LOOP2].relation_changed, self.handle)
        v = v
        self.framework.observe(charm.on[v].relation_changed, self.handle)
`,
		"src/b.py": `
from a import A as B, LOOP2 as LOOP

class C(B):
    def __init__(self, *args):
        super().__init__(*args)
        C(self)
`,
		"src/walk.py": `
import ops

class Walker(ops.CharmBase):
    def __init__(self, *args):
        self.cur = self.cur.a
        self.cur = self.cur.b
        self.cur = self.cur.c
        self.framework.observe(self.on[self.cur].relation_changed, self.handle)

    def handle(self, event):
        node = event.relation
        node = node.left
        node = node.right
        node = node.up
        node = node.down
        self.model.get_relation(node)
`,
		"src/deep.py":   deep,
		"src/broken.py": "class (:\n  def observe(:\n",
	}.parse()})
	if len(res.Charms) != 1 {
		t.Fatal("no result")
	}
}

func TestFrameworkCharmBase(t *testing.T) {
	// A 12-factor charm subclasses its framework's Charm (paas_charm.flask.Charm, installed
	// from PyPI, not in the tree): it is a charm class, and its observes link.
	c := charm("site", ".", "action:add-admin", "config:site_url")
	cl := link1(t, c, files{"src/charm.py": `
import ops
import paas_charm.flask

class SiteCharm(paas_charm.flask.Charm):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on["add-admin"].action, self._add_admin)

    def _add_admin(self, event):
        event.set_results({"url": self.config.get("site_url")})

if __name__ == "__main__":
    ops.main(SiteCharm)
`})
	expect(t, "add-admin", handlers(cl, KindAction, "add-admin"), "action>SiteCharm._add_admin[on-index]")
	for base, want := range map[string]bool{"ops.CharmBase": true, "TypedCharmBase[Config]": true, "paas_charm.django.Charm": true,
		"Charm": true, "ops.Object": false, "MyCharmHelper": false, "Charmed": false} {
		if got := IsCharmBase(base); got != want {
			t.Errorf("IsCharmBase(%q) = %v", base, got)
		}
	}
}

func TestEndpointMapArgument(t *testing.T) {
	// A library object given a map of roles to endpoint names (cosl's Coordinator, installed
	// from PyPI) binds the declared names it holds; a name the charm does not declare is not
	// reported, since the map may list optional roles. A relation-naming keyword beside the
	// map (peer_relation=) binds its relation too, and so does a subclass that hands the map
	// to the library class in its own super().__init__ (a tempo worker).
	c := charm("coord", ".", "relation:tempo-cluster", "relation:s3", "relation:catalogue", "relation:coord-peers", "relation:direct-peers", "relation:worker-cluster")
	cl := link1(t, c, files{"src/worker.py": `
from coordinated_workers.worker import Worker

class Base(Worker):
    container_name = "app"

    def __init__(self, charm, role):
        super().__init__(charm=charm, name=self.container_name, endpoints={"cluster": f"{role}-cluster"})

class AppWorker(Base):
    def __init__(self, charm):
        super().__init__(charm, "worker")
`, "src/charm.py": `
import ops
from coordinated_workers.coordinator import Coordinator
from worker import AppWorker

CLUSTER = "tempo-cluster"

class Coord(Coordinator):
    pass

class CoordCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.coordinator = Coord(
            charm=self,
            endpoints={"cluster": CLUSTER, "s3": "s3", "send-datasource": None, "tracing": "self-tracing"},
            peer_relation="coord-peers",
        )
        self.direct = Coordinator(charm=self, endpoints={"s3": "s3"}, peer_relation="direct-peers")
        self.worker = AppWorker(self)
`})
	for _, name := range []string{"tempo-cluster", "s3", "coord-peers", "direct-peers", "worker-cluster"} {
		if got := reads(cl, KindRelation, name); !strings.Contains(got, "/library/") {
			t.Errorf("%s: reads %q, want a library binding", name, got)
		}
	}
	if got := reads(cl, KindRelation, "catalogue"); got != "" {
		t.Errorf("catalogue: reads %q, want none", got)
	}
	if f := findings(cl); strings.Contains(f, "self-tracing") {
		t.Errorf("findings:\n%s", f)
	}
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

func TestNoCharmClass(t *testing.T) {
	// A unit test's metadata.yaml beside its helpers declares a charm no code implements.
	c := charm("demo", "tests/unit", "config:port")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"tests/unit/__init__.py":  "",
		"tests/unit/testbase.py":  "import unittest\n\nclass TestBase(unittest.TestCase):\n    def setUp(self):\n        pass\n",
		"tests/unit/test_main.py": "def test_x():\n    pass\n",
	}.parse()})
	if !res.Charms[0].NoCode {
		t.Error("a charm without a charm class: NoCode false")
	}
	real := link1(t, charm("demo", ".", "config:port"), files{"src/charm.py": "import ops\n\nclass DemoCharm(ops.CharmBase):\n    pass\n"})
	if real.NoCode {
		t.Error("a charm with a charm class: NoCode true")
	}
	if res.Charms[0].Classic != "" || real.Classic != "" {
		t.Errorf("Classic %q, %q: neither registers charm-helpers hooks", res.Charms[0].Classic, real.Classic)
	}
	// a classic charm: no class, hook functions of its own; Classic is the first
	classic := link1(t, charm("demo", ".", "relation:db", "config:port"), files{"hooks/demo_hooks.py": `import sys
from charmhelpers.core.hookenv import Hooks, config

hooks = Hooks()


@hooks.hook("db-relation-changed")
def db_changed():
    pass


@hooks.hook("install")
def install():
    pass


@hooks.hook()
def db_relation_departed():
    pass


if __name__ == "__main__":
    hooks.execute(sys.argv)
`})
	if !classic.NoCode || classic.Classic != "hooks/demo_hooks.py:8" {
		t.Errorf("classic charm: NoCode %v, Classic %q, want hooks/demo_hooks.py:8", classic.NoCode, classic.Classic)
	}
	// @hooks.hook() registers the function's own name
	if h := handlers(classic, KindRelation, "db"); !strings.Contains(h, "db_relation_departed") || !strings.Contains(h, "db_changed") {
		t.Errorf("db handlers %q, want db_changed and db_relation_departed", h)
	}
	// a lifecycle hook is a handler of that event
	if h := handlers(classic, KindLifecycle, "install"); h != "install>install[hook]" {
		t.Errorf("install handlers %q, want install>install[hook]", h)
	}
	// a charm whose only hook function handles no relation is classic too
	only := link1(t, charm("demo", ".", "config:port"), files{"hooks/hooks.py": `from charmhelpers.core.hookenv import Hooks

hooks = Hooks()


@hooks.hook("install", "config-changed")
def install():
    pass
`})
	if only.Classic != "hooks/hooks.py:7" {
		t.Errorf("Classic %q, want hooks/hooks.py:7", only.Classic)
	}
	// a charm of one Python script per hook: each script handles its hook, and the charm is
	// classic at its first script; its code that runs hooks no other way is unlinked
	scripts := link1(t, charm("demo", ".", "relation:db", "storage:data", "config:port"), files{
		"hooks/db-relation-changed":   "from charmhelpers.core.hookenv import config\n\nprint(config('port'))\n",
		"hooks/data-storage-attached": "import os\n",
		"hooks/config-changed":        "import os\n",
		"hooks/helpers.py":            "def x():\n    pass\n",
	})
	if scripts.Classic != "hooks/config-changed:1" || scripts.UnlinkedCode != "" {
		t.Errorf("Classic %q, UnlinkedCode %q, want hooks/config-changed:1 and none", scripts.Classic, scripts.UnlinkedCode)
	}
	for kind, want := range map[string]string{
		KindRelation:  "db-relation-changed>hooks/db-relation-changed[hook-script]",
		KindStorage:   "data-storage-attached>hooks/data-storage-attached[hook-script]",
		KindLifecycle: "config-changed>hooks/config-changed[hook-script]",
	} {
		name := map[string]string{KindRelation: "db", KindStorage: "data", KindLifecycle: "config-changed"}[kind]
		expect(t, kind, handlers(scripts, kind, name), want)
	}
	expect(t, "port", reads(scripts, KindConfig, "port"), "hooks/db-relation-changed:3/config-read/")
	dispatch := link1(t, charm("demo", ".", "relation:db"), files{"hooks/hooks.py": "import sys\n\ndef main(hook):\n    if hook == 'install':\n        pass\n"})
	if dispatch.Classic != "" || dispatch.UnlinkedCode != "hooks/hooks.py" {
		t.Errorf("main(hook) dispatch: Classic %q, UnlinkedCode %q, want none and hooks/hooks.py", dispatch.Classic, dispatch.UnlinkedCode)
	}
	// code outside hooks/ only (a library's repository with a placeholder charm): no hooks
	library := link1(t, charm("demo", ".", "relation:db"), files{"src/tool.py": "def run():\n    pass\n"})
	if library.UnlinkedCode != "" {
		t.Errorf("code outside hooks/: UnlinkedCode %q", library.UnlinkedCode)
	}
	// a reactive charm's hooks/ scripts run the reactive dispatcher, whatever their names
	reactive := link1(t, charm("demo", ".", "relation:db"), files{
		"reactive/demo.py":          "from charms.reactive import when\n\n@when('db.available')\ndef configure(db):\n    pass\n",
		"hooks/db-relation-changed": "import sys\nsys.path.append('lib')\n",
	})
	if h := handlers(reactive, KindRelation, "db"); strings.Contains(h, "hook-script") {
		t.Errorf("reactive charm: db handlers %q", h)
	}
	// a name that is no hook (hooks/db-relation-common, a helper) handles nothing
	helper := link1(t, charm("demo", ".", "relation:db"), files{"hooks/db-relation-common": "import os\n", "hooks/install": "import os\n"})
	if h := handlers(helper, KindRelation, "db"); h != "" {
		t.Errorf("hooks/db-relation-common: db handlers %q", h)
	}
}

func TestHookLinks(t *testing.T) {
	// A hook that is a link to a script of the charm's (charm-helpers' layout: hooks/install
	// -> services.py) is that script's: it handles the hook, and the charm is classic at the
	// first such hook. Not when the script registers functions for hooks (each is linked as
	// such), nor when it imports ops, nor a link of another charm's or to a test.
	c := charm("demo", ".", "relation:db", "relation:web", "storage:data")
	link := func(fs files, links map[string]string) CharmLinks {
		t.Helper()
		res := Link(Input{Charms: []charmyaml.Charm{c}, Files: fs.parse(), HookLinks: links})
		return res.Charms[0]
	}
	services := files{"hooks/services.py": "from charmhelpers.core.services import ServiceManager\n\ndef manage():\n    ServiceManager([]).manage()\n"}
	cl := link(services, map[string]string{
		"hooks/db-relation-changed":       "hooks/services.py",
		"hooks/install":                   "hooks/services.py",
		"hooks/data-storage-attached":     "hooks/services.py",
		"hooks/db-relation-common":        "hooks/services.py", // no hook's name
		"other/hooks/web-relation-joined": "hooks/services.py", // another folder's hooks
	})
	expect(t, "db", handlers(cl, KindRelation, "db"), "db-relation-changed>hooks/services.py[hook-script]")
	expect(t, "web", handlers(cl, KindRelation, "web"), "")
	expect(t, "data", handlers(cl, KindStorage, "data"), "data-storage-attached>hooks/services.py[hook-script]")
	expect(t, "install", handlers(cl, KindLifecycle, "install"), "install>hooks/services.py[hook-script]")
	if cl.Classic != "hooks/data-storage-attached:1" || cl.UnlinkedCode != "" {
		t.Errorf("Classic %q, UnlinkedCode %q, want hooks/data-storage-attached:1 and none", cl.Classic, cl.UnlinkedCode)
	}
	// a script registering hook functions: its functions are the handlers
	registered := link(files{"hooks/hooks.py": `from charmhelpers.core.hookenv import Hooks

hooks = Hooks()


@hooks.hook("db-relation-joined")
def db_joined():
    pass
`}, map[string]string{"hooks/db-relation-joined": "hooks/hooks.py", "hooks/db-relation-changed": "hooks/hooks.py"})
	expect(t, "registered", handlers(registered, KindRelation, "db"), "db-relation-joined>db_joined[hook]")
	// an ops charm's hooks linked to its entry point: its observers are the handlers
	opsCharm := link(files{"src/charm.py": "import ops\n\nclass DemoCharm(ops.CharmBase):\n    pass\n"},
		map[string]string{"hooks/install": "src/charm.py", "hooks/db-relation-changed": "src/charm.py"})
	expect(t, "ops", handlers(opsCharm, KindRelation, "db")+handlers(opsCharm, KindLifecycle, "install"), "")
	// a link to a test module is no hook script of the charm's
	test := link(files{"tests/test_hooks.py": "def test_x():\n    pass\n"}, map[string]string{"hooks/db-relation-changed": "tests/test_hooks.py"})
	expect(t, "test", handlers(test, KindRelation, "db"), "")
}

func TestHookRunsAndStorageHooks(t *testing.T) {
	// A function registered for a storage's hook (charms.reactive's
	// @hook('data-storage-attached')) handles the storage; for an undeclared storage's, it never
	// runs (a finding naming the hook). A function registered under the name of a script that
	// a hook's shell script runs (Input.HookRuns: hooks/data-storage-attached ->
	// storage.bootstrap, which runs ./hooks/storage.real) handles that hook: a storage's, a
	// relation's with no other handler, a lifecycle event's. Not for another charm's hooks, nor
	// a hook named with the storage spelt otherwise than the YAML spells it (never run).
	c := charm("demo", ".", "relation:db", "storage:data", "storage:logs", "storage:scratch-space")
	src := `from charmhelpers.core.hookenv import Hooks
from charms.reactive import hook

hooks = Hooks()


@hook("scratch_space-storage-attached")
def scratch_attached():
    pass


@hook("logs-storage-attached")
def logs_attached():
    pass


@hook("cache-storage-detaching")
def cache_gone():
    pass


@hooks.hook("storage.real")
def storage_changed():
    pass


@hooks.hook("db.real")
def db_changed():
    pass


@hooks.hook("setup.real")
def setup():
    pass


@hooks.hook("elsewhere.real")
def elsewhere():
    pass
`
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"hooks/hooks.py": src}.parse(), HookRuns: map[string][]string{
		"hooks/data-storage-attached":  {"install_deps", "storage.real"},
		"hooks/data-storage-detaching": {"storage.real"},
		"hooks/db-relation-changed":    {"db.real"},
		"hooks/install":                {"setup.real"},
		"other/hooks/install":          {"elsewhere.real"},
	}})
	cl := res.Charms[0]
	expect(t, "logs", handlers(cl, KindStorage, "logs"), "logs-storage-attached>logs_attached[hook]")
	expect(t, "data", handlers(cl, KindStorage, "data"), "storage.real>storage_changed[hook]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "db.real>db_changed[hook]")
	expect(t, "install", handlers(cl, KindLifecycle, "install"), "setup.real>setup[hook]")
	expect(t, "scratch-space", handlers(cl, KindStorage, "scratch-space"), "") // Juju's hook is scratch-space-storage-attached
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return f.Registered }),
		"hooks/hooks.py:8 undeclared-storage scratch_space scratch_space-storage-attached\n"+
			"hooks/hooks.py:18 undeclared-storage cache cache-storage-detaching")
}

func TestLookupThroughHelperAtCaller(t *testing.T) {
	// A relation (or binding) a helper of the charm's looks up by a name its callers pass is
	// looked up at each call, as a config option read through a helper is: a misspelt name is
	// reported, and can be silenced, on the caller's line, not on the helper's, which serves
	// every caller.
	c := charm("demo", ".", "relation:redis", "relation:database")
	src := `import ops


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.collect_unit_status, self._on_collect_status)

    def _on_collect_status(self, event):
        if not self.get_relation("redis"):
            event.add_status(ops.BlockedStatus("need redis"))
        if not self.get_relation("databse"):
            event.add_status(ops.BlockedStatus("need database"))
        self.address_of("redis")

    def get_relation(self, name):
        relations = self.model.relations[name]
        return relations[0] if relations else None

    def address_of(self, name):
        return self.model.get_binding(name).network.bind_address
`
	// (a charm library's own methods of the helper's name are not its callers: every call of
	// the helper is recorded, so its lookup leaves no dynamic name)
	lib := `class Requires:
    def get_relation(self, name, relation_id=None):
        return self.charm.model.get_relation(name, relation_id)

    def fetch(self, name):
        return self.get_relation(name) or self.get_relation(name, 0)
`
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": src, "lib/charms/demo_lib/v0/requires.py": lib}.parse()})
	cl := res.Charms[0]
	expect(t, "redis", reads(cl, KindRelation, "redis"), "src/charm.py:10/lookup/ src/charm.py:14/lookup/")
	expect(t, "findings", findings(cl), "src/charm.py:12 undeclared-relation databse")
	for _, u := range res.Unresolved {
		if u.File == "src/charm.py" {
			t.Errorf("unresolved %+v", u)
		}
	}
}

func TestOwnHelperBoundWithUnderscores(t *testing.T) {
	// A helper class of the charm's own given the endpoint spelt with '_' is judged by what it
	// does with the name: ops folds '_' into '-' in on[name], so observing through it is no
	// finding; a lookup as written (get_binding) is one, at its own line. A library's class
	// looks its relation up as written: the construction is the finding.
	c := charm("demo", ".", "relation:relay-rpc-url")
	helper := `import ops


class RpcUrlRequirer(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self._relation_name = relation_name
        self.framework.observe(charm.on[relation_name].relation_changed, self._changed)

    def _changed(self, event):
        pass
`
	use := `import ops
from requirer import RpcUrlRequirer


class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.requirer = RpcUrlRequirer(self, "relay_rpc_url")
`
	cl := link1(t, c, files{"src/requirer.py": helper, "src/charm.py": use})
	expect(t, "observe only", findings(cl), "")
	expect(t, "handler", handlers(cl, KindRelation, "relay-rpc-url"), "relation_changed>RpcUrlRequirer._changed[helper]")
	binding := strings.Replace(helper, "        pass\n", "        self.model.get_binding(self._relation_name)\n", 1)
	cl = link1(t, c, files{"src/requirer.py": binding, "src/charm.py": use})
	expect(t, "lookup as written", findings(cl), "src/requirer.py:11 undeclared-relation relay_rpc_url")
}

func TestPositionalOnlyMarker(t *testing.T) {
	// "/" in a signature ends the positional-only parameters and takes no argument: the
	// endpoint passed second binds integration_name, which a subclass of a class from outside
	// the tree hands on in its super().__init__ (a monorepo's own interface package).
	c := charm("ctl", "charms/ctl", "relation:slurmd")
	cl := link1(t, c, files{
		"internal/iface/src/iface_pkg/__init__.py": `import ops
from hpc_libs.interfaces import Provider


class ReadyEvent(ops.RelationEvent):
    pass


class _Events(ops.ObjectEvents):
    slurmd_ready = ops.EventSource(ReadyEvent)


class SlurmdRequirer(Provider):
    on = _Events()

    def __init__(self, charm, /, integration_name: str) -> None:
        super().__init__(charm, integration_name)
        self.framework.observe(self.charm.on[self._integration_name].relation_created, self._on_created)

    def _on_created(self, event):
        self.on.slurmd_ready.emit(event.relation)
`,
		"charms/ctl/src/charm.py": `import ops
from iface_pkg import SlurmdRequirer

SLURMD = "slurmd"


class CtlCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.slurmd = SlurmdRequirer(self, SLURMD)
        framework.observe(self.slurmd.on.slurmd_ready, self._on_ready)

    def _on_ready(self, event):
        pass
`})
	expect(t, "handlers", handlers(cl, KindRelation, "slurmd"), "slurmd_ready>CtlCharm._on_ready[library]")
	expect(t, "reads", reads(cl, KindRelation, "slurmd"), "charms/ctl/src/charm.py:10/library/SlurmdRequirer")
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

func TestSplatDecoratorFlags(t *testing.T) {
	// @when(*STATES), STATES a module list of flags (literals or constants), waits for each
	// of them; a name that is no such list, **kwargs, or a "*" inside a flag adds nothing.
	c := charm("demo", ".", "relation:db", "relation:amqp", "relation:cache", "relation:web")
	cl := link1(t, c, files{"reactive/demo.py": `from charms import reactive

CACHE = "cache.available"
STATES = [
    "db.available",
    CACHE,
]
OTHER = make_states()


@reactive.when(*STATES)
@reactive.when_not("amqp.available")
def configure(*args):
    pass


@reactive.when(*OTHER, **extra)
def other(*args):
    pass


@reactive.when("x, *STATES, y")
def star():
    pass
`})
	for name, want := range map[string]string{"db": "db.available>configure[reactive-flag]", "cache": "cache.available>configure[reactive-flag]", "amqp": ""} {
		expect(t, name, handlers(cl, KindRelation, name), want)
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
        %s

    def _on_joined(self, event):
        pass
`
	for _, tc := range []struct{ base, extra, want string }{
		{"ops.CharmBase", "", "src/charm.py:13 unknown-event cos_agent_joined"},
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

func TestRequiredRelations(t *testing.T) {
	// A charms.openstack charm class's required_relations list looks each relation up (a
	// constant too); a name the YAML lacks is no finding (the included layers' YAML may
	// declare it).
	c := charm("demo", ".", "relation:identity-admin", "relation:certificates")
	cl := link1(t, c, files{
		"reactive/demo_handlers.py": "import charms.reactive as reactive\n\n@reactive.when('identity-admin.available')\ndef render(*args):\n    pass\n",
		"lib/charm/openstack/demo.py": `import charms_openstack.charm

CERT_RELATION = "certificates"


class DemoCharm(charms_openstack.charm.OpenStackCharm):
    required_relations = ["identity-admin", CERT_RELATION, "shared-db"]
`})
	expect(t, "identity-admin", reads(cl, KindRelation, "identity-admin"), "lib/charm/openstack/demo.py:7/lookup/flag")
	expect(t, "certificates", reads(cl, KindRelation, "certificates"), "lib/charm/openstack/demo.py:7/lookup/flag")
	expect(t, "findings", findings(cl), "")
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

func TestOwnFlagsAreNotRelations(t *testing.T) {
	// A flag the charm sets itself names its own state, however its first word reads; the
	// Endpoint's flags and an interface layer's stay the relation's.
	cl := link1(t, charm("demo", ".", "relation:docker", "relation:db"), files{"reactive/demo.py": `from charms.reactive import when, set_flag, set_state, is_flag_set


@when("endpoint.docker.joined")
def publish():
    set_flag("docker.ready")


@when("docker.ready")
def restart():
    set_state("docker.restart")
    is_flag_set("docker.restart")


@when("db.available")
def configure(db):
    pass
`})
	expect(t, "docker", handlers(cl, KindRelation, "docker"), "endpoint.docker.joined>publish[reactive-flag]")
	expect(t, "docker reads", reads(cl, KindRelation, "docker"), "")
	expect(t, "db", handlers(cl, KindRelation, "db"), "db.available>configure[reactive-flag]")
}

func TestFormattedNames(t *testing.T) {
	// charm-helpers charms spell option names with str.format and %: the loop's values
	// resolve them, and a field nothing resolves fits the options its literal text allows.
	cl := link1(t, charm("demo", ".", "config:os-admin-network", "config:os-public-network", "config:admin-port",
		"config:check-ports", "config:check-routers", "config:other"), files{"hooks/hooks.py": `from charmhelpers.core.hookenv import Hooks, config

hooks = Hooks()


@hooks.hook("config-changed")
def config_changed():
    for addr_type in ("admin", "public"):
        config('os-{}-network'.format(addr_type))
    config("%s-port" % "admin")
    for resource in lookup():
        config("check-{}s".format(resource))
`})
	expect(t, "os-admin-network", reads(cl, KindConfig, "os-admin-network"), "hooks/hooks.py:9/config-read/")
	expect(t, "os-public-network", reads(cl, KindConfig, "os-public-network"), "hooks/hooks.py:9/config-read/")
	expect(t, "admin-port", reads(cl, KindConfig, "admin-port"), "hooks/hooks.py:10/config-read/")
	expect(t, "check-ports", reads(cl, KindConfig, "check-ports"), "hooks/hooks.py:12/config-read/")
	expect(t, "check-routers", reads(cl, KindConfig, "check-routers"), "hooks/hooks.py:12/config-read/")
	expect(t, "other", reads(cl, KindConfig, "other"), "")
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

func TestBaseCharmSeesSubclassAttributes(t *testing.T) {
	// Code of a base charm class runs for the charm that subclasses it: self.pairs is the
	// subclass's class attribute (grafana-agent's mandatory_relation_pairs), even where the
	// base only annotates it.
	c := charm("demo", ".", "relation:cos-agent", "relation:logs")
	cl := link1(t, c, files{
		"src/base.py": `
import ops
class Base(ops.CharmBase):
    pairs: dict  # overridden
    def __init__(self, *args):
        super().__init__(*args)
        for incoming, outgoings in self.pairs.items():
            self.framework.observe(self.on[incoming].relation_joined, self._update)
            for outgoing_set in outgoings:
                for outgoing in outgoing_set:
                    self.framework.observe(self.on[outgoing].relation_broken, self._update)

    def _update(self, event):
        pass
`,
		"src/charm.py": `
from base import Base
class DemoCharm(Base):
    pairs = {"cos-agent": [{"logs"}]}
`,
	})
	expect(t, "cos-agent", handlers(cl, KindRelation, "cos-agent"), "relation_joined>Base._update[on-index]")
	expect(t, "logs", handlers(cl, KindRelation, "logs"), "relation_broken>Base._update[on-index]")
}

func TestKeywordsOfUnreadClassAreAttributes(t *testing.T) {
	// An object of a class the tree does not hold has the attributes its call names by
	// keyword (SimpleNamespace(peer="replicas").peer): declared names link, others are no
	// finding.
	c := charm("demo", ".", "relation:replicas", "relation:alerting")
	cl := link1(t, c, files{"src/charm.py": `
import ops
from types import SimpleNamespace
from charms.alerts.v0.alerts import AlertsProvider

class DemoCharm(ops.CharmBase):
    _relations = SimpleNamespace(alerting="alerting", peer="replicas", other="nowhere")

    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on[self._relations.peer].relation_changed, self._on_peer)
        self.framework.observe(self.on[self._relations.other].relation_changed, self._on_peer)
        self.alerts = AlertsProvider(self, relation_name=self._relations.alerting)

    def _on_peer(self, event):
        pass
`})
	expect(t, "replicas", handlers(cl, KindRelation, "replicas"), "relation_changed>DemoCharm._on_peer[on-index]")
	expect(t, "alerting", reads(cl, KindRelation, "alerting"), "src/charm.py:12/library/AlertsProvider")
	expect(t, "findings", findings(cl), "")
}

func TestAlternatives(t *testing.T) {
	// `a or b` and `a if c else b` are one of a and b (loose); a local that names itself
	// (names = names or DEFAULTS) reads the parameter there.
	c := charm("demo", ".", "relation:nrpe", "relation:monitors", "relation:db", "relation:replicas")
	cl := link1(t, c, files{
		"src/nrpe.py": `
import ops

DEFAULT_NAMES = {"nrpe": "nrpe_external_master", "monitors": "monitors"}

class NrpeProvider(ops.Object):
    def __init__(self, charm, relation_names=None):
        relation_names = relation_names or DEFAULT_NAMES
        super().__init__(charm, "nrpe")
        for relation_name in relation_names.keys():
            events = charm.on[relation_name]
            self.framework.observe(events.relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass
`,
		"src/charm.py": `
import os
import ops
from nrpe import NrpeProvider

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.nrpe = NrpeProvider(self)
        self.framework.observe(self.on["db" if os.environ.get("DB") else "database"].relation_joined, self._on_db)
        peer = os.environ.get("PEER") or "replicas"
        self.model.get_relation(peer)

    def _on_db(self, event):
        pass
`,
	})
	expect(t, "nrpe", handlers(cl, KindRelation, "nrpe"), "relation_changed>NrpeProvider._on_changed[helper]")
	expect(t, "monitors", handlers(cl, KindRelation, "monitors"), "relation_changed>NrpeProvider._on_changed[helper]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "relation_joined>DemoCharm._on_db[on-index]")
	expect(t, "replicas", reads(cl, KindRelation, "replicas"), "src/charm.py:11/lookup/")
	expect(t, "findings", findings(cl), "")
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

func TestOwnLibraryDynamicConfigReadIsUnresolved(t *testing.T) {
	// A config read through a table in the charm's own library is the charm's dynamic read
	// (check then softens "no code reads" to an info); the same code in another charm's
	// vendored library is that library's business.
	lib := `
TABLE = {"knn": {"config": "plugin-knn"}}

class Plugins:
    def __init__(self, charm):
        self._charm = charm

    def enabled(self, plugin_data):
        return self._charm.config.get(plugin_data["config"], False)
`
	for _, owner := range []string{"demo", "other"} {
		c := charm("demo", ".", "config:plugin-knn")
		res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
			"lib/charms/" + owner + "/v0/plugins.py": lib,
			"src/charm.py": `
import ops
from charms.` + owner + `.v0.plugins import Plugins

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.plugins = Plugins(self)
`,
		}.parse()})
		var un []string
		for _, u := range res.Unresolved {
			un = append(un, fmt.Sprintf("%s:%d", u.File, u.Line))
		}
		want := ""
		if owner == "demo" {
			want = "lib/charms/demo/v0/plugins.py:8" // the return line (files trims the leading newline)
		}
		if got := strings.Join(un, " "); got != want {
			t.Errorf("%s's library: unresolved %q, want %q", owner, got, want)
		}
	}
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

func TestSubclassPassesRelationNameToBase(t *testing.T) {
	// A handler class whose own __init__ takes no relation name passes one to its base
	// (super().__init__(charm, "radosgw", callback): sunbeam-style relation handlers, whose
	// base, outside the tree, keeps the name as self.relation_name); the object is bound to
	// that relation, and what it observes on charm.on[self.relation_name] handles it.
	c := charm("demo", ".", "relation:ceph", "relation:radosgw")
	cl := link1(t, c, files{
		"src/handlers.py": `
from ops_sunbeam.relation_handlers import RelationHandler

class ClientHandler(RelationHandler):
    def __init__(self, charm, relation_name, callback):
        super().__init__(charm, relation_name, callback)
        self.framework.observe(charm.on[self.relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class RadosGWHandler(ClientHandler):
    def __init__(self, charm, callback):
        super().__init__(charm, "radosgw", callback)
`,
		"src/charm.py": `
import ops
from handlers import ClientHandler, RadosGWHandler

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.ceph = ClientHandler(self, "ceph", self._noop)
        self.rgw = RadosGWHandler(self, self._noop)

    def _noop(self):
        pass
`,
	})
	expect(t, "ceph", reads(cl, KindRelation, "ceph"), "src/charm.py:7/library/ClientHandler")
	expect(t, "radosgw", reads(cl, KindRelation, "radosgw"), "src/charm.py:8/library/RadosGWHandler")
	// the base outside the tree keeps the name as self.relation_name, which the handler
	// class then observes; the method handed over as its callback parameter handles it too
	expect(t, "ceph handlers", handlers(cl, KindRelation, "ceph"), "callback>DemoCharm._noop[library] relation_changed>ClientHandler._on_changed[helper]")
	expect(t, "radosgw handlers", handlers(cl, KindRelation, "radosgw"), "callback>DemoCharm._noop[library] relation_changed>ClientHandler._on_changed[helper]")
	expect(t, "findings", findings(cl), "")
}

func TestPositionalCallbacks(t *testing.T) {
	// A method handed by position to a relation-bound object: a handler when the parameter it
	// binds is named as a callback (ops-sunbeam's callback_f), else a read at the method; of a
	// class from outside the tree, a read naming the argument's position.
	c := charm("demo", ".", "relation:traefik-route", "relation:identity", "relation:amqp")
	cl := link1(t, c, files{
		"src/handlers.py": `import ops


class RelationHandler(ops.Object):
    def __init__(self, charm, relation_name, callback_f, mandatory=False):
        super().__init__(charm, relation_name)


class DataHandler(ops.Object):
    def __init__(self, charm, relation_name, provide, *rest):
        super().__init__(charm, relation_name)
`,
		"src/charm.py": `import ops
from handlers import RelationHandler, DataHandler
from outside.lib import AMQPHandler


class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.route = RelationHandler(self, "traefik-route", self.handle_ready, True)
        self.ident = DataHandler(self, "identity", self.credentials)
        self.amqp = AMQPHandler(self, "amqp", self.configure_charm)

    def handle_ready(self, event):
        pass

    def credentials(self):
        return {}

    def configure_charm(self, event):
        pass
`})
	expect(t, "route", handlers(cl, KindRelation, "traefik-route"), "callback_f>DemoCharm.handle_ready[library]")
	expect(t, "identity", reads(cl, KindRelation, "identity"), "src/charm.py:10/library/DataHandler src/charm.py:16/callback/provide")
	expect(t, "amqp", reads(cl, KindRelation, "amqp"), "src/charm.py:11/library/AMQPHandler src/charm.py:19/callback/argument 3")
}

func TestTypedConfigIndex(t *testing.T) {
	// config["x"] on a typed config (TypedCharmBase: config_type set, self.config a model
	// whose __getitem__ reads the field) cannot raise KeyError: its Detail says so. The same
	// index on self.model.config, the raw ConfigData, stays "index".
	c := charm("typed", ".", "config:log-level", "config:port")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from charms.data_platform_libs.v0.data_models import TypedCharmBase
from structured import CharmConfig

class TypedCharm(TypedCharmBase[CharmConfig]):
    config_type = CharmConfig

    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        level = self.config["log-level"]
        port = self.model.config["port"]
        raw = self.model.config
        port = raw["port"]
        level = self.config["log_level"]
`,
	})
	// (the model's __getitem__ reads the field, "-" as "_": log_level is no finding there)
	expect(t, "findings", findings(cl), "")
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:13/config-read/typed-index src/charm.py:17/config-read/typed-index")
	expect(t, "port", reads(cl, KindConfig, "port"), "src/charm.py:14/config-read/index src/charm.py:16/config-read/index")
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

func TestLoopBindingsAndComprehensions(t *testing.T) {
	// A comprehension's variable does not outlive it; a nested loop that ended does not rebind
	// its outer loop's name for the calls after it; a local keeps the binding it was assigned
	// under.
	c := charm("loops", ".", "relation:a", "relation:b", "relation:c", "relation:peer-certs")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops
from tls import Requires

class LoopsCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.peer = Requires(self, "peer-certs")
        for relation in [self.peer]:
            events = relation.on
        for relation in ["a"]:
            active = [relation for relation in self.model.relations[relation]]
            self.framework.observe(self.on[relation].relation_changed, self._on_changed)
        for name in ["b", "c"]:
            if name:
                for name in ["zzz"]:
                    pass
            self.framework.observe(self.on[name].relation_joined, self._on_changed)
        self.framework.observe(events.certificate_available, self._on_available)

    def _on_changed(self, event):
        pass

    def _on_available(self, event):
        pass
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "a", handlers(cl, KindRelation, "a"), "relation_changed>LoopsCharm._on_changed[on-index]")
	expect(t, "b", handlers(cl, KindRelation, "b"), "relation_joined>LoopsCharm._on_changed[on-index]")
	expect(t, "c", handlers(cl, KindRelation, "c"), "relation_joined>LoopsCharm._on_changed[on-index]")
	expect(t, "peer-certs", handlers(cl, KindRelation, "peer-certs"), "certificate_available>LoopsCharm._on_available[library]")
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

func TestParameterHandedToAHelperMethod(t *testing.T) {
	// An object's __init__ that hands its parameter on to a method of its own
	// (self._hook_refresh(refresh_event)) has the method observe what the builder passed.
	c := charm("refresh", ".", "relation:listing", "container:web")
	cl := link1(t, c, files{
		"src/listing.py": `
import ops

class ListingConsumer(ops.Object):
    def __init__(self, charm, relation_name="listing", refresh_event=None):
        super().__init__(charm, relation_name)
        self._charm = charm
        self._hook_refresh(refresh_event)

    def _hook_refresh(self, refresh_event):
        if not isinstance(refresh_event, list):
            refresh_event = [refresh_event]
        for ev in refresh_event:
            self.framework.observe(ev, self._publish)

    def _publish(self, _):
        pass
`,
		"src/charm.py": `
import ops
from listing import ListingConsumer

class RefreshCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.listing = ListingConsumer(self, refresh_event=[self.on.web_pebble_ready])
`})
	expect(t, "web", handlers(cl, KindContainer, "web"), "web_pebble_ready>ListingConsumer._publish[helper]")
}

func TestParameterFallbacks(t *testing.T) {
	// A parameter rebound only under a condition still holds what the caller passed
	// (refresh = [refresh] when not a list), and a fallback under `if not refresh:` or
	// `if refresh is None:` applies only to an object whose builder passes nothing.
	link := func(bare string) CharmLinks {
		c := charm("fallback", ".", "relation:metrics", "relation:other")
		res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
			"src/scrape.py": `
import ops

class Scrape(ops.Object):
    def __init__(self, charm, refresh=None, extra=None):
        super().__init__(charm, "scrape")
        if not refresh:
            refresh = [charm.on.update_status]
        for event in refresh:
            self.framework.observe(event, self._refresh)
        if extra is None:
            extra = charm.on.leader_elected
        if not isinstance(extra, list):
            extra = [extra]
        for event in extra:
            self.framework.observe(event, self._extra)

    def _refresh(self, event):
        pass

    def _extra(self, event):
        pass
`,
			"src/charm.py": `
import ops
from scrape import Scrape

class FallbackCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.given = Scrape(self, refresh=[self.on.config_changed], extra=self.on.metrics_relation_joined)
        ` + bare,
		}.parse()})
		return res.Charms[0]
	}
	handlers := func(cl CharmLinks, kind, name string) string {
		var out []string
		for _, h := range iface(cl, kind, name).Handlers {
			out = append(out, h.Symbol)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	for _, cl := range []CharmLinks{link(""), link("self.bare = Scrape(self)\n")} {
		expect(t, "config-changed", handlers(cl, KindLifecycle, "config-changed"), "Scrape._refresh")
		expect(t, "metrics", handlers(cl, KindRelation, "metrics"), "Scrape._extra")
	}
	expect(t, "update-status, all given", handlers(link(""), KindLifecycle, "update-status"), "")
	expect(t, "leader-elected, all given", handlers(link(""), KindLifecycle, "leader-elected"), "")
	bare := link("self.bare = Scrape(self)\n")
	expect(t, "update-status, one bare", handlers(bare, KindLifecycle, "update-status"), "Scrape._refresh")
	expect(t, "leader-elected, one bare", handlers(bare, KindLifecycle, "leader-elected"), "Scrape._extra")
}

func TestLibraryEventsSkipPeer(t *testing.T) {
	// An object bound to a relation and to a peer relation (for its own state among the
	// units) emits events about the relation: their observers handle it, not the peers.
	c := charm("remote", ".", "relation:send-remote-write", "relation:replicas")
	c.Relations[1].Role = charmyaml.RolePeers
	cl := link1(t, c, files{
		"lib/charms/remote_write/v0/remote_write.py": `
import ops

LIBID = "y"

class RemoteWriteEvents(ops.ObjectEvents):
    endpoints_changed = ops.EventSource(ops.EventBase)

class RemoteWriteConsumer(ops.Object):
    on = RemoteWriteEvents()

    def __init__(self, charm, relation_name="send-remote-write", peer_relation_name="replicas"):
        super().__init__(charm, relation_name)
        self._peers = peer_relation_name
`,
		"src/charm.py": `
import ops
from charms.remote_write.v0.remote_write import RemoteWriteConsumer

class RemoteCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.remote_write = RemoteWriteConsumer(self, peer_relation_name="replicas")
        self.framework.observe(self.remote_write.on.endpoints_changed, self._on_changed)

    def _on_changed(self, event):
        pass
`,
	})
	expect(t, "send-remote-write", handlers(cl, KindRelation, "send-remote-write"), "endpoints_changed>RemoteCharm._on_changed[library]")
	expect(t, "replicas", handlers(cl, KindRelation, "replicas"), "")
}

func TestLibraryLoopOverModelFields(t *testing.T) {
	// A library object observing the relations named by the fields of the models it is given
	// ({policy.relation for policy in policies}, pydantic Policy(relation="oidc")) handles
	// those relations; a name in such a loop it cannot resolve is not its own endpoint.
	c := charm("meshy", ".", "relation:service-mesh", "relation:oidc", "relation:metrics", "relation:other")
	lib := `
import ops
from pydantic import BaseModel

LIBID = "m"

class Policy(BaseModel):
    relation: str = ""
    endpoints: list = []

class ServiceMeshConsumer(ops.Object):
    def __init__(self, charm, mesh_relation_name="service-mesh", policies=None, names=None):
        super().__init__(charm, mesh_relation_name)
        self._charm = charm
        self._policies = policies or []
        self.framework.observe(self._charm.on[mesh_relation_name].relation_created, self._changed)
        relations = {policy.relation for policy in self._policies}
        for relation in relations:
            self.framework.observe(self._charm.on[relation].relation_broken, self._changed)
        for name in names:
            self.framework.observe(self._charm.on[name].relation_joined, self._changed)

    def _changed(self, event):
        pass
`
	cl := link1(t, c, files{
		"lib/charms/mesh/v0/mesh.py": lib,
		"src/charm.py": `
import ops
from charms.mesh.v0.mesh import Policy, ServiceMeshConsumer

class MeshyCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self._mesh = ServiceMeshConsumer(self, policies=[Policy(relation="oidc"), Policy(relation="metrics", endpoints=[])], names=self.unknown())
`,
	})
	expect(t, "service-mesh", handlers(cl, KindRelation, "service-mesh"), "relation_created>ServiceMeshConsumer._changed[library-inner]")
	expect(t, "oidc", handlers(cl, KindRelation, "oidc"), "relation_broken>ServiceMeshConsumer._changed[library-inner]")
	expect(t, "metrics", handlers(cl, KindRelation, "metrics"), "relation_broken>ServiceMeshConsumer._changed[library-inner]")
	expect(t, "other", handlers(cl, KindRelation, "other"), "")
}

func TestConfigKeyFromFString(t *testing.T) {
	// An f-string key reads, loosely, the options its literal text fits; one with too little
	// literal text (f"{name}") fits anything and stays a dynamic name.
	c := charm("fit", ".", "config:always_enable_zipkin", "config:always-enable-otlp", "config:enable_other", "config:plugin_knn_enable")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops

class FitCharm(ops.CharmBase):
    def receivers(self, names):
        return [r for r in names if self.config.get(f"always_enable_{r}")]

    def plugins(self, ext, key):
        return self.config[f"plugin_{ext}_enable"] and self.config[f"{key}"]
`,
	}.parse()})
	cl := res.Charms[0]
	for name, want := range map[string]string{
		"always_enable_zipkin": "src/charm.py:5/config-read/get loose", "always-enable-otlp": "src/charm.py:5/config-read/get loose",
		"enable_other": "", "plugin_knn_enable": "src/charm.py:8/config-read/index loose",
	} {
		var got []string
		for _, r := range iface(cl, KindConfig, name).Reads {
			s := fmt.Sprintf("%s:%d/%s/%s", r.File, r.Line, r.Via, r.Detail)
			if r.Loose {
				s += " loose"
			}
			got = append(got, s)
		}
		expect(t, name, strings.Join(got, " "), want)
	}
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, u.Detail)
	}
	expect(t, "unresolved", strings.Join(un, " "), `self.config[f"{key}"]`)
}

func TestDelegates(t *testing.T) {
	// An object of a package from outside the tree, built with the charm, may read any option:
	// options nothing else reads get a "delegate" read at its construction. Not an interface
	// library's object (given a relation's name), and not from a package named after what it
	// handles (charm_refresh).
	build := func(code string) CharmLinks {
		c := charm("deleg", ".", "config:role-all", "config:log-level", "config:pause-after-unit-refresh", "relation:logging", "action:status-detail")
		return link1(t, c, files{"src/charm.py": `
import ops
from workers.worker import Worker
from tracing_lib import Tracing
from charm_refresh import Refresh
from charmlibs.interfaces.otlp import OtlpConsumer

class DelegCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        level = self.config["log-level"]
` + code})
	}
	reads := func(cl CharmLinks, name string) string {
		var out []string
		for _, r := range iface(cl, KindConfig, name).Reads {
			out = append(out, fmt.Sprintf("%d/%s/%s", r.Line, r.Via, r.Detail))
		}
		return strings.Join(out, " ")
	}
	cl := build(`        self.tracing = Tracing(self, tracing_relation_name="logging")
        self.refresh = Refresh(self)
        self.worker = Worker(charm=self, readiness_check_endpoint="/ready")
`)
	expect(t, "role-all", reads(cl, "role-all"), "13/delegate/workers.worker")
	expect(t, "log-level", reads(cl, "log-level"), "10/config-read/index")
	expect(t, "pause-after-unit-refresh", reads(cl, "pause-after-unit-refresh"), "4/package/charm_refresh")
	// an action nothing observes may be the object's too
	if got := iface(cl, KindAction, "status-detail").Reads; len(got) != 1 || got[0].Via != ViaDelegate || got[0].Line != 13 {
		t.Errorf("status-detail reads %+v", got)
	}
	// an interface library published on PyPI, given the charm, serves its relation: no delegate
	cl = build(`        self.otlp = OtlpConsumer(self)
`)
	expect(t, "role-all, interface library", reads(cl, "role-all"), "")
	cl = build(`        self.tracing = Tracing(self, "logging")
        self.refresh = Refresh(self)
        self.worker = Worker(name="mimir")
`)
	expect(t, "role-all, no delegate", reads(cl, "role-all"), "")
	// a charms.* package that is no charm library (no v<N> in its path) and not in the tree is
	// a pip package too (charms.node_base reads "labels"); a charm library the tree lacks (it
	// is fetched when the charm builds) is not one
	c0 := charm("deleg", ".", "config:labels")
	for imp, want := range map[string]string{
		"from charms.node_base import LabelMaker":           "7/delegate/charms.node_base",
		"from charms.node_base.v0.labels import LabelMaker": "",
		"from charms.reactive.helpers import LabelMaker":    "",
		"from charms import LabelMaker":                     "", // the bare namespace says nothing of the package
	} {
		cl = link1(t, c0, files{"src/charm.py": `
import ops
` + imp + `

class DelegCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.labels = LabelMaker(self)
`})
		expect(t, imp, reads(cl, "labels"), want)
	}
	// a class of the tree derived from such a package's
	cl = build(`        self.worker = MyWorker(self)

class MyWorker(Worker):
    pass
`)
	expect(t, "role-all, subclass", reads(cl, "role-all"), "11/delegate/workers.worker")
	// an object given a declared resource's name fetches that resource: no delegate
	c := charm("deleg", ".", "config:role-all", "resource:image", "action:add-user")
	cl = link1(t, c, files{"src/charm.py": `
import ops
from oci_image import OCIImageResource

class DelegCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.image = OCIImageResource(self, "image")
`})
	expect(t, "role-all, resource object", reads(cl, "role-all"), "")
	if got := iface(cl, KindAction, "add-user").Reads; len(got) != 0 {
		t.Errorf("add-user reads %+v", got)
	}
	// an object given only the charm's peer relation keeps state among its units: it is the
	// charm's machinery, and may read options
	c = charm("deleg", ".", "config:cpu-limit", "relation:peers")
	c.Relations[0].Role = charmyaml.RolePeers
	for _, call := range []string{`Coordinator(charm=self, peer_relation="peers")`, `Coordinator(self, "peers")`,
		`Coordinator(self, relation_name="peers")`} {
		cl = link1(t, c, files{"src/charm.py": `
import ops
from workers.coordinator import Coordinator

class DelegCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.coordinator = ` + call + `
`})
		expect(t, "cpu-limit, "+call, reads(cl, "cpu-limit"), "7/delegate/workers.coordinator")
	}
}

func TestResourceNameHandedToPackage(t *testing.T) {
	// A declared resource's name handed to an object of an outside package is a read of the
	// resource there; another string is nothing.
	c := charm("res", ".", "resource:csi-image", "resource:other-image")
	cl := link1(t, c, files{"src/charm.py": `
import ops
from pathlib import Path
from oci_image import OCIImageResource

IMAGE = "csi-image"

class ResCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.image = OCIImageResource(self, IMAGE)
        self.label = OCIImageResource(self, "not-a-resource")
        self.local = Path("other-image")
`})
	expect(t, "csi-image", reads(cl, KindResource, "csi-image"), "src/charm.py:10/library/OCIImageResource")
	expect(t, "other-image", reads(cl, KindResource, "other-image"), "")

	// fetching a resource the YAML does not declare is a finding of its own kind
	cl = link1(t, c, files{"src/charm.py": `
import ops

class ResCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        path = self.model.resources.fetch("settings")
`})
	if len(cl.Findings) != 1 || cl.Findings[0].Kind != FindUndeclaredResource || cl.Findings[0].Subject != "settings" {
		t.Errorf("findings %+v", cl.Findings)
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

func TestTwelveFactorExtension(t *testing.T) {
	// In a 12-factor charm the framework handles its integrations, options, container and
	// image; an interface it does not wire keeps no extension.
	c := charm("app", ".", "relation:db", "relation:peers-x", "config:port", "container:flask-app", "resource:flask-app-image")
	c.Extensions = []string{"flask-framework"}
	c.Relations[0].Interface = "postgresql_client"
	c.Relations[1].Interface = "custom"
	cl := link1(t, c, files{"src/charm.py": `
import paas_charm.flask

class AppCharm(paas_charm.flask.Charm):
    pass
`})
	for kind, names := range map[string][]string{KindRelation: {"db"}, KindConfig: {"port"}, KindContainer: {"flask-app"}, KindResource: {"flask-app-image"}} {
		for _, n := range names {
			expect(t, n, iface(cl, kind, n).Extension, "flask-framework")
		}
	}
	expect(t, "peers-x", iface(cl, KindRelation, "peers-x").Extension, "")
}

func TestHelperFallbackWithMixedCallers(t *testing.T) {
	// A helper's fallback runs for the callers that pass nothing, whatever the others pass.
	c := charm("mixed", ".", "config:port", "config:log-level")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class MixedCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config)

    def _on_config(self, event):
        self._get_config_value("port")
        self._get_config_value()

    def _get_config_value(self, key=None):
        if key is None:
            key = "log-level"
        return self.config[key]
`})
	for _, name := range []string{"port", "log-level"} {
		if len(iface(cl, KindConfig, name).Reads) == 0 {
			t.Errorf("%s: not read", name)
		}
	}
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

func TestManyInstancesOfOneClass(t *testing.T) {
	// A module of option objects (k8s-operator's literals.py builds 28 StrOptions) is read
	// through one method: every object counts, not only the first few.
	c := charm("demo", ".", "config:opt-0", "config:opt-1", "config:opt-2", "config:opt-3", "config:opt-4", "config:opt-5", "config:opt-6", "config:opt-7", "config:opt-8", "config:opt-9", "config:opt-10", "config:opt-11", "config:opt-12", "config:opt-13", "config:opt-14", "config:opt-15", "config:opt-16", "config:opt-17", "config:opt-18", "config:opt-19", "config:opt-20", "config:opt-21", "config:opt-22", "config:opt-23")
	cl := link1(t, c, files{
		"src/option.py": `
class StrOption:
    def __init__(self, name):
        self.name = name

    def get(self, charm):
        return charm.config[self.name]
`,
		"src/literals.py": `
from option import StrOption

OPT_0 = StrOption("opt-0")
OPT_1 = StrOption("opt-1")
OPT_2 = StrOption("opt-2")
OPT_3 = StrOption("opt-3")
OPT_4 = StrOption("opt-4")
OPT_5 = StrOption("opt-5")
OPT_6 = StrOption("opt-6")
OPT_7 = StrOption("opt-7")
OPT_8 = StrOption("opt-8")
OPT_9 = StrOption("opt-9")
OPT_10 = StrOption("opt-10")
OPT_11 = StrOption("opt-11")
OPT_12 = StrOption("opt-12")
OPT_13 = StrOption("opt-13")
OPT_14 = StrOption("opt-14")
OPT_15 = StrOption("opt-15")
OPT_16 = StrOption("opt-16")
OPT_17 = StrOption("opt-17")
OPT_18 = StrOption("opt-18")
OPT_19 = StrOption("opt-19")
OPT_20 = StrOption("opt-20")
OPT_21 = StrOption("opt-21")
OPT_22 = StrOption("opt-22")
OPT_23 = StrOption("opt-23")
`,
	})
	for i := range 24 {
		name := fmt.Sprintf("opt-%d", i)
		if reads(cl, KindConfig, name) != "src/option.py:6/config-read/index" {
			t.Errorf("%s: reads %q", name, reads(cl, KindConfig, name))
		}
	}
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
	// on; a method called, referenced, observed, named by a string (getattr), decorated, a
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

    @property
    def level(self):
        return self.config["levle"]

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
		"public-host not-called=true|strnig not-called=false|usde not-called=false"
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

func TestSrcWithInitIsStillAnImportRoot(t *testing.T) {
	// Juju runs src/charm.py as a script, so src/ is on sys.path even when it holds an
	// __init__.py (gateway-api-integrator): `from state.names import ROUTE` is src/state/names.py.
	// A folder inside a package is still no root: `from names import OTHER` does not reach
	// src/state/names.py.
	c := charm("demo", "demo", "relation:route", "relation:other")
	cl := link1(t, c, files{
		"demo/src/__init__.py":       "",
		"demo/src/state/__init__.py": "",
		"demo/src/state/names.py":    "ROUTE = \"route\"\nOTHER = \"other\"\n",
		"demo/src/charm.py": `
import ops
from state.names import ROUTE
from names import OTHER

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on[ROUTE].relation_changed, self._on_route)
        framework.observe(self.on[OTHER].relation_changed, self._on_other)

    def _on_route(self, event):
        pass

    def _on_other(self, event):
        pass
`,
	})
	expect(t, "route", handlers(cl, KindRelation, "route"), "relation_changed>DemoCharm._on_route[on-index]")
	expect(t, "other", handlers(cl, KindRelation, "other"), "")
}

func TestConfigReadsTheLinkerCannotTrace(t *testing.T) {
	// A declared option's literal name read on an object named like a config that the linker
	// cannot trace to the charm's config (set in a base class of another package), and the
	// subscripts of a config wrapper class with __getitem__ (hydra's CharmConfig), are reads:
	// loose ones, which never make a finding; guessed from the object's name alone, only
	// spelt as the YAML spells it (a table's row under such a name, "log_level", is not
	// option log-level's). The wrapper's own __getitem__(key) is not an unresolved name (its
	// callers are the subscripts); a subscript whose name is not known is.
	c := charm("demo", ".", "config:retention", "config:knn", "config:jwt", "config:log-level", "config:unused")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops
from outside import Coordinator
from configs import CharmConfig

KEYS = ["log-level"]

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.charm_config = CharmConfig(self.config)

    def _render(self, coordinator: Coordinator, name):
        days = coordinator._charm.config["retention"]
        knn = self._extra_config["knn"]
        missing = self._extra_config["not-declared"]
        level = self._snap_config.get("log_level")
        levels = [self.charm_config[k] for k in KEYS]
        return days, knn, self.charm_config["jwt"], self.charm_config[name]
`,
		"src/configs.py": `
class CharmConfig:
    def __init__(self, config):
        self._config = config

    def __getitem__(self, key):
        return self._config.get(key)
`,
	}.parse()})
	cl := res.Charms[0]
	for _, o := range []string{"retention", "knn", "jwt", "log-level"} {
		if reads(cl, KindConfig, o) == "" {
			t.Errorf("%s: no read", o)
		}
	}
	expect(t, "unused", reads(cl, KindConfig, "unused"), "")
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:17/config-read/index") // KEYS, not _snap_config
	expect(t, "findings", findings(cl), "")
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%s:%d/%s", u.File, u.Line, u.Detail))
	}
	expect(t, "unresolved", strings.Join(un, " "), "src/charm.py:18/self.charm_config[name]")
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

func TestLooseConfigReadsStayNarrow(t *testing.T) {
	// The loose reads above are for objects the linker cannot trace: a dict the charm builds
	// (pebble_config), a mapping class that reads no config (Registry) or a vendored library's
	// relation_config is no read of the option, and a
	// wrapper no recorded subscript uses (self.settings["port"]: pyextract records subscripts
	// only on config-like names) keeps its __getitem__ unresolved, so that options read by
	// nothing stay infos.
	c := charm("demo", ".", "config:port", "config:mode")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/charm.py": `
import ops
from settings import Settings

class DemoCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.settings = Settings(self.config)

    def _layer(self):
        pebble_config = {"port": 8080}
        self.cache_config = Registry()
        return pebble_config["port"], self.settings["mode"], self.cache_config["port"]

class Registry:
    def __init__(self):
        self._items = {}

    def __getitem__(self, key):
        return self._items[key]
`,
		"src/settings.py": `
class Settings:
    def __init__(self, config):
        self._config = config

    def __getitem__(self, key):
        return self._config.get(key)
`,
		"lib/charms/other/v0/thing.py": `
def render(relation_config):
    return relation_config["port"]
`,
		"hooks/classic.py": `
from charmhelpers.core import hookenv

def mode():
    config = hookenv.config()
    return config["mode"]
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "port", reads(cl, KindConfig, "port"), "")
	// a bare name that says whose config it is (a classic charm's hookenv.config()) still reads
	expect(t, "mode", reads(cl, KindConfig, "mode"), "hooks/classic.py:5/config-read/index")
	var un []string
	for _, u := range res.Unresolved {
		un = append(un, fmt.Sprintf("%s:%d/%s", u.File, u.Line, u.Detail))
	}
	expect(t, "unresolved", strings.Join(un, " "), "src/settings.py:6/self._config.get(key)")
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

func TestStorageMountPaths(t *testing.T) {
	// A string constant naming where a storage is mounted (its location, or a container's
	// mount of it), or a path under it, module-level or in a class body, is where code
	// reaches the storage, and so is such a path written out in a function (once per
	// function); a longer name sharing only a prefix, a path under another storage, a
	// library's constant or path and a mount at "/" are not.
	c := charm("demo", ".", "storage:config", "storage:certs", "storage:root", "container:app")
	c.Storage[0].Location = "/sdcore/config/"
	c.Containers[0].Mounts = []string{"certs:/sdcore/certs", "root:/"}
	cl := link1(t, c, files{
		"src/charm.py": `
CONFIG_DIR = "/sdcore/config"
CONFIG_FILE = "/sdcore/config/nssf.yaml"
CONFIG_BACKUP = "/sdcore/config-backup"
ETC = "/etc/app"

class Workload:
    _certs = "/sdcore/certs/tls.pem"
    port = 8080

    def command(self):
        return ["server", "/sdcore/certs", "--config", "/sdcore/config/x.yaml", "/", "/sdcore/certs"]
`,
		"lib/charms/other/v0/paths.py": `
LIB_DIR = "/sdcore/config/lib"

def lib_path():
    return "/sdcore/certs"
`,
	})
	expect(t, "config", reads(cl, KindStorage, "config"), "src/charm.py:1/mount-path/ src/charm.py:11/mount-path/ src/charm.py:2/mount-path/")
	expect(t, "certs", reads(cl, KindStorage, "certs"), "src/charm.py:11/mount-path/ src/charm.py:7/mount-path/")
	expect(t, "root", reads(cl, KindStorage, "root"), "")
	for _, r := range iface(cl, KindStorage, "certs").Reads {
		if r.Line == 11 && r.Symbol != "Workload.command" {
			t.Errorf("the path in a function is read there, by Workload.command: %+v", r)
		}
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

func TestContainerHandedToAPackage(t *testing.T) {
	// A container's name handed as a container keyword to an object of a package outside the
	// tree, or of a tree class derived from one, is where that object manages it; a service
	// name equal to the container's, and a tree class of its own, are not.
	c := charm("demo", ".", "container:workload", "container:nginx", "container:sidecar")
	cl := link1(t, c, files{
		"src/components.py": `
from chisme.components import PebbleServiceComponent

class WorkloadService(PebbleServiceComponent):
    pass

class OwnThing:
    def __init__(self, container_name):
        self.name = container_name
`,
		"src/charm.py": `
import ops
from coordinated_workers.worker import Worker
from components import WorkloadService, OwnThing

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.worker = Worker(charm=self, workload_container_name="workload", service_name="nginx")
        self.service = WorkloadService(charm=self, container_name="workload")
        self.own = OwnThing(container_name="sidecar")
`,
	})
	expect(t, "workload", reads(cl, KindContainer, "workload"), "src/charm.py:8/library/Worker src/charm.py:9/library/WorkloadService")
	expect(t, "nginx", reads(cl, KindContainer, "nginx"), "")
	expect(t, "sidecar", reads(cl, KindContainer, "sidecar"), "")
}

func TestCallbacksOfRelationBoundObjects(t *testing.T) {
	// A method of the charm handed to a library object bound to a relation, under a keyword
	// that calls it a callback, is called by the library on that relation's events: a handler
	// of it (event: the keyword). A property's value, a plain attribute and an object bound
	// to no relation give none.
	c := charm("demo", ".", "relation:restart", "relation:db")
	cl := link1(t, c, files{
		"lib/charms/rolling_ops/v0/rollingops.py": `
import ops

class RollingOpsManager(ops.Object):
    def __init__(self, charm, relation, callback, delay=None):
        super().__init__(charm, "restart")
        self.name = relation
        self.charm = charm
        self.callback = callback
        charm.framework.observe(charm.on[self.name].relation_changed, self._on_relation_changed)

    def _on_relation_changed(self, event): ...
`,
		"src/charm.py": `
import ops
from charms.rolling_ops.v0.rollingops import RollingOpsManager

class Timer:
    def __init__(self, on_tick):
        self.on_tick = on_tick

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.restart = RollingOpsManager(self, relation="restart", callback=self._restart, delay=self._delay)
        self.timer = Timer(on_tick=self._tick)
        self.db = RollingOpsManager(self, relation="db", callback=None, scrape_configs=self._scrape, on_ready=self._ready)

    def _restart(self, event): ...
    def _tick(self): ...
    def _scrape(self): ...
    def _ready(self, event): ...

    @property
    def _delay(self):
        return 5
`,
	})
	expect(t, "restart", handlers(cl, KindRelation, "restart"),
		"callback>DemoCharm._restart[library] relation_changed>RollingOpsManager._on_relation_changed[library-inner]")
	// a method handed over under a keyword that does not call it a callback supplies data:
	// a read at the method, not a handler of an event named after the keyword
	expect(t, "db", handlers(cl, KindRelation, "db"),
		"on_ready>DemoCharm._ready[library] relation_changed>RollingOpsManager._on_relation_changed[library-inner]")
	expect(t, "db reads", reads(cl, KindRelation, "db"), "src/charm.py:13/library/RollingOpsManager src/charm.py:17/callback/scrape_configs")
}

func TestMetaNameAndMetaConfig(t *testing.T) {
	// self.meta.name is the YAML's name (a container named after the charm); a loop over
	// self.meta.config runs over every declared option, each read loosely.
	c := charm("gizmo", ".", "container:gizmo", "config:colour", "config:size")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class GizmoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on[self.meta.name].pebble_ready, self._on_ready)

    def _on_ready(self, _):
        env = {}
        for name in self.meta.config:
            env[name] = self.config.get(name)
        self.unit.get_container(self.meta.name).replan()
`})
	expect(t, "gizmo", handlers(cl, KindContainer, "gizmo"), "pebble_ready>GizmoCharm._on_ready[on-index]")
	expect(t, "gizmo reads", reads(cl, KindContainer, "gizmo"), "src/charm.py:12/lookup/")
	expect(t, "colour", reads(cl, KindConfig, "colour"), "src/charm.py:11/config-read/get")
	expect(t, "size", reads(cl, KindConfig, "size"), "src/charm.py:11/config-read/get")
	expect(t, "findings", findings(cl), "")
}

func TestLibraryCharmClass(t *testing.T) {
	// A charm class a library publishes for other charms observes nothing for this charm
	// unless the charm's class derives from it; a vendored base class's dynamic reads are the
	// charm's unresolved sites (they may read any option).
	c := charm("hub", ".", "relation:spoke", "config:colour")
	lib := libHeader + `
class SpokeCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on["spoke"].relation_changed, self._publish)

    def _publish(self, event):
        for key in self._options():
            self.config.get(key)
`
	plain := link1(t, c, files{"lib/charms/hub/v0/spoke.py": lib, "src/charm.py": `
import ops

class HubCharm(ops.CharmBase):
    pass
`})
	expect(t, "unused library charm", handlers(plain, KindRelation, "spoke"), "")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"lib/charms/spokes/v0/spoke.py": lib, "src/charm.py": `
import ops
from charms.spokes.v0.spoke import SpokeCharm

class HubCharm(SpokeCharm):
    pass
`}.parse()})
	expect(t, "derived", handlers(res.Charms[0], KindRelation, "spoke"), "relation_changed>SpokeCharm._publish[library-inner]")
	if len(res.Unresolved) != 1 || res.Unresolved[0].File != "lib/charms/spokes/v0/spoke.py" {
		t.Errorf("unresolved: %+v", res.Unresolved)
	}
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

func TestOverrideOfLibraryOwnEventHandler(t *testing.T) {
	// A library object observing its own event with a method the charm's subclass overrides
	// (DataUpgrade's upgrade_granted): the override handles the object's relation. The
	// library's own method does not.
	c := charm("demo", ".", "relation:upgrade")
	lib := libHeader + `
class GrantedEvent(ops.EventBase):
    pass

class UpgradeEvents(ops.ObjectEvents):
    upgrade_granted = ops.EventSource(GrantedEvent)

class Upgrade(ops.Object):
    on = UpgradeEvents()

    def __init__(self, charm, relation_name="upgrade"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)
        self.framework.observe(self.on.upgrade_granted, self._on_upgrade_granted)

    def _on_changed(self, event):
        self.on.upgrade_granted.emit()

    def _on_upgrade_granted(self, event):
        raise NotImplementedError
`
	charm := func(override string) string {
		return `
import ops
from charms.acme.v0.upgrade import Upgrade

class DemoUpgrade(Upgrade):
` + override + `

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.upgrade = DemoUpgrade(self)
`
	}
	cl := link1(t, c, files{"lib/charms/acme/v0/upgrade.py": lib, "src/charm.py": charm("    def _on_upgrade_granted(self, event):\n        pass")})
	expect(t, "override", handlers(cl, KindRelation, "upgrade"),
		"relation_changed>Upgrade._on_changed[library-inner] upgrade_granted>DemoUpgrade._on_upgrade_granted[library-inner]")
	cl = link1(t, c, files{"lib/charms/acme/v0/upgrade.py": lib, "src/charm.py": charm("    pass")})
	expect(t, "no override", handlers(cl, KindRelation, "upgrade"), "relation_changed>Upgrade._on_changed[library-inner]")
}

func TestPrivateClassesAndLibraryFunctions(t *testing.T) {
	// A private class (_Provider) is a class: its objects bind and observe. A charm library's
	// function runs only when some code names it (provide_route in a charm that only requires).
	// A library parameter naming a relation that the constructor uses only under a condition
	// (the peer fallback for Juju without secrets) is a conditional finding.
	c := charm("demo", ".", "relation:route")
	lib := libHeader + `
class _Requirer(ops.Object):
    def __init__(self, charm, relation_name="route"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class _Provider(ops.Object):
    def __init__(self, charm, relation_name="route"):
        super().__init__(charm, relation_name)
        self.framework.observe(charm.on[relation_name].relation_joined, self._on_joined)

    def _on_joined(self, event):
        pass

class _PeerStore:
    def __init__(self, charm, relation_name):
        self.rel = charm.model.get_relation(relation_name)

def require_route(charm):
    return _Requirer(charm)

def provide_route(charm):
    return _Provider(charm)

class Secrets(ops.Object):
    def __init__(self, charm, peer_relation_name="peers"):
        super().__init__(charm, "secrets")
        if not ops.JujuVersion.from_environ().has_secrets:
            self.store = _PeerStore(charm, relation_name=peer_relation_name)
`
	cl := link1(t, c, files{"lib/charms/routes/v0/route.py": lib, "src/charm.py": `
import ops
from charms.routes.v0.route import require_route, Secrets

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        require_route(self)
        self.secrets = Secrets(self)
`})
	expect(t, "route", handlers(cl, KindRelation, "route"), "relation_changed>_Requirer._on_changed[library-inner]")
	expect(t, "findings", findings(cl), "src/charm.py:8 undeclared-relation peers (cond)")
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

func TestConfigGetAlias(t *testing.T) {
	// config = self.model.config.get, then config("name"): reads of the config, a misspelt
	// name a finding.
	c := charm("demo", ".", "config:pool-name", "config:pool-weight")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _configure(self):
        config = self.model.config.get
        name = config("pool-name") or self.app.name
        return name, config("pool-wieght")
`})
	expect(t, "pool-name", reads(cl, KindConfig, "pool-name"), "src/charm.py:6/config-read/get")
	expect(t, "findings", findings(cl), "src/charm.py:7 undeclared-config pool-wieght")
}

func TestConfigUsedAsAStore(t *testing.T) {
	// charm-helpers' config() is a dict saved between hooks: a classic charm keeps state of
	// its own in it. A key it stores is no option (reading it back is no finding); a key it
	// stores under a name the linker cannot tell makes every undeclared read doubtful; a
	// misspelt option in a charm that stores only named keys is still a finding.
	c := charm("demo", ".", "relation:db", "config:port")
	src := `import sys
from charmhelpers.core.hookenv import Hooks, config, relation_get

hooks = Hooks()
config = config()


@hooks.hook("db-relation-changed")
def db_changed():
    config["db_host"] = relation_get("host")
    config.save()


@hooks.hook("config-changed")
def config_changed():
    port = config.get("prot")
    if config.get("db_host"):
        return config["db_host"], port
`
	cl := link1(t, c, files{"hooks/demo_hooks.py": src})
	expect(t, "findings", findings(cl), "hooks/demo_hooks.py:16 undeclared-config prot")
	if cl.Findings[0].Doubt != "" {
		t.Errorf("doubt %q on a read in a charm that stores only named keys", cl.Findings[0].Doubt)
	}
	helper := src + `

def _keep(key, data):
    config[key] = data
`
	cl = link1(t, c, files{"hooks/demo_hooks.py": helper})
	expect(t, "findings", findings(cl), "hooks/demo_hooks.py:16 undeclared-config prot")
	expect(t, "doubt", cl.Findings[0].Doubt, "its code stores keys of its own into the config at hooks/demo_hooks.py:22, and this may be one")
}

func TestOpenStackConfigAdapter(t *testing.T) {
	// charms.openstack and ops_openstack give the charm its options as attributes of an
	// adapter, '-' read as '_': self.options.max_connections reads max-connections. Without
	// such a framework, an attribute of something named options is no option read.
	c := charm("demo", ".", "config:max-connections", "config:debug")
	src := `import charms_openstack.charm


class DemoCharm(charms_openstack.charm.OpenStackCharm):
    def limits(self):
        return self.options.max_connections
`
	cl := link1(t, c, files{"src/lib/charm/openstack/demo.py": src})
	expect(t, "max-connections", reads(cl, KindConfig, "max-connections"), "src/lib/charm/openstack/demo.py:6/config-read/attr")
	plain := link1(t, c, files{"src/charm.py": strings.Replace(src, "import charms_openstack.charm", "import argparse", 1)})
	expect(t, "max-connections without the framework", reads(plain, KindConfig, "max-connections"), "")
}

func TestConfigGivenToATemplate(t *testing.T) {
	// The whole config given to a template's render reads every option, loosely; a short
	// circuit's right side (x or config.get("legacy")) runs only under a condition.
	c := charm("demo", ".", "config:debug", "config:region")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _write(self, template):
        name = self.config.get("region") or self.config.get("legacy-region")
        return template.render(options=self.config, name=name)
`})
	expect(t, "debug", reads(cl, KindConfig, "debug"), "src/charm.py:6/config-read/all")
	expect(t, "findings", findings(cl), "src/charm.py:5 undeclared-config legacy-region (cond)")
}

func TestConfigReturnedAsATemplateContext(t *testing.T) {
	// A method returning the whole config hands every option to its caller (a template
	// context); an accessor named for the config does not, its callers' reads are followed.
	c := charm("demo", ".", "config:debug", "config:region")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class OptionsContext:
    def __init__(self, charm):
        self.charm = charm

    def context(self):
        return self.charm.config

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.contexts = [OptionsContext(self)]
`})
	expect(t, "debug", reads(cl, KindConfig, "debug"), "src/charm.py:8/config-read/all")

	accessor := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    @property
    def _config(self):
        return self.model.config

    def _region(self):
        return self._config.get("region")
`})
	expect(t, "accessor: debug", reads(accessor, KindConfig, "debug"), "")
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

func TestRelationNameGivenToAPackageFunction(t *testing.T) {
	// A package function from outside the tree given the charm and a declared relation's name
	// looks the relation up there; one not given the charm, or given an undeclared name, is
	// nothing.
	c := charm("pkgfn", ".", "relation:cluster", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops
from netutil.addresses import address_of
from netutil import render

PEER = "cluster"

class PkgFnCharm(ops.CharmBase):
    def _address(self):
        return address_of(self, PEER)

    def _other(self):
        render("db", "x")
        return address_of(self, "cache")
`})
	expect(t, "cluster", reads(cl, KindRelation, "cluster"), "src/charm.py:9/library/address_of")
	expect(t, "db", reads(cl, KindRelation, "db"), "")
	expect(t, "findings", findings(cl), "")
}

func TestReadAfterCheckingTheDeclaredOptions(t *testing.T) {
	// An option accessor that looks the name up among the declared options before reading
	// (meta.config.get(name), raising when it is absent) reads only a declared one: an
	// undeclared name given to it is a conditional finding, not an error.
	c := charm("opts", ".", "config:region")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class Option:
    def __init__(self, name):
        self.name = name

    def get(self, charm):
        if charm.meta.config.get(self.name) is None:
            raise ValueError(self.name)
        return charm.config[self.name]

REGION = Option("region")
LEGACY = Option("legacy-zone")

class OptsCharm(ops.CharmBase):
    def _region(self):
        return REGION.get(self)
`})
	expect(t, "region", reads(cl, KindConfig, "region"), "src/charm.py:10/config-read/index")
	expect(t, "findings", findings(cl), "src/charm.py:10 undeclared-config legacy-zone (cond)")
}

func TestCharmBaseFromAPackage(t *testing.T) {
	// A class derived from a package's base charm class (ops_openstack's OSBaseCharm, not in
	// the tree) is a charm class: its observe calls handle the charm's events. A class of the
	// tree named like a charm is judged by its own bases.
	c := charm("pkgbase", ".", "action:create-target")
	cl := link1(t, c, files{"src/charm.py": `
import ops_openstack.core

class HelperCharm:
    pass

class GatewayCharm(ops_openstack.core.OSBaseCharm):
    def __init__(self, framework):
        super().__init__(framework)
        self.framework.observe(self.on.create_target_action, self._on_create_target)

    def _on_create_target(self, event):
        pass

class Plain(HelperCharm):
    def __init__(self, framework):
        self.framework.observe(self.on.start, self._on_start)

    def _on_start(self, event):
        pass
`})
	expect(t, "create-target", handlers(cl, KindAction, "create-target"), "create_target_action>GatewayCharm._on_create_target[observe]")
	expect(t, "start", handlers(cl, KindLifecycle, "start"), "")
}

func TestPackageCharmBaseMayHandle(t *testing.T) {
	// A charm class derived from a package's base charm class: an action, option or relation
	// no code of the tree handles may be handled by that base (ops_openstack's OSBaseCharm
	// observes pause and resume, its CinderStoragePluginCharm the storage-backend relation),
	// recorded as a charm-base guess at the class; ops' own CharmBase is no such base, and a
	// relation the tree handles gets no guess.
	c := charm("based", ".", "action:pause", "config:source", "relation:storage-backend", "relation:db")
	cl := link1(t, c, files{"src/charm.py": `
import ops_openstack.core

class GatewayCharm(ops_openstack.core.OSBaseCharm):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.db_relation_changed, self._on_db)

    def _on_db(self, event):
        pass
`})
	expect(t, "pause", reads(cl, KindAction, "pause"), "src/charm.py:3/charm-base/ops_openstack.core.OSBaseCharm")
	expect(t, "source", reads(cl, KindConfig, "source"), "src/charm.py:3/charm-base/ops_openstack.core.OSBaseCharm")
	expect(t, "storage-backend", reads(cl, KindRelation, "storage-backend"), "src/charm.py:3/charm-base/ops_openstack.core.OSBaseCharm")
	expect(t, "db", reads(cl, KindRelation, "db"), "")
	plain := link1(t, c, files{"src/charm.py": `
import ops

class GatewayCharm(ops.CharmBase):
    pass
`})
	expect(t, "plain pause", reads(plain, KindAction, "pause"), "")
	expect(t, "plain storage-backend", reads(plain, KindRelation, "storage-backend"), "")
	// a mixin from a package beside ops' CharmBase is no base charm class
	mixin := link1(t, c, files{"src/charm.py": `
import ops
from logging_pkg import LoggingMixin

class GatewayCharm(ops.CharmBase, LoggingMixin):
    pass
`})
	expect(t, "mixin storage-backend", reads(mixin, KindRelation, "storage-backend"), "")
	expect(t, "mixin source", reads(mixin, KindConfig, "source"), "")
}

func TestOptionNamedToAnAssignedHelperCall(t *testing.T) {
	// admin = self._secret_value("admin-password", "password"): the helper's parameter takes
	// the name from the assigned call too, so the option is read, and a misspelt one found.
	c := charm("helper", ".", "config:admin-password")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class HelperCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.config_changed, self._on_config_changed)

    def _secret_value(self, option, field):
        secret_id = self.config.get(option)
        return secret_id, field

    def _on_config_changed(self, event):
        admin = self._secret_value("admin-password", "password")
        bind = self._secret_value("bind-pasword", "password")
        return admin, bind
`})
	expect(t, "admin-password", reads(cl, KindConfig, "admin-password"), "src/charm.py:13/config-read/get")
	expect(t, "findings", findings(cl), "src/charm.py:14 undeclared-config bind-pasword")
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

func TestEveryCallRecordedPerCharm(t *testing.T) {
	// Two charms of a monorepo each with a helper of the same name taking a relation name:
	// each charm's own calls are all its helper is given, so nothing is unresolved, whatever
	// the sibling's calls.
	one := charm("one", "one", "relation:database")
	two := charm("two", "two", "relation:cache")
	helper := func(cls, rel string) string {
		return `
import ops

class ` + cls + `(ops.CharmBase):
    def _created(self, relation_name):
        return self.model.get_relation(relation_name) is not None

    def _ready(self):
        return self._created("` + rel + `")
`
	}
	res := Link(Input{Charms: []charmyaml.Charm{one, two}, Files: files{
		"one/src/charm.py": helper("OneCharm", "database"),
		"two/src/charm.py": helper("TwoCharm", "cache"),
	}.parse()})
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
	expect(t, "database", reads(res.Charms[0], KindRelation, "database"), "one/src/charm.py:8/lookup/")
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

func TestKnownPackageReaders(t *testing.T) {
	// charm-helpers' NRPE() reads nagios_context and nagios_servicegroups itself, imported by
	// name or through its module, or built through a class of the tree derived from it;
	// another package's NRPE does not.
	c := charm("nrpe", ".", "config:nagios_context", "config:nagios_servicegroups")
	for _, src := range []string{`
import ops
from charmhelpers.contrib.charmsupport.nrpe import NRPE

class NrpeCharm(ops.CharmBase):
    def _checks(self):
        checks = NRPE()
        checks.write()
`, `
import ops
import charmhelpers.contrib.charmsupport.nrpe as nrpe

class NrpeCharm(ops.CharmBase):
    def _checks(self):
        checks = nrpe.NRPE()
        checks.write()
`} {
		cl := link1(t, c, files{"src/charm.py": src})
		expect(t, "nagios_context", reads(cl, KindConfig, "nagios_context"), "src/charm.py:6/library/NRPE")
	}
	other := link1(t, c, files{"src/charm.py": `
import ops
from monitoring import NRPE

class NrpeCharm(ops.CharmBase):
    def _checks(self):
        checks = NRPE()
        checks.write()
`})
	expect(t, "other NRPE", reads(other, KindConfig, "nagios_context"), "")
	derived := link1(t, c, files{"src/charm.py": `
import ops
from charmhelpers.contrib.charmsupport import nrpe

class CustomNRPE(nrpe.NRPE):
    plugins = "/usr/local/lib/nagios/plugins"

class NrpeCharm(ops.CharmBase):
    def _checks(self):
        checks = CustomNRPE()
        checks.write()
`})
	expect(t, "derived NRPE", reads(derived, KindConfig, "nagios_servicegroups"), "src/charm.py:9/library/CustomNRPE")
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

func TestCharmHelpersConfigCalls(t *testing.T) {
	// charm-helpers' config("x") and hookenv.config("x") read the option x, also nested in an
	// expression, and so do the keys of the dict config() returns, whatever it is called; an
	// undeclared name is a finding; a function of another module named config reads nothing.
	c := charm("helpers", ".", "config:log-level", "config:region", "config:other", "config:http-proxy", "config:inline")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from charmhelpers.core.hookenv import config
from charmhelpers.core import hookenv
from settings import config as local_config

def render():
    return {"level": config("log-level")}

class HelpersCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        region = hookenv.config("region")
        typo = hookenv.config("regoin")
        other = local_config("other")
        conf = hookenv.config()
        proxy = conf.get("http-proxy")
        mine = local_config()
        mine.get("other")
        inline = hookenv.config()["inline"], config().get("inlin")
        local_config()["other"]
`,
	})
	expect(t, "http-proxy", reads(cl, KindConfig, "http-proxy"), "src/charm.py:19/config-read/get")
	expect(t, "inline", reads(cl, KindConfig, "inline"), "src/charm.py:22/config-read/index")
	expect(t, "log-level", reads(cl, KindConfig, "log-level"), "src/charm.py:7/config-read/")
	expect(t, "region", reads(cl, KindConfig, "region"), "src/charm.py:15/config-read/")
	expect(t, "other", reads(cl, KindConfig, "other"), "")
	expect(t, "findings", findings(cl), "src/charm.py:16 undeclared-config regoin\nsrc/charm.py:22 undeclared-config inlin")
}

func TestHelperNamedLikeAMapping(t *testing.T) {
	// A helper method named config, called only with literals, resolves its parameter: the
	// model's config mapping it reads (model.config.get(key)) is no call of it.
	c := charm("egret", ".", "config:port", "config:debug")
	fs := files{
		"src/charm.py": `
import ops
from helper import Assessor

class EgretCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.assessor = Assessor(self)
        self.framework.observe(self.on.update_status, self._on_update_status)

    def _on_update_status(self, event):
        self.unit.status = ops.ActiveStatus(str(self.assessor.check()))
`,
		"src/helper.py": `
import ops

class Assessor(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "assessor")
        self.charm = charm

    def config(self, key):
        return self.charm.model.config.get(key)

    def check(self):
        return self.config("port")
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: fs.parse()})
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
	cl := res.Charms[0]
	expect(t, "debug", reads(cl, KindConfig, "debug"), "")
	if reads(cl, KindConfig, "port") == "" {
		t.Error("port not read")
	}
}

func TestHelpersConfigOfAName(t *testing.T) {
	// charm-helpers' config(X) reads the option X names when X is no string: a module
	// constant (rabbitmq-server's config(CLUSTER_MODE_KEY)), an imported one, by name or through
	// its module (config(rabbit.CLUSTER_MODE_KEY)), a loop's literals. A name that cannot be
	// resolved (a parameter no recorded call passes) is an unresolved read, and reads nothing.
	c := charm("keyed", ".", "config:a", "config:b", "config:c", "config:d", "config:e")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"src/keys.py": `
KEY_B = "b"
KEY_C = "c"
`,
		"src/charm.py": `
import ops
from charmhelpers.core import hookenv
from charmhelpers.core.hookenv import config

import keys
from keys import KEY_B

KEY_A = "a"


class KeyedCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        print(hookenv.config(KEY_A), config(KEY_B), config(keys.KEY_C))
        for name in ("d",):
            print(hookenv.config(name))


def network(option):
    return config(option)
`,
	}.parse()})
	cl := res.Charms[0]
	expect(t, "a", reads(cl, KindConfig, "a"), "src/charm.py:17/config-read/")
	expect(t, "b", reads(cl, KindConfig, "b"), "src/charm.py:17/config-read/")
	expect(t, "c", reads(cl, KindConfig, "c"), "src/charm.py:17/config-read/")
	expect(t, "d", reads(cl, KindConfig, "d"), "src/charm.py:19/config-read/")
	expect(t, "e", reads(cl, KindConfig, "e"), "")
	expect(t, "findings", findings(cl), "")
	var unresolved []string
	for _, u := range res.Unresolved {
		unresolved = append(unresolved, fmt.Sprintf("%s:%d/%s/%s", u.File, u.Line, u.Via, u.Detail))
	}
	expect(t, "unresolved", strings.Join(unresolved, " "), "src/charm.py:23/config-read/config(option)")
}

func TestVendoredCharmHelpersIsALibrary(t *testing.T) {
	// A copy of charm-helpers in the charm (hooks/charmhelpers/, made by charm-helpers-sync) is
	// another project's code: its config("x") of an option this charm does not declare is no
	// finding, and a context function the charm calls still reads the options it names.
	c := charm("classic", ".", "config:loglevel", "config:worker-multiplier")
	cl := link1(t, c, files{
		"hooks/hooks.py": `
from charmhelpers.core.hookenv import config
from charmhelpers.contrib.openstack.context import worker_count

def config_changed():
    print(config("loglevel"), worker_count())
`,
		"hooks/charmhelpers/__init__.py":      "",
		"hooks/charmhelpers/core/__init__.py": "",
		"hooks/charmhelpers/core/hookenv.py": `
def config(scope=None):
    return {}
`,
		"hooks/charmhelpers/contrib/__init__.py":           "",
		"hooks/charmhelpers/contrib/openstack/__init__.py": "",
		"hooks/charmhelpers/contrib/openstack/context.py": `
from charmhelpers.core.hookenv import config

def worker_count():
    return config("worker-multiplier")

class DHCPAgentContext:
    def __call__(self):
        return {"flags": config("dnsmasq-flags")}
`,
	})
	expect(t, "loglevel", reads(cl, KindConfig, "loglevel"), "hooks/hooks.py:5/config-read/")
	if reads(cl, KindConfig, "worker-multiplier") == "" {
		t.Error("worker-multiplier: the context function the charm calls reads it")
	}
	expect(t, "findings", findings(cl), "")
}

func TestClassicHooksPackageIsAnImportRoot(t *testing.T) {
	// A classic charm's hooks are symlinks to a script in hooks/, so hooks/ is first on
	// sys.path even when an __init__.py makes it a package for the unit tests (charm-heat):
	// its charmhelpers/ is imported as charmhelpers.
	c := charm("classic", ".", "config:use-syslog")
	cl := link1(t, c, files{
		"hooks/__init__.py": "",
		"hooks/classic_utils.py": `
from charmhelpers.contrib.openstack import context

RESOURCE_MAP = {"/etc/classic/classic.conf": [context.SyslogContext(debug=True)]}
`,
		"hooks/charmhelpers/__init__.py":                   "",
		"hooks/charmhelpers/core/__init__.py":              "",
		"hooks/charmhelpers/core/hookenv.py":               "def config(scope=None):\n    return {}\n",
		"hooks/charmhelpers/contrib/__init__.py":           "",
		"hooks/charmhelpers/contrib/openstack/__init__.py": "",
		"hooks/charmhelpers/contrib/openstack/context.py": `
from charmhelpers.core.hookenv import config

class SyslogContext:
    def __init__(self, debug=False):
        self.debug = debug

    def __call__(self):
        return {"use_syslog": config("use-syslog")}
`,
	})
	expect(t, "use-syslog", reads(cl, KindConfig, "use-syslog"), "hooks/charmhelpers/contrib/openstack/context.py:8/config-read/")
	expect(t, "findings", findings(cl), "")
}

func TestVendoredContextBuiltWithoutArguments(t *testing.T) {
	// A charm-helpers context class the charm builds without arguments, in its resource map
	// (keystone's [context.SyslogContext(), ...]), runs: its __call__ reads the options it
	// names. One nothing builds does not run (a vendored library's code runs only for the
	// objects the charm builds). The default relation names of such a class bind the declared
	// relations only: an undeclared one (NotificationDriverContext's zmq_relation) is no
	// finding.
	c := charm("classic", ".", "config:use-syslog", "config:debug", "relation:amqp")
	cl := link1(t, c, files{
		"hooks/utils.py": `
from collections import OrderedDict
from charmhelpers.contrib.openstack import context

RESOURCE_MAP = OrderedDict([
    ("/etc/classic/classic.conf", {"contexts": [context.SyslogContext(), context.NotifyContext()]}),
])
`,
		"hooks/charmhelpers/__init__.py":                   "",
		"hooks/charmhelpers/core/__init__.py":              "",
		"hooks/charmhelpers/core/hookenv.py":               "def config(scope=None):\n    return {}\n",
		"hooks/charmhelpers/contrib/__init__.py":           "",
		"hooks/charmhelpers/contrib/openstack/__init__.py": "",
		"hooks/charmhelpers/contrib/openstack/context.py": `
from charmhelpers.core.hookenv import config, relation_ids

class SyslogContext:
    def __call__(self):
        return {"use_syslog": config("use-syslog")}

class LogLevelContext:
    def __call__(self):
        return {"debug": config("debug")}

class NotifyContext:
    def __init__(self, zmq_relation="zeromq-configuration", amqp_relation="amqp"):
        self.zmq_relation = zmq_relation
        self.amqp_relation = amqp_relation

    def __call__(self):
        return {"notify": bool(relation_ids(self.amqp_relation))}
`,
	})
	expect(t, "use-syslog", reads(cl, KindConfig, "use-syslog"), "hooks/charmhelpers/contrib/openstack/context.py:5/config-read/")
	expect(t, "debug", reads(cl, KindConfig, "debug"), "")
	expect(t, "amqp", reads(cl, KindRelation, "amqp"), "hooks/utils.py:5/library/NotifyContext")
	expect(t, "findings", findings(cl), "")
}

func TestReactiveCharm(t *testing.T) {
	// A charm whose code imports charms.reactive runs handlers on flags: the result says where.
	c := charm("mds", ".", "relation:ceph-mds")
	base := `
import charms_openstack.charm

class MdsCharm(charms_openstack.charm.OpenStackCharm):
    name = "mds"
`
	cl := link1(t, c, files{
		"src/lib/charm/mds.py": base,
		"src/reactive/mds_handlers.py": `
import charms.reactive as reactive

@reactive.when("ceph-mds.pools.available")
def config_changed():
    pass
`,
	})
	if cl.Reactive != "src/reactive/mds_handlers.py:1" {
		t.Errorf("Reactive = %q", cl.Reactive)
	}
	for _, imp := range []string{"from charms.reactive import when", "from charms.reactive.flags import set_flag", "from charms import reactive"} {
		cl = link1(t, c, files{"src/lib/charm/mds.py": base, "src/reactive/h.py": imp + "\n"})
		if cl.Reactive != "src/reactive/h.py:1" {
			t.Errorf("%s: Reactive = %q", imp, cl.Reactive)
		}
	}
	for _, imp := range []string{"import charms.reactive_extra", "from charms import layer", "from charms.reactive_x import y"} {
		if cl = link1(t, c, files{"src/lib/charm/mds.py": base, "src/reactive/h.py": imp + "\n"}); cl.Reactive != "" {
			t.Errorf("%s: Reactive = %q", imp, cl.Reactive)
		}
	}
	// a test's import says nothing of the charm, nor does a script's outside reactive/
	if cl = link1(t, c, files{"src/lib/charm/mds.py": base, "src/reactive/test_h.py": "import charms.reactive\n"}); cl.Reactive != "" {
		t.Errorf("test import: Reactive = %q", cl.Reactive)
	}
	if cl = link1(t, c, files{"src/lib/charm/mds.py": base, "scripts/old.py": "import charms.reactive\n"}); cl.Reactive != "" {
		t.Errorf("script import: Reactive = %q", cl.Reactive)
	}
}

func TestLibraryRepositoryWithoutCharmClass(t *testing.T) {
	// A library's repository with a charmcraft.yaml only for fetching libraries: its code has
	// no charm class, so its ops.Object classes, which test charms build, never run for it
	// (no finding of the names they use); a module function still runs (classic hooks).
	c := charm("not-a-charm", ".")
	cl := link1(t, c, files{
		"src/workers/coordinator.py": `
import ops
from charmhelpers.core import hookenv

class Base(ops.Object):
    pass

class Coordinator(Base):
    def __init__(self, charm):
        super().__init__(charm, "coordinator")
        self.container = charm.unit.get_container("nginx")
        self.framework.observe(charm.on["peers"].relation_changed, self._on_peers)

    def _on_peers(self, event):
        pass

def hook():
    return hookenv.config("loglevel")
`,
		"src/workers/other.py": `
from workers.coordinator import Coordinator

def describe(c: "Coordinator"):
    return c.container.get_container("nginx")
`,
	})
	expect(t, "findings", findings(cl), "src/workers/coordinator.py:17 undeclared-config loglevel")
	c2 := charm("a-charm", ".")
	cl = link1(t, c2, files{
		"src/charm.py": `
import ops

class Helper(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "helper")
        self.container = charm.unit.get_container("nginx")

class ACharm(ops.CharmBase):
    pass
`,
	})
	if !strings.Contains(findings(cl), "undeclared-container nginx") {
		t.Errorf("a charm's own unbuilt helper: findings %q", findings(cl))
	}
}

func TestImportPaths(t *testing.T) {
	// A bare name may import a package of no charm's (a uv workspace member at
	// pkgs/snapper/src/snapper/), which then reads the options; a module of a sibling charm
	// is on no other charm's path (its copy of charm-helpers), so an object of that package
	// is built from outside the tree (a known reader); a test charm inside a charm's folder
	// imports the charm's code.
	alpha := charm("alpha", "charms/alpha", "config:snap-channel", "config:nagios_context")
	beta := charm("beta", "charms/beta")
	tester := charm("tester", "charms/alpha/tests/tester", "config:level")
	fs := files{
		"charms/alpha/src/charm.py": `
import ops
from snapper import Snapper
from charmhelpers.contrib.charmsupport import nrpe

class AlphaCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.snapper = Snapper(self)
        framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        checks = nrpe.NRPE()
        checks.write()
`,
		"pkgs/snapper/src/snapper/__init__.py": `
import ops

class Snapper(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "snapper")
        self.channel = charm.config["snap-channel"]
`,
		"charms/beta/hooks/hooks.py": `
from charmhelpers.core.hookenv import config
`,
		"charms/beta/hooks/charmhelpers/__init__.py":                      "",
		"charms/beta/hooks/charmhelpers/contrib/__init__.py":              "",
		"charms/beta/hooks/charmhelpers/contrib/charmsupport/__init__.py": "",
		"charms/beta/hooks/charmhelpers/contrib/charmsupport/nrpe.py": `
class NRPE:
    def write(self):
        pass
`,
		"charms/alpha/src/alpha_tools/__init__.py": "",
		"charms/alpha/src/alpha_tools/levels.py": `
def level(charm):
    return charm.config["level"]
`,
		"charms/alpha/tests/tester/src/charm.py": `
import ops
from alpha_tools.levels import level

class TesterCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        level(self)
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{alpha, beta, tester}, Files: fs.parse()})
	cl := res.Charms[0]
	if reads(cl, KindConfig, "snap-channel") == "" {
		t.Error("snap-channel: the workspace package reads it")
	}
	if reads(cl, KindConfig, "nagios_context") == "" {
		t.Error("nagios_context: the outside NRPE reads it")
	}
	ix := newIndex(Input{Charms: []charmyaml.Charm{alpha, beta, tester}, Files: fs.parse()})
	from := ix.files["charms/alpha/tests/tester/src/charm.py"]
	if m := ix.module(from, "alpha_tools.levels", 2); m == nil || m.Path != "charms/alpha/src/alpha_tools/levels.py" {
		t.Errorf("the test charm's import of the enclosing charm's module: %v", m)
	}
	if m := ix.module(ix.files["charms/alpha/src/charm.py"], "charmhelpers.contrib.charmsupport.nrpe", 0); m != nil {
		t.Errorf("a sibling's charm-helpers resolved: %s", m.Path)
	}
	if m := ix.module(ix.files["charms/beta/hooks/hooks.py"], "charmhelpers.contrib.charmsupport.nrpe", 1); m == nil {
		t.Error("the charm's own charm-helpers not resolved")
	}
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

func TestVendoredPackagesInLib(t *testing.T) {
	// A package in the charm's lib/ other than charms/ (a copy of ops in lib/ops/) is another
	// project's code: its unresolved names soften nothing, and what it reads is no finding.
	c := charm("old", ".", "relation:cache")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{
		"lib/ops/__init__.py": "",
		"lib/ops/testing.py": `
class Harness:
    def remove_relation_unit(self, relation_name, relation_id):
        return self._model.get_relation(relation_name, relation_id)

def helper(model):
    return model.get_relation("undeclared")
`,
		"src/charm.py": `
import ops
from ops.testing import helper

class OldCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        helper(self.model)
`,
	}.parse()})
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
	expect(t, "findings", findings(res.Charms[0]), "")
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

func TestConfigHandedOnInADict(t *testing.T) {
	// The config as a dict's value (a template's context) is handed on whole: every option is
	// read there, as render(options=self.config) reads it.
	c := charm("thruk", ".", "config:url", "config:log-path")
	for _, expr := range []string{`{"config": self.config}`, `dict(config=self.config, name="web")`} {
		cl := link1(t, c, files{"src/charm.py": `
import ops
import render

class ThrukCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.config_changed, self._on_config_changed)

    def _on_config_changed(self, event):
        context = ` + expr + `
        render.render("web.conf", context)
`})
		for _, o := range []string{"url", "log-path"} {
			if reads(cl, KindConfig, o) == "" {
				t.Errorf("%s: %s not read", expr, o)
			}
		}
	}
}

func TestBindingLookup(t *testing.T) {
	// model.get_binding(PEER) looks the peer relation up (its address); an extra-binding's
	// name, juju-info or a Relation object is no finding and no unresolved name; any other
	// name (a misspelled extra-binding; juju_info, as no binding is spelled with "_" for "-"),
	// by position or as binding_key=, is an undeclared relation.
	c := charm("bind", ".", "relation:cluster")
	c.ExtraBindings = []charmyaml.Binding{{Name: "public", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 9}}}
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops
PEER = "cluster"

class BindCharm(ops.CharmBase):
    def _address(self, event):
        a = self.model.get_binding(PEER).network.bind_address
        b = self.model.get_binding("public").network.ingress_address
        c = self.model.get_binding("juju-info").network.bind_address
        d = self.model.get_binding("pubilc").network.bind_address
        e = self.model.get_binding(binding_key="juju_info").network.bind_address
        return self.model.get_binding(event.relation)
`}.parse()})
	cl := res.Charms[0]
	expect(t, "cluster", reads(cl, KindRelation, "cluster"), "src/charm.py:6/lookup/")
	expect(t, "findings", findings(cl), "src/charm.py:9 undeclared-relation pubilc\nsrc/charm.py:10 undeclared-relation juju_info")
	if len(res.Unresolved) != 0 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
}

func TestBindingProbe(t *testing.T) {
	// get_binding of an undeclared name in a try whose handler catches ModelError (what
	// .network raises for a binding Juju does not know), Exception or everything is a probe:
	// the finding carries a doubt. A handler of something else leaves it a finding.
	c := charm("probe", ".", "relation:cluster")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class ProbeCharm(ops.CharmBase):
    def _sans(self):
        try:
            a = self.model.get_binding("public").network.bind_address
        except ops.model.ModelError:
            a = None
        try:
            b = self.model.get_binding("admin").network.bind_address
        except ValueError:
            b = None
        return a, b
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return f.Doubt }),
		"src/charm.py:6 undeclared-relation public a probe: the try around it catches the ModelError raised for a binding Juju does not know\n"+
			"src/charm.py:10 undeclared-relation admin ")
}

func TestEnumMemberValue(t *testing.T) {
	// An enum member and its .value are the same name.
	c := charm("enum", ".", "relation:object-store", "relation:logs")
	cl := link1(t, c, files{"src/charm.py": `
import enum
import ops

class Endpoint(str, enum.Enum):
    STORE = "object-store"
    LOGS = "logs"

class EnumCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on[Endpoint.STORE.value].relation_changed, self._on_changed)
        framework.observe(self.on[Endpoint.LOGS].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass
`})
	expect(t, "object-store", handlers(cl, KindRelation, "object-store"), "relation_changed>EnumCharm._on_changed[on-index]")
	expect(t, "logs", handlers(cl, KindRelation, "logs"), "relation_changed>EnumCharm._on_changed[on-index]")
}

func TestBaseCharmInitParameter(t *testing.T) {
	// A base charm class's __init__ parameter is what its subclass passes with
	// super().__init__(..., endpoint="backend"); without it, the default.
	c := charm("b2", ".", "relation:backend", "relation:frontend")
	for _, call := range []string{`super().__init__(*args, endpoint="backend")`, `super().__init__(*args)`} {
		cl := link1(t, c, files{"src/charm.py": `
import ops

class BaseCharm(ops.CharmBase):
    def __init__(self, *args, endpoint: str = "frontend"):
        super().__init__(*args)
        self.framework.observe(self.on[endpoint].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class B2Charm(BaseCharm):
    def __init__(self, *args):
        ` + call + `
`})
		want := "backend"
		if !strings.Contains(call, "endpoint") {
			want = "frontend"
		}
		expect(t, call, handlers(cl, KindRelation, want), "relation_changed>BaseCharm._on_changed[on-index]")
	}
}

func TestBaseCharmInitParameterFollowsTheCharm(t *testing.T) {
	// Only the charm's own class chain passes the parameter: a sibling subclass that is not
	// the charm does not (the charm's class has none of its own and relies on the default),
	// and a class in between without __init__ is skipped over.
	c := charm("b3", ".", "relation:database")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class BaseCharm(ops.CharmBase):
    def __init__(self, *args, endpoint="database"):
        super().__init__(*args)
        self.framework.observe(self.on[endpoint].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class Middle(BaseCharm):
    pass

class B3Charm(Middle):
    def __init__(self, *args):
        super().__init__(*args, endpoint="backend")
`})
	expect(t, "findings", findings(cl), "src/charm.py:6 undeclared-relation backend")
	expect(t, "database", handlers(cl, KindRelation, "database"), "")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

class BaseCharm(ops.CharmBase):
    def __init__(self, *args, endpoint="database"):
        super().__init__(*args)
        self.framework.observe(self.on[endpoint].relation_changed, self._on_changed)

    def _on_changed(self, event):
        pass

class Experimental(BaseCharm):
    def __init__(self, *args):
        super().__init__(*args, endpoint="backend")

class B3Charm(BaseCharm):
    pass

if __name__ == "__main__":
    ops.main(B3Charm)
`}.parse()})
	expect(t, "database, sibling", handlers(res.Charms[0], KindRelation, "database"), "relation_changed>BaseCharm._on_changed[on-index]")
}

func TestValueOfAPlainClassAttribute(t *testing.T) {
	// .value of a plain class's string attribute is no name (it fails at run time).
	c := charm("plain", ".", "relation:db")
	res := Link(Input{Charms: []charmyaml.Charm{c}, Files: files{"src/charm.py": `
import ops

class Names:
    DB = "db"

class PlainCharm(ops.CharmBase):
    def _on_start(self, event):
        self.model.get_relation(Names.DB.value)
`}.parse()})
	expect(t, "db", reads(res.Charms[0], KindRelation, "db"), "")
	if len(res.Unresolved) != 1 {
		t.Errorf("unresolved %+v", res.Unresolved)
	}
}

func TestSharedFrameworkHandlers(t *testing.T) {
	// A monorepo's shared framework (ops-sunbeam's shape): handler classes build charm
	// libraries through a tracing wrapper, `trace_type(Cls)(charm, name)`, a construction of
	// Cls; the libraries sit in a shared folder, libs/external/lib/charms/<lib>/, vendored as
	// a charm's own lib/charms/<lib>/ is; and a context class that only another charm's base
	// class builds does not run for a charm that does not derive from it.
	api := charm("api", "charms/api", "relation:ingress-public")
	vol := charm("vol", "charms/vol", "relation:db", "config:backend-name")
	fs := files{
		"libs/external/lib/charms/web_k8s/v0/ingress.py": `
import ops

class IngressRequirer(ops.Object):
    def __init__(self, charm, relation_name="ingress"):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.relation_name = relation_name
        self.framework.observe(charm.on[relation_name].relation_changed, self._changed)

    def _changed(self, event):
        pass

    @property
    def relations(self):
        return self.charm.model.relations[self.relation_name]
`,
		"shared/fw/__init__.py": "",
		"shared/fw/tracing.py": `
def trace_type(cls):
    return cls
`,
		"shared/fw/handlers.py": `
import ops
from fw import tracing

class Handler(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
        self.charm = charm
        self.relation_name = relation_name
        self.interface = self.setup()


class IngressHandler(Handler):
    def setup(self):
        from charms.web_k8s.v0.ingress import IngressRequirer

        return tracing.trace_type(IngressRequirer)(self.charm, self.relation_name)


class DBHandler(Handler):
    def setup(self):
        self.framework.observe(self.charm.on[self.relation_name].relation_changed, self._on_changed)
        return self

    def _on_changed(self, event):
        pass
`,
		"shared/fw/contexts.py": `
class BackendContext:
    def __init__(self, charm):
        self.charm = charm

    def context(self):
        return {"name": self.charm.config.get("backend-name")}
`,
		"shared/fw/charm.py": `
import ops
from fw.contexts import BackendContext

class BaseCharm(ops.CharmBase):
    pass


class VolumeDriverCharm(BaseCharm):
    @property
    def contexts(self):
        return [BackendContext(self)]
`,
		"charms/api/src/charm.py": `
import ops
from fw.charm import BaseCharm
from fw.handlers import IngressHandler

class APICharm(BaseCharm):
    def __init__(self, *args):
        super().__init__(*args)
        self.ingress = IngressHandler(self, "ingress-public")
`,
		"charms/vol/src/charm.py": `
import ops
from fw.charm import VolumeDriverCharm
from fw.handlers import DBHandler

class VolCharm(VolumeDriverCharm):
    def __init__(self, *args):
        super().__init__(*args)
        self.db = DBHandler(self, "db")
`,
	}
	res := Link(Input{Charms: []charmyaml.Charm{api, vol}, Files: fs.parse()})
	a, v := res.Charms[0], res.Charms[1]
	expect(t, "api ingress", handlers(a, KindRelation, "ingress-public"), "relation_changed>IngressRequirer._changed[library-inner]")
	expect(t, "api findings", findings(a), "")
	expect(t, "vol db", handlers(v, KindRelation, "db"), "relation_changed>DBHandler._on_changed[helper]")
	expect(t, "vol backend-name", reads(v, KindConfig, "backend-name"), "shared/fw/contexts.py:6/config-read/get")
	expect(t, "vol findings", findings(v), "")
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

func TestActionTable(t *testing.T) {
	// A classic or reactive charm's action scripts call a main that looks their own name up in
	// a module-level table of functions: each declared action in it is handled by its function.
	// A value the module does not define as a function, a table inside a function, and a key
	// that is no declared action link nothing; an action something observes keeps its handler.
	c := charm("tables", ".", "action:cluster-kick", "action:cluster-status", "action:pause", "action:resume", "action:observed")
	cl := link1(t, c, files{
		"actions/cluster.py": `
import sys
from helpers import resume

def cluster_kick():
    pass

def cluster_status():
    pass

def pause_impl():
    pass

ACTIONS = {"cluster-kick": cluster_kick, "cluster-status": cluster_status, "resume": resume, "other": cluster_kick, "observed": pause_impl}

def main(args):
    local = {"pause": pause_impl}
    return ACTIONS[args[0]]()
`,
		"src/charm.py": `
import ops

class TablesCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.observed_action, self._on_observed)

    def _on_observed(self, event):
        pass
`,
	})
	expect(t, "cluster-kick", handlers(cl, KindAction, "cluster-kick"), "cluster-kick>cluster_kick[action-table]")
	expect(t, "cluster-status", handlers(cl, KindAction, "cluster-status"), "cluster-status>cluster_status[action-table]")
	expect(t, "pause", handlers(cl, KindAction, "pause"), "")
	expect(t, "resume", handlers(cl, KindAction, "resume"), "")
	expect(t, "observed", handlers(cl, KindAction, "observed"), "observed_action>TablesCharm._on_observed[observe]")
}

func TestHelperParamReads(t *testing.T) {
	// charm-helpers' action_get("x") (function_get, its newer name) reads the parameter x of
	// the action the code runs for: a table's function's action, or else the action whose
	// script the file is. A name that action does not declare is a finding (action_get
	// returns None for it), in a table's function and in a script's module-level code. A
	// helper module that runs for no known action reads x of the one action declaring it;
	// a name several declare is read from none, and one no action declares is a finding. A
	// dotted name reads its first part; a name given by a variable is unresolved; an
	// action_get of another module, and test code, read nothing.
	c := charm("classic", ".", "action:add-user(username,password)", "action:remove-user(username)",
		"action:backup(target)", "action:restore(target,force)", "action:list", "action:rotate(user)")
	c.Actions[0].Script = "actions/add_user.py"
	c.Actions[4].Script = "actions/list_users.py"
	c.Actions[2].Script = "actions/actions.py"
	c.Actions[3].Script = "actions/actions.py"
	cl := link1(t, c, files{
		"actions/add_user.py": `
from charmhelpers.core.hookenv import action_get

def main():
    user = action_get("username")
    pw = action_get("password") or "secret"
    home = action_get("home")

if __name__ == "__main__":
    main()
`,
		"actions/list_users.py": `
from charmhelpers.core import hookenv

if __name__ == "__main__":
    fmt = hookenv.action_get("format")
`,
		"actions/actions.py": `
import charmhelpers.core.hookenv as ch_hookenv
from charmhelpers.core.hookenv import function_get

def backup():
    print(str(function_get("target.path")))

def restore():
    if ch_hookenv.action_get("force"):
        pass
    ch_hookenv.action_get("froce")

def shared():
    return ch_hookenv.action_get("zzz")

ACTIONS = {"backup": backup, "restore": restore}
`,
		"actions/common.py": `
from charmhelpers.core.hookenv import action_get

def user():
    return action_get("username")

def force():
    return action_get("force")

def arg(key):
    return action_get(key)

def nope():
    return action_get("no-such-param")
`,
		"actions/other.py": `
from otherlib import action_get

def whatever():
    return action_get("whatever")
`,
		"src/charm.py": `
import ops
from charmhelpers.core import hookenv

class ClassicCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.rotate_action, self._on_rotate)

    def _on_rotate(self, event):
        hookenv.action_get("user")
        hookenv.action_get("username")
`,
		"unit_tests/test_actions.py": `
from charmhelpers.core.hookenv import action_get

def test_it():
    action_get("mocked")
`,
	})
	expect(t, "add-user", reads(cl, KindAction, "add-user"),
		"actions/add_user.py:4/param-read/action_get(\"username\")/username actions/add_user.py:5/param-read/action_get(\"password\")/password")
	expect(t, "remove-user", reads(cl, KindAction, "remove-user"), "")
	expect(t, "rotate", reads(cl, KindAction, "rotate"), "src/charm.py:10/param-read/hookenv.action_get(\"user\")/user")
	expect(t, "backup", reads(cl, KindAction, "backup"), "actions/actions.py:5/param-read/function_get(\"target.path\")/target")
	expect(t, "restore", reads(cl, KindAction, "restore"),
		"actions/actions.py:8/param-read/ch_hookenv.action_get(\"force\")/force actions/common.py:7/param-read/action_get(\"force\")/force")
	expect(t, "findings", findings(cl), strings.Join([]string{
		"actions/actions.py:10 undeclared-action-param froce",
		"actions/actions.py:13 undeclared-action-param zzz", // runs for both of the file's actions
		"actions/add_user.py:6 undeclared-action-param home",
		"actions/common.py:13 undeclared-action-param no-such-param",
		"actions/list_users.py:4 undeclared-action-param format (cond)", // under if __name__ == "__main__"
		"src/charm.py:11 undeclared-action-param username",              // declared by other actions, not rotate
	}, "\n"))
	for _, f := range cl.Findings { // only the helper module's runs for no known action
		if f.NoAction != (f.File == "actions/common.py") || f.SeveralActions != (f.Subject == "zzz") {
			t.Errorf("%s:%d NoAction %v SeveralActions %v", f.File, f.Line, f.NoAction, f.SeveralActions)
		}
	}
	if u := cl.Unresolved; len(u) != 1 || u[0].File != "actions/common.py" || u[0].Line != 10 {
		t.Errorf("unresolved: %+v", u)
	}
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

func TestReactiveHookTemplates(t *testing.T) {
	// charms.reactive's hook templates name endpoints by interface ({interface:X}) or by role
	// and interface ({requires:X}, {provides:X}, {peers:X}): each endpoint they expand to is
	// handled; an interface no endpoint has expands to none.
	c := charm("reactor", ".")
	c.Relations = []charmyaml.Relation{
		{Name: "data", Role: charmyaml.RoleProvides, Interface: "block-storage"},
		{Name: "db", Role: charmyaml.RoleRequires, Interface: "pgsql"},
		{Name: "db-admin", Role: charmyaml.RoleProvides, Interface: "pgsql"},
	}
	cl := link1(t, c, files{"reactive/reactor.py": `
from charms.reactive import hook


@hook("{interface:block-storage}-relation-departed")
def storage_gone():
    pass


@hook("{provides:pgsql}-relation-joined")
def client_joined():
    pass


@hook("{requires:nothing}-relation-joined")
def nothing():
    pass
`})
	expect(t, "data", handlers(cl, KindRelation, "data"), "{interface:block-storage}-relation-departed>storage_gone[hook]")
	expect(t, "db", handlers(cl, KindRelation, "db"), "")
	expect(t, "db-admin", handlers(cl, KindRelation, "db-admin"), "{provides:pgsql}-relation-joined>client_joined[hook]")
	expect(t, "findings (a template names no endpoint)", findings(cl), "")
}

func TestHooksAndFlagsOfUndeclaredEndpoints(t *testing.T) {
	// A function registered for a hook of an endpoint the YAML does not declare
	// (@hooks.hook("volume-relation-joined"), charms.reactive's @hook), or waiting for one
	// of charms.reactive's endpoint.X flags of one, never runs for it: a finding that names the
	// hook or flag. An interface layer's flag (X.available) may be another layer's, a
	// lifecycle hook is no endpoint's, and test code registers nothing.
	c := charm("classic", ".", "relation:db")
	cl := link1(t, c, files{
		"hooks/hooks.py": `
from charmhelpers.core.hookenv import Hooks
hooks = Hooks()

@hooks.hook("db-relation-joined", "volume-relation-joined")
def joined():
    pass

@hooks.hook("install")
def install():
    pass
`,
		"reactive/handlers.py": `
from charms.reactive import when, when_not, hook

@when("endpoint.runner.joined")
def runner():
    pass

@when_not("endpoint.cache.joined")
def cache_gone():
    pass

@when("website.available")
def website():
    pass

@hook("old-relation-changed")
def old():
    pass
`,
		"unit_tests/test_hooks.py": `
from charms.reactive import when

@when("endpoint.fake.joined")
def fake():
    pass
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("<%s>", f.Registered) }), `hooks/hooks.py:5 undeclared-relation volume <volume-relation-joined>
reactive/handlers.py:4 undeclared-relation runner <endpoint.runner.joined>
reactive/handlers.py:8 undeclared-relation cache <endpoint.cache.joined>
reactive/handlers.py:16 undeclared-relation old <old-relation-changed>`)
	expect(t, "db", handlers(cl, KindRelation, "db"), "db-relation-joined>joined[hook]")
}

func TestReactiveConfigFlags(t *testing.T) {
	// A reactive handler of layer:basic's option flags (config.changed.<opt>, config.set.<opt>,
	// under any when decorator) reads that option; a flag of an undeclared option reads nothing,
	// and is a finding naming the flag: layer:basic never sets it, so the handler never runs for
	// it (check makes it an info when layer.yaml includes layers that may declare the option).
	c := charm("reactor", ".", "config:port", "config:source", "config:unread")
	cl := link1(t, c, files{"reactive/reactor.py": `
from charms.reactive import when, when_not


@when('config.changed.port')
def restart():
    pass


@when_not('config.set.source', 'config.set.nope')
def block():
    pass
`})
	expect(t, "port", reads(cl, KindConfig, "port"), "reactive/reactor.py:5/config-read/flag")
	expect(t, "source", reads(cl, KindConfig, "source"), "reactive/reactor.py:10/config-read/flag")
	expect(t, "unread", reads(cl, KindConfig, "unread"), "")
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return f.Registered }),
		"reactive/reactor.py:10 undeclared-config nope config.set.nope")
}

func TestReactiveFlagConstants(t *testing.T) {
	// A reactive decorator's flag given as a constant, of the module or of an imported one
	// (mysql-router's @reactive.when(mysql_router.DB_ROUTER_AVAILABLE)), is the flag its value
	// names, as a literal is; a keyword's value and a call are not flags.
	c := charm("reactor", ".", "relation:db-router", "relation:shared-db", "relation:cluster")
	cl := link1(t, c, files{
		"reactive/handlers.py": `
import charms.reactive as reactive
import charm.flags as flags
from charm.flags import SHARED_DB_AVAILABLE

CLUSTER = "cluster.connected"


@reactive.when(flags.DB_ROUTER_AVAILABLE)
def bootstrap():
    pass


@reactive.when(SHARED_DB_AVAILABLE, force=True)
def proxy():
    pass


@reactive.when(CLUSTER)
def clustered():
    pass


@reactive.when(flags.computed("x"))
def computed():
    pass
`,
		"lib/charm/flags.py": `
DB_ROUTER_AVAILABLE = "db-router.available"
SHARED_DB_AVAILABLE = "shared-db.available"


def computed(x):
    return x
`})
	expect(t, "db-router", handlers(cl, KindRelation, "db-router"), "db-router.available>bootstrap[reactive-flag]")
	expect(t, "shared-db", handlers(cl, KindRelation, "shared-db"), "shared-db.available>proxy[reactive-flag]")
	expect(t, "cluster", handlers(cl, KindRelation, "cluster"), "cluster.connected>clustered[reactive-flag]")
}

func TestNamedLookups(t *testing.T) {
	// charms.reactive's and charm-helpers' lookups of a relation by flag or name, and
	// charm-helpers' of a storage by name, are lookups of it; an undeclared name is a finding
	// that says which function looked it up (LookedUp) when the call names it exactly (a name,
	// a flag endpoint.<name>.*), not for another flag, and storage_get's instance id is no
	// lookup.
	c := charm("reactor", ".", "relation:db", "relation:cluster", "relation:website", "relation:idle",
		"storage:osd-devices", "storage:journal", "storage:cache")
	cl := link1(t, c, files{"reactive/reactor.py": `
from charms import reactive
from charms.reactive import endpoint_from_flag, is_flag_set
from charmhelpers.core import hookenv
from charmhelpers.core.hookenv import relation_ids, storage_get, storage_list


def configure():
    db = endpoint_from_flag("db.available")
    if is_flag_set("endpoint.website.joined"):
        pass
    for rid in relation_ids("cluster"):
        pass
    reactive.endpoint_from_flag("nowhere.ready")
    devices = [storage_get('location', s) for s in storage_list('osd-devices')]
    for sid in hookenv.storage_list(storage_name="journal"):
        devices.append(storage_get("location", sid))
    storage_get("location", "cache/0")
    storage_list("scratch")
    relation_ids("juju-info")
    hookenv.relation_ids(reltype="cache")
    if is_flag_set("endpoint.proxy.joined") or is_flag_set("proxy.available"):
        pass
    hookenv.relations_of_type("idle")
    return db
`})
	expect(t, "db", reads(cl, KindRelation, "db"), "reactive/reactor.py:8/lookup/flag")
	expect(t, "website", reads(cl, KindRelation, "website"), "reactive/reactor.py:9/lookup/flag")
	expect(t, "cluster", reads(cl, KindRelation, "cluster"), "reactive/reactor.py:11/lookup/flag")
	expect(t, "idle", reads(cl, KindRelation, "idle"), "reactive/reactor.py:23/lookup/flag")
	expect(t, "osd-devices", reads(cl, KindStorage, "osd-devices"), "reactive/reactor.py:14/lookup/flag")
	expect(t, "journal", reads(cl, KindStorage, "journal"), "reactive/reactor.py:15/lookup/flag")
	expect(t, "cache", reads(cl, KindStorage, "cache"), "")
	expect(t, "findings", findings(cl), `reactive/reactor.py:18 undeclared-storage scratch
reactive/reactor.py:20 undeclared-relation cache
reactive/reactor.py:21 undeclared-relation proxy`)
	var by []string
	for _, f := range cl.Findings {
		by = append(by, f.LookedUp)
	}
	expect(t, "looked up by", strings.Join(by, " "), "storage_list relation_ids is_flag_set")
}

func TestOldReactiveLookups(t *testing.T) {
	// The older charms.reactive's is_state("db.available") and RelationBase.from_state(...)
	// look a relation up as is_flag_set and endpoint_from_flag do, also from the reactive
	// charm's own layer library, lib/charms/layer/ (ghost's lib/charms/layer/ghost.py).
	c := charm("ghost", ".", "relation:database", "relation:website")
	cl := link1(t, c, files{
		"reactive/ghost.py": `
from charms.reactive import when, is_state


@when("website.available")
def configure(website):
    if is_state("website.available"):
        pass
`,
		"lib/charms/layer/ghost.py": `
from charms.reactive import RelationBase


def db_changed():
    mysql = RelationBase.from_state("database.available")
    return mysql
`,
	})
	expect(t, "database", reads(cl, KindRelation, "database"), "lib/charms/layer/ghost.py:5/lookup/flag")
	if r := reads(cl, KindRelation, "website"); !strings.Contains(r, "reactive/ghost.py:6/lookup/flag") {
		t.Errorf("website reads %q, want the is_state lookup in configure (reactive/ghost.py:6)", r)
	}
	expect(t, "findings", findings(cl), "")
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

func TestLayerFlagsAreNoRelation(t *testing.T) {
	// layer:basic's and layer:leadership's own flags (config.changed, leadership.is_leader) are
	// no flags of a relation named config or leadership; through Endpoint's prefix they are.
	c := charm("layered", ".", "relation:config", "relation:leadership")
	cl := link1(t, c, files{"reactive/layered.py": `
from charms.reactive import when, is_flag_set
from charmhelpers.core.hookenv import relation_ids


@when('config.changed', 'leadership.is_leader')
def configure():
    is_flag_set('leadership.set.x')
    relation_ids(reltype='config')


@when('endpoint.leadership.joined')
def joined():
    pass
`})
	expect(t, "config handlers", handlers(cl, KindRelation, "config"), "")
	expect(t, "config reads", reads(cl, KindRelation, "config"), "reactive/layered.py:8/lookup/flag")
	expect(t, "leadership", handlers(cl, KindRelation, "leadership"), "endpoint.leadership.joined>joined[reactive-flag]")
	expect(t, "leadership reads", reads(cl, KindRelation, "leadership"), "")
}

func TestLibraryObjectsKeptInADict(t *testing.T) {
	// A helper keeps one library object per relation in a dict it fills in a loop
	// (self.relations[rel] = DatabaseRequires(charm, rel)) and observes each one's event
	// through the dict: every relation's object is one of its items, so the handler handles
	// each relation, as the loop's own charm.on[rel] observe does (from a collection, loose,
	// not conditional). An item of another attribute links nothing.
	c := charm("bench", ".", "relation:mysql", "relation:postgresql", "relation:other")
	cl := link1(t, c, files{
		"lib/charms/data_platform_libs/v0/data_interfaces.py": `
import ops

class DatabaseEvents(ops.ObjectEvents):
    endpoints_changed = ops.EventSource(ops.EventBase)

class DatabaseRequires(ops.Object):
    on = DatabaseEvents()

    def __init__(self, charm, relation_name, database_name):
        super().__init__(charm, relation_name)
        self.relation_name = relation_name
`,
		"src/manager.py": `
import ops
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires

class Manager(ops.Object):
    def __init__(self, charm, relation_names):
        super().__init__(charm, None)
        self.charm = charm
        self.relations = {}
        self.names = {}
        for rel in relation_names:
            self.relations[rel] = DatabaseRequires(self.charm, rel, "bench")
            self.names[rel] = rel
            self.framework.observe(getattr(self.relations[rel].on, "endpoints_changed"), self._on_changed)
            self.framework.observe(self.charm.on[rel].relation_broken, self._on_changed)

    def _on_changed(self, event):
        pass
`,
		"src/charm.py": `
import ops
from manager import Manager

class BenchCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.manager = Manager(self, ["mysql", "postgresql"])
`,
	})
	for _, rel := range []string{"mysql", "postgresql"} {
		expect(t, rel, handlers(cl, KindRelation, rel), "endpoints_changed>Manager._on_changed[library] relation_broken>Manager._on_changed[helper]")
		for _, h := range iface(cl, KindRelation, rel).Handlers {
			if h.Conditional || !h.Loose {
				t.Errorf("%s: %+v", rel, h)
			}
		}
	}
	expect(t, "other", handlers(cl, KindRelation, "other"), "")
	expect(t, "findings", findings(cl), "")
}

func TestItemsAddToTheAttribute(t *testing.T) {
	// Items a subclass puts in an attribute its base class sets add to what the base put
	// there, and an item put under a literal key is read under that key only: the base's
	// self.relations["db"] stays the db object.
	lib := `
import ops

class DatabaseEvents(ops.ObjectEvents):
    endpoints_changed = ops.EventSource(ops.EventBase)

class DatabaseRequires(ops.Object):
    on = DatabaseEvents()

    def __init__(self, charm, relation_name, database_name):
        super().__init__(charm, relation_name)
        self.relation_name = relation_name
`
	c := charm("bench", ".", "relation:db", "relation:cache", "relation:queue")
	cl := link1(t, c, files{
		"lib/charms/data_platform_libs/v0/data_interfaces.py": lib,
		"src/base.py": `
import ops
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires

class BaseCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.relations = {"db": DatabaseRequires(self, "db", "x")}
        self.relations["queue"] = DatabaseRequires(self, "queue", "z")
        self.framework.observe(self.relations["db"].on.endpoints_changed, self._on_db)
        self.framework.observe(self.relations["queue"].on.endpoints_changed, self._on_queue)

    def _on_db(self, event):
        pass

    def _on_queue(self, event):
        pass
`,
		"src/charm.py": `
from base import BaseCharm
from charms.data_platform_libs.v0.data_interfaces import DatabaseRequires

class MyCharm(BaseCharm):
    def __init__(self, *args):
        super().__init__(*args)
        self.relations["cache"] = DatabaseRequires(self, "cache", "y")
        self.stores = {}
        for name in ["cache", "queue"]:
            self.stores[name] = DatabaseRequires(self, name, "s")
        for store in self.stores.values():
            self.framework.observe(store.on.endpoints_changed, self._on_store)
        for name, store in self.stores.items():
            self.framework.observe(store.on.endpoints_changed, self._on_store_item)

    def _on_store(self, event):
        pass

    def _on_store_item(self, event):
        pass
`,
	})
	expect(t, "db", handlers(cl, KindRelation, "db"), "endpoints_changed>BaseCharm._on_db[library]")
	expect(t, "queue", handlers(cl, KindRelation, "queue"),
		"endpoints_changed>BaseCharm._on_queue[library] endpoints_changed>MyCharm._on_store[library] endpoints_changed>MyCharm._on_store_item[library]")
	// (a loop over the stores' values or items observes each one's event)
	expect(t, "cache", handlers(cl, KindRelation, "cache"), "endpoints_changed>MyCharm._on_store[library] endpoints_changed>MyCharm._on_store_item[library]")
}

func TestOptionsLoadedFromTheCharmsYAML(t *testing.T) {
	// Code that loads the charm's own YAML and loops over its options (yaml.safe_load(f)
	// ["options"] of config.yaml, ["config"]["options"] of charmcraft.yaml), through a method
	// that returns them, reads every declared option, loosely, as a loop over self.meta.config
	// does; another YAML key, or a load the code does not import from PyYAML, reads none.
	c := charm("connector", ".", "config:api-key", "config:interval")
	cl := link1(t, c, files{"src/charm.py": `
import json
import ops
import yaml

class ConnectorCharm(ops.CharmBase):
    def _options(self):
        f = self.charm_dir / "config.yaml"
        if f.exists():
            return yaml.safe_load(f.read_text())["options"]
        return yaml.safe_load((self.charm_dir / "charmcraft.yaml").read_text())["config"]["options"]

    def _other(self):
        return yaml.safe_load(open("x.yaml"))["settings"]

    def _json(self):
        return json.load(open("x.json"))["options"]

    def _env(self):
        env = {}
        for name, meta in self._options().items():
            env[name] = self.config.get(name)
        return env

    def _more(self):
        for name, _ in self._other().items():
            self.config.get(name)
        for name, _ in self._json().items():
            self.config.get(name)
`})
	expect(t, "api-key", reads(cl, KindConfig, "api-key"), "src/charm.py:21/config-read/get")
	expect(t, "interval", reads(cl, KindConfig, "interval"), "src/charm.py:21/config-read/get")
	if len(cl.Unresolved) != 2 {
		t.Errorf("unresolved: %+v", cl.Unresolved)
	}
	// charmcraft.yaml's config: options, a loader imported by name, a module function
	cl = link1(t, c, files{"src/charm.py": `
import ops
import yaml
from yaml import safe_load

def _options():
    return yaml.safe_load(open("charmcraft.yaml"))["config"]["options"]

class ConnectorCharm(ops.CharmBase):
    def _env(self):
        for name, meta in _options().items():
            self.config.get(name)

    def _env2(self):
        for name in safe_load(open("config.yaml"))["options"]:
            self.config[name]

    def _opts(self):
        return yaml.safe_load(open("config.yaml"))["options"]

    def _env3(self):
        for name in self._opts():
            self.config.get(name)
        for name in _options():
            self.config.get(name)
`})
	expect(t, "api-key", reads(cl, KindConfig, "api-key"),
		"src/charm.py:11/config-read/get src/charm.py:15/config-read/index src/charm.py:22/config-read/get src/charm.py:24/config-read/get")
}

func TestHelperParamForms(t *testing.T) {
	// More ways classic charms read their parameters: a dict of every parameter (args =
	// action_get(), or action_get() or {}), read by key; action_get(key="x"); a shell
	// wrapper script (actions/snap-upgrade) whose Python module beside it
	// (snap-upgrade.py) is the action's code; a table whose functions live in another module,
	// imported or named through its module.
	c := charm("classic", ".", "action:regen(force)", "action:snap-upgrade(use-resource)", "action:snapshot(target)",
		"action:remove-services(host)", "action:rename-host(newhost)", "action:fallback(force)", "action:reused(force)",
		"action:script(force)", "action:db-upgrade(options)")
	c.Actions[8].Script = "actions/db-upgrade" // its module is db_upgrade.py
	c.Actions[0].Script = "actions/actions.py"
	c.Actions[1].Script = "actions/snap-upgrade" // a shell script: not parsed
	c.Actions[3].Script = "actions/actions.py"
	c.Actions[4].Script = "actions/actions.py"
	c.Actions[7].Script = "actions/script.py"
	cl := link1(t, c, files{
		"actions/actions.py": `
from charmhelpers.core import hookenv
import manage
from manage import rename_host

def regen(args):
    cfg = hookenv.action_get() or {}
    args = hookenv.action_get()
    return cfg.get("force"), cfg.get("ttl"), args["tll"]

def fallback():
    try:
        opts = hookenv.action_get()
    except Exception:
        opts = {"force": True, "other": 1}
    return opts["force"], opts["unknown"]

def reused():
    data = hookenv.action_get()
    data = json.loads("{}")
    return data["serial"]

ACTIONS = {"regen": regen, "remove-services": manage.remove_services, "rename-host": rename_host,
           "fallback": fallback, "reused": reused}
`,
		"actions/db_upgrade.py": `
from charmhelpers.core.hookenv import action_get

def main():
    opts = action_get("options")
    return opts["ttl"], action_get("nope")
`,
		"actions/script.py": `
from charmhelpers.core.hookenv import action_get

params = action_get()
params.get("force")
params.get("nope")
action_get().get("force")
action_get()["nada"]
`,
		"actions/manage.py": `
from charmhelpers.core.hookenv import action_get

def remove_services(args):
    return action_get(key="host"), action_get("newhost")

def rename_host(args):
    return action_get("newhost")
`,
		"actions/snap-upgrade.py": `
from charmhelpers.core.hookenv import action_get

if __name__ == "__main__":
    action_get("use-resource")
    action_get("target")
`,
	})
	expect(t, "regen", reads(cl, KindAction, "regen"), "actions/actions.py:8/param-read/cfg.get(\"force\")/force")
	// a fallback dict, or another value on another line: read, never a finding
	expect(t, "fallback", reads(cl, KindAction, "fallback"), "actions/actions.py:15/param-read/opts[\"force\"]/force")
	expect(t, "db-upgrade", reads(cl, KindAction, "db-upgrade"), "actions/db_upgrade.py:4/param-read/action_get(\"options\")/options")
	expect(t, "script", reads(cl, KindAction, "script"),
		"actions/script.py:4/param-read/params.get(\"force\")/force actions/script.py:6/param-read/action_get().get(\"force\")/force")
	expect(t, "remove-services", handlers(cl, KindAction, "remove-services"), "remove-services>remove_services[action-table]")
	expect(t, "rename-host", handlers(cl, KindAction, "rename-host"), "rename-host>rename_host[action-table]")
	expect(t, "remove-services reads", reads(cl, KindAction, "remove-services"), "actions/manage.py:4/param-read/action_get(key=\"host\")/host")
	expect(t, "rename-host", reads(cl, KindAction, "rename-host"), "actions/manage.py:7/param-read/action_get(\"newhost\")/newhost")
	expect(t, "snap-upgrade", reads(cl, KindAction, "snap-upgrade"), "actions/snap-upgrade.py:4/param-read/action_get(\"use-resource\")/use-resource")
	expect(t, "snapshot", reads(cl, KindAction, "snapshot"), "")
	expect(t, "findings", findings(cl), strings.Join([]string{
		"actions/actions.py:8 undeclared-action-param tll",
		"actions/actions.py:8 undeclared-action-param ttl",
		"actions/db_upgrade.py:5 undeclared-action-param nope", // (opts is one parameter's value: its keys are not parameters)
		"actions/manage.py:4 undeclared-action-param newhost",
		"actions/script.py:5 undeclared-action-param nope",
		"actions/script.py:7 undeclared-action-param nada",
		"actions/snap-upgrade.py:5 undeclared-action-param target (cond)",
	}, "\n"))
	// the functions of actions.py run for the table's actions, one each
	for _, f := range cl.Findings {
		if f.NoAction || f.SeveralActions {
			t.Errorf("%s:%d: NoAction %v SeveralActions %v", f.File, f.Line, f.NoAction, f.SeveralActions)
		}
	}
}

func TestImportedPathOfNothing(t *testing.T) {
	// an empty chain (a call of a call's result, `f()()`) names no import, and does not panic
	if full, mod := importedPath(&fileInfo{}, nil); full != "" || mod != "" {
		t.Errorf("%q %q", full, mod)
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
	// with an event set of its own, or with no charm first, observes nothing the linker reads.
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
		for _, h := range iface(cl, KindRelation, "peers").Handlers {
			if !h.CatchAll || !h.Loose || h.Conditional {
				t.Errorf("%s: peers handler %+v, want a catch-all", call, h)
			}
		}
		if f := findings(cl); f != "" {
			t.Errorf("%s: findings %s", call, f)
		}
	}
	for _, call := range []string{
		"observe_all(self, {ops.StartEvent}, self._reconcile)",
		"observe_events(other, all_events, self._reconcile)",
		"observe_events(self, my_events, self._reconcile)",
	} {
		cl := link1(t, c, src(call))
		expect(t, call+": backend", handlers(cl, KindRelation, "backend"), "")
	}
}

func TestIntegrationNameParams(t *testing.T) {
	// integration_name (Juju's newer word for a relation: the IS team's http_proxy library,
	// charmed-hpc's interfaces) names the relation an object is bound to as relation_name
	// does: a declared name binds, an undeclared one is an error.
	c := charm("demo", ".", "relation:http-proxy", "relation:backend-proxy")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from charms.proxy_lib.v0.proxy import ProxyProvider, ProxyRequirer

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.provider = ProxyProvider(self, integration_name="http-proxy")
        self.backend = ProxyRequirer(self, peer_integration_name="backend-proxi")
`,
		"lib/charms/proxy_lib/v0/proxy.py": `
class ProxyProvider:
    def __init__(self, charm, integration_name="http-proxy"):
        self._charm = charm
        self._integration_name = integration_name

class ProxyRequirer:
    def __init__(self, charm, peer_integration_name="backend-proxy"):
        self._name = peer_integration_name
`,
	})
	expect(t, "http-proxy", reads(cl, KindRelation, "http-proxy"), "src/charm.py:7/library/ProxyProvider")
	expect(t, "findings", findings(cl), "src/charm.py:8 undeclared-relation backend-proxi")
}

func TestCharmHelpersBindingLookups(t *testing.T) {
	// charm-helpers' is_relation_made(name) looks a relation up, and get_relation_ip(name),
	// network_get_primary_address(name) and network_get(name) an endpoint's network binding: a
	// declared relation's, one of the charm's extra-bindings, or juju-info's. Any other name is
	// a typo, reported as an undeclared relation.
	c := charm("nova", ".", "relation:nrpe-external-master", "relation:cloud-compute", "relation:secrets-storage")
	c.ExtraBindings = []charmyaml.Binding{{Name: "internal"}}
	cl := link1(t, c, files{"hooks/nova_hooks.py": `
from charmhelpers.core.hookenv import is_relation_made, network_get_primary_address, network_get
from charmhelpers.contrib.network.ip import get_relation_ip


@hooks.hook("config-changed")
def config_changed():
    if is_relation_made("nrpe-external-master"):
        pass
    addr = get_relation_ip("cloud-compute")
    vault = get_relation_ip(interface="secrets-storage")
    internal = network_get_primary_address("internal")
    info = network_get("juju-info")
    if is_relation_made("nrpe-externl-master"):
        pass
    network_get_primary_address("publik")
`})
	expect(t, "nrpe-external-master", reads(cl, KindRelation, "nrpe-external-master"), "hooks/nova_hooks.py:7/lookup/flag")
	expect(t, "cloud-compute", reads(cl, KindRelation, "cloud-compute"), "hooks/nova_hooks.py:9/lookup/flag")
	expect(t, "secrets-storage", reads(cl, KindRelation, "secrets-storage"), "hooks/nova_hooks.py:10/lookup/flag")
	expect(t, "findings", findings(cl), `hooks/nova_hooks.py:13 undeclared-relation nrpe-externl-master
hooks/nova_hooks.py:15 undeclared-relation publik`)
}

func TestOpenStackUseDefaults(t *testing.T) {
	// charms.openstack's use_defaults('shared-db.connected', ...) registers the library's
	// default handlers of those flags: a lookup of each declared relation a flag names, and no
	// finding for one the YAML does not declare (the included layers declare most).
	c := charm("placement", ".", "relation:shared-db", "relation:identity-service", "relation:cluster")
	cl := link1(t, c, files{"reactive/placement_handlers.py": `
import charms.reactive as reactive
import charms_openstack.charm

charms_openstack.charm.use_defaults(
    'charm.installed',
    'shared-db.connected',
    'identity-service.available',
    'amqp.connected',
    'config.changed',
)


@reactive.when('cluster.available')
def render():
    pass
`})
	expect(t, "shared-db", reads(cl, KindRelation, "shared-db"), "reactive/placement_handlers.py:4/lookup/flag")
	expect(t, "identity-service", reads(cl, KindRelation, "identity-service"), "reactive/placement_handlers.py:4/lookup/flag")
	expect(t, "findings", findings(cl), "")
}

func TestParamsReadByAFunctionHandedTheEvent(t *testing.T) {
	// A handler that hands its event to a plain function, of its module or imported by name or
	// through its module (handle_fetch(event), speed.run(event, self.container)), runs that
	// function for the action: its reads of the parameters link, and an undeclared one is a
	// finding that names the action. A function some code the linker does not follow also
	// calls may run for other actions: no finding there.
	c := charm("demo", ".", "action:fetch(url)", "action:speedtest(server)", "action:probe(host)")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
import speed
from fetcher import handle_fetch
from prober import probe

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.fetch_action, self._on_fetch)
        self.framework.observe(self.on.speedtest_action, self._on_speedtest)
        self.framework.observe(self.on.probe_action, self._on_probe)

    def _on_fetch(self, event):
        handle_fetch(event)

    def _on_speedtest(self, event):
        speed.run(event, self.unit)

    def _on_probe(self, event):
        probe(event)
`,
		"src/fetcher.py": `
def handle_fetch(event):
    return event.params["uri"]
`,
		"src/speed.py": `
def run(event, unit):
    return event.params.get("server"), event.params.get("servr")
`,
		"src/prober.py": `
def probe(event):
    return event.params["hostname"]

def elsewhere(evt):
    probe(evt)
`,
	})
	expect(t, "findings", findings(cl), `src/fetcher.py:2 undeclared-action-param uri
src/speed.py:2 undeclared-action-param servr`)
	expect(t, "speedtest", reads(cl, KindAction, "speedtest"), "src/speed.py:2/param-read/get/server")
}
