package check

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
)

const (
	meta = "charms/demo/metadata.yaml"
	conf = "charms/demo/config.yaml"
	acts = "charms/demo/actions.yaml"
	ccy  = "charms/demo/charmcraft.yaml"
	src  = "charms/demo/src/charm.py"
	help = "charms/demo/src/helpers.py"
)

func pos(file string, line int) charmyaml.Pos { return charmyaml.Pos{File: file, Line: line} }

// fixture is one charm with a seeded instance of every rule; each comment names the rule the
// item triggers (or why it triggers none).
func fixture() ([]charmyaml.Charm, linker.Result) {
	charms := []charmyaml.Charm{{
		Name: "demo", Dir: "charms/demo",
		Relations: []charmyaml.Relation{
			{Name: "database", Role: "requires", Interface: "postgresql_client", Pos: pos(meta, 5)},                   // handled
			{Name: "cluster", Role: "peers", Interface: "demo_peers", Pos: pos(meta, 9)},                              // only looked up: handled
			{Name: "logging", Role: "requires", Interface: "loki_push_api", Pos: pos(meta, 12)},                       // unhandled-relation
			{Name: "ingress", Role: "requires", Interface: "ingress", Extension: "flask-framework", Pos: pos(ccy, 3)}, // extension: never unhandled
		},
		Config: []charmyaml.ConfigOption{
			{Name: "log-level", HasDefault: true, Default: "info", Pos: pos(conf, 2)}, // read with [...] but has a default
			{Name: "api-key", Pos: pos(conf, 6)},                                      // config-no-default-index (twice: once unconditional, once guarded)
			{Name: "region", Pos: pos(conf, 9)},                                       // no default, but read with .get()
			{Name: "unused", HasDefault: true, Pos: pos(conf, 12)},                    // unused-config
			{Name: "webserver-port", Extension: "flask-framework", Pos: pos(ccy, 3)},  // extension: never unused
		},
		Actions: []charmyaml.Action{
			{Name: "rotate-password", Pos: pos(acts, 1)},                                                          // handled
			{Name: "get_status", Pos: pos(acts, 4)},                                                               // action-name-underscore + unhandled-action
			{Name: "rotate_secret_key", Extension: "flask-framework", Pos: pos(ccy, 3)},                           // extension: neither
			{Name: "set-level", Params: []charmyaml.Param{{Name: "level", Pos: pos(acts, 9)}}, Pos: pos(acts, 7)}, // unused-action-param
			{Name: "purge", Params: []charmyaml.Param{{Name: "scope", Pos: pos(acts, 12)}, {Name: "confirm", Pos: pos(acts, 14)}},
				Required: []string{"confirm"}, Pos: pos(acts, 11)}, // unused-action-param, of confirm only
		},
		Warnings: []string{conf + `:15: option "broken": type must be a string`}, // yaml-problem
	}}
	links := linker.Result{Charms: []linker.CharmLinks{{
		Name: "demo", Dir: "charms/demo",
		Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "database", Role: "requires", Interface: "postgresql_client", File: meta, Line: 5,
				Handlers: []linker.Handler{{Event: "database_created", Symbol: "DemoCharm._on_db", File: src, Line: 40, Via: linker.ViaLibrary}}},
			{Kind: linker.KindRelation, Name: "cluster", Role: "peers", Interface: "demo_peers", File: meta, Line: 9,
				Reads: []linker.Site{{File: help, Line: 20, Symbol: "Peers.data", Via: linker.ViaLookup}}},
			{Kind: linker.KindRelation, Name: "logging", Role: "requires", Interface: "loki_push_api", File: meta, Line: 12},
			{Kind: linker.KindRelation, Name: "ingress", Role: "requires", Interface: "ingress", File: ccy, Line: 3},
			{Kind: linker.KindConfig, Name: "log-level", File: conf, Line: 2,
				Reads: []linker.Site{{File: src, Line: 60, Symbol: "DemoCharm._configure", Via: linker.ViaConfig, Detail: "index"}}},
			{Kind: linker.KindConfig, Name: "api-key", File: conf, Line: 6,
				Reads: []linker.Site{
					{File: src, Line: 61, Symbol: "DemoCharm._configure", Via: linker.ViaConfig, Detail: "index"},
					{File: src, Line: 70, Symbol: "DemoCharm._maybe", Via: linker.ViaConfig, Detail: "index", Conditional: true},
				}},
			{Kind: linker.KindConfig, Name: "region", File: conf, Line: 9,
				Reads: []linker.Site{{File: src, Line: 62, Symbol: "DemoCharm._configure", Via: linker.ViaConfig, Detail: "get"},
					{File: src, Line: 64, Symbol: "DemoCharm._configure", Via: linker.ViaConfig, Detail: "index"}}}, // checked with .get(): info
			{Kind: linker.KindConfig, Name: "unused", File: conf, Line: 12},
			{Kind: linker.KindConfig, Name: "webserver-port", File: ccy, Line: 3},
			{Kind: linker.KindAction, Name: "rotate-password", File: acts, Line: 1,
				Handlers: []linker.Handler{{Event: "rotate_password_action", Symbol: "DemoCharm._on_rotate", File: src, Line: 80, Via: linker.ViaObserve,
					ObserveFile: src, ObserveLine: 30, Conditional: true}}}, // handler-conditional, at the observe call
			{Kind: linker.KindAction, Name: "get_status", File: acts, Line: 4},
			{Kind: linker.KindAction, Name: "rotate_secret_key", File: ccy, Line: 3},
			{Kind: linker.KindAction, Name: "set-level", File: acts, Line: 7, ParamsUnread: "DemoCharm._on_set_level",
				Handlers: []linker.Handler{{Event: "set_level_action", Symbol: "DemoCharm._on_set_level", File: src, Line: 86, Via: linker.ViaObserve}}},
			{Kind: linker.KindAction, Name: "purge", File: acts, Line: 11, ParamsUnread: "DemoCharm._on_purge", ParamsNotRead: []string{"confirm"},
				Reads:    []linker.Site{{File: src, Line: 96, Symbol: "DemoCharm._on_purge", Via: linker.ViaParam, Key: "scope"}},
				Handlers: []linker.Handler{{Event: "purge_action", Symbol: "DemoCharm._on_purge", File: src, Line: 95, Via: linker.ViaObserve}}},
			{Kind: linker.KindLifecycle, Name: "install",
				Handlers: []linker.Handler{{Event: "install", Symbol: "DemoCharm._on_install", File: src, Line: 90, Via: linker.ViaObserve}}},
		},
		Findings: []linker.Finding{
			{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{File: src, Line: 31, Symbol: "DemoCharm.__init__"}},
			{Kind: linker.FindUndeclaredAction, Subject: "backup", Site: linker.Site{File: src, Line: 32, Symbol: "DemoCharm.__init__"}},
			{Kind: linker.FindUndeclaredConfig, Subject: "log_level", Site: linker.Site{File: src, Line: 63, Symbol: "DemoCharm._configure", Conditional: true}},
			{Kind: linker.FindUndeclaredContainer, Subject: "workload", Site: linker.Site{File: help, Line: 10, Symbol: "Workload.push"}},
			{Kind: linker.FindUndeclaredStorage, Subject: "data", Site: linker.Site{File: help, Line: 12}},
			{Kind: linker.FindUndeclaredResource, Subject: "settings", Site: linker.Site{File: help, Line: 14, Symbol: "Workload.install"}},
			{Kind: linker.FindMissingHandler, Subject: "_on_leader", Site: linker.Site{File: src, Line: 33, Symbol: "DemoCharm.__init__"}},
			{Kind: linker.FindUndeclaredParam, Subject: "force", Site: linker.Site{File: src, Line: 82, Symbol: "DemoCharm._on_rotate", Conditional: true}},
			{Kind: linker.FindUnobservedHandler, Subject: "DemoCharm._on_update_status", Site: linker.Site{File: src, Line: 95, Symbol: "DemoCharm._on_update_status"}},
		},
	}}}
	return charms, links
}

// The whole fixture, as text: every rule, its severity, its place, the sort order.
func TestRunText(t *testing.T) {
	charms, links := fixture()
	r := Run(charms, links, Options{})
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `charms/demo/actions.yaml:4: warning: action "get_status" has '_' in its name; Juju convention is "get-status" [action-name-underscore]
charms/demo/actions.yaml:4: warning: no code observes action "get_status" [unhandled-action]
charms/demo/actions.yaml:9: warning: action "set-level" declares parameter "level", but its handler DemoCharm._on_set_level never reads event.params: the value an operator gives is ignored [unused-action-param]
charms/demo/actions.yaml:14: warning: action "purge" declares parameter "confirm", but its handler DemoCharm._on_purge reads only "scope": the value an operator gives for "confirm" is ignored (and it is required) [unused-action-param]
charms/demo/config.yaml:12: warning: no code reads config option "unused" [unused-config]
charms/demo/config.yaml:15: warning: charm "demo": option "broken": type must be a string [yaml-problem]
charms/demo/metadata.yaml:12: warning: no code observes, binds or looks up relation "logging" [unhandled-relation]
charms/demo/src/charm.py:30: info: DemoCharm._on_rotate handles action "rotate-password" (rotate_password_action) only under a condition [handler-conditional]
charms/demo/src/charm.py:31: error: DemoCharm.__init__ uses relation endpoint "db", which the charm's YAML does not declare [undeclared-relation]
charms/demo/src/charm.py:32: error: DemoCharm.__init__ observes action "backup", which the charm's YAML does not declare [undeclared-action]
charms/demo/src/charm.py:33: error: DemoCharm.__init__ observes an event with handler "_on_leader", which is defined neither in its class nor in its bases [missing-handler]
charms/demo/src/charm.py:61: warning: DemoCharm._configure reads config["api-key"], which has no default and raises KeyError while unset; use .get() or declare a default [config-no-default-index]
charms/demo/src/charm.py:63: warning: DemoCharm._configure reads config option "log_level", which the charm's YAML does not declare (in code that runs only under a condition) (did you mean "log-level"?) [undeclared-config]
charms/demo/src/charm.py:64: info: DemoCharm._configure reads config["region"], which has no default and raises KeyError while unset; use .get() or declare a default (the option is also read with .get(), which may check it first) [config-no-default-index]
charms/demo/src/charm.py:70: info: DemoCharm._maybe reads config["api-key"], which has no default and raises KeyError while unset; use .get() or declare a default (the read is under a condition, which may guard it) [config-no-default-index]
charms/demo/src/charm.py:82: warning: DemoCharm._on_rotate reads action parameter "force", which the action does not declare [undeclared-action-param]
charms/demo/src/charm.py:95: warning: DemoCharm._on_update_status is named like an event handler, but no code observes, calls or names it: it never runs [unobserved-handler]
charms/demo/src/helpers.py:10: error: Workload.push uses container "workload", which the charm's YAML does not declare [undeclared-container]
charms/demo/src/helpers.py:12: error: code uses storage "data", which the charm's YAML does not declare [undeclared-storage]
charms/demo/src/helpers.py:14: error: Workload.install fetches resource "settings", which the charm's YAML does not declare [undeclared-resource]
6 errors, 11 warnings, 3 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if r.Summary != (Summary{Errors: 6, Warnings: 11, Infos: 3}) {
		t.Errorf("summary %+v", r.Summary)
	}
	if r.ExitCode(false) != 1 {
		t.Error("errors must exit 1")
	}
}

// Every documented rule fires on the fixture (plus unresolved-name, tested separately), and
// every rule name the report uses is documented.
func TestEveryRuleCovered(t *testing.T) {
	charms, links := fixture()
	links.Unresolved = []linker.Site{{File: src, Line: 99, Via: linker.ViaParam, Detail: "event.params[k]"}}
	// and an old charm whose hooks run some other way (unlinked-code)
	charms = append(charms, charmyaml.Charm{Name: "old", Dir: "old", NameAt: pos("old/metadata.yaml", 1)})
	links.Charms = append(links.Charms, linker.CharmLinks{Name: "old", Dir: "old", NoCode: true, UnlinkedCode: "old/hooks/hooks.py"})
	// and one whose library object requires its endpoint on the other side (relation-mismatch)
	charms = append(charms, charmyaml.Charm{Name: "sided", Dir: "sided", NameAt: pos("sided/metadata.yaml", 1)})
	links.Charms = append(links.Charms, linker.CharmLinks{Name: "sided", Dir: "sided", Findings: []linker.Finding{
		{Kind: linker.FindRelationMismatch, Subject: "metrics", Mismatch: "role", Expected: "provides", Declared: "requires",
			Site: linker.Site{File: "sided/src/charm.py", Line: 9, Symbol: "C.__init__", Detail: "MetricsEndpointProvider"}},
		{Kind: linker.FindUnknownEvent, Subject: "metrics_joined", Site: linker.Site{File: "sided/src/charm.py", Line: 10, Symbol: "C.__init__"}},
		{Kind: linker.FindMissingModule, Subject: "utils.gone", Site: linker.Site{File: "sided/src/charm.py", Line: 2}},
		{Kind: linker.FindMisspeltFramework, Subject: "framwork", Site: linker.Site{File: "sided/src/charm.py", Line: 11, Symbol: "C.__init__"}},
	}})
	// and one reading an optional action parameter by index (action-param-no-default-index)
	charms = append(charms, charmyaml.Charm{Name: "opt", Dir: "opt", NameAt: pos("opt/metadata.yaml", 1),
		Actions: []charmyaml.Action{{Name: "create", Params: []charmyaml.Param{{Name: "password"}}, Pos: pos("opt/actions.yaml", 1)}}})
	links.Charms = append(links.Charms, linker.CharmLinks{Name: "opt", Dir: "opt", Interfaces: []linker.Interface{{Kind: linker.KindAction, Name: "create",
		File: "opt/actions.yaml", Line: 1, Handlers: []linker.Handler{{Event: "create_action", Symbol: "C._on_create", File: "opt/src/charm.py", Line: 9, Via: linker.ViaObserve}},
		Reads: []linker.Site{{File: "opt/src/charm.py", Line: 10, Via: linker.ViaParam, Detail: "index", Key: "password"}}}}})
	// and one whose entry point was not read (unread-code)
	charms = append(charms, charmyaml.Charm{Name: "lost", Dir: "lost", NameAt: pos("lost/metadata.yaml", 1)})
	links.Charms = append(links.Charms, linker.CharmLinks{Name: "lost", Dir: "lost", NoCode: true})
	seen := map[string]bool{}
	for _, d := range Run(charms, links, Options{Unread: []string{"lost/src/charm.py"}}).Diagnostics {
		seen[d.Rule] = true
		if d.Severity != SeverityError && d.Severity != SeverityWarning && d.Severity != SeverityInfo {
			t.Errorf("%s: bad severity %q", d.Rule, d.Severity)
		}
	}
	names := map[string]bool{}
	for _, r := range Rules {
		if names[r.Name] {
			t.Errorf("rule %s documented twice", r.Name)
		}
		names[r.Name] = true
		if !seen[r.Name] {
			t.Errorf("rule %s never fires on the fixture", r.Name)
		}
		if r.Short == "" || r.Why == "" {
			t.Errorf("rule %s undocumented", r.Name)
		}
	}
	for r := range seen {
		if !names[r] {
			t.Errorf("rule %s fired but is not in Rules", r)
		}
	}
}

// The ten rules of CONTRACT §4 keep their names and default severities.
func TestContractSeverities(t *testing.T) {
	want := map[string]string{
		"undeclared-relation": "error", "undeclared-action": "error", "undeclared-config": "error",
		"undeclared-container": "error", "undeclared-storage": "error", "missing-handler": "error",
		"unhandled-relation": "warning", "unhandled-action": "warning", "unused-config": "warning",
		"undeclared-action-param": "warning",
	}
	for name, sev := range want {
		if got := ruleSeverity(name); got != sev {
			t.Errorf("%s: severity %q, want %q", name, got, sev)
		}
	}
}

func TestStrictAndExitCodes(t *testing.T) {
	charms, links := fixture()
	r := Run(charms, links, Options{Strict: true})
	if r.Summary != (Summary{Errors: 17, Warnings: 0, Infos: 3}) {
		t.Errorf("strict summary %+v", r.Summary)
	}
	warnOnly := Report{Summary: Summary{Warnings: 2, Infos: 1, Unresolved: 3}}
	for _, c := range []struct {
		r      Report
		strict bool
		want   int
	}{
		{Report{}, false, 0}, {Report{}, true, 0},
		{warnOnly, false, 0}, {warnOnly, true, 1},
		{Report{Summary: Summary{Errors: 1}}, false, 1},
		{Report{Summary: Summary{Infos: 4, Unresolved: 2}}, true, 0},
	} {
		if got := c.r.ExitCode(c.strict); got != c.want {
			t.Errorf("ExitCode(%v) of %+v = %d, want %d", c.strict, c.r.Summary, got, c.want)
		}
	}
}

// A clean charm yields nothing and exits 0.
func TestCleanCharm(t *testing.T) {
	charms := []charmyaml.Charm{{Name: "ok", Dir: ".", Relations: []charmyaml.Relation{{Name: "db", Role: "requires", Pos: pos("metadata.yaml", 3)}}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "ok", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "db", File: "metadata.yaml", Line: 3,
			Handlers: []linker.Handler{{Event: "db_relation_changed", Symbol: "C._on_db", File: "src/charm.py", Line: 9, Via: linker.ViaObserve}}},
	}}}}
	r := Run(charms, links, Options{Strict: true})
	if len(r.Diagnostics) != 0 || r.ExitCode(true) != 0 {
		t.Errorf("clean charm: %+v", r)
	}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil || b.String() != "0 errors, 0 warnings, 0 infos\n" {
		t.Errorf("clean text %q %v", b.String(), err)
	}
}

// Unresolved names: an info at each site, counted in the summary, never an error; and they
// grade the unhandled rules of their own charm (only) down to info.
func TestUnresolved(t *testing.T) {
	unhandled := func(dir string) linker.CharmLinks {
		return linker.CharmLinks{Name: dir, Dir: dir, Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "peer", File: dir + "/metadata.yaml", Line: 2},
			{Kind: linker.KindConfig, Name: "opt", File: dir + "/config.yaml", Line: 2},
		}}
	}
	links := linker.Result{
		Charms: []linker.CharmLinks{unhandled("a"), unhandled("ab")},
		Unresolved: []linker.Site{
			{File: "ab/src/charm.py", Line: 7, Symbol: "C.__init__", Via: linker.ViaIndex, Detail: "self.on[name]"},
			{File: "ab/src/charm.py", Line: 8, Via: linker.ViaIndex, Detail: "self.on[other]"},
		},
	}
	r := Run(nil, links, Options{})
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `a/config.yaml:2: warning: no code reads config option "opt" [unused-config]
a/metadata.yaml:2: warning: no code observes, binds or looks up relation "peer" [unhandled-relation]
ab/config.yaml:2: warning: no code reads config option "opt" [unused-config]
ab/metadata.yaml:2: info: no code observes, binds or looks up relation "peer" (2 dynamic names in this charm could not be resolved and may name it) [unhandled-relation]
ab/src/charm.py:7: info: C.__init__ uses a name that cannot be resolved statically (self.on[name]); what it names is not checked [unresolved-name]
ab/src/charm.py:8: info: code uses a name that cannot be resolved statically (self.on[other]); what it names is not checked [unresolved-name]
0 errors, 3 warnings, 3 infos; 2 dynamic names not resolved statically
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if r.Summary.Unresolved != 2 || r.ExitCode(false) != 0 {
		t.Errorf("summary %+v", r.Summary)
	}
}

