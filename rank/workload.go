package rank

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Workload upgrades. A subject line that moves the charm to a new release of its workload
// ("Upgrade MySQL to 8.0.37", "Update snap", "Bumps vault version to latest/stable release",
// "Update MySQL to v8.0.40") edits the one place the charm pins that release: a machine charm's
// snap revision (a module constant such as CHARMED_MYSQL_SNAP_REVISION = 103, or SNAP_PACKAGES
// = [(NAME, {"revision": …})]), a Kubernetes charm's image (an oci-image resource's
// upstream-source in metadata.yaml or charmcraft.yaml, or, in a charm without one, a config
// option whose default is the image). Such a task lifts those files above
// every other one (WorkloadPinLead), the way a dependency bump lifts the build recipe. The
// dependency, library and build intents take precedence: "Update dependency uv to v0.5.20"
// and "Update charm libs" name what they update.

var (
	// workloadVerbs say the release changes ("Updating spark image repo to GHCR").
	workloadVerbs = []string{"update", "updated", "updates", "updating", "upgrade", "upgraded", "upgrades", "upgrading",
		"bump", "bumps", "bumped", "bumping"}
	// integrateVerbs with imageWords say the charm runs another image ("chore: integrate mlmd
	// rock", "feat: integration of seldon core rock"); not said of tests ("integration tests for
	// the rock") nor of a version alone ("integrate with COS; demo version ...").
	integrateVerbs = []string{"integrate", "integrates", "integrated", "integrating", "integration"}
	imageWords     = []string{"rock", "rocks", "image", "images"}
	// workloadWords say what is pinned; a release number ("8.0.37", "v25.4.0") says it too.
	workloadWords = []string{"snap", "snaps", "revision", "revisions", "rev", "version", "versions",
		"image", "images", "rock", "rocks"}
	// bumpVerbs and bumpWords: the container or the workload, bumped or upgraded ("bump Parca
	// container to parca/main-…"); updated, they are usually configured ("Update conf only
	// when the container is connectable").
	bumpVerbs = []string{"upgrade", "upgraded", "upgrades", "bump", "bumps", "bumped"}
	bumpWords = []string{"container", "containers", "workload", "workloads"}
	// notWorkloadWords name what else has versions: the language, the framework, the tools.
	// (Not "deps": renovate scopes every bump "chore(deps)", the workload's image too.)
	notWorkloadWords = []string{"python", "py", "ops", "juju", "ubuntu", "pip", "poetry", "uv", "tox", "charmcraft",
		"dependency", "dependencies", "lib", "libs", "library", "libraries"}
	// codeInterfaceWords name the code's own interface to the workload, whose version a line
	// may update with no release of the workload ("fix: update endpoints to the new version",
	// notary's API client, review rev126; "update postgresql schema version"): not a workload
	// upgrade unless the line names a release number, the image, the container or the snap
	// too ("Bump the workload container to Kong 3.6.1 (new admin API)", review rev128).
	codeInterfaceWords = []string{"endpoint", "endpoints", "api", "apis", "client", "clients", "schema", "schemas"}
	// pinnedWords name what pins the workload's release (the image, the container, the snap).
	pinnedWords = slices.Concat(imageWords, bumpWords, []string{"snap", "snaps"})
)

// releaseNumber matches a release number: two or more dotted numbers, with an optional "v".
var releaseNumber = regexp.MustCompile(`(^|[^\w.])[vV]?\d+\.\d+`)

// releaseLine matches a subject that is a release and its number, and nothing about what is
// released ("Release v1.19.1 (#94)", "chore: release 1.17.9"): a charm released under its
// workload's number moves the workload to it.
var releaseLine = regexp.MustCompile(`^(?i)(?:\w+(?:\([^)]*\))?!?:\s*)?release[sd]?\s+v?\d+\.\d+(?:\.\d+)*(?:\s*\(#\d+\))?$`)

// workloadUpgrade reports a subject line about moving to a new release of the workload.
func workloadUpgrade(s subject) bool {
	if releaseLine.MatchString(s.text) {
		return true
	}
	if s.m.hasAny(notWorkloadWords) {
		return false
	}
	if s.m.hasAny(codeInterfaceWords) && !releaseNumber.MatchString(s.text) && !s.m.hasAny(pinnedWords) {
		return false
	}
	if s.m.hasAny(bumpVerbs) && s.m.hasAny(bumpWords) {
		return true
	}
	if s.m.hasAny(integrateVerbs) && s.m.hasAny(imageWords) && !s.m.hasAny(testWords) {
		return true
	}
	return s.m.hasAny(workloadVerbs) && (s.m.hasAny(workloadWords) || releaseNumber.MatchString(s.text))
}

