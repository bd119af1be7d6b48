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
	// Vars are the free variables of the template's expressions (`{{ pci_alias }}`, `{% if
	// not use_syslog %}`, `{% for p in logpath.split() %}`, `{% set x = a or b %}`, `{{ "on"
	// if debug else "off" }}`), in the same order: the keys of the context the code renders
	// the template with, which charm-helpers' contexts name after the options they copy
	// (ctxt['pci_alias'] = config('pci-alias')). Not an object's (`ctx.port`, `hosts[0]`;
	// a string's method, `logpath.split()`, is no object's), a function's, a filter's, a
	// test's, a keyword argument's or a name the template binds itself. Which are options
	// the linker decides.
	Vars []Use `json:"vars,omitempty"`
	// Attrs are the attribute names the template's expressions read (`{{ server.port }}`,
	// `{% if charm.tls_enabled %}`: port, tls_enabled), sorted, unique: a property of the
	// object the code renders it with is read here, by name, where no Python names it.
	Attrs []string `json:"attrs,omitempty"`
	// Words are the distinct words of the whole text, lower-case, sorted (at most MaxWords,
	// the first in the text): what a task about the rendered file may name ("homeserver",
	// "logstash"), where no option does.
	Words []string `json:"-"`
}

// MaxWords bounds a template's Words.
const MaxWords = 1000

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

// spanExpr is the expression of a Jinja span, as offsets into it, and whether it has one:
// all of a {{ }}, the condition of an if or elif, the iterable of a for (and its filter),
// and what a set or with assigns. Other tags (include, macro, block, end*) have none.
func spanExpr(s []byte) (start, end int, ok bool) {
	start, end = 2, len(s)-2
	if end < start {
		return 0, 0, false
	}
	for start < end && (s[start] == '-' || s[start] == '+') {
		start++
	}
	for end > start && (s[end-1] == '-' || s[end-1] == '+') {
		end--
	}
	if s[1] == '{' {
		return start, end, true
	}
	body := s[start:end]
	i := 0
	for i < len(body) && isSpace(body[i]) {
		i++
	}
	j := i
	for j < len(body) && isWord(body[j]) {
		j++
	}
	switch string(body[i:j]) {
	case "if", "elif", "set", "with":
		return start + j, end, true
	case "for":
		// the targets before "in" are bound; the iterable follows
		if k := wordIndex(body[j:], "in"); k >= 0 {
			return start + j + k + 2, end, true
		}
	}
	return 0, 0, false
}

// wordIndex is the offset of the first whole word w in b outside string literals, or -1.
func wordIndex(b []byte, w string) int {
	for i := 0; i+len(w) <= len(b); i++ {
		switch c := b[i]; {
		case c == '\'' || c == '"':
			i = skipString(b, i) - 1
		case string(b[i:i+len(w)]) == w && (i == 0 || !isWord(b[i-1])) && (i+len(w) == len(b) || !isWord(b[i+len(w)])):
			return i
		}
	}
	return -1
}

// anyOutsideStrings reports one of chars in e outside its string literals: `join("; ")`
// holds no ; of its own.
func anyOutsideStrings(e []byte, chars string) bool {
	for i := 0; i < len(e); {
		switch {
		case e[i] == '\'' || e[i] == '"':
			i = skipString(e, i)
		case strings.IndexByte(chars, e[i]) >= 0:
			return true
		default:
			i++
		}
	}
	return false
}

// skipString is the offset just past the string literal that starts at b[i].
func skipString(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// jinjaKeywords are the words of Jinja's expression syntax.
var jinjaKeywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true,
	"recursive": true}

// strMethods are the methods of a string an expression may call on an option's value
// (`logpath.split()`): the name is a variable's, not an object's.
var strMethods = map[string]bool{"split": true, "splitlines": true, "strip": true, "lstrip": true, "rstrip": true,
	"lower": true, "upper": true, "replace": true, "startswith": true, "endswith": true, "format": true}

