package check

import (
	"path"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Comments. A suppression directive counts only in a comment: text that looks like one in a
// Python string ("# charmcraft-map: ignore" in a message, a docstring) or in a YAML scalar
// (a quoted value, a `description: |` block) is data, and must not silence a finding, or CI
// would pass a charm with a real error. commentsOf finds where each line's comment starts:
// in Python, tree-sitter's comments (pyextract.CommentStarts: the parser pyextract uses, so
// that every string Python has, PEP 701's f-strings nesting their own quote included, is
// data); in YAML, with a small lexer of its quoted scalars (over lines too) and block scalars
// (`|`, `>`, with their indicators, for the lines indented under the key). A file of another
// kind keeps the plain rule: a '#' anywhere starts a comment.

// commentsOf returns, for each of lines (of the file named name), the byte offset where its
// comment starts, -1 when it has none.
func commentsOf(name string, lines []string) []int {
	switch strings.ToLower(path.Ext(name)) {
	case ".py":
		return pyextract.CommentStarts(lines)
	case ".yaml", ".yml":
		return yamlComments(lines)
	}
	out := make([]int, len(lines))
	for i, l := range lines {
		out[i] = strings.IndexByte(l, '#')
	}
	return out
}

// yamlComments finds the comments of YAML lines: a '#' at the start of a line or after a
// space or tab, outside a quoted scalar and outside a block scalar's content.
func yamlComments(lines []string) []int {
	out := make([]int, len(lines))
	var quote byte // the open flow scalar's quote, 0 outside one
	block := -1    // the indentation a block scalar's content must exceed; -1 outside one
	for i, l := range lines {
		out[i] = -1
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if block >= 0 {
			if strings.TrimSpace(l) == "" || indent > block {
				continue // the block's text, or a blank line in it
			}
			block = -1
		}
		end := len(l) // where the line's content ends (its comment, or the end)
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case quote == '"' && c == '\\':
				j++
			case quote == '\'' && c == '\'' && j+1 < len(l) && l[j+1] == '\'':
				j++ // '' is a quote inside a single-quoted scalar
			case quote != 0 && c == quote:
				quote = 0
			case quote != 0:
			case c == '#' && (j == 0 || l[j-1] == ' ' || l[j-1] == '\t'):
				out[i], end = j, j
				j = len(l)
			case (c == '"' || c == '\'') && quoteStarts(l[:j]):
				quote = c
			}
		}
		if quote == 0 && blockIndicator(strings.TrimRight(l[:end], " \t")) {
			block = indent
		}
	}
	return out
}

// quoteStarts reports whether a quote after before opens a quoted scalar: at the start of a
// value (after a key's ": ", a "- ", a flow "[", "{" or ",", or alone on the line), not inside
// a plain scalar (it's, O"Brien).
func quoteStarts(before string) bool {
	t := strings.TrimRight(before, " \t")
	if t == "" {
		return true
	}
	switch t[len(t)-1] {
	case '[', '{', ',':
		return true
	case ':', '-', '?': // an indicator, when a space follows it (a:"b" is one plain scalar)
		return len(t) < len(before)
	}
	return false
}

// blockIndicator reports a line whose value is a block scalar: it ends with `|` or `>`,
// maybe with a chomping or indentation indicator (`|-`, `>+`, `|2`), after a key's ": " or
// a sequence's "- ".
func blockIndicator(content string) bool {
	k := len(content)
	for k > 0 && (content[k-1] == '-' || content[k-1] == '+' || '1' <= content[k-1] && content[k-1] <= '9') {
		k--
	}
	if k == 0 || content[k-1] != '|' && content[k-1] != '>' {
		return false
	}
	before := strings.TrimRight(content[:k-1], " \t")
	return before == "" || strings.HasSuffix(before, ":") || before == "-" || strings.HasSuffix(before, " -")
}
