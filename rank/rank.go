package rank

import (
	"cmp"
	"maps"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Rank orders the files of a tree and the symbols within each file. The same Input always
// gives the same Result, digit for digit.
func Rank(in Input) Result {
	r := newRanker(in)
	if len(r.nodes) == 0 {
		return Result{Files: []File{}}
	}
	r.match()
	r.resolveImports()
	r.promoteImported()
	r.findHubs()
	a := adjacencyOf(r.buildGraph(r.linkEdges()), len(r.nodes))
	r.personalise(a)
	pr := pageRank(a, r.teleport())
	return Result{Files: r.files(a, pr)}
}

// extra is what the ranker learns about a file besides its graph position.
type extra struct {
	personal map[string]float64  // signal → personal restart mass
	notes    map[string][]string // signal → what matched
	waive    bool                // focused or named: no class penalty
	handles  []string            // interfaces its symbols handle ("relation database")
}

func (e *extra) add(sig string, mass float64, note string) {
	if e.personal == nil {
		e.personal, e.notes = map[string]float64{}, map[string][]string{}
	}
	e.personal[sig] += mass
	if note != "" && !slices.Contains(e.notes[sig], note) {
		e.notes[sig] = append(e.notes[sig], note)
	}
}

type ranker struct {
	graphBuilder
	in       Input
	decls    []decl
	extra    []extra
	ment     mentions
	focus    map[int]bool
	handlerS map[string][]string // file + "\x00" + symbol → interfaces it handles
	hotSym   map[string]bool     // file + "\x00" + symbol (or YAML kind+name) named in the task
	// personalTotal is the sum of personal restart masses (0 without focus and mentions).
	personalTotal float64
}

func newRanker(in Input) *ranker {
	r := &ranker{in: in, handlerS: map[string][]string{}, hotSym: map[string]bool{}, focus: map[int]bool{}}
	r.decls = declarations(in.Charms, in.Links)
	r.byPath = map[string]int{}
	for k := range in.Files {
		p := cleanPath(in.Files[k].Path)
		if _, dup := r.byPath[p]; !dup && p != "." {
			r.byPath[p] = -1
			r.nodes = append(r.nodes, node{path: p, py: &in.Files[k]})
		}
	}
	addYAML := func(p string) {
		if _, dup := r.byPath[p]; !dup && p != "" && p != "." {
			r.byPath[p] = -1
			r.nodes = append(r.nodes, node{path: p})
		}
	}
	for _, c := range in.Charms {
		for _, f := range c.Files {
			addYAML(cleanPath(f))
		}
	}
	for _, d := range r.decls {
		addYAML(d.file)
	}
	slices.SortFunc(r.nodes, func(a, b node) int { return strings.Compare(a.path, b.path) })
	for i := range r.nodes {
		r.byPath[r.nodes[i].path] = i
		r.nodes[i].class = Classify(r.nodes[i].path, in.Charms)
	}
	r.extra = make([]extra, len(r.nodes))
	r.indexDefinitions()
	for _, ch := range in.Links.Charms {
		for _, it := range ch.Interfaces {
			for _, h := range it.Handlers {
				k := cleanPath(h.File) + "\x00" + h.Symbol
				if l := it.Kind + " " + it.Name; !slices.Contains(r.handlerS[k], l) {
					r.handlerS[k] = append(r.handlerS[k], l)
				}
				if i, ok := r.byPath[cleanPath(h.File)]; ok && !slices.Contains(r.extra[i].handles, it.Kind+" "+it.Name) {
					r.extra[i].handles = append(r.extra[i].handles, it.Kind+" "+it.Name)
				}
			}
		}
	}
	return r
}

// findHubs marks charm entry points: first-party charm.py files and files calling ops' main.
func (r *ranker) findHubs() {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.py == nil || n.class != ClassSource {
			continue
		}
		n.hub = path.Base(n.path) == "charm.py" || callsOpsMain(n)
	}
}

func callsOpsMain(n *node) bool {
	if !slices.ContainsFunc(n.py.Refs, func(r pyextract.Ref) bool { return r.Name == "main" }) {
		return false
	}
	for _, imp := range n.py.Imports {
		if imp.Module == "ops" || strings.HasPrefix(imp.Module, "ops.") {
			return true
		}
	}
	return false
}

