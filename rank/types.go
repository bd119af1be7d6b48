// Package rank orders a charm tree's files, and the symbols within each file, by importance.
//
// Input: the Python files (pyextract), the charms (charmyaml), the links (linker) and what the
// agent is working on (focus paths, mention text). It builds a reference graph over files
// with gonum (a file that references a name points to the files that define it, resolved
// through imports where it can; a file points to the modules it imports; a YAML file points to
// the files that handle its interfaces and they point back) and runs personalised PageRank
// over it: restarts go mostly to first-party code and the charm's YAML, and to the focused
// files and the files, identifiers and interfaces the task text names. The PageRank score is
// then square-rooted (centrality says what to read more than what a change edits) and
// multiplied by class factors (entry point up; vendored libraries, tests, the charm's YAML and
// its own published library down; the entry point leads unless the task points elsewhere) and
// by a BM25 match of the task's words against each file's identifier words, strings and
// comments (and a YAML file's whole text). A task about libraries (libraries.go: "chore:
// update charm libraries", "Update COS agent lib") puts those libraries first; a dependency
// bump (dependencies.go: "Update dependency uv to v0.5.20") puts the YAML of the build part
// that pins it first, and a subject about building the charm ("Switching to poetry")
// charmcraft.yaml. Copies of one module (copies.go: a monorepo's shared package copied into
// each charm) are ranked once, at their canonical path. docs/eval.md has the figures behind
// the weights, on the dev cases and on held-out cases from other charms. Output: a Result,
// every file in rank order with its score, the named signals behind the score, and its
// symbols in importance order. Every weight is a named constant in weights.go with a comment
// saying why; scores are rounded to ScoreDigits significant digits and ties broken by path,
// so the order never flips on noise.
package rank

import (
	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// File classes: how a path is treated before any graph signal.
const (
	ClassSource = "source" // first-party charm code (src/, the charm's own lib/charms/<name>/, shared folders)
	ClassLib    = "lib"    // vendored charm library lib/charms/<other>/
	ClassTest   = "test"   // tests/, test/, unit_tests/, test_*.py, *_test.py, conftest.py
	ClassYAML   = "yaml"   // charm YAML
	ClassOther  = "other"  // other Python (scripts, docs helpers)
)

// Input is everything the ranker reads.
type Input struct {
	Files  []pyextract.File
	Charms []charmyaml.Charm
	Links  linker.Result
	// Focus are root-relative paths the agent is working on.
	Focus []string
	// Mentions are free task texts; identifiers, file names and interface names are taken from them.
	Mentions []string
	// Rocks are root-relative folders holding a rock's project (rockcraft.yaml): the workload's
	// image or a sample workload. Their Python inside a charm's folder is ClassOther, not the
	// charm's source, unless the charm's code imports it.
	Rocks []string
}

// Result is every mapped file in rank order (highest first; ties broken by path).
type Result struct {
	Files []File `json:"files"`
	// Named are the charm interfaces the task (the mentions) names, in the order of the YAML
	// declarations: those that seeded the mention-interface signal.
	Named []Named `json:"named,omitempty"`
}

// Named is an interface the task names.
type Named struct {
	Kind string `json:"kind"` // a linker kind: relation, config, action, container, storage, resource
	Name string `json:"name"`
	File string `json:"file"` // the YAML file declaring it
}

// File is one ranked file.
type File struct {
	Path    string   `json:"path"`
	Class   string   `json:"class"` // a Class constant
	Score   float64  `json:"score"` // normalised so the scores of all files sum to 1
	Focused bool     `json:"focused,omitempty"`
	Signals []Signal `json:"signals,omitempty"` // what made the score, largest value first, then the divisor
	Symbols []Symbol `json:"symbols"`           // importance order
	// Copies are the other paths of the same module (copies.go), on its canonical file, whose
	// score is the best of theirs; CopyOf is, on a copy, its canonical path (its score is 0).
	Copies []string `json:"copies,omitempty"`
	CopyOf string   `json:"copy_of,omitempty"`
}

// Signal is one named contribution to a score, for --explain. A file's score is its
// PageRank (the SignalBase) to the power PageRankPower, times each SignalFactor, divided by
// the SignalDivisor (the same sum for every file: scores add up to 1). A SignalSeed is a share
// of the restart mass of the personalised PageRank: it acts through the PageRank, not as a
// factor. A SignalCount is information (how many interfaces the file handles, copies it
// stands for).
type Signal struct {
	Name  string  `json:"name"`  // a weights.go constant name in kebab case, e.g. "pagerank", "lib-penalty"
	Kind  string  `json:"kind"`  // a Signal* kind constant
	Value float64 `json:"value"` // the PageRank, factor, share, count or divisor
	Note  string  `json:"note,omitempty"`
}

// Signal kinds.
const (
	SignalBase    = "base"
	SignalFactor  = "factor"
	SignalSeed    = "seed"
	SignalCount   = "count"
	SignalDivisor = "divisor"
)

// Symbol is one definition or declared interface in importance order.
type Symbol struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"` // class, function, method, constant, field; for YAML: relation, config-option, action, container, storage, resource, part, base, layer, charm
	Qualifier string  `json:"qualifier"`
	Signature string  `json:"signature"`        // Python: the one-line signature; YAML: "[relation] database (requires postgresql_client)"
	Digest    string  `json:"digest,omitempty"` // pyextract Symbol.Digest: the whole signature's hash when Signature is shortened
	Line      int     `json:"line"`
	Score     float64 `json:"score"`
	// Links are, for YAML interfaces, the handlers ("Class.method") in order, or an action's
	// own script when no code handles it ("actions/add-key"); for Python handlers, the
	// interfaces they handle ("relation database").
	Links []string `json:"links,omitempty"`
	// TaskWords are, for a function or method whose body matches the task among the best of
	// its file (bodyMatch at least BodyNoteShare) with two of its words or more, the task's
	// words its body has, as the task writes them, rarest in the file first (at most
	// lexNoteWords).
	TaskWords []string `json:"task_words,omitempty"`
	// Signals are how Score was made (--explain): the kind's weight (SignalBase), then each
	// factor, in the order applied; Score is their product, rounded.
	Signals []Signal `json:"signals,omitempty"`
}
