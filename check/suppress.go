package check

import (
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

// directive starts a suppression comment.
const directive = "charmcraft-map: ignore"

// suppresses reports whether the comment of line (a source line) silences rule; alone
// reports whether the line holds nothing but that comment.
func suppresses(line, rule string) (ok, alone bool) {
	hash := strings.IndexByte(line, '#')
	if hash < 0 {
		return false, false
	}
	at := strings.Index(line[hash:], directive)
	if at < 0 {
		return false, false
	}
	alone = strings.TrimSpace(line[:hash]) == ""
	rest := line[hash+at+len(directive):]
	if !strings.HasPrefix(rest, "[") {
		// "ignore" alone, or followed by its reason ("ignore: kept on purpose"), not
		// "ignored" or "ignore-this"
		return rest == "" || !isNameByte(rest[0]), alone
	}
	list, _, closed := strings.Cut(rest[1:], "]")
	if !closed {
		return false, alone
	}
	return slices.ContainsFunc(strings.Split(list, ","), func(r string) bool { return strings.TrimSpace(r) == rule }), alone
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// silenced reports whether the source silences d: a directive on its line, or alone on the
// line above. lines returns a file's lines (nil when it cannot be read).
func silenced(d Diagnostic, lines func(file string) []string) bool {
	if lines == nil || d.File == "" || d.Line <= 0 {
		return false
	}
	ls := lines(d.File)
	if d.Line > len(ls) {
		return false
	}
	if ok, _ := suppresses(ls[d.Line-1], d.Rule); ok {
		return true
	}
	if d.Line > 1 {
		ok, alone := suppresses(ls[d.Line-2], d.Rule)
		return ok && alone
	}
	return false
}
