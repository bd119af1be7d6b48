package app

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/rank"
	"github.com/cantrip-dev/charmcraft-map/repomap"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

func runLocate(t *testing.T, o LocateOptions) (Located, string, error) {
	t.Helper()
	o.NoCache = true
	o.Format = "json"
	var out, errb bytes.Buffer
	err := RunLocate(o, IO{Out: &out, Err: &errb})
	if err != nil {
		return Located{}, errb.String(), err
	}
	var doc struct {
		SchemaVersion *int `json:"schema_version"`
		Located
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("locate printed no JSON document: %v\n%s", err, out.String())
	}
	if doc.SchemaVersion == nil || *doc.SchemaVersion != 1 || doc.Edit == nil || doc.Read == nil {
		t.Fatalf("locate document lacks schema_version 1, edit or read:\n%s", out.String())
	}
	return doc.Located, errb.String(), nil
}

func paths(picks []Pick) []string {
	var out []string
	for _, p := range picks {
		out = append(out, p.Path)
	}
	return out
}

// TestLocateFindsRelationHandler asks, for every relation of every clean fixture whose
// handlers live outside the charm's entry point, about that relation's behaviour, and wants
// one of its handler modules among the first three edit picks.
func TestLocateFindsRelationHandler(t *testing.T) {
	asked := 0
	for _, name := range []string{"unified", "split", "monorepo", "patterns-wiring"} {
		root := filepath.Join(charmsDir, name)
		tree, err := repomap.Load(repomap.Options{Root: root, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range tree.Link().Charms {
			for _, it := range ch.Interfaces {
				var modules []string
				for _, h := range it.Handlers {
					if c := rank.Classify(h.File, tree.Charms); c == rank.ClassSource && filepath.Base(h.File) != "charm.py" {
						modules = append(modules, h.File)
					}
				}
				if it.Kind != linker.KindRelation || len(modules) == 0 {
					continue
				}
				asked++
				text := "the " + it.Name + " relation does not react when the remote unit changes its data"
				got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
				if err != nil {
					t.Fatal(err)
				}
				top := paths(got.Edit)[:min(3, len(got.Edit))]
				if !slices.ContainsFunc(top, func(p string) bool { return slices.Contains(modules, p) }) {
					t.Errorf("%s: %q: top three %v hold none of the handler modules %v", name, text, top, modules)
				}
			}
		}
	}
	if asked < 4 {
		t.Fatalf("only %d relations handled outside charm.py in the fixtures", asked)
	}
}

func TestLocateShape(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	text := "the ingress relation does not update the URL when the port changes"
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if got.Query != text || len(got.Edit) == 0 || len(got.Edit) > LocateEdit || len(got.Read) > LocateRead {
		t.Fatalf("locate = %+v", got)
	}
	if got.Edit[0].Path != "src/relations.py" || !strings.Contains(got.Edit[0].Why[0], "ingress") {
		t.Errorf("first edit pick = %+v, want src/relations.py for the ingress relation", got.Edit[0])
	}
	seen := map[string]bool{}
	for _, p := range append(slices.Clone(got.Edit), got.Read...) {
		if seen[p.Path] {
			t.Errorf("%s picked twice", p.Path)
		}
		seen[p.Path] = true
		if len(p.Why) == 0 || p.Score <= 0 {
			t.Errorf("%s: score %g, why %q", p.Path, p.Score, p.Why)
		}
	}
	best := 0.0
	for _, p := range got.Edit {
		if strings.HasPrefix(p.Path, "lib/") || strings.HasPrefix(p.Path, "tests/") {
			t.Errorf("edit picks %s for a task about neither libraries nor tests", p.Path)
		}
		best = max(best, p.Score)
	}
	for _, p := range got.Edit {
		if p.Score < MinEditShare*best && !strings.Contains(p.Why[0], "relation the task names") {
			t.Errorf("edit pick %s scores %g, under %g of the best %g: filler", p.Path, p.Score, MinEditShare, best)
		}
	}
	if !got.Matched || !got.Edit[0].Tied {
		t.Errorf("matched %v, first pick tied %v: the task names the ingress relation", got.Matched, got.Edit[0].Tied)
	}
	edits := paths(got.Edit)
	for _, p := range got.Read {
		if !slices.ContainsFunc(p.Why, func(w string) bool {
			return slices.ContainsFunc(edits, func(e string) bool { return strings.Contains(w, e) })
		}) {
			t.Errorf("read pick %s names no edit pick in its reasons %q", p.Path, p.Why)
		}
	}

	var out bytes.Buffer
	if err := RunLocate(LocateOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, Text: text}, IO{Out: &out, Err: &out}); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, "edit:\n  src/relations.py (") || !strings.Contains(s, "\nread:\n") {
		t.Errorf("text output:\n%s", s)
	}
}

func TestLocateTestsAndFocus(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "add a unit test for the workload settings rendering"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(paths(got.Edit), func(p string) bool { return strings.HasPrefix(p, "tests/") }) {
		t.Errorf("a task about tests picks no test to edit: %v", paths(got.Edit))
	}
	got, _, err = runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "log the page count", Focus: []string{"src/workload.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(paths(got.Edit), "src/workload.py"); i < 0 || !slices.Contains(got.Edit[i].Why, "focused: the agent is working on it") {
		t.Errorf("the focused file is not an edit pick with its reason: %+v", got.Edit)
	}
	if slices.Contains(paths(got.Read), "src/workload.py") {
		t.Errorf("the focused file is also a read pick: %v", paths(got.Read))
	}
}

func TestLocateTestsNamedForTheTask(t *testing.T) {
	// Tests are ordered by how well their text matches the task, a test named for what the
	// task names half as much again per word (TestNameWordBoost): test_workload.py for the
	// workload's export, though test_charm.py has more of the words; not when the text of
	// test_charm.py matches far better.
	root := filepath.Join(charmsDir, "unified")
	for text, want := range map[string]string{
		"add unit tests for the workload export pages action":                            "tests/unit/test_workload.py",
		"add unit tests for workload reindex with the peers relation and admin password": "tests/unit/test_charm.py",
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(paths(got.Edit), func(p string) bool { return strings.HasPrefix(p, "tests/") }); i < 0 || got.Edit[i].Path != want {
			t.Errorf("%q: edit %v, want %s the first test", text, paths(got.Edit), want)
		}
	}
}

