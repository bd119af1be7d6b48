package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// saveMap writes `map --all --format json` of root to a file and returns its path.
func saveMap(t *testing.T, root, name string) string {
	t.Helper()
	return saveMapWith(t, root, name, nil)
}

// saveMapWith is saveMap with --mention set to mention.
func saveMapWith(t *testing.T, root, name string, mention []string) string {
	t.Helper()
	p, _ := saveMapOpts(t, name, MapOptions{Common: Common{Root: root}, Mention: mention})
	return p
}

// saveMapOpts saves the `map --all --format json --no-cache` document of o under name in a
// temporary folder, and returns its path and text.
func saveMapOpts(t *testing.T, name string, o MapOptions) (string, string) {
	t.Helper()
	o.NoCache, o.Format, o.All = true, "json", true
	out, _, err := runMap(t, o)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, out
}

// diffJSON is the `diff --format json` document of two saved maps.
func diffJSON(t *testing.T, old, cur string) MapDiff {
	t.Helper()
	out, _, err := runDiff(t, "json", old, cur)
	if err != nil {
		t.Fatal(err)
	}
	var d MapDiff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func runDiff(t *testing.T, format, old, cur string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := RunDiff(DiffOptions{Common: Common{Format: format}, Old: old, New: cur}, IO{Out: &out, Err: &errb})
	return out.String(), errb.String(), err
}

func editFile(t *testing.T, p string, pairs ...string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s has no %q", p, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiffNamesRenamedMethod edits a fixture the way a developer would (a method renamed
// with its callers, a parameter added, a method added) and diffs the saved maps.
func TestDiffNamesRenamedMethod(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	old := saveMap(t, root, "old.json")
	editFile(t, filepath.Join(root, "src", "relations.py"),
		"_publish(", "_publish_address(",
		"def set_port(self, port: int) -> None:", "def set_port(self, port: int, scheme: str = \"http\") -> None:",
		"    def _on_ingress_broken(", "    def reset(self) -> None:\n        self._port = 8080\n\n    def _on_ingress_broken(")
	cur := saveMap(t, root, "new.json")

	text, _, err := runDiff(t, "text", old, cur)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"src/relations.py:\n",
		"  renamed  method IngressHandler._publish => IngressHandler._publish_address\n",
		"  changed  method IngressHandler.set_port: def set_port(self, port: int) -> None: => def set_port(self, port: int, scheme: str = \"http\") -> None:\n",
		"  added    method IngressHandler.reset: def reset(self) -> None:\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("diff text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "removed") || strings.Contains(text, "files added") {
		t.Errorf("diff reports removals or new files for a rename:\n%s", text)
	}

	out, _, err := runDiff(t, "json", old, cur)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SchemaVersion int `json:"schema_version"`
		MapDiff
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != 1 || len(doc.Renamed) != 1 || len(doc.Changed) != 1 || len(doc.Added) != 1 || len(doc.Removed) != 0 {
		t.Fatalf("diff JSON = %s", out)
	}
	if r := doc.Renamed[0]; r.File != "src/relations.py" || r.OldName != "IngressHandler._publish" || r.NewName != "IngressHandler._publish_address" || r.OldLine == 0 {
		t.Errorf("renamed = %+v", r)
	}

	same, _, err := runDiff(t, "text", cur, cur)
	if err != nil || same != "no differences\n" {
		t.Errorf("a map against itself: %q (%v)", same, err)
	}
}

// doc builds a map document: each file is "path score [class]" followed by "kind name
// signature line" symbols separated by "|".
func doc(t *testing.T, files ...string) string {
	t.Helper()
	type sym struct {
		Name, Kind, Qualifier, Signature string
		Line                             int
	}
	type file struct {
		Path    string  `json:"path"`
		Score   float64 `json:"score"`
		Class   string  `json:"class,omitempty"`
		Symbols []sym   `json:"symbols"`
	}
	var fs []file
	for _, f := range files {
		parts := strings.Split(f, "|")
		var fl file
		fmt.Sscan(parts[0], &fl.Path, &fl.Score, &fl.Class)
		for _, s := range parts[1:] {
			var sy sym
			fields := strings.SplitN(strings.TrimSpace(s), " ", 3)
			sy.Kind, sy.Name = fields[0], fields[1]
			sig, line, _ := strings.Cut(fields[2], " @")
			sy.Signature = sig
			fmt.Sscan(line, &sy.Line)
			if i := strings.LastIndexByte(sy.Name, '.'); i > 0 {
				sy.Qualifier = sy.Name[:i]
			}
			fl.Symbols = append(fl.Symbols, sy)
		}
		fs = append(fs, fl)
	}
	b, _ := json.Marshal(map[string]any{"schema_version": 1, "files": fs})
	p := filepath.Join(t.TempDir(), "map.json")
	os.WriteFile(p, b, 0o644)
	return p
}

// renames are a diff's renames as "old>new".
func renames(d MapDiff) []string {
	var out []string
	for _, c := range d.Renamed {
		out = append(out, c.OldName+">"+c.NewName)
	}
	return out
}

// symbolNames are the names of ss.
func symbolNames(ss []DiffSymbol) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name)
	}
	return out
}

