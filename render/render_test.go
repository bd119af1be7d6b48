package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/internal/pathtail"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/rank"
)

// --- hand-built results --------------------------------------------------------------------

func method(class, name string, score float64, line int) rank.Symbol {
	return rank.Symbol{Name: class + "." + name, Kind: "method", Qualifier: class, Line: line, Score: score,
		Signature: "def " + name + "(self) -> None:"}
}

// small is a ranked charm: the charm module, the YAML, a helper module, a vendored library.
func small() rank.Result {
	return rank.Result{Files: []rank.File{
		{Path: "src/charm.py", Class: rank.ClassSource, Score: 0.5, Signals: []rank.Signal{{Name: "hub-entrypoint", Kind: rank.SignalFactor, Value: 3}, {Name: "pagerank", Kind: rank.SignalBase, Value: 0.125},
			{Name: "mention-ident", Kind: rank.SignalSeed, Value: 0.4, Note: "render_config"}, {Name: "link-handler", Kind: rank.SignalCount, Value: 1},
			{Name: "score-sum", Kind: rank.SignalDivisor, Value: 2.12}}, Symbols: []rank.Symbol{
			{Name: "DemoCharm", Kind: "class", Line: 10, Score: 9, Signature: "class DemoCharm(ops.CharmBase):"},
			method("DemoCharm", "_on_database_created", 5, 40),
			method("DemoCharm", "__init__", 4, 12),
			{Name: "main", Kind: "function", Line: 90, Score: 2, Signature: "def main():"},
			method("DemoCharm", "_helper", 1, 80),
		}},
		{Path: "metadata.yaml", Class: rank.ClassYAML, Score: 0.3, Symbols: []rank.Symbol{
			{Name: "database", Kind: "relation", Line: 7, Score: 3, Signature: "[relation] database (requires postgresql_client)",
				Links: []string{"DatabaseHandler._on_database_created"}},
			{Name: "app", Kind: "container", Line: 12, Score: 1, Signature: "[container] app (resource app-image)"},
		}},
		{Path: "src/helpers.py", Class: rank.ClassSource, Score: 0.15, Symbols: []rank.Symbol{
			{Name: "render_config", Kind: "function", Line: 3, Score: 2, Signature: "def render_config(port: int) -> str:"},
		}},
		{Path: "src/empty.py", Class: rank.ClassSource, Score: 0.04},
		{Path: "lib/charms/x/v0/x.py", Class: rank.ClassLib, Score: 0.01, Symbols: []rank.Symbol{
			{Name: "X", Kind: "class", Line: 1, Score: 3, Signature: "class X:"},
		}},
	}}
}

