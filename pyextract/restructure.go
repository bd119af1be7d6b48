package pyextract

import (
	"bytes"
	"slices"
)

// The last step of recovering a broken file: putting definitions back where the indentation
// says they are.
//
// recoverSwallowed handles the errors that hide definitions (an unclosed bracket or string).
// A one-line error can instead end a class early: after a bare `assert`, `import`, `del` or
// `def f(` in a method's body, tree-sitter may close the class there, and every later method
// becomes a module function (rev91's fuzz: 24 of 87 one-line errors did so at some position),
// so that check reports handlers "defined neither in the class nor in its bases" while an
// agent is mid-edit. No tree-sitter node says where such an error is, but the indentation of
// the def and class headers says where each definition belongs; repairStructure compares the
// two and, where they disagree, blanks the statement that broke them.
//
// For the first header the tree misplaces, the statements before it back to the header before
// it are candidates, those around an ERROR node's rows first (see candidates): each is blanked
// in turn (a "pass" in its place, so a body stays a body), the copy parsed again, and the copy
// that places the most headers where the indentation does (then: with the fewest errors) is
// kept, if it places more than the tree did; up to maxRepairRounds rounds, each from the copy
// kept. It starts from recoverSwallowed's tree, and again from the file as written if that
// did not place every header (recoverSwallowed's own blanks can misplace what follows).
// The statement lost is the broken one, or one next to it; the rest of the file, its other
// methods and their facts, are as written. A file whose layout and tree agree costs nothing
// more than reading the layout; a valid file is never repaired.

const (
	// maxRepairRounds bounds the rounds of repairStructure (each fixes one error).
	maxRepairRounds = 3
	// maxRepairTries bounds the statements tried in one round.
	maxRepairTries = 8
	// maxRepairParses bounds the parses of one file's repair, rounds and both starts
	// together, so that a file broken everywhere (Python 2) costs a bounded time: a
	// 1,600-line charm.py parses in about 13 ms valid, 15-50 ms broken. In rev91's fuzz on four
	// real charm.py files, 95% of the repairs that place every header take at most 8 parses.
	maxRepairParses = 16
	// maxRepairBytes bounds the bytes those parses read, so that a large file gets fewer (a
	// 560 KB file of 40,000 errors took 18 s with 16: review rev93); a 128 KB file gets 16.
	maxRepairBytes = 2 << 20
	// maxUnclosed bounds the brackets or strings left open to the end of the file that
	// readLayout reads past.
	maxUnclosed = 4
)

// reparsed is called before each parse of a patched copy: a test counts them.
var reparsed = func() {}

// placedHeader is a def or class header's row and the row of the header it is nested in by
// indentation (-1 at module level).
type placedHeader struct{ row, parent int }

// layout is what the indentation of a source says: its headers, and which rows start a
// statement (a logical line: not blank, not a comment, not inside brackets or a string, not
// continued from the line before by a backslash).
type layout struct {
	headers []placedHeader
	starts  []bool // rows that start a statement other than a header
	header  []bool // rows of headers
	dropped []bool // rows of headers a repair blanked, no longer looked for
	quoted  []bool // rows inside a closed triple-quoted string: a definition there is invented
	budget  int    // the parses repairs may still make
	// unclosed are the rows that open a bracket or string left open to the end of the file:
	// the likeliest errors, tried first (one line each)
	unclosed []int
}

