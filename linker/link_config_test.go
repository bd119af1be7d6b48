// Tests of the linker: config options read (typed config, helpers, templates, charm-helpers'
// config, loops over every option, adapters).

package linker

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

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

func TestTypedConfigDump(t *testing.T) {
	// A whole dump of the typed config (cfg.dict(), self.typed_config.model_dump(), a helper's
	// self.config.model_dump() given it) reads every option its class's fields load, loosely,
	// as a loop over config.items() does (review rev117: kafka-connect's converters); a dump
	// of another object reads nothing, nor one of an attribute not named for the config
	// (self.typed: only objects whose names say config are read for keys and attributes).
	c := charm("props", ".", "config:key_converter", "config:log-level", "config:other")
	cl := link1(t, c, files{"src/charm.py": `
import ops
import pydantic


class CharmConfig(pydantic.BaseModel):
    key_converter: str
    log_level: str = pydantic.Field(alias="log-level")


class Writer:
    def __init__(self, config):
        self.config = config

    def render(self):
        return dict(self.config.model_dump().items())


class PropsCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.typed_config = self.load_config(CharmConfig)
        Writer(self.typed_config).render()
        print(self.typed_config.model_dump(), self.typed.model_dump())
        cfg = self.load_config(CharmConfig)
        print(cfg.dict(), self.unit.json())
        peer_config = RelationData(host="x")
        print(peer_config.model_dump(), data.ociconfig.dict())
        self._parsed_config = CharmConfig(**config)
        print(self._parsed_config.model_dump())
        print(holder.typed_config.model_dump(), data.ociconfig.model_dump())


class RelationData(pydantic.BaseModel):
    host: str
`})
	// not a dump of another model named *config (review rev121: peer_config, kiali's
	// KialiConfigSpec, slurmctld's data.ociconfig), but one of the config class built by hand,
	// or held by another object under a config name (holder.typed_config, review rev125)
	want := map[string]string{
		"key_converter": "src/charm.py:15/config-read/attr src/charm.py:23/config-read/attr src/charm.py:25/config-read/attr src/charm.py:29/config-read/attr src/charm.py:30/config-read/attr src/charm.py:6/config-read/field",
		"log-level":     "src/charm.py:15/config-read/attr src/charm.py:23/config-read/attr src/charm.py:25/config-read/attr src/charm.py:29/config-read/attr src/charm.py:30/config-read/attr src/charm.py:7/config-read/field",
	}
	for _, name := range []string{"key_converter", "log-level"} {
		expect(t, name, reads(cl, KindConfig, name), want[name])
	}
	expect(t, "other", reads(cl, KindConfig, "other"), "")
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

func TestConfigPop(t *testing.T) {
	// .pop(key) on a copy of the config reads the option as .get does (review rev117:
	// gcp-cloud-provider's provider-release) when it gives a default, as an index does (a
	// KeyError for a missing key) when it does not.
	c := charm("demo", ".", "config:provider-release")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        config = dict(self.config)
        config["release"] = config.pop("provider-release", None)
        return config

    def _other(self, event):
        return self.config.pop("provider-release")
`})
	expect(t, "provider-release", reads(cl, KindConfig, "provider-release"), "src/charm.py:10/config-read/index src/charm.py:5/config-read/all src/charm.py:6/config-read/get")
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

	// the whole config put in a local first, then unpacked (istio, kiali: review rev103)
	cl = link1(t, c, files{"src/charm.py": `
import ops
import pydantic

class SearchConfig(pydantic.BaseModel):
    index_name: str
    port: int = 9200
    replicas: int

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        config = dict(self.model.config.items())
        cfg = SearchConfig(**config)
        return cfg.index_name
`})
	expect(t, "findings from a local", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%v", f.Field) }), "src/charm.py:7 undeclared-config replicas true")
	expect(t, "leftover from a local", reads(cl, KindConfig, "leftover"), "")
	expect(t, "port from a local", reads(cl, KindConfig, "port"), "src/charm.py:6/config-read/field")

	// not when the local is given other keys, or is another dict by the time it is unpacked
	// (review rev106)
	cl = link1(t, c, files{"src/charm.py": `
import ops
import pydantic

class SearchConfig(pydantic.BaseModel):
    index_name: str
    namespace: str

class OtherConfig(pydantic.BaseModel):
    mode: str

class DemoCharm(ops.CharmBase):
    def _configure(self, event):
        config = dict(self.model.config.items())
        config["namespace"] = self.model.name
        cfg = SearchConfig(**config)
        other = dict(self.model.config.items())
        other = {"mode": "x"}
        return cfg, OtherConfig(**other)
`})
	expect(t, "findings from a changed local", findings(cl), "")

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

func TestLoadedConfigFieldWithoutADefault(t *testing.T) {
	// A field that names no option and has no default makes loading the config fail
	// (Finding.Required): a bare annotation, `...`, or Field() without a default. One with a
	// default, a default in Field(), or an Optional annotation (None under pydantic v1) only
	// keeps its default.
	c := charm("demo", ".", "config:port")
	cl := link1(t, c, files{"src/charm.py": `
import typing
import ops
import pydantic
from pydantic import Field

class Cfg(pydantic.BaseModel):
    port: int
    a: int
    b: int = 1
    c: int = Field(gt=0)
    d: str = Field("x", min_length=1)
    e: typing.Optional[str]
    f: str = Field(default="x")
    g: int = ...
    h: str | None
    i: list = Field(default_factory=list)
    j: int = pydantic.Field(..., ge=1)
    k: typing.Optional[str] = Field(...)

class DemoCharm(ops.CharmBase):
    def configure(self):
        cfg = self.load_config(Cfg)
`})
	expect(t, "findings", findingsWith(cl, func(f Finding) string { return fmt.Sprintf("%v", f.Required) }),
		"src/charm.py:8 undeclared-config a true\nsrc/charm.py:9 undeclared-config b false\nsrc/charm.py:10 undeclared-config c true\n"+
			"src/charm.py:11 undeclared-config d false\nsrc/charm.py:12 undeclared-config e false\nsrc/charm.py:13 undeclared-config f false\n"+
			"src/charm.py:14 undeclared-config g true\nsrc/charm.py:15 undeclared-config h false\nsrc/charm.py:16 undeclared-config i false\n"+
			"src/charm.py:17 undeclared-config j true\nsrc/charm.py:18 undeclared-config k true")
}

func TestUnreadParams(t *testing.T) {
	// An action whose handler never looks at its event's params ignores what an operator
	// passes (rev96: munge's rotate-munge-key made a new key whatever munge-key said). Only
	// where that is sure: a handler that reads params, hands the event to a helper that
	// does, to code the linker does not follow, loads typed params, is decorated, or lives in
	// a library, may read them.
	c := charm("demo", ".", "action:rotate(key)", "action:helped(key)", "action:reads(key,other)", "action:byhelper(key)",
		"action:outside(key)", "action:typed(key)", "action:decorated(key)", "action:noparams", "action:whole(key)",
		"action:multi1(key)", "action:multi2(key)", "action:registered(key)", "action:imported(key)",
		"action:attrobj(key)", "action:super(key)", "action:stored(key)", "action:indexed(key)")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
import somewhere

def audited(f):
    return f

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.rotate_action, self._on_rotate)
        self.framework.observe(self.on.helped_action, self._on_helped)
        self.framework.observe(self.on.reads_action, self._on_reads)
        self.framework.observe(self.on.byhelper_action, self._on_byhelper)
        self.framework.observe(self.on.outside_action, self._on_outside)
        self.framework.observe(self.on.typed_action, self._on_typed)
        self.framework.observe(self.on.decorated_action, self._on_decorated)
        self.framework.observe(self.on.noparams_action, self._on_noparams)
        self.framework.observe(self.on.whole_action, self._on_whole)
        # a dispatcher of several actions, a registrar of a lambda, a function imported into
        # the class: each may read the params where this cannot be seen
        self.framework.observe(self.on.multi1_action, self._dispatch)
        self.framework.observe(self.on.multi2_action, self._dispatch)
        self._register(self.on.registered_action, somewhere.registered)
        self.framework.observe(self.on.imported_action, self.on_imported_action)
        self.framework.observe(self.on.attrobj_action, self._on_attrobj)
        self.framework.observe(self.on.super_action, self._on_super)
        self.framework.observe(self.on.stored_action, self._on_stored)
        self.framework.observe(self.on["indexed"].action, self._on_indexed)

    def _on_indexed(self, event):
        event.set_results({})

    def _on_attrobj(self, event):
        self._workload.rotate_key(event)

    def _on_super(self, action):
        super()._on_super(action)

    def _on_stored(self, event):
        self._pending = event

    from actions import on_imported_action

    def _dispatch(self, event):
        return {"multi1_action": self._noop, "multi2_action": self._noop}[event.handle.kind](event)

    def _noop(self, event):
        pass

    def _register(self, on_action, fn):
        method = lambda _, event: fn(event)
        method.__name__ = "on_" + str(on_action.event_kind)
        setattr(type(self), method.__name__, method)
        self.framework.observe(on_action, getattr(self, method.__name__))

    def _on_rotate(self, event):
        event.set_results({"key": self._new_key()})

    def _on_helped(self, event):
        self._finish(event)

    def _finish(self, event):
        event.set_results({"done": True})

    def _on_reads(self, event):
        event.set_results({"key": event.params["key"]})

    def _on_byhelper(self, event):
        self._use(event)

    def _use(self, event):
        return event.params.get("key")

    def _on_outside(self, event):
        somewhere.handle(event)

    def _on_typed(self, event):
        p = event.load_params(Params)
        event.set_results({"k": p.key})

    @audited
    def _on_decorated(self, event):
        event.set_results({})

    def _on_noparams(self, event):
        event.set_results({})

    def _on_whole(self, event):
        self._apply(**event.params)

    def _apply(self, **kw):
        pass

    def _new_key(self):
        return "k"
`,
	})
	// a handler that hands its event on, even to a helper of the tree that reads nothing, is
	// not held to it: pyextract records few calls, so what else the event reaches is not
	// known (review rev97: self._workload.rotate_key(event), super()._on_x(event), a helper
	// given it under another name, an event kept on self)
	for name, want := range map[string]string{"rotate": "DemoCharm._on_rotate", "helped": "",
		"attrobj": "", "super": "", "stored": "", "indexed": "DemoCharm._on_indexed",
		"reads": "DemoCharm._on_reads", "byhelper": "", "outside": "", "typed": "", "decorated": "", "noparams": "", "whole": "",
		"multi1": "", "multi2": "", "registered": "", "imported": ""} {
		if got := iface(cl, KindAction, name).ParamsUnread; got != want {
			t.Errorf("%s: ParamsUnread %q, want %q", name, got, want)
		}
	}
	// reads holds "key" and never "other": ParamsNotRead names the one
	if got := iface(cl, KindAction, "reads").ParamsNotRead; !slices.Equal(got, []string{"other"}) {
		t.Errorf("reads: ParamsNotRead %q", got)
	}
}