func TestLostYAMLIsTheError(t *testing.T) {
	// metadata.yaml could be read only partly: that is the error, and a relation the code uses
	// that the part read does not declare is an info, since the rest may declare it
	decl := charmyaml.Charm{Name: "a", Dir: ".", Incomplete: []string{"metadata.yaml"},
		Warnings: []string{"metadata.yaml:16: mapping values are not allowed in this context; read only the first 15 lines"}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{File: "src/charm.py", Line: 9, Symbol: "C.__init__"}}}}}}
	r := Run([]charmyaml.Charm{decl}, links, Options{})
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `metadata.yaml:16: error: charm "a": mapping values are not allowed in this context; read only the first 15 lines [yaml-problem]
src/charm.py:9: info: C.__init__ uses relation endpoint "db", which the charm's YAML does not declare (metadata.yaml could not be read whole and may declare it) [undeclared-relation]
1 error, 0 warnings, 1 info
`
	if got := b.String(); got != want || r.ExitCode(false) != 1 {
		t.Errorf("exit %d, text:\n%s\nwant:\n%s", r.ExitCode(false), got, want)
	}
	// a charm whose name was in what was lost is named by its folder
	unnamed := decl
	unnamed.Name, unnamed.Dir = "", "charms/x"
	if r := Run([]charmyaml.Charm{unnamed}, linker.Result{}, Options{}); len(r.Diagnostics) != 1 ||
		!strings.HasPrefix(r.Diagnostics[0].Message, `the charm in "charms/x": mapping values`) {
		t.Errorf("an unnamed charm's problem: %+v", r.Diagnostics)
	}
	// a problem that loses nothing stays a warning, and the finding an error
	decl.Incomplete, decl.Warnings = nil, []string{"metadata.yaml:3: summary: expected a string"}
	if r := Run([]charmyaml.Charm{decl}, links, Options{}); r.Summary.Errors != 1 || r.Summary.Warnings != 1 {
		t.Errorf("summary %+v", r.Summary)
	}
}

func TestLostYAMLExcusesOnlyWhatItHolds(t *testing.T) {
	// A lost config.yaml may declare an option, not a relation; a lost actions.yaml an action,
	// not an option; a lost metadata.yaml a relation, not an action; a lost charmcraft.yaml
	// anything: only what the lost file could hold is an info.
	finding := func(kind, subject string) linker.Finding {
		return linker.Finding{Kind: kind, Subject: subject, Site: linker.Site{File: "src/charm.py", Line: 9, Symbol: "C.__init__"}}
	}
	all := []linker.Finding{finding(linker.FindUndeclaredRelation, "db"), finding(linker.FindUndeclaredConfig, "opt"),
		finding(linker.FindUndeclaredAction, "go"), finding(linker.FindUndeclaredContainer, "app")}
	for lost, infos := range map[string][]string{
		"config.yaml":     {"opt"},
		"actions.yaml":    {"go"},
		"metadata.yaml":   {"db", "app"},
		"charmcraft.yaml": {"db", "opt", "go", "app"},
	} {
		decl := charmyaml.Charm{Name: "a", Dir: ".", Incomplete: []string{lost}, Warnings: []string{lost + ":1: broken; nothing read"}}
		r := Run([]charmyaml.Charm{decl}, linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: all}}}, Options{})
		var got []string
		for _, d := range r.Diagnostics {
			if d.Severity == SeverityInfo {
				got = append(got, d.Subject)
				if !strings.Contains(d.Message, "("+lost+" could not be read whole") {
					t.Errorf("%s: %s", lost, d.Message)
				}
			}
		}
		if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(infos))) || r.Summary.Errors != 1+len(all)-len(infos) {
			t.Errorf("lost %s: infos %v, want %v; summary %+v", lost, got, infos, r.Summary)
		}
	}
}

func TestLooseConfigIndexNotReported(t *testing.T) {
	// config[option] in a loop over the options may be guarded by a check the linker does not
	// follow (`if option not in self.config: continue`): a loose read is not reported
	decl := charmyaml.Charm{Name: "a", Dir: ".", Config: []charmyaml.ConfigOption{{Name: "endpoint", Pos: charmyaml.Pos{File: "config.yaml", Line: 2}}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindConfig, Name: "endpoint", File: "config.yaml", Line: 2, Reads: []linker.Site{
			{File: "src/charm.py", Line: 9, Via: linker.ViaConfig, Detail: "index", Loose: true},
			{File: "src/charm.py", Line: 12, Via: linker.ViaConfig, Detail: "index"}}},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run([]charmyaml.Charm{decl}, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := "src/charm.py:12: warning: code reads config[\"endpoint\"]"
	if got := b.String(); !strings.HasPrefix(got, want) || strings.Contains(got, ":9:") {
		t.Errorf("text:\n%s\nwant one warning, at line 12", got)
	}
}

func TestDynamicReadNamedBeforeOutsideBase(t *testing.T) {
	// An unused option of a charm that both derives from an outside base charm class and
	// reads options by a name it computes: the info names the charm's own dynamic read, the
	// likelier reader, not the base class.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindConfig, Name: "motd", File: "config.yaml", Line: 2,
			Reads: []linker.Site{{File: "src/charm.py", Line: 12, Symbol: "ACharm", Via: linker.ViaBase, Detail: "ops_openstack.core.OSBaseCharm"}}},
	}}}, Unresolved: []linker.Site{{File: "src/charm.py", Line: 30, Symbol: "ACharm._configure", Via: linker.ViaConfig, Detail: "self.config[option.name]"}}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `config.yaml:2: info: no code reads config option "motd" (1 dynamic name in this charm could not be resolved and may name it) [unused-config]`
	if got := b.String(); !strings.HasPrefix(got, want+"\n") {
		t.Errorf("text:\n%s\nwant first:\n%s", got, want)
	}
}

func TestDynamicNameHedgesItsKindOnly(t *testing.T) {
	// An unresolved name the linker knows the kind of (charm.on[name].relation_departed can
	// only be a relation) softens the unhandled findings of that kind only: an action nothing
	// observes stays a warning; a name of unknown kind softens both.
	links := func(nameKind string) linker.Result {
		return linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "peers", File: "metadata.yaml", Line: 4},
			{Kind: linker.KindAction, Name: "restore", File: "actions.yaml", Line: 1},
			{Kind: linker.KindLifecycle, Name: "start", Handlers: []linker.Handler{{File: "src/charm.py", Line: 9, Symbol: "ACharm._on_start"}}},
		}}}, Unresolved: []linker.Site{{File: "src/charm.py", Line: 12, Symbol: "Watcher.setup", Via: linker.ViaObserve,
			Detail: "self.charm.on[self.relation_name].relation_departed", NameKind: nameKind}}}
	}
	severities := func(res linker.Result) string {
		var out []string
		for _, d := range Run(nil, res, Options{}).Diagnostics {
			if d.Rule != RuleUnresolvedName {
				out = append(out, d.Subject+"="+string(d.Severity))
			}
		}
		return strings.Join(out, " ")
	}
	if got, want := severities(links(linker.KindRelation)), "restore=warning peers=info"; got != want {
		t.Errorf("relation-only dynamic name: %s, want %s", got, want)
	}
	if got, want := severities(links("")), "restore=info peers=info"; got != want {
		t.Errorf("dynamic name of any kind: %s, want %s", got, want)
	}
}

