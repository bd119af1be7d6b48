package render

import (
	"cmp"
	"container/heap"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cantrip-dev/charmcraft-map/internal/pathtail"
	"github.com/cantrip-dev/charmcraft-map/rank"
)

// SymbolDecay sets the balance between depth and breadth in the full view: the j-th symbol of
// a file is worth score × SymbolDecay^j, and the budget goes to the most valuable lines first.
// At 0.9 the top file (the charm, often five times the next file's score) shows about fifteen
// symbols before the next file shows its first, and every file at least its leading symbol
// once the budget allows it; the files that do not fit are named in the closing "more
// files:" list (MoreFilesShare). 0.8 → 0.9 with that list (session 4; docs/eval.md, round 6),
// at 1500 tokens on the dev cases and four held-out sets: the changes whose edited functions
// the map shows, dev 0.812 → 0.906 and held 0.600-0.708 → 0.646-0.788; the edited files the
// map shows, 0.946-0.990 → 0.982-1.000. Without the list, 0.85 already cost files (held3
// 0.946 → 0.923).
const SymbolDecay = 0.9

// MoreFilesShare is the share of the full view's budget kept, when not every file fits, for a
// closing "more files:" list: the paths of the next files in rank order, without symbols.
// A path costs a few tokens; a file shown with its first symbol costs ten to forty. So the
// files the budget cannot show still reach the agent by name, the files ranked 10th to 30th
// among them, where a change's second and third files often are.
const MoreFilesShare = 0.1

// YAMLFloorShare and YAMLFloorLines: a charm YAML file's first YAMLFloorLines interfaces are
// worth at least YAMLFloorShare of the best file's first line in the full view (fitFull). The
// declarations, tied to their handlers, are what the map adds to a list of modules; in a charm
// of many modules of like score (valkey: 25 modules between 0.02 and 0.1, metadata.yaml
// 0.015) they came after every module's leading symbols and out of the 1500 tokens. At 0.3
// and 4 the eval's ranking and recall are unchanged (17 sets); at 0.1 or 0.2 valkey's map
// still held no YAML. Not a test charm's YAML, nor charmcraft.yaml's build parts and bases;
// in a monorepo, only the YAML of the best file's charm (with every charm's floored, YAML
// took 60-78% of a map of eight charms: review rev53, docs/eval.md round 30).
const (
	YAMLFloorShare = 0.3
	YAMLFloorLines = 4
)

// YAMLLeadShare: the first line of the best-ranked of those YAML files is worth at least
// YAMLLeadShare of the best file's first line, so that it shows at small budgets too: at 600
// tokens, 38 of the 500 trees measured showed no YAML at all, only the leading symbols of
// modules of like rank (swift-storage, review rev99). At 0.9 it comes with the first lines of
// the modules ranked near the top file: 38 → 1 of the 500 at 600 tokens (kafka-operator: 25
// files' first lines come before it), and at 1500 tokens five maps change, four monorepos whose
// map held no YAML before; at 0.6 it came after five lines of each such module, 38 → 7.
const YAMLLeadShare = 0.9

// ClosedShare: a file's first line is not taken once the first line of a file worth more than
// 1/ClosedShare times as much did not fit (fitFull). Blocks print in rank order, so a reader
// takes a file shown for one ranked above the files only named under "more files:"; and the
// small lines that fill what a big one leaves are worth more as the next symbols of the files
// shown than as a docs script's `def main():` (wireguard-gateway at 600 tokens showed
// docs/.sphinx/update_sp.py, score 0.005, while three src/ modules of 0.07 were only named:
// review rev99).
const ClosedShare = 0.25

// floored reports whether the j-th symbol of f gets the YAML floor: one of the first
// YAMLFloorLines interfaces of a charm's YAML file (rank.ClassYAML: a test charm's YAML is
// ClassTest), not a build part or base.
func floored(f *rank.File, j int) bool {
	return j < YAMLFloorLines && j < len(f.Symbols) && f.Class == rank.ClassYAML && !rank.IsBuild(f.Symbols[j].Kind)
}

