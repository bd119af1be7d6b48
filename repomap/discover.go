package repomap

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

// IgnoreFile is the root-level file (gitignore syntax) listing paths to leave out of the map.
const IgnoreFile = ".charmcraft-map-ignore"

// CharmYAMLNames are the file names a charm declares its interfaces in.
var CharmYAMLNames = []string{"metadata.yaml", "config.yaml", "actions.yaml", "charmcraft.yaml"}

// skipDirs are directory names never descended into: VCS data, virtual environments, caches;
// project templates (projectTemplate) are skipped too. Virtual environments with other
// names are recognised by their pyvenv.cfg.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true,
	"venv": true, ".venv": true, "virtualenv": true, ".virtualenv": true,
	"__pycache__": true, ".tox": true, ".nox": true, ".mypy_cache": true, ".pytest_cache": true,
	".ruff_cache": true, ".hypothesis": true, ".cache": true, "node_modules": true,
	".eggs": true, "site-packages": true, ".idea": true, ".vscode": true,
}

// buildDirs are build output (charmcraft's parts, stage and prime; Python's build and dist)
// where a build leaves them: at the root, or beside a project file (projectFiles). Elsewhere
// a folder of that name is code (a src/build/ package) and is mapped.
var buildDirs = map[string]bool{"build": true, "dist": true, "parts": true, "stage": true, "prime": true}

// projectFiles mark a folder a build runs in.
var projectFiles = []string{"charmcraft.yaml", "metadata.yaml", "pyproject.toml", "setup.py", "snapcraft.yaml", "tox.ini"}

// buildOutput reports whether the folder p (rel from the root) named name is build output.
func buildOutput(p, rel, name string) bool {
	if !buildDirs[name] {
		return false
	}
	if path.Dir(rel) == "." {
		return true
	}
	parent := filepath.Dir(p)
	return slices.ContainsFunc(projectFiles, func(f string) bool {
		_, err := os.Lstat(filepath.Join(parent, f))
		return err == nil
	})
}

// maxSourceBytes bounds the ignore files read (.charmcraft-map-ignore, .gitignore,
// info/exclude): a larger one is not applied (with a warning for one under the root). Python
// files are bounded by pyextract.MaxFileSize, charm YAML by charmyaml's own limit.
const maxSourceBytes = 4 << 20

// Discovered is the result of walking a tree.
type Discovered struct {
	// Python are the root-relative, '/'-separated paths of the Python files to map, sorted.
	Python []string
	// CharmDirs are directories (root-relative, "." for the root) holding a charm YAML file, sorted.
	CharmDirs []string
	// YAML are the charm YAML files found (root-relative), sorted.
	YAML []string
	// SkippedYAML are the charm YAML files the walk leaves out (root-relative, sorted): those
	// an ignore file names, links out of the root (with a warning, here, once), and links
	// down into a subfolder's charm YAML found in its own place (YAMLLinks). The charm's YAML
	// is read without them. It also holds the files of actions/ folders an ignore file names:
	// no action's script is taken from them.
	SkippedYAML []string
	// YAMLLinks are the charm YAML files of SkippedYAML that link down into a subfolder's
	// charm YAML found in its own place: link → target, root-relative. The link's folder is a
	// project whose charm is the target's (the bootstack layout's metadata.yaml ->
	// src/metadata.yaml).
	YAMLLinks map[string]string
	// Warnings are one-line notes about skipped paths.
	Warnings []string
	// UnreadDirs are the folders (root-relative) the walk could not read, in walk order: code
	// there is lost.
	UnreadDirs []string
	// Templates are the files under a folder named templates, or with a Jinja extension
	// anywhere (templates.IsTemplate), in scope, sorted: the option names they use are read (templates.Scan) for the linker.
	Templates []string
	// PyLinks are the files of Python that are symbolic links, under another name, to a file
	// of Python (mappedLinks): link → target.
	PyLinks map[string]string
	// SameLinks are the files of Python that are symbolic links, under the same name, to a
	// mapped file of Python in another folder (an OpenStack charm's actions/ceilometer_hooks.py
	// -> ../hooks/ceilometer_hooks.py, for its action scripts to import): link → target. Both
	// are mapped (each folder's code imports its own), and are one module.
	SameLinks map[string]string
	// HookLinks are a charm's hook scripts that are symbolic links to a mapped file of Python
	// under another name (charm-helpers' layout: hooks/install, hooks/db-relation-changed
	// -> hooks.py): link → target. Juju runs the target for each such hook. Not in Python:
	// the link itself is no module.
	HookLinks map[string]string
	// HookRuns are, for a charm's hooks that are shell scripts (or symbolic links to one), the
	// scripts under hooks/ each runs: hooks/<hook> → their names, sorted. Charm-helpers'
	// OpenStack charms install packages in hooks/install before `exec ./hooks/install.real`,
	// and link their storage hooks to storage.bootstrap, which waits for the workload before
	// `./hooks/storage.real`; the Python registered under that name (@hooks.hook('storage.real'))
	// is the hook's code. Read from the scripts' text (wrapperRuns).
	HookRuns map[string][]string
	// ShellCode are the charms' code files that are not Python, sorted: hooks/<hook> scripts
	// in another language (or links to such a script) and a reactive layer's bash handlers
	// (reactive/*.sh). The linker reads none of them, so check says that a charm whose only
	// code they are was not checked.
	ShellCode []string
	// Rocks are the folders, other than charms', that hold a rockcraft.yaml, sorted: a rock's
	// project (the workload's image, a sample workload beside the charm: temporal-worker's
	// resource_sample_py/), whose Python is the workload's, not the charm's (rank Input.Rocks).
	Rocks []string
}

