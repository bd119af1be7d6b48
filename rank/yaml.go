package rank

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// decl is one declared charm interface, placed on the YAML file that declares it.
type decl struct {
	sym   Symbol            // Name, Kind, Signature, Line; Links filled from the linker
	file  string            // the declaring YAML file
	lkind string            // the linker kind (relation, config, action, ...)
	iface *linker.Interface // the linker's view of it, nil when the linker has none
	doc   string            // the description's first line (config options and actions)
}

// YAML symbol kinds (rank.Symbol.Kind for YAML files).
const (
	SymRelation  = "relation"
	SymConfig    = "config-option"
	SymAction    = "action"
	SymContainer = "container"
	SymStorage   = "storage"
	SymResource  = "resource"
	SymPart      = "part"  // a charmcraft.yaml build part: not an interface, no linker kind
	SymBase      = "base"  // a system charmcraft.yaml builds the charm for: not an interface either
	SymLayer     = "layer" // a layer or interface layer a reactive charm's layer.yaml includes
	// SymCharm names the charm on its metadata file when that file declares nothing else (a
	// new charm's skeleton), so that the file is still listed.
	SymCharm = "charm"
)

// charmClasses are the names of the tree's charm classes (isCharmClass).
func charmClasses(files []pyextract.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, s := range f.Symbols {
			if s.Kind == pyextract.KindClass && isCharmClass(s) {
				out[s.Name] = true
			}
		}
	}
	return out
}

// sharedClasses are, per charm directory (charmDirOf), the class names that more than one of
// that charm's own source files (not libraries, not tests) defines at module level: a
// handler of such a class is written with its module's stem
// ("ssh_debug.Observer._on_ssh_debug_relation_joined"), since "Observer._on_..." alone does
// not say which of a charm's per-module Observer classes it is. (Two charms of a monorepo
// that each define an Operator share nothing: each YAML block names its own charm's.)
func sharedClasses(files []pyextract.File, charms []charmyaml.Charm) map[string]bool {
	where := map[string]string{} // charm dir + "\x00" + class name → defining file
	out := map[string]bool{}
	for _, f := range files {
		p := cleanPath(f.Path)
		if Classify(p, charms) != ClassSource || isLibPath(p) {
			continue
		}
		dir := charmDirOf(p, charms)
		for _, s := range f.Symbols {
			if s.Kind != pyextract.KindClass || s.Qualifier != "" {
				continue
			}
			key := dir + "\x00" + s.Name
			if w, ok := where[key]; ok && w != p {
				out[key] = true
			}
			where[key] = p
		}
	}
	return out
}

// qualified is a handler symbol as a YAML line links it: "Class.method", or with the
// defining file's module stem first when another source file of its charm (dir) defines a
// class of that name (sharedClasses).
func qualified(dir, file, sym string, shared map[string]bool) string {
	cls, _, ok := strings.Cut(sym, ".")
	if !ok || !shared[dir+"\x00"+cls] {
		return sym
	}
	file = cleanPath(file)
	stem := strings.TrimSuffix(path.Base(file), ".py")
	if stem == "__init__" { // a package's class: the package's name
		stem = path.Base(path.Dir(file))
	}
	return stem + "." + sym
}

