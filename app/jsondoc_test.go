package app

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/check"
	"github.com/cantrip-dev/charmcraft-map/render"
)

// jsonDocPage documents every JSON document the tool prints, one "## " section per document.
const jsonDocPage = "../docs/json.md"

// jsonDocField is one field of a JSON document, named by its dotted path in the page's
// notation: files[].symbols[].shown is key "shown" of each element of the list "symbols" of
// each element of "files".
type jsonDocField struct {
	path string
	// alias is, for a field of a struct type the document already holds under another path
	// (locate's read[] is a []Pick like edit[]), that first path: the page may document the
	// type's fields once, there ("same fields as edit[]").
	alias string
	goRef string // where the code declares it: check.Summary.Hidden
	kind  string // its JSON type
}

// TestJSONDocFieldsDocumented fails when a JSON document holds a field docs/json.md does not
// list. Each document's fields are read by reflection from the Go types that produce it, so
// that a field that is emitted only sometimes (omitempty) is covered too; the documents are
// also printed by running the commands on the fixture charms, and every key they hold must be
// one of those fields, which keeps the test's list of types honest. The page must name each
// field by its full path, in backticks, in the section of its document, and every field row
// of the page must name a field the code emits.
func TestJSONDocFieldsDocumented(t *testing.T) {
	page, err := os.ReadFile(jsonDocPage)
	if err != nil {
		t.Fatalf("reading the JSON reference: %v", err)
	}
	rendered := render.DocumentTypes()
	// The structs RunLocate, RunDiff, RunVersion and check.WriteJSON encode: schema_version,
	// then the fields of the result.
	type (
		checkDoc struct {
			SchemaVersion int `json:"schema_version"`
			check.Report
		}
		locateDoc struct {
			SchemaVersion int `json:"schema_version"`
			Located
		}
		diffDoc struct {
			SchemaVersion int `json:"schema_version"`
			MapDiff
		}
		versionDoc struct {
			SchemaVersion int `json:"schema_version"`
			VersionInfo
		}
	)
	docs := []struct {
		name    string
		heading string
		root    reflect.Type // nil: the document is a map, its fields are what it prints
		print   func(t *testing.T) [][]byte
	}{
		{"map", "## `map` and `refresh`", rendered["map"], jsonDocMaps},
		{"interfaces", "## `interfaces`", rendered["interfaces"], jsonDocInterfaces},
		{"check", "## `check`", reflect.TypeFor[checkDoc](), jsonDocCheck},
		{"locate", "## `locate`", reflect.TypeFor[locateDoc](), jsonDocLocate},
		{"diff", "## `diff`", reflect.TypeFor[diffDoc](), jsonDocDiff},
		{"version", "## `version`", reflect.TypeFor[versionDoc](), jsonDocVersion},
		{"error", "## Errors (exit 2)", nil, jsonDocError},
	}
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			section, ok := jsonDocSection(string(page), d.heading)
			if !ok {
				t.Fatalf("%s has no section %q", jsonDocPage, d.heading)
			}
			printed := map[string]bool{}
			for _, out := range d.print(t) {
				var v map[string]any
				if err := json.Unmarshal(out, &v); err != nil {
					t.Fatalf("the document printed is not a JSON object: %v\n%s", err, out)
				}
				jsonDocKeys(v, "", printed)
			}
			var fields []jsonDocField
			if d.root != nil {
				w := jsonDocWalker{t: t, seen: map[reflect.Type]string{}, open: map[reflect.Type]bool{}}
				w.walk(d.root, "", "")
				fields = w.fields
			} else {
				for _, p := range slices.Sorted(maps.Keys(printed)) {
					fields = append(fields, jsonDocField{path: p, goRef: "ReportError's document", kind: "value"})
				}
			}
			known := map[string]bool{}
			for _, f := range fields {
				known[f.path] = true
				documented := strings.Contains(section, "`"+f.path+"`") ||
					f.alias != "" && strings.Contains(section, "`"+f.alias+"`")
				switch {
				case documented:
				case f.alias != "":
					t.Errorf("%s, section %q: field `%s` (%s, %s) is not documented: add a row for it, or for `%s`, whose type it shares",
						jsonDocPage, d.heading, f.path, f.goRef, f.kind, f.alias)
				default:
					t.Errorf("%s, section %q: field `%s` (%s, %s) is not documented: add a row for it",
						jsonDocPage, d.heading, f.path, f.goRef, f.kind)
				}
			}
			for _, p := range slices.Sorted(maps.Keys(printed)) {
				if !known[p] {
					t.Errorf("the %s document printed field `%s`, which none of the Go types the test reads declares: "+
						"add the type that emits it to TestJSONDocFieldsDocumented", d.name, p)
				}
			}
			for _, row := range jsonDocRow.FindAllStringSubmatch(section, -1) {
				if !known[row[1]] {
					t.Errorf("%s, section %q documents field `%s`, which the code does not emit", jsonDocPage, d.heading, row[1])
				}
			}
		})
	}
}