// Discover walks root and returns what to map. It honours .gitignore files as git does: those
// in the tree and, when root is a folder of a repository, those of the folders above it and
// the repository's info/exclude (findRepo); a file git tracks is never ignored (charms that
// keep the Python template's "lib/" line commit their lib/charms/ anyway; the tracked files
// are read from the git index, only when a pattern matches; see loadTracked). It honours the
// root's .charmcraft-map-ignore
// always, never descends into skipDirs or virtual environments, and never follows a symbolic
// link: a linked file is taken only when its target resolves inside root (a Python file
// linked under another name to one mapped under its own is listed in PyLinks), and linked
// directories are not entered. scopes (root-relative folders) limit the Python
// files; the charm YAML kept is that of the charms the scopes lie in or hold (see
// scopedCharmDirs), so scoped code still links to its charm and no other charm's YAML takes
// the budget.
func Discover(root string, scopes []string) (Discovered, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return Discovered{}, err
	}
	w := &walk{realRoot: realRoot, scopes: scopes, charmDirs: map[string]bool{}, charmRoots: map[string]bool{},
		yamlLinks: map[string]string{}, hookLinks: map[string]string{}, hookFiles: map[string]bool{},
		shellHandlers: []string{}, pyLinks: map[string]string{}, rocks: map[string]bool{}}
	w.ig = newIgnorer(root, realRoot, w.warn)
	// walk the resolved root: a root that is itself a symbolic link (a linked checkout, macOS's
	// /tmp) would be visited as the link alone
	if err := filepath.WalkDir(realRoot, w.visit); err != nil {
		return w.d, err
	}
	w.finish()
	return w.d, nil
}

// walk is one Discover's state: what it found so far, and what it keeps aside for finish.
type walk struct {
	d          Discovered
	realRoot   string
	scopes     []string
	ig         *ignorer
	charmDirs  map[string]bool   // folders holding charm YAML
	charmRoots map[string]bool   // folders holding metadata.yaml or charmcraft.yaml: charms
	yamlLinks  map[string]string // charm YAML that is a symbolic link: its target's path
	hookLinks  map[string]string // hooks/<hook> links: their targets' paths (HookLinks)
	hookFiles  map[string]bool   // hooks/<hook> files that are not Python (HookRuns)
	// reactive/*.sh files (ShellCode, with hookFiles and links to shell)
	shellHandlers []string
	pyLinks       map[string]string // Python files that are symbolic links: their targets' paths
	rocks         map[string]bool   // folders holding a rockcraft.yaml (Rocks)
	// linkedDirs are the folders, outside the scopes, that a symbolic link inside one leads
	// to (kafka's k8s/src/single_kernel_kafka -> ../../common/single_kernel_kafka); outside
	// holds the Python files and templates outside the scopes, among which finish keeps
	// those under linkedDirs: code the scoped charm runs
	linkedDirs []string
	outside    []string
}

