package rank

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
)

// Declaration intents. A subject line about what the charm's YAML declares — an interface's
// description, default or flags, the name of a declared interface, a metadata field — edits
// the YAML file that declares it, which YAMLFactor otherwise keeps below the code handling
// the interface. Such a task lifts that file above every other one (DeclarationIntentLead).

// declarationWords name a field of an interface's declaration in the charm's YAML: its
// description or its default ("Update `resume-upgrade` action `force` description", "change
// the default of log-level"). flagWords are a relation's flags, named with the YAML's own
// section keys (relationKeys: "Add optional flags to provides endpoints"); said of a relation
// by name, they are usually about its code ("make the database relation handler optional").
//
// renameWords rename what they name; with an interface or a kind of interface ("rename
// storages to log-data") the name to change is declared in the YAML, unless a word of code
// says the name is the code's ("rename the database relation handler": codeWords).
var (
	renameWords = []string{"rename", "renamed", "renames", "renaming"}
	codeWords   = []string{"handler", "handlers", "method", "methods", "function", "functions", "class", "classes",
		"variable", "variables", "module", "modules", "file", "files", "attribute", "attributes", "key", "keys",
		"constant", "constants", "property", "properties"}
	descriptionWords = []string{"description", "descriptions"}
	defaultWords     = []string{"default", "defaults"}
	declarationWords = slices.Concat(descriptionWords, defaultWords)
	flagWords        = []string{"optional", "limit"}
	// removeWords with unusedWords remove declarations nothing uses ("remove unused configs",
	// "drop obsolete actions"); configWords name options so, which sectionWords leaves out
	// ("config" alone is every charm's word).
	removeWords = []string{"remove", "removes", "removed", "removing", "drop", "drops", "dropped", "delete", "deletes",
		"deleted", "cleanup"}
	unusedWords  = []string{"unused", "obsolete", "stale", "leftover", "leftovers", "orphaned"}
	configWords  = []string{"config", "configs", "configuration", "configurations"}
	relationKeys = []string{"requires", "provides", "peers"}
)

// metaFieldWords are charm metadata fields that no code reads ("Update charm summary", "Add
// assumes field to metadata"): a subject naming one edits the file holding the charm's
// metadata.
var metaFieldWords = []string{"summary", "assumes", "assume", "maintainer", "maintainers", "website",
	"display_name", "min_juju_version", "charm_user"}

// charmhubWords, and docsWords with linkWords: the charm's Charmhub page is built from its
// metadata (summary, description, website, and the `docs:` link to its documentation), so a
// subject about Charmhub ("Update charmhub homepage", "Charmhub docs integration") or about
// the docs link ("fix: update docs link", "docs: add link in metadata") edits the metadata
// file too.
var (
	charmhubWords = []string{"charmhub"}
	docsWords     = []string{"doc", "docs", "documentation"}
	linkWords     = []string{"link", "links", "url", "urls"}
)

// namesMetadata reports a subject about a metadata field no code reads. Measured (session 7,
// fasteval): dev and held3-10 unchanged but held6 "Charmhub docs integration" (metadata.yaml
// 14 → 1); held11, whose docs-link subjects were seen while writing this, MRR 0.756 → 0.773.
// Not a field's word that is a word of an interface the charm declares (etcd-benchmark's
// get-summary action: "the test summary is missing the p99 latency", review rev115): own
// reports one.
func namesMetadata(m mentions, own func(word string) bool) bool {
	return m.hasAny(slices.DeleteFunc(slices.Clone(metaFieldWords), own)) || m.hasAny(charmhubWords) || m.hasAny(docsWords) && m.hasAny(linkWords)
}

// declaresWord reports a word (normalised) of the name of an interface the tree's charms
// declare.
func (r *ranker) declaresWord(w string) bool {
	return slices.ContainsFunc(r.decls, func(d decl) bool {
		return d.lkind != "" && slices.Contains(strings.Split(normName(d.sym.Name), "_"), w)
	})
}

// listingWords are fields of the charm's Charmhub listing that no code reads: its links
// (documentation, website, source, issues) and its icon ("feat: add links", "feat: add
// charm-related links", "fix: include icon.svg in the final charm file", "Feat: Add icon").
// Not "link", which is a verb too ("link the database relation").
var listingWords = []string{"links", "icon"}

