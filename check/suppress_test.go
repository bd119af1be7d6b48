package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
)

func TestSuppresses(t *testing.T) {
	for _, c := range []struct {
		line, rule string
		ok, alone  bool
	}{
		{"  coordinator:  # charmcraft-map: ignore[unhandled-relation] kept for upgrades", "unhandled-relation", true, false},
		{"  coordinator:  # charmcraft-map: ignore[unhandled-relation]", "unused-config", false, false},
		{"    # charmcraft-map: ignore[unused-config, unhandled-relation]", "unhandled-relation", true, true},
		{"x = self.config['legacy']  # charmcraft-map: ignore", "undeclared-config", true, false},
		{"# charmcraft-map: ignore: kept on purpose\r", "unused-config", true, true},
		{"# charmcraft-map: ignored by nobody", "unused-config", false, true},
		{"# charmcraft-map: ignore[unused-config", "unused-config", false, true},
		{"  coordinator:", "unhandled-relation", false, false},
		{`msg = "charmcraft-map: ignore"`, "unused-config", false, false}, // no comment
		{"# see charmcraft-map: ignore", "unused-config", false, true},    // the comment does not start with it
		{"# charmcraft-map: ignore [unhandled-relation]", "unused-config", false, true},
		{"# charmcraft-map: ignore: [unhandled-relation]", "unhandled-relation", true, true},
		{"#charmcraft-map: ignore", "unused-config", true, true},
	} {
		if ok, alone := suppresses(c.line, c.rule); ok != c.ok || ok && alone != c.alone {
			t.Errorf("suppresses(%q, %q) = %v, %v; want %v, %v", c.line, c.rule, ok, alone, c.ok, c.alone)
		}
	}
}

func TestSuppressionComments(t *testing.T) {
	// A directive on the reported line, or alone on the line above, silences the finding;
	// one after code on the line above does not, nor one naming another rule. Silenced
	// findings leave the report, and the summary counts them.
	meta := []string{
		"name: keep", // 1
		"peers:",     // 2
		"  coordinator:  # charmcraft-map: ignore[unhandled-relation] kept for upgrades", // 3
		"  # charmcraft-map: ignore", // 4
		"  replicas:",                // 5
		"  spare: {}  # charmcraft-map: ignore[unused-config]", // 6
		"  other: {}", // 7
	}
	charms := []charmyaml.Charm{{Name: "keep", Dir: "."}}
	var ifaces []linker.Interface
	for _, r := range []struct {
		name string
		line int
	}{{"coordinator", 3}, {"replicas", 5}, {"spare", 6}, {"other", 7}} {
		charms[0].Relations = append(charms[0].Relations, charmyaml.Relation{Name: r.name, Role: "peers", Pos: pos("metadata.yaml", r.line)})
		ifaces = append(ifaces, linker.Interface{Kind: linker.KindRelation, Name: r.name, File: "metadata.yaml", Line: r.line})
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "keep", Dir: ".", Interfaces: ifaces}}}
	lines := func(file string) []string {
		if file == "metadata.yaml" {
			return meta
		}
		return nil
	}
	r := Run(charms, links, Options{Strict: true, Lines: lines})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Subject)
	}
	if strings.Join(got, " ") != "spare other" || r.Summary.Suppressed != 2 || r.Summary.Errors != 2 {
		t.Errorf("reported %v, summary %+v; want spare and other, 2 suppressed", got, r.Summary)
	}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil || !strings.HasSuffix(b.String(), "2 errors, 0 warnings, 0 infos; 2 findings silenced by charmcraft-map: ignore comments\n") {
		t.Errorf("text %q %v", b.String(), err)
	}
	if r := Run(charms, links, Options{}); r.Summary.Suppressed != 0 || len(r.Diagnostics) != 4 {
		t.Errorf("without Lines: %+v", r.Summary)
	}
}

