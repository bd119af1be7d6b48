package charmyaml

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The file names of a charm's YAML.
const (
	MetadataFile   = "metadata.yaml"
	ConfigFile     = "config.yaml"
	ActionsFile    = "actions.yaml"
	CharmcraftFile = "charmcraft.yaml"
	// LayerFile is a reactive charm's build file: `charm build` merges the YAML of the layers
	// its `includes:` name into the charm's (Charm.Layers).
	LayerFile = "layer.yaml"
)

// FileNames are the YAML files Load reads in a charm's folder.
var FileNames = []string{MetadataFile, CharmcraftFile, ConfigFile, ActionsFile, LayerFile}

// metadataKeys are the charmcraft.yaml keys that metadata.yaml replaces when it exists. (A
// `name:` in both is common and harmless.)
var metadataKeys = []string{"subordinate", "requires", "provides", "peers", "containers", "storage", "resources", "extra-bindings"}

// Parse reads the YAML of one charm directory. It never fails: problems become warnings and
// whatever can be read is returned. See the package comment for how the sections resolve.
func Parse(f Files) Charm {
	c := Charm{Dir: path.Clean(f.Dir)}
	read := func(name string, data []byte) *doc {
		file := path.Join(c.Dir, name)
		if name == CharmcraftFile && f.CharmcraftPath != "" {
			file = f.CharmcraftPath
		}
		if data == nil && slices.Contains(f.Unread, name) {
			return &doc{file: file} // there, unread: no root, not clean
		}
		if data != nil {
			c.Files = append(c.Files, file)
			if ws := textWords(withoutMaintainers(name, data)); len(ws) > 0 {
				if c.Words == nil {
					c.Words = map[string][]string{}
				}
				c.Words[file] = ws
			}
		}
		d := readDoc(file, data, &c.Warnings)
		if d != nil && d.lost {
			c.Incomplete = append(c.Incomplete, d.file)
		}
		return d
	}
	meta, cfg, acts, cc := read(MetadataFile, f.Metadata), read(ConfigFile, f.Config),
		read(ActionsFile, f.Actions), read(CharmcraftFile, f.Charmcraft)
	slices.Sort(c.Files)
	slices.Sort(c.Incomplete)

	var ccEntries []entry // charmcraft.yaml's top level
	if cc != nil {
		ccEntries = cc.warner(&c).entries(cc.root, "top level")
	}
	// fromCC returns charmcraft.yaml's entry key, unless the section's own file exists: then
	// charmcraft.yaml's copy is ignored, with a warning.
	fromCC := func(key string, own *doc, ownFile string) (entry, bool) {
		e, ok := find(ccEntries, key)
		if ok && own != nil {
			if f.CharmcraftPath != "" { // the project's build file, above the charm: say where
				ownFile = path.Join(c.Dir, ownFile)
			}
			cc.warner(&c).warn(e.k.Line, "%s is ignored: %s exists", key, ownFile)
			return entry{}, false
		}
		return e, ok
	}

	// Metadata: metadata.yaml, else charmcraft.yaml's top level.
	metaDoc, metaTop := cc, ccEntries
	if meta != nil {
		for _, k := range metadataKeys {
			fromCC(k, meta, MetadataFile)
		}
		metaDoc, metaTop = meta, meta.warner(&c).entries(meta.root, "top level")
	}
	c.Layer = f.layer()
	if metaDoc != nil {
		c.readMetadata(metaDoc, metaTop)
		if !c.Layer {
			c.checkJuju(metaDoc, nil, jujuMeta)
		}
	}
	if c.Name == "" {
		c.Name = charmcraftName(ccEntries)
		if e, ok := find(ccEntries, "name"); ok && c.Name != "" {
			c.NameAt = Pos{File: cc.file, Line: e.k.Line}
		}
	}

	// Config: config.yaml (`options:` at the top), else charmcraft.yaml's `config:` (`options:` below it).
	if e, ok := fromCC("config", cfg, ConfigFile); ok {
		c.readConfig(cc, e.v)
		c.checkJuju(cc, e.v, jujuConfig)
	} else if cfg != nil {
		c.readConfig(cfg, cfg.root)
		c.checkJuju(cfg, nil, jujuConfig)
	}

	// Actions: actions.yaml (action names at the top), else charmcraft.yaml's `actions:`.
	if e, ok := fromCC("actions", acts, ActionsFile); ok {
		c.readActions(cc, e.v)
		c.checkJuju(cc, e.v, jujuActions(c.Name))
	} else if acts != nil {
		c.readActions(acts, acts.root)
		c.checkJuju(acts, nil, jujuActions(c.Name))
	}

	// after every checkJuju: a near-miss key is no reason to hold back Juju's verdict on a section
	if meta != nil {
		c.misspelledKeys(meta, metaTop)
	}
	if cc != nil {
		c.misspelledKeys(cc, ccEntries)
	}
	if cc != nil {
		c.readBases(cc, ccEntries)
	}
	if e, ok := find(ccEntries, "parts"); ok {
		c.readParts(cc, e.v)
	}
	if e, ok := find(ccEntries, "charm-libs"); ok {
		c.readCharmLibs(cc, e.v)
	}
	layerFile := path.Join(c.Dir, LayerFile)
	c.Layers = layerIncludes(f.Layer, layerFile)
	if len(c.Layers) > 0 { // a reactive charm's build file, listed with the charm's YAML: where a new relation's interface layer is included
		c.Files = append(c.Files, layerFile)
		slices.Sort(c.Files)
		if ws := layerWords(f.Layer, c.Layers); len(ws) > 0 {
			if c.Words == nil {
				c.Words = map[string][]string{}
			}
			c.Words[layerFile] = ws
		}
	}
	if e, ok := find(ccEntries, "extensions"); ok {
		c.Extensions = cc.warner(&c).strList(e, "extensions")
		c.applyExtensions(cc, e.k.Line, ccEntries)
	}
	return c
}

