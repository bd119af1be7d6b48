package pyextract

import (
	"bytes"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// maxRecoveryRounds bounds the re-parses of one broken file.
const maxRecoveryRounds = 4

// recoverSwallowed re-parses a file whose syntax error swallowed later definitions.
//
// tree-sitter recovers well from most errors, but an unclosed bracket or string makes it
// read everything after it as one ERROR node, in which `def f():` is no longer a
// definition. Such a header line inside an ERROR node, not the start of any definition in the
// tree, is a swallowed definition. The lines from where the unclosed bracket or string opened
// up to the swallowed header are blanked out (spaces, newlines kept, "pass" where the
// statement began so that a body stays a body) and the file is parsed again; line numbers
// and byte offsets do not move. When no unclosed bracket or string explains the swallowing,
// the ERROR node's own first lines are blanked instead. It returns the final tree, whose
// src is the blanked copy; the caller keeps the first parse's error count.
func recoverSwallowed(tr *sitter.Tree, t tree, sc *scratch) (*sitter.Tree, tree) {
	lines := lineStarts(t.src)
	for round := 0; round < maxRecoveryRounds; round++ {
		patched := blankSwallowers(t, lines)
		if patched == nil {
			break
		}
		ntr, nt, errs := parseFlat(patched, sc)
		if ntr == nil {
			break
		}
		tr.Close()
		tr, t = ntr, nt
		if errs == 0 {
			break
		}
	}
	return tr, t
}

// lineStarts is the byte offset of each line's start.
func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// blanker builds the patched copy of a source.
type blanker struct {
	src, out []byte
	lines    []int
}

// line is the text of row r without its newline.
func (b *blanker) line(r int) []byte {
	end := len(b.src)
	if r+1 < len(b.lines) {
		end = b.lines[r+1] - 1
	}
	return b.src[b.lines[r]:end]
}

// blank blanks rows [from, to), starting at row from's indentation.
func (b *blanker) blank(from, to int) {
	start := b.lines[from] + indent(b.line(from))
	end := len(b.src)
	if to < len(b.lines) {
		end = b.lines[to]
	}
	changed := false
	for p := start; p < end; p++ {
		if c := b.src[p]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			changed = true
		}
	}
	if !changed {
		return
	}
	if b.out == nil {
		b.out = bytes.Clone(b.src)
	}
	for p := start; p < end; p++ {
		if c := b.out[p]; c != '\n' && c != '\r' {
			b.out[p] = ' '
		}
	}
	if end-start >= 4 && bytes.IndexAny(b.out[start:start+4], "\r\n") < 0 {
		copy(b.out[start:], "pass")
	}
}

// blankSwallowers returns a copy of t.src with the errors that lost definitions blanked, or
// nil if there are none (or blanking would change nothing). Two kinds are looked for:
//   - a def/class header line inside an ERROR node that starts no definition in the tree
//     (swallowed by an unclosed bracket or string);
//   - a definition nested in a def/class whose header is not left of it: the error made
//     tree-sitter lose the dedents after it, so the ERROR nodes inside that def/class, before
//     the misplaced definition, are blanked.
func blankSwallowers(t tree, lines []int) []byte {
	defRows := make([]bool, len(lines))
	for i := range t.nodes {
		if k := t.kind(int32(i)); k == kFunctionDef || k == kClassDef || k == kDecoratedDef {
			defRows[t.nodes[i].row] = true
		}
	}
	b := &blanker{src: t.src, lines: lines}
	column := func(i int32) int { return int(t.nodes[i].start) - lines[t.nodes[i].row] }
	var defs []int32 // enclosing function and class definitions
	misnested := map[int32]bool{}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		for len(defs) > 0 && i >= t.nodes[defs[len(defs)-1]].last {
			defs = defs[:len(defs)-1]
		}
		switch t.kind(i) {
		case kError:
			n := &t.nodes[i]
			b.blankError(int(n.row), min(int(n.endRow), len(lines)-1), defRows)
			i = n.last - 1 // an ERROR inside it is part of the same error
		case kFunctionDef, kClassDef:
			if len(defs) > 0 {
				if outer := defs[len(defs)-1]; column(i) <= column(outer) && !misnested[outer] {
					misnested[outer] = true
					b.blankErrorsIn(t, outer, i, defRows)
				}
			}
			defs = append(defs, i)
		}
	}
	return b.out
}

// blankErrorsIn blanks the lines of the ERROR nodes in (from, to) that hold no definition.
func (b *blanker) blankErrorsIn(t tree, from, to int32, defRows []bool) {
	for j := from + 1; j < to; j++ {
		if t.kind(j) != kError {
			continue
		}
		n := &t.nodes[j]
		if !slices.Contains(defRows[n.row:n.endRow+1], true) {
			b.blank(int(n.row), int(n.endRow)+1)
		}
		j = n.last - 1
	}
}