// jsonDocRow matches a field row of the page's tables: "| `files[].path` | string | ...",
// with a "*" after the name for a field CONTRACT §3 does not list.
var jsonDocRow = regexp.MustCompile("(?m)^\\| `([^`]+)`\\*? \\|")

// jsonDocSection returns the section of page under heading, up to the next "## " heading.
func jsonDocSection(page, heading string) (string, bool) {
	_, rest, ok := strings.Cut(page, "\n"+heading+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// jsonDocKeys adds to out the path of every key of the decoded object v, in the page's
// notation.
func jsonDocKeys(v map[string]any, prefix string, out map[string]bool) {
	for k, x := range v {
		p := prefix + k
		out[p] = true
		switch x := x.(type) {
		case map[string]any:
			jsonDocKeys(x, p+".", out)
		case []any:
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					jsonDocKeys(m, p+"[].", out)
				}
			}
		}
	}
}

// jsonDocWalker lists the JSON fields of a struct type as encoding/json writes them.
type jsonDocWalker struct {
	t      *testing.T
	fields []jsonDocField
	seen   map[reflect.Type]string // struct type → the path prefix its fields were first listed under
	open   map[reflect.Type]bool   // the struct types being walked (a recursive type is an error)
}

func (w *jsonDocWalker) walk(st reflect.Type, prefix, alias string) {
	w.open[st] = true
	defer delete(w.open, st)
	for i := range st.NumField() {
		f := st.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct { // its fields are promoted
			w.walk(ft, prefix, alias)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		field := jsonDocField{path: prefix + name, goRef: w.typeName(st) + "." + f.Name, kind: jsonDocKind(ft)}
		if alias != "" {
			field.alias = alias + name
		}
		w.fields = append(w.fields, field)
		elem, sep := ft, "."
		if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
			elem, sep = ft.Elem(), "[]."
			for elem.Kind() == reflect.Pointer {
				elem = elem.Elem()
			}
		}
		if reflect.PointerTo(elem).Implements(reflect.TypeFor[json.Marshaler]()) {
			w.t.Fatalf("%s writes its own JSON: the test cannot list its keys; teach it", field.goRef)
		}
		switch elem.Kind() {
		case reflect.Map, reflect.Interface, reflect.Slice, reflect.Array:
			w.t.Fatalf("%s is a %s: the test cannot list the keys it holds; teach it", field.goRef, field.kind)
		case reflect.Struct:
			if w.open[elem] {
				w.t.Fatalf("%s is recursive: the test cannot list its fields; teach it", field.goRef)
			}
			childAlias := ""
			if field.alias != "" {
				childAlias = field.alias + sep
			}
			if first, ok := w.seen[elem]; ok {
				if childAlias == "" {
					childAlias = first
				}
			} else {
				w.seen[elem] = field.path + sep
			}
			w.walk(elem, field.path+sep, childAlias)
		}
	}
}

