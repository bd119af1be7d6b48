package rank

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
	"github.com/cantrip-dev/charmcraft-map/linker"
)

// Monorepos. A tree with several charms (kubeflow's charms/kfp-ui, charms/kfp-api, ...; vault's
// k8s/ and machine/) gets tasks about one of them: "feat(kfp-ui): add s3-credentials
// relation", "knative-eventing: initial implementation of the charm". Every charm has an
// entry point and YAML of the same shape, and the others' files match the task's words as
// well as the named charm's do; the name is what tells them apart.

// namedCharms returns the directories of the charms the task names (with the name as the
// task writes it, '-'-joined), when the tree holds two
// or more charms outside the tests and the task names some but not all of them: by a
// charm's name or its directory's name, with two or more words ("kfp-ui", not "k8s" or
// "machine", which name other things too), written as a run of the task's words and not as a
// part of a longer name the task also uses for a charm ("vault" of "vault-k8s"). The subject
// lines are read first (a body lists the other charms a pull request touched on the way),
// then a subject naming a substrate ("the machine charm", namedBySubstrate); the whole text
// only when they name none.
func (r *ranker) namedCharms() map[string]string {
	names := map[string][]string{} // charm dir → its names, normalised
	for k := range r.in.Charms {
		c := &r.in.Charms[k]
		d := charmDir(c)
		if Classify(path.Join(d, "charm.py"), r.in.Charms) == ClassTest {
			continue
		}
		var ns []string // a charm with no name of two words still counts among the charms
		for _, n := range []string{c.Name, path.Base(d)} {
			if n = normName(n); strings.Contains(n, "_") && !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
		names[d] = ns
	}
	if len(names) < 2 {
		return nil
	}
	pick := func(m mentions, text string) map[string]string {
		named := map[string]string{} // dir → the name the task uses
		for d, ns := range names {
			for _, n := range ns {
				if m.grams[n] && !m.inner[n] && !r.relationWritten(m, n) && standalone(text, n) {
					named[d] = n
				}
			}
		}
		out := map[string]string{}
		for d, n := range named {
			longer := false
			for e, o := range named {
				longer = longer || e != d && o != n && strings.Contains("_"+o+"_", "_"+n+"_")
			}
			if !longer {
				out[d] = strings.ReplaceAll(n, "_", "-")
			}
		}
		// the charm a line names as the other end of a relation ("... when related to
		// dns-secondary") is not the one it changes, when it names another (review rev120)
		if peers := maps.Collect(func(yield func(string, string) bool) {
			for d, n := range out {
				if peerNamed(text, n) && !yield(d, n) {
					return
				}
			}
		}); len(peers) > 0 && len(peers) < len(out) {
			for d := range peers {
				delete(out, d)
			}
		}
		if len(out) == 0 || len(out) == len(names) {
			return nil
		}
		return out
	}
	// a conventional commit's scope ("feat(slurmctld): rename `login-node` endpoint to
	// `sackd`") says which charm the change is in, whatever other charm the line names (a
	// name of one word counts there when it has five letters or more)
	for _, s := range r.subjects {
		out := map[string]string{}
		for k := range r.in.Charms {
			c := &r.in.Charms[k]
			d := charmDir(c)
			if _, ok := names[d]; !ok {
				continue
			}
			for _, n := range []string{normName(c.Name), normName(path.Base(d))} {
				// a name of one short word ("ui", "api") is a common noun as often
				if (strings.Contains(n, "_") || len(n) >= 5) && s.scopes[n] {
					out[d] = strings.ReplaceAll(n, "_", "-")
				}
			}
		}
		if len(out) > 0 && len(out) < len(names) {
			return out
		}
	}
	for _, s := range r.subjects {
		if out := pick(s.m, s.text); len(out) > 0 {
			return out
		}
	}
	if out := r.namedByOwnWord(names); len(out) > 0 {
		return out // a subject's word before a body's full name (see above)
	}
	if out := r.namedBySubstrate(names); len(out) > 0 {
		return out
	}
	if out := pick(r.ment, strings.Join(r.in.Mentions, "\n")); len(out) > 0 {
		return out
	}
	return r.namedByInterface(names) // (a body naming the charm says more)
}

// namedFolders returns the folders a subject line's conventional-commit scope names when it
// names no charm: "feat(slurm-ops): ..." is about internal/slurm-ops/, a package the charms
// of a monorepo share, and "feat(slurmd-interface): ..." about the interface library beside
// them; otherwise the charms' entry points, which match the prose as well, lead. The scope
// is a folder's name ('-' and '_' alike; a one-word name of five letters or more, as for
// charms), the shallowest such folder on each path that is neither a charm's directory nor a
// tests folder; one or two folders, else the scope is a common word (every charm's "src").
// rev62 (session 34): slurm-charms' two such commits 7 → 3 and 9 → 2; no case of the 36 sets
// moved.
func (r *ranker) namedFolders() []string {
	if len(r.named) > 0 {
		return nil
	}
	charmDirs := map[string]bool{}
	for k := range r.in.Charms {
		charmDirs[charmDir(&r.in.Charms[k])] = true
	}
	for _, s := range r.subjects {
		scopes := s.scopes
		if len(scopes) == 0 {
			continue
		}
		dirs := map[string]bool{}
		for _, n := range r.nodes {
			parts := strings.Split(n.path, "/")
			for k := range len(parts) - 1 {
				w := normName(parts[k])
				if !strings.Contains(w, "_") && len(w) < 5 || !scopes[w] {
					continue
				}
				if d := strings.Join(parts[:k+1], "/"); !charmDirs[d] && !testdirs.Is(parts[k]) {
					dirs[d] = true
				}
				break
			}
		}
		if len(dirs) > 0 && len(dirs) <= 2 {
			return slices.Sorted(maps.Keys(dirs))
		}
	}
	return nil
}

// standalone reports whether text writes the name n (normalised: '_'-joined words) as a
// whole, not as the head or tail of a longer '-' or '_' joined name: "kfp-api" is not named
// by "kfp-api-principal", an option of another charm.
// nameTokens are the lower-case tokens of text, names with '-' and '_' kept whole.
func nameTokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// peerNamed reports a charm's name (as written, with '-') that text writes first right after
// words that make it a relation's other end: "related to", "integrated with", "relation with".
func peerNamed(text, name string) bool {
	words := nameTokens(text)
	for i, w := range words {
		if strings.ReplaceAll(w, "_", "-") != name {
			continue
		}
		if i < 2 {
			return false
		}
		prev, link := words[i-2], words[i-1]
		return (link == "to" || link == "with") && peerVerbs[prev]
	}
	return false
}

// peerVerbs, before "to" or "with", make the charm named next a relation's other end.
var peerVerbs = map[string]bool{"related": true, "relate": true, "relates": true, "relating": true, "integrated": true,
	"integrate": true, "integrates": true, "integrating": true, "integration": true, "relation": true, "relations": true,
	"paired": true, "connected": true}

func standalone(text, n string) bool {
	words := nameTokens(text)
	hyphened := strings.ReplaceAll(n, "_", "-")
	return slices.ContainsFunc(words, func(w string) bool { return w == n || w == hyphened })
}

// namedByOwnWord returns the charm directories a subject line names by the one word that sets
// a charm's name apart from its family's ("add security context for udm" in a repository of
// oai-amf, oai-udm, oai-smf and mysql; "fix(coordinator): ..." beside tempo-worker-k8s): the
// family's words are those in more than half of the charms' names, and a charm whose name has
// exactly one other word, found in no other charm's name, is named by it. Generic words of a
// charm's name ("k8s", "operator") name nothing. Only subject lines count: a body's word is
// too often the common noun.
func (r *ranker) namedByOwnWord(dirs map[string][]string) map[string]string {
	words := map[string][]string{} // charm dir → the words of its name
	count := map[string]int{}      // word → the charms whose name holds it
	for k := range r.in.Charms {
		c := &r.in.Charms[k]
		d := charmDir(c)
		if _, shipped := dirs[d]; !shipped {
			continue
		}
		n := c.Name
		if n == "" {
			n = path.Base(d)
		}
		ws := slices.Compact(slices.Sorted(slices.Values(strings.Split(normName(n), "_"))))
		words[d] = ws
		for _, w := range ws {
			count[w]++
		}
	}
	own := map[string]string{} // charm dir → its own word
	for d, ws := range words {
		var rest []string
		for _, w := range ws {
			if 2*count[w] <= len(words) && !genericCharmWords[w] { // (falcosidekick-k8s: its own word is falcosidekick)
				rest = append(rest, w)
			}
		}
		if len(rest) == 1 && len(rest[0]) >= 2 && count[rest[0]] == 1 && !genericCharmWords[rest[0]] && !stopwords[rest[0]] &&
			strings.Trim(rest[0], "0123456789") != "" {
			own[d] = rest[0]
		}
	}
	relations := map[string]bool{} // a word that is also an endpoint's name may mean the endpoint
	for _, d := range r.decls {
		if d.lkind == linker.KindRelation {
			relations[normName(d.sym.Name)] = true
		}
	}
	for _, s := range r.subjects {
		out := map[string]string{}
		for d, w := range own {
			if s.m.grams[w] && !s.m.inner[w] && !s.m.common[w] && !r.relationWritten(s.m, w) && (!relations[w] || s.scopes[w]) {
				out[d] = w
			}
		}
		if len(out) > 0 && len(out) < len(words) {
			return out
		}
	}
	return nil
}

// commitScopes are the names (normName) a subject line names as its scope, the part a
// conventional commit or a monorepo's habit puts first: "refactor(slurmctld): …", "feat(a,b):
// …", "slurmctld: …"; nil when it has none. subject.scopes keeps them for each subject line.
// A charm's own word that is also an endpoint's name ("mon" of ceph-mon, the relation
// ceph-osd requires) names the charm only there.
func commitScopes(subject string) map[string]bool {
	head, _, ok := strings.Cut(strings.ToLower(subject), ":")
	if !ok {
		return nil
	}
	if _, scope, ok := strings.Cut(head, "("); ok {
		head, _, _ = strings.Cut(scope, ")")
	}
	out := map[string]bool{}
	for _, f := range strings.FieldsFunc(head, func(c rune) bool { return c == ',' || c == '/' }) {
		f = strings.TrimSpace(f)
		if strings.Contains(f, " ") {
			return nil // "Fix slurmctld: restart" is prose, not a scope
		}
		out[normName(f)] = true
	}
	return out
}

// genericCharmWords are words of charm names that say what kind of charm it is, not which.
var genericCharmWords = map[string]bool{"k8s": true, "machine": true, "vm": true, "operator": true, "charm": true,
	"kubernetes": true, "lxd": true}

// charmDir is c's directory as charmDirOf names it ("." at the root: path.Clean of "").
func charmDir(c *charmyaml.Charm) string { return cleanPath(c.Dir) }

// relationWritten reports whether the task writes the charm name n as (part of) a relation's
// name, when a charm of the tree declares that relation: a longer declared name that holds n
// ("kfp-api-grpc" holds kfp-api), or n itself beside "relation", "integration", "interface"
// or "endpoint" (kubeflow names relations after the charm at their other end: "the kfp-api
// relation" is kfp-ui's requirer as much as kfp-api's provider). Grams run to three words, so
// for a longer n the kind word is looked for beside its last or first word.
func (r *ranker) relationWritten(m mentions, n string) bool {
	words := strings.Split(n, "_")
	last, first := words[len(words)-1], words[0]
	beside := false
	for _, w := range []string{"relation", "relations", "integration", "interface", "endpoint"} {
		beside = beside || m.grams[n+"_"+w] || m.grams[w+"_"+n] ||
			len(words) >= 3 && (m.grams[last+"_"+w] || m.grams[w+"_"+first])
	}
	for _, d := range r.decls {
		if d.lkind != linker.KindRelation {
			continue
		}
		switch rel := normName(d.sym.Name); {
		case rel == n && beside:
			return true
		case rel != n && m.grams[rel] && strings.Contains("_"+rel+"_", "_"+n+"_"):
			return true
		}
	}
	return false
}

// inNamedCharm reports whether file i belongs to one of the named charms' directories.
func (r *ranker) inNamedCharm(i int) bool {
	return r.named[charmDirOf(r.nodes[i].path, r.in.Charms)] != ""
}

// outsideNamed is 1 for a file outside the named charms when the task names some, else 0.
func (r *ranker) outsideNamed(i int) int {
	if len(r.named) == 0 || r.inNamedCharm(i) {
		return 0
	}
	return 1
}

// onlyNamed keeps the targets inside the named charms, when the task names some: a change
// to one charm's recipe or declarations is not another's, whose file matches the words.
func (r *ranker) onlyNamed(targets []int) []int {
	if len(r.named) == 0 {
		return targets
	}
	return slices.DeleteFunc(slices.Clone(targets), func(i int) bool { return !r.inNamedCharm(i) })
}

// spansCharms reports whether the files lie in more than one charm's directory.
func (r *ranker) spansCharms(files []int) bool {
	dirs := map[string]bool{}
	for _, i := range files {
		dirs[charmDirOf(r.nodes[i].path, r.in.Charms)] = true
	}
	return len(dirs) > 1
}

// namedByInterface returns the charms of dirs (the tree's charms) that a subject line names
// by an interface only that charm declares ("add-user action fails when implicit is empty":
// of 5g-ims' six charms only hss declares add-user, review rev111), each with a note saying
// so ("hss charm, the only one declaring the action add-user"). Not by a name that holds a
// charm's name or its own word (kfp-api-grpc, oai-amf's smf: an endpoint toward that charm),
// nor by a relation whose interface another charm of the tree has an endpoint of (the
// relation is both sides' business), nor in a subject adding an interface ("Add logging
// relation to tensorboards-controller" adds it to a charm that has none yet). Nil when no
// subject names such an interface, or when the answer is every charm.
func (r *ranker) namedByInterface(dirs map[string][]string) map[string]string {
	owners := map[string]map[string]bool{} // kind and normalised name → the charms declaring it
	// a relation's interface → the charms with an endpoint of it: a relation between two
	// charms of the tree ("the kfp-api relation") names neither side
	sides := map[string]map[string]bool{}
	charmNames := map[string]bool{}
	for d, ns := range dirs {
		charmNames[normName(path.Base(d))] = true
		for _, n := range ns {
			charmNames[n] = true
		}
	}
	for k := range r.in.Charms {
		charmNames[normName(r.in.Charms[k].Name)] = true
	}
	for c := range maps.Clone(charmNames) { // and the words that set one apart (oai-smf's smf)
		for _, w := range strings.Split(c, "_") {
			if !genericCharmWords[w] {
				charmNames[w] = true
			}
		}
	}
	add := func(m map[string]map[string]bool, k, dir string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][dir] = true
	}
	for _, d := range r.decls {
		if d.lkind == "" {
			continue
		}
		if dir := charmDirOf(d.file, r.in.Charms); hasKey(dirs, dir) {
			add(owners, d.lkind+"\x00"+normName(d.sym.Name), dir)
			if d.lkind == linker.KindRelation && d.iface != nil && d.iface.Interface != "" {
				add(sides, d.iface.Interface, dir)
			}
		}
	}
	shared := func(kind, n string) bool { // a relation whose interface another charm has too
		for _, d := range r.decls {
			if d.lkind == kind && kind == linker.KindRelation && normName(d.sym.Name) == n && d.iface != nil && len(sides[d.iface.Interface]) > 1 {
				return true
			}
		}
		return false
	}
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(owners)) {
		kind, n, _ := strings.Cut(k, "\x00")
		namesCharm := slices.ContainsFunc(slices.Collect(maps.Keys(charmNames)), func(c string) bool {
			return c != "" && charmNames[c] && strings.Contains("_"+n+"_", "_"+c+"_") // kfp-api-grpc: an endpoint of kfp-api's
		})
		if len(owners[k]) != 1 || namesCharm || shared(kind, n) || !r.interfaceNamed(kind, n) ||
			!slices.ContainsFunc(r.subjects, func(s subject) bool { return s.m.grams[n] && !s.adds }) {
			continue
		}
		for dir := range owners[k] {
			name := path.Base(dir)
			for c := range r.in.Charms {
				if charmDir(&r.in.Charms[c]) == dir && r.in.Charms[c].Name != "" {
					name = r.in.Charms[c].Name
				}
			}
			out[dir] = name + " charm, the only one declaring the " + kind + " " + declaredAs(n, r.decls, kind)
		}
	}
	if len(out) == 0 || len(out) == len(dirs) {
		return nil
	}
	return out
}

