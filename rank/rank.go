package rank

import (
	"cmp"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Rank orders the files of a tree and the symbols within each file. The same Input always
// gives the same Result, digit for digit.
func Rank(in Input) Result {
	r := newRanker(in)
	if len(r.nodes) == 0 {
		return Result{Files: []File{}}
	}
	r.match()
	r.resolveImports()
	r.promoteImported()
	r.coOwnLibraries(in.Charms)
	r.findHubs()
	r.quietTests()
	a := adjacencyOf(r.buildGraph(r.linkEdges()), len(r.nodes))
	r.personalise(a)
	pr := pageRank(a, r.teleport())
	return Result{Files: r.files(a, pr, r.lexical()), Named: r.namedIfaces}
}

// extra is what the ranker learns about a file besides its graph position.
type extra struct {
	personal map[string]float64  // signal → personal restart mass
	notes    map[string][]string // signal → what matched
	waive    bool                // focused or named: no class penalty
	codeName string              // a name written as code in the task that only this file defines
	handles  []string            // interfaces its symbols handle ("relation database")
}

func (e *extra) add(sig string, mass float64, note string) {
	if e.personal == nil {
		e.personal, e.notes = map[string]float64{}, map[string][]string{}
	}
	e.personal[sig] += mass
	if note != "" && !slices.Contains(e.notes[sig], note) {
		e.notes[sig] = append(e.notes[sig], note)
	}
}

type ranker struct {
	graphBuilder
	in        Input
	decls     []decl
	declsOf   map[string][]int // YAML file → indexes of the decls it declares
	extra     []extra
	ment      mentions
	focus     map[int]bool
	handlerS  map[string][]string // file + "\x00" + symbol → interfaces it handles
	readerS   map[string]bool     // file + "\x00" + symbol → it reads an option or parameter, or looks up an interface
	lexNotes  []string            // per node: the task words that weigh most in its lexical score (lexical)
	charmRefs map[int]bool        // names the charm's own code uses (usedByCharm)
	words     wordCache           // identWords of paths and YAML names
	hotSym    map[string]bool     // file + "\x00" + symbol (or YAML kind+name) named in the task
	// namedUpdate holds the libraries a library-update subject names (libNamedUpdate).
	namedUpdate map[int]bool
	subjects    []subject       // the task texts' subject lines, parsed once
	added       map[string]bool // the kinds of interface a subject line adds (additionKinds), found once
	// personalTotal is the sum of personal restart masses (0 without focus and mentions).
	personalTotal float64
	held          map[string]bool   // holdsPath's answers, by path: asked for every file per path the task names
	inits         map[string]int    // initialsCount: files by the initials of their stems, built on first use
	named         map[string]string // the directories of the charms the task names, to the name (namedCharms)
	namedIfaces   []Named           // the interfaces the task names (Result.Named)
	stems         map[string]bool   // fileNames, built on first use
}

func newRanker(in Input) *ranker {
	r := &ranker{in: in, handlerS: map[string][]string{}, readerS: map[string]bool{}, hotSym: map[string]bool{}, focus: map[int]bool{},
		namedUpdate: map[int]bool{}, subjects: subjectsOf(in.Mentions),
		words: wordCache{}}
	r.decls = declarations(in.Charms, in.Links, charmClasses(in.Files), sharedClasses(in.Files, in.Charms))
	declared := func(kind, name string) bool {
		return slices.ContainsFunc(r.decls, func(d decl) bool { return d.lkind == kind && strings.EqualFold(d.sym.Name, name) })
	}
	r.added = map[string]bool{}
	for k, s := range r.subjects {
		kinds := additionKinds(s.text, declared)
		maps.Copy(r.added, kinds)
		r.subjects[k].adds = len(kinds) > 0
	}
	for _, m := range in.Mentions { // anywhere in the text: "Enable ssl_ca configuration parameter", undeclared
		if newOptionNamed(m, declared) {
			r.added[linker.KindConfig] = true
		}
	}
	r.declsOf = map[string][]int{}
	for k, d := range r.decls {
		r.declsOf[d.file] = append(r.declsOf[d.file], k)
	}
	r.byPath = map[string]int{}
	for k := range in.Files {
		p := cleanPath(in.Files[k].Path)
		if _, dup := r.byPath[p]; !dup && p != "." {
			r.byPath[p] = -1
			r.nodes = append(r.nodes, node{path: p, py: &in.Files[k]})
		}
	}
	addYAML := func(p string) {
		if _, dup := r.byPath[p]; !dup && p != "" && p != "." {
			r.byPath[p] = -1
			r.nodes = append(r.nodes, node{path: p})
		}
	}
	for _, c := range in.Charms {
		for _, f := range c.Files {
			addYAML(cleanPath(f))
		}
	}
	for _, d := range r.decls {
		addYAML(d.file)
	}
	slices.SortFunc(r.nodes, func(a, b node) int { return strings.Compare(a.path, b.path) })
	for i := range r.nodes {
		r.byPath[r.nodes[i].path] = i
		r.nodes[i].class = Classify(r.nodes[i].path, in.Charms)
		if r.nodes[i].class == ClassSource && inRock(r.nodes[i].path, in.Rocks, in.Charms) {
			r.nodes[i].class = ClassOther // a rock's workload code (promoteImported lifts what the charm imports)
		}
	}
	r.extra = make([]extra, len(r.nodes))
	r.indexNames()
	for _, ch := range in.Links.Charms {
		for _, it := range ch.Interfaces {
			for _, h := range it.Handlers {
				k := cleanPath(h.File) + "\x00" + h.Symbol
				if l := it.Kind + " " + it.Name; !slices.Contains(r.handlerS[k], l) {
					r.handlerS[k] = append(r.handlerS[k], l)
				}
				if i, ok := r.byPath[cleanPath(h.File)]; ok && !slices.Contains(r.extra[i].handles, it.Kind+" "+it.Name) {
					r.extra[i].handles = append(r.extra[i].handles, it.Kind+" "+it.Name)
				}
			}
			for _, s := range it.Reads {
				if s.Symbol != "" && s.Via != linker.ViaPackage && s.Via != linker.ViaLibrary && s.Via != linker.ViaDelegate && s.Via != linker.ViaBase && s.Via != linker.ViaPath { // not where an object is bound, nor a path constant
					r.readerS[cleanPath(s.File)+"\x00"+s.Symbol] = true
					if f := r.fieldAt(s); f != "" {
						r.readerS[cleanPath(s.File)+"\x00"+f] = true
					}
				}
			}
		}
	}
	return r
}

// fieldAt is the field a typed config class declares for an option at a read site
// (linker Site.Detail "field": Symbol names the class, Line the field's line), or "".
func (r *ranker) fieldAt(s linker.Site) string {
	if s.Detail != "field" || s.Via != linker.ViaConfig {
		return ""
	}
	i, ok := r.byPath[cleanPath(s.File)]
	if !ok || r.nodes[i].py == nil {
		return ""
	}
	for _, sym := range r.nodes[i].py.Symbols {
		if sym.Kind == pyextract.KindField && sym.Line == s.Line && sym.Qualifier == s.Symbol {
			return sym.Name
		}
	}
	return ""
}

// inRock reports a path under one of rocks that lies inside the path's charm's folder, not
// above it: temporal-worker's resource_sample_py/ beside its charm's src/ (review rev115),
// not a repository's root rock project whose charm is in charm/.
func inRock(p string, rocks []string, charms []charmyaml.Charm) bool {
	dir := charmDirOf(p, charms)
	for _, r := range rocks {
		if r == "." || r == dir || !strings.HasPrefix(p, r+"/") {
			continue
		}
		if dir == "." || dir == "" || strings.HasPrefix(r, dir+"/") {
			return true
		}
	}
	return false
}

// opsEvents are the hook events of ops a task names by their words ("add secret changed
// hook", "fix update-status"): those of two words or more, which are no common word alone.
var opsEvents = []string{"config-changed", "update-status", "leader-elected", "leader-settings-changed",
	"upgrade-charm", "secret-changed", "secret-rotate", "secret-remove", "secret-expired",
	"collect-unit-status", "collect-app-status", "pre-series-upgrade", "post-series-upgrade"}

// NoteNewObserver begins a mention-interface note of an entry point given the mass of a hook
// event the task names that no code observes yet: where its observer would go.
const NoteNewObserver = "new observer of event "

// everydayEvents are the opsEvents whose words are also an everyday phrase of a task
// ("update status message", "upgrade charm to ops 2").
var everydayEvents = map[string]bool{"update-status": true, "upgrade-charm": true}

// hookWords say that a task's words name a hook event.
var hookWords = []string{"hook", "hooks", "event", "events", "handler", "handlers", "observer", "observe", "observes"}

// matchEvents gives restart mass (mention-interface) to the code handling a hook event a
// subject line names (opsEvents), or, when no code observes it yet, to the charms' entry
// points, where an observer is added (temporal-worker's "add secret changed hook", review
// rev115: charm.py third behind two modules with the words "secret" and "hook").
//
// An event whose words make an everyday phrase (everydayEvents: "Update status message when
// the database is missing", review rev118) counts only as written (update-status,
// update_status) or beside a word for hooks ("update status hook").
func (r *ranker) matchEvents() {
	for _, ev := range opsEvents {
		n := normName(ev)
		if !slices.ContainsFunc(r.subjects, func(s subject) bool {
			if !s.m.grams[n] {
				return false
			}
			if !everydayEvents[ev] {
				return true
			}
			low := strings.ToLower(s.text)
			return strings.Contains(low, ev) || strings.Contains(low, strings.ReplaceAll(ev, "-", "_")) || s.m.hasAny(hookWords)
		}) {
			continue
		}
		var targets []int
		for _, ch := range r.in.Links.Charms {
			for _, it := range ch.Interfaces {
				if it.Name != ev || it.Kind != linker.KindLifecycle && it.Kind != linker.KindSecret && it.Kind != linker.KindStatus {
					continue
				}
				for _, h := range it.Handlers {
					if f, ok := r.byPath[cleanPath(h.File)]; ok && !h.CatchAll && r.nodes[f].class != ClassTest && r.nodes[f].class != ClassLib && !slices.Contains(targets, f) {
						targets = append(targets, f)
					}
				}
			}
		}
		note := "event " + ev
		if len(targets) == 0 {
			note = NoteNewObserver + ev // (no code handles it: locate must not say it does)
			for i, nd := range r.nodes {
				if nd.class == ClassSource && path.Base(nd.path) == "charm.py" {
					targets = append(targets, i)
				}
			}
		}
		for _, t := range targets {
			r.extra[t].add(SigMentionInterface, MentionInterfaceTeleport/float64(len(targets)), note)
		}
	}
}

// interfaceNamed reports whether the task names the interface of kind lkind and normalised
// name n: as a run of its words, not only inside another identifier (mentions.inner:
// jenkins_agent_executors does not name the relation "agent"). A name that is itself a kind
// word (a storage called "config", a relation called "storage") is named only beside its
// kind ("config storage", "storage config"): alone, "config" in "add a config option" is the
// kind of thing added.
func (r *ranker) interfaceNamed(lkind, n string) bool {
	if !r.ment.grams[n] || r.ment.inner[n] {
		return false
	}
	if interfaceKindWords[n] || r.ment.common[n] {
		// a kind word, or a word the task uses as a common noun ("after a restart" in a charm
		// with a restart relation): named only beside its kind ("a restart relation"). Not a
		// word of the charm's name alone (ceph-dashboard's "dashboard" relation, review
		// rev105): tried, and grafana's and prometheus' tasks naming the product lost their
		// charm.py's first place (mean MRR 0.8089 -> 0.8076)
		return r.ment.grams[n+"_"+lkind] || r.ment.grams[lkind+"_"+n]
	}
	return true
}

// relationPartlyNamed reports a relation the task names by one word of its name beside a
// relation word ("remove datadog relation" for datadog-integration, review rev122): a word of
// four letters or more that no other relation's name has and that names no relation whole.
func (r *ranker) relationPartlyNamed(d decl) bool {
	parts := strings.Split(normName(d.sym.Name), "_")
	if d.lkind != linker.KindRelation || len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 4 || stopwords[p] || interfaceKindWords[p] || r.ment.inner[p] || r.ment.common[p] {
			continue
		}
		if !slices.ContainsFunc([]string{"relation", "relations", "endpoint", "integration"}, func(w string) bool {
			return r.ment.grams[p+"_"+w] || r.ment.grams[w+"_"+p]
		}) {
			continue
		}
		if !slices.ContainsFunc(r.decls, func(o decl) bool {
			return o.lkind == linker.KindRelation && o.sym.Name != d.sym.Name && (normName(o.sym.Name) == p || slices.Contains(strings.Split(normName(o.sym.Name), "_"), p))
		}) {
			return true
		}
	}
	return false
}