// readLayout reads the layout of b's source. Headers inside a closed triple-quoted string
// (code quoted in a docstring) are not headers; those inside an unclosed bracket or string
// are, since the error swallowed them.
func readLayout(b *blanker) layout {
	runs, unclosed, _ := unclosedRuns(b.src, b.lines)
	n := len(b.lines)
	l := layout{starts: make([]bool, n), header: make([]bool, n), dropped: make([]bool, n), quoted: make([]bool, n), unclosed: unclosed}
	var stack []int
	continued := false
	for r := range b.lines {
		line := b.line(r)
		text := bytes.TrimRight(line[indent(line):], " \t\r")
		cont := continued
		continued = len(text) > 0 && text[len(text)-1] == '\\' && runs[r].start < 0
		if len(text) == 0 || text[0] == '#' || neverPython(line) {
			continued = false // (conflict markers and a lone "@" say nothing of the nesting)
			continue
		}
		// (code quoted in a string is no header, unless indented less than the line that
		// opened the string: then the string is likely unclosed and pairs with a later
		// docstring, as blankError judges it (review rev93); a repair still never makes a
		// definition of it that the tree it starts from does not have: see judge)
		l.quoted[r] = runs[r].quoted
		header := isHeader(line) && !(runs[r].quoted && width(line) >= width(b.line(runs[r].start)))
		if !header && (runs[r].start >= 0 || cont) {
			continue
		}
		l.starts[r], l.header[r] = !header, header
		col := width(line)
		for len(stack) > 0 && width(b.line(stack[len(stack)-1])) >= col {
			stack = stack[:len(stack)-1]
		}
		if header {
			parent := -1
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			l.headers = append(l.headers, placedHeader{r, parent})
			stack = append(stack, r)
		}
	}
	return l
}

// placement maps the row of each def and class in t to the row of the def or class it is
// nested in (-1 at module level).
func placement(t *tree) map[int]int {
	got := map[int]int{}
	var defs []int32
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		for len(defs) > 0 && i >= t.nodes[defs[len(defs)-1]].last {
			defs = defs[:len(defs)-1]
		}
		if k := t.kind(i); k == kFunctionDef || k == kClassDef {
			row, parent := int(t.nodes[i].row), -1
			if len(defs) > 0 {
				parent = int(t.nodes[defs[len(defs)-1]].row)
			}
			if _, seen := got[row]; !seen {
				got[row] = parent
			}
			defs = append(defs, i)
		}
	}
	return got
}

// misplaced is the index in l.headers of the first header a tree of placement got does not
// place as l does, or -1, and whether the tree has that header at all; placed counts the
// headers it places as l does.
func (l *layout) misplaced(got map[int]int) (first int, present bool, placed int) {
	first = -1
	for i, h := range l.headers {
		if l.dropped[h.row] {
			continue
		}
		p, ok := got[h.row]
		if ok && p == h.parent {
			placed++
		} else if first < 0 {
			first, present = i, ok
		}
	}
	return first, present, placed
}

// repairStructure returns t, or a copy of its source with statements blanked and parsed
// again that places more definitions where the indentation does (see above). src is the file
// as written (t.src may already be a blanked copy); the caller keeps the first parse's error
// count.
func repairStructure(t tree, errs int, src []byte) tree {
	if len(t.src) != len(src) {
		return t
	}
	lines := lineStarts(src)
	l := readLayout(&blanker{src: src, lines: lines})
	l.budget = min(maxRepairParses, maxRepairBytes/max(len(src), 1))
	l.dropUnclosed()
	j := l.repair(l.judge(t, span{-1, -1}, errs), lines)

	if j.first >= 0 && l.budget > 0 {
		// recoverSwallowed's blanks may be what misplaces the rest: try again from the source
		// as written, but for the lines that are never Python (erased, as recoverSwallowed does)
		b := &blanker{src: src, lines: lines}
		b.eraseNeverPython()
		if b.out != nil {
			src = b.out
		}
		if !bytes.Equal(t.src, src) {
			l.budget--
			reparsed()
			if o, oerrs, ok := parseFlat(src, new(scratch)); ok {
				clear(l.dropped)
				l.dropUnclosed()
				if k := l.repair(l.judge(o, span{-1, -1}, oerrs), lines); k.invented <= j.invented && k.better(j) {
					j = k
				}
			}
		}
	}
	return j.t
}

// dropUnclosed drops the headers that open a bracket left open to the end of the file: they
// are the error (def f( being typed), and no repair places them.
func (l *layout) dropUnclosed() {
	for _, r := range l.unclosed {
		if l.header[r] {
			l.dropped[r] = true
		}
	}
}