// declarations lists every declared interface of the charms with its one-line signature and
// its links (handler symbols, first-party code first; for config options without handlers,
// the reading symbols; charmCls, the charm classes, whose __init__ binds every library
// object and so says nothing about one; shared, the class names sharedClasses qualifies).
func declarations(charms []charmyaml.Charm, links linker.Result, charmCls, shared map[string]bool) []decl {
	var out []decl
	for ci := range charms {
		c := &charms[ci]
		li := linksOf(c, links)
		add := func(kind, lkind, name string, pos charmyaml.Pos, sig, doc string) {
			d := decl{sym: Symbol{Name: name, Kind: kind, Signature: sig, Line: pos.Line},
				file: cleanPath(pos.File), lkind: lkind, doc: doc}
			if d.file == "." || pos.File == "" {
				d.file = defaultYAML(c)
			}
			if li != nil {
				for k := range li.Interfaces {
					if it := &li.Interfaces[k]; it.Kind == lkind && it.Name == name {
						d.iface = it
						break
					}
				}
			}
			if d.iface != nil {
				// the charm's own handlers lead, then its own library's (the plumbing that
				// re-emits a relation's events as the library's, which the charm's handlers
				// observe), then vendored libraries', then the catch-alls of loops over every
				// relation (linker Handler.Loose and CatchAll), which handle this one among all
				// others, and readers in code that never runs (linker Site.Dead)
				var first, ownLib, loose, vendored []string
				seen := map[string]bool{}
				link := func(file, sym string, isLoose bool) {
					if sym == "" {
						return
					}
					sym = qualified(charmDirOf(cleanPath(file), charms), file, sym, shared)
					if seen[sym] {
						return
					}
					seen[sym] = true
					switch c := Classify(file, charms); {
					case isLoose:
						loose = append(loose, sym)
					case c == ClassLib || c == ClassTest:
						vendored = append(vendored, sym)
					case isLibPath(cleanPath(file)):
						ownLib = append(ownLib, sym)
					default:
						first = append(first, sym)
					}
				}
				for _, h := range d.iface.Handlers {
					if !h.Loose && !h.CatchAll {
						link(h.File, h.Symbol, false)
					}
				}
				for _, h := range d.iface.Handlers {
					link(h.File, h.Symbol, true)
				}
				// an option has no handler, and a relation handed to an object of a package
				// outside the tree (loki's Coordinator) or a container or storage no handler
				// watches shows none: where they are read, bound, looked up or reached by
				// their mount path is where they take effect. When only libraries handle it
				// (a library object's own plumbing), the charm's code that binds or looks it
				// up is what the charm does with it, and leads; not the charm class's __init__,
				// where every library object is built, which says nothing.
				switch lkind {
				case linker.KindConfig, linker.KindRelation, linker.KindStorage, linker.KindContainer:
					own := func(file string) bool { return Classify(file, charms) == ClassSource && !isLibPath(cleanPath(file)) }
					// (a hook script, hooks/db-relation-changed or a link to hooks.py, is what Juju
					// runs, whole: the code in it that uses the relation says more)
					ownHandlers := slices.ContainsFunc(d.iface.Handlers, func(h linker.Handler) bool { return own(h.File) && h.Via != linker.ViaHookScript })
					for _, r := range d.iface.Reads {
						if r.Via == linker.ViaDelegate || r.Via == linker.ViaPackage || r.Via == linker.ViaBase { // a guess, not a reader
							continue
						}
						cls, fn, _ := strings.Cut(r.Symbol, ".")
						if len(seen) == 0 || !ownHandlers && own(r.File) && !(fn == "__init__" && charmCls[cls]) {
							// (code that never runs, last: kube-state-metrics' uncalled
							// monitoring_address led metrics-endpoint's line, review rev111)
							link(r.File, r.Symbol, r.Dead || r.CatchAll)
						}
					}
				}
				if lkind == linker.KindConfig && len(seen) == 0 {
					// read only by templates (gnocchi's s3-bucket-prefix in gnocchi.conf):
					// they are where it takes effect, not nowhere (review rev115)
					for _, r := range d.iface.Reads {
						if r.Via == linker.ViaTemplate && r.Symbol == "" && !slices.Contains(first, r.File) {
							first = append(first, r.File)
						}
					}
				}
				if lkind == linker.KindAction && len(seen) == 0 && d.iface.Script != "" {
					// run by its own executable (actions/add-key, a shell script; a Python one
					// without .py is mapped, repomap.PythonScript): the script is what handles it
					first = append(first, d.iface.Script)
				}
				d.sym.Links = slices.Concat(first, ownLib, vendored, loose)
			}
			if d.file != "" {
				out = append(out, d)
			}
		}
		for _, r := range c.Relations {
			add(SymRelation, linker.KindRelation, r.Name, r.Pos, relationSig(r), "")
		}
		for _, o := range c.Config {
			add(SymConfig, linker.KindConfig, o.Name, o.Pos, configSig(o), o.Description)
		}
		for _, a := range c.Actions {
			add(SymAction, linker.KindAction, a.Name, a.Pos, actionSig(a), a.Description)
		}
		for _, k := range c.Containers {
			add(SymContainer, linker.KindContainer, k.Name, k.Pos, containerSig(k), "")
		}
		for _, s := range c.Storage {
			add(SymStorage, linker.KindStorage, s.Name, s.Pos, storageSig(s), "")
		}
		for _, r := range c.Resources {
			add(SymResource, linker.KindResource, r.Name, r.Pos, resourceSig(r), "")
		}
		for _, b := range c.Bases {
			add(SymBase, "", b.Name, b.Pos, baseSig(b), "")
		}
		for _, p := range c.Parts {
			add(SymPart, "", p.Name, p.Pos, partSig(p), "")
		}
		for _, l := range c.Layers {
			add(SymLayer, "", l.Name, l.Pos, "[layer] "+l.Name, "")
		}
	}
	return out
}