func TestLocateTestsAfterTheCode(t *testing.T) {
	// A subject that opens on the code and asks for tests in a later clause lists its best
	// code pick first, the tests after it (review rev122: gitlab-runner's "update apt_key on
	// charm upgrade, fix unit test" led with a test scoring 0.01 against 0.67); one that
	// opens on the tests lists them first.
	root := filepath.Join(charmsDir, "unified")
	for text, testFirst := range map[string]bool{
		"fix the unit tests for the workload export pages":               true,
		"export the workload pages on upgrade, fix unit tests":           false,
		"export the workload pages; add unit tests":                      false,
		"Merge pull request #3 from o/x\n\nfix unit tests, export pages": true,
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(paths(got.Edit), func(p string) bool { return strings.HasPrefix(p, "tests/") })
		if i < 0 || (i == 0) != testFirst {
			t.Errorf("%q: edit %v, a test first: %v", text, paths(got.Edit), testFirst)
		}
	}
	for text, want := range map[string]bool{"fix unit tests, export pages": true, "export pages, fix unit tests": false,
		"prevent the db creation during unittest": true, "Handle upgrades, prevent db creation during unittest": false,
		"Reacts to the change in the site API. - Adds test cases. - Fixes tox issues": false,
		"Update the token - add unit tests":                                           false, "Add unit tests. Fix the token": true} {
		if got := testsLead(text); got != want {
			t.Errorf("testsLead(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAsksForTests(t *testing.T) {
	for text, want := range map[string]testsAsked{
		"add a unit test for the workload settings rendering":                 unitTests,
		"fix the flaky integration tests":                                     wideTests,
		"test: update unit-tests":                                             unitTests,
		"the test case for backups fails":                                     anyTests,
		"Add pytest fixtures":                                                 anyTests,
		"the test_name config option is not passed to the benchmark workload": noTests,
		"implement the get-summary action so users can retrieve test results": noTests,
		"the benchmark test results are not uploaded to the peer relation":    noTests,
		"log the page count":                                                  noTests,
		"the test-name config option is ignored":                              noTests,
		"upload the test results to the bucket":                               noTests,
		"add a test for the relation":                                         anyTests,
		"Enable bionic/stein and disco/stein functional tests":                wideTests,
		"add unit and integration tests for the ingress relation":             anyTests,
		"Fix unittests for the new context":                                   unitTests,
		// the subject decides: the body's tests are what else the change touched
		"Use the bus to get the charm instance\n\nUpdate unit tests to use the new helpers.": noTests,
		"Merge pull request #7 from o/fix-tests\n\nAdd integration tests for backups":        wideTests,
	} {
		if got := asksForTests(text); got != want {
			t.Errorf("asksForTests(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestTestsAskedTakes(t *testing.T) {
	for _, c := range []struct {
		ask  testsAsked
		path string
		want bool
	}{
		{unitTests, "tests/unit/test_charm.py", true},
		{unitTests, "unit_tests/test_hooks.py", true},
		{unitTests, "tests/integration/test_charm.py", false},
		{wideTests, "tests/integration/test_charm.py", true},
		{wideTests, "tests/functional/tests/test_ha.py", true},
		{wideTests, "tests/test_integration_db.py", true},
		{wideTests, "unit_tests/test_hooks.py", false},
		{anyTests, "unit_tests/test_hooks.py", true},
		{noTests, "tests/unit/test_charm.py", false},
	} {
		if got := c.ask.takes(c.path); got != c.want {
			t.Errorf("%v.takes(%q) = %v, want %v", c.ask, c.path, got, c.want)
		}
	}
}

func TestLocateUsageErrors(t *testing.T) {
	for _, o := range []LocateOptions{
		{Common: Common{Root: filepath.Join(charmsDir, "unified"), Format: "json"}, Text: "  "},
		{Common: Common{Root: filepath.Join(charmsDir, "unified"), Format: "xml"}, Text: "ingress"},
		{Common: Common{Root: filepath.Join(t.TempDir(), "nope"), Format: "json"}, Text: "ingress"},
	} {
		var out, errb bytes.Buffer
		err := RunLocate(o, IO{Out: &out, Err: &errb})
		if ExitCode(err) != ExitFailure || out.Len() != 0 {
			t.Errorf("%+v: exit %d, printed %q", o, ExitCode(err), out.String())
		}
	}
}

func TestRelationNamedByItsEvents(t *testing.T) {
	// A text that speaks of relation events names the relations it mentions without the
	// word "relation"; without such words a bare name still does not count.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "kafka", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "oauth", Handlers: []linker.Handler{{File: "src/events/oauth.py", Symbol: "OAuthHandler._on_oauth_relation_changed"}}},
		{Kind: linker.KindRelation, Name: "kafka-client", Handlers: []linker.Handler{{File: "src/events/provider.py", Symbol: "Provider._on_client_changed"}}},
		{Kind: linker.KindRelation, Name: "cluster", Handlers: []linker.Handler{{File: "src/charm.py", Symbol: "KafkaCharm._on_cluster_changed"}}},
		// a catch-all observed for every relation (for name in self.model.relations) is no
		// relation's own handler
		{Kind: linker.KindRelation, Name: "s3-credentials", Handlers: []linker.Handler{{File: "src/lifecycle.py", Symbol: "Unit._on_departed", Loose: true, CatchAll: true},
			{File: "src/backups.py", Symbol: "Backups._on_s3_changed"}}},
		// a loop over events the charm lists (vault's configure_events) means each of them
		{Kind: linker.KindRelation, Name: "vault-pki", Handlers: []linker.Handler{{File: "src/vault.py", Symbol: "VaultCharm._configure", Loose: true}}},
		{Kind: linker.KindRelation, Name: "kafka-peers", Role: "peers", Handlers: []linker.Handler{{File: "src/peers.py", Symbol: "Peers._on_changed"}}},
		// a hook's own script handles it; the script every hook is a link to does not: the
		// code that looks the relation up does
		{Kind: linker.KindRelation, Name: "monitors", Handlers: []linker.Handler{{File: "hooks/monitors-relation-joined", Event: "monitors-relation-joined", Via: linker.ViaHookScript}}},
		{Kind: linker.KindRelation, Name: "nrpe-external-master", Handlers: []linker.Handler{{File: "hooks/nrpe_hooks.py", Event: "nrpe-external-master-relation-changed", Via: linker.ViaHookScript}},
			Reads: []linker.Site{{File: "hooks/nrpe_utils.py", Via: linker.ViaLookup}}},
	}}}}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"the oauth settings are stale when a unit joins", []string{"src/events/oauth.py"}},
		{"the oauth client secret is lost after the remote app departed", []string{"src/events/oauth.py"}},
		{"the oauth token expires too early", nil},
		{"the cluster and oauth data break on restart", nil},
		{"the oauth relation drops the scopes", []string{"src/events/oauth.py"}},
		{"the s3-credentials relation is not reconfigured", []string{"src/backups.py"}},
		{"the vault-pki relation is not reconfigured", []string{"src/vault.py"}},
		// the charm's one peer relation, by its role
		{"share the admin password over the peer relation", []string{"src/peers.py"}},
		{"prevent duplicate peer-relation-changed deferred events", []string{"src/peers.py"}},
		{"escape dots before they are written to the peer databag", []string{"src/peers.py"}},
		{"the peer review found a typo", nil},
		{"the monitors relation sends no checks", []string{"hooks/monitors-relation-joined"}},
		{"the nrpe-external-master relation sends no checks", []string{"hooks/nrpe_utils.py"}},
	} {
		got := slices.Sorted(maps.Keys(namedRelationHandlers(c.text, links)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: handlers of named relations %v, want %v", c.text, got, c.want)
		}
	}
}

func TestRelationNamedNotByTheCharmsName(t *testing.T) {
	// The charm's own name names the charm, even where a relation's interface is so called
	// (nova-compute's cloud-compute relation, interface nova-compute), unless a relation word
	// stands beside it; a relation found by its interface says so.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "nova-compute", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "cloud-compute", Interface: "nova-compute", Handlers: []linker.Handler{{File: "hooks/nova_compute_hooks.py", Symbol: "compute_changed"}}},
	}}}}
	byName := namedRelation{Name: "cloud-compute"}
	byInterface := namedRelation{Name: "cloud-compute", Interface: "nova-compute"}
	for text, want := range map[string][]namedRelation{
		"Enable vTPM support in nova-compute":              nil,
		"nova_compute: enable vTPM":                        nil,
		"the nova-compute relation sends the wrong region": {byInterface},
		"cloud-compute data is stale":                      {byName},
		"the cloud-compute relation (nova-compute) breaks": {byName},
	} {
		got := namedRelationHandlers(text, links)["hooks/nova_compute_hooks.py"]
		if !slices.Equal(got, want) {
			t.Errorf("%q: named %+v, want %+v", text, got, want)
		}
	}
	if got, want := byInterface.says(), "handles the cloud-compute relation, whose interface nova-compute the task names"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
}