// freeNames calls fn with each free variable of the expression e (Vars' rule), at its
// offset in e.
func freeNames(e []byte, fn func(name string, off int)) {
	prev := func(i int) (byte, string, int) { // the character before i, the word ending there, where it starts
		for i > 0 && isSpace(e[i-1]) {
			i--
		}
		if i == 0 {
			return 0, "", 0
		}
		j := i
		for j > 0 && isWord(e[j-1]) {
			j--
		}
		return e[i-1], string(e[j:i]), j
	}
	next := func(i int) (byte, int) { // the next character at or after i, and its offset
		for i < len(e) && isSpace(e[i]) {
			i++
		}
		if i == len(e) {
			return 0, i
		}
		return e[i], i
	}
	for i := 0; i < len(e); {
		c := e[i]
		switch {
		case c == '\'' || c == '"':
			i = skipString(e, i)
			continue
		case !isWord(c):
			i++
			continue
		case c >= '0' && c <= '9':
			for i < len(e) && isWord(e[i]) {
				i++
			}
			continue
		}
		j := i
		for j < len(e) && isWord(e[j]) {
			j++
		}
		name := string(e[i:j])
		before, word, from := prev(i)
		after, at := next(j)
		free := !jinjaKeywords[name] && !jinjaWords[name] && before != '.' && before != '|' && word != "is" &&
			after != '(' && after != '[' && (after != '=' || at+1 < len(e) && e[at+1] == '=')
		if free && after == '.' {
			// x.split(): a string's method is no object's attribute
			_, k := next(at + 1)
			m := k
			for m < len(e) && isWord(e[m]) {
				m++
			}
			free = strMethods[string(e[k:m])]
		}
		if _, w2, _ := prev(from); free && word == "not" && w2 == "is" {
			free = false // "x is not defined": a test, after is not
		}
		if free {
			fn(name, i)
		}
		i = j
	}
}

// attr matches an attribute read in a Jinja expression: group 1 is its name.
var attr = regexp.MustCompile(`\.\s*([A-Za-z_][A-Za-z0-9_]*)`)

// bound matches a name the template binds itself (`{% for h, p in hosts %}`, `{% set x = 1 %}`,
// `{% macro m(...) %}`): no context key.
var bound = regexp.MustCompile(`\{%-?\s*(?:for|set|with|macro)\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?`)

// word matches a word of a template's text.
var word = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*`)

// macroParams matches a macro's parameters (`{% macro row(name, width=4) %}`): group 1.
var macroParams = regexp.MustCompile(`\{%-?\s*macro\s+\w+\s*\(([^)]*)\)`)

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
		if a, b, ok := spanExpr(src[span[0]:span[1]]); ok && !anyOutsideStrings(src[span[0]+a:span[0]+b], ";{}") {
			// (a span holding a ; or a brace is no expression: the text between a Python
			// format template's escaped braces, "server {{ listen {PORT}; ... }}")
			freeNames(src[span[0]+a:span[0]+b], func(name string, off int) {
				if k := (key{name, lineIn(a + off)}); !seenVar[k] {
					seenVar[k] = true
					f.Vars = append(f.Vars, Use{Name: k.name, Line: k.line})
				}
			})
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
	for _, m := range macroParams.FindAllSubmatch(src, -1) {
		for _, p := range strings.Split(string(m[1]), ",") {
			p, _, _ = strings.Cut(p, "=")
			own[strings.TrimSpace(p)] = true
		}
	}
	f.Vars = slices.DeleteFunc(f.Vars, func(u Use) bool { return own[u.Name] })
	seenWord := map[string]bool{}
	for _, w := range word.FindAll(src, -1) {
		if lw := strings.ToLower(string(w)); !seenWord[lw] && len(seenWord) < MaxWords {
			seenWord[lw] = true
			f.Words = append(f.Words, lw)
		}
	}
	slices.Sort(f.Words)
	slices.Sort(f.Attrs)
	f.Attrs = slices.Compact(f.Attrs)
	slices.SortFunc(f.Uses, byLine)
	slices.SortFunc(f.Vars, byLine)
	return f
}