// linksOf finds the linker's record of a charm (by folder, then by name).
func linksOf(c *charmyaml.Charm, links linker.Result) *linker.CharmLinks {
	for i := range links.Charms {
		if cleanPath(links.Charms[i].Dir) == cleanPath(c.Dir) && links.Charms[i].Name == c.Name {
			return &links.Charms[i]
		}
	}
	for i := range links.Charms {
		if links.Charms[i].Name == c.Name {
			return &links.Charms[i]
		}
	}
	return nil
}

// defaultYAML is where an interface without a position is listed: the charm's charmcraft.yaml
// or metadata.yaml, else its first file.
func defaultYAML(c *charmyaml.Charm) string {
	if f := charmFileNamed(c, "charmcraft.yaml", "metadata.yaml"); f != "" {
		return f
	}
	if len(c.Files) > 0 {
		return cleanPath(c.Files[0])
	}
	return ""
}

// charmFileNamed is the charm's first YAML file with the first of names that it has, or "".
func charmFileNamed(c *charmyaml.Charm, names ...string) string {
	for _, want := range names {
		for _, f := range c.Files {
			if strings.HasSuffix("/"+cleanPath(f), "/"+want) {
				return cleanPath(f)
			}
		}
	}
	return ""
}

// sigValueMax bounds the length of a default value in a signature.
const sigValueMax = 40

// imageNameSlack is how far past sigValueMax an image reference may run to keep its last
// path component (the image's name and tag) whole.
const imageNameSlack = 12

func truncate(s string) string {
	if r := []rune(s); len(r) > sigValueMax {
		return string(r[:sigValueMax-1]) + "…"
	}
	return s
}