// pinTargets are the files that pin the workload's release, when a subject line is about
// upgrading it: first-party Python files defining a module constant that holds a snap
// revision (pinConstant), and charm YAML files declaring an oci-image resource with an
// upstream-source. Never a test's or a vendored library's. Nil otherwise.
func (r *ranker) pinTargets() []int {
	if !slices.ContainsFunc(r.subjects, workloadUpgrade) {
		return nil
	}
	var out []int
	cw := r.charmNameWords()
	for i, n := range r.nodes {
		if n.py == nil || n.class == ClassTest || n.class == ClassLib {
			continue
		}
		if slices.ContainsFunc(n.py.Symbols, func(s pyextract.Symbol) bool { return pinConstant(s, cw) }) {
			out = append(out, i)
		}
	}
	add := func(file string) {
		if i, ok := r.byPath[cleanPath(file)]; ok && r.nodes[i].class != ClassTest && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for _, ch := range r.in.Charms {
		for _, res := range ch.Resources {
			if pinsImage(res) {
				add(res.Pos.File)
			}
		}
		for _, o := range configImages(ch) {
			add(o.Pos.File)
		}
		for _, o := range configVersions(ch) {
			add(o.Pos.File)
		}
		for _, p := range partDownloads(ch) {
			add(p.Pos.File)
		}
	}
	slices.Sort(out)
	return out
}

// partDownloads are the build parts of a charm that download a release of its workload's tool
// (istio's istioctl part, source .../download/1.29.0/istioctl-1.29.0-linux-amd64.tar.gz; loki's
// lokitool): an upgrade of the workload changes the release there too.
func partDownloads(ch charmyaml.Charm) []charmyaml.Part {
	names := charmWorkloadWords(ch)
	var out []charmyaml.Part
	for _, p := range ch.Parts {
		if downloadPin(p.Source, names) {
			out = append(out, p)
		}
	}
	return out
}

// charmNameWords are the words of the charms' names that name a workload: not the generic
// ones (genericCharmWords: k8s, operator).
func (r *ranker) charmNameWords() map[string]bool {
	out := map[string]bool{}
	for _, ch := range r.in.Charms {
		for _, w := range pyextract.SplitWords(ch.Name) {
			if !genericCharmWords[w] && len(w) > 1 {
				out[w] = true
			}
		}
	}
	return out
}

// charmWorkloadWords are the words of a charm's name that name its workload (not k8s,
// operator).
func charmWorkloadWords(ch charmyaml.Charm) []string {
	var names []string
	for _, w := range pyextract.SplitWords(ch.Name) {
		if !genericCharmWords[w] && len(w) > 2 {
			names = append(names, w)
		}
	}
	return names
}

// configVersions are the config options whose name says version and whose default is a
// release number: a machine charm installs that release of its workload (node-exporter's
// "version", default "1.2.0").
func configVersions(ch charmyaml.Charm) []charmyaml.ConfigOption {
	var out []charmyaml.ConfigOption
	names := charmWorkloadWords(ch)
	for _, o := range ch.Config {
		d := strings.Trim(strings.TrimSpace(o.Default), `"'`)
		if slices.Contains(pyextract.SplitWords(o.Name), "version") && releaseValue.MatchString(d) {
			out = append(out, o)
		} else if downloadPin(d, names) {
			out = append(out, o)
		}
	}
	return out
}

// releaseInURL matches a release number inside a download's URL or file name:
// ".../nextcloud-26.0.1.tar.bz2", ".../v1.2.3/app_linux_amd64.tar.gz".
var releaseInURL = regexp.MustCompile(`[-_/=v]\d+\.\d+(?:\.\d+)*[-_./]`)

// downloadPin reports a default that downloads a release of the charm's workload: a URL
// naming the workload (a word of the charm's name) and a release number (nextcloud's
// "nextcloud-tarfile", default "https://download.nextcloud.com/server/releases/nextcloud-26.0.1.tar.bz2").
func downloadPin(d string, names []string) bool {
	l := strings.ToLower(d)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || !releaseInURL.MatchString(l) {
		return false
	}
	return slices.ContainsFunc(names, func(w string) bool { return strings.Contains(l, w) })
}

// configImages are the config options of a charm with no oci-image resource whose defaults
// are image references: such a charm pins its workload's image there.
func configImages(ch charmyaml.Charm) []charmyaml.ConfigOption {
	if slices.ContainsFunc(ch.Resources, pinsImage) {
		return nil // the resources pin it; an image option is a sidecar's or a default's
	}
	var out []charmyaml.ConfigOption
	for _, o := range ch.Config {
		if imageDefault(o) {
			out = append(out, o)
		}
	}
	return out
}

// imageRef matches a container image reference with a tag, a digest or both, under a
// namespace (an official image's bare "nginx:1.25" is left out: "x:y" is too common a value):
// "charmedkubeflow/training-operator:1.8.0-a40b4cf", "ghcr.io/org/app@sha256:…",
// "ghcr.io/org/app:1.0@sha256:…".
var imageRef = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(?::\d+)?(?:/[a-z0-9][a-z0-9._-]*)+(?::[\w][\w.-]*|@sha256:[0-9a-f]+|:[\w][\w.-]*@sha256:[0-9a-f]+)$`)

// imageDefault reports a config option whose default is an image reference: kubeflow's
// charms pin their workload's image there ("training-operator-image", default
// "charmedkubeflow/training-operator:1.8.0-a40b4cf"), not in an oci-image resource.
func imageDefault(o charmyaml.ConfigOption) bool {
	return imageRef.MatchString(strings.Trim(strings.TrimSpace(o.Default), `"'`))
}