// layer reports a layer.yaml beside YAML that names no charm (no charmcraft.yaml, a
// metadata.yaml without a name, or none): a reactive layer's folder, whose metadata.yaml holds
// what it adds to the charms including it (layer-vault-kv's `requires:`), never deployed as it
// is (Charm.Layer).
func (f Files) layer() bool {
	return f.Layer != nil && f.Charmcraft == nil && !hasNameLine.Match(f.Metadata)
}

// IsCharm reports whether f is a charm directory: it has a metadata.yaml, or a charmcraft.yaml
// with a top-level `name:`. (A charmcraft.yaml without a name holds only build settings, or a
// bundle.) Discovery code that has read a directory's files can call this before Parse.
func (f Files) IsCharm() bool {
	if f.Metadata != nil {
		return true
	}
	discard := warner{warns: new([]string)}
	cc := readDoc(CharmcraftFile, f.Charmcraft, discard.warns)
	if cc == nil {
		return false
	}
	if cc.lost && cc.root == nil { // unreadable as YAML (a stray byte, a syntax error): a name line still says so, and Parse reports the problem
		line := firstNameLine.Find(f.Charmcraft)
		return hasNameLine.Match(line) && utf8.Valid(line)
	}
	if charmcraftName(discard.entries(cc.root, "")) != "" {
		return true
	}
	// read in part (`type: charm` then `name: [my-charm`): its name line still says so
	line := firstNameLine.Find(f.Charmcraft)
	return cc.lost && hasNameLine.Match(line) && utf8.Valid(line)
}

// hasNameLine matches a top-level `name:` key with a value, whatever the value (valid UTF-8):
// a charmcraft.yaml that breaks on that very line (`name: [my-charm`) is still a charm's,
// whose problem check reports.
var hasNameLine = regexp.MustCompile(`(?m)^name:[ \t]+[^\s#]`)

// topLevelName is a top-level `name:` line whose value looks like a charm's name (a letter,
// then letters, digits, '-', '_', '.'), plain or quoted, alone on the line but for a comment:
// not the start of what broke the file (`name: [unclosed`), nor a number.
var topLevelName = regexp.MustCompile(`^name:[ \t]+(["']?)([A-Za-z][A-Za-z0-9_.-]*)(["']?)(?:[ \t]+#.*)?[ \t]*\r?$`)

// firstNameLine finds the first top-level `name:` line.
var firstNameLine = regexp.MustCompile(`(?m)^name:.*$`)

// nameLine is the charm name on the first top-level `name:` line of a YAML text (topLevelName),
// unquoted, or "": the name of a charm whose YAML cannot be read as a whole.
func nameLine(data []byte) (name string, line int) {
	loc := firstNameLine.FindIndex(data)
	if loc == nil {
		return "", 0
	}
	m := topLevelName.FindSubmatch(data[loc[0]:loc[1]])
	if m == nil || string(m[1]) != string(m[3]) {
		return "", 0
	}
	if len(m[1]) == 0 {
		switch strings.ToLower(string(m[2])) {
		case "null", "true", "false", "yes", "no", "on", "off": // YAML's null and booleans, no name
			return "", 0
		}
	}
	return string(m[2]), bytes.Count(data[:loc[0]], []byte("\n")) + 1
}

