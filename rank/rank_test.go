package rank

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/graph/network"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// --- hand-built inputs -------------------------------------------------------------------

func cls(name string, line int, bases ...string) pyextract.Symbol {
	return pyextract.Symbol{Name: name, Kind: pyextract.KindClass, Line: line, Signature: "class " + name + ":", Bases: bases}
}

func meth(class, name string, line int) pyextract.Symbol {
	return pyextract.Symbol{Name: class + "." + name, Kind: pyextract.KindMethod, Qualifier: class, Line: line,
		Signature: "def " + name + "(self):"}
}

func fn(name string, line int) pyextract.Symbol {
	return pyextract.Symbol{Name: name, Kind: pyextract.KindFunction, Line: line, Signature: "def " + name + "():"}
}

func cnst(name string, line int) pyextract.Symbol {
	return pyextract.Symbol{Name: name, Kind: pyextract.KindConstant, Line: line, Signature: name + " = 1"}
}

func pyFile(path string, syms []pyextract.Symbol, refs map[string]int, imports ...pyextract.Import) pyextract.File {
	f := pyextract.File{Path: path, Symbols: syms, Imports: imports}
	for _, n := range slices.Sorted(func(yield func(string) bool) {
		for k := range refs {
			if !yield(k) {
				return
			}
		}
	}) {
		f.Refs = append(f.Refs, pyextract.Ref{Name: n, Count: refs[n]})
	}
	return f
}

func from(mod, name string) pyextract.Import { return pyextract.Import{Module: mod, Name: name} }

// demoCharm is a small split-YAML charm: its own code in src/, its own library, two vendored
// libraries (one large and heavily used), and tests.
// A handler of a class that two source modules define (the per-module Observer pattern) is
// linked with its module's stem; a class defined once, or also in a library or a test, is not.
func TestYAMLLinksTemplatesOfAnOptionNoCodeReads(t *testing.T) {
	// An option only templates read links to them (review rev115: gnocchi's s3-bucket-prefix
	// looked unused); one the code reads links to the code alone.
	in := demoCharm()
	for k := range in.Links.Charms[0].Interfaces {
		it := &in.Links.Charms[0].Interfaces[k]
		if it.Kind == linker.KindConfig && it.Name == "log-level" {
			it.Reads = append(it.Reads, linker.Site{File: "templates/demo.conf", Line: 3, Via: linker.ViaTemplate})
		}
	}
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindConfig, Name: "port", File: "config.yaml", Line: 8,
		Reads: []linker.Site{{File: "templates/demo.conf", Line: 4, Via: linker.ViaTemplate}, {File: "templates/old/demo.conf", Line: 4, Via: linker.ViaTemplate}}})
	c := fileOf(t, Rank(in), "config.yaml")
	links := func(name string) []string {
		return c.Symbols[slices.IndexFunc(c.Symbols, func(s Symbol) bool { return s.Name == name })].Links
	}
	if l := links("port"); !slices.Equal(l, []string{"templates/demo.conf", "templates/old/demo.conf"}) {
		t.Errorf("port links %q", l)
	}
	if l := links("log-level"); !slices.Equal(l, []string{"DemoCharm._on_config_changed"}) {
		t.Errorf("log-level links %q", l)
	}
}

func TestYAMLLinksDeadReadersLast(t *testing.T) {
	// A reader in code that never runs (linker Site.Dead) comes after the live ones, though it
	// comes first in the file (review rev111).
	in := demoCharm()
	for k := range in.Links.Charms[0].Interfaces {
		if it := &in.Links.Charms[0].Interfaces[k]; it.Kind == linker.KindConfig && it.Name == "log-level" {
			it.Reads = append([]linker.Site{{File: "src/charm.py", Line: 5, Symbol: "DemoCharm._helper", Via: linker.ViaConfig, Dead: true}}, it.Reads...)
		}
	}
	c := fileOf(t, Rank(in), "config.yaml")
	if l := c.Symbols[slices.IndexFunc(c.Symbols, func(s Symbol) bool { return s.Name == "log-level" })].Links; !slices.Equal(l, []string{"DemoCharm._on_config_changed", "DemoCharm._helper"}) {
		t.Errorf("log-level links %q", l)
	}
}

func TestYAMLLinksQualifySharedClassNames(t *testing.T) {
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("src/actions.py", []pyextract.Symbol{cls("DatabaseHandler", 3), meth("DatabaseHandler", "on_backup", 5)}, nil),
		pyFile("tests/unit/helpers.py", []pyextract.Symbol{cls("DemoCharm", 3)}, nil))
	r := Rank(in)
	md := fileOf(t, r, "metadata.yaml")
	if l := md.Symbols[slices.IndexFunc(md.Symbols, func(s Symbol) bool { return s.Name == "database" })].Links; !slices.Equal(l, []string{"database.DatabaseHandler._on_database_created"}) {
		t.Errorf("relation handled by a class two modules define: links %q", l)
	}
	if l := fileOf(t, r, "actions.yaml").Symbols[0].Links; !slices.Equal(l, []string{"DemoCharm._on_backup_action"}) {
		t.Errorf("a class only a test also defines: links %q", l)
	}
}

// A multi-line default (a block scalar holding JSON) is shown on one line with its
// indentation folded; a one-line default keeps its blanks.
func TestConfigSigMultiLineDefault(t *testing.T) {
	for def, want := range map[string]string{
		"[\n  {\n    \"users\": 1\n  }\n]\n": `[config] policy (string, default "[ { \"users\": 1 } ]")`,
		"a  b":                               `[config] policy (string, default "a  b")`,
	} {
		o := charmyaml.ConfigOption{Name: "policy", Type: "string", HasDefault: true, Default: def}
		if got := configSig(o); got != want {
			t.Errorf("configSig(%q) = %s, want %s", def, got, want)
		}
	}
}

// A typed config class's field that declares an option is that option's reader: it ranks
// above the class's other fields, and above its methods when the task names the option.
func TestTypedConfigFieldsAreReaders(t *testing.T) {
	field := func(class, name string, line int) pyextract.Symbol {
		return pyextract.Symbol{Name: class + "." + name, Kind: pyextract.KindField, Qualifier: class, Line: line, Signature: name + ": int"}
	}
	build := func() Input {
		in := demoCharm()
		in.Files = append(in.Files, pyFile("src/structured.py", []pyextract.Symbol{cls("CharmConfig", 3),
			field("CharmConfig", "aaa_other", 4), field("CharmConfig", "log_level", 5),
			meth("CharmConfig", "validate", 8)}, nil))
		for k := range in.Links.Charms[0].Interfaces {
			if it := &in.Links.Charms[0].Interfaces[k]; it.Kind == linker.KindConfig && it.Name == "log-level" {
				it.Reads = append(it.Reads, linker.Site{File: "src/structured.py", Line: 5, Symbol: "CharmConfig", Via: linker.ViaConfig, Detail: "field"})
			}
		}
		return in
	}
	order := func(r Result) []string { return symbolNames(t, r, "src/structured.py") }
	in := build()
	if got := order(Rank(in)); slices.Index(got, "CharmConfig.log_level") > slices.Index(got, "CharmConfig.aaa_other") {
		t.Errorf("the option's field is not above the other field: %v", got)
	}
	in = build()
	in.Mentions = []string{"the log-level option is ignored"}
	if got := order(Rank(in)); slices.Index(got, "CharmConfig.log_level") > slices.Index(got, "CharmConfig.validate") {
		t.Errorf("the named option's field is not above the class's method: %v", got)
	}
}

func TestAddedOptionLiftsTheConfigClass(t *testing.T) {
	// "Add a config option ..." lifts the YAML declaring options and, below it, the file of
	// the class the charm loads them into (the linker's field reads), where the new field
	// goes; another task does not.
	build := func(text string) Result {
		in := demoCharm()
		in.Files = append(in.Files, pyFile("src/structured.py", []pyextract.Symbol{cls("CharmConfig", 3),
			{Name: "CharmConfig.log_level", Kind: pyextract.KindField, Qualifier: "CharmConfig", Line: 5, Signature: "log_level: str"}}, nil))
		for k := range in.Links.Charms[0].Interfaces {
			if it := &in.Links.Charms[0].Interfaces[k]; it.Kind == linker.KindConfig && it.Name == "log-level" {
				it.Reads = append(it.Reads, linker.Site{File: "src/structured.py", Line: 5, Symbol: "CharmConfig", Via: linker.ViaConfig, Detail: "field"})
			}
		}
		in.Mentions = []string{text}
		return Rank(in)
	}
	added := build("Add a config option for the cache size")
	if f := fileOf(t, added, "src/structured.py"); !hasSignal(f, SigConfigClass) || position(added, "src/structured.py") > 3 {
		t.Errorf("added option: src/structured.py at %d, %+v", position(added, "src/structured.py"), f.Signals)
	}
	if f := fileOf(t, build("Fix the cache size handling"), "src/structured.py"); hasSignal(f, SigConfigClass) {
		t.Errorf("no addition: %+v", f.Signals)
	}
}

func TestAddedOptionLiftsTheConfigModule(t *testing.T) {
	// With no typed config class, "Add a config option ..." lifts the module of the charm's
	// code that reads the most options, when it reads ConfigModuleMin or more, a third of
	// them, and more than any other file (review rev116, rev119: glauth's and authentik's
	// src/configs.py); not one that reads fewer, nor for another task.
	build := func(text string, read int) Result {
		in := demoCharm()
		for k, name := range []string{"alpha", "beta", "gamma"} {
			pos := charmyaml.Pos{File: "config.yaml", Line: 20 + 4*k}
			in.Charms[0].Config = append(in.Charms[0].Config, charmyaml.ConfigOption{Name: name, Type: "string", Pos: pos})
			it := linker.Interface{Kind: linker.KindConfig, Name: name, File: "config.yaml", Line: pos.Line}
			if k < read {
				it.Reads = []linker.Site{{File: "src/config_render.py", Line: 5 + k, Symbol: "render_config", Via: linker.ViaConfig}}
			}
			in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, it)
		}
		in.Mentions = []string{text}
		return Rank(in)
	}
	if f := fileOf(t, build("Add a config option for the cache size", 3), "src/config_render.py"); !hasSignal(f, SigConfigClass) {
		t.Errorf("three options read: %+v", f.Signals)
	}
	if f := fileOf(t, build("Add a config option for the cache size", 2), "src/config_render.py"); hasSignal(f, SigConfigClass) {
		t.Errorf("two options read: %+v", f.Signals)
	}
	if f := fileOf(t, build("Fix the cache size handling", 3), "src/config_render.py"); hasSignal(f, SigConfigClass) {
		t.Errorf("no addition: %+v", f.Signals)
	}
}

func demoCharm() Input {
	ch := charmyaml.Charm{
		Name: "demo-db", Dir: ".",
		Files: []string{"actions.yaml", "charmcraft.yaml", "config.yaml", "metadata.yaml"},
		Relations: []charmyaml.Relation{
			{Name: "database", Role: charmyaml.RoleRequires, Interface: "postgresql_client", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 7}},
			{Name: "replicas", Role: charmyaml.RolePeers, Interface: "demo_peers", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 11}},
		},
		Config: []charmyaml.ConfigOption{
			{Name: "log-level", Type: "string", Default: "info", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 3}},
			{Name: "port", Type: "int", Pos: charmyaml.Pos{File: "config.yaml", Line: 8}},
		},
		Actions: []charmyaml.Action{
			{Name: "backup", Params: []charmyaml.Param{{Name: "path"}, {Name: "force"}}, Pos: charmyaml.Pos{File: "actions.yaml", Line: 1}},
		},
		Containers: []charmyaml.Container{{Name: "app", Resource: "app-image", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 15}}},
	}
	files := []pyextract.File{
		pyFile("src/charm.py",
			[]pyextract.Symbol{cls("DemoCharm", 10), meth("DemoCharm", "__init__", 12), meth("DemoCharm", "_on_config_changed", 30),
				meth("DemoCharm", "_on_backup_action", 40), meth("DemoCharm", "_helper", 50)},
			map[string]int{"DatabaseHandler": 2, "DatabaseRequires": 1, "render_config": 2, "main": 1, "ops": 3,
				"WORKLOAD_PORT": 1, "_on_config_changed": 1, "_on_backup_action": 1, "DemoApi": 1, "_helper": 1},
			pyextract.Import{Module: "ops"}, from("database", "DatabaseHandler"), from("config_render", "render_config"),
			from("constants", "WORKLOAD_PORT"), from("charms.demo_db.v0.api", "DemoApi"),
			from("charms.data_platform_libs.v0.data_interfaces", "DatabaseRequires")),
		pyFile("src/database.py",
			[]pyextract.Symbol{cls("DatabaseHandler", 5), meth("DatabaseHandler", "__init__", 6), meth("DatabaseHandler", "_on_database_created", 20)},
			map[string]int{"DatabaseRequires": 1, "WORKLOAD_PORT": 1, "database_created": 1, "_on_database_created": 1},
			from("constants", "WORKLOAD_PORT"), from("charms.data_platform_libs.v0.data_interfaces", "DatabaseRequires")),
		pyFile("src/constants.py", []pyextract.Symbol{cnst("WORKLOAD_PORT", 1), cnst("PEER", 2)}, nil),
		pyFile("src/config_render.py", []pyextract.Symbol{fn("render_config", 3), fn("_indent", 20)},
			map[string]int{"WORKLOAD_PORT": 1, "_indent": 2}, from("constants", "WORKLOAD_PORT")),
		pyFile("lib/charms/demo_db/v0/api.py", []pyextract.Symbol{cls("DemoApi", 3), meth("DemoApi", "get_status", 5)}, nil),
		pyFile("lib/charms/data_platform_libs/v0/data_interfaces.py", libSymbols("Database", 40),
			map[string]int{"relation_data": 5, "fetch_relation_field": 6}),
		pyFile("lib/charms/observability_libs/v0/kubernetes_service_patch.py", libSymbols("ServicePatch", 25), nil),
		pyFile("tests/unit/test_charm.py", []pyextract.Symbol{fn("test_config_changed", 5), fn("test_backup", 20)},
			map[string]int{"DemoCharm": 3, "DatabaseHandler": 1, "render_config": 1, "WORKLOAD_PORT": 2},
			from("charm", "DemoCharm")),
		pyFile("tests/conftest.py", []pyextract.Symbol{fn("harness", 3)}, map[string]int{"DemoCharm": 1}),
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo-db", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "database", Role: "requires", Interface: "postgresql_client", File: "metadata.yaml", Line: 7,
			Handlers: []linker.Handler{{Event: "database_created", Symbol: "DatabaseHandler._on_database_created", File: "src/database.py", Line: 20, Via: linker.ViaLibrary}}},
		{Kind: linker.KindConfig, Name: "log-level", File: "config.yaml", Line: 3,
			Reads: []linker.Site{{File: "src/charm.py", Line: 31, Symbol: "DemoCharm._on_config_changed", Via: linker.ViaConfig}}},
		{Kind: linker.KindAction, Name: "backup", File: "actions.yaml", Line: 1,
			Handlers: []linker.Handler{{Event: "backup_action", Symbol: "DemoCharm._on_backup_action", File: "src/charm.py", Line: 40, Via: linker.ViaObserve}}},
		{Kind: linker.KindLifecycle, Name: "config-changed",
			Handlers: []linker.Handler{{Event: "config_changed", Symbol: "DemoCharm._on_config_changed", File: "src/charm.py", Line: 30, Via: linker.ViaObserve}}},
	}}}}
	return Input{Files: files, Charms: []charmyaml.Charm{ch}, Links: links}
}

// libSymbols makes a big vendored library: two classes with n methods each that reference
// each other, as real libraries do.
func libSymbols(prefix string, n int) []pyextract.Symbol {
	var out []pyextract.Symbol
	for _, c := range []string{prefix + "Requires", prefix + "Provides"} {
		out = append(out, cls(c, len(out)+1))
		for k := range n {
			out = append(out, meth(c, fmt.Sprintf("method_number_%d", k), len(out)+1))
		}
	}
	return out
}

func paths(r Result) []string {
	var out []string
	for _, f := range r.Files {
		out = append(out, f.Path)
	}
	return out
}

func position(r Result, p string) int {
	return slices.Index(paths(r), p)
}

// symbolNames are the names of file p's symbols in ranked order.
func symbolNames(t *testing.T, r Result, p string) []string {
	t.Helper()
	var names []string
	for _, s := range fileOf(t, r, p).Symbols {
		names = append(names, s.Name)
	}
	return names
}

func fileOf(t *testing.T, r Result, p string) File {
	t.Helper()
	i := position(r, p)
	if i < 0 {
		t.Fatalf("%s not ranked: %v", p, paths(r))
	}
	return r.Files[i]
}

// --- tests --------------------------------------------------------------------------------

func TestClassify(t *testing.T) {
	charms := []charmyaml.Charm{
		{Name: "kafka-k8s", Dir: "k8s", Files: []string{"k8s/metadata.yaml", "k8s/charmcraft.yaml"}},
		{Name: "kafka", Dir: "machine", Files: []string{"machine/charmcraft.yaml"}},
	}
	cases := map[string]string{
		"k8s/src/charm.py":                            ClassSource,
		"k8s/src/events/tls.py":                       ClassSource,
		"k8s/lib/charms/kafka_k8s/v0/api.py":          ClassSource, // the charm's own library
		"machine/lib/charms/kafka/v0/client.py":       ClassSource,
		"k8s/lib/charms/tls_certificates/v4/tls.py":   ClassLib,
		"lib/charms/grafana_k8s/v0/grafana_dash.py":   ClassLib,
		"hooks/charmhelpers/core/hookenv.py":          ClassLib, // vendored charm-helpers
		"charmhelpers/__init__.py":                    ClassLib,
		"hooks/charmhelpers.py":                       ClassOther,
		"lib/ops/framework.py":                        ClassLib, // the operator framework copied into an early charm
		"k8s/lib/yaml/error.py":                       ClassLib,
		"k8s/lib/pod_spec.py":                         ClassSource, // the charm's own module in lib/
		"k8s/lib/opsutils/x.py":                       ClassSource,
		"k8s/lib/charms_ceph/broker.py":               ClassLib,
		"lib/charms/layer/gcp.py":                     ClassSource, // a reactive charm's own layer code
		"machine/actions/add-user":                    ClassSource, // a Python action script (repomap.PythonScript)
		"lib/charms/layer/basic.py":                   ClassLib,    // layer:basic, copied in by charm build
		"k8s/src/lib/ops/x.py":                        ClassSource, // not the charm's lib/
		"tests/unit/test_charm.py":                    ClassTest,
		"k8s/tests/integration/helpers.py":            ClassTest,
		"unit_tests/__init__.py":                      ClassTest, // OpenStack's test folder
		"unit_tests/test_keystone_hooks.py":           ClassTest,
		"tests/integration/app-charm/src/charm.py":    ClassTest,
		"tests/integration/app-charm/metadata.yaml":   ClassTest,
		"src/test_utils.py":                           ClassTest,
		"src/utils_test.py":                           ClassTest,
		"conftest.py":                                 ClassTest,
		"k8s/metadata.yaml":                           ClassYAML,
		"machine/charmcraft.yaml":                     ClassYAML,
		"machine/metadata.yaml":                       ClassYAML, // a charm YAML name in a charm folder
		"common/single_kernel/core/models.py":         ClassOther,
		"common/src/shared.py":                        ClassSource,
		"k8s/scripts/rotate.py":                       ClassOther,
		"k8s/src/hack/update_dashboards.py":           ClassOther, // a dev script beside the charm's code
		"k8s/src/hack.py":                             ClassSource,
		"docs/conf.py":                                ClassOther,
		"upstream/version.py":                         ClassOther,
		"src/upstream/__init__.py":                    ClassSource,
		"k8s/setup.py":                                ClassOther,
		"./k8s/src/../src/workload.py":                ClassSource,
		"k8s/reactive/handlers.py":                    ClassSource,
		"renovate.yaml":                               ClassOther,
		"lib/charms/kafka_k8s/v0/../../../x/tests.py": ClassOther,
	}
	for p, want := range cases {
		if got := Classify(p, charms); got != want {
			t.Errorf("Classify(%q) = %s, want %s", p, got, want)
		}
	}
	// Without any charm, all non-test, non-library code is the project's own.
	if got := Classify("tools/gen.py", nil); got != ClassSource {
		t.Errorf("Classify without charms = %s, want source", got)
	}
	// A root charm: everything nested is its code except helper folders.
	root := []charmyaml.Charm{{Name: "demo", Dir: "."}}
	for p, want := range map[string]string{"src/charm.py": ClassSource, "lib/helpers.py": ClassSource,
		"docs/conf.py": ClassOther, "noxfile.py": ClassOther, "lib/charms/demo/v0/x.py": ClassSource,
		"documentation/.sphinx/update_sp.py": ClassOther, ".sphinx/build.py": ClassOther, ".github/bump.py": ClassOther} {
		if got := Classify(p, root); got != want {
			t.Errorf("root charm: Classify(%q) = %s, want %s", p, got, want)
		}
	}
	// A base layer's module is vendored in a charm built on it, and the code of the layer's
	// own repository: a layer's folder, or the charm named like the module (layer-docker's
	// metadata names it docker).
	for _, tc := range []struct {
		charm charmyaml.Charm
		want  string
	}{
		{charmyaml.Charm{Name: "kubernetes-worker", Dir: "."}, ClassLib},
		{charmyaml.Charm{Name: "docker", Dir: "."}, ClassSource},
		{charmyaml.Charm{Dir: ".", Layer: true}, ClassSource},
		{charmyaml.Charm{Dir: "other", Layer: true}, ClassLib},
	} {
		if got := Classify("lib/charms/layer/docker.py", []charmyaml.Charm{tc.charm}); got != tc.want {
			t.Errorf("charm %+v: Classify(lib/charms/layer/docker.py) = %s, want %s", tc.charm, got, tc.want)
		}
	}
}

func TestCharmEntryPointFirstLibsAndTestsLow(t *testing.T) {
	r := Rank(demoCharm())
	if got := r.Files[0].Path; got != "src/charm.py" {
		t.Fatalf("first file = %s, want src/charm.py; order %v", got, paths(r))
	}
	last := map[string]int{}
	for i, f := range r.Files {
		last[f.Class] = max(last[f.Class], i)
	}
	first := map[string]int{}
	for i := len(r.Files) - 1; i >= 0; i-- {
		first[r.Files[i].Class] = i
	}
	if first[ClassLib] < last[ClassSource] || first[ClassTest] < last[ClassSource] {
		t.Errorf("a library or test outranks first-party code: %v", paths(r))
	}
	for _, p := range []string{"metadata.yaml", "actions.yaml", "config.yaml"} {
		if position(r, p) > position(r, "lib/charms/data_platform_libs/v0/data_interfaces.py") {
			t.Errorf("%s ranks below a vendored library: %v", p, paths(r))
		}
	}
	sum := 0.0
	for _, f := range r.Files {
		sum += f.Score
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("scores sum to %v, want 1", sum)
	}
	if c := fileOf(t, r, "lib/charms/demo_db/v0/api.py").Class; c != ClassSource {
		t.Errorf("own library class = %s", c)
	}
	ch := fileOf(t, r, "src/charm.py")
	if !hasSignal(ch, SigHub) || !hasSignal(ch, SigPageRank) || !hasSignal(ch, SigLinkHandler) {
		t.Errorf("charm.py signals = %+v", ch.Signals)
	}
	if !hasSignal(fileOf(t, r, "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigLib) ||
		!hasSignal(fileOf(t, r, "tests/unit/test_charm.py"), SigTest) {
		t.Error("penalty signals missing")
	}
}

func hasSignal(f File, name string) bool {
	return slices.ContainsFunc(f.Signals, func(s Signal) bool { return s.Name == name })
}

func signal(f File, name string) Signal {
	for _, s := range f.Signals {
		if s.Name == name {
			return s
		}
	}
	return Signal{}
}

func TestYAMLSymbolsInitOnlyAndAddedKind(t *testing.T) {
	// A relation whose only tie is a read in the charm's constructor (handed to a library
	// object there) weighs as one no code handles; a read elsewhere weighs as handling.
	score := func(text, symbol string, reads ...linker.Site) float64 {
		in := demoCharm()
		in.Mentions = []string{text}
		if len(reads) > 0 {
			in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindRelation,
				Name: "replicas", Role: "peers", Interface: "demo_peers", File: "metadata.yaml", Line: 11, Reads: reads})
		}
		for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
			if s.Name == symbol {
				return s.Score
			}
		}
		t.Fatalf("no symbol %s", symbol)
		return 0
	}
	initRead := linker.Site{File: "src/charm.py", Line: 13, Symbol: "DemoCharm.__init__", Via: linker.ViaLookup}
	helperRead := linker.Site{File: "src/charm.py", Line: 51, Symbol: "DemoCharm._helper", Via: linker.ViaLookup}
	if a, b := score("", "replicas"), score("", "replicas", initRead); a != b {
		t.Errorf("constructor-only relation weighs %v, unread %v", b, a)
	}
	if a, b := score("", "replicas"), score("", "replicas", initRead, helperRead); b <= a {
		t.Errorf("relation read by a method weighs %v, unread %v", b, a)
	}
	// a config option read in the constructor is read (self._port = self.config["port"])
	in := demoCharm()
	base := fileOf(t, Rank(in), "config.yaml").Symbols
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindConfig, Name: "port",
		File: "config.yaml", Line: 8, Reads: []linker.Site{{File: "src/charm.py", Line: 13, Symbol: "DemoCharm.__init__", Via: linker.ViaConfig}}})
	read := fileOf(t, Rank(in), "config.yaml").Symbols
	portScore := func(syms []Symbol) float64 {
		for _, s := range syms {
			if s.Name == "port" {
				return s.Score
			}
		}
		return 0
	}
	if portScore(read) <= portScore(base) {
		t.Errorf("option read in __init__ weighs %v, unread %v", portScore(read), portScore(base))
	}
	// a subject adding a container lifts the containers among the declarations
	if a, b := score("", "app"), score("feat: add a container for the exporter", "app"); math.Abs(b/a-AddedKindSymbolWeight) > 0.01 {
		t.Errorf("container weighs %v with an added container, %v without", b, a)
	}
}

func TestEventPlumbingBelowThePayload(t *testing.T) {
	// An event class's snapshot and restore (ops' storing of a deferred event) come after its
	// __init__, which names the payload; another class's snapshot keeps its weight.
	in := demoCharm()
	const lib = "lib/charms/demo_db/v0/events.py"
	in.Files = append(in.Files, pyFile(lib, []pyextract.Symbol{
		cls("ReadyEvent", 1, "ops.EventBase"), meth("ReadyEvent", "snapshot", 2), meth("ReadyEvent", "__init__", 4), meth("ReadyEvent", "restore", 6),
		cls("Store", 10), meth("Store", "snapshot", 11), meth("Store", "__init__", 13)}, nil))
	score := map[string]float64{}
	for _, s := range fileOf(t, Rank(in), lib).Symbols {
		score[s.Name] = s.Score
	}
	if score["ReadyEvent.snapshot"] >= score["ReadyEvent.__init__"] || score["ReadyEvent.restore"] >= score["ReadyEvent.__init__"] {
		t.Errorf("event plumbing over the payload: %v", score)
	}
	if score["Store.snapshot"] != score["Store.__init__"] {
		t.Errorf("a store's snapshot weighs %v, its __init__ %v", score["Store.snapshot"], score["Store.__init__"])
	}
}