func (w *walk) warn(s string) { w.d.Warnings = append(w.d.Warnings, s) }

// visit is the WalkDir function: it skips what is not to be mapped and keeps the rest.
func (w *walk) visit(p string, e fs.DirEntry, err error) error {
	rel, rerr := filepath.Rel(w.realRoot, p)
	if rerr != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	if err != nil {
		if rel == "." {
			return err
		}
		w.warn(fmt.Sprintf("%s: skipped: %v", rel, unwrapPathErr(err)))
		if e != nil && e.IsDir() {
			w.d.UnreadDirs = append(w.d.UnreadDirs, rel)
			return fs.SkipDir
		}
		return nil
	}
	w.ig.leave(rel)
	parts := splitRel(rel)
	if e.IsDir() {
		if rel != "." && (skippedDir(p, rel, e.Name()) || w.ig.ignored(parts, rel, true)) {
			return fs.SkipDir
		}
		w.ig.enter(p, rel, parts)
		return nil
	}
	w.file(p, rel, parts, e)
	return nil
}

// skippedDir reports a folder never walked: VCS data, caches, build output, virtual
// environments, project templates.
func skippedDir(p, rel, name string) bool {
	return skipDirs[name] || buildOutput(p, rel, name) || strings.HasSuffix(name, ".egg-info") || isVenv(p) || projectTemplate(name)
}

// file keeps a file the map or the linker reads: Python (with or without .py), charm YAML,
// templates, action scripts, and a charm's hook scripts and bash handlers.
func (w *walk) file(p, rel string, parts []string, e fs.DirEntry) {
	name := e.Name()
	if name == "rockcraft.yaml" && utf8.ValidString(rel) {
		w.rocks[path.Dir(rel)] = true
	}
	isPy := strings.HasSuffix(name, ".py") || e.Type().IsRegular() && PythonScript(rel, func() []byte { return head(p) })
	isYAML := isCharmYAML(name)
	// (a file named like charm YAML too, which IsTemplate takes only under a templates
	// folder: irc-bridge's templates/config.yaml, the workload's configuration; it may still
	// be read as YAML)
	isTemplate := !isPy && templates.IsTemplate(rel)
	// an actions/<name> file may be an action's script, which the charm loader shows as
	// the action's code unless an ignore file names it
	inActions := len(parts) >= 2 && parts[len(parts)-2] == "actions"
	// a hooks/<hook> link may lead to the script Juju runs for the hook (HookLinks)
	hookLink := !isPy && e.Type()&fs.ModeSymlink != 0 && charmyaml.HookScriptName(rel)
	// a hooks/<hook> script of no Python may run one that is (HookRuns)
	hookFile := !isPy && e.Type().IsRegular() && charmyaml.HookScriptName(rel)
	// a reactive layer's handlers in bash (ShellCode)
	shellHandler := !isPy && e.Type().IsRegular() && len(parts) >= 2 && parts[len(parts)-2] == "reactive" && strings.HasSuffix(name, ".sh")
	if e.Type()&fs.ModeSymlink != 0 && len(w.scopes) > 0 && inScope(rel, w.scopes) && !w.ig.ignored(parts, rel, true) {
		if target, ok := dirInside(w.realRoot, p); ok && !inScope(target, w.scopes) {
			w.linkedDirs = append(w.linkedDirs, target)
		}
	}
	if !isPy && !isYAML && !isTemplate && !inActions && !hookLink && !hookFile && !shellHandler {
		return
	}
	if w.ig.ignored(parts, rel, false) {
		if isYAML || inActions {
			w.d.SkippedYAML = append(w.d.SkippedYAML, rel)
		}
		return
	}
	if utf8.ValidString(rel) {
		if hookLink {
			if target, ok := linkInside(w.realRoot, p); ok {
				w.hookLinks[rel] = target
			}
		}
		if hookFile {
			w.hookFiles[rel] = true
		}
		if shellHandler {
			w.shellHandlers = append(w.shellHandlers, rel)
		}
	}
	if !isPy && !isYAML && !isTemplate {
		return
	}
	if !utf8.ValidString(rel) {
		// no code imports it by that name, and JSON (every document, the cache) would spell
		// it, and another such name, with U+FFFD: two files under one path
		w.warn(fmt.Sprintf("%s: skipped: the path is not UTF-8", rel))
		if isYAML {
			w.d.SkippedYAML = append(w.d.SkippedYAML, rel)
		}
		return
	}
	if e.Type()&fs.ModeSymlink != 0 {
		target, ok := linkInside(w.realRoot, p)
		if !ok {
			w.warn(fmt.Sprintf("%s: skipped: symbolic link leads outside the root or nowhere", rel))
			if isYAML {
				w.d.SkippedYAML = append(w.d.SkippedYAML, rel)
			}
			return
		}
		if isYAML {
			w.yamlLinks[rel] = target
		}
		if isPy {
			w.pyLinks[rel] = target
		}
	} else if !e.Type().IsRegular() {
		return
	}
	if isYAML {
		w.charmDirs[path.Dir(rel)] = true
		if name == "metadata.yaml" || name == "charmcraft.yaml" {
			w.charmRoots[path.Dir(rel)] = true // a charm; config.yaml alone may be a template
		}
		w.d.YAML = append(w.d.YAML, rel)
	}
	if isPy && inScope(rel, w.scopes) {
		w.d.Python = append(w.d.Python, rel)
	}
	if isTemplate && inScope(rel, w.scopes) {
		w.d.Templates = append(w.d.Templates, rel)
	}
	if (isPy || isTemplate) && !inScope(rel, w.scopes) {
		w.outside = append(w.outside, rel)
	}
}

