package charmyaml

import (
	"bytes"
	"regexp"
)

// MaxFileWords caps the distinct words kept per YAML file (Charm.Words): a charmcraft.yaml of
// a few hundred lines has a few hundred; the cap only bounds a hostile or generated file.
const MaxFileWords = 4096

// textWords returns the distinct words of a YAML file's text, in order of first use: runs of
// letters, digits and underscores, so "charmcraft-uv-latest" gives charmcraft, uv, latest and
// "log_level" stays one word (a ranker splits identifiers itself). Words of one character are
// left out; numbers stay ("bump to 22.04" finds `channel: "22.04"` under bases). The text need
// not be valid YAML: a file the parser refused still has words.
func textWords(data []byte) []string {
	if len(data) > maxFileSize {
		data = data[:maxFileSize]
	}
	seen := map[string]bool{}
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := string(data[start:end])
		start = -1
		if len(w) < 2 || seen[w] || len(out) >= MaxFileWords {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	for i, b := range data {
		if b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(data))
	return out
}

// withoutMaintainers blanks the value of a metadata.yaml's or charmcraft.yaml's top-level
// `maintainer:` or `maintainers:` (names and addresses, on its line or in the list under it),
// keeping the key: a task text names people too ("[james-pages,r=corey.bryant] Add tox
// support", "Merge pull request #3 from camille/..."), and those names say nothing of which
// file a change edits; "Update maintainers" still finds the key (reviews rev81 and rev84: the
// metadata.yaml of two held-out charms ranked first on a committer's name). Other files are
// returned as they are.
func withoutMaintainers(name string, data []byte) []byte {
	if name != MetadataFile && name != CharmcraftFile || !bytes.Contains(data, []byte("maintainer")) {
		return data
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	out := make([]byte, 0, len(data))
	under := false // in the block of a maintainer key: its indented or list lines
	for _, l := range lines {
		switch {
		case maintainerKey.Match(l):
			out = append(out, maintainerKey.Find(l)...)
			out = append(out, '\n')
			under = true
			continue
		case under && len(l) > 0 && (l[0] == ' ' || l[0] == '\t' || l[0] == '-' || l[0] == '#' || len(bytes.TrimSpace(l)) == 0):
			out = append(out, '\n')
			continue
		}
		under = false
		out = append(out, l...)
	}
	return out
}

// maintainerKey matches a top-level maintainer key, up to its colon.
var maintainerKey = regexp.MustCompile(`^maintainers?\s*:`)
