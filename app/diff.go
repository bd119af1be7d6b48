package app

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/render"
)

// When a file's rank "moved a lot" (diff). Positions count among the files both maps hold, so
// that files added or removed do not shift the others.
const (
	RankMovePlaces = 5 // its position changed by this many places or more
	RankMoveRatio  = 2 // or its score grew or shrank by this factor or more
	// RankMoveTop ignores files below this position in both maps: the tail (tests, vendored
	// libraries) holds many near-equal scores that trade places on any change, and it is
	// never shown to the agent anyway.
	RankMoveTop = 30
)

// DiffOptions are the arguments of `diff`.
type DiffOptions struct {
	Common
	Old, New string // paths of two `map --format json` documents
}

// DiffSymbol is a symbol added or removed.
type DiffSymbol struct {
	File      string `json:"file"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Qualifier string `json:"qualifier"`
	Signature string `json:"signature"`
	// Digest is the map's hash of the whole signature when Signature is shortened ("…").
	Digest string `json:"digest,omitempty"`
	Line   int    `json:"line"`
	// MovedTo, for a removed symbol, is the file an added symbol of the same kind, short
	// name and signature is in (a module split in two, a function moved to a helper
	// module); MovedFrom, for that added symbol, the removed one's file (symbolMoves).
	MovedTo   string `json:"moved_to,omitempty"`
	MovedFrom string `json:"moved_from,omitempty"`
}

// SymbolChange is a symbol whose signature changed (same name) or that was renamed.
type SymbolChange struct {
	File         string `json:"file"`
	Kind         string `json:"kind"`
	OldName      string `json:"old_name"`
	NewName      string `json:"new_name"`
	OldSignature string `json:"old_signature"`
	NewSignature string `json:"new_signature"`
	OldLine      int    `json:"old_line"`
	NewLine      int    `json:"new_line"`
	// Elided: the signatures read the same, and what changed is in the part both leave out
	// (a parameter in the middle of a long def, the end of a long constant), which their
	// digests tell.
	Elided bool `json:"elided,omitempty"`
}

// FileMove is a file that moved (MapDiff.FilesMoved).
type FileMove struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Same counts the symbols both hold unchanged (kind, name and signature).
	Same int `json:"same"`
}

// RankMove is a file whose rank moved a lot; ranks count from 1.
type RankMove struct {
	Path     string  `json:"path"`
	OldRank  int     `json:"old_rank"`
	NewRank  int     `json:"new_rank"`
	OldScore float64 `json:"old_score"`
	NewScore float64 `json:"new_score"`
}

// MapDiff is the `diff` result. Every list but Moved is sorted by the file's class (the
// charm's code, YAML, other files, vendored libraries, tests: classOrder), then by file and
// line.
type MapDiff struct {
	Old          string   `json:"old"`
	New          string   `json:"new"`
	FilesAdded   []string `json:"files_added"`
	FilesRemoved []string `json:"files_removed"`
	// FilesMoved are files of OLD missing from NEW paired with a file of NEW missing from
	// OLD that holds most of the same symbols (git mv, a module moved into a package);
	// neither is in FilesAdded or FilesRemoved, and the symbol lists compare the two, under
	// the new path. Sorted by the new path's class, then path.
	FilesMoved []FileMove     `json:"files_moved"`
	Added      []DiffSymbol   `json:"added"`   // including the symbols of added files
	Removed    []DiffSymbol   `json:"removed"` // including the symbols of removed files
	Changed    []SymbolChange `json:"changed"`
	Renamed    []SymbolChange `json:"renamed"`
	Moved      []RankMove     `json:"moved"` // in new rank order
	// QueryDiffers: the maps were made with different --focus, --mention or --scope (their
	// "query"), so rank moves may come from that rather than from the code.
	QueryDiffers bool `json:"query_differs,omitempty"`
}

// savedMap is what diff reads of a map document.
type savedMap struct {
	SchemaVersion int              `json:"schema_version"`
	Query         *render.QueryDoc `json:"query"`
	Files         []savedFile      `json:"files"`
}

// savedFile is what diff reads of one file of a map document.
type savedFile struct {
	Path    string       `json:"path"`
	Score   float64      `json:"score"`
	Class   string       `json:"class"`
	Symbols []DiffSymbol `json:"symbols"`
}

// classOrder is the order of the file classes in a diff's lists: the charm's own code first,
// then what it declares, and tests last (a change to tests is often most of a diff's lines,
// and least of what a reader of the code needs).
var classOrder = map[string]int{"source": 0, "yaml": 1, "other": 2, "lib": 3, "test": 4}

// fileOrder compares two paths by their class in either map (classOrder; a map saved without
// classes: by path only), then by path.
func fileOrder(old, cur savedMap) func(a, b string) int {
	class := map[string]int{}
	for _, m := range []savedMap{old, cur} {
		for _, f := range m.Files {
			if o, ok := classOrder[f.Class]; ok {
				class[f.Path] = o
			}
		}
	}
	return func(a, b string) int { return cmp.Or(cmp.Compare(class[a], class[b]), strings.Compare(a, b)) }
}

// RunDiff compares two saved maps.
func RunDiff(o DiffOptions, io IO) error {
	if err := checkFormat(o.Format, "text", "json"); err != nil {
		return err
	}
	old, err := readSavedMap(o.Old)
	if err != nil {
		return err
	}
	cur, err := readSavedMap(o.New)
	if err != nil {
		return err
	}
	d := Diff(old, cur)
	d.Old, d.New = o.Old, o.New
	if o.Format == "json" {
		return writeJSON(io.Out, struct {
			SchemaVersion int `json:"schema_version"`
			MapDiff
		}{SchemaVersion, d})
	}
	return writeDiff(io.Out, d)
}

// readSavedMap reads a `map --format json` document; anything else is an input error.
func readSavedMap(p string) (savedMap, error) {
	var m savedMap
	fail := func(format string, args ...any) (savedMap, error) {
		return m, &Error{Code: "input", Exit: ExitFailure, Msg: p + ": " + fmt.Sprintf(format, args...)}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return fail("%v", err)
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // a byte-order mark (Windows PowerShell's > writes one)
	const hint = "save one with map --all --format json"
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return fail("not JSON: %s", jsonout.Describe(err))
		}
		return fail("not a map document: %s (%s)", jsonout.Describe(err), hint)
	}
	if files, ok := probe["files"]; !ok || string(files) == "null" {
		return fail(`not a map document (no "files"; %s)`, hint)
	}
	if _, ok := probe["schema_version"]; !ok {
		return fail(`not a map document (no "schema_version"; %s)`, hint)
	}
	// savedMap's fields, not savedMap embedded: an error's path through an embedded struct
	// names its Go type ("savedMap.schema_version is a string": review rev94)
	var doc struct {
		SchemaVersion int               `json:"schema_version"`
		Query         *render.QueryDoc  `json:"query"`
		Files         []json.RawMessage `json:"files"` // each file decoded alone, so that an error can name it
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fail("not a map document: %s", jsonout.Describe(err))
	}
	m = savedMap{SchemaVersion: doc.SchemaVersion, Query: doc.Query}
	m.Files = make([]savedFile, len(doc.Files))
	for i, raw := range doc.Files {
		if err := json.Unmarshal(raw, &m.Files[i]); err != nil {
			what := jsonout.Describe(err) // "path is a number, …", or "the document is a number, …"
			if rest, ok := strings.CutPrefix(what, "the document "); ok {
				return fail("not a map document: files[%d] %s", i, rest)
			}
			return fail("not a map document: files[%d].%s", i, what)
		}
	}
	if m.SchemaVersion != SchemaVersion {
		return fail("schema_version %d, want %d", m.SchemaVersion, SchemaVersion)
	}
	for i, f := range m.Files {
		if f.Path == "" {
			return fail("files[%d] has no path", i)
		}
		for j := range f.Symbols {
			m.Files[i].Symbols[j].File = f.Path
		}
	}
	return m, nil
}

// Diff compares two maps file by file.
//
// Symbols are matched by kind and name (a method's name holds its class: "Charm._on_x"); a
// matched symbol whose signature differs is changed. Among the rest, within one file:
//  1. a removed and an added class with the same signature apart from the name are a rename,
//     and the methods of the old class are matched as if they already bore the new class name;
//  2. a removed and an added symbol of the same kind and class with the same signature apart
//     from the name (same parameters, annotations, bases or value) are a rename, the pair
//     closest in line chosen first.
//
// Everything else is added or removed. A symbol that only moved to another line is not
// reported; a symbol moved to another file is removed there and added here.
func Diff(old, cur savedMap) MapDiff {
	d := MapDiff{FilesAdded: []string{}, FilesRemoved: []string{}, FilesMoved: []FileMove{}, Added: []DiffSymbol{}, Removed: []DiffSymbol{},
		Changed: []SymbolChange{}, Renamed: []SymbolChange{}, Moved: []RankMove{}}
	oldFiles, newFiles := fileIndex(old), fileIndex(cur)
	paths := map[string]bool{}
	for p := range oldFiles {
		paths[p] = true
		if _, ok := newFiles[p]; !ok {
			d.FilesRemoved = append(d.FilesRemoved, p)
		}
	}
	for p := range newFiles {
		paths[p] = true
		if _, ok := oldFiles[p]; !ok {
			d.FilesAdded = append(d.FilesAdded, p)
		}
	}
	byFile := fileOrder(old, cur)
	slices.SortFunc(d.FilesAdded, byFile)
	slices.SortFunc(d.FilesRemoved, byFile)
	d.FilesMoved = fileMoves(old, cur, oldFiles, newFiles, d.FilesRemoved, d.FilesAdded)
	movedFrom, movedTo := map[string]string{}, map[string]string{} // new path → old path, and back
	for _, m := range d.FilesMoved {
		movedFrom[m.New], movedTo[m.Old] = m.Old, m.New
		delete(paths, m.Old)
	}
	d.FilesRemoved = slices.DeleteFunc(d.FilesRemoved, func(p string) bool { return !paths[p] })
	d.FilesAdded = slices.DeleteFunc(d.FilesAdded, func(p string) bool { return movedFrom[p] != "" })
	slices.SortFunc(d.FilesMoved, func(a, b FileMove) int { return byFile(a.New, b.New) })
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		var was, now []DiffSymbol
		if i, ok := oldFiles[cmp.Or(movedFrom[p], p)]; ok {
			was = old.Files[i].Symbols
			if movedFrom[p] != "" { // compared under the new path
				was = slices.Clone(was)
				for j := range was {
					was[j].File = p
				}
			}
		}
		if i, ok := newFiles[p]; ok {
			now = cur.Files[i].Symbols
		}
		diffFile(&d, was, now)
	}
	symbolMoves(d.Removed, d.Added)
	for _, l := range [][]DiffSymbol{d.Added, d.Removed} {
		slices.SortStableFunc(l, func(a, b DiffSymbol) int {
			return cmp.Or(byFile(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
		})
	}
	for _, l := range [][]SymbolChange{d.Changed, d.Renamed} {
		slices.SortStableFunc(l, func(a, b SymbolChange) int {
			return cmp.Or(byFile(a.File, b.File), cmp.Compare(a.NewLine, b.NewLine), strings.Compare(a.NewName, b.NewName))
		})
	}
	// a file moved is one file whose rank may have moved too (review rev95)
	if len(d.FilesMoved) > 0 {
		old.Files = slices.Clone(old.Files)
		for i, f := range old.Files {
			if n, ok := movedTo[f.Path]; ok {
				old.Files[i].Path = n
			}
		}
		oldFiles = fileIndex(old)
	}
	d.Moved = rankMoves(old, cur, oldFiles, newFiles)
	d.QueryDiffers = !reflect.DeepEqual(cmp.Or(old.Query, &render.QueryDoc{}), cmp.Or(cur.Query, &render.QueryDoc{}))
	return d
}

// symbolMoves marks the removed symbols that reappear in another file (MovedTo, MovedFrom):
// same kind, short name (a method may change class) and signature, each the other's only
// candidate, and not a dunder (every class has its __init__).
func symbolMoves(removed, added []DiffSymbol) {
	key := func(s DiffSymbol) string {
		short := shortName(s.Name)
		if strings.HasPrefix(short, "__") && strings.HasSuffix(short, "__") {
			return ""
		}
		// the digest too: two long signatures may read the same where they are cut (review rev98)
		return s.Kind + "\x00" + short + "\x00" + s.Signature + "\x00" + s.Digest
	}
	type side struct{ at, n int }
	rm, ad := map[string]side{}, map[string]side{}
	for i, s := range removed {
		if k := key(s); k != "" {
			rm[k] = side{i, rm[k].n + 1}
		}
	}
	for i, s := range added {
		if k := key(s); k != "" {
			ad[k] = side{i, ad[k].n + 1}
		}
	}
	for k, r := range rm {
		if a, ok := ad[k]; ok && r.n == 1 && a.n == 1 && removed[r.at].File != added[a.at].File {
			removed[r.at].MovedTo, added[a.at].MovedFrom = added[a.at].File, removed[r.at].File
		}
	}
}

// fileMoves pairs removed and added files that hold mostly the same symbols (a module moved
// unchanged, or moved and edited a little): at least moveShare of the larger file's symbols
// alike in kind, name and signature, and enough of them that are the removed file's own —
// found in no other file of OLD, so that the skeleton every file of a template shares (a
// TestCharm with its setUp, a logger, a Django Command) is no evidence (review rev95):
//   - Python: moveEvidence of them, or under the same file name two, or one (util.py moved
//     into a package) unless that name is one every package repeats (__init__.py, conftest.py).
//     Not told apart: two tiny modules of a framework's template (a Django command is a
//     Command class with add_arguments and handle, whatever it does), when the tree holds
//     no other, one deleted and one added;
//   - charm YAML, whose file names are fixed by convention: the same file name and two of them.
//
// Files of no symbols tell nothing and stay removed and added. Each file is in one pair at
// most, the pairs sharing most first. Equal pairs (a charm copied into two folders, one vendored
// library in several charms) go the way the unequivocal moves went: the pair whose path rewrite
// (alpha-operator/ -> zeta/, or "" -> machine/) most of those made; then by path, so the result
// never depends on map order. The added files are indexed by symbol once: thousands of files
// moved at once cost the symbols they share, not every pair of files.
// oldFiles and newFiles index the two maps (fileIndex).
func fileMoves(old, cur savedMap, oldFiles, newFiles map[string]int, removed, added []string) []FileMove {
	key := func(s DiffSymbol) string { return s.Kind + "\x00" + s.Name + "\x00" + s.Signature }
	keyCounts := func(syms []DiffSymbol) map[string]int {
		m := map[string]int{}
		for _, s := range syms {
			m[key(s)]++
		}
		return m
	}
	inOld := map[string]int{} // key → how many files of OLD hold it
	for _, f := range old.Files {
		for k := range keyCounts(f.Symbols) {
			inOld[k]++
		}
	}
	type posting struct{ file, n int } // an added file, how many of its symbols have the key
	index := map[string][]posting{}    // of the keys some one file of OLD holds
	addedCounts := make([]map[string]int, len(added))
	for ai, a := range added {
		addedCounts[ai] = keyCounts(cur.Files[newFiles[a]].Symbols)
		for _, k := range slices.Sorted(maps.Keys(addedCounts[ai])) {
			if inOld[k] == 1 {
				index[k] = append(index[k], posting{ai, addedCounts[ai][k]})
			}
		}
	}
	type cand struct {
		FileMove
		rewrite string
	}
	var cands []cand
	for _, r := range removed {
		was := old.Files[oldFiles[r]].Symbols
		counts := keyCounts(was)
		own := map[int]int{} // added file → the symbols of this file's own it shares
		for k, n := range counts {
			for _, p := range index[k] {
				own[p.file] += min(n, p.n)
			}
		}
		for ai := range own {
			a := added[ai]
			n := 0 // every symbol shared
			for k, m := range addedCounts[ai] {
				n += min(m, counts[k])
			}
			sameName := path.Base(r) == path.Base(a)
			enough := own[ai] >= moveEvidence || sameName && (own[ai] >= 2 || own[ai] == 1 && !conventionalModule[path.Base(a)])
			if !strings.HasSuffix(a, ".py") {
				enough = sameName && own[ai] >= 2
			}
			if enough && float64(n) >= moveShare*float64(max(len(was), len(cur.Files[newFiles[a]].Symbols))) {
				cands = append(cands, cand{FileMove{Old: r, New: a, Same: n}, pathRewrite(r, a)})
			}
		}
	}
	// the rewrites of the unequivocal pairs: each the one best candidate of both its files
	type best struct{ same, n int }
	bestOld, bestNew := map[string]best{}, map[string]best{}
	for _, c := range cands {
		for _, b := range []struct {
			m map[string]best
			p string
		}{{bestOld, c.Old}, {bestNew, c.New}} {
			switch was := b.m[b.p]; {
			case c.Same > was.same:
				b.m[b.p] = best{c.Same, 1}
			case c.Same == was.same:
				b.m[b.p] = best{c.Same, was.n + 1}
			}
		}
	}
	votes := map[string]int{}
	for _, c := range cands {
		if bestOld[c.Old] == (best{c.Same, 1}) && bestNew[c.New] == (best{c.Same, 1}) {
			votes[c.rewrite]++
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.Same, a.Same), cmp.Compare(votes[b.rewrite], votes[a.rewrite]),
			strings.Compare(a.New, b.New), strings.Compare(a.Old, b.Old))
	})
	usedOld, usedNew := map[string]bool{}, map[string]bool{}
	moves := []FileMove{}
	for _, c := range cands {
		if !usedOld[c.Old] && !usedNew[c.New] {
			usedOld[c.Old], usedNew[c.New] = true, true
			moves = append(moves, c.FileMove)
		}
	}
	return moves
}

// pathRewrite is what moving a file from a to b did to its path: the folders before the part
// both paths end with, old and new ("alpha-operator/lib/x.py" -> "zeta/lib/x.py":
// "alpha-operator/\x00zeta/"; "x.py" -> "machine/x.py": "\x00machine/").
func pathRewrite(a, b string) string {
	i, j := len(a), len(b)
	for i > 0 && j > 0 && a[i-1] == b[j-1] {
		i--
		j--
	}
	// on to a folder boundary in both: "foo/x.py" -> "barfoo/x.py" is foo/ -> barfoo/
	for i < len(a) && j < len(b) && (i > 0 && a[i-1] != '/' || j > 0 && b[j-1] != '/') {
		i++
		j++
	}
	return a[:i] + "\x00" + b[:j]
}

// moveShare is the share of the larger file's symbols two files must hold alike to be one
// file moved: more than half, so that a file split in two is one move (the larger part) at
// most.
const moveShare = 0.6

// moveEvidence is how many of its own symbols a removed file must share with an added file
// of another name to be taken for it: three, so that two small modules sharing a couple of
// names (a test class and its setUp, kept distinct by the third) are not one.
const moveEvidence = 3

// conventionalModule are the file names every package or test folder repeats: sharing one
// symbol under such a name says nothing.
var conventionalModule = map[string]bool{"__init__.py": true, "__main__.py": true, "conftest.py": true, "setup.py": true}

// fileIndex maps each path to its first position in the document.
func fileIndex(m savedMap) map[string]int {
	ix := map[string]int{}
	for i, f := range m.Files {
		if _, dup := ix[f.Path]; !dup {
			ix[f.Path] = i
		}
	}
	return ix
}

// diffFile adds one file's symbol changes to d.
func diffFile(d *MapDiff, old, cur []DiffSymbol) {
	olds, news := pending(old), pending(cur)
	// Unchanged symbols first: of two same-named ones (overloads, a def in each branch of an
	// if) that swapped places, neither changed.
	matchSymbols(d, olds, news, func(s DiffSymbol) string { return s.Kind + "\x00" + s.Name + "\x00" + s.Signature + "\x00" + s.Digest }, false)
	// Same kind and name.
	matchSymbols(d, olds, news, func(s DiffSymbol) string { return s.Kind + "\x00" + s.Name }, false)
	// Renamed classes, then their methods under the new class name.
	isClass := func(s DiffSymbol) string {
		if s.Kind != "class" {
			return ""
		}
		return s.Qualifier + "\x00" + shape(s)
	}
	classes := matchSymbols(d, olds, news, specific(isClass), true)
	maps.Copy(classes, matchGeneric(d, olds, news, generic(isClass)))
	for _, o := range olds.left() {
		if n, ok := classes[o.Qualifier]; ok {
			o.Name = n + strings.TrimPrefix(o.Name, o.Qualifier)
			o.Qualifier = n
			olds.set(o)
		}
	}
	matchSymbols(d, olds, news, func(s DiffSymbol) string { return s.Kind + "\x00" + s.Name }, false)
	// Renamed symbols.
	sameShape := func(s DiffSymbol) string { return s.Kind + "\x00" + s.Qualifier + "\x00" + shape(s) }
	renamed := matchSymbols(d, olds, news, specific(sameShape), true)
	maps.Copy(renamed, matchGeneric(d, olds, news, generic(sameShape)))
	// The other definitions of a renamed name go with it: a property's setter and deleter
	// (@port.setter def port: its shape holds the name twice), overloads, a def in each
	// branch of an if (review rev94: the setter read as removed and added).
	for _, o := range olds.left() {
		if n, ok := renamed[o.Name]; ok && o.Kind != "class" {
			o.Name = n
			olds.set(o)
		}
	}
	matchSymbols(d, olds, news, func(s DiffSymbol) string { return s.Kind + "\x00" + s.Name }, true)
	for _, s := range olds.left() {
		d.Removed = append(d.Removed, olds.orig[s.id])
	}
	for _, s := range news.left() {
		d.Added = append(d.Added, news.orig[s.id])
	}
}

// pendingSym is a symbol not matched yet; id indexes the file's symbol list.
type pendingSym struct {
	DiffSymbol
	id int
}

// pendingSet holds one side's unmatched symbols, as originally read and as renamed so far.
type pendingSet struct {
	orig []DiffSymbol
	cur  []DiffSymbol
	done []bool
}

func pending(syms []DiffSymbol) *pendingSet {
	return &pendingSet{orig: syms, cur: slices.Clone(syms), done: make([]bool, len(syms))}
}

func (p *pendingSet) left() []pendingSym {
	var out []pendingSym
	for i, s := range p.cur {
		if !p.done[i] {
			out = append(out, pendingSym{s, i})
		}
	}
	return out
}

func (p *pendingSet) set(s pendingSym) { p.cur[s.id] = s.DiffSymbol }

// matchSymbols pairs unmatched old and new symbols with the same non-empty key, the pair
// closest in line first, and records each pair: as renamed when rename is set and the names
// differ, as changed when the signatures differ. It returns the renamed names, old → new.
func matchSymbols(d *MapDiff, olds, news *pendingSet, key func(DiffSymbol) string, rename bool) map[string]string {
	renamed := map[string]string{}
	byKey := map[string][]pendingSym{}
	for _, n := range news.left() {
		if k := key(n.DiffSymbol); k != "" {
			byKey[k] = append(byKey[k], n)
		}
	}
	for _, o := range olds.left() {
		k := key(o.DiffSymbol)
		cands := byKey[k]
		if k == "" || len(cands) == 0 {
			continue
		}
		best := 0
		for i, c := range cands {
			if abs(c.Line-o.Line) < abs(cands[best].Line-o.Line) {
				best = i
			}
		}
		n := cands[best]
		byKey[k] = slices.Delete(cands, best, best+1)
		switch c := pair(olds, news, o, n); {
		case rename && c.OldName != c.NewName:
			d.Renamed = append(d.Renamed, c)
			renamed[o.Name] = c.NewName // the name as matched: a method's under its class's new name
		case c.OldSignature != c.NewSignature || c.Elided:
			d.Changed = append(d.Changed, c)
		}
	}
	return renamed
}

// genericShape reports a symbol whose shape says almost nothing: a class with one base or
// none (class HasPeersEvent(EventBase):), a function or method with at most one parameter
// besides self or cls and no annotation or default (def _on_joined(self, event):), and any
// symbol of another kind (a YAML declaration, a constant).
// Charms are full of them, so two of them sharing a shape are no evidence of a rename.
func genericShape(s DiffSymbol) bool {
	sig := s.Signature
	if i := strings.LastIndex(sig, ") def "); i >= 0 { // decorators: the header after them
		sig = sig[i+2:]
	} else if i := strings.LastIndex(sig, ") class "); i >= 0 {
		sig = sig[i+2:]
	}
	open, end := strings.IndexByte(sig, '('), strings.LastIndexByte(sig, ')')
	var params []string
	if open >= 0 && end > open {
		for _, p := range strings.Split(sig[open+1:end], ",") {
			if p = strings.TrimSpace(p); p != "" && p != "self" && p != "cls" {
				params = append(params, p)
			}
		}
	}
	switch s.Kind {
	case "class":
		return len(params) <= 1 && !strings.Contains(sig[max(open, 0):], "=")
	case "function", "method":
		return len(params) == 0 || len(params) == 1 && (!strings.ContainsAny(params[0], ":=*") || baseEventParam(params[0]))
	}
	// a config option, an action, a constant ...: its shape is a type and a value that many
	// share (a string option without default, DEBUG = False), no evidence of a rename (review
	// rev94: removing mysql-interface-user and adding tls-ca-chain read as a rename, hiding a
	// breaking removal)
	return true
}

// baseEventParam reports a parameter annotated with an event base class, which any handler
// may take: "event: ops.EventBase", "e: HookEvent".
func baseEventParam(p string) bool {
	_, typ, ok := strings.Cut(p, ":")
	typ = strings.TrimSpace(typ)
	typ = typ[strings.LastIndexByte(typ, '.')+1:]
	return ok && !strings.Contains(p, "=") && (typ == "EventBase" || typ == "HookEvent" || typ == "RelationEvent")
}

// specific is key for the symbols whose shape is not generic (genericShape), "" for the others;
// generic is key for those only.
func specific(key func(DiffSymbol) string) func(DiffSymbol) string {
	return func(s DiffSymbol) string {
		if genericShape(s) {
			return ""
		}
		return key(s)
	}
}

func generic(key func(DiffSymbol) string) func(DiffSymbol) string {
	return func(s DiffSymbol) string {
		if !genericShape(s) {
			return ""
		}
		return key(s)
	}
}

// matchGeneric records renames among symbols of a generic shape (genericShape), which need
// more than the shape: the two names are related (relatedNames, or two classes share a
// method's name: State.get, Store.get), and each is the other's only related candidate of
// that key. The rest stay removed and added: a false rename (on_joined => on_broken, two
// handlers of opposite events) would tell the reader that callers need the new name only.
func matchGeneric(d *MapDiff, olds, news *pendingSet, key func(DiffSymbol) string) map[string]string {
	// each side's members by class and its symbols by key, once (review rev94: recomputed
	// for every pair, 500 renamed classes took 89 s)
	members := func(p *pendingSet) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for _, s := range p.left() {
			if short := shortName(s.Name); s.Qualifier != "" && !strings.HasPrefix(short, "__") {
				if m[s.Qualifier] == nil {
					m[s.Qualifier] = map[string]bool{}
				}
				m[s.Qualifier][short] = true
			}
		}
		return m
	}
	oldMembers, newMembers := members(olds), members(news)
	related := func(o, n pendingSym) bool {
		if relatedNames(o.Name, n.Name) {
			return true
		}
		if o.Kind != "class" {
			return false
		}
		nm := newMembers[n.Name]
		for m := range oldMembers[o.Name] {
			if nm[m] {
				return true
			}
		}
		return false
	}
	byKey := map[string][]pendingSym{}
	for _, n := range news.left() {
		if k := key(n.DiffSymbol); k != "" {
			byKey[k] = append(byKey[k], n)
		}
	}
	// only a pair each of whose symbols has no other related candidate is a rename, so the
	// first candidate and a count up to 2 are all that is kept
	first := map[int]pendingSym{} // old id → its first related new symbol of its key
	cands := map[int]int{}        // old id → how many (up to 2)
	count := map[int]int{}        // new id → how many old symbols it is related to
	for _, o := range olds.left() {
		k := key(o.DiffSymbol)
		if k == "" {
			continue
		}
		for _, n := range byKey[k] {
			if related(o, n) {
				if cands[o.id] == 0 {
					first[o.id] = n
				}
				cands[o.id] = min(cands[o.id]+1, 2)
				count[n.id]++
			}
		}
	}
	renamed := map[string]string{}
	for _, o := range olds.left() {
		if n, ok := first[o.id]; ok && cands[o.id] == 1 && count[n.id] == 1 {
			ch := pair(olds, news, o, n)
			d.Renamed = append(d.Renamed, ch)
			renamed[o.Name] = ch.NewName // as in matchSymbols
		}
	}
	return renamed
}

// nameNoise are the words of a handler's or an event's name that every such name has.
var nameNoise = map[string]bool{"on": true, "event": true, "events": true, "handle": true, "handler": true, "get": true,
	"set": true, "is": true, "has": true, "do": true, "the": true, "of": true, "to": true, "for": true,
	"relation": true, "relations": true}

// eventWords name what happens, or which side an endpoint is: two names that differ in one
// (_on_db_relation_joined, _on_db_relation_broken; start, restart; DatabaseRequiresEvent,
// DatabaseProvidesEvent) name different things, whatever else they share.
var eventWords = map[string]bool{"created": true, "joined": true, "changed": true, "departed": true, "broken": true,
	"ready": true, "attached": true, "detaching": true, "start": true, "started": true, "restart": true, "stop": true,
	"stopped": true, "install": true, "installed": true, "remove": true, "removed": true, "upgrade": true,
	"requires": true, "provides": true, "requirer": true, "provider": true, "available": true, "gone": true,
	"connected": true, "disconnected": true, "elected": true, "leader": true}

// relatedNames reports two names (of a symbol, without their class) that share a word other
// than nameNoise (PeersCreatedEvent, PeersConnectedEvent), or one of which holds the other
// (hostname, host), unless they differ in an eventWords word.
func relatedNames(a, b string) bool {
	a, b = shortName(a), shortName(b)
	wa, wb := nameWords(a), nameWords(b)
	for _, w := range wa {
		if eventWords[w] && !slices.Contains(wb, w) {
			return false
		}
	}
	for _, w := range wb {
		if eventWords[w] && !slices.Contains(wa, w) {
			return false
		}
	}
	la, lb := strings.ToLower(strings.Trim(a, "_")), strings.ToLower(strings.Trim(b, "_"))
	if len(la) >= 3 && len(lb) >= 3 && (strings.Contains(la, lb) || strings.Contains(lb, la)) {
		return true
	}
	return slices.ContainsFunc(wa, func(w string) bool { return slices.Contains(wb, w) })
}

// nameWords are the words of an identifier (pyextract.SplitWords) without nameNoise.
func nameWords(id string) []string {
	return slices.DeleteFunc(pyextract.SplitWords(id), func(w string) bool { return nameNoise[w] })
}

// pair marks old symbol o and new symbol n matched, and returns the change from o as first
// read to n.
func pair(olds, news *pendingSet, o, n pendingSym) SymbolChange {
	olds.done[o.id], news.done[n.id] = true, true
	was := olds.orig[o.id]
	// a map saved before digests existed has none: only two digests can tell a change
	elided := was.Signature == n.Signature && was.Digest != "" && n.Digest != "" && was.Digest != n.Digest
	return SymbolChange{File: n.File, Kind: n.Kind, OldName: was.Name, NewName: n.Name,
		OldSignature: was.Signature, NewSignature: n.Signature, OldLine: was.Line, NewLine: n.Line, Elided: elided}
}

// shape is a symbol's signature with its own name taken out, wherever it stands as a word
// (a setter's holds it twice: @port.setter def port): two symbols with the same shape differ
// in name only.
func shape(s DiffSymbol) string {
	short := shortName(s.Name)
	if short == "" {
		return s.Signature
	}
	sig := s.Signature
	var b strings.Builder
	done := 0 // sig[:done] is written
	for from := 0; ; {
		k := strings.Index(sig[from:], short)
		if k < 0 {
			break
		}
		i, j := from+k, from+k+len(short)
		if (i == 0 || !isIdent(sig[i-1])) && (j == len(sig) || !isIdent(sig[j])) {
			b.WriteString(sig[done:i] + "\x00")
			done, from = j, j
		} else {
			from = i + 1
		}
	}
	return b.String() + sig[done:]
}

// shortName is a symbol's name without its class ("C.get": "get").
func shortName(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

func isIdent(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rankMoves lists the files both maps hold whose rank moved a lot.
func rankMoves(old, cur savedMap, oldFiles, newFiles map[string]int) []RankMove {
	commonRanks := func(m savedMap, other map[string]int) map[string]int {
		r := map[string]int{}
		for _, f := range m.Files {
			if _, ok := other[f.Path]; ok && r[f.Path] == 0 {
				r[f.Path] = len(r) + 1
			}
		}
		return r
	}
	oldRank, newRank := commonRanks(old, newFiles), commonRanks(cur, oldFiles)
	moves := []RankMove{}
	for p, nr := range newRank {
		or := oldRank[p]
		if min(or, nr) > RankMoveTop {
			continue
		}
		was, now := old.Files[oldFiles[p]].Score, cur.Files[newFiles[p]].Score
		ratio := math.Max(was, now) / math.Min(was, now) // +Inf when one is 0, NaN when both are
		if abs(or-nr) >= RankMovePlaces || ratio >= RankMoveRatio {
			moves = append(moves, RankMove{Path: p, OldRank: or, NewRank: nr, OldScore: was, NewScore: now})
		}
	}
	slices.SortFunc(moves, func(a, b RankMove) int { return cmp.Compare(a.NewRank, b.NewRank) })
	return moves
}

// diffTitles are the lines writeDiff starts its parts with.
var diffTitles = []string{"files added", "files removed", "files moved", "rank moved", "no differences"}

// diffPath is a path as writeDiff prints it: Go-quoted when it would read as something else
// (safetext.Path), when it holds a separator of diff's lines (" -> " between a moved file's
// names, " (" before a count or a note, ": " after a path, ", " in a list of paths), and when
// it starts as a part's title does (a file "rank moved" would head a part of its own).
func diffPath(p string) string {
	for _, t := range diffTitles {
		if strings.HasPrefix(p, t) {
			return strconv.Quote(p)
		}
	}
	return safetext.Path(p, " -> ", " (", ": ", ", ")
}

// writeDiff prints the differences: files added and removed, then per file the symbol
// changes (a file added or removed is not listed symbol by symbol), then the rank moves.
func writeDiff(w io.Writer, d MapDiff) error {
	var sb strings.Builder
	whole := map[string]int{} // added or removed file → its symbols
	for _, part := range []struct {
		title string
		paths []string
		syms  []DiffSymbol
	}{{"files added", d.FilesAdded, d.Added}, {"files removed", d.FilesRemoved, d.Removed}} {
		if len(part.paths) == 0 {
			continue
		}
		for _, p := range part.paths {
			whole[p] = 0
		}
		for _, s := range part.syms {
			if _, ok := whole[s.File]; ok {
				whole[s.File]++
			}
		}
		sb.WriteString(part.title + ":\n")
		// the symbols of a whole file that moved to (or came from) other files, which the
		// file's line would otherwise hide (review rev98)
		moved := map[string][]string{}
		for _, s := range part.syms {
			if other := cmp.Or(s.MovedTo, s.MovedFrom); other != "" {
				if _, ok := whole[s.File]; ok && !slices.Contains(moved[s.File], other) {
					moved[s.File] = append(moved[s.File], other)
				}
			}
		}
		for _, p := range part.paths {
			noun := "symbols"
			if whole[p] == 1 {
				noun = "symbol"
			}
			note := ""
			if others := moved[p]; len(others) > 0 {
				slices.Sort(others)
				dir := "some now in"
				if part.title == "files added" {
					dir = "some from"
				}
				if len(others) > 3 {
					others = append(others[:3], fmt.Sprintf("%d more", len(others)-3))
				}
				for i, o := range others {
					others[i] = diffPath(o)
				}
				note = fmt.Sprintf("; %s %s", dir, strings.Join(others, ", "))
			}
			fmt.Fprintf(&sb, "  %s (%d %s%s)\n", diffPath(p), whole[p], noun, note)
		}
	}
	if len(d.FilesMoved) > 0 {
		sb.WriteString("files moved:\n")
		for _, m := range d.FilesMoved {
			fmt.Fprintf(&sb, "  %s -> %s\n", diffPath(m.Old), diffPath(m.New))
		}
	}
	lines := map[string][]string{}
	for _, c := range d.Renamed {
		line := fmt.Sprintf("  renamed  %s %s => %s", oneLine(c.Kind), oneLine(c.OldName), oneLine(c.NewName))
		if shape(DiffSymbol{Name: c.OldName, Signature: c.OldSignature}) != shape(DiffSymbol{Name: c.NewName, Signature: c.NewSignature}) {
			// a setter or overload that followed its renamed name, and changed besides
			line += fmt.Sprintf(": %s => %s", oneLine(c.OldSignature), oneLine(c.NewSignature))
		}
		if !slices.Contains(lines[c.File], line) { // a property and its setter: one rename
			lines[c.File] = append(lines[c.File], line)
		}
	}
	for _, c := range d.Changed {
		name := oneLine(c.NewName)
		if c.OldName != c.NewName {
			name = oneLine(c.OldName) + " => " + name
		}
		line := fmt.Sprintf("  changed  %s %s: %s => %s", oneLine(c.Kind), name, oneLine(c.OldSignature), oneLine(c.NewSignature))
		if c.Elided {
			line = fmt.Sprintf("  changed  %s %s: %s (in the part the signature leaves out)", oneLine(c.Kind), name, oneLine(c.NewSignature))
		}
		lines[c.File] = append(lines[c.File], line)
	}
	for _, part := range []struct {
		verb string
		syms []DiffSymbol
	}{{"removed", d.Removed}, {"added", d.Added}} {
		for _, s := range part.syms {
			if _, ok := whole[s.File]; !ok {
				line := fmt.Sprintf("  %-7s  %s %s: %s", part.verb, oneLine(s.Kind), oneLine(s.Name), oneLine(s.Signature))
				switch {
				case s.MovedTo != "":
					line += " (now in " + diffPath(s.MovedTo) + ")"
				case s.MovedFrom != "":
					line += " (from " + diffPath(s.MovedFrom) + ")"
				}
				lines[s.File] = append(lines[s.File], line)
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(lines)) {
		sb.WriteString(diffPath(p) + ":\n" + strings.Join(lines[p], "\n") + "\n")
	}
	if len(d.Moved) > 0 {
		sb.WriteString("rank moved:\n")
		if d.QueryDiffers {
			sb.WriteString("  (the maps were made with different --focus, --mention or --scope: the moves may come from that)\n")
		}
		for _, m := range d.Moved {
			fmt.Fprintf(&sb, "  %s: %d -> %d (score %s -> %s)\n", diffPath(m.Path), m.OldRank, m.NewRank, num(m.OldScore), num(m.NewScore))
		}
	}
	if sb.Len() == 0 {
		sb.WriteString("no differences\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