// interfaceKindWords are the words that name a kind of interface in a task.
var interfaceKindWords = map[string]bool{"config": true, "configuration": true, "option": true, "storage": true, "relation": true,
	"integration": true, "action": true, "container": true, "resource": true, "secret": true, "peer": true, "peers": true}

// findHubs marks charm entry points: first-party charm.py files and files calling ops' main.
//
// A charm.py is the entry point of its charm; another file calling ops.main counts only in a
// charm without a charm.py (helper scripts dispatched on their own call main too).
func (r *ranker) findHubs() {
	withCharmPy := map[string]bool{}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.py != nil && n.class == ClassSource && path.Base(n.path) == "charm.py" {
			n.hub = true
			withCharmPy[charmDirOf(n.path, r.in.Charms)] = true
		}
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.py != nil && n.class == ClassSource && !n.hub && !withCharmPy[charmDirOf(n.path, r.in.Charms)] {
			n.hub = callsOpsMain(n) || reactiveModule(n) || classicHooksModule(n)
		}
	}
}

// classicHooksModule reports a classic charm's hooks module: it builds charm-helpers' Hooks
// registry and runs it (`hooks = Hooks()` ... `hooks.execute(sys.argv)`), so every hook
// runs it, as ops runs a charm.py (userdir-ldap's hooks/hooks.py ranked below a 70-line
// logging helper: review rev99).
func classicHooksModule(n *node) bool {
	if !slices.ContainsFunc(n.py.Refs, func(r pyextract.Ref) bool { return r.Name == "execute" }) {
		return false
	}
	return slices.ContainsFunc(n.py.Imports, func(imp pyextract.Import) bool {
		return imp.Name == "Hooks" && (imp.Module == "hookenv" || strings.HasSuffix(imp.Module, ".hookenv"))
	})
}

