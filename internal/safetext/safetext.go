// Package safetext keeps text that comes from the tree (file names, YAML values, code) from
// acting on the terminal or the CI log that shows our output: a file named
// "x\n::error file=a::injected" must not print a line GitHub reads as a workflow command,
// and an escape sequence in a name must not recolour or move the user's terminal.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s with every control character (newlines, tabs, ESC, DEL, the C1 set), every
// bidirectional control (U+202E, which reverses what follows on the line) and the Unicode
// line and paragraph separators (U+2028, U+2029, which Python's str.splitlines and
// JavaScript split lines at: a value holding one must not start a line of its own in the
// map) written as its Go escape ("\n", "\x1b", "\u202e", "\u2028"), and every byte that is
// not UTF-8 as "\xe9"; s itself when it has none, the common case.
func Line(s string) string {
	if !strings.ContainsFunc(s, unsafe) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 { // a byte that is not UTF-8 (a latin-1 file name)
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
		}
		if unsafe(r) {
			q := strconv.QuoteRune(r) // "'\\x1b'"
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// Path returns p as a path is printed where a reader (or a program) splits the line by
// what it holds: Go-quoted when it would read as something else, p itself otherwise. A path
// is quoted when it holds a control character (a newline would print another file's name),
// a byte that is not UTF-8, or a backslash (`back\slash.py` would read as an escaped
// `back<BS>lash.py`), when it starts with a space of any kind or a byte-order mark (an
// indented line, which the views use for what belongs to a file) or a quote (a quoted path),
// and when it holds one of the separators its caller's line uses (seps).
func Path(p string, seps ...string) string {
	first, _ := utf8.DecodeRuneInString(p)
	quote := Line(p) != p || strings.ContainsRune(p, '\\') || unicode.IsSpace(first) || first == '\ufeff' || first == '"'
	for _, s := range seps {
		quote = quote || strings.Contains(p, s)
	}
	if quote {
		return strconv.Quote(p)
	}
	return p
}
