package pyextract

import (
	"bytes"
	"slices"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// Bounds on File.Words.
const (
	// MaxWords caps the distinct words kept per file (the first ones in source order), so
	// that a module holding a large data blob (a dashboard, a certificate) cannot bloat the
	// cache. Hand-written modules of the real charms have at most a few hundred.
	MaxWords = 600
	// maxWordLen drops longer tokens: hashes, base64 and minified data, never task words.
	maxWordLen = 30
	// MaxSymbolWords caps a function's body words (Symbol.Words): a handler of a hundred
	// lines has about that many distinct words, and the cache keeps them for every function.
	MaxSymbolWords = 80
)

// stringSyms marks the grammar's string_content symbols, escapeSyms its escape_sequence
// symbols and commentSyms its comment symbols (a name can have several symbols when the
// grammar aliases it).
var stringSyms, escapeSyms, commentSyms = func() ([]bool, []bool, []bool) {
	n := pyLang.SymbolCount()
	content, escape, comment := make([]bool, n), make([]bool, n), make([]bool, n)
	for s := uint32(0); s < n; s++ {
		switch pyLang.SymbolName(sitter.Symbol(s)) {
		case "string_content":
			content[s] = true
		case "escape_sequence":
			escape[s] = true
		case "comment":
			comment[s] = true
		}
	}
	return content, escape, comment
}()

// directives are the comment prefixes that talk to tools, not to readers (after "#" and
// spaces; "!" is a shebang): their words (type, ignore, cover) say nothing of the module.
var directives = []string{"!", "type:", "noqa", "pragma", "pyright:", "mypy:", "pylint:", "fmt:", "isort:", "ruff:"}

// wordSet collects distinct words in source order, at most MaxWords.
type wordSet struct {
	seen  map[string]bool
	out   []string
	names interner
}

func (s *wordSet) add(b []byte) {
	for _, w := range SplitWords(validString(b)) {
		if len(w) > 1 && len(w) <= maxWordLen && !s.seen[w] && len(s.out) < MaxWords {
			w = s.names.str(w)
			s.seen[w] = true
			s.out = append(s.out, w)
		}
	}
}

// words returns the distinct words of t's string literals, docstrings included (File.Words),
// and of its comments that are not string words (File.Comments). A string's words are the
// text parts of every string and f-string (interpolations are code, read as references),
// with escape sequences as separators; tool directives (directives) are not comments. Words
// are split like identifiers (SplitWords); words of one character or longer than maxWordLen
// are dropped; each list keeps at most MaxWords, the first in source order, and is sorted.
func words(t *tree) (strs, comments []string) {
	s := wordSet{seen: map[string]bool{}, names: t.names}
	var cs []node // comments, read after the strings so that the two lists stay disjoint
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		n := &t.nodes[i]
		if int(n.sym) >= len(stringSyms) || int(n.end) > len(t.src) {
			continue
		}
		if commentSyms[n.sym] {
			cs = append(cs, *n)
			continue
		}
		if !stringSyms[n.sym] || len(s.out) >= MaxWords {
			continue
		}
		t.stringPieces(i, s.add)
	}
	c := wordSet{seen: s.seen, names: t.names}
	for _, n := range cs {
		text := bytes.TrimLeft(t.src[n.start:n.end], "# \t")
		if !slices.ContainsFunc(directives, func(d string) bool { return bytes.HasPrefix(text, []byte(d)) }) {
			c.add(text)
		}
	}
	slices.Sort(s.out)
	slices.Sort(c.out)
	return slices.Clone(s.out), slices.Clone(c.out) // exact size: the spare capacity would stay
}

