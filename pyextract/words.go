package pyextract

import (
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
)

// stringSyms marks the grammar's string_content symbols and escapeSyms its escape_sequence
// symbols (a name can have several symbols when the grammar aliases it).
var stringSyms, escapeSyms = func() ([]bool, []bool) {
	n := pyLang.SymbolCount()
	content, escape := make([]bool, n), make([]bool, n)
	for s := uint32(0); s < n; s++ {
		switch pyLang.SymbolName(sitter.Symbol(s)) {
		case "string_content":
			content[s] = true
		case "escape_sequence":
			escape[s] = true
		}
	}
	return content, escape
}()

// words returns the distinct words of t's string literals, docstrings included: the text
// parts of every string and f-string (interpolations are code, read as references),
// split like identifiers (SplitWords) with escape sequences as separators. Words of one
// character or longer than maxWordLen are dropped; at most MaxWords are kept, the first in
// source order. The result is sorted.
func words(t *tree) []string {
	seen := map[string]bool{}
	var out []string
	add := func(b []byte) {
		for _, w := range SplitWords(validString(b)) {
			if len(w) > 1 && len(w) <= maxWordLen && !seen[w] && len(out) < MaxWords {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	for i := int32(0); i < int32(len(t.nodes)) && len(out) < MaxWords; i++ {
		n := &t.nodes[i]
		if int(n.sym) >= len(stringSyms) || !stringSyms[n.sym] || int(n.end) > len(t.src) {
			continue
		}
		from := n.start
		for c := i + 1; c < n.last; c = t.nodes[c].last {
			if e := &t.nodes[c]; int(e.sym) < len(escapeSyms) && escapeSyms[e.sym] && e.start >= from {
				add(t.src[from:e.start])
				from = e.end
			}
		}
		if from <= n.end {
			add(t.src[from:n.end])
		}
	}
	slices.Sort(out)
	return out
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
