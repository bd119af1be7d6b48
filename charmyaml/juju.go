package charmyaml

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	charm "github.com/juju/charm/v12"
	"gopkg.in/yaml.v3"
)

// maxNarrowing bounds the YAML handed to Juju while narrowing a rejection down (see
// rejections), so that a section with thousands of entries costs no more than a large file.
const maxNarrowing = 4 << 20

// jujuReader is one of juju/charm's readers, applied to one section.
type jujuReader struct {
	read func([]byte) error
	// required are top-level keys Juju insists on; when entries are checked one at a time
	// (see rejections), the others get stand-in values.
	required []string
	// together lists, for a key, the keys its checks look at too (containers name resources
	// and storage; a subordinate needs a container-scoped requires, and a container-scoped
	// juju-info requirer is allowed a subordinate only).
	together map[string][]string
}

// jujuMeta reads metadata as Juju does when it deploys a charm: ReadMeta, then Check with the
// format a charmcraft-packed charm gets (v2, since the manifest names its bases; v1 when the
// metadata lists series). ReadMeta accepts a whole unified charmcraft.yaml: it ignores keys
// it does not know.
var jujuMeta = jujuReader{
	read: func(b []byte) error {
		m, err := charm.ReadMeta(bytes.NewReader(b))
		if err != nil {
			return err
		}
		if len(m.Series) > 0 {
			return m.Check(charm.FormatV1)
		}
		return m.Check(charm.FormatV2, charm.SelectionManifest)
	},
	required: []string{"name", "summary", "description"},
	together: map[string][]string{"containers": {"resources", "storage"}, "subordinate": {"requires"}, "requires": {"subordinate"}},
}

// jujuConfig reads a config section (`options:` at the top). A charmcraft.yaml's `config:`
// value has this shape; the whole charmcraft.yaml does not.
var jujuConfig = jujuReader{read: func(b []byte) error {
	_, err := charm.ReadConfig(bytes.NewReader(b))
	return err
}}

// jujuActions reads an actions section (action names at the top), as charmcraft.yaml's
// `actions:` value is too. Juju checks action names against the charm's name.
func jujuActions(charmName string) jujuReader {
	return jujuReader{read: func(b []byte) error {
		_, err := charm.ReadActionsYaml(charmName, bytes.NewReader(b))
		return err
	}}
}

// checkJuju runs j over a section of d that yaml.v3 read cleanly: the whole file when sec is
// nil, else the node sec (re-encoded). When Juju rejects it, c gets the warning
// "<file>:<line>: juju would reject: <juju's error>" for each piece it rejects alone
// (rejections), or "<file>: juju would reject: ..." for the whole when no piece does.
func (c *Charm) checkJuju(d *doc, sec *yaml.Node, j jujuReader) {
	if !d.clean || d.root == nil {
		return
	}
	raw := d.raw
	if sec != nil {
		if isNull(deref(sec)) {
			return
		}
		sec = expand(sec)
		raw = encode(sec)
	}
	first := j.safeRead(raw)
	if first == nil {
		return
	}
	if sec == nil {
		sec = expand(d.root)
	}
	// When our reading has already reported problems in this file, each with its line, juju's
	// single complaint adds nothing, and which problem it names first follows its map
	// iteration: say nothing more, so that the warnings are the same on every run.
	if slices.ContainsFunc(c.Warnings, func(w string) bool {
		return strings.HasPrefix(w, d.file+":") && !strings.Contains(w, jujuRejects) // ours: Juju's on another section
	}) {
		return
	}
	found := j.rejections(sec)
	if len(found) == 0 { // no piece fails alone: Juju's verdict on the whole
		err := first
		if len(raw)*jujuSamples <= maxNarrowing { // a file too large to read that often: once
			err = j.settle(raw, first)
		}
		msg := plainValues(oneLine(err.Error()))
		// at the last entry named as Juju quotes it, when there is one: the second of two
		// relations of one name in requires: and peers: (rev91: reported with no line)
		if line := lastEntryNamed(sec, quotedName(msg)); line > 0 {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s:%d: %s%s", d.file, line, jujuRejects, msg))
			return
		}
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s%s", d.file, jujuRejects, msg))
		return
	}
	for _, r := range found {
		msg := plainValues(oneLine(r.err.Error()))
		if r.line > 0 {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s:%d: %s%s", d.file, r.line, jujuRejects, msg))
		} else {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s%s", d.file, jujuRejects, msg))
		}
	}
}

// optionNamed is the option Juju's message about config.yaml names, `option "prefer-ipv6"
// expected boolean, got "enabled"`.
var optionNamed = regexp.MustCompile(`\boption "([^"]+)"`)