// charmcraftName is charmcraft.yaml's `name:` when it is plain text.
func charmcraftName(top []entry) string {
	if e, ok := find(top, "name"); ok && e.v != nil && e.v.Kind == yaml.ScalarNode && !isNull(e.v) {
		return e.v.Value
	}
	return ""
}

// warner returns a warner for d that appends to c's warnings.
func (d *doc) warner(c *Charm) warner { return warner{d.file, &c.Warnings} }

func (c *Charm) readMetadata(d *doc, top []entry) {
	w := d.warner(c)
	pos := func(e entry) Pos { return Pos{File: d.file, Line: e.k.Line} }
	for _, e := range top {
		switch e.key {
		case "name":
			c.Name = w.str(e, "name")
			if c.Name != "" {
				c.NameAt = pos(e)
			}
		case "subordinate":
			c.Subordinate = w.boolean(e, "subordinate")
		case "series":
			c.readSeries(d, e)
		case RoleRequires, RoleProvides, RolePeers:
			for _, ep := range w.entries(e.v, e.key) {
				c.Relations = append(c.Relations, readRelation(w, e.key, ep, pos(ep)))
			}
		case "containers":
			for _, ce := range w.entries(e.v, "containers") {
				ct := Container{Name: ce.key, Pos: pos(ce)}
				for _, f := range w.entries(ce.v, "container "+ce.key) {
					switch f.key {
					case "resource":
						ct.Resource = w.str(f, "container "+ce.key+" resource")
					case "mounts":
						ct.Mounts = readMounts(w, ce.key, f)
					}
				}
				c.Containers = append(c.Containers, ct)
			}
		case "storage":
			for _, se := range w.entries(e.v, "storage") {
				st := Storage{Name: se.key, Pos: pos(se)}
				for _, f := range w.entries(se.v, "storage "+se.key) {
					switch f.key {
					case "type":
						st.Type = w.str(f, "storage "+se.key+" type")
					case "location":
						st.Location = w.str(f, "storage "+se.key+" location")
					}
				}
				c.Storage = append(c.Storage, st)
			}
		case "resources":
			for _, re := range w.entries(e.v, "resources") {
				r := Resource{Name: re.key, Pos: pos(re)}
				fields := w.entries(re.v, "resource "+re.key)
				if f, ok := find(fields, "type"); ok {
					r.Type = w.str(f, "resource "+re.key+" type")
				}
				if f, ok := find(fields, "upstream-source"); ok {
					r.UpstreamSource = w.str(f, "resource "+re.key+" upstream-source")
				}
				c.Resources = append(c.Resources, r)
			}
		case "extra-bindings":
			for _, be := range w.entries(e.v, "extra-bindings") {
				c.ExtraBindings = append(c.ExtraBindings, Binding{Name: be.key, Pos: pos(be)})
			}
		}
	}
}

// readParts reads charmcraft.yaml's `parts:`. Parts are build configuration that charmcraft,
// not Juju, checks, so an odd shape is skipped without a warning.
func (c *Charm) readParts(d *doc, v *yaml.Node) {
	quiet := warner{d.file, new([]string)}
	if v = deref(v); v == nil || v.Kind != yaml.MappingNode {
		return
	}
	for _, pe := range quiet.entries(v, "parts") {
		p := Part{Name: pe.key, Pos: Pos{File: d.file, Line: pe.k.Line}}
		var text strings.Builder
		nodeText(&text, pe.v, 0)
		p.Words = textWords([]byte(text.String()))
		if pv := deref(pe.v); pv != nil && pv.Kind == yaml.MappingNode {
			entries := quiet.entries(pv, "part")
			if f, ok := find(entries, "plugin"); ok && f.v != nil && deref(f.v).Kind == yaml.ScalarNode {
				p.Plugin = deref(f.v).Value
			}
			if f, ok := find(entries, "source"); ok && f.v != nil && deref(f.v).Kind == yaml.ScalarNode {
				p.Source = deref(f.v).Value
			}
		}
		c.Parts = append(c.Parts, p)
	}
}

