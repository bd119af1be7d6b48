package rank

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
)

// lexical scores each file against the task text with BM25 over the words of its
// identifiers: the words of its path, of the names it defines, of the names it uses, of its
// string literals and docstrings, of its comments (not for a vendored library) and, for a
// YAML file, of the interfaces it declares and their descriptions, of its whole text
// (build parts, pinned tools and their comments, at LexYAMLTextWeight; not the schema's type
// names, schemaTypes) and of the problems our
// reading of it found (LexProblemWeight). Words are matched by stem,
// and an inflected word also as written (LexFormWeight). This finds the file a
// task is about when the task names neither a file nor an exact identifier ("rebalance
// action when role not set", "job name suffix"). It returns nil without task words.
//
// It also notes, per file, the task words that weigh most in its score (at most lexNoteWords,
// as the task writes them): what --explain and locate print beside the factor.
func (r *ranker) lexical() []float64 {
	if len(r.ment.words) == 0 {
		return nil
	}
	q := r.lexQuery()
	tf, length := r.termCounts(q)
	idf, avg := q.weights(tf, length, func(i int) bool { return r.nodes[i].class == ClassTest })
	return r.bm25(q, tf, length, idf, avg)
}

// lexTerms is the query of lexical: the task's stems, then its inflected words as written,
// marked with '=' (LexFormWeight: "prefixed" is a term of its own beside "prefix").
type lexTerms struct {
	terms []string
	index map[string]int // term → its place in terms
}

func (r *ranker) lexQuery() lexTerms {
	terms := slices.Sorted(maps.Keys(r.ment.words))
	for _, w := range slices.Sorted(maps.Keys(r.ment.forms)) {
		terms = append(terms, "="+w)
	}
	index := make(map[string]int, len(terms))
	for k, w := range terms {
		index[w] = k
	}
	return lexTerms{terms: terms, index: index}
}

// termCounts counts, per file, the weighted occurrences of each query term among the file's
// words (tf), and the file's weighted word count (length).
func (r *ranker) termCounts(q lexTerms) (tf [][]float64, length []float64) {
	forms := map[string][]string{} // name → its inflected words, marked, computed once
	formsOf := func(name string) []string {
		fs, ok := forms[name]
		if !ok {
			for _, w := range inflectedWords(name) {
				fs = append(fs, "="+w)
			}
			forms[name] = fs
		}
		return fs
	}
	yamlWords := map[string][][]string{} // YAML file → its text words, per charm that reads it
	problems := map[string][]string{}    // YAML file → what reading it found wrong
	for _, ch := range r.in.Charms {
		for _, f := range slices.Sorted(maps.Keys(ch.Words)) {
			yamlWords[cleanPath(f)] = append(yamlWords[cleanPath(f)], ch.Words[f])
		}
		for _, w := range ch.Warnings {
			if file, msg, ok := strings.Cut(w, ":"); ok {
				problems[cleanPath(file)] = append(problems[cleanPath(file)], msg)
			}
		}
	}
	// The task's words for tests ("add integration tests", "fix unit testing") are about test
	// files: in a module's comment ("used in tests") or a YAML description ("for testing
	// purposes") they say nothing of what the task edits (review rev89: lego's metadata.yaml
	// comment "Included for simplicity in integration tests" outranked the refactored code).
	testTerm := make([]bool, len(q.terms))
	for k, t := range q.terms {
		testTerm[k] = testStems[stem(strings.TrimPrefix(t, "="))]
	}
	n := len(r.nodes)
	tf = make([][]float64, n)
	length = make([]float64, n)
	for i, nd := range r.nodes {
		bag := make([]float64, len(q.terms))
		test := nd.class == ClassTest
		// add counts the words of name (words: its stems) at weight w
		add := func(name string, words []string, w float64) {
			for _, word := range words {
				if k, ok := q.index[word]; ok && (test || !testTerm[k]) {
					bag[k] += w
				}
			}
			length[i] += w * float64(len(words))
			if len(r.ment.forms) > 0 {
				for _, word := range formsOf(name) {
					if k, ok := q.index[word]; ok && (test || !testTerm[k]) {
						bag[k] += w * LexFormWeight
					}
				}
			}
		}
		add(nd.path, r.words.words(nd.path), LexPathWeight)
		if nd.py != nil {
			for _, id := range r.symIDs[i] {
				if id >= 0 {
					add(r.name[id], r.wordsOf(id), LexDefWeight)
				}
			}
			for _, id := range r.refIDs[i] {
				add(r.name[id], r.wordsOf(id), LexRefWeight)
			}
			for _, w := range nd.py.Words {
				add(w, r.words.words(w), LexDocWeight)
			}
			if nd.class != ClassLib {
				for _, w := range nd.py.Comments {
					add(w, r.words.words(w), LexDocWeight)
				}
			}
		}
		for _, ws := range yamlWords[nd.path] {
			for _, w := range ws {
				if lw := strings.ToLower(w); !schemaTypes[lw] && !schemaKeys[lw] {
					add(w, r.words.words(w), LexYAMLTextWeight)
				}
			}
		}
		// a problem our reading found is what a fix of the file says ("remove duplicated key"
		// for `duplicate key "certificates"`)
		for _, p := range problems[nd.path] {
			add(p, r.words.words(p), LexProblemWeight)
		}
		for _, k := range r.declsOf[nd.path] {
			if r.decls[k].lkind == "" {
				continue // a build part: its words are in the file's text words
			}
			add(r.decls[k].sym.Name, r.words.words(r.decls[k].sym.Name), LexDefWeight)
			add(r.decls[k].doc, r.words.words(r.decls[k].doc), LexRefWeight)
		}
		tf[i] = bag
	}
	return tf, length
}