func mustRender(t testing.TB, r rank.Result, opt Options) Output {
	t.Helper()
	out, err := Render(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// --- formats --------------------------------------------------------------------------------

func TestCompactView(t *testing.T) {
	out := mustRender(t, small(), Options{Tokens: 1500})
	want := "src/charm.py \u2014 DemoCharm, +4 more\n" +
		"metadata.yaml \u2014 [relation] database, +1 more\n" +
		"src/helpers.py \u2014 render_config\n" +
		"lib/charms/x/v0/x.py \u2014 X\n"
	if out.Text != want {
		t.Errorf("compact view:\n%s\nwant:\n%s", out.Text, want)
	}
	if !out.Shown["src/charm.py"] || out.Shown["src/empty.py"] || !out.ShownSymbols["src/charm.py"][0] || out.ShownSymbols["src/charm.py"][1] {
		t.Errorf("shown = %v %v", out.Shown, out.ShownSymbols)
	}
	out = mustRender(t, small(), Options{Tokens: 1500, Top: 2})
	if strings.Count(out.Text, "\n") != 2 {
		t.Errorf("--top 2:\n%s", out.Text)
	}
	// The budget cuts the list at a line end, never inside a line.
	n, _ := Count("src/charm.py \u2014 DemoCharm, +4 more\n", TokCL100k)
	out = mustRender(t, small(), Options{Tokens: n + 3})
	if out.Text != "src/charm.py \u2014 DemoCharm, +4 more\n" {
		t.Errorf("compact under a tight budget: %q", out.Text)
	}
}

func TestFullView(t *testing.T) {
	out := mustRender(t, small(), Options{View: ViewFull, Tokens: 1500})
	want := `src/charm.py:
  class DemoCharm(ops.CharmBase):
    def _on_database_created(self) -> None:
    def __init__(self) -> None:
    def _helper(self) -> None:
  def main():
metadata.yaml:
  [relation] database (requires postgresql_client) -> DatabaseHandler._on_database_created
  [container] app (resource app-image)
src/helpers.py:
  def render_config(port: int) -> str:
lib/charms/x/v0/x.py:
  class X:
more files:
  src/empty.py
`
	if out.Text != want {
		t.Errorf("full view:\n%s\nwant:\n%s", out.Text, want)
	}
	if out.UsedTokens == 0 || out.EffectiveTokens != 1500 {
		t.Errorf("used %d effective %d", out.UsedTokens, out.EffectiveTokens)
	}
}

func TestBookkeepingNeverSpendsTheBudget(t *testing.T) {
	// A library's LIBID, LIBAPI and LIBPATCH (rank's lib-bookkeeping) are left out of the
	// budgeted view, whatever the budget, and listed by --all (review rev110).
	book := []rank.Signal{{Name: rank.SigSymBookkeeping, Kind: rank.SignalFactor, Value: 0.05}}
	r := rank.Result{Files: []rank.File{{Path: "lib/charms/x/v0/x.py", Score: 1, Class: rank.ClassLib, Symbols: []rank.Symbol{
		{Name: "XRequires", Kind: "class", Signature: "class XRequires:", Line: 9, Score: 2},
		{Name: "LIBID", Kind: "constant", Signature: `LIBID = "0123"`, Line: 1, Score: 0.05, Signals: book},
		{Name: "LIBAPI", Kind: "constant", Signature: "LIBAPI = 0", Line: 2, Score: 0.05, Signals: book},
		{Name: "helper", Kind: "function", Signature: "def helper():", Line: 20, Score: 0.01},
	}}}}
	full := mustRender(t, r, Options{View: ViewFull, Tokens: 1500}).Text
	if want := "lib/charms/x/v0/x.py:\n  class XRequires:\n  def helper():\n"; full != want {
		t.Errorf("full view:\n%s\nwant:\n%s", full, want)
	}
	if all := mustRender(t, r, Options{View: ViewAll}).Text; !strings.Contains(all, "LIBID") || !strings.Contains(all, "LIBAPI") {
		t.Errorf("--all left bookkeeping out:\n%s", all)
	}
}

func TestSecondaryDefinitionsNeverSpendTheBudget(t *testing.T) {
	// A property's setter and an @overload stub (rank's secondary-def) are left out of the
	// budgeted views and listed by --all (review rev111).
	second := []rank.Signal{{Name: rank.SigSymSecondary, Kind: rank.SignalFactor, Value: 0.05, Note: "setter"}}
	r := rank.Result{Files: []rank.File{{Path: "src/charm.py", Score: 1, Class: rank.ClassSource, Symbols: []rank.Symbol{
		{Name: "C", Kind: "class", Signature: "class C:", Line: 1, Score: 3},
		{Name: "C.port", Kind: "method", Qualifier: "C", Signature: "@property def port(self):", Line: 2, Score: 1},
		{Name: "C.port", Kind: "method", Qualifier: "C", Signature: "@port.setter def port(self, v):", Line: 5, Score: 0.05, Signals: second},
	}}}}
	want := "src/charm.py:\n  class C:\n    @property def port(self):\n"
	if full := mustRender(t, r, Options{View: ViewFull, Tokens: 1500}).Text; full != want {
		t.Errorf("full view:\n%s\nwant:\n%s", full, want)
	}
	if all := mustRender(t, r, Options{View: ViewAll}).Text; !strings.Contains(all, "@port.setter") {
		t.Errorf("--all left the setter out:\n%s", all)
	}
}

func TestFullViewNestsMethodsUnderTheirClass(t *testing.T) {
	// A method more important than its class brings the class line along as its context, and
	// a class shown in part ends with "…" (an enum's or a field list's first members would
	// read as all of them).
	r := rank.Result{Files: []rank.File{{Path: "a.py", Score: 1, Symbols: []rank.Symbol{
		method("Handler", "on_event", 9, 20),
		{Name: "helper", Kind: "function", Score: 5, Line: 50, Signature: "def helper():"},
		{Name: "Handler", Kind: "class", Score: 1, Line: 10, Signature: "class Handler:"},
		method("Handler", "other", 0.5, 30),
	}}}}
	const partial = "a.py:\n  class Handler:\n    def on_event(self) -> None:\n    …\n"
	n, _ := Count(partial, TokCL100k)
	out := mustRender(t, r, Options{View: ViewFull, Tokens: n})
	if out.Text != partial {
		t.Errorf("method without its class, or no sign of the rest: %q", out.Text)
	}
	if !out.ShownSymbols["a.py"][2] || !out.ShownSymbols["a.py"][0] || out.ShownSymbols["a.py"][1] {
		t.Errorf("shown symbols = %v", out.ShownSymbols)
	}
	out = mustRender(t, r, Options{View: ViewAll})
	want := "a.py:\n  class Handler:\n    def on_event(self) -> None:\n    def other(self) -> None:\n  def helper():\n"
	if out.Text != want {
		t.Errorf("all view:\n%s\nwant:\n%s", out.Text, want)
	}
}

func TestYAMLLinksAndOneLineValues(t *testing.T) {
	r := rank.Result{Files: []rank.File{{Path: "charmcraft.yaml", Class: rank.ClassYAML, Score: 1, Symbols: []rank.Symbol{
		{Name: "db", Kind: "relation", Signature: "[relation] db (requires pg)", Links: []string{"A.a", "A.b", "C.c", "D.d", "E.e"}},
		{Name: "motd", Kind: "config-option", Signature: "[config] motd (string, default \"hi\nthere\")"},
		{Name: "ssh", Kind: "relation", Signature: "[relation] ssh (provides ssh)", Links: []string{"ssh.Observer.a", "ssh.Observer.b", "tls.Observer.c"}},
	}}}}
	out := mustRender(t, r, Options{View: ViewAll})
	want := "charmcraft.yaml:\n  [relation] db (requires pg) -> A.a, .b, C.c, +2 more\n  [config] motd (string, default \"hi there\")\n" +
		"  [relation] ssh (provides ssh) -> ssh.Observer.a, .b, tls.Observer.c\n"
	if out.Text != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.Text, want)
	}
}

func TestLongLinesClipped(t *testing.T) {
	long := "LOCALES = [" + strings.Repeat(`"aa_DJ", `, 40) + "]"
	sig := "def configure(" + strings.Repeat("option_name: str = 'x', ", 20) + "):"
	r := rank.Result{Files: []rank.File{{Path: "src/locales.py", Score: 1, Symbols: []rank.Symbol{
		{Name: "LOCALES", Kind: "constant", Signature: long}, {Name: "configure", Kind: "function", Signature: sig}}}}}
	lines := strings.Split(mustRender(t, r, Options{View: ViewAll}).Text, "\n")
	if got := []rune(lines[1]); len(got) != 2+maxConstantChars || got[len(got)-1] != '…' {
		t.Errorf("constant line %q", lines[1])
	}
	if got := []rune(lines[2]); len(got) != 2+maxLineChars || got[len(got)-1] != '…' {
		t.Errorf("signature line %q", lines[2])
	}
}

func TestLongDecoratorsClippedBeforeTheHeader(t *testing.T) {
	// a definition's line too long for its decorators loses decorator text, never its name
	sig := "@when('install def flag', " + strings.Repeat("'flag.x', ", 30) + ") def start_master(etcd):"
	r := rank.Result{Files: []rank.File{{Path: "reactive/m.py", Score: 1, Symbols: []rank.Symbol{
		{Name: "start_master", Kind: "function", Signature: sig}}}}}
	lines := strings.Split(mustRender(t, r, Options{View: ViewAll}).Text, "\n")
	if got := []rune(lines[1]); len(got) != 2+maxLineChars || !strings.HasSuffix(lines[1], "… def start_master(etcd):") {
		t.Errorf("signature line %q", lines[1])
	}
}

func TestExplain(t *testing.T) {
	out := mustRender(t, small(), Options{View: ViewFull, Tokens: 1500, Explain: true})
	if !strings.Contains(out.Text, "src/charm.py:\n  # score=0.5 = √pagerank 0.354 × hub-entrypoint 3 ÷ 2.12 (all files); pagerank 0.125, restarts at mention-ident 0.4 (render_config); link-handler 1\n  class DemoCharm") {
		t.Errorf("explain line missing:\n%s", out.Text)
	}
	out = mustRender(t, small(), Options{Tokens: 1500, Explain: true})
	if !strings.HasPrefix(out.Text, "src/charm.py \u2014 DemoCharm, +4 more\n  # score=0.5 ") {
		t.Errorf("compact explain:\n%s", out.Text)
	}
}