// handedParams sets Symbol.ParamsHanded of t's functions and methods whose body names one of
// their parameters other than as an attribute's object, or as a keyword's name, or reaches
// them all at once: `locals()` (a template rendered with `**locals()`), `event.__dict__` (a
// parameter's own: self.__dict__ is not).
func handedParams(t *tree, syms []Symbol) {
	byLine := defLines(syms)
	if len(byLine) == 0 {
		return
	}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		if t.kind(i) != kFunctionDef {
			continue
		}
		k, ok := byLine[int(t.nodes[i].row)+1]
		body := t.child(i, fBody)
		if !ok || body < 0 || syms[k].ParamsHanded {
			continue
		}
		var params []string
		for _, p := range syms[k].Params {
			if n := strings.TrimLeft(p.Name, "*"); n != "" && n != "/" && n != "self" && n != "cls" {
				params = append(params, n)
			}
		}
		for j := body + 1; j < t.nodes[body].last && len(params) > 0 && !syms[k].ParamsHanded; j++ {
			if t.kind(j) == kAttribute { // a parameter's own __dict__ (event.__dict__), not self's
				if obj, a := t.child(j, fObject), t.child(j, fAttribute); obj >= 0 && a >= 0 && t.kind(obj) == kIdentifier &&
					string(t.raw(a)) == "__dict__" && slices.Contains(params, string(t.raw(obj))) {
					syms[k].ParamsHanded = true
					break
				}
			}
			if f := t.nodes[j].field; t.kind(j) == kIdentifier && f != fObject && f != fName {
				raw := t.raw(j)
				if string(raw) == "locals" && f == fFunction {
					syms[k].ParamsHanded = true
					break
				}
				for _, p := range params {
					if string(raw) == p { // compared without copying the name
						syms[k].ParamsHanded = true
					}
				}
			}
		}
	}
}

// defLines maps the line of each function's and method's def to its symbol's index.
func defLines(syms []Symbol) map[int]int {
	byLine := map[int]int{}
	for k, s := range syms {
		if s.Kind == KindFunction || s.Kind == KindMethod {
			byLine[s.Line] = k
		}
	}
	return byLine
}

// bodyCalls fills Symbol.Calls of t's functions and methods: the names their bodies call
// (f(), self.f(), obj.f(): the callee's last name), with how many times, sorted by name. A
// default value's call (def f(x=g())) runs when the def does, not in the body: not counted.
func bodyCalls(t *tree, syms []Symbol) {
	byLine := defLines(syms)
	if len(byLine) == 0 {
		return
	}
	counts := map[string]int{}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		if t.kind(i) != kFunctionDef {
			continue
		}
		k, ok := byLine[int(t.nodes[i].row)+1]
		body := t.child(i, fBody)
		if !ok || body < 0 || syms[k].Calls != nil {
			continue
		}
		clear(counts)
		for j := body + 1; j < t.nodes[body].last; j++ {
			if t.kind(j) != kCall {
				continue
			}
			fn := t.child(j, fFunction)
			if fn >= 0 && t.kind(fn) == kAttribute {
				fn = t.child(fn, fAttribute)
			}
			if fn >= 0 && t.kind(fn) == kIdentifier {
				counts[t.text(fn)]++
			}
		}
		if len(counts) == 0 {
			continue
		}
		calls := make([]Ref, 0, len(counts))
		for name, n := range counts {
			calls = append(calls, Ref{Name: name, Count: n})
		}
		slices.SortFunc(calls, func(a, b Ref) int { return strings.Compare(a.Name, b.Name) })
		syms[k].Calls = calls
	}
}