func TestActionScriptThatHandlesIsOneReason(t *testing.T) {
	// An action's script that is a link to the file handling it (trilio's actions/update-trilio
	// -> actions.py) gives that file one reason, not two alike (review rev119); a script of its
	// own is the script's.
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "dm", Dir: ".", Interfaces: []linker.Interface{
		{Kind: linker.KindAction, Name: "update-trilio", Script: "src/actions/actions.py",
			Handlers: []linker.Handler{{File: "src/actions/actions.py", Symbol: "update_trilio"}}},
		{Kind: linker.KindAction, Name: "backup", Script: "actions/backup"},
	}}}}
	got := namedRelationHandlers("update-trilio action fails; the backup action too", links)
	if want := []namedRelation{{Name: "update-trilio", Action: true}}; !slices.Equal(got["src/actions/actions.py"], want) {
		t.Errorf("handler's file: %+v, want %+v", got["src/actions/actions.py"], want)
	}
	if want := []namedRelation{{Name: "backup", Action: true, Script: true}}; !slices.Equal(got["actions/backup"], want) {
		t.Errorf("script: %+v, want %+v", got["actions/backup"], want)
	}
}

func TestLeadsListedFirstSaySo(t *testing.T) {
	// A pick listed first because it handles the relation the task names, below a later
	// pick's score, says why the order differs from the scores; one that also scores highest
	// does not.
	edit := []Pick{
		{Path: "a.py", Score: 0.2, Why: []string{"handles the db relation the task names"}},
		{Path: "b.py", Score: 0.1, Why: []string{"handles the db relation the task names"}},
		{Path: "c.py", Score: 0.15, Why: []string{"its text has task words"}},
	}
	sayWhyFirst(edit, 0, 2, "a handler of the relation the task names")
	if got := [][]string{edit[0].Why, edit[1].Why, edit[2].Why}; len(got[0]) != 1 || len(got[2]) != 1 ||
		!slices.Equal(got[1], []string{"handles the db relation the task names", "listed before picks that score higher, as a handler of the relation the task names"}) {
		t.Errorf("reasons %q", got)
	}
}

func TestLocateNamesTemplates(t *testing.T) {
	// A template is named when it renders an option the task names, or the task writes its
	// file name (without the .j2); otherwise there is none.
	root := filepath.Join(charmsDir, "split")
	for text, want := range map[string][]string{
		"turn fsync off when memory-fraction is low":  {"renders option fsync (line 4), option memory-fraction (line 7), named in the task"},
		"raise the default log level in splitd.conf":  {"its file name matches the task (splitd.conf)"},
		"the splitd daemon listens on every address":  {"its file name has task words (splitd)"},
		"the ledger conf is not rendered":             nil, // the charm's own name, and a format's word
		"the memory-fraction in splitd.conf is wrong": {"renders option memory-fraction (line 7), named in the task", "its file name matches the task (splitd.conf)"},
		"the backup schedule is ignored":              nil,
		// two words of the first line in the template's text, neither a generic one
		"the cache fraction is ignored": {"its text has task words (cache, fraction)"},
		"the cache stops on a fault":    nil,
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		var text2 bytes.Buffer
		if err := RunLocate(LocateOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, Text: text}, IO{Out: &text2, Err: io.Discard}); err != nil {
			t.Fatal(err)
		}
		out := text2.String()
		if want == nil {
			if len(got.Templates) != 0 || strings.Contains(out, "templates:") {
				t.Errorf("%q: templates %+v", text, got.Templates)
			}
			continue
		}
		if len(got.Templates) != 1 || got.Templates[0].Path != "templates/splitd.conf.j2" || !slices.Equal(got.Templates[0].Why, want) {
			t.Errorf("%q: templates %+v, want templates/splitd.conf.j2 %q", text, got.Templates, want)
		}
		if !strings.Contains(out, "templates:\n  templates/splitd.conf.j2\n    - "+want[0]+"\n") {
			t.Errorf("%q: text\n%s", text, out)
		}
	}
}

func TestTemplateCopiesAreOnePick(t *testing.T) {
	// The copies of a template in each release's folder are one pick, the newest release's
	// (a year's release after the named ones), naming the others; a different template stays
	// a pick of its own.
	var tmpls []templates.File
	for _, p := range []string{"templates/2023.1/nova.conf", "templates/kilo/nova.conf", "templates/zed/nova.conf",
		"templates/2024.2/nova.conf", "templates/2024.10/nova.conf", "templates/zed/api-paste.ini"} {
		tmpls = append(tmpls, templates.File{Path: p})
	}
	got := templatePicks("fix the nova.conf rendering", nil, linker.Result{}, tmpls, nil, false, nil)
	if len(got) != 1 || got[0].Path != "templates/2024.10/nova.conf" || !slices.Equal(got[0].Why, []string{
		"its file name matches the task (nova.conf)",
		"the same template is also at templates/2024.2/nova.conf, templates/2023.1/nova.conf, templates/zed/nova.conf (+1 more)"}) {
		t.Errorf("picks %+v", got)
	}
}

