package rank

// Tasks about the vendored libraries (lib/charms/...). A library is edited upstream and
// refreshed here with `charmcraft fetch-lib`, so most tasks leave libraries alone and they
// carry LibPenalty; a task's subject line can say otherwise:
//   - "chore: update charm libraries" (libUpdate): a refresh, which edits nothing but
//     libraries; every vendored library goes above the code, those the charm imports first,
//     each group the largest first;
//   - "Update COS agent lib", "update prometheus_scrape" (libNamedUpdate): the named library
//     is lifted the same way;
//     "fix: typo in config server interface library" does it for the charm's own library
//     (under lib/charms/, or in src/ with its LIBAPI and LIBPATCH: declaresLibrary);
//   - "feat: add library description for listing" (libOwn): about "the library" without
//     saying which; the charm's own library loses its penalty;
//   - libraries named anywhere else (libAbout): they rise (LibIntentFactor), the code leads.

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// liftLibraries puts libs (every vendored library in a libUpdate task, the named ones in
// libNamedUpdate) above every other file: first those the charm's own code imports, then
// those only other libraries import, each group the largest first. Any of them may have
// changed upstream; a large library changes more often than a small one (more code, more
// patches), and one the charm calls itself is one its authors keep current, while a library
// that came along as another's dependency is often a superseded major version nobody patches
// any more.
func (r *ranker) liftLibraries(libs []int, score []float64, mul func(int, string, float64)) {
	if len(libs) == 0 {
		return
	}
	top, biggest := 0.0, 0
	for i := range score {
		if r.nodes[i].class != ClassLib || r.extra[i].waive {
			top = max(top, score[i])
		}
	}
	for _, i := range libs {
		biggest = max(biggest, r.nodes[i].py.Lines)
	}
	direct := r.importedByCharmCode()
	for _, i := range libs {
		lead := LibUpdateLead
		if direct[i] {
			lead += LibUpdateDirectLead
		}
		target := top * (lead + float64(r.nodes[i].py.Lines)/float64(max(biggest, 1)))
		if score[i] > 0 && target > 0 {
			mul(i, SigLibUpdate, target/score[i])
		}
	}
}

// importedByCharmCode reports the files a first-party source file imports.
func (r *ranker) importedByCharmCode() map[int]bool {
	out := map[int]bool{}
	for i, n := range r.nodes {
		if n.class != ClassSource {
			continue
		}
		for _, j := range r.modEdges[i] {
			out[j] = true
		}
	}
	return out
}

// Library intents of the task text.
const (
	libNone   = iota
	libAbout  // the task names libraries: they may change with the charm
	libUpdate // "chore: update charm libraries": the vendored libraries are what changes
	libOwn    // "feat: add library description": libAbout, and the charm's own library may be it
	// libNamedUpdate: "Update COS agent lib": libAbout, and the named vendored libraries
	// (ranker.namedUpdate) are lifted as in libUpdate
	libNamedUpdate
)

// libIntent reports how the task is about libraries. Only a subject line (a commit's or PR's
// title; the body of a squashed PR lists every chore) sets a lift:
//   - libNamedUpdate when it names the charm's own library (namedOwnLibraries), or names
//     libraries, an update verb and a vendored library by file (namedLibraryUpdate), or an
//     update verb and a vendored library's module or package as an identifier
//     (identNamedUpdate, with or without a word for libraries);
//   - libUpdate when it names libraries and an update verb (not about documentation: docWords),
//     and the text names no library file;
//   - libOwn when it names a library's LIBPATCH or LIBAPI (libVersionWords, or libFieldWords
//     beside a word for libraries: "add missing lib fields, update patch version"; with or without
//     "library": "Fix LIBPATCH for mongodb_tls.py" names its file and is libNamedUpdate), or
//     names libraries without an update verb (about "the library" without saying which: the
//     one the charm publishes is edited here, vendored ones upstream);
//   - libAbout otherwise, when the text names libraries anywhere.
func (r *ranker) libIntent() int {
	if r.syncsCharmHelpers() {
		return libUpdate
	}
	if !namesLibraries(r.ment) && !r.ment.hasAny(libVersionWords) {
		if r.identNamedUpdate() {
			return libNamedUpdate
		}
		return libNone
	}
	var named []int // vendored libraries the text names by file
	for i, n := range r.nodes {
		if n.class == ClassLib && (r.extra[i].personal[SigMentionFile] > 0 || namesLibraryTail(r.ment, n.path)) {
			named = append(named, i)
		}
	}
	own := r.namedOwnLibraries() // fills namedUpdate, as namedLibraryUpdate does
	if len(named) > 0 {
		return r.namedLibraryUpdate(named)
	}
	if len(own) > 0 || r.identNamedUpdate() {
		return libNamedUpdate
	}
	intent := libAbout
	for _, s := range r.subjects {
		if s.m.hasAny(libVersionWords) || namesLibraries(s.m) && s.m.hasAny(libFieldWords) {
			return libOwn // "fix: bump charm library LIBPATCH": only the charm's own library is edited here
		}
	}
	for _, s := range r.subjects {
		if namesLibraries(s.m) {
			if s.m.hasAny(libUpdateVerbs) && !s.m.hasAny(docWords) {
				return libUpdate
			}
			intent = libOwn
		}
	}
	return intent
}

