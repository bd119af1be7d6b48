package pyextract

import (
	"bytes"
	"slices"
	"strings"
)

// maxRecoveryRounds bounds the re-parses of one broken file.
const maxRecoveryRounds = 4

// recoverSwallowed re-parses a file whose syntax error swallowed later definitions, or later
// statements (blankRunaways, first).
//
// tree-sitter recovers well from most errors, but an unclosed bracket or string makes it
// read everything after it as one ERROR node, in which `def f():` is no longer a definition,
// and stray tokens can make it lose the dedents after them, so that the definitions that
// follow land inside the broken one. blankSwallowers finds both and blanks the lines that
// caused them (spaces, newlines kept, "pass" where the statement began so that a body stays
// a body); the file is then parsed again, line numbers and byte offsets unchanged, up to
// maxRecoveryRounds times. It returns the tree with the most definitions (the latest among
// equals), whose src may be a blanked copy, and its error count; the caller keeps the first
// parse's.
func recoverSwallowed(t tree, errs int) (tree, int) {
	lines := lineStarts(t.src)
	best, bestDefs, bestErrs := t, t.countDefinitions(), errs
	// a bracket left open before statements of its block: they come back if that makes
	// fewer errors and loses no definition
	if patched := blankRunaways(t.src, lines); patched != nil {
		reparsed()
		if nt, nerrs, ok := parseFlat(patched, new(scratch)); ok && nerrs < errs && nt.countDefinitions() >= bestDefs {
			t, errs = nt, nerrs
			best, bestDefs, bestErrs = t, t.countDefinitions(), errs
			if errs == 0 {
				return best, bestErrs
			}
		}
	}
	for round := 0; round < maxRecoveryRounds; round++ {
		patched := blankSwallowers(t, lines)
		if patched == nil {
			break
		}
		reparsed()
		nt, errs, ok := parseFlat(patched, new(scratch))
		if !ok {
			break
		}
		t = nt
		if n := t.countDefinitions(); n >= bestDefs {
			best, bestDefs, bestErrs = t, n, errs
		}
		if errs == 0 {
			break
		}
	}
	return best, bestErrs
}

// countDefinitions counts the function and class definitions in the tree.
func (t *tree) countDefinitions() int {
	n := 0
	for i := range t.nodes {
		if k := t.kind(int32(i)); k == kFunctionDef || k == kClassDef {
			n++
		}
	}
	return n
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
	runs     []openRun // openRuns of src, computed when first needed
	lastRun  int       // the start of the last run blanked: only up to its first header
}

// line is the text of row r without its newline.
func (b *blanker) line(r int) []byte {
	end := len(b.src)
	if r+1 < len(b.lines) {
		end = b.lines[r+1] - 1
	}
	return b.src[b.lines[r]:end]
}

// neverPython reports a line no Python has: "@" alone, or a git conflict marker.
func neverPython(line []byte) bool {
	l := bytes.TrimRight(line, " \t\r")
	if bytes.Equal(bytes.TrimLeft(l, " \t"), []byte("@")) || bytes.Equal(l, []byte("=======")) {
		return true
	}
	for _, m := range [...]string{"<<<<<<< ", ">>>>>>> ", "||||||| "} {
		if bytes.HasPrefix(l, []byte(m)) || bytes.Equal(l, []byte(strings.TrimSpace(m))) {
			return true
		}
	}
	return false
}

// erase turns row r into spaces: a blank line, which leaves the indentation around it as
// it was (blank's "pass" at a marker's column 0 would end the class).
func (b *blanker) erase(r int) {
	if b.out == nil {
		b.out = bytes.Clone(b.src)
	}
	start := b.lines[r]
	for p := start; p < start+len(b.line(r)); p++ {
		if c := b.out[p]; c != '\r' {
			b.out[p] = ' '
		}
	}
}