func TestYAMLBlockShowsEachKindEarly(t *testing.T) {
	// A block of many relations and a container as well handled: each relation after the
	// first weighs KindRepeatDecay less per relation before it, so the container comes before
	// the fourth relation, though it weighs less than each of them alone (review rev115).
	in := demoCharm()
	var ifaces []linker.Interface
	for k, n := range []string{"r1", "r2", "r3", "r4", "r5"} {
		in.Charms[0].Relations = append(in.Charms[0].Relations, charmyaml.Relation{Name: n, Role: charmyaml.RoleRequires, Interface: n,
			Pos: charmyaml.Pos{File: "metadata.yaml", Line: 30 + k}})
		ifaces = append(ifaces, linker.Interface{Kind: linker.KindRelation, Name: n, Role: "requires", Interface: n, File: "metadata.yaml", Line: 30 + k,
			Handlers: []linker.Handler{{Event: n + "_relation_changed", Symbol: "DemoCharm._on_config_changed", File: "src/charm.py", Line: 30, Via: linker.ViaObserve}}})
	}
	ifaces = append(ifaces, linker.Interface{Kind: linker.KindContainer, Name: "app", File: "metadata.yaml", Line: 15,
		Handlers: []linker.Handler{{Event: "app_pebble_ready", Symbol: "DemoCharm._helper", File: "src/charm.py", Line: 50, Via: linker.ViaObserve}}})
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, ifaces...)
	var kinds []string
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		kinds = append(kinds, s.Kind)
	}
	if i := slices.Index(kinds, SymContainer); i < 0 || i > 3 {
		t.Errorf("metadata.yaml kinds %v: the container comes after the fourth relation", kinds)
	}
}

func TestYAMLBuildLinesStayTogether(t *testing.T) {
	// A charmcraft.yaml's bases and parts are one kind to kind-repeat: the second base comes
	// right after the first, not after the part (jenkins-agent-k8s's "[base] ubuntu@24.04,
	// [part] charm, [base] ubuntu@22.04", review rev124).
	in := demoCharm()
	ch := &in.Charms[0]
	ch.Bases = []charmyaml.Base{{Name: "ubuntu@24.04", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 40}},
		{Name: "ubuntu@22.04", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 42}}}
	ch.Parts = []charmyaml.Part{{Name: "charm", Plugin: "uv", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 45}}}
	var build []string
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		if IsBuild(s.Kind) {
			build = append(build, s.Kind+" "+s.Name)
		}
	}
	if want := []string{"base ubuntu@24.04", "base ubuntu@22.04", "part charm"}; !slices.Equal(build, want) {
		t.Errorf("build lines %v, want %v", build, want)
	}
	// with four bases the part comes third, not last, so that a short budget keeps it
	// (review rev128)
	ch.Bases = append(ch.Bases, charmyaml.Base{Name: "ubuntu@20.04", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 43}},
		charmyaml.Base{Name: "ubuntu@18.04", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 44}})
	build = nil
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		if IsBuild(s.Kind) {
			build = append(build, s.Kind+" "+s.Name)
		}
	}
	if len(build) != 5 || build[2] != "part charm" {
		t.Errorf("build lines %v, want the part third", build)
	}
}

func TestYAMLSymbolsVendoredUsesCountLess(t *testing.T) {
	// Within a YAML block, a relation the charm's own code handles comes before one that only
	// a vendored library handles and looks up, however often (wireguard's cos-agent: review
	// rev99); a library's uses still count a little, above a relation nothing handles.
	in := demoCharm()
	in.Charms[0].Relations = append(in.Charms[0].Relations, charmyaml.Relation{Name: "cos", Role: charmyaml.RoleProvides, Interface: "cos_agent",
		Pos: charmyaml.Pos{File: "metadata.yaml", Line: 3}})
	lib := "lib/charms/data_platform_libs/v0/data_interfaces.py"
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindRelation, Name: "cos", Role: "provides",
		Interface: "cos_agent", File: "metadata.yaml", Line: 3,
		Handlers: []linker.Handler{{Event: "cos_relation_changed", Symbol: "DatabaseRequires._on_a", File: lib, Line: 10, Via: linker.ViaObserve},
			{Event: "cos_relation_joined", Symbol: "DatabaseRequires._on_b", File: lib, Line: 20, Via: linker.ViaObserve}},
		Reads: []linker.Site{{File: lib, Line: 30, Via: linker.ViaLookup}, {File: lib, Line: 40, Via: linker.ViaLookup}}})
	var names []string
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		if s.Kind == SymRelation { // (another kind's lines may come between: kind-repeat)
			names = append(names, s.Name)
		}
	}
	if !slices.Equal(names[:3], []string{"database", "cos", "replicas"}) {
		t.Errorf("metadata.yaml symbols %v, want database (own handler), cos (library only), replicas (none)", names)
	}
}

func TestYAMLSymbols(t *testing.T) {
	in := demoCharm()
	// the linker's guess that a package given the charm reads "port" is no reading symbol
	ifs := in.Links.Charms[0].Interfaces
	in.Links.Charms[0].Interfaces = append(ifs, linker.Interface{Kind: linker.KindConfig, Name: "port", File: "config.yaml", Line: 8,
		Reads: []linker.Site{{File: "src/charm.py", Line: 13, Symbol: "DemoCharm.__init__", Via: linker.ViaDelegate, Detail: "demo_lib"}}})
	r := Rank(in)
	md := fileOf(t, r, "metadata.yaml")
	if md.Class != ClassYAML {
		t.Errorf("metadata.yaml class = %s", md.Class)
	}
	want := map[string]Symbol{
		"database": {Name: "database", Kind: SymRelation, Signature: "[relation] database (requires postgresql_client)", Line: 7,
			Links: []string{"DatabaseHandler._on_database_created"}},
		"replicas": {Name: "replicas", Kind: SymRelation, Signature: "[relation] replicas (peers demo_peers)", Line: 11},
		"app":      {Name: "app", Kind: SymContainer, Signature: "[container] app (resource app-image)", Line: 15},
	}
	if len(md.Symbols) != len(want) {
		t.Fatalf("metadata.yaml symbols = %+v", md.Symbols)
	}
	for _, s := range md.Symbols {
		w := want[s.Name]
		w.Score, w.Signals = s.Score, s.Signals
		if !reflect.DeepEqual(s, w) {
			t.Errorf("symbol %s = %+v, want %+v", s.Name, s, w)
		}
	}
	if md.Symbols[0].Name != "database" {
		t.Errorf("the handled relation should come first: %+v", md.Symbols)
	}
	cfg := fileOf(t, r, "config.yaml").Symbols
	if cfg[0].Signature != `[config] log-level (string, default "info")` || !slices.Equal(cfg[0].Links, []string{"DemoCharm._on_config_changed"}) {
		t.Errorf("config.yaml symbols = %+v", cfg)
	}
	if cfg[1].Signature != "[config] port (int)" || len(cfg[1].Links) > 0 {
		t.Errorf("config option without default = %q, links %v", cfg[1].Signature, cfg[1].Links)
	}
	act := fileOf(t, r, "actions.yaml").Symbols
	if act[0].Signature != "[action] backup (params: path, force)" || act[0].Kind != SymAction {
		t.Errorf("actions.yaml symbols = %+v", act)
	}
	if s := fileOf(t, r, "charmcraft.yaml").Symbols; len(s) != 0 {
		t.Errorf("charmcraft.yaml declares nothing here, got %+v", s)
	}
	if !slices.Equal(act[0].Links, []string{"DemoCharm._on_backup_action"}) {
		t.Errorf("backup links = %q", act[0].Links)
	}
	// an action no code handles, run by its own script, links to the script; one a handler
	// handles keeps the handler only
	for k := range in.Links.Charms[0].Interfaces {
		if it := &in.Links.Charms[0].Interfaces[k]; it.Kind == linker.KindAction {
			it.Script = "actions/backup"
		}
	}
	if l := fileOf(t, Rank(in), "actions.yaml").Symbols[0].Links; !slices.Equal(l, []string{"DemoCharm._on_backup_action"}) {
		t.Errorf("handled action with a script: links %q", l)
	}
	for k := range in.Links.Charms[0].Interfaces {
		if it := &in.Links.Charms[0].Interfaces[k]; it.Kind == linker.KindAction {
			it.Handlers = nil
		}
	}
	if l := fileOf(t, Rank(in), "actions.yaml").Symbols[0].Links; !slices.Equal(l, []string{"actions/backup"}) {
		t.Errorf("action run by its script: links %q", l)
	}
	// a catch-all of every relation (observed in a loop over them) follows the relation's own
	// handler, though the linker lists it first
	in = demoCharm()
	db := &in.Links.Charms[0].Interfaces[0]
	db.Handlers = append([]linker.Handler{{Event: "database_relation_changed", Symbol: "DemoCharm._helper", File: "src/charm.py", Line: 50,
		Via: linker.ViaObserve, CatchAll: true}}, db.Handlers...)
	md = fileOf(t, Rank(in), "metadata.yaml")
	if l := md.Symbols[slices.IndexFunc(md.Symbols, func(s Symbol) bool { return s.Name == "database" })].Links; !slices.Equal(l, []string{"DatabaseHandler._on_database_created", "DemoCharm._helper"}) {
		t.Errorf("relation with a catch-all: links %q", l)
	}
}

func TestPythonSymbolOrder(t *testing.T) {
	r := Rank(demoCharm())
	names := symbolNames(t, r, "src/charm.py")
	// The class first (kind), the two handlers linked to the YAML next, the unlinked private
	// helper last although it sits between them by line.
	if names[0] != "DemoCharm" || names[len(names)-1] != "DemoCharm._helper" {
		t.Errorf("charm.py symbols = %v", names)
	}
	h := fileOf(t, r, "src/charm.py").Symbols
	for _, s := range h {
		if s.Name == "DemoCharm._on_backup_action" && !slices.Equal(s.Links, []string{"action backup"}) {
			t.Errorf("handler links = %v", s.Links)
		}
	}
	// In the big library, the classes the charm uses come before their methods.
	lib := fileOf(t, r, "lib/charms/data_platform_libs/v0/data_interfaces.py").Symbols
	if lib[0].Name != "DatabaseRequires" {
		t.Errorf("library's first symbol = %s, want the class the charm imports", lib[0].Name)
	}
}

func TestCharmClassLeadsEntryPoint(t *testing.T) {
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("Compactor", 1), meth("Compactor", "run", 2), cls("ShopCharm", 10, "ops.CharmBase")},
			map[string]int{"ShopCharm": 1, "Compactor": 1}),
	}}
	for k := range 3 {
		in.Files = append(in.Files, pyFile(fmt.Sprintf("src/user%d.py", k), nil, map[string]int{"Compactor": 2, "run": 1}))
	}
	if s := fileOf(t, Rank(in), "src/charm.py").Symbols; s[0].Name != "ShopCharm" {
		t.Errorf("charm.py symbols: %+v", s)
	}
	if !isCharmClass(pyextract.Symbol{Bases: []string{"TypedCharmBase[CharmConfig]"}}) || isCharmClass(pyextract.Symbol{Bases: []string{"Object"}}) {
		t.Error("isCharmClass")
	}
}

func TestDeterministicAndOrderIndependent(t *testing.T) {
	in := demoCharm()
	in.Mentions = []string{"fix the backup action and render_config"}
	in.Focus = []string{"src/database.py"}
	want := Rank(in)
	for seed := range 5 {
		in2 := demoCharm()
		in2.Mentions, in2.Focus = in.Mentions, in.Focus
		rnd := rand.New(rand.NewPCG(uint64(seed), 1))
		rnd.Shuffle(len(in2.Files), func(i, j int) { in2.Files[i], in2.Files[j] = in2.Files[j], in2.Files[i] })
		if got := Rank(in2); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: result differs:\n%v\n%v", seed, paths(got), paths(want))
		}
	}
}

func TestTiesBrokenByPath(t *testing.T) {
	// Two files in identical graph positions get the same score and are ordered by path; two
	// symbols with equal scores are ordered by line.
	in := Input{Files: []pyextract.File{
		pyFile("src/zeta.py", []pyextract.Symbol{fn("zeta_helper_one", 1), fn("zeta_helper_two", 9)}, nil),
		pyFile("src/alpha.py", []pyextract.Symbol{fn("alpha_helper_one", 1), fn("alpha_helper_two", 9)}, nil),
		pyFile("src/main_module.py", nil, map[string]int{"zeta_helper_one": 1, "alpha_helper_one": 1}),
	}}
	r := Rank(in)
	za, al := fileOf(t, r, "src/zeta.py"), fileOf(t, r, "src/alpha.py")
	if za.Score != al.Score {
		t.Fatalf("symmetric files scored %v and %v", za.Score, al.Score)
	}
	if position(r, "src/alpha.py") > position(r, "src/zeta.py") {
		t.Errorf("tie not broken by path: %v", paths(r))
	}
	if al.Symbols[0].Name != "alpha_helper_one" {
		t.Errorf("referenced symbol should lead: %+v", al.Symbols)
	}
	in.Files[1].Refs = nil
	in.Files[2].Refs = nil
	r = Rank(in)
	if s := fileOf(t, r, "src/alpha.py").Symbols; s[0].Score != s[1].Score || s[0].Line != 1 {
		t.Errorf("equal symbols not ordered by line: %+v", s)
	}
}

func TestScoresRoundedAgainstNoise(t *testing.T) {
	if roundSig(0.123456789) != 0.123457 || roundSig(1.0000001e-3) != 1e-3 {
		t.Errorf("roundSig: %v %v", roundSig(0.123456789), roundSig(1.0000001e-3))
	}
	if roundSig(0.1234564999) != roundSig(0.1234564998) {
		t.Error("noise in the 10th digit changed the rounded score")
	}
}

func TestFocusRaisesWhatItUsesAndWhatUsesIt(t *testing.T) {
	base := Rank(demoCharm())
	in := demoCharm()
	in.Focus = []string{"src/config_render.py"}
	r := Rank(in)
	f := fileOf(t, r, "src/config_render.py")
	if !f.Focused || !hasSignal(f, SigFocus) {
		t.Errorf("focused file = %+v", f)
	}
	if fileOf(t, r, "src/constants.py").Score <= fileOf(t, base, "src/constants.py").Score {
		t.Error("what the focused file uses did not rise")
	}
	caller := fileOf(t, r, "tests/unit/test_charm.py")
	if caller.Score <= fileOf(t, base, "tests/unit/test_charm.py").Score || !hasSignal(caller, SigFocusCaller) {
		t.Errorf("a file using the focused file did not rise: %+v", caller.Signals)
	}
	if fileOf(t, r, "src/database.py").Score >= fileOf(t, base, "src/database.py").Score {
		t.Error("an unrelated file did not fall")
	}
}

func TestNamedActionLiftsItsScript(t *testing.T) {
	// An action with its own script (actions/snapshot, which Juju runs for it): a task naming
	// the action restarts at the script as at a handler.
	in := demoCharm()
	in.Charms[0].Actions = append(in.Charms[0].Actions, charmyaml.Action{Name: "snapshot", Script: "actions/snapshot", Pos: charmyaml.Pos{File: "actions.yaml", Line: 6}})
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces,
		linker.Interface{Kind: linker.KindAction, Name: "snapshot", File: "actions.yaml", Line: 6, Script: "actions/snapshot"})
	in.Files = append(in.Files, pyFile("actions/snapshot", nil, map[string]int{"subprocess": 1}, pyextract.Import{Module: "subprocess"}))
	base := Rank(in)
	in.Mentions = []string{"the snapshot action leaves a stale lock behind"}
	r := Rank(in)
	f := fileOf(t, r, "actions/snapshot")
	if !hasSignal(f, SigMentionInterface) || signal(f, SigMentionInterface).Note != "action snapshot" || f.Score <= fileOf(t, base, "actions/snapshot").Score {
		t.Errorf("actions/snapshot: %+v", f.Signals)
	}
}

func TestFocusInOneCharmOfSeveral(t *testing.T) {
	// A monorepo: working in charm a, the agent is not helped by charm b's entry point, which
	// loses the hub boost and lead; a's keeps them, and without focus both do.
	charms := []charmyaml.Charm{{Name: "a", Dir: "a", Files: []string{"a/metadata.yaml"}}, {Name: "b", Dir: "b", Files: []string{"b/metadata.yaml"}}}
	in := Input{Charms: charms, Files: []pyextract.File{
		pyFile("a/src/charm.py", []pyextract.Symbol{cls("ACharm", 1)}, map[string]int{"helper": 1}, from("helper", "helper")),
		pyFile("a/src/helper.py", []pyextract.Symbol{fn("helper", 1)}, nil),
		pyFile("b/src/charm.py", []pyextract.Symbol{cls("BCharm", 1)}, nil),
	}}
	for _, p := range []string{"a/src/charm.py", "b/src/charm.py"} {
		if f := fileOf(t, Rank(in), p); !hasSignal(f, SigHub) {
			t.Errorf("%s: no hub boost without focus: %+v", p, f.Signals)
		}
	}
	in.Focus = []string{"a/src/helper.py"}
	r := Rank(in)
	if f := fileOf(t, r, "a/src/charm.py"); !hasSignal(f, SigHub) {
		t.Errorf("the focused charm's entry point lost its boost: %+v", f.Signals)
	}
	if f := fileOf(t, r, "b/src/charm.py"); hasSignal(f, SigHub) || hasSignal(f, SigHubLead) {
		t.Errorf("the sibling charm's entry point kept a boost: %+v", f.Signals)
	}
}

func TestMentions(t *testing.T) {
	base := Rank(demoCharm())
	for _, c := range []struct {
		text, file, sig string
	}{
		{"render_config writes the wrong port", "src/config_render.py", SigMentionIdent},
		{"handle the database relation being created twice", "src/database.py", SigMentionInterface},
		{"move WORKLOAD_PORT to constants.py", "src/constants.py", SigMentionFile},
		{"the get status call of the api library", "lib/charms/demo_db/v0/api.py", SigMentionIdent},
		{"bump kubernetes_service_patch", "lib/charms/observability_libs/v0/kubernetes_service_patch.py", SigMentionFile},
	} {
		in := demoCharm()
		in.Mentions = []string{c.text}
		r := Rank(in)
		f := fileOf(t, r, c.file)
		if !hasSignal(f, c.sig) {
			t.Errorf("%q: %s lacks %s: %+v", c.text, c.file, c.sig, f.Signals)
		}
		if fileOf(t, r, c.file).Score <= fileOf(t, base, c.file).Score || position(r, c.file) > position(base, c.file) {
			t.Errorf("%q: %s did not rise (%d → %d)", c.text, c.file, position(base, c.file), position(r, c.file))
		}
	}
	// Interface names match in both '-' and '_' forms, and the YAML symbol is boosted.
	in := demoCharm()
	in.Mentions = []string{"default of log_level"}
	r := Rank(in)
	if cfg := fileOf(t, r, "config.yaml"); !hasSignal(cfg, SigMentionInterface) || signal(cfg, SigMentionInterface).Note != "config log-level" {
		t.Errorf("config.yaml signals = %+v", cfg.Signals)
	}
	// A dotted property name names the snake_case identifier holding it exactly, a stronger
	// match than its words.
	mass := func(text string) float64 {
		in := demoCharm()
		in.Mentions = []string{text}
		return signal(fileOf(t, Rank(in), "src/config_render.py"), SigMentionIdent).Value
	}
	if dotted, words := mass("split render.config from the other keys"), mass("split render config from the other keys"); dotted <= words || words == 0 {
		t.Errorf("mention-ident of render.config %v, of its words %v", dotted, words)
	}
	// A name that is one plain word (the harness fixture of tests/conftest.py) is as much a
	// word of the prose as a name: it earns the words' mass, a code name the name's.
	in = demoCharm()
	in.Mentions = []string{"the harness calls render_config twice"}
	r = Rank(in)
	if plain, code := signal(fileOf(t, r, "tests/conftest.py"), SigMentionIdent).Value,
		signal(fileOf(t, r, "src/config_render.py"), SigMentionIdent).Value; plain == 0 || plain >= code*MentionWordsTeleport/MentionIdentTeleport*1.01 {
		t.Errorf("mention-ident of harness %v, of render_config %v: want the words' share", plain, code)
	}
	// A class named by one word (Configuration) is named by the task as written, not by the
	// word in its prose (review rev122: "Nginx configuration conflict" lifted state.py)
	for text, want := range map[string]bool{"Nginx configuration conflict with virtual hosts": false, "validate the Configuration model": true,
		"increase the timeout waiting for pebble": true} { // (an ALL-CAPS constant is no class: review rev125)
		in = demoCharm()
		in.Files = append(in.Files, pyFile("src/state.py", []pyextract.Symbol{cls("Configuration", 3), cnst("TIMEOUT", 9)}, nil))
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), "src/state.py"), SigMentionIdent); got != want {
			t.Errorf("%q: state.py mention-ident %v, want %v", text, got, want)
		}
	}
	// nor a handler whose one word is a kind of interface by that kind (review rev124)
	in = demoCharm()
	in.Mentions = []string{"add a max-connections config option"}
	if f := fileOf(t, Rank(in), "src/charm.py"); hasSignal(f, SigMentionIdent) {
		t.Errorf("_on_config_changed named by the word config: %+v", f.Signals)
	}
	// "charm" is the whole charm, not charm.py; charm.py by its name is the file
	for text, want := range map[string]bool{"the charm keeps a stale proxy": false, "JUJU_CHARM_HTTPS_PROXY is ignored": false,
		"split charm.py in two": true, "move the charm class to src/charm.py": true} {
		in := demoCharm()
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), "src/charm.py"), SigMentionFile); got != want {
			t.Errorf("%q: charm.py mention-file %v, want %v", text, got, want)
		}
	}
	// "config" only as the kind of an option is not config.yaml (reviews rev99, rev103)
	for text, want := range map[string]bool{
		"the log_level config option is ignored":          false,
		"Set the config option once":                      false,
		"Add a config option for the sshd LoginGraceTime": true, // the new option goes there
		"the grafana config is not reloaded":              true,
		"config option parsing breaks the config file":    true,
		"move config options into config.yaml":            true,
	} {
		in := demoCharm()
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), "config.yaml"), SigMentionFile); got != want {
			t.Errorf("%q: config.yaml mention-file %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]bool{"Add a config option for the sshd LoginGraceTime": false, "the grafana config is not reloaded": true} {
		in := demoCharm()
		in.Files = append(in.Files, pyFile("src/config.py", []pyextract.Symbol{cls("Settings", 1)}, nil))
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), "src/config.py"), SigMentionFile); got != want {
			t.Errorf("%q: src/config.py mention-file %v, want %v", text, got, want)
		}
	}
	// A mentioned method leads its file.
	in.Mentions = []string{"the _helper of the charm is slow"}
	r = Rank(in)
	if s := fileOf(t, r, "src/charm.py").Symbols[0].Name; s != "DemoCharm._helper" {
		t.Errorf("mentioned symbol not first: %s", s)
	}
}

func TestLexicalMatch(t *testing.T) {
	// No file or identifier is named exactly, but the words of the task are the words of
	// one module's names: it rises, with the mention-words signal.
	in := demoCharm()
	in.Files = append(in.Files, pyFile("src/balancer.py",
		[]pyextract.Symbol{cls("BalancerOperator", 1), meth("BalancerOperator", "_on_rebalance_action", 5), meth("BalancerOperator", "role_is_set", 30)},
		map[string]int{"balancer_role": 3, "rebalance_target": 2}))
	base := Rank(in)
	in.Mentions = []string{"fix: gracefully handle a rebalance when the balancer role is not set"}
	r := Rank(in)
	f := fileOf(t, r, "src/balancer.py")
	if !hasSignal(f, SigMentionWords) || position(r, f.Path) >= position(base, f.Path) {
		t.Errorf("balancer.py: %d → %d, signals %+v", position(base, f.Path), position(r, f.Path), f.Signals)
	}
	if s := signal(f, SigMentionWords).Value; s != roundSig(math.Exp(LexBoost)) {
		t.Errorf("the best lexical match should get the full factor, got %v", s)
	}
}

func TestTestWordsMatchOnlyTests(t *testing.T) {
	// The task's words for tests ("tests", "testing") are about test files: a module's comment
	// or docstring that mentions tests does not match them (rev89), a test file does, and the
	// task's other words still match the module.
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("src/fixtures.py", []pyextract.Symbol{fn("make_fixture", 1)}, nil),
		pyFile("src/backup.py", []pyextract.Symbol{fn("run_backup", 1)}, nil),
		pyFile("tests/unit/test_backup.py", []pyextract.Symbol{fn("test_run_backup", 1)}, map[string]int{"run_backup": 1}))
	in.Files[len(in.Files)-3].Comments = []string{"used", "in", "integration", "tests", "for", "testing"}
	in.Mentions = []string{"add integration tests for the backup"}
	r := Rank(in)
	if f := fileOf(t, r, "src/fixtures.py"); strings.Contains(signal(f, SigMentionWords).Note, "test") {
		t.Errorf("fixtures.py matched the test words: %+v", f.Signals)
	}
	if f := fileOf(t, r, "src/fixtures.py"); !strings.Contains(signal(f, SigMentionWords).Note, "integration") {
		t.Errorf("fixtures.py lost the task's other words: %+v", f.Signals)
	}
	if f := fileOf(t, r, "tests/unit/test_backup.py"); !strings.Contains(signal(f, SigMentionWords).Note, "tests") {
		t.Errorf("the test file did not match the test words: %+v", f.Signals)
	}
}

func TestLexicalMatchOfYAMLProblem(t *testing.T) {
	// A problem our reading found in a YAML file is what a fix of it says: "remove duplicated
	// key" finds the metadata.yaml with a duplicate key, and the words are its own.
	in := demoCharm()
	in.Mentions = []string{"remove duplicated key (#9)"}
	base := Rank(in)
	in.Charms[0].Warnings = []string{`metadata.yaml:7: requires: duplicate key "database" (again on line 9); the last one is used`}
	r := Rank(in)
	if f := fileOf(t, r, "metadata.yaml"); r.Files[0].Path != "metadata.yaml" || !strings.Contains(signal(f, SigMentionWords).Note, "duplicated") {
		t.Errorf("top %v (without the problem %v), metadata.yaml %+v", paths(r)[:3], paths(base)[:3], f.Signals)
	}
}

func TestLexicalMatchInStrings(t *testing.T) {
	// The task's words are only in one module's docstring and strings (pyextract File.Words),
	// none in its names: it rises with the mention-words signal, and rises only by them.
	in := demoCharm()
	in.Files = append(in.Files, pyFile("src/managers/auth.py",
		[]pyextract.Symbol{cls("AuthManager", 1), meth("AuthManager", "update_acls", 5)},
		map[string]int{"acl": 3}))
	in.Mentions = []string{"fix: re-enable prefixed topic names during relations"}
	base := Rank(in)
	in.Files[len(in.Files)-1].Words = []string{"acls", "for", "prefixed", "the", "topic", "topics"}
	r := Rank(in)
	p := "src/managers/auth.py"
	if f := fileOf(t, r, p); !hasSignal(f, SigMentionWords) || position(r, p) >= position(base, p) {
		t.Errorf("%s: %d → %d, signals %+v", p, position(base, p), position(r, p), f.Signals)
	}
	if hasSignal(fileOf(t, base, p), SigMentionWords) {
		t.Errorf("%s matches the task without its strings", p)
	}
}

func TestLexicalMatchOfInflectedForm(t *testing.T) {
	// Two modules match the task's stems equally ("prefix", "topic"); the one that has
	// "prefixed" as the task writes it scores more (LexFormWeight) and ranks above the other.
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("src/managers/alpha.py", []pyextract.Symbol{cls("AlphaManager", 1)}, nil),
		pyFile("src/managers/beta.py", []pyextract.Symbol{cls("BetaManager", 1)}, nil))
	in.Files[len(in.Files)-2].Words = []string{"prefixed", "topic"}
	in.Files[len(in.Files)-1].Words = []string{"prefix", "topic"}
	in.Mentions = []string{"fix: prefixed topic names"}
	r := Rank(in)
	form, stemOnly := fileOf(t, r, "src/managers/alpha.py"), fileOf(t, r, "src/managers/beta.py")
	if a, b := signal(form, SigMentionWords).Value, signal(stemOnly, SigMentionWords).Value; a <= b || b == 0 {
		t.Errorf("mention-words: the same form %v, the stem only %v", a, b)
	}
	// a form no rarer than its stem adds nothing: "template" (stem "templat") and "quorum"
	// (its own stem), each in one file, weigh the same
	in.Files[len(in.Files)-2].Words = []string{"template"}
	in.Files[len(in.Files)-1].Words = []string{"quorum"}
	in.Mentions = []string{"template quorum"}
	r = Rank(in)
	if a, b := signal(fileOf(t, r, "src/managers/alpha.py"), SigMentionWords).Value, signal(fileOf(t, r, "src/managers/beta.py"), SigMentionWords).Value; a != b {
		t.Errorf("mention-words: template %v, quorum %v", a, b)
	}
	in.Files[len(in.Files)-2].Words = []string{"prefixed", "topic"}
	in.Files[len(in.Files)-1].Words = []string{"prefix", "topic"}
	// the task's stem alone ("prefix") matches both alike
	in.Mentions = []string{"fix: prefix topic names"}
	r = Rank(in)
	if a, b := signal(fileOf(t, r, "src/managers/alpha.py"), SigMentionWords).Value, signal(fileOf(t, r, "src/managers/beta.py"), SigMentionWords).Value; a != b {
		t.Errorf("mention-words for the stem: %v and %v", a, b)
	}
}