func TestFocusedFilesNotRendered(t *testing.T) {
	for _, view := range []string{ViewCompact, ViewFull} {
		out := mustRender(t, small(), Options{View: view, Tokens: 1500, Focus: []string{"./src/charm.py"}})
		if strings.Contains(out.Text, "src/charm.py") || out.Shown["src/charm.py"] || !out.Shown["metadata.yaml"] {
			t.Errorf("%s view shows the focused file:\n%s", view, out.Text)
		}
	}
	r := small()
	r.Files[1].Focused = true
	if out := mustRender(t, r, Options{View: ViewFull, Tokens: 1500}); strings.Contains(out.Text, "metadata.yaml") {
		t.Error("rank's Focused flag ignored")
	}
	if out := mustRender(t, r, Options{View: ViewAll, Focus: []string{"src/charm.py"}}); !strings.Contains(out.Text, "src/charm.py:") ||
		!strings.Contains(out.Text, "metadata.yaml:") || !strings.Contains(out.Text, "src/empty.py:\n") {
		t.Errorf("--all must show every file:\n%s", out.Text)
	}
}

func TestPressureAndZeroBudget(t *testing.T) {
	r := randomResult(rand.New(rand.NewPCG(1, 2)), 200)
	full := mustRender(t, r, Options{View: ViewFull, Tokens: 1500})
	half := mustRender(t, r, Options{View: ViewFull, Tokens: 1500, Pressure: 0.85})
	if half.EffectiveTokens != 750 || half.UsedTokens > 750 || half.UsedTokens < 700 || full.UsedTokens < 1400 {
		t.Errorf("pressure 0.85: effective %d used %d (unpressured %d)", half.EffectiveTokens, half.UsedTokens, full.UsedTokens)
	}
	for _, opt := range []Options{{View: ViewFull, Tokens: 1500, Pressure: 0.96}, {View: ViewFull, Tokens: 1500, Pressure: 0.95},
		{Tokens: 1500, Pressure: 1}, {View: ViewFull}, {}} {
		out := mustRender(t, r, opt)
		if out.Text != "" || out.UsedTokens != 0 || out.EffectiveTokens != 0 || len(out.Shown) != 0 {
			t.Errorf("%+v printed %d tokens", opt, out.UsedTokens)
		}
	}
	if got := EffectiveTokens(1500, 0.79999); got != 1500 {
		t.Errorf("EffectiveTokens below the threshold = %d", got)
	}
	if got := EffectiveTokens(1501, 0.8); got != 750 {
		t.Errorf("EffectiveTokens at the threshold = %d", got)
	}
}

func TestAllIgnoresBudget(t *testing.T) {
	r := randomResult(rand.New(rand.NewPCG(3, 4)), 50)
	out := mustRender(t, r, Options{View: ViewAll, Tokens: 10, Pressure: 0.99})
	if !out.Unbounded || out.EffectiveTokens != out.UsedTokens || out.UsedTokens <= 10 {
		t.Errorf("--all budget: unbounded %v, effective %d, used %d", out.Unbounded, out.EffectiveTokens, out.UsedTokens)
	}
	syms := 0
	for _, f := range r.Files {
		syms += len(f.Symbols)
		if !strings.Contains(out.Text, pathLine(f.Path)+":\n") {
			t.Errorf("%s missing from --all", f.Path)
		}
	}
	if got := strings.Count(out.Text, "\n"); got != syms+len(r.Files) {
		t.Errorf("--all has %d lines, want %d", got, syms+len(r.Files))
	}
	if out.UsedTokens <= 10 {
		t.Errorf("--all used %d tokens", out.UsedTokens)
	}
}