// reactiveModule reports a reactive charm's handler module, reactive/<name>.py importing
// charms.reactive: what src/charm.py is to an ops charm, where its @when handlers live. Without
// it a reactive charm had no entry point and a helper module could lead (rev56: a
// content-cache commit's lib/utils.py above reactive/content_cache.py); on the 36 sets 46 cases
// rose and 29 fell. Not taken (session 34, rev62): also the module defining a class on a
// framework's charm class (charms.openstack's src/lib/charm/openstack/<name>.py, where such a
// charm keeps its logic) as an entry point: 8 cases rose and 11 fell (rev62's 41 off-hub
// cases 0.759 → 0.779, held31-34 -0.004 +0.008 -0.008 +0.001); both are in the top two either
// way.
func reactiveModule(n *node) bool {
	return path.Base(path.Dir(n.path)) == "reactive" && slices.ContainsFunc(n.py.Imports, linker.ImportsReactive)
}

func callsOpsMain(n *node) bool {
	if !slices.ContainsFunc(n.py.Refs, func(r pyextract.Ref) bool { return r.Name == "main" }) {
		return false
	}
	for _, imp := range n.py.Imports {
		if imp.Module == "ops" || strings.HasPrefix(imp.Module, "ops.") {
			return true
		}
	}
	return false
}

// linkEdges are the linker's ties as graph edges: YAML ↔ handler files, YAML ↔ reading files.
//
// Decorator links are no edges: a reactive handler of an endpoint's flags or a charm-helpers hook
// function (linker ViaFlag, ViaHook), or of an option's flag, or a relation looked up through
// charms.reactive or charm-helpers (a read with Detail "flag"), is a link, for mention-interface and the handler signals,
// but no edge. Such charms tie most of their handlers to some relation through their flags, all
// in the one module that is their entry point anyway; as edges the ties only lifted the YAML
// and one sibling charm's handlers over the edited file. Measured (session 22, fasteval): as
// edges, mean MRR over 32 sets 0.7998 → 0.7992 (held20 0.822 → 0.807, held32 0.749 → 0.740);
// as links only, held20 0.822, held32 0.750, held31 0.793 → 0.795, the other sets unchanged.
func (r *ranker) linkEdges() []weightedEdge {
	handlers, reads := map[edgeKey]int{}, map[edgeKey]int{}
	for _, d := range r.decls {
		y, ok := r.byPath[d.file]
		if !ok || d.iface == nil {
			continue
		}
		for _, h := range d.iface.Handlers {
			if h.Via == linker.ViaFlag || h.Via == linker.ViaHook {
				continue // a decorator link is no edge (above)
			}
			if f, ok := r.byPath[cleanPath(h.File)]; ok && f != y {
				handlers[edgeKey{y, f}]++
			}
		}
		for _, s := range d.iface.Reads {
			if s.Via == linker.ViaPath {
				continue // a constant naming a storage's path: its users' references to it tie them
			}
			if s.Detail == "flag" {
				continue // a reactive flag's or charm-helpers' read or lookup: a decorator link is no edge (above)
			}
			if s.CatchAll {
				continue // a lookup of every relation: it says nothing of this one (any-charm's 538 made the YAML a hub)
			}
			if s.Via == linker.ViaBase || s.Via == linker.ViaDelegate || s.Via == linker.ViaPackage {
				// a guess that an outside package handles or reads it (the base charm class, an
				// object given the charm, a package named after it): the tree holds no reader.
				// As edges (session 23): 32-set mean 0.8008, held32 0.748, held33 0.711; as
				// none: 0.8011, held32 0.759, held33 0.714, no set down
				continue
			}
			if f, ok := r.byPath[cleanPath(s.File)]; ok && f != y {
				reads[edgeKey{y, f}]++
			}
		}
	}
	var out []weightedEdge
	for _, set := range []struct {
		count map[edgeKey]int
		w     float64
	}{{handlers, LinkEdgeWeight}, {reads, ReadEdgeWeight}} {
		for _, k := range slices.SortedFunc(maps.Keys(set.count), func(a, b edgeKey) int {
			return cmp.Or(a.from-b.from, a.to-b.to)
		}) {
			w := set.w * math.Sqrt(float64(set.count[k]))
			out = append(out, weightedEdge{k, w}, weightedEdge{edgeKey{k.to, k.from}, w})
		}
	}
	return out
}

// match finds what the focus paths and the task text name: focused files, mentioned files,
// identifiers and interfaces. It fills the personal masses of extra, mention (identifiers
// whose edges get MentionEdgeWeight) and hotSym.
func (r *ranker) match() {
	for _, f := range r.in.Focus {
		if i, ok := r.byPath[cleanPath(f)]; ok && !r.focus[i] {
			r.focus[i] = true
			r.extra[i].waive = true
			r.extra[i].add(SigFocus, FocusTeleport, "")
		}
	}
	r.ment = parseMentions(r.in.Mentions)
	if r.ment.empty() {
		return
	}
	r.named = r.namedCharms()
	unique := r.uniqueFileNames()
	for i, n := range r.nodes {
		if m := r.mentionsFile(n.path); m != 0 {
			r.extra[i].waive = m == byPath || n.class != ClassTest && unique[path.Base(strings.ToLower(n.path))]
			r.extra[i].add(SigMentionFile, MentionFileTeleport, path.Base(n.path))
		}
	}
	for _, id := range r.idOrder {
		in := &r.info[id]
		mass := r.identMention(id)
		if mass == 0 || len(in.defs) > MaxDefiners {
			continue
		}
		in.mention = true
		for _, i := range in.defs {
			r.extra[i].add(SigMentionIdent, mass/float64(len(in.defs)), r.name[id])
		}
		if mass == MentionIdentTeleport && len(in.defs) == 1 && r.codeName(id) && r.extra[in.defs[0]].codeName == "" {
			r.extra[in.defs[0]].codeName = r.name[id]
		}
	}
	for _, d := range r.decls {
		if d.lkind == "" || !r.interfaceNamed(d.lkind, normName(d.sym.Name)) && !r.relationPartlyNamed(d) { // a build part ("charm") is no interface
			continue
		}
		if y, ok := r.byPath[d.file]; ok && r.nodes[y].class == ClassTest {
			continue // a test charm's interface ("[config] test" of tests/integration/data/charm): not the charm's
		}
		if len(r.named) > 0 && r.named[charmDirOf(d.file, r.in.Charms)] == "" {
			// another charm's, when the task names charms: "feat(kfp-ui): add s3-credentials
			// relation" adds kfp-ui's, and kfp-api's handler of its own is no edit (review rev120)
			continue
		}
		label := d.lkind + " " + d.sym.Name
		r.namedIfaces = append(r.namedIfaces, Named{Kind: d.lkind, Name: d.sym.Name, File: d.file})
		r.hotSym[d.file+"\x00"+d.sym.Kind+" "+d.sym.Name] = true
		targets := []int{}
		if y, ok := r.byPath[d.file]; ok {
			targets = append(targets, y)
		}
		if d.iface != nil {
			for _, h := range d.iface.Handlers {
				if h.CatchAll {
					continue // a catch-all of every relation: naming this one says nothing about it
				}
				r.hotSym[cleanPath(h.File)+"\x00"+h.Symbol] = true
				if f, ok := r.byPath[cleanPath(h.File)]; ok && !slices.Contains(targets, f) {
					targets = append(targets, f)
				}
			}
			for _, s := range d.iface.Reads {
				if f := r.fieldAt(s); f != "" { // the typed config's field of the named option
					r.hotSym[cleanPath(s.File)+"\x00"+f] = true
				}
				// an option has no handler: the code reading it is what its behaviour
				// depends on (identity-platform-admin-ui's log_level, read only in
				// src/configs.py: review rev103)
				if d.lkind != linker.KindConfig || s.Via != linker.ViaConfig || s.Loose || s.Detail == "all" {
					continue
				}
				if f, ok := r.byPath[cleanPath(s.File)]; ok && !slices.Contains(targets, f) && r.nodes[f].class != ClassTest && r.nodes[f].class != ClassLib {
					targets = append(targets, f)
				}
			}
			// an action's own script runs it (sysconfig's src/actions/update-grub, which Juju
			// runs for the action whatever the code observes: review rev99)
			if f, ok := r.byPath[cleanPath(d.iface.Script)]; ok && d.iface.Script != "" && !slices.Contains(targets, f) {
				targets = append(targets, f)
			}
		}
		for _, t := range targets {
			r.extra[t].add(SigMentionInterface, MentionInterfaceTeleport/float64(len(targets)), label)
		}
	}
	r.matchEvents()
}

