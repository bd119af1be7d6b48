package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinks: every relative link in README.md and docs/*.md names a file of the repository,
// and a link's #anchor a heading of that file (as GitHub writes heading anchors), so that moving
// or renaming a section cannot leave a reader at a dead link.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchorsOf := map[string]map[string]bool{} // per file read, its headings' anchors
	n := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), path)
			}
			n++
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no such file", filepath.Base(page), target)
				continue
			}
			if anchor == "" {
				continue
			}
			if anchorsOf[file] == nil {
				anchorsOf[file] = anchors(t, file)
			}
			if !anchorsOf[file][anchor] {
				t.Errorf("%s: link %s: %s has no heading with that anchor", filepath.Base(page), target, filepath.Base(file))
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d links", n)
	}
}

// anchors are the GitHub anchors of the markdown file's headings: each heading's text
// lowercased, with spaces made hyphens and every other character but letters, digits, hyphens
// and underscores dropped.
func anchors(t *testing.T, file string) map[string]bool {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(text), "\n") {
		heading := strings.TrimLeft(line, "#")
		if heading == line || !strings.HasPrefix(heading, " ") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
			switch {
			case r == ' ':
				slug.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		out[slug.String()] = true
	}
	return out
}