func TestBadOptions(t *testing.T) {
	for _, opt := range []Options{{View: "tree"}, {Tokenizer: "gpt2"}, {Tokens: -1}, {Pressure: 1.5}, {Pressure: -0.1}, {Top: -2}} {
		if _, err := Render(small(), opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}

func TestBodyEditLeavesTextUnchanged(t *testing.T) {
	// A body edit moves the lines of later definitions and nothing else: the text is the same.
	a := small()
	b := small()
	for i := range b.Files {
		for j := range b.Files[i].Symbols {
			b.Files[i].Symbols[j].Line += 7
		}
	}
	for _, view := range []string{ViewCompact, ViewFull, ViewAll} {
		if x, y := mustRender(t, a, Options{View: view, Tokens: 1500}).Text, mustRender(t, b, Options{View: view, Tokens: 1500}).Text; x != y {
			t.Errorf("%s view changed:\n%s\n%s", view, x, y)
		}
	}
}

func TestBodyEditThroughRank(t *testing.T) {
	// The same tree before and after an edit inside a function body: later definitions move
	// down, the file grows, a local name is used more. Rank and the full view are unchanged.
	tree := func(shift, localUses int) rank.Input {
		sym := func(name, kind, qual string, line int) pyextract.Symbol {
			return pyextract.Symbol{Name: name, Kind: kind, Qualifier: qual, Line: line, EndLine: line + 3, Signature: "def " + name + "(self):"}
		}
		return rank.Input{Files: []pyextract.File{
			{Path: "src/charm.py", Lines: 100 + shift, Symbols: []pyextract.Symbol{
				{Name: "Shop", Kind: "class", Line: 5, Signature: "class Shop(ops.CharmBase):"},
				sym("Shop._on_start", "method", "Shop", 10), sym("Shop._on_stop", "method", "Shop", 30+shift), sym("Shop._tidy", "method", "Shop", 50+shift)},
				Refs: []pyextract.Ref{{Name: "helper_function", Count: 2}, {Name: "tmp", Count: 1 + localUses}}},
			{Path: "src/helpers.py", Lines: 20, Symbols: []pyextract.Symbol{{Name: "helper_function", Kind: "function", Line: 1, Signature: "def helper_function():"}}},
		}}
	}
	before := mustRender(t, rank.Rank(tree(0, 0)), Options{View: ViewFull, Tokens: 1500})
	after := mustRender(t, rank.Rank(tree(7, 3)), Options{View: ViewFull, Tokens: 1500})
	if before.Text != after.Text || before.Text == "" {
		t.Errorf("a body edit changed the map:\n%s\n---\n%s", before.Text, after.Text)
	}
}

// --- the budget, as properties ----------------------------------------------------------------

var words = []string{"self", "event", "relation", "config", "data", "str", "int", "None", "Optional[dict[str, Any]]",
	"ops.CharmBase", "é", "naïve", "—", "数据库", "🚀", "  ", "=", "'x'", "\"quoted\"", "0.85", "1234567", "::", "->", "\t"}

func randomText(rnd *rand.Rand, n int) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 && rnd.IntN(3) > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(words[rnd.IntN(len(words))])
		if rnd.IntN(60) == 0 {
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// randomResult makes a ranked tree of n files with classes, methods, functions and YAML
// interfaces whose lines vary from a few tokens to a few dozen.
func randomResult(rnd *rand.Rand, n int) rank.Result {
	var r rank.Result
	score := 1.0
	for i := range n {
		score *= 0.5 + rnd.Float64()/2
		f := rank.File{Path: fmt.Sprintf("src/pkg%d/mod_%s_%d.py", i%7, strings.ReplaceAll(randomText(rnd, 1), "\n", ""), i), Score: score}
		if rnd.IntN(10) == 0 {
			f.Path, f.Class = fmt.Sprintf("charm%d/metadata.yaml", i), rank.ClassYAML
			for k := range rnd.IntN(12) {
				f.Symbols = append(f.Symbols, rank.Symbol{Name: fmt.Sprintf("endpoint-%d", k), Kind: "relation",
					Signature: "[relation] endpoint (" + randomText(rnd, 2) + ")", Links: []string{"A.b", "C.d"}[:rnd.IntN(3)]})
			}
		} else {
			for c := range rnd.IntN(4) {
				cls := fmt.Sprintf("Class%d", c)
				f.Symbols = append(f.Symbols, rank.Symbol{Name: cls, Kind: "class", Signature: "class " + cls + "(" + randomText(rnd, 1) + "):"})
				for m := range rnd.IntN(15) {
					f.Symbols = append(f.Symbols, rank.Symbol{Name: fmt.Sprintf("%s.m%d", cls, m), Kind: "method", Qualifier: cls,
						Signature: fmt.Sprintf("def m%d(%s):", m, randomText(rnd, rnd.IntN(14)))})
				}
			}
			for k := range rnd.IntN(4) {
				f.Symbols = append(f.Symbols, rank.Symbol{Name: fmt.Sprintf("f%d", k), Kind: "function",
					Signature: fmt.Sprintf("def f%d(%s) -> %s:", k, randomText(rnd, rnd.IntN(8)), randomText(rnd, 1))})
			}
		}
		rnd.Shuffle(len(f.Symbols), func(a, b int) { f.Symbols[a], f.Symbols[b] = f.Symbols[b], f.Symbols[a] })
		r.Files = append(r.Files, f)
	}
	return r
}

func checkBudget(t *testing.T, r rank.Result, opt Options) Output {
	t.Helper()
	out := mustRender(t, r, opt)
	n, err := Count(out.Text, opt.Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	eff := EffectiveTokens(opt.Tokens, opt.Pressure)
	if n > eff || out.UsedTokens != n || out.EffectiveTokens != eff {
		t.Fatalf("%+v: text has %d tokens (reported %d), budget %d", opt, n, out.UsedTokens, eff)
	}
	return out
}

func TestBudgetNeverExceeded(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 13))
	budgets := []int{1, 2, 3, 5, 8, 13, 20, 50, 100, 333, 1000, 1500, 2999, 3000}
	for range 40 {
		budgets = append(budgets, 1+rnd.IntN(3000))
	}
	for trial := range 12 {
		r := randomResult(rnd, 1+rnd.IntN(120))
		for _, tok := range []string{TokCL100k, TokO200k, TokChars4} {
			for _, b := range budgets {
				for _, view := range []string{ViewFull, ViewCompact} {
					opt := Options{View: view, Tokens: b, Tokenizer: tok, Explain: trial%3 == 0, Top: 1 + rnd.IntN(30)}
					if trial%4 == 1 {
						opt.Pressure = 0.8 + rnd.Float64()*0.2
					}
					checkBudget(t, r, opt)
				}
			}
		}
	}
}

func TestBudgetFilled(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	for trial := range 10 {
		r := randomResult(rnd, 150)
		all, _ := Count(mustRender(t, r, Options{View: ViewAll}).Text, TokCL100k)
		for _, tok := range []string{TokCL100k, TokO200k, TokChars4} {
			for _, b := range []int{100, 300, 700, 1000, 1500, 2200, 3000} {
				if all < 2*b {
					continue
				}
				opt := Options{View: ViewFull, Tokens: b, Tokenizer: tok, Explain: trial%2 == 0}
				out := checkBudget(t, r, opt)
				if fill := float64(out.UsedTokens) / float64(b); b >= 500 && fill < 0.95 {
					t.Errorf("trial %d %s budget %d: used %d (%.1f%%)", trial, tok, b, out.UsedTokens, 100*fill)
				}
				checkMaximal(t, r, opt, out)
			}
		}
	}
}

// checkMaximal asserts that no line the full view could add next fits in what is left of the
// budget: the next symbol of a shown file, or the header and first symbol of another file;
// when the view closes with a "more files:" list, the path of the next file neither shown nor
// listed.
func checkMaximal(t *testing.T, r rank.Result, opt Options, out Output) {
	t.Helper()
	c, _ := newCounter(opt.Tokenizer, nil)
	left := out.EffectiveTokens*c.perToken - c.units(out.Text)
	if strings.Contains(out.Text, "\nmore files:\n") || strings.HasPrefix(out.Text, "more files:\n") {
		for _, f := range listable(r, nil) { // the first file neither shown nor listed must not fit
			if out.Shown[f.Path] {
				continue
			}
			if line := "  " + pathLine(f.Path) + "\n"; c.units(line) <= left {
				t.Errorf("%s budget %d: %d units left, yet %s is not listed (costs %d)", opt.Tokenizer, opt.Tokens, left, f.Path, c.units(line))
			}
			return
		}
		return
	}
	for i := range r.Files {
		v := newFileView(&r.Files[i], opt.Explain)
		shown := out.ShownSymbols[v.f.Path]
		k := 0
		for shown[k] {
			k++
		}
		if k == len(v.lines) {
			continue
		}
		cost := 0
		if k == 0 {
			cost = v.headUnits(c)
		}
		for a := k; a >= 0 && !shown[a]; a = v.parent[a] {
			cost += v.lineUnits(c, a)
		}
		if cost <= left {
			t.Errorf("%s budget %d: %d units left, yet %s symbol %d costs %d", opt.Tokenizer, opt.Tokens, left, v.f.Path, k, cost)
			return
		}
	}
}

func TestFullViewBreadth(t *testing.T) {
	// With a budget for a few dozen lines, the top file does not take it all: the next files
	// show their leading symbols too, and every shown file shows a prefix of its symbols.
	r := randomResult(rand.New(rand.NewPCG(9, 9)), 60)
	out := mustRender(t, r, Options{View: ViewFull, Tokens: 800})
	if len(out.Shown) < 5 {
		t.Errorf("only %d files shown", len(out.Shown))
	}
	for _, f := range r.Files {
		idx := out.ShownSymbols[f.Path]
		k := 0
		for idx[k] {
			k++
		}
		for j := k; j < len(f.Symbols); j++ {
			if idx[j] && f.Symbols[j].Kind != "class" { // only enclosing classes may follow the prefix
				t.Errorf("%s: symbol %d shown after a gap at %d", f.Path, j, k)
			}
		}
	}
}

func TestMapJSON(t *testing.T) {
	r := small()
	out := mustRender(t, r, Options{View: ViewFull, Tokens: 40})
	b, err := MapJSON(r, out, MapMeta{Root: "/tmp/charm", Tokens: 40, Tokenizer: "cl100k", Charms: []CharmRef{{Name: "demo", Dir: "."}}})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{`"schema_version": 1`, `"root"`, `"budget"`, `"tokens": 40`, `"pressure"`, `"effective_tokens": 40`,
		`"used_tokens"`, `"tokenizer": "cl100k"`, `"charms"`, `"files"`, `"path": "src/charm.py"`, `"score"`, `"shown"`,
		`"symbols"`, `"name"`, `"kind"`, `"qualifier"`, `"signature"`, `"line"`, `"text"`}
	last := -1
	for _, k := range keys {
		i := strings.Index(string(b[last+1:]), k)
		if i < 0 {
			t.Fatalf("%s missing or out of order in\n%s", k, b)
		}
		last += i + 1
	}
	var doc struct {
		Files []struct {
			Path    string
			Shown   bool
			Symbols []struct{ Shown bool }
		}
		Text string
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Files {
		got = append(got, f.Path)
		if f.Shown != (strings.Contains(doc.Text, f.Path+":\n") || strings.Contains(doc.Text, "\n  "+f.Path+"\n")) {
			t.Errorf("%s: shown=%v but text is\n%s", f.Path, f.Shown, doc.Text)
		}
	}
	if !slices.Equal(got, []string{"src/charm.py", "metadata.yaml", "src/helpers.py", "src/empty.py", "lib/charms/x/v0/x.py"}) {
		t.Errorf("files = %v", got)
	}
	if !doc.Files[0].Symbols[0].Shown || doc.Files[0].Symbols[4].Shown {
		t.Errorf("symbol shown flags: %+v", doc.Files[0].Symbols)
	}
	if strings.Contains(string(b), `\u003e`) {
		t.Error("HTML escaping in JSON")
	}
	empty, _ := MapJSON(rank.Result{}, Output{}, MapMeta{})
	if !strings.Contains(string(empty), `"charms": []`) || !strings.Contains(string(empty), `"files": []`) {
		t.Errorf("empty lists must be [] not null:\n%s", empty)
	}
}

func FuzzFit(f *testing.F) {
	f.Add("src/charm.py", "class A:\ndef b(self):", 50, uint8(0), uint8(1))
	f.Add("é/数据库.py", "🚀 ->  \t x", 3, uint8(2), uint8(0))
	f.Fuzz(func(t *testing.T, path, sigs string, budget int, tok, view uint8) {
		budget = budget % 4000
		if budget < 0 {
			budget = -budget
		}
		var r rank.Result
		for i, p := range strings.Split(path, "/") {
			fl := rank.File{Path: p + fmt.Sprint(i), Score: 1 / float64(i+1)}
			for j, s := range strings.Split(sigs, ":") {
				fl.Symbols = append(fl.Symbols, rank.Symbol{Name: fmt.Sprint("s", j), Kind: []string{"class", "method"}[j%2],
					Qualifier: []string{"", "s0"}[j%2], Signature: s, Links: strings.Fields(s)})
			}
			r.Files = append(r.Files, fl)
		}
		opt := Options{View: []string{ViewFull, ViewCompact}[view%2], Tokens: budget,
			Tokenizer: []string{TokCL100k, TokO200k, TokChars4}[tok%3], Explain: view%4 > 1}
		out := mustRender(t, r, opt)
		if n, _ := Count(out.Text, opt.Tokenizer); n > budget {
			t.Fatalf("%d tokens over a budget of %d:\n%q", n, budget, out.Text)
		}
	})
}

// --- benchmarks -------------------------------------------------------------------------------

func BenchmarkRenderFull1500(b *testing.B) {
	r := randomResult(rand.New(rand.NewPCG(1, 1)), 300)
	mustRender(b, r, Options{View: ViewFull, Tokens: 1500}) // load the codec
	for b.Loop() {
		mustRender(b, r, Options{View: ViewFull, Tokens: 1500})
	}
}

func BenchmarkCount6KB(b *testing.B) {
	text := mustRender(b, randomResult(rand.New(rand.NewPCG(1, 1)), 300), Options{View: ViewAll}).Text[:6000]
	Count(text, TokCL100k)
	for b.Loop() {
		Count(text, TokCL100k)
	}
}

// TestTokenMemo: a memo filled by one render serves every count of the same render later
// (nothing is counted again, and the output is the same), its counts are the ones used (a
// memo that says otherwise changes the fitting), and malformed bytes load as an empty memo.
func TestTokenMemo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	r := randomResult(rnd, 60)
	for _, tok := range []string{TokCL100k, TokO200k} {
		opt := Options{View: ViewFull, Tokens: 400, Tokenizer: tok}
		want := mustRender(t, r, opt)
		opt.TokenMemo = LoadTokenMemo(nil)
		if got := mustRender(t, r, opt); got.Text != want.Text || got.UsedTokens != want.UsedTokens {
			t.Fatalf("%s: a render filling the memo differs", tok)
		}
		saved := opt.TokenMemo.Bytes()
		opt.TokenMemo = LoadTokenMemo(saved)
		if got := mustRender(t, r, opt); got.Text != want.Text || got.UsedTokens != want.UsedTokens {
			t.Fatalf("%s: a render from the memo differs", tok)
		}
		if again := opt.TokenMemo.Bytes(); !bytes.Equal(again, saved) {
			t.Fatalf("%s: the second render counted texts the first did not", tok)
		}
		damaged := slices.Clone(saved)
		damaged[len(damaged)/2] ^= 1
		if m := LoadTokenMemo(damaged); len(m.old) != 0 {
			t.Fatalf("%s: a damaged memo loaded %d counts", tok, len(m.old))
		}
		// Twice every count: the memo, not the tokenizer, decides what fits.
		inflated := LoadTokenMemo(saved)
		for k, n := range inflated.old {
			inflated.old[k] = 2 * n
		}
		opt.TokenMemo = inflated
		if got := mustRender(t, r, opt); len(got.Text) >= len(want.Text) {
			t.Fatalf("%s: counts from the memo not used (%d bytes, %d without)", tok, len(got.Text), len(want.Text))
		}
	}
	for _, b := range [][]byte{{1, 2, 3}, bytes.Repeat([]byte{0xff}, 40)} {
		if m := LoadTokenMemo(b); len(m.old) != 0 {
			t.Errorf("malformed memo %x loaded %d counts", b, len(m.old))
		}
	}
	// Counts remembered by another version of the tokenizer library are not used: it may
	// count differently.
	opt := Options{View: ViewFull, Tokens: 400, Tokenizer: TokCL100k, TokenMemo: LoadTokenMemo(nil)}
	mustRender(t, r, opt)
	saved := opt.TokenMemo.Bytes()
	defer func(f func() string) { tokenizerModule = f }(tokenizerModule)
	tokenizerModule = func() string { return "v9.9.9 h1:other" }
	opt.TokenMemo = LoadTokenMemo(saved)
	mustRender(t, r, opt)
	if len(opt.TokenMemo.used) == 0 || slices.ContainsFunc(slices.Collect(maps.Keys(opt.TokenMemo.used)), func(k tokenKey) bool {
		_, old := opt.TokenMemo.old[k]
		return old
	}) {
		t.Error("a count remembered by another tokenizer version was used")
	}
}

func TestCopiesShownOnce(t *testing.T) {
	// A module's copies (rank.File.Copies) are named by the folder each adds, after its path
	// and never printed as files of their own; the JSON lists them as shown where the text
	// names them.
	const src = "vault-package/vault/facade.py"
	copies := []string{"k8s/.vendored/vault-package/vault/facade.py", "machine/.vendored/vault-package/vault/facade.py"}
	syms := []rank.Symbol{{Name: "JujuFacade", Kind: "class", Line: 3, Score: 2, Signature: "class JujuFacade:"}}
	r := rank.Result{Files: []rank.File{
		{Path: src, Class: rank.ClassOther, Score: 0.6, Symbols: syms, Copies: copies},
		{Path: copies[0], Class: rank.ClassSource, CopyOf: src, Symbols: syms},
		{Path: copies[1], Class: rank.ClassSource, CopyOf: src, Symbols: syms},
		{Path: "k8s/src/charm.py", Class: rank.ClassSource, Score: 0.4, Symbols: []rank.Symbol{{Name: "VaultCharm", Kind: "class", Line: 1, Score: 1, Signature: "class VaultCharm:"}}},
	}}
	// the compact line says it after the symbols, so that what comes before " — " is the path
	// (CONTRACT §1); a block's first line is the path and a colon alone (CONTRACT §2), and the
	// copies follow on a comment line
	head := map[string]string{ViewCompact: src + " — JujuFacade (also under k8s/.vendored/, machine/.vendored/)\n",
		ViewFull: src + ":\n  # also under k8s/.vendored/, machine/.vendored/\n", ViewAll: src + ":\n  # also under k8s/.vendored/, machine/.vendored/\n"}
	for _, v := range []string{ViewCompact, ViewFull, ViewAll} {
		out := mustRender(t, r, Options{View: v, Tokens: 500})
		if !strings.HasPrefix(out.Text, head[v]) || strings.Count(out.Text, "JujuFacade") != 1 || !strings.Contains(out.Text, "k8s/src/charm.py") {
			t.Errorf("%s view:\n%s", v, out.Text)
		}
		for _, c := range copies {
			if !out.Shown[c] {
				t.Errorf("%s view: copy %s not shown", v, c)
			}
		}
	}
	for _, c := range []struct{ canonical, copy, want string }{
		{"lib/charms/x/v0/x.py", "machine/lib/charms/x/v0/x.py", "machine/"},
		{"a/x.py", "b/c/x.py", "b/c/"},
	} {
		if got := pathtail.Prefix(c.copy, c.canonical); got != c.want {
			t.Errorf("pathtail.Prefix(%q, %q) = %q, want %q", c.copy, c.canonical, got, c.want)
		}
	}
}

func TestMoreFiles(t *testing.T) {
	// When not every file fits, the full view closes with the paths of files it could not
	// show, in rank order; they count as shown, their symbols do not. When every file fits
	// there is no such list.
	r := randomResult(rand.New(rand.NewPCG(11, 12)), 80)
	out := mustRender(t, r, Options{View: ViewFull, Tokens: 600})
	head, list, ok := strings.Cut(out.Text, "more files:\n")
	if !ok || strings.Contains(list, ":\n") {
		t.Fatalf("no closing more-files list:\n%s", out.Text)
	}
	rankOf := map[string]int{}
	for i, f := range r.Files {
		rankOf[f.Path] = i
	}
	prev := -1
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		p := strings.TrimPrefix(line, "  ")
		i, known := rankOf[p]
		switch {
		case !known || !strings.HasPrefix(line, "  "):
			t.Errorf("listed %q is no ranked file", line)
		case i < prev:
			t.Errorf("%s listed out of rank order", p)
		case strings.Contains(head, p+":\n") || len(out.ShownSymbols[p]) > 0 || !out.Shown[p]:
			t.Errorf("%s: listed, yet shown with symbols %v or not marked shown", p, out.ShownSymbols[p])
		}
		prev = i
	}
	if prev < 0 {
		t.Error("empty list")
	}
	// when every file with symbols fits, the list names only the code with nothing to show
	all := mustRender(t, r, Options{View: ViewFull, Tokens: 1 << 20})
	_, list, _ = strings.Cut(all.Text, "more files:\n")
	for _, line := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
		if p := strings.TrimPrefix(line, "  "); line != "" && len(r.Files[rankOf[p]].Symbols) > 0 {
			t.Errorf("%s listed although every file fits", p)
		}
	}
}