func TestHandlerOfAnUndeclaredEndpointsHook(t *testing.T) {
	// A function registered for a hook or flag of an undeclared endpoint (or storage) never runs for it,
	// which raises nothing: a warning that names the hook or flag, not an error.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Classic: "hooks/hooks.py:3", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredRelation, Subject: "volume", Site: linker.Site{File: "hooks/hooks.py", Line: 5, Symbol: "joined"}, Registered: "volume-relation-joined"},
		{Kind: linker.FindUndeclaredRelation, Subject: "runner", Site: linker.Site{File: "hooks/hooks.py", Line: 9, Symbol: "runner"}, Registered: "endpoint.runner.joined"},
		{Kind: linker.FindUndeclaredStorage, Subject: "cache", Site: linker.Site{File: "hooks/hooks.py", Line: 13, Symbol: "cache_gone"}, Registered: "cache-storage-detaching"},
		{Kind: linker.FindUndeclaredConfig, Subject: "prot", Site: linker.Site{File: "reactive/a.py", Line: 6, Symbol: "restart"}, Registered: "config.changed.prot"},
		{Kind: linker.FindUndeclaredConfig, Subject: "aconfig.changed.b", Site: linker.Site{File: "reactive/a.py", Line: 9, Symbol: "email"}, Registered: "config.changed.aconfig.changed.b", Joined: true},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `hooks/hooks.py:5: warning: joined is registered for hook "volume-relation-joined" of relation endpoint "volume", which the charm's YAML does not declare: it never runs for it [undeclared-relation]
hooks/hooks.py:9: warning: runner is registered for flag "endpoint.runner.joined" of relation endpoint "runner", which the charm's YAML does not declare: it never runs for it [undeclared-relation]
hooks/hooks.py:13: warning: cache_gone is registered for hook "cache-storage-detaching" of storage "cache", which the charm's YAML does not declare: it never runs for it [undeclared-storage]
reactive/a.py:6: warning: restart is registered for flag "config.changed.prot" of option "prot", which the charm's YAML does not declare: it never runs for it [undeclared-config]
reactive/a.py:9: warning: email is registered for flag "config.changed.aconfig.changed.b" of option "aconfig.changed.b", which the charm's YAML does not declare: it never runs for it (two adjacent string literals, which Python joins into one: is a comma missing between them?) [undeclared-config]
0 errors, 5 warnings, 0 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestLoadedConfigFieldWithNoOption(t *testing.T) {
	// A field of the class the charm loads its options into that names no option is a
	// warning that says what follows, not an error of a read, unless it has no default.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "http_proxy", Site: linker.Site{File: "src/config.py", Line: 12, Symbol: "CharmConfig"}, Field: true},
		{Kind: linker.FindUndeclaredConfig, Subject: "tick_time", Site: linker.Site{File: "src/config.py", Line: 13, Symbol: "CharmConfig"}, Field: true, Required: true},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	// one with no default fails every load: an error (review rev88: 5 seeded faults in 4 trees)
	want := `src/config.py:12: warning: CharmConfig, the class the charm loads its options into, has field "http_proxy", which names no option the charm's YAML declares: it keeps its default, or loading fails without one [undeclared-config]
src/config.py:13: error: CharmConfig, the class the charm loads its options into, has field "tick_time", which names no option the charm's YAML declares and has no default: loading the config fails [undeclared-config]
1 error, 1 warning, 0 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestLostCodeSoftensFindings(t *testing.T) {
	// A Python file (or folder) that was not read may hold the missing reader: the charm's
	// unhandled and unused findings are infos naming it. A lost file of another charm of the
	// repository does not soften this one's; code under no charm's folder (shared) does.
	links := linker.Result{Charms: []linker.CharmLinks{
		{Name: "a", Dir: "a", Interfaces: []linker.Interface{
			{Kind: linker.KindConfig, Name: "motd", File: "a/config.yaml", Line: 2},
			{Kind: linker.KindAction, Name: "backup", File: "a/actions.yaml", Line: 3},
		}},
		{Name: "b", Dir: "b", Interfaces: []linker.Interface{
			{Kind: linker.KindConfig, Name: "port", File: "b/config.yaml", Line: 2},
		}},
	}}
	run := func(lost ...string) string {
		var b strings.Builder
		if err := WriteText(&b, Run(nil, links, Options{Lost: lost})); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := `a/actions.yaml:3: info: no code observes action "backup" (a/src/big.py was not read and may handle it) [unhandled-action]
a/config.yaml:2: info: no code reads config option "motd" (a/src/big.py was not read and may read it) [unused-config]
b/config.yaml:2: warning: no code reads config option "port" [unused-config]
0 errors, 1 warning, 2 infos
`
	if got := run("a/src/big.py"); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	if got := run("shared/x.py", "shared/secret"); !strings.Contains(got, `"port" (shared/x.py and 1 more were not read and may read it)`) {
		t.Errorf("shared code lost:\n%s", got)
	}
	if got := run("a/tests/unit/big_test.py"); strings.Contains(got, "not read") {
		t.Errorf("a lost test softens:\n%s", got)
	}
	if got := run(); strings.Contains(got, "not read") {
		t.Errorf("nothing lost:\n%s", got)
	}
}

func TestFeaturePackageSoftensUnhandledAction(t *testing.T) {
	// An action, relation or config option no code handles is a warning, unless the linker found a package
	// named after it that the charm imports: then it is an info that says which.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindAction, Name: "pre-refresh-check", File: "actions.yaml", Line: 3,
			Reads: []linker.Site{{File: "src/charm.py", Line: 9, Via: linker.ViaPackage, Detail: "charm_refresh"}}},
		{Kind: linker.KindAction, Name: "backup", File: "actions.yaml", Line: 7},
		{Kind: linker.KindAction, Name: "flush", File: "actions.yaml", Line: 9, Script: "actions/flush"}, // run by its script
		{Kind: linker.KindAction, Name: "pause", File: "actions.yaml", Line: 11,
			Reads: []linker.Site{{File: "src/charm.py", Line: 12, Symbol: "ACharm", Via: linker.ViaBase, Detail: "ops_openstack.core.OSBaseCharm"}}},
		{Kind: linker.KindRelation, Name: "refresh-v-three", File: "metadata.yaml", Line: 5,
			Reads: []linker.Site{{File: "src/charm.py", Line: 9, Via: linker.ViaPackage, Detail: "charm_refresh"}}},
		{Kind: linker.KindConfig, Name: "pause-after-unit-refresh", File: "config.yaml", Line: 2,
			Reads: []linker.Site{{File: "src/charm.py", Line: 9, Via: linker.ViaPackage, Detail: "charm_refresh"}}},
		{Kind: linker.KindConfig, Name: "role-all", File: "config.yaml", Line: 6,
			Reads: []linker.Site{{File: "src/charm.py", Line: 30, Symbol: "ACharm.__init__", Via: linker.ViaDelegate, Detail: "workers.worker"}}},
		{Kind: linker.KindLifecycle, Name: "install",
			Handlers: []linker.Handler{{Event: "install", Symbol: "ACharm._on_install", File: "src/charm.py", Line: 40, Via: linker.ViaObserve}}},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `actions.yaml:3: info: no code observes action "pre-refresh-check" (package charm_refresh, imported at src/charm.py:9, is named after it and may handle it) [unhandled-action]
actions.yaml:7: warning: no code observes action "backup" [unhandled-action]
actions.yaml:11: info: no code observes action "pause" (ACharm at src/charm.py:12 derives from ops_openstack.core.OSBaseCharm, a charm class from outside the tree, which may handle it) [unhandled-action]
config.yaml:2: info: no code reads config option "pause-after-unit-refresh" (package charm_refresh, imported at src/charm.py:9, is named after it and may handle it) [unused-config]
config.yaml:6: info: no code reads config option "role-all" (ACharm.__init__ builds an object of package workers.worker with the charm at src/charm.py:30, which may read it) [unused-config]
metadata.yaml:5: info: no code observes, binds or looks up relation "refresh-v-three" (package charm_refresh, imported at src/charm.py:9, is named after it and may handle it) [unhandled-relation]
0 errors, 1 warning, 5 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestCharmDirOf(t *testing.T) {
	dirs := []string{".", "charms/a", "charms/ab"}
	for file, want := range map[string]string{
		"charms/a/src/x.py":  "charms/a",
		"charms/ab/src/x.py": "charms/ab",
		"common/x.py":        ".",
		"charms/abc/x.py":    ".",
	} {
		if got := charmDirOf(file, dirs); got != want {
			t.Errorf("charmDirOf(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestYAMLProblemInAFolderWithASpace(t *testing.T) {
	// A warning of a charm in a folder whose name has a space keeps its file and line, for a
	// file its YAML lists and for one it does not (a misnamed actions.yml; rev91, rev92).
	ch := charmyaml.Charm{Name: "demo", Dir: "charms/my charm", Files: []string{"charms/my charm/metadata.yaml"}, Warnings: []string{
		"charms/my charm/metadata.yaml:4: requires: not a mapping",
		"charms/my charm/actions.yml:1: named like actions.yaml, which is missing",
	}}
	r := Run([]charmyaml.Charm{ch}, linker.Result{}, Options{})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d %s", d.File, d.Line, d.Message))
	}
	want := []string{`charms/my charm/actions.yml:1 charm "demo": named like actions.yaml, which is missing`,
		`charms/my charm/metadata.yaml:4 charm "demo": requires: not a mapping`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestSplitWarning(t *testing.T) {
	for w, want := range map[string][3]any{
		"metadata.yaml:3: bad indent": {"metadata.yaml", 3, "bad indent"},
		"actions.yaml: not a mapping": {"actions.yaml", 0, "not a mapping"},
		"no charm name: using dir":    {"", 0, "no charm name: using dir"},
		"just words":                  {"", 0, "just words"},
		"a/config.yaml:x: odd":        {"a/config.yaml:x", 0, "odd"},
	} {
		f, l, m := splitWarning(w)
		if f != want[0] || l != want[1] || m != want[2] {
			t.Errorf("splitWarning(%q) = %q %d %q", w, f, l, m)
		}
	}
	// the charm's own files are matched whole: a space or a colon in a folder's name (rev91)
	files := []string{"charms/my charm/config.yaml", "charms/demo:v2/metadata.yaml"}
	for w, want := range map[string][3]any{
		"charms/my charm/config.yaml:10: did not find expected node content": {"charms/my charm/config.yaml", 10, "did not find expected node content"},
		"charms/demo:v2/metadata.yaml:3: bad: indent":                        {"charms/demo:v2/metadata.yaml", 3, "bad: indent"},
		"charms/demo:v2/metadata.yaml: not a mapping":                        {"charms/demo:v2/metadata.yaml", 0, "not a mapping"},
		"actions.yml:1: named like actions.yaml":                             {"actions.yml", 1, "named like actions.yaml"},
	} {
		f, l, m := splitWarning(w, files...)
		if f != want[0] || l != want[1] || m != want[2] {
			t.Errorf("splitWarning(%q, files) = %q %d %q", w, f, l, m)
		}
	}
}

// A finding kind the check package does not know is still reported, as a warning; a finding
// the linker reports twice is reported once.
func TestUnknownFinding(t *testing.T) {
	f := linker.Finding{Kind: "undeclared-secret", Subject: "s", Site: linker.Site{File: "src/charm.py", Line: 3}}
	links := linker.Result{Charms: []linker.CharmLinks{{Dir: ".", Findings: []linker.Finding{f, f}}}}
	d := Run(nil, links, Options{}).Diagnostics
	if len(d) != 1 || d[0].Rule != "undeclared-secret" || d[0].Severity != SeverityWarning || d[0].Subject != "s" {
		t.Errorf("got %+v", d)
	}
}

func TestSharedCodeServesItsSiblings(t *testing.T) {
	// Shared code (outside both charm directories) gets container "kafka" under a condition:
	// the machine charm, which lacks it, is not blamed, because the k8s charm declares it. An
	// unconditional use is still reported, as is a conditional one in the charm's own code or
	// of a name no charm declares.
	const shared, machineSrc = "common/kafka/events/broker.py", "machine/src/charm.py"
	finding := func(file, name string, cond bool) linker.Finding {
		return linker.Finding{Kind: linker.FindUndeclaredContainer, Subject: name,
			Site: linker.Site{File: file, Line: 7, Symbol: "Broker.__init__", Conditional: cond}}
	}
	links := linker.Result{Charms: []linker.CharmLinks{
		{Name: "kafka-k8s", Dir: "k8s", Interfaces: []linker.Interface{{Kind: linker.KindContainer, Name: "kafka", File: "k8s/metadata.yaml", Line: 3}}},
		{Name: "kafka", Dir: "machine", Findings: []linker.Finding{
			finding(shared, "kafka", true),     // not reported
			finding(shared, "workload", true),  // reported: nobody declares it
			finding(machineSrc, "kafka", true), // reported: the charm's own code
			{Kind: linker.FindUndeclaredContainer, Subject: "kafka", Site: linker.Site{File: shared, Line: 9, Symbol: "Broker.run"}}, // reported: unconditional
		}},
	}}
	r := Run([]charmyaml.Charm{{Name: "kafka-k8s", Dir: "k8s"}, {Name: "kafka", Dir: "machine"}}, links, Options{})
	var got []string
	for _, d := range r.Diagnostics {
		if d.Rule == RuleUndeclaredContainer {
			got = append(got, d.File+":"+strconv.Itoa(d.Line)+":"+d.Subject)
		}
	}
	want := []string{shared + ":7:workload", shared + ":9:kafka", machineSrc + ":7:kafka"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("undeclared-container findings %v, want %v", got, want)
	}
}

func TestSubordinateJujuInfo(t *testing.T) {
	// A subordinate's container-scoped juju-info endpoint only attaches it to its principal:
	// no code needs to handle it. The same endpoint on a principal, or another unhandled
	// container-scoped endpoint of the subordinate, is still reported.
	run := func(subordinate bool) []string {
		charm := charmyaml.Charm{Name: "agent", Dir: ".", Subordinate: subordinate, Relations: []charmyaml.Relation{
			{Name: "juju-info", Role: charmyaml.RoleRequires, Interface: "juju-info", Scope: "container", Pos: pos("metadata.yaml", 8)},
			{Name: "cos-agent", Role: charmyaml.RoleRequires, Interface: "cos_agent", Scope: "container", Pos: pos("metadata.yaml", 12)},
		}}
		links := linker.Result{Charms: []linker.CharmLinks{{Name: "agent", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "juju-info", Role: charmyaml.RoleRequires, Interface: "juju-info", File: "metadata.yaml", Line: 8},
			{Kind: linker.KindRelation, Name: "cos-agent", Role: charmyaml.RoleRequires, Interface: "cos_agent", File: "metadata.yaml", Line: 12},
		}}}}
		var got []string
		for _, d := range Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics {
			if d.Rule == RuleUnhandledRelation {
				got = append(got, d.Subject)
			}
		}
		return got
	}
	if got := strings.Join(run(true), " "); got != "cos-agent" {
		t.Errorf("subordinate: unhandled %q, want cos-agent", got)
	}
	if got := strings.Join(run(false), " "); got != "juju-info cos-agent" && got != "cos-agent juju-info" {
		t.Errorf("principal: unhandled %q, want both", got)
	}
}

func TestTwelveFactorCharm(t *testing.T) {
	// A 12-factor charm's framework wires the endpoints of the interfaces it knows to the
	// workload and passes every config option to it: none is reported. An endpoint of another
	// interface, and an action without a handler, still are; without the extension, all are.
	run := func(extensions ...string) []string {
		charm := charmyaml.Charm{Name: "site", Dir: ".", Extensions: extensions,
			Relations: []charmyaml.Relation{
				{Name: "postgresql", Role: charmyaml.RoleRequires, Interface: "postgresql_client", Pos: pos("charmcraft.yaml", 30)},
				{Name: "feed", Role: charmyaml.RoleRequires, Interface: "news_feed", Pos: pos("charmcraft.yaml", 34)},
			},
			Config:  []charmyaml.ConfigOption{{Name: "site_url", Type: "string", Pos: pos("charmcraft.yaml", 40)}},
			Actions: []charmyaml.Action{{Name: "add-admin", Pos: pos("charmcraft.yaml", 50)}},
		}
		links := linker.Result{Charms: []linker.CharmLinks{{Name: "site", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "postgresql", Role: charmyaml.RoleRequires, Interface: "postgresql_client", File: "charmcraft.yaml", Line: 30},
			{Kind: linker.KindRelation, Name: "feed", Role: charmyaml.RoleRequires, Interface: "news_feed", File: "charmcraft.yaml", Line: 34},
			{Kind: linker.KindConfig, Name: "site_url", File: "charmcraft.yaml", Line: 40},
			{Kind: linker.KindAction, Name: "add-admin", File: "charmcraft.yaml", Line: 50},
		}}}}
		var got []string
		for _, d := range Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics {
			got = append(got, d.Rule+" "+d.Subject)
		}
		slices.Sort(got)
		return got
	}
	if got, want := run("flask-framework"), []string{"unhandled-action add-admin", "unhandled-relation feed"}; !slices.Equal(got, want) {
		t.Errorf("12-factor: %q, want %q", got, want)
	}
	if got := run(); len(got) != 4 {
		t.Errorf("plain charm: %q, want all four reported", got)
	}
}

func TestConditionalHandlerInVendoredLibrary(t *testing.T) {
	// A condition around an observe call in a vendored library is upstream's design: not
	// reported. In the charm's own library and in its code, it is.
	charm := charmyaml.Charm{Name: "demo-db", Dir: ".", Relations: []charmyaml.Relation{
		{Name: "mesh", Role: charmyaml.RoleRequires, Interface: "service_mesh", Pos: pos("metadata.yaml", 8)}}}
	handler := func(file string) linker.Handler { // the linker marks lib/charms/<other charm>/ vendored
		return linker.Handler{Event: "relation_changed", Symbol: "X._on_changed", File: file, Line: 10, Via: linker.ViaObserve, Conditional: true,
			Vendored: strings.HasPrefix(file, "lib/charms/") && !strings.HasPrefix(file, "lib/charms/demo_db/")}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo-db", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "mesh", Role: charmyaml.RoleRequires, Interface: "service_mesh", File: "metadata.yaml", Line: 8,
			Handlers: []linker.Handler{handler("lib/charms/istio_beacon_k8s/v0/service_mesh.py"), handler("lib/charms/demo_db/v0/api.py"), handler("src/charm.py")}},
	}}}}
	var got []string
	for _, d := range Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics {
		if d.Rule == RuleHandlerConditional {
			got = append(got, d.File)
		}
	}
	slices.Sort(got)
	if want := []string{"lib/charms/demo_db/v0/api.py", "src/charm.py"}; !slices.Equal(got, want) {
		t.Errorf("handler-conditional in %q, want %q", got, want)
	}
}

func TestCharmWithoutCode(t *testing.T) {
	// A charm directory whose code holds no charm class is not held to the unhandled and
	// unused rules: nothing could handle its interfaces.
	charm := charmyaml.Charm{Name: "demo", Dir: "tests/unit", Config: []charmyaml.ConfigOption{{Name: "port", Pos: pos("tests/unit/config.yaml", 2)}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: "tests/unit", NoCode: true, Interfaces: []linker.Interface{
		{Kind: linker.KindConfig, Name: "port", File: "tests/unit/config.yaml", Line: 2}}}}}
	if d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics; len(d) != 0 {
		t.Errorf("diagnostics %+v", d)
	}
	// code of its own that runs its hooks some other way: one info says it was not checked
	charm.NameAt = pos("tests/unit/metadata.yaml", 1)
	links.Charms[0].UnlinkedCode = "tests/unit/hooks/hooks.py"
	if d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics; len(d) != 1 || d[0].Rule != RuleUnlinkedCode ||
		d[0].Severity != SeverityInfo || d[0].File != "tests/unit/metadata.yaml" || d[0].Line != 1 || !strings.Contains(d[0].Message, "(tests/unit/hooks/hooks.py)") {
		t.Errorf("unlinked code: diagnostics %+v", d)
	}
	links.Charms[0].UnlinkedCode = ""
	links.Charms[0].NoCode = false
	if d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics; len(d) != 1 || d[0].Rule != RuleUnusedConfig {
		t.Errorf("with code: diagnostics %+v", d)
	}
	// a classic charm has no class but hook functions: held to the rules, as infos saying why
	// (its templates and charm-helpers contexts take the whole configuration)
	links.Charms[0].NoCode, links.Charms[0].Classic = true, "hooks/demo_hooks.py:40"
	d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics
	if len(d) != 1 || d[0].Rule != RuleUnusedConfig || d[0].Severity != SeverityInfo || !strings.Contains(d[0].Message, "a classic charm, registering charm-helpers hooks at hooks/demo_hooks.py:40") {
		t.Errorf("classic: diagnostics %+v", d)
	}
	links.Charms[0].Classic = "tests/unit/hooks/config-changed:1" // one script per hook
	d = Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics
	if len(d) != 1 || !strings.Contains(d[0].Message, "a classic charm, with hook scripts such as tests/unit/hooks/config-changed:") {
		t.Errorf("classic with hook scripts: diagnostics %+v", d)
	}
	links.Charms[0].Classic = "hooks/demo_hooks.py:40"
	// the charm's own unresolved config reads say more than its being classic
	links.Unresolved = []linker.Site{{File: "tests/unit/hooks/demo_hooks.py", Line: 9, Via: linker.ViaConfig, Detail: "config(name)"}}
	d = Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics
	if i := slices.IndexFunc(d, func(x Diagnostic) bool { return x.Rule == RuleUnusedConfig }); i < 0 || !strings.HasSuffix(d[i].Message, "(1 dynamic name in this charm could not be resolved and may name it)") {
		t.Errorf("classic with a dynamic read: diagnostics %+v", d)
	}
	links.Unresolved = nil
	// charm-helpers' config() holds an unset option as None: its index raises nothing
	links.Charms[0].Interfaces[0].Reads = []linker.Site{{File: "tests/unit/hooks/demo_hooks.py", Line: 12, Symbol: "install", Via: linker.ViaConfig, Detail: "index"}}
	if d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics; slices.ContainsFunc(d, func(x Diagnostic) bool { return x.Rule == RuleConfigNoDefaultIndex }) {
		t.Errorf("classic config()[...] reported: %+v", d)
	}
	links.Charms[0].Classic = ""
	links.Charms[0].NoCode = false
	if d := Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics; !slices.ContainsFunc(d, func(x Diagnostic) bool { return x.Rule == RuleConfigNoDefaultIndex }) {
		t.Errorf("ops self.config[...] not reported: %+v", d)
	}
	links.Charms[0].Interfaces[0].Reads = nil
	// but an action runs from its own script only: one with none stays a warning
	root := charmyaml.Charm{Name: "demo", Dir: ".", Actions: []charmyaml.Action{{Name: "backup", Pos: pos("actions.yaml", 1)}}}
	rootLinks := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", NoCode: true, Classic: "hooks/demo_hooks.py:40",
		Interfaces: []linker.Interface{{Kind: linker.KindAction, Name: "backup", File: "actions.yaml", Line: 1}}}}}
	d = Run([]charmyaml.Charm{root}, rootLinks, Options{}).Diagnostics
	if len(d) != 1 || d[0].Rule != RuleUnhandledAction || d[0].Severity != SeverityWarning {
		t.Errorf("classic action: diagnostics %+v", d)
	}
	// an action run by its script through a table that leaves it out is unhandled, script or
	// not; a table's key naming no declared action is a warning (review rev104)
	rootLinks.Charms[0].Interfaces[0].Script = "actions/actions.py"
	rootLinks.Charms[0].Interfaces[0].NotInTable = &linker.Site{File: "actions/actions.py", Line: 40, Key: "ACTIONS"}
	rootLinks.Charms[0].Findings = []linker.Finding{{Kind: linker.FindUndeclaredAction, Subject: "pasue", Site: linker.Site{File: "actions/actions.py", Line: 40, Detail: "table", Key: "ACTIONS"}}}
	var b strings.Builder
	if err := WriteText(&b, Run([]charmyaml.Charm{root}, rootLinks, Options{})); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`actions.yaml:1: warning: action "backup" is run by its script actions/actions.py, whose table ACTIONS (line 40) maps other actions but not this one: the script finds no function for it and fails [unhandled-action]`,
		`actions/actions.py:40: warning: table ACTIONS maps action "pasue", which the charm's YAML does not declare: ` + "`juju run`" + ` rejects the name, so its entry never runs [undeclared-action]`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}

func TestTestCharmFindingsAreInfos(t *testing.T) {
	// An integration test's dummy charm is a fixture: what is wrong in it is said, as an
	// info, and does not fail the real charm's pipeline, even with --strict. The charm at
	// the root, and a charm whose name only looks like a test, are held as usual.
	run := func(dir string) Diagnostic {
		yaml := path.Join(dir, "metadata.yaml")
		charm := charmyaml.Charm{Name: "app", Dir: dir, Relations: []charmyaml.Relation{{Name: "cluster", Role: charmyaml.RolePeers, Pos: pos(yaml, 14)}}}
		links := linker.Result{Charms: []linker.CharmLinks{{Name: "app", Dir: dir, Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "cluster", Role: "peers", File: yaml, Line: 14}}}}}
		r := Run([]charmyaml.Charm{charm}, links, Options{Strict: true})
		if len(r.Diagnostics) != 1 {
			t.Fatalf("%s: diagnostics %+v", dir, r.Diagnostics)
		}
		return r.Diagnostics[0]
	}
	if d := run("tests/integration/app-charm"); d.Severity != SeverityInfo || !strings.HasSuffix(d.Message, "(in a test charm)") {
		t.Errorf("test charm: %+v", d)
	}
	for _, dir := range []string{".", "charms/testing-app"} {
		if d := run(dir); d.Severity != SeverityError {
			t.Errorf("%s: %+v, want an error under --strict", dir, d)
		}
	}
	// The real charm's finding in its copy of a module is not folded into the test charm's
	// (whose copy has the shorter path) and softened with it; a test charm's finding in
	// shared code is its own, an info.
	finding := func(file string) linker.Finding {
		return linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{File: file, Line: 9, Symbol: "Helper.db"}}
	}
	links := linker.Result{Charms: []linker.CharmLinks{
		{Name: "real", Dir: "charms/real", Findings: []linker.Finding{finding("charms/real/src/shared.py")}},
		{Name: "app", Dir: "tests/app", Findings: []linker.Finding{finding("tests/app/src/shared.py"), finding("common/util.py")}},
	}}
	r := Run([]charmyaml.Charm{{Name: "real", Dir: "charms/real"}, {Name: "app", Dir: "tests/app"}}, links, Options{})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.File+" "+d.Severity)
	}
	want := []string{"charms/real/src/shared.py error", "common/util.py info", "tests/app/src/shared.py info"}
	if !slices.Equal(got, want) || r.ExitCode(false) != 1 {
		t.Errorf("diagnostics %q, exit %d; want %q, exit 1", got, r.ExitCode(false), want)
	}
}