func TestParamsNotRead(t *testing.T) {
	// A handler that reads some parameters, each by a key written out, never reads the others
	// (cloudsupport's stop-vms never read its i-really-mean-it: review rev101); not when it
	// also uses the params whole (a model validating them, dict(), **, .items()) or by a key
	// not known, which may be any of them.
	c := charm("demo", ".", "action:some(a,b,c)", "action:model(a,b)", "action:splat(a,b)", "action:loop(a,b)",
		"action:bykey(a,b)", "action:const(a,b)", "action:all(a,b)")
	cl := link1(t, c, files{"src/charm.py": `
import ops

B = "b"

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.some_action, self._on_some)
        self.framework.observe(self.on.model_action, self._on_model)
        self.framework.observe(self.on.splat_action, self._on_splat)
        self.framework.observe(self.on.loop_action, self._on_loop)
        self.framework.observe(self.on.bykey_action, self._on_bykey)
        self.framework.observe(self.on.const_action, self._on_const)
        self.framework.observe(self.on.all_action, self._on_all)

    def _on_some(self, event):
        event.set_results({"a": event.params["a"], "c": event.params.get("c", 0)})

    def _on_model(self, event):
        first = event.params["a"]
        Params.model_validate(event.params)

    def _on_splat(self, event):
        run(event.params["a"], **event.params)

    def _on_loop(self, event):
        event.params.get("a")
        for k, v in event.params.items():
            print(k, v)

    def _on_bykey(self, event, key="b"):
        event.params["a"]
        event.params[self.pick()]

    def _on_const(self, event):
        event.params["a"]
        event.params[B]

    def _on_all(self, event):
        event.params["a"]
        event.params["b"]
`})
	for name, want := range map[string][]string{"some": {"b"}, "model": nil, "splat": nil, "loop": nil, "bykey": nil, "const": nil, "all": nil} {
		if got := iface(cl, KindAction, name).ParamsNotRead; !slices.Equal(got, want) {
			t.Errorf("%s: ParamsNotRead %q, want %q", name, got, want)
		}
	}
}