func TestPartialYAMLBlockSaysHowManyMore(t *testing.T) {
	// a YAML block that shows some of its interfaces ends with "+N more": a list of options
	// would otherwise read as the whole list
	var syms []rank.Symbol
	for i := range 12 {
		syms = append(syms, rank.Symbol{Name: fmt.Sprintf("opt-%d", i), Kind: "config-option", Line: i + 1,
			Score: float64(12 - i), Signature: fmt.Sprintf("[config] opt-%d (string, default \"value number %d\")", i, i)})
	}
	r := rank.Result{Files: []rank.File{{Path: "config.yaml", Class: rank.ClassYAML, Score: 1, Symbols: syms}}}
	all := mustRender(t, r, Options{View: ViewAll})
	if strings.Contains(all.Text, "more") {
		t.Errorf("the whole block says more:\n%s", all.Text)
	}
	for _, budget := range []int{30, 60, 90} {
		out := mustRender(t, r, Options{View: ViewFull, Tokens: budget})
		lines := strings.Split(strings.TrimSuffix(out.Text, "\n"), "\n")
		shown := strings.Count(out.Text, "[config]")
		if shown == 0 || shown == len(syms) {
			t.Fatalf("budget %d shows %d of %d options; the test needs a partial block:\n%s", budget, shown, len(syms), out.Text)
		}
		if want := fmt.Sprintf("  +%d more", len(syms)-shown); lines[len(lines)-1] != want {
			t.Errorf("budget %d: last line %q, want %q", budget, lines[len(lines)-1], want)
		}
		if out.UsedTokens > budget {
			t.Errorf("budget %d: used %d", budget, out.UsedTokens)
		}
	}
	if out := mustRender(t, r, Options{View: ViewFull, Tokens: 10000}); out.Text != all.Text {
		t.Errorf("a budget that fits the block:\n%s", out.Text)
	}
}

