package app

import (
	"encoding/json"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/rank"
)

// explainedFile is a file of the `map --explain --format json` document.
type explainedFile struct {
	Path    string
	Class   string
	Score   float64
	Signals []rank.Signal
}

func explainedMap(t *testing.T, o MapOptions) []explainedFile {
	t.Helper()
	o.Format = "json"
	out, _, err := runMap(t, o)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Files []explainedFile }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Files
}

func hasSignal(f explainedFile, name string) bool {
	for _, s := range f.Signals {
		if s.Name == name {
			return true
		}
	}
	return false
}

// wantSignals are the signals a file must carry by what it is: every file its PageRank, the
// charm's entry point the hub boost, vendored libraries and tests their penalties.
func wantSignals(f explainedFile) []string {
	want := []string{rank.SigPageRank}
	switch {
	case f.Class == rank.ClassSource && path.Base(f.Path) == "charm.py":
		want = append(want, rank.SigHub)
	case f.Class == rank.ClassLib:
		want = append(want, rank.SigLib)
	case f.Class == rank.ClassTest:
		want = append(want, rank.SigTest)
	}
	return want
}

func TestExplainJSON(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	o := MapOptions{Common: Common{Root: root, NoCache: true}, All: true, Explain: true}
	files := explainedMap(t, o)
	classes := map[string]bool{}
	for _, f := range files {
		classes[f.Class] = true
		for _, s := range wantSignals(f) {
			if !hasSignal(f, s) {
				t.Errorf("%s (%s): no %s signal in %+v", f.Path, f.Class, s, f.Signals)
			}
		}
	}
	for _, c := range []string{rank.ClassSource, rank.ClassLib, rank.ClassTest, rank.ClassYAML} {
		if !classes[c] {
			t.Errorf("the fixture has no %s file: the test proves less than it claims", c)
		}
	}

	o.Mention = []string{"the ingress relation forgets the port"}
	for _, f := range explainedMap(t, o) {
		if f.Path == "src/relations.py" && !hasSignal(f, rank.SigMentionInterface) {
			t.Errorf("src/relations.py handles the mentioned ingress relation, signals %+v", f.Signals)
		}
	}

	o.Explain = false
	for _, f := range explainedMap(t, o) {
		if len(f.Signals) > 0 {
			t.Errorf("%s has signals without --explain", f.Path)
		}
	}
}

// TestExplainText: in the text views, the line after each file's path lists its signals.
func TestExplainText(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	files := explainedMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, All: true, Explain: true})
	for _, view := range []string{"all", "full"} {
		o := MapOptions{Common: Common{Root: root, NoCache: true}, Tokens: DefaultTokens, Explain: true}
		o.All, o.Full = view == "all", view == "full"
		out, _, err := runMap(t, o)
		if err != nil {
			t.Fatal(err)
		}
		blocks := 0
		for _, f := range files {
			i := strings.Index("\n"+out, "\n"+f.Path+":\n") // the block starts at out[i]
			if i < 0 {
				continue
			}
			blocks++
			rest := out[i+len(f.Path)+2:]
			line, _, _ := strings.Cut(rest, "\n")
			if !strings.HasPrefix(line, "  # score=") {
				t.Errorf("%s view, %s: the line after the path is %q", view, f.Path, line)
			}
			for _, s := range wantSignals(f) {
				if !strings.Contains(line, " "+s+" ") {
					t.Errorf("%s view, %s: %q lacks %s", view, f.Path, line, s)
				}
			}
			checkArithmetic(t, line)
		}
		if blocks < 3 {
			t.Errorf("%s view shows only %d file blocks", view, blocks)
		}
		o.Explain = false
		plain, _, _ := runMap(t, o)
		if strings.Contains(plain, "# score=") {
			t.Errorf("%s view without --explain shows scores", view)
		}
	}
}

// explainFormula reads the formula of an explain line: the score, the PageRank term, the
// factors and the divisor.
var explainFormula = regexp.MustCompile(`^  # score=(\S+) = √pagerank (\S+)((?: × [a-z-]+ [0-9.e+-]+(?:\([^)]*\))?)*) ÷ (\S+) \(all files\)`)

// checkArithmetic checks that an explain line's formula gives its score: the PageRank term
// times the factors, divided by the sum, within the rounding of the printed values.
func checkArithmetic(t *testing.T, line string) {
	t.Helper()
	m := explainFormula.FindStringSubmatch(line)
	if m == nil {
		t.Errorf("no formula in %q", line)
		return
	}
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q in %q: %v", s, line, err)
		}
		return x
	}
	got := num(m[2]) / num(m[4])
	for _, f := range regexp.MustCompile(` × [a-z-]+ ([0-9.e+-]+)`).FindAllStringSubmatch(m[3], -1) {
		got *= num(f[1])
	}
	if want := num(m[1]); math.Abs(got-want) > 0.02*want { // printed to 3 digits: about 1% each way
		t.Errorf("%q: the formula gives %g, not the score %g", line, got, want)
	}
}