// readCharmLibs reads charmcraft.yaml's `charm-libs:`, a list of {lib, version} mappings.
// Like parts, it is build configuration that charmcraft checks: an odd entry is skipped
// without a warning.
func (c *Charm) readCharmLibs(d *doc, v *yaml.Node) {
	quiet := warner{d.file, new([]string)}
	if v = deref(v); v == nil || v.Kind != yaml.SequenceNode {
		return
	}
	for _, item := range v.Content {
		if item = deref(item); item == nil || item.Kind != yaml.MappingNode {
			continue
		}
		fields := quiet.entries(item, "charm-libs entry")
		f, ok := find(fields, "lib")
		if !ok || deref(f.v) == nil || deref(f.v).Kind != yaml.ScalarNode || deref(f.v).Value == "" {
			continue
		}
		l := CharmLib{Lib: deref(f.v).Value, Pos: Pos{File: d.file, Line: item.Line}}
		if f, ok := find(fields, "version"); ok && deref(f.v) != nil && deref(f.v).Kind == yaml.ScalarNode {
			l.Version = deref(f.v).Value
		}
		c.CharmLibs = append(c.CharmLibs, l)
	}
}

// nodeText writes the keys, values and comments of a YAML subtree, one per line; aliases are
// not followed (the anchor's own text is already written where it stands).
func nodeText(b *strings.Builder, n *yaml.Node, depth int) {
	if n == nil || depth > 64 || b.Len() > maxFileSize {
		return
	}
	for _, s := range []string{n.HeadComment, n.LineComment, n.FootComment, n.Value} {
		if s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	if n.Kind != yaml.AliasNode {
		for _, c := range n.Content {
			nodeText(b, c, depth+1)
		}
	}
}

// readRelation reads one endpoint. Besides the usual mapping, Juju accepts a bare interface
// name (`db: mysql`).
func readRelation(w warner, role string, ep entry, pos Pos) Relation {
	r := Relation{Name: ep.key, Role: role, Pos: pos}
	what := role + " " + ep.key
	switch {
	case isNull(ep.v):
		w.warn(ep.k.Line, "%s: endpoint has no interface", what)
		return r
	case ep.v.Kind == yaml.ScalarNode:
		r.Interface = ep.v.Value
		return r
	}
	fields := w.entries(ep.v, what)
	for _, f := range fields {
		switch f.key {
		case "interface":
			r.Interface = w.str(f, what+" interface")
		case "limit":
			r.Limit = w.integer(f, what+" limit")
		case "optional":
			r.Optional = w.boolean(f, what+" optional")
		case "scope":
			switch s := w.str(f, what+" scope"); s {
			case "global", "":
			case "container":
				r.Scope = s
			default:
				w.warn(f.k.Line, "%s: scope %q is neither global nor container", what, s)
				r.Scope = s
			}
		}
	}
	if _, ok := find(fields, "interface"); !ok && ep.v.Kind == yaml.MappingNode {
		w.warn(ep.k.Line, "%s: endpoint has no interface", what)
	}
	return r
}

// readMounts reads a container's mounts as "storage:location".
func readMounts(w warner, container string, f entry) []string {
	what := "container " + container + " mounts"
	if isNull(f.v) {
		return nil
	}
	if f.v.Kind != yaml.SequenceNode {
		w.warn(f.k.Line, "%s: expected a list, got %s", what, kindName(f.v))
		return nil
	}
	var out []string
	for _, m := range f.v.Content {
		var storage, location string
		for _, g := range w.entries(m, what) {
			switch g.key {
			case "storage":
				storage = w.str(g, what+" storage")
			case "location":
				location = w.str(g, what+" location")
			}
		}
		out = append(out, storage+":"+location)
	}
	return out
}

// readConfig reads a config section: a mapping with `options:`.
func (c *Charm) readConfig(d *doc, n *yaml.Node) {
	w := d.warner(c)
	top := w.entries(n, "config")
	opts, ok := find(top, "options")
	if !ok {
		if deref(n) != nil && deref(n).Kind == yaml.MappingNode {
			w.warn(deref(n).Line, "config has no options")
		}
		return
	}
	es := w.entries(opts.v, "options")
	// A bare `options:` says "none" (Juju reads it so on purpose, a bash charm's config.yaml);
	// beside other keys it is a slip: the options were written one level too far out.
	if len(es) == 0 && isNull(opts.v) && len(top) > 1 {
		w.warn(opts.k.Line, "options is empty, and the config has other keys beside it (%s): are they options written one level too far out?", top[slices.IndexFunc(top, func(e entry) bool { return e.key != "options" })].key)
	}
	for _, e := range es {
		o := ConfigOption{Name: e.key, Pos: Pos{File: d.file, Line: e.k.Line}}
		what := "option " + e.key
		fields := w.entries(e.v, what)
		if isNull(e.v) {
			w.warn(e.k.Line, "%s is empty", what)
		}
		for _, f := range fields {
			switch f.key {
			case "type":
				o.Type = w.str(f, what+" type")
			case "description":
				o.Description = firstLine(w.str(f, what+" description"))
			case "default":
				switch {
				case isNull(f.v):
				case f.v.Kind == yaml.ScalarNode:
					o.Default, o.HasDefault = f.v.Value, true
				default:
					w.warn(f.k.Line, "%s default: expected a single value, got %s", what, kindName(f.v))
					o.HasDefault = true
				}
			}
		}
		c.Config = append(c.Config, o)
	}
}

// readActions reads an actions section: action names at the top.
func (c *Charm) readActions(d *doc, n *yaml.Node) {
	w := d.warner(c)
	for _, e := range w.entries(n, "actions") {
		a := Action{Name: e.key, Pos: Pos{File: d.file, Line: e.k.Line}}
		what := "action " + e.key
		if isNull(e.v) {
			w.warn(e.k.Line, "%s is empty", what)
		}
		var params, properties []Param
		hasParams := false
		fields := w.entries(e.v, what)
		misspelledActionKeys(w, what, fields)
		for _, f := range fields {
			switch f.key {
			case "description":
				a.Description = firstLine(w.str(f, what+" description"))
			case "required":
				a.Required = w.strList(f, what+" required")
			case "params", "properties":
				// Juju copies an action's other keys into its JSON schema as they are, so a
				// top-level `properties:` declares the parameters as `params:` does (params
				// wins when both are there).
				var ps []Param
				for _, p := range w.entries(f.v, what+" "+f.key) {
					t, dflt := paramType(w, what, p)
					ps = append(ps, Param{Name: p.key, Type: t, HasDefault: dflt, Pos: Pos{File: d.file, Line: p.k.Line}})
				}
				if f.key == "params" {
					params, hasParams = ps, true
				} else {
					properties = ps
				}
			}
		}
		a.Params = params
		if !hasParams {
			a.Params = properties
		}
		c.Actions = append(c.Actions, a)
	}
}

// paramType reads a parameter's JSON-schema `type`; a list of types is joined with "|". A
// key near a JSON-schema keyword (`typoe: string`) is warned of (misspelledSchemaKeys).
func paramType(w warner, action string, p entry) (typ string, hasDefault bool) {
	what := action + " param " + p.key
	fields := w.entries(p.v, what)
	misspelledSchemaKeys(w, what, fields)
	_, hasDefault = find(fields, "default")
	t, ok := find(fields, "type")
	if !ok {
		return "", hasDefault
	}
	if t.v != nil && t.v.Kind == yaml.SequenceNode {
		return strings.Join(w.strList(t, what+" type"), "|"), hasDefault
	}
	return w.str(t, what+" type"), hasDefault
}

// webAddress matches a web or git address, whose words name another repository, not what
// the file holds.
var webAddress = regexp.MustCompile(`(?:https?://|git@|git\+ssh://)\S+`)

// layerWords are the words of what a layer.yaml holds: the layers it includes (layers) and their
// options (the packages and settings it gives them), not its keys (every layer.yaml has
// "includes" and "options") nor its repository's address (juju-solutions/bundle-kubeflow).
func layerWords(data []byte, layers []Layer) []string {
	var text string
	for _, l := range layers {
		text += l.Name + "\n"
	}
	var doc struct {
		Options yaml.Node `yaml:"options"`
	}
	if len(data) <= maxFileSize && yaml.Unmarshal(data, &doc) == nil && doc.Options.Kind != 0 {
		if b, err := yaml.Marshal(&doc.Options); err == nil {
			text += "\n" + string(b)
		}
	}
	return textWords(webAddress.ReplaceAll([]byte(text), nil))
}

// layerIncludes reads the `includes:` of a layer.yaml: the layers and interface layers
// `charm build` merges into the charm ("layer:openstack-api", "interface:mysql-shared"). A
// build file, not a declaration: what it cannot read is no warning.
func layerIncludes(data []byte, file string) []Layer {
	var doc struct {
		Includes []yaml.Node `yaml:"includes"`
	}
	if len(data) == 0 || len(data) > maxFileSize || yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []Layer
	for _, x := range doc.Includes {
		if x.Kind == yaml.ScalarNode && x.Tag == "!!str" && x.Value != "" {
			out = append(out, Layer{Name: x.Value, Pos: Pos{File: file, Line: x.Line}})
		}
	}
	return out
}