func TestFullViewYAMLFloor(t *testing.T) {
	// An entry point, thirty modules of like score and the charm's metadata.yaml below them
	// (valkey's shape): within a budget
	// that holds a few dozen lines, the YAML's first interfaces still show (YAMLFloorShare),
	// while a test charm's YAML and charmcraft.yaml's build parts get no such floor.
	var files []rank.File
	for i := range 30 {
		name := fmt.Sprintf("Module%02d", i)
		f := rank.File{Path: fmt.Sprintf("src/module%02d.py", i), Score: 0.03 - float64(i)*0.0002}
		if i == 0 {
			f.Score = 0.1 // the entry point, as valkey's charm.py: three times the others
		}
		for j := range 4 {
			f.Symbols = append(f.Symbols, method(name, fmt.Sprintf("handle_thing_%d", j), 1, 10+j))
		}
		files = append(files, f)
	}
	yaml := func(p string, kind string, score float64) rank.File {
		class := rank.ClassYAML
		if strings.HasPrefix(p, "tests/") {
			class = rank.ClassTest // as rank classifies a test charm's YAML
		}
		return rank.File{Path: p, Class: class, Score: score, Symbols: []rank.Symbol{
			{Name: "db", Kind: kind, Signature: "[" + kind + "] db (requires pg) -> Module01.handle_thing_0", Line: 3}}}
	}
	files = append(files, yaml("metadata.yaml", rank.SymRelation, 0.015), yaml("tests/app/metadata.yaml", rank.SymRelation, 0.014),
		yaml("charmcraft.yaml", rank.SymPart, 0.013))
	out := mustRender(t, rank.Result{Files: files}, Options{View: ViewFull, Tokens: 400})
	shown := func(p string) bool {
		return strings.Contains(out.Text, "\n"+p+":\n") || strings.HasPrefix(out.Text, p+":\n")
	}
	if !shown("metadata.yaml") || shown("tests/app/metadata.yaml") || shown("charmcraft.yaml") {
		t.Errorf("full view:\n%s", out.Text)
	}
	if out.UsedTokens > 400 {
		t.Errorf("used %d of 400", out.UsedTokens)
	}
	// a monorepo: only the YAML of the top file's charm gets the floor
	for i := range files {
		if strings.HasPrefix(files[i].Path, "src/") {
			files[i].Path = "charms/a/" + files[i].Path
		}
	}
	files = append(files[:30], yaml("charms/a/metadata.yaml", rank.SymRelation, 0.015), yaml("charms/b/metadata.yaml", rank.SymRelation, 0.0149))
	out = mustRender(t, rank.Result{Files: files}, Options{View: ViewFull, Tokens: 400})
	if !shown("charms/a/metadata.yaml") || shown("charms/b/metadata.yaml") {
		t.Errorf("monorepo full view:\n%s", out.Text)
	}
}