func TestTemplatePickRules(t *testing.T) {
	files := func(paths ...string) (out []templates.File) {
		for _, p := range paths {
			out = append(out, templates.File{Path: p})
		}
		return out
	}
	picked := func(text string, tmpls []templates.File, writer *pyextract.File) (out []string) {
		var writers []*pyextract.File
		if writer != nil {
			writers = append(writers, writer)
		}
		for _, p := range templatePicks(text, nil, linker.Result{}, tmpls, nil, false, writers) {
			out = append(out, p.Path+": "+strings.Join(p.Why, "; "))
		}
		return out
	}
	// the first edit pick's strings write a template's name: it may render it; not when they
	// name three templates or more (a resource map of them all)
	charm := &pyextract.File{Path: "src/charm.py", Words: []string{"ausfcfg", "conf", "j2", "path"}}
	if got := picked("use the IP, not the FQDN", files("src/templates/ausfcfg.conf.j2", "src/templates/other.conf"), charm); !slices.Equal(got,
		[]string{"src/templates/ausfcfg.conf.j2: the words of its name (ausfcfg) are in the strings of src/charm.py, the first Python edit pick, which may render it"}) {
		t.Errorf("written: %q", got)
	}
	many := &pyextract.File{Path: "hooks/utils.py", Words: []string{"nova", "api", "paste", "neutron", "conf", "ini"}}
	if got := picked("use the IP", files("templates/nova.conf", "templates/api-paste.ini", "templates/neutron.conf"), many); len(got) != 0 {
		t.Errorf("a resource map's names: %q", got)
	}
	// a task's words for tests name no test fixture by its name (review rev110)
	fixtures := func(text string) (out []string) {
		for _, p := range templatePicks(text, nil, linker.Result{}, files("tests/unit/test_config/test_templates.tmpl"), nil, true, nil) {
			out = append(out, p.Path)
		}
		return out
	}
	if got := fixtures("add a unit test for the watchdog start command"); len(got) != 0 {
		t.Errorf("test fixture picked by the word test: %q", got)
	}
	if got := fixtures("add unit tests for the templates rendering"); len(got) != 1 {
		t.Errorf("test fixture named by the task not picked: %q", got)
	}
	// a word three templates' names share tells none apart
	if got := picked("the agent crashes", files("templates/dhcp_agent.ini", "templates/l3_agent.ini", "templates/metadata_agent.ini"), nil); len(got) != 0 {
		t.Errorf("shared word: %q", got)
	}
	// a vendored library's template only when the task writes its file name
	vendored := files("hooks/charmhelpers/contrib/openstack/templates/alias.conf")
	if got := picked("Accept lists in pci-alias", vendored, nil); len(got) != 0 {
		t.Errorf("vendored by a word: %q", got)
	}
	if got := picked("fix alias.conf", vendored, nil); len(got) != 1 {
		t.Errorf("vendored by its file name: %q", got)
	}
}

func TestTemplatesEditPicksName(t *testing.T) {
	// A template whose file name a Python edit pick writes whole (open("templates/
	// glauth.cfg.j2") in src/configs.py, the third pick; a charm-helpers target path) is
	// offered, the earliest pick's first (review rev116: glauth, sentry); not one of another
	// charm's folder, nor those of a pick naming more than namedTemplatesMax of them (a
	// resource map). A word of a declared interface's name does not make a template "written"
	// by the first pick (sentry's web.override.conf.j2 and option web-override).
	tmpls := []templates.File{{Path: "templates/glauth.cfg.j2"}, {Path: "templates/other.conf"}, {Path: "b/templates/b.conf"},
		{Path: "templates/web.override.conf.j2"}, {Path: "templates/extra.ini"}, {Path: "templates/more.ini"}, {Path: "templates/x.conf"}}
	charms := []charmyaml.Charm{{Name: "glauth", Dir: "."}, {Name: "b", Dir: "b"}}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "glauth", Interfaces: []linker.Interface{
		{Kind: linker.KindConfig, Name: "web-override", File: "config.yaml", Reads: []linker.Site{{File: "src/charm.py", Line: 3}}}}}}}
	charm := &pyextract.File{Path: "src/charm.py", Words: []string{"web", "override", "conf", "j2"}}
	configs := &pyextract.File{Path: "src/configs.py", Facts: pyextract.Facts{FileNames: []string{"b.conf", "glauth.cfg.j2", "notes.txt"}}}
	mapper := &pyextract.File{Path: "src/utils.py", Facts: pyextract.Facts{FileNames: []string{"extra.ini", "glauth.cfg.j2", "more.ini", "other.conf", "web.override.conf.j2", "x.conf"}}}
	var got []string
	for _, p := range templatePicks("add an anonymous bind option", nil, links, tmpls, charms, false, []*pyextract.File{charm, configs, mapper}) {
		got = append(got, p.Path+": "+strings.Join(p.Why, "; "))
	}
	if want := []string{"templates/glauth.cfg.j2: its file name is written in src/configs.py, an edit pick, which may render it"}; !slices.Equal(got, want) {
		t.Errorf("picks %q, want %q", got, want)
	}
	// a declared name the writer neither handles nor reads hides no template of its words
	// (nginx.conf.j2 beside relation nginx-route, review rev121)
	links.Charms[0].Interfaces = append(links.Charms[0].Interfaces, linker.Interface{Kind: linker.KindRelation, Name: "nginx-route", File: "metadata.yaml"})
	web := &pyextract.File{Path: "src/workload.py", Words: []string{"nginx", "conf", "j2"}}
	if got := templatePicks("fix proxy buffering", nil, links, []templates.File{{Path: "templates/nginx.conf.j2"}, {Path: "templates/other.conf"}, {Path: "templates/third.ini"}}, charms, false, []*pyextract.File{web}); len(got) != 1 {
		t.Errorf("nginx.conf.j2 beside relation nginx-route: %+v", got)
	}
	// a pick rendering four templates names them all (gitlab-runner's runner library, rev122)
	four := []templates.File{{Path: "templates/base.j2"}, {Path: "templates/cleanup.j2"}, {Path: "templates/prepare.j2"}, {Path: "templates/run.j2"}}
	runner := &pyextract.File{Path: "lib/runner.py", Facts: pyextract.Facts{FileNames: []string{"base.j2", "cleanup.j2", "prepare.j2", "run.j2"}}}
	if got := templatePicks("Customise the LXD DNS domain", nil, linker.Result{}, four, nil, false, []*pyextract.File{runner}); len(got) != 4 {
		t.Errorf("a pick rendering four templates: %+v", got)
	}
}

func TestLocateNamesTheIntent(t *testing.T) {
	// A task whose subject names a kind of change puts the file such a change edits first and
	// says why: the image pin for a workload upgrade, the declaring YAML for a description.
	root := filepath.Join(charmsDir, "unified")
	for text, want := range map[string]string{
		"Upgrade to 1.5 (#12)":                            "pins the workload release the task upgrades",
		"Update the reindex action's timeout description": "declares what the task changes",
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Edit) == 0 || got.Edit[0].Path != "charmcraft.yaml" || !slices.ContainsFunc(got.Edit[0].Why, func(w string) bool {
			return strings.HasPrefix(w, want)
		}) {
			t.Errorf("%q: first edit pick %+v", text, got.Edit)
		}
	}
}

func TestLocateEventNoCodeObserves(t *testing.T) {
	// A hook event the task names that no code observes yet puts the entry point first, saying
	// that its observer would go there, not that it handles the event (review rev118); an
	// everyday "update status" names no event at all.
	root := filepath.Join(charmsDir, "unified")
	for text, want := range map[string]string{
		"fix the update status hook":                         "where the charm would observe event update-status, named in the task, which no code observes yet",
		"Update status message when the database is missing": "",
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Edit) == 0 || got.Edit[0].Path != "src/charm.py" {
			t.Fatalf("%q: edit %+v", text, got.Edit)
		}
		says := slices.ContainsFunc(got.Edit[0].Why, func(w string) bool { return strings.Contains(w, "update-status") })
		if want == "" && says || want != "" && !slices.Contains(got.Edit[0].Why, want) {
			t.Errorf("%q: reasons %q", text, got.Edit[0].Why)
		}
	}
}