func TestLexicalMatchInComments(t *testing.T) {
	// A task word only a module's comments have (pyextract File.Comments) lifts it; the same
	// comment in a vendored library does not: its comments are upstream's.
	in := demoCharm()
	lib := "lib/charms/operator_libs_linux/v2/snap.py"
	in.Files = append(in.Files,
		pyFile("src/constants.py", []pyextract.Symbol{{Name: "SNAP_REVISION", Kind: pyextract.KindConstant, Line: 3}}, nil),
		pyFile("src/settings.py", []pyextract.Symbol{{Name: "SNAP_CHANNEL", Kind: pyextract.KindConstant, Line: 3}}, nil),
		pyFile(lib, []pyextract.Symbol{cls("SnapCache", 1)}, nil))
	in.Mentions = []string{"Upgrade MySQL to 8.0.37"}
	base := Rank(in)
	for _, p := range []string{"src/settings.py", lib} {
		in.Files[slices.IndexFunc(in.Files, func(f pyextract.File) bool { return f.Path == p })].Comments = []string{"37", "my", "sql"}
	}
	r := Rank(in)
	p, q := "src/settings.py", "src/constants.py" // q sorts first on a tie
	if f := fileOf(t, r, p); !hasSignal(f, SigMentionWords) || position(r, p) > position(r, q) || hasSignal(fileOf(t, base, p), SigMentionWords) {
		t.Errorf("%s: %d → %d (%s: %d), signals %+v", p, position(base, p), position(r, p), q, position(r, q), f.Signals)
	}
	if f := fileOf(t, r, lib); hasSignal(f, SigMentionWords) {
		t.Errorf("%s matches the task by its comments: %+v", lib, f.Signals)
	}
}

func TestRelationPartlyNamed(t *testing.T) {
	// A word of one relation's name beside a relation word names it (review rev122: "remove
	// datadog relation" for datadog-integration); not a word two relations' names share, nor
	// one without a relation word beside it.
	in := demoCharm()
	ch := &in.Charms[0]
	for _, n := range []string{"datadog-integration", "cache-primary", "cache-replica"} {
		ch.Relations = append(ch.Relations, charmyaml.Relation{Name: n, Role: charmyaml.RoleRequires, Interface: n, Pos: charmyaml.Pos{File: "metadata.yaml", Line: 20 + len(ch.Relations)}})
	}
	for text, want := range map[string]string{
		"remove datadog relation":       "relation datadog-integration",
		"drop the datadog endpoint":     "relation datadog-integration",
		"remove datadog":                "",
		"fix the cache relation":        "",
		"the database relation is slow": "relation database",
	} {
		in.Mentions = []string{text}
		got := signal(fileOf(t, Rank(in), "metadata.yaml"), SigMentionInterface).Note
		if got != want {
			t.Errorf("%q: metadata.yaml mention-interface %q, want %q", text, got, want)
		}
	}
}

func TestAcronymLedNameIsOneName(t *testing.T) {
	// A name led by an acronym ("HAProxy") is one name: its words are inner, so they name no
	// interface (review rev120: the ha relation); a class's CamelCase name keeps its first word
	// a lead one (prometheus), and "ha" written apart is a word of its own.
	// A class's name led by a longer acronym keeps its words (review rev121):
	// TLSCertificatesRequiresV3 names tls-certificates, LDAPRequirer ldap; JWTSecret is one name.
	for text, inner := range map[string]bool{"Increase HAProxy timeout": true, "fix the ha relation": false,
		"Send events from `PrometheusRemoteWriteProvider`": false, "Migrate TLSCertificatesRequiresV3 to V4": false,
		"Use the LDAPRequirer": false, "Rotate the JWTSecret": true, "Route with HAProxyRouteRequirer": true} {
		m := parseMentions([]string{text})
		g := "ha"
		switch {
		case strings.Contains(text, "Prometheus"):
			g = "prometheus"
		case strings.Contains(text, "TLS"):
			g = "tls_certificates"
		case strings.Contains(text, "LDAP"):
			g = "ldap"
		case strings.Contains(text, "JWT"):
			g = "jwt"
		}
		if !m.grams[g] || m.inner[g] != inner {
			t.Errorf("%q: gram %s present %v, inner %v, want inner %v", text, g, m.grams[g], m.inner[g], inner)
		}
	}
}

func TestLexicalMatchInYAMLText(t *testing.T) {
	// A dependency bump names a tool only the build parts of charmcraft.yaml mention
	// (charmyaml Charm.Words): the file rises by the words of its text.
	in := demoCharm()
	in.Mentions = []string{"Update dependency rustup to v1.28\n\nCo-authored-by: renovate[bot]"}
	base := Rank(in)
	in.Charms[0].Words = map[string][]string{"charmcraft.yaml": {"parts", "charm", "plugin", "rustup", "build", "snaps", "renovate", "latest"}}
	r := Rank(in)
	p := "charmcraft.yaml"
	if f := fileOf(t, r, p); !hasSignal(f, SigMentionWords) || position(r, p) >= position(base, p) || position(r, p) > 2 {
		t.Errorf("%s: %d → %d, signals %+v", p, position(base, p), position(r, p), f.Signals)
	}
	if hasSignal(fileOf(t, base, p), SigMentionWords) {
		t.Errorf("%s matches the task without its text", p)
	}
	// a key of every declaration (`interface:`, `type:`) is no word of what the file
	// declares (review rev119: "keystone interface changed" led with metadata.yaml)
	in.Mentions = []string{"keystone interface changed"}
	in.Charms[0].Words = map[string][]string{"metadata.yaml": {"name", "requires", "backend", "interface", "http", "type"}}
	if f := fileOf(t, Rank(in), "metadata.yaml"); hasSignal(f, SigMentionWords) {
		t.Errorf("metadata.yaml matches by a schema key: %+v", f.Signals)
	}
	// nor is a word that says a feature is added (review rev115: "added stripprefix support"
	// led with a comment's "supported options")
	in.Mentions = []string{"added stripprefix support (#47)"}
	in.Charms[0].Words = map[string][]string{"metadata.yaml": {"for", "a", "list", "of", "supported", "options"}}
	if f := fileOf(t, Rank(in), "metadata.yaml"); hasSignal(f, SigMentionWords) {
		t.Errorf("metadata.yaml matches by support: %+v", f.Signals)
	}
}

func TestDependencyUpdate(t *testing.T) {
	// A dependency bump lifts the YAML file of the build part that names the dependency above
	// the code; a subject that only shares a relation's name with the YAML, or names a tool no
	// part mentions, lifts nothing.
	rank := func(text string) Result {
		in := demoCharm()
		in.Charms[0].Parts = []charmyaml.Part{{Name: "charm", Plugin: "uv", Words: []string{"plugin", "uv", "build", "snaps", "astral", "dependencies"},
			Pos: charmyaml.Pos{File: "charmcraft.yaml", Line: 20}}}
		in.Charms[0].CharmLibs = []charmyaml.CharmLib{{Lib: "certificate_transfer_interface.certificate_transfer", Version: "1",
			Pos: charmyaml.Pos{File: "charmcraft.yaml", Line: 30}}}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for _, text := range []string{"Update dependency uv to v0.5.20\n\nCo-authored-by: renovate[bot]", "chore(deps): bump astral-uv dependency",
		"build: bump uv to latest stable", "chore(deps): update dependency certificate_transfer_interface.certificate_transfer to v1.15 (main)"} {
		if r := rank(text); r.Files[0].Path != "charmcraft.yaml" || !hasSignal(r.Files[0], SigDependencyUpdate) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	for _, text := range []string{"fix: update dependency check of the database relation", "Update dependency poetry to v2", "fix: uv build",
		"Lock file maintenance uv dependencies", "fix: pin uv dependency", "bump uv to latest stable",
		"Update Go dependencies"} {
		if f := fileOf(t, rank(text), "charmcraft.yaml"); hasSignal(f, SigDependencyUpdate) {
			t.Errorf("%q: charmcraft.yaml lifted: %+v", text, f.Signals)
		}
	}
}

func TestToolUpdate(t *testing.T) {
	// Updating a tool only the build recipe names (rust, installed by rustup in a part) lifts
	// that recipe as a dependency bump does; a word the code uses, a version word, or git's
	// own words of a merge line ("pull", as in override-pull) lift nothing.
	rank := func(text string) Result {
		in := demoCharm()
		in.Charms[0].Parts = []charmyaml.Part{{Name: "charm", Plugin: "poetry",
			Words: []string{"override-pull", "build-packages", "rustup", "rust", "version", "database", "config", "dependencies", "plugin", "charm-binary-python-packages"},
			Pos:   charmyaml.Pos{File: "charmcraft.yaml", Line: 20}}}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for _, text := range []string{"chore: update rust version (#37)", "Bump rustup to 1.28"} {
		if r := rank(text); r.Files[0].Path != "charmcraft.yaml" || !hasSignal(r.Files[0], SigDependencyUpdate) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	for _, text := range []string{"update database version", "Merge pull request #12 from canonical/update-status",
		"fix rust version check", "update config defaults", "Update Go dependencies", "Update grafana dashboard plugin list",
		"update binary path for the server"} {
		if f := fileOf(t, rank(text), "charmcraft.yaml"); hasSignal(f, SigDependencyUpdate) {
			t.Errorf("%q: charmcraft.yaml lifted: %+v", text, f.Signals)
		}
	}
}

func TestDependencyUpdateSkipsTestCharms(t *testing.T) {
	// The build recipe of a test charm (tests/integration/app-charm/charmcraft.yaml) is not
	// what a bump of the charm edits.
	in := demoCharm()
	const testYAML = "tests/integration/app-charm/charmcraft.yaml"
	in.Charms = append(in.Charms, charmyaml.Charm{Name: "app", Dir: "tests/integration/app-charm", Files: []string{testYAML},
		Parts: []charmyaml.Part{{Name: "charm", Words: []string{"plugin", "uv"}, Pos: charmyaml.Pos{File: testYAML, Line: 3}}}})
	in.Mentions = []string{"Update dependency uv to v0.5.20"}
	if f := fileOf(t, Rank(in), testYAML); hasSignal(f, SigDependencyUpdate) {
		t.Errorf("%s lifted: %+v", testYAML, f.Signals)
	}
}

func TestBuildIntent(t *testing.T) {
	// A subject line about building the charm lifts charmcraft.yaml, the build recipe, above
	// the code; not a test charm's recipe, and not for words that only look like build words.
	rankIn := func(in Input, text string) Result {
		const testYAML = "tests/integration/app-charm/charmcraft.yaml"
		in.Charms = append(in.Charms, charmyaml.Charm{Name: "app", Dir: "tests/integration/app-charm", Files: []string{testYAML}})
		in.Mentions = []string{text}
		r := Rank(in)
		if f := fileOf(t, r, testYAML); hasSignal(f, SigBuildIntent) {
			t.Errorf("%q: %s lifted: %+v", text, testYAML, f.Signals)
		}
		return r
	}
	rank := func(text string) Result { return rankIn(demoCharm(), text) }
	// an OpenStack charm: its code imports charms.openstack
	openstack := demoCharm()
	openstack.Files = append(openstack.Files, pyFile("src/lib/charm/openstack/demo.py", []pyextract.Symbol{fn("configure", 1)}, nil,
		pyextract.Import{Module: "charms_openstack.charm", Line: 1}))
	for _, text := range []string{"Add 2023.2 Bobcat support", "Merge \"Add Antelope support\"", "Caracal-Squid enablement for ceph-dashboard"} {
		if r := rankIn(openstack, text); r.Files[0].Path != "charmcraft.yaml" || !hasSignal(r.Files[0], SigBuildIntent) {
			t.Errorf("OpenStack charm, %q: top %v", text, paths(r)[:3])
		}
		if f := fileOf(t, rank(text), "charmcraft.yaml"); hasSignal(f, SigBuildIntent) {
			t.Errorf("%q, not an OpenStack charm: charmcraft.yaml lifted", text)
		}
	}
	for _, text := range []string{"Switch to python3-apt in Victoria", "feat: add VictoriaMetrics support"} {
		if f := fileOf(t, rankIn(openstack, text), "charmcraft.yaml"); hasSignal(f, SigBuildIntent) {
			t.Errorf("OpenStack charm, %q: charmcraft.yaml lifted", text)
		}
	}
	for _, text := range []string{"Switching to poetry (#59)", "refactor: migrate to `uv` (#294)", "Add more platforms",
		"[DPE-2789] update data-platform-workflows (#263)", "fix: bump to 22.04, use py310", "Drop bionic support. (#105)",
		"Update build procedure in release workflow\n\n* fix the database relation",
		"(Fix) Adding rust compiler to fix pydantic compilation (#13)", "set constraints to setuptools-scm",
		"Release arm64 (#275)", "chore: support mutli arch (#91)", "Specified architecture: amd64", "Support all architectures",
		"chore: freeze python dependencies (#100)", "Update libs and build with charmcraft 3", "fix the `ml-pipeline` image build in the release workflow"} {
		if r := rank(text); r.Files[0].Path != "charmcraft.yaml" || !hasSignal(r.Files[0], SigBuildIntent) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	for _, text := range []string{"fix: database relation data", "refactor: move helpers to a base class", "update data-platform libs",
		"fix the database relation\n\n* build the relation data once", "feat: migrate to a snap-based architecture",
		"HA tests: freeze db process on unit with primary shard", "fix: unit frozen while waiting for dependency relation",
		"HA test: freeze the dependency unit and check failover", "Switch to python3-apt in Victoria",
		"Support victoria-metrics remote write", "charm: Update libs (`charmcraft fetch-lib`)", "chore: charmcraft fetch-lib to bump charm libraries",
		"fix: add ambient labels to `ml-pipeline` Service for `kfp-api` charm"} {
		if f := fileOf(t, rank(text), "charmcraft.yaml"); hasSignal(f, SigBuildIntent) {
			t.Errorf("%q: charmcraft.yaml lifted: %+v", text, f.Signals)
		}
	}
}

func TestSeriesIntent(t *testing.T) {
	// A subject that names an Ubuntu release or says "series" lifts the metadata.yaml that
	// lists the charm's series; not for Juju's series upgrade, and not a file without series.
	withSeries := func() Input {
		in := demoCharm()
		in.Charms[0].Bases = []charmyaml.Base{{Name: "xenial", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 20}}}
		return in
	}
	rank := func(in Input, text string) Result { in.Mentions = []string{text}; return Rank(in) }
	for _, text := range []string{"Add focal series (#13)", "Add Bionic and remove Zesty series and tests", "Add bionic as a valid series.", "Remove zesty"} {
		r := rank(withSeries(), text)
		if f := fileOf(t, r, "metadata.yaml"); !hasSignal(f, SigBuildIntent) || position(r, "metadata.yaml") > 1 {
			t.Errorf("%q: metadata.yaml at %d, signals %+v", text, position(r, "metadata.yaml"), f.Signals)
		}
	}
	for _, text := range []string{"Add support for series upgrade (#23)", "handle the pre-series-upgrade hook", "fix the database relation",
		"store the time series in the database"} {
		if f := fileOf(t, rank(withSeries(), text), "metadata.yaml"); hasSignal(f, SigBuildIntent) {
			t.Errorf("%q: metadata.yaml lifted: %+v", text, f.Signals)
		}
	}
	if f := fileOf(t, rank(demoCharm(), "Add focal series"), "metadata.yaml"); hasSignal(f, SigBuildIntent) {
		t.Errorf("metadata.yaml without series lifted: %+v", f.Signals)
	}
	md := fileOf(t, rank(withSeries(), "x"), "metadata.yaml")
	if i := slices.IndexFunc(md.Symbols, func(s Symbol) bool { return s.Kind == SymBase }); i < 0 || md.Symbols[i].Signature != "[series] xenial" {
		t.Errorf("metadata.yaml symbols: %+v", md.Symbols)
	}
}

func TestFileNamedByInitials(t *testing.T) {
	// "ipu" names ingress_per_unit.py; two-word stems have no initials, and a word that is not
	// a file's initials names nothing
	// (a charm library's, unique: "pem" is no name of src/permission_error_messages.py)
	const lib = "lib/charms/demo_k8s/v0/ingress_per_unit.py"
	in := demoCharm()
	in.Files = append(in.Files, pyFile(lib, []pyextract.Symbol{fn("publish", 1)}, nil),
		pyFile("src/data_store.py", []pyextract.Symbol{fn("put", 1)}, nil),
		pyFile("src/permission_error_messages.py", []pyextract.Symbol{fn("message", 1)}, nil))
	for text, want := range map[string]bool{"removed the reference in the ipu docstring": true, "fix the ipa docstring": false} {
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), lib), SigMentionFile); got != want {
			t.Errorf("%q: ingress_per_unit.py named %v, want %v", text, got, want)
		}
	}
	in.Mentions = []string{"Fix PEM handling"}
	if f := fileOf(t, Rank(in), "src/permission_error_messages.py"); hasSignal(f, SigMentionFile) {
		t.Error("pem names permission_error_messages.py, which is no library")
	}
	in.Files = append(in.Files, pyFile("lib/charms/demo_k8s/v0/identity_provider_utils.py", []pyextract.Symbol{fn("x", 1)}, nil))
	in.Mentions = []string{"removed the reference in the ipu docstring"}
	if f := fileOf(t, Rank(in), lib); hasSignal(f, SigMentionFile) {
		t.Error("ipu names two libraries, yet one is named")
	}
	for stem, want := range map[string]string{"ingress_per_unit": "ipu", "data_store": "", "a__b_c": "abc", "x": ""} {
		if got := initials(stem); got != want {
			t.Errorf("initials(%q) = %q, want %q", stem, got, want)
		}
	}
}

func TestSubjectFile(t *testing.T) {
	// A first line naming a file by its name or path puts it first, over the entry point and
	// over the build rule; a bare stem, a test, a name two files share, or a file named only in
	// the body do not.
	rank := rankDemo
	for text, want := range map[string]string{
		"Adding unit tests for config_render.py file.":             "src/config_render.py",
		"fix: typo in src/constants.py":                            "src/constants.py",
		"Build the wheel of database.py":                           "src/database.py",
		"Merge pull request #7 from x/y\n\nFix bug in database.py": "src/database.py",
		// a conventional commit's scope, and a stem of two words written as an identifier
		"fix(config_render): keep the port":        "src/config_render.py",
		"refactor(constants): reconnect on errors": "src/constants.py",
		"refactor(database): reconnect on errors":  "src/database.py",
		"speed up config_render":                   "src/config_render.py",
	} {
		// (the signal shows where the file would not lead without it; "config_render.py" no
		// longer names config.yaml by its part, and leads on its own)
		if r := rank(text); r.Files[0].Path != want || want == "src/config_render.py" && !strings.HasSuffix(text, ".py file.") && !hasSignal(r.Files[0], SigSubjectFile) {
			t.Errorf("%q: top %v, signals %+v", text, paths(r)[:3], r.Files[0].Signals)
		}
	}
	// the scope alone names the file (the demo's modules lead on their stems' words anyway)
	for scope, want := range map[string]string{"constants": "src/constants.py", "database": "src/database.py", "demo": ""} {
		in := demoCharm()
		in.Files = append(in.Files, pyFile("src/demo.py", []pyextract.Symbol{fn("helper", 1)}, nil))
		in.Mentions = []string{"refactor(" + scope + "): tidy up"}
		r := newRanker(in)
		var got []string
		for _, i := range r.subjectFileTargets() {
			got = append(got, r.nodes[i].path)
		}
		if want == "" && len(got) > 0 || want != "" && !slices.Equal(got, []string{want}) {
			t.Errorf("scope %s names %v, want %q", scope, got, want)
		}
	}
	twin := pyFile("src/helpers/database.py", []pyextract.Symbol{fn("helper", 1)}, nil)
	for _, c := range []struct {
		text  string
		extra []pyextract.File
	}{
		{"fix the database relation", nil},
		{"fix: test_charm.py uses the old harness", nil},
		{"fix the relation\n\n* move code to database.py", nil},
		{"Fix bug in database.py", []pyextract.File{twin}},
		// a path two charms' files end with
		{"fix: typo in src/database.py", []pyextract.File{pyFile("charms/b/src/database.py", []pyextract.Symbol{fn("helper", 1)}, nil)}},
		// a scope two files share, a one-word stem that is no scope, the charm's own name
		{"fix(database): reconnect", []pyextract.File{twin}},
		{"fix the constants of the relation", nil},
		{"feat(demo_db): add a relation", []pyextract.File{pyFile("src/demo_db.py", []pyextract.Symbol{fn("helper", 1)}, nil)}},
		{"fix(demo): add a relation", []pyextract.File{pyFile("src/demo.py", []pyextract.Symbol{fn("helper", 1)}, nil)}}, // a word of its name
		// a name written only as the charm's attribute
		{"fix: self.config_render.port is empty", nil},
	} {
		for _, f := range rank(c.text, c.extra...).Files {
			if hasSignal(f, SigSubjectFile) {
				t.Errorf("%q: %s lifted: %+v", c.text, f.Path, f.Signals)
			}
		}
	}
}

func TestSubjectQualifiedMethod(t *testing.T) {
	// A method the first line writes with its class, or a function or method name of two
	// words or more, defined by one file, names that file (review rev126); one two files
	// define, a test's, one written in the body, or one a declared interface has, does not.
	store := pyFile("src/store.py", []pyextract.Symbol{cls("Store", 1), meth("Store", "fetch_all", 2)}, nil)
	other := pyFile("src/other.py", []pyextract.Symbol{cls("Store", 1), meth("Store", "fetch_all", 2)}, nil)
	tst := pyFile("tests/unit/test_store.py", []pyextract.Symbol{cls("Store", 1), meth("Store", "fetch_all", 2)}, nil)
	for _, c := range []struct {
		text  string
		extra []pyextract.File
		want  bool
	}{
		{"fix: wrong return type of Store.fetch_all", []pyextract.File{store}, true},
		{"Remove `Store.fetch_all(x)` (#3)", []pyextract.File{store, tst}, true},
		{"fix: wrong return type of Store.fetch_all", []pyextract.File{store, other}, false},
		{"fix: wrong return type\n\nof Store.fetch_all", []pyextract.File{store}, false},
		{"fix: wrong return type of Store.fetch", []pyextract.File{store}, false},
		{"fix: wrong return type of self.store.fetch_all", []pyextract.File{store}, false},
		// a snake_case name of a function or method one file defines
		{"Handle fetch_all exception (#114)", []pyextract.File{store}, true},
		{"Convert Path to str in `fetch_all()`.", []pyextract.File{store, tst}, true},
		{"Handle fetch_all exception", []pyextract.File{store, other}, false},
		{"fix src/fetch_all.py", []pyextract.File{store}, false},
		// a name a declared interface has too
		{"fix log_level handling", []pyextract.File{pyFile("src/store.py", []pyextract.Symbol{fn("log_level", 1)}, nil)}, false},
		{"fix set_level handling", []pyextract.File{pyFile("src/store.py", []pyextract.Symbol{fn("set_level", 1)}, nil)}, true},
	} {
		in := demoCharm()
		in.Files = append(in.Files, c.extra...)
		in.Mentions = []string{c.text}
		r := newRanker(in)
		got := slices.ContainsFunc(r.subjectFileTargets(), func(i int) bool { return r.nodes[i].path == "src/store.py" })
		if got != c.want {
			t.Errorf("%q (%d files): subject-file %v, want %v", c.text, len(c.extra), got, c.want)
		}
	}
}

func TestCoOwnedLibrary(t *testing.T) {
	// A vendored library that imports the charm's own code is its family's, developed here
	// too: weighed as CoOwnedLibPenalty, noted with the module it imports (review rev126); one
	// importing only another library, a module of the standard library a charm module's name
	// shadows, or nothing of the tree, stays a vendored library.
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("lib/charms/dbfamily/v0/provider.py", []pyextract.Symbol{cls("Provider", 1)}, map[string]int{"WORKLOAD_PORT": 1},
			from("constants", "WORKLOAD_PORT")),
		pyFile("lib/charms/dbfamily/v0/helper.py", []pyextract.Symbol{cls("Helper", 1)}, map[string]int{"DemoApi": 1},
			from("charms.demo_db.v0.api", "DemoApi"), pyextract.Import{Module: "logging"}),
		// (the standard library's logging, not the charm's src/utils/logging.py)
		pyFile("src/utils/logging.py", []pyextract.Symbol{fn("setup", 1)}, nil))
	r := Rank(in)
	if s := signal(fileOf(t, r, "lib/charms/dbfamily/v0/provider.py"), SigCoOwnedLib); s.Value != CoOwnedLibPenalty || s.Note != "imports src/constants.py" {
		t.Errorf("provider: %+v", fileOf(t, r, "lib/charms/dbfamily/v0/provider.py").Signals)
	}
	for _, p := range []string{"lib/charms/dbfamily/v0/helper.py", "lib/charms/data_platform_libs/v0/data_interfaces.py"} {
		if f := fileOf(t, r, p); signal(f, SigCoOwnedLib).Value != 0 || signal(f, SigLib).Value != LibPenalty {
			t.Errorf("%s: %+v", p, f.Signals)
		}
	}
}

func TestEntryPointLeads(t *testing.T) {
	// A thin charm.py delegating to a module every file imports still leads the map.
	in := Input{Charms: []charmyaml.Charm{{Name: "thin", Dir: "."}}}
	for k := range 40 {
		in.Files = append(in.Files, pyFile(fmt.Sprintf("src/events/handler_%d.py", k), []pyextract.Symbol{cls(fmt.Sprintf("Handler%d", k), 1)},
			map[string]int{"SHARED_LITERAL": 3, "SharedModel": 2}, from("literals", "SHARED_LITERAL"), from("models", "SharedModel")))
	}
	in.Files = append(in.Files,
		pyFile("src/literals.py", []pyextract.Symbol{cnst("SHARED_LITERAL", 1)}, nil),
		pyFile("src/models.py", []pyextract.Symbol{cls("SharedModel", 1)}, map[string]int{"SHARED_LITERAL": 1}),
		pyFile("src/charm.py", []pyextract.Symbol{cls("ThinCharm", 1)}, map[string]int{"Handler0": 1, "main": 1}, from("events.handler_0", "Handler0")),
		// A dispatched helper script calls ops.main too, but the charm has its charm.py.
		pyFile("src/log_rotation.py", []pyextract.Symbol{fn("main", 1)}, map[string]int{"main": 1, "ops": 1}, pyextract.Import{Module: "ops"}))
	r := Rank(in)
	if r.Files[0].Path != "src/charm.py" || !hasSignal(r.Files[0], SigHubLead) {
		t.Errorf("order %v, charm.py signals %+v", paths(r), fileOf(t, r, "src/charm.py").Signals)
	}
	if hasSignal(fileOf(t, r, "src/log_rotation.py"), SigHub) {
		t.Error("a helper script calling ops.main is not the entry point of a charm with a charm.py")
	}
	if math.Abs(r.Files[0].Score/r.Files[1].Score-HubLead) > 1e-3 {
		t.Errorf("lead %v / %v, want %v", r.Files[0].Score, r.Files[1].Score, HubLead)
	}
}

