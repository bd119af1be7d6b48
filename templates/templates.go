// Package templates reads the configuration option names a charm's templates use.
//
// Charms render their workload's configuration from templates (templates/*.conf, *.j2; the
// OpenStack charms' src/templates/<release>/), and there the options are read as often as
// in the Python: `{{ options.max_connections }}` (charms.openstack's adapters),
// `{% if config.debug %}`, `config['log-level']`. This stage finds those names, with their
// lines, so that the linker can count a template as an option's reader ("no code reads
// option X" is not said of an option only a template reads). It reads text only, inside
// Jinja's {{ }} and {% %} delimiters; which names are options the linker decides, against the
// charm's YAML.
//
// Input: a template's root-relative path and its bytes. Output: File, a plain value that the
// pipeline hands to the linker next to pyextract's files.
package templates

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
)

// MaxSize bounds the templates read: a larger file is rendered data, not a template.
// MaxFiles bounds how many are read in a tree (the first, by path), since they are read on
// every run: a charm has tens; thousands are a web application's pages.
const (
	MaxSize  = 1 << 20
	MaxFiles = 2000
)

// File is the option names one template uses.
type File struct {
	Path string `json:"path"`
	Uses []Use  `json:"uses,omitempty"` // by line, then name; one per name and line
	// Vars are the bare variables an expression starts with (`{{ pci_alias }}`, `{% if not
	// use_syslog %}`), in the same order: the keys of the context the code renders the
	// template with, which charm-helpers' contexts name after the options they copy
	// (ctxt['pci_alias'] = config('pci-alias')). Which are options the linker decides.
	Vars []Use `json:"vars,omitempty"`
	// Attrs are the attribute names the template's expressions read (`{{ server.port }}`,
	// `{% if charm.tls_enabled %}`: port, tls_enabled), sorted, unique: a property of the
	// object the code renders it with is read here, by name, where no Python names it.
	Attrs []string `json:"attrs,omitempty"`
}

// Use is a name read from an options or config object on a line.
type Use struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

// IsTemplate reports whether a root-relative path is a template to read: a file under a
// folder named templates, other than Python (a .py template is pyextract's to flag) and
// compiled or binary formats, or anywhere a file with a Jinja extension (.j2, .jinja,
// .jinja2, .tmpl, .template) that is no Python template.
func IsTemplate(rel string) bool {
	dir, name := path.Split(rel)
	if strings.HasPrefix(name, ".") {
		return false
	}
	if !slices.Contains(strings.Split(strings.Trim(dir, "/"), "/"), "templates") {
		// elsewhere, a Jinja file by its extension (src/nginx.conf.j2, files/app.ini.tmpl),
		// not a Python one (x.py.j2, pyextract's to flag)
		return jinjaExts[strings.ToLower(path.Ext(name))] && !strings.HasSuffix(strings.ToLower(strings.TrimSuffix(name, path.Ext(name))), ".py")
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".py", ".pyc", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".svg", ".gz", ".tgz", ".zip", ".tar", ".so", ".bin":
		return false
	}
	return true
}

// jinjaExts are the extensions that make a file a Jinja template wherever it lies.
var jinjaExts = map[string]bool{".j2": true, ".jinja": true, ".jinja2": true, ".tmpl": true, ".template": true}

// RenderedName is the lower-case name of the file a template renders: its name without a
// Jinja extension when what remains has one of its own ("trove.conf.j2" → "trove.conf";
// "trove.conf" and "motd.j2" stay as they are).
func RenderedName(name string) string {
	name = strings.ToLower(name)
	if stem := strings.TrimSuffix(name, path.Ext(name)); jinjaExts[path.Ext(name)] && strings.Contains(stem, ".") {
		return stem
	}
	return name
}

// jinja matches one {{ ... }} or {% ... %} span, across lines.
var jinja = regexp.MustCompile(`(?s)\{\{.*?\}\}|\{%.*?%\}`)

