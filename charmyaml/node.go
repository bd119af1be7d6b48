package charmyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Limits on what one YAML file may cost. Real charm files are a few kilobytes with a few
// thousand nodes and hardly any aliases.
const (
	// maxFileSize is the largest file read at all.
	maxFileSize = 4 << 20
	// maxNodes and maxAliases bound the node tree with every alias expanded. Node trees keep
	// aliases as pointers, so a "billion laughs" document parses cheaply; it is refused before
	// anything walks it, and every later walk is bounded by these numbers.
	maxNodes   = 100_000
	maxAliases = 10_000
	// maxBisections bounds the re-reads of a file with a syntax error (enough for 16M lines).
	maxBisections = 24
)

// doc is one parsed YAML file.
type doc struct {
	file string     // root-relative path, used in Pos and warnings
	raw  []byte     // the file's bytes
	root *yaml.Node // top-level mapping; nil when the file is empty or unreadable
	// clean is set when the whole file was read without a problem, so that juju/charm may
	// read it too (yaml.v2 expands aliases, and a truncated file would only repeat our warning).
	clean bool
	// lost is set when part of the file or all of it could not be read (a syntax error, too
	// large, not a mapping): its declarations may be missing (Charm.Incomplete).
	lost bool
}

// warner collects one-line warnings for one file.
type warner struct {
	file  string
	warns *[]string
}

func (w warner) warn(line int, format string, args ...any) {
	*w.warns = append(*w.warns, fmt.Sprintf("%s:%d: %s", w.file, max(line, 1), fmt.Sprintf(format, args...)))
}

// readDoc parses data (nil: the file is absent, and readDoc returns nil).
func readDoc(file string, data []byte, warns *[]string) *doc {
	if data == nil {
		return nil
	}
	d := &doc{file: file, raw: data}
	w := warner{file, warns}
	if len(data) > maxFileSize {
		w.warn(1, "file is larger than %d bytes; not read", maxFileSize)
		d.lost = true
		return d
	}
	n, clean := parseYAML(data, w)
	d.lost = !clean
	if n == nil {
		return d
	}
	if tooBig(n) {
		w.warn(n.Line, "too large: more than %d nodes (an alias counting as what it expands to) or %d aliases; not read", maxNodes, maxAliases)
		d.lost = true
		return d
	}
	if n = deref(n); n.Kind != yaml.MappingNode {
		if !isNull(n) {
			w.warn(n.Line, "expected a mapping at the top level, got %s", kindName(n))
			d.lost = true
		} else if path.Base(file) != ActionsFile {
			w.warn(n.Line, "file is empty (null)") // `~` alone: as an empty file (parseYAML)
		}
		return d
	}
	d.root, d.clean = n, clean
	return d
}

var errPrefix = regexp.MustCompile(`^yaml: (line \d+: )?`)

// parseYAML returns the top node of the first document in data (nil when there is none) and
// whether the whole document was read. On a syntax error it keeps what comes before the error:
// it looks, by bisection, for the longest run of leading lines that parses, so a typo near the
// end of a file still leaves the entries above it. The warning names the first line left out:
// the line yaml.v3 reports is sometimes where the enclosing block starts, or one line early.
func parseYAML(data []byte, w warner) (*yaml.Node, bool) {
	n, more, err := decodeFirst(data)
	if err == nil {
		if n == nil && path.Base(w.file) != ActionsFile {
			// Juju reads an empty actions.yaml as no actions (ReadActionsYaml); an empty
			// config.yaml is "invalid config: empty configuration", and an empty
			// metadata.yaml or charmcraft.yaml names no charm.
			w.warn(1, "file is empty")
		} else if more > 0 {
			w.warn(more, "more than one YAML document; only the first is read")
		}
		return n, true
	}
	msg := errPrefix.ReplaceAllString(err.Error(), "")
	lo, hi := 0, bytes.Count(data, []byte("\n"))+1 // the first lo lines parse, the first hi do not
	for range maxBisections {
		if hi-lo <= 1 {
			break
		}
		mid := lo + (hi-lo)/2
		if m, _, err := decodeFirst(firstLines(data, mid)); err == nil {
			lo, n = mid, m
		} else {
			hi = mid
		}
	}
	if n == nil {
		w.warn(lo+1, "%s; nothing read", msg)
		return nil, false
	}
	w.warn(lo+1, "%s; read only the first %d lines", msg, lo)
	return n, false
}

// decodeFirst decodes the first document of data. more is the line of a second document, or 0.
// A panic inside the YAML library is turned into an error.
func decodeFirst(data []byte) (n *yaml.Node, more int, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, more, err = nil, 0, fmt.Errorf("yaml: parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var top yaml.Node
	if err := dec.Decode(&top); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, nil
		}
		return nil, 0, err
	}
	var next yaml.Node
	if dec.Decode(&next) == nil {
		more = next.Line
	}
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			return nil, more, nil
		}
		return top.Content[0], more, nil
	}
	return &top, more, nil
}

// firstLines returns the first n lines of data.
func firstLines(data []byte, n int) []byte {
	end := 0
	for range n {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return data
		}
		end += i + 1
	}
	return data[:end]
}

// tooBig reports whether n, with aliases expanded, has more than maxNodes nodes or maxAliases
// aliases. It counts down a budget, so it stops after maxNodes steps whatever the document,
// and an alias cycle simply runs the budget out.
func tooBig(n *yaml.Node) bool {
	nodes, aliases := maxNodes, maxAliases
	var fits func(*yaml.Node) bool
	fits = func(n *yaml.Node) bool {
		if nodes--; nodes < 0 {
			return false
		}
		if n.Kind == yaml.AliasNode {
			if aliases--; aliases < 0 {
				return false
			}
			return n.Alias == nil || fits(n.Alias)
		}
		for _, c := range n.Content {
			if !fits(c) {
				return false
			}
		}
		return true
	}
	return !fits(n)
}