// listingQualifiers may stand before a listing word and leave it the listing's ("update the
// doc links", "add `charmcraft.yaml` links", "update listing links", "add charm-related
// links", "include icon.svg").
var listingQualifiers = map[string]bool{"doc": true, "docs": true, "documentation": true, "charm": true, "related": true,
	"listing": true, "charmcraft": true, "yaml": true, "metadata": true, "other": true, "project": true, "external": true,
	"include": true, "missing": true, "charmhub": true}

// namesListing reports a subject naming a listing field (listingWords) at the start of the
// line, or right after a stopword ("add links", "remove links", "summary, and links") or a
// qualifier (listingQualifiers). After any other word the field is that word's thing, not the
// listing's: "Dashboards links stable", "bump dashboard links lib"
// (kubeflow_dashboard_links.py), "skip down links" (network links). Measured (session 29,
// review rev54, 12 charms never tuned on): 12 such subjects, metadata file first 6 → 12; 36
// held-out sets: one case up (netbox's "Feat: Add icon" 2 → 1), none down; dev unchanged.
// Not a word that is the name of an interface the charm declares (kubeflow-dashboard's
// "links" relation: "Links sent over the links relation ...", review rev111): declared
// reports one.
func namesListing(m mentions, declared func(name string) bool) bool {
	words := slices.DeleteFunc(slices.Clone(listingWords), declared)
	if !m.hasAny(words) {
		return false
	}
	var before []string // the words written right before a listing word
	for g := range m.grams {
		if w, field, ok := strings.Cut(g, "_"); ok && !strings.Contains(field, "_") && slices.Contains(words, field) {
			before = append(before, w)
		}
	}
	return len(before) == 0 || slices.ContainsFunc(before, func(w string) bool { return stopwords[w] || listingQualifiers[w] })
}

// namesDocs reports a subject about the charm's documentation as such ("Add documentation",
// "docs: basic charm docs", "Update README", a docs/readme branch): the documentation lives
// outside the code (README.md, docs/, Discourse), and what of it the map holds is the charm's
// metadata, whose description and docs link change with it; in a tree of one charm only (of
// several, which one's is not said). Not when the subject names code,
// a library or tests beside the docs ("Update lib documentation", "Add proxy instructions to
// README and update Vault integration test"): those edit what they name; nor, in
// declarationTargets, a file ("updated config.yaml docs": the options' descriptions).
func namesDocs(m mentions) bool {
	return (m.hasAny(docsWords) || m.hasAny(readmeWords)) && !m.hasAny(codeWords) && !m.hasAny(libraryWords) &&
		!m.hasAny(testWords)
}

// readmeWords name the charm's README; testWords its tests, as written.
var (
	readmeWords = []string{"readme"}
	testWords   = []string{"test", "tests", "itest", "itests", "unittest", "unittests", "testing"}
)

// sectionWords name a kind of declared interface as a whole ("requires type relations",
// "provides endpoints"), by the linker kind.
var sectionWords = map[string]string{
	"requires": linker.KindRelation, "provides": linker.KindRelation, "peers": linker.KindRelation,
	"relation": linker.KindRelation, "relations": linker.KindRelation, "endpoint": linker.KindRelation,
	"endpoints": linker.KindRelation, "integration": linker.KindRelation, "integrations": linker.KindRelation,
	"action": linker.KindAction, "actions": linker.KindAction, "option": linker.KindConfig,
	"options": linker.KindConfig, "container": linker.KindContainer, "containers": linker.KindContainer,
	"storage": linker.KindStorage, "storages": linker.KindStorage, "resource": linker.KindResource, "resources": linker.KindResource,
}

// docsTargets are, for a subject about the charm's documentation (namesDocs, one shipped
// charm, no interface or path named: declarationTargets' docs case), the charm's YAML files
// other than its metadata that declare actions or options: their descriptions are
// documentation too ("[DPE-4225] README", "minor doc fixes" edited actions.yaml and
// config.yaml; review rev127). Nil otherwise.
func (r *ranker) docsTargets() []int {
	if !slices.ContainsFunc(r.subjects, func(s subject) bool {
		return namesDocs(s.m) && r.shippedCharms() == 1 && !r.namesInterface(s.m) && len(s.m.paths) == 0
	}) {
		return nil
	}
	meta := map[string]bool{}
	for k := range r.in.Charms {
		meta[metadataYAML(&r.in.Charms[k])] = true
	}
	var out []int
	for _, d := range r.decls {
		if d.lkind != linker.KindAction && d.lkind != linker.KindConfig || meta[d.file] {
			continue
		}
		if i, ok := r.byPath[d.file]; ok && !slices.Contains(out, i) && r.nodes[i].class != ClassTest {
			out = append(out, i)
		}
	}
	return out
}