// charmFolder is the folder of the charm holding p: the deepest folder of a charm YAML file
// among files that holds p ("." for a charm at the root).
func charmFolder(p string, files []*rank.File) string {
	best := "."
	for _, f := range files {
		if f.Class != rank.ClassYAML {
			continue
		}
		if d := path.Dir(f.Path); d != "." && (p == f.Path || strings.HasPrefix(p, d+"/")) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// maxLinks is how many handlers a YAML interface line lists before "+N more".
const maxLinks = 3

// Line length caps (characters): a signature line past these is clipped with "…". Long
// constant values (locale lists, embedded templates) cost many tokens and say little; long
// function signatures are the API and keep more.
const (
	maxConstantChars = 100
	maxLineChars     = 200
)

// fileView is one file prepared for the full and all views: its header, each symbol's line
// (indented by nesting) and the token cost of each line, counted when first needed.
type fileView struct {
	f        *rank.File
	head     []string // "path:\n", the copies line ("  # also under …") if any, and with --explain the signals line
	lines    []string // per symbol
	parent   []int    // per symbol: the enclosing class's index, or -1
	headCost int      // units; -1 until counted
	cost     []int    // per symbol line, units; -1 until counted
	// yaml: a charm YAML file, whose block ends with "  +N more" when it shows only some of
	// its interfaces. A list of config options or relations reads as the whole list, where
	// a Python file's leading symbols read as what they are, the file's most important ones.
	yaml bool
	kids []int // per symbol: the members of the class it is (members)
	// hidden: per symbol, left out of the block whatever k (hiddenInBudget: a library's
	// bookkeeping constants, a setter, an @overload stub; never offered); nil shows every
	// symbol (--all)
	hidden []bool
}

// restLine closes a YAML block that shows k of its n interfaces.
func restLine(k, n int) string {
	return "  +" + strconv.Itoa(n-k) + " more\n"
}

func newFileView(f *rank.File, explain bool) *fileView {
	v := &fileView{f: f, head: []string{pathLine(f.Path) + ":\n"}, headCost: -1,
		lines: make([]string, len(f.Symbols)), parent: make([]int, len(f.Symbols)), cost: make([]int, len(f.Symbols)),
		kids: make([]int, len(f.Symbols))}
	if also := alsoAt(f); also != "" { // the block starts with the path and a colon alone (CONTRACT §2)
		v.head = append(v.head, "  # also under "+also+"\n")
	}
	if explain {
		v.head = append(v.head, explainLine(f))
	}
	classes := map[string]int{}
	for i, s := range f.Symbols {
		if s.Kind == "class" {
			classes[s.Name] = i
			if s.Qualifier != "" {
				classes[s.Qualifier+"."+lastName(s.Name)] = i
			}
		}
	}
	for i, s := range f.Symbols {
		v.parent[i], v.cost[i] = -1, -1
		if p, ok := classes[s.Qualifier]; ok && s.Qualifier != "" && p != i {
			v.parent[i] = p
			v.kids[p]++
		}
	}
	yaml := isYAML(f)
	v.yaml = yaml
	for i, s := range f.Symbols {
		depth := 0
		for p := v.parent[i]; p >= 0 && depth < len(f.Symbols); p = v.parent[p] {
			depth++
		}
		text := oneLine(s.Signature)
		if text == "" {
			text = s.Kind + " " + s.Name
		}
		if s.Kind == "constant" || s.Kind == "field" {
			text = clip(text, maxConstantChars)
		}
		text = clipSignature(text, maxLineChars, lastName(s.Name))
		if yaml && len(s.Links) > 0 {
			text += " -> " + linkList(s.Links)
		}
		v.lines[i] = strings.Repeat("  ", depth+1) + text + "\n"
	}
	return v
}

// alsoUnder is alsoAt after a path in a list: " (also under k8s/.vendored/)".
func alsoUnder(f *rank.File) string {
	if also := alsoAt(f); also != "" {
		return " (also under " + also + ")"
	}
	return ""
}

// alsoAt names where a file's copies (rank.File.Copies) are: the folder each copy's path
// adds before the part it shares with the file's ("k8s/.vendored/, machine/.vendored/" for
// vault-package/vault/x.py); "" without copies. A block in --full and --all says it on the
// line after its path ("  # also under k8s/.vendored/"): the block's first line is the path
// and a colon alone (CONTRACT §2).
func alsoAt(f *rank.File) string {
	if len(f.Copies) == 0 {
		return ""
	}
	names := make([]string, 0, maxLinks+1)
	for i, c := range f.Copies {
		if i == maxLinks {
			names = append(names, "+"+strconv.Itoa(len(f.Copies)-maxLinks)+" more")
			break
		}
		names = append(names, pathtail.Prefix(c, f.Path))
	}
	return pathLine(strings.Join(names, ", "))
}

func lastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// linkList joins handler names, writing a repeated class once:
// "Charm._on_start, ._on_stop, Other.x, +2 more".
func linkList(links []string) string {
	parts := make([]string, 0, maxLinks+1)
	prev := ""
	for i, l := range links {
		if i == maxLinks {
			parts = append(parts, "+"+strconv.Itoa(len(links)-maxLinks)+" more")
			break
		}
		// the class is all before the last dot ("ssh_debug.Observer"), or a bare name whole
		// (a class linked itself: "CharmConfig, .from_charm")
		class, method, ok := l, "", false
		if i := strings.LastIndexByte(l, '.'); i >= 0 {
			class, method, ok = l[:i], l[i+1:], true
		}
		if ok && class == prev && !strings.Contains(l, "/") { // (a template's path stays whole)
			l = "." + method
		}
		prev = class
		parts = append(parts, l)
	}
	return oneLine(strings.Join(parts, ", "))
}

// clip shortens a line's text to max characters, ending it with "…".
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-1]) + "…"
}