// TestTiesSkipOwnDefinitions: a file that defines a name itself uses its own definition, not
// another file's of the same name (two libraries with a DEFAULT_RELATION_NAME each).
func TestTiesSkipOwnDefinitions(t *testing.T) {
	ix := tieIndex{
		defs: map[string][]string{"lib/a.py": {"DEFAULT_RELATION_NAME", "Provider"}, "lib/b.py": {"DEFAULT_RELATION_NAME"}},
		refs: map[string]map[string]int{"lib/b.py": {"DEFAULT_RELATION_NAME": 3, "Provider": 1}},
	}
	if got := ix.used("lib/a.py", "lib/b.py"); got != "Provider" {
		t.Errorf("b uses %q of a, want Provider", got)
	}
	if got := ix.why("lib/a.py", []Pick{{Path: "lib/b.py"}}); !slices.Equal(got, []string{"defines Provider used by lib/b.py"}) {
		t.Errorf("why = %q", got)
	}
}

// TestTiesFollowImports: a name imported from a module ties the user to that module only
// (tempo's charm imports TracingEndpointProvider from v2, not v1, which defines one too),
// relative imports resolve against the user's folder, and a plain word used without an
// import (flask's charm.config) ties to no file that defines it.
func TestTiesFollowImports(t *testing.T) {
	ix := tieIndex{
		defs: map[string][]string{
			"lib/charms/t/v1/tracing.py": {"TracingEndpointProvider"},
			"lib/charms/t/v2/tracing.py": {"TracingEndpointProvider"},
			"src/core/state.py":          {"ClusterState", "restart"},
			"src/state.py":               {"ClusterState", "restart"},
			"rock/app.py":                {"config", "make_app_config"},
		},
		refs: map[string]map[string]int{"src/core/charm.py": {"TracingEndpointProvider": 2, "ClusterState": 1, "restart": 1, "config": 4, "make_app_config": 1}},
		from: map[string]map[string]string{"src/core/charm.py": {
			"TracingEndpointProvider": importPath("src/core/charm.py", "charms.t.v2.tracing"),
			"ClusterState":            importPath("src/core/charm.py", ".state"),
			"restart":                 importPath("src/core/charm.py", ".state"),
		}},
	}
	expectUsed(t, ix, "src/core/charm.py", map[string]string{
		"lib/charms/t/v1/tracing.py": "",
		"lib/charms/t/v2/tracing.py": "TracingEndpointProvider",
		"src/core/state.py":          "ClusterState, restart",
		"src/state.py":               "",
		"rock/app.py":                "make_app_config",
	})
	if got := importPath("src/a/b.py", "..core.x"); got != "src/core/x" {
		t.Errorf("importPath = %q", got)
	}
}

// TestTieIndexReadsImports: the ties newTieIndex builds from real imports: a module imported
// whole ties every name used through it (constants.PEER), a name imported from a package
// ties to the package's module defining it (re-exported by its __init__.py), and a name of
// another version of a library ties to nothing.
func TestTieIndexReadsImports(t *testing.T) {
	src := map[string]string{
		"src/charm.py": `import constants
from core import ClusterState
from charms.t.v2.tracing import TracingEndpointProvider

class C:
    def f(self):
        return constants.PEER, ClusterState(), TracingEndpointProvider()
`,
		"src/constants.py":           "PEER = \"peers\"\n",
		"src/core/__init__.py":       "from .cluster import ClusterState\n",
		"src/core/cluster.py":        "class ClusterState:\n    pass\n",
		"lib/charms/t/v1/tracing.py": "class TracingEndpointProvider:\n    pass\n",
		"lib/charms/t/v2/tracing.py": "class TracingEndpointProvider:\n    pass\n",
		// a workload package beside the charm, with a class named like one of the charm's
		"app/builder/build.py":  "from builder import config\n\ndef build():\n    return config.ImageConfig()\n",
		"app/builder/config.py": "class ImageConfig:\n    pass\n",
		"src/state.py":          "class ImageConfig:\n    pass\n",
	}
	tree := &repomap.Tree{}
	for _, p := range slices.Sorted(maps.Keys(src)) {
		tree.Files = append(tree.Files, pyextract.Parse(p, []byte(src[p])))
	}
	ix := newTieIndex(tree, linker.Result{})
	expectUsed(t, ix, "src/charm.py", map[string]string{
		"src/constants.py":           "PEER",
		"src/core/cluster.py":        "ClusterState",
		"lib/charms/t/v2/tracing.py": "TracingEndpointProvider",
		"lib/charms/t/v1/tracing.py": "",
	})
	// the module imported whole defines the name: the charm's class of that name is not used
	expectUsed(t, ix, "app/builder/build.py", map[string]string{"app/builder/config.py": "ImageConfig", "src/state.py": ""})
}

// expectUsed checks the names user uses of each file (tieIndex.used).
func expectUsed(t *testing.T, ix tieIndex, user string, want map[string]string) {
	t.Helper()
	for def, w := range want {
		if got := ix.used(def, user); got != w {
			t.Errorf("%s uses %q of %s, want %q", user, got, def, w)
		}
	}
}

// TestLocateSkipsUnreadFiles: a file listed but not read (over the size limit) is never a pick,
// even when the task names it.
func TestLocateSkipsUnreadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("metadata.yaml", "name: s\nsummary: s\ndescription: s\n")
	write("src/charm.py", "import ops\n\nclass SCharm(ops.CharmBase):\n    pass\n")
	write("src/big.py", strings.Repeat("X = 1\n", 300000))
	got, errs, err := runLocate(t, LocateOptions{Common: Common{Root: dir}, Text: "fix src/big.py"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(paths(got.Edit), "src/big.py") || slices.Contains(paths(got.Read), "src/big.py") || !strings.Contains(errs, "src/big.py: skipped") {
		t.Errorf("edit %v, read %v, stderr %q", paths(got.Edit), paths(got.Read), errs)
	}
}

// TestLocateLeavesOutFiller: a task about one module of a charm whose other modules nothing
// imports gets that module and the entry point (and maybe the charm's YAML), not five picks:
// the unrelated modules score under MinEditShare of the best and have no tie to the task.
func TestLocateLeavesOutFiller(t *testing.T) {
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: filler\nsummary: s\ndescription: d\ncontainers:\n  app:\n    resource: app-image\nresources:\n  app-image:\n    type: oci-image\n")
	write(t, root, "src/charm.py", `import ops
from frobnicator import frobnicate_widgets

class FillerCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.app_pebble_ready, self._on_ready)

    def _on_ready(self, event):
        frobnicate_widgets()

if __name__ == "__main__":
    ops.main(FillerCharm)
`)
	write(t, root, "src/frobnicator.py", "def frobnicate_widgets():\n    \"\"\"Frobnicate the widgets of the frobnicator.\"\"\"\n    return \"frobnicated widgets\"\n\n\ndef widget_frobnicator_limit():\n    return frobnicate_widgets()\n")
	for _, m := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa",
		"iota", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho"} {
		write(t, root, "src/"+m+".py", "def "+m+"_one():\n    return 1\n")
	}
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "the frobnicator frobnicates too many widgets"})
	if err != nil {
		t.Fatal(err)
	}
	// (the charm's YAML, which its handlers' links lift, may follow them; no filler module)
	if e := paths(got.Edit); len(e) < 2 || !slices.Equal(e[:2], []string{"src/frobnicator.py", "src/charm.py"}) ||
		slices.ContainsFunc(e[2:], func(p string) bool { return p != "metadata.yaml" }) {
		t.Errorf("edit picks %v, want the frobnicator and the entry point, and no filler", e)
	}
}