func TestUnhandledActionMayBeAnothers(t *testing.T) {
	// An action nothing observes is an info when an outside package's object given the charm
	// may observe it, or when the charm observes no event at all (it reconciles in __init__,
	// which every hook and action runs); a warning otherwise.
	run := func(handlers []linker.Handler, reads []linker.Site) Diagnostic {
		links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindAction, Name: "status-detail", File: "actions.yaml", Line: 4, Reads: reads},
			{Kind: linker.KindLifecycle, Name: "install", Handlers: handlers},
		}}}}
		d := Run([]charmyaml.Charm{{Name: "a", Dir: "."}}, links, Options{}).Diagnostics
		if len(d) != 1 {
			t.Fatalf("diagnostics %+v", d)
		}
		return d[0]
	}
	own := []linker.Handler{{Event: "install", Symbol: "ACharm._on_install", File: "src/charm.py", Line: 9, Via: linker.ViaObserve}}
	if d := run(own, nil); d.Severity != SeverityWarning {
		t.Errorf("plain: %+v", d)
	}
	del := []linker.Site{{File: "src/charm.py", Line: 7, Symbol: "ACharm.__init__", Via: linker.ViaDelegate, Detail: "helpers.status"}}
	if d := run(own, del); d.Severity != SeverityInfo || !strings.Contains(d.Message, "package helpers.status with the charm at src/charm.py:7, which may handle it") {
		t.Errorf("delegate: %+v", d)
	}
	if d := run(nil, nil); d.Severity != SeverityInfo || !strings.Contains(d.Message, "observes no event") {
		t.Errorf("observes nothing: %+v", d)
	}
}