// declarationTargets are the YAML files to lift when a subject line names a metadata field
// (metaFieldWords), or a field of a declaration or a rename together with the interface (an
// action, config option, relation, container, storage or resource) or its kind ("requires
// type relations"): the description, the default, the flags and the name live in the YAML,
// and the code that handles the interface, which mention-interface lifts too, does not change
// with them (or changes with them: a rename edits both). Nil otherwise.
func (r *ranker) declarationTargets() []int {
	var out []int
	add := func(file string) {
		if i, ok := r.byPath[file]; ok && !slices.Contains(out, i) && r.nodes[i].class != ClassTest {
			out = append(out, i)
		}
	}
	for _, s := range r.subjects {
		if namesMetadata(s.m, r.declaresWord) || namesListing(s.m, r.declaresName) || namesDocs(s.m) && r.shippedCharms() == 1 && !r.namesInterface(s.m) && len(s.m.paths) == 0 {
			for k := range r.in.Charms {
				add(metadataYAML(&r.in.Charms[k]))
			}
		}
		kinds := map[string]bool{}
		// not in a subject adding an interface, whose "default" or "description" is the new
		// one's ("add a config option for the default TTL": review rev99)
		field := !s.adds && (s.m.hasAny(declarationWords) || s.m.hasAny(renameWords) && !s.m.hasAny(codeWords))
		// a default is an option's or an action parameter's: "update the default alertmanager
		// configuration" names no relation alertmanager's field (review rev110)
		defaultOnly := s.m.hasAny(defaultWords) && !s.m.hasAny(descriptionWords) && !s.m.hasAny(renameWords)
		switch {
		case field:
			for w, k := range sectionWords {
				if s.m.grams[w] {
					kinds[k] = true
				}
			}
		case s.m.hasAny(flagWords) && s.m.hasAny(relationKeys):
			kinds[linker.KindRelation] = true
		case s.m.hasAny(removeWords) && !slices.ContainsFunc(s.m.paths, func(p string) bool { return !charmYAMLNames[path.Base(p)] }) && !s.m.hasAny(codeWords):
			// "remove unused configs": the declarations nothing uses go (review rev116:
			// thelounge's config.yaml second behind its handlers)
			kinds = removedKinds(s.text)
			if len(kinds) == 0 {
				continue
			}
		default:
			continue
		}
		for _, d := range r.decls {
			if d.lkind == "" || slices.Contains(declarationWords, normName(d.sym.Name)) {
				continue // a config option named "description" is not named by the word
			}
			if !kinds[d.lkind] && !(field && s.m.grams[normName(d.sym.Name)] && !(defaultOnly && !hasDefaults(d.lkind))) {
				continue
			}
			add(d.file)
		}
	}
	slices.Sort(out)
	return out
}

// declaresName reports a name (normalised) that an interface of the tree's charms has.
func (r *ranker) declaresName(name string) bool {
	return slices.ContainsFunc(r.decls, func(d decl) bool { return d.lkind != "" && normName(d.sym.Name) == name })
}

// hasDefaults reports a kind of interface a declaration of which can have a default: a config
// option, an action (its parameters').
func hasDefaults(kind string) bool {
	return kind == linker.KindConfig || kind == linker.KindAction
}

// namesInterface reports a subject naming a declared interface or a kind of them ("docs:
// explain the backup action"): documentation of it is its declaration's description, or code.
func (r *ranker) namesInterface(m mentions) bool {
	for w := range sectionWords {
		if m.grams[w] {
			return true
		}
	}
	return slices.ContainsFunc(r.decls, func(d decl) bool { return d.lkind != "" && m.grams[normName(d.sym.Name)] })
}

// shippedCharms counts the charms of the tree outside tests/ (an integration test's charm is
// never shipped).
func (r *ranker) shippedCharms() int {
	n := 0
	for k := range r.in.Charms {
		if Classify(metadataYAML(&r.in.Charms[k]), r.in.Charms) != ClassTest {
			n++
		}
	}
	return n
}