// hasKey reports whether m has key k (a charm with no name of two words maps to nil).
func hasKey(m map[string][]string, k string) bool {
	_, ok := m[k]
	return ok
}

// declaredAs is the declared name of the interface of kind and normalised name n.
func declaredAs(n string, decls []decl, kind string) string {
	for _, d := range decls {
		if d.lkind == kind && normName(d.sym.Name) == n {
			return d.sym.Name
		}
	}
	return n
}

// substrateWords: a subject line that says which substrate's charm it changes ("Fixes the
// dashboard relation of the machine charm", "Added device code grant type to the VM charm",
// "Update k8s charm readme") names, in a repository of a machine charm and its Kubernetes twin
// (charms/jimm and charms/jimm-k8s), the charms that declare no container or those that do.
var substrateWords = regexp.MustCompile(`(?i)\b(machine|vm|k8s|kubernetes|sidecar)[- ]charms?\b`)

// namedBySubstrate returns the charms a subject names by their substrate (substrateWords):
// among dirs (the tree's charms), those without containers for "machine" or "VM", those
// with containers for "k8s", "kubernetes" or "sidecar"; nil when the subject names both
// substrates, or the answer is every charm or none.
func (r *ranker) namedBySubstrate(dirs map[string][]string) map[string]string {
	for _, s := range r.subjects {
		kinds := map[bool]bool{} // containers wanted
		for _, m := range substrateWords.FindAllStringSubmatch(s.text, -1) {
			w := strings.ToLower(m[1])
			kinds[w == "k8s" || w == "kubernetes" || w == "sidecar"] = true
		}
		if len(kinds) != 1 {
			continue
		}
		k8s := kinds[true]
		out := map[string]string{}
		for k := range r.in.Charms {
			c := &r.in.Charms[k]
			d := charmDir(c)
			if _, ok := dirs[d]; ok && (len(c.Containers) > 0) == k8s {
				out[d] = c.Name
			}
		}
		if len(out) > 0 && len(out) < len(dirs) {
			return out
		}
	}
	return nil
}

// everyCharm matches a subject that says the change is made to each charm of the repository
// ("Adds jwt expiry config option to both charms").
var everyCharm = regexp.MustCompile(`(?i)\b(both|all|every|each)\s+(?:the\s+|of\s+the\s+)?charms?\b`)

// everyCharmSaid reports a subject that says so (everyCharm): an addition spanning the
// charms then lifts each charm's YAML.
func (r *ranker) everyCharmSaid() bool {
	return slices.ContainsFunc(r.subjects, func(s subject) bool { return everyCharm.MatchString(s.text) })
}