// uniqueFileNames are the file names the task writes out ("mongodb_tls.py") that name exactly
// one file of the tree: as explicit as a path, so the named file loses its class penalty
// (except a test's: the bodies of squashed PRs list the tests they touched). A stem written as
// a name of two or more words (stemWritten) counts as its file name, but a library's only as
// a subject's scope or in an update ("Bump loki_push_api to v1"): "move the UID to the charm
// from grafana_source", "Fix prometheus_scrape integration" name the library the change is
// about, not the file it edits.
func (r *ranker) uniqueFileNames() map[string]bool {
	count := map[string]int{}
	for _, t := range r.ment.paths {
		if !strings.Contains(t, "/") {
			count[t] = 0
		}
	}
	ids := writtenNames(r.ment, r.in.Mentions, r.fileNames())
	updates := slices.ContainsFunc(r.subjects, func(s subject) bool { return s.m.hasAny(libUpdateVerbs) })
	for _, n := range r.nodes {
		lp := strings.ToLower(n.path)
		b := path.Base(lp)
		if _, ok := count[b]; ok || stemWritten(ids, b) && (!isLibPath(lp) || updates || r.scopeOfSubject(b)) {
			count[b]++
		}
	}
	out := map[string]bool{}
	for t, c := range count {
		if c == 1 {
			out[t] = true
		}
	}
	return out
}

// scopeOfSubject reports whether a subject line's conventional commit scope is the stem of
// the file name base ("fix(prometheus_remote_write): …").
func (r *ranker) scopeOfSubject(base string) bool {
	st := normName(stemOf(base))
	return slices.ContainsFunc(r.subjects, func(s subject) bool { return s.scopes[st] })
}

// stemWritten reports whether the task writes the stem of the file name base out as a name of
// two or more words (ids: writtenNames) — "fix(prometheus_remote_write): sort peer names",
// "bump charm_tracing" — as explicit as the file name, which a conventional commit's scope
// leaves out. A one-word stem ("config", "tls") is a common word of the text.
func stemWritten(ids map[string]bool, base string) bool {
	st := stemOf(base)
	return strings.Contains(strings.Trim(st, "_"), "_") && ids[st]
}

// writtenNames are the identifiers the texts write (m's), in lower case, but those written
// only as attributes of self ("self.peer_cluster.super_users": the charm's attribute, not a
// module's name; onlySelfAttribute). Only those in lower case in names (fileNames: what the
// callers look up) are looked for: each costs a scan of the texts, and a pasted log writes
// tens of thousands of identifiers (rev90: 230 KB of task text took locate 10.7 s).
func writtenNames(m mentions, texts []string, names map[string]bool) map[string]bool {
	out := map[string]bool{}
	for id := range m.idents {
		if !names[strings.ToLower(id)] {
			continue
		}
		self := false
		for _, t := range texts {
			if strings.Contains(t, id) {
				if self = onlySelfAttribute(t, id); !self {
					break
				}
			}
		}
		if !self {
			out[strings.ToLower(id)] = true
		}
	}
	return out
}

// fileNames are, in lower case, the stems of the tree's files and the names of its libraries
// (charmyaml.LibraryOf) of two or more words: the names writtenNames' callers look up.
func (r *ranker) fileNames() map[string]bool {
	if r.stems == nil {
		r.stems = map[string]bool{}
		for _, n := range r.nodes {
			for _, name := range []string{stemOf(n.path), strings.ToLower(charmyaml.LibraryOf(n.path))} {
				if strings.Contains(name, "_") {
					r.stems[name] = true
				}
			}
		}
	}
	return r.stems
}

// How the task text names a file.
const (
	byPath = 1 + iota // a path with a folder: "src/events/tls.py"
	byName            // a file name or stem: "tls.py", "grafana config"
)

// mentionsFile reports whether and how the task text names the file. Only a path naming its
// folder, or a file name no other file of the tree has (uniqueFileNames; not for tests), is
// explicit enough to lift a library's or test's penalty ("charm.py" also names every test
// charm's charm.py).
func (r *ranker) mentionsFile(p string) int { return r.mentionsFileIn(r.ment, p) }

// mentionsFileIn is mentionsFile for the mentions m.
func (r *ranker) mentionsFileIn(m mentions, p string) int {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	other := false // the text names another file of the tree with this name by its path
	for _, t := range m.paths {
		if strings.Contains(t, "/") {
			if atPath(lp, t) {
				return byPath
			}
			other = other || path.Base(t) == base && r.holdsPath(t)
			continue
		}
		if base == t {
			return byName
		}
	}
	if other { // "managers/balancer.py" does not name events/balancer.py
		return 0
	}
	// A stem alone names the file ("grafana config" → config.py), except "charm": a task's
	// "charm" is the whole charm ("the charm keeps …", JUJU_CHARM_HTTPS_PROXY), not charm.py,
	// which a task names by its name. Held-out: held14 0.752 → 0.759, held10 −0.001.
	// (a private module's stem without its underscore: "composer operations" names
	// src/mediawiki/_composer.py, review rev113)
	st := strings.TrimSuffix(base, path.Ext(base))
	if st != "__init__" {
		st = strings.TrimLeft(st, "_")
	}
	if st != "__init__" && st != "charm" && st != "" && !stopwords[st] && (m.grams[normName(st)] || m.joined[st]) && !r.kindWordOnly(m, base) &&
		!partOfNamedFile(m, base) {
		return byName
	}
	// A charm library's stem of three or more words is named by its initials too, as charm
	// authors write them: "ipu" for ingress_per_unit ("bumped ipu lib", "removed SDI reference
	// in ipu docstring"), when no other file has those initials. Over every set, the four
	// subjects with a word that is a file's initials named such a library and edited it. Not
	// other modules: initials are often words or acronyms ("pem", "csi", "doc", "one" name
	// permission_error_messages.py, config_server_interface.py, ...).
	if ini := initials(st); ini != "" && m.grams[ini] && !stopwords[ini] && isLibPath(lp) && r.initialsCount()[ini] == 1 {
		return byName
	}
	return 0
}

// partOfNamedFile reports a file whose stem the text writes only as a part of another file's
// name it names: "use `service-config.yaml` for `command`" names src/service-config.yaml, not
// config.yaml (review rev111). (The text may write the stem on its own too; a file name
// beside its own part is rare.)
func partOfNamedFile(m mentions, base string) bool {
	st := normName(strings.TrimSuffix(base, path.Ext(base)))
	for _, t := range m.paths {
		tb := path.Base(t)
		if tb == base {
			return false
		}
		if ts := normName(strings.TrimSuffix(tb, path.Ext(tb))); ts != st && strings.Contains("_"+ts+"_", "_"+st+"_") {
			return true
		}
	}
	return false
}

