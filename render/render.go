// Package render turns a ranked tree (rank.Result) into the text views and JSON of the
// `map` command.
//
// Views: "compact" (one line per top-ranked file: `path — primary symbol, +N more`), "full"
// (file blocks in rank order: `path:` at column 0, symbols indented, methods nested under
// their class, within the token budget) and "all" (every file, every symbol, no budget).
//
// The budget is a hard maximum: the text never has more tokens than the effective budget as
// counted by the chosen tokenizer (tiktoken cl100k_base or o200k_base, or chars4, Cantrip's
// ceil(characters/4)). Lines are counted once each and the budget is filled greedily (see
// fitCompact, fitFull); the final text is counted again and trimmed if the per-line sum ever
// undercounts (trim).
//
// The text carries no line numbers and no scores (unless --explain asks for them), so an
// edit inside a function body leaves it byte for byte the same; the JSON carries both.
//
// "CONTRACT §n" in comments is section n of the outside contract, summarised in
// docs/contract.md.
package render

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/rank"

	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
)

// Views.
const (
	ViewCompact = "compact"
	ViewFull    = "full"
	ViewAll     = "all"
)

// DefaultTop is the number of files of the compact view when Options.Top is 0.
const DefaultTop = 10

// Pressure thresholds (CONTRACT §1): the share of the agent's context already used.
const (
	PressureHalve = 0.80 // at or above: the budget halves
	PressureEmpty = 0.95 // at or above: nothing is printed
)

// Options select the view and the budget.
type Options struct {
	View      string  // ViewCompact (default), ViewFull or ViewAll
	Tokens    int     // the budget; 0 prints nothing (ignored by ViewAll)
	Pressure  float64 // 0..1 (ignored by ViewAll)
	Tokenizer string  // TokCL100k (default), TokO200k or TokChars4
	Top       int     // compact view: number of files (DefaultTop when 0)
	Explain   bool    // add each file's signals after it
	// Focus are files already in the agent's context: ranked, but not rendered by the
	// compact and full views.
	Focus []string
	// Unread are files skipped unread (repomap.Tree.Skipped: binary data, over the size
	// limit, a template named .py): no view prints them, not even under "more files:", where
	// they would spend the agent's budget (review rev100); the JSON lists them, not shown, so
	// that diff does not read them as removed (review rev102).
	Unread []string
	// TokenMemo, when set, supplies and records BPE token counts (see TokenMemo).
	TokenMemo *TokenMemo
}

// Output is the rendered text and what made it in.
type Output struct {
	Text string
	// Shown holds the paths of the files in Text.
	Shown map[string]bool
	// ShownSymbols holds, per shown file, the indexes (into rank.File.Symbols) of the symbols
	// in Text, including classes printed as the context of a method.
	ShownSymbols    map[string]map[int]bool
	UsedTokens      int  // tokens of Text under the tokenizer
	EffectiveTokens int  // the budget after pressure; for ViewAll, UsedTokens
	Unbounded       bool // ViewAll: no budget applies
}

// EffectiveTokens is the budget after pressure: halved at PressureHalve, zero at PressureEmpty.
func EffectiveTokens(tokens int, pressure float64) int {
	switch {
	case tokens <= 0 || pressure >= PressureEmpty:
		return 0
	case pressure >= PressureHalve:
		return tokens / 2
	}
	return tokens
}