// bodyWords fills Symbol.Words of t's functions and methods: the words of the identifiers,
// string contents and comments on the lines of each (a method's lines are its own: pyextract
// lists no function nested in another). Tool directives count as text here: they are rare in a
// body and cost a check per comment.
func bodyWords(t *tree, syms []Symbol) {
	var owner []int32 // line → 1 + index of the function whose lines hold it, 0 for none
	for k, s := range syms {
		if s.Kind != KindFunction && s.Kind != KindMethod || s.Line < 1 {
			continue
		}
		if len(owner) <= s.EndLine {
			owner = append(owner, make([]int32, s.EndLine+1-len(owner))...)
		}
		for l := s.Line; l <= s.EndLine; l++ {
			owner[l] = int32(k) + 1
		}
	}
	if owner == nil {
		return
	}
	sets := map[int][]string{}
	split := map[string][]string{} // identifier → its words, split once per file
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		n := &t.nodes[i]
		if int(n.end) > len(t.src) {
			continue
		}
		kind := t.kind(i)
		if kind != kIdentifier && (int(n.sym) >= len(stringSyms) || !stringSyms[n.sym] && !commentSyms[n.sym]) {
			continue
		}
		line := int(n.row) + 1
		if line >= len(owner) || owner[line] == 0 {
			continue
		}
		k := int(owner[line]) - 1
		out := sets[k]
		if len(out) >= MaxSymbolWords {
			continue
		}
		add := func(ws []string) {
			for _, w := range ws {
				if len(w) > 1 && len(w) <= maxWordLen && w != "self" && len(out) < MaxSymbolWords && !slices.Contains(out, w) {
					out = append(out, t.names.str(w))
				}
			}
		}
		text := t.src[n.start:n.end]
		switch {
		case kind == kIdentifier:
			ws, ok := split[string(text)]
			if !ok {
				ws = SplitWords(validString(text))
				split[string(text)] = ws
			}
			add(ws)
		case stringSyms[n.sym]:
			t.stringPieces(i, func(b []byte) { add(SplitWords(validString(b))) })
		default: // a comment
			add(SplitWords(validString(text)))
		}
		sets[k] = out
	}
	// The lists share one array of their exact total size, filled in symbol order: append's
	// spare capacity would otherwise stay with every function.
	total := 0
	for _, out := range sets {
		total += len(out)
	}
	all := make([]string, 0, total)
	for k := range syms {
		if out := sets[k]; len(out) > 0 { // none: nil, as before the lists shared an array
			slices.Sort(out)
			from := len(all)
			all = append(all, out...)
			syms[k].Words = all[from:len(all):len(all)]
		}
	}
}

// stringPieces hands emit the text parts of the string_content node i, split at its escape
// sequences, which separate words ("listen\\nport" → listen, port).
func (t *tree) stringPieces(i int32, emit func([]byte)) {
	n := &t.nodes[i]
	from := n.start
	for c := i + 1; c < n.last; c = t.nodes[c].last {
		if e := &t.nodes[c]; int(e.sym) < len(escapeSyms) && escapeSyms[e.sym] && e.start >= from {
			emit(t.src[from:e.start])
			from = e.end
		}
	}
	if from <= n.end {
		emit(t.src[from:n.end])
	}
}

// SplitWords splits an identifier or a text into lower-case words at every character that is
// neither a letter nor a digit and at camelCase boundaries: "GrafanaMetadataAppData" →
// grafana metadata app data; "HTTPServer" → http server; "log.dirs={x}" → log dirs x; a
// plural acronym stays whole: "ACLs" → acls, "getIDs" → get ids, "URLsFor" → urls for. The
// ranker splits identifiers and task texts with it, so File.Words meet them word for word.
func SplitWords(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if start >= 0 {
				out = append(out, strings.ToLower(string(rs[start:i])))
			}
			start = -1
		case start < 0:
			start = i
		case unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) ||
			i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]) && !pluralS(rs, i+1)):
			out = append(out, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(string(rs[start:])))
	}
	return out
}

// pluralS reports whether rs[i] is an 's' that ends a word: the end of rs, a separator or
// the capital of the next camelCase word follows.
func pluralS(rs []rune, i int) bool {
	return rs[i] == 's' && (i+1 == len(rs) || unicode.IsUpper(rs[i+1]) ||
		!unicode.IsLetter(rs[i+1]) && !unicode.IsDigit(rs[i+1]))
}