func TestCopiesReportedOnce(t *testing.T) {
	// The same finding in copies of one module is reported once, at the shortest path,
	// naming where the copies are; two charms' own charm.py are not copies.
	d := func(file string) Diagnostic {
		return Diagnostic{Rule: RuleUnresolvedName, Severity: SeverityInfo, File: file, Line: 9, Message: "m"}
	}
	got := foldCopies([]Diagnostic{d("k8s/.vendored/pkg/v.py"), d("k8s/src/charm.py"), d("machine/.vendored/pkg/v.py"),
		d("machine/src/charm.py"), d("pkg/v.py"), d("x/.v/lib/m/w.py"), d("y/.v/lib/m/w.py")}, []string{"k8s", "machine"})
	var lines []string
	for _, g := range got {
		lines = append(lines, g.File+": "+g.Message)
	}
	want := []string{"k8s/src/charm.py: m", "machine/src/charm.py: m",
		"pkg/v.py: m (also in k8s/.vendored/, machine/.vendored/)", "x/.v/lib/m/w.py: m (also in y/)"}
	if !slices.Equal(lines, want) {
		t.Errorf("got %q\nwant %q", lines, want)
	}
	// a charm at the root and one in requirer/: their own YAML and code are two charms'
	// (rev91); a library both vendor still folds
	got = foldCopies([]Diagnostic{d("lib/charms/x/v0/y.py"), d("metadata.yaml"), d("requirer/lib/charms/x/v0/y.py"),
		d("requirer/metadata.yaml"), d("requirer/src/charm.py"), d("src/charm.py")}, []string{".", "requirer"})
	lines = nil
	for _, g := range got {
		lines = append(lines, g.File+": "+g.Message)
	}
	want = []string{"lib/charms/x/v0/y.py: m (also in requirer/)", "metadata.yaml: m", "requirer/metadata.yaml: m",
		"requirer/src/charm.py: m", "src/charm.py: m"}
	if !slices.Equal(lines, want) {
		t.Errorf("root and requirer/: got %q\nwant %q", lines, want)
	}
}

func TestConditionalConstructionReportedOnce(t *testing.T) {
	// Handlers conditional only because their object is built under a condition give one
	// info at the construction, naming what they handle; a conditional observe call is still
	// reported where it is.
	decl := charmyaml.Charm{Name: "a", Dir: ".", Relations: []charmyaml.Relation{
		{Name: "db", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 5}}, {Name: "web", Pos: charmyaml.Pos{File: "metadata.yaml", Line: 8}}}}
	built := func(event string, line int) linker.Handler {
		return linker.Handler{Event: event, Symbol: "Provider._on_" + event, File: "src/provider.py", Line: line, Via: linker.ViaHelper,
			ObserveFile: "src/provider.py", ObserveLine: 10, Conditional: true, BuiltFile: "src/charm.py", BuiltLine: 40, BuiltClass: "Provider"}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "db", File: "metadata.yaml", Line: 5, Handlers: []linker.Handler{
			built("relation_joined", 20), built("relation_changed", 30)}},
		{Kind: linker.KindRelation, Name: "web", File: "metadata.yaml", Line: 8, Handlers: []linker.Handler{
			built("relation_broken", 50),
			{Event: "relation_changed", Symbol: "ACharm._on_web", File: "src/charm.py", Line: 70, Via: linker.ViaObserve,
				ObserveFile: "src/charm.py", ObserveLine: 44, Conditional: true}}},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run([]charmyaml.Charm{decl}, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `src/charm.py:40: info: Provider is built here only under a condition: its handlers of relation "db", relation "web" are registered only then [handler-conditional]
src/charm.py:44: info: ACharm._on_web handles relation "web" (relation_changed) only under a condition [handler-conditional]
0 errors, 0 warnings, 2 infos
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestConditionalConstructionInSharedCode(t *testing.T) {
	// Shared code is checked with each charm that imports it; a construction there is reported
	// once when every charm sees the same, and once per charm, naming it, when they differ.
	built := func(charm string) linker.CharmLinks {
		return linker.CharmLinks{Name: charm, Dir: charm, Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "cluster", File: charm + "/metadata.yaml", Line: 5, Handlers: []linker.Handler{
				{Event: "relation_changed", Symbol: "Raft._on_changed", File: "common/raft.py", Line: 20, Via: linker.ViaHelper,
					Conditional: true, BuiltFile: "common/broker.py", BuiltLine: 9, BuiltClass: "Raft"}}}}}
	}
	same := linker.Result{Charms: []linker.CharmLinks{built("k8s"), built("machine")}}
	differ := linker.Result{Charms: []linker.CharmLinks{built("k8s"), built("machine")}}
	differ.Charms[0].Interfaces = append(differ.Charms[0].Interfaces, linker.Interface{Kind: linker.KindContainer, Name: "kafka",
		File: "k8s/metadata.yaml", Line: 9, Handlers: []linker.Handler{{Event: "kafka_pebble_ready", Symbol: "Raft._on_ready",
			File: "common/raft.py", Line: 30, Via: linker.ViaHelper, Conditional: true, BuiltFile: "common/broker.py", BuiltLine: 9, BuiltClass: "Raft"}}})
	// the machine charm builds it without a condition
	one := linker.Result{Charms: []linker.CharmLinks{built("k8s"), {Name: "machine", Dir: "machine", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "cluster", File: "machine/metadata.yaml", Line: 5, Handlers: []linker.Handler{
			{Event: "relation_changed", Symbol: "Raft._on_changed", File: "common/raft.py", Line: 20, Via: linker.ViaHelper}}}}}}}
	for _, c := range []struct {
		links linker.Result
		want  string
	}{
		{same, `common/broker.py:9: info: Raft is built here only under a condition: its handlers of relation "cluster" are registered only then [handler-conditional]
0 errors, 0 warnings, 1 info
`},
		{one, `common/broker.py:9: info: Raft is built here only under a condition: its handlers of relation "cluster" are registered only then (in charm k8s) [handler-conditional]
0 errors, 0 warnings, 1 info
`},
		{differ, `common/broker.py:9: info: Raft is built here only under a condition: its handlers of relation "cluster" are registered only then (in charm machine) [handler-conditional]
common/broker.py:9: info: Raft is built here only under a condition: its handlers of relation "cluster", container "kafka" are registered only then (in charm k8s) [handler-conditional]
0 errors, 0 warnings, 2 infos
`},
	} {
		var b strings.Builder
		if err := WriteText(&b, Run(nil, c.links, Options{})); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != c.want {
			t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
		}
	}
}

func TestFindingOfACharmNothingRunsIsAnInfo(t *testing.T) {
	// A placeholder charm (a library's repository with a charmcraft.yaml of a name only) has
	// no charm class, hook or reactive handler: no code runs as it, and a name its classes
	// take from the charms that use them is an info. Not when it has hooks/ code the linker
	// does not follow, a classic hook, or a file left unread that may hold its charm class.
	f := linker.Finding{Kind: linker.FindUndeclaredContainer, Subject: "nginx",
		Site: linker.Site{File: "src/nginx.py", Line: 3, Symbol: "Nginx.__init__"}}
	charms := []charmyaml.Charm{{Name: "placeholder", Dir: ".", NameAt: pos("charmcraft.yaml", 1)}}
	for _, c := range []struct {
		name   string
		links  linker.CharmLinks
		unread []string
		want   string
	}{
		{"placeholder", linker.CharmLinks{NoCode: true}, nil, SeverityInfo},
		{"a charm class", linker.CharmLinks{}, nil, SeverityError},
		{"hooks code", linker.CharmLinks{NoCode: true, UnlinkedCode: "hooks/hooks.py"}, nil, SeverityError},
		{"classic", linker.CharmLinks{NoCode: true, Classic: "hooks/hooks.py:3"}, nil, SeverityError},
		{"unread", linker.CharmLinks{NoCode: true}, []string{"src/charm.py"}, SeverityError},
	} {
		cl := c.links
		cl.Name, cl.Dir, cl.Findings = "placeholder", ".", []linker.Finding{f}
		var got []string
		for _, d := range Run(charms, linker.Result{Charms: []linker.CharmLinks{cl}}, Options{Unread: c.unread}).Diagnostics {
			if d.Rule == RuleUndeclaredContainer {
				got = append(got, d.Severity)
				if d.Severity == SeverityInfo && !strings.HasSuffix(d.Message, `(charm "placeholder" has no charm class, hook or reactive handler that would run it)`) {
					t.Errorf("%s: message %q", c.name, d.Message)
				}
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: severities %v, want [%s]", c.name, got, c.want)
		}
	}
}

func TestFindingInDeadCodeIsAnInfo(t *testing.T) {
	// An undeclared name in a class the charm never builds is an info: the deployed charm
	// never runs it, and a gate must not fail on it (the unused half of a copied library).
	f := linker.Finding{Kind: linker.FindUndeclaredConfig, Subject: "domain-name", NotBuilt: true,
		Site: linker.Site{File: "src/certs.py", Line: 9, Symbol: "Certs.domain"}}
	links := linker.Result{Charms: []linker.CharmLinks{{Dir: ".", Findings: []linker.Finding{f}}}}
	d := Run(nil, links, Options{}).Diagnostics
	if len(d) != 1 || d[0].Severity != SeverityInfo || !strings.HasSuffix(d[0].Message, "(in a class no code of the tree uses)") {
		t.Errorf("got %+v", d)
	}
	f.NotBuilt = false
	links.Charms[0].Findings[0] = f
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityError {
		t.Errorf("built: got %+v", d)
	}
	// nor in a method nothing calls
	f.NotCalled = true
	links.Charms[0].Findings[0] = f
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityInfo ||
		!strings.HasSuffix(d[0].Message, "(in a method no code of the tree calls)") {
		t.Errorf("not called: got %+v", d)
	}
	// nor in a module function nothing calls
	f.Symbol = "get_networks"
	links.Charms[0].Findings[0] = f
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityInfo ||
		!strings.HasSuffix(d[0].Message, "(in a function no code of the tree calls)") {
		t.Errorf("function not called: got %+v", d)
	}
	// nor in one only tests call
	f.NotCalled, f.TestsOnly = false, true
	links.Charms[0].Findings[0] = f
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityInfo ||
		!strings.HasSuffix(d[0].Message, "(in a function only tests call)") {
		t.Errorf("function only tests call: got %+v", d)
	}
	// a warning there is an info too, that says why; a dead-looking handler is
	// what unobserved-handler reports, and stays a warning
	p := linker.Finding{Kind: linker.FindUndeclaredParam, Subject: "pool_name", NotCalled: true, NoAction: true,
		Site: linker.Site{File: "actions/ceph_ops.py", Line: 48, Symbol: "pool_get"}}
	h := linker.Finding{Kind: linker.FindUnobservedHandler, Subject: "C._on_update_status", NotCalled: true,
		Site: linker.Site{File: "src/charm.py", Line: 90, Symbol: "C._on_update_status"}}
	links.Charms[0].Findings = []linker.Finding{p, h}
	var got []string
	for _, d := range Run(nil, links, Options{}).Diagnostics {
		got = append(got, d.Severity+": "+d.Message)
	}
	want := []string{`info: pool_get reads action parameter "pool_name", which no action declares (in a function no code of the tree calls)`,
		`warning: C._on_update_status is named like an event handler, but no code observes, calls or names it: it never runs`}
	if !slices.Equal(got, want) {
		t.Errorf("warnings in dead code:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p.NotCalled, p.NotBuilt, p.Symbol = false, true, "Ops.pool_get"
	links.Charms[0].Findings = []linker.Finding{p}
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityInfo ||
		!strings.HasSuffix(d[0].Message, "(in a class no code of the tree uses)") {
		t.Errorf("param in a class never built: got %+v", d)
	}
	// a handler nothing observes, in a class nothing uses (a copied package's), is dead with it
	h.NotCalled, h.NotBuilt, h.Subject, h.Symbol = false, true, "Copy._on_broken", "Copy._on_broken"
	links.Charms[0].Findings = []linker.Finding{h}
	if d := Run(nil, links, Options{}).Diagnostics; len(d) != 1 || d[0].Severity != SeverityInfo ||
		!strings.HasSuffix(d[0].Message, "it never runs (in a class no code of the tree uses)") {
		t.Errorf("handler in a class never built: got %+v", d)
	}
}

func TestHandlersAfterAnEarlyReturnReportedOnce(t *testing.T) {
	// Handlers registered after a fast exit are one info, at the return; a handler under its
	// own condition is still reported on its own.
	h := func(event, symbol string, line, after int) linker.Handler {
		return linker.Handler{Event: event, Symbol: symbol, File: "src/charm.py", Line: 40, Via: linker.ViaObserve,
			ObserveFile: "src/charm.py", ObserveLine: line, Conditional: true, AfterReturn: after}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "db", Handlers: []linker.Handler{h("db_relation_changed", "DemoCharm._on_db", 9, 8)}},
		{Kind: linker.KindRelation, Name: "peers", Handlers: []linker.Handler{h("peers_relation_changed", "DemoCharm._on_db", 11, 0)}},
		{Kind: linker.KindLifecycle, Name: "start", Handlers: []linker.Handler{h("start", "DemoCharm._on_start", 10, 8)}},
		// a library object built after the return: its handler folds into the same info
		{Kind: linker.KindRelation, Name: "logging", Handlers: []linker.Handler{{Event: "relation_joined", Symbol: "LogForwarder._on_joined",
			File: "lib/charms/loki/v0/log.py", Line: 70, Via: linker.ViaLibInner, ObserveFile: "lib/charms/loki/v0/log.py", ObserveLine: 60,
			Conditional: true, BuiltFile: "src/charm.py", BuiltLine: 12, BuiltClass: "LogForwarder", BuiltAfterReturn: 8, Vendored: true}}},
	}}}}
	var got []string
	for _, d := range Run(nil, links, Options{}).Diagnostics {
		if d.Rule == RuleHandlerConditional {
			got = append(got, fmt.Sprintf("%d %s", d.Line, d.Message))
		}
	}
	want := []string{`8 returns here under a condition before registering 3 handlers (of relation "db", lifecycle "start", relation "logging"): they are registered only when it does not`,
		`11 DemoCharm._on_db handles relation "peers" (peers_relation_changed) only under a condition`}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestSharedCodeFindingNamesItsCharm(t *testing.T) {
	// An undeclared name in shared code is held against charms' YAML: one diagnostic says
	// which. A finding about the code itself (a handler nothing observes) does not.
	f := linker.Finding{Kind: linker.FindUndeclaredConfig, Subject: "domain",
		Site: linker.Site{File: "common/base.py", Line: 9, Symbol: "Base.domain"}}
	u := linker.Finding{Kind: linker.FindUnobservedHandler, Subject: "Base._on_stop",
		Site: linker.Site{File: "common/base.py", Line: 20, Symbol: "Base._on_stop"}}
	own := linker.Finding{Kind: linker.FindUndeclaredConfig, Subject: "port",
		Site: linker.Site{File: "api/src/charm.py", Line: 5, Symbol: "ApiCharm.port"}}
	links := linker.Result{Charms: []linker.CharmLinks{
		{Name: "api", Dir: "api", Findings: []linker.Finding{f, u, own}},
		{Name: "plain", Dir: "plain", Findings: []linker.Finding{f}},
		{Name: "cli", Dir: "cli"},
	}}
	var got []string
	for _, d := range Run(nil, links, Options{}).Diagnostics {
		got = append(got, d.File+": "+d.Message)
	}
	want := []string{
		`api/src/charm.py: ApiCharm.port reads config option "port", which the charm's YAML does not declare`,
		`common/base.py: Base.domain reads config option "domain", which the charm's YAML does not declare (in charms api and plain)`,
		`common/base.py: Base._on_stop is named like an event handler, but no code observes, calls or names it: it never runs`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReactiveCharmSoftensFindings(t *testing.T) {
	// A reactive charm's handlers run on flags its layers (mostly outside the tree) set: what
	// no code seems to handle or read is an info saying so; undeclared names stay findings.
	links := linker.Result{Charms: []linker.CharmLinks{{
		Name: "mds", Dir: ".", Reactive: "src/reactive/mds.py:3",
		Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "ceph-mds", Role: "requires", File: "src/metadata.yaml", Line: 5},
			{Kind: linker.KindConfig, Name: "loglevel", File: "src/config.yaml", Line: 2},
		},
	}}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `src/config.yaml:2: info: no code reads config option "loglevel" (a reactive charm, importing charms.reactive at src/reactive/mds.py:3: handlers of flags its layers set may read it) [unused-config]
src/metadata.yaml:5: info: no code observes, binds or looks up relation "ceph-mds" (a reactive charm, importing charms.reactive at src/reactive/mds.py:3: handlers of flags its layers set may handle it) [unhandled-relation]
0 errors, 0 warnings, 2 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	links.Charms[0].Reactive = ""
	b.Reset()
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0 errors, 2 warnings") {
		t.Errorf("not reactive:\n%s", b.String())
	}
}

func TestUnresolvedInSharedCodeSoftensItsCharms(t *testing.T) {
	// An unresolved name in shared code (outside every charm's folder) may be one of the
	// charms whose code reaches it: their unhandled findings are infos; a charm that does
	// not reach it is held as usual.
	site := linker.Site{File: "libs/monitoring.py", Line: 11, Symbol: "SelfMonitoring.__init__", Detail: "LogForwarder"}
	links := linker.Result{Unresolved: []linker.Site{site}, Charms: []linker.CharmLinks{
		{Name: "auth", Dir: "auth", Unresolved: []linker.Site{site}, Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "logging", Role: "requires", File: "auth/charmcraft.yaml", Line: 6}}},
		{Name: "ui", Dir: "ui", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "logging", Role: "requires", File: "ui/charmcraft.yaml", Line: 6}}},
	}}
	var b strings.Builder
	if err := WriteText(&b, Run(nil, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `auth/charmcraft.yaml:6: info: no code observes, binds or looks up relation "logging" (1 dynamic name in this charm could not be resolved and may name it) [unhandled-relation]
libs/monitoring.py:11: info: SelfMonitoring.__init__ uses a name that cannot be resolved statically (LogForwarder); what it names is not checked [unresolved-name]
ui/charmcraft.yaml:6: warning: no code observes, binds or looks up relation "logging" [unhandled-relation]
0 errors, 1 warning, 2 infos; 1 dynamic name not resolved statically
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestLayerFolderSoftensUndeclared(t *testing.T) {
	// A layer's code runs in the charms that include it: a name its own YAML does not declare
	// may be theirs (an info), unless it is a typo of one it declares.
	decl := charmyaml.Charm{Dir: ".", Layer: true, Config: []charmyaml.ConfigOption{{Name: "port"}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Dir: ".", Layer: true, Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "log-level", Site: linker.Site{File: "reactive/foo.py", Line: 8, Symbol: "connect"}},
		{Kind: linker.FindUndeclaredConfig, Subject: "prot", Site: linker.Site{File: "reactive/foo.py", Line: 9, Symbol: "connect"}},
		{Kind: linker.FindUndeclaredRelation, Subject: "cache", LookedUp: "relation_ids", Site: linker.Site{File: "reactive/foo.py", Line: 10, Symbol: "connect"}},
	}}}}
	r := Run([]charmyaml.Charm{decl}, links, Options{})
	if r.Summary.Errors != 1 || r.Summary.Infos != 2 || !slices.ContainsFunc(r.Diagnostics, func(d Diagnostic) bool {
		return d.Subject == "log-level" && d.Severity == SeverityInfo && strings.HasSuffix(d.Message, "(a layer: the charms that include it may declare it)")
	}) {
		t.Errorf("%+v", r.Diagnostics)
	}
	// what would follow from the name being undeclared is not said: the charms may declare it
	if !slices.ContainsFunc(r.Diagnostics, func(d Diagnostic) bool {
		return d.Message == `connect looks up relation endpoint "cache" with relation_ids(), which the layer's YAML does not declare (a layer: the charms that include it may declare it)`
	}) {
		t.Errorf("lookup: %+v", r.Diagnostics)
	}
	decl.Layer = false
	if r := Run([]charmyaml.Charm{decl}, links, Options{}); r.Summary.Errors != 2 || r.Summary.Warnings != 1 {
		t.Errorf("a charm: %+v", r.Diagnostics)
	}
}