// metadataYAML is the file holding a charm's metadata: its metadata.yaml, else its
// charmcraft.yaml.
func metadataYAML(c *charmyaml.Charm) string {
	return charmFileNamed(c, "metadata.yaml", "charmcraft.yaml")
}

// newDeclarationYAML is the file of c where the first interface of kind k goes: options
// and actions in config.yaml and actions.yaml, or in charmcraft.yaml when the charm keeps
// everything there (no metadata.yaml), never in metadata.yaml, which cannot hold them; ""
// when that file does not exist yet.
func newDeclarationYAML(c *charmyaml.Charm, k string) string {
	own := map[string]string{linker.KindConfig: "config.yaml", linker.KindAction: "actions.yaml"}[k]
	switch {
	case own == "":
		return metadataYAML(c)
	case charmFileNamed(c, own) != "":
		return charmFileNamed(c, own)
	case charmFileNamed(c, "metadata.yaml") == "":
		return charmFileNamed(c, "charmcraft.yaml")
	}
	return ""
}

// Addition intents. A subject line that adds an interface ("Add config option for dashboard
// size limit", "Add `extra_sans` config option", "Add storage for data and logs", "Add istio
// relation") declares it in the YAML, beside the code that handles it. The YAML file that
// declares that kind of interface is lifted to just under the best other file
// (AdditionIntentLead), not above it: the handler changes too, and the entry point usually
// leads.

// addWords are the verbs of an addition; the kind of interface must follow within
// addWindow words ("Add a `catalogue` endpoint": three; "add a get-admin-password action":
// three, a name written with '-' or '_' being one word).
var addWords = []string{"add", "adds", "added", "adding", "introduce", "introduces", "introduced"}

// newWords are the looser signs of new behaviour ("feat: `x` charm config", "handle `run-cli`
// charm action", "new config option"): they count as addWords do, except in a subject that
// fixes or reverts something, and "new" after an article or possessive ("when the new
// relation has no data" names one that exists). 36 sets 0.8002 → 0.8004, one case up
// (held10 mattermost, "Feat/isd 5168/charm config"), none down.
var newWords = []string{"feat", "implement", "implements", "implemented", "implementation", "support", "supports", "new", "handle", "handles"}

const addWindow = 4

// additionKinds are the kinds of interface a subject adds: a word of sectionWords, "config", or
// "interface" (what a relation implements: "Implementation of the TLS interface"), within
// addWindow words after an add verb, that ends its noun phrase: the subject ends there, or a
// function word, a number or another such word follows ("Add storage for data", "Add istio
// relation (#176)", "Add `extra_sans` config option"). Not "Add integration tests", "Add more
// guards around relation properties", nor a name written with underscores ("relation_access"),
// nor what follows "to" or "into" ("add ssl_* params to requires": where, not what). A loose
// verb ("handle", "support") whose noun phrase names an interface the charm already declares,
// of the kind that ends it ("Handle redis relation before relation_data is available", redis
// declared), adds nothing: the handling code changes, not the declaration. declared reports a
// declared interface by kind and name.
func additionKinds(text string, declared func(kind, name string) bool) map[string]bool {
	raw := rawTokens(strings.ToLower(text))
	var seq []string
	var at []int // the raw token each word of seq is part of: a hyphenated name is one word of the window
	for n, tok := range raw {
		for _, p := range tokenParts(tok) {
			seq, at = append(seq, p), append(at, n)
		}
	}
	kindOf := func(w string) (string, bool) {
		switch w {
		case "config":
			return linker.KindConfig, true
		case "interface", "interfaces": // "Initial support for the s3 interface": a relation's
			return linker.KindRelation, true
		}
		k, ok := sectionWords[w]
		return k, ok
	}
	ends := func(j int) bool {
		if j+1 == len(seq) {
			return true
		}
		next := seq[j+1]
		_, kind := kindOf(next)
		return kind || stopwords[next] || next[0] >= '0' && next[0] <= '9'
	}
	kinds := map[string]bool{}
	fixes := len(seq) > 0 && slices.Contains([]string{"fix", "fixes", "fixed", "bug", "bugfix", "hotfix", "revert"}, seq[0])
	for i, w := range seq {
		loose := slices.Contains(newWords, w)
		if !slices.Contains(addWords, w) && !loose {
			continue
		}
		if loose && (fixes || w == "new" && i > 0 && slices.Contains([]string{"the", "this", "that", "its", "their", "our"}, seq[i-1])) {
			continue
		}
		for j := i + 1; j < len(seq) && at[j] <= at[i]+addWindow; j++ {
			if seq[j] == "to" || seq[j] == "into" { // "add ssl_* params to requires": what follows is where, not what
				break
			}
			if k, ok := kindOf(seq[j]); ok && ends(j) && !(k == linker.KindResource && j > 0 && clusterWords[seq[j-1]]) {
				// the raw tokens between the verb and the kind word (none when both are parts
				// of one hyphenated token: "feat/consolidate-urls-config")
				if between := raw[min(at[i]+1, at[j]):at[j]]; loose && declared != nil && slices.ContainsFunc(between, func(t string) bool { return declared(k, t) }) {
					continue
				}
				kinds[k] = true
			}
		}
	}
	return kinds
}

