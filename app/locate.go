package app

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/rank"
	"github.com/cantrip-dev/charmcraft-map/repomap"
	"github.com/cantrip-dev/charmcraft-map/templates"

	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
)

// How many files `locate` names.
const (
	LocateEdit = 5 // files most likely to need editing
	LocateRead = 3 // files to read alongside them
	// CloseWordShare: the share of the most a file's task words may lift it (rank.LexBoost,
	// in logs) that ties a library of the charm's family to the task (closelyTied).
	CloseWordShare = 0.8
	// HandlerPicks is how many files handling a relation the task names explicitly lead the
	// edit picks, per relation: "the ingress relation drops the port" is a change to the module
	// that handles ingress, however central other modules are. Two, because a relation is
	// sometimes split between the charm and a helper module.
	HandlerPicks = 2
	// TestPicks is how many test files join the edit picks when the task is about tests.
	TestPicks = 2
	// TestNameWordBoost multiplies a test file's lexical factor, when locate orders the tests
	// of a task about tests, by 1 + this per word of its name the task has (test_state.py for
	// "the agent state parsing"): a test module is named for what it tests.
	TestNameWordBoost = 0.5
	// MinEditShare drops an edit pick scoring under this share of the best pick: filler with
	// no tie to the task. On 6 case sets (562 edited files among 2,152 picks), the picks under
	// 2% were 195, of which 4 were edited (2%, against 26% of all picks).
	MinEditShare = 0.02
	// taskFns is how many functions an edit pick's "functions whose code has the task's words"
	// line names.
	taskFns = 3
	// tieNames is how many names a "why" line lists for one tie between two files, and
	// readWhy how many ties a read pick lists.
	tieNames = 3
	readWhy  = 3
)

// LocateOptions are the flags of `locate`.
type LocateOptions struct {
	Common
	Text  string   // the task
	Focus []string // files the agent is working on
	Scope []string
}

// Pick is one file `locate` names.
type Pick struct {
	Path  string   `json:"path"`
	Score float64  `json:"score"`
	Why   []string `json:"why"`
	// Tied is set on an edit pick the task itself points to (a name, word, file, interface
	// or kind of change of the task's, or the focus), not only its place in the reference
	// graph: an addition to CONTRACT §3's fields, left out when false.
	Tied bool `json:"tied,omitempty"`
}

// Located is the `locate` result.
type Located struct {
	Query string `json:"query"`
	// Matched reports whether any edit pick is Tied: false when nothing in the tree answers
	// the task's words, and the picks are only the charm's central files (an addition too).
	Matched bool   `json:"matched"`
	Edit    []Pick `json:"edit"`
	Read    []Pick `json:"read"`
	// Templates are the templates (files under a templates/ folder, or with a Jinja extension
	// anywhere: templates.IsTemplate) the task points to: they render an option the task
	// names, or the task (or a Python edit pick's code) writes their file name. A template is
	// no node of the ranking, so it has no score; the first LocateTemplates, most tied first.
	Templates []TemplatePick `json:"templates"`
}

// TemplatePick is a template locate names, and why.
type TemplatePick struct {
	Path string   `json:"path"`
	Why  []string `json:"why"`
}

// LocateTemplates bounds the templates locate names (an OpenStack charm keeps a copy of its
// templates per release, each rendering the same options).
const LocateTemplates = 5

// RunLocate prints the files most likely to need editing for a task, and the files to read
// with them.
//
// Edit: the tree is ranked with the task as a mention (and the --focus files). The picks are,
// in this order and without repeats:
//  1. the best-ranked HandlerPicks files handling each relation the task names explicitly
//     ("the ingress relation", "db-admin"): the ranker weighs every word of the task, and in a
//     charm whose shared models match "data" and "update" better, the handler would sink
//     (in the charm the task names, when it names one of a monorepo's); and so each action
//     the task names beside the word "action", its own script too, unless the ranker found a
//     kind of task whose file it puts first (intentSignals);
//  2. when the task is about tests, the TestPicks tests whose names match the task's words
//     best (nothing references a test, so PageRank cannot tell tests apart; the words can),
//     after the best pick of 3 when the subject opens on something else (testsLead);
//  3. the best-ranked first-party files (source, YAML, helper scripts), and vendored libraries
//     whose penalty the ranker lifted (the task is about libraries or names the file by path),
//     down to MinEditShare of the best score; a file that defines nothing (an empty
//     __init__.py) only when the task ties it.
//
// So the first picks may score below later ones; their last reason says why they lead.
//
// Read: the tree is ranked again with the edit picks as focus, so that what they use and what
// uses them rises; the picks are the best-ranked files outside edit and the focus that share a
// direct tie with an edit file (one defines names the other uses, or declares an interface the
// other handles), with those ties as the reasons. Scores are the rankings' scores.
//
// Templates: the templates the task or the Python edit picks point to (templatePicks); a
// template is no node of the ranking and has no score.
func RunLocate(o LocateOptions, io IO) error {
	if err := checkFormat(o.Format, "text", "json"); err != nil {
		return err
	}
	if strings.TrimSpace(o.Text) == "" {
		return Usagef("locate needs the task text, for example: charmcraft-map locate \"the ingress relation drops the port\"")
	}
	t, err := loadTree(o.Common, io, repomap.Options{Scope: o.Scope, SaveLater: true})
	if err != nil {
		return err
	}
	fmt.Fprint(io.Err, warnings(t, nil))
	focus, warn := focusPaths(t, o.Focus)
	fmt.Fprint(io.Err, warn+emptyWarning(t))
	res := Locate(t, o.Text, focus)
	saveCache(t, io)
	if o.Format == "json" {
		return writeJSON(io.Out, struct {
			SchemaVersion int `json:"schema_version"`
			Located
		}{SchemaVersion, res})
	}
	return writeLocated(io.Out, res)
}