// syncsCharmHelpers reports a subject line that syncs charm-helpers ("Sync charm-helpers to
// enable Ubuntu Disco", "Resync helpers to pickup liberty version detection", "Pre-release
// charmhelper sync") in a tree that vendors it (charmhelpers/ files, ClassLib): a classic
// charm's library refresh, which edits the copied package and nothing else (libUpdate). The
// word "helpers" alone names charm-helpers only beside a sync verb and only in such a tree.
func (r *ranker) syncsCharmHelpers() bool {
	for _, s := range r.subjects {
		if s.m.hasAny(syncVerbs) && s.m.hasAny(charmHelpersWords) {
			return slices.ContainsFunc(r.nodes, func(n node) bool {
				return n.class == ClassLib && slices.Contains(strings.Split(n.path, "/"), "charmhelpers")
			})
		}
	}
	return false
}

// syncVerbs and charmHelpersWords: see syncsCharmHelpers.
var (
	syncVerbs         = []string{"sync", "syncs", "synced", "syncing", "resync", "resynced"}
	charmHelpersWords = []string{"helpers", "charmhelpers", "charmhelper", "charm-helpers"}
)

// namedLibraryUpdate is libIntent for a text naming vendored libraries by file: libNamedUpdate
// when a subject line names libraries, an update verb and one of them ("Update COS agent lib",
// "update prometheus_scrape lib"): the named library is what such a commit edits. A subject
// naming a major version the tree does not hold ("upgrade grafana_source library to v1"
// beside lib/.../v0/grafana_source.py) fetches a new file and adapts the charm to it; that
// library stays as in libAbout.
func (r *ranker) namedLibraryUpdate(named []int) int {
	for _, s := range r.subjects {
		if !namesLibraries(s.m) || !s.m.hasAny(libUpdateVerbs) {
			continue
		}
		versions := majorVersions(s.text)
		for _, i := range named {
			p := r.nodes[i].path
			if (r.mentionsFileIn(s.m, p) != 0 || namesLibraryTail(s.m, p)) && (len(versions) == 0 || slices.ContainsFunc(versions, func(v string) bool {
				return strings.Contains(p, "/"+v+"/")
			})) {
				r.namedUpdate[i] = true
			}
		}
	}
	if len(r.namedUpdate) > 0 || r.identNamedUpdate() {
		return libNamedUpdate
	}
	return libAbout
}

// identNamedUpdate marks (in namedUpdate) the vendored libraries a subject line with an update
// verb names by their module name, or their package's (lib/charms/<package>/), written as an
// identifier, with or without a word for libraries: "Update prometheus_scrape and
// kubernetes_service_patch", "chore: bump cephfs_interfaces", "update operator_libs_linux",
// or with hyphens, as its project writes it ("Bumps lte-core-interface version").
// Only a name with an underscore counts (a library called ingress.py is also a word), only
// one no first-party file shares, and only in the major version the subject names, if any.
func (r *ranker) identNamedUpdate() bool {
	own := map[string]bool{}
	for _, n := range r.nodes {
		if n.class != ClassLib {
			own[stemOf(n.path)] = true
		}
	}
	for _, s := range r.subjects {
		if !s.m.hasAny(libUpdateVerbs) {
			continue
		}
		versions := majorVersions(s.text)
		// in lower case ("Kubernetes_service_patch: bump"), not only as self.x
		// (self.data_interfaces is the charm's attribute)
		idents := writtenNames(s.m, []string{s.text}, r.fileNames())
		// "Bumps lte-core-interface version": the library's name as its project writes it,
		// right after the verb (or in a list there: "bump cos-agent, tls-certificates"); a
		// declared relation's name (or interface) so written only when nothing but a version
		// or a word for libraries follows ("Bump matrix-auth (#32)", not "update
		// grafana-dashboard json"); a name elsewhere, never ("update integration tests to use
		// the new kubeflow-dashboard interface")
		for _, list := range hyphenList.FindAllStringSubmatch(s.text, -1) {
			for _, h := range hyphenName.FindAllString(list[1], -1) {
				if name := underscored(h); !r.declaredRelationName(name) {
					idents[name] = true
				}
			}
		}
		for _, m := range hyphenUpdate.FindAllStringSubmatch(s.text, -1) {
			if m[2] == "" {
				idents[underscored(m[1])] = true
			}
		}
		for i, n := range r.nodes {
			if n.class != ClassLib {
				continue
			}
			names := func(st string) bool { return strings.Contains(st, "_") && idents[st] && !own[st] }
			if (names(stemOf(n.path)) || names(strings.ToLower(charmyaml.LibraryOf(n.path)))) && (len(versions) == 0 ||
				slices.ContainsFunc(versions, func(v string) bool { return strings.Contains(n.path, "/"+v+"/") })) {
				r.namedUpdate[i] = true
			}
		}
	}
	return len(r.namedUpdate) > 0
}

