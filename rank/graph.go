package rank

import (
	"cmp"
	"math"
	"path"
	"slices"
	"strings"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// node is one ranked file: a Python file or a charm YAML file.
type node struct {
	path     string
	class    string
	py       *pyextract.File // nil for YAML
	hub      bool            // a charm entry point
	promoted bool            // ClassOther promoted to ClassSource because charm code imports it
	coOwned  string          // for a vendored library, the charm's own module it imports (coOwnLibraries)
}

// importTarget is what a local name imported with `from M import N [as L]` points at.
type importTarget struct {
	node int
	name int // N (interned), the name in the defining module
	slot int // the (name, node) definition slot
}

// graphBuilder collects the weighted edges of the file graph. Names are interned once: the
// tree's hundreds of thousands of references are then resolved with integer indexes.
type graphBuilder struct {
	nodes  []node
	byPath map[string]int
	names  map[string]int // every defined or referenced name → its index
	name   []string       // index → name
	info   []identInfo    // index → what is known about the name
	// idOrder lists the defined names in first-definition order (files by path, then source
	// order), the fixed order anything iterating over names uses.
	idOrder  []int
	refIDs   [][]int // per file: the name index of each entry of its Refs
	symIDs   [][]int // per file: the name index of each symbol's identifier, -1 for dunders
	numSlots int
	imported []map[int]importTarget // per file: local name index → what it imports
	modEdges [][]int                // per file: modules it imports, ascending, unique
	// whole: per file, the modules it imports whole (import constants), ascending, unique
	whole [][]int
	refs  []refEdge // resolved references, by referencing file
	// mute reports whether what file from uses of file to gives it no rank (quietTests); nil
	// mutes nothing.
	mute func(from, to int) bool
}

// identInfo is what the graph knows about one name. The definitions of a defined name occupy
// the consecutive slots slotBase.. slotBase+len(defs)-1, so per-definition values live in
// flat slices.
type identInfo struct {
	defs     []int // files defining the name, ascending
	slotBase int
	weight   float64  // identWeight of the name
	mention  bool     // named in the task text
	words    []string // identWords, once computed
	split    bool
}

// refEdge is one resolved reference: file from uses the definition slot of file to.
type refEdge struct {
	from, to, slot int
	w              float64
}

// intern returns the index of a name, adding it when new.
func (b *graphBuilder) intern(s string) int {
	if id, ok := b.names[s]; ok {
		return id
	}
	id := len(b.name)
	b.names[s] = id
	b.name = append(b.name, s)
	b.info = append(b.info, identInfo{})
	return id
}

// lookup returns the index of a known name, or -1.
func (b *graphBuilder) lookup(s string) int {
	if id, ok := b.names[s]; ok {
		return id
	}
	return -1
}

// slot returns the definition slot of name index id in file i, or -1.
func (b *graphBuilder) slot(id, i int) int {
	if id >= 0 {
		if k, ok := slices.BinarySearch(b.info[id].defs, i); ok {
			return b.info[id].slotBase + k
		}
	}
	return -1
}

// wordsOf returns the identWords of name index id, computed once.
func (b *graphBuilder) wordsOf(id int) []string {
	if in := &b.info[id]; !in.split {
		in.words, in.split = identWords(b.name[id]), true
	}
	return b.info[id].words
}

// ident is the name a definition is referenced by: the method name of "Class.method".
func ident(symbolName string) string {
	if i := strings.LastIndexByte(symbolName, '.'); i >= 0 {
		return symbolName[i+1:]
	}
	return symbolName
}

func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// indexNames interns every defined and referenced name and fills the definition slots.
func (b *graphBuilder) indexNames() {
	total := 0
	for _, n := range b.nodes {
		if n.py != nil {
			total += len(n.py.Symbols) + len(n.py.Refs)
		}
	}
	b.names = make(map[string]int, total/2)
	b.refIDs = make([][]int, len(b.nodes))
	b.symIDs = make([][]int, len(b.nodes))
	for i, n := range b.nodes {
		if n.py == nil {
			continue
		}
		b.symIDs[i] = make([]int, len(n.py.Symbols))
		for k, s := range n.py.Symbols {
			b.symIDs[i][k] = -1
			name := ident(s.Name)
			if name == "" || isDunder(name) || s.Kind == pyextract.KindField {
				// a class's fields are shown, not ranked on: their names (port, name, address)
				// would tie a file to every file using a word of the same spelling
				continue
			}
			id := b.intern(name)
			b.symIDs[i][k] = id
			in := &b.info[id]
			if len(in.defs) == 0 {
				b.idOrder = append(b.idOrder, id)
			}
			if len(in.defs) == 0 || in.defs[len(in.defs)-1] != i {
				in.defs = append(in.defs, i)
			}
		}
	}
	for i, n := range b.nodes {
		if n.py == nil {
			continue
		}
		b.refIDs[i] = make([]int, len(n.py.Refs))
		for k, ref := range n.py.Refs {
			b.refIDs[i][k] = b.intern(ref.Name)
		}
	}
	for _, id := range b.idOrder {
		in := &b.info[id]
		in.slotBase, in.weight = b.numSlots, identWeight(b.name[id], len(in.defs))
		b.numSlots += len(in.defs)
	}
}

// modSuffix is one file found under one suffix of its module path. inPkg is the folder the
// suffix starts in when that folder is a package (has an __init__.py), else "".
type modSuffix struct {
	file  int
	inPkg string
}

// moduleIndex maps every '/'-joined suffix of a Python file's module path to the files:
// "src/core/cluster.py" is found as core/cluster and cluster; a package's __init__.py as the
// package.
func (b *graphBuilder) moduleIndex() map[string][]modSuffix {
	idx := map[string][]modSuffix{}
	for i, n := range b.nodes {
		if n.py == nil {
			continue
		}
		p := strings.TrimSuffix(n.path, ".py")
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/__init__"), "__init__")
		if p == "" {
			continue
		}
		segs := strings.Split(p, "/")
		for k := range segs {
			e := modSuffix{file: i}
			if k > 0 {
				dir := strings.Join(segs[:k], "/")
				if _, pkg := b.byPath[dir+"/__init__.py"]; pkg {
					e.inPkg = dir
				}
			}
			key := strings.Join(segs[k:], "/")
			idx[key] = append(idx[key], e)
		}
	}
	return idx
}

// resolveModule returns the files a module name imported by file i denotes. Relative names
// (".state", "..core") resolve against i's folder; absolute ones by path suffix, preferring
// the candidates that share the longest folder prefix with i. A suffix that starts inside a
// package is the module only for files in that package's folder (a script there, or the
// package's own code, on a path that holds the folder): from anywhere else Python needs the
// package's name, and s3/src/utils/logging.py is utils.logging, never the standard
// library's `import logging` of s3/src/charm.py. hooks/charmhelpers/core/hookenv.py stays
// charmhelpers.core.hookenv to hooks/glance_relations.py, a script run from hooks/, which
// holds an __init__.py for the unit tests.
func (b *graphBuilder) resolveModule(i int, mod string, idx map[string][]modSuffix) []int {
	if strings.HasPrefix(mod, ".") {
		dots := len(mod) - len(strings.TrimLeft(mod, "."))
		dir := path.Dir(b.nodes[i].path)
		for range dots - 1 {
			dir = path.Dir(dir)
		}
		full := path.Join(dir, strings.ReplaceAll(mod[dots:], ".", "/"))
		var out []int
		for _, p := range []string{full + ".py", full + "/__init__.py"} {
			if j, ok := b.byPath[strings.TrimPrefix(p, "./")]; ok && j != i {
				out = append(out, j)
			}
		}
		return out
	}
	from := path.Dir(b.nodes[i].path)
	best, out := -1, []int(nil)
	for _, c := range idx[strings.ReplaceAll(mod, ".", "/")] {
		j := c.file
		if j == i || !b.visible(i, j) || c.inPkg != "" && from != c.inPkg && !strings.HasPrefix(from, c.inPkg+"/") {
			continue
		}
		switch l := commonDirLen(b.nodes[i].path, b.nodes[j].path); {
		case l > best:
			best, out = l, []int{j}
		case l == best:
			out = append(out, j)
		}
	}
	return out
}

// commonDirLen is the number of leading folders two paths share.
func commonDirLen(a, b string) int {
	a, b = path.Dir(a), path.Dir(b)
	for n := 0; ; n++ { // without splitting: it runs for every candidate of every import
		sa, ra, moreA := strings.Cut(a, "/")
		sb, rb, moreB := strings.Cut(b, "/")
		if sa != sb {
			return n
		}
		if !moreA || !moreB {
			return n + 1
		}
		a, b = ra, rb
	}
}

// resolveImports fills imported and modEdges.
func (b *graphBuilder) resolveImports() {
	idx := b.moduleIndex()
	b.imported = make([]map[int]importTarget, len(b.nodes))
	b.modEdges = make([][]int, len(b.nodes))
	b.whole = make([][]int, len(b.nodes))
	for i, n := range b.nodes {
		if n.py == nil {
			continue
		}
		var targets []int
		for _, imp := range n.py.Imports {
			if imp.Name == "" || imp.Name == "*" {
				mods := b.resolveModule(i, imp.Module, idx)
				targets = append(targets, mods...)
				if imp.Name == "" {
					b.whole[i] = append(b.whole[i], mods...)
				}
				continue
			}
			sub := imp.Module + "." + imp.Name
			if strings.HasSuffix(imp.Module, ".") {
				sub = imp.Module + imp.Name
			}
			if mods := b.resolveModule(i, sub, idx); len(mods) > 0 { // from pkg import module
				// imported whole under its name, as `import pkg.module` is: its
				// module.Name means its own definition (review rev99: dns-integrator's
				// dns_record.DNSRecordRequires credited the three charms' libraries
				// defining the class)
				targets = append(targets, mods...)
				b.whole[i] = append(b.whole[i], mods...)
				continue
			}
			mods := b.resolveModule(i, imp.Module, idx)
			targets = append(targets, mods...)
			local := imp.Name
			if imp.Alias != "" {
				local = imp.Alias
			}
			if top, _, _ := strings.Cut(imp.Module, "."); len(mods) == 0 && top != "" && len(idx[top]) == 0 {
				// from a package outside the tree (from ops.pebble import APIError): the
				// file's uses of the name are that package's, not a definition of the same
				// name in the tree (resolveRefs)
				if b.imported[i] == nil {
					b.imported[i] = map[int]importTarget{}
				}
				b.imported[i][b.intern(local)] = importTarget{node: -1}
				continue
			}
			id := b.lookup(imp.Name)
			for _, m := range mods {
				if sl := b.slot(id, m); sl >= 0 && m != i {
					if b.imported[i] == nil {
						b.imported[i] = map[int]importTarget{}
					}
					b.imported[i][b.intern(local)] = importTarget{node: m, name: id, slot: sl}
					break
				}
			}
		}
		slices.Sort(targets)
		b.modEdges[i] = slices.Compact(targets)
		slices.Sort(b.whole[i])
		b.whole[i] = slices.Compact(b.whole[i])
	}
}

// promoteImported turns ClassOther files reachable by imports from first-party code into
// ClassSource (a monorepo's shared package outside the charm folders).
func (b *graphBuilder) promoteImported() {
	var queue []int
	for i, n := range b.nodes {
		if n.class == ClassSource {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range b.modEdges[i] {
			if b.nodes[j].class == ClassOther {
				b.nodes[j].class, b.nodes[j].promoted = ClassSource, true
				queue = append(queue, j)
			}
		}
	}
}

// coOwnLibraries marks a vendored charm library (lib/charms/<other>/...) that imports a module
// of its charm's own code (`from config import Config` resolving to src/config.py): no
// pristine copy of another charm's published library imports this charm's modules, so the
// family of charms that share it (mongos beside mongodb's lib/charms/mongodb/) develops it
// here too, and edits it as its own (review rev126). It stays a library (a refresh of the
// libraries fetches it), weighed as the charm's own (CoOwnedLibPenalty), not as a vendored
// one (LibPenalty), and locate may pick it for editing.
//
// The import must name the module as Python finds it from the charm's src/ folder, which ops
// puts on the path (`from config import Config` for src/config.py): not a module the tree's
// suffix matching would take (`import logging`, the standard library's, for a charm's
// src/utils/logging.py: azure-auth-integrator's data_interfaces, review rev128).
func (b *graphBuilder) coOwnLibraries(charms []charmyaml.Charm) {
	for i, n := range b.nodes {
		if n.class != ClassLib || n.py == nil || !isLibPath(n.path) {
			continue
		}
		src := path.Join(charmDirOf(n.path, charms), "src")
		for _, imp := range n.py.Imports {
			if imp.Module == "" || strings.HasPrefix(imp.Module, ".") {
				continue
			}
			mod := path.Join(src, strings.ReplaceAll(imp.Module, ".", "/"))
			if m := cmp.Or(b.ownModule(mod+".py"), b.ownModule(mod+"/__init__.py")); m != "" {
				b.nodes[i].coOwned = m
				break
			}
		}
	}
}

// ownModule is p when it is a module of the charm's own code (ClassSource, not promoted, no
// library), else "".
func (b *graphBuilder) ownModule(p string) string {
	if j, ok := b.byPath[p]; ok && b.nodes[j].class == ClassSource && !b.nodes[j].promoted && !isLibPath(p) {
		return p
	}
	return ""
}

// identWeight is how much a reference to a name says about a dependency: distinctive names
// count fully, short or single-word ones, private ones and conventional ones (defined in many
// files) much less.
func identWeight(name string, definers int) float64 {
	w := PlainIdentWeight
	if Distinctive(name) {
		w = DistinctiveIdentWeight
	}
	if strings.HasPrefix(name, "_") {
		w *= PrivateIdentWeight
	}
	if definers > ManyDefinersThreshold {
		w *= ManyDefinersWeight
	}
	return w
}

// Distinctive reports a name specific enough that a reference to it means the definition: a
// compound name of 8+ characters (snake_case, camelCase) or a capitalised name of 5+ (a class
// or constant: Patroni, CharmConfig, PEER_KEY). Plain lower-case words collide across objects.
func Distinctive(name string) bool {
	s := strings.Trim(name, "_")
	switch {
	case len(s) >= 5 && s[0] >= 'A' && s[0] <= 'Z':
		return true
	case len(s) < 8:
		return false
	case strings.Contains(s, "_"):
		return true
	}
	return strings.ToLower(s) != s
}

// resolveRefs fills refs: every reference edge from → to through the definition slot of a
// name, with its weight. A file referencing a name it defines itself, or assigns as an
// attribute of self, is taken to mean its own definition (no edge); a name imported from a
// resolved module points to that module only.
func (b *graphBuilder) resolveRefs() {
	b.refs = b.refs[:0]
	dormant := b.dormantLibs()
	for i, n := range b.nodes {
		if n.py == nil {
			continue
		}
		for k, ref := range n.py.Refs {
			id := b.refIDs[i][k]
			if ref.Count <= 0 {
				continue
			}
			if t, ok := b.imported[i][id]; ok {
				if t.node >= 0 {
					b.refs = append(b.refs, refEdge{i, t.node, t.slot, b.refWeight(t.name, 1)})
				}
				continue
			}
			defs := b.info[id].defs
			if len(defs) == 0 || len(defs) > MaxDefiners {
				continue
			}
			if _, own := slices.BinarySearch(defs, i); own {
				continue
			}
			if _, attr := slices.BinarySearch(n.py.Attrs, ref.Name); attr {
				continue // the file's own self.<name> (pyextract File.Attrs)
			}
			// A name that a module the file imports whole defines means that module's
			// definition (import constants, then constants.SERVICE_NAME: in a monorepo each
			// charm's charm.py imports its own constants.py, not its siblings'); otherwise
			// every definer the file can see shares the reference. Not so for the module of a
			// from-import: "from charmhelpers.core.hookenv import log" says nothing of the
			// file's other names (taking it to did cost held19 and heldE a case each). Only a
			// constant's or class's name: a reference records no qualifier, and a lower-case
			// name is as often a method of some object (self.workload.restart_workload()) as
			// the imported module's function.
			capital := strings.TrimLeft(b.name[id], "_")
			inWhole := func(t int) bool { _, ok := slices.BinarySearch(b.whole[i], t); return ok }
			only := len(b.whole[i]) > 0 && capital != "" && capital[0] >= 'A' && capital[0] <= 'Z' &&
				slices.ContainsFunc(defs, func(t int) bool { return b.visible(i, t) && inWhole(t) })
			keep := func(t int) bool { return b.visible(i, t) && !dormant[t] && (!only || inWhole(t)) }
			targets := 0
			for _, t := range defs {
				if keep(t) {
					targets++
				}
			}
			if targets == 0 {
				continue
			}
			w := b.refWeight(id, targets)
			for k, t := range defs {
				if !keep(t) {
					continue
				}
				b.refs = append(b.refs, refEdge{i, t, b.info[id].slotBase + k, w})
			}
		}
	}
	b.refs = slices.DeleteFunc(b.refs, func(e refEdge) bool { return b.muted(e.from, e.to) })
}

// dormantLibs are the vendored library files (ClassLib) no file outside the tests imports:
// a name the charm's code uses and such a file defines is another object's (review rev103:
// hockeypuck's calls of ops' get_content and add_secret made data_interfaces.py, which
// nothing imports, outrank its charm.py and take a block of the map), so they get no
// reference edges by name alone.
func (b *graphBuilder) dormantLibs() map[int]bool {
	imported := map[int]bool{}
	for i, ts := range b.modEdges {
		if b.nodes[i].class == ClassTest {
			continue
		}
		for _, t := range ts {
			if t != i {
				imported[t] = true
			}
		}
	}
	dormant := map[int]bool{}
	for t, n := range b.nodes {
		if n.class == ClassLib && n.py != nil && !imported[t] {
			dormant[t] = true
		}
	}
	return dormant
}

// muted reports whether what file from uses of file to counts for nothing (graphBuilder.mute).
func (b *graphBuilder) muted(from, to int) bool {
	return b.mute != nil && b.mute(from, to)
}

// visible reports whether file from can use a definition in file to: code outside the
// tests never uses test code (a test charm's copy of a library is not the charm's).
func (b *graphBuilder) visible(from, to int) bool {
	return b.nodes[from].class == ClassTest || b.nodes[to].class != ClassTest
}

// refWeight is the weight of references to name index id, split over targets definers. How
// many times a file uses the name does not count, only that it does: a body edit that adds
// one more use of a name the file already uses leaves the map as it was (review rev79: 22 of
// 135 such edits moved it while the weight grew with the count's square root).
func (b *graphBuilder) refWeight(id, targets int) float64 {
	in := &b.info[id]
	w := in.weight / float64(targets)
	if in.mention {
		w *= MentionEdgeWeight
	}
	return w
}

// edgeKey is a directed edge between node indexes.
type edgeKey struct{ from, to int }

// weightedEdge is one contribution to an edge.
type weightedEdge struct {
	edgeKey
	w float64
}

// buildGraph returns the weighted file graph: node IDs are node indexes; parallel
// contributions (several names, an import, links) are summed into one edge, in a fixed order.
func (b *graphBuilder) buildGraph(links []weightedEdge) *simple.WeightedDirectedGraph {
	b.resolveRefs()
	es := make([]weightedEdge, 0, len(links)+len(b.refs))
	es = append(es, links...)
	// the names one file uses of another's add up with diminishing returns
	// (NameEdgeExponent): forty constants of literals.py are not forty times one class
	names := map[edgeKey]float64{}
	var keys []edgeKey // in first-reference order (sorted below with the rest)
	for _, r := range b.refs {
		k := edgeKey{r.from, r.to}
		if _, ok := names[k]; !ok {
			keys = append(keys, k)
		}
		names[k] += r.w
	}
	for _, k := range keys {
		es = append(es, weightedEdge{k, math.Pow(names[k], NameEdgeExponent)})
	}
	for i, ts := range b.modEdges {
		for _, t := range ts {
			if b.muted(i, t) {
				continue
			}
			es = append(es, weightedEdge{edgeKey{i, t}, ImportEdgeWeight})
		}
	}
	slices.SortStableFunc(es, func(a, b weightedEdge) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return a.to - b.to
	})
	g := simple.NewWeightedDirectedGraph(0, 0)
	for i := range b.nodes {
		g.AddNode(simple.Node(int64(i)))
	}
	for k := 0; k < len(es); {
		e, w := es[k].edgeKey, 0.0
		for ; k < len(es) && es[k].edgeKey == e; k++ {
			w += es[k].w
		}
		if e.from != e.to && w > 0 {
			g.SetWeightedEdge(g.NewWeightedEdge(simple.Node(int64(e.from)), simple.Node(int64(e.to)), w))
		}
	}
	return g
}

// adjacency is the graph in the form the power iteration reads: each node's in-edges with
// their weights, in ascending source order, and the total weights in and out of each node.
type adjacency struct {
	in        [][]inEdge
	inW, outW []float64
}

type inEdge struct {
	from int
	w    float64
}

// adjacencyOf reads g (nodes 0..n-1) in a fixed order, so summation order — and therefore
// every digit of the result — is the same on every run.
func adjacencyOf(g graph.WeightedDirected, n int) adjacency {
	a := adjacency{in: make([][]inEdge, n), inW: make([]float64, n), outW: make([]float64, n)}
	tos := make([]int, 0, 16)
	for u := range n {
		tos = tos[:0]
		it := g.From(int64(u))
		for it.Next() {
			tos = append(tos, int(it.Node().ID()))
		}
		slices.Sort(tos)
		for _, v := range tos {
			w := g.WeightedEdge(int64(u), int64(v)).Weight()
			a.outW[u] += w
			a.inW[v] += w
			a.in[v] = append(a.in[v], inEdge{u, w})
		}
	}
	return a
}

// pageRank is personalised PageRank by power iteration: rank flows along out-edges in
// proportion to their weight (share Damping) and restarts according to teleport (the rest,
// plus the rank of nodes without out-edges). teleport must sum to 1. gonum's
// network.PageRank computes the same fixed point for a uniform teleport, but it starts from a
// random vector and walks nodes in map order, so its last digits differ from run to run; and
// it cannot be personalised. Starting from teleport and summing in a fixed order makes every
// run identical.
func pageRank(a adjacency, teleport []float64) []float64 {
	in := make([][]inEdge, len(a.in)) // weights normalised by the source's out-weight
	for v, es := range a.in {
		in[v] = make([]inEdge, len(es))
		for k, e := range es {
			in[v][k] = inEdge{e.from, e.w / a.outW[e.from]}
		}
	}
	x := slices.Clone(teleport)
	nx := make([]float64, len(x))
	for range MaxIterations {
		dangling := 0.0
		for u, w := range a.outW {
			if w == 0 {
				dangling += x[u]
			}
		}
		restart := Damping*dangling + (1 - Damping)
		diff := 0.0
		for v, ins := range in {
			s := 0.0
			for _, e := range ins {
				s += x[e.from] * e.w
			}
			nx[v] = Damping*s + restart*teleport[v]
			diff += math.Abs(nx[v] - x[v])
		}
		x, nx = nx, x
		if diff < Tolerance {
			break
		}
	}
	return x
}