func TestDiffGenericShapes(t *testing.T) {
	// Symbols whose shape says almost nothing (a class with one base, a handler taking only
	// event) are renamed only when their names are related and no other candidate is:
	// on_joined → on_broken and HasPeers → PeersBroken are an addition and a removal, and of
	// two created → connected pairs, which is which is not known. A lone related pair is a
	// rename: _on_db_changed → _on_database_changed ("changed"), PeerData → PeerDataBag.
	old := doc(t,
		"src/peers.py 0.5 | class Peers class Peers(ops.Object): @1 | method Peers.on_joined def on_joined(self, event): @3"+
			" | class HasPeersEvent class HasPeersEvent(EventBase): @9 | class PeersCreatedEvent class PeersCreatedEvent(EventBase): @12"+
			" | method Peers._on_db_changed def _on_db_changed(self, event): @20 | class PeerData class PeerData: @30",
	)
	cur := doc(t,
		"src/peers.py 0.5 | class Peers class Peers(ops.Object): @1 | method Peers.on_broken def on_broken(self, event): @3"+
			" | class PeersBrokenEvent class PeersBrokenEvent(EventBase): @9 | class PeersConnectedEvent class PeersConnectedEvent(EventBase): @12"+
			" | method Peers._on_database_changed def _on_database_changed(self, event): @20 | class PeerDataBag class PeerDataBag: @30",
	)
	d := diffJSON(t, old, cur)
	renamed, added := renames(d), symbolNames(d.Added)
	if fmt.Sprint(renamed) != "[Peers._on_db_changed>Peers._on_database_changed PeerData>PeerDataBag]" {
		t.Errorf("renamed = %v", renamed)
	}
	if fmt.Sprint(added) != "[Peers.on_broken PeersBrokenEvent PeersConnectedEvent]" {
		t.Errorf("added = %v", added)
	}
	// names that differ in what happens or which side (joined/broken, start/restart,
	// requires/provides) are never related, whatever they share; a handler typed with an event
	// base class is as generic as an untyped one; a class with a keyword (metaclass=) is not
	old = doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1 | method C._on_db_relation_joined def _on_db_relation_joined(self, event): @3"+
			" | method C.start def start(self): @6 | method C._on_install def _on_install(self, event: ops.EventBase): @9"+
			" | class DatabaseRequiresEvent class DatabaseRequiresEvent(ops.EventBase): @12 | class Meta class Meta(Base, metaclass=M): @15")
	cur = doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1 | method C._on_db_relation_broken def _on_db_relation_broken(self, event): @3"+
			" | method C.restart def restart(self): @6 | method C._on_remove def _on_remove(self, event: ops.EventBase): @9"+
			" | class DatabaseProvidesEvent class DatabaseProvidesEvent(ops.EventBase): @12 | class Other class Other(Base, metaclass=M): @15")
	d = diffJSON(t, old, cur)
	renamed = renames(d)
	if fmt.Sprint(renamed) != "[Meta>Other]" {
		t.Errorf("renamed = %v, want only Meta>Other", renamed)
	}
}

func TestDiffRules(t *testing.T) {
	old := doc(t,
		"src/charm.py 0.5 | class Charm class Charm(ops.CharmBase): @1 | method Charm._on_a def _on_a(self, event): @5",
		"src/state.py 0.2 | class State class State: @1 | method State.get def get(self, key): @3 | method State.put def put(self, key, value): @6",
		"src/gone.py 0.1 | function helper def helper(): @1",
		"a.py 0.05", "b.py 0.04", "c.py 0.03", "d.py 0.02", "e.py 0.01", "src/rising.py 0.005",
		"src/tiny.py 0.001 | function de def de(x, n: int): @1",
	)
	cur := doc(t,
		"src/rising.py 0.4",
		"src/charm.py 0.3 | class Charm class Charm(ops.CharmBase): @1 | method Charm._on_b def _on_b(self, event, extra): @5",
		"src/state.py 0.2 | class Store class Store: @1 | method Store.get def get(self, key): @3 | method Store.put def put(self, key, value, ttl): @6",
		"src/new.py 0.1 | function helper def helper(): @1",
		"a.py 0.05", "b.py 0.04", "c.py 0.03", "d.py 0.02", "e.py 0.01",
		"src/tiny.py 0.001 | function xy def xy(x, n: int): @1",
	)
	d := diffJSON(t, old, cur)
	got := func(l []SymbolChange) (s []string) {
		for _, c := range l {
			s = append(s, c.OldName+">"+c.NewName)
		}
		return s
	}
	// _on_a → _on_b changed its parameters too: not a rename, a removal and an addition.
	// State → Store is a rename (a class with no base says little, but their methods share
	// names); its methods follow it, put with a changed signature. de → xy is a rename too,
	// though "de" first occurs inside "def".
	if r := got(d.Renamed); fmt.Sprint(r) != "[State>Store de>xy]" {
		t.Errorf("renamed = %v", r)
	}
	if c := got(d.Changed); fmt.Sprint(c) != "[State.put>Store.put]" {
		t.Errorf("changed = %v", c)
	}
	if fmt.Sprint(d.FilesAdded, d.FilesRemoved) != "[src/new.py] [src/gone.py]" {
		t.Errorf("files added %v, removed %v", d.FilesAdded, d.FilesRemoved)
	}
	var added, removed []string
	for _, s := range d.Added {
		added = append(added, s.File+":"+s.Name)
	}
	for _, s := range d.Removed {
		removed = append(removed, s.File+":"+s.Name)
	}
	if fmt.Sprint(added, removed) != "[src/charm.py:Charm._on_b src/new.py:helper] [src/charm.py:Charm._on_a src/gone.py:helper]" {
		t.Errorf("added %v, removed %v", added, removed)
	}
	// rising.py: 9th → 1st among the files both hold. charm.py: 1st → 2nd, score ×0.6: not moved.
	if len(d.Moved) != 1 || d.Moved[0].Path != "src/rising.py" || d.Moved[0].OldRank != 8 || d.Moved[0].NewRank != 1 {
		t.Errorf("moved = %+v", d.Moved)
	}
}

