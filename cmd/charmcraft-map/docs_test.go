package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/cantrip-dev/charmcraft-map/app"
)

// docsDir holds the generated command reference, one markdown page per command.
const docsDir = "../../docs/cli"

var update = flag.Bool("update", false, "regenerate the command reference under docs/cli")

// genDocs writes the markdown reference of every command into dir.
func genDocs(dir string) error {
	root := newRootCmd(&app.Common{}, app.IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	root.DisableAutoGenTag = true // no date: the pages are reproducible
	var fence func(c *cobra.Command)
	fence = func(c *cobra.Command) {
		c.Long = fencedBlocks(c.Long)
		for _, sub := range c.Commands() {
			fence(sub)
		}
	}
	fence(root)
	return doc.GenMarkdownTree(root, dir)
}

// fencedBlocks puts each run of indented lines of a help text (a table of rules, tags or exit
// codes, which a terminal shows aligned) in a code block, where markdown would run it into
// the paragraph.
func fencedBlocks(long string) string {
	var out []string
	in := false
	for _, line := range strings.Split(long, "\n") {
		indented := strings.HasPrefix(line, "  ")
		switch {
		case indented && !in:
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			out = append(out, "```")
		case !indented && in:
			out = append(out, "```")
			if line != "" {
				out = append(out, "")
			}
		}
		in = indented
		out = append(out, line)
	}
	if in {
		out = append(out, "```")
	}
	return strings.Join(out, "\n")
}

// readDocs reads every file in dir by name; a missing dir holds none.
func readDocs(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		docs[e.Name()] = string(b)
	}
	return docs
}

// TestDocs regenerates the command reference into a temporary directory and fails when
// docs/cli differs. With -update (`go generate ./cmd/charmcraft-map`) it rewrites docs/cli.
func TestDocs(t *testing.T) {
	if *update {
		if err := os.RemoveAll(docsDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(docsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := genDocs(docsDir); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	if err := genDocs(tmp); err != nil {
		t.Fatal(err)
	}
	want, got := readDocs(t, tmp), readDocs(t, docsDir)
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	stale := false
	for _, name := range names {
		w, inWant := want[name]
		g, inGot := got[name]
		switch {
		case !inGot:
			t.Errorf("docs/cli/%s is missing", name)
		case !inWant:
			t.Errorf("docs/cli/%s documents no command", name)
		case w != g:
			t.Errorf("docs/cli/%s is out of date", name)
		default:
			continue
		}
		stale = true
	}
	if stale {
		t.Error("docs/cli is stale; regenerate it with: go generate ./cmd/charmcraft-map")
	}
	if len(want) < 6 {
		t.Errorf("only %d pages generated", len(want))
	}
}

func TestFencedBlocks(t *testing.T) {
	// an indented table of a help text becomes a code block in its page, with blank lines
	// around it; text without one is left alone
	got := fencedBlocks("Rules:\n  a  one\n  b  two\nMore text.")
	if want := "Rules:\n\n```\n  a  one\n  b  two\n```\n\nMore text."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := fencedBlocks("plain\ntext"); got != "plain\ntext" {
		t.Errorf("plain text changed: %q", got)
	}
	if got := fencedBlocks("Codes:\n  0  ok"); got != "Codes:\n\n```\n  0  ok\n```" {
		t.Errorf("table at the end: %q", got)
	}
}
