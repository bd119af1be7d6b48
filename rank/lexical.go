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
	// The query's terms: its stems, and its inflected words as written, marked with '='
	// (LexFormWeight: "prefixed" is a term of its own beside "prefix").
	query := slices.Sorted(maps.Keys(r.ment.words))
	for _, w := range slices.Sorted(maps.Keys(r.ment.forms)) {
		query = append(query, "="+w)
	}
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
	qi := make(map[string]int, len(query))
	for k, w := range query {
		qi[w] = k
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
	n := len(r.nodes)
	tf := make([][]float64, n) // per file, per query word
	length := make([]float64, n)
	df := make([]int, len(query))
	for i, nd := range r.nodes {
		bag := make([]float64, len(query))
		// add counts the words of name (words: its stems) at weight w
		add := func(name string, words []string, w float64) {
			for _, word := range words {
				if k, ok := qi[word]; ok {
					bag[k] += w
				}
			}
			length[i] += w * float64(len(words))
			if len(r.ment.forms) > 0 {
				for _, word := range formsOf(name) {
					if k, ok := qi[word]; ok {
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
				if !schemaTypes[strings.ToLower(w)] {
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
	// The words' weights and the mean length are the code's and YAML's: a test's words (an
	// agent's new test of the task's feature) leave every other file's score as it was.
	avg, counted := 0.0, 0
	for i, bag := range tf {
		if r.nodes[i].class == ClassTest {
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
	idf := make([]float64, len(query))
	for k := range query {
		idf[k] = math.Log(1 + (float64(counted)-float64(df[k])+0.5)/(float64(df[k])+0.5))
	}
	// A word as written counts by what it says beyond its stem: a form about as common as
	// the stem ("template" beside "templat") adds nothing, a rare one ("prefixed" in one file,
	// "prefix" in thirteen) adds the difference.
	for k, w := range query {
		if f, ok := strings.CutPrefix(w, "="); ok {
			if j, ok := qi[stem(f)]; ok {
				idf[k] = max(idf[k]-idf[j], 0)
			}
		}
	}
	out := make([]float64, n)
	r.lexNotes = make([]string, n)
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
				if w := r.ment.surface(query[k]); v > 0 && w != "" {
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

// lexNoteWords is how many task words a file's mention-words signal names.
const lexNoteWords = 4