func TestDiffListsTheCharmsCodeFirst(t *testing.T) {
	// Every list runs from the charm's code through its YAML and vendored libraries to its
	// tests, whatever their paths' alphabetical order; a map without classes sorts by path.
	files := func(withClass bool, sig string) []string {
		var out []string
		for _, f := range []string{"app/tests/test_a.py test", "lib/charms/x/v0/x.py lib", "metadata.yaml yaml", "src/charm.py source"} {
			path, class, _ := strings.Cut(f, " ")
			if !withClass {
				class = ""
			}
			kind := "function f"
			if class == "yaml" {
				kind = "relation f"
			}
			out = append(out, fmt.Sprintf("%s 0.1 %s | %s %s @1", path, class, kind, sig))
		}
		return out
	}
	for _, withClass := range []bool{true, false} {
		d := diffJSON(t, doc(t, files(withClass, "def f(a):")...), doc(t, files(withClass, "def f(a, b):")...))
		var got []string
		for _, c := range d.Changed {
			got = append(got, c.File)
		}
		want := "[src/charm.py metadata.yaml lib/charms/x/v0/x.py app/tests/test_a.py]"
		if !withClass {
			want = "[app/tests/test_a.py lib/charms/x/v0/x.py metadata.yaml src/charm.py]"
		}
		if fmt.Sprint(got) != want {
			t.Errorf("classes %v: changed files in the order %v, want %s", withClass, got, want)
		}
	}
}

func TestDiffMalformedInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good := doc(t, "src/charm.py 1")
	// each says what is wrong in the document's words, not Go's
	want := map[string]string{
		"not json":     "not JSON: unexpected end of JSON input",
		"not a map":    `not a map document (no "files"`,
		"wrong shape":  "not a map document: files is an object, want an array",
		"wrong type":   "not a map document: files[1].path is a number, want a string",
		"not a file":   "not a map document: files[1] is a number, want an object",
		"null files":   `not a map document (no "files"`,
		"an array":     "not a map document: the document is an array, want an object",
		"no version":   `not a map document (no "schema_version"`,
		"version 2":    "schema_version 2, want 1",
		"version text": "not a map document: schema_version is a string, want an integer",
	}
	for name, p := range map[string]string{
		"missing":      filepath.Join(dir, "nope.json"),
		"not json":     write("bad.json", "{\"schema_version\": 1, \"files\": ["),
		"not a map":    write("check.json", `{"schema_version": 1, "diagnostics": []}`),
		"wrong shape":  write("shape.json", `{"schema_version": 1, "files": {"a": 1}}`),
		"wrong type":   write("type.json", `{"schema_version": 1, "files": [{"path": "a"}, {"path": 1}]}`),
		"not a file":   write("notfile.json", `{"schema_version": 1, "files": [{"path": "a"}, 1]}`),
		"null files":   write("nullfiles.json", `{"schema_version": 1, "files": null}`),
		"an array":     write("array.json", `[]`),
		"no version":   write("nover.json", `{"files": []}`),
		"version 2":    write("v2.json", `{"schema_version": 2, "files": []}`),
		"version text": write("vs.json", `{"schema_version": "1", "files": []}`),
	} {
		for _, format := range []string{"text", "json"} {
			out, _, err := runDiff(t, format, good, p)
			if ExitCode(err) != ExitFailure || out != "" {
				t.Errorf("%s (%s): exit %d, stdout %q", name, format, ExitCode(err), out)
				continue
			}
			var o, e bytes.Buffer
			ReportError(IO{Out: &o, Err: &e}, format, err)
			if strings.Count(e.String(), "\n") != 1 || !strings.Contains(e.String(), p) {
				t.Errorf("%s: stderr %q is not one line naming the file", name, e.String())
			}
			if format == "text" && (!strings.Contains(e.String(), want[name]) || strings.Contains(e.String(), "Go ")) {
				t.Errorf("%s: stderr %q, want %q", name, e.String(), want[name])
			}
			if format == "json" && !strings.Contains(o.String(), `"code":"input"`) {
				t.Errorf("%s: error document %q", name, o.String())
			}
		}
	}
}

func TestDiffSwappedOverloadsAndUnsafeNames(t *testing.T) {
	// Two same-named symbols (overloads) that swapped places changed nothing.
	old := doc(t, "src/m.py 0.5 | method A.f def f(self, a: int) -> int: @4 | method A.f def f(self, a: str) -> str: @6 | method A.f def f(self, a): @7")
	cur := doc(t, "src/m.py 0.5 | method A.f def f(self, a: str) -> str: @4 | method A.f def f(self, a: int) -> int: @6 | method A.f def f(self, a): @7")
	if out, _, err := runDiff(t, "text", old, cur); err != nil || out != "no differences\n" {
		t.Errorf("swapped overloads: %q, %v", out, err)
	}
	// A path or name holding control characters is printed escaped, the path Go-quoted, as
	// map prints it.
	old = doc(t, "src/x\x1b[31mred.py 0.5 | function f\nx def f(): @1")
	cur = doc(t, "src/x\x1b[31mred.py 0.5 | function g\u202e def g(): @1 | function f\nx def f(): @1", "src/a\nb.py 0.1")
	out, _, err := runDiff(t, "text", old, cur)
	if err != nil || strings.ContainsAny(out, "\x1b\u202e") || strings.Contains(out, "a\nb") || !strings.Contains(out, `"src/x\x1b[31mred.py":`) {
		t.Errorf("unsafe names printed raw: %q, %v", out, err)
	}
}