func (w *jsonDocWalker) typeName(t reflect.Type) string {
	if t.Name() != "" {
		return t.String()
	}
	return "the run function's wrapper"
}

// jsonDocKind is the JSON type of values of t, for messages.
func jsonDocKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonDocKind(t.Elem())
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array of " + jsonDocKind(t.Elem())
	case reflect.Struct:
		return "object"
	}
	return t.Kind().String()
}

// The documents as the commands print them, on the fixture charms (without the cache).

const jsonDocFixtures = "../testdata/charms"

func jsonDocRun(t *testing.T, run func(IO) error, exit int) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if err := run(IO{Out: &out, Err: &errb}); ExitCode(err) != exit {
		t.Fatalf("exit %d (%v), want %d; stderr:\n%s", ExitCode(err), err, exit, errb.String())
	}
	return out.Bytes()
}

func jsonDocMaps(t *testing.T) [][]byte {
	var docs [][]byte
	for _, o := range []MapOptions{
		{Common: Common{Root: filepath.Join(jsonDocFixtures, "unified")}, All: true, Explain: true,
			Focus: []string{"src/charm.py"}, Mention: []string{"the ingress port"}, Scope: []string{"src", "lib"}},
		{Common: Common{Root: filepath.Join(jsonDocFixtures, "monorepo")}, Full: true},
		{Common: Common{Root: filepath.Join(jsonDocFixtures, "split")}, Pressure: 0.96},
	} {
		o.NoCache, o.Format, o.Tokens, o.Tokenizer = true, "json", DefaultTokens, "cl100k"
		docs = append(docs, jsonDocRun(t, func(io IO) error { return RunMap(o, io) }, ExitOK))
	}
	return docs
}

func jsonDocInterfaces(t *testing.T) [][]byte {
	var docs [][]byte
	for _, c := range []string{"unified", "inconsistent", "monorepo", "patterns-wiring"} {
		o := InterfacesOptions{Common: Common{Root: filepath.Join(jsonDocFixtures, c), NoCache: true, Format: "json"}}
		docs = append(docs, jsonDocRun(t, func(io IO) error { return RunInterfaces(o, io) }, ExitOK))
	}
	return docs
}

func jsonDocCheck(t *testing.T) [][]byte {
	o := CheckOptions{Common: Common{Root: filepath.Join(jsonDocFixtures, "inconsistent"), NoCache: true, Format: "json"}}
	return [][]byte{jsonDocRun(t, func(io IO) error { return RunCheck(o, io) }, ExitFindings)}
}

func jsonDocLocate(t *testing.T) [][]byte {
	o := LocateOptions{Common: Common{Root: filepath.Join(jsonDocFixtures, "unified"), NoCache: true, Format: "json"},
		Text: "the ingress relation drops the port"}
	return [][]byte{jsonDocRun(t, func(io IO) error { return RunLocate(o, io) }, ExitOK)}
}

func jsonDocDiff(t *testing.T) [][]byte {
	dir := t.TempDir()
	maps := jsonDocMaps(t)
	old, cur := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if os.WriteFile(old, maps[1], 0o644) != nil || os.WriteFile(cur, maps[0], 0o644) != nil {
		t.Fatal("cannot write the maps to compare")
	}
	o := DiffOptions{Common: Common{Format: "json"}, Old: old, New: cur}
	return [][]byte{jsonDocRun(t, func(io IO) error { return RunDiff(o, io) }, ExitOK)}
}

func jsonDocVersion(t *testing.T) [][]byte {
	return [][]byte{jsonDocRun(t, func(io IO) error { return RunVersion(Common{Format: "json"}, io) }, ExitOK)}
}

func jsonDocError(t *testing.T) [][]byte {
	var out, errb bytes.Buffer
	ReportError(IO{Out: &out, Err: &errb}, "json", Usagef("--tokens must be 0 or more, not -1"))
	return [][]byte{out.Bytes()}
}
