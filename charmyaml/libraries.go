package charmyaml

import (
	"path"
	"strings"
)

// LibraryOf is <lib> of the first lib/charms/<lib>/ folder that the file p (root-relative,
// '/'-separated, clean) lies in, at any depth (a charm's lib/charms/<lib>/, or a monorepo's
// shared libs/external/lib/charms/<lib>/), or of a charms/<lib>/v<N>/ folder outside lib/
// (a monorepo's shared package vendoring the libraries its charms import:
// common/common/_charm_libs/charms/data_platform_libs/v0/); "" when it lies in none.
func LibraryOf(p string) string {
	lib, _ := LibraryPath(p)
	return lib
}

// LibraryPath is LibraryOf(p) and the path of p inside that library's folder ("gcp.py" for
// lib/charms/layer/gcp.py, "v0/ingress.py" for lib/charms/traefik_k8s/v0/ingress.py).
func LibraryPath(p string) (lib, inside string) {
	segs := strings.Split(p, "/")
	for i := 0; i+3 < len(segs); i++ {
		if segs[i] == "lib" && segs[i+1] == "charms" {
			return segs[i+2], strings.Join(segs[i+3:], "/")
		}
	}
	// charms/<lib>/v<N>/<module>.py anywhere: charmcraft's layout of a library, versioned,
	// which no charm's own code has (a monorepo's charms/<charm>/ holds src/, not v1/)
	for i := 0; i+3 < len(segs); i++ {
		if segs[i] == "charms" && apiFolder(segs[i+2]) && i+3 == len(segs)-1 && strings.HasSuffix(segs[i+3], ".py") {
			return segs[i+1], strings.Join(segs[i+2:], "/")
		}
	}
	return "", ""
}

// apiFolder reports a library's API folder name: "v" and a number ("v0", "v12").
func apiFolder(s string) bool {
	return len(s) > 1 && s[0] == 'v' && strings.Trim(s[1:], "0123456789") == ""
}

// ActionScriptName reports a path that may be an action's own executable: a file with no
// extension right in an actions/ folder (actions/add-user). Whether it is Python is up to
// its first line (repomap.PythonScript).
func ActionScriptName(rel string) bool {
	dir, name := path.Split(rel)
	return !strings.Contains(name, ".") && path.Base(dir) == "actions"
}

// ScriptName reports a path that may be one of a charm's own executables written without an
// extension: an action's (ActionScriptName), or a hook's (hooks/config-changed: old charms
// keep one script per hook). Whether it is Python is up to its first line
// (repomap.PythonScript).
func ScriptName(rel string) bool {
	return ActionScriptName(rel) || HookScriptName(rel)
}

// HookScriptName reports a path that may be a hook's own executable: a file with no
// extension right in a hooks/ folder (hooks/config-changed, hooks/install).
func HookScriptName(rel string) bool {
	dir, name := path.Split(rel)
	return !strings.Contains(name, ".") && path.Base(dir) == "hooks"
}

// OwnLibrary reports whether lib (as in lib/charms/<lib>/) is the library one of charms
// publishes: its name, '-' written '_'.
func OwnLibrary(lib string, charms []Charm) bool {
	for _, c := range charms {
		if c.Name != "" && strings.ReplaceAll(c.Name, "-", "_") == lib {
			return true
		}
	}
	return false
}

// VendoredPackage reports whether rel, a path relative to a charm's folder ('/'-separated,
// clean), lies in a package of another project that early charms copied into their lib/
// folder, which the charm's hooks put on sys.path: lib/ops/ (the operator framework, often a
// link into a git submodule), lib/yaml/ (PyYAML), lib/charms_ceph/. Other packages there may
// be the charm's own code (lib/storage_connector/, a reactive charm's lib/charm/openstack/).
func VendoredPackage(rel string) bool {
	parts := strings.SplitN(rel, "/", 3)
	return len(parts) == 3 && parts[0] == "lib" && (parts[1] == "ops" || parts[1] == "yaml" || parts[1] == "charms_ceph")
}

// baseLayers are the reactive layers charms build on whose code `charm build` copies into
// lib/charms/layer/ (layer:basic's basic.py, layer:status, layer:options ...): in a built
// charm they are vendored. Any other module there is the charm's own layer code
// (lib/charms/layer/gcp.py of the gcp-integrator, which its handlers call as layer.gcp.*;
// jenkins' lib/charms/layer/jenkins/).
var baseLayers = map[string]bool{"basic": true, "options": true, "status": true, "execd": true, "apt": true,
	"snap": true, "nagios": true, "leadership": true, "tls_client": true, "hacluster": true, "vault_kv": true,
	"debug": true, "docker": true, "nginx": true, "coordinator": true, "kubernetes_common": true, "__init__": true}

// VendoredLayerModule reports a module or package under the lib/charms/layer/ of charm c (nil
// for none) that `charm build` copied in from a base layer (baseLayers; module: its name
// without ".py"), unless c is that layer's own tree: a layer's folder (c.Layer: layer-vault-kv's
// lib/charms/layer/vault_kv.py; a layer's source vendors nothing) or a charm named like the
// module (layer-docker's metadata names it "docker"). The linker and the ranker both ask it.
func VendoredLayerModule(module string, c *Charm) bool {
	return baseLayers[module] && (c == nil || !c.Layer && strings.ReplaceAll(c.Name, "-", "_") != module)
}