func TestDiffQuotesPathsThatReadAsItsLines(t *testing.T) {
	// A path holding one of diff's separators, or starting as a part's title does, is printed
	// Go-quoted (review rev102); a plain path as it is.
	old := doc(t, "src/plain.py 0.5 | function f def f(): @1")
	for _, p := range []string{"src/a -> b.py", "src/x (1 symbol).py", "src/k: v.py", "rank moved", "src/a, b.py", " lead.py"} {
		cur := doc(t, "src/plain.py 0.5 | function f def f(): @1 | function g def g(): @2")
		b, _ := os.ReadFile(cur)
		b = bytes.Replace(b, []byte(`"files":[`), fmt.Appendf(nil, `"files":[{"path":%q,"score":0.1,"symbols":[]},`, p), 1)
		os.WriteFile(cur, b, 0o644)
		out, _, err := runDiff(t, "text", old, cur)
		if err != nil || !strings.Contains(out, "  "+strconv.Quote(p)+" (0 symbols)\n") || !strings.Contains(out, "\nsrc/plain.py:\n") {
			t.Errorf("%q: %q, %v", p, out, err)
		}
	}
	cur := doc(t, "src/plain.py 0.5 | function f def f(): @1 | function g def g(): @2")
	if out, _, _ := runDiff(t, "text", old, cur); !strings.HasPrefix(out, "src/plain.py:\n") {
		t.Errorf("a plain path: %q", out)
	}
}

func TestDiffSaysTheQueryDiffers(t *testing.T) {
	// Two maps of one tree, one made with --mention: the ranks move, and diff says the query
	// differs; two maps made with the same query do not say so.
	root := filepath.Join(charmsDir, "unified")
	plain := saveMap(t, root, "plain.json")
	task := []string{"the ingress relation does not update the port"}
	a, b := saveMapWith(t, root, "a.json", task), saveMapWith(t, root, "b.json", task)
	d := diffJSON(t, plain, a)
	if !d.QueryDiffers || len(d.Moved) == 0 {
		t.Errorf("plain vs mention: query_differs %v, moved %v", d.QueryDiffers, d.Moved)
	}
	if text, _, _ := runDiff(t, "text", plain, a); !strings.Contains(text, "different --focus, --mention or --scope") {
		t.Errorf("text:\n%s", text)
	}
	if text, _, _ := runDiff(t, "text", a, b); text != "no differences\n" {
		t.Errorf("same query:\n%s", text)
	}
}

func TestDiffScopeSpellingsAreOneQuery(t *testing.T) {
	// --scope k8s/, ./k8s and k8s/../k8s name one folder: the saved queries are equal, and
	// diff finds no difference.
	root := filepath.Join(charmsDir, "monorepo")
	var paths []string
	for i, scope := range []string{"k8s/", "./k8s", "k8s/../k8s"} {
		p, out := saveMapOpts(t, fmt.Sprint(i, ".json"), MapOptions{Common: Common{Root: root}, Scope: []string{scope}})
		if !strings.Contains(out, `"scope": [
      "k8s"
    ]`) {
			t.Errorf("%s: query scope not cleaned:\n%.400s", scope, out[strings.Index(out, `"query"`):])
		}
		paths = append(paths, p)
	}
	if text, _, _ := runDiff(t, "text", paths[0], paths[2]); text != "no differences\n" {
		t.Errorf("diff:\n%s", text)
	}
}

// TestDiffSeesTheElidedPart: a long def shows its first parameters and its return type, a
// long constant its start; a change in the part left out is still a changed signature, said
// so, and a map saved without digests (an older version's) reports no change for it.
func TestDiffSeesTheElidedPart(t *testing.T) {
	root := copyTree(t, filepath.Join(charmsDir, "unified"))
	params := "first_value: int, second_value: str, third_value: float, fourth_value: bool, fifth_value: bytes, sixth_value: list"
	long := "\n\ndef build_settings(" + params + ", seventh_value: dict, eighth_value: int) -> dict:\n    return {}\n" +
		"\n\nPACKAGES = [" + strings.Repeat(`"some-package", `, 12) + "\"kappa-package\"]\n"
	f := filepath.Join(root, "src", "relations.py")
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(f, append(src, long...), 0o644)
	old := saveMap(t, root, "old.json")
	editFile(t, f, "eighth_value: int)", "eighth_value: str)", `"kappa-package"]`, `"lambda-package"]`)
	cur := saveMap(t, root, "new.json")
	d := diffJSON(t, old, cur)
	var got []string
	for _, c := range d.Changed {
		if c.Elided && c.OldSignature == c.NewSignature {
			got = append(got, c.NewName)
		}
	}
	if strings.Join(got, " ") != "build_settings PACKAGES" {
		t.Fatalf("changed %+v", d.Changed)
	}
	text, _, _ := runDiff(t, "text", old, cur)
	if !strings.Contains(text, "  changed  function build_settings: def build_settings(first_value: int") ||
		!strings.Contains(text, "(in the part the signature leaves out)\n") {
		t.Errorf("diff text:\n%s", text)
	}
	// without digests (a map an older version saved), nothing to tell: no change
	b, _ := os.ReadFile(old)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	for _, fl := range doc["files"].([]any) {
		for _, s := range fl.(map[string]any)["symbols"].([]any) {
			delete(s.(map[string]any), "digest")
		}
	}
	b, _ = json.Marshal(doc)
	bare := filepath.Join(t.TempDir(), "bare.json")
	os.WriteFile(bare, b, 0o644)
	if d := diffJSON(t, bare, cur); len(d.Changed) != 0 {
		t.Errorf("changed against a map without digests: %+v", d.Changed)
	}
}