func TestConfigIndexInATry(t *testing.T) {
	// A try whose handlers catch no lookup error is no condition for config["x"]: the read
	// runs, and the KeyError of an undeclared name escapes (review rev110). A handler of
	// KeyError makes the try a probe; .get() raises nothing, so its try stays a condition.
	c := charm("demo", ".", "config:port")
	cl := link1(t, c, files{"src/charm.py": `
import ops

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        try:
            setup(user=self.config["usr"], port=self.config["port"])
        except ValueError:
            pass
        try:
            setup(user=self.config["usr2"])
        except KeyError:
            pass
        try:
            setup(user=self.config.get("usr3"))
        except ValueError:
            pass
`})
	expect(t, "findings", findings(cl), "src/charm.py:10 undeclared-config usr\nsrc/charm.py:14 undeclared-config usr2 (cond)\nsrc/charm.py:18 undeclared-config usr3 (cond)")
}

func TestGuessedConfigReadOnlyInCharmCode(t *testing.T) {
	// config["x"] on a bare name called config is taken for the charm's config in the charm's
	// code; a workload script the charm ships and never imports reads its own dict (review
	// rev110: blockchain-monitor's exporter hid an unused option).
	c := charm("demo", ".", "config:influxdb-url", "config:port")
	cl := link1(t, c, files{
		"src/charm.py": `
import ops
from helpers import render

class DemoCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        render(self.model.config)
`,
		"src/helpers.py": `
def render(config):
    return config["port"]
`,
		"templates/exporter/exporter.py": `
def client(config: dict):
    return config["influxdb-url"]
`})
	expect(t, "port", reads(cl, KindConfig, "port"), "src/helpers.py:2/config-read/index")
	expect(t, "influxdb-url", reads(cl, KindConfig, "influxdb-url"), "")
}