// Locate picks the edit and read files of a loaded tree for the task text; focus holds
// root-relative paths.
func Locate(t *repomap.Tree, text string, focus []string) Located {
	links := t.Link()
	mentions := []string{text}
	res := Located{Query: text, Edit: []Pick{}, Read: []Pick{}}
	handles := namedRelationHandlers(text, links)
	tests := asksForTests(text)
	var leads, testPicks, rest []Pick
	lexical := map[string]float64{} // test → its mention-words factor
	perRelation := map[namedRelation]int{}
	ledBy := map[string][]namedRelation{} // a lead → what the task names that it handles
	rk := t.Rank(links, focus, mentions)
	ranked := rk.Files
	// a task naming one charm of a monorepo ("postfix-relay: the milter relation ...") is
	// about its handlers of the relation, not a sibling charm's of the same name
	namedCharm := slices.ContainsFunc(ranked, func(f rank.File) bool { return signal(f, rank.SigNamedCharm) != 0 })
	// a task of a kind the ranker puts first (changing an action's declaration: "Update the
	// reindex action's description"; adding one; building: "Fix do-backup action on jammy";
	// libraries, dependencies, the workload's release) is no change to the action's handler
	intent := slices.ContainsFunc(ranked, func(f rank.File) bool {
		return slices.ContainsFunc(intentSignals, func(s string) bool { return signal(f, s) != 0 })
	}) || tests.asks() // "Run action tests in CI": the tests the task asks for come first
	ties := newTieIndex(t, links)
	// dispatches reports an action's handler that uses, from a file scored above it, a name
	// holding the action's (a charm.py importing the handler `from actions.enable import
	// on_enable_action`, one wrapping ops_actions/get_health.py's get_health_action), or any
	// name when it is the action's script: a dispatcher, whose work the ranker found in that
	// file (review rev102)
	dispatches := func(f rank.File, action string, script bool) bool {
		a := strings.ReplaceAll(strings.ToLower(action), "-", "_")
		if script {
			a = "" // an action's script using the charm's code at all: a wrapper (layer-backup's backup.backup())
		}
		for _, g := range ranked {
			if g.Score <= f.Score {
				return false
			}
			if g.Path == f.Path || g.Class == rank.ClassTest || signal(g, rank.SigLib) != 0 {
				continue
			}
			if slices.ContainsFunc(ties.usedNames(g.Path, f.Path), func(n string) bool { return strings.Contains(strings.ToLower(n), a) }) {
				return true
			}
		}
		return false
	}
	for _, f := range ranked {
		if signal(f, rank.SigLib) != 0 || f.CopyOf != "" || t.Skipped[f.Path] {
			continue // a vendored library is edited upstream; a copy is named with its canonical file; a skipped file was not read
		}
		if signal(f, rank.SigCoOwnedLib) != 0 && !closelyTied(f) {
			// a library of the charm's family: edited here too, but only picked when the task
			// names what is in it, not for a word or two its large text shares (held15's
			// mongos "Copy in the structure of upgrades" listed four of them over the YAML)
			continue
		}
		var named []namedRelation
		for _, rel := range handles[f.Path] {
			if f.Class == rank.ClassTest || namedCharm && signal(f, rank.SigNamedCharm) == 0 {
				break
			}
			if rel.Action && (intent || dispatches(f, rel.Name, rel.Script)) {
				continue
			}
			if perRelation[rel] < HandlerPicks {
				perRelation[rel]++
				named = append(named, rel)
			}
		}
		why, tied := editWhy(f, named)
		p := Pick{Path: f.Path, Score: f.Score, Why: why, Tied: tied}
		switch {
		case len(named) > 0:
			leads = append(leads, p)
			ledBy[p.Path] = named
		case f.Class == rank.ClassTest:
			if w := signal(f, rank.SigMentionWords); tests.takes(f.Path) && w > 1 && len(f.Symbols) > 0 { // not an empty __init__.py
				lexical[f.Path] = w
				testPicks = append(testPicks, p)
			}
		case !tied && len(f.Symbols) == 0:
			// nothing ties it to the task and it defines nothing (an empty __init__.py): no pick
		default:
			rest = append(rest, p)
		}
	}
	// by how well its text matches, a test file named for what the task is about
	// (test_storage_reuse.py for "add integration tests for storage reuse", test_state.py for
	// "... the agent state parsing") half as much again per word of its name the task has
	// (review rev110: test_service.py, whose text has "parsing", came first)
	inName := rank.TaskWordsIn([]string{text})
	named := func(p string) int {
		stem := strings.TrimSuffix(path.Base(p), ".py")
		return len(slices.DeleteFunc(inName(stem), func(w string) bool { return testNameWords[strings.ToLower(w)] }))
	}
	for p := range lexical {
		lexical[p] *= 1 + TestNameWordBoost*float64(named(p))
	}
	slices.SortStableFunc(testPicks, func(a, b Pick) int { return cmp.Compare(lexical[b.Path], lexical[a.Path]) })
	testPicks = testPicks[:min(len(testPicks), TestPicks)]
	best := 0.0
	for _, p := range slices.Concat(leads, testPicks, rest) {
		best = max(best, p.Score)
	}
	var kept []Pick
	for _, p := range rest {
		if p.Score >= MinEditShare*best {
			kept = append(kept, p)
		}
	}
	// a subject that opens on the code ("update apt_key on charm upgrade, fix unit test") has
	// its best code pick first, the tests after it (review rev122)
	before := 0
	if len(leads) == 0 && len(testPicks) > 0 && len(kept) > 0 && !testsLead(text) {
		before = 1
	}
	res.Edit = slices.Concat(leads, kept[:before], testPicks, kept[before:])
	res.Edit = res.Edit[:min(len(res.Edit), LocateEdit)]
	sayWhyFirst(res.Edit, 0, len(leads), "a handler of "+leadsName(ledBy))
	sayWhyFirst(res.Edit, len(leads)+before, len(leads)+before+len(testPicks), "a test, and the task is about tests")
	// the writers of templates: the edit picks the task ties, not those listed by their place
	// in the graph alone (review rev121: nginx.conf.j2 for a status task, through proxy.py)
	// (nor a test: its strings are fixtures', review rev125)
	tied := slices.DeleteFunc(slices.Clone(res.Edit), func(p Pick) bool { return !p.Tied || rank.Classify(p.Path, t.Charms) == rank.ClassTest })
	res.Templates = templatePicks(text, rk.Named, links, t.Templates, t.Charms, tests.asks(), pythonPicks(t, tied))
	res.Matched = slices.ContainsFunc(res.Edit, func(p Pick) bool { return p.Tied })
	if len(res.Edit) == 0 {
		return res
	}
	skip := map[string]bool{}
	seeds := slices.Clone(focus)
	for _, f := range focus {
		skip[f] = true
	}
	for _, p := range res.Edit {
		skip[p.Path] = true
		seeds = append(seeds, p.Path)
	}
	for _, f := range t.Rank(links, seeds, mentions).Files {
		if len(res.Read) == LocateRead {
			break
		}
		if skip[f.Path] || f.Class == rank.ClassTest && !tests.asks() || f.CopyOf != "" || t.Skipped[f.Path] {
			continue
		}
		if why := ties.why(f.Path, res.Edit); len(why) > 0 {
			res.Read = append(res.Read, Pick{Path: f.Path, Score: f.Score, Why: why[:min(len(why), readWhy)]})
		}
	}
	return res
}

// relationWords introduce or follow a relation's name in a task text.
var relationWords = map[string]bool{"relation": true, "relations": true, "endpoint": true, "endpoints": true,
	"integration": true, "integrations": true, "interface": true}

// relationEventWords speak of a relation's life: a text that uses one ("when a unit joins",
// "after the app departs", "the integration breaks") is about a relation, and names it even
// without the word "relation" ("the oauth data is stale when a unit joins").
var relationEventWords = map[string]bool{"join": true, "joins": true, "joined": true, "joining": true,
	"depart": true, "departs": true, "departed": true, "departing": true, "broken": true, "breaks": true,
	"related": true, "relate": true, "integrated": true}