// TestDiffByteOrderMarkAndCounts: a document saved with a byte-order mark (Windows
// PowerShell's `>` writes one) is read, and a file added with one symbol says "1 symbol".
func TestDiffByteOrderMarkAndCounts(t *testing.T) {
	old := doc(t, "src/charm.py 1|function main def main(): @1")
	cur := doc(t, "src/charm.py 1|function main def main(): @1", "src/extra.py 0.5|function helper def helper(): @1",
		"src/more.py 0.4|function a def a(): @1|function b def b(): @2")
	b, err := os.ReadFile(cur)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cur, append([]byte("\xef\xbb\xbf"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runDiff(t, "text", old, cur)
	if err != nil {
		t.Fatalf("a document with a byte-order mark: %v", err)
	}
	for _, want := range []string{"  src/extra.py (1 symbol)\n", "  src/more.py (2 symbols)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestDiffDeclarationsNeedRelatedNames(t *testing.T) {
	// A config option, an action or a constant has a shape many share (a string option
	// without default, DEBUG = False): one removed and an unrelated one added are a removal and
	// an addition (review rev94: the removal of an option, a breaking change, read as a rename
	// and was left out of removed); related names are still a rename.
	old := doc(t,
		"config.yaml 0.5 | config-option mysql-interface-user [config] mysql-interface-user (string) @3 | config-option log-level [config] log-level (string) @9",
		"actions.yaml 0.4 | action backup [action] backup @1",
		"src/charm.py 0.6 | constant DEBUG DEBUG = False @3 | constant DB_PORT DB_PORT = 5432 @4")
	cur := doc(t,
		"config.yaml 0.5 | config-option tls-ca-chain [config] tls-ca-chain (string) @3 | config-option log-levels [config] log-levels (string) @9",
		"actions.yaml 0.4 | action restore [action] restore @1",
		"src/charm.py 0.6 | constant ENABLE_TLS ENABLE_TLS = False @3 | constant DATABASE_PORT DATABASE_PORT = 5432 @4")
	d := diffJSON(t, old, cur)
	renamed, removed := renames(d), symbolNames(d.Removed)
	slices.Sort(renamed)
	slices.Sort(removed)
	if fmt.Sprint(renamed) != "[DB_PORT>DATABASE_PORT log-level>log-levels]" {
		t.Errorf("renamed = %v", renamed)
	}
	if fmt.Sprint(removed) != "[DEBUG backup mysql-interface-user]" {
		t.Errorf("removed = %v", removed)
	}
}

func TestDiffRenamedPropertyTakesItsSetter(t *testing.T) {
	// A property renamed with its setter (and, in a class renamed too, with its deleter) is one
	// rename: the setter's shape holds the name twice (@port.setter def port), so it matched
	// nothing and read as removed and added (review rev94). A def sharing only the old name in
	// another class stays removed.
	old := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1 | method C.port @property def port(self) -> int: @3"+
			" | method C.port @port.setter def port(self, value: int) -> None: @7",
		"src/state.py 0.4 | class State class State(ops.Object, Mixin): @1 | method State.peer @property def peer(self) -> Relation: @3"+
			" | method State.peer @peer.setter def peer(self, rel: Relation) -> None: @7 | method State.peer @peer.deleter def peer(self) -> None: @11"+
			" | class Other class Other: @20 | method Other.peer @peer.setter def peer(self, rel: Relation) -> None: @22")
	cur := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1 | method C.listen_port @property def listen_port(self) -> int: @3"+
			" | method C.listen_port @listen_port.setter def listen_port(self, value: int) -> None: @7",
		"src/state.py 0.4 | class PeerState class PeerState(ops.Object, Mixin): @1 | method PeerState.peers @property def peers(self) -> Relation: @3"+
			" | method PeerState.peers @peers.setter def peers(self, rel: Relation) -> None: @7 | method PeerState.peers @peers.deleter def peers(self) -> None: @11"+
			" | class Other class Other: @20")
	d := diffJSON(t, old, cur)
	if got := fmt.Sprint(renames(d)); got != "[C.port>C.listen_port C.port>C.listen_port State>PeerState State.peer>PeerState.peers"+
		" State.peer>PeerState.peers State.peer>PeerState.peers]" {
		t.Errorf("renamed = %s", got)
	}
	if got := fmt.Sprint(symbolNames(d.Removed), symbolNames(d.Added)); got != "[Other.peer] []" {
		t.Errorf("removed, added = %s", got)
	}
	text, _, err := runDiff(t, "text", old, cur)
	if err != nil || strings.Count(text, "renamed  method C.port => C.listen_port\n") != 1 {
		t.Errorf("text (%v):\n%s", err, text)
	}
}

func TestDiffFilesMoved(t *testing.T) {
	// git mv src/relations.py src/relations/ingress.py: a file that holds most of a removed
	// one's symbols is that file moved, and its symbols are compared under the new path (a
	// method renamed on the way is a rename), not listed as all removed and all added. A file
	// sharing one symbol (a logger) with a removed one of another name, or sharing less than
	// moveShare of its symbols, is added; a file of one symbol keeps its name to count as moved.
	old := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1",
		"src/relations.py 0.3 | constant logger logger = logging.getLogger(__name__) @3 | class Ingress class Ingress(ops.Object): @5"+
			" | method Ingress.__init__ def __init__(self, charm: ops.CharmBase): @6 | method Ingress._publish def _publish(self, url: str) -> None: @9"+
			" | method Ingress.url @property def url(self) -> str: @12",
		"src/util.py 0.2 | constant logger logger = logging.getLogger(__name__) @3 | function f def f(a: int, b: int) -> int: @5",
		"src/one.py 0.1 | function only def only(a: int) -> int: @1",
	)
	cur := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1",
		"src/relations/ingress.py 0.3 | constant logger logger = logging.getLogger(__name__) @1 | class Ingress class Ingress(ops.Object): @3"+
			" | method Ingress.__init__ def __init__(self, charm: ops.CharmBase): @4 | method Ingress._publish_url def _publish_url(self, url: str) -> None: @7"+
			" | method Ingress.url @property def url(self) -> str: @10",
		"src/helpers.py 0.2 | constant logger logger = logging.getLogger(__name__) @3 | function g def g(x: str) -> str: @5",
		"src/lib/one.py 0.1 | function only def only(a: int) -> int: @1",
	)
	d := diffJSON(t, old, cur)
	if got := fmt.Sprint(d.FilesMoved); got != "[{src/one.py src/lib/one.py 1} {src/relations.py src/relations/ingress.py 4}]" {
		t.Errorf("moved = %s", got)
	}
	if got := fmt.Sprint(d.FilesAdded, d.FilesRemoved); got != "[src/helpers.py] [src/util.py]" {
		t.Errorf("files added, removed = %s", got)
	}
	if got := fmt.Sprint(renames(d)); got != "[Ingress._publish>Ingress._publish_url]" {
		t.Errorf("renamed = %s", got)
	}
	if d.Renamed[0].File != "src/relations/ingress.py" || d.Renamed[0].OldLine != 9 || d.Renamed[0].NewLine != 7 {
		t.Errorf("rename = %+v", d.Renamed[0])
	}
	if got := fmt.Sprint(symbolNames(d.Removed), symbolNames(d.Added)); got != "[logger f] [logger g]" {
		t.Errorf("removed, added = %s", got)
	}
	text, _, err := runDiff(t, "text", old, cur)
	if err != nil || !strings.Contains(text, "files moved:\n  src/one.py -> src/lib/one.py\n  src/relations.py -> src/relations/ingress.py\n") ||
		!strings.Contains(text, "src/relations/ingress.py:\n  renamed  method Ingress._publish => Ingress._publish_url\n") {
		t.Errorf("text (%v):\n%s", err, text)
	}
}

