// Package charmyaml reads a charm's declared interfaces from its YAML files.
//
// Input: the bytes of metadata.yaml, config.yaml, actions.yaml and charmcraft.yaml of one
// charm directory, and a reactive charm's layer.yaml (any may be absent). Output: a Charm, a
// plain value listing relations, config options, actions, containers, storage and resources,
// each with the file and line that declares it. Each of the three sections (metadata, config,
// actions) resolves on its own: from its own file when that exists, else from charmcraft.yaml.
//
// Broken YAML never fails the load: what can be read is returned and the problems are
// listed in Charm.Warnings.
//
// Decisions:
//   - Files are read as gopkg.in/yaml.v3 node trees: they carry line numbers, and aliases stay
//     pointers, so an alias bomb costs nothing until walked. Before anything walks a tree it
//     is measured with aliases expanded, with a budget; trees over 100k nodes or 10k aliases
//     (and files over 4 MiB) are refused with a warning.
//   - Reading is as lenient as PyYAML, which charmcraft and ops use: of duplicate keys the
//     last wins (with a warning), merge keys (<<) work, yes/no/on/off are booleans, a bare
//     endpoint value is its interface (`db: mysql`). Wrong types and empty bodies give a
//     warning and the rest of the item is kept. On a syntax error the longest run of leading
//     lines that parses is kept, found by bisection.
//   - github.com/juju/charm/v12 is a second opinion, not the parser: where yaml.v3 read a
//     section cleanly, ReadMeta (+ Meta.Check), ReadConfig or ReadActionsYaml reads it too,
//     and a rejection becomes one warning, "<file>: juju would reject: <error>". ReadMeta takes
//     a whole unified charmcraft.yaml (it ignores unknown keys); config and actions are cut
//     out of charmcraft.yaml and re-encoded. Juju reports whichever problem Go's map order
//     hits first, so a rejected section is re-checked piece by piece to name the first
//     problem in YAML order (juju.go).
//   - charmcraft's 12-factor extensions add endpoints, a container, config and actions that no
//     file declares; extensions.go holds what each adds, placed at the `extensions:` line.
//   - Load never follows a symbolic link out of the root.
package charmyaml