// releaseValue matches a value that is a release number: "1.4.0", "v2.8", "3.27.3-rc.1".
var releaseValue = regexp.MustCompile(`^[vV]?\d+\.\d+(?:\.\d+)*(?:[-+][\w.-]+)?$`)

// pinConstant reports a module constant that pins the workload's release: a snap revision (its
// name says revision, CHARMED_MYSQL_SNAP_REVISION, REVISIONS, or its value has a "revision"
// key), or the version of the workload a charm is named after: a name saying version and a
// word of the charm's name (charmWords: AIRBYTE_VERSION in airbyte-k8s), a release number for
// value (= "1.4.0"). Not any version: PYTHON_VERSION, MIN_JUJU_VERSION, a Nova API's, a
// script's VERSION.
func pinConstant(s pyextract.Symbol, charmWords map[string]bool) bool {
	if s.Kind != pyextract.KindConstant || s.Qualifier != "" {
		return false
	}
	words := pyextract.SplitWords(s.Name)
	if slices.ContainsFunc(words, func(w string) bool { return w == "revision" || w == "revisions" }) {
		return true
	}
	if slices.Contains(words, "version") && slices.ContainsFunc(words, func(w string) bool { return charmWords[w] }) &&
		s.Value != nil && s.Value.Kind == pyextract.ValStr && releaseValue.MatchString(s.Value.Str) {
		return true
	}
	sig := strings.ToLower(s.Signature)
	return strings.Contains(sig, `"revision"`) || strings.Contains(sig, `'revision'`)
}

// pinsImage reports an oci-image resource with the image it pins.
func pinsImage(res charmyaml.Resource) bool {
	return res.Type == "oci-image" && res.UpstreamSource != ""
}

// markPins makes the pinning symbols lead the files pinTargets lifted: the revision constant,
// the image resource.
func (r *ranker) markPins(pins []int) {
	cw := r.charmNameWords()
	for _, i := range pins {
		if py := r.nodes[i].py; py != nil {
			for _, s := range py.Symbols {
				if pinConstant(s, cw) {
					r.hotSym[r.nodes[i].path+"\x00"+s.Name] = true
				}
			}
		}
	}
	for _, ch := range r.in.Charms {
		for _, res := range ch.Resources {
			if pinsImage(res) {
				r.hotSym[cleanPath(res.Pos.File)+"\x00"+SymResource+" "+res.Name] = true
			}
		}
		for _, o := range append(configImages(ch), configVersions(ch)...) {
			r.hotSym[cleanPath(o.Pos.File)+"\x00"+SymConfig+" "+o.Name] = true
		}
		for _, p := range partDownloads(ch) {
			r.hotSym[cleanPath(p.Pos.File)+"\x00"+SymPart+" "+p.Name] = true
		}
	}
}