// hyphenName matches a name of words joined by hyphens (lte-core-interface), the way a
// library's project or interface is written in prose; identNamedUpdate reads it as the
// underscored module name.
var hyphenName = regexp.MustCompile(`(?i)` + hyphenPattern)

// hyphenList matches an update verb followed by one or more such names ("bump cos-agent,
// kubernetes-service-patch and loki-push-api"): group 1 the list.
var hyphenList = regexp.MustCompile(`(?i)` + updateVerbPattern +
	`(` + hyphenPattern + `(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)` + hyphenPattern + `)*)`)

// hyphenUpdate matches an update verb followed by such a name: group 1 the name, group 2
// what follows it when that is neither the end of the line, a pull request's number, a
// version ("to v0.3", "from 1.2 to 1.3", "0.3") nor a word for libraries ("" then).
var hyphenUpdate = regexp.MustCompile(`(?im)` + updateVerbPattern + `(` + hyphenPattern + `)` +
	`(?:\s*[.;]?\s*$|\s*\(#\d+\)|\s+(?:charm\s+)?(?:lib|libs|library|libraries|version)\b|` +
	`\s+(?:to|from)\s+(?:v?\d|latest\b)|\s+v?\d[\w.]*\s*(?:$|\(#)|\s*(\S+))`)

// updateVerbPattern is an update verb (libUpdateVerbs) and an optional "the" before its
// object; hyphenPattern a name of words joined by hyphens, in lower case (the regular
// expressions using them ignore case).
const (
	updateVerbPattern = `\b(?:update[sd]?|upgraded?|bump(?:s|ed)?|refresh|sync|fetch)\s+(?:the\s+)?`
	hyphenPattern     = `[a-z][a-z0-9]*(?:-[a-z0-9]+)+`
)

// underscored is a hyphenated name as a module writes it (lte-core-interface:
// lte_core_interface).
func underscored(name string) string { return strings.ReplaceAll(strings.ToLower(name), "-", "_") }

// declaredRelationName reports whether name (underscored) is a declared relation's name or
// interface, written with '_' for '-'.
func (r *ranker) declaredRelationName(name string) bool {
	for k := range r.in.Charms {
		for _, rel := range r.in.Charms[k].Relations {
			if strings.ReplaceAll(rel.Name, "-", "_") == name || strings.ReplaceAll(rel.Interface, "-", "_") == name {
				return true
			}
		}
	}
	return false
}

// onlySelfAttribute reports whether every occurrence of id in text is written as an
// attribute of self ("self.data_interfaces"): the charm's own attribute, not a library's name.
// A module path ("charms.observability_libs") is no attribute of self.
func onlySelfAttribute(text, id string) bool {
	found := false
	for rest := text; ; {
		i := strings.Index(rest, id)
		if i < 0 {
			return found
		}
		if !strings.HasSuffix(rest[:i], "self.") {
			return false
		}
		found, rest = true, rest[i+len(id):]
	}
}

// stemOf is a file's name without its folder and extension, in lower case.
func stemOf(p string) string {
	b := path.Base(strings.ToLower(p))
	return strings.TrimSuffix(b, path.Ext(b))
}

// namesLibraryTail reports whether m names the library file p by the last two words of its
// name (of three or more) followed by "lib" or "library": "bump dashboard links lib" names
// kubeflow_dashboard_links.py, the words a task keeps of a long library name.
func namesLibraryTail(m mentions, p string) bool {
	words := strings.Split(strings.TrimSuffix(path.Base(p), ".py"), "_")
	if len(words) < 3 {
		return false
	}
	tail := strings.Join(words[len(words)-2:], "_")
	return m.grams[tail+"_lib"] || m.grams[tail+"_library"]
}