func TestLibraryIntent(t *testing.T) {
	const big, small = "lib/charms/data_platform_libs/v0/data_interfaces.py", "lib/charms/observability_libs/v0/kubernetes_service_patch.py"
	withText := func(text string) Result {
		in := demoCharm()
		for k := range in.Files {
			switch in.Files[k].Path {
			case big:
				in.Files[k].Lines = 3000
			case small:
				in.Files[k].Lines = 400
			}
		}
		if text != "" {
			in.Mentions = []string{text}
		}
		return Rank(in)
	}
	base := withText("")
	// A library refresh: the vendored libraries lead, the larger first; the charm's own
	// library is not lifted (it is published from here, not fetched).
	r := withText("chore: update charm libraries")
	if got := paths(r)[:2]; !slices.Equal(got, []string{big, small}) || !hasSignal(r.Files[0], SigLibUpdate) {
		t.Errorf("library update: top %v, signals %+v", got, r.Files[0].Signals)
	}
	if f := fileOf(t, r, "lib/charms/demo_db/v0/api.py"); hasSignal(f, SigLibUpdate) {
		t.Errorf("own library lifted: %+v", f.Signals)
	}
	// Libraries named in passing, a library named by file with a major version the tree
	// lacks, or an update verb only in the body of a squashed PR: the libraries rise
	// (lib-intent) but the charm's code leads.
	for _, text := range []string{
		"feat: use the new library for the database relation",
		"chore: upgrade data_interfaces.py library to v1 to fix the relation",
		"fix: database relation\n\n* update charm libraries",
	} {
		r := withText(text)
		if r.Files[0].Class != ClassSource || hasSignal(fileOf(t, r, big), SigLibUpdate) {
			t.Errorf("%q: order %v", text, paths(r))
		}
		if f := fileOf(t, r, big); !hasSignal(f, SigLibIntent) && !hasSignal(f, SigMentionFile) || position(r, big) >= position(base, big) {
			t.Errorf("%q: %s %d → %d, %+v", text, big, position(base, big), position(r, big), f.Signals)
		}
	}
}

func TestLibraryUpdateImportedFirst(t *testing.T) {
	// In a library refresh, a library the charm's code imports leads a larger one that only
	// came along (nothing first-party imports it): LibUpdateDirectLead.
	const big, small = "lib/charms/data_platform_libs/v0/data_interfaces.py", "lib/charms/observability_libs/v0/kubernetes_service_patch.py"
	in := demoCharm()
	for k := range in.Files {
		f := &in.Files[k]
		switch f.Path {
		case big:
			f.Lines = 3000
		case small:
			f.Lines = 400
		case "src/charm.py", "src/database.py":
			f.Imports = slices.DeleteFunc(f.Imports, func(im pyextract.Import) bool { return strings.Contains(im.Module, "data_interfaces") })
			if f.Path == "src/charm.py" {
				f.Imports = append(f.Imports, from("charms.observability_libs.v0.kubernetes_service_patch", "ServicePatchRequires"))
			}
		}
	}
	in.Mentions = []string{"chore: update charm libraries"}
	r := Rank(in)
	if got := paths(r)[:2]; !slices.Equal(got, []string{small, big}) {
		t.Errorf("library update: top %v, want the imported library first", got)
	}
	for _, p := range []string{small, big} {
		if !hasSignal(fileOf(t, r, p), SigLibUpdate) {
			t.Errorf("%s: no %s signal", p, SigLibUpdate)
		}
	}
}

// rankDemo ranks the demo charm, with extra files, for the task text.
func rankDemo(text string, extra ...pyextract.File) Result {
	in := demoCharm()
	in.Files = append(in.Files, extra...)
	in.Mentions = []string{text}
	return Rank(in)
}

func TestNamedLibraryUpdate(t *testing.T) {
	// A subject that names a vendored library and an update verb lifts that library above
	// the code (libNamedUpdate), however the name is written; naming a major version the
	// tree does not hold means the charm moves to a new file, and the code keeps the lead.
	const small = "lib/charms/observability_libs/v0/kubernetes_service_patch.py"
	for _, text := range []string{"Update kubernetes_service_patch lib (#12)", "chore: bump kubernetes-service-patch library",
		"Update kubernetes service patch lib to v0"} {
		r := rankDemo(text)
		if r.Files[0].Path != small || !hasSignal(r.Files[0], SigLibUpdate) {
			t.Errorf("%q: top %v, signals %+v", text, paths(r)[:3], r.Files[0].Signals)
		}
		if f := fileOf(t, r, "lib/charms/data_platform_libs/v0/data_interfaces.py"); hasSignal(f, SigLibUpdate) {
			t.Errorf("%q: an unnamed library is lifted", text)
		}
	}
	if m := parseMentions([]string{"Update rolling-ops lib to version 0.7"}); !m.joined["rollingops"] {
		t.Errorf("rolling-ops does not name rollingops.py: %v", m.joined)
	}
	// A long name's last two or more words, followed by "lib" or "library", name it too (the
	// demo's other libraries are not lifted); one last word, or the words without "lib", do not.
	r := rankDemo("chore: bump service patch lib (#217)")
	if f := fileOf(t, r, small); !hasSignal(f, SigLibUpdate) || hasSignal(fileOf(t, r, "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigLibUpdate) {
		t.Errorf("service patch lib: %v", paths(r)[:3])
	}
	for text, want := range map[string]bool{"bump service patch lib": true, "the service patch library": true,
		"bump patch lib": false, "bump service patch": false, "bump kubernetes service lib": false} {
		if got := namesLibraryTail(parseMentions([]string{text}), small); got != want {
			t.Errorf("%q names %s: %v, want %v", text, small, got, want)
		}
	}
	for _, text := range []string{"chore: upgrade kubernetes_service_patch library to v1", "feat: use the kubernetes_service_patch library"} {
		r := rankDemo(text)
		if r.Files[0].Class != ClassSource || hasSignal(fileOf(t, r, small), SigLibUpdate) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
}

func TestIdentifierNamedLibraryUpdate(t *testing.T) {
	// An update verb beside a vendored library's module or package name written as an
	// identifier ("Update prometheus_scrape and kubernetes_service_patch", "update
	// operator_libs_linux") lifts that library without the word "lib"; the same words in
	// prose, a name without an update verb, or another library are not lifted.
	const small, big = "lib/charms/observability_libs/v0/kubernetes_service_patch.py", "lib/charms/data_platform_libs/v0/data_interfaces.py"
	for _, text := range []string{"Update kubernetes_service_patch and others", "chore: bump observability_libs (#9)",
		"Bumps kubernetes-service-patch version (#4)",       // hyphenated, as a project writes its name
		"chore: bump cos-agent, kubernetes-service-patch"} { // anywhere, when no relation is named so
		in := demoCharm()
		for k := range in.Files {
			if in.Files[k].Path == small {
				in.Files[k].Lines = 400
			}
		}
		in.Mentions = []string{text}
		r := Rank(in)
		if r.Files[0].Path != small || !hasSignal(r.Files[0], SigLibUpdate) || hasSignal(fileOf(t, r, big), SigLibUpdate) {
			t.Errorf("%q: top %v, signals %+v", text, paths(r)[:3], r.Files[0].Signals)
		}
	}
	for _, text := range []string{"Update kubernetes service patch handling", "fix: kubernetes_service_patch breaks on restart",
		"fix: kubernetes-service-patch breaks on restart", "fix: update integration tests to use the new kubernetes-service-patch interface",
		"Update kubernetes_service_patch to v1", "fix: update self.kubernetes_service_patch usage"} {
		if r := rankDemo(text); r.Files[0].Class != ClassSource || hasSignal(fileOf(t, r, small), SigLibUpdate) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	// however written, and whatever the body says of libraries
	for _, text := range []string{"Kubernetes_service_patch: bump to latest", "Update kubernetes_service_patch\n\nThe lib had a bug.",
		"Update kubernetes_service_patch\n\nsee kubernetes_service_patch.py", "Update kubernetes_service_patch and self.kubernetes_service_patch usage",
		"Update charms.observability_libs"} {
		r := rankDemo(text)
		if !hasSignal(fileOf(t, r, small), SigLibUpdate) || r.Files[0].Path != small {
			t.Errorf("%q: not lifted, top %v", text, paths(r)[:3])
		}
		if hasSignal(fileOf(t, r, "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigLibUpdate) {
			t.Errorf("%q: an unnamed library lifted", text)
		}
	}
	// hyphenated, the name must follow the verb; a declared relation's name so written, only
	// with nothing after it but a version or a word for libraries
	for text, want := range map[string]bool{
		"fix: update the tls certificate in kubernetes-service-patch integration": false,
		"docs: kubernetes-service-patch documentation update":                     false,
		"Bump kubernetes-service-patch (#32)":                                     true,
		"update kubernetes-service-patch json for devices":                        false,
		"update kubernetes-service-patch to v0.3":                                 true,
		"Bump kubernetes-service-patch from 0.1 to 0.2":                           true,
		"update kubernetes-service-patch to handle the new port":                  false,
		"feat: update kubernetes-service-patch, add the metrics port":             false,
		"update kubernetes-service-patch: handle the metrics port":                false,
		"update kubernetes-service-patch 2 panels":                                false,
	} {
		in := demoCharm()
		in.Charms[0].Relations = append(in.Charms[0].Relations, charmyaml.Relation{Name: "kubernetes-service-patch",
			Role: charmyaml.RoleRequires, Interface: "k8s_service", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 13}})
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), small), SigLibUpdate); got != want {
			t.Errorf("%q beside a relation of that name: lifted %v, want %v", text, got, want)
		}
	}
	// a name without an underscore (a library called ingress.py is also a word), or one a
	// first-party module shares, lifts nothing
	ingress := pyFile("lib/charms/traefik_k8s/v2/ingress.py", []pyextract.Symbol{cls("IngressPerAppRequirer", 3)}, nil)
	if r := rankDemo("fix: update ingress handling", ingress); hasSignal(fileOf(t, r, ingress.Path), SigLibUpdate) {
		t.Errorf("ingress lifted: %v", paths(r)[:3])
	}
	mine := pyFile("src/kubernetes_service_patch.py", []pyextract.Symbol{fn("patch", 3)}, nil)
	if r := rankDemo("Update kubernetes_service_patch", mine); hasSignal(fileOf(t, r, small), SigLibUpdate) {
		t.Errorf("a name a first-party module shares lifted the library: %v", paths(r)[:3])
	}
}

func TestNamedOwnLibrary(t *testing.T) {
	// The charm's own library, named as a file or as "<name> library" in the subject, is what
	// the change edits (it is published from here); its name inside an identifier is not.
	const own = "lib/charms/demo_db/v0/api.py"
	for _, text := range []string{"Update lib/charms/demo_db/v0/api.py", "fix: typo in the api library", "fix: api lib is broken"} {
		if r := rankDemo(text); r.Files[0].Path != own {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	for _, text := range []string{"feat: improve typing on ApiAppData, fix lib tests", "fix: the api returns stale data"} {
		if f := fileOf(t, rankDemo(text), own); hasSignal(f, SigLibUpdate) {
			t.Errorf("%q: own library lifted: %+v", text, f.Signals)
		}
	}
}

func TestCodeNameLiftsOwnLibrary(t *testing.T) {
	// A name only code writes (snake_case, or CamelCase of three words), which only the
	// charm's own library defines, lifts its penalty: the task is about the library. Its
	// words in prose, or a short CamelCase name that may be a product's, do not.
	const own = "lib/charms/demo_db/v0/api.py"
	for text, lifted := range map[string]bool{
		"fix: get_status returns stale data": true,
		"fix: the get status call is stale":  false,
		"fix: DemoApi returns stale data":    false,
		"fix: charm status after stale data": false,
	} {
		f := fileOf(t, rankDemo(text), own)
		if hasSignal(f, SigOwnLibIntent) != lifted || hasSignal(f, SigOwnLib) == lifted {
			t.Errorf("%q: own library signals %+v", text, f.Signals)
		}
		if lifted && signal(f, SigOwnLibIntent).Note != "get_status" {
			t.Errorf("%q: note %q", text, signal(f, SigOwnLibIntent).Note)
		}
	}
}

func TestUniqueFileNameWaivesPenalty(t *testing.T) {
	// A file name written out that names one file of the tree is as explicit as a path: a
	// library loses its penalty. A test keeps it (squashed PR bodies list their tests), and
	// so does a name several files share.
	in := demoCharm()
	in.Mentions = []string{"Fix LIBPATCH for kubernetes_service_patch.py\n\n* test_charm.py updated"}
	r := Rank(in)
	lib := fileOf(t, r, "lib/charms/observability_libs/v0/kubernetes_service_patch.py")
	if hasSignal(lib, SigLib) || !hasSignal(lib, SigMentionFile) {
		t.Errorf("named library: %+v", lib.Signals)
	}
	if f := fileOf(t, r, "tests/unit/test_charm.py"); !hasSignal(f, SigTest) {
		t.Errorf("named test lost its penalty: %+v", f.Signals)
	}
	// its stem written as its conventional commit's scope names it as well; the stem written
	// elsewhere (the library the change is about), or its words in prose, do not
	for text, waived := range map[string]bool{"fix(kubernetes_service_patch): retry": true, "patch the kubernetes service": false,
		"fix the retry of kubernetes_service_patch": false, "chore: bump libraries\n\n* kubernetes_service_patch to v1": true} {
		in.Mentions = []string{text}
		if lib := fileOf(t, Rank(in), "lib/charms/observability_libs/v0/kubernetes_service_patch.py"); hasSignal(lib, SigLib) == waived {
			t.Errorf("%q: library signals %+v", text, lib.Signals)
		}
	}
	if !namesLibraryFile("fix: Config-Server interface LIBRARY typo", "lib/charms/x/v0/config_server_interface.py") ||
		namesLibraryFile("fix: config server interface typo", "lib/charms/x/v0/config_server_interface.py") {
		t.Error("namesLibraryFile")
	}
}

func TestOwnLibraryAndYAMLBelowCode(t *testing.T) {
	// The charm's own library and its YAML are central in the graph but edited less than
	// its code: both carry their factor, which a path in the task lifts for the library.
	in := demoCharm()
	const own = "lib/charms/demo_db/v0/api.py"
	r := Rank(in)
	base := r
	if f := fileOf(t, r, own); signal(f, SigOwnLib).Value != OwnLibPenalty {
		t.Errorf("own library signals %+v", f.Signals)
	}
	if f := fileOf(t, r, "metadata.yaml"); signal(f, SigYAML).Value != YAMLFactor {
		t.Errorf("metadata.yaml signals %+v", f.Signals)
	}
	in.Mentions = []string{"fix " + own + " status"}
	if f := fileOf(t, Rank(in), own); hasSignal(f, SigOwnLib) || position(Rank(in), own) != 0 {
		t.Errorf("named own library: position %d, signals %+v", position(Rank(in), own), f.Signals)
	}
	// A title about "the library", naming none and no update: the charm's own library loses
	// its penalty and rises; said only in the body, it keeps it.
	for text, lifted := range map[string]bool{
		"feat: add library description for listing":          true,
		"feat: listing description\n\n* mention the library": false,
	} {
		in.Mentions = []string{text}
		r := Rank(in)
		f := fileOf(t, r, own)
		if hasSignal(f, SigOwnLibIntent) != lifted || hasSignal(f, SigOwnLib) == lifted {
			t.Errorf("%q: own library signals %+v", text, f.Signals)
		}
		if lifted && position(r, own) >= position(base, own) {
			t.Errorf("%q: own library %d → %d", text, position(base, own), position(r, own))
		}
	}
}

func TestLexicalScaleIgnoresTestsAndLibraries(t *testing.T) {
	// A test file using every word of the task does not set the scale: the best-matching
	// module of the charm still gets the full factor.
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("src/throttle.py", []pyextract.Symbol{fn("apply_network_throttle", 1)}, nil),
		pyFile("tests/unit/test_throttle.py", []pyextract.Symbol{fn("test_network_throttle_limit", 1), fn("test_network_throttle_apply", 9)},
			map[string]int{"apply_network_throttle": 4, "network_throttle_limit": 3}))
	in.Mentions = []string{"network throttle limit"}
	r := Rank(in)
	if s := signal(fileOf(t, r, "src/throttle.py"), SigMentionWords).Value; s != roundSig(math.Exp(LexBoost)) {
		t.Errorf("throttle.py lexical factor %v, want %v", s, roundSig(math.Exp(LexBoost)))
	}
	if position(r, "src/throttle.py") > position(r, "tests/unit/test_throttle.py") {
		t.Errorf("order %v", paths(r))
	}
}

func TestImportsResolveAndPromote(t *testing.T) {
	charms := []charmyaml.Charm{{Name: "kafka-k8s", Dir: "k8s", Files: []string{"k8s/metadata.yaml"}}}
	in := Input{Charms: charms, Files: []pyextract.File{
		pyFile("k8s/src/charm.py", []pyextract.Symbol{cls("KafkaCharm", 3)}, map[string]int{"ClusterState": 2, "main": 1},
			pyextract.Import{Module: "ops.main", Name: "main"}, from("single_kernel.core.cluster", "ClusterState")),
		pyFile("common/single_kernel/core/cluster.py", []pyextract.Symbol{cls("ClusterState", 1)}, map[string]int{"helper_function": 1},
			pyextract.Import{Module: "..util", Name: "helper_function"}),
		pyFile("common/single_kernel/util.py", []pyextract.Symbol{fn("helper_function", 1)}, nil),
		// Same class name elsewhere: the import decides which file the reference points to.
		pyFile("common/other/cluster.py", []pyextract.Symbol{cls("ClusterState", 1)}, nil),
		pyFile("docs/conf.py", []pyextract.Symbol{cnst("project", 1)}, nil),
	}}
	r := Rank(in)
	for _, p := range []string{"common/single_kernel/core/cluster.py", "common/single_kernel/util.py"} {
		if f := fileOf(t, r, p); f.Class != ClassSource || !hasSignal(f, SigFirstPartyImport) {
			t.Errorf("%s: class %s, signals %+v", p, f.Class, f.Signals)
		}
	}
	if c := fileOf(t, r, "common/other/cluster.py").Class; c != ClassOther {
		t.Errorf("unimported shared file class = %s", c)
	}
	if position(r, "common/single_kernel/core/cluster.py") > position(r, "common/other/cluster.py") {
		t.Errorf("the imported definer should outrank the namesake: %v", paths(r))
	}
	if !hasSignal(fileOf(t, r, "k8s/src/charm.py"), SigHub) {
		t.Error("entry point not detected")
	}
}

func TestNameImportedFromOutsideIsNotTheTrees(t *testing.T) {
	// src/workload.py imports APIError from ops.pebble: its uses are ops' class, not the
	// APIError src/maubot.py defines, which gets nothing from them; a name used without an
	// import still ties the files.
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DemoCharm", 1)}, map[string]int{"Workload": 1}, from("workload", "Workload")),
		pyFile("src/workload.py", []pyextract.Symbol{cls("Workload", 1)}, map[string]int{"APIError": 5}, from("ops.pebble", "APIError")),
		pyFile("src/maubot.py", []pyextract.Symbol{cls("APIError", 1)}, nil),
	}}
	with := signal(fileOf(t, Rank(in), "src/maubot.py"), SigPageRank).Value
	in.Files[1].Refs = nil
	without := signal(fileOf(t, Rank(in), "src/maubot.py"), SigPageRank).Value
	if with != without || with == 0 {
		t.Errorf("ops' APIError reached src/maubot.py: pagerank %v, %v without the uses", with, without)
	}
	in.Files[1] = pyFile("src/workload.py", []pyextract.Symbol{cls("Workload", 1)}, map[string]int{"APIError": 5})
	if bare := signal(fileOf(t, Rank(in), "src/maubot.py"), SigPageRank).Value; bare <= without {
		t.Errorf("a bare use no longer ties the files: pagerank %v, %v without it", bare, without)
	}
}

func TestOwnSelfAttributeIsNotAnotherFilesDefinition(t *testing.T) {
	// src/builder.py keeps self._queue_size and uses it: those uses are its own attribute's,
	// not the charm's method of the same name, which gets no rank from them (review rev105:
	// alloy-sub's one-line getters led its charm class).
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DemoCharm", 1, "ops.CharmBase"), meth("DemoCharm", "_queue_size", 9),
			meth("DemoCharm", "_render", 5)}, map[string]int{"Builder": 1, "_queue_size": 1, "_render": 1}),
		pyFile("src/builder.py", []pyextract.Symbol{cls("Builder", 1)}, map[string]int{"_queue_size": 3}),
	}}
	first := func() string { return fileOf(t, Rank(in), "src/charm.py").Symbols[1].Name }
	if got := first(); got != "DemoCharm._queue_size" {
		t.Fatalf("without Attrs the uses should credit the method: first method %s", got)
	}
	in.Files[1].Attrs = []string{"_queue_size"}
	if got := first(); got != "DemoCharm._render" {
		t.Errorf("builder's own self._queue_size credited the charm's method: first method %s", got)
	}
}

func TestExceptionModuleWeighsLess(t *testing.T) {
	// A module of exception classes only takes ExceptionModuleFactor: used as much as a
	// module of functions, it ranks below it; a module with anything else does not.
	exc := cls("DemoError", 1, "Exception")
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DemoCharm", 1, "ops.CharmBase")}, map[string]int{"DemoError": 1, "render_config": 1}),
		pyFile("src/errors.py", []pyextract.Symbol{exc, cls("OtherError", 5, "DemoError")}, nil),
		pyFile("src/workload.py", []pyextract.Symbol{fn("render_config", 1)}, nil),
	}}
	r := Rank(in)
	errs, wl := fileOf(t, r, "src/errors.py"), fileOf(t, r, "src/workload.py")
	if !hasSignal(errs, SigExceptionModule) || hasSignal(wl, SigExceptionModule) || errs.Score >= wl.Score {
		t.Errorf("errors.py %v %v, workload.py %v %v", errs.Score, errs.Signals, wl.Score, wl.Signals)
	}
	in.Files[1].Symbols = append(in.Files[1].Symbols, fn("wrap_errors", 9))
	if hasSignal(fileOf(t, Rank(in), "src/errors.py"), SigExceptionModule) {
		t.Error("a module with a function is no exceptions-only module")
	}
}

func TestEmptyModuleWeighsLess(t *testing.T) {
	// A package's empty __init__.py takes EmptyModuleFactor; one with an import does not.
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DemoCharm", 1, "ops.CharmBase")}, map[string]int{"render_config": 1}, from("core.workload", "render_config")),
		pyFile("src/core/__init__.py", nil, nil),
		pyFile("src/core/workload.py", []pyextract.Symbol{fn("render_config", 1)}, nil),
	}}
	if f := fileOf(t, Rank(in), "src/core/__init__.py"); !hasSignal(f, SigEmptyModule) {
		t.Errorf("empty __init__.py: %v", f.Signals)
	}
	in.Files[1] = pyFile("src/core/__init__.py", nil, map[string]int{"render_config": 1}, from(".workload", "render_config"))
	if f := fileOf(t, Rank(in), "src/core/__init__.py"); hasSignal(f, SigEmptyModule) {
		t.Errorf("__init__.py re-exporting a name: %v", f.Signals)
	}
}

func TestWholeModuleImportPicksTheDefiner(t *testing.T) {
	// A monorepo: each charm's charm.py does "import constants" and uses
	// constants.SERVICE_NAME; the reference is its own charm's constants.py, not a sibling's.
	in := Input{Files: []pyextract.File{
		pyFile("a/src/charm.py", []pyextract.Symbol{cls("ACharm", 1)}, map[string]int{"SERVICE_NAME": 4}, pyextract.Import{Module: "constants"}),
		pyFile("a/src/constants.py", []pyextract.Symbol{cnst("SERVICE_NAME", 1)}, nil),
		pyFile("b/src/constants.py", []pyextract.Symbol{cnst("SERVICE_NAME", 1)}, nil),
	}}
	with := signal(fileOf(t, Rank(in), "b/src/constants.py"), SigPageRank).Value
	in.Files[0].Refs = nil
	without := signal(fileOf(t, Rank(in), "b/src/constants.py"), SigPageRank).Value
	if with != without || with == 0 {
		t.Errorf("a/src/charm.py's reference reached the sibling's constants.py: pagerank %v, %v without it", with, without)
	}
	// without the import, both definers share it
	in.Files[0] = pyFile("a/src/charm.py", []pyextract.Symbol{cls("ACharm", 1)}, map[string]int{"SERVICE_NAME": 4})
	if bare := signal(fileOf(t, Rank(in), "b/src/constants.py"), SigPageRank).Value; bare <= without {
		t.Errorf("a bare use no longer reaches every definer: pagerank %v, %v without it", bare, without)
	}
	// from pkg import module imports the module whole, too (review rev99: dns-integrator's
	// dns_record.DNSRecordRequires credited each charm's library defining the class)
	in = Input{Files: []pyextract.File{
		pyFile("c/src/charm.py", []pyextract.Symbol{cls("CCharm", 1)}, map[string]int{"DNSRecordRequires": 4}, pyextract.Import{Module: "charms.c.v0", Name: "dns_record"}),
		pyFile("c/lib/charms/c/v0/dns_record.py", []pyextract.Symbol{cls("DNSRecordRequires", 1)}, nil),
		pyFile("d/lib/charms/d/v0/dns_record.py", []pyextract.Symbol{cls("DNSRecordRequires", 1)}, nil),
	}}
	with = signal(fileOf(t, Rank(in), "d/lib/charms/d/v0/dns_record.py"), SigPageRank).Value
	in.Files[0].Refs = nil
	without = signal(fileOf(t, Rank(in), "d/lib/charms/d/v0/dns_record.py"), SigPageRank).Value
	if with != without || with == 0 {
		t.Errorf("c/src/charm.py's dns_record.DNSRecordRequires reached d's library: pagerank %v, %v without it", with, without)
	}
	// a lower-case name may be a method of any object (self.workload.restart_workload()):
	// the import of utils does not claim it, and workload.py keeps its share
	in = Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("ACharm", 1)}, map[string]int{"restart_workload": 3}, pyextract.Import{Module: "utils"}),
		pyFile("src/utils.py", []pyextract.Symbol{fn("restart_workload", 1)}, nil),
		pyFile("src/workload.py", []pyextract.Symbol{cls("Workload", 1), fn("restart_workload", 2)}, nil),
	}}
	r := Rank(in)
	if u, w := signal(fileOf(t, r, "src/utils.py"), SigPageRank).Value, signal(fileOf(t, r, "src/workload.py"), SigPageRank).Value; w < u/2 {
		t.Errorf("the whole import claimed a lower-case name: utils %v, workload %v", u, w)
	}
}

