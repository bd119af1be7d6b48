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

func TestReadInANestedFunction(t *testing.T) {
	// Code in a function nested in a method or function (a pebble layer's command built by an
	// inner def, review rev116: flog's options linked to "FlogCharm.command", no symbol of
	// the file) is the enclosing definition's: the site names the method or function around it.
	c := charm("nest", ".", "config:rate", "config:level", "container:app")
	cl := link1(t, c, files{"src/charm.py": `
import ops


class NestCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.app_pebble_ready, self._on_ready)

    def _on_ready(self, event):
        self.unit.get_container("app").add_layer("x", self._layer(), combine=True)

    def _layer(self):
        def command():
            return f"/bin/app --rate {self.config['rate']}"

        return {"command": command()}


def level(charm):
    def inner():
        return charm.config["level"]

    return inner()
`})
	var got []string
	for _, name := range []string{"rate", "level"} {
		for _, r := range iface(cl, KindConfig, name).Reads {
			got = append(got, fmt.Sprintf("%s %s:%d", r.Symbol, r.File, r.Line))
		}
	}
	expect(t, "readers", strings.Join(got, ", "), "NestCharm._layer src/charm.py:14, level src/charm.py:21")
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

// jujuFacade is a helper class reading config[key] for its callers (vault's JujuFacade).
const jujuFacade = `
class JujuFacade:
    def __init__(self, charm):
        self.charm = charm

    def get_string_config(self, key: str) -> str:
        return str(self.charm.model.config.get(key)) or ""
`

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

func TestImportedPathOfNothing(t *testing.T) {
	// an empty chain (a call of a call's result, `f()()`) names no import, and does not panic
	if full, mod := importedPath(&fileInfo{}, nil); full != "" || mod != "" {
		t.Errorf("%q %q", full, mod)
	}
}

func TestSerializedDataInterfaceLookups(t *testing.T) {
	// The Kubeflow charms' serialized_data_interface keys its objects by relation name:
	// interfaces["object-storage"] of interfaces = get_interfaces(self), or a parameter so
	// named, looks the relation up (review rev124: mlflow, kubeflow-profiles); not in a file
	// that does not import the package.
	c := charm("kf", ".", "relation:object-storage", "relation:ingress", "relation:other")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from serialized_data_interface import get_interfaces

ROUTES = {"sidecar": "ingress"}


class KfCharm(ops.CharmBase):
    def _on_ready(self, event):
        interfaces = get_interfaces(self)
        storage = interfaces["object-storage"]
        self._route(interfaces)

    def _route(self, interfaces):
        if interfaces[ROUTES["sidecar"]]:
            pass
`,
		"src/other.py": `
def f(interfaces):
    return interfaces["other"]
`,
	})
	expect(t, "object-storage", reads(cl, KindRelation, "object-storage"), "src/charm.py:10/lookup/")
	expect(t, "ingress", reads(cl, KindRelation, "ingress"), "src/charm.py:14/lookup/")
	expect(t, "other", reads(cl, KindRelation, "other"), "")
}

func TestResourceImageOf(t *testing.T) {
	// A resource is the image of each container whose resource: names it, in the YAML's
	// order; a resource no container names is the image of none.
	c := charm("demo", ".", "container:app", "container:sidecar", "container:other", "resource:app-image", "resource:dump")
	c.Containers[0].Resource, c.Containers[1].Resource, c.Containers[2].Resource = "app-image", "app-image", "other-image"
	cl := link1(t, c, files{"src/charm.py": "import ops\n"})
	expect(t, "app-image", strings.Join(iface(cl, KindResource, "app-image").ImageOf, ","), "app,sidecar")
	expect(t, "dump", strings.Join(iface(cl, KindResource, "dump").ImageOf, ","), "")
}

func TestFactoryClassMethodObject(t *testing.T) {
	// An object a classmethod or staticmethod factory returns (State.from_charm(self), whose
	// `return cls(...)` builds a State; a subclass's when called on one) has its class's
	// attributes: a field's default names the container (jenkins-agent-k8s's
	// state.jenkins_agent_service_name, review rev124). A call of a plain method is no factory.
	c := charm("demo", ".", "container:app", "container:side", "container:extra")
	cl := link1(t, c, files{
		"src/state.py": `
import dataclasses

@dataclasses.dataclass
class State:
    port: int
    service_name: str = "app"

    @classmethod
    def from_charm(cls, charm):
        return cls(port=int(charm.config.get("port", 1)))

    @staticmethod
    def side():
        return Side()

    def plain(self):
        return Side()

class Side:
    name = "side"

class Extra(State):
    service_name: str = "extra"

@dataclasses.dataclass
class Given:
    port: int = 1
    service_name: str = "app"

    @classmethod
    def by_keyword(cls, charm):
        return cls(service_name=charm.config["container"])

    @classmethod
    def by_position(cls, charm):
        return cls(2, charm.config["container"])

    @classmethod
    def first_only(cls, charm):
        return cls(2)
`,
		"src/charm.py": `
import ops
from state import State, Extra, Given

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.state = State.from_charm(self)
        self.extra = Extra.from_charm(self)

    def _on_ready(self, event):
        self.unit.get_container(self.state.service_name)
        side = State.side()
        self.unit.get_container(side.name)
        self.unit.get_container(self.extra.service_name)
        plain = State.plain()
        self.unit.get_container(plain.name)
        self.unit.get_container(Given.by_keyword(self).service_name)
        kw = Given.by_keyword(self)
        self.unit.get_container(kw.service_name)
        pos = Given.by_position(self)
        self.unit.get_container(pos.service_name)
        first = Given.first_only(self)
        self.unit.get_container(first.service_name)
`})
	// (a field the factory's call passes, by keyword or position, is what it passes, here
	// unknown, never its default: review rev128)
	expect(t, "app", reads(cl, KindContainer, "app"), "src/charm.py:11/lookup/ src/charm.py:23/lookup/")
	expect(t, "side", reads(cl, KindContainer, "side"), "src/charm.py:13/lookup/")
	expect(t, "extra", reads(cl, KindContainer, "extra"), "src/charm.py:14/lookup/")
	var un []string
	for _, u := range cl.Unresolved {
		un = append(un, fmt.Sprint(u.Line))
	}
	expect(t, "unresolved", strings.Join(un, " "), "16 17 19 21")
}