func TestDiffMovesNeedTheFilesOwnSymbols(t *testing.T) {
	// Review rev95. A template's skeleton is no evidence: two test modules sharing a TestCharm
	// and its setUp are a removal and an addition, and so are two charms' config.yaml sharing
	// one option (charm YAML names are fixed, so the same name says nothing). A charm moved
	// into machine/ while a copy of it is added as k8s/ goes to machine/ whole: its vendored
	// library, alike in both copies, follows the charm's own files (it went to k8s/, the first
	// path, before). Charms renamed in a monorepo keep their own modules; a module alike in
	// both is neither's.
	lib := " | constant LIBID LIBID = \"abc\" @1 | class FooRequires class FooRequires(Object): @5 | method FooRequires.__init__ def __init__(self, charm, relation_name: str = \"foo\"): @6" +
		" | method FooRequires._on_changed def _on_changed(self, event: RelationChangedEvent) -> None: @9"
	old := doc(t,
		"tests/unit/test_logging.py 0.1 | class TestCharm class TestCharm(unittest.TestCase): @1 | method TestCharm.setUp def setUp(self): @2"+
			" | method TestCharm.test_logging_config_written def test_logging_config_written(self): @5",
		"charms/old-exporter/config.yaml 0.1 | config log-level [config] log-level (string, default \"info\") @2",
		"src/charm.py 0.5 | class KafkaCharm class KafkaCharm(TypedCharmBase[CharmConfig]): @10 | method KafkaCharm.__init__ def __init__(self, *args): @11"+
			" | method KafkaCharm._on_start def _on_start(self, event: StartEvent) -> None: @20",
		"lib/charms/foo/v0/foo.py 0.1"+lib,
	)
	cur := doc(t,
		"tests/unit/test_metrics.py 0.1 | class TestCharm class TestCharm(unittest.TestCase): @1 | method TestCharm.setUp def setUp(self): @2"+
			" | method TestCharm.test_metrics_config_exposed def test_metrics_config_exposed(self): @5",
		"charms/new-dashboard/config.yaml 0.1 | config log-level [config] log-level (string, default \"info\") @2",
		"k8s/src/charm.py 0.5 | class KafkaCharm class KafkaCharm(TypedCharmBase[CharmConfig]): @10 | method KafkaCharm.__init__ def __init__(self, *args): @11",
		"machine/src/charm.py 0.5 | class KafkaCharm class KafkaCharm(TypedCharmBase[CharmConfig]): @10 | method KafkaCharm.__init__ def __init__(self, *args): @11"+
			" | method KafkaCharm._on_start def _on_start(self, event: StartEvent) -> None: @20",
		"k8s/lib/charms/foo/v0/foo.py 0.1"+lib,
		"machine/lib/charms/foo/v0/foo.py 0.1"+lib,
	)
	d := diffJSON(t, old, cur)
	if got := fmt.Sprint(d.FilesMoved); got != "[{lib/charms/foo/v0/foo.py machine/lib/charms/foo/v0/foo.py 4} {src/charm.py machine/src/charm.py 3}]" {
		t.Errorf("moved = %s", got)
	}
	if got := fmt.Sprint(d.FilesAdded, d.FilesRemoved); got != "[charms/new-dashboard/config.yaml k8s/lib/charms/foo/v0/foo.py k8s/src/charm.py tests/unit/test_metrics.py]"+
		" [charms/old-exporter/config.yaml tests/unit/test_logging.py]" {
		t.Errorf("files added, removed = %s", got)
	}

	// a conftest.py moved whole with its two fixtures is moved; one sharing a fixture is not
	old = doc(t, "tests/scenario/conftest.py 0.1 | function ctx def ctx(): @3 | function tautology def tautology(): @8",
		"tests/a/conftest.py 0.1 | function charm def charm(): @3 | function other def other(): @8")
	cur = doc(t, "tests/unit/conftest.py 0.1 | function ctx def ctx(): @3 | function tautology def tautology(): @8",
		"tests/b/conftest.py 0.1 | function charm def charm(): @3")
	if got := fmt.Sprint(diffJSON(t, old, cur).FilesMoved); got != "[{tests/scenario/conftest.py tests/unit/conftest.py 2}]" {
		t.Errorf("conftest moves = %s", got)
	}
	old = doc(t, "alpha-operator/src/charm.py 0.5"+lib, "beta-operator/src/charm.py 0.5"+strings.ReplaceAll(lib, "Foo", "Bar"),
		"alpha-operator/src/state.py 0.1 | class State class State(Object): @1 | function load def load(path: str) -> State: @9",
		"beta-operator/src/state.py 0.1 | class State class State(Object): @1 | function load def load(path: str) -> State: @9")
	cur = doc(t, "zeta/src/charm.py 0.5"+lib, "eta/src/charm.py 0.5"+strings.ReplaceAll(lib, "Foo", "Bar"),
		"zeta/src/state.py 0.1 | class State class State(Object): @1 | function load def load(path: str) -> State: @9 | constant X X = 1 @20",
		"eta/src/state.py 0.1 | class State class State(Object): @1 | function load def load(path: str) -> State: @9 | constant Y Y = 2 @20")
	d = diffJSON(t, old, cur)
	if got := fmt.Sprint(d.FilesMoved); got != "[{beta-operator/src/charm.py eta/src/charm.py 4} {alpha-operator/src/charm.py zeta/src/charm.py 4}]" {
		t.Errorf("moved = %s", got)
	}
	// a module both charms held alike is neither's own: which went where is not known
	if got := fmt.Sprint(d.FilesAdded, d.FilesRemoved); got != "[eta/src/state.py zeta/src/state.py] [alpha-operator/src/state.py beta-operator/src/state.py]" {
		t.Errorf("files added, removed = %s", got)
	}
}