func TestIncludedLayersSoftenUndeclared(t *testing.T) {
	// A charm built with `charm build` declares in the tree only what its own layer adds: an
	// undeclared name is an info naming the included layers that may declare it (not the
	// interface layers, nor base layers known to declare nothing of the kind).
	decl := charmyaml.Charm{Name: "lb", Dir: "src", Layers: []charmyaml.Layer{{Name: "layer:leadership"}, {Name: "interface:keystone"}, {Name: "layer:openstack-api"}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "lb", Dir: "src", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "region", Site: linker.Site{File: "src/lib/api.py", Line: 9, Symbol: "client"}},
	}}}}
	r := Run([]charmyaml.Charm{decl}, links, Options{})
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Severity != SeverityInfo ||
		!strings.HasSuffix(r.Diagnostics[0].Message, "(layer.yaml includes layer:openstack-api, whose YAML the built charm merges in and may declare it)") {
		t.Errorf("%+v", r.Diagnostics)
	}
	// base layers that declare nothing of the kind (layer:basic's metadata.yaml is {};
	// layer:debug declares only its action debug) soften nothing
	decl.Layers = []charmyaml.Layer{{Name: "layer:basic"}, {Name: "layer:leadership"}, {Name: "layer:debug"}, {Name: "layer:version"}, {Name: "interface:keystone"}}
	if r := Run([]charmyaml.Charm{decl}, links, Options{}); r.Summary.Errors != 1 {
		t.Errorf("base layers only: %+v", r.Diagnostics)
	}
	debug := linker.Result{Charms: []linker.CharmLinks{{Name: "lb", Dir: "src", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredAction, Subject: "debug", Site: linker.Site{File: "src/lib/api.py", Line: 12, Symbol: "client"}},
	}}}}
	if r := Run([]charmyaml.Charm{decl}, debug, Options{}); len(r.Diagnostics) != 1 ||
		!strings.HasSuffix(r.Diagnostics[0].Message, "(layer.yaml includes layer:debug, whose YAML the built charm merges in and may declare it)") {
		t.Errorf("layer:debug's own action: %+v", r.Diagnostics)
	}
	// a name two letters from a declared one is a typo, whatever the layers
	decl.Config = []charmyaml.ConfigOption{{Name: "regoin"}}
	if r := Run([]charmyaml.Charm{decl}, links, Options{}); r.Summary.Errors != 1 {
		t.Errorf("near a declared option: %+v", r.Summary)
	}
	decl.Config = nil
	// a resource too (rev109: keystone-saml-mellon's idp-metaadta beside idp-metadata)
	decl.Resources = []charmyaml.Resource{{Name: "idp-metadata"}}
	res := linker.Result{Charms: []linker.CharmLinks{{Name: "lb", Dir: "src", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredResource, Subject: "idp-metaadta", Site: linker.Site{File: "src/lib/api.py", Line: 9, Symbol: "client"}},
	}}}}
	if r := Run([]charmyaml.Charm{decl}, res, Options{}); r.Summary.Errors != 1 {
		t.Errorf("near a declared resource: %+v", r.Diagnostics)
	}
	decl.Resources = nil
	// a handler of the flag of an option such a layer may declare (layer:nagios's
	// nagios_context) says nothing; of one near a declared option, it is the typo's warning
	flag := linker.Result{Charms: []linker.CharmLinks{{Name: "lb", Dir: "src", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "region", Site: linker.Site{File: "src/reactive/lb.py", Line: 7, Symbol: "render"}, Registered: "config.changed.region"},
	}}}}
	decl.Layers = []charmyaml.Layer{{Name: "layer:openstack-api"}}
	if r := Run([]charmyaml.Charm{decl}, flag, Options{}); len(r.Diagnostics) != 0 {
		t.Errorf("a layer's option's flag: %+v", r.Diagnostics)
	}
	decl.Config = []charmyaml.ConfigOption{{Name: "regoin"}}
	if r := Run([]charmyaml.Charm{decl}, flag, Options{}); r.Summary.Warnings != 1 {
		t.Errorf("a flag near a declared option: %+v", r.Diagnostics)
	}
	// a flag joined from two literals (a comma left out, review rev116) names no option a
	// layer declares: its warning stays
	joined := linker.Result{Charms: []linker.CharmLinks{{Name: "lb", Dir: "src", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "regionconfig.changed.zone", Site: linker.Site{File: "src/reactive/lb.py", Line: 7, Symbol: "render"},
			Registered: "config.changed.regionconfig.changed.zone", Joined: true},
	}}}}
	if r := Run([]charmyaml.Charm{decl}, joined, Options{}); r.Summary.Warnings != 1 {
		t.Errorf("a joined flag, layers included: %+v", r.Diagnostics)
	}
	decl.Layer = true
	if r := Run([]charmyaml.Charm{decl}, joined, Options{}); r.Summary.Warnings != 1 {
		t.Errorf("a joined flag in a layer: %+v", r.Diagnostics)
	}
	decl.Layer = false
	decl.Config = nil
	decl.Layers = []charmyaml.Layer{{Name: "interface:keystone"}}
	if r := Run([]charmyaml.Charm{decl}, links, Options{}); r.Summary.Errors != 1 {
		t.Errorf("interface layers only: %+v", r.Summary)
	}
}

// TestUndeclaredParamWording: a read in code that runs for no known action says that no
// action declares the name; one in an action's code, which action does not.
func TestUndeclaredParamWording(t *testing.T) {
	for runs, want := range map[string]string{
		"none":    `pool_get reads action parameter "pool_name", which no action declares`,
		"one":     `pool_get reads action parameter "pool_name", which action "pool-get" does not declare`,
		"several": `pool_get reads action parameter "pool_name", which none of the actions it runs for (pool-get, pool-set) declares`,
	} {
		actions := map[string][]string{"one": {"pool-get"}, "several": {"pool-get", "pool-set"}}[runs]
		d := findingDiagnostic(linker.Finding{Kind: linker.FindUndeclaredParam, Subject: "pool_name", NoAction: runs == "none",
			SeveralActions: runs == "several", Actions: actions, Site: linker.Site{File: "actions/ceph_ops.py", Line: 48, Symbol: "pool_get"}})
		if d.Message != want || d.Severity != SeverityWarning {
			t.Errorf("runs for %s: %s %q", runs, d.Severity, d.Message)
		}
	}
}

func TestMembershipTestOfUndeclaredName(t *testing.T) {
	// `"data" in self.model.storages` of an undeclared storage raises nothing: the test is
	// always false, a warning whatever the kind; in code that never runs, an info. Asserted,
	// it always fails: an error.
	for _, c := range []struct {
		f    linker.Finding
		sev  string
		want string
	}{
		{linker.Finding{Kind: linker.FindUndeclaredStorage, Subject: "data", Site: linker.Site{Symbol: "C._ready", Detail: "in"}},
			SeverityWarning, `C._ready tests for storage "data", which the charm's YAML does not declare: the test is always false`},
		{linker.Finding{Kind: linker.FindUndeclaredConfig, Subject: "bearer", Site: linker.Site{Symbol: "C._ready", Detail: "in", Conditional: true}},
			SeverityWarning, `C._ready tests for config option "bearer", which the charm's YAML does not declare: the test is always false`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{Symbol: "C._old", Detail: "in"}, NotCalled: true},
			SeverityInfo, `C._old tests for relation endpoint "db", which the charm's YAML does not declare: the test is always false (in a method no code of the tree calls)`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{Symbol: "C._ready"}},
			SeverityError, `C._ready uses relation endpoint "db", which the charm's YAML does not declare`},
		{linker.Finding{Kind: linker.FindUndeclaredConfig, Subject: "log_levle", Site: linker.Site{Symbol: "C._ready", Detail: "attr"}},
			SeverityError, `C._ready reads "log_levle" of the charm's typed config, which names no option the charm's YAML declares and no member of the config class: it raises AttributeError`},
		{linker.Finding{Kind: linker.FindUndeclaredStorage, Subject: "data", Site: linker.Site{Symbol: "C._ready", Detail: "assert"}},
			SeverityError, `C._ready asserts that storage "data" is there, which the charm's YAML does not declare: the assertion always fails`},
	} {
		if d := findingDiagnostic(c.f); d.Severity != c.sev || d.Message != c.want {
			t.Errorf("%s %s: %s %q\nwant %s %q", c.f.Kind, c.f.Subject, d.Severity, d.Message, c.sev, c.want)
		}
	}
}