func TestDormantLibraryGetsNoNameEdges(t *testing.T) {
	// A vendored library nothing outside the tests imports gets nothing from a name the
	// charm's code uses and it defines (hockeypuck: ops' get_content, add_secret made
	// data_interfaces.py, which nothing imports, outrank its charm.py; review rev103); once a
	// file imports it, the same use ties them.
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("HCharm", 1)}, map[string]int{"get_content": 2, "add_secret": 1}),
		pyFile("lib/charms/data_platform_libs/v0/data_interfaces.py", []pyextract.Symbol{cls("CachedSecret", 1), fn("get_content", 2), fn("add_secret", 3)}, nil),
		pyFile("tests/unit/test_lib.py", []pyextract.Symbol{fn("test_lib", 1)}, nil, pyextract.Import{Module: "charms.data_platform_libs.v0.data_interfaces"}),
	}}
	with := signal(fileOf(t, Rank(in), "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigPageRank).Value
	in.Files[0].Refs = nil
	without := signal(fileOf(t, Rank(in), "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigPageRank).Value
	if with != without || with == 0 {
		t.Errorf("a library nothing imports got the charm's uses: pagerank %v, %v without them", with, without)
	}
	in.Files[0] = pyFile("src/charm.py", []pyextract.Symbol{cls("HCharm", 1)}, map[string]int{"get_content": 2, "add_secret": 1})
	in.Files = append(in.Files, pyFile("src/secrets.py", []pyextract.Symbol{fn("load", 1)}, nil, pyextract.Import{Module: "charms.data_platform_libs.v0.data_interfaces", Name: "CachedSecret"}))
	imported := signal(fileOf(t, Rank(in), "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigPageRank).Value
	in.Files[0].Refs = nil
	importedWithout := signal(fileOf(t, Rank(in), "lib/charms/data_platform_libs/v0/data_interfaces.py"), SigPageRank).Value
	if imported <= importedWithout {
		t.Errorf("an imported library's names no longer tie the charm to it: pagerank %v, %v without the uses", imported, importedWithout)
	}
}

func TestTestCodeNotUsedByCharmCode(t *testing.T) {
	// A test charm's copy of a library defines a name the charm uses from a pip package:
	// charm code never imports tests, so the copy gets nothing from it.
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DemoCharm", 1)}, map[string]int{"JujuTopology": 3}, from("cosl", "JujuTopology")),
		pyFile("tests/integration/tester/lib/charms/obs/v0/juju_topology.py", []pyextract.Symbol{cls("JujuTopology", 1)}, nil),
		pyFile("tests/unit/test_topology.py", []pyextract.Symbol{fn("test_topology", 1)}, map[string]int{"JujuTopology": 1}),
	}}
	const copyPath = "tests/integration/tester/lib/charms/obs/v0/juju_topology.py"
	with := signal(fileOf(t, Rank(in), copyPath), SigPageRank).Value
	in.Files[0].Refs, in.Files[0].Imports = nil, nil
	without := signal(fileOf(t, Rank(in), copyPath), SigPageRank).Value
	if with != without || with == 0 {
		t.Errorf("the charm's reference reached the test copy: pagerank %v, %v without it", with, without)
	}
}

func symbolsOf(f File) []string {
	var out []string
	for _, s := range f.Symbols {
		out = append(out, fmt.Sprint(s.Name, " ", s.Score))
	}
	return out
}

func TestTestEditsLeaveTheCodeAsRanked(t *testing.T) {
	// An agent writes tests as it goes: a test's new references (a patch of a method, an
	// import of another module) and new words leave the code's ranks and signature order as
	// they were, with a task text too.
	// (the code's scores are shares of a sum the tests' own scores are in: they are compared
	// with the sum left out)
	nonTests := func(r Result) []File {
		var out []File
		for _, f := range r.Files {
			if f.Class != ClassTest {
				f.Score = 0
				f.Signals = slices.DeleteFunc(slices.Clone(f.Signals), func(s Signal) bool { return s.Name == SigScoreSum })
				out = append(out, f)
			}
		}
		return out
	}
	for _, text := range []string{"", "render the backup config"} {
		in := demoCharm()
		in.Mentions = []string{text}
		before := Rank(in)
		edited := demoCharm()
		edited.Mentions = []string{text}
		test := &edited.Files[len(edited.Files)-2]
		test.Symbols = append(test.Symbols, fn("test_render_backup_config", 40))
		test.Refs = append(test.Refs, pyextract.Ref{Name: "_helper", Count: 2}, pyextract.Ref{Name: "_on_database_created", Count: 1},
			pyextract.Ref{Name: "_indent", Count: 3}, pyextract.Ref{Name: "PEER", Count: 1})
		test.Imports = append(test.Imports, from("config_render", "_indent"), from("constants", "PEER"))
		after := Rank(edited)
		if a, b := nonTests(before), nonTests(after); !reflect.DeepEqual(a, b) {
			for k := range a {
				if !reflect.DeepEqual(a[k], b[k]) {
					t.Errorf("%q: a test edit moved the code: %s %v %v\n%s %v %v", text, a[k].Path, a[k].Signals, symbolsOf(a[k]), b[k].Path, b[k].Signals, symbolsOf(b[k]))
					break
				}
			}
		}
		// the control: the same references from charm code do move it
		edited.Files[0].Refs = append(edited.Files[0].Refs, pyextract.Ref{Name: "_indent", Count: 3}, pyextract.Ref{Name: "PEER", Count: 1})
		edited.Files[0].Imports = append(edited.Files[0].Imports, from("config_render", "_indent"), from("constants", "PEER"))
		if reflect.DeepEqual(nonTests(before), nonTests(Rank(edited))) {
			t.Errorf("%q: charm code's new references moved nothing", text)
		}
	}
	// a test the task names is what the agent works on: what it uses rises
	in := demoCharm()
	in.Mentions = []string{"fix test_backup"}
	named := Rank(in)
	in.Files[len(in.Files)-2].Refs = append(in.Files[len(in.Files)-2].Refs, pyextract.Ref{Name: "_indent", Count: 1})
	in.Files[len(in.Files)-2].Imports = append(in.Files[len(in.Files)-2].Imports, from("config_render", "_indent"))
	if a, b := signal(fileOf(t, named, "src/config_render.py"), SigPageRank).Value, signal(fileOf(t, Rank(in), "src/config_render.py"), SigPageRank).Value; b <= a {
		t.Errorf("a named test's use of config_render.py gave it nothing: pagerank %v -> %v", a, b)
	}
}

func TestHubByOpsMain(t *testing.T) {
	in := Input{Files: []pyextract.File{
		pyFile("src/operator_entry.py", []pyextract.Symbol{cls("Op", 1)}, map[string]int{"main": 1, "ops": 1}, pyextract.Import{Module: "ops"}),
		pyFile("src/helpers.py", []pyextract.Symbol{fn("main", 1)}, map[string]int{"main": 1}),
	}}
	r := Rank(in)
	if !hasSignal(fileOf(t, r, "src/operator_entry.py"), SigHub) || hasSignal(fileOf(t, r, "src/helpers.py"), SigHub) {
		t.Errorf("hub detection: %+v", r.Files)
	}
}

func TestHubReactiveModule(t *testing.T) {
	// A reactive charm's reactive/<name>.py importing charms.reactive (or `from charms import
	// reactive`) is its entry point; a helper module, and a reactive/ file importing no
	// charms.reactive, are not.
	in := Input{Files: []pyextract.File{
		pyFile("reactive/cache.py", []pyextract.Symbol{fn("configure", 1)}, map[string]int{"when": 1}, from("charms.reactive", "when")),
		pyFile("reactive/other.py", []pyextract.Symbol{fn("setup", 1)}, map[string]int{"reactive": 1}, from("charms", "reactive")),
		pyFile("reactive/notes.py", []pyextract.Symbol{fn("note", 1)}, nil, from("os", "path")),
		pyFile("lib/utils.py", []pyextract.Symbol{fn("render", 1)}, nil, from("charms.reactive", "set_flag")),
	}}
	r := Rank(in)
	for p, want := range map[string]bool{"reactive/cache.py": true, "reactive/other.py": true, "reactive/notes.py": false, "lib/utils.py": false} {
		if got := hasSignal(fileOf(t, r, p), SigHub); got != want {
			t.Errorf("%s hub = %v, want %v", p, got, want)
		}
	}
}

func TestHubClassicHooksModule(t *testing.T) {
	// A classic charm's module that runs charm-helpers' Hooks registry (hooks.execute) is its
	// entry point, whichever way it imports Hooks; a helper that imports Hooks but runs
	// nothing, and one that calls some other execute, are not.
	in := Input{Files: []pyextract.File{
		pyFile("hooks/hooks.py", []pyextract.Symbol{fn("install", 5)}, map[string]int{"Hooks": 1, "hooks": 3, "execute": 1}, from("charmhelpers.core.hookenv", "Hooks")),
		pyFile("hooks/other_hooks.py", []pyextract.Symbol{fn("start", 5)}, map[string]int{"Hooks": 1, "execute": 1}, from("hookenv", "Hooks")),
		pyFile("hooks/registry.py", []pyextract.Symbol{fn("make", 5)}, map[string]int{"Hooks": 1}, from("charmhelpers.core.hookenv", "Hooks")),
		pyFile("hooks/db.py", []pyextract.Symbol{fn("query", 5)}, map[string]int{"execute": 2}, from("sqlite3", "connect")),
	}}
	r := Rank(in)
	for p, want := range map[string]bool{"hooks/hooks.py": true, "hooks/other_hooks.py": true, "hooks/registry.py": false, "hooks/db.py": false} {
		if got := hasSignal(fileOf(t, r, p), SigHub); got != want {
			t.Errorf("%s hub = %v, want %v", p, got, want)
		}
	}
}

func TestPageRankMatchesGonum(t *testing.T) {
	// With a uniform teleport our power iteration computes gonum's edge-weighted PageRank.
	r := newRanker(demoCharm())
	r.match()
	r.resolveImports()
	g := r.buildGraph(r.linkEdges())
	n := len(r.nodes)
	uniform := make([]float64, n)
	for i := range uniform {
		uniform[i] = 1 / float64(n)
	}
	ours := pageRank(adjacencyOf(g, n), uniform)
	theirs := network.PageRankSparse(g, Damping, 1e-13)
	for i := range n {
		if math.Abs(ours[i]-theirs[int64(i)]) > 1e-8 {
			t.Errorf("%s: ours %v, gonum %v", r.nodes[i].path, ours[i], theirs[int64(i)])
		}
	}
}

func TestEmptyAndBrokenInput(t *testing.T) {
	if r := Rank(Input{}); len(r.Files) != 0 {
		t.Errorf("empty input: %+v", r)
	}
	in := Input{
		Files: []pyextract.File{{Path: "src/charm.py"}, {Path: "src/charm.py"}, {Path: ""}, {Path: "./src/x.py",
			Refs: []pyextract.Ref{{Name: "", Count: 1}, {Name: "y", Count: -3}}, Imports: []pyextract.Import{{Module: "...."}, {Module: ""}}}},
		Charms:   []charmyaml.Charm{{Name: "", Dir: "", Relations: []charmyaml.Relation{{Name: "db"}}}},
		Focus:    []string{"nope.py", ""},
		Mentions: []string{"", "  ", "-- / ."},
	}
	r := Rank(in)
	if !slices.Equal(paths(r), []string{"src/charm.py", "src/x.py"}) {
		t.Errorf("paths = %v", paths(r))
	}
}

// --- benchmarks -----------------------------------------------------------------------------

// synthTree makes a tree of n Python files in packages of 20, each defining a class with
// methods and referencing names of a few other files.
func synthTree(n int) Input {
	rnd := rand.New(rand.NewPCG(7, 7))
	files := make([]pyextract.File, n)
	for i := range files {
		dir := "src"
		switch {
		case i%5 == 1:
			dir = fmt.Sprintf("lib/charms/lib%d/v0", i/20)
		case i%5 == 2:
			dir = "tests/unit"
		}
		name := fmt.Sprintf("Thing%d", i)
		syms := []pyextract.Symbol{cls(name, 1)}
		for k := range 12 {
			syms = append(syms, meth(name, fmt.Sprintf("method_%d_%d", i, k), 2+k))
		}
		syms = append(syms, meth(name, "__init__", 20), meth(name, "reconcile", 30))
		refs := map[string]int{"reconcile": 2, "self": 30}
		for range 15 {
			j := rnd.IntN(n)
			refs[fmt.Sprintf("Thing%d", j)]++
			refs[fmt.Sprintf("method_%d_%d", j, rnd.IntN(12))] += 1 + rnd.IntN(3)
		}
		files[i] = pyFile(fmt.Sprintf("%s/mod_%d.py", dir, i), syms, refs, from(fmt.Sprintf("mod_%d", rnd.IntN(n)), "x"))
	}
	sort.Slice(files, func(a, b int) bool { return files[a].Path < files[b].Path })
	return Input{Files: files, Mentions: []string{"fix Thing42 method_42_3 in mod_7.py"}}
}

func BenchmarkRank100(b *testing.B) {
	in := synthTree(100)
	b.ResetTimer()
	for b.Loop() {
		Rank(in)
	}
}

func BenchmarkRank10k(b *testing.B) {
	in := synthTree(10000)
	b.ResetTimer()
	for b.Loop() {
		Rank(in)
	}
}

func TestFunctionWordsAreNotTaskWords(t *testing.T) {
	// "during" and the "re" of "re-enable" are English function words: a module whose prose
	// has them shares nothing with the task
	m := parseMentions([]string{"fix: re-enable prefixed topic names during relations"})
	if m.words["dur"] || m.words["during"] || m.words["re"] || !m.words["enabl"] || !m.words["topic"] {
		t.Errorf("words %v", m.words)
	}
	in := demoCharm()
	in.Files = append(in.Files, pyFile("src/managers/alpha.py", []pyextract.Symbol{cls("AlphaManager", 1)}, nil))
	in.Files[len(in.Files)-1].Words = []string{"during", "re", "while"}
	in.Mentions = []string{"re-enable it during the upgrade, while units wait"}
	if f := fileOf(t, Rank(in), "src/managers/alpha.py"); hasSignal(f, SigMentionWords) {
		t.Errorf("%s matches %q: %+v", f.Path, in.Mentions[0], f.Signals)
	}
}

func TestVersionWordsAreNotTaskWords(t *testing.T) {
	// "v0" of "v0.9" would match every library folder (lib/charms/x/v0/); a plain number
	// stays a word ("8.0.37" beside "# MySQL 8.0.37").
	m := parseMentions([]string{"Update dependency uv to v0.9 and MySQL to 8.0.37"})
	if m.words["v0"] || !m.words["37"] || !m.words["uv"] {
		t.Errorf("words %v", m.words)
	}
	in := demoCharm()
	in.Mentions = []string{"bump to v0.9"}
	for _, f := range Rank(in).Files {
		if hasSignal(f, SigMentionWords) {
			t.Errorf("%s matches %q: %+v", f.Path, in.Mentions[0], f.Signals)
		}
	}
}

func TestCopiesFolded(t *testing.T) {
	// A shared package copied into two charms (vault-k8s-operator's .vendored/) is one module:
	// listed once, at the path the copies are made from, with the best score of its copies,
	// the copies after every module with score 0. A module that only shares the file name, and a
	// file too small to say it is a copy, stay apart.
	const src, k8s, machine = "vault-package/vault/facade.py", "k8s/.vendored/vault-package/vault/facade.py", "machine/.vendored/vault-package/vault/facade.py"
	module := func(p string) pyextract.File {
		f := pyFile(p, []pyextract.Symbol{cls("JujuFacade", 3), meth("JujuFacade", "is_leader", 9)}, map[string]int{"model": 4})
		f.Lines = 40
		return f
	}
	small := func(p string) pyextract.File {
		f := pyFile(p, []pyextract.Symbol{fn("version", 1)}, nil)
		f.Lines = 3
		return f
	}
	other := module("k8s/src/facade.py")
	other.Lines = 41
	in := Input{Charms: []charmyaml.Charm{{Name: "vault-k8s", Dir: "k8s"}, {Name: "vault", Dir: "machine"}}, Files: []pyextract.File{
		module(src), module(k8s), module(machine), other,
		small("k8s/src/version.py"), small("machine/src/version.py"),
		pyFile("k8s/src/charm.py", []pyextract.Symbol{cls("VaultCharm", 1)}, map[string]int{"JujuFacade": 2, "version": 1}, from("vault.facade", "JujuFacade")),
		pyFile("machine/src/charm.py", []pyextract.Symbol{cls("VaultOperatorCharm", 1)}, map[string]int{"JujuFacade": 2}, from("vault.facade", "JujuFacade")),
	}}
	r := Rank(in)
	i := position(r, src)
	f := r.Files[i]
	if !slices.Equal(f.Copies, []string{k8s, machine}) || f.CopyOf != "" || signal(f, SigCopies).Value != 2 {
		t.Fatalf("canonical %s: copies %v, copy of %q, signals %+v", src, f.Copies, f.CopyOf, f.Signals)
	}
	n := len(r.Files)
	if got := paths(r)[n-2:]; !slices.Equal(got, []string{k8s, machine}) {
		t.Errorf("last: %v, want the copies of %s", got, src)
	}
	for _, c := range r.Files[n-2:] {
		if c.CopyOf != src || c.Score != 0 || len(c.Copies) > 0 {
			t.Errorf("copy %s: copy of %q, score %v, copies %v", c.Path, c.CopyOf, c.Score, c.Copies)
		}
	}
	if f.Score <= fileOf(t, r, "k8s/src/facade.py").Score || f.Score >= fileOf(t, r, "k8s/src/charm.py").Score {
		t.Errorf("canonical score %v: order %v", f.Score, paths(r))
	}
	for _, p := range []string{"k8s/src/facade.py", "k8s/src/version.py", "machine/src/version.py"} {
		if g := fileOf(t, r, p); g.CopyOf != "" || len(g.Copies) > 0 {
			t.Errorf("%s folded: copy of %q, copies %v", p, g.CopyOf, g.Copies)
		}
	}
	// A test's copy of a module is never the canonical one, however short its path.
	in.Files = append(in.Files, module("tests/facade.py"))
	if g := fileOf(t, Rank(in), "tests/facade.py"); g.CopyOf != src {
		t.Errorf("tests/facade.py: copy of %q, want %s", g.CopyOf, src)
	}
	// A vendored library's copy at a path the library rules do not know (a shared package's
	// third-party folder, imported by the charm: source) lends the library neither its score
	// nor its reasons: the library keeps its penalty.
	const lib, loose = "k8s/lib/charms/vault_x/v0/client.py", "k8s/src/thirdparty/vault_x/client.py"
	library := func(p string) pyextract.File {
		f := pyFile(p, []pyextract.Symbol{cls("VaultClient", 3), meth("VaultClient", "read", 9)}, map[string]int{"model": 4})
		f.Lines = 400
		return f
	}
	in.Files = append(in.Files[:len(in.Files)-1], library(lib), library(loose),
		pyFile("k8s/src/tls.py", []pyextract.Symbol{cls("Tls", 1)}, map[string]int{"VaultClient": 3}, from("thirdparty.vault_x.client", "VaultClient")))
	r = Rank(in)
	if g := fileOf(t, r, lib); !slices.Contains(g.Copies, loose) || !hasSignal(g, SigLib) {
		t.Errorf("library %s: copies %v, signals %+v", lib, g.Copies, g.Signals)
	}
}

func TestLiftedLibraryCopiesFollowIt(t *testing.T) {
	// In a library refresh of a repository whose charms each vendor the same library, the
	// copies of a lifted library come right after it (any of them may be the one refreshed),
	// not after every module; without a refresh they stay last.
	const lib = "lib/charms/loki_k8s/v1/loki_push_api.py"
	libFile := func(p string) pyextract.File {
		f := pyFile(p, []pyextract.Symbol{cls("LokiPushApiConsumer", 3), meth("LokiPushApiConsumer", "loki_endpoints", 9)}, map[string]int{"model": 4})
		f.Lines = 900
		return f
	}
	other := func(p string) pyextract.File {
		f := pyFile(p, []pyextract.Symbol{cls("TraefikRouteRequirer", 3)}, map[string]int{"model": 2})
		f.Lines = 300
		return f
	}
	in := Input{Charms: []charmyaml.Charm{{Name: "pyro-coordinator", Dir: "coordinator"}, {Name: "pyro-worker", Dir: "worker"}}, Files: []pyextract.File{
		libFile("coordinator/" + lib), libFile("worker/" + lib),
		other("coordinator/lib/charms/traefik_k8s/v0/traefik_route.py"),
		pyFile("coordinator/src/charm.py", []pyextract.Symbol{cls("CoordinatorCharm", 1)}, map[string]int{"LokiPushApiConsumer": 1, "TraefikRouteRequirer": 1}),
		pyFile("worker/src/charm.py", []pyextract.Symbol{cls("WorkerCharm", 1)}, map[string]int{"LokiPushApiConsumer": 1}),
	}}
	in.Mentions = []string{"chore: update charm libraries"}
	r := Rank(in)
	k := position(r, r.Files[0].Path)
	if r.Files[k].CopyOf != "" || len(r.Files[k].Copies) != 1 || r.Files[k+1].Path != r.Files[k].Copies[0] {
		t.Errorf("refresh: order %v, want the lifted library's copy right after it", paths(r))
	}
	in.Mentions = []string{"fix: restart the workload"}
	r = Rank(in)
	if last := r.Files[len(r.Files)-1]; last.CopyOf == "" {
		t.Errorf("no refresh: order %v, want the copy last", paths(r))
	}
}

func TestSymbolBodiesMatchingTheTaskLead(t *testing.T) {
	// A task rarely names the function it changes: the functions whose bodies have its words
	// lead their file, a rare word more than one every function has ("topic" is in all of
	// AuthManager's methods, "prefixed" in add_acl's only); without a task the order is the
	// structural one.
	file := func() pyextract.File {
		f := pyFile("src/auth.py", []pyextract.Symbol{cls("AuthManager", 1), meth("AuthManager", "users", 5),
			meth("AuthManager", "add_acl", 10), meth("AuthManager", "remove_user", 20), meth("AuthManager", "rotate", 30)},
			map[string]int{"AuthManager": 1})
		f.Lines = 40
		words := map[string][]string{
			"AuthManager.users":       {"list", "topic", "users"},
			"AuthManager.add_acl":     {"acl", "add", "pattern", "prefixed", "resource", "topic"},
			"AuthManager.remove_user": {"remove", "topic", "user"},
			"AuthManager.rotate":      {"password", "rotate", "secret"},
		}
		for k := range f.Symbols {
			f.Symbols[k].Words = words[f.Symbols[k].Name]
		}
		return f
	}
	order := func(r Result) []string { return symbolNames(t, r, "src/auth.py") }
	got := order(rankDemo("fix: re-enable prefixed topic names", file()))
	if got[0] != "AuthManager.add_acl" || slices.Index(got, "AuthManager.users") > slices.Index(got, "AuthManager.rotate") {
		t.Errorf("with the task: %v; want add_acl first, the methods with 'topic' before rotate", got)
	}
	in := demoCharm()
	in.Files = append(in.Files, file())
	if got := order(Rank(in)); got[0] == "AuthManager.add_acl" {
		t.Errorf("without a task: %v; add_acl has nothing to lead with", got)
	}
}

func TestSymbolsSharingTaskWordsLead(t *testing.T) {
	// Within a file, the symbols whose names share the task's words come first: the
	// handler of the action the task names, the relation whose name holds a word of it.
	in := demoCharm()
	base := Rank(in)
	in.Mentions = []string{"list-backups action fails when the s3 path has a prefix"}
	in.Files = append(in.Files, func() pyextract.File {
		f := pyFile("src/backups.py", []pyextract.Symbol{cls("Backups", 1), meth("Backups", "_on_create_backup_action", 5),
			meth("Backups", "_on_list_backups_action", 20), meth("Backups", "_render_stanza", 3)}, map[string]int{"Backups": 1})
		f.Lines = 60
		return f
	}())
	r := Rank(in)
	names := symbolNames(t, r, "src/backups.py")
	if i, j := slices.Index(names, "Backups._on_list_backups_action"), slices.Index(names, "Backups._on_create_backup_action"); i < 0 || j < 0 || i > j {
		t.Errorf("backups.py symbols %v: _on_list_backups_action should lead _on_create_backup_action", names)
	}
	if slices.Index(names, "Backups._on_create_backup_action") > slices.Index(names, "Backups._render_stanza") {
		t.Errorf("backups.py symbols %v: _on_create_backup_action (shares 'backup', 'action') should lead _render_stanza", names)
	}
	for i := range base.Files { // files keep their symbols' set; only the order may move
		if f := fileOf(t, r, base.Files[i].Path); len(f.Symbols) != len(base.Files[i].Symbols) {
			t.Errorf("%s: %d symbols, was %d", f.Path, len(f.Symbols), len(base.Files[i].Symbols))
		}
	}
}

func TestDeclarationIntent(t *testing.T) {
	// A subject naming a declared interface and a field of its declaration (its description,
	// its default) lifts the YAML file that declares it above the handler's code; the same
	// interface without such a word, or the word without an interface, lifts nothing.
	rank := func(text string) Result {
		in := demoCharm()
		in.Charms[0].Storage = []charmyaml.Storage{{Name: "logs", Type: "filesystem", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 19}}}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for text, want := range map[string]string{
		"Update `backup` action `force` description (#232)":    "actions.yaml",
		"change the default of log-level to debug":             "config.yaml",
		"fix: typo in the replicas relation's description":     "metadata.yaml",
		"chore: add optional field to requires type relations": "metadata.yaml",
		"Add optional flags to provides endpoints (#189)":      "metadata.yaml",
		"Add assumes field to metadata (#27)":                  "metadata.yaml",
		"Update charm summary (#167)":                          "metadata.yaml",
		"fix: update docs link (#171)":                         "metadata.yaml",
		"Update charmhub homepage (#108)":                      "metadata.yaml",
		"chore: rename replicas to peers":                      "metadata.yaml",
		"chore: rename actions to kebab-case":                  "actions.yaml",
		"chore: rename storages to log-data":                   "metadata.yaml",
		"Add documentation (#6)":                               "metadata.yaml",
		"Update README to be more end-user focused (#61)":      "metadata.yaml",
		"feat: add charm-related links (#12)":                  "metadata.yaml",
		"fix: include icon.svg in the final charm file":        "metadata.yaml",
		"docs: update description and links":                   "metadata.yaml",
		"feat: update listing links (#81)":                     "metadata.yaml",
		"remove unused configs":                                "config.yaml",
		"chore: drop obsolete actions":                         "actions.yaml",
		"Remove config options that are unused":                "config.yaml",
		"refactor: remove unused database relation (#75)":      "metadata.yaml",
	} {
		if r := rank(text); r.Files[0].Path != want {
			t.Errorf("%q: top %v, want %s", text, paths(r)[:3], want)
		}
	}
	// A documentation task lifts the other YAML declaring actions or options just below the
	// metadata (review rev127); a metadata field's task, or one naming an interface, does not.
	for text, docs := range map[string]bool{
		"Add documentation (#6)":               true,
		"minor doc fixes":                      true,
		"Update charm summary (#167)":          false,
		"docs: document the replicas relation": false,
	} {
		r := rank(text)
		lifted := hasSignal(fileOf(t, r, "actions.yaml"), SigDeclarationIntent) && hasSignal(fileOf(t, r, "config.yaml"), SigDeclarationIntent)
		if lifted != docs || docs && !slices.Equal(paths(r)[:3], []string{"metadata.yaml", "actions.yaml", "config.yaml"}) {
			t.Errorf("%q: top %v, actions.yaml and config.yaml lifted %v, want %v", text, paths(r)[:4], lifted, docs)
		}
	}
	// Without the rule, the action's handler leads its declaration.
	if r := rank("Update `backup` action `force` description"); !hasSignal(r.Files[0], SigDeclarationIntent) {
		t.Errorf("actions.yaml not lifted: %+v", r.Files[0])
	}
	in := demoCharm() // an option named like the field is not named by the word
	in.Charms[0].Config = append(in.Charms[0].Config, charmyaml.ConfigOption{Name: "description", Pos: charmyaml.Pos{File: "config.yaml", Line: 12}})
	in.Mentions = []string{"feat: add library description for listing"}
	if f := fileOf(t, Rank(in), "config.yaml"); hasSignal(f, SigDeclarationIntent) {
		t.Errorf("config.yaml lifted by an option named description: %+v", f.Signals)
	}
	// a listing word after another word is that word's thing ("bump dashboard links lib")
	for _, text := range []string{"bump dashboard links lib", "fix: skip down links", "Dashboards links stable"} {
		if f := fileOf(t, rank(text), "metadata.yaml"); hasSignal(f, SigDeclarationIntent) {
			t.Errorf("%q: metadata.yaml lifted: %+v", text, f.Signals)
		}
	}
	// nor a field's word that is a word of an interface's name (etcd-benchmark's get-summary
	// action, review rev115)
	if sub := subjectsOf([]string{"the test summary is missing the p99 latency"}); !namesMetadata(sub[0].m, func(string) bool { return false }) {
		t.Error("summary: no metadata field named without a declared get-summary")
	} else if namesMetadata(sub[0].m, func(w string) bool { return w == "summary" }) {
		t.Error("summary: a metadata field named beside a declared get-summary action")
	}
	// nor a listing word the charm declares as an interface's name (review rev111)
	text := "Links sent over the links relation by a departing application should still show until its relation is broken"
	if sub := subjectsOf([]string{text}); !namesListing(sub[0].m, func(string) bool { return false }) {
		t.Errorf("%q: no listing named without a declared links", text)
	} else if namesListing(sub[0].m, func(n string) bool { return n == "links" }) {
		t.Errorf("%q: a listing named beside a declared links relation", text)
	}
	// an addition's "default" is the new option's (review rev99): the addition rule, not this
	for text, yaml := range map[string]string{"add a config option for the default TTL of zone records": "config.yaml",
		"Add a config option with a default of 30": "config.yaml", "Add an action with a default timeout": "actions.yaml"} {
		for _, f := range rank(text).Files {
			if hasSignal(f, SigDeclarationIntent) {
				t.Errorf("%q: %s lifted: %+v", text, f.Path, f.Signals)
			}
		}
		if f := fileOf(t, rank(text), yaml); !hasSignal(f, SigAdditionIntent) {
			t.Errorf("%q: %s not lifted as an addition: %+v", text, yaml, f.Signals)
		}
	}
	if r := rank("Update `backup` action `force`"); r.Files[0].Path == "actions.yaml" {
		t.Errorf("actions.yaml leads without a declaration word: %+v", r.Files[0])
	}
	for _, text := range []string{"fix the backup action when force is set", "use the default description for the charm",
		"make the database relation handler optional", "docs: explain the backup action", "link the database relation",
		"update the default database configuration", "use the default logs path",
		"Fix backup\n\n* update the log-level default", "Update lib documentation to include how to access relation data",
		"Add proxy instructions to README and update the integration test", "Refactor: remove src-docs, change the Bridge class",
		"remove unused imports", "remove the config cache",
		// a removal of something else than a declaration (review rev121)
		"Delete leftover Kubernetes resources on remove", "cleanup unused relation data on departure",
		"Remove unused imports from config.py", "remove unused code paths for the database relation"} {
		for _, f := range rank(text).Files {
			if hasSignal(f, SigDeclarationIntent) {
				t.Errorf("%q: %s lifted: %+v", text, f.Path, f.Signals)
			}
		}
	}
	// a charm YAML file the removal names is where the declarations go from (review rev125)
	for text, want := range map[string]bool{"Remove unused relations from metadata.yaml": true, "Remove unused relations from src/charm.py": false} {
		in := demoCharm()
		in.Mentions = []string{text}
		r := newRanker(in)
		if got := slices.ContainsFunc(r.declarationTargets(), func(i int) bool { return r.nodes[i].path == "metadata.yaml" }); got != want {
			t.Errorf("%q: metadata.yaml a declaration target %v, want %v", text, got, want)
		}
	}
}

func TestTestCharmInterfacesAreNoMentionTargets(t *testing.T) {
	// A test charm's interface named like one of the charm's takes none of the task's mass.
	in := demoCharm()
	test := charmyaml.Charm{Name: "tester", Dir: "tests/integration/tester", Files: []string{"tests/integration/tester/metadata.yaml"},
		Relations: []charmyaml.Relation{{Name: "database", Role: charmyaml.RoleRequires, Interface: "postgresql_client",
			Pos: charmyaml.Pos{File: "tests/integration/tester/metadata.yaml", Line: 5}}}}
	in.Charms = append(in.Charms, test)
	in.Mentions = []string{"fix the database relation"}
	r := Rank(in)
	if f := fileOf(t, r, "tests/integration/tester/metadata.yaml"); hasSignal(f, SigMentionInterface) {
		t.Errorf("test charm's relation named: %+v", f.Signals)
	}
	if f := fileOf(t, r, "metadata.yaml"); !hasSignal(f, SigMentionInterface) {
		t.Errorf("charm's relation not named: %+v", f.Signals)
	}
}

func TestDocsIntentNeedsOneCharm(t *testing.T) {
	// "Add documentation" lifts the metadata of the one charm a tree ships (a test charm
	// aside); of several, which one's is not said, and none is lifted.
	in := demoCharm()
	in.Mentions = []string{"Add documentation (#6)"}
	test := in.Charms[0]
	test.Name, test.Dir = "tester", "tests/integration/tester"
	test.Files = []string{"tests/integration/tester/metadata.yaml"}
	in.Charms = append(in.Charms, test)
	if r := Rank(in); r.Files[0].Path != "metadata.yaml" {
		t.Errorf("with a test charm: top %v", paths(r)[:3])
	}
	other := test
	other.Name, other.Dir = "other", "other"
	other.Files = []string{"other/metadata.yaml"}
	in.Charms = append(in.Charms, other)
	for _, f := range Rank(in).Files {
		if hasSignal(f, SigDeclarationIntent) {
			t.Errorf("two charms: %s lifted", f.Path)
		}
	}
}

func TestAdditionIntent(t *testing.T) {
	// A subject adding an interface lifts the YAML file that declares its kind to second
	// place, under the entry point; a kind word that does not end the phrase after "add"
	// (integration tests, relation properties, relation_access) lifts nothing.
	rank := func(text string) Result {
		in := demoCharm()
		in.Charms[0].Storage = []charmyaml.Storage{{Name: "cache", Type: "filesystem", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 19}}}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for text, want := range map[string]string{
		"Add config option for dashboard size limit":   "config.yaml",
		"feat: add `extra_sans` config option (#62)":   "config.yaml",
		"add a new config option backup_compress_type": "config.yaml",
		"Add storage for data (#25)":                   "metadata.yaml",
		"Add istio relation (#176)":                    "metadata.yaml",
		"Add a `catalogue` endpoint":                   "metadata.yaml",
		"feat: add action to rotate the key":           "actions.yaml",
		"add a get-admin-password action":              "actions.yaml", // a hyphenated name is one word of the window
		"add the set_tls_private_key action":           "actions.yaml",
		// a conventional commit's feat, and the verbs of new behaviour
		"feat: `retention-days` charm config (#91)": "config.yaml",
		"feat: handle `run-cli` charm action (#29)": "actions.yaml",
		"support a new tracing relation":            "metadata.yaml",
		// what a relation implements names it
		"Implementation of the TLS interface":  "metadata.yaml",
		"Initial support for the s3 interface": "metadata.yaml",
	} {
		r := rank(text)
		if r.Files[1].Path != want || !hasSignal(r.Files[1], SigAdditionIntent) {
			t.Errorf("%q: top %v, want %s second", text, paths(r)[:3], want)
		}
	}
	// A charm that declares no option yet: its first goes to config.yaml, which does not
	// exist, or to charmcraft.yaml when that holds everything; never to metadata.yaml.
	for _, unified := range []bool{false, true} {
		in := demoCharm()
		in.Charms[0].Config = nil
		in.Links.Charms[0].Interfaces = slices.DeleteFunc(in.Links.Charms[0].Interfaces, func(it linker.Interface) bool { return it.Kind == linker.KindConfig })
		in.Charms[0].Files = []string{"actions.yaml", "charmcraft.yaml", "metadata.yaml"}
		want := ""
		if unified {
			in.Charms[0].Files = []string{"charmcraft.yaml"}
			want = "charmcraft.yaml"
		}
		in.Mentions = []string{"Add config option for dashboard size limit"}
		var lifted []string
		for _, f := range Rank(in).Files {
			if hasSignal(f, SigAdditionIntent) {
				lifted = append(lifted, f.Path)
			}
		}
		if want == "" && len(lifted) > 0 || want != "" && !slices.Equal(lifted, []string{want}) {
			t.Errorf("unified %v: lifted %v, want %q", unified, lifted, want)
		}
	}
	for _, text := range []string{"Add integration tests", "Add more guards around relation properties",
		"Don't add relation_access when not available", "fix the backup action", "feat: add a config parser class",
		"fix crash when the new relation has no data", "fix: support new config option names in the renderer",
		"Apply with force when adding manifest resources (#4)", "add Kubernetes resources for the webhook"} {
		for _, f := range rank(text).Files {
			if hasSignal(f, SigAdditionIntent) {
				t.Errorf("%q: %s lifted: %+v", text, f.Path, f.Signals)
			}
		}
	}
}

func TestDocsRuleNotForANamedFile(t *testing.T) {
	// "docs" alone is about the charm's metadata (its description and docs link); a line
	// that names a file is about that file ("updated config.yaml docs": the options')
	for text, want := range map[string]bool{"Update the charm docs": true, "updated config.yaml docs": false} {
		in := demoCharm()
		in.Mentions = []string{text}
		if got := hasSignal(fileOf(t, Rank(in), "metadata.yaml"), SigDeclarationIntent); got != want {
			t.Errorf("%q: metadata.yaml lifted %v, want %v", text, got, want)
		}
	}
}

func TestMentionsDropWebAddresses(t *testing.T) {
	// A linked pull request names another repository, not the code to change.
	m := parseMentions([]string{"Update `resume-upgrade` description\n\nPorted from https://github.com/canonical/mysql-router-operator/pull/133 (see [DPE-1](http://jira.example/browse/DPE-1))"})
	for _, w := range []string{"github", "router", "operator", "pull", "jira", "browse"} {
		if m.words[w] || m.idents[w] {
			t.Errorf("word %q of a web address kept", w)
		}
	}
	if len(m.paths) != 0 {
		t.Errorf("paths %v", m.paths)
	}
	if !m.words["port"] || !m.grams["resume_upgrade"] || !m.words["dpe"] {
		t.Errorf("the text's own words lost: %v", slices.Sorted(maps.Keys(m.words)))
	}
}

func TestMentionsDropTrailersAndIssueKeys(t *testing.T) {
	// Trailers, e-mail addresses and issue keys name who wrote the change and where it was
	// tracked; standards written like a key, a base and the body's own words stay.
	m := parseMentions([]string{"[DPE-6575] Add microk8s bench (#21)\n\nCSS-12081: hash with SHA-256, UTF-8 names, ubuntu@22.04 base\n" +
		"* KF-771-renovate-configuration\n\nSigned-off-by: Jane Roe <jane.roe@canonical.com>\n" +
		"Co-authored-by: Bot <1+bot@users.noreply.github.com>\nChange-Id: I3f5a9c\nCloses-Bug: #1234567\nmail admin@example.org\n" +
		"Fix LP: #1730567 and [LP#2046508], see lp:1883549 and lp:~stub/charms/pg\nFIX #49 and run on GitHub Actions"})
	for _, w := range []string{"dpe", "css", "kf", "jane", "roe", "canonical", "signed", "bot", "noreply", "i3f5a9c", "closes", "admin", "example", "lp", "stub", "1730567",
		"21", "49", "actions"} {
		if m.words[stem(w)] || m.idents[w] {
			t.Errorf("word %q of a trailer, address or issue key kept", w)
		}
	}
	for _, w := range []string{"microk8s", "bench", "hash", "sha", "256", "utf", "ubuntu", "22", "base", "renovate", "configuration", "mail", "github"} {
		if !m.words[stem(w)] {
			t.Errorf("the text's own word %q lost: %v", w, slices.Sorted(maps.Keys(m.words)))
		}
	}
}

func TestMentionsDropMergeBoilerplate(t *testing.T) {
	// A merge line keeps its branch's words (not as a path) or its Gerrit title; git's and
	// GitHub's words and the branch's owner go.
	for text, want := range map[string][]string{
		"Merge pull request #22 from canonical/rework-data-locations\n\nRework snap files": {"rework", "data", "locations", "snap"},
		"Merge pull request #46 from rbarry82/feature/integration\n\nIntegration Tests":    {"feature", "integration"},
		"Merge branch 'fix-ci' into main":                                                  {"ci"},
		"Merge \"ignore devices that have already been processed\"":                        {"ignore", "devices", "processed"},
	} {
		m := parseMentions([]string{text})
		for _, w := range want {
			if !m.words[stem(w)] {
				t.Errorf("%q: word %q lost: %v", text, w, slices.Sorted(maps.Keys(m.words)))
			}
		}
		for _, w := range []string{"merge", "pull", "request", "canonical", "rbarry82", "branch", "main"} {
			if m.words[stem(w)] {
				t.Errorf("%q: boilerplate word %q kept", text, w)
			}
		}
		if len(m.paths) != 0 {
			t.Errorf("%q: paths %v", text, m.paths)
		}
	}
	// the pull request's title is still a subject of its own
	if s := subjectsOf([]string{"Merge pull request #3 from o/b\n\nBump hydra to 2.2.0"}); len(s) != 2 || s[1].text != "Bump hydra to 2.2.0" {
		t.Errorf("subjects %+v", s)
	}
}

func TestMentionsWholeNames(t *testing.T) {
	// A product name written in mixed case is also a word whole, and a name with its version
	// glued on is also a word without it; "drop", "delete" and "bump" are stopwords like "remove"
	// and "update".
	m := parseMentions([]string{"Drop support for CentOS 7 and MySQL; use NFSv4.2, HTTP2 and Python3 on IPv6; delete the bumped pin"})
	for _, w := range []string{"centos", "mysql", "nfs", "http", "python", "cent", "sql"} {
		if !m.words[stem(w)] {
			t.Errorf("word %q missing: %v", w, slices.Sorted(maps.Keys(m.words)))
		}
	}
	for _, w := range []string{"drop", "ip", "ipv", "delete", "bump"} {
		if m.words[stem(w)] {
			t.Errorf("word %q kept: %v", w, slices.Sorted(maps.Keys(m.words)))
		}
	}
	for part, want := range map[string]string{"GitHub": "github", "OpenStack": "openstack", "DatabaseRequiresEvent": "",
		"TLSv1": "tls", "k8s": "", "v4": "", "ubuntu": "", "DPE": ""} {
		if got := wholeName(part, pyextract.SplitWords(part)); got != want {
			t.Errorf("wholeName(%q) = %q, want %q", part, got, want)
		}
	}
}

func TestMentionsLeadVerbs(t *testing.T) {
	// The verb that opens a line (after a conventional commit's type) says what to do: it
	// names an action only beside its kind, like a word after an article.
	for text, want := range map[string]bool{
		"Enable vTPM support in nova-compute":          true,
		"fix(actions): restart the workload on change": true,
		"Update docs\n* Backup before upgrade":         true,
		"Restart action fails when paused":             true, // common, but restart_action names it
		"Fix the restart relation":                     false,
		"handle the backup action; backup now runs":    false,
	} {
		m := parseMentions([]string{text})
		w := strings.Fields(strings.NewReplacer("fix(actions): ", "", "Update docs\n* ", "", "Fix the ", "", "handle the ", "").Replace(text))[0]
		if got := m.common[strings.ToLower(w)]; got != want {
			t.Errorf("%q: %q common %v, want %v", text, w, got, want)
		}
	}
	if m := parseMentions([]string{"Restart action fails"}); !m.grams["restart_action"] {
		t.Error("restart_action gram lost")
	}
}

func TestMentionsOfMachinePaths(t *testing.T) {
	// A path on the workload's machine names no file of the charm, and its system folders
	// ("lib" of /var/lib) do not make the text about charm libraries; its own words count.
	m := parseMentions([]string{"Add storage for data and logs\n\n- data in `/var/snap/charmed-etcd/common/var/lib/etcd`"})
	if namesLibraries(m) {
		t.Error("/var/lib reads as a text about libraries")
	}
	if len(m.paths) != 0 {
		t.Errorf("paths %v", m.paths)
	}
	if !m.words["etcd"] || !m.words["snap"] || !m.words[stem("storage")] {
		t.Errorf("the path's own words lost: %v", slices.Sorted(maps.Keys(m.words)))
	}
	// a file of the charm, with or without a leading "./", is still a path
	m = parseMentions([]string{"Update lib/charms/foo/v0/bar.py, ./src/charm.py and /src/state.py"})
	if !namesLibraries(m) || !slices.Equal(m.paths, []string{"lib/charms/foo/v0/bar.py", "src/charm.py", "src/state.py"}) {
		t.Errorf("paths %v, libraries %v", m.paths, namesLibraries(m))
	}
}

func TestWorkloadUpgrade(t *testing.T) {
	// A subject about a new release of the workload lifts the files that pin it: the snap
	// revision constant (machine) or the image resource (Kubernetes), whose pinning symbol
	// leads the file; not for the language's, a library's or a dependency's versions.
	rank := func(text string, k8s bool) Result {
		in := demoCharm()
		for k := range in.Files {
			if f := &in.Files[k]; f.Path == "src/constants.py" && !k8s {
				f.Symbols = append(f.Symbols, pyextract.Symbol{Name: "SNAP_PACKAGES", Kind: pyextract.KindConstant, Line: 4,
					Signature: `SNAP_PACKAGES = [("charmed-demo", {"revision": 61})]`})
			}
		}
		if k8s {
			in.Charms[0].Resources = []charmyaml.Resource{{Name: "app-image", Type: "oci-image",
				UpstreamSource: "ghcr.io/canonical/demo@sha256:0123", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 20}}}
		}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for _, text := range []string{"Upgrade demo to 8.0.37", "Update snap (#169)", "[DPE-5063] Update Demo to v8.0.40 (#374)",
		"Bump the workload container to demo 3.6.1 (new admin API)",
		"Bumps demo version to latest/stable release", "chore(deps): bump Demo container to `demo/main-1699847983-e69b782b`",
		"Release v1.19.1 (#94)", "chore: release 1.17.9"} {
		if r := rank(text, false); r.Files[0].Path != "src/constants.py" || r.Files[0].Symbols[0].Name != "SNAP_PACKAGES" {
			t.Errorf("machine %q: top %v, symbols %v", text, paths(r)[:3], r.Files[0].Symbols)
		}
		if r := rank(text, true); r.Files[0].Path != "metadata.yaml" || r.Files[0].Symbols[0].Name != "app-image" {
			t.Errorf("k8s %q: top %v, symbols %v", text, paths(r)[:3], r.Files[0].Symbols)
		}
	}
	// integrating the workload's rock, or a verb in -ing, is a move to another image too
	for _, text := range []string{"feat: integration of demo core rock (#155)", "chore: integrate demo rock (#113)",
		"Updating demo image repo to GHCR instead of docker.io (#9)"} {
		if r := rank(text, true); r.Files[0].Path != "metadata.yaml" || !hasSignal(r.Files[0], SigWorkloadPin) {
			t.Errorf("k8s %q: top %v", text, paths(r)[:3])
		}
	}
	if r := rank("Upgrade demo to 8.0.37", false); !hasSignal(r.Files[0], SigWorkloadPin) {
		t.Errorf("not lifted by the rule: %+v", r.Files[0])
	}
	// A charm without an image resource that pins its image in a config option's default
	// (kubeflow: "charmedkubeflow/training-operator:1.8.0-a40b4cf"): config.yaml, that option
	// first. With an image resource, an image option is not the pin.
	for _, withResource := range []bool{false, true} {
		in := demoCharm()
		in.Charms[0].Config = append(in.Charms[0].Config, charmyaml.ConfigOption{Name: "demo-image", Type: "string",
			Default: "charmedkubeflow/demo-server:1.8.0-a40b4cf", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 30}},
			charmyaml.ConfigOption{Name: "log-level", Type: "string", Default: "info:debug", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 34}})
		if withResource {
			in.Charms[0].Resources = []charmyaml.Resource{{Name: "app-image", Type: "oci-image",
				UpstreamSource: "ghcr.io/canonical/demo@sha256:0123", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 20}}}
		}
		in.Mentions = []string{"chore: upgrade demo-server 1.8.0 -> 1.9.0 (#214)"}
		r := Rank(in)
		switch f := fileOf(t, r, "config.yaml"); {
		case withResource && hasSignal(f, SigWorkloadPin):
			t.Errorf("with a resource, config.yaml is lifted: %+v", f.Signals)
		case !withResource && (r.Files[0].Path != "config.yaml" || r.Files[0].Symbols[0].Name != "demo-image"):
			t.Errorf("image option: top %v, symbols %v", paths(r)[:3], r.Files[0].Symbols)
		}
	}
	// A version the charm pins by name: a module constant (AIRBYTE_VERSION = "1.4.0") or a config
	// option named version with a release for default; not a constant that is no release.
	{
		in := demoCharm()
		for k := range in.Files {
			if f := &in.Files[k]; f.Path == "src/constants.py" {
				f.Symbols = append(f.Symbols,
					pyextract.Symbol{Name: "DEMO_VERSION", Kind: pyextract.KindConstant, Line: 5, Signature: `DEMO_VERSION = "1.4.0"`,
						Value: &pyextract.Value{Kind: pyextract.ValStr, Str: "1.4.0"}},
					pyextract.Symbol{Name: "API_VERSION", Kind: pyextract.KindConstant, Line: 6, Signature: `API_VERSION = "v1beta"`,
						Value: &pyextract.Value{Kind: pyextract.ValStr, Str: "v1beta"}})
			}
		}
		in.Mentions = []string{"update rock to v1.5.0 (#25)"}
		if r := Rank(in); r.Files[0].Path != "src/constants.py" || r.Files[0].Symbols[0].Name != "DEMO_VERSION" {
			t.Errorf("version constant: top %v, symbols %v", paths(r)[:3], r.Files[0].Symbols)
		}
		for name, v := range map[string]string{"API_VERSION": "v1beta", "PYTHON_VERSION": "3.10", "MIN_JUJU_VERSION": "3.1",
			"VERSION": "v0.12.0"} {
			if pinConstant(pyextract.Symbol{Name: name, Kind: pyextract.KindConstant, Value: &pyextract.Value{Kind: pyextract.ValStr, Str: v}},
				map[string]bool{"demo": true, "db": true}) {
				t.Errorf("%s = %q: not the charm's workload, yet a pin", name, v)
			}
		}
		in = demoCharm()
		in.Charms[0].Config = append(in.Charms[0].Config, charmyaml.ConfigOption{Name: "version", Type: "string",
			Default: "1.2.0", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 30}})
		in.Mentions = []string{"Bump node-exporter version from 1.2.0 to 1.3.1"}
		if r := Rank(in); r.Files[0].Path != "config.yaml" || r.Files[0].Symbols[0].Name != "version" {
			t.Errorf("version option: top %v, symbols %v", paths(r)[:3], r.Files[0].Symbols)
		}
	}
	for def, want := range map[string]bool{"charmedkubeflow/training-operator:1.8.0-a40b4cf": true, "ghcr.io/org/app@sha256:0a1b": true,
		"registry.example.com:5000/team/app:v2": true, "info:debug": false, "a/b": false, "http://example.com/x:1": false,
		"ghcr.io/org/app:1.0@sha256:0a1b": true, "nginx:1.25": false, "a/b:c:d": false} {
		if got := imageDefault(charmyaml.ConfigOption{Default: def}); got != want {
			t.Errorf("imageDefault(%q) = %v", def, got)
		}
	}
	for _, text := range []string{"Update python to 3.12", "fix: restart the workload after a config change",
		"Update conf only when the container is connectable", "update the workload's config on restart",
		"update the data-platform libs to 0.7", "Upgrade ops to 2.17", "fix the database relation\n\n* update snap",
		"fix release pipeline", "Release v1.2 of the docs", "build: add tag to release to 4, use 24.04 base",
		"integration tests for the demo rock", "feat: integrate with COS; demo version in the dashboard",
		"fix: update endpoints to the new version", "update postgresql schema version"} {
		for _, k8s := range []bool{false, true} {
			for _, f := range rank(text, k8s).Files {
				if hasSignal(f, SigWorkloadPin) {
					t.Errorf("%q (k8s %v): %s lifted: %+v", text, k8s, f.Path, f.Signals)
				}
			}
		}
	}
}

