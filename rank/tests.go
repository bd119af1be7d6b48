package rank

import (
	"path"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Test intents. A subject line that says only that tests change ("test: update unit tests",
// "Add unit tests", "Integration tests") names no code, yet such commits usually edit the
// module the new tests are written for, to make it testable, and a module gets new tests
// when it has none. With such a subject, the charm's source modules that define a function
// and that no test file imports or is named after rise (UntestedFactor): the tested ones and
// the constant-only ones (literals.py) stay where the graph puts them.

// testSubjectWords are the words a tests-only subject may have besides stopwords and a pull
// request number; testKinds say which tests ("unit tests", "integration-test"). Both hold
// stems, as the task's words do ("coverage" → "coverag").
var (
	testSubjectWords = stems("test", "itest", "unittest", "coverage", "missing")
	testKinds        = stems("unit", "integration", "int", "functional", "scenario", "e2e", "smoke")
	// fixWords: "Fix unit tests" repairs the tests of code that has them.
	fixWords = []string{"fix", "fixed", "fixes", "fixing"}
)

// stems is the set of the words' stems.
func stems(words ...string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[stem(w)] = true
	}
	return out
}

// testsOnly reports a subject line that says only that tests are added or updated.
func testsOnly(s subject) bool {
	if len(s.m.words) == 0 || len(s.m.paths) > 0 || s.m.hasAny(fixWords) ||
		!s.m.words["test"] && !s.m.words["itest"] && !s.m.words["unittest"] {
		return false
	}
	for w := range s.m.words {
		if !testSubjectWords[w] && !testKinds[w] && strings.Trim(w, "0123456789") != "" { // "(#110)": the pull request
			return false
		}
	}
	return true
}

// untested returns, when a subject line says only that tests change, the charm's source
// modules (not its published library, whose API its own tests pin) defining a function or
// method that no test file imports and no test file is named after (test_<name>.py,
// <name>_test.py). Nil otherwise, or when the tree has no tests.
func (r *ranker) untested() []int {
	if !slices.ContainsFunc(r.subjects, testsOnly) {
		return nil
	}
	tested := map[int]bool{}
	testNames := map[string]bool{}
	for i, n := range r.nodes {
		if n.class != ClassTest || n.py == nil {
			continue
		}
		for _, j := range r.modEdges[i] {
			tested[j] = true
		}
		base := strings.TrimSuffix(path.Base(n.path), ".py")
		if name, ok := strings.CutPrefix(base, "test_"); ok {
			testNames[name] = true
		} else if name, ok := strings.CutSuffix(base, "_test"); ok {
			testNames[name] = true
		}
	}
	if len(testNames) == 0 && len(tested) == 0 {
		return nil
	}
	var out []int
	for i, n := range r.nodes {
		if n.class != ClassSource || n.py == nil || isLibPath(n.path) || tested[i] || testNames[strings.TrimSuffix(path.Base(n.path), ".py")] {
			continue
		}
		if slices.ContainsFunc(n.py.Symbols, func(s pyextract.Symbol) bool {
			return s.Kind == pyextract.KindFunction || s.Kind == pyextract.KindMethod
		}) {
			out = append(out, i)
		}
	}
	return out
}