// weights returns each term's inverse document frequency and the mean file length. They are
// the code's and YAML's (test: the files left out): a test's words (an agent's new test of
// the task's feature) leave every other file's score as it was.
func (q lexTerms) weights(tf [][]float64, length []float64, test func(int) bool) (idf []float64, avg float64) {
	df := make([]int, len(q.terms))
	counted := 0
	for i, bag := range tf {
		if test(i) {
			continue
		}
		counted++
		avg += length[i]
		for k, x := range bag {
			if x > 0 {
				df[k]++
			}
		}
	}
	avg /= float64(max(counted, 1))
	idf = make([]float64, len(q.terms))
	for k := range q.terms {
		idf[k] = math.Log(1 + (float64(counted)-float64(df[k])+0.5)/(float64(df[k])+0.5))
	}
	// A word as written counts by what it says beyond its stem: a form about as common as
	// the stem ("template" beside "templat") adds nothing, a rare one ("prefixed" in one file,
	// "prefix" in thirteen) adds the difference.
	for k, w := range q.terms {
		if f, ok := strings.CutPrefix(w, "="); ok {
			if j, ok := q.index[stem(f)]; ok {
				idf[k] = max(idf[k]-idf[j], 0)
			}
		}
	}
	return idf, avg
}

// bm25 scores each file (Okapi BM25, BM25K1 and BM25B) and notes the task words that weigh
// most in its score (r.lexNotes).
func (r *ranker) bm25(q lexTerms, tf [][]float64, length, idf []float64, avg float64) []float64 {
	out := make([]float64, len(tf))
	r.lexNotes = make([]string, len(tf))
	type part struct {
		word string
		v    float64
	}
	for i, bag := range tf {
		norm := BM25K1 * (1 - BM25B + BM25B*length[i]/max(avg, 1))
		var parts []part
		for k, x := range bag {
			if x > 0 {
				v := idf[k] * x * (BM25K1 + 1) / (x + norm)
				out[i] += v
				if w := r.ment.surface(q.terms[k]); v > 0 && w != "" {
					parts = append(parts, part{w, v})
				}
			}
		}
		slices.SortStableFunc(parts, func(a, b part) int { return cmp.Compare(b.v, a.v) })
		var words []string
		for _, p := range parts {
			if len(words) == lexNoteWords {
				break
			}
			if !slices.Contains(words, p.word) {
				words = append(words, p.word)
			}
		}
		r.lexNotes[i] = strings.Join(words, ", ")
	}
	return out
}

// schemaTypes are the type names of the options' and action parameters' schemas (`type:
// string`, JSON Schema's `integer`, `array`): words of the file's format, in every option and
// parameter, not of what it declares, so "Remove old python string formatting" is not about
// config.yaml (review rev84: held46 cases whose YAML won on "string" or "list").
var schemaTypes = map[string]bool{"string": true, "int": true, "integer": true, "float": true, "number": true,
	"boolean": true, "bool": true, "object": true, "array": true, "null": true}

// schemaKeys are the keys of a declaration in charm YAML (`interface:`, `type:`,
// `default:`, `description:`, `optional:`): words of every declaration's format, not of what
// the file declares, so "keystone interface changed" is not about metadata.yaml by its
// `interface: http` line, nor "wrong default type" about config.yaml (review rev119). The
// declarations' own names and descriptions count apart (declsOf).
var schemaKeys = map[string]bool{"interface": true, "type": true, "limit": true, "optional": true, "scope": true,
	"required": true, "mounts": true, "location": true}

// lexNoteWords is how many task words a file's mention-words signal names.
const lexNoteWords = 4

// testStems are the stems of testWords (and "tested"): the task's words for tests.
var testStems = func() map[string]bool {
	out := map[string]bool{}
	for _, w := range append(slices.Clone(testWords), "tested") {
		out[stem(w)] = true
	}
	return out
}()