// use matches an option read on an object named options or config: options.x,
// config['x'], config.get("x"). The .get form comes first: config.get("x") reads x, not get.
var use = regexp.MustCompile(`\b(?:options|config)(?:\.get\(\s*['"]([^'"\n]+)['"]|\[\s*['"]([^'"\n]+)['"]\s*\]|\.([A-Za-z_][A-Za-z0-9_]*))`)

// bare matches the variable a Jinja expression or condition starts with, not an object's
// (`{{ x }}`, `{{ x | default(1) }}`, `{% if not x %}`, `{% elif x == 2 %}`; not `{{ x.y }}`,
// `{{ x[0] }}` or `{{ f() }}`). Group 1 is the name.
var bare = regexp.MustCompile(`^(?:\{\{-?|\{%-?\s*(?:if|elif)\s+(?:not\s+)?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[^.\[(\w\s]|$|\s+[^.\[(\s])`)

// attr matches an attribute read in a Jinja expression: group 1 is its name.
var attr = regexp.MustCompile(`\.\s*([A-Za-z_][A-Za-z0-9_]*)`)

// bound matches a name the template binds itself (`{% for h, p in hosts %}`, `{% set x = 1 %}`,
// `{% macro m(...) %}`): no context key.
var bound = regexp.MustCompile(`\{%-?\s*(?:for|set|macro)\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?`)

// jinjaWords are Jinja's own names, never a context key.
var jinjaWords = map[string]bool{"true": true, "false": true, "none": true, "True": true, "False": true, "None": true,
	"loop": true, "range": true, "self": true, "super": true, "caller": true, "varargs": true, "kwargs": true,
	"options": true, "config": true}

// Scan returns the option names the template at p uses. Binary content yields none.
func Scan(p string, src []byte) File {
	f := File{Path: p}
	if bytes.IndexByte(src, 0) >= 0 {
		return f
	}
	type key struct {
		name string
		line int
	}
	seen := map[key]bool{}
	seenVar := map[key]bool{}
	line, at := 1, 0 // the line of offset at: the spans come in order, so counting is linear
	for _, span := range jinja.FindAllIndex(src, -1) {
		line += bytes.Count(src[at:span[0]], []byte("\n"))
		at = span[0]
		lineIn := func(off int) int { return line + bytes.Count(src[span[0]:span[0]+off], []byte("\n")) } // off within the span
		if m := bare.FindSubmatchIndex(src[span[0]:span[1]]); m != nil {
			k := key{string(src[span[0]+m[2] : span[0]+m[3]]), lineIn(m[2])}
			if !jinjaWords[k.name] && !seenVar[k] {
				seenVar[k] = true
				f.Vars = append(f.Vars, Use{Name: k.name, Line: k.line})
			}
		}
		for _, m := range attr.FindAllSubmatch(src[span[0]:span[1]], -1) {
			f.Attrs = append(f.Attrs, string(m[1]))
		}
		for _, m := range use.FindAllSubmatchIndex(src[span[0]:span[1]], -1) {
			var name string
			for g := 1; g <= 3; g++ {
				if m[2*g] >= 0 {
					name = string(src[span[0]+m[2*g] : span[0]+m[2*g+1]])
				}
			}
			k := key{name, lineIn(m[0])}
			if !seen[k] {
				seen[k] = true
				f.Uses = append(f.Uses, Use{Name: k.name, Line: k.line})
			}
		}
	}
	byLine := func(a, b Use) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Name, b.Name)
	}
	own := map[string]bool{}
	for _, m := range bound.FindAllSubmatch(src, -1) {
		own[string(m[1])], own[string(m[2])] = true, true
	}
	f.Vars = slices.DeleteFunc(f.Vars, func(u Use) bool { return own[u.Name] })
	slices.Sort(f.Attrs)
	f.Attrs = slices.Compact(f.Attrs)
	slices.SortFunc(f.Uses, byLine)
	slices.SortFunc(f.Vars, byLine)
	return f
}