func TestOtherHandledLeavesOutWhatTheTaskNamed(t *testing.T) {
	// "handles action set-password named in the task" is said once, not again in the list of
	// what the file handles
	for _, c := range [][3]string{
		{"action set-password, action get-password", "action set-password", "action get-password"},
		{"relation kafka", "relation kafka", ""},
		{"relation a, relation b, relation c, …", "relation b", "relation a, relation c, …"},
		{"relation a, relation b, …", "relation a, relation b", ""},
		{"relation a", "", "relation a"},
	} {
		if got := otherHandled(c[0], c[1]); got != c[2] {
			t.Errorf("otherHandled(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestLocateTiesFollowImports: a file that imports a name from a package outside the tree
// (from ops.pebble import APIError) is not said to use the tree's namesake.
func TestLocateTiesFollowImports(t *testing.T) {
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: tie\nsummary: s\ndescription: d\n")
	write(t, root, "src/charm.py", "import ops\nfrom workload import Workload\n\nclass TieCharm(ops.CharmBase):\n    def __init__(self, framework):\n        super().__init__(framework)\n        self.workload = Workload()\n")
	write(t, root, "src/workload.py", "from ops.pebble import APIError\n\nclass Workload:\n    def restart_workload(self):\n        try:\n            pass\n        except APIError:\n            raise\n")
	write(t, root, "src/maubot.py", "class APIError(Exception):\n    pass\n")
	ix := newTieIndex(mustLoad(t, root), linker.Result{})
	if why := ix.why("src/maubot.py", []Pick{{Path: "src/workload.py"}}); len(why) > 0 {
		t.Errorf("src/maubot.py tied to src/workload.py: %q", why)
	}
	if why := ix.why("src/workload.py", []Pick{{Path: "src/charm.py"}}); len(why) == 0 {
		t.Error("an imported name no longer ties the files")
	}
}

func mustLoad(t *testing.T, root string) *repomap.Tree {
	t.Helper()
	tree, err := repomap.Load(repomap.Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestLocateNamedCharm: in a repository of several charms, the charm a task names by its
// name comes first, and the pick says so; a task naming no charm gets no such reason.
func TestLocateNamedCharm(t *testing.T) {
	root := filepath.Join(charmsDir, "monorepo")
	why := func(text string) (string, []string) {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil || len(got.Edit) == 0 {
			t.Fatalf("%q: %v %+v", text, err, got)
		}
		return got.Edit[0].Path, got.Edit[0].Why
	}
	for _, text := range []string{"beacon-k8s: send heartbeats more often", "fix(beacon-k8s): send heartbeats more often"} {
		if p, w := why(text); !strings.HasPrefix(p, "k8s/") || !slices.Contains(w, "in the beacon-k8s charm the task names") {
			t.Errorf("%q: first pick %s %q", text, p, w)
		}
	}
	if _, w := why("send heartbeats more often"); slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "charm the task names") }) {
		t.Errorf("no charm named, but %q", w)
	}
}

// TestLocateMonorepoSiblings: two charms of one repository each handle a milter relation and
// import their own constants module. A task naming one charm leads with that charm's handler,
// not its sibling's, and no reason ties a file to the sibling's namesake module.
func TestLocateMonorepoSiblings(t *testing.T) {
	root := t.TempDir()
	charm := func(dir, name, role, cls, event, svc string) {
		write(t, root, dir+"/metadata.yaml", "name: "+name+"\nsummary: s\ndescription: d\n"+role+":\n  milter:\n    interface: milter\n")
		write(t, root, dir+"/src/constants.py", "SERVICE_NAME = \""+svc+"\"\nCONFIG_PATH = \"/etc/"+svc+".conf\"\n")
		write(t, root, dir+"/src/charm.py", `import ops
import constants


class `+cls+`(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.milter_relation_`+event+`, self._on_milter)

    def _on_milter(self, event):
        write_setting(constants.CONFIG_PATH, constants.SERVICE_NAME)
`)
	}
	charm("relay", "postfix-relay", "requires", "RelayCharm", "broken", "postfix")
	charm("signer", "dkim-signer", "provides", "SignerCharm", "joined", "opendkim")
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "postfix-relay: when the milter relation is removed the setting is not cleared"})
	if err != nil || len(got.Edit) == 0 {
		t.Fatalf("%v %+v", err, got)
	}
	if got.Edit[0].Path != "relay/src/charm.py" {
		t.Errorf("first pick %s, want relay/src/charm.py", got.Edit[0].Path)
	}
	for _, p := range append(got.Edit, got.Read...) {
		for _, w := range p.Why {
			if strings.HasPrefix(p.Path, "signer/") && (strings.Contains(w, "relation the task names") || strings.Contains(w, "relay/")) ||
				strings.HasPrefix(p.Path, "relay/") && strings.Contains(w, "signer/") {
				t.Errorf("%s: %q ties the sibling charms", p.Path, w)
			}
		}
	}
}

func TestLocateSaysWhenNothingMatches(t *testing.T) {
	// A task none of whose words the tree has still gets the charm's central files, marked
	// as such: matched false, no pick tied, and a line that says so in the text.
	root := filepath.Join(charmsDir, "unified")
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "zebra giraffe"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Matched || len(got.Edit) == 0 || slices.ContainsFunc(got.Edit, func(p Pick) bool { return p.Tied }) {
		t.Errorf("locate zebra giraffe = %+v, want central files, none tied", got)
	}
	var out bytes.Buffer
	if err := RunLocate(LocateOptions{Common: Common{Root: root, NoCache: true, Format: "text"}, Text: "zebra giraffe"}, IO{Out: &out, Err: &out}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "edit:\n  (nothing in the tree matches the task's words") {
		t.Errorf("text output:\n%s", out.String())
	}
}

func TestLocateNamesTheFunctionsToRead(t *testing.T) {
	// An edit pick names its functions whose code has the task's rarer words, with their
	// lines: where the change goes when the task names no function.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: acl\nsummary: s\ndescription: d\nrequires:\n  kafka:\n    interface: kafka_client\n")
	write(t, root, "src/charm.py", `import ops
from auth import AuthManager

class AclCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.auth = AuthManager()
        framework.observe(self.on.kafka_relation_changed, self._on_changed)

    def _on_changed(self, event):
        self.auth.add_acl(event.relation.data[event.app].get("topic", ""))

if __name__ == "__main__":
    ops.main(AclCharm)
`)
	write(t, root, "src/auth.py", `class AuthManager:
    def users(self, topic):
        return ["admin", topic]

    def add_acl(self, topic):
        pattern = "PREFIXED" if topic.endswith("*") else "LITERAL"
        return ["--topic", topic, "--resource-pattern-type", pattern]

    def rotate(self):
        return "secret"
`)
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "prefixed topic names are not granted"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got.Edit {
		if p.Path != "src/auth.py" {
			continue
		}
		want := "functions whose code has the task's words: AuthManager.add_acl (line 5: prefixed, topic)"
		if !slices.Contains(p.Why, want) {
			t.Errorf("src/auth.py reasons %q, want %q", p.Why, want)
		}
		return
	}
	t.Errorf("edit picks %v lack src/auth.py", paths(got.Edit))
}

// An import of a module names the tree's file of that name nearest the importer: in a
// monorepo, the importing charm's own.
func TestNearestModule(t *testing.T) {
	ix := tieIndex{files: []string{"common/constants.py", "relay/src/constants.py", "relay/src/charm.py", "signer/src/constants.py"}}
	for _, tc := range []struct {
		def, user string
		want      bool
	}{
		{"relay/src/constants.py", "relay/src/charm.py", true},
		{"signer/src/constants.py", "relay/src/charm.py", false},
		{"common/constants.py", "relay/src/charm.py", false},
		{"common/constants.py", "tools/x.py", true}, // no nearer one: every namesake at the same distance
		{"signer/src/constants.py", "tools/x.py", true},
		{"relay/src/charm.py", "relay/src/x.py", false}, // not the module at all
	} {
		if got := ix.nearest(tc.def, tc.user, "constants", modulePath); got != tc.want {
			t.Errorf("nearest(%s, %s) = %v, want %v", tc.def, tc.user, got, tc.want)
		}
	}
}

// A file that reads an option or looks up a relation without handling it is said to read or
// look it up, not to handle it.
func TestWhyReadsAndLooksUp(t *testing.T) {
	ix := tieIndex{
		ifaces: map[string]map[string][]string{"metadata.yaml": {"src/charm.py": {"relation db"}}},
		uses:   map[string]map[string][]string{"metadata.yaml": {"src/helper.py": {"config port", "relation db"}}},
	}
	got := ix.why("metadata.yaml", []Pick{{Path: "src/charm.py"}, {Path: "src/helper.py"}})
	want := []string{"declares relation db that src/charm.py handles", "declares config port that src/helper.py reads",
		"declares relation db that src/helper.py looks up"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("why = %q, want %q", got, want)
	}
	if got := ix.why("src/helper.py", []Pick{{Path: "metadata.yaml"}}); !reflect.DeepEqual(got, []string{"reads config port declared in metadata.yaml", "looks up relation db declared in metadata.yaml"}) {
		t.Errorf("why = %q", got)
	}
	// a package the file imports that may read the option (the linker's guess) is said so
	ix.mayUse = map[string]map[string][]string{"config.yaml": {"src/handlers.py": {"config origin"}}}
	if got := ix.why("config.yaml", []Pick{{Path: "src/handlers.py"}}); !reflect.DeepEqual(got, []string{"declares config origin that a package src/handlers.py imports may read"}) {
		t.Errorf("why = %q", got)
	}
	if got := ix.why("src/handlers.py", []Pick{{Path: "config.yaml"}}); !reflect.DeepEqual(got, []string{"imports a package that may read config origin declared in config.yaml"}) {
		t.Errorf("why = %q", got)
	}
}

// A file belongs to the deepest charm folder holding it; the root charm's only when no other
// holds it ("." sorts before "a", and must not win).
func TestCharmOf(t *testing.T) {
	ix := tieIndex{charms: newCharmOrder([]string{"a", ".", "b/c"})}
	for p, want := range map[string]string{"a/src/charm.py": "a", "b/c/x.py": "b/c", "b/x.py": ".", "x.py": "."} {
		if got := ix.charmOf(p); got != want {
			t.Errorf("charmOf(%s) = %q, want %q", p, got, want)
		}
	}
}

func TestLocateRelationOnlyLookedUp(t *testing.T) {
	// A relation nothing observes is used where the code looks it up: that file leads the
	// edit picks when the task names the relation, saying so; an empty __init__.py with no
	// tie to the task is no pick.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: bench\nsummary: s\ndescription: d\npeers:\n  bench-peer:\n    interface: bench_peers\n")
	write(t, root, "src/charm.py", `import ops
from literals import PEER_RELATION, DEFAULT_PORT, DEFAULT_TIMEOUT, DEFAULT_WORKERS
from base import Base

class BenchCharm(Base):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.install, self._on_install)

    def _on_install(self, event):
        self.unit.status = ops.ActiveStatus(str(DEFAULT_PORT + DEFAULT_TIMEOUT + DEFAULT_WORKERS))

if __name__ == "__main__":
    ops.main(BenchCharm)
`)
	write(t, root, "src/literals.py", "PEER_RELATION = \"bench-peer\"\nDEFAULT_PORT = 8080\nDEFAULT_TIMEOUT = 30\nDEFAULT_WORKERS = 4\n")
	write(t, root, "src/base.py", `import ops
from literals import PEER_RELATION

class Base(ops.CharmBase):
    def _unit_ip(self):
        return self.model.get_binding(PEER_RELATION).network.bind_address
`)
	write(t, root, "src/__init__.py", "")
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "what happens when the bench-peer relation changes"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Edit) == 0 || got.Edit[0].Path != "src/base.py" || got.Edit[0].Why[0] != "looks up the bench-peer relation the task names, which no handler of its own observes" {
		t.Errorf("edit picks %+v, want src/base.py first, as the relation's lookup", got.Edit)
	}
	if slices.Contains(paths(got.Edit), "src/__init__.py") {
		t.Errorf("edit picks %v hold the empty __init__.py", paths(got.Edit))
	}
}