// eraseNeverPython erases the lines no Python has (neverPython).
func (b *blanker) eraseNeverPython() {
	for r := range b.lines {
		if neverPython(b.line(r)) {
			b.erase(r)
		}
	}
}

// nextHeader is the first row after from, and before to, that is a def or class header (or
// its decorator), else to.
func (b *blanker) nextHeader(from, to int) int {
	for r := from + 1; r < to; r++ {
		if isHeader(b.line(r)) {
			return b.decorated(r, from)
		}
	}
	return to
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
	if end-start >= 4 && !bytes.ContainsAny(b.out[start:start+4], "\r\n") {
		copy(b.out[start:], "pass")
	}
}

// blankSwallowers returns a copy of t.src with the errors that lost definitions blanked, or
// nil if there are none (or blanking would change nothing). Two kinds are looked for:
//   - a def/class header line inside an ERROR node that starts no definition in the tree
//     (swallowed by an unclosed bracket or string);
//   - a definition nested in a def/class whose header is not left of it: the error made
//     tree-sitter lose the dedents after it, so the first ERROR node inside that def/class
//     is blanked.
func blankSwallowers(t tree, lines []int) []byte {
	defRows := make([]bool, len(lines))
	for i := range t.nodes {
		if k := t.kind(int32(i)); k == kFunctionDef || k == kClassDef || k == kDecoratedDef {
			defRows[t.nodes[i].row] = true
		}
	}
	b := &blanker{src: t.src, lines: lines, lastRun: -1}
	// lines that are never Python, met while a file is being edited: a decorator's "@" alone
	// (being typed) and a merge's conflict markers; tree-sitter ends the class at them, and
	// the methods after become module functions (rev91)
	b.eraseNeverPython()
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
			var inner []span
			for j := i + 1; j < n.last; j++ {
				if t.kind(j) == kError {
					inner = append(inner, span{int(t.nodes[j].row), int(t.nodes[j].endRow)})
				}
			}
			b.blankError(int(n.row), min(int(n.endRow), len(lines)-1), inner, defRows)
			i = n.last - 1 // the ERRORs inside it are part of the same error
		case kFunctionDef, kClassDef:
			if len(defs) > 0 {
				if outer := defs[len(defs)-1]; column(i) <= column(outer) && !misnested[outer] {
					misnested[outer] = true
					b.blankFirstErrorIn(t, outer, i, defRows)
				}
			}
			defs = append(defs, i)
		}
	}
	return b.out
}

// blankFirstErrorIn blanks the lines of the first ERROR node in (from, to), the likely cause
// of the errors after it, unless they hold a definition.
func (b *blanker) blankFirstErrorIn(t tree, from, to int32, defRows []bool) {
	for j := from + 1; j < to; j++ {
		if t.kind(j) == kError {
			if n := &t.nodes[j]; !slices.Contains(defRows[n.row:n.endRow+1], true) {
				// not past a header inside it: the methods it swallowed come back (rev91)
				b.blank(int(n.row), b.nextHeader(int(n.row), int(n.endRow)+1))
			}
			return
		}
	}
}

// span is the rows of a syntax error.
type span struct{ row, endRow int }