// namedRelationHandlers maps each file handling a relation the task names explicitly to those
// relations (a relation nothing observes: each file looking it up), and each file handling an
// action the task names beside an action word ("the set-password action", "action backup") to
// those actions (its own script, actions/<name>, is one).
// Explicitly: its name or interface name stands next to a relation word
// ("the async replication relation", "relation db-admin", "the tls-certificates integration"),
// or is written with its '-' or '_' ("kafka-client", "peer_cluster") and is not the charm's
// own name, or the text speaks of relation events (relationEventWords: "when a unit joins").
// A bare common word ("database", "data") is not enough on its own: it names half the
// charm. "The peer relation",
// "peer-relation-changed" or "the peer databag" name a charm's peer relation by its role, when
// it has only one.
func namedRelationHandlers(text string, links linker.Result) map[string][]namedRelation {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	named := map[string]bool{}   // beside a relation word, or in a text about relation events
	written := map[string]bool{} // written with its '-' or '_'
	for i, w := range words {
		w = strings.Trim(strings.ReplaceAll(w, "_", "-"), "-")
		words[i] = w
		if strings.Contains(w, "-") {
			written[w] = true
		}
	}
	eventTalk := slices.ContainsFunc(words, func(w string) bool { return relationEventWords[w] })
	action := map[string]bool{} // beside an action word: "the set-password action", "action backup"
	for i, w := range words {
		if eventTalk { // "the oauth ... when a unit joins": every name of the text may be the relation
			for n := 1; n <= 3 && i+n <= len(words); n++ {
				named[strings.Join(words[i:i+n], "-")] = true
			}
		}
		switch {
		case relationWords[w]:
			besideWord(words, i, named)
		case w == "action" || w == "actions":
			besideWord(words, i, action)
		}
	}
	// "the peer relation", "peer-relation-changed", "the peer databag": the charm's peer
	// relation, when it has one only (zinc's zinc-peers)
	peerTalk := named["peer"] || named["peers"] || slices.ContainsFunc(words, func(w string) bool {
		return strings.HasPrefix(w, "peer-relation") || strings.HasPrefix(w, "peers-relation") || w == "peer-databag" || w == "peer-data"
	})
	for i := 0; i+1 < len(words); i++ {
		peerTalk = peerTalk || (words[i] == "peer" || words[i] == "peers") && (words[i+1] == "databag" || words[i+1] == "data")
	}
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	out := map[string][]namedRelation{}
	for _, ch := range links.Charms {
		peers := 0
		for _, it := range ch.Interfaces {
			if it.Kind == linker.KindRelation && it.Role == charmyaml.RolePeers {
				peers++
			}
		}
		// the charm's own name ("Enable vTPM support in nova-compute") names the charm, not
		// the relation or interface so called (nova-compute's cloud-compute relation has the
		// interface nova-compute), unless a relation word stands beside it
		says := func(n string) bool {
			n = norm(n)
			return n != "" && (named[n] || written[n] && n != norm(ch.Name))
		}
		for _, it := range ch.Interfaces {
			if it.Kind == linker.KindAction && action[norm(it.Name)] {
				act := namedRelation{Name: it.Name, Action: true}
				for _, h := range it.Handlers {
					if !h.CatchAll && !slices.Contains(out[h.File], act) {
						out[h.File] = append(out[h.File], act)
					}
				}
				// (the script may be a link to a file that handles it already: trilio's
				// actions/update-trilio -> actions.py, one reason, review rev119)
				if script := (namedRelation{Name: it.Name, Action: true, Script: true}); it.Script != "" && !slices.Contains(out[it.Script], script) &&
					!slices.Contains(out[it.Script], act) {
					out[it.Script] = append(out[it.Script], script)
				}
				continue
			}
			thePeer := peerTalk && peers == 1 && it.Role == charmyaml.RolePeers
			if it.Kind != linker.KindRelation || !thePeer && !says(it.Name) && !says(it.Interface) {
				continue
			}
			rel := namedRelation{Name: it.Name}
			if !thePeer && !says(it.Name) {
				rel.Interface = it.Interface // the task names its interface
			}
			handled := false
			for _, h := range it.Handlers {
				if h.CatchAll { // a catch-all of every relation (for r in self.model.relations) is not this one's handler
					continue
				}
				if h.Via == linker.ViaHookScript && path.Base(h.File) != h.Event {
					// the script several hooks are links to (hooks/install -> services.py): it
					// runs for every hook, and the code using this relation is elsewhere in it or
					// beyond; not a hook's own script (hooks/db-relation-changed)
					continue
				}
				handled = true
				if !slices.Contains(out[h.File], rel) {
					out[h.File] = append(out[h.File], rel)
				}
			}
			if handled {
				continue
			}
			// a relation no handler of its own observes (none, or only catch-alls of every
			// relation): the code that looks it up is where it is used
			// (self.model.get_binding(PEER), model.get_relation("benchmark-peer"))
			rel.LookedUp = true
			for _, r := range it.Reads {
				if r.Via == linker.ViaLookup && !slices.Contains(out[r.File], rel) {
					out[r.File] = append(out[r.File], rel)
				}
			}
		}
	}
	return out
}

// templatePicks are the templates the task points to (Located.Templates): those rendering
// the options it names (named, rank.Result.Named; the linker's template reads), those whose
// file name it writes ("trove.conf", also for trove.conf.j2) or words of it few templates
// share ("the Apache configuration": apache-openidc-location.conf), those whose file name a
// Python edit pick (writers, in pick order) writes whole as a string (open("templates/
// glauth.cfg.j2"), "/etc/gnocchi/gnocchi.conf": namedTemplates, review rev116), and those
// the words of whose name the first one's strings hold (writtenTemplates). A writer's
// template is its own charm's. Not a test's template unless the task is about tests, nor a
// vendored library's unless the task writes its file name. Order: most named options
// rendered, named by file name, named by the earliest writer, written by the first, most
// task words in the file name, then path; the copies of one template that tie are one pick
// (the newest release's folder).
func templatePicks(text string, named []rank.Named, links linker.Result, tmpls []templates.File, charms []charmyaml.Charm, tests bool, writers []*pyextract.File) []TemplatePick {
	renders := map[string][]string{} // template → "option x (lines 4, 9)"
	count := map[string]int{}
	for _, n := range named {
		if n.Kind != linker.KindConfig {
			continue
		}
		for _, ch := range links.Charms {
			for _, it := range ch.Interfaces {
				if it.Kind != n.Kind || it.Name != n.Name || it.File != n.File {
					continue
				}
				lines := map[string][]string{}
				var files []string
				for _, r := range it.Reads {
					if r.Via != linker.ViaTemplate {
						continue
					}
					if _, ok := lines[r.File]; !ok {
						files = append(files, r.File)
					}
					lines[r.File] = append(lines[r.File], strconv.Itoa(r.Line))
				}
				for _, f := range files {
					word := "line"
					if len(lines[f]) > 1 {
						word = "lines"
					}
					renders[f] = append(renders[f], fmt.Sprintf("option %s (%s %s)", it.Name, word, strings.Join(lines[f], ", ")))
					count[f]++
				}
			}
		}
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '.' || r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		words[strings.Trim(w, ".")] = true
	}
	byName := map[string]string{}
	for _, f := range tmpls {
		if base := templates.RenderedName(path.Base(f.Path)); strings.Contains(base, ".") && words[base] {
			byName[f.Path] = base
		}
	}
	// the words of a template's file name the task writes ("Add OIDCOutgoingProxy to Apache
	// configuration": apache-openidc-location.conf), but not a format's or the charm's own
	// (every trove-*.conf of the trove charm)
	nameWords := rank.TaskWordsIn([]string{text})
	generic := maps.Clone(templateNameWords)
	// (nor a word that says a file is a test: a task's "test" names every fixture under
	// tests/, alertmanager's test_templates.tmpl for "add a unit test for the watchdog start
	// command", review rev110)
	maps.Copy(generic, testNameWords)
	for _, ch := range links.Charms {
		for _, w := range dashedWords(ch.Name) {
			generic[w] = true
		}
	}
	// a word many templates' names share ("agent" of dhcp_agent.ini, l3_agent.ini, …) tells
	// none of them apart
	shared := map[string]int{}
	for _, f := range tmpls {
		for _, w := range slices.Compact(slices.Sorted(slices.Values(templateStem(path.Base(f.Path))))) {
			shared[w]++
		}
	}
	var writer *pyextract.File
	if len(writers) > 0 {
		writer = writers[0]
	}
	// (nor a word of the name of a declared interface the writer handles or reads: sentry's
	// web.override.conf.j2, "written" by every handler that reads option web-override, review
	// rev116; only those, not every declared name's: nginx.conf.j2 beside relation nginx-route,
	// review rev121)
	declared := maps.Clone(generic)
	for _, ch := range links.Charms {
		for _, it := range ch.Interfaces {
			if it.File == "" || writer == nil || !usesInterface(it, writer.Path) {
				continue // an event of every charm (start, update-status), no YAML's
			}
			for _, w := range dashedWords(it.Name) {
				declared[w] = true
			}
		}
	}
	written := writtenTemplates(tmpls, writer, declared, charms)
	namedBy := namedTemplates(tmpls, writers, charms)
	// the words of the task's first line in a template's text, not a generic one nor one
	// many templates share: two or more of them say what the task changes there ("Fix IRC
	// configuration setting domain with Synapse homeserver": config.yaml's homeserver and
	// domain; review rev126: filebeat's "ssl support for logstash")
	subjectWords := rank.TaskWordsIn(rank.SubjectLines(text))
	inText := map[string][]string{}
	textShared := map[string]int{}
	for _, f := range tmpls {
		if !textTemplate(f.Path) {
			continue
		}
		ws := slices.DeleteFunc(subjectWords(strings.Join(f.Words, " ")), func(w string) bool {
			return generic[strings.ToLower(w)] || len(w) < templateTextWordLen || jinjaTagWords[strings.ToLower(w)]
		})
		inText[f.Path] = ws
		for _, w := range ws {
			textShared[w]++
		}
	}
	for p, ws := range inText {
		inText[p] = slices.DeleteFunc(ws, func(w string) bool { return textShared[w] >= templateSharedWord })
	}
	picks := []TemplatePick{}
	inName := map[string]int{} // template → how many task words its file name has
	for _, f := range tmpls {
		// the class of the template's folder: a test's fixture (tests/.../templates/x.tpl)
		// only for a task about tests; a vendored library's (hooks/charmhelpers/.../templates)
		// only when the task writes its file name
		switch rank.Classify(path.Join(path.Dir(f.Path), "x.py"), charms) {
		case rank.ClassTest:
			if !tests {
				continue
			}
		case rank.ClassLib:
			if byName[f.Path] == "" {
				continue
			}
		}
		var why []string
		if len(renders[f.Path]) > 0 {
			why = append(why, "renders "+listNames(renders[f.Path])+", named in the task")
		}
		if n := byName[f.Path]; n != "" {
			why = append(why, "its file name matches the task ("+n+")")
		} else if ws := slices.DeleteFunc(nameWords(path.Base(f.Path)), func(w string) bool {
			return generic[strings.ToLower(w)] || shared[strings.ToLower(w)] >= templateSharedWord
		}); len(ws) > 0 {
			why = append(why, "its file name has task words ("+strings.Join(ws, ", ")+")")
			inName[f.Path] = len(ws)
		}
		if ws := inText[f.Path]; len(ws) >= templateTextWords && len(why) == 0 {
			why = append(why, "its text has task words ("+strings.Join(ws, ", ")+")")
		}
		if w := namedBy[f.Path]; w != nil {
			why = append(why, "its file name is written in "+w.Path+", an edit pick, which may render it")
		} else if own := written[f.Path]; own != "" {
			// the words, not the name: a docstring's "keepalived" passes for keepalived.conf.j2
			why = append(why, "the words of its name ("+own+") are in the strings of "+writer.Path+", the first Python edit pick, which may render it")
		}
		if len(why) > 0 {
			picks = append(picks, TemplatePick{Path: f.Path, Why: why})
		}
	}
	tie := func(a, b TemplatePick) int {
		named := func(p string) int { return len(byName[p]) }
		by := func(p string) int { // the pick writing its name: the earlier, the better
			if w := namedBy[p]; w != nil {
				return slices.Index(writers, w)
			}
			return len(writers)
		}
		return cmp.Or(cmp.Compare(count[b.Path], count[a.Path]), cmp.Compare(named(b.Path), named(a.Path)), cmp.Compare(by(a.Path), by(b.Path)),
			boolOrder(written[a.Path] == "", written[b.Path] == ""), cmp.Compare(inName[b.Path], inName[a.Path]))
	}
	slices.SortStableFunc(picks, tie)
	// The copies of one template in each release's folder (templates/kilo/nova.conf, …,
	// templates/pike/nova.conf) that tie are one pick: the newest release's, naming the others.
	out := []TemplatePick{}
	for i := 0; i < len(picks); i++ {
		group := []TemplatePick{picks[i]}
		for j := i + 1; j < len(picks); j++ {
			if tie(picks[i], picks[j]) == 0 && path.Base(picks[j].Path) == path.Base(picks[i].Path) {
				group = append(group, picks[j])
				picks = slices.Delete(picks, j, j+1)
				j--
			}
		}
		slices.SortStableFunc(group, func(a, b TemplatePick) int { return newerRelease(path.Dir(b.Path), path.Dir(a.Path)) })
		p := group[0]
		if len(group) > 1 {
			var also []string
			for _, g := range group[1:] {
				also = append(also, g.Path)
			}
			p.Why = append(p.Why, "the same template is also at "+listNames(also))
		}
		out = append(out, p)
	}
	return out[:min(len(out), LocateTemplates)]
}

