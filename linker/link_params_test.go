// Tests of the linker: action parameters read by handlers and the helpers they call.

package linker

import (
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

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

func TestIntegrationNameParams(t *testing.T) {
	// integration_name (Juju's newer word for a relation: the IS team's http_proxy library,
	// charmed-hpc's interfaces) names the relation an object is bound to as relation_name
	// does: a declared name binds, an undeclared one is an error.
	c := charm("demo", ".", "relation:http-proxy", "relation:backend-proxy")
	c.Relations[0].Role = "provides" // (ProxyProvider plays that side: roleByName)
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