func TestCommentsOnlyInComments(t *testing.T) {
	// Where each line's comment starts: a '#' in a Python string (one line, triple-quoted over
	// lines, escaped quotes) or in a YAML value (quoted, over lines, a block scalar's text)
	// starts none; one after them does.
	py := []string{
		`x = "# not a comment"  # a comment`, // 0
		`y = 'it\'s # still a string'`,       // 1
		`doc = """`,                          // 2
		`# inside a docstring`,               // 3
		`"""  # after it`,                    // 4
		`z = f"{a['#']}"`,                    // 5
		`# alone`,                            // 6
		// Python 3.12 (PEP 701): an f-string's field nests the quote that encloses it, and the
		// text after is still the string's (rev91: a quote lexer ended the string there)
		`x = f"{"\""} # charmcraft-map: ignore"`, // 7
		`y = f"{'a' + f"{"#"}"}"  # after`,       // 8
		`s = "a \`,                               // 9: a string continued by a backslash
		`# b"  # c`,                              // 10
	}
	want := []int{23, -1, -1, -1, 5, -1, 0, -1, 25, -1, 6}
	if got := commentsOf("src/charm.py", py); !slices.Equal(got, want) {
		t.Errorf("python comments at %v, want %v", got, want)
	}
	for _, lines := range [][]string{nil, {""}, {"#"}} {
		if got := commentsOf("x.py", lines); len(got) != len(lines) || len(lines) == 1 && got[0] != len(lines[0])-1 {
			t.Errorf("comments of %q: %v", lines, got)
		}
	}
	yml := []string{
		`name: "a # b"  # a comment`, // 0
		`summary: it's#1 # yes`,      // 1
		`description: |`,             // 2
		`  # text of the block`,      // 3
		``,                           // 4
		`  more text # still text`,   // 5
		`requires:  # comment`,       // 6
		`  db: {interface: 'x # y'}`, // 7
		`  note: "a`,                 // 8
		`    # b"`,                   // 9
		`  other: >-`,                // 10
		`    # folded text`,          // 11
		`  # comment again`,          // 12
	}
	wantY := []int{15, 16, -1, -1, -1, -1, 11, -1, -1, -1, -1, -1, 2}
	if got := commentsOf("metadata.yaml", yml); !slices.Equal(got, wantY) {
		t.Errorf("yaml comments at %v, want %v", got, wantY)
	}
}

func TestDirectiveInAStringSilencesNothing(t *testing.T) {
	// A directive's text in a Python string or a YAML value is data: the findings on its line,
	// and on the line after it, stay.
	src := map[string][]string{
		"src/charm.py": {
			"import ops",
			`MSG = """`,
			"# charmcraft-map: ignore",
			`"""`,
			`        self.model.get_relation("cache")  ; log("# charmcraft-map: ignore")`,
		},
		"metadata.yaml": {
			"name: demo",
			"description: |",
			"  # charmcraft-map: ignore",
			"requires:",
			`  legacy: {interface: "# charmcraft-map: ignore"}`,
		},
	}
	links := linker.Result{Charms: []linker.CharmLinks{{Name: "demo", Dir: ".", Findings: []linker.Finding{
		{Kind: linker.FindUndeclaredRelation, Subject: "cache", Site: linker.Site{File: "src/charm.py", Line: 5, Symbol: "C.f"}},
		{Kind: linker.FindUndeclaredRelation, Subject: "db", Site: linker.Site{File: "src/charm.py", Line: 4, Symbol: "C.g"}},
	}, Interfaces: []linker.Interface{
		{Kind: linker.KindRelation, Name: "requires", File: "metadata.yaml", Line: 4},
		{Kind: linker.KindRelation, Name: "legacy", File: "metadata.yaml", Line: 5},
	}}}}
	r := Run(nil, links, Options{Lines: func(f string) []string { return src[f] }})
	if r.Summary.Suppressed != 0 || len(r.Diagnostics) != 4 {
		t.Errorf("suppressed %d, diagnostics %+v; want none silenced", r.Summary.Suppressed, r.Diagnostics)
	}
	// the same files with CRLF line endings (rev91: "description: |\r" was no block, and a
	// Python string continued by "\\\r" ended there)
	crlf := map[string][]string{}
	for f, ls := range src {
		for _, l := range ls {
			crlf[f] = append(crlf[f], l+"\r")
		}
	}
	crlf["src/charm.py"] = append(crlf["src/charm.py"][:4], `        h = "a string continued \`+"\r", "# charmcraft-map: ignore\"\r",
		`        self.model.get_relation("cache")`+"\r")
	links.Charms[0].Findings[0].Line = 7
	r = Run(nil, links, Options{Lines: func(f string) []string { return crlf[f] }})
	if r.Summary.Suppressed != 0 || len(r.Diagnostics) != 4 {
		t.Errorf("CRLF: suppressed %d, diagnostics %+v; want none silenced", r.Summary.Suppressed, r.Diagnostics)

	}
	// and a real comment of a CRLF file still silences
	crlf["metadata.yaml"][4] = `  legacy: {interface: x}  # charmcraft-map: ignore` + "\r"
	if r = Run(nil, links, Options{Lines: func(f string) []string { return crlf[f] }}); r.Summary.Suppressed != 1 {
		t.Errorf("CRLF: a real comment silenced %d findings, want 1", r.Summary.Suppressed)
	}
}