// Pos is where a declaration sits: a root-relative, '/'-separated file path and a 1-based line.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Charm is one charm's declared interfaces.
type Charm struct {
	Name string `json:"name"`
	// NameAt is where Name is declared: the `name:` line of metadata.yaml or charmcraft.yaml,
	// also when the rest of the file could not be read (zero when nothing names the charm).
	NameAt      Pos    `json:"name_at"`
	Dir         string `json:"dir"` // root-relative directory, "." for the root
	Subordinate bool   `json:"subordinate,omitempty"`
	// Layer marks a reactive layer's folder rather than a charm's: a layer.yaml, no
	// charmcraft.yaml, and a metadata.yaml that names no charm or none beside a config.yaml
	// or actions.yaml (layer-vault-kv, layer-nvidia-cuda). `charm build` merges its YAML into
	// the charms that include it, whose metadata declares the relations (and may declare the
	// options) its code uses. It has no Name.
	Layer bool `json:"layer,omitempty"`

	Relations  []Relation     `json:"relations,omitempty"`  // requires, provides, peers, in YAML order
	Config     []ConfigOption `json:"config,omitempty"`     // in YAML order
	Actions    []Action       `json:"actions,omitempty"`    // in YAML order
	Containers []Container    `json:"containers,omitempty"` // in YAML order
	Storage    []Storage      `json:"storage,omitempty"`    // in YAML order
	Resources  []Resource     `json:"resources,omitempty"`  // in YAML order
	// ExtraBindings are metadata's `extra-bindings:`, network spaces that are no relation
	// endpoint (model.get_binding looks them up by name), in YAML order.
	ExtraBindings []Binding `json:"extra_bindings,omitempty"`
	Extensions    []string  `json:"extensions,omitempty"` // charmcraft.yaml `extensions:`
	// Layers are the `includes:` of a reactive charm's layer.yaml ("layer:openstack-api",
	// "interface:keystone"), in YAML order: `charm build` merges the layers' metadata, config
	// and actions into the charm's, so the YAML in the tree may lack what the built charm
	// declares; and a new relation's interface layer is included there.
	Layers []Layer `json:"layers,omitempty"`
	// Parts are charmcraft.yaml's build parts, in YAML order: build configuration, not an
	// interface (the linker ignores them), listed so that a map can show where a charm pins
	// its build tools.
	Parts []Part `json:"parts,omitempty"`
	// Bases are the systems charmcraft.yaml builds the charm to run on (`bases:` run-on
	// entries, or `base:` and `platforms:`), in YAML order: build configuration, as Parts are.
	Bases []Base `json:"bases,omitempty"`
	// CharmLibs are charmcraft.yaml's `charm-libs:` entries, in YAML order: the charm
	// libraries charmcraft fetches at build time and the versions they are pinned to, which a
	// dependency bot updates there ("update dependency tls_certificates_interface.tls_certificates
	// to v4").
	CharmLibs []CharmLib `json:"charm_libs,omitempty"`

	// Misfiled are the names written under a misspelled top-level key (`providers:` for
	// `provides:`, the warning's subject), in YAML order: Juju declares none of them, and code
	// that uses one fails; a report of that use can say where the declaration went.
	Misfiled []Misfiled `json:"misfiled,omitempty"`

	// Files are the root-relative YAML files this charm was read from, sorted.
	Files []string `json:"files,omitempty"`
	// Warnings are non-fatal problems, one line each, prefixed with the file ("metadata.yaml:3: ...").
	Warnings []string `json:"warnings,omitempty"`
	// Incomplete are the root-relative YAML files, sorted, that exist but could not be read
	// whole (a syntax error, unreadable, too large, not a regular file): the interfaces they
	// declare may be missing from this Charm, and a name the code uses may be declared there.
	Incomplete []string `json:"incomplete,omitempty"`
	// Unreadable are the declaration files of Incomplete that exist and could not be opened or
	// read ("metadata.yaml: permission denied"), each with why: what the charm declares there
	// is unknown, where a file that does not parse is still read in part (and one that is not
	// a regular file, a FIFO or a folder, is skipped).
	Unreadable []string `json:"unreadable,omitempty"`
	// Words are, per file of Files, the distinct words of its whole text (keys, values and
	// comments, in order of first use, at most MaxFileWords; not the maintainers' names,
	// withoutMaintainers): what a ranker matches a task
	// against beyond the declared interfaces, such as the build parts of charmcraft.yaml
	// ("rustup", "uv", "# renovate: charmcraft-pip-latest"). Not part of the JSON views.
	Words map[string][]string `json:"-"`
}

// Misfiled is one name under a misspelled top-level key.
type Misfiled struct {
	Name    string `json:"name"`
	Key     string `json:"key"`     // the key as written: "providers"
	Section string `json:"section"` // the key meant: "provides"
	Pos
}

// Relation roles.
const (
	RoleRequires = "requires"
	RoleProvides = "provides"
	RolePeers    = "peers"
)

// Relation is one endpoint under requires, provides or peers.
type Relation struct {
	Name      string `json:"name"`
	Role      string `json:"role"`      // RoleRequires, RoleProvides or RolePeers
	Interface string `json:"interface"` // may be "" when the YAML omits it
	Limit     int    `json:"limit,omitempty"`
	Optional  bool   `json:"optional,omitempty"`
	Scope     string `json:"scope,omitempty"` // "global" (default, left empty) or "container"
	// Extension is set when the endpoint is added by a charmcraft extension (e.g. "flask-framework")
	// rather than declared in a file; Pos then points at the `extensions:` line.
	Extension string `json:"extension,omitempty"`
	Pos
}

