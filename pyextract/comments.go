package pyextract

import "strings"

// CommentStarts returns, for each of lines (a Python file split at "\n", the newlines left
// out), the byte offset in that line where its comment starts, -1 where it has none.
//
// The comments are tree-sitter's, so that a '#' in a string of any quoting is none: a
// Python 3.12 f-string may nest the quote that encloses it (f"{"\""} # data"), which a lexer
// of quotes alone takes for the string's end (rev91: such a string silenced a finding of
// check). A file tree-sitter gives up on has no comments.
func CommentStarts(lines []string) []int {
	out := make([]int, len(lines))
	for i := range out {
		out[i] = -1
	}
	src := []byte(strings.Join(lines, "\n"))
	t, _, ok := parseTree(src, nil, nil)
	if !ok {
		return out
	}
	starts := lineStarts(src)
	for i := range t.nodes {
		n := &t.nodes[i]
		if t.kind(int32(i)) != kComment || int(n.row) >= len(out) || out[n.row] >= 0 {
			continue
		}
		out[n.row] = int(n.start) - starts[n.row]
	}
	return out
}