func TestOwnLibraryVersionAndLooseName(t *testing.T) {
	// LIBPATCH and LIBAPI ("lib … patch version") are bumped, and documentation written, by
	// hand only in the charm's own library: a subject saying so does not lift the vendored
	// libraries, and lifts the own
	// library it names by file; "<name> … library" names the own library with up to two words
	// between.
	rank := func(text string) Result {
		in := demoCharm()
		in.Mentions = []string{text}
		return Rank(in)
	}
	const own = "lib/charms/demo_db/v0/api.py"
	for _, text := range []string{"fix: bump charm library LIBPATCH", "Fix LIBPATCH for api.py (#174)", "chore: bump LIBAPI",
		"Update lib documentation to include how to access relation data", "add missing lib fields, update patch version"} {
		r := rank(text)
		for _, f := range r.Files {
			if f.Class == ClassLib && hasSignal(f, SigLibUpdate) {
				t.Errorf("%q: vendored %s lifted", text, f.Path)
			}
		}
		if f := fileOf(t, r, own); !hasSignal(f, SigOwnLibIntent) && !hasSignal(f, SigLibUpdate) {
			t.Errorf("%q: own library keeps its penalty: %+v", text, f.Signals)
		}
	}
	if r := rank("Fix LIBPATCH for api.py (#174)"); r.Files[0].Path != own {
		t.Errorf("named own library not first: %v", paths(r)[:3])
	}
	// a patch version without a word for libraries is any version's
	if f := fileOf(t, rank("fix: update patch version of the workload"), own); hasSignal(f, SigOwnLibIntent) {
		t.Errorf("own library lifted without a word for libraries: %+v", f.Signals)
	}
	for text, want := range map[string]bool{
		"feat: update the api juju interface library": true, "fix: api lib typo": true,
		"feat: update the api of the demo charm and its library": false,
	} {
		if got := namesLibraryFile(text, own); got != want {
			t.Errorf("namesLibraryFile(%q) = %v", text, got)
		}
	}
}

func TestOwnLibraryKeptInSource(t *testing.T) {
	// The charm's own library kept in src/ until published (it sets LIBAPI and LIBPATCH):
	// "Update Widget lib" names it, so it leads, and the vendored libraries are not refreshed.
	// A module of the same name without those fields is no library.
	for _, lib := range []bool{true, false} {
		in := demoCharm()
		syms := []pyextract.Symbol{cls("WidgetProvides", 40)}
		if lib {
			syms = append(syms, cnst("LIBAPI", 3), cnst("LIBPATCH", 4))
		}
		in.Files = append(in.Files, pyFile("src/relations/widget.py", syms, map[string]int{"WORKLOAD_PORT": 1}, from("constants", "WORKLOAD_PORT")))
		in.Mentions = []string{"[DPE-1] Update Widget lib (#36)\n\n* update lib"}
		r := Rank(in)
		if got := r.Files[0].Path == "src/relations/widget.py"; got != lib {
			t.Errorf("library %v: top %v", lib, paths(r)[:3])
		}
		if lib {
			for _, f := range r.Files {
				if f.Class == ClassLib && hasSignal(f, SigLibUpdate) {
					t.Errorf("vendored %s lifted", f.Path)
				}
			}
		}
	}
}

func TestSkeletonCharmListed(t *testing.T) {
	// A new charm's metadata file declares nothing yet: it is listed under the charm's name
	// rather than left out of the map, at the line of its name (the top of the file when the
	// name is declared elsewhere); a file that declares interfaces gets no such line.
	r := Rank(Input{Charms: []charmyaml.Charm{{Name: "etcd", Dir: ".", Files: []string{"charmcraft.yaml"},
		NameAt: charmyaml.Pos{File: "charmcraft.yaml", Line: 3}}}})
	if len(r.Files) != 1 || len(r.Files[0].Symbols) != 1 || r.Files[0].Symbols[0].Signature != "[charm] etcd" || r.Files[0].Symbols[0].Line != 3 {
		t.Fatalf("files %+v", r.Files)
	}
	r = Rank(Input{Charms: []charmyaml.Charm{{Name: "etcd", Dir: ".", Files: []string{"charmcraft.yaml", "metadata.yaml"},
		NameAt: charmyaml.Pos{File: "charmcraft.yaml", Line: 3}}}})
	if f := fileOf(t, r, "metadata.yaml"); len(f.Symbols) != 1 || f.Symbols[0].Line != 1 {
		t.Errorf("named in charmcraft.yaml: %+v", f.Symbols)
	}
	for _, f := range Rank(demoCharm()).Files {
		for _, s := range f.Symbols {
			if s.Kind == SymCharm {
				t.Errorf("%s: %+v", f.Path, s)
			}
		}
	}
}

func TestMergeCommitSubject(t *testing.T) {
	// A merge commit's subject is its pull request's title, on the line after the branch.
	got := subjectsOf([]string{"Merge pull request #149 from canonical/IAM-700-update-hydra-version\n\nBump hydra to 2.2.0\n\n* more",
		"fix: a\nb", "Merge branch 'main' into feature"})
	var texts []string
	for _, s := range got {
		texts = append(texts, s.text)
	}
	want := []string{"Merge pull request #149 from canonical/IAM-700-update-hydra-version", "Bump hydra to 2.2.0", "fix: a",
		"Merge branch 'main' into feature"}
	if !slices.Equal(texts, want) {
		t.Errorf("subjects %q, want %q", texts, want)
	}
	in := demoCharm()
	in.Mentions = []string{"Merge pull request #12 from someone/main\n\nAdd optional flags to provides endpoints"}
	if r := Rank(in); r.Files[0].Path != "metadata.yaml" {
		t.Errorf("top %v", paths(r)[:3])
	}
}