func TestDiffMovedFileKeepsItsRankAndShowsHiddenChanges(t *testing.T) {
	// A file moved is one file whose rank can move (review rev95: never reported), and a
	// setter that followed its renamed property but changed its type too shows the change.
	old := doc(t, "a.py 0.5", "b.py 0.4", "c.py 0.3", "d.py 0.2", "e.py 0.1",
		"src/net.py 0.01 | class Net class Net(Base, Mixin): @1 | method Net.port @property def port(self) -> int: @3"+
			" | method Net.port @port.setter def port(self, value: int) -> None: @7 | function dial def dial(host: str, port: int) -> Net: @12"+
			" | function close def close(n: Net, wait: bool) -> None: @20 | constant TIMEOUT TIMEOUT = 30 @30")
	cur := doc(t, "src/lib/net.py 0.9 | class Net class Net(Base, Mixin): @1 | method Net.api_port @property def api_port(self) -> int: @3"+
		" | method Net.api_port @api_port.setter def api_port(self, value: str) -> None: @7 | function dial def dial(host: str, port: int) -> Net: @12"+
		" | function close def close(n: Net, wait: bool) -> None: @20 | constant TIMEOUT TIMEOUT = 30 @30",
		"a.py 0.5", "b.py 0.4", "c.py 0.3", "d.py 0.2", "e.py 0.1")
	d := diffJSON(t, old, cur)
	if len(d.FilesMoved) != 1 || len(d.Moved) != 1 || d.Moved[0].Path != "src/lib/net.py" || d.Moved[0].OldRank != 6 || d.Moved[0].NewRank != 1 {
		t.Errorf("files moved %v, rank moved %+v", d.FilesMoved, d.Moved)
	}
	text, _, err := runDiff(t, "text", old, cur)
	if err != nil || !strings.Contains(text, "src/lib/net.py:\n  renamed  method Net.port => Net.api_port\n"+
		"  renamed  method Net.port => Net.api_port: @port.setter def port(self, value: int) -> None: => @api_port.setter def api_port(self, value: str) -> None:\n") {
		t.Errorf("text (%v):\n%s", err, text)
	}
}

