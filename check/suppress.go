package check

import (
	"regexp"
	"slices"
	"strings"
)

// Suppression. A charm may keep what a rule reports on purpose (a peer relation kept so
// that upgrades from an older charm do not fail), and a CI pipeline run with --strict must
// still pass. A comment on the reported line, or alone on the line above it, silences the
// finding, in the YAML and in the Python alike (both comment with '#'):
//
//	coordinator:  # charmcraft-map: ignore[unhandled-relation] kept for upgrades from < 1.29
//	# charmcraft-map: ignore
//	x = self.config["legacy"]
//
// A list in brackets silences those rules only; without one, every rule. The reason after it
// is for readers. Silenced findings leave the report and are counted in Summary.Suppressed.
// The directive counts only in a comment (comments.go): a Python string or a YAML value
// holding "# charmcraft-map: ignore" is data, and silences nothing.

// directive starts a suppression comment.
const directive = "charmcraft-map: ignore"

// suppresses reports whether the comment of line (a source line) silences rule; alone
// reports whether the line holds nothing but that comment.
func suppresses(line, rule string) (ok, alone bool) {
	m := directiveRE.FindStringSubmatchIndex(line)
	if m == nil {
		return false, false
	}
	alone = strings.TrimSpace(line[:m[0]]) == ""
	raw := line[m[1]:]
	if raw != "" && isNameByte(raw[0]) {
		return false, alone // "ignored", "ignore-this": not the directive
	}
	rest := strings.TrimLeft(raw, ": \t") // "ignore [rule]", "ignore: [rule]" name rules too
	if !strings.HasPrefix(rest, "[") {
		return true, alone // "ignore" alone, or with its reason ("ignore: kept on purpose")
	}
	list, _, closed := strings.Cut(rest[1:], "]")
	if !closed {
		return false, alone
	}
	return slices.ContainsFunc(strings.Split(list, ","), func(r string) bool { return strings.TrimSpace(r) == rule }), alone
}

// directiveRE is a '#' followed by the directive (the comment starts with it).
var directiveRE = regexp.MustCompile(`#\s*` + regexp.QuoteMeta(directive))

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// sources reads the suppression comments of the charm's files, each file once.
type sources struct {
	lines    func(file string) []string // a file's lines, nil when it cannot be read
	comments map[string]commented
}

// commented is a file's lines and where each one's comment starts (-1: none).
type commented struct {
	lines []string
	at    []int
}

// silenced reports whether the source silences d: a directive in the comment of its line,
// or in a comment alone on the line above.
func (s *sources) silenced(d Diagnostic) bool {
	if s.lines == nil || d.File == "" || d.Line <= 0 {
		return false
	}
	f, ok := s.comments[d.File]
	if !ok {
		f.lines = s.lines(d.File)
		// a CRLF file's lines end in "\r", which would hide a YAML block scalar's indicator
		// and a Python line's closing backslash from the lexer (rev91: text in a description
		// block silenced a finding)
		if slices.ContainsFunc(f.lines, func(l string) bool { return strings.HasSuffix(l, "\r") }) {
			f.lines = slices.Clone(f.lines) // the caller's lines stay as they are
			for i, l := range f.lines {
				f.lines[i] = strings.TrimSuffix(l, "\r")
			}
		}
		f.at = commentsOf(d.File, f.lines)
		if s.comments == nil {
			s.comments = map[string]commented{}
		}
		s.comments[d.File] = f
	}
	if d.Line > len(f.lines) {
		return false
	}
	// line i's comment silences d, alone on its line or not
	says := func(i int) (ok, alone bool) {
		if f.at[i] < 0 {
			return false, false
		}
		ok, _ = suppresses(f.lines[i][f.at[i]:], d.Rule)
		return ok, strings.TrimSpace(f.lines[i][:f.at[i]]) == ""
	}
	if ok, _ := says(d.Line - 1); ok {
		return true
	}
	if d.Line > 1 {
		ok, alone := says(d.Line - 2)
		return ok && alone
	}
	return false
}