func TestUntestedModulesRiseForTestsOnlySubjects(t *testing.T) {
	// "Add unit tests" names no code: the modules with functions that no test imports or is
	// named after rise; the tested entry point and the constants-only module do not. A subject
	// that names something, or fixes tests, is not tests-only.
	rank := rankDemo
	lifted := func(r Result) []string {
		var out []string
		for _, f := range r.Files {
			if hasSignal(f, SigUntested) {
				out = append(out, f.Path)
			}
		}
		return out
	}
	for _, text := range []string{"test: update unit tests", "Add integration tests (#110)", "More tests", "unit-tests",
		"Add missing smoke tests", "test: more coverage"} {
		if got := lifted(rank(text)); !slices.Equal(slices.Sorted(slices.Values(got)), []string{"src/config_render.py", "src/database.py"}) {
			t.Errorf("%q: lifted %v", text, got)
		}
	}
	named := pyFile("tests/unit/test_config_render.py", []pyextract.Symbol{fn("test_render", 3)}, nil)
	if got := lifted(rank("Add unit tests", named)); !slices.Equal(got, []string{"src/database.py"}) {
		t.Errorf("test_config_render.py covers config_render.py: lifted %v", got)
	}
	for _, text := range []string{"Fix unit tests", "add unit tests for the database relation", "test: cover src/database.py",
		"update the backup action"} {
		if got := lifted(rank(text)); len(got) > 0 {
			t.Errorf("%q: lifted %v", text, got)
		}
	}
}

func TestReaderSymbolWeight(t *testing.T) {
	// A method the linker records reading a config option ranks higher in its file than it
	// would without the read: the YAML line names it, so the map should show it.
	score := func(withRead bool) float64 {
		in := demoCharm()
		if withRead {
			in.Links = linker.Result{Charms: []linker.CharmLinks{{Interfaces: []linker.Interface{{Kind: linker.KindConfig, Name: "port",
				Reads: []linker.Site{{File: "src/charm.py", Line: 51, Symbol: "DemoCharm._helper", Via: linker.ViaConfig}}}}}}}
		}
		for _, s := range fileOf(t, Rank(in), "src/charm.py").Symbols {
			if s.Name == "DemoCharm._helper" {
				return s.Score
			}
		}
		t.Fatal("DemoCharm._helper not ranked")
		return 0
	}
	if plain, read := score(false), score(true); read <= plain {
		t.Errorf("reader %v, plain %v", read, plain)
	}
}

func TestRepeatedDefinitionShownOnce(t *testing.T) {
	// `if pydantic v1: class Model … else: class Model …` defines Model twice with the same
	// signature: the file lists it, and each same method, once; a method whose signature
	// differs between the branches stays twice.
	in := demoCharm()
	other := meth("Model", "dump", 30)
	other.Signature = "def dump(self, clear: bool = True):"
	in.Files = append(in.Files, pyFile("src/models.py",
		[]pyextract.Symbol{cls("Model", 3), meth("Model", "load", 5), meth("Model", "dump", 8), cls("Model", 20), meth("Model", "load", 22), other}, nil))
	count := map[string]int{}
	for _, s := range fileOf(t, Rank(in), "src/models.py").Symbols {
		count[s.Name]++
	}
	if count["Model"] != 1 || count["Model.load"] != 1 || count["Model.dump"] != 2 {
		t.Errorf("symbols %v", count)
	}
}

func TestSecondaryDefinitionsLast(t *testing.T) {
	// A property's setter and an @overload stub come after the definitions that say what their
	// name is (secondary-def); a setter or stub with no plain definition beside it is the
	// only definition of its name, and weighs as any other.
	in := demoCharm()
	withDecorators := func(s pyextract.Symbol, ds ...string) pyextract.Symbol {
		s.Decorators = ds
		s.Signature = "@" + ds[0] + " " + s.Signature // (one signature twice is one definition shown once)
		return s
	}
	for k := range in.Files {
		if in.Files[k].Path == "src/database.py" {
			in.Files[k].Symbols = append(in.Files[k].Symbols,
				withDecorators(meth("DatabaseHandler", "port", 30), "property"),
				withDecorators(meth("DatabaseHandler", "port", 34), "port.setter"),
				withDecorators(meth("DatabaseHandler", "host", 38), "host.setter"),
				withDecorators(fn("fetch", 50), "typing.overload"),
				withDecorators(fn("fetch", 52), "overload"),
				fn("fetch", 54))
		}
	}
	f := fileOf(t, Rank(in), "src/database.py")
	var got []string
	for _, s := range f.Symbols {
		if hasSymSignal(s, SigSymSecondary) {
			got = append(got, s.Name+":"+strconv.Itoa(s.Line))
		}
	}
	if want := []string{"DatabaseHandler.port:34", "fetch:50", "fetch:52"}; !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("secondary definitions %v, want %v", got, want)
	}
	n := len(f.Symbols)
	for k, s := range f.Symbols {
		if hasSymSignal(s, SigSymSecondary) && k < n-3 {
			t.Errorf("%s:%d is symbol %d of %d", s.Name, s.Line, k, n)
		}
	}
}

func hasSymSignal(s Symbol, name string) bool {
	return slices.ContainsFunc(s.Signals, func(g Signal) bool { return g.Name == name })
}

func TestRockCodeIsNotTheCharms(t *testing.T) {
	// Python in a rock's project inside the charm's folder is the workload's (ClassOther)
	// unless the charm imports it; a rock at the root above a charm's folder leaves the charm's
	// code alone (review rev115).
	in := demoCharm()
	in.Files = append(in.Files, pyFile("sample_py/sample/messages.py", []pyextract.Symbol{cls("Greeting", 3)}, nil),
		pyFile("app_rock/plugin.py", []pyextract.Symbol{fn("hook", 3)}, nil))
	in.Rocks = []string{"app_rock", "sample_py"}
	for k := range in.Files {
		if in.Files[k].Path == "src/charm.py" {
			in.Files[k].Imports = append(in.Files[k].Imports, pyextract.Import{Module: "app_rock.plugin", Name: "hook"})
			in.Files[k].Refs = append(in.Files[k].Refs, pyextract.Ref{Name: "hook", Count: 1})
			slices.SortFunc(in.Files[k].Refs, func(a, b pyextract.Ref) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	r := Rank(in)
	if c := fileOf(t, r, "sample_py/sample/messages.py").Class; c != ClassOther {
		t.Errorf("sample: class %s", c)
	}
	if c := fileOf(t, r, "app_rock/plugin.py").Class; c != ClassSource {
		t.Errorf("imported rock code: class %s", c)
	}
	in.Rocks = []string{"."}
	if c := fileOf(t, Rank(in), "src/database.py").Class; c != ClassSource {
		t.Errorf("root rock: the charm's code is %s", c)
	}
}

func TestNamedHookEventSeedsItsHandlers(t *testing.T) {
	// A subject naming a hook event of two words gives its handlers the task's restart mass
	// (config-changed: DemoCharm in charm.py), and one no code observes yet the entry point,
	// where its observer goes, with a note that says so (review rev115: "add secret changed
	// hook"); a word of it alone ("the secret rotates") names none, nor does an everyday
	// phrase ("update status message", review rev118) but as written or beside a hook word.
	for text, want := range map[string]string{
		"fix the config changed hook":                    "event config-changed",
		"add secret changed hook (#31)":                  NoteNewObserver + "secret-changed",
		"fix the update status hook":                     NoteNewObserver + "update-status",
		"retry in update_status":                         NoteNewObserver + "update-status",
		"Update status message when the db is missing":   "",
		"the secret changes when the config is rendered": "",
	} {
		in := demoCharm()
		in.Mentions = []string{text}
		var got []string
		for _, f := range Rank(in).Files {
			for _, g := range f.Signals {
				if g.Name == SigMentionInterface && (strings.HasPrefix(g.Note, "event ") || strings.HasPrefix(g.Note, NoteNewObserver)) {
					got = append(got, f.Path+" "+g.Note)
				}
			}
		}
		if w := "src/charm.py " + want; want == "" && len(got) > 0 || want != "" && !slices.Equal(got, []string{w}) {
			t.Errorf("%q: seeded %q, want %q", text, got, want)
		}
	}
}

func TestLibraryBookkeepingLast(t *testing.T) {
	// LIBID, and a vendored library's LIBAPI and LIBPATCH, come after every other symbol of
	// their file; a charm's own library keeps LIBPATCH among its constants.
	in := demoCharm()
	vendored := "lib/charms/data_platform_libs/v0/data_interfaces.py"
	own := "lib/charms/demo_db/v0/api.py"
	for k := range in.Files {
		if p := in.Files[k].Path; p == vendored || p == own {
			in.Files[k].Symbols = append(in.Files[k].Symbols, cnst("LIBID", 1), cnst("LIBAPI", 2), cnst("LIBPATCH", 3), cnst("LOGGER_NAME", 4))
		}
	}
	r := Rank(in)
	rank := func(f File, name string) int {
		return slices.IndexFunc(f.Symbols, func(s Symbol) bool { return s.Name == name })
	}
	v, o := fileOf(t, r, vendored), fileOf(t, r, own)
	if n := len(v.Symbols); rank(v, "LIBID") < n-3 || rank(v, "LIBPATCH") < n-3 || rank(v, "LIBAPI") < n-3 {
		t.Errorf("vendored: %d symbols, LIBID %d LIBAPI %d LIBPATCH %d", n, rank(v, "LIBID"), rank(v, "LIBAPI"), rank(v, "LIBPATCH"))
	}
	if rank(o, "LIBID") != len(o.Symbols)-1 || rank(o, "LIBPATCH") > rank(o, "LOGGER_NAME")+1 {
		t.Errorf("own: LIBID %d LIBPATCH %d LOGGER_NAME %d of %d", rank(o, "LIBID"), rank(o, "LIBPATCH"), rank(o, "LOGGER_NAME"), len(o.Symbols))
	}
}

func TestTruncateImage(t *testing.T) {
	// A long image reference loses its registry and path, not its tag.
	for in, want := range map[string]string{
		"docker.io/charmedkubeflow/minio:ckf-1.10-b40ac43": "…/charmedkubeflow/minio:ckf-1.10-b40ac43",
		"ubuntu/postgres:14": "ubuntu/postgres:14",
		"registry.example.com/a-very-long-organisation-name/x:1": "…/a-very-long-organisation-name/x:1",
		// a last component that does not fit is kept whole up to imageNameSlack past the bound
		"registry.example.com/x:0123456789012345678901234567890123456789": "…/x:0123456789012345678901234567890123456789",
		"otel/opentelemetry-collector-contrib@sha256:…":                   "…/opentelemetry-collector-contrib@sha256:…",
		// and cut beyond it
		"registry.example.com/x:01234567890123456789012345678901234567890123456789": "…123456789012345678901234567890123456789",
	} {
		got := truncateImage(in)
		if got != want || len([]rune(got)) > sigValueMax+imageNameSlack {
			t.Errorf("truncateImage(%q) = %q, want %q", in, got, want)
		}
	}
	// so does a config option whose default is an image; another long string keeps its start
	img := charmyaml.ConfigOption{Name: "tensorboard-image", Type: "string", HasDefault: true, Default: "docker.io/charmedkubeflow/tensorflow:2.15.0-1a2b3c4"}
	if got := configSig(img); got != `[config] tensorboard-image (string, default "…/tensorflow:2.15.0-1a2b3c4")` {
		t.Errorf("image option: %s", got)
	}
	digest := charmyaml.ConfigOption{Name: "db-image", Type: "string", HasDefault: true,
		Default: "docker.io/library/postgres@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	if got := configSig(digest); got != `[config] db-image (string, default "docker.io/library/postgres@sha256:…")` {
		t.Errorf("digest option: %s", got)
	}
	text := charmyaml.ConfigOption{Name: "motd", Type: "string", HasDefault: true, Default: "Welcome to the charmed server, please behave yourselves"}
	if got := configSig(text); !strings.HasPrefix(got, `[config] motd (string, default "Welcome to`) {
		t.Errorf("string option: %s", got)
	}
}

func TestInterfaceNamed(t *testing.T) {
	// An interface is named by its words standing alone or leading an identifier, not by a
	// word inside another identifier; a name that is a kind word, or that the task writes
	// only after an article or a possessive, needs its kind beside it.
	named := func(text string) bool {
		in := demoCharm()
		in.Charms[0].Storage = []charmyaml.Storage{{Name: "config", Type: "filesystem", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 30}}}
		in.Mentions = []string{text}
		return hasSignal(fileOf(t, Rank(in), "metadata.yaml"), SigMentionInterface)
	}
	for text, want := range map[string]bool{
		"fix the database relation":              true,
		"_on_database_relation_changed fails":    true,
		"database_created is emitted twice":      true,
		"raise max_database_connections to 500":  false,
		"add a config option for the log format": false,
		"the config storage fills up":            true,
		"mount the storage config read-only":     true,
		// after an article or a possessive a name is a common noun, unless its kind is beside it
		"lost after a database failover":                 false,
		"its database is empty":                          false,
		"add a database relation check":                  true,
		"after a database failover, the database breaks": true,
	} {
		if got := named(text); got != want {
			t.Errorf("%q: named %v, want %v", text, got, want)
		}
	}
}

func TestMentionWordsNote(t *testing.T) {
	// The mention-words signal names the task words that weigh most, as the task writes them.
	in := demoCharm()
	in.Mentions = []string{"the databases handler renders the wrong port"}
	f := fileOf(t, Rank(in), "src/database.py")
	if s := signal(f, SigMentionWords); !strings.Contains(s.Note, "databases") || strings.Contains(s.Note, "databas,") {
		t.Errorf("mention-words note %q", s.Note)
	}
}

func TestLibrarySymbolsTheCharmUsesLead(t *testing.T) {
	// In a vendored library, the names the charm's own code uses come before the library's
	// other definitions; a dict method the charm calls on its own values does not count.
	in := demoCharm()
	const lib = "lib/charms/data_platform_libs/v0/data_interfaces.py"
	for k := range in.Files {
		switch in.Files[k].Path {
		case lib:
			// the library uses its own classes a lot: on flow and self-use alone they lead
			for _, s := range in.Files[k].Symbols {
				in.Files[k].Refs = append(in.Files[k].Refs, pyextract.Ref{Name: s.Name[strings.LastIndexByte(s.Name, '.')+1:], Count: 40})
			}
			in.Files[k].Symbols = append(in.Files[k].Symbols, meth("DatabaseRequires", "is_resource_created", 900), meth("DataDict", "get", 950))
		case "src/database.py":
			in.Files[k].Refs = append(in.Files[k].Refs, pyextract.Ref{Name: "is_resource_created", Count: 1}, pyextract.Ref{Name: "get", Count: 3})
		}
	}
	syms := fileOf(t, Rank(in), lib).Symbols
	at := func(name string) int { return slices.IndexFunc(syms, func(s Symbol) bool { return s.Name == name }) }
	used, get, unused := at("DatabaseRequires.is_resource_created"), at("DataDict.get"), at("DatabaseProvides")
	if used < 0 || used > unused || get < unused {
		t.Errorf("is_resource_created at %d, DataDict.get at %d, the unused class DatabaseProvides at %d", used, get, unused)
	}
}

func TestMentionsFileByPath(t *testing.T) {
	// A path names that file; a file of the same name in another folder is not named by it,
	// though its stem is among the text's words.
	r := &ranker{graphBuilder: graphBuilder{byPath: map[string]int{"common/managers/balancer.py": 0, "common/events/balancer.py": 1}}}
	for _, c := range []struct {
		text, path string
		want       int
	}{
		{"fix common/managers/balancer.py", "common/managers/balancer.py", byPath},
		{"fix common/managers/balancer.py", "common/events/balancer.py", 0},
		{"fix balancer.py", "common/events/balancer.py", byName},
		{"the balancer forgets its goals", "common/events/balancer.py", byName},
		// a path from above the root names the file; a path no file of the tree is at (a file
		// moved since) takes nothing from the file of that name
		{"fix charms/kafka/common/events/balancer.py", "common/events/balancer.py", byPath},
		{"fix old/place/balancer.py", "common/events/balancer.py", byName},
		// a part of another file's name names no file (review rev111)
		{"use `service-config.yaml` for `command`", "config.yaml", 0},
		{"use `service-config.yaml` for `command`", "src/service-config.yaml", byName},
		{"move balancer-config.py settings", "common/events/balancer.py", 0},
		{"the service config", "config.yaml", byName},
		// a private module's stem without its underscore (review rev113)
		{"discard changes when doing composer operations", "src/mediawiki/_composer.py", byName},
	} {
		if got := r.mentionsFileIn(parseMentions([]string{c.text}), c.path); got != c.want {
			t.Errorf("%q names %s: %d, want %d", c.text, c.path, got, c.want)
		}
	}
}

func TestNamedFolder(t *testing.T) {
	// Two charms sharing a package: a commit scope naming the package's folder, which is no
	// charm, lifts its files over the charms' entry points; a scope naming a charm, a folder of
	// every charm ("tests", "src"), or nothing, lifts no folder.
	charms := []charmyaml.Charm{
		{Name: "slurmctld", Dir: "charms/slurmctld", Files: []string{"charms/slurmctld/charmcraft.yaml"}},
		{Name: "slurmd", Dir: "charms/slurmd", Files: []string{"charms/slurmd/charmcraft.yaml"}},
	}
	charm := func(dir, class string) pyextract.File {
		f := pyFile(dir+"/src/charm.py", []pyextract.Symbol{cls(class, 1), meth(class, "_on_install", 5)}, map[string]int{"SlurmOps": 2, "install": 1})
		f.Lines = 80
		return f
	}
	ops := pyFile("internal/slurm-ops/src/slurm_ops/__init__.py", []pyextract.Symbol{cls("SlurmOps", 3), meth("SlurmOps", "install", 9)}, nil)
	ops.Lines = 200
	in := Input{Charms: charms, Files: []pyextract.File{charm("charms/slurmctld", "SlurmctldCharm"), charm("charms/slurmd", "SlurmdCharm"), ops,
		pyFile("tests/unit/test_ops.py", []pyextract.Symbol{fn("test_install", 1)}, map[string]int{"SlurmOps": 1})}}
	rank := func(text string) Result {
		in.Mentions = []string{text}
		return Rank(in)
	}
	r := rank("feat(slurm-ops): install the service from the snap")
	if f := r.Files[0]; f.Path != ops.Path || !hasSignal(f, SigNamedFolder) {
		t.Errorf("scope naming internal/slurm-ops: top %v", paths(r)[:3])
	}
	for _, text := range []string{"feat(slurmd): install the service from the snap", "fix(tests): install the service from the snap",
		"install the service from the snap", "feat(src): install the service from the snap"} {
		for _, f := range rank(text).Files {
			if hasSignal(f, SigNamedFolder) {
				t.Errorf("%q lifts %s", text, f.Path)
			}
		}
	}
}

func TestNamedCharmInMonorepo(t *testing.T) {
	// Three charms of one repository, alike in shape: the task's subject names one (by its
	// name, or its folder's), so its files lead, the addition intent lifts its YAML only, and
	// a module copied between the charms is shown at the named charm's copy. A task naming no
	// charm, every charm, or a one-word name ("ui"), changes nothing.
	charms := []charmyaml.Charm{
		{Name: "kfp-api", Dir: "charms/kfp-api", Files: []string{"charms/kfp-api/charmcraft.yaml", "charms/kfp-api/metadata.yaml"},
			Relations: []charmyaml.Relation{{Name: "s3-credentials", Role: "requires", Pos: charmyaml.Pos{File: "charms/kfp-api/metadata.yaml", Line: 3}}}},
		{Name: "kfp-ui", Dir: "charms/kfp-ui", Files: []string{"charms/kfp-ui/charmcraft.yaml", "charms/kfp-ui/metadata.yaml"},
			Relations: []charmyaml.Relation{{Name: "kfp-api", Role: "requires", Pos: charmyaml.Pos{File: "charms/kfp-ui/metadata.yaml", Line: 3}},
				{Name: "kfp-api-grpc", Role: "requires", Pos: charmyaml.Pos{File: "charms/kfp-ui/metadata.yaml", Line: 5}},
				{Name: "kfp-route-policy", Role: "requires", Pos: charmyaml.Pos{File: "charms/kfp-ui/metadata.yaml", Line: 7}}}},
		{Name: "kfp-route-policy", Dir: "charms/kfp-route-policy", Files: []string{"charms/kfp-route-policy/metadata.yaml"}},
		{Name: "ui", Dir: "charms/kfp-viewer", Files: []string{"charms/kfp-viewer/metadata.yaml"}},
		{Name: "app-charm", Dir: "tests/integration/app-charm", Files: []string{"tests/integration/app-charm/metadata.yaml"}},
	}
	charm := func(dir, class string, extra int) pyextract.File {
		f := pyFile(dir+"/src/charm.py", []pyextract.Symbol{cls(class, 1), meth(class, "_on_s3_credentials_changed", 5)}, map[string]int{"Storage": extra})
		f.Lines = 60
		return f
	}
	storage := func(dir string) pyextract.File {
		f := pyFile(dir+"/src/storage.py", []pyextract.Symbol{cls("Storage", 3), meth("Storage", "s3_endpoint", 9)}, map[string]int{"model": 4})
		f.Lines = 40
		return f
	}
	in := Input{Charms: charms, Files: []pyextract.File{
		charm("charms/kfp-api", "KfpApiCharm", 3), storage("charms/kfp-api"),
		charm("charms/kfp-ui", "KfpUiCharm", 1), storage("charms/kfp-ui"),
		charm("charms/kfp-viewer", "ViewerCharm", 1),
	}}
	top := func(text string) Result {
		in.Mentions = []string{text}
		return Rank(in)
	}
	r := top("feat(kfp-ui): add s3-credentials relation to relate with s3-integrator\n\nas kfp-api does")
	if got := paths(r)[:2]; !slices.Equal(got, []string{"charms/kfp-ui/src/charm.py", "charms/kfp-ui/metadata.yaml"}) {
		t.Errorf("named kfp-ui: top %v", paths(r)[:4])
	}
	if f := fileOf(t, r, "charms/kfp-ui/metadata.yaml"); !hasSignal(f, SigNamedCharm) || !hasSignal(f, SigAdditionIntent) {
		t.Errorf("kfp-ui metadata.yaml signals %+v", f.Signals)
	}
	if f := fileOf(t, r, "charms/kfp-api/metadata.yaml"); hasSignal(f, SigNamedCharm) || hasSignal(f, SigAdditionIntent) || hasSignal(f, SigMentionInterface) {
		t.Errorf("kfp-api metadata.yaml signals %+v", f.Signals) // (its s3-credentials is not the one added: review rev120)
	}
	if f := fileOf(t, r, "charms/kfp-api/src/storage.py"); f.CopyOf != "charms/kfp-ui/src/storage.py" {
		t.Errorf("copy shown at %q, want the named charm's", f.CopyOf)
	}
	// an addition to no charm in particular lifts no charm's YAML; to a named one, its own
	for text, want := range map[string]string{"Add storage for the cache": "", "kfp-ui: add storage for the cache": "charms/kfp-ui/metadata.yaml"} {
		var lifted []string
		for _, f := range top(text).Files {
			if hasSignal(f, SigAdditionIntent) {
				lifted = append(lifted, f.Path)
			}
		}
		if strings.Join(lifted, " ") != want {
			t.Errorf("%q: lifted %v, want %q", text, lifted, want)
		}
	}
	// so does a build change: the named charm's recipe
	var built []string
	for _, f := range top("kfp-ui: switching to poetry").Files {
		if hasSignal(f, SigBuildIntent) {
			built = append(built, f.Path)
		}
	}
	if !slices.Equal(built, []string{"charms/kfp-ui/charmcraft.yaml"}) {
		t.Errorf("build intent lifted %v", built)
	}
	// a change to a declaration the named charm does not hold lifts no other charm's
	for _, f := range top("kfp-viewer: update the s3-credentials relation description").Files {
		if hasSignal(f, SigDeclarationIntent) {
			t.Errorf("declaration intent lifted %s", f.Path)
		}
	}
	if !hasSignal(fileOf(t, top("update the s3-credentials relation description"), "charms/kfp-api/metadata.yaml"), SigDeclarationIntent) {
		t.Errorf("no charm named: the declaring file is not lifted")
	}
	// the folder's name names the charm too
	if got := paths(top("kfp-viewer: fix the s3 endpoint"))[0]; got != "charms/kfp-viewer/src/charm.py" {
		t.Errorf("kfp-viewer: top %s", got)
	}
	// of two named, the one the line relates the other to is not the one it changes
	// (review rev120: "Fix bind-operator ... when related to dns-secondary")
	for text, want := range map[string]string{"Fix kfp-ui not reloading when related to kfp-api": "charms/kfp-ui/",
		"kfp-api: fix the relation with kfp-ui": "charms/kfp-api/", "Fix kfp-ui when integrated with kfp-api": "charms/kfp-ui/"} {
		for _, f := range top(text).Files {
			if named := strings.HasPrefix(f.Path, want); hasSignal(f, SigNamedCharm) != named {
				t.Errorf("%q: %s has %+v", text, f.Path, f.Signals)
			}
		}
	}
	// two of three named: the third is not lifted
	for _, f := range top("bump kfp-api and kfp-ui").Files {
		if named := strings.HasPrefix(f.Path, "charms/kfp-api/") || strings.HasPrefix(f.Path, "charms/kfp-ui/"); hasSignal(f, SigNamedCharm) != named {
			t.Errorf("kfp-api and kfp-ui: %s has %+v", f.Path, f.Signals)
		}
	}
	// a task naming no charm: each entry point leads its own charm's files, not the whole
	// tree's (the viewer, a charm of an entry point alone, is not lifted to kfp-api's modules)
	if f := fileOf(t, top("fix the s3 endpoint"), "charms/kfp-viewer/src/charm.py"); hasSignal(f, SigHubLead) {
		t.Errorf("kfp-viewer entry point lifted: %+v", f.Signals)
	}
	// the head of a longer name names no charm ("kfp-api-principal", an option of another)
	for _, f := range top("fix: reintroduce kfp-api-principal config").Files {
		if hasSignal(f, SigNamedCharm) {
			t.Errorf("kfp-api-principal: %s has %+v", f.Path, f.Signals)
		}
	}
	// a commit's scope decides, whatever other charm the line names
	for _, f := range top("feat(kfp-route-policy): rename the endpoint to `kfp-api`").Files {
		if named := strings.HasPrefix(f.Path, "charms/kfp-route-policy/"); hasSignal(f, SigNamedCharm) != named {
			t.Errorf("scope kfp-route-policy: %s has %+v", f.Path, f.Signals)
		}
	}
	// a charm's name beside "relation", where a charm declares a relation so named, is the
	// relation's
	for _, text := range []string{"fix the s3 endpoint", "bump kfp-api, kfp-ui, kfp-viewer and kfp-route-policy", "ui: fix the s3 endpoint",
		"the kfp-api relation drops its data", "fix(ui): the kfp-api integration", "ui: fix the kfp-api-grpc relation",
		"ui: fix the kfp-route-policy relation"} {
		for _, f := range top(text).Files {
			if hasSignal(f, SigNamedCharm) {
				t.Errorf("%q: %s has %+v", text, f.Path, f.Signals)
			}
		}
	}
}

// namedCharmFiles are the files of r that the named-charm factor lifted, in rank order.
func namedCharmFiles(r Result) []string {
	var out []string
	for _, f := range r.Files {
		if hasSignal(f, SigNamedCharm) {
			out = append(out, f.Path)
		}
	}
	return out
}

func TestCharmNamedByItsOwnWord(t *testing.T) {
	// In a family of charms (oai-amf, oai-udm, oai-smf) the word that sets one apart names it
	// in a subject line ("add security context for udm"), as does a one-word name no other
	// charm's holds ("mysql"); a body's word, a word two charms share, or a generic one does not.
	var charms []charmyaml.Charm
	var files []pyextract.File
	for _, n := range []string{"oai-amf", "oai-udm", "oai-smf", "mysql", "oai-k8s"} {
		d := "charms/" + n
		c := charmyaml.Charm{Name: n, Dir: d, Files: []string{d + "/metadata.yaml"}}
		if n == "oai-amf" { // an endpoint named like another charm's own word
			c.Relations = []charmyaml.Relation{{Name: "smf", Role: "requires", Pos: charmyaml.Pos{File: d + "/metadata.yaml", Line: 3}}}
		}
		charms = append(charms, c)
		f := pyFile(d+"/src/charm.py", []pyextract.Symbol{cls("Charm", 1), meth("Charm", "_on_config_changed", 5)}, map[string]int{"make_pod_spec": 1})
		f.Lines = 60
		spec := pyFile(d+"/lib/pod_spec.py", []pyextract.Symbol{fn("make_pod_spec", 3)}, nil)
		spec.Lines = 40 + len(files) // not copies of each other
		files = append(files, f, spec)
	}
	in := Input{Charms: charms, Files: files}
	named := func(text string) []string {
		in.Mentions = []string{text}
		return namedCharmFiles(Rank(in))
	}
	for text, want := range map[string]string{
		"Add security context for udm":                            "charms/oai-udm/",
		"Add security context for udm\n\nas oai-amf already does": "charms/oai-udm/",
		"Add liveness and readiness probes for mysql":             "charms/mysql/",
		"fix(smf): restart on config change":                      "charms/oai-smf/",
	} {
		got := named(text)
		if len(got) == 0 || slices.ContainsFunc(got, func(p string) bool { return !strings.HasPrefix(p, want) }) {
			t.Errorf("%q: named %v, want %s only", text, got, want)
		}
	}
	// a word that is also an endpoint's name names the charm only as a commit's scope
	// ("fix(smf): …" above), not in prose, where it may mean the endpoint
	for _, text := range []string{"Add security context\n\nas udm does", "fix the oai charms", "k8s: bump the base",
		"the smf does not update its data after a restart"} {
		if got := named(text); len(got) > 0 {
			t.Errorf("%q: named %v", text, got)
		}
	}
}

func TestCharmNamedByItsOwnWordBesideAGenericOne(t *testing.T) {
	// falcosidekick-k8s beside falco: "k8s" is generic, so falcosidekick is the word that
	// sets the charm apart (review rev115).
	var charms []charmyaml.Charm
	var files []pyextract.File
	for _, n := range []string{"falco", "falcosidekick-k8s"} {
		d := n + "-operator"
		charms = append(charms, charmyaml.Charm{Name: n, Dir: d, Files: []string{d + "/charmcraft.yaml"}})
		f := pyFile(d+"/src/charm.py", []pyextract.Symbol{cls("Charm", 1)}, nil)
		f.Lines = 50 + len(files)
		files = append(files, f)
	}
	in := Input{Charms: charms, Files: files, Mentions: []string{"let prometheus scrape falcosidekick"}}
	named := namedCharmFiles(Rank(in))
	if len(named) == 0 || slices.ContainsFunc(named, func(p string) bool { return !strings.HasPrefix(p, "falcosidekick-k8s-operator/") }) {
		t.Errorf("named %v, want falcosidekick-k8s-operator/ only", named)
	}
}

func TestCharmNamedByItsOwnInterface(t *testing.T) {
	// In a monorepo, a subject naming an interface only one charm declares names that charm
	// (review rev111: 5g-ims' add-user action is hss's alone); not a relation whose interface
	// another charm of the tree has an endpoint of (the relation is both sides'), nor an
	// interface several charms declare.
	var charms []charmyaml.Charm
	var files []pyextract.File
	for _, n := range []string{"hss", "icscf", "scscf"} {
		d := "charms/" + n
		c := charmyaml.Charm{Name: n, Dir: d, Files: []string{d + "/metadata.yaml", d + "/actions.yaml"},
			Relations: []charmyaml.Relation{{Name: "mysql", Role: "requires", Interface: "mysql", Pos: charmyaml.Pos{File: d + "/metadata.yaml", Line: 3}}}}
		switch n {
		case "hss":
			c.Actions = []charmyaml.Action{{Name: "add-user", Pos: charmyaml.Pos{File: d + "/actions.yaml", Line: 1}}}
			c.Relations = append(c.Relations, charmyaml.Relation{Name: "diameter", Role: "provides", Interface: "diameter", Pos: charmyaml.Pos{File: d + "/metadata.yaml", Line: 6}})
		case "icscf":
			c.Relations = append(c.Relations, charmyaml.Relation{Name: "hss-diameter", Role: "requires", Interface: "diameter", Pos: charmyaml.Pos{File: d + "/metadata.yaml", Line: 6}})
		}
		charms = append(charms, c)
		f := pyFile(d+"/src/charm.py", []pyextract.Symbol{cls("Charm", 1), meth("Charm", "_on_config_changed", 5)}, nil)
		f.Lines = 60 + len(files)
		files = append(files, f)
	}
	in := Input{Charms: charms, Files: files}
	in.Links = linker.Link(linker.Input{Charms: charms, Files: files})
	named := func(text string) []string {
		in.Mentions = []string{text}
		return namedCharmFiles(Rank(in))
	}
	if got := named("add-user action fails when implicit is empty"); len(got) == 0 || slices.ContainsFunc(got, func(p string) bool { return !strings.HasPrefix(p, "charms/hss/") }) {
		t.Errorf("add-user: named %v, want charms/hss/ only", got)
	}
	for _, text := range []string{"the diameter relation drops its peers", "the mysql relation breaks on upgrade",
		"Add an add-user action to the subscriber flow"} { // (an addition goes to a charm without one)
		if got := named(text); len(got) > 0 {
			t.Errorf("%q: named %v", text, got)
		}
	}
}

func TestCommitScope(t *testing.T) {
	for subject, want := range map[string]bool{"refactor(slurmctld): reword": true, "feat(slurmctld,slurmd): x": true,
		"slurmctld: fix": true, "Fix slurmctld: restart": false, "Restart osd, slurmctld: fix": false, "fix(slurmd): x": false,
		"no scope slurmctld": false} {
		if got := commitScopes(subject)["slurmctld"]; got != want {
			t.Errorf("%q: %v, want %v", subject, got, want)
		}
	}
}

func TestRelationLinksCharmHandlersFirst(t *testing.T) {
	// A relation's line lists the charm's own handlers first, then its own library's plumbing
	// (which re-emits the relation's events for the charm's handlers), then vendored
	// libraries', then the catch-alls, whatever order the linker found them in.
	in := demoCharm()
	in.Links.Charms[0].Interfaces[0].Handlers = []linker.Handler{
		{Event: "relation_changed", Symbol: "DemoApi._on_relation_changed", File: "lib/charms/demo_db/v0/api.py", Line: 5, Via: linker.ViaLibrary},
		{Event: "relation_changed", Symbol: "DatabaseRequires._on_changed", File: "lib/charms/data_platform_libs/v0/data_interfaces.py", Line: 2, Via: linker.ViaLibrary},
		{Event: "relation_broken", Symbol: "DemoCharm._helper", File: "src/charm.py", Line: 50, Via: linker.ViaObserve, Loose: true},
		{Event: "database_created", Symbol: "DatabaseHandler._on_database_created", File: "src/database.py", Line: 20, Via: linker.ViaLibrary},
	}
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		if s.Name == "database" && !slices.Equal(s.Links, []string{"DatabaseHandler._on_database_created", "DemoApi._on_relation_changed",
			"DatabaseRequires._on_changed", "DemoCharm._helper"}) {
			t.Errorf("database links = %v", s.Links)
		}
	}
}

func TestRelationWithoutHandlerPointsAtItsBinding(t *testing.T) {
	// A relation no handler of the tree observes (handed to an outside package's object)
	// points at the code that binds or looks it up, as an option points at its readers; a
	// package's guess is no such place.
	in := demoCharm()
	in.Links.Charms[0].Interfaces = append(in.Links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindRelation, Name: "replicas",
		File: "metadata.yaml", Line: 11, Reads: []linker.Site{
			{File: "src/charm.py", Line: 3, Symbol: "DemoCharm.__init__", Via: linker.ViaPackage, Detail: "coordinated_workers"},
			{File: "src/charm.py", Line: 14, Symbol: "DemoCharm.__init__", Via: linker.ViaLibrary},
			{File: "src/charm.py", Line: 52, Symbol: "DemoCharm._helper", Via: linker.ViaLookup}}})
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		if s.Name == "replicas" && !slices.Equal(s.Links, []string{"DemoCharm.__init__", "DemoCharm._helper"}) {
			t.Errorf("replicas links = %v", s.Links)
		}
	}
}

