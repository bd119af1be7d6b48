package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/linker"
)

func ifaceFixture() linker.Result {
	return linker.Result{Charms: []linker.CharmLinks{
		{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "database", Role: "requires", Interface: "postgresql_client", File: "metadata.yaml", Line: 5,
				Handlers: []linker.Handler{
					{Event: "database_created", Symbol: "DbHandler._on_created", File: "src/db.py", Line: 40, Via: linker.ViaLibrary},
					{Event: "endpoints_changed", Symbol: "DbHandler._on_changed", File: "src/db.py", Line: 52, Via: linker.ViaLibrary, Conditional: true},
					{Event: "relation_departed", Symbol: "Unit._on_departed", File: "src/lifecycle.py", Line: 9, Via: linker.ViaHelper, Loose: true, CatchAll: true},
				}},
			{Kind: linker.KindRelation, Name: "cluster", Role: "peers", Interface: "demo_peers", File: "metadata.yaml", Line: 9,
				Reads: []linker.Site{{File: "src/charm.py", Line: 20, Via: linker.ViaLookup}, {File: "src/peers.py", Line: 7, Via: linker.ViaLookup, Dead: true},
					{File: "src/charm.py", Line: 88, Via: linker.ViaCallback, Detail: "scrape_configs", Symbol: "DemoCharm._scrape"},
					{File: "src/charm.py", Line: 90, Via: linker.ViaParam, Key: "force", Detail: "event.params.get(\"force\")"}}},
			{Kind: linker.KindRelation, Name: "logs", Role: "provides", Interface: "loki_push_api", File: "metadata.yaml", Line: 12},
			{Kind: linker.KindRelation, Name: "metrics", Role: "provides", Interface: "prometheus_scrape", File: "charmcraft.yaml", Line: 28, Extension: "flask-framework"},
			{Kind: linker.KindRelation, Name: "refresh", Role: "peers", Interface: "refresh", File: "metadata.yaml", Line: 15,
				Reads: []linker.Site{{File: "src/charm.py", Line: 3, Via: linker.ViaPackage, Detail: "charm_refresh"}, {File: "src/upgrade.py", Line: 4, Via: linker.ViaPackage, Detail: "charm_refresh"}}},
			{Kind: linker.KindConfig, Name: "log-level", File: "config.yaml", Line: 2,
				Reads: []linker.Site{
					{File: "src/charm.py", Line: 60, Via: linker.ViaConfig, Detail: "index"},
					{File: "src/charm.py", Line: 64, Via: linker.ViaConfig, Detail: "get"},
					{File: "src/charm.py", Line: 64, Via: linker.ViaConfig, Detail: "index"}, // a second read on the line: one place
					{File: "src/workload.py", Line: 3, Via: linker.ViaConfig},
					{File: "templates/app.conf", Line: 4, Via: linker.ViaTemplate, Detail: "var"},
				}},
			{Kind: linker.KindConfig, Name: "port", File: "config.yaml", Line: 6,
				Reads: []linker.Site{{File: "reactive/demo.py", Line: 12, Via: linker.ViaConfig, Detail: "flag"}}},
			{Kind: linker.KindResource, Name: "app-image", File: "metadata.yaml", Line: 20, ImageOf: []string{"app", "sidecar"}},
			{Kind: linker.KindResource, Name: "dump", File: "metadata.yaml", Line: 23},
			{Kind: linker.KindLifecycle, Name: "install",
				Handlers: []linker.Handler{{Event: "install", Symbol: "DemoCharm._on_install", File: "src/charm.py", Line: 90, Via: linker.ViaObserve, ObserveLine: 20},
					// observed twice: one row
					{Event: "install", Symbol: "DemoCharm._on_install", File: "src/charm.py", Line: 90, Via: linker.ViaObserve, ObserveLine: 24}}},
		}},
		{Name: "empty", Dir: "charms/empty"},
	}}
}