func TestPathRewrite(t *testing.T) {
	for _, c := range [][3]string{
		{"alpha-operator/lib/x.py", "zeta/lib/x.py", "alpha-operator/\x00zeta/"},
		{"x.py", "machine/x.py", "\x00machine/"},
		{"foo/x.py", "barfoo/x.py", "foo/\x00barfoo/"},
		{"src/a.py", "src/b.py", "src/a.py\x00src/b.py"},
		{"a/b.py", "a/b.py", "\x00"},
	} {
		if got := pathRewrite(c[0], c[1]); got != c[2] {
			t.Errorf("pathRewrite(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestDiffSymbolMovedToAnotherFile(t *testing.T) {
	// A function or method removed from one file and added, with its signature, to another is
	// said to have moved (review rev95: a module split in two read as removals here and
	// additions there): a method may change class on the way; a dunder, or a signature two
	// removed symbols share, says nothing.
	old := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1 | method C.__init__ def __init__(self, *args): @2"+
			" | method C._render def _render(self, ctx: dict) -> str: @10 | function backup def backup(path: str, dest: str) -> bool: @20"+
			" | function helper def helper(ctx: dict, n: int) -> str: @25"+
			" | class D class D: @40 | method D.get def get(self, key: str) -> str: @41 | class E class E: @50 | method E.get def get(self, key: str) -> str: @51",
		"src/other.py 0.1 | function a def a(x: int) -> int: @1")
	cur := doc(t,
		"src/charm.py 0.5 | class C class C(ops.CharmBase): @1",
		"src/render.py 0.2 | class Renderer class Renderer: @1 | method Renderer.__init__ def __init__(self, *args): @2"+
			" | method Renderer._render def _render(self, ctx: dict) -> str: @5 | function backup def backup(path: str, dest: str) -> bool: @20"+
			" | class F class F: @30 | method F.get def get(self, key: str) -> str: @31",
		"src/other.py 0.1 | function a def a(x: int) -> int: @1 | function helper def helper(ctx: dict, n: int) -> str: @9")
	d := diffJSON(t, old, cur)
	got := map[string]string{}
	for _, s := range d.Removed {
		got["-"+s.Name] = s.MovedTo
	}
	for _, s := range d.Added {
		got["+"+s.Name] = s.MovedFrom
	}
	want := map[string]string{"-C.__init__": "", "-C._render": "src/render.py", "-backup": "src/render.py", "-D": "", "-D.get": "",
		"-E": "", "-E.get": "", "-helper": "src/other.py",
		"+Renderer": "", "+Renderer.__init__": "", "+Renderer._render": "src/charm.py", "+backup": "src/charm.py", "+F": "", "+F.get": "",
		"+helper": "src/charm.py"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("moves = %v, want %v", got, want)
	}
	text, _, err := runDiff(t, "text", old, cur)
	if err != nil || !strings.Contains(text, "  removed  function backup: def backup(path: str, dest: str) -> bool: (now in src/render.py)\n") ||
		!strings.Contains(text, "  added    function helper: def helper(ctx: dict, n: int) -> str: (from src/charm.py)\n") {
		t.Errorf("text (%v):\n%s", err, text)
	}
}

func TestDiffSymbolMovesBetweenWholeFiles(t *testing.T) {
	// Review rev98: a symbol moved from a file removed to a file added showed only in JSON
	// (whole files are one line each in the text), and two long signatures that read the same
	// where they are cut were paired though their digests differ; a private __name is no dunder.
	path := filepath.Join(t.TempDir(), "old.json")
	os.WriteFile(path, []byte(`{"schema_version": 1, "files": [{"path": "src/old.py", "score": 0.1, "symbols": [
		{"name": "keep", "kind": "function", "signature": "def keep(a: int, b: str) -> None:", "line": 1},
		{"name": "cut", "kind": "function", "signature": "def cut(a: int, …):", "digest": "aaa", "line": 5},
		{"name": "C", "kind": "class", "signature": "class C:", "line": 9},
		{"name": "C.__private", "kind": "method", "qualifier": "C", "signature": "def __private(self, x: int):", "line": 10}]}]}`), 0o644)
	cur := filepath.Join(t.TempDir(), "new.json")
	os.WriteFile(cur, []byte(`{"schema_version": 1, "files": [{"path": "src/new.py", "score": 0.1, "symbols": [
		{"name": "keep", "kind": "function", "signature": "def keep(a: int, b: str) -> None:", "line": 3},
		{"name": "cut", "kind": "function", "signature": "def cut(a: int, …):", "digest": "bbb", "line": 7},
		{"name": "D", "kind": "class", "signature": "class D:", "line": 9},
		{"name": "D.__private", "kind": "method", "qualifier": "D", "signature": "def __private(self, x: int):", "line": 10}]}]}`), 0o644)
	d := diffJSON(t, path, cur)
	moved := map[string]string{}
	for _, s := range d.Removed {
		moved[s.Name] = s.MovedTo
	}
	if fmt.Sprint(moved) != "map[C: C.__private:src/new.py cut: keep:src/new.py]" {
		t.Errorf("moved to = %v", moved)
	}
	text, _, err := runDiff(t, "text", path, cur)
	if err != nil || !strings.Contains(text, "files added:\n  src/new.py (4 symbols; some from src/old.py)\n") ||
		!strings.Contains(text, "files removed:\n  src/old.py (4 symbols; some now in src/new.py)\n") {
		t.Errorf("text (%v):\n%s", err, text)
	}
}