// newerRelease compares two folders by the release their names give: a year's release
// ("2023.1") is newer than a named one ("zed"), year releases compare by number, named ones
// alphabetically (OpenStack's run from austin to zed); -1 when a is the older.
func newerRelease(a, b string) int {
	a, b = path.Base(a), path.Base(b)
	year := func(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
	switch {
	case year(a) && !year(b):
		return 1
	case !year(a) && year(b):
		return -1
	case year(a):
		pa, pb := strings.Split(a, "."), strings.Split(b, ".")
		for k := 0; k < min(len(pa), len(pb)); k++ {
			x, _ := strconv.Atoi(pa[k])
			y, _ := strconv.Atoi(pb[k])
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(pa), len(pb))
	}
	return strings.Compare(a, b)
}

// pythonPicks are the parsed files of the Python edit picks, in pick order.
func pythonPicks(t *repomap.Tree, edit []Pick) []*pyextract.File {
	var out []*pyextract.File
	for _, p := range edit {
		if strings.HasSuffix(p.Path, ".py") {
			if i, ok := slices.BinarySearchFunc(t.Files, p.Path, func(f pyextract.File, p string) int { return strings.Compare(f.Path, p) }); ok {
				out = append(out, &t.Files[i])
			}
		}
	}
	return out
}

// namedTemplates are the templates whose file name a writer writes whole as a string
// (Facts.FileNames: "glauth.cfg.j2" of open("templates/glauth.cfg.j2"), "gnocchi.conf" of
// charm-helpers' target "/etc/gnocchi/gnocchi.conf"), each with the first such writer: one of
// its own charm, and one that names few of the tree's templates (namedTemplatesMax): a
// resource map naming every one says nothing of the task.
func namedTemplates(tmpls []templates.File, writers []*pyextract.File, charms []charmyaml.Charm) map[string]*pyextract.File {
	out := map[string]*pyextract.File{}
	for _, w := range writers {
		names := w.Facts.FileNames
		var hits []string
		for _, f := range tmpls {
			if _, ok := slices.BinarySearch(names, path.Base(f.Path)); ok && rank.CharmDirOf(f.Path, charms) == rank.CharmDirOf(w.Path, charms) {
				hits = append(hits, f.Path)
			}
		}
		distinct := map[string]bool{}
		for _, h := range hits {
			distinct[path.Base(h)] = true
		}
		if len(distinct) > namedTemplatesMax {
			continue
		}
		for _, h := range hits {
			if out[h] == nil {
				out[h] = w
			}
		}
	}
	return out
}

// usesInterface reports an interface with a handler or a read in file p.
func usesInterface(it linker.Interface, p string) bool {
	return slices.ContainsFunc(it.Handlers, func(h linker.Handler) bool { return h.File == p }) ||
		slices.ContainsFunc(it.Reads, func(s linker.Site) bool { return s.File == p })
}

// namedTemplatesMax: a writer naming more of the tree's templates than this names none (a
// classic charm's resource map names every one). As many as locate lists: gitlab-runner's
// lib/libgitlabrunner.py renders its four templates, and two real commits edited those it
// names (review rev122). At 3 (session 53) a modified template was named in 32 of the 45
// cases of the dev and held-out sets that edit one, at 5 in 34, for 13 more of 1,619 tasks
// listing templates (371 → 384).
const namedTemplatesMax = LocateTemplates

// templateSharedWord: a word of this many templates' file names (or texts) or more names none
// of them. templateTextWords: the words of the task's first line, each of templateTextWordLen
// letters or more, a template's text must hold to be listed on them alone.
const (
	templateSharedWord  = 3
	templateTextWords   = 2
	templateTextWordLen = 5
)

// jinjaTagWords are Jinja's own words, in every template's text.
var jinjaTagWords = map[string]bool{"block": true, "include": true, "extends": true, "macro": true, "endif": true,
	"endfor": true, "endblock": true, "endmacro": true, "import": true, "import_": true, "filter": true, "default": true}

// textTemplate reports a template whose words may say what a task changes: not a Grafana
// dashboard (a JSON template of panel titles and queries, review rev128: listed for "jobs",
// "targets", "alert"), nor a documentation or release-notes template.
func textTemplate(p string) bool {
	lp := strings.ToLower(p)
	if strings.Contains(lp, ".json") || strings.Contains(lp, "dashboard") {
		return false
	}
	for _, seg := range strings.Split(path.Dir(lp), "/") {
		if seg == "docs" || strings.HasPrefix(seg, "docs-") || strings.Contains(seg, "release-notes") {
			return false
		}
	}
	return true
}

// dashedWords is the lower-case words of a charm's or an interface's name (at '-', '_').
func dashedWords(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
}

// templateStem is the lower-case words of a template's file name (at '.', '-', '_').
func templateStem(name string) []string {
	return strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '.' || r == '-' || r == '_' })
}

