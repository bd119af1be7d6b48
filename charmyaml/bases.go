package charmyaml

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Base is one system the charm is built to run on, from charmcraft.yaml: a `run-on` entry of
// `bases:` (or a short-form entry, which is both build and run base), or `base:` with the
// architectures of `platforms:`, or a platform named `<base>:<arch>`. Like parts, bases are
// build configuration: not an interface, listed so that a map shows a build-only
// charmcraft.yaml (type and bases, nothing else) and what it says, for the tasks that move a
// charm to a new Ubuntu release or architecture.
//
// The `series:` list of an older charm's metadata.yaml ("focal", "jammy") says the same for
// a charm built without charmcraft's bases; each series is a Base too, named as written.
type Base struct {
	// Name is "<name>@<channel>", charmcraft's own notation ("ubuntu@22.04"), whichever form
	// the YAML uses; for a metadata series, the series ("focal", "kubernetes").
	Name string `json:"name"`
	// Archs are the architectures as written ("amd64", "all"), in YAML order without repeats;
	// empty when the YAML names none.
	Archs []string `json:"archs,omitempty"`
	Pos
}

// Series reports a base read from metadata's `series:` list ("focal"), named as written, not
// in charmcraft's "<name>@<channel>".
func (b Base) Series() bool { return !strings.Contains(b.Name, "@") }

// readBases reads charmcraft.yaml's `bases:`, or its `base:` and `platforms:`. Entries of
// the same base merge into one, placed at its first line. An odd shape is skipped without a
// warning: charmcraft, not Juju, checks these.
func (c *Charm) readBases(d *doc, top []entry) {
	quiet := warner{d.file, new([]string)}
	var out []Base
	add := func(name string, line int, archs ...string) {
		if name == "" || strings.ContainsAny(name, " \t\n") {
			return
		}
		i := slices.IndexFunc(out, func(b Base) bool { return b.Name == name })
		if i < 0 {
			out = append(out, Base{Name: name, Pos: Pos{File: d.file, Line: line}})
			i = len(out) - 1
		}
		for _, a := range archs {
			if a != "" && !slices.Contains(out[i].Archs, a) {
				out[i].Archs = append(out[i].Archs, a)
			}
		}
	}
	text := func(fs []entry, key string) string { f, _ := find(fs, key); return quiet.str(f, key) }
	list := func(fs []entry, key string) []string { f, _ := find(fs, key); return quiet.strList(f, key) }
	// one base written as a mapping: name, channel, architectures
	mapped := func(n *yaml.Node) {
		fs := quiet.entries(n, "base")
		if name, channel := text(fs, "name"), text(fs, "channel"); name != "" && channel != "" {
			add(name+"@"+channel, deref(n).Line, list(fs, "architectures")...)
		}
	}
	if e, ok := find(top, "bases"); ok && deref(e.v) != nil && deref(e.v).Kind == yaml.SequenceNode {
		for _, item := range deref(e.v).Content {
			if item = deref(item); item == nil || item.Kind != yaml.MappingNode {
				continue
			}
			fs := quiet.entries(item, "bases entry")
			f, ok := find(fs, "run-on")
			if !ok { // a build-on list alone is also where the charm runs
				f, ok = find(fs, "build-on")
			}
			if ok {
				if v := deref(f.v); v != nil && v.Kind == yaml.SequenceNode {
					for _, r := range v.Content {
						if r = deref(r); r != nil && r.Kind == yaml.MappingNode {
							mapped(r)
						}
					}
				}
				continue
			}
			mapped(item)
		}
	}
	var base string
	var baseLine int
	if e, ok := find(top, "base"); ok {
		base, baseLine = quiet.str(e, "base"), e.k.Line
	}
	// a platform is "<arch>" (of `base:`), "<base>:<arch>", or a name whose build-for says which
	platform := func(spec string, line int) {
		if i := strings.LastIndexByte(spec, ':'); i > 0 {
			add(spec[:i], line, spec[i+1:])
		} else if base != "" {
			add(base, baseLine, spec)
		}
	}
	if e, ok := find(top, "platforms"); ok {
		for _, p := range quiet.entries(e.v, "platforms") {
			if isNull(p.v) {
				platform(p.key, p.k.Line)
				continue
			}
			for _, spec := range list(quiet.entries(p.v, "platform"), "build-for") {
				platform(spec, p.k.Line)
			}
		}
	}
	add(base, baseLine) // a base: with no platforms; merged with its platforms' otherwise
	slices.SortStableFunc(out, func(a, b Base) int { return a.Line - b.Line })
	c.Bases = append(c.Bases, out...) // after the metadata's series, which another file declares
}

// readSeries reads metadata's `series:` list (e, whose value is a sequence of names, or one
// name), each series a Base at its line. An odd shape is skipped without a warning: Juju's
// own check (checkJuju) reports it.
func (c *Charm) readSeries(d *doc, e entry) {
	add := func(n *yaml.Node) {
		if n = deref(n); n == nil || n.Kind != yaml.ScalarNode || n.Value == "" || strings.ContainsAny(n.Value, " \t\n") {
			return
		}
		if !slices.ContainsFunc(c.Bases, func(b Base) bool { return b.Name == n.Value && b.File == d.file }) {
			c.Bases = append(c.Bases, Base{Name: n.Value, Pos: Pos{File: d.file, Line: n.Line}})
		}
	}
	v := deref(e.v)
	if v == nil {
		return
	}
	if v.Kind == yaml.SequenceNode {
		for _, item := range v.Content {
			add(item)
		}
		return
	}
	add(v)
}
