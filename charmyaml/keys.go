package charmyaml

import (
	"path"
	"strings"
)

// Top-level keys. Juju reads metadata with ReadMeta, which ignores a key it does not know:
// a misspelled section (`providers:` for `provides:`) loses every declaration under it without
// a word from Juju or charmcraft, and the code that uses them fails at run time. A top-level
// key that is no key of metadata or charmcraft.yaml and is one or two letters from a section
// that declares interfaces is reported; other unknown keys are left alone (tools keep their
// own keys there).

// knownKeys are the top-level keys of metadata.yaml and charmcraft.yaml (Juju's metadata
// fields and charmcraft's project keys).
var knownKeys = map[string]bool{}

// sectionKeys are the keys whose misspelling loses declarations.
var sectionKeys = []string{"requires", "provides", "peers", "extra-bindings", "containers", "storage",
	"resources", "devices", "subordinate", "assumes", "config", "actions"}

func init() {
	for _, k := range strings.Fields(`name summary description subordinate provides requires peers
		extra-bindings categories tags series storage devices deployment payloads resources terms
		min-juju-version assumes containers display-name docs issues source website maintainers
		maintainer charm-user type bases base build-base platforms parts config actions links
		title charmhub analysis extensions charm-libs license contact`) {
		knownKeys[k] = true
	}
}

// misspelledKeys warns of each top-level key of d that is no known key and is near a
// section key: the same but for case, or at most one edit from a key of fewer than eight
// letters, two from a longer one. `options:` at the top is config.yaml's shape in the wrong
// file; an `x-` key is an extension by convention.
func (c *Charm) misspelledKeys(d *doc, top []entry) {
	w := d.warner(c)
	ignored := "Juju ignores it and everything under it"
	if path.Base(d.file) == CharmcraftFile {
		ignored = "what it declares is not read"
	}
	for _, e := range top {
		if knownKeys[e.key] || strings.HasPrefix(e.key, "x-") {
			continue
		}
		if e.key == "options" {
			w.warn(e.k.Line, "unknown key %q (config options go under \"config:\"): %s", e.key, ignored)
			continue
		}
		for _, k := range sectionKeys {
			if strings.EqualFold(e.key, k) || EditDistance(e.key, k) <= 1+len(k)/8 {
				w.warn(e.k.Line, "unknown key %q (did you mean %q?): %s", e.key, k, ignored)
				break
			}
		}
	}
}

// EditDistance is the Levenshtein distance between a and b, in bytes (YAML keys and interface
// names are ASCII): how far a misspelled name is from a declared one.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, sub)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