// quotedName is the name Juju's message is about: the option it names (optionNamed: the last
// quoted word there is the value or the type, review rev104), else the last double-quoted name
// (`duplicated relation name: "db"`); "" when there is none.
func quotedName(msg string) string {
	if m := optionNamed.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	end := strings.LastIndexByte(msg, '"')
	if end <= 0 {
		return ""
	}
	start := strings.LastIndexByte(msg[:end], '"')
	if start < 0 {
		return ""
	}
	return msg[start+1 : end]
}

// lastEntryNamed is the line of the last entry keyed name in the mappings under sec's keys
// (a relation under requires:, provides: or peers:), 0 when there is none.
func lastEntryNamed(sec *yaml.Node, name string) int {
	line := 0
	if name == "" || sec == nil || sec.Kind != yaml.MappingNode {
		return 0
	}
	for i := 1; i < len(sec.Content); i += 2 {
		v := sec.Content[i]
		if v.Kind != yaml.MappingNode {
			continue
		}
		for k := 0; k+1 < len(v.Content); k += 2 {
			if v.Content[k].Value == name && v.Content[k].Line > line {
				line = v.Content[k].Line
			}
		}
	}
	return line
}

// jujuRejects starts the message of a warning from Juju's own reading.
const jujuRejects = "juju would reject: "

// rejected is one piece of a section Juju rejects alone: its error, and the line of the entry
// (0 when the piece is a required key the section lacks).
type rejected struct {
	err  error
	line int
}

// maxRejections bounds the problems reported per section.
const maxRejections = 20

// goValue matches the Go value juju/charm's schema errors print after "got":
// `got []interface {}([]interface {}{"a", "b"})`, `got map[string]interface {}(...)`, `got int(5)`.
var goValue = regexp.MustCompile(`got (\[\]|map\[|u?int\d*|float\d+|bool|string)[^(]*\(.*\)`)

// plainValues says what kind of value juju got in YAML's words instead of Go's.
func plainValues(msg string) string {
	return goValue.ReplaceAllStringFunc(msg, func(m string) string {
		kind := goValue.FindStringSubmatch(m)[1]
		switch {
		case kind == "[]":
			return "got a list"
		case kind == "map[":
			return "got a mapping"
		case kind == "bool":
			return "got true or false"
		case kind == "string":
			return "got text"
		}
		return "got a number"
	})
}

// jujuSamples is how many times settle has Juju read YAML it rejects.
const jujuSamples = 256

// settle makes err, Juju's first rejection of b (safeRead), the same on every run. Whether Juju rejects a piece does not depend on order, but which problem it names
// does: it checks a mapping's fields in Go's map order, random on every run, and stops at
// the first (review rev91: a storage entry with two problems gave either message, and with
// it a different report, from run to run). So a rejected piece is read jujuSamples times and
// the first message in sort order kept. Which of two problems a run names is not even: Go
// starts a small map's iteration at one of its eight slots, so two neighbouring fields are
// named 7 : 1 (measured in session 52: a storage entry's type 87.4 %, shared 12.6 % of 20,000
// reads; 64 reads all naming the commoner, once in 6,000 settles, made TestJuju flaky). 256
// reads miss the rarer once in 10^15.
func (j jujuReader) settle(b []byte, err error) error {
	if err == nil {
		return nil
	}
	for range jujuSamples - 1 {
		if e := j.safeRead(b); e != nil && e.Error() < err.Error() {
			err = e
		}
	}
	return err
}

// safeRead runs j.read, turning a panic inside juju/charm into an error.
func (j jujuReader) safeRead(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("juju/charm failed: %v", r)
		}
	}()
	return j.read(b)
}