// removedKinds are the kinds of interface a subject removes as unused: a word of
// sectionWords or "config(s)" that ends its noun phrase (as in additionKinds) within three
// words after a word of unusedWords ("remove unused configs", "refactor: remove unused mysql
// relation", a branch's remove_unused_relation), or right before "that", "which", "no" or
// "now" three words or fewer before it ("Remove config options that are unused"). Not "cleanup unused relation data" (the data
// goes), nor "Delete leftover Kubernetes resources" (a cluster's objects, clusterWords: review
// rev121, where any kind word of such a subject lifted the YAML of 173 of 500 trees).
func removedKinds(text string) map[string]bool {
	var seq []string
	for _, tok := range rawTokens(strings.ToLower(text)) {
		seq = append(seq, strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == '/' || r == '-' || r == '_' })...)
	}
	kindOf := func(w string) (string, bool) {
		if slices.Contains(configWords, w) {
			return linker.KindConfig, true
		}
		k, ok := sectionWords[w]
		return k, ok
	}
	kinds := map[string]bool{}
	for i, w := range seq {
		if !slices.Contains(unusedWords, w) {
			continue
		}
		// "config options that are unused": the kind a few words before, heading its phrase
		for j := i - 1; j >= 0 && j >= i-3; j-- {
			if k, ok := kindOf(seq[j]); ok && (seq[j+1] == "that" || seq[j+1] == "which" || seq[j+1] == "no" || seq[j+1] == "now") {
				kinds[k] = true
			}
		}
		for j := i + 1; j < len(seq) && j <= i+3; j++ {
			k, ok := kindOf(seq[j])
			if !ok {
				continue
			}
			next := ""
			if j+1 < len(seq) {
				next = seq[j+1]
			}
			if _, kind := kindOf(next); (next == "" || kind || stopwords[next] || next[0] >= '0' && next[0] <= '9') && !clusterWords[seq[j-1]] {
				kinds[k] = true
			}
		}
	}
	return kinds
}

// clusterWords, right before "resources", make them a cluster's objects, not the charm's
// resources ("Apply with force when adding manifest resources", "add Kubernetes resources",
// review rev111).
var clusterWords = map[string]bool{"manifest": true, "manifests": true, "kubernetes": true, "k8s": true, "lightkube": true,
	"rbac": true, "cluster": true, "crd": true, "crds": true}