// writtenTemplates are the templates of its charm whose file name the strings of writer (the
// first Python edit pick) write, each with the words found: every word of the name that is no
// format's or the charm's (generic) is among writer's string words (CONFIG_TEMPLATE_NAME = "ausfcfg.conf.j2";
// get_template("src/nginx.conf.j2")), or, for a name of such words only (config.yaml.j2),
// every word when the tree has two templates at most. Only when writer names two template
// names at most: a classic charm's resource map names them all, and says nothing of the task.
func writtenTemplates(tmpls []templates.File, writer *pyextract.File, generic map[string]bool, charms []charmyaml.Charm) map[string]string {
	if writer == nil {
		return nil
	}
	tmpls = slices.DeleteFunc(slices.Clone(tmpls), func(f templates.File) bool {
		return rank.CharmDirOf(f.Path, charms) != rank.CharmDirOf(writer.Path, charms) // another charm's
	})
	has := map[string]bool{}
	for _, w := range writer.Words {
		has[w] = true
	}
	out := map[string]string{} // template → the words of its name found
	names := map[string]bool{}
	for _, f := range tmpls {
		words := templateStem(path.Base(f.Path))
		own := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return generic[w] })
		if len(own) == 0 && len(tmpls) > 2 {
			continue
		}
		if len(own) == 0 {
			own = words
		}
		if len(own) > 0 && !slices.ContainsFunc(own, func(w string) bool { return !has[w] }) {
			out[f.Path] = strings.Join(own, ", ")
			names[path.Base(f.Path)] = true
		}
	}
	if len(names) > 2 {
		return nil
	}
	return out
}

// boolOrder orders false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// templateNameWords are words of templates' file names that say nothing of what they render:
// formats and kinds of file.
var templateNameWords = map[string]bool{"conf": true, "config": true, "configuration": true, "cfg": true, "ini": true,
	"j2": true, "jinja": true, "jinja2": true, "tmpl": true, "template": true, "yaml": true, "yml": true, "json": true,
	"toml": true, "txt": true, "xml": true, "env": true, "file": true, "default": true, "defaults": true}

// besideWord adds to into the names of one to three words written just before or just after
// words[i], joined with '-' ("the async replication relation": async-replication).
func besideWord(words []string, i int, into map[string]bool) {
	for n := 1; n <= 3; n++ {
		if i-n >= 0 {
			into[strings.Join(words[i-n:i], "-")] = true
		}
		if i+1+n <= len(words) {
			into[strings.Join(words[i+1:i+1+n], "-")] = true
		}
	}
}

// namedRelation is a relation (or an action) the task names that a file handles
// (namedRelationHandlers).
type namedRelation struct {
	Name string
	// Action: the task names an action so called, beside the word "action".
	Action bool
	// Script: the file is the action's own script (actions/<name>), which Juju runs for it.
	Script bool
	// Interface is set when the task names the relation's interface, not the relation.
	Interface string
	// LookedUp: nothing observes the relation, and the file looks it up.
	LookedUp bool
}

// kind is the word for what the task names: "relation" or "action".
func (r namedRelation) kind() string {
	if r.Action {
		return "action"
	}
	return "relation"
}

// says is the reason a namedRelation gives a pick.
func (r namedRelation) says() string {
	the := "the " + r.Name + " " + r.kind() + " the task names"
	if r.Interface != "" { // a relation's, as LookedUp below
		the = "the " + r.Name + " relation, whose interface " + r.Interface + " the task names"
	}
	if r.LookedUp {
		return "looks up " + the + ", which no handler of its own observes"
	}
	return "handles " + the
}

// intentSignals are the ranker's signals of a kind of task whose file it puts first.
var intentSignals = []string{rank.SigDeclarationIntent, rank.SigAdditionIntent, rank.SigBuildIntent, rank.SigDependencyUpdate,
	rank.SigWorkloadPin, rank.SigLibUpdate, rank.SigLibIntent, rank.SigOwnLibIntent}

// leadsName names what the leads handle (ledBy), for sayWhyFirst: the relation, the action,
// or the relation or action the task names.
func leadsName(ledBy map[string][]namedRelation) string {
	var rel, act bool
	for _, named := range ledBy {
		for _, n := range named {
			act, rel = act || n.Action, rel || !n.Action
		}
	}
	switch {
	case rel && act:
		return "the relation or action the task names"
	case act:
		return "the action the task names"
	}
	return "the relation the task names"
}

// sayWhyFirst adds a reason to each edit pick from from to to (a group locate lists ahead of
// the files by score: handlers of a relation the task names, then the tests a task about
// tests asks for) whose score is below a later pick's, so that the order does not contradict
// the printed scores unexplained; as names the group.
func sayWhyFirst(edit []Pick, from, to int, as string) {
	for i := from; i < min(to, len(edit)); i++ {
		if slices.ContainsFunc(edit[i+1:], func(p Pick) bool { return p.Score > edit[i].Score }) {
			edit[i].Why = append(edit[i].Why, "listed before picks that score higher, as "+as)
		}
	}
}

// signal is the value of a file's signal, 0 when it has none.
func signal(f rank.File, name string) float64 {
	for _, s := range f.Signals {
		if s.Name == name {
			return s.Value
		}
	}
	return 0
}

// testsAsked is what a task asks of the tests: nothing, or tests of which kind.
type testsAsked int

const (
	noTests   testsAsked = iota
	anyTests             // tests, of no kind named (or of both)
	unitTests            // "unit tests": not a deployed charm's (integration, functional) tests
	wideTests            // "integration tests", "functional tests": only a deployed charm's
)

// asks reports whether the task asks for tests at all.
func (a testsAsked) asks() bool { return a != noTests }

// takes reports whether a test file at path p is of the kind asked for. A deployed charm's
// test lives in a folder (or file) named for its kind: tests/integration/, tests/functional/,
// tests/e2e/, or an OpenStack charm's tests/bundles/; every other test is a unit test.
func (a testsAsked) takes(p string) bool {
	switch a {
	case unitTests:
		return !deployedTest(p)
	case wideTests:
		return deployedTest(p)
	}
	return a == anyTests
}

// deployedTest reports a test path in a deployed charm's test folder or file (see takes).
func deployedTest(p string) bool {
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		seg = strings.TrimSuffix(seg, ".py")
		if strings.Contains(seg, "integration") || strings.Contains(seg, "functional") ||
			seg == "e2e" || seg == "bundles" {
			return true
		}
	}
	return false
}

// asksForTests reads a task about tests ("add a unit test for ...", "fix the flaky
// integration tests"), whose edits include test files, from its subject (rank.SubjectLines):
// a body's "update the unit tests to match" says what else the change had to touch, not what
// it is about. "tests", "testing", "unittest" and "pytest" say so; "test" alone only as a
// test's own noun: after a kind or a verb ("a unit test", "add test") or before what a test
// has ("test for", "test case", "the test fails"). Not a word of an identifier (the option
// test_name or test-name) and not a workload's test ("retrieve the benchmark test results" is
// about results). The kind is the word before "test(s)" (unit, or integration, functional,
// e2e, or several joined by and/or), unittest(s) is unit; both kinds, or none, ask for any
// test.
func asksForTests(text string) testsAsked {
	text = strings.Join(rank.SubjectLines(text), "\n")
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
	var seq []string // the words as written; a compound only when a test's kind ("unit-tests")
	for _, w := range words {
		parts := strings.Split(w, "-")
		if strings.Contains(w, "_") || len(parts) > 1 && !testBefore[parts[0]] {
			seq = append(seq, "") // an identifier (test_name, test-name): none of its parts is a word of the task
			continue
		}
		seq = append(seq, parts...)
	}
	asked, unit, wide := false, false, false
	for i, w := range seq {
		switch w {
		case "unittest", "unittests":
			asked, unit = true, true
		case "tests", "testing", "pytest":
			asked = true
		case "test":
			if (i == 0 || !testBefore[seq[i-1]]) && (i+1 == len(seq) || !testAfter[seq[i+1]]) {
				continue
			}
			asked = true
		default:
			continue
		}
	kinds:
		for j := i - 1; j >= 0; j-- { // the kinds before it: "unit and integration tests"
			switch seq[j] {
			case "unit":
				unit = true
			case "integration", "functional", "e2e":
				wide = true
			case "and", "or":
			default:
				break kinds
			}
		}
	}
	switch {
	case !asked:
		return noTests
	case unit && !wide:
		return unitTests
	case wide && !unit:
		return wideTests
	}
	return anyTests
}