func TestRelationsLoadedFromTheCharmsYAML(t *testing.T) {
	// Code that loads the charm's own metadata and looks up each relation of some roles
	// (list(metadata["provides"]) + list(metadata["requires"]), any-charm's 538, review
	// rev123) looks up every relation of those roles, more than an expression's maxVals, and
	// not the peer relation; self.meta.requires is the ops spelling of one role.
	c := charmyaml.Charm{Name: "any", Dir: "."}
	add := func(name, role string) {
		c.Relations = append(c.Relations, charmyaml.Relation{Name: name, Role: role, Pos: charmyaml.Pos{File: "metadata.yaml", Line: len(c.Relations) + 1}})
	}
	for i := range maxVals + 8 {
		add(fmt.Sprintf("provide-%d", i), charmyaml.RoleProvides)
	}
	add("require-db", charmyaml.RoleRequires)
	add("peers", charmyaml.RolePeers)
	for name, code := range map[string]string{
		"yaml": `
        with open("metadata.yaml") as fo:
            metadata = yaml.safe_load(fo)
        self._relations = list(metadata["provides"]) + list(metadata["requires"])`,
		"meta": `
        self._relations = list(self.meta.provides) + list(self.meta.requires)`,
	} {
		cl := link1(t, c, files{"src/charm.py": `
import ops
import yaml

class AnyCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)` + code + `

    def _iter(self):
        for name in self._relations:
            yield from self.model.relations[name]
`})
		for _, r := range c.Relations {
			if got := reads(cl, KindRelation, r.Name) != ""; got != (r.Role != charmyaml.RolePeers) {
				t.Errorf("%s: relation %s (%s) looked up: %v", name, r.Name, r.Role, got)
			}
			for _, s := range iface(cl, KindRelation, r.Name).Reads {
				if !s.CatchAll { // a lookup of every relation, none's own
					t.Errorf("%s: relation %s: lookup %+v not a catch-all", name, r.Name, s)
				}
			}
		}
		if len(cl.Unresolved) != 0 {
			t.Errorf("%s: unresolved: %+v", name, cl.Unresolved)
		}
	}
}