// finish resolves what the walk kept aside (links, hook scripts, scopes) into Discovered, and
// sorts its lists.
func (w *walk) finish() {
	d := &w.d
	// the code a scope's linked folders lead to is the scoped charm's (a --scope k8s of kafka
	// keeps common/single_kernel_kafka, where its handlers are: review rev120)
	// (not a folder holding the scope, nor one in another charm's folder: that charm's code
	// comes without its YAML; review rev125)
	w.linkedDirs = slices.DeleteFunc(w.linkedDirs, func(target string) bool {
		if slices.ContainsFunc(w.scopes, func(sc string) bool { return inScope(sc, []string{target}) }) {
			return true
		}
		for dir := range w.charmRoots {
			if dir != "." && inScope(target, []string{dir}) && !slices.ContainsFunc(w.scopes, func(sc string) bool { return inScope(sc, []string{dir}) }) {
				return true
			}
		}
		return false
	})
	for _, rel := range w.outside {
		if len(w.linkedDirs) > 0 && inScope(rel, w.linkedDirs) {
			if templates.IsTemplate(rel) && !strings.HasSuffix(rel, ".py") {
				d.Templates = append(d.Templates, rel)
			} else {
				d.Python = append(d.Python, rel)
			}
		}
	}
	dropLinkedYAML(d, w.yamlLinks, w.charmDirs, w.charmRoots)
	// a hook script is one of a charm's hooks/ folder; another hooks/ (a repository's git
	// hooks, .githooks aside) holds no charm's
	d.Python = slices.DeleteFunc(d.Python, func(rel string) bool {
		return charmyaml.HookScriptName(rel) && !w.charmRoots[path.Dir(path.Dir(rel))]
	})
	d.PyLinks, d.SameLinks = mappedLinks(d.Python, w.pyLinks)
	d.HookLinks = hookScriptLinks(w.hookLinks, d.Python, w.pyLinks, w.charmRoots)
	charmDirs := w.charmDirs
	if kept := scopedCharmDirs(charmDirs, w.charmRoots, w.scopes); kept != nil {
		charmDirs = kept
		d.YAML = slices.DeleteFunc(d.YAML, func(f string) bool { return !kept[path.Dir(f)] })
	}
	d.HookRuns = hookRuns(w.realRoot, w.hookLinks, w.hookFiles, d.HookLinks, func(hook string) bool {
		dir := path.Dir(path.Dir(hook))
		return w.charmRoots[dir] && charmDirs[dir]
	})
	for dir := range charmDirs {
		d.CharmDirs = append(d.CharmDirs, dir)
	}
	// the hooks of no Python, those linked to a script that is not Python (hooks/install ->
	// ../scripts/install.sh), and the bash handlers
	shellCode := append(slices.Collect(maps.Keys(w.hookFiles)), w.shellHandlers...)
	for hook, target := range w.hookLinks {
		if d.HookLinks[hook] == "" && !strings.HasSuffix(target, ".py") {
			shellCode = append(shellCode, hook)
		}
	}
	for _, f := range shellCode {
		if charmDirs[path.Dir(path.Dir(f))] {
			d.ShellCode = append(d.ShellCode, f)
		}
	}
	sort.Strings(d.ShellCode)
	for dir := range w.rocks {
		if !w.charmRoots[dir] {
			d.Rocks = append(d.Rocks, dir)
		}
	}
	sort.Strings(d.Rocks)
	w.warnEmptyScopes()
	sort.Strings(d.CharmDirs)
	sort.Strings(d.Python)
	sort.Strings(d.YAML)
	sort.Strings(d.SkippedYAML)
}

