// Package linker ties a charm's declared interfaces (charmyaml) to the Python code that
// handles them (pyextract facts): which methods observe which relation, action, container,
// storage, lifecycle, secret and status events, where config options and action parameters
// are read, and where endpoints, containers and storages are looked up.
//
// Input: the charms and the extracted Python files of one tree. Output: a Result, a plain
// value that the ranker (to tie YAML and handlers in the graph), the `interfaces` command and
// the `check` rules consume. The linker resolves names (module and imported constants, class
// attributes, `self.x` set from parameter defaults, library objects built with a relation
// name) but never reads files itself: vendored libraries are just more pyextract Files.
package linker

import (
	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// Input is what the linker reads. Files are all Python files of the tree, root-relative paths.
type Input struct {
	Charms []charmyaml.Charm
	Files  []pyextract.File
}

// Interface kinds (the `kind` of CONTRACT §3 interfaces).
const (
	KindRelation  = "relation"
	KindConfig    = "config"
	KindAction    = "action"
	KindContainer = "container"
	KindStorage   = "storage"
	KindResource  = "resource"
	KindLifecycle = "lifecycle"
	KindSecret    = "secret"
	KindStatus    = "status"
)

// Via values say how a link was made.
const (
	ViaObserve  = "observe"       // framework.observe(self.on.<x>, handler)
	ViaIndex    = "on-index"      // self.on[NAME].<event>
	ViaGetattr  = "getattr"       // getattr(self.on, "...")
	ViaLibrary  = "library"       // an event of a library object bound to the endpoint
	ViaLibInner = "library-inner" // registered by a library on the charm's behalf
	ViaHelper   = "helper"        // observed in an ops.Object helper class via charm.on
	ViaNaming   = "naming"        // only the _on_<endpoint>_relation_<event> name matches (weak)
	ViaLookup   = "lookup"        // model.get_relation / relations[...] / get_container / storages[...]
	ViaConfig   = "config-read"   // config option read
	ViaParam    = "param-read"    // action parameter read
)

// Result is the linker's output.
type Result struct {
	Charms []CharmLinks `json:"charms"`
	// Unresolved counts observe/lookup/read sites whose name the linker could not resolve
	// statically (dynamic names); check reports the count, never an error.
	Unresolved []Site `json:"unresolved,omitempty"`
}

// CharmLinks are the links of one charm.
type CharmLinks struct {
	Name       string      `json:"name"`
	Dir        string      `json:"dir"`
	Interfaces []Interface `json:"interfaces"` // grouped by kind in the order of the kind constants, then YAML order
	// Uses are code sites that name an interface the YAML does not declare, or otherwise
	// disagree with it; check turns them into diagnostics.
	Findings []Finding `json:"findings,omitempty"`
}

// Interface is one declared (or, for lifecycle/secret/status, observed) interface.
type Interface struct {
	Kind      string    `json:"kind"`
	Name      string    `json:"name"`      // as declared; Juju event name (hyphenated) for lifecycle/secret/status
	Role      string    `json:"role"`      // relations: requires/provides/peers; else ""
	Interface string    `json:"interface"` // relations: the interface name; else ""
	File      string    `json:"file"`      // declaring YAML file ("" for lifecycle/secret/status)
	Line      int       `json:"line"`
	Handlers  []Handler `json:"handlers"` // sorted by file, line, event
	Reads     []Site    `json:"reads"`    // config/param reads and lookups, sorted by file, line
}

// Handler is one method that handles an event of an interface.
type Handler struct {
	Event  string `json:"event"`  // the event attribute as observed: database_created, relation_changed, app_pebble_ready
	Symbol string `json:"symbol"` // Class.method or function
	File   string `json:"file"`   // file that defines the handler
	Line   int    `json:"line"`   // line of the handler's def
	Via    string `json:"via"`    // one of the Via constants
	// ObserveFile/ObserveLine locate the observe call (or the library object binding).
	ObserveFile string `json:"observe_file,omitempty"`
	ObserveLine int    `json:"observe_line,omitempty"`
	Conditional bool   `json:"conditional,omitempty"`
}

// Site is a place in the code.
type Site struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Symbol string `json:"symbol,omitempty"` // enclosing Class.method or function
	Via    string `json:"via,omitempty"`
	// Detail is, for config and param reads, how the value was read: "index" (x["k"]),
	// "get" (x.get("k")) or "attr" (typed config class attribute); for unresolved sites,
	// the expression as written.
	Detail string `json:"detail,omitempty"`
	// Key is, for action parameter reads, the parameter read.
	Key         string `json:"key,omitempty"`
	Conditional bool   `json:"conditional,omitempty"`
}

// Finding kinds; check maps them to its rule names.
const (
	FindUndeclaredRelation  = "undeclared-relation"
	FindUndeclaredAction    = "undeclared-action"
	FindUndeclaredConfig    = "undeclared-config"
	FindUndeclaredContainer = "undeclared-container"
	FindUndeclaredStorage   = "undeclared-storage"
	FindMissingHandler      = "missing-handler"
	FindUndeclaredParam     = "undeclared-action-param"
)

// Finding is a code site that disagrees with the YAML.
type Finding struct {
	Kind    string `json:"kind"`    // a Find constant
	Subject string `json:"subject"` // the name involved (endpoint, action, option, handler)
	Site
}