// deref follows an alias to its anchored node (nil stays nil).
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < maxAliases; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%s %q", strings.TrimPrefix(n.ShortTag(), "!!"), n.Value)
	}
	return "nothing"
}

// entry is one key/value pair of a mapping.
type entry struct {
	key string
	k   *yaml.Node // the key node: its line is the entry's line
	v   *yaml.Node // the value, alias resolved; nil or a null scalar when empty
}

// entries returns the pairs of mapping n in YAML order. Aliases are resolved, merge keys
// (`<<: *anchor`) are expanded, and of duplicate keys only the last is kept, as PyYAML (which
// charmcraft and ops use) does, with a warning. what names n in warnings; a null n gives no
// entries and no warning, anything else that is not a mapping gives a warning.
func (w warner) entries(n *yaml.Node, what string) []entry {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		w.warn(n.Line, "%s: expected a mapping, got %s", what, kindName(n))
		return nil
	}
	var merged, own []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		switch {
		case k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge":
			merged = append(merged, w.mergeEntries(v, what)...)
		case k.Kind != yaml.ScalarNode:
			w.warn(k.Line, "%s: key is %s, not a name; skipped", what, kindName(k))
		default:
			own = append(own, entry{key: k.Value, k: k, v: v})
		}
	}
	last := make(map[string]int, len(own))
	for i, e := range own {
		if j, dup := last[e.key]; dup {
			w.warn(own[j].k.Line, "%s: duplicate key %q (again on line %d); the last one is used", what, e.key, e.k.Line)
		}
		last[e.key] = i
	}
	out := make([]entry, 0, len(merged)+len(own))
	for _, e := range merged {
		if _, overridden := last[e.key]; !overridden {
			out = append(out, e)
		}
	}
	for i, e := range own {
		if last[e.key] == i {
			out = append(out, e)
		}
	}
	return dedupe(out)
}

// mergeEntries reads the value of a merge key: a mapping or a list of mappings. Merged
// mappings are not merged further (the node budget already bounds them).
func (w warner) mergeEntries(v *yaml.Node, what string) []entry {
	var srcs []*yaml.Node
	switch {
	case v != nil && v.Kind == yaml.MappingNode:
		srcs = []*yaml.Node{v}
	case v != nil && v.Kind == yaml.SequenceNode:
		for _, s := range v.Content {
			srcs = append(srcs, deref(s))
		}
	}
	var out []entry
	for _, s := range srcs {
		if s == nil || s.Kind != yaml.MappingNode {
			w.warn(v.Line, "%s: a merge key (<<) needs a mapping", what)
			continue
		}
		for i := 0; i+1 < len(s.Content); i += 2 {
			if k := s.Content[i]; k.Kind == yaml.ScalarNode && k.ShortTag() != "!!merge" {
				out = append(out, entry{key: k.Value, k: k, v: deref(s.Content[i+1])})
			}
		}
	}
	return out
}

// dedupe keeps the last of entries that share a key (merged mappings may repeat one).
func dedupe(es []entry) []entry {
	last := make(map[string]int, len(es))
	for i, e := range es {
		last[e.key] = i
	}
	if len(last) == len(es) {
		return es
	}
	out := es[:0:0]
	for i, e := range es {
		if last[e.key] == i {
			out = append(out, e)
		}
	}
	return out
}

// find returns the entry named key, if any.
func find(es []entry, key string) (entry, bool) {
	for _, e := range es {
		if e.key == key {
			return e, true
		}
	}
	return entry{}, false
}

// str reads a scalar as text; null gives "". Lists and mappings give a warning.
func (w warner) str(e entry, what string) string {
	if isNull(e.v) {
		return ""
	}
	if e.v.Kind != yaml.ScalarNode {
		w.warn(e.k.Line, "%s: expected text, got %s", what, kindName(e.v))
		return ""
	}
	return e.v.Value
}

// integer reads an int scalar (any YAML spelling: 0x10, 1_000).
func (w warner) integer(e entry, what string) int {
	var i int
	if isNull(e.v) {
		return 0
	}
	if e.v.Kind != yaml.ScalarNode || e.v.ShortTag() != "!!int" || e.v.Decode(&i) != nil {
		w.warn(e.k.Line, "%s: expected an integer, got %s", what, kindName(e.v))
		return 0
	}
	return i
}

// boolean reads a boolean scalar, accepting YAML 1.1 spellings (yes/no/on/off) as PyYAML and
// Juju's yaml.v2 do.
func (w warner) boolean(e entry, what string) bool {
	if isNull(e.v) {
		return false
	}
	if e.v.Kind == yaml.ScalarNode {
		switch strings.ToLower(e.v.Value) {
		case "true", "yes", "on":
			return true
		case "false", "no", "off":
			return false
		}
	}
	w.warn(e.k.Line, "%s: expected true or false, got %s", what, kindName(e.v))
	return false
}

// strList reads a list of scalars; a single scalar is taken as a one-item list.
func (w warner) strList(e entry, what string) []string {
	if isNull(e.v) {
		return nil
	}
	if e.v.Kind == yaml.ScalarNode {
		return []string{e.v.Value}
	}
	if e.v.Kind != yaml.SequenceNode {
		w.warn(e.k.Line, "%s: expected a list, got %s", what, kindName(e.v))
		return nil
	}
	var out []string
	for _, it := range e.v.Content {
		if it = deref(it); it.Kind == yaml.ScalarNode && !isNull(it) {
			out = append(out, it.Value)
		} else {
			w.warn(it.Line, "%s: expected a name, got %s", what, kindName(it))
		}
	}
	return out
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}
