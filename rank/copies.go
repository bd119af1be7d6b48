package rank

import (
	"cmp"
	"hash/fnv"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Copies. Monorepos copy shared code into each charm (vault-k8s-operator rsyncs its
// vault-package/ into k8s/.vendored/ and machine/.vendored/, where the charms import it from;
// a machine and a k8s charm vendor the same charm libraries). Listed one by one, the copies of
// a module take its place in the map two or three times over and split its rank between them.
// Files whose parse results are the same (same file name, line count, definitions with their
// lines and signatures, references, imports and prose) are one module. Its canonical path is
// the copy that is not a test, then has the fewest hidden folders in its path (the source the
// others are made from), then the shortest path, then the first in byte order. The canonical
// file takes the best score of its copies (the copy a charm imports collects the rank; a sum
// would count one module's rank once per charm and push the shared code above the charms'
// entry points; a vendored library takes only its library copies' scores) with that copy's
// signals, and names the copies (File.Copies); the copies
// have score 0 and follow every module in the ranking (File.CopyOf). Files under
// MinCopyLines lines or without definitions (empty __init__.py, stubs) are never copies: the
// same few lines in two places are not one module.

// MinCopyLines is the smallest file that can be a copy of another.
const MinCopyLines = 10

// copyKey is a 64-bit FNV-1a hash of what two copies of a module have in common; 0 for a file
// too small to count. A hash, not the text it is made of: a tree of 10,000 files would build
// tens of megabytes of keys.
func copyKey(f *pyextract.File) uint64 {
	if f == nil || f.Lines < MinCopyLines || len(f.Symbols) == 0 || f.Errors > 0 {
		return 0
	}
	h := fnv.New64a()
	put := func(parts ...string) {
		for _, p := range parts {
			io.WriteString(h, p)
			h.Write([]byte{0})
		}
	}
	put(path.Base(f.Path), strconv.Itoa(f.Lines))
	for _, s := range f.Symbols {
		put(s.Name, s.Kind, strconv.Itoa(s.Line), strconv.Itoa(s.EndLine), s.Signature)
	}
	for _, r := range f.Refs {
		put(r.Name, strconv.Itoa(r.Count))
	}
	for _, im := range f.Imports {
		put(im.Module, im.Name, im.Alias, strconv.Itoa(im.Line))
	}
	put(f.Words...)
	put(f.Comments...)
	return max(h.Sum64(), 1)
}

// hiddenDirs counts the path's folders whose names start with a dot.
func hiddenDirs(p string) int {
	n := 0
	for _, part := range strings.Split(path.Dir(p), "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			n++
		}
	}
	return n
}

// canonicalFirst orders the copies of a module: the canonical one first.
func canonicalFirst(a, b File) int {
	return cmp.Or(cmp.Compare(testRank(a), testRank(b)), cmp.Compare(hiddenDirs(a.Path), hiddenDirs(b.Path)),
		cmp.Compare(len(a.Path), len(b.Path)), strings.Compare(a.Path, b.Path))
}

// testRank is 1 for a test file, else 0.
func testRank(f File) int {
	if f.Class == ClassTest {
		return 1
	}
	return 0
}

// foldCopies finds the copies among the ranked files, gives each module's canonical file the
// best score of its copies, and returns for every file the index of its canonical file
// (itself for a file that is no copy).
func (r *ranker) foldCopies(out []File, score []float64) []int {
	canon := make([]int, len(out))
	// copies share their file name and length (both in copyKey): only files that share both
	// with another are hashed
	type shape struct {
		name  string
		lines int
	}
	shapeOf := func(n node) shape { return shape{path.Base(n.path), n.py.Lines} }
	names := map[shape]int{}
	for _, n := range r.nodes {
		if n.py != nil {
			names[shapeOf(n)]++
		}
	}
	groups := map[uint64][]int{}
	var keys []uint64
	for i, n := range r.nodes {
		canon[i] = i
		if n.py == nil || names[shapeOf(n)] < 2 {
			continue
		}
		if k := copyKey(n.py); k != 0 {
			if len(groups[k]) == 0 {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], i)
		}
	}
	for _, k := range keys {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		// a copy in a charm the task names is the one shown (charms.go)
		slices.SortFunc(g, func(a, b int) int {
			return cmp.Or(cmp.Compare(r.outsideNamed(a), r.outsideNamed(b)), canonicalFirst(out[a], out[b]))
		})
		c, best := g[0], g[0]
		for _, i := range g[1:] {
			// a module that is a vendored library at its canonical path is one everywhere: a
			// copy that escaped the library's penalty (classed by a path the library rules do
			// not know) does not lend it its score
			if score[i] > score[best] && (out[c].Class != ClassLib || out[i].Class == ClassLib) {
				best = i
			}
		}
		if best != c { // the canonical file's score is its best copy's, and so are the reasons
			score[c], out[c].Signals = score[best], slices.Clone(out[best].Signals)
		}
		for _, i := range g[1:] {
			score[i] = 0
			canon[i] = c
			out[i].CopyOf = out[c].Path
			out[c].Copies = append(out[c].Copies, out[i].Path)
		}
		out[c].Signals = append(out[c].Signals, Signal{Name: SigCopies, Kind: SignalCount, Value: float64(len(g) - 1), Note: noteOf(out[c].Copies)})
	}
	return canon
}