// Render renders r. Errors are bad options only; any Result renders.
func Render(r rank.Result, opt Options) (Output, error) {
	memo := opt.TokenMemo
	if memo == nil { // still remember counts within the run: the full view fits lines more than once
		memo = LoadTokenMemo(nil)
	}
	c, err := newCounter(opt.Tokenizer, memo)
	if err != nil {
		return Output{}, err
	}
	switch {
	case opt.Tokens < 0:
		return Output{}, fmt.Errorf("token budget must be 0 or more, not %d", opt.Tokens)
	case !(opt.Pressure >= 0 && opt.Pressure <= 1):
		return Output{}, fmt.Errorf("pressure must be between 0 and 1, not %g", opt.Pressure)
	case opt.Top < 0:
		return Output{}, fmt.Errorf("top must be 0 or more, not %d", opt.Top)
	}
	out := Output{Shown: map[string]bool{}, ShownSymbols: map[string]map[int]bool{},
		EffectiveTokens: EffectiveTokens(opt.Tokens, opt.Pressure)}
	focus := map[string]bool{}
	for _, f := range opt.Focus {
		focus[strings.TrimPrefix(path.Clean(f), "./")] = true
	}
	if len(opt.Unread) > 0 {
		r.Files = slices.DeleteFunc(slices.Clone(r.Files), func(f rank.File) bool { return slices.Contains(opt.Unread, f.Path) })
	}
	var doc document
	switch opt.View {
	case ViewAll:
		doc = allView(r, opt.Explain)
	case ViewFull:
		doc = fitFullWithMore(candidates(r, focus), listable(r, focus), opt.Explain, c, c.budget(out.EffectiveTokens))
	case ViewCompact, "":
		top := opt.Top
		if top == 0 {
			top = DefaultTop
		}
		doc = fitCompact(r, focus, top, opt.Explain, c, c.budget(out.EffectiveTokens))
	default:
		return Output{}, fmt.Errorf("unknown view %q (want %s, %s or %s)", opt.View, ViewCompact, ViewFull, ViewAll)
	}
	out.Text = doc.text()
	out.UsedTokens = c.tokens(c.units(out.Text))
	if opt.View == ViewAll { // no budget: the dump takes what it needs
		out.EffectiveTokens, out.Unbounded = out.UsedTokens, true
	}
	for _, b := range doc {
		for _, p := range b.more {
			out.Shown[p] = true
		}
		if b.path == "" {
			continue
		}
		out.Shown[b.path] = true
		if len(b.shown) > 0 {
			out.ShownSymbols[b.path] = b.shown
		}
	}
	for _, f := range r.Files { // a copy is shown where its canonical file names it
		if f.CopyOf != "" && out.Shown[f.CopyOf] {
			out.Shown[f.Path] = true
		}
	}
	return out, nil
}

// block is one file's part of the text.
type block struct {
	path  string
	lines []string // each ends in "\n"
	shown map[int]bool
	more  []string // the "more files:" block: the paths it lists (path is "")
}

type document []block

func (d document) text() string {
	var sb strings.Builder
	for _, b := range d {
		for _, l := range b.lines {
			sb.WriteString(l)
		}
	}
	return sb.String()
}

// symbolExplainLine gives a symbol's score as the product that made it (`map --all
// --explain`): `# 2.62 = kind 1 (method) × visibility 0.5 × reader 1.5 × references 3.5
// (other files' uses 1 of the file's most; used in its file)`.
func symbolExplainLine(s rank.Symbol) string {
	var sb strings.Builder
	sb.WriteString("# " + num(s.Score))
	for k, g := range s.Signals {
		if k == 0 {
			sb.WriteString(" = ")
		} else {
			sb.WriteString(" × ")
		}
		sb.WriteString(g.Name + " " + num(g.Value))
		if g.Note != "" {
			sb.WriteString(" (" + oneLine(clip(g.Note, maxLineChars)) + ")")
		}
	}
	return sb.String() + "\n"
}

// explainLine lists a file's score as the formula that made it, then what fed its PageRank:
// `  # score=0.379 = √pagerank 0.523 × hub-entrypoint 1.5 ÷ 2.07 (all files); pagerank 0.274;
// link-handler 7 (relation downstream, …)`.
func explainLine(f *rank.File) string {
	var sb strings.Builder
	sb.WriteString("  # score=" + num(f.Score))
	named := func(s rank.Signal) string {
		out := s.Name + " " + num(s.Value)
		if s.Note != "" {
			out += " (" + oneLine(s.Note) + ")"
		}
		return out
	}
	byKind := func(kind string) []rank.Signal {
		var out []rank.Signal
		for _, s := range f.Signals {
			if s.Kind == kind {
				out = append(out, s)
			}
		}
		return out
	}
	base, divisor := byKind(rank.SignalBase), byKind(rank.SignalDivisor)
	if len(base) == 1 && len(divisor) == 1 {
		// the formula: score = pagerank^p × factors ÷ the sum over all files
		sb.WriteString(" = " + powerLabel + " " + num(math.Pow(base[0].Value, rank.PageRankPower)))
		for _, s := range byKind(rank.SignalFactor) {
			sb.WriteString(" × " + named(s))
		}
		sb.WriteString(" ÷ " + num(divisor[0].Value) + " (all files)")
	} else {
		for _, s := range byKind(rank.SignalFactor) {
			sb.WriteString(" × " + named(s))
		}
	}
	for _, s := range base {
		sb.WriteString("; " + named(s))
		for k, seed := range byKind(rank.SignalSeed) {
			if k == 0 {
				sb.WriteString(", restarts at")
			} else {
				sb.WriteString(",")
			}
			sb.WriteString(" " + named(seed))
		}
	}
	for _, s := range byKind(rank.SignalCount) {
		sb.WriteString("; " + named(s))
	}
	return sb.String() + "\n"
}