// kindWordOnly reports a file whose stem the text writes only as the kind of an interface:
// "config" in "the log_level config option" or "add a config option" is what kind of thing the
// option is, not config.py (reviews rev99, rev103: "its file name matches the task
// (config.py)" on five trees), nor config.yaml, except when the task adds an option, which
// goes there (kyuubi's "Add profile config option" lost a place without it). The text names no
// other "config" ("grafana config", "the config file") when every one it writes is followed
// by "option" or "options".
func (r *ranker) kindWordOnly(m mentions, base string) bool {
	st, ext := strings.TrimSuffix(base, path.Ext(base)), path.Ext(base)
	return st == "config" && m.configOptionOnly && !(ext == ".yaml" && r.added[linker.KindConfig])
}

// initialsCount counts the files of the tree by the initials of their stems (initials).
func (r *ranker) initialsCount() map[string]int {
	if r.inits == nil {
		r.inits = map[string]int{}
		for _, n := range r.nodes {
			base := path.Base(strings.ToLower(n.path))
			if ini := initials(strings.TrimSuffix(base, path.Ext(base))); ini != "" {
				r.inits[ini]++
			}
		}
	}
	return r.inits
}

// initials are the first letters of a '_'-separated stem of three or more words
// ("ingress_per_unit" → "ipu"), or "".
func initials(stem string) string {
	parts := strings.FieldsFunc(stem, func(r rune) bool { return r == '_' })
	if len(parts) < 3 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteByte(p[0])
	}
	return b.String()
}

// subjectFileTargets are the files a subject line names by path or by file name, for
// SubjectFileLead: "Fix bug in lifecycle.py for subordinate charms", "Update
// lib/charms/loki_k8s/v0/log_proxy.py", "Adding unit tests for exporter.py file". A title
// naming a file says which file the change is about; a stem alone ("grafana config") does not
// count unless it is the commit's scope or an identifier of two or more words (stemWritten),
// nor a file name two of the charm's files share, nor a test (tests are not mapped for
// editing), nor a vendored library: the library rules (libraries.go) read a title naming one,
// which may ask for a major version the tree lacks ("upgrade data_interfaces.py to v1": the
// code that imports it changes).
func (r *ranker) subjectFileTargets() []int {
	var out []int
	for _, s := range r.subjects {
		if len(s.m.paths) == 0 {
			continue
		}
		// per path token, the non-test files it names: a path ending that several charms'
		// files share ("src/charm.py" in a monorepo) names none of them
		for _, tok := range s.m.paths {
			var hit []int
			for i, n := range r.nodes {
				if n.class == ClassTest {
					continue
				}
				lp := strings.ToLower(n.path)
				if strings.Contains(tok, "/") && atPath(lp, tok) || !strings.Contains(tok, "/") && tok == path.Base(lp) {
					hit = append(hit, i)
				}
			}
			if len(hit) == 1 && r.nodes[hit[0]].class != ClassLib && !slices.Contains(out, hit[0]) {
				out = append(out, hit[0])
			}
		}
	}
	// a stem the subject writes as its conventional commit's scope ("fix(telemetry_correlation):
	// log …") or as an identifier of two or more words (stemWritten), when one file has it
	// (not a charm's name or folder, nor as a scope a word of one: "feat(dovecot): …",
	// "fix(proxy): …" of ceph-proxy are about the charm, not a dovecot.py or proxy.py)
	charmNames, charmWords := map[string]bool{}, map[string]bool{}
	for k := range r.in.Charms {
		for _, n := range []string{normName(r.in.Charms[k].Name), normName(path.Base(charmDir(&r.in.Charms[k])))} {
			charmNames[n] = true
			for _, w := range strings.Split(n, "_") {
				charmWords[w] = !genericCharmWords[w]
			}
		}
	}
	byStem := map[string][]int{}
	for _, s := range r.subjects {
		ids := writtenNames(s.m, []string{s.text}, r.fileNames())
		for i, n := range r.nodes {
			if n.class == ClassTest {
				continue
			}
			base := path.Base(strings.ToLower(n.path))
			st := stemOf(base)
			if st != "charm" && st != "__init__" && !charmNames[normName(st)] &&
				(!charmWords[normName(st)] && s.scopes[normName(st)] || stemWritten(ids, base)) {
				byStem[st] = append(byStem[st], i)
			}
		}
	}
	for _, st := range slices.Sorted(maps.Keys(byStem)) {
		hit := slices.Compact(slices.Sorted(slices.Values(byStem[st])))
		if len(hit) == 1 && r.nodes[hit[0]].class != ClassLib && !slices.Contains(out, hit[0]) {
			out = append(out, hit[0])
		}
	}
	// a method the subject writes with its class, Class.method, that one file defines: as
	// explicit as the file's name ("Remove ProviderTopology.from_charm(charm)", defined in
	// the charm's own library, lost to src/charm.py; mimir's "incorrect return type for
	// PrometheusApiRequirer.get_data", review rev126)
	// And a function or method name of two words or more the subject writes
	// (`remove_stores`, "Handle delete_user exception") that one file defines, unless it
	// names a declared interface too ("tls-ca support on kafka_client relation").
	declared := map[string]bool{}
	for _, d := range r.decls {
		declared[normName(d.sym.Name)] = true
	}
	for _, s := range r.subjects {
		for _, m := range qualifiedMethod.FindAllStringSubmatch(s.text, -1) {
			r.definedOnce(&out, func(sym pyextract.Symbol) bool { return sym.Name == m[1] && sym.Qualifier != "" })
		}
		for _, name := range snakeNames(s.text) {
			if declared[normName(name)] {
				continue
			}
			r.definedOnce(&out, func(sym pyextract.Symbol) bool {
				return (sym.Kind == pyextract.KindFunction || sym.Kind == pyextract.KindMethod) && ident(sym.Name) == name
			})
		}
	}
	return out
}

// definedOnce adds to out the one file, not a test's nor a vendored library's, that defines
// a symbol is accepts, when exactly one file of the tree (tests aside) does.
func (r *ranker) definedOnce(out *[]int, is func(pyextract.Symbol) bool) {
	var hit []int
	for i, n := range r.nodes {
		if n.py != nil && n.class != ClassTest && slices.ContainsFunc(n.py.Symbols, is) {
			hit = append(hit, i)
		}
	}
	if len(hit) == 1 && r.nodes[hit[0]].class != ClassLib && !slices.Contains(*out, hit[0]) {
		*out = append(*out, hit[0])
	}
}

// snakeNames are the names of two words or more a text writes in snake_case (`remove_stores`,
// `_patch_config()`), not as an attribute, a path or a file name's part (self.peer_cluster,
// src/tls_utils.py).
func snakeNames(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_./-()", c))
	}) {
		tok = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(tok, ".,"), "()"), ".,")
		if snakeName.MatchString(tok) && !slices.Contains(out, tok) {
			out = append(out, tok)
		}
	}
	return out
}

// snakeName matches a whole name in snake_case of two words or more.
var snakeName = regexp.MustCompile(`^_*[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]$`)

// qualifiedMethod matches a method written with its class, Class.method (group 1).
var qualifiedMethod = regexp.MustCompile(`(?:^|[^\w.])(_?[A-Z]\w*\.[a-z_]\w*)\b`)

// holdsPath reports whether a file of the tree is at the path t (lower case), as mentionsFileIn
// matches it.
func (r *ranker) holdsPath(t string) bool {
	if held, ok := r.held[t]; ok {
		return held
	}
	held := false
	for p := range r.byPath {
		if atPath(strings.ToLower(p), t) {
			held = true
			break
		}
	}
	if r.held == nil {
		r.held = map[string]bool{}
	}
	r.held[t] = held
	return held
}