// testsLead reports a task whose subject opens on its tests: asksForTests of the subject's
// first clause (up to a ',', a ';', a sentence's end or a " - " list item), so that "fix the
// flaky unit tests" lists the tests first and "update apt_key on charm upgrade, fix unit
// test", "Reacts to the update ... and updates certifier cert. - Adds test cases. - Fixes
// tox issues" (review rev126) or "prevent unitdb creation during unittest" after its code,
// which its subject is about first.
func testsLead(text string) bool {
	lines := rank.SubjectLines(text)
	clause := lines[len(lines)-1]
	for _, sep := range []string{",", ";", ". ", " - "} {
		clause, _, _ = strings.Cut(clause, sep)
	}
	return asksForTests(clause).asks()
}

// testNameWords are the words that say a file is a test (test_, _test, tests/unit/): no word
// of what it tests.
var testNameWords = map[string]bool{"test": true, "tests": true, "testing": true, "unit": true, "integration": true}

// testBefore and testAfter are the words beside "test" that make it a test of the code.
var (
	testBefore = map[string]bool{"unit": true, "integration": true, "functional": true, "scenario": true, "e2e": true,
		"smoke": true, "regression": true, "charm": true, "new": true, "add": true, "adds": true,
		"added": true, "adding": true, "fix": true, "fixes": true, "fixed": true, "fixing": true, "failing": true, "flaky": true,
		"broken": true, "write": true, "writing": true}
	testAfter = map[string]bool{"for": true, "case": true, "cases": true, "suite": true, "coverage": true, "file": true,
		"fails": true, "failure": true, "fixture": true, "fixtures": true, "helper": true, "helpers": true,
		"checking": true, "covering": true}
)

// closelyTied reports a file the task names, or names something of (a file name, an
// identifier, an interface), or whose text holds the task's words nearly as well as the best
// file's (CloseWordShare of LexBoost's most).
func closelyTied(f rank.File) bool {
	for _, s := range []string{rank.SigMentionFile, rank.SigMentionIdent, rank.SigMentionInterface, rank.SigFocus, rank.SigFocusCaller} {
		if signal(f, s) != 0 {
			return true
		}
	}
	w := signal(f, rank.SigMentionWords)
	return w > 0 && math.Log(w) >= CloseWordShare*rank.LexBoost
}

// editWhy turns a file's rank signals into reasons, the ones the task earned first; named are
// the relations the task names explicitly that the file handles.
func editWhy(f rank.File, named []namedRelation) (why []string, tied bool) {
	sig := map[string]rank.Signal{}
	for _, s := range f.Signals {
		sig[s.Name] = s
	}
	add := func(name, text string) {
		if _, ok := sig[name]; ok {
			why = append(why, text)
		}
	}
	for _, rel := range named {
		why = append(why, rel.says())
	}
	add(rank.SigFocus, "focused: the agent is working on it")
	add(rank.SigSubjectFile, "the task's first line names this file (its path, its name, or a function or method only it defines)")
	add(rank.SigLibUpdate, "library the task refreshes")
	add(rank.SigDependencyUpdate, "build recipe pinning the dependency the task bumps")
	add(rank.SigBuildIntent, "build recipe, and the task is about building the charm")
	add(rank.SigWorkloadPin, "pins the workload release the task upgrades")
	add(rank.SigDeclarationIntent, "declares what the task changes (a description, default, flag, name or metadata field, or what it removes as unused)")
	add(rank.SigOwnLibIntent, "the charm's own library, and the task is about its library")
	add(rank.SigAdditionIntent, "declares the kind of interface the task adds")
	add(rank.SigConfigClass, "holds the class the charm loads its options into, or the module reading most of them, and the task adds an option")
	if note := sig[rank.SigNamedCharm].Note; strings.Contains(note, " charm, ") {
		add(rank.SigNamedCharm, "in the "+note+", which the task names") // named by its own interface (rank namedByInterface)
	} else {
		add(rank.SigNamedCharm, "in the "+note+" charm the task names")
	}
	add(rank.SigNamedFolder, "in "+sig[rank.SigNamedFolder].Note+"/, the folder the task's scope names")
	// a file or identifier "matches" the task: named in it, or spelled by its words (the word
	// "config" matches config.py and update_config)
	add(rank.SigMentionFile, "its file name matches the task ("+sig[rank.SigMentionFile].Note+")")
	add(rank.SigMentionIdent, "defines names that match the task ("+sig[rank.SigMentionIdent].Note+")")
	switch {
	case len(named) > 0: // said above, more precisely
	case f.Class == rank.ClassYAML:
		add(rank.SigMentionInterface, "declares "+sig[rank.SigMentionInterface].Note+" named in the task")
	default:
		// (an entry point given an event no code observes yet: rank.NoteNewObserver)
		var handled, observers []string
		for _, l := range strings.Split(sig[rank.SigMentionInterface].Note, ", ") {
			if ev, ok := strings.CutPrefix(l, rank.NoteNewObserver); ok {
				observers = append(observers, ev)
			} else if l != "" {
				handled = append(handled, l)
			}
		}
		if len(handled) > 0 {
			note := strings.Join(handled, ", ")
			add(rank.SigMentionInterface, interfaceVerb(note)+" "+note+" named in the task")
		}
		if len(observers) > 0 {
			why = append(why, "where the charm would observe event "+strings.Join(observers, ", ")+", named in the task, which no code observes yet")
		}
	}
	if words := sig[rank.SigMentionWords].Note; words != "" {
		add(rank.SigMentionWords, fmt.Sprintf("its text (names, strings, comments) has task words %s (×%s of at most ×%s)", words, num(sig[rank.SigMentionWords].Value), num(math.Exp(rank.LexBoost))))
	} else {
		add(rank.SigMentionWords, fmt.Sprintf("its text (names, strings, comments) has words of the task (×%s of at most ×%s)", num(sig[rank.SigMentionWords].Value), num(math.Exp(rank.LexBoost))))
	}
	add(rank.SigFocusCaller, "uses focused "+sig[rank.SigFocusCaller].Note)
	add(rank.SigFocusDeclares, "declares what focused "+sig[rank.SigFocusDeclares].Note+" handles")
	if fns := taskFunctions(f); fns != "" {
		why = append(why, "functions whose code has the task's words: "+fns)
	}
	// the lines above come from the task or the focus; those below from the tree
	tied = len(why) > 0
	said := sig[rank.SigMentionInterface].Note // what the lines above named
	if len(named) > 0 {
		var rels []string
		for _, rel := range named {
			rels = append(rels, rel.kind()+" "+rel.Name)
		}
		said = strings.Join(rels, ", ")
	}
	if h := otherHandled(sig[rank.SigLinkHandler].Note, said); h != "" {
		add(rank.SigLinkHandler, "handles "+h)
	}
	add(rank.SigHub, "charm entry point")
	add(rank.SigFirstPartyImport, "shared module imported by charm code")
	add(rank.SigCoOwnedLib, "a library its charm develops too: it "+sig[rank.SigCoOwnedLib].Note)
	add(rank.SigLibIntent, "vendored library, and the task is about libraries")
	add(rank.SigTest, "test file whose names match the task, which is about tests")
	_, libTask := sig[rank.SigLibIntent] // the task is about libraries
	tied = tied || libTask
	if len(why) == 0 {
		why = append(why, "no tie to the task: listed by its place in the reference graph (pagerank "+num(sig[rank.SigPageRank].Value)+")")
	}
	if len(f.Copies) > 0 {
		why = append(why, "the same code is also at "+strings.Join(f.Copies, ", "))
	}
	return why, tied
}

