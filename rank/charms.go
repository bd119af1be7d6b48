package rank

import (
	"path"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
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
// lines are read first (a body lists the other charms a pull request touched on the way);
// the whole text only when they name none.
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
	pick := func(m mentions) map[string]string {
		named := map[string]string{} // dir → the name the task uses
		for d, ns := range names {
			for _, n := range ns {
				if m.grams[n] && !m.inner[n] && !r.relationWritten(m, n) {
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
		if len(out) == 0 || len(out) == len(names) {
			return nil
		}
		return out
	}
	for _, s := range r.subjects {
		if out := pick(s.m); len(out) > 0 {
			return out
		}
	}
	return pick(r.ment)
}

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