func TestInterfacesTextUnnamedCharm(t *testing.T) {
	var b strings.Builder
	if err := InterfacesText(&b, linker.Result{Charms: []linker.CharmLinks{{Dir: "."}}}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.HasPrefix(got, "(unnamed charm) (.)\n") {
		t.Errorf("got %q", got)
	}
}

func TestInterfacesText(t *testing.T) {
	var b strings.Builder
	if err := InterfacesText(&b, ifaceFixture()); err != nil {
		t.Fatal(err)
	}
	want := `demo (.)
  relation:
    database  requires postgresql_client  metadata.yaml:5
      handler DbHandler._on_created (database_created) src/db.py:40 [library]
      handler DbHandler._on_changed (endpoints_changed) src/db.py:52 [library, conditional]
      handler Unit._on_departed (relation_departed) src/lifecycle.py:9 [helper, every relation]
    cluster   peers demo_peers            metadata.yaml:9
      reads src/charm.py:88, 90
      lookups src/charm.py:20; src/peers.py:7
    logs      provides loki_push_api      metadata.yaml:12
      (nothing linked)
    metrics   provides prometheus_scrape  charmcraft.yaml:28
      (handled by the flask-framework extension)
    refresh   peers refresh               metadata.yaml:15
      maybe handled by package charm_refresh, imported at src/charm.py:3; src/upgrade.py:4
  config:
    log-level  config.yaml:2
      reads src/charm.py:60, 64; src/workload.py:3; templates/app.conf:4
    port       config.yaml:6
      read reactive/demo.py:12
  resource:
    app-image  metadata.yaml:20
      (the image of containers app, sidecar)
    dump       metadata.yaml:23
      (nothing linked)
  lifecycle:
    install
      handler DemoCharm._on_install (install) src/charm.py:90 [observe]

empty (charms/empty)
  (no interfaces)
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestInterfacesTextEscapesNames(t *testing.T) {
	// names come from the charm's YAML: an escape sequence or a newline in one must not act
	// on the terminal or split the entry over two lines
	res := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "db\x1b[2J", Role: "requires", Interface: "pg\nfake-line", File: "metadata.yaml", Line: 5,
			Reads: []linker.Site{{File: "src/charm.py", Line: 3, Via: linker.ViaPackage, Detail: "pkg\u202e"}}},
	}}}}
	var b strings.Builder
	if err := InterfacesText(&b, res); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.ContainsAny(got, "\x1b\u202e") || strings.Count(got, "\n") != 4 || !strings.Contains(got, `db\x1b[2J  requires pg\nfake-line`) {
		t.Errorf("got:\n%s", got)
	}
}

func TestInterfacesJSON(t *testing.T) {
	out, err := InterfacesJSON(ifaceFixture())
	if err != nil {
		t.Fatal(err)
	}
	again, _ := InterfacesJSON(ifaceFixture())
	if string(out) != string(again) {
		t.Error("output differs between runs")
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema_version"] != 1.0 || len(doc) != 2 {
		t.Errorf("top level %v", ifaceKeys(doc))
	}
	charms := doc["charms"].([]any)
	if len(charms) != 2 {
		t.Fatalf("charms %d", len(charms))
	}
	demo := charms[0].(map[string]any)
	if demo["name"] != "demo" || demo["dir"] != "." || len(demo) != 3 {
		t.Errorf("charm %v", ifaceKeys(demo))
	}
	ifaces := demo["interfaces"].([]any)
	db := ifaces[0].(map[string]any)
	if got := strings.Join(ifaceKeys(db), ","); got != "file,handlers,interface,kind,line,name,reads,role" {
		t.Errorf("interface fields %s", got)
	}
	if db["kind"] != "relation" || db["name"] != "database" || db["role"] != "requires" || db["interface"] != "postgresql_client" || db["line"] != 5.0 {
		t.Errorf("database %v", db)
	}
	h := db["handlers"].([]any)[0].(map[string]any)
	if got := strings.Join(ifaceKeys(h), ","); got != "event,file,line,symbol,via" {
		t.Errorf("handler fields %s", got)
	}
	if h["event"] != "database_created" || h["symbol"] != "DbHandler._on_created" || h["file"] != "src/db.py" || h["line"] != 40.0 || h["via"] != "library" {
		t.Errorf("handler %v", h)
	}
	if h2 := db["handlers"].([]any)[1].(map[string]any); h2["conditional"] != true || h2["catch_all"] != nil {
		t.Errorf("conditional handler %v", h2)
	}
	if h3 := db["handlers"].([]any)[2].(map[string]any); h3["catch_all"] != true || h3["conditional"] != nil {
		t.Errorf("catch-all handler %v", h3)
	}
	// The install handler observed twice is one record.
	for _, x := range ifaces {
		if in := x.(map[string]any); in["name"] == "install" && len(in["handlers"].([]any)) != 1 {
			t.Errorf("install handlers %v", in["handlers"])
		}
	}
	if m := ifaces[3].(map[string]any); m["name"] != "metrics" || m["extension"] != "flask-framework" {
		t.Errorf("metrics %v", m)
	}
	// A resource a container runs names the containers; another has no image_of.
	for _, x := range ifaces {
		switch in := x.(map[string]any); in["name"] {
		case "app-image":
			if fmt.Sprint(in["image_of"]) != "[app sidecar]" {
				t.Errorf("app-image %v", in)
			}
		case "dump":
			if _, ok := in["image_of"]; ok {
				t.Errorf("dump %v", in)
			}
		}
	}
	read := ifaces[5].(map[string]any)["reads"].([]any)[1].(map[string]any)
	if got := strings.Join(ifaceKeys(read), ","); got != "file,line,via" || read["line"] != 64.0 || read["via"] != "config-read" {
		t.Errorf("read %v", read)
	}
	// A read in code that never runs says so; no other does.
	dead := 0
	for _, x := range ifaces {
		for _, r := range x.(map[string]any)["reads"].([]any) {
			if r := r.(map[string]any); r["dead"] == true {
				dead++
				if r["file"] != "src/peers.py" {
					t.Errorf("dead read %v", r)
				}
			}
		}
	}
	if dead != 1 {
		t.Errorf("%d dead reads, want 1", dead)
	}
	// A guess names its package; a lookup is told from a read by its via.
	var vias []string
	for _, x := range ifaces {
		for _, r := range x.(map[string]any)["reads"].([]any) {
			r := r.(map[string]any)
			vias = append(vias, fmt.Sprint(r["via"], "/", r["detail"]))
		}
	}
	for _, x := range ifaces {
		for _, r := range x.(map[string]any)["reads"].([]any) {
			if r := r.(map[string]any); r["via"] == "param-read" {
				vias = append(vias, fmt.Sprint("key/", r["key"]))
			}
		}
	}
	for _, want := range []string{"package/charm_refresh", "lookup/<nil>", "callback/scrape_configs", "param-read/<nil>", "key/force",
		"template/var", "config-read/flag"} {
		if !slices.Contains(vias, want) {
			t.Errorf("reads' via/detail %v lack %s", vias, want)
		}
	}
	// Empty lists are [], never null.
	for _, frag := range []string{`"reads": []`, `"handlers": []`, `"interfaces": []`} {
		if !strings.Contains(string(out), frag) {
			t.Errorf("missing %s", frag)
		}
	}
	if strings.Contains(string(out), "null") {
		t.Error("null in output")
	}
	empty, _ := InterfacesJSON(linker.Result{})
	if !strings.Contains(string(empty), `"charms": []`) {
		t.Errorf("empty result: %s", empty)
	}
}

func ifaceKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestInterfacesTextScriptBesideGuess(t *testing.T) {
	// An action run by its own script says so, also when a guess was found for it.
	res := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindAction, Name: "flush-cache", File: "actions.yaml", Line: 1, Script: "actions/flush-cache",
			Reads: []linker.Site{{File: "src/charm.py", Line: 6, Symbol: "DemoCharm", Via: linker.ViaBase, Detail: "BaseServiceCharm"}}},
	}}}}
	var b strings.Builder
	if err := InterfacesText(&b, res); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, "(run by its script actions/flush-cache)") || !strings.Contains(got, "maybe handled by BaseServiceCharm") {
		t.Errorf("text:\n%s", got)
	}
	// an option is read, not handled, by an outside base (review rev105)
	res.Charms[0].Interfaces = []linker.Interface{{Kind: linker.KindConfig, Name: "debug", File: "config.yaml", Line: 1,
		Reads: []linker.Site{{File: "src/charm.py", Line: 6, Symbol: "DemoCharm", Via: linker.ViaBase, Detail: "OSBaseCharm"}}}}
	b.Reset()
	if err := InterfacesText(&b, res); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, "maybe read by OSBaseCharm, the base of DemoCharm at src/charm.py:6") {
		t.Errorf("text:\n%s", got)
	}
}

func TestInterfacesTextCatchAllTags(t *testing.T) {
	// A handler observed for every event (a reconciler's) is tagged so on a lifecycle event or
	// a container, and "every relation" on a relation.
	h := func(event string) []linker.Handler {
		return []linker.Handler{{Event: event, Symbol: "DemoCharm._reconcile", File: "src/charm.py", Line: 30, Via: linker.ViaObserve, CatchAll: true, Loose: true}}
	}
	var b strings.Builder
	err := InterfacesText(&b, linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "db", Role: "requires", Interface: "pg", File: "metadata.yaml", Line: 5, Handlers: h("db_relation_changed")},
		{Kind: linker.KindContainer, Name: "web", File: "metadata.yaml", Line: 9, Handlers: h("web_pebble_ready")},
		{Kind: linker.KindLifecycle, Name: "config-changed", Handlers: h("config_changed")},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"(db_relation_changed) src/charm.py:30 [observe, every relation]",
		"(web_pebble_ready) src/charm.py:30 [observe, every event]", "(config_changed) src/charm.py:30 [observe, every event]"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

func TestInterfacesSayWhenNothingCouldBeLinked(t *testing.T) {
	// A charm whose code the linker cannot follow (hooks that run its Python some other way)
	// or cannot read (shell) says so under its name, and in the JSON, so that "(nothing
	// linked)" on every interface is not read as a finding; a charm with linked code says
	// nothing of the kind.
	res := linker.Result{Charms: []linker.CharmLinks{
		{Name: "sh", Dir: "sh", ShellCode: "sh/hooks/install"},
		{Name: "old", Dir: "old", UnlinkedCode: "old/hooks/hooks.py"},
		{Name: "ops", Dir: "ops"},
	}}
	var b strings.Builder
	if err := InterfacesText(&b, res); err != nil {
		t.Fatal(err)
	}
	want := "sh (sh)\n  (its code, sh/hooks/install, is not Python: the linker reads only Python, so nothing is linked)\n  (no interfaces)\n\n" +
		"old (old)\n  (its code, old/hooks/hooks.py, runs in a way the linker does not follow, so nothing is linked)\n  (no interfaces)\n\n" +
		"ops (ops)\n  (no interfaces)\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	js, err := InterfacesJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Charms []struct {
			Unlinked *string `json:"unlinked"`
		} `json:"charms"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Charms) != 3 || doc.Charms[0].Unlinked == nil || *doc.Charms[0].Unlinked != "sh/hooks/install" ||
		doc.Charms[1].Unlinked == nil || *doc.Charms[1].Unlinked != "old/hooks/hooks.py" || doc.Charms[2].Unlinked != nil {
		t.Errorf("json:\n%s", js)
	}
}