func TestLocateActionHandlersLead(t *testing.T) {
	// A task naming an action beside the word "action" puts the files handling it first (the
	// module observing it, an action's own script), saying so, over a module that only
	// shares the task's rarer words; a task of a kind the ranker puts first (a build for a
	// base) keeps that file first.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: vault\nsummary: s\ndescription: d\n")
	write(t, root, "actions.yaml", "set-password:\n  params:\n    password:\n      type: string\nrotate-keys:\n  description: r\n")
	write(t, root, "charmcraft.yaml", "type: charm\nbases:\n  - name: ubuntu\n    channel: \"22.04\"\n")
	write(t, root, "src/charm.py", `import ops
from admin import Admin

class VaultCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        self.admin = Admin(self)

if __name__ == "__main__":
    ops.main(VaultCharm)
`)
	write(t, root, "src/admin.py", `import ops

class Admin(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "admin")
        charm.framework.observe(charm.on.set_password_action, self._on_set_password)

    def _on_set_password(self, event):
        event.set_results({"ok": event.params["password"]})
`)
	write(t, root, "src/status.py", `# Statuses over 120 characters are truncated; reject longer ones
def reject(message):
    """Reject a status message of too many characters: shorter messages pass."""
    return len(message) > 120
`)
	write(t, root, "actions/rotate-keys", "#!/usr/bin/env python3\nimport subprocess\nsubprocess.run([\"vault\", \"rotate\"])\n")
	if err := os.Chmod(filepath.Join(root, "actions", "rotate-keys"), 0o755); err != nil { // Juju runs it
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"The set-password action should reject passwords shorter than 12 characters": "src/admin.py",
		"rotate-keys action: rotate the keys of every unit":                          "actions/rotate-keys",
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Edit) == 0 || got.Edit[0].Path != want || !strings.HasPrefix(got.Edit[0].Why[0], "handles the ") ||
			!strings.HasSuffix(got.Edit[0].Why[0], " action the task names") {
			t.Errorf("%q: edit picks %+v, want %s first as the action's handler", text, got.Edit, want)
		}
	}
	got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "Fix set-password action on jammy"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Edit) == 0 || got.Edit[0].Path != "charmcraft.yaml" {
		t.Errorf("a build task: edit picks %+v, want charmcraft.yaml first", got.Edit)
	}
	// a script that only calls the charm's code scored above it is a wrapper: no lead
	write(t, root, "actions/rotate-keys", "#!/usr/bin/env python3\nfrom keys import rotate_all_keys\nrotate_all_keys()\n")
	write(t, root, "src/keys.py", "def rotate_all_keys():\n    \"\"\"Rotate the keys of every unit, unit by unit.\"\"\"\n    for unit in units():\n        rotate(unit)\n")
	got, _, err = runLocate(t, LocateOptions{Common: Common{Root: root}, Text: "rotate-keys action: rotate the keys of every unit"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Edit) == 0 || got.Edit[0].Path != "src/keys.py" {
		t.Errorf("a wrapper script: edit picks %+v, want src/keys.py first", got.Edit)
	}
}