// atPath reports whether the file at lp (lower case) is the one the path t names: the same
// path, a tail of it ("managers/x.py"), or it from a folder above the root
// ("charms/kafka/src/x.py" for src/x.py mapped from charms/kafka).
func atPath(lp, t string) bool {
	return lp == t || strings.HasSuffix(lp, "/"+t) || strings.HasSuffix(t, "/"+lp)
}

// identMention is the personal mass an identifier earns from the task text: named exactly
// (and not a plain stopword; a name that is one plain word, as much prose as code, earns
// the words' mass), or all of its words appear in the text.
func (r *ranker) identMention(id int) float64 {
	if name := r.name[id]; r.ment.idents[name] && len(strings.Trim(name, "_")) >= 4 && !stopwords[strings.ToLower(name)] {
		if plainWord(name) {
			// a name that is one lower-case word (main, unit, relation, configure) is also a
			// word of the task's prose ("the main machines", "fix unit test"): a weaker match
			return MentionWordsTeleport
		}
		return MentionIdentTeleport
	}
	ws := r.wordsOf(id)
	if len(ws) == 0 || len(ws) == 1 && (len(ws[0]) < 5 || isUpperName(r.name[id]) || ws[0] == "config") {
		// (nor a handler whose one word is a kind of interface, _on_config_changed, by the
		// kind the task names: "add a max-connections config option", review rev124)
		// (a class named by one word, Configuration or State, is named by the task only as
		// its name, not by the word in prose: "Nginx configuration conflict" lifted a sibling
		// charm's state.py, review rev122; dev and held-out sets 0.8171 either way, 4 cases
		// up, 2 down)
		return 0
	}
	for _, w := range ws {
		if !r.ment.words[w] {
			return 0
		}
	}
	return MentionWordsTeleport
}

// isUpperName reports a CapWords name (a class's, by convention): a capital first, and a
// lower-case letter after it; not an ALL-CAPS constant (TIMEOUT, review rev125).
func isUpperName(name string) bool {
	name = strings.TrimLeft(name, "_")
	return name != "" && name[0] >= 'A' && name[0] <= 'Z' && strings.ContainsFunc(name, func(r rune) bool { return r >= 'a' && r <= 'z' })
}