func TestTolerantLookupOfUndeclaredName(t *testing.T) {
	// relation_ids("cache") or storage_list("journal") of an undeclared name finds nothing and
	// raises nothing: a warning that names the function; is_flag_set of an endpoint flag, a
	// flag never set; is_relation_made, a relation never made; get_relation_ip, the private
	// address instead of the binding's; network_get, an exception.
	for _, c := range []struct {
		f    linker.Finding
		want string
	}{
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "cache", Site: linker.Site{Symbol: "install"}, LookedUp: "relation_ids"},
			`install looks up relation endpoint "cache" with relation_ids(), which the charm's YAML does not declare: it always finds nothing`},
		{linker.Finding{Kind: linker.FindUndeclaredStorage, Subject: "journal", Site: linker.Site{Symbol: "install"}, LookedUp: "storage_list"},
			`install looks up storage "journal" with storage_list(), which the charm's YAML does not declare: it always finds nothing`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "proxy", Site: linker.Site{Symbol: "configure"}, LookedUp: "is_flag_set"},
			`configure tests a flag of relation endpoint "proxy" with is_flag_set(), which the charm's YAML does not declare: the flag is never set`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "ha", Site: linker.Site{Symbol: "configure"}, LookedUp: "is_relation_made"},
			`configure tests relation endpoint "ha" with is_relation_made(), which the charm's YAML does not declare: it is never made`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "gateway-relation", Site: linker.Site{Symbol: "gateway_relation"}, LookedUp: "get_relation_ip"},
			`gateway_relation asks get_relation_ip() for the address of binding "gateway-relation", which the charm's YAML does not declare (no endpoint, extra-binding or juju-info of that name): Juju has no such binding, and the unit's private address comes back instead`},
		{linker.Finding{Kind: linker.FindUndeclaredRelation, Subject: "publik", Site: linker.Site{Symbol: "configure"}, LookedUp: "network_get_primary_address"},
			`configure asks network_get_primary_address() for binding "publik", which the charm's YAML does not declare (no endpoint, extra-binding or juju-info of that name): Juju has no such binding, and the call raises`},
		// a hook joined from two literals (review rev121)
		{linker.Finding{Kind: linker.FindUnknownEvent, Subject: "installconfig-changed", Site: linker.Site{Symbol: "setup"}, Registered: "installconfig-changed", Joined: true},
			`setup is registered for hook "installconfig-changed", two adjacent string literals, which Python joins into one: is a comma missing between them? No hook of that name fires, so it never runs for either`},
	} {
		if d := findingDiagnostic(c.f); d.Severity != SeverityWarning || d.Message != c.want {
			t.Errorf("%s: %s %q\nwant warning %q", c.f.Subject, d.Severity, d.Message, c.want)
		}
	}
}

func TestRelationMismatchWording(t *testing.T) {
	// A library that raises in its constructor on the endpoint's side or interface: an error
	// that says what the library requires and what the YAML declares.
	for _, c := range []struct {
		f    linker.Finding
		want string
	}{
		{linker.Finding{Kind: linker.FindRelationMismatch, Subject: "metrics", Mismatch: "role", Expected: "provides", Declared: "requires",
			Site: linker.Site{Symbol: "C.__init__", Detail: "MetricsEndpointProvider"}},
			`C.__init__ binds relation endpoint "metrics" to MetricsEndpointProvider, whose constructor requires it under provides and raises RelationRoleMismatchError: the charm's YAML declares it under requires`},
		{linker.Finding{Kind: linker.FindRelationMismatch, Subject: "dashboards", Mismatch: "interface", Expected: "grafana_dashboard", Declared: "dashboard",
			Site: linker.Site{Symbol: "C.__init__", Detail: "GrafanaDashboardProvider"}},
			`C.__init__ binds relation endpoint "dashboards" to GrafanaDashboardProvider, whose constructor requires interface "grafana_dashboard" and raises RelationInterfaceMismatchError: the charm's YAML declares interface "dashboard"`},
	} {
		if d := findingDiagnostic(c.f); d.Severity != SeverityError || d.Rule != RuleRelationMismatch || d.Message != c.want {
			t.Errorf("%s: %s %s %q\nwant error %q", c.f.Subject, d.Rule, d.Severity, d.Message, c.want)
		}
	}
}

func TestConfigIndexAfterATest(t *testing.T) {
	// config["url"] of an option without a default, in code that also tests for it
	// ("url" in self.config), may be checked first: an info that says so.
	decl := &charmyaml.Charm{Config: []charmyaml.ConfigOption{{Name: "url"}}}
	in := linker.Interface{Kind: linker.KindConfig, Name: "url", Reads: []linker.Site{
		{File: "src/charm.py", Line: 8, Symbol: "C._url", Via: linker.ViaConfig, Detail: "in"},
		{File: "src/charm.py", Line: 9, Symbol: "C._url", Via: linker.ViaConfig, Detail: "index"},
	}}
	var got []Diagnostic
	checkConfigIndex(decl, in, func(d Diagnostic) { got = append(got, d) })
	want := `C._url reads config["url"], which has no default and raises KeyError while unset; use .get() or declare a default (the option is also tested for, which may check it first)`
	if len(got) != 1 || got[0].Severity != SeverityInfo || got[0].Message != want || got[0].Line != 9 {
		t.Errorf("got %+v\nwant one info at line 9: %s", got, want)
	}
}

func TestRetiredInterfacesAreInfos(t *testing.T) {
	// An option or action whose description says it is deprecated or has no effect is kept, unread,
	// for the deployments that still set it: an info that quotes the description. Words that also
	// describe a value ("ignored when empty", "unused connections") leave a warning.
	charms := []charmyaml.Charm{{Name: "a", Dir: ".",
		Config: []charmyaml.ConfigOption{
			{Name: "web_external_url", Description: "DEPRECATED. This config option is no longer used.", Pos: pos("config.yaml", 2)},
			{Name: "python-version", Description: "THIS OPTION IS DEPRECATED AND HAS NO EFFECT", Pos: pos("config.yaml", 5)},
			{Name: "proxy", Description: "Proxy URL; ignored when empty.", Pos: pos("config.yaml", 8)},
			{Name: "idle", Description: "Seconds before unused connections close.", Pos: pos("config.yaml", 11)},
			{Name: "legacy-mode", Description: "Obsolete: kept for upgrades, " + strings.Repeat("and more words ", 8), Pos: pos("config.yaml", 14)},
			{Name: "bucket", Description: "This config option does nothing: the relation names the bucket.", Pos: pos("config.yaml", 17)},
			{Name: "retries", Description: "How often it retries; a retry that does nothing is logged.", Pos: pos("config.yaml", 20)},
		},
		Actions: []charmyaml.Action{{Name: "resync", Description: "No longer supported; use refresh.", Pos: pos("actions.yaml", 1)}},
	}}
	var ifs []linker.Interface
	for _, o := range charms[0].Config {
		ifs = append(ifs, linker.Interface{Kind: linker.KindConfig, Name: o.Name, File: o.File, Line: o.Line})
	}
	ifs = append(ifs, linker.Interface{Kind: linker.KindAction, Name: "resync", File: "actions.yaml", Line: 1},
		linker.Interface{Kind: linker.KindLifecycle, Name: "install",
			Handlers: []linker.Handler{{Event: "install", Symbol: "ACharm._on_install", File: "src/charm.py", Line: 40, Via: linker.ViaObserve}}})
	var b strings.Builder
	if err := WriteText(&b, Run(charms, linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: ifs}}}, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `actions.yaml:1: info: no code observes action "resync" (its description: "No longer supported; use refresh.") [unhandled-action]
config.yaml:2: info: no code reads config option "web_external_url" (its description: "DEPRECATED. This config option is no longer used.") [unused-config]
config.yaml:5: info: no code reads config option "python-version" (its description: "THIS OPTION IS DEPRECATED AND HAS NO EFFECT") [unused-config]
config.yaml:8: warning: no code reads config option "proxy" [unused-config]
config.yaml:11: warning: no code reads config option "idle" [unused-config]
config.yaml:14: info: no code reads config option "legacy-mode" (its description: "Obsolete: kept for upgrades, and more words and more words and more words and m…") [unused-config]
config.yaml:17: info: no code reads config option "bucket" (its description: "This config option does nothing: the relation names the bucket.") [unused-config]
config.yaml:20: warning: no code reads config option "retries" [unused-config]
0 errors, 3 warnings, 5 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestOptionalReadInSharedCodeIsAnInfo(t *testing.T) {
	// Shared code reads an option with .get() that a sibling charm declares: for the charm that
	// leaves it out that is an opt-in it lacks by design, an info; a [] read of it is still an
	// error, and so is a .get() of an option no charm declares.
	charms := []charmyaml.Charm{{Name: "a", Dir: "charms/a"}, {Name: "b", Dir: "charms/b",
		Config: []charmyaml.ConfigOption{{Name: "devmode", Pos: pos("charms/b/config.yaml", 2)}, {Name: "port", HasDefault: true, Default: "80", Pos: pos("charms/b/config.yaml", 5)}}}}
	shared := "lib/base.py"
	observe := linker.Interface{Kind: linker.KindLifecycle, Name: "install",
		Handlers: []linker.Handler{{Event: "install", Symbol: "Base._on_install", File: shared, Line: 4, Via: linker.ViaObserve}}}
	links := linker.Result{Charms: []linker.CharmLinks{
		{Name: "a", Dir: "charms/a", Interfaces: []linker.Interface{observe}, Findings: []linker.Finding{
			{Kind: linker.FindUndeclaredConfig, Subject: "devmode", Site: linker.Site{File: shared, Line: 10, Symbol: "Base.snap", Via: linker.ViaConfig, Detail: "get"}},
			{Kind: linker.FindUndeclaredConfig, Subject: "port", Site: linker.Site{File: shared, Line: 12, Symbol: "Base.serve", Via: linker.ViaConfig, Detail: "index"}},
			{Kind: linker.FindUndeclaredConfig, Subject: "nobody", Site: linker.Site{File: shared, Line: 14, Symbol: "Base.serve", Via: linker.ViaConfig, Detail: "get"}},
		}},
		{Name: "b", Dir: "charms/b", Interfaces: []linker.Interface{observe,
			{Kind: linker.KindConfig, Name: "devmode", File: "charms/b/config.yaml", Line: 2, Reads: []linker.Site{{File: shared, Line: 10, Via: linker.ViaConfig, Detail: "get"}}},
			{Kind: linker.KindConfig, Name: "port", File: "charms/b/config.yaml", Line: 5, Reads: []linker.Site{{File: shared, Line: 12, Via: linker.ViaConfig, Detail: "index"}}}}},
	}}
	var b strings.Builder
	if err := WriteText(&b, Run(charms, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `lib/base.py:10: info: Base.snap reads config option "devmode" with .get(), which the charm's YAML does not declare: it always gets the default (in code shared with charms that declare it: b) (in charm a) [undeclared-config]
lib/base.py:12: error: Base.serve reads config option "port", which the charm's YAML does not declare (in charm a) [undeclared-config]
lib/base.py:14: error: Base.serve reads config option "nobody" with .get(), which the charm's YAML does not declare: it always gets the default (in charm a) [undeclared-config]
2 errors, 0 warnings, 1 info
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