func TestLocatedQuotesPathsThatReadAsItsLines(t *testing.T) {
	// A pick's path holding " (" (its score follows so) or starting with "(" (a part's
	// "(none)") is printed Go-quoted; a plain path as it is.
	var b strings.Builder
	res := Located{Edit: []Pick{{Path: "src/x (old).py", Score: 0.5}, {Path: "(none)", Score: 0.25}, {Path: "src/charm.py", Score: 0.125}},
		Templates: []TemplatePick{{Path: "templates/a (1).j2"}}}
	if err := writeLocated(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n  \"src/x (old).py\" (0.5)\n", "\n  \"(none)\" (0.25)\n", "\n  src/charm.py (0.125)\n", "\n  \"templates/a (1).j2\"\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("want %q in %q", want, b.String())
		}
	}
}

func TestInterfaceVerb(t *testing.T) {
	// an option's code reads it; a relation's or action's handles it
	for note, want := range map[string]string{"config log_level": "reads", "config a, config b, …": "reads",
		"relation db": "handles", "action backup, config port": "handles or reads"} {
		if got := interfaceVerb(note); got != want {
			t.Errorf("interfaceVerb(%q) = %q, want %q", note, got, want)
		}
	}
}

func TestTaskFunctionsMostWordsFirst(t *testing.T) {
	// a file's functions with the most of the task's words are named first, in the map's
	// order among equals (review rev105)
	f := rank.File{Symbols: []rank.Symbol{
		{Name: "a", Line: 1, TaskWords: []string{"jenkins"}},
		{Name: "b", Line: 2},
		{Name: "c", Line: 3, TaskWords: []string{"jenkins", "jobs"}},
		{Name: "d", Line: 4, TaskWords: []string{"removed"}},
		{Name: "e", Line: 5, TaskWords: []string{"jenkins", "jobs", "deleted"}},
	}}
	want := "e (line 5: jenkins, jobs, deleted), c (line 3: jenkins, jobs), a (line 1: jenkins)"
	if got := taskFunctions(f); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLocateTemplatesOfTiedPicksOnly(t *testing.T) {
	// A template is offered through the edit picks the task ties, not through one listed by
	// its place in the graph alone (review rev121: nginx.conf.j2, through proxy.py, for a
	// status task); a task about the proxy ties proxy.py, and gets it.
	root := t.TempDir()
	for p, text := range map[string]string{
		"metadata.yaml": "name: untied\nsummary: s\ndescription: d\ncontainers:\n  workload: {}\nrequires:\n  database:\n    interface: postgresql_client\n",
		"src/charm.py": `import ops
from proxy import CONF_PATH, render_proxy


class UntiedCharm(ops.CharmBase):
    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.database_relation_changed, self._on_database_changed)
        framework.observe(self.on.workload_pebble_ready, self._on_ready)

    def _on_database_changed(self, event):
        self.unit.status = ops.ActiveStatus("database ready")

    def _on_ready(self, event):
        event.workload.push(CONF_PATH, render_proxy())


if __name__ == "__main__":
    ops.main(UntiedCharm)
`,
		"src/proxy.py": `import jinja2
CONF_PATH = "/etc/nginx/nginx.conf"


def render_proxy():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"))
    return env.get_template("nginx.conf.j2").render()
`,
		"templates/nginx.conf.j2": "server { listen 80; }\n",
		"tests/unit/test_render.py": `from proxy import render_proxy


def test_flaky_render():
    assert "listen" in render_proxy()  # nginx.conf.j2
    assert render_proxy() != open("templates/nginx.conf.j2").read()
`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for text, want := range map[string]int{
		"Set the unit status to blocked when the database relation is missing": 0,
		"render the proxy with a larger buffer":                                1,
		"fix the flaky unit tests":                                             0, // (a test is no writer: review rev125)
	} {
		got, _, err := runLocate(t, LocateOptions{Common: Common{Root: root}, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Templates) != want {
			t.Errorf("%q: templates %+v (edit %v), want %d", text, got.Templates, paths(got.Edit), want)
		}
	}
}

func TestCoOwnedLibraryPickedWhenCloselyTied(t *testing.T) {
	// A library of the charm's family is an edit pick only when the task names something of
	// it or its text holds the task's words nearly as well as the best file's (held15's
	// mongos: four such libraries, tied by a word or two, crowded the YAML out).
	co := rank.Signal{Name: rank.SigCoOwnedLib, Value: rank.CoOwnedLibPenalty}
	words := func(v float64) rank.Signal { return rank.Signal{Name: rank.SigMentionWords, Value: v} }
	for _, c := range []struct {
		sigs []rank.Signal
		want bool
	}{
		{[]rank.Signal{co, words(7.39)}, true},
		{[]rank.Signal{co, words(5)}, true},
		{[]rank.Signal{co, words(3.04)}, false},
		{[]rank.Signal{co}, false},
		{[]rank.Signal{co, words(2), {Name: rank.SigMentionIdent, Value: 0.1}}, true},
	} {
		if got := closelyTied(rank.File{Signals: c.sigs}); got != c.want {
			t.Errorf("%+v: closely tied %v, want %v", c.sigs, got, c.want)
		}
	}
}

func TestTextTemplate(t *testing.T) {
	// A template's words list it only when it is no Grafana dashboard nor documentation
	// (review rev128).
	for p, want := range map[string]bool{
		"templates/config.yaml":                                true,
		"src/templates/ml-pipeline-service.yaml.j2":            true,
		"src/grafana_dashboards/prometheus-k8s_rev1.json.tmpl": false,
		"templates/dashboard.yaml.j2":                          false,
		"docs/release-notes/template/release-template.md.j2":   false,
		"docs-template/release-notes/template/notes.md.j2":     false,
	} {
		if got := textTemplate(p); got != want {
			t.Errorf("textTemplate(%q) = %v, want %v", p, got, want)
		}
	}
}