func TestFullViewSmallBudgetKeepsTheYAMLAndSkipsFarLowerFiles(t *testing.T) {
	// Five modules of like score, each with a dozen short functions, then the charm's
	// metadata.yaml and a docs script far below: at 400 tokens the lines of the modules would
	// fill the budget before the YAML's first line (YAMLFloorShare alone lets it in at 1500),
	// so the best YAML file's first line is worth YAMLLeadShare of the top file's; and once a
	// module's first line did not fit, the docs script's cheap one is not taken in its place
	// (ClosedShare): its block would read as ranking above the modules only named.
	var files []rank.File
	for i := range 5 {
		f := rank.File{Path: fmt.Sprintf("src/mod%d.py", i), Score: 0.08 - float64(i)*0.002}
		for j := range 12 {
			f.Symbols = append(f.Symbols, rank.Symbol{Name: fmt.Sprintf("f%d_%d", i, j), Kind: "function",
				Signature: fmt.Sprintf("def do_something_useful_%d_%d(self, event, extra_argument):", i, j), Line: 1 + j})
		}
		files = append(files, f)
	}
	long := "src/"
	for k := range 150 {
		long += fmt.Sprintf("s%d/", k*7919%10007)
	}
	long += "mod3.py"
	files[3].Path = long // its header does not fit
	files = append(files, rank.File{Path: "metadata.yaml", Class: rank.ClassYAML, Score: 0.03, Symbols: []rank.Symbol{
		{Name: "db", Kind: rank.SymRelation, Signature: "[relation] db (requires pg) -> f0_1", Line: 3},
		{Name: "web", Kind: rank.SymRelation, Signature: "[relation] web (provides http)", Line: 5}}},
		rank.File{Path: "docs/build.py", Class: rank.ClassOther, Score: 0.002, Symbols: []rank.Symbol{
			{Name: "main", Kind: "function", Signature: "def main():", Line: 1}}})
	out := mustRender(t, rank.Result{Files: files}, Options{View: ViewFull, Tokens: 400})
	blocks := func(text string) (paths []string) {
		for _, l := range strings.Split(text, "\n") {
			if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " ") && l != "more files:" {
				paths = append(paths, strings.TrimSuffix(l, ":"))
			}
		}
		return paths
	}
	got := blocks(out.Text)
	if !slices.Contains(got, "metadata.yaml") || slices.Contains(got, "docs/build.py") || slices.Contains(got, long) ||
		!slices.Contains(got, "src/mod4.py") {
		t.Errorf("blocks %v:\n%s", got, out.Text)
	}
	if out.UsedTokens > 400 {
		t.Errorf("used %d of 400", out.UsedTokens)
	}
}