// powerLabel names the structural part of a score, the PageRank to rank.PageRankPower.
var powerLabel = func() string {
	if rank.PageRankPower == 0.5 {
		return "√pagerank"
	}
	return "pagerank^" + num(rank.PageRankPower)
}()

func num(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

var newlines = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// oneLine keeps a value on its line, and its control characters from acting on the terminal.
func oneLine(s string) string {
	return safetext.Line(newlines.Replace(strings.TrimSpace(s)))
}

// pathLine is a path as printed: a block's header at column 0 (CONTRACT §2), a compact
// line's or a "more files:" line's start. A path that would read as something else is
// printed Go-quoted (safetext.Path): besides what is ambiguous on any line, one holding the
// "more files:" marker (review rev100) or the compact view's " — " between a path and its
// symbol (review rev102). Other paths print as they are.
func pathLine(p string) string {
	if strings.HasPrefix(p, "more files:") {
		return strconv.Quote(p)
	}
	return safetext.Path(p, " — ")
}

// fitCompact lists the top files, one line each, until the budget (in units) is spent.
func fitCompact(r rank.Result, focus map[string]bool, top int, explain bool, c counter, budget int) document {
	var doc document
	used := 0
	for i := range r.Files {
		f := &r.Files[i]
		if len(doc) == top {
			break
		}
		if focus[f.Path] || f.Focused || len(f.Symbols) == 0 || f.CopyOf != "" {
			continue
		}
		first := f.Symbols[0].Name
		if isYAML(f) {
			first = yamlTag(f.Symbols[0]) + " " + first
		}
		// path — primary symbol, +N more: a copied module's copies go after it, so that the
		// part before " — " stays a path
		line := pathLine(f.Path) + " — " + oneLine(first)
		if n := len(f.Symbols) - 1; n > 0 {
			line += ", +" + strconv.Itoa(n) + " more"
		}
		line += alsoUnder(f)
		b := block{path: f.Path, lines: []string{line + "\n"}, shown: map[int]bool{0: true}}
		if explain {
			b.lines = append(b.lines, explainLine(f))
		}
		cost := 0
		for _, l := range b.lines {
			cost += c.units(l)
		}
		if used+cost > budget {
			break
		}
		used += cost
		doc = append(doc, b)
	}
	return trim(doc, c, budget, func(d document) document { return d[:len(d)-1] })
}

// trim drops content (with drop, which must shrink the document) until the whole text fits:
// the per-line sums the fitting uses match the tokenizer on whole texts in practice, but
// BPE merges are not guaranteed to respect line ends, so the final text is counted again.
func trim(doc document, c counter, budget int, drop func(document) document) document {
	for len(doc) > 0 && c.units(doc.text()) > budget {
		doc = drop(doc)
	}
	return doc
}

// isYAML reports a charm YAML file (its symbols are interfaces).
func isYAML(f *rank.File) bool {
	return f.Class == rank.ClassYAML || strings.HasSuffix(f.Path, ".yaml") || strings.HasSuffix(f.Path, ".yml")
}

// yamlTag is the "[relation]" prefix of an interface's signature.
func yamlTag(s rank.Symbol) string {
	if strings.HasPrefix(s.Signature, "[") {
		if i := strings.IndexByte(s.Signature, ']'); i > 0 {
			return s.Signature[:i+1]
		}
	}
	return "[" + s.Kind + "]"
}