// ConfigOption is one option under config `options:`.
type ConfigOption struct {
	Name        string `json:"name"`
	Type        string `json:"type"`              // string, int, float, boolean, secret ("" if omitted)
	Default     string `json:"default,omitempty"` // the default rendered as YAML scalar text
	HasDefault  bool   `json:"has_default"`
	Description string `json:"description,omitempty"` // first line only
	Extension   string `json:"extension,omitempty"`
	Pos
}

// Action is one action with its parameters.
type Action struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"` // first line only
	Params      []Param  `json:"params,omitempty"`      // in YAML order
	Required    []string `json:"required,omitempty"`
	Extension   string   `json:"extension,omitempty"`
	// Script is the action's own executable, actions/<name> in the charm's folder (root-
	// relative), when there is one: Juju runs it, and ops runs it before emitting the event
	// for a dispatch charm. A symbolic link is not one: an old ops charm links each action to
	// its entry point (actions/backup -> ../src/charm.py), which then emits the event.
	Script string `json:"script,omitempty"`
	Pos
}

// Param is one action parameter.
type Param struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"` // JSON-schema type
	// HasDefault is set when the parameter's schema gives a default: Juju passes it when the
	// operator gives none. A parameter with none that the action does not require is absent
	// from the params then.
	HasDefault bool `json:"-"`
	Pos
}

// Container is one entry under `containers:`.
type Container struct {
	Name     string   `json:"name"`
	Resource string   `json:"resource,omitempty"`
	Mounts   []string `json:"mounts,omitempty"` // "storage:location"
	Pos
}

// Storage is one entry under `storage:`.
type Storage struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Location string `json:"location,omitempty"`
	Pos
}

// Binding is one entry under `extra-bindings:`.
type Binding struct {
	Name string `json:"name"`
	Pos
}

// Resource is one entry under `resources:`.
type Resource struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"` // oci-image or file
	// UpstreamSource is the image the charm pins for an oci-image resource
	// ("ghcr.io/canonical/charmed-mysql@sha256:…"): where a workload upgrade is made.
	UpstreamSource string `json:"upstream_source,omitempty"`
	Pos
}

// Layer is one layer or interface layer a reactive charm's layer.yaml includes.
type Layer struct {
	Name string `json:"name"` // as written: "layer:basic", "interface:pgsql"
	Pos
}

// Part is one entry of charmcraft.yaml `parts:`.
type Part struct {
	Name   string `json:"name"`
	Plugin string `json:"plugin,omitempty"` // "charm", "uv", "dump", ...; "" when not a plain string
	// Source is the part's `source:` when a plain string: a folder, a repository, or the
	// address of a download (istio's istioctl, .../download/1.29.0/istioctl-1.29.0-...tar.gz),
	// which pins a release of the tool the charm runs.
	Source string `json:"source,omitempty"`
	// Words are the distinct words of the part's keys, values and comments (as Charm.Words):
	// the tools and packages it pins ("rustup", "uv", "psycopg2").
	Words []string `json:"-"`
	Pos
}

// CharmLib is one entry of charmcraft.yaml `charm-libs:`.
type CharmLib struct {
	Lib     string `json:"lib"`               // "<charm>.<library>", as written
	Version string `json:"version,omitempty"` // "1", "0.11", as written
	Pos
}

// Files holds the raw YAML of one charm directory; nil means the file is absent.
// Paths are root-relative names used for Pos.File and warnings.
type Files struct {
	Dir                                   string
	Metadata, Config, Actions, Charmcraft []byte
	Layer                                 []byte // layer.yaml, nil when absent
	// Unread are the names (MetadataFile, ConfigFile, ...) of files that exist but could not
	// be read: each still takes its place (charmcraft.yaml's copy of its section is not read
	// instead), with no declarations.
	Unread []string
	// CharmcraftPath is the root-relative path Charmcraft was read from when it is not Dir's
	// own charmcraft.yaml but the build file of a project folder above the charm, whose parts
	// build it from Dir (see BuildSources and LoadBuiltFrom); "" for Dir's own.
	CharmcraftPath string
}