// repair runs rounds of blanking statements from cur, and returns the best judgement.
func (l *layout) repair(cur judgement, lines []int) judgement {
	for round := 0; round < maxRepairRounds && cur.first >= 0; round++ {
		best := cur
		for _, s := range l.candidates(&cur.t, lines, cur.first, cur.present) {
			b := &blanker{src: cur.t.src, lines: lines}
			b.blank(s.row, s.endRow)
			if b.out == nil || bytes.Equal(b.out, cur.t.src) {
				continue
			}
			if l.budget <= 0 {
				break
			}
			l.budget--
			reparsed()
			nt, errs, ok := parseFlat(b.out, new(scratch))
			if !ok {
				continue
			}
			j := l.judge(nt, s, errs)
			if j.invented > cur.invented {
				continue // never definitions out of a string
			}
			if j.better(best) {
				best = j
				if j.first < 0 && j.errs == 0 && !l.header[s.row] && s.endRow-s.row == 1 {
					break // every header placed, and no error left
				}
			}
		}
		if best.placed == cur.placed {
			break // fewer errors alone are not worth a statement
		}
		if l.header[best.blanked.row] {
			l.dropped[best.blanked.row] = true // a header broken itself (def f( being typed) is gone
		}
		cur = best
	}
	return cur
}

// judgement is how well a tree, made by blanking a span, places the layout's headers.
type judgement struct {
	t       tree
	blanked span
	first   int  // the first header misplaced, or -1
	present bool // the tree has that header
	placed  int  // the headers placed
	errs    int  // the parse's ERROR and MISSING nodes
	// invented counts the definitions on rows the file as written has inside a string (a
	// blank that unbalances the quotes turns quoted code into definitions)
	invented int
}

// better reports whether j places more headers than k, or as many with fewer errors left.
func (j judgement) better(k judgement) bool {
	return j.placed > k.placed || (j.placed == k.placed && (j.errs < k.errs ||
		(j.errs == k.errs && k.blanked.row >= 0 && j.blanked.endRow-j.blanked.row < k.blanked.endRow-k.blanked.row)))
}

// judge judges t, a parse of the source with s blanked; a header on s's first row is not
// looked for.
func (l *layout) judge(t tree, s span, errs int) judgement {
	drop := s.row >= 0 && l.header[s.row] && !l.dropped[s.row]
	if drop {
		l.dropped[s.row] = true
		defer func() { l.dropped[s.row] = false }()
	}
	j := judgement{t: t, blanked: s, errs: errs}
	got := placement(&t)
	j.first, j.present, j.placed = l.misplaced(got)
	for row := range got {
		if l.quoted[row] {
			j.invented++
		}
	}
	return j
}