// PythonScript reports an action or hook script written in Python without the .py extension
// (actions/add-user starting "#!/usr/local/sbin/charm-env python3", hooks/config-changed
// starting "#!/usr/bin/python"): a file with no extension in an actions/ or hooks/ folder
// whose first line is a shebang naming python. Charm-helpers, reactive and older charms run
// such scripts for their actions and hooks, and that is the code to edit. first gives the
// file's first bytes, read only for a name that may be one.
func PythonScript(rel string, first func() []byte) bool {
	if !charmyaml.ScriptName(rel) {
		return false
	}
	head := first()
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) || !bytes.Contains(line, []byte("python")) {
		return false
	}
	// a built reactive charm's hooks are one bootstrap each (charms.layer.basic, then
	// charms.reactive's main()): the same few lines under every hook's name, no code of its own
	return !charmyaml.HookScriptName(rel) || !bytes.Contains(head, []byte("charms.reactive")) && !bytes.Contains(head, []byte("charms.layer"))
}

// head is the first bytes of the file at p (at most 1 KiB: a shebang, and the imports of a
// reactive hook's bootstrap); nil when it cannot be read.
func head(p string) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, 1024)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}

// projectTemplate reports a folder named with an unrendered template placeholder
// ({{cookiecutter.service_name}}, a project generator's charm skeleton): its files are Jinja,
// not the code and YAML of a charm.
func projectTemplate(name string) bool {
	return strings.Contains(name, "{{") && strings.Contains(name, "}}")
}

func isCharmYAML(name string) bool {
	for _, n := range CharmYAMLNames {
		if name == n {
			return true
		}
	}
	return false
}

func splitRel(rel string) []string {
	if rel == "." {
		return nil
	}
	return strings.Split(rel, "/")
}

// within reports whether rel is dir or lies under it.
func within(rel, dir string) bool {
	return dir == "." || rel == dir || strings.HasPrefix(rel, dir+"/")
}

// scopedCharmDirs keeps, of the folders holding charm YAML (dirs), the charms (roots: a
// metadata.yaml or charmcraft.yaml) a scope lies in (--scope charms/a/src: charms/a; the
// innermost, when charms nest) or holds
// (--scope charms: every charm under it), and any other such folder inside a scope. nil when
// there are no scopes or none touches a charm (--scope common, shared code only, even with a
// config.yaml template in it): then every charm's YAML is kept, since any may import it.
func scopedCharmDirs(dirs, roots map[string]bool, scopes []string) map[string]bool {
	if len(scopes) == 0 {
		return nil
	}
	kept := map[string]bool{}
	for _, s := range scopes {
		deepest := "" // of the charms the scope lies in, the innermost: a connector charm nested
		// in a platform charm's folder is not the platform (review rev120: opencti)
		for dir := range roots {
			if within(dir, s) {
				kept[dir] = true
			}
			if within(s, dir) && (deepest == "" || deepest == "." || len(dir) > len(deepest)) {
				deepest = dir
			}
		}
		if deepest != "" {
			kept[deepest] = true
		}
	}
	if len(kept) == 0 {
		return nil
	}
	for dir := range dirs {
		if inScope(dir, scopes) {
			kept[dir] = true
		}
	}
	return kept
}