func parens(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func relationSig(r charmyaml.Relation) string {
	head := r.Role
	if r.Interface != "" {
		head += " " + r.Interface
	}
	parts := []string{head}
	if r.Limit > 0 {
		parts = append(parts, fmt.Sprintf("limit %d", r.Limit))
	}
	if r.Optional {
		parts = append(parts, "optional")
	}
	if r.Scope != "" && r.Scope != "global" {
		parts = append(parts, "scope "+r.Scope)
	}
	if r.Extension != "" {
		parts = append(parts, "from "+r.Extension)
	}
	return "[relation] " + r.Name + parens(parts)
}

func configSig(o charmyaml.ConfigOption) string {
	var parts []string
	if o.Type != "" {
		parts = append(parts, o.Type)
	}
	if o.HasDefault {
		v := oneLine(o.Default)
		switch {
		case imageDefault(o): // the tag at its end is what an upgrade edits
			v = strconv.Quote(shortImage(strings.Trim(v, `"'`)))
		case o.Type == "string" || o.Type == "secret":
			v = strconv.Quote(truncate(v))
		default:
			v = truncate(v)
		}
		parts = append(parts, "default "+v)
	}
	if o.Extension != "" {
		parts = append(parts, "from "+o.Extension)
	}
	return "[config] " + o.Name + parens(parts)
}

func actionSig(a charmyaml.Action) string {
	var parts []string
	if len(a.Params) > 0 {
		names := make([]string, len(a.Params))
		for i, p := range a.Params {
			names[i] = p.Name
		}
		parts = append(parts, "params: "+strings.Join(names, ", "))
	}
	if a.Extension != "" {
		parts = append(parts, "from "+a.Extension)
	}
	return "[action] " + a.Name + parens(parts)
}

func containerSig(c charmyaml.Container) string {
	var parts []string
	if c.Resource != "" {
		parts = append(parts, "resource "+c.Resource)
	}
	if len(c.Mounts) > 0 {
		parts = append(parts, "mounts "+strings.Join(c.Mounts, " "))
	}
	return "[container] " + c.Name + parens(parts)
}

func storageSig(s charmyaml.Storage) string {
	var parts []string
	if s.Type != "" {
		parts = append(parts, s.Type)
	}
	if s.Location != "" {
		parts = append(parts, s.Location)
	}
	return "[storage] " + s.Name + parens(parts)
}

func partSig(p charmyaml.Part) string {
	var parts []string
	if p.Plugin != "" {
		parts = append(parts, "plugin "+p.Plugin)
	}
	if t := releaseTail(p.Source); t != "" {
		parts = append(parts, "source …/"+t)
	}
	return "[part] " + p.Name + parens(parts)
}

// releaseTail is the end of a download's address that says which release it is, for a part's
// line (istio's istioctl: "1.29.0/istioctl-1.29.0-linux-amd64.tar.gz"): what follows a
// GitHub release's "/download/", else the last two parts of the path; "" for a source that
// is no download of a release (a folder, a repository, an address without a release number).
func releaseTail(src string) string {
	l := strings.ToLower(src)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") || !releaseInURL.MatchString(l) {
		return ""
	}
	if _, tail, ok := strings.Cut(src, "/download/"); ok && tail != "" {
		return tail
	}
	segs := strings.Split(strings.TrimSuffix(src, "/"), "/")
	return strings.Join(segs[max(3, len(segs)-2):], "/")
}

func baseSig(b charmyaml.Base) string {
	if b.Series() {
		return "[series] " + b.Name + parens(b.Archs)
	}
	return "[base] " + b.Name + parens(b.Archs)
}

// IsBuild reports a YAML symbol kind that is build configuration (a base, a build part or
// an included layer), not a declared interface.
func IsBuild(kind string) bool { return kind == SymPart || kind == SymBase || kind == SymLayer }

func resourceSig(r charmyaml.Resource) string {
	var parts []string
	if r.Type != "" {
		parts = append(parts, r.Type)
	}
	if src := r.UpstreamSource; src != "" {
		parts = append(parts, shortImage(src))
	}
	return "[resource] " + r.Name + parens(parts)
}

// shortImage is an image reference as a signature shows it: a digest's hex cut (it says
// nothing to a reader), then shortened from the left (truncateImage).
func shortImage(src string) string {
	if at := strings.Index(src, "@sha256:"); at >= 0 {
		src = src[:at+len("@sha256:")] + "…"
	}
	return truncateImage(src)
}

// truncateImage shortens an image reference from the left, at a '/' where it can: the name
// and tag at its end are what a reader looks for ("…/minio:ckf-1.10-b40ac43", not
// "docker.io/charmedkubeflow/minio:ckf-1.1…").
func truncateImage(s string) string {
	r := []rune(s)
	if len(r) <= sigValueMax {
		return s
	}
	tail := string(r[len(r)-(sigValueMax-1):])
	if i := strings.IndexByte(tail, '/'); i >= 0 && i < len(tail)-1 {
		return "…" + tail[i:]
	}
	// no '/' in the kept tail: the image's last path component whole, a few characters over
	// the bound, rather than cut inside its name ("…/opentelemetry-collector-contrib@sha256:…",
	// not "…pentelemetry-collector-contrib@sha256:…")
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 && utf8.RuneCountInString(s[i:]) <= sigValueMax+imageNameSlack {
		return "…" + s[i:]
	}
	return "…" + tail
}

// oneLine folds a multi-line value onto one line, its runs of blanks (a block scalar's
// indentation: a JSON document as an option's default) written as one space. A value on one
// line keeps its blanks as they are.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