// blankError blanks what swallowed the definitions in an ERROR node spanning rows from..to.
func (b *blanker) blankError(from, to int, defRows []bool) {
	var headers []int
	for r := from + 1; r <= to; r++ {
		if !defRows[r] && isHeader(b.line(r)) {
			headers = append(headers, r)
		}
	}
	if len(headers) == 0 {
		return
	}
	runs := openRuns(b.src, b.lines, from, to)
	blanked, last := false, -1
	for _, h := range headers {
		run := runs[h-from]
		if run.start < 0 || run.start == last || run.closedString {
			continue
		}
		last = run.start
		b.blank(run.start, b.decorated(h, run.start))
		blanked = true
	}
	if blanked {
		return
	}
	// Not an unclosed bracket or string: blank the ERROR's first lines, keeping a def or class
	// header there unless only its body is left to blank.
	h := b.decorated(headers[0], from)
	start := from
	if isHeader(b.line(from)) {
		for r := from + 1; r < h; r++ {
			if len(bytes.TrimSpace(b.line(r))) > 0 {
				start = from + 1
				break
			}
		}
	}
	if start < h {
		b.blank(start, h)
	}
}

// decorated moves header row h up over the decorator lines above it (not above floor).
func (b *blanker) decorated(h, floor int) int {
	for h-1 > floor && bytes.HasPrefix(bytes.TrimLeft(b.line(h-1), " \t"), []byte("@")) {
		h--
	}
	return h
}

// isHeader reports whether a line starts a def or class: "def x", "async def x", "class X".
func isHeader(line []byte) bool {
	line = line[indent(line):]
	if rest, ok := bytes.CutPrefix(line, []byte("async")); ok && len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
		line = bytes.TrimLeft(rest, " \t")
	}
	for _, kw := range [...]string{"def", "class"} {
		if rest, ok := bytes.CutPrefix(line, []byte(kw)); ok {
			rest = bytes.TrimLeft(rest, " \t")
			return len(rest) < len(line)-len(kw) && len(rest) > 0 && identStart(rest[0])
		}
	}
	return false
}

func identStart(c byte) bool {
	return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c >= 0x80
}

// indent is the number of leading spaces and tabs.
func indent(line []byte) int {
	return len(line) - len(bytes.TrimLeft(line, " \t"))
}

// codeFollows reports whether a closing triple quote is directly followed on its line by a
// name, number or string: then it is really the opening quote of a later docstring
// ("""Handle the event.) and the string before it an unclosed one, not a closed docstring.
func codeFollows(rest []byte) bool {
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 0 && (identStart(rest[0]) || (rest[0] >= '0' && rest[0] <= '9') || rest[0] == '"' || rest[0] == '\'')
}

// openRun says, for the start of one line, which unclosed bracket or string it is inside.
type openRun struct {
	start int // the row where the run opened, or -1 outside any
	// closedString: the run is a triple-quoted string that closes by the end of the range, so
	// the line is string content (a docstring quoting code), not swallowed code.
	closedString bool
}

// openRuns scans rows from..to as Python tokens (brackets, strings, comments), starting
// outside any bracket, and returns for each row's start the run it is inside.
func openRuns(src []byte, lines []int, from, to int) []openRun {
	runs := make([]openRun, to-from+1)
	runs[0].start = -1
	end := len(src)
	if to+1 < len(lines) {
		end = lines[to+1]
	}
	depth, start, row := 0, -1, from
	var quote byte
	triple, escaped, stringRun := false, false, false
	var stringRows []int // rows whose run is the current triple-quoted string
	for p := lines[from]; p < end; p++ {
		c := src[p]
		if escaped {
			escaped = false
			if c != '\n' {
				continue
			}
		} else if quote != 0 {
			switch {
			case c == '\\':
				escaped = true
				continue
			case c == quote && (!triple || (p+2 < end && src[p+1] == c && src[p+2] == c)):
				if triple {
					p += 2
					if stringRun && depth == 0 && !codeFollows(src[p+1:end]) {
						for _, r := range stringRows {
							runs[r-from].closedString = true
						}
					}
				}
				quote, stringRows = 0, stringRows[:0]
				continue
			}
		} else {
			switch c {
			case '#':
				for p+1 < end && src[p+1] != '\n' {
					p++
				}
			case '(', '[', '{':
				if depth == 0 {
					start = row
				}
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			case '"', '\'':
				quote = c
				triple = p+2 < end && src[p+1] == c && src[p+2] == c
				if triple {
					p += 2
					if depth == 0 {
						start, stringRun = row, true
					}
				}
			}
		}
		if c != '\n' {
			continue
		}
		if quote != 0 && !triple {
			quote = 0 // an unterminated one-line string ends with its line
		}
		row++
		if row > to {
			break
		}
		switch {
		case depth > 0 || quote != 0:
			runs[row-from].start = start
			if quote != 0 && stringRun && depth == 0 {
				stringRows = append(stringRows, row)
			}
		default:
			start, stringRun = -1, false
			runs[row-from].start = -1
		}
	}
	return runs
}