// namedOwnLibraries marks (in namedUpdate) the files of the charm's own library that a subject
// line naming libraries names by file ("fix: typo in config server interface library",
// "Update lib/charms/loki_k8s/v0/log_proxy.py"): the library a charm publishes is edited here,
// so naming it makes it the subject, with or without an update verb. It must be named as a
// file (path or file name) or as a library ("config server interface library"): its stem
// inside an identifier ("GrafanaMetadataAppData" for grafana_metadata.py) is the charm's use
// of it.
func (r *ranker) namedOwnLibraries() map[int]bool {
	own := map[int]bool{}
	for _, s := range r.subjects {
		if !namesLibraries(s.m) && !slices.ContainsFunc(s.m.paths, isLibPath) && !s.m.hasAny(libVersionWords) {
			continue
		}
		for i, n := range r.nodes {
			if n.class == ClassSource && (isLibPath(n.path) || declaresLibrary(n)) && (r.mentionsFileIn(s.m, n.path) == byPath ||
				slices.Contains(s.m.paths, path.Base(strings.ToLower(n.path))) || namesLibraryFile(s.text, n.path)) {
				r.namedUpdate[i], own[i] = true, true
			}
		}
	}
	return own
}

// declaresLibrary reports a Python file that sets a charm library's LIBAPI and LIBPATCH: the
// charm's own library kept outside lib/charms/ until it is published (karapace's
// src/relations/karapace.py, copied into its test charm).
func declaresLibrary(n node) bool {
	if n.py == nil {
		return false
	}
	found := 0
	for _, s := range n.py.Symbols {
		if s.Kind == pyextract.KindConstant && s.Qualifier == "" && (s.Name == "LIBAPI" || s.Name == "LIBPATCH") {
			found++
		}
	}
	return found == 2
}

// namesLibraryFile reports whether text names the library file p as "<its stem's words> lib"
// or "… library" (any case and separators: "config-server-interface library"), with up to
// libNameGap words between ("the ldap juju interface library" for ldap.py).
func namesLibraryFile(text, p string) bool {
	fields := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
		})
	}
	st := strings.TrimSuffix(path.Base(p), path.Ext(p))
	t := fields(text)
	for _, name := range [][]string{fields(st), {strings.ReplaceAll(strings.ToLower(st), "_", "")}} {
		for k := 0; k+len(name) <= len(t); k++ {
			if !slices.Equal(t[k:k+len(name)], name) {
				continue
			}
			for gap := 0; gap <= libNameGap && k+len(name)+gap < len(t); gap++ {
				if slices.Contains(libraryWords, t[k+len(name)+gap]) {
					return true
				}
			}
		}
	}
	return false
}

// libNameGap is how many words may stand between a library's name and the word "library"
// ("ldap juju interface library").
const libNameGap = 2

// docWords say a task is about the words of the code, not its behaviour: "Update lib
// documentation" is written here, in the charm's own library, not fetched.
var docWords = []string{"doc", "docs", "documentation", "docstring", "docstrings", "comment", "comments", "typo", "typos", "wording"}

// libVersionWords are the version fields of a library file: a task naming them bumps the
// charm's own library (a vendored one is versioned upstream).
var libVersionWords = []string{"libpatch", "libapi"}

// libFieldWords say the same in words, beside a word for libraries ("add missing lib fields,
// update patch version"): alone they could be any version's.
var libFieldWords = []string{"patch_version", "api_version", "fields"}

// majorVersions are the library API versions a text names: "v1", "v0" (not "v1.2.3").
func majorVersions(text string) []string {
	var out []string
	for _, tok := range strings.FieldsFunc(strings.ToLower(text), func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.')
	}) {
		if isVersionWord(tok) {
			out = append(out, tok)
		}
	}
	return out
}

// libraryWords say "library".
var libraryWords = []string{"lib", "libs", "library", "libraries", "charmlib", "charmlibs"}

func namesLibraries(m mentions) bool {
	return slices.ContainsFunc(libraryWords, func(w string) bool { return m.words[stem(w)] })
}

// libUpdateVerbs are the words of a library refresh ("chore: update charm libraries",
// "bump libs", "charmcraft fetch-lib").
var libUpdateVerbs = []string{"update", "updated", "updates", "upgrade", "upgraded", "bump", "bumped", "bumps", "refresh", "sync", "fetch"}