// taskFunctions names a file's functions whose bodies have the most of the task's words
// (rank.Symbol.TaskWords), at most taskFns, most words first, with their lines and words:
// "AuthManager.add_acl (line 226: prefixed, topic)". "" when none has.
func taskFunctions(f rank.File) string {
	var with []rank.Symbol
	for _, s := range f.Symbols {
		if len(s.TaskWords) > 0 {
			with = append(with, s)
		}
	}
	// those with the most of the task's words first, in the map's order among equals (review
	// rev105: layer-cwr's cleanup_jenkins, the one the task was about, came sixth in map order)
	slices.SortStableFunc(with, func(a, b rank.Symbol) int { return cmp.Compare(len(b.TaskWords), len(a.TaskWords)) })
	var out []string
	for _, s := range with[:min(len(with), taskFns)] {
		out = append(out, fmt.Sprintf("%s (line %d: %s)", s.Name, s.Line, strings.Join(s.TaskWords, ", ")))
	}
	return strings.Join(out, ", ")
}

// otherHandled is the note of what a file handles without what was said above ("handles the
// kafka relation the task names", "handles action set-password named in the task"): "" when
// that was all.
func otherHandled(handles, named string) string {
	if named == "" {
		return handles
	}
	seen := map[string]bool{}
	for _, n := range strings.Split(named, ", ") {
		seen[n] = true
	}
	var rest []string
	for _, h := range strings.Split(handles, ", ") {
		if !seen[h] || h == "…" {
			rest = append(rest, h)
		}
	}
	if len(rest) == 0 || len(rest) == 1 && rest[0] == "…" {
		return ""
	}
	return strings.Join(rest, ", ")
}

// tieIndex holds the direct ties between files: the top-level names each Python file
// defines, the names each uses, where it imports them from, and which files handle or read
// the interfaces each YAML file declares.
type tieIndex struct {
	defs   map[string][]string            // path → names it defines, sorted
	refs   map[string]map[string]int      // path → name → uses
	from   map[string]map[string]string   // path → name it imports from the tree → the module's path ("charms/x/v2/tracing")
	mods   map[string][]string            // path → the paths of the modules it imports whole (import constants; from core import cluster)
	ifaces map[string]map[string][]string // YAML path → handling file → interfaces
	uses   map[string]map[string][]string // YAML path → file reading or looking up (not handling) → interfaces
	// mayUse: YAML path → file importing a package outside the tree that may read or handle
	// the interface (linker's guesses: ViaPackage, ViaDelegate, ViaBase) → interfaces
	mayUse map[string]map[string][]string
	files  []string // every Python file's path, sorted
	charms []string // the charms' folders, deepest first
}

// importPath is the slash path a module imported by file user names: "charms.x.v2.tracing"
// is charms/x/v2/tracing (matched as a suffix), a relative ".state" or "..core" resolves
// against user's folder to a full path.
func importPath(user, module string) string {
	rel := len(module) - len(strings.TrimLeft(module, "."))
	p := strings.ReplaceAll(module[rel:], ".", "/")
	if rel == 0 {
		return p
	}
	dir := path.Dir(user)
	for range rel - 1 {
		dir = path.Dir(dir)
	}
	if dir == "." {
		return p
	}
	return strings.TrimSuffix(dir+"/"+p, "/")
}

// modulePath reports whether file def is the module at slash path mod (or its package's
// __init__.py), mod a suffix of def's path.
func modulePath(def, mod string) bool {
	return endsIn(strings.TrimSuffix(strings.TrimSuffix(def, ".py"), "/__init__"), mod)
}

// nearest reports whether def, a file match(def, mod) accepts, is one of those nearest user
// (sharing the most leading folders with it): what an import of mod in user means, as
// Python's path puts user's own charm first. In a monorepo "import constants" in one charm's
// charm.py is its own src/constants.py, not a sibling charm's.
func (ix tieIndex) nearest(def, user, mod string, match func(def, mod string) bool) bool {
	if !match(def, mod) {
		return false
	}
	best := sharedDirs(def, user)
	for _, f := range ix.files {
		if f != def && sharedDirs(f, user) > best && match(f, mod) {
			return false
		}
	}
	return true
}

// sharedDirs is the number of leading folders two slash paths share.
func sharedDirs(a, b string) int {
	as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] && as[n] != "." {
		n++
	}
	return n
}