// warnEmptyScopes warns of each scope under which nothing is mapped (all of it ignored, or
// no Python, template or charm YAML there): the run maps nothing the scope asked for, and
// shows the charms' YAML only, which would otherwise pass without a word (rev94).
func (w *walk) warnEmptyScopes() {
	d := &w.d
	warned := map[string]bool{}
	for _, s := range w.scopes {
		if warned[s] { // --scope x --scope ./x
			continue
		}
		warned[s] = true
		under := func(f string) bool { return within(f, s) }
		if slices.ContainsFunc(d.Python, under) || slices.ContainsFunc(d.Templates, under) ||
			slices.ContainsFunc(d.YAML, under) || slices.ContainsFunc(d.ShellCode, under) {
			continue
		}
		w.warn(fmt.Sprintf("--scope %s: no file under it is mapped (no Python or charm YAML there, or an ignore file hides it)", s))
	}
}

func inScope(rel string, scopes []string) bool {
	if len(scopes) == 0 {
		return true
	}
	for _, s := range scopes {
		if within(rel, s) {
			return true
		}
	}
	return false
}

// isVenv reports whether dir is a Python virtual environment.
func isVenv(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}

// dirInside reports whether the symbolic link p resolves to a folder inside realRoot (not
// realRoot itself), and that folder's slash path from realRoot.
func dirInside(realRoot, p string) (string, bool) {
	rel, fi, ok := resolveInside(realRoot, p)
	if !ok || !fi.IsDir() || rel == "." {
		return "", false
	}
	return rel, true
}

// linkInside reports whether the symbolic link p resolves to a regular file inside realRoot,
// and that file's slash path from realRoot.
func linkInside(realRoot, p string) (string, bool) {
	rel, fi, ok := resolveInside(realRoot, p)
	if !ok || !fi.Mode().IsRegular() {
		return "", false
	}
	return rel, true
}

// resolveInside resolves the symbolic link p to what it leads to inside realRoot: its slash
// path from realRoot and its file info; false when it leads nowhere or outside.
func resolveInside(realRoot, p string) (string, os.FileInfo, bool) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", nil, false
	}
	fi, err := os.Stat(target)
	if err != nil {
		return "", nil, false
	}
	rel, err := filepath.Rel(realRoot, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", nil, false
	}
	return filepath.ToSlash(rel), fi, true
}

// mappedLinks splits the Python files of python that are symbolic links to a file python
// holds under its own path (not a link): link → target. renamed are those under another name
// (src/charm_link.py -> charm.py): read twice, the module would be a second one, every
// handler, read and finding listed twice; Load keeps one of the two (dropLinkedModules).
// same are those under their target's name in another folder (actions/hooks.py ->
// ../hooks/hooks.py, which each folder's code imports as its own): both are mapped, the map
// lists the link as a copy ("also under"), and Tree.Link reports once what both hold
// (Discovered.SameLinks).
func mappedLinks(python []string, links map[string]string) (renamed, same map[string]string) {
	if len(links) == 0 {
		return nil, nil
	}
	mapped := unlinked(python, links)
	renamed, same = map[string]string{}, map[string]string{}
	for _, p := range python {
		if t := links[p]; t != "" && mapped[t] {
			if path.Base(t) == path.Base(p) {
				same[p] = t
			} else {
				renamed[p] = t
			}
		}
	}
	return renamed, same
}