// linkEdges are the linker's ties as graph edges: YAML ↔ handler files, YAML ↔ reading files.
func (r *ranker) linkEdges() []weightedEdge {
	handlers, reads := map[edgeKey]int{}, map[edgeKey]int{}
	for _, d := range r.decls {
		y, ok := r.byPath[d.file]
		if !ok || d.iface == nil {
			continue
		}
		for _, h := range d.iface.Handlers {
			if f, ok := r.byPath[cleanPath(h.File)]; ok && f != y {
				handlers[edgeKey{y, f}]++
			}
		}
		for _, s := range d.iface.Reads {
			if f, ok := r.byPath[cleanPath(s.File)]; ok && f != y {
				reads[edgeKey{y, f}]++
			}
		}
	}
	var out []weightedEdge
	for _, set := range []struct {
		count map[edgeKey]int
		w     float64
	}{{handlers, LinkEdgeWeight}, {reads, ReadEdgeWeight}} {
		for _, k := range slices.SortedFunc(maps.Keys(set.count), func(a, b edgeKey) int {
			return cmp.Or(a.from-b.from, a.to-b.to)
		}) {
			w := set.w * math.Sqrt(float64(set.count[k]))
			out = append(out, weightedEdge{k, w}, weightedEdge{edgeKey{k.to, k.from}, w})
		}
	}
	return out
}

// match finds what the focus paths and the task text name: focused files, mentioned files,
// identifiers and interfaces. It fills the personal masses of extra, mention (identifiers
// whose edges get MentionEdgeWeight) and hotSym.
func (r *ranker) match() {
	for _, f := range r.in.Focus {
		if i, ok := r.byPath[cleanPath(f)]; ok && !r.focus[i] {
			r.focus[i] = true
			r.extra[i].waive = true
			r.extra[i].add(SigFocus, FocusTeleport, "")
		}
	}
	r.ment = parseMentions(r.in.Mentions)
	if r.ment.empty() {
		return
	}
	for i, n := range r.nodes {
		if r.mentionsFile(n.path) {
			r.extra[i].waive = true
			r.extra[i].add(SigMentionFile, MentionFileTeleport, path.Base(n.path))
		}
	}
	for _, name := range r.idOrder {
		id := r.ids[name]
		mass := r.identMention(name)
		if mass == 0 || len(id.defs) > MaxDefiners {
			continue
		}
		id.mention = true
		for _, i := range id.defs {
			r.extra[i].add(SigMentionIdent, mass/float64(len(id.defs)), name)
		}
	}
	for _, d := range r.decls {
		if !r.ment.grams[normName(d.sym.Name)] {
			continue
		}
		label := d.lkind + " " + d.sym.Name
		r.hotSym[d.file+"\x00"+d.sym.Kind+" "+d.sym.Name] = true
		targets := []int{}
		if y, ok := r.byPath[d.file]; ok {
			targets = append(targets, y)
		}
		if d.iface != nil {
			for _, h := range d.iface.Handlers {
				r.hotSym[cleanPath(h.File)+"\x00"+h.Symbol] = true
				if f, ok := r.byPath[cleanPath(h.File)]; ok && !slices.Contains(targets, f) {
					targets = append(targets, f)
				}
			}
		}
		for _, t := range targets {
			r.extra[t].add(SigMentionInterface, MentionInterfaceTeleport/float64(len(targets)), label)
		}
	}
}

// mentionsFile reports whether the task text names the file: by path or path suffix, by file
// name, or by its stem as a word run ("grafana config" → grafana_config.py).
func (r *ranker) mentionsFile(p string) bool {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	for _, t := range r.ment.paths {
		if lp == t || strings.HasSuffix(lp, "/"+t) || base == t {
			return true
		}
	}
	st := strings.TrimSuffix(base, path.Ext(base))
	return st != "__init__" && !stopwords[st] && r.ment.grams[normName(st)]
}

// identMention is the personal mass an identifier earns from the task text: named exactly
// (and not a plain stopword), or all of its words appear in the text.
func (r *ranker) identMention(id string) float64 {
	if r.ment.idents[id] && len(strings.Trim(id, "_")) >= 4 && !stopwords[strings.ToLower(id)] {
		return MentionIdentTeleport
	}
	ws := identWords(id)
	if len(ws) == 0 || len(ws) == 1 && len(ws[0]) < 5 {
		return 0
	}
	for _, w := range ws {
		if !r.ment.words[w] {
			return 0
		}
	}
	return MentionWordsTeleport
}

