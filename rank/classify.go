package rank

import (
	"path"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
)

// otherDirs are folders of a charm directory that hold helper code rather than the charm
// (documentation builders, dev scripts). Files there are ClassOther unless charm code imports
// them; so are files in hidden folders (.github, .sphinx, .vscode: tooling).
var otherDirs = map[string]bool{
	"docs": true, "doc": true, "documentation": true, "scripts": true, "script": true, "tools": true,
	"examples": true, "hack": true, "ci": true, "terraform": true, "spread": true,
}

// topOtherDirs are helper folders only at a charm's top level: Charmed Kubernetes' charms
// keep the scripts that fetch their workload's manifests and versions in upstream/ (13 of the
// 500 trees fetched for measuring; none imported): autoscaler's upstream/version.py ranked
// above its metadata.yaml (rev96). Under src/ such a name is a package of the charm's.
var topOtherDirs = map[string]bool{"upstream": true}

// charmYAMLNames are the files a charm declares itself in.
var charmYAMLNames = map[string]bool{
	"metadata.yaml": true, "config.yaml": true, "actions.yaml": true, "charmcraft.yaml": true,
}

// charmAt is the charm whose folder holds p (charmDirOf), nil for none.
func charmAt(p string, charms []charmyaml.Charm) *charmyaml.Charm {
	dir := charmDirOf(p, charms)
	for k := range charms {
		if path.Clean(charms[k].Dir) == dir {
			return &charms[k]
		}
	}
	return nil
}

// Classify returns the class (a Class constant) of a root-relative, '/'-separated path:
//   - ClassTest: under a tests/, test/ or unit_tests/ (OpenStack's) folder at any depth,
//     test_*.py, *_test.py, conftest.py
//     (checked first: a test charm's YAML and libraries are test material);
//   - ClassYAML: a charm's YAML file (of the files without .py, which are otherwise ClassOther
//     except for an extension-less file in an actions/ or hooks/ folder: a mapped one is a
//     Python action or hook script, repomap.PythonScript, and classed as code below);
//   - ClassLib: under lib/charms/<name>/ unless <name> is a charm's name with '-' → '_' (its
//     own library, which is ClassSource) or is "layer" (a reactive charm's own layer code,
//     ClassSource, but for charmyaml.VendoredLayerModule), or under a charmhelpers/ folder (the charm-helpers
//     package classic charms vendor: hooks/charmhelpers/core/hookenv.py), or in a charm's
//     lib/ops/, lib/yaml/ or lib/charms_ceph/ (charmyaml.VendoredPackage);
//   - ClassSource: under a src/ folder (not in a helper folder right under it: src/hack/,
//     src/scripts/), or anywhere in a charm directory except its top level
//     and helper folders (docs/, scripts/, tools/, hidden ones ...); with no charms at all,
//     all other code;
//   - ClassOther: everything else. Rank promotes ClassOther files that charm code imports
//     (a monorepo's shared common/ package) to ClassSource; Classify cannot see imports.
func Classify(p string, charms []charmyaml.Charm) string {
	p = cleanPath(p)
	segs := strings.Split(p, "/")
	base := segs[len(segs)-1]
	for _, s := range segs[:len(segs)-1] {
		if testdirs.Is(s) {
			return ClassTest
		}
	}
	if base == "conftest.py" || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") ||
		strings.HasSuffix(base, "_test.py") {
		return ClassTest
	}
	if !strings.HasSuffix(base, ".py") && !charmyaml.ScriptName(p) {
		// (an extension-less file in actions/ or hooks/ that is mapped is a Python script:
		// repomap.PythonScript)
		for _, c := range charms {
			for _, f := range c.Files {
				if cleanPath(f) == p {
					return ClassYAML
				}
			}
		}
		if charmYAMLNames[base] && charmDirOf(p, charms) == path.Dir(p) {
			return ClassYAML
		}
		return ClassOther
	}
	if slices.Contains(segs[:len(segs)-1], "charmhelpers") {
		return ClassLib // charm-helpers, which classic charms vendor (charm_helpers_sync.py)
	}
	for i, s := range segs[:len(segs)-1] {
		// lib/ops/framework.py: the operator framework copied into an early charm, at its
		// charm's lib/ (the charm's folder looked up only for a path that may need it)
		if s == "lib" && charmyaml.VendoredPackage(strings.Join(segs[i:], "/")) {
			if dir := charmDirOf(p, charms); strings.Join(segs[:i], "/") == dir || i == 0 && dir == "." {
				return ClassLib
			}
			break
		}
	}
	if lib, inside := charmyaml.LibraryPath(p); lib != "" {
		module, _, _ := strings.Cut(inside, "/") // the module or package right under the library's folder
		if charmyaml.OwnLibrary(lib, charms) || lib == "layer" && !charmyaml.VendoredLayerModule(strings.TrimSuffix(module, ".py"), charmAt(p, charms)) {
			return ClassSource
		}
		return ClassLib
	}
	for i, s := range segs[:len(segs)-1] {
		if s == "src" {
			if i+2 < len(segs) && otherDirs[segs[i+1]] {
				return ClassOther // src/hack/update_dashboards.py: a dev script beside the charm's code
			}
			return ClassSource
		}
	}
	if len(charms) == 0 {
		return ClassSource
	}
	dir := charmDirOf(p, charms)
	if dir == "" {
		return ClassOther
	}
	rel := strings.TrimPrefix(p, dir+"/")
	if dir == "." {
		rel = p
	}
	first, _, nested := strings.Cut(rel, "/")
	if !nested || otherDirs[first] || topOtherDirs[first] || strings.HasPrefix(first, ".") {
		return ClassOther
	}
	return ClassSource
}

// CharmDirOf is charmDirOf, for the commands: the charm a path belongs to.
func CharmDirOf(p string, charms []charmyaml.Charm) string { return charmDirOf(p, charms) }

// charmDirOf returns the deepest charm directory holding p ("." for a root charm), or "",
// or the directory of the charm whose YAML p is when it lies outside it (a project's build
// file, charmcraft.yaml above src/, is src's).
func charmDirOf(p string, charms []charmyaml.Charm) string {
	best := ""
	for i := range charms {
		c := &charms[i]
		d := c.Dir
		if d == "" || d == "." {
			d = "."
		} else if d[0] == '.' || d[len(d)-1] == '/' || strings.Contains(d, "//") || strings.Contains(d, "/.") {
			d = cleanPath(d) // (the fast path above: a plain folder path, as charmyaml gives it)
			if d == "" {
				d = "."
			}
		}
		if !strings.HasSuffix(p, ".py") && slices.Contains(c.Files, p) {
			return d
		}
		if d == "." {
			if best == "" {
				best = "."
			}
			continue
		}
		if len(p) > len(d) && p[len(d)] == '/' && strings.HasPrefix(p, d) && (best == "" || best == "." || len(d) > len(best)) {
			best = d
		}
	}
	return best
}

// cleanPath normalises a root-relative path, which the stages before give '/'-separated: no
// "./" prefix, no empty or dot segments. A backslash is part of a file name on the systems
// the tool runs on (src/back\slash.py), not a separator.
func cleanPath(p string) string {
	return strings.TrimPrefix(path.Clean(p), "./")
}