// hookScriptLinks keeps the hook links (hooks/<hook> → target, both root-relative) that lie
// in a charm's hooks/ folder and lead to a file of python that is no link itself.
func hookScriptLinks(links map[string]string, python []string, pyLinks map[string]string, charmRoots map[string]bool) map[string]string {
	if len(links) == 0 {
		return nil
	}
	mapped := unlinked(python, pyLinks)
	var out map[string]string
	for link, target := range links {
		if !mapped[target] || !charmRoots[path.Dir(path.Dir(link))] {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[link] = target
	}
	return out
}

// hookRuns is Discovered.HookRuns: the scripts run by each hook of a charm (ours reports it)
// that is a script of no Python (files) or a link to one (links, but those HookLinks lists,
// which lead to Python).
func hookRuns(realRoot string, links map[string]string, files map[string]bool, toPython map[string]string, ours func(string) bool) map[string][]string {
	var out map[string][]string
	add := func(hook, script string) {
		if !ours(hook) {
			return
		}
		if runs := wrapperRuns(filepath.Join(realRoot, filepath.FromSlash(script))); len(runs) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[hook] = runs
		}
	}
	for hook := range files {
		add(hook, hook)
	}
	for hook, target := range links {
		if toPython[hook] == "" && !strings.HasSuffix(target, ".py") {
			add(hook, target)
		}
	}
	return out
}

// wrapperMax bounds how much of a hook's shell script is read: the wrappers are a few lines.
const wrapperMax = 16 << 10

// runRE finds a script of the hooks folder that a shell script runs: ./hooks/storage.real,
// exec "$CHARM_DIR/hooks/install.real", python3 hooks/hooks.py.
var runRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])hooks/([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_])`)

// wrapperRuns lists, sorted and once each, the names of the hooks folder's scripts that the
// shell script at p names outside its comments, in its first wrapperMax bytes (whole lines);
// nil for a file of Python (a shebang naming python), one with NUL bytes, or one that cannot
// be read.
func wrapperRuns(p string) []string {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, wrapperMax+1))
	if len(text) > wrapperMax {
		// cut short: its last line is a part of one (which may end inside a character)
		text = text[:bytes.LastIndexByte(text[:wrapperMax], '\n')+1]
	}
	// (any text: a comment in Latin-1 is no reason to ignore the script, and the names read
	// are ASCII)
	if err != nil || bytes.IndexByte(text, 0) >= 0 {
		return nil
	}
	first, _, _ := bytes.Cut(text, []byte("\n"))
	if bytes.HasPrefix(first, []byte("#!")) && bytes.Contains(first, []byte("python")) {
		return nil
	}
	var out []string
	for line := range strings.Lines(string(text)) {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range runRE.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// unlinked is the set of the files of python that are no symbolic link (links: link → target).
func unlinked(python []string, links map[string]string) map[string]bool {
	out := make(map[string]bool, len(python))
	for _, p := range python {
		if links[p] == "" {
			out[p] = true
		}
	}
	return out
}

// dropLinkedYAML drops the charm YAML files that are symbolic links down into a subfolder's
// charm YAML found in its own place, with the folders left with none: the bootstack layout
// links the root's metadata.yaml to src/metadata.yaml (the charm, built with
// source-subdir: src), and read twice it would be a second charm in ".", every interface
// unlinked, its declarations shown twice in the map. A link across or up (two charms sharing
// common/config.yaml, a test charm's metadata.yaml linking to the charm's) is the linking
// charm's own YAML, and stays.
func dropLinkedYAML(d *Discovered, links map[string]string, charmDirs, charmRoots map[string]bool) {
	if len(links) == 0 {
		return
	}
	found := map[string]bool{}
	for _, f := range d.YAML {
		if _, linked := links[f]; !linked {
			found[f] = true
		}
	}
	d.YAML = slices.DeleteFunc(d.YAML, func(f string) bool {
		t, linked := links[f]
		if dir := path.Dir(f); linked && found[t] && path.Dir(t) != dir && within(t, dir) {
			d.SkippedYAML = append(d.SkippedYAML, f)
			if d.YAMLLinks == nil {
				d.YAMLLinks = map[string]string{}
			}
			d.YAMLLinks[f] = t
			return true
		}
		return false
	})
	left := map[string]bool{}
	for _, f := range d.YAML {
		left[path.Dir(f)] = true
		if n := path.Base(f); n == "metadata.yaml" || n == "charmcraft.yaml" {
			left[path.Dir(f)+"/"] = true // still a charm root
		}
	}
	for dir := range charmDirs {
		if !left[dir] {
			delete(charmDirs, dir)
		}
		if !left[dir+"/"] {
			delete(charmRoots, dir)
		}
	}
}

// unwrapPathErr is a path error's cause alone: the warnings name the path themselves.
func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
