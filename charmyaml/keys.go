package charmyaml

import (
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
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
			c.misfile(d, e, "config", e.v)
			continue
		}
		for _, k := range sectionKeys {
			if nearKey(e.key, k) {
				w.warn(e.k.Line, "unknown key %q (did you mean %q?): %s", e.key, k, ignored)
				v := e.v
				if k == "config" { // config: {options: {name: ...}}
					o, _ := find(quiet().entries(v, ""), "options")
					v = o.v
				}
				c.misfile(d, e, k, v)
				break
			}
		}
	}
}

// misfile records the names of mapping v, under the misspelled key of e that means section,
// as Misfiled (silently: the key's warning says what matters).
func (c *Charm) misfile(d *doc, e entry, section string, v *yaml.Node) {
	for _, n := range quiet().entries(v, "") {
		if n.key != "" {
			c.Misfiled = append(c.Misfiled, Misfiled{Name: n.key, Key: e.key, Section: section, Pos: Pos{File: d.file, Line: n.k.Line}})
		}
	}
}

// quiet is a warner that keeps its warnings to itself: what is under a misspelled key needs
// none but the key's own.
func quiet() warner { return warner{warns: new([]string)} }

// schemaKeywords are the JSON-schema keywords an action parameter's schema may use.
var schemaKeywords = strings.Fields(`type description default enum const minimum maximum exclusiveMinimum
	exclusiveMaximum multipleOf minLength maxLength pattern format items additionalItems minItems maxItems
	uniqueItems contains properties required additionalProperties patternProperties minProperties
	maxProperties dependencies propertyNames title examples oneOf anyOf allOf not $ref $schema $id
	definitions if then else readOnly writeOnly contentEncoding contentMediaType`)

// annotationKeys are keys authors give a parameter's schema on purpose, from OpenAPI and
// older drafts (`example: true`): not JSON-schema keywords, and no misspelling of one (rev91:
// "example" was reported as a misspelt "examples", a false error under --strict).
var annotationKeys = []string{"example", "nullable", "deprecated"}

// schemaAliases are words authors write for a JSON-schema keyword that are no misspelling of
// it (hydra's `enumerate: [system, cookie]`, review rev123), each with the keyword meant.
var schemaAliases = map[string]string{"enumerate": "enum", "enumeration": "enum", "choices": "enum", "regex": "pattern"}

// misspelledSchemaKeys warns of each key of a parameter's schema that is no JSON-schema
// keyword and is near one (`typoe: string`, `defualt: 5`) or another word for one
// (schemaAliases): JSON schema ignores a keyword it does not know, so Juju takes any value
// for the parameter, and the charm's code, which expects the type, fails at run time. Other
// unknown keys are left alone.
func misspelledSchemaKeys(w warner, what string, fields []entry) {
	for _, f := range fields {
		if slices.Contains(schemaKeywords, f.key) || slices.Contains(annotationKeys, f.key) || strings.HasPrefix(f.key, "x-") {
			continue
		}
		if k := schemaAliases[f.key]; k != "" {
			w.warn(f.k.Line, "%s: unknown key %q (did you mean %q?): Juju ignores it", what, f.key, k)
			continue
		}
		for _, k := range schemaKeywords {
			if len(k) >= 4 && nearKey(f.key, k) {
				w.warn(f.k.Line, "%s: unknown key %q (did you mean %q?): Juju ignores it", what, f.key, k)
				break
			}
		}
	}
}

// nearKey reports a key written like k but for case, or at most one edit from it (two for a
// key of eight letters or more), or with two neighbouring letters swapped ("defualt").
func nearKey(key, k string) bool {
	if strings.EqualFold(key, k) || EditDistance(key, k) <= 1+len(k)/8 {
		return true
	}
	if len(key) != len(k) {
		return false
	}
	for i := 0; i+1 < len(k); i++ {
		if key[i] != k[i] {
			return key[i] == k[i+1] && key[i+1] == k[i] && key[i+2:] == k[i+2:]
		}
	}
	return false
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

// actionKeys are the keys of an action Juju reads itself; the rest go into its parameters'
// JSON schema as they are (properties, additionalProperties, ...).
var actionKeys = []string{"description", "params", "required", "parallel", "execution-group"}

// misspelledActionKeys warns of each key of an action that is neither one Juju reads nor a
// JSON-schema keyword and is near "params", or is "parameters", "arguments" or "args"
// (kafka-benchmark's get-summary declares its output parameter under `parameters:`): Juju
// copies it into the parameters' JSON schema, which ignores a keyword it does not know, so
// none of the parameters under it is declared.
func misspelledActionKeys(w warner, what string, fields []entry) {
	for _, f := range fields {
		if slices.Contains(actionKeys, f.key) || slices.Contains(schemaKeywords, f.key) || strings.HasPrefix(f.key, "x-") {
			continue
		}
		if nearKey(f.key, "params") || f.key == "parameters" || f.key == "arguments" || f.key == "args" {
			w.warn(f.k.Line, "%s: unknown key %q (did you mean \"params\"?): Juju ignores it, and the parameters under it are not declared", what, f.key)
		}
	}
}