// rejections finds the problems to report for a section Juju rejects. Juju decodes into Go
// maps and stops at the first problem, so when a section has several the one it names
// changes from run to run, and the others go unsaid. To report each, deterministically, the
// section is checked again piece by piece, in a fixed order: each required key alone (with
// stand-ins for the others); then each other top-level entry in YAML order, with the required
// keys and the keys it goes together with; and, for an entry Juju rejects, each of its own
// entries alone (a config option), each reported at its line. A required key that fails
// alone ends the search (every other piece carries it). None means no piece fails alone (the
// problem spans entries), or that the pieces add up to more than maxNarrowing bytes; the
// caller then reports Juju's verdict on the whole.
func (j jujuReader) rejections(sec *yaml.Node) []rejected {
	if sec.Kind != yaml.MappingNode {
		return nil
	}
	get := func(key string) []*yaml.Node {
		for i := 0; i+1 < len(sec.Content); i += 2 {
			if sec.Content[i].Value == key {
				return sec.Content[i : i+2]
			}
		}
		return nil
	}
	budget := maxNarrowing
	try := func(pairs ...*yaml.Node) error {
		if budget < 0 {
			return errOutOfBudget
		}
		b := encode(&yaml.Node{Kind: yaml.MappingNode, Content: pairs})
		err := j.safeRead(b)
		budget -= len(b)
		if err != nil { // read jujuSamples times in all (settle), and charged so
			if budget < (jujuSamples-1)*len(b) {
				return errOutOfBudget
			}
			err = j.settle(b, err)
			budget -= (jujuSamples - 1) * len(b)
		}
		return err
	}
	lineOf := func(pair []*yaml.Node) int {
		if len(pair) > 0 {
			return pair[0].Line
		}
		return 0
	}
	var out []rejected
	var required []*yaml.Node
	for _, r := range j.required {
		var pairs []*yaml.Node
		for _, o := range j.required {
			if o != r {
				pairs = append(pairs, scalar(o), scalar("x"))
			}
		}
		if err := try(append(pairs, get(r)...)...); err != nil {
			if err == errOutOfBudget {
				return nil
			}
			return []rejected{{err, lineOf(get(r))}}
		}
		required = append(required, get(r)...)
	}
	// what Juju says of the required keys alone: a key tried with them that fails the same way
	// fails for want of the rest (a config.yaml's stray "name:" tried without its options is
	// "empty configuration"), not for what it holds
	bare := try(required...)
	if bare == errOutOfBudget {
		return nil
	}
	for i := 0; i+1 < len(sec.Content) && len(out) < maxRejections; i += 2 {
		k, v := sec.Content[i], sec.Content[i+1]
		if slices.Contains(j.required, k.Value) {
			continue
		}
		base := append([]*yaml.Node(nil), required...)
		for _, t := range j.together[k.Value] {
			base = append(base, get(t)...)
		}
		err := try(append(base, k, v)...)
		if err == nil || bare != nil && err.Error() == bare.Error() {
			continue
		}
		if err == errOutOfBudget {
			return out
		}
		// a key tried with another that fails the same way alone (containers with a null
		// storage:) fails for that one's fault, reported at its own line
		if slices.ContainsFunc(j.together[k.Value], func(t string) bool {
			p := get(t)
			if p == nil {
				return false
			}
			e := try(append(append([]*yaml.Node(nil), required...), p...)...)
			// the same message, or one about the other key's own fields (Juju names one of a
			// piece's problems at random, and settle's samples may all name the rarer one:
			// "storage.data.type" beside "storage.data.shared", once in 2,000 reads)
			return e != nil && e != errOutOfBudget && (e.Error() == err.Error() || strings.Contains(err.Error(), " "+t+"."))
		}) {
			continue
		}
		alone := 0 // the entries of v that fail alone
		// a key Juju rejects whatever it holds (an action's bad name) is the problem itself,
		// at its line; else the entries of its mapping are tried one by one (config options,
		// relations)
		empty := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		emptyErr := try(append(base, k, empty)...)
		switch e := emptyErr; {
		case e == errOutOfBudget:
			return out
		case e != nil && v.Kind == yaml.MappingNode && e.Error() == err.Error():
			out = append(out, rejected{err, k.Line})
			continue
		}
		if v.Kind == yaml.MappingNode {
			for s := 0; s+1 < len(v.Content) && len(out) < maxRejections; s += 2 {
				one := &yaml.Node{Kind: yaml.MappingNode, Content: v.Content[s : s+2]}
				switch e := try(append(base, k, one)...); {
				case e == errOutOfBudget:
					return out
				case e != nil && emptyErr != nil && e.Error() == emptyErr.Error():
					// fails as the empty section does, for want of the other entries (a
					// subordinate's requires: without its container-scoped one), not for what
					// it holds
				case e != nil:
					out = append(out, rejected{e, v.Content[s].Line})
					alone++
				}
			}
		}
		if alone == 0 {
			out = append(out, rejected{err, k.Line})
		}
	}
	return out
}

var errOutOfBudget = errors.New("out of budget")

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// expand copies n with every alias replaced by a copy of its target, so that a section can be
// encoded on its own (an alias may point outside it). readDoc's node budget bounds the copy.
func expand(n *yaml.Node) *yaml.Node {
	n = deref(n)
	cp := *n
	cp.Anchor = ""
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		cp.Content[i] = expand(ch)
	}
	return &cp
}

// encode renders n as YAML; a node that cannot be encoded gives "null", which Juju rejects.
func encode(n *yaml.Node) []byte {
	b, err := yaml.Marshal(n)
	if err != nil {
		return []byte("null\n")
	}
	return b
}

// oneLine joins a multi-line error message into one line.
func oneLine(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			if strings.HasSuffix(b.String(), ":") {
				b.WriteByte(' ')
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(line)
	}
	return b.String()
}