func TestUndeclaredNameUnderMisspelledKey(t *testing.T) {
	// A name the code uses that the YAML writes under a misspelled key (providers:) is still
	// undeclared, and the report says where its declaration went; a name of another kind, or
	// written nowhere, is reported plainly.
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Misfiled: []charmyaml.Misfiled{
		{Name: "metrics", Key: "providers", Section: "provides", Pos: pos("metadata.yaml", 5)},
		{Name: "port", Key: "options", Section: "config", Pos: pos("charmcraft.yaml", 9)},
	}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredRelation, Subject: "metrics", Site: linker.Site{File: "src/charm.py", Line: 12, Symbol: "ACharm.__init__"}},
		{Kind: linker.FindUndeclaredConfig, Subject: "port", Site: linker.Site{File: "src/charm.py", Line: 14, Symbol: "ACharm._port"}},
		{Kind: linker.FindUndeclaredAction, Subject: "metrics", Site: linker.Site{File: "src/charm.py", Line: 16, Symbol: "ACharm.__init__"}},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run(charms, links, Options{})); err != nil {
		t.Fatal(err)
	}
	want := `src/charm.py:12: error: ACharm.__init__ uses relation endpoint "metrics", which the charm's YAML does not declare (metadata.yaml:5 has it under "providers", a key Juju ignores; "provides" would declare it) [undeclared-relation]
src/charm.py:14: error: ACharm._port reads config option "port", which the charm's YAML does not declare (charmcraft.yaml:9 has it under "options", a key Juju ignores; "options" under "config" would declare it) [undeclared-config]
src/charm.py:16: error: ACharm.__init__ observes action "metrics", which the charm's YAML does not declare [undeclared-action]
3 errors, 0 warnings, 0 infos
`
	if got := b.String(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

// TestUndeclaredNameSaysWhatIsDeclared: an undeclared name a letter or two (or a '_' for a '-')
// from one declared name of its kind says which; a relation's interface used as its name says
// whose; two equally near names, or none near, add nothing. An unknown event says which of the
// charm's events is a letter or two, or one word, from it.
func TestUndeclaredNameSaysWhatIsDeclared(t *testing.T) {
	charms := []charmyaml.Charm{{Name: "a", Dir: ".",
		Config:     []charmyaml.ConfigOption{{Name: "port"}, {Name: "log-level"}, {Name: "mode-a"}, {Name: "mode-b"}},
		Relations:  []charmyaml.Relation{{Name: "vault", Interface: "vault-kv"}, {Name: "db", Interface: "pgsql"}, {Name: "db2", Interface: "pgsql"}},
		Containers: []charmyaml.Container{{Name: "workload"}},
		Actions:    []charmyaml.Action{{Name: "rotate", Params: []charmyaml.Param{{Name: "force"}}}, {Name: "other", Params: []charmyaml.Param{{Name: "forced"}}}},
	}}
	site := func(line int) linker.Site { return linker.Site{File: "src/charm.py", Line: line, Symbol: "ACharm.f"} }
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredConfig, Subject: "prot", Site: site(1)},
		{Kind: linker.FindUndeclaredConfig, Subject: "log_level", Site: site(2)},
		{Kind: linker.FindUndeclaredConfig, Subject: "mode-c", Site: site(3)},
		{Kind: linker.FindUndeclaredConfig, Subject: "timeout", Site: site(4)},
		{Kind: linker.FindUndeclaredRelation, Subject: "vault-kv", Site: site(5)},
		{Kind: linker.FindUndeclaredRelation, Subject: "pgsql", Site: site(6)},
		{Kind: linker.FindUndeclaredContainer, Subject: "workoad", Site: site(7)},
		{Kind: linker.FindUndeclaredParam, Subject: "forse", Actions: []string{"rotate"}, Site: site(8)},
		{Kind: linker.FindUnknownEvent, Subject: "vault_joined", Site: site(9)},
		{Kind: linker.FindUnknownEvent, Subject: "workload_ready", Site: site(10)},
		{Kind: linker.FindUnknownEvent, Subject: "db_relation_broke", Site: site(11)},
		{Kind: linker.FindUnknownEvent, Subject: "reconcile", Site: site(12)},
		{Kind: linker.FindUnknownEvent, Subject: "certificate_removed", Events: []string{"certificate_available", "certificates_removed"},
			Site: linker.Site{File: "src/charm.py", Line: 13, Symbol: "ACharm.f", Detail: "CertificateTransferRequires"}},
		{Kind: linker.FindUnknownEvent, Subject: "db-relation-chnaged", Registered: "db-relation-chnaged", Site: linker.Site{File: "hooks/hooks.py", Line: 14, Symbol: "db_changed"}},
		{Kind: linker.FindMissingHandler, Subject: "_on_strt", Site: linker.Site{File: "src/charm.py", Line: 15, Symbol: "ACharm.__init__", Detail: "near", Key: "_on_start"}},
		{Kind: linker.FindUndeclaredRelation, Subject: "vaults", Site: linker.Site{File: "src/charm.py", Line: 16, Symbol: "ACharm.__init__", Detail: "near"}},
	}}}}
	var b strings.Builder
	if err := WriteText(&b, Run(charms, links, Options{})); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{
		`src/charm.py:1: error: ACharm.f reads config option "prot", which the charm's YAML does not declare (did you mean "port"?) [undeclared-config]`,
		`"log_level", which the charm's YAML does not declare (did you mean "log-level"?) [`,
		`"mode-c", which the charm's YAML does not declare [`,
		`"timeout", which the charm's YAML does not declare [`,
		`"vault-kv", which the charm's YAML does not declare ("vault-kv" is the interface of relation "vault") [`,
		`"pgsql", which the charm's YAML does not declare [`,
		`"workoad", which the charm's YAML does not declare (did you mean "workload"?) [`,
		`action parameter "forse", which action "rotate" does not declare (did you mean "force"?) [`,
		`src/charm.py:9: error: ACharm.f observes event "vault_joined", which the charm does not have: ops defines no such event for its YAML, and the attribute lookup raises AttributeError (did you mean "vault_relation_joined"?) [unknown-event]`,
		`event "workload_ready", which the charm does not have: ops defines no such event for its YAML, and the attribute lookup raises AttributeError (did you mean "workload_pebble_ready"?) [`,
		`event "db_relation_broke", which the charm does not have: ops defines no such event for its YAML, and the attribute lookup raises AttributeError (did you mean "db_relation_broken"?) [`,
		`event "reconcile", which the charm does not have: ops defines no such event for its YAML, and the attribute lookup raises AttributeError [`,
		`src/charm.py:13: error: ACharm.f observes event "certificate_removed" of a CertificateTransferRequires, whose events class defines no such event: the attribute lookup raises AttributeError (did you mean "certificates_removed"?) [unknown-event]`,
		`hooks/hooks.py:14: warning: db_changed is registered for hook "db-relation-chnaged", which is no hook Juju runs: the function never runs for it (did you mean "db-relation-changed"?) [unknown-event]`,
		`src/charm.py:16: warning: ACharm.__init__ gives relation endpoint "vaults" by position to a library the tree does not hold, which the charm's YAML does not declare (did you mean "vault"?) [undeclared-relation]`,
		`src/charm.py:15: warning: ACharm.__init__ observes an event with handler "_on_strt", which its class and its bases in the tree do not define, a letter or two from their method "_on_start" (a base from outside the tree is not read) [missing-handler]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

func TestRelationOnlyACatchAllObserves(t *testing.T) {
	// A handler observing every relation (a reconciler's) runs on a relation's events, but a
	// relation nothing binds, looks up or observes by name is an info naming that handler; one
	// that also has a handler of its own, or a read, is not reported.
	catchAll := linker.Handler{Event: "backend_relation_changed", Symbol: "DemoCharm._reconcile", File: "src/charm.py", Line: 20,
		Via: linker.ViaObserve, ObserveFile: "src/charm.py", ObserveLine: 9, Loose: true, CatchAll: true}
	own := linker.Handler{Event: "backend_relation_joined", Symbol: "DemoCharm._on_backend", File: "src/charm.py", Line: 30,
		Via: linker.ViaObserve, ObserveFile: "src/charm.py", ObserveLine: 10}
	for _, tc := range []struct {
		handlers []linker.Handler
		reads    []linker.Site
		want     string
	}{
		{[]linker.Handler{catchAll}, nil, `info: no code binds or looks up relation "backend", nor observes it by name (only DemoCharm._reconcile, observed for every relation at src/charm.py:9, runs on its events)`},
		{[]linker.Handler{catchAll, own}, nil, ""},
		{[]linker.Handler{catchAll}, []linker.Site{{File: "src/charm.py", Line: 12, Via: linker.ViaLookup}}, ""},
		{nil, nil, `warning: no code observes, binds or looks up relation "backend"`},
	} {
		charm := charmyaml.Charm{Name: "demo", Dir: ".", Relations: []charmyaml.Relation{
			{Name: "backend", Role: charmyaml.RoleRequires, Interface: "http", Pos: pos("metadata.yaml", 8)}}}
		links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Interfaces: []linker.Interface{
			{Kind: linker.KindRelation, Name: "backend", Role: charmyaml.RoleRequires, Interface: "http", File: "metadata.yaml", Line: 8,
				Handlers: tc.handlers, Reads: tc.reads}}}}}
		got := ""
		for _, d := range Run([]charmyaml.Charm{charm}, links, Options{}).Diagnostics {
			if d.Rule == RuleUnhandledRelation {
				got = d.Severity + ": " + d.Message
			}
		}
		if got != tc.want {
			t.Errorf("%d handlers, %d reads:\n got  %s\n want %s", len(tc.handlers), len(tc.reads), got, tc.want)
		}
	}
}

func TestFindingAfterAGuardIsAnError(t *testing.T) {
	// An undeclared name on a function's usual path, after an early return under a condition
	// (a leader or lock guard), stays an error; one under the condition itself is a warning
	// (review rev103).
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Relations: []charmyaml.Relation{{Name: "receive-ca-cert"}}}}
	site := func(line int, guard bool) linker.Site {
		return linker.Site{File: "src/charm.py", Line: line, Symbol: "ACharm.__init__", Conditional: true, AfterGuard: guard}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredRelation, Subject: "receive-ca-certs", Site: site(57, true)},
		{Kind: linker.FindUndeclaredRelation, Subject: "receive-ca-certz", Site: site(60, false)},
		{Kind: linker.FindUndeclaredRelation, Subject: "receive-ca-cert_", Site: linker.Site{File: "src/charm.py", Line: 70,
			Symbol: "ACharm._on_x", Conditional: true, AfterGuard: true, Leader: true}},
	}}}}
	d := Run(charms, links, Options{}).Diagnostics
	sev, msg := map[int]string{}, map[int]string{}
	for _, x := range d {
		sev[x.Line], msg[x.Line] = x.Severity, x.Message
	}
	if sev[57] != SeverityError || sev[60] != SeverityWarning || sev[70] != SeverityError {
		t.Errorf("severities %v: want an error after the guard and in a leader's body, a warning under a condition", sev)
	}
	if !strings.Contains(msg[70], "(in code the leader runs: whenever this unit is the leader)") || !strings.Contains(msg[57], "after an early return") {
		t.Errorf("messages %v", msg)
	}
}

func TestConstructorDefaultMessage(t *testing.T) {
	// One finding at the constructor whose default names an undeclared relation, with the
	// lines that use it.
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Relations: []charmyaml.Relation{{Name: "cluster"}}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{{Kind: linker.FindUndeclaredRelation, Subject: "clustr",
		Site: linker.Site{File: "src/peer.py", Line: 4, Symbol: "Peer.__init__", Detail: "default", Key: "endpoint"}, Uses: []int{9, 12}}}}}}
	d := Run(charms, links, Options{}).Diagnostics
	if len(d) != 1 || d[0].Severity != SeverityError || !strings.Contains(d[0].Message, `Peer.__init__ defaults parameter endpoint to relation endpoint "clustr", which the charm's YAML does not declare (used at lines 9, 12)`) {
		t.Errorf("diagnostics %+v", d)
	}
}

func TestRoleByNameIsAWarning(t *testing.T) {
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Relations: []charmyaml.Relation{{Name: "db", Role: "requires"}}}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Findings: []linker.Finding{{Kind: linker.FindRelationMismatch, Subject: "db",
		Site: linker.Site{File: "src/charm.py", Line: 7, Symbol: "ACharm.__init__", Detail: "DatabaseProvides"}, Mismatch: "role-name", Expected: "provides", Declared: "requires"}}}}}
	d := Run(charms, links, Options{}).Diagnostics
	if len(d) != 1 || d[0].Severity != SeverityWarning || !strings.Contains(d[0].Message, `binds relation endpoint "db" to DatabaseProvides, which by its name (and its counterpart's in its module) plays the provides side: the charm's YAML declares it under requires`) {
		t.Errorf("diagnostics %+v", d)
	}
}

func TestConfigIndexAfterAGuard(t *testing.T) {
	// config["x"] of an option without a default after an early return under a condition that
	// tests another option (rev109: parca's slo-latency-target) is on the usual path: a
	// warning; under the condition itself, an info.
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Config: []charmyaml.ConfigOption{{Name: "slo-latency-target", Pos: charmyaml.Pos{File: "config.yaml", Line: 3}}}}}
	read := func(line int, guard bool) linker.Site {
		return linker.Site{File: "src/charm.py", Line: line, Symbol: "ACharm._spec", Via: linker.ViaConfig, Detail: "index", Conditional: true, AfterGuard: guard}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{{Kind: linker.KindConfig, Name: "slo-latency-target",
		File: "config.yaml", Line: 3, Reads: []linker.Site{read(10, true), read(20, false)}}}}}}
	got := map[int]string{}
	for _, d := range Run(charms, links, Options{}).Diagnostics {
		if d.Rule == RuleConfigNoDefaultIndex {
			got[d.Line] = d.Severity
		}
	}
	if want := map[int]string{10: SeverityWarning, 20: SeverityInfo}; !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParamIndexWithoutDefault(t *testing.T) {
	// An optional parameter with no default read by index raises KeyError when the operator
	// leaves it out (review rev103): a warning; a required one, one with a default, a .get()
	// are not reported; a read under a condition, or of a parameter also read with .get(),
	// is an info.
	charms := []charmyaml.Charm{{Name: "a", Dir: ".", Actions: []charmyaml.Action{{Name: "create", Required: []string{"schema"},
		Params: []charmyaml.Param{{Name: "password"}, {Name: "schema"}, {Name: "traits", HasDefault: true}, {Name: "name"}, {Name: "email"}},
		Pos:    charmyaml.Pos{File: "actions.yaml", Line: 1}}}}}
	read := func(line int, key, how string, cond bool) linker.Site {
		return linker.Site{File: "src/charm.py", Line: line, Symbol: "ACharm._on_create", Via: linker.ViaParam, Detail: how, Key: key, Conditional: cond}
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", Interfaces: []linker.Interface{{Kind: linker.KindAction, Name: "create",
		File: "actions.yaml", Line: 1, Handlers: []linker.Handler{{Event: "create_action", Symbol: "ACharm._on_create", File: "src/charm.py", Line: 9, Via: linker.ViaObserve}},
		Reads: []linker.Site{read(10, "password", "index", false), read(11, "schema", "index", false), read(12, "traits", "index", false),
			read(13, "name", "index", true), read(14, "email", "get", false), read(15, "email", "index", false),
			{File: "src/charm.py", Line: 16, Symbol: "ACharm._on_create", Via: linker.ViaParam, Detail: "index", Key: "password", Conditional: true, AfterGuard: true}}}}}}}
	got := map[int]string{}
	for _, d := range Run(charms, links, Options{}).Diagnostics {
		if d.Rule == RuleParamNoDefaultIndex {
			got[d.Line] = d.Severity
		}
	}
	want := map[int]string{10: SeverityWarning, 13: SeverityInfo, 15: SeverityInfo, 16: SeverityWarning} // 16: after a guard
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