func TestLibraryHandledRelationPointsAtTheCharmsBinding(t *testing.T) {
	// A relation only a library's plumbing handles leads with the charm's code that binds it
	// (what the charm does with it, but not the charm class's __init__, where every object is
	// built), then the library's handlers. A container no handler watches points at its
	// lookups.
	in := demoCharm()
	ifs := in.Links.Charms[0].Interfaces
	ifs[0].Handlers = []linker.Handler{{Event: "relation_changed", Symbol: "DatabaseRequires._on_changed",
		File: "lib/charms/data_platform_libs/v0/data_interfaces.py", Line: 2, Via: linker.ViaLibrary}}
	ifs[0].Reads = []linker.Site{{File: "src/database.py", Line: 7, Symbol: "DatabaseHandler.__init__", Via: linker.ViaLibrary},
		{File: "lib/charms/demo_db/v0/api.py", Line: 9, Symbol: "DemoApi.get_status", Via: linker.ViaLookup},
		{File: "src/charm.py", Line: 13, Symbol: "DemoCharm.__init__", Via: linker.ViaLibrary}} // where every object is built: says nothing
	in.Files[0].Symbols[0] = cls("DemoCharm", 10, "ops.CharmBase")
	ifs = append(ifs, linker.Interface{Kind: linker.KindContainer, Name: "app", File: "metadata.yaml", Line: 15,
		Reads: []linker.Site{{File: "src/charm.py", Line: 52, Symbol: "DemoCharm._helper", Via: linker.ViaLookup}}})
	in.Links.Charms[0].Interfaces = ifs
	got := map[string][]string{}
	for _, s := range fileOf(t, Rank(in), "metadata.yaml").Symbols {
		got[s.Name] = s.Links
	}
	if want := []string{"DatabaseHandler.__init__", "DatabaseRequires._on_changed"}; !slices.Equal(got["database"], want) {
		t.Errorf("database links = %v, want %v", got["database"], want)
	}
	if want := []string{"DemoCharm._helper"}; !slices.Equal(got["app"], want) {
		t.Errorf("app links = %v, want %v", got["app"], want)
	}
}

func TestCharmHelpersSync(t *testing.T) {
	// "Sync charm-helpers" / "Resync helpers" in a tree that vendors charm-helpers is a library
	// refresh: its files lead. "helpers" beside a sync verb in a tree without it names the
	// charm's own helpers, and the charm's code leads.
	const ch = "hooks/charmhelpers/core/hookenv.py"
	rankWith := func(text string, vendored bool) Result {
		in := demoCharm()
		if vendored {
			in.Files = append(in.Files, pyextract.File{Path: ch, Lines: 1500,
				Symbols: []pyextract.Symbol{{Name: "config", Kind: pyextract.KindFunction, Line: 10}}})
		}
		in.Mentions = []string{text}
		return Rank(in)
	}
	for _, text := range []string{"Sync charm-helpers for the 20.05 release", "[trivial] Resync helpers to pick up new releases"} {
		r := rankWith(text, true)
		if r.Files[0].Path != ch || !hasSignal(r.Files[0], SigLibUpdate) {
			t.Errorf("%q: top %v", text, paths(r)[:3])
		}
	}
	if r := rankWith("Resync helpers to pick up new releases", false); r.Files[0].Class != ClassSource {
		t.Errorf("no charm-helpers: top %v", paths(r)[:3])
	}
	if r := rankWith("fix the database helpers", true); hasSignal(fileOf(t, r, ch), SigLibUpdate) {
		t.Errorf("no sync verb: charm-helpers lifted")
	}
}

func TestBackslashIsPartOfAName(t *testing.T) {
	// A backslash is a character of a file name here, not a folder separator: the file is
	// listed, and focused, under the name it has on disk.
	const name = `src/back\slash.py`
	in := demoCharm()
	in.Files = append(in.Files, pyFile(name, []pyextract.Symbol{fn("bs_func", 1)}, nil))
	in.Focus = []string{name}
	r := Rank(in)
	if f := fileOf(t, r, name); !f.Focused {
		t.Errorf("%s: not focused: %+v", name, f)
	}
	for _, f := range r.Files {
		if strings.Contains(f.Path, "back/slash") {
			t.Errorf("listed as %s", f.Path)
		}
	}
}

func TestCommonMethodNamesTakeNoRank(t *testing.T) {
	// Other files' calls of get() or .model are calls on their own dicts and ops objects: a
	// method of that name (a private helper's _Partition.get) takes no rank from them, and
	// the file's main class stays its primary symbol.
	in := demoCharm()
	up := pyFile("src/upgrades.py", []pyextract.Symbol{cls("_Partition", 3), meth("_Partition", "get", 5),
		meth("_Partition", "model", 8), cls("KubernetesUpgrade", 12), meth("KubernetesUpgrade", "reconcile", 14)}, map[string]int{"_Partition": 1})
	in.Files = append(in.Files, up)
	for k := range in.Files {
		if in.Files[k].Path == "src/charm.py" {
			in.Files[k].Refs = append(in.Files[k].Refs, pyextract.Ref{Name: "get", Count: 40}, pyextract.Ref{Name: "model", Count: 30})
		}
	}
	r := Rank(in)
	f := fileOf(t, r, up.Path)
	if f.Symbols[0].Name != "KubernetesUpgrade" {
		t.Errorf("primary symbol %s: %+v", f.Symbols[0].Name, f.Symbols[:3])
	}
}

func TestAdditionIntentReadsTheDeclarations(t *testing.T) {
	// A loose verb on an interface the charm declares changes its handling, not its
	// declaration; what follows "to" says where, not what; and a name the text calls a
	// configuration option that no charm declares is a new option, anywhere in the text.
	lifted := func(text string) []string {
		in := demoCharm()
		in.Mentions = []string{text}
		var out []string
		for _, f := range Rank(in).Files {
			if hasSignal(f, SigAdditionIntent) {
				out = append(out, f.Path)
			}
		}
		return out
	}
	for text, want := range map[string][]string{
		"Handle database relation before its data is available": nil,
		"Handle cache relation before its data is available":    {"metadata.yaml"},
		"Misc tidy, add ssl_* params to requires":               nil,
		"Enable TLS\n\nEnable ssl_ca configuration parameter.":  {"config.yaml"},
		"Enable TLS\n\nSet the log_level config option.":        nil, // declared as log-level
		"Add a timeout_seconds parameter to get_secret":         nil, // a function's parameter
		"Merge pull request #152 from x/feat/consolidate-urls-config\n\nfeat: consolidate `urls` and `ldaps_urls` into one configuration option": {"config.yaml"}, // the verb and the kind word in one hyphenated token
	} {
		if got := lifted(text); !slices.Equal(got, want) {
			t.Errorf("%q: lifted %v, want %v", text, got, want)
		}
	}
}

func TestSubstrateNamesTheCharm(t *testing.T) {
	// A repository holding a machine charm and its Kubernetes twin: "the machine charm" (or
	// VM) names the one that declares no container, "the k8s charm" the other; both or
	// neither named, nothing is.
	charms := []charmyaml.Charm{
		{Name: "jimm", Dir: "charms/jimm", Files: []string{"charms/jimm/metadata.yaml"}},
		{Name: "jimm-k8s", Dir: "charms/jimm-k8s", Files: []string{"charms/jimm-k8s/metadata.yaml"},
			Containers: []charmyaml.Container{{Name: "jimm", Pos: charmyaml.Pos{File: "charms/jimm-k8s/metadata.yaml", Line: 5}}}},
	}
	charm := func(dir, class string) pyextract.File {
		f := pyFile(dir+"/src/charm.py", []pyextract.Symbol{cls(class, 1), meth(class, "_on_dashboard_relation_joined", 5)}, nil)
		f.Lines = 60
		return f
	}
	in := Input{Charms: charms, Files: []pyextract.File{charm("charms/jimm", "JimmCharm"), charm("charms/jimm-k8s", "JimmK8sCharm")}}
	for text, want := range map[string]string{
		"Fixes the dashboard relation of the machine charm":                 "charms/jimm/src/charm.py",
		"Added device code grant type to the VM charm.":                     "charms/jimm/src/charm.py",
		"Update the k8s charm's dashboard relation":                         "charms/jimm-k8s/src/charm.py",
		"Fix the dashboard relation in the machine charm and the k8s charm": "",
		"Fix the dashboard relation":                                        "",
	} {
		in.Mentions = []string{text}
		r := Rank(in)
		named := ""
		for _, f := range r.Files {
			if hasSignal(f, SigNamedCharm) && strings.HasSuffix(f.Path, "/charm.py") {
				named = f.Path
			}
		}
		if named != want || want != "" && r.Files[0].Path != want {
			t.Errorf("%q: named %q, top %v, want %q", text, named, paths(r), want)
		}
	}
}

func TestEveryCharmGetsTheAddition(t *testing.T) {
	// An option added to "both charms" lifts every charm's config.yaml; unsaid, which charm
	// gets it is unknown, and none is lifted.
	charms := []charmyaml.Charm{
		{Name: "jimm", Dir: "charms/jimm", Files: []string{"charms/jimm/config.yaml", "charms/jimm/metadata.yaml"},
			Config: []charmyaml.ConfigOption{{Name: "dns-name", Pos: charmyaml.Pos{File: "charms/jimm/config.yaml", Line: 2}}}},
		{Name: "jimm-k8s", Dir: "charms/jimm-k8s", Files: []string{"charms/jimm-k8s/config.yaml", "charms/jimm-k8s/metadata.yaml"},
			Config: []charmyaml.ConfigOption{{Name: "dns-name", Pos: charmyaml.Pos{File: "charms/jimm-k8s/config.yaml", Line: 2}}}},
	}
	in := Input{Charms: charms, Files: []pyextract.File{
		pyFile("charms/jimm/src/charm.py", []pyextract.Symbol{cls("JimmCharm", 1)}, nil),
		pyFile("charms/jimm-k8s/src/charm.py", []pyextract.Symbol{cls("JimmK8sCharm", 1)}, nil)}}
	for text, want := range map[string][]string{
		"Adds jwt expiry option to both charms.": {"charms/jimm-k8s/config.yaml", "charms/jimm/config.yaml"},
		"Adds jwt expiry option.":                nil,
	} {
		in.Mentions = []string{text}
		var got []string
		for _, f := range Rank(in).Files {
			if hasSignal(f, SigAdditionIntent) {
				got = append(got, f.Path)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q: lifted %v, want %v", text, got, want)
		}
	}
}

func TestDownloadURLPinsTheWorkload(t *testing.T) {
	// A machine charm that downloads its workload from a URL naming a release, in an
	// option's default: a new release of the workload edits that option.
	in := demoCharm()
	in.Charms[0].Config = append(in.Charms[0].Config, charmyaml.ConfigOption{Name: "demo-tarfile", Type: "string",
		Default: "https://download.example.com/server/releases/demo-26.0.1.tar.bz2", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 30}},
		charmyaml.ConfigOption{Name: "mirror", Type: "string", Default: "https://mirror.example.com/pub/2.1/", HasDefault: true, Pos: charmyaml.Pos{File: "config.yaml", Line: 34}})
	in.Mentions = []string{"Bump up the demo version to latest 27"}
	r := Rank(in)
	if r.Files[0].Path != "config.yaml" || r.Files[0].Symbols[0].Name != "demo-tarfile" || !hasSignal(r.Files[0], SigWorkloadPin) {
		t.Errorf("top %v, symbols %v", paths(r)[:3], r.Files[0].Symbols)
	}
	for _, d := range []string{"https://mirror.example.com/pub/2.1/", "demo-26.0.1.tar.bz2", "https://download.example.com/demo/latest.tar.gz"} {
		if downloadPin(d, []string{"demo"}) { // no release, no address, or not the workload's name
			t.Errorf("%q: a pin", d)
		}
	}
}

func TestNamedOptionLiftsItsReaders(t *testing.T) {
	// An option has no handler: a task naming it gives its mention mass to the YAML declaring
	// it and the files reading it (review rev103: identity-platform-admin-ui's log_level, read
	// only in src/configs.py, which came third), not to a loose read, a test's or a library's.
	in := demoCharm()
	in.Links.Charms[0].Interfaces[1].Reads = append(in.Links.Charms[0].Interfaces[1].Reads,
		linker.Site{File: "src/config_render.py", Line: 4, Symbol: "render_config", Via: linker.ViaConfig},
		linker.Site{File: "src/database.py", Line: 9, Symbol: "DatabaseHandler.__init__", Via: linker.ViaConfig, Loose: true},
		linker.Site{File: "tests/unit/test_charm.py", Line: 6, Via: linker.ViaConfig})
	in.Mentions = []string{"the log-level option is applied in lower case"}
	r := Rank(in)
	for p, want := range map[string]bool{"config.yaml": true, "src/charm.py": true, "src/config_render.py": true, "src/database.py": false, "tests/unit/test_charm.py": false} {
		if got := hasSignal(fileOf(t, r, p), SigMentionInterface); got != want {
			t.Errorf("%s: mention-interface %v, want %v", p, got, want)
		}
	}
}

func TestPartDownloadPinsTheWorkload(t *testing.T) {
	// A build part downloading a release of the workload's tool (istio's istioctl) is a pin:
	// its line says the release, and an upgrade of the workload lifts its file.
	in := demoCharm()
	in.Charms[0].Files = append(in.Charms[0].Files, "charmcraft.yaml")
	in.Charms[0].Parts = []charmyaml.Part{{Name: "democtl", Plugin: "dump", Source: "https://github.com/x/demo/releases/download/1.29.0/democtl-1.29.0-linux-amd64.tar.gz",
		Pos: charmyaml.Pos{File: "charmcraft.yaml", Line: 40}}, {Name: "charm", Plugin: "charm", Source: ".", Pos: charmyaml.Pos{File: "charmcraft.yaml", Line: 44}}}
	in.Mentions = []string{"Upgrade demo to 1.30"}
	f := fileOf(t, Rank(in), "charmcraft.yaml")
	if !hasSignal(f, SigWorkloadPin) || f.Symbols[0].Signature != "[part] democtl (plugin dump, source …/1.29.0/democtl-1.29.0-linux-amd64.tar.gz)" {
		t.Errorf("charmcraft.yaml %+v", f)
	}
	for src, want := range map[string]string{".": "", "https://github.com/x/y.git": "", "https://example.com/pub/v2.1/tool.zip": "v2.1/tool.zip",
		"https://github.com/grafana/loki/releases/download/v3.2.1/lokitool-linux-${CRAFT_ARCH_BUILD_FOR}.zip": "v3.2.1/lokitool-linux-${CRAFT_ARCH_BUILD_FOR}.zip"} {
		if got := releaseTail(src); got != want {
			t.Errorf("releaseTail(%q) = %q, want %q", src, got, want)
		}
	}
}

func TestLayerYAMLListed(t *testing.T) {
	// A reactive charm's layer.yaml is listed with its included layers, and a relation the
	// subject adds lifts it beside metadata.yaml: the interface layer is included there.
	in := demoCharm()
	in.Charms[0].Files = append(in.Charms[0].Files, "layer.yaml")
	in.Charms[0].Layers = []charmyaml.Layer{{Name: "layer:basic", Pos: charmyaml.Pos{File: "layer.yaml", Line: 2}},
		{Name: "interface:pgsql", Pos: charmyaml.Pos{File: "layer.yaml", Line: 3}}}
	in.Mentions = []string{"Add the redis relation"}
	r := Rank(in)
	f := fileOf(t, r, "layer.yaml")
	var sigs []string
	for _, s := range f.Symbols {
		sigs = append(sigs, fmt.Sprintf("%s@%d", s.Signature, s.Line))
	}
	if !slices.Equal(sigs, []string{"[layer] layer:basic@2", "[layer] interface:pgsql@3"}) {
		t.Errorf("layer.yaml symbols %v", sigs)
	}
	if !hasSignal(f, SigAdditionIntent) || !hasSignal(fileOf(t, r, "metadata.yaml"), SigAdditionIntent) {
		t.Errorf("not lifted: %+v", f.Signals)
	}
}

func TestSupersededOwnLibrary(t *testing.T) {
	// A major version of the charm's own library that a newer one replaces, and that no code
	// of the tree imports, weighs as a vendored library (rev96: kubernetes-dashboard's unused
	// v0/cert.py tied with its charmcraft.yaml); the version the charm imports, and the
	// newest one, keep the own library's factor.
	v1 := pyFile("lib/charms/demo_db/v1/api.py", []pyextract.Symbol{cls("DemoApi", 3), meth("DemoApi", "get_status", 5)}, nil)
	v2 := pyFile("lib/charms/demo_db/v2/api.py", []pyextract.Symbol{cls("DemoApi", 3), meth("DemoApi", "status", 5)}, nil)
	r := rankDemo("fix: stale data", v1, v2)
	for p, superseded := range map[string]bool{"lib/charms/demo_db/v0/api.py": false, "lib/charms/demo_db/v1/api.py": true,
		"lib/charms/demo_db/v2/api.py": false} {
		if f := fileOf(t, r, p); hasSignal(f, SigOwnLibSuperseded) != superseded || hasSignal(f, SigOwnLib) == superseded {
			t.Errorf("%s: signals %+v", p, f.Signals)
		}
	}
}

func TestCharmClassOfANamedBaseLeads(t *testing.T) {
	// A class derived from a base charm class named so (ops_openstack's OSBaseCharm) is the
	// charm class: it leads its file above the event classes defined there (review rev105).
	in := Input{Files: []pyextract.File{
		pyFile("src/charm.py", []pyextract.Symbol{cls("DisableSSL", 3, "EventBase"), cls("CephCharmEvents", 6, "CharmEvents"),
			cls("CephDashboardCharm", 10, "ops_openstack.core.OSBaseCharm"), meth("CephDashboardCharm", "_configure", 20)},
			map[string]int{"DisableSSL": 2, "CephCharmEvents": 1}),
	}}
	if s := fileOf(t, Rank(in), "src/charm.py").Symbols[0].Name; s != "CephDashboardCharm" {
		t.Errorf("first symbol %s, want the charm class", s)
	}
}

func TestCatchAllLookupsMakeNoEdge(t *testing.T) {
	// A lookup of every relation (linker Site.CatchAll: any-charm's loop over the 538 it loads
	// from its metadata) ties no relation to the looking file: no edge, and a loose link, last.
	in := demoCharm()
	it := &in.Links.Charms[0].Interfaces[0] // database
	it.Reads = append(it.Reads, linker.Site{File: "src/config_render.py", Line: 9, Symbol: "render_config", Via: linker.ViaLookup, CatchAll: true})
	r := newRanker(in)
	r.match()
	r.resolveImports()
	y, f := r.byPath["metadata.yaml"], r.byPath["src/config_render.py"]
	for _, e := range r.linkEdges() {
		if e.edgeKey == (edgeKey{y, f}) || e.edgeKey == (edgeKey{f, y}) {
			t.Errorf("an edge for a catch-all lookup: %+v", e)
		}
	}
	it.Reads[len(it.Reads)-1].CatchAll = false
	r = newRanker(in)
	r.match()
	r.resolveImports()
	if !slices.ContainsFunc(r.linkEdges(), func(e weightedEdge) bool { return e.edgeKey == edgeKey{y, f} }) {
		t.Error("no edge for a lookup of its own")
	}
}

func TestDocsToolingBelowLibraries(t *testing.T) {
	// The Python of a docs or hidden folder (the Sphinx starter pack's updater, CI scripts)
	// weighs less than other helper scripts (review rev124: it ended mlflow's map).
	in := demoCharm()
	in.Files = append(in.Files,
		pyFile("docs/.sphinx/update_sp.py", []pyextract.Symbol{fn("main", 3)}, nil),
		pyFile(".github/scripts/delete_volumes.py", []pyextract.Symbol{fn("main", 3)}, nil),
		pyFile("scripts/release.py", []pyextract.Symbol{fn("main", 3)}, nil))
	r := Rank(in)
	for p, want := range map[string]bool{"docs/.sphinx/update_sp.py": true, ".github/scripts/delete_volumes.py": true, "scripts/release.py": false} {
		if got := hasSignal(fileOf(t, r, p), SigDocsTooling); got != want {
			t.Errorf("%s: docs-tooling %v, want %v", p, got, want)
		}
	}
}
