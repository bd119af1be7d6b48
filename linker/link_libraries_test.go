// Tests of the linker: charm libraries and packages bound to endpoints, callbacks, base charm
// classes and charmcraft extensions.

package linker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

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

func TestSubclassOfOpsInterfacePackageBinds(t *testing.T) {
	// A class of the tree derived from an interface package's class in ops' namespace, with
	// no __init__ of its own (kubernetes-dashboard's LegacyRequires(CertificatesRequires)), is
	// built as that class: the endpoint it is given binds (rev96: ops.interface_* was taken
	// for ops itself, whose Object takes no relation, and "certificates" lost its legacy half).
	c := charm("demo", ".", "relation:certificates", "relation:legacy")
	// however the package is imported (review rev97: as a module, either way)
	for name, imp := range map[string]string{
		"class":  "from ops.interface_tls_certificates import CertificatesRequires\nbase = CertificatesRequires",
		"from":   "from ops import interface_tls_certificates as itc\nbase = itc.CertificatesRequires",
		"dotted": "import ops.interface_tls_certificates\nbase = ops.interface_tls_certificates.CertificatesRequires",
	} {
		module, base, _ := strings.Cut(imp, "\nbase = ")
		cl := link1(t, c, files{"src/charm.py": "import ops\n" + module + "\n\nclass LegacyRequires(" + base + `):
    def get_certificate(self):
        return None

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.legacy = LegacyRequires(self, "legacy")
`})
		expect(t, "legacy ("+name+")", reads(cl, KindRelation, "legacy"), "src/charm.py:11/library/LegacyRequires")
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

func TestContainerHandedToAPackage(t *testing.T) {
	// A container's name handed as a container keyword to an object of a package outside the
	// tree, of a vendored charm library's class, or of a tree class derived from one, is where
	// that object manages it; a service name equal to the container's, and a tree class of its
	// own, are not.
	c := charm("demo", ".", "container:workload", "container:nginx", "container:sidecar", "container:patched")
	cl := link1(t, c, files{
		"lib/charms/patchlib/v0/resources_patch.py": `
import ops

class ResourcesPatch(ops.Object):
    def __init__(self, charm, container_name):
        super().__init__(charm, "patch")
        self.container_name = container_name
`,
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
from charms.patchlib.v0.resources_patch import ResourcesPatch

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.worker = Worker(charm=self, workload_container_name="workload", service_name="nginx")
        self.service = WorkloadService(charm=self, container_name="workload")
        self.own = OwnThing(container_name="sidecar")
        self.patch = ResourcesPatch(self, container_name="patched")
`,
	})
	expect(t, "workload", reads(cl, KindContainer, "workload"), "src/charm.py:10/library/WorkloadService src/charm.py:9/library/Worker")
	expect(t, "nginx", reads(cl, KindContainer, "nginx"), "")
	expect(t, "sidecar", reads(cl, KindContainer, "sidecar"), "")
	// a vendored charm library's class too (review rev117: KubernetesComputeResourcesPatch)
	expect(t, "patched", reads(cl, KindContainer, "patched"), "src/charm.py:12/library/ResourcesPatch")
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

	// in a helper function of the charm's code, given the charm by its caller (rev89:
	// slurmdbd's peer relation, looked up by a helper, was reported unhandled)
	cl = link1(t, c, files{"src/charm.py": `
import ops
from helpers import seed

class PkgFnCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.start, self._on_start)

    def _on_start(self, _):
        seed(self)
`, "src/helpers.py": `
from netutil.addresses import address_of

PEER = "cluster"

def seed(charm):
    return address_of(charm, PEER)
`})
	expect(t, "cluster in a helper", reads(cl, KindRelation, "cluster"), "src/helpers.py:6/library/address_of")
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
	c := charm("based", ".", "action:pause", "action:fortune", "config:source", "relation:storage-backend", "relation:db")
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
	// but not another action: every action ops_openstack observes is known (packageActions)
	expect(t, "fortune", reads(cl, KindAction, "fortune"), "")
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

func TestRoleByLibraryClassName(t *testing.T) {
	// A vendored library's class named for the side it binds, whose module defines the
	// counterpart, bound to an endpoint the YAML declares on the other side: relation-mismatch
	// "role-name" (rev109). Not without the counterpart (a class named after the remote side),
	// nor on the side it names, nor for a container-scoped relation.
	c := charm("demo", ".", "relation:db", "relation:cache", "relation:lb", "relation:mount")
	c.Relations[0].Role, c.Relations[1].Role, c.Relations[2].Role = "requires", "provides", "requires"
	c.Relations[3].Role, c.Relations[3].Scope = "requires", "container"
	cl := link1(t, c, files{
		"lib/charms/data/v0/database.py": `
import ops

class DatabaseRequires(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)

class DatabaseProvides(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)

class LBProvider(ops.Object):
    def __init__(self, charm, relation_name):
        super().__init__(charm, relation_name)
`,
		"src/charm.py": `
import ops
from charms.data.v0.database import DatabaseProvides, DatabaseRequires, LBProvider

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.db = DatabaseProvides(self, "db")
        self.cache = DatabaseProvides(self, "cache")
        self.lb = LBProvider(self, "lb")
        self.mount = DatabaseProvides(self, "mount")
`})
	got := findingsWith(cl, func(f Finding) string { return f.Mismatch + " " + f.Expected + " " + f.Declared })
	expect(t, "findings", got, "src/charm.py:7 relation-mismatch db role-name provides requires")
}