func TestHugeBudgetShowsEverything(t *testing.T) {
	// A budget near the int maximum is no budget, for chars4 too (4 units a token: the
	// product must not overflow into an empty map).
	r := randomResult(rand.New(rand.NewPCG(5, 6)), 20)
	for _, tok := range []string{TokChars4, TokCL100k} {
		for _, n := range []int{math.MaxInt / 4, math.MaxInt/4 + 1, math.MaxInt} {
			full := mustRender(t, r, Options{View: ViewFull, Tokens: n, Tokenizer: tok})
			all := mustRender(t, r, Options{View: ViewAll, Tokenizer: tok})
			if full.Text == "" || full.UsedTokens != all.UsedTokens {
				t.Errorf("%s --tokens %d: %d tokens used, --all uses %d", tok, n, full.UsedTokens, all.UsedTokens)
			}
		}
	}
}

func TestMoreFilesNamesFilesWithoutDefinitions(t *testing.T) {
	// A file the ranking places high with nothing to show but its path (a script without
	// definitions, a template the parser skipped) is listed by its path; a package's empty
	// __init__.py is not.
	var syms []rank.Symbol
	for i := range 40 {
		syms = append(syms, rank.Symbol{Name: fmt.Sprintf("handler_%d", i), Kind: "function", Signature: fmt.Sprintf("def handler_%d(event):", i)})
	}
	r := rank.Result{Files: []rank.File{
		{Path: "src/charm.py", Score: 0.5, Symbols: syms},
		{Path: "src/__init__.py", Score: 0.3},
		{Path: "actions.yaml", Class: rank.ClassYAML, Score: 0.25},
		{Path: "templates/webhook.py", Score: 0.2},
		{Path: "templates/jammy/webhook.py", Score: 0.15},
		{Path: "src/other.py", Score: 0.1, Symbols: syms[:5]},
	}}
	out := mustRender(t, r, Options{View: ViewFull, Tokens: 120})
	_, list, ok := strings.Cut(out.Text, "more files:\n")
	// in rank order; of two files of one name with nothing to show, the first; no empty YAML
	if !ok || !strings.HasPrefix(list, "  templates/webhook.py\n  src/other.py\n") || strings.Contains(out.Text, "__init__.py") ||
		strings.Contains(out.Text, "jammy") || strings.Contains(out.Text, "actions.yaml") {
		t.Errorf("more files:\n%s", out.Text)
	}
	// so is it when every file with symbols fits, and when no file has any (a charm just
	// begun: its modules empty), where the map would otherwise be empty
	for _, files := range [][]rank.File{r.Files, r.Files[1:5]} {
		out := mustRender(t, rank.Result{Files: files}, Options{View: ViewFull, Tokens: 1500})
		if _, list, ok := strings.Cut(out.Text, "more files:\n"); !ok || list != "  templates/webhook.py\n" {
			t.Errorf("every file fits:\n%s", out.Text)
		}
	}
}

func TestAmbiguousPathsAreQuoted(t *testing.T) {
	// A block header is the path and a colon at column 0 (CONTRACT §2): a path that would
	// read as something else (an indented symbol line, an escaped name, the "more files:"
	// marker, a quoted path) prints Go-quoted; any other path as it is.
	for p, want := range map[string]string{
		"src/charm.py":       "src/charm.py",
		"src/ünï.py":         "src/ünï.py",
		" lead.py":           `" lead.py"`,
		`back\slash.py`:      `"back\\slash.py"`,
		"c\rr.py":            `"c\rr.py"`,
		"more files:/x.py":   `"more files:/x.py"`,
		`"quoted".py`:        `"\"quoted\".py"`,
		"bad\xffbyte.py":     `"bad\xffbyte.py"`,
		"src/more files:.py": "src/more files:.py",
		"\u00a0nbsp.py":      `"\u00a0nbsp.py"`,
		"\ufeffbom.py":       `"\ufeffbom.py"`,
		"a — b.py":           `"a — b.py"`,
	} {
		if got := pathLine(p); got != want {
			t.Errorf("pathLine(%q) = %s, want %s", p, got, want)
		}
	}
	// two files that differ by a backslash and a control character print apart
	r := rank.Result{Files: []rank.File{
		{Path: `c\rr.py`, Score: 0.2, Symbols: []rank.Symbol{{Name: "a", Kind: "function", Signature: "def a():", Line: 1}}},
		{Path: "c\rr.py", Score: 0.1, Symbols: []rank.Symbol{{Name: "b", Kind: "function", Signature: "def b():", Line: 1}}},
	}}
	out := mustRender(t, r, Options{View: ViewAll})
	if !strings.Contains(out.Text, "\"c\\\\rr.py\":\n") || !strings.Contains(out.Text, "\"c\\rr.py\":\n") {
		t.Errorf("--all:\n%s", out.Text)
	}
}

func TestLinkListShortensClassesNotPaths(t *testing.T) {
	// A method of the class just named is written ".method"; a template's path stays whole.
	got := linkList([]string{"C.a", "templates/x.conf", "templates/x.ini"})
	if want := "C.a, templates/x.conf, templates/x.ini"; got != want {
		t.Errorf("linkList: %q, want %q", got, want)
	}
}
