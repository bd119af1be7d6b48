package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"github.com/cantrip-dev/charmcraft-map/rank"
)

// SchemaVersion is the "schema_version" of every JSON document.
const SchemaVersion = 1

// DocumentTypes are the Go types of the JSON documents render writes, by command ("map" for
// map and refresh, "interfaces"): the test of docs/json.md lists their fields from them.
func DocumentTypes() map[string]reflect.Type {
	return map[string]reflect.Type{"map": reflect.TypeFor[mapDoc](), "interfaces": reflect.TypeFor[ifaceDoc]()}
}

// CharmRef names one charm of the tree in JSON.
type CharmRef struct {
	Name  string `json:"name"`
	Dir   string `json:"dir"`
	Layer bool   `json:"layer,omitempty"` // a reactive layer's folder (charmyaml.Charm.Layer)
}

// MapMeta is what the `map` JSON reports besides the ranking and the text.
type MapMeta struct {
	Root      string
	Tokens    int
	Pressure  float64
	Tokenizer string
	Charms    []CharmRef
	// Explain adds each file's signals to the JSON (as --explain does to the text).
	Explain bool
	// Focus, Mention and Scope are what the ranking was steered by, as given (root-relative
	// focus paths): recorded so that `diff` can tell a change of the tree from one of them.
	Focus, Mention, Scope []string
}

// QueryDoc is the map document's "query": the --focus, --scope and --mention a map was made
// with (an addition to CONTRACT §3's fields, left out when all are empty). The task text
// can be long (a whole issue), and the document is what the agent's caller reads on every
// turn, so the mentions are recorded as a digest: enough to tell two queries apart.
type QueryDoc struct {
	Focus         []string `json:"focus,omitempty"`
	Scope         []string `json:"scope,omitempty"`
	MentionDigest string   `json:"mention_digest,omitempty"` // hex, the first 8 bytes of the SHA-256 of the mentions, NUL-separated
}

// mapDoc is the `map` document of CONTRACT §3; field order is the contract's.
type mapDoc struct {
	SchemaVersion int        `json:"schema_version"`
	Root          string     `json:"root"`
	Budget        budgetDoc  `json:"budget"`
	Query         *QueryDoc  `json:"query,omitempty"`
	Charms        []CharmRef `json:"charms"`
	Files         []fileDoc  `json:"files"`
	Text          string     `json:"text"`
}

type budgetDoc struct {
	Tokens          int     `json:"tokens"`
	Pressure        float64 `json:"pressure"`
	EffectiveTokens int     `json:"effective_tokens"`
	UsedTokens      int     `json:"used_tokens"`
	Tokenizer       string  `json:"tokenizer"`
	// Unbounded: `map --all`, which has no budget (effective_tokens is then used_tokens; an
	// addition to CONTRACT §3's fields, left out when false)
	Unbounded bool `json:"unbounded,omitempty"`
}

type fileDoc struct {
	Path    string        `json:"path"`
	Score   float64       `json:"score"`
	Shown   bool          `json:"shown"`
	Class   string        `json:"class"`
	Symbols []symbolDoc   `json:"symbols"`
	Signals []rank.Signal `json:"signals,omitempty"`
	Copies  []string      `json:"copies,omitempty"`  // other paths of the same module (its score is the best of theirs)
	CopyOf  string        `json:"copy_of,omitempty"` // on a copy: the canonical path
}

type symbolDoc struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Qualifier string `json:"qualifier"`
	Signature string `json:"signature"`
	Digest    string `json:"digest,omitempty"` // when Signature is shortened: a hash of the whole (diff compares it)
	Line      int    `json:"line"`
	Shown     bool   `json:"shown"`
	// Score and Signals: only with --explain (how the symbol's place in its file was made)
	Score   *float64      `json:"score,omitempty"`
	Signals []rank.Signal `json:"signals,omitempty"`
}

// MapJSON is the `map --format json` document: every ranked file in rank order with its
// score and symbols, what the text shows, the budget and the text itself. It has no
// trailing newline.
func MapJSON(r rank.Result, out Output, meta MapMeta) ([]byte, error) {
	tok := meta.Tokenizer
	if tok == "" {
		tok = TokCL100k
	}
	doc := mapDoc{SchemaVersion: SchemaVersion, Root: meta.Root, Charms: meta.Charms, Text: out.Text,
		Budget: budgetDoc{Tokens: meta.Tokens, Pressure: meta.Pressure, EffectiveTokens: out.EffectiveTokens,
			UsedTokens: out.UsedTokens, Tokenizer: tok, Unbounded: out.Unbounded},
		Files: make([]fileDoc, 0, len(r.Files))}
	if doc.Charms == nil {
		doc.Charms = []CharmRef{}
	}
	if len(meta.Focus)+len(meta.Mention)+len(meta.Scope) > 0 {
		doc.Query = &QueryDoc{Focus: meta.Focus, Scope: meta.Scope}
		if len(meta.Mention) > 0 {
			sum := sha256.Sum256([]byte(strings.Join(meta.Mention, "\x00")))
			doc.Query.MentionDigest = hex.EncodeToString(sum[:8])
		}
	}
	for _, f := range r.Files {
		fd := fileDoc{Path: f.Path, Score: f.Score, Shown: out.Shown[f.Path], Class: f.Class, Copies: f.Copies, CopyOf: f.CopyOf,
			Symbols: make([]symbolDoc, len(f.Symbols))}
		if meta.Explain {
			fd.Signals = f.Signals
		}
		for i, s := range f.Symbols {
			fd.Symbols[i] = symbolDoc{Name: s.Name, Kind: s.Kind, Qualifier: s.Qualifier, Signature: s.Signature,
				Digest: s.Digest, Line: s.Line, Shown: out.ShownSymbols[f.Path][i]}
			if meta.Explain {
				fd.Symbols[i].Score, fd.Symbols[i].Signals = &f.Symbols[i].Score, s.Signals
			}
		}
		doc.Files = append(doc.Files, fd)
	}
	b, err := jsonout.Marshal(doc)
	return bytes.TrimSuffix(b, []byte("\n")), err
}