// blankError blanks what swallowed the definitions in an ERROR node spanning rows from..to;
// inner lists the ERROR nodes inside it.
//
// For each swallowed header: if it sits in an unclosed bracket or string, the lines from where
// that opened are blanked (up to the first header only; the next round sees the rest). A
// header in a closed triple-quoted string is taken for code quoted in a docstring unless it
// is indented less than the line that opened the string. Otherwise the cause is taken to be
// the inner ERROR node ending closest before the first such header, whose lines are blanked
// unless they hold definitions (later inner errors are likely its consequences). Only when
// nothing was blanked are the ERROR's own first lines blanked, if they hold no definition
// (keeping a def or class header there unless only its body is left).
func (b *blanker) blankError(from, to int, inner []span, defRows []bool) {
	var headers []int
	for r := from; r <= to; r++ {
		if !defRows[r] && isHeader(b.line(r)) {
			headers = append(headers, r)
		}
	}
	if len(headers) == 0 {
		return
	}
	if b.runs == nil {
		b.runs = openRuns(b.src, b.lines)
	}
	blanked, spotted := false, false
	for _, h := range headers {
		if run := b.runs[h]; run.start >= 0 {
			if run.closedString && indent(b.line(h)) >= indent(b.line(run.start)) {
				continue // code quoted in a docstring
			}
			if run.start != b.lastRun {
				b.lastRun = run.start
				// up to the first header after the opening line, swallowed or not: the
				// definitions tree-sitter recovered between it and h are kept (rev91: an
				// unclosed "[" blanked the four methods that followed it)
				b.blank(run.start, b.decorated(b.nextHeader(run.start, h), run.start))
				blanked = true
			}
			continue
		}
		if spotted {
			continue // the errors after the first one are likely its consequences
		}
		spot := span{-1, -1}
		for _, e := range inner {
			if e.endRow < h && (e.endRow > spot.endRow || (e.endRow == spot.endRow && e.row > spot.row)) {
				spot = e
			}
		}
		if spot.row >= 0 && !slices.Contains(defRows[spot.row:spot.endRow+1], true) {
			// not past a header the error swallowed (rev91: an unclosed f-string's error
			// ended on the next method's def line, which was blanked with it)
			b.blank(spot.row, b.nextHeader(spot.row, spot.endRow+1))
			blanked, spotted = true, true
		}
	}
	h := b.decorated(headers[0], from)
	if blanked || slices.Contains(defRows[from:h], true) {
		return
	}
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

// statementEnd is the first row after start, before end, where the statement that opened
// an unclosed bracket on row start should have ended: a line of code indented no more than
// row start that does not close a bracket (Python lets a bracket's lines sit anywhere, but
// code written to be read, and every formatter, indents them more, or closes with ")" at the
// statement's column). end if there is none.
func (b *blanker) statementEnd(start, end int) int {
	col := indent(b.line(start))
	for r := start + 1; r < end; r++ {
		line := b.line(r)
		code := bytes.TrimLeft(line, " \t")
		if len(bytes.TrimSpace(code)) == 0 || code[0] == '#' || b.runs[r].quoted {
			continue
		}
		if indent(line) <= col && !bytes.ContainsAny(code[:1], ")]}") {
			return r
		}
	}
	return end
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
	// a keyword that goes on an expression ("""...""" if x else "") follows a closed string
	word := rest[:len(rest)-len(bytes.TrimLeft(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"))]
	if slices.Contains([]string{"if", "else", "and", "or", "not", "in", "is", "for", "async"}, string(word)) {
		return false
	}
	return len(rest) > 0 && (identStart(rest[0]) || (rest[0] >= '0' && rest[0] <= '9') || rest[0] == '"' || rest[0] == '\'')
}

// unclosedRuns is openRuns, but a bracket or string left open to the end of the file is taken
// for the error it is: the lines after the one that opened it are read again as if it had
// closed there, so that they are statements. unclosed lists the rows that opened one (up to
// maxUnclosed), in order; bracket says which of them opened a bracket, not a string.
func unclosedRuns(src []byte, lines []int) (runs []openRun, unclosed []int, bracket []bool) {
	runs = openRuns(src, lines)
	for range maxUnclosed {
		s := runs[len(runs)-1].start
		if s < 0 || s+1 >= len(runs) {
			break
		}
		unclosed, bracket = append(unclosed, s), append(bracket, runs[len(runs)-1].bracket)
		tail := lines[s+1:]
		shifted := make([]int, len(tail))
		for i, p := range tail {
			shifted[i] = p - tail[0]
		}
		for i, run := range openRuns(src[tail[0]:], shifted) {
			if run.start >= 0 {
				run.start += s + 1
			}
			runs[s+1+i] = run
		}
	}
	return runs, unclosed, bracket
}

// blankRunaways returns a copy of src with each statement that opens a bracket left open to
// the end of the file blanked, up to where the statement should have ended (statementEnd),
// or nil if there is none. tree-sitter often recovers the definitions after such a bracket by
// itself, but reads the statements after it, to the end of the block, as part of the
// bracket: the observe calls after `self._data = {` being typed were lost, with the links
// they make. A statement that nothing follows but a def or class (or the end of the file)
// is left to the other repairs.
func blankRunaways(src []byte, lines []int) []byte {
	runs, unclosed, bracket := unclosedRuns(src, lines)
	b := &blanker{src: src, lines: lines, runs: runs}
	for i, s := range unclosed {
		if !bracket[i] || opensBlockOrImport(b.line(s)) {
			// a string: its lines may sit anywhere; a header (if f(x:, def f(a:) or an
			// import: the lines after it are its block or its names, which tree-sitter keeps
			// better as they are (review rev97: a broken if lost its whole block)
			continue
		}
		// also before an elif, else, except or finally: tree-sitter swallows that branch and
		// what follows (review rev98: 28 of 127 real charm.py files each broken before one lost
		// links when this was left to it); the broken statement's own facts go with it
		if end := b.statementEnd(s, b.nextHeader(s, len(lines))); end < len(lines) && !isHeader(b.line(end)) {
			b.blank(s, end)
		}
	}
	return b.out
}

// firstWord is the lower-case word a line starts with, after its indentation.
func firstWord(line []byte) []byte {
	word := bytes.TrimLeft(line, " \t")
	if i := bytes.IndexFunc(word, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }); i >= 0 {
		word = word[:i]
	}
	return word
}

// opensBlockOrImport reports a line that starts a compound statement (if, for, def, with ...)
// or an import.
func opensBlockOrImport(line []byte) bool {
	switch string(firstWord(line)) {
	// not match and case, soft keywords that name variables too (match = re.match(...: review
	// rev98)
	case "if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class", "async",
		"from", "import":
		return true
	}
	return false
}

// openRun says, for the start of one line, which unclosed bracket or string it is inside.
type openRun struct {
	start int // the row where the run opened, or -1 outside any
	// closedString: the run is a triple-quoted string that closes by the end of the range, so
	// the line is string content (a docstring quoting code), not swallowed code.
	closedString bool
	// quoted: the line is inside a triple-quoted string that closes (at any depth: code
	// quoted in textwrap.dedent("""...""") is text too), by the same test.
	quoted bool
	// bracket: the run opened with a bracket, not a triple-quoted string.
	bracket bool
}

// openRuns scans src as Python tokens (brackets, strings, comments) and returns for each
// row's start the run it is inside.
func openRuns(src []byte, lines []int) []openRun {
	runs := make([]openRun, len(lines))
	runs[0].start = -1
	end := len(src)
	depth, start, row := 0, -1, 0
	var quote byte
	triple, escaped, stringRun := false, false, false
	var stringRows []int // rows whose run is the current triple-quoted string
	var quotedRows []int // rows inside the current triple-quoted string, at any depth
	for p := 0; p < end; p++ {
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
					if !codeFollows(src[p+1 : end]) {
						for _, r := range quotedRows {
							runs[r].quoted = true
						}
						if stringRun && depth == 0 {
							for _, r := range stringRows {
								runs[r].closedString = true
							}
						}
					}
				}
				quote, stringRows, quotedRows = 0, stringRows[:0], quotedRows[:0]
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
		switch {
		case depth > 0 || quote != 0:
			runs[row].start, runs[row].bracket = start, !stringRun
			if quote != 0 && stringRun && depth == 0 {
				stringRows = append(stringRows, row)
			}
			if quote != 0 {
				quotedRows = append(quotedRows, row)
			}
		default:
			start, stringRun = -1, false
			runs[row].start = -1
		}
	}
	return runs
}