// candidates lists the statements that may have broken header h = l.headers[first], as row
// ranges [row, endRow), at most maxRepairTries (and the lines that opened a bracket or string
// left open, first). The region searched runs from the header before h to h (its decorators
// excluded) when the tree has h, and on to the end of h's block when it does not (h is in an
// ERROR node, with its class). In it come first the statements at, just before and just
// after a row where an ERROR node starts or ends, the innermost nodes first (an error is
// found where it is or a little later), then those from both ends of the region. A
// statement runs from its start to the next start not indented more, and stops before a
// header; a header is a statement of its one line (def f( being typed).
func (l *layout) candidates(t *tree, lines []int, first int, present bool) []span {
	h := l.headers[first].row
	b := &blanker{src: t.src, lines: lines}
	lo, hi := -1, h
	for k := first - 1; k >= 0; k-- {
		if !l.dropped[l.headers[k].row] {
			lo = l.headers[k].row // (a dropped header is the error: it is in the region)
			break
		}
	}
	if present {
		hi = b.decorated(h, lo)
	} else {
		hi = l.blockEnd(b, h)
	}
	var starts []int
	for r := lo + 1; r < hi; r++ {
		if l.starts[r] || (l.header[r] && !l.dropped[r]) {
			starts = append(starts, r)
		}
	}
	statement := func(k int) (span, bool) {
		s := span{starts[k], hi}
		if l.header[s.row] {
			return span{s.row, s.row + 1}, true
		}
		col := width(b.line(s.row))
		for _, r := range starts[k+1:] {
			if width(b.line(r)) <= col {
				s.endRow = r
				break
			}
		}
		for r := s.row; r < s.endRow; r++ {
			if l.header[r] {
				s.endRow = r // the statement before a def's header ends there
				break
			}
		}
		return s, s.endRow > s.row
	}
	// containing is the index of the statement start at or before row r, or -1.
	containing := func(r int) int {
		k, found := slices.BinarySearch(starts, r)
		if !found {
			k--
		}
		return k
	}
	var out []span
	for _, r := range l.unclosed {
		if r > lo && r < hi {
			out = append(out, span{r, r + 1})
		}
	}
	seen := map[int]bool{}
	add := func(k int) {
		if k < 0 || k >= len(starts) || seen[k] || len(out) >= maxRepairTries {
			return
		}
		seen[k] = true
		if s, ok := statement(k); ok && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	// the innermost ERROR nodes first (the outer ones span what the error made of the code
	// after it), each in source order
	var errors []int32
	for i := range int32(len(t.nodes)) {
		if t.kind(i) == kError {
			errors = append(errors, i)
		}
	}
	var inner, outer []span
	for k, i := range errors {
		n := &t.nodes[i]
		e := span{int(n.row), int(n.endRow)}
		if k+1 < len(errors) && errors[k+1] < n.last { // preorder: the next ERROR is inside
			outer = append(outer, e)
		} else {
			inner = append(inner, e)
		}
	}
	for _, e := range append(inner, outer...) {
		for _, r := range [...]int{e.row, e.endRow} {
			if r <= lo && e.endRow > lo {
				r = lo + 1 // an error from the header before on: its first statements
			}
			if r > lo && r < max(hi, h+1) {
				k := containing(r)
				if r == e.endRow && e.endRow > e.row && k > 0 && starts[k] == r {
					add(k - 1) // an error ends where the next statement starts: the broken one is before
				}
				add(k)
				add(k - 1)
				add(k + 1)
			}
		}
	}
	// then from both ends of the region
	for i, j := 0, len(starts)-1; i <= j && len(out) < maxRepairTries; i, j = i+1, j-1 {
		add(j)
		add(i)
	}
	return out
}

// firstError is the row of the first syntax error: of the first MISSING node or of the first
// ERROR node with no ERROR inside, whichever comes first (an outer ERROR node starts where
// tree-sitter began to doubt, often the class or the module); 0 when there is none.
func (t *tree) firstError() int {
	row := t.missingRow
	next := func(from int32) int32 { // the first ERROR node at or after from, or -1
		for i := from; i < int32(len(t.nodes)); i++ {
			if t.kind(i) == kError {
				return i
			}
		}
		return -1
	}
	if i := next(0); i >= 0 {
		for j := next(i + 1); j >= 0 && j < t.nodes[i].last; j = next(j + 1) {
			i = j // an ERROR inside: the first in preorder is the first innermost one
		}
		if r := int(t.nodes[i].row); row < 0 || r < row {
			row = r
		}
	}
	return max(row, 0)
}

// blockEnd is the row after header h's block: the first statement or header after it that
// is not indented more, or the end of the file.
func (l *layout) blockEnd(b *blanker, h int) int {
	col := width(b.line(h))
	for r := h + 1; r < len(l.starts); r++ {
		if (l.starts[r] || l.header[r]) && width(b.line(r)) <= col {
			return r
		}
	}
	return len(l.starts)
}

// width is a line's indentation as Python measures it: a tab moves to the next multiple of 8
// (indent counts bytes, for blanking; review rev93: a tab-indented method nested in a
// space-indented class read as the class's sibling).
func width(line []byte) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w = w/8*8 + 8
		default:
			return w
		}
	}
	return w
}