// clipSignature is clip for the line of definition name, whose decorators come first
// ("@when('a', ...) @when_not('b') def f():"): when it is too long, the decorators are cut,
// not the header that names the definition.
func clipSignature(s string, max int, name string) string {
	if utf8.RuneCountInString(s) <= max || !strings.HasPrefix(s, "@") {
		return clip(s, max)
	}
	h := -1 // the header: its keyword, the name, then "(" or ":" (a decorator's argument may hold " def " too)
	for _, kw := range []string{" def ", " class "} {
		for _, end := range []string{"(", ":"} {
			if i := strings.Index(s, kw+name+end); i > 0 && (h < 0 || i < h) {
				h = i
			}
		}
	}
	if h > 0 && strings.HasSuffix(s[:h], " async") {
		h -= len(" async")
	}
	if h < 0 {
		return clip(s, max)
	}
	header := s[h+1:]
	room := max - utf8.RuneCountInString(header) - 1
	if room < len("@x…") {
		return clip(header, max)
	}
	return clip(s[:h], room) + " " + header
}

// members is how many symbols class p of the file holds directly.
func (v *fileView) members(p int) int { return v.kids[p] }

// elision is the line closing class p's members when only some are shown.
func (v *fileView) elision(p int) string {
	indent := len(v.lines[p]) - len(strings.TrimLeft(v.lines[p], " "))
	return strings.Repeat(" ", indent+2) + "…\n"
}

func (v *fileView) headUnits(c counter) int {
	if v.headCost < 0 {
		v.headCost = 0
		for _, l := range v.head {
			v.headCost += c.units(l)
		}
	}
	return v.headCost
}

func (v *fileView) lineUnits(c counter, i int) int {
	if v.cost[i] < 0 {
		v.cost[i] = c.units(v.lines[i])
	}
	return v.cost[i]
}