// configClassTargets are, for a subject line adding a config option, the files of the class
// the charm loads its options into, of the charms whose YAML the addition lifts (yamls): the
// files of the linker's reads of a typed config's fields (via config, detail "field"), not
// tests'. Nil for another addition.
func (r *ranker) configClassTargets(yamls []int) []int {
	if !r.added[linker.KindConfig] {
		return nil
	}
	dirs := map[string]bool{}
	for _, y := range yamls {
		dirs[charmDirOf(r.nodes[y].path, r.in.Charms)] = true
	}
	var out []int
	for _, d := range r.decls {
		if d.lkind != linker.KindConfig || d.iface == nil || !dirs[charmDirOf(d.file, r.in.Charms)] {
			continue
		}
		for _, s := range d.iface.Reads {
			if s.Via != linker.ViaConfig || s.Detail != "field" {
				continue
			}
			if i, ok := r.byPath[cleanPath(s.File)]; ok && r.nodes[i].class != ClassTest && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	if len(out) == 0 {
		out = r.configModule(dirs)
	}
	slices.Sort(out)
	return out
}

// configModule is, for a charm with no typed config class, the module of its own code other
// than an entry point that reads the most of its options, when it reads at least
// ConfigModuleMin of them and a third of all, more than any other file: where the charm turns
// its options into the workload's settings (review rev116 and rev119: glauth's and
// authentik's src/configs.py only read picks for "add config option").
func (r *ranker) configModule(dirs map[string]bool) []int {
	reads := map[int]map[string]bool{} // file → the options it reads
	options := 0
	for _, d := range r.decls {
		if d.lkind != linker.KindConfig || d.iface == nil || !dirs[charmDirOf(d.file, r.in.Charms)] {
			continue
		}
		options++
		for _, s := range d.iface.Reads {
			if s.Via != linker.ViaConfig || s.Loose || s.Detail == "all" {
				continue
			}
			if i, ok := r.byPath[cleanPath(s.File)]; ok && r.nodes[i].class == ClassSource {
				if reads[i] == nil {
					reads[i] = map[string]bool{}
				}
				reads[i][d.sym.Name] = true
			}
		}
	}
	best, second := -1, 0
	for _, i := range slices.Sorted(maps.Keys(reads)) {
		switch n := len(reads[i]); {
		case best < 0 || n > len(reads[best]):
			if best >= 0 {
				second = len(reads[best])
			}
			best = i
		case n > second:
			second = n
		}
	}
	if best < 0 || r.nodes[best].hub || len(reads[best]) < ConfigModuleMin || 3*len(reads[best]) < options || len(reads[best]) == second {
		return nil
	}
	return []int{best}
}

// additionTargets are the YAML files declaring the kinds of interface a subject line adds
// (additionKinds), or, when none declares one yet, the file where the first goes
// (newDeclarationYAML); nil without such a subject. When the task names charms of a
// monorepo (charms.go), only theirs: "feat(kfp-ui): add s3-credentials relation" adds it to
// kfp-ui, even when only kfp-api declares relations of that name.
func (r *ranker) additionTargets() []int {
	if len(r.added) == 0 {
		return nil
	}
	var out []int
	add := func(file string) {
		if i, ok := r.byPath[file]; ok && !slices.Contains(out, i) && r.nodes[i].class == ClassYAML {
			out = append(out, i)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(r.added)) {
		declared := false
		for _, d := range r.decls {
			if d.lkind == k && (r.named == nil || r.named[charmDirOf(d.file, r.in.Charms)] != "") {
				declared = true
				add(d.file)
			}
		}
		if !declared {
			for c := range r.in.Charms {
				if r.named == nil || r.named[charmDir(&r.in.Charms[c])] != "" {
					add(newDeclarationYAML(&r.in.Charms[c], k))
				}
			}
		}
	}
	if r.added[linker.KindRelation] { // a reactive charm includes the new relation's interface layer
		for c := range r.in.Charms {
			if ch := &r.in.Charms[c]; len(ch.Layers) > 0 && (r.named == nil || r.named[charmDir(ch)] != "") {
				add(path.Join(ch.Dir, charmyaml.LayerFile))
			}
		}
	}
	if r.named == nil && r.spansCharms(out) && !r.everyCharmSaid() {
		return nil // which of the charms gets it, the task does not say
	}
	slices.Sort(out)
	return out
}

// optionPhrase matches a name written as an identifier (with '_' or '-', or in backquotes)
// right before the words that call it a configuration option: "Enable ssl_ca configuration
// parameter", "the `log-level` config option", "new max_streams option". A bare "parameter"
// or "setting" is a function's as often ("add a timeout_seconds parameter to get_secret").
var optionPhrase = regexp.MustCompile("(?i)(`[\\w.-]+`|\\b[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+)\\s+(?:(?:config|configuration|charm)\\s+(?:option|parameter|setting)|option)s?\\b")

// newOptionNamed reports a task text that calls a name no charm declares a configuration
// option: the option is new, and the YAML that declares options changes with the code.
func newOptionNamed(text string, declared func(kind, name string) bool) bool {
	for _, m := range optionPhrase.FindAllStringSubmatch(text, -1) {
		n := strings.Trim(m[1], "`")
		if !declared(linker.KindConfig, n) && !declared(linker.KindConfig, strings.ReplaceAll(n, "_", "-")) && !declared(linker.KindConfig, strings.ReplaceAll(n, "-", "_")) {
			return true
		}
	}
	return false
}