// newCharmOrder sorts charm folders for charmOf: deepest first, the root's last (it holds
// every file).
func newCharmOrder(dirs []string) []string {
	dirs = slices.Clone(dirs)
	slices.SortFunc(dirs, func(a, b string) int { // deepest first, the root's last: it holds every file
		root := func(d string) int {
			if d == "." {
				return 1
			}
			return 0
		}
		return cmp.Or(cmp.Compare(root(a), root(b)), cmp.Compare(strings.Count(b, "/"), strings.Count(a, "/")), cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	return dirs
}

// charmOf is the folder of the charm file p belongs to (the deepest holding it), "" for a
// file of no charm.
func (ix tieIndex) charmOf(p string) string {
	for _, d := range ix.charms {
		if d == "." || strings.HasPrefix(p, d+"/") {
			return d
		}
	}
	return ""
}

// inPackage reports whether file def is a module of the package at slash path mod (a name
// imported from core may be defined in core/cluster.py and re-exported by core/__init__.py).
func inPackage(def, mod string) bool {
	return endsIn(path.Dir(def), mod)
}

// endsIn reports whether slash path p is mod or ends with /mod.
func endsIn(p, mod string) bool {
	return p == mod || strings.HasSuffix(p, "/"+mod)
}

func newTieIndex(t *repomap.Tree, links linker.Result) tieIndex {
	ix := tieIndex{defs: map[string][]string{}, refs: map[string]map[string]int{}, from: map[string]map[string]string{},
		mods: map[string][]string{}, ifaces: map[string]map[string][]string{}, uses: map[string]map[string][]string{},
		mayUse: map[string]map[string][]string{}}
	definers := map[string][]string{}
	segments := map[string]bool{} // every folder and module name of the tree: what an import of it may name
	for _, f := range t.Files {
		for _, part := range strings.Split(strings.TrimSuffix(f.Path, ".py"), "/") {
			segments[part] = true
		}
		ix.files = append(ix.files, f.Path)
	}
	slices.Sort(ix.files)
	for _, ch := range t.Charms {
		ix.charms = append(ix.charms, ch.Dir)
	}
	ix.charms = newCharmOrder(ix.charms)

	for _, f := range t.Files {
		ix.refs[f.Path] = map[string]int{}
		outside := map[string]bool{} // names the file imports from a package outside the tree
		ix.from[f.Path] = map[string]string{}
		for _, im := range f.Imports {
			top, _, _ := strings.Cut(im.Module, ".")
			switch {
			case im.Name == "*":
			case im.Name == "": // import constants: constants.PEER
				ix.mods[f.Path] = append(ix.mods[f.Path], importPath(f.Path, im.Module))
			case top != "" && !segments[top]:
				outside[cmp.Or(im.Alias, im.Name)] = true
			default:
				mod := importPath(f.Path, im.Module)
				ix.from[f.Path][cmp.Or(im.Alias, im.Name)] = mod
				// from core import cluster: a module, when a file is so named
				ix.mods[f.Path] = append(ix.mods[f.Path], strings.TrimPrefix(mod+"/"+im.Name, "/"))
			}
		}
		for _, r := range f.Refs {
			if !outside[r.Name] { // "from ops.pebble import APIError" uses ops' APIError, not the tree's
				ix.refs[f.Path][r.Name] += r.Count
			}
		}
		for _, s := range f.Symbols {
			if s.Qualifier == "" && !slices.Contains(definers[s.Name], f.Path) {
				definers[s.Name] = append(definers[s.Name], f.Path)
			}
		}
	}
	for name, files := range definers {
		// A name many files define (main, logger, setUp) is a convention, not a tie.
		if len(files) > rank.ManyDefinersThreshold || len(strings.Trim(name, "_")) < 3 {
			continue
		}
		for _, p := range files {
			ix.defs[p] = append(ix.defs[p], name)
		}
	}
	for _, names := range ix.defs {
		slices.Sort(names)
	}
	for _, ch := range links.Charms {
		for _, it := range ch.Interfaces {
			if it.File == "" {
				continue
			}
			label := it.Kind + " " + it.Name
			add := func(to map[string]map[string][]string, f string) {
				m := to[it.File]
				if m == nil {
					m = map[string][]string{}
					to[it.File] = m
				}
				if !slices.Contains(m[f], label) {
					m[f] = append(m[f], label)
				}
			}
			for _, h := range it.Handlers {
				add(ix.ifaces, h.File)
			}
			for _, r := range it.Reads {
				// a path constant neither handles nor reads the storage; a file that also
				// handles the interface is said to handle it; a package the file imports that
				// may read it is a guess, and said so
				switch {
				case r.Via == linker.ViaPath || slices.ContainsFunc(it.Handlers, func(h linker.Handler) bool { return h.File == r.File }):
				case r.Via == linker.ViaPackage || r.Via == linker.ViaDelegate || r.Via == linker.ViaBase:
					add(ix.mayUse, r.File)
				default:
					add(ix.uses, r.File)
				}
			}
		}
	}
	return ix
}

// byVerb splits interface labels ("config port", "relation db") used without a handler by
// what the use is: an option or action is read, a relation, container or storage looked up;
// in that order.
func byVerb(labels []string) iter.Seq2[string, []string] {
	return func(yield func(string, []string) bool) {
		var reads, lookups []string
		for _, l := range labels {
			if k, _, _ := strings.Cut(l, " "); k == linker.KindConfig || k == linker.KindAction || k == linker.KindResource || k == linker.KindSecret {
				reads = append(reads, l)
			} else {
				lookups = append(lookups, l)
			}
		}
		if len(reads) > 0 && !yield("reads", reads) {
			return
		}
		if len(lookups) > 0 {
			yield("looks up", lookups)
		}
	}
}

// mayVerb is byVerb's verb after "may": "read", "look up".
func mayVerb(verb string) string {
	if verb == "reads" {
		return "read"
	}
	return "look up"
}

// why lists file p's direct ties to the edit picks, in pick order.
func (ix tieIndex) why(p string, edit []Pick) []string {
	var out []string
	for _, e := range edit {
		if names := ix.used(p, e.Path); len(names) > 0 {
			out = append(out, "defines "+names+" used by "+e.Path)
		}
		if names := ix.used(e.Path, p); len(names) > 0 {
			out = append(out, "uses "+names+" from "+e.Path)
		}
		if l := ix.ifaces[p][e.Path]; len(l) > 0 {
			out = append(out, "declares "+listNames(l)+" that "+e.Path+" handles")
		}
		for verb, l := range byVerb(ix.uses[p][e.Path]) {
			out = append(out, "declares "+listNames(l)+" that "+e.Path+" "+verb)
		}
		for verb, l := range byVerb(ix.mayUse[p][e.Path]) {
			out = append(out, "declares "+listNames(l)+" that a package "+e.Path+" imports may "+mayVerb(verb))
		}
		if l := ix.ifaces[e.Path][p]; len(l) > 0 {
			out = append(out, "handles "+listNames(l)+" declared in "+e.Path)
		}
		for verb, l := range byVerb(ix.uses[e.Path][p]) {
			out = append(out, verb+" "+listNames(l)+" declared in "+e.Path)
		}
		for verb, l := range byVerb(ix.mayUse[e.Path][p]) {
			out = append(out, "imports a package that may "+mayVerb(verb)+" "+listNames(l)+" declared in "+e.Path)
		}
	}
	return out
}

// used lists the names def defines that user uses, most used first.
func (ix tieIndex) used(def, user string) string {
	return listNames(ix.usedNames(def, user))
}

// usedNames are the names of used, most used first.
func (ix tieIndex) usedNames(def, user string) []string {
	refs := ix.refs[user]
	whole := ix.importsWhole(def, user)
	var names []string
	for _, n := range ix.defs[def] {
		if _, own := slices.BinarySearch(ix.defs[user], n); own {
			continue // its own definition: two files with a DEFAULT_RELATION_NAME each use neither's
		}
		mod, imported := ix.from[user][n]
		switch {
		case refs[n] == 0:
		case imported:
			// imported by name: a tie only to the module it comes from (charm.py's
			// TracingEndpointProvider of v2/tracing.py is not v1's), or to a module of that
			// package (re-exported by its __init__.py)
			if ix.nearest(def, user, mod, modulePath) || ix.nearest(def, user, mod, inPackage) {
				names = append(names, n)
			}
		case whole:
			names = append(names, n) // import constants: constants.PEER
		case rank.Distinctive(n) && ix.charmOf(def) == ix.charmOf(user) && !ix.wholeOtherDefiner(n, def, user):
			// used but not imported (a name any object may have, or a star import): only a
			// name specific enough to mean this definition (not config, not restart), of the
			// same charm (a monorepo's charms share names, not code), and not one a module
			// user imports whole defines too
			names = append(names, n)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(refs[b], refs[a]) })
	return names
}

// importsWhole reports whether user imports the module def whole ("import constants", "from
// core import cluster").
func (ix tieIndex) importsWhole(def, user string) bool {
	return slices.ContainsFunc(ix.mods[user], func(m string) bool { return ix.nearest(def, user, m, modulePath) })
}

// wholeOtherDefiner reports whether user imports whole a module other than def that defines
// n: a workload package's "from image_builder import config" then config.ImageConfig uses
// that module's ImageConfig, not the charm's src/state.py's.
func (ix tieIndex) wholeOtherDefiner(n, def, user string) bool {
	return slices.ContainsFunc(ix.files, func(f string) bool {
		_, defines := slices.BinarySearch(ix.defs[f], n)
		return defines && f != def && f != user && ix.importsWhole(f, user)
	})
}

// listNames joins up to tieNames names, saying how many more there are.
func listNames(names []string) string {
	if len(names) > tieNames {
		return fmt.Sprintf("%s (+%d more)", strings.Join(names[:tieNames], ", "), len(names)-tieNames)
	}
	return strings.Join(names, ", ")
}

// writeLocated prints the picks, each with its reasons indented below it.
func writeLocated(w io.Writer, res Located) error {
	var sb strings.Builder
	for _, part := range []struct {
		title string
		picks []Pick
	}{{"edit", res.Edit}, {"read", res.Read}} {
		sb.WriteString(part.title + ":\n")
		if part.title == "edit" && len(part.picks) > 0 && !res.Matched {
			sb.WriteString("  (nothing in the tree matches the task's words: these are the charm's central files)\n")
		}
		if len(part.picks) == 0 {
			sb.WriteString("  (none)\n")
		}
		for _, p := range part.picks {
			fmt.Fprintf(&sb, "  %s (%s)\n", locatePath(p.Path), num(p.Score))
			for _, why := range p.Why {
				sb.WriteString("    - " + oneLine(why) + "\n")
			}
		}
	}
	if len(res.Templates) > 0 { // a section only when the task points to one
		sb.WriteString("templates:\n")
	}
	for _, p := range res.Templates {
		sb.WriteString("  " + locatePath(p.Path) + "\n")
		for _, why := range p.Why {
			sb.WriteString("    - " + oneLine(why) + "\n")
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// num prints a score with three significant digits.
func num(x float64) string { return fmt.Sprintf("%.3g", x) }

// locatePath is a pick's path as the text prints it: Go-quoted when it would read as
// something else (safetext.Path), when it holds " (" (the score follows it so) and when it
// starts with "(" (a part's "(none)").
func locatePath(p string) string {
	if strings.HasPrefix(p, "(") {
		return strconv.Quote(p)
	}
	return safetext.Path(p, " (")
}

// interfaceVerb is what code does with the interfaces of a mention-interface note ("config
// log_level, relation db"): an option has no handler, its code reads it.
func interfaceVerb(note string) string {
	configs, all := 0, 0
	for _, l := range strings.Split(note, ", ") {
		if l == "…" { // noteOf's "more"
			continue
		}
		all++
		if strings.HasPrefix(l, "config ") {
			configs++
		}
	}
	switch configs {
	case 0:
		return "handles"
	case all:
		return "reads"
	}
	return "handles or reads"
}
