package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The map sits in the prefix of the agent's prompt, which its provider caches: the text may
// change only when what it shows changes. These tests run the views an agent receives.

// cleanFixtures are the fixtures without seeded errors.
var cleanFixtures = []string{"unified", "split", "monorepo", "patterns-wiring"}

// agentViews are the option sets the agent calls map with; each test compares them across a
// change to the tree.
func agentViews(root string) map[string]MapOptions {
	full := MapOptions{Common: Common{Root: root}, Full: true, Tokens: DefaultTokens}
	focus, mention := full, full
	focus.Focus = []string{"src/charm.py"}
	mention.Mention = []string{"the database relation does not update the config"}
	return map[string]MapOptions{"full": full, "focus": focus, "mention": mention}
}

func renderViews(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, o := range agentViews(root) {
		text, _, err := runMap(t, o)
		if err != nil {
			t.Fatal(err)
		}
		if text == "" {
			t.Fatalf("%s view of %s is empty", name, root)
		}
		out[name] = text
	}
	return out
}

func sameViews(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for name, b := range before {
		if a := after[name]; a != b {
			t.Errorf("%s changed the %s view:\nbefore:\n%s\nafter:\n%s", what, name, b, a)
		}
	}
}

// pythonFiles lists the .py files under root.
func pythonFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".py") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// editPython applies edit to the lines (each with its newline) of every Python file under
// root and writes every file back (an unchanged one gets a new mtime too); it returns how many
// files edit changed.
func editPython(t *testing.T, root string, edit func(lines []string) ([]string, bool)) int {
	t.Helper()
	edited := 0
	for _, p := range pythonFiles(t, root) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines, ok := edit(strings.SplitAfter(string(b), "\n"))
		if ok {
			edited++
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return edited
}

// editBodies inserts a comment and a `pass` at the top of the body of the first function of
// each Python file whose `def` fits on one line: the body changes, every later line moves
// down, no signature changes. It returns how many files it edited.
func editBodies(t *testing.T, root string) int {
	t.Helper()
	return editPython(t, root, func(lines []string) ([]string, bool) {
		for i, l := range lines {
			code := strings.TrimSpace(l)
			if (strings.HasPrefix(code, "def ") || strings.HasPrefix(code, "async def ")) && strings.HasSuffix(code, ":") {
				indent := l[:len(l)-len(strings.TrimLeft(l, " "))] + "    "
				body := indent + "# edited by the test: a body-only change\n" + indent + "pass\n"
				return slices.Insert(lines, i+1, body), true
			}
		}
		return lines, false
	})
}

// symbolLines are the line numbers of every symbol in `map --all --format json`.
func symbolLines(t *testing.T, root string) []int {
	t.Helper()
	out, _, err := runMap(t, MapOptions{Common: Common{Root: root, Format: "json"}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct{ Symbols []struct{ Line int } }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, f := range doc.Files {
		for _, s := range f.Symbols {
			lines = append(lines, s.Line)
		}
	}
	return lines
}

// TestBodyOnlyEditKeepsMap: a change inside function bodies leaves the agent's views byte for
// byte the same, through the cache (mtimes changed) and without it.
func TestBodyOnlyEditKeepsMap(t *testing.T) {
	for _, name := range cleanFixtures {
		t.Run(name, func(t *testing.T) {
			root := copyTree(t, filepath.Join(charmsDir, name))
			before := renderViews(t, root)
			linesBefore := symbolLines(t, root)
			if n := editBodies(t, root); n < 2 {
				t.Fatalf("edited only %d files", n)
			}
			if slices.Equal(linesBefore, symbolLines(t, root)) {
				t.Fatal("the edit moved no symbol: it did not land")
			}
			sameViews(t, "a body-only edit", before, renderViews(t, root))
			os.Remove(filepath.Join(root, ".cantrip-repomap.json"))
			sameViews(t, "a body-only edit (no cache)", before, renderViews(t, root))
		})
	}
}

// useMore inserts, before the first statement of a function body that starts with "if ",
// "return " or "self." and uses a dotted name (const.EXPORT_FORMATS, self._stored.port), that
// dotted name as a statement of its own: one more use of names the file already uses, nothing
// else. It returns how many files it edited.
func useMore(t *testing.T, root string) int {
	t.Helper()
	dotted := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	return editPython(t, root, func(lines []string) ([]string, bool) {
		inDef := false
		for i, l := range lines {
			code := strings.TrimSpace(l)
			if strings.HasPrefix(code, "def ") || strings.HasPrefix(code, "async def ") {
				inDef = true
				continue
			}
			indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
			if !inDef || indent == "" || !(strings.HasPrefix(code, "if ") || strings.HasPrefix(code, "return ") || strings.HasPrefix(code, "self.")) {
				continue
			}
			if name := dotted.FindString(strings.SplitN(code, "#", 2)[0]); name != "" && !strings.Contains(code, "\"") && !strings.Contains(code, "'") {
				return slices.Insert(lines, i, indent+name+"\n"), true
			}
		}
		return lines, false
	})
}

// TestMoreUsesKeepMap: one more use of a name a file already uses (a body edit that keeps the
// set of names) leaves the agent's views byte for byte the same: how often a file uses a name
// does not weigh (review rev79 found 22 of 135 such edits moving the map).
func TestMoreUsesKeepMap(t *testing.T) {
	for _, name := range cleanFixtures {
		t.Run(name, func(t *testing.T) {
			root := copyTree(t, filepath.Join(charmsDir, name))
			before := renderViews(t, root)
			if n := useMore(t, root); n < 2 {
				t.Fatalf("edited only %d files", n)
			}
			sameViews(t, "one more use of a name", before, renderViews(t, root))
		})
	}
}

// TestNoiseKeepsOrder: what does not change the code (mtimes, the order files were written
// to disk, where the tree lives) does not change the views.
func TestNoiseKeepsOrder(t *testing.T) {
	for _, name := range cleanFixtures {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(charmsDir, name)
			root := copyTree(t, src)
			before := renderViews(t, root)

			stamp := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			for i, p := range pythonFiles(t, root) {
				at := stamp.Add(time.Duration(i) * time.Hour)
				if err := os.Chtimes(p, at, at); err != nil {
					t.Fatal(err)
				}
			}
			sameViews(t, "touching every file", before, renderViews(t, root))

			// The same files written in reverse order into another directory.
			other := t.TempDir()
			files := pythonFiles(t, src)
			filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() && !strings.HasSuffix(p, ".py") {
					files = append(files, p)
				}
				return nil
			})
			slices.Reverse(files)
			for _, p := range files {
				rel, _ := filepath.Rel(src, p)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				os.MkdirAll(filepath.Dir(filepath.Join(other, rel)), 0o755)
				if err := os.WriteFile(filepath.Join(other, rel), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sameViews(t, "writing the files in another order elsewhere", before, renderViews(t, other))
		})
	}
}

// position is the index of a file's block in a --full text, -1 when it is not shown.
func position(text, file string) int {
	i := 0
	for _, l := range strings.Split(text, "\n") {
		if l == "" || l[0] == ' ' {
			continue
		}
		if l == file+":" {
			return i
		}
		i++
	}
	return -1
}

// TestFocusAndMention: a focused file is not shown but what touches it gains on the rest; a
// mentioned name moves its file up.
func TestFocusAndMention(t *testing.T) {
	root := filepath.Join(charmsDir, "unified")
	base := MapOptions{Common: Common{Root: root, NoCache: true}, Full: true, Tokens: DefaultTokens, Explain: true}
	focused := base
	focused.Focus = []string{"src/relations.py"}
	text, _, err := runMap(t, focused)
	if err != nil {
		t.Fatal(err)
	}
	if position(text, "src/relations.py") >= 0 {
		t.Errorf("the focused file is shown:\n%s", text)
	}
	score := func(files []explainedFile) map[string]float64 {
		m := map[string]float64{}
		for _, f := range files {
			m[f.Path] = f.Score
		}
		return m
	}
	without := score(explainedMap(t, base))
	withFiles := explainedMap(t, focused)
	with := score(withFiles)
	var near, far []string
	for _, f := range withFiles {
		switch {
		case f.Path == "src/relations.py" || f.Class != "source" && f.Class != "yaml":
		case hasSignal(f, "focus-caller") || hasSignal(f, "focus-declares"):
			near = append(near, f.Path)
		default:
			far = append(far, f.Path)
		}
	}
	if len(near) == 0 || len(far) == 0 {
		t.Fatalf("no files to compare: near %v, far %v", near, far)
	}
	// the charm's YAML calls nothing: it declares what the focused file handles
	declares := false
	for _, f := range withFiles {
		if f.Class == "yaml" && hasSignal(f, "focus-caller") {
			t.Errorf("%s is a focus-caller", f.Path)
		}
		declares = declares || f.Class == "yaml" && hasSignal(f, "focus-declares")
	}
	if !declares {
		t.Error("no YAML file declares what the focused file handles")
	}
	for _, n := range near {
		for _, f := range far {
			if with[n]/without[n] <= with[f]/without[f] {
				t.Errorf("focus on src/relations.py: %s (uses it) went %g → %g, no better than %s (does not) %g → %g",
					n, without[n], with[n], f, without[f], with[f])
			}
		}
	}

	plain, _, _ := runMap(t, base)
	mention := base
	mention.Mention = []string{"InkwellWorkload should retry when the container is not ready"}
	moved, _, _ := runMap(t, mention)
	if p, m := position(plain, "src/workload.py"), position(moved, "src/workload.py"); m < 0 || p >= 0 && m >= p {
		t.Errorf("mentioning InkwellWorkload left src/workload.py at block %d (was %d):\n%s", m, p, moved)
	}
}