// block renders the file with its first k symbols (importance order) and the classes that
// enclose them. Siblings appear in importance order (a class where its most important
// shown member would be), methods under their class.
func (v *fileView) block(k int) block {
	n := len(v.lines)
	key := make([]int, n)
	sel := map[int]bool{}
	for i := range key {
		key[i] = math.MaxInt
	}
	for j := range k {
		if v.hidden != nil && v.hidden[j] {
			continue
		}
		for a := j; a >= 0 && key[a] > j; a = v.parent[a] {
			key[a] = j
			sel[a] = true
		}
	}
	children := map[int][]int{} // parent (-1 for top level) → selected children
	for i := range n {
		if sel[i] {
			children[v.parent[i]] = append(children[v.parent[i]], i)
		}
	}
	for _, cs := range children {
		slices.SortFunc(cs, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	}
	b := block{path: v.f.Path, lines: slices.Clone(v.head), shown: sel}
	var walk func(p int)
	walk = func(p int) {
		for _, i := range children[p] {
			b.lines = append(b.lines, v.lines[i])
			walk(i)
		}
		// a class shown in part says so: a partial enum or field list would read as whole (a
		// class shown alone is a name), as a YAML block's "+N more" does for interfaces
		if p >= 0 && len(children[p]) > 0 && len(children[p]) < v.members(p) {
			b.lines = append(b.lines, v.elision(p))
		}
	}
	walk(-1)
	if v.yaml && k < n {
		b.lines = append(b.lines, restLine(k, n))
	}
	return b
}

// candidates are the files the budgeted views may show, in rank order: not focused, with
// at least one symbol.
func candidates(r rank.Result, focus map[string]bool) []*rank.File {
	var out []*rank.File
	for i := range r.Files {
		f := &r.Files[i]
		if offerable(f, focus) && len(f.Symbols) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// offerable reports a file a budgeted view may show: not focused (the agent has it), not a
// copy (named with its canonical file).
func offerable(f *rank.File, focus map[string]bool) bool {
	return !focus[f.Path] && !f.Focused && f.CopyOf == ""
}

// listable are the files a "more files:" list may name, in rank order: the candidates, and
// code with nothing to show but its path (a script with no definitions, a Jinja template the
// parser skipped), the first of a name only, except a package's __init__.py, which only marks
// its folder (a charm YAML file that declares nothing is no such file either, nor is a test
// file that defines nothing, a conftest.py of plugins).
func listable(r rank.Result, focus map[string]bool) []*rank.File {
	var out []*rank.File
	seen := map[string]bool{} // the names of the path-only files listed
	for i := range r.Files {
		f := &r.Files[i]
		if offerable(f, focus) && (len(f.Symbols) > 0 || f.Class != rank.ClassYAML && f.Class != rank.ClassTest && path.Base(f.Path) != "__init__.py" && !seen[path.Base(f.Path)]) {
			if len(f.Symbols) == 0 {
				seen[path.Base(f.Path)] = true // of nine templates/<release>/local_settings.py, the first
			}
			out = append(out, f)
		}
	}
	return out
}

// allView is every file with every symbol.
func allView(r rank.Result, explain bool) document {
	doc := make(document, 0, len(r.Files))
	for i := range r.Files {
		if r.Files[i].CopyOf != "" {
			continue // named in its canonical file's header
		}
		v := newFileView(&r.Files[i], explain)
		if explain {
			// (no budget here: each symbol's score follows it)
			for k, s := range r.Files[i].Symbols {
				indent := v.lines[k][:len(v.lines[k])-len(strings.TrimLeft(v.lines[k], " "))]
				v.lines[k] += indent + "  " + symbolExplainLine(s)
			}
		}
		doc = append(doc, v.block(len(v.lines)))
	}
	return doc
}

// hiddenInBudget reports a symbol the budgeted views never spend tokens on (`--all` lists
// it): a constant charmcraft's library machinery keeps (rank's lib-bookkeeping: LIBID, a
// vendored library's LIBAPI, LIBPATCH and PYDEPS), a hash and version numbers nobody edits by
// hand (review rev110: 158 such lines in 50 of the 500 maps); or a second definition of a
// name (rank's secondary-def: a property's setter, an @overload stub), which repeats the first.
func hiddenInBudget(s rank.Symbol) bool {
	return slices.ContainsFunc(s.Signals, func(g rank.Signal) bool {
		return g.Name == rank.SigSymBookkeeping || g.Name == rank.SigSymSecondary
	})
}

// item is one symbol line offered to the budget: symbol sym of candidate file.
type item struct {
	value     float64
	file, sym int
}

type itemHeap []item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(a, b int) bool {
	if h[a].value != h[b].value {
		return h[a].value > h[b].value
	}
	if h[a].file != h[b].file {
		return h[a].file < h[b].file
	}
	return h[a].sym < h[b].sym
}
func (h itemHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *itemHeap) Push(x any)   { *h = append(*h, x.(item)) }
func (h *itemHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// fitFullWithMore is fitFull when every file fits, then a "more files:" block of the listed
// files with nothing to show that fit in what is left. Otherwise the symbols get the budget less
// MoreFilesShare, and a closing "more files:" block lists the files of listed not shown, in
// rank order, while their paths fit; when that lists them all, the symbols are fitted again
// into what the block leaves.
func fitFullWithMore(files, listed []*rank.File, explain bool, c counter, budget int) document {
	if budget <= 0 {
		return nil
	}
	doc := fitFull(files, explain, c, budget-int(float64(budget)*MoreFilesShare))
	if len(doc) == len(files) {
		// every file fits; the code with nothing to show but its path (a script with no
		// definitions, every module of a charm just begun empty) is listed in what they leave,
		// so that the map names the code it ranks (rev84: an empty text for two empty modules)
		whole := fitFull(files, explain, c, budget)
		if more, _ := moreFiles(whole, listed, c, budget); len(more.more) > 0 {
			return append(whole, more)
		}
		return whole
	}
	more, all := moreFiles(doc, listed, c, budget)
	if all && len(more.more) > 0 { // the list holds every other file: maybe the whole budget shows them all
		if whole := fitFull(files, explain, c, budget); len(whole) == len(files) {
			return whole
		}
		doc = fitFull(files, explain, c, budget-c.units(strings.Join(more.lines, "")))
		more, _ = moreFiles(doc, listed, c, budget)
	}
	if len(more.more) == 0 {
		return fitFull(files, explain, c, budget) // not one path fits: the symbols keep the whole budget
	}
	return trim(append(doc, more), c, budget, func(d document) document {
		last := &d[len(d)-1]
		if len(last.more) <= 1 {
			return d[:len(d)-1]
		}
		last.more, last.lines = last.more[:len(last.more)-1], last.lines[:len(last.lines)-1]
		return d
	})
}

// moreFiles is the "more files:" block for the files doc does not show: their paths in rank
// order, up to the first that does not fit in what doc leaves of budget; all says whether
// every such file is listed.
func moreFiles(doc document, files []*rank.File, c counter, budget int) (block, bool) {
	shown := map[string]bool{}
	for _, b := range doc {
		shown[b.path] = true
	}
	more := block{lines: []string{"more files:\n"}}
	used := c.units(doc.text()) + c.units(more.lines[0])
	for _, f := range files {
		if shown[f.Path] {
			continue
		}
		line := "  " + pathLine(f.Path) + alsoUnder(f) + "\n"
		n := c.units(line)
		if used+n > budget {
			return more, false // a prefix in rank order: the next path does not fit
		}
		used += n
		more.lines = append(more.lines, line)
		more.more = append(more.more, f.Path)
	}
	return more, true
}

// fitFull fills budget (units) with symbol lines, most valuable first: the j-th symbol of a
// file is worth its score × SymbolDecay^j and costs its line, plus the lines of enclosing
// classes not yet shown, plus the file's header when it is the file's first. A line that does
// not fit closes its file (each file shows a prefix of its symbols in importance order) and
// the search goes on with the others, so small lines fill what big ones leave. Files enter
// the search in rank order, so lines are counted only for files that get a chance.
func fitFull(files []*rank.File, explain bool, c counter, budget int) document {
	views := make([]*fileView, len(files)) // built when the file is first offered
	k := make([]int, len(files))
	shown := make([][]bool, len(files))
	kids := make([]map[int]int, len(files)) // per file: class → members shown (block's "…" line while partial)
	var taken []item
	h := &itemHeap{}
	// A charm YAML file's first YAMLFloorLines interfaces are worth at least YAMLFloorShare of
	// the best file's first line, and its first line is offered from the start: in a charm
	// of many modules the declarations, the map's tie between YAML and code, would otherwise
	// come after every module's leading symbols.
	floor := 0.0
	var home string // the folder of the top file's charm: in a monorepo, only its YAML is floored
	if len(files) > 0 {
		floor = files[0].Score * YAMLFloorShare
		home = charmFolder(files[0].Path, files)
	}
	lead := -1 // the best-ranked floored YAML file, whose first line gets YAMLLeadShare
	for f := range files {
		if floored(files[f], 0) && path.Dir(files[f].Path) == home {
			lead = f
			break
		}
	}
	offered := make([]bool, len(files))
	offer := func(f, j int) {
		// (the next symbol is offered once the file's first line is taken: its view is built)
		for j > 0 && j < len(files[f].Symbols) && views[f].hidden[j] {
			j++ // never offered: a library's LIBID, a setter, an @overload stub (hiddenInBudget)
		}
		if f < len(files) && j < len(files[f].Symbols) {
			score := files[f].Score
			if floored(files[f], j) && path.Dir(files[f].Path) == home {
				score = max(score, floor)
			}
			if f == lead && j == 0 && len(files) > 0 {
				score = max(score, files[0].Score*YAMLLeadShare)
			}
			heap.Push(h, item{value: score * math.Pow(SymbolDecay, float64(j)), file: f, sym: j})
			if j == 0 {
				offered[f] = true
			}
		}
	}
	chain := 0 // files enter in rank order: the next one when this one's first line is taken
	offer(0, 0)
	if floor > 0 {
		for f := range files {
			if floored(files[f], 0) && path.Dir(files[f].Path) == home && !offered[f] {
				offer(f, 0)
			}
		}
	}
	used := 0
	closed := 0.0 // the best value of a first line that did not fit
	for h.Len() > 0 && used < budget {
		it := heap.Pop(h).(item)
		if it.sym == 0 && it.file == chain {
			for chain++; chain < len(files) && offered[chain]; chain++ {
			}
			offer(chain, 0)
		}
		if it.sym == 0 && it.value < closed*ClosedShare {
			continue // a file far below one that did not fit: closed (ClosedShare)
		}
		if it.sym == 0 {
			views[it.file] = newFileView(files[it.file], explain)
			views[it.file].hidden = make([]bool, len(files[it.file].Symbols))
			for j, s := range files[it.file].Symbols {
				views[it.file].hidden[j] = j > 0 && hiddenInBudget(s) // (offer skips them)
				if p := views[it.file].parent[j]; views[it.file].hidden[j] && p >= 0 {
					views[it.file].kids[p]-- // a class missing only hidden members is shown whole: no "…"
				}
			}
			shown[it.file] = make([]bool, len(files[it.file].Symbols))
			kids[it.file] = map[int]int{}
		}
		v := views[it.file]
		cost := 0
		if it.sym == 0 {
			cost += v.headUnits(c)
			if v.yaml && len(v.lines) > 1 { // the "+N more" line, while the block is partial
				cost += c.units(restLine(1, len(v.lines)))
			}
		}
		for a := it.sym; a >= 0 && !shown[it.file][a]; a = v.parent[a] {
			cost += v.lineUnits(c, a)
			if p := v.parent[a]; p >= 0 { // the class's "…" line comes with its first member, goes with its last
				switch kids[it.file][p] + 1 {
				case v.members(p):
					if v.members(p) > 1 {
						cost -= c.units(v.elision(p))
					}
				case 1:
					cost += c.units(v.elision(p))
				}
			}
		}
		if used+cost > budget {
			if it.sym == 0 {
				closed = max(closed, it.value)
			}
			continue // the file is closed: its next symbol is never offered
		}
		used += cost
		for a := it.sym; a >= 0 && !shown[it.file][a]; a = v.parent[a] {
			shown[it.file][a] = true
			if p := v.parent[a]; p >= 0 {
				kids[it.file][p]++
			}
		}
		k[it.file] = it.sym + 1
		if v.yaml && it.sym > 0 && k[it.file] == len(v.lines) { // whole: no "+N more" line
			used -= c.units(restLine(1, len(v.lines)))
		}
		taken = append(taken, it)
		offer(it.file, it.sym+1)
	}
	build := func() document {
		var doc document
		for f, v := range views {
			if k[f] > 0 {
				doc = append(doc, v.block(k[f]))
			}
		}
		return doc
	}
	return trim(build(), c, budget, func(document) document {
		last := taken[len(taken)-1]
		taken = taken[:len(taken)-1]
		k[last.file] = last.sym
		return build()
	})
}