// plainWord reports a name that is one lower-case word (main, unit, configure).
func plainWord(name string) bool {
	for _, c := range name {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// codeName reports a name that only code writes: snake_case of two words or more
// (bind_password), or CamelCase of three (SmtpDataAvailableEvent). A task that writes one out
// points at its definition; a product's name (PostgreSQL, also a class) or a plain word does not.
func (r *ranker) codeName(id int) bool {
	name := strings.Trim(r.name[id], "_")
	if parts := strings.FieldsFunc(name, func(c rune) bool { return c == '_' }); len(parts) >= 2 {
		return true
	}
	humps := 1 // a lower-case letter followed by a capital starts a word: Smtp|Data|Available|Event
	for i := 1; i < len(name); i++ {
		if name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			humps++
		}
	}
	return humps >= 3
}

// quietTests mutes the test files that give the code they test no rank (graphBuilder.mute):
// every test file but those the task or the focus names (a restart mass of their own), whose
// uses show what the agent is working on. What a quiet test uses of a focused file still
// counts: the focused file's tests are among its callers (focus-caller). An agent writes tests
// as it goes; a test's new references (`@patch("charm.PostgresqlOperatorCharm._restart")`)
// would otherwise reorder the signatures of the code it tests, and the map in the prompt
// cache with them (review rev79: 11 of 44 real test edits moved the map).
func (r *ranker) quietTests() {
	quiet := make([]bool, len(r.nodes))
	for i, n := range r.nodes {
		quiet[i] = n.class == ClassTest && len(r.extra[i].personal) == 0
	}
	r.mute = func(from, to int) bool { return quiet[from] && r.nodes[to].class != ClassTest && !r.focus[to] }
}

// personalise spreads restart mass from focused files to the files referencing them: code
// that uses them (focus-caller), and the charm YAML declaring what they handle (focus-declares).
func (r *ranker) personalise(a adjacency) {
	for _, f := range slices.Sorted(maps.Keys(r.focus)) {
		if a.inW[f] == 0 {
			continue
		}
		for _, e := range a.in[f] {
			if !r.focus[e.from] {
				sig := SigFocusCaller
				if r.nodes[e.from].py == nil { // YAML calls nothing: it declares what the file handles
					sig = SigFocusDeclares
				}
				r.extra[e.from].add(sig, FocusCallerTeleport*e.w/a.inW[f], path.Base(r.nodes[f].path))
			}
		}
	}
}

// personalSignals are the signals that carry restart mass, in a fixed order.
var personalSignals = []string{SigFocus, SigFocusCaller, SigFocusDeclares, SigMentionFile, SigMentionIdent, SigMentionInterface}

// teleport is the restart distribution: the class prior, and PersonalShare of it on the
// focus and mention targets when there are any.
func (r *ranker) teleport() []float64 {
	n := len(r.nodes)
	prior, pers := make([]float64, n), make([]float64, n)
	var sp, sq float64
	for i, nd := range r.nodes {
		prior[i] = classPrior(nd)
		sp += prior[i]
		for _, s := range personalSignals {
			pers[i] += r.extra[i].personal[s]
		}
		sq += pers[i]
	}
	share := 0.0
	if sq > 0 {
		share = PersonalShare
	}
	t := make([]float64, n)
	for i := range t {
		t[i] = (1 - share) * prior[i] / sp
		if sq > 0 {
			t[i] += share * pers[i] / sq
		}
	}
	r.personalTotal = sq
	return t
}

// focusedHubs reports which entry points get the hub boost and lead: all of them, unless the
// focus lies in some charms of a tree of several, and then those charms' only. An agent
// working in one charm of a monorepo (--focus postfix-relay-operator/src/charm.py) is not
// helped by its sibling charms' entry points, which would otherwise hold half the map's top.
func (r *ranker) focusedHubs() func(i int) bool {
	dirs := map[string]bool{}
	for i, n := range r.nodes {
		if r.focus[i] {
			dirs[charmDirOf(n.path, r.in.Charms)] = true
		}
	}
	delete(dirs, "")
	if len(dirs) == 0 || len(r.in.Charms) < 2 {
		return func(int) bool { return true }
	}
	return func(i int) bool { return dirs[charmDirOf(r.nodes[i].path, r.in.Charms)] }
}

func classPrior(n node) float64 {
	p := PriorOther
	switch n.class {
	case ClassSource:
		p = PriorSource
	case ClassYAML:
		p = PriorYAML
	case ClassLib:
		p = PriorLib
	case ClassTest:
		p = PriorTest
	}
	if n.hub {
		p *= PriorHub
	}
	return p
}

// files turns the PageRank vector into ranked files with signals and ordered symbols. A
// file's score is its PageRank times its class factor (hub boost, library, test and other
// penalties), raised to HubLead times the best other file for entry points, times the
// lexical factor of the task text; then the factors of a charm or folder the task names, and
// the lifts of the task's intents (a library refresh, a dependency, build or declaration
// change, a file the task names).
func (r *ranker) files(a adjacency, pr, lex []float64) []File {
	sc := &scoring{out: make([]File, len(r.nodes)), score: make([]float64, len(r.nodes))}
	hubs := r.focusedHubs()
	best, libs := r.classFactors(sc, pr, hubs)
	r.leadsAndWords(sc, lex, best, hubs)
	r.namedFactors(sc)
	r.intentLifts(sc, libs)
	canon := r.foldCopies(sc.out, sc.score)
	total := 0.0
	for i := range sc.out {
		slices.SortStableFunc(sc.out[i].Signals, func(x, y Signal) int { return cmp.Compare(y.Value, x.Value) })
		total += sc.score[i]
	}
	flows := r.symbolFlows(a, pr)
	for i := range sc.out {
		if total > 0 {
			sc.out[i].Score = roundSig(sc.score[i] / total)
			if sc.score[i] > 0 {
				sc.out[i].Signals = append(sc.out[i].Signals, Signal{Name: SigScoreSum, Kind: SignalDivisor, Value: roundSig(total)})
			}
		}
		if r.nodes[i].py != nil {
			sc.out[i].Symbols = r.pySymbols(i, flows)
		} else {
			sc.out[i].Symbols = r.yamlSymbols(r.nodes[i].path)
		}
	}
	return rankOrder(sc.out, canon)
}

// scoring is the files' scores while files computes them, and the signals that explain them.
type scoring struct {
	out   []File
	score []float64
}

// mul multiplies file i's score by x and records it as the factor sig.
func (sc *scoring) mul(i int, sig string, x float64) {
	sc.score[i] *= x
	sc.out[i].Signals = append(sc.out[i].Signals, Signal{Name: sig, Kind: SignalFactor, Value: roundSig(x)})
}

// note sets the note of the signal last recorded for file i.
func (sc *scoring) note(i int, note string) {
	sc.out[i].Signals[len(sc.out[i].Signals)-1].Note = note
}

// classFactors starts each file's score from its PageRank and applies the factors of its
// class (hub, library, test, other, YAML, the charm's own library). It returns, per charm
// folder ("" for the whole tree), the best score of a file that is not an entry point, and
// the vendored libraries a library update lifts.
func (r *ranker) classFactors(sc *scoring, pr []float64, hubs func(int) bool) (best map[string]float64, libs []int) {
	best = map[string]float64{}
	libIntent := r.libIntent()
	superseded := r.supersededOwnLibs()
	for i, n := range r.nodes {
		sc.out[i] = File{Path: n.path, Class: n.class, Focused: r.focus[i],
			Signals: []Signal{{Name: SigPageRank, Kind: SignalBase, Value: roundSig(pr[i])}}}
		sc.score[i] = math.Pow(pr[i], PageRankPower)
		if n.hub && hubs(i) {
			sc.mul(i, SigHub, HubBoost)
		}
		if n.class == ClassLib && (libIntent == libUpdate || libIntent == libNamedUpdate && r.namedUpdate[i]) {
			libs = append(libs, i) // lifted, named in the text (waived) or not
		} else if !r.extra[i].waive {
			switch n.class {
			case ClassLib:
				if libIntent == libAbout || libIntent == libOwn || libIntent == libNamedUpdate {
					sc.mul(i, SigLibIntent, LibIntentFactor)
					break
				}
				if n.coOwned != "" {
					sc.mul(i, SigCoOwnedLib, CoOwnedLibPenalty)
					sc.note(i, "imports "+n.coOwned)
					break
				}
				sc.mul(i, SigLib, LibPenalty)
			case ClassTest:
				sc.mul(i, SigTest, TestPenalty)
			case ClassOther:
				sc.mul(i, SigOther, OtherPenalty)
				if docsTooling(n.path) {
					sc.mul(i, SigDocsTooling, DocsToolingPenalty)
				}
			case ClassYAML:
				sc.mul(i, SigYAML, YAMLFactor)
			}
		}
		if n.class == ClassSource && exceptionsOnly(n.py) {
			sc.mul(i, SigExceptionModule, ExceptionModuleFactor)
		}
		if n.class == ClassSource && emptyModule(n.py) {
			sc.mul(i, SigEmptyModule, EmptyModuleFactor)
		}
		if n.class == ClassSource && libIntent == libNamedUpdate && r.namedUpdate[i] {
			libs = append(libs, i) // the charm's own library, named (in lib/charms/, or in src/: declaresLibrary)
		} else if n.class == ClassSource && isLibPath(n.path) { // the charm's own library
			switch {
			case r.extra[i].waive:
			case libIntent == libOwn:
				sc.mul(i, SigOwnLibIntent, OwnLibIntentFactor)
			case r.extra[i].codeName != "":
				sc.mul(i, SigOwnLibIntent, OwnLibIntentFactor)
				sc.note(i, r.extra[i].codeName)
			case superseded[i]:
				sc.mul(i, SigOwnLibSuperseded, OwnLibSupersededPenalty)
			default:
				sc.mul(i, SigOwnLib, OwnLibPenalty)
			}
		}
		if !n.hub {
			d := charmDirOf(n.path, r.in.Charms)
			best[d] = max(best[d], sc.score[i])
			best[""] = max(best[""], sc.score[i]) // the whole tree's (and files outside every charm's)
		}
	}
	return best, libs
}

// leadsAndWords raises entry points to HubLead times the best other file, applies the
// lexical factor of the task's words, and records the signals that explain without scoring
// (a promoted import, the personalisation seeds, the interfaces a file handles).
func (r *ranker) leadsAndWords(sc *scoring, lex []float64, best map[string]float64, hubs func(int) bool) {
	maxLex := 0.0 // the best lexical match among the files a change edits: code and YAML
	maxTest := 0.0
	for i, x := range lex {
		switch r.nodes[i].class {
		case ClassSource, ClassYAML:
			maxLex = max(maxLex, x)
		case ClassTest:
			maxTest = max(maxTest, x)
		}
	}
	for i, n := range r.nodes {
		// an entry point leads its own charm's modules: in a monorepo whose task names no
		// charm, not every charm's (six unrelated entry points tied above the edited module);
		// the entry point of a charm the task names leads the whole tree
		b := best[""]
		if len(r.named) == 0 {
			b = best[charmDirOf(n.path, r.in.Charms)]
		}
		if n.hub && hubs(i) && sc.score[i] > 0 && sc.score[i] < HubLead*b {
			sc.mul(i, SigHubLead, HubLead*b/sc.score[i])
		}
		scale := maxLex
		if n.class == ClassTest {
			scale = max(maxLex, maxTest) // (LexBoost: tests among themselves too)
		}
		if scale > 0 && lex != nil && lex[i] > 0 {
			sc.mul(i, SigMentionWords, math.Exp(LexBoost*min(lex[i]/scale, 1)))
			sc.note(i, r.lexNotes[i])
		}
		if n.promoted {
			sc.out[i].Signals = append(sc.out[i].Signals, Signal{Name: SigFirstPartyImport, Kind: SignalCount, Value: 1})
		}
		for _, s := range personalSignals {
			if m := r.extra[i].personal[s]; m > 0 {
				sc.out[i].Signals = append(sc.out[i].Signals, Signal{Name: s, Kind: SignalSeed, Value: roundSig(PersonalShare * m / r.personalTotal),
					Note: noteOf(r.extra[i].notes[s])})
			}
		}
		if h := r.extra[i].handles; len(h) > 0 {
			sc.out[i].Signals = append(sc.out[i].Signals, Signal{Name: SigLinkHandler, Kind: SignalCount, Value: float64(len(h)), Note: noteOf(h)})
		}
	}
}

// namedFactors applies the untested-file factor, and the factors of a charm and of a folder
// the task names.
func (r *ranker) namedFactors(sc *scoring) {
	for _, i := range r.untested() {
		sc.mul(i, SigUntested, UntestedFactor)
	}
	for i := range r.nodes {
		if len(r.named) == 0 {
			break // most tasks name no charm of a monorepo: skip the directory lookups
		}
		if n := r.named[charmDirOf(r.nodes[i].path, r.in.Charms)]; n != "" && sc.score[i] > 0 {
			sc.mul(i, SigNamedCharm, NamedCharmFactor)
			sc.note(i, n)
		}
	}
	for _, d := range r.namedFolders() {
		for i, n := range r.nodes {
			if sc.score[i] > 0 && strings.HasPrefix(n.path, d+"/") && n.class != ClassTest && n.class != ClassLib {
				sc.mul(i, SigNamedFolder, NamedCharmFactor)
				sc.note(i, d)
			}
		}
	}
}

// intentLifts lifts the files a task's intent points at to a lead over the best file: the
// libraries of a refresh; then the first of a dependency, tool, build or series, or workload
// pin change; then a declaration or an addition; then a file the task names.
func (r *ranker) intentLifts(sc *scoring, libs []int) {
	r.liftLibraries(libs, sc.score, sc.mul)
	if deps := r.onlyNamed(r.dependencyTargets()); len(deps) > 0 {
		lift(deps, DependencyUpdateLead, SigDependencyUpdate, sc.score, sc.mul)
	} else if tools := r.onlyNamed(r.toolTargets()); len(tools) > 0 {
		lift(tools, DependencyUpdateLead, SigDependencyUpdate, sc.score, sc.mul)
	} else if build := r.onlyNamed(slices.Concat(r.buildTargets(), r.seriesTargets())); len(build) > 0 {
		lift(build, BuildIntentLead, SigBuildIntent, sc.score, sc.mul)
	} else if pins := r.onlyNamed(r.pinTargets()); len(pins) > 0 {
		lift(pins, WorkloadPinLead, SigWorkloadPin, sc.score, sc.mul)
		r.markPins(pins)
	}
	if decl := r.onlyNamed(r.declarationTargets()); len(decl) > 0 {
		lift(decl, DeclarationIntentLead, SigDeclarationIntent, sc.score, sc.mul)
		if docs := r.onlyNamed(r.docsTargets()); len(docs) > 0 {
			lift(docs, DocsDescriptionLead, SigDeclarationIntent, sc.score, sc.mul)
		}
	} else if add := r.additionTargets(); len(add) > 0 {
		lift(add, AdditionIntentLead, SigAdditionIntent, sc.score, sc.mul)
		if cls := r.configClassTargets(add); len(cls) > 0 {
			lift(cls, ConfigClassLead, SigConfigClass, sc.score, sc.mul)
		}
	}
	if named := r.subjectFileTargets(); len(named) > 0 {
		lift(named, SubjectFileLead, SigSubjectFile, sc.score, sc.mul)
	}
}

// rankOrder sorts the scored files into rank order: every module once, then the copies (score
// 0; copies.go) in their canonical files' order (canon: each file's canonical file), so that
// the ranking's first places are distinct modules; except in a library refresh, where a
// lifted library's copies follow it (each charm's copy may be the one refreshed; session 23:
// pyroscope's coordinator copies 60 -> 4, 51 -> 4, unseen held33 litmus 103 -> 7, maas 24 -> 7;
// others lose a place or two; 32-set mean 0.8011 -> 0.8012, held33 0.714 -> 0.715).
func rankOrder(out []File, canon []int) []File {
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	lifted := func(i int) bool { // a copy of a library a refresh lifts: right after it, as likely edited
		return out[i].CopyOf != "" && slices.ContainsFunc(out[canon[i]].Signals, func(s Signal) bool { return s.Name == SigLibUpdate })
	}
	slices.SortFunc(order, func(a, b int) int {
		if x, y := out[a].CopyOf != "" && !lifted(a), out[b].CopyOf != "" && !lifted(b); x != y {
			if x {
				return 1
			}
			return -1
		}
		ca, cb := out[canon[a]], out[canon[b]]
		if c := cmp.Compare(cb.Score, ca.Score); c != 0 {
			return c
		}
		if c := strings.Compare(ca.Path, cb.Path); c != 0 {
			return c
		}
		return cmp.Or(strings.Compare(out[a].CopyOf, out[b].CopyOf), strings.Compare(out[a].Path, out[b].Path)) // the canonical ("") first
	})
	sorted := make([]File, len(out))
	for k, i := range order {
		sorted[k] = out[i]
	}
	return sorted
}

// noteOf joins up to three matches.
func noteOf(items []string) string {
	if len(items) > 3 {
		return strings.Join(items[:3], ", ") + ", …"
	}
	return strings.Join(items, ", ")
}

// roundSig rounds x to ScoreDigits significant digits.
func roundSig(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(ScoreDigits-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// supersededOwnLibs marks the files of the charm's own library (ClassSource under
// lib/charms/) that a newer major version of the same module replaces (v0/cert.py beside
// v1/cert.py) and that no code of the tree imports: kept published for older consumers, they
// are edited far less than the version the charm uses (rev96: kubernetes-dashboard's unused
// v0 tied with its charmcraft.yaml, above the libraries the charm does use).
func (r *ranker) supersededOwnLibs() map[int]bool {
	versions := map[string]int{} // lib folder + module → its newest major version
	type libFile struct {
		key     string
		version int
	}
	own := map[int]libFile{}
	for i, n := range r.nodes {
		if n.class != ClassSource || !isLibPath(n.path) {
			continue
		}
		_, inside := charmyaml.LibraryPath(n.path) // "v0/cert.py"
		vdir, module, ok := strings.Cut(inside, "/")
		v, err := strconv.Atoi(strings.TrimPrefix(vdir, "v"))
		if !ok || !strings.HasPrefix(vdir, "v") || err != nil {
			continue
		}
		key := strings.TrimSuffix(n.path, inside) + "\x00" + module
		own[i] = libFile{key, v}
		versions[key] = max(versions[key], v)
	}
	if len(own) == 0 {
		return nil
	}
	imported := map[int]bool{}
	for i := range r.nodes {
		for _, j := range r.modEdges[i] {
			if j != i {
				imported[j] = true
			}
		}
	}
	out := map[int]bool{}
	for i, f := range own {
		if f.version < versions[f.key] && !imported[i] {
			out[i] = true
		}
	}
	return out
}

// docsTooling reports a path under a documentation folder (docs/, doc/, documentation/) or a
// hidden one (.github/, docs/.sphinx/): a docs builder's configuration and scripts, and CI's.
func docsTooling(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if seg == "docs" || seg == "doc" || seg == "documentation" || len(seg) > 1 && seg[0] == '.' {
			return true
		}
	}
	return false
}

// isLibPath reports a path under lib/charms/, or in a library folder elsewhere (charmyaml.LibraryOf).
func isLibPath(p string) bool {
	return strings.HasPrefix(p, "lib/charms/") || strings.Contains(p, "/lib/charms/") || charmyaml.LibraryOf(p) != ""
}

// exceptionsOnly reports a module that defines exception classes and nothing else at its top
// level (src/common/exceptions.py): every module raising or catching them refers to it, which
// gives it PageRank, yet a change seldom edits it (ExceptionModuleFactor).
func exceptionsOnly(f *pyextract.File) bool {
	if f == nil {
		return false
	}
	n := 0
	for _, s := range f.Symbols {
		if s.Qualifier != "" {
			continue
		}
		if s.Kind != pyextract.KindClass || !isException(s) {
			return false
		}
		n++
	}
	return n > 0
}

// emptyModule reports a Python file that defines, imports and uses nothing (an empty
// __init__.py, or one holding a docstring): it marks a package, and has no code to edit
// (EmptyModuleFactor).
func emptyModule(f *pyextract.File) bool {
	return f != nil && len(f.Symbols) == 0 && len(f.Imports) == 0 && len(f.Refs) == 0 && f.Errors == 0
}