// personalise spreads restart mass from focused files to the files referencing them.
func (r *ranker) personalise(a adjacency) {
	for _, f := range slices.Sorted(maps.Keys(r.focus)) {
		if a.inW[f] == 0 {
			continue
		}
		for _, e := range a.rawIn[f] {
			if !r.focus[e.from] {
				r.extra[e.from].add(SigFocusCaller, FocusCallerTeleport*e.w/a.inW[f], path.Base(r.nodes[f].path))
			}
		}
	}
}

// personalSignals are the signals that carry restart mass, in a fixed order.
var personalSignals = []string{SigFocus, SigFocusCaller, SigMentionFile, SigMentionIdent, SigMentionInterface}

// teleport is the restart distribution: the class prior, and PersonalShare of it on the
// focus and mention targets when there are any.
func (r *ranker) teleport() []float64 {
	n := len(r.nodes)
	prior, pers := make([]float64, n), make([]float64, n)
	var sp, sq float64
	for i, nd := range r.nodes {
		prior[i] = classPrior(nd)
		sp += prior[i]
		for _, s := range personalSignals {
			pers[i] += r.extra[i].personal[s]
		}
		sq += pers[i]
	}
	share := 0.0
	if sq > 0 {
		share = PersonalShare
	}
	t := make([]float64, n)
	for i := range t {
		t[i] = (1 - share) * prior[i] / sp
		if sq > 0 {
			t[i] += share * pers[i] / sq
		}
	}
	r.personalTotal = sq
	return t
}

func classPrior(n node) float64 {
	p := PriorOther
	switch n.class {
	case ClassSource:
		p = PriorSource
	case ClassYAML:
		p = PriorYAML
	case ClassLib:
		p = PriorLib
	case ClassTest:
		p = PriorTest
	}
	if n.hub {
		p *= PriorHub
	}
	return p
}

// files turns the PageRank vector into ranked files with signals and ordered symbols.
func (r *ranker) files(a adjacency, pr []float64) []File {
	out := make([]File, len(r.nodes))
	total := 0.0
	for i, n := range r.nodes {
		f := File{Path: n.path, Class: n.class, Focused: r.focus[i]}
		score := pr[i]
		f.Signals = append(f.Signals, Signal{Name: SigPageRank, Value: roundSig(pr[i])})
		mul := func(sig string, x float64) {
			score *= x
			f.Signals = append(f.Signals, Signal{Name: sig, Value: x})
		}
		if n.hub {
			mul(SigHub, HubBoost)
		}
		if !r.extra[i].waive {
			switch n.class {
			case ClassLib:
				mul(SigLib, LibPenalty)
			case ClassTest:
				mul(SigTest, TestPenalty)
			case ClassOther:
				mul(SigOther, OtherPenalty)
			}
		}
		if n.promoted {
			f.Signals = append(f.Signals, Signal{Name: SigFirstPartyImport, Value: 1})
		}
		for _, s := range personalSignals {
			if m := r.extra[i].personal[s]; m > 0 {
				f.Signals = append(f.Signals, Signal{Name: s, Value: roundSig(PersonalShare * m / r.personalTotal),
					Note: noteOf(r.extra[i].notes[s])})
			}
		}
		if h := r.extra[i].handles; len(h) > 0 {
			f.Signals = append(f.Signals, Signal{Name: SigLinkHandler, Value: float64(len(h)), Note: noteOf(h)})
		}
		slices.SortStableFunc(f.Signals, func(x, y Signal) int { return cmp.Compare(y.Value, x.Value) })
		f.Score = score
		total += score
		out[i] = f
	}
	flows := r.symbolFlows(a, pr)
	for i := range out {
		if total > 0 {
			out[i].Score = roundSig(out[i].Score / total)
		}
		if r.nodes[i].py != nil {
			out[i].Symbols = r.pySymbols(i, flows)
		} else {
			out[i].Symbols = r.yamlSymbols(r.nodes[i].path)
		}
	}
	slices.SortFunc(out, func(x, y File) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		return strings.Compare(x.Path, y.Path)
	})
	return out
}

// noteOf joins up to three matches.
func noteOf(items []string) string {
	if len(items) > 3 {
		return strings.Join(items[:3], ", ") + ", …"
	}
	return strings.Join(items, ", ")
}

// roundSig rounds x to ScoreDigits significant digits.
func roundSig(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(ScoreDigits-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}
