package charmyaml

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// files builds a Files from file name → content; a name that is not listed is absent.
func files(dir string, m map[string]string) Files {
	f := Files{Dir: dir}
	for name, text := range m {
		b := []byte(text)
		switch name {
		case MetadataFile:
			f.Metadata = b
		case ConfigFile:
			f.Config = b
		case ActionsFile:
			f.Actions = b
		case CharmcraftFile:
			f.Charmcraft = b
		default:
			panic("unknown file " + name)
		}
	}
	return f
}

// lineOf returns the 1-based line of the only line of text that contains needle.
func lineOf(t *testing.T, text, needle string) int {
	t.Helper()
	found := 0
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, needle) {
			if found != 0 {
				t.Fatalf("%q occurs on lines %d and %d", needle, found, i+1)
			}
			found = i + 1
		}
	}
	if found == 0 {
		t.Fatalf("%q not in text", needle)
	}
	return found
}

func names[T any](items []T, name func(T) string) []string {
	var out []string
	for _, it := range items {
		out = append(out, name(it))
	}
	return out
}

func relNames(c Charm) []string { return names(c.Relations, func(r Relation) string { return r.Name }) }
func cfgNames(c Charm) []string {
	return names(c.Config, func(o ConfigOption) string { return o.Name })
}
func actNames(c Charm) []string { return names(c.Actions, func(a Action) string { return a.Name }) }

func relation(t *testing.T, c Charm, name string) Relation {
	t.Helper()
	for _, r := range c.Relations {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no relation %q in %v", name, relNames(c))
	return Relation{}
}

func option(t *testing.T, c Charm, name string) ConfigOption {
	t.Helper()
	for _, o := range c.Config {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no option %q in %v", name, cfgNames(c))
	return ConfigOption{}
}

func action(t *testing.T, c Charm, name string) Action {
	t.Helper()
	for _, a := range c.Actions {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no action %q in %v", name, actNames(c))
	return Action{}
}

// wantWarning fails unless exactly one warning contains every part.
func wantWarning(t *testing.T, c Charm, parts ...string) string {
	t.Helper()
	var hits []string
	for _, w := range c.Warnings {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			hits = append(hits, w)
		}
	}
	if len(hits) != 1 {
		t.Fatalf("want one warning containing %q, got %d; warnings:\n%s", parts, len(hits), strings.Join(c.Warnings, "\n"))
	}
	return hits[0]
}

func noWarnings(t *testing.T, c Charm) {
	t.Helper()
	if len(c.Warnings) > 0 {
		t.Fatalf("unexpected warnings:\n%s", strings.Join(c.Warnings, "\n"))
	}
}

const unifiedCharmcraft = `# A unified charmcraft.yaml.
name: recipe-box
type: charm
summary: Stores recipes.
description: |
  A small recipe store.
base: ubuntu@24.04
platforms:
  amd64:
parts:
  charm:
    plugin: charm
assumes:
  - k8s-api
containers:
  box:
    resource: box-image
    mounts:
      - storage: recipes
        location: /srv/recipes
storage:
  recipes:
    type: filesystem
    location: /srv/recipes
resources:
  box-image:
    type: oci-image
    description: Image for the box.
requires:
  database:
    interface: postgresql_client
    limit: 1
  tracing:
    interface: tracing
    optional: true
provides:
  metrics:
    interface: prometheus_scrape
peers:
  replicas:
    interface: recipe_replicas
config:
  options:
    page-size:
      type: int
      default: 20
      description: |

        How many recipes a page shows.
        Larger pages load slower.
    site-title:
      type: string
      description: Title shown on every page.
    debug:
      type: boolean
      default: false
    empty-default:
      type: string
      default: ""
    null-default:
      type: string
      default:
actions:
  export:
    description: Export every recipe.
    params:
      format:
        type: string
      include-drafts:
        type: boolean
        default: false
      since:
        type: [string, "null"]
    required: [format]
  reindex:
    description: Rebuild the search index.
`

func TestUnified(t *testing.T) {
	text := unifiedCharmcraft
	c := Parse(files("charms/box", map[string]string{CharmcraftFile: text}))
	noWarnings(t, c)
	file := "charms/box/charmcraft.yaml"
	if c.Name != "recipe-box" || c.Dir != "charms/box" || !slices.Equal(c.Files, []string{file}) {
		t.Fatalf("name %q dir %q files %v", c.Name, c.Dir, c.Files)
	}
	if want := (Pos{file, lineOf(t, text, "name: recipe-box")}); c.NameAt != want {
		t.Errorf("name at %+v, want %+v", c.NameAt, want)
	}
	if got, want := relNames(c), []string{"database", "tracing", "metrics", "replicas"}; !slices.Equal(got, want) {
		t.Errorf("relations %v, want %v (YAML order)", got, want)
	}
	wantRel := Relation{Name: "database", Role: RoleRequires, Interface: "postgresql_client", Limit: 1,
		Pos: Pos{file, lineOf(t, text, "  database:")}}
	if r := relation(t, c, "database"); r != wantRel {
		t.Errorf("database = %+v, want %+v", r, wantRel)
	}
	if r := relation(t, c, "tracing"); !r.Optional || r.Role != RoleRequires {
		t.Errorf("tracing = %+v", r)
	}
	if r := relation(t, c, "metrics"); r.Role != RoleProvides || r.Line != lineOf(t, text, "  metrics:") {
		t.Errorf("metrics = %+v", r)
	}
	if r := relation(t, c, "replicas"); r.Role != RolePeers || r.Interface != "recipe_replicas" {
		t.Errorf("replicas = %+v", r)
	}

	wantCtr := []Container{{Name: "box", Resource: "box-image", Mounts: []string{"recipes:/srv/recipes"}, Pos: Pos{file, lineOf(t, text, "  box:")}}}
	if !reflect.DeepEqual(c.Containers, wantCtr) {
		t.Errorf("containers %+v, want %+v", c.Containers, wantCtr)
	}
	wantSto := []Storage{{Name: "recipes", Type: "filesystem", Location: "/srv/recipes", Pos: Pos{file, lineOf(t, text, "  recipes:")}}}
	if !reflect.DeepEqual(c.Storage, wantSto) {
		t.Errorf("storage %+v, want %+v", c.Storage, wantSto)
	}
	wantRes := []Resource{{Name: "box-image", Type: "oci-image", Pos: Pos{file, lineOf(t, text, "  box-image:")}}}
	if !reflect.DeepEqual(c.Resources, wantRes) {
		t.Errorf("resources %+v, want %+v", c.Resources, wantRes)
	}

	if got, want := cfgNames(c), []string{"page-size", "site-title", "debug", "empty-default", "null-default"}; !slices.Equal(got, want) {
		t.Errorf("config %v, want %v", got, want)
	}
	wantOpt := ConfigOption{Name: "page-size", Type: "int", Default: "20", HasDefault: true,
		Description: "How many recipes a page shows.", Pos: Pos{file, lineOf(t, text, "page-size:")}}
	if o := option(t, c, "page-size"); o != wantOpt {
		t.Errorf("page-size = %+v, want %+v", o, wantOpt)
	}
	if o := option(t, c, "site-title"); o.HasDefault || o.Description != "Title shown on every page." {
		t.Errorf("site-title = %+v", o)
	}
	if o := option(t, c, "debug"); o.Default != "false" || !o.HasDefault || o.Type != "boolean" {
		t.Errorf("debug = %+v", o)
	}
	if o := option(t, c, "empty-default"); o.Default != "" || !o.HasDefault {
		t.Errorf("empty-default = %+v: an empty string is a default", o)
	}
	if o := option(t, c, "null-default"); o.HasDefault {
		t.Errorf("null-default = %+v: a null default is no default", o)
	}

	if got, want := actNames(c), []string{"export", "reindex"}; !slices.Equal(got, want) {
		t.Errorf("actions %v, want %v", got, want)
	}
	wantAct := Action{Name: "export", Description: "Export every recipe.", Required: []string{"format"},
		Params: []Param{
			{Name: "format", Type: "string", Pos: Pos{file, lineOf(t, text, "format:")}},
			{Name: "include-drafts", Type: "boolean", HasDefault: true, Pos: Pos{file, lineOf(t, text, "include-drafts:")}},
			{Name: "since", Type: "string|null", Pos: Pos{file, lineOf(t, text, "since:")}},
		},
		Pos: Pos{file, lineOf(t, text, "  export:")}}
	if a := action(t, c, "export"); !reflect.DeepEqual(a, wantAct) {
		t.Errorf("export = %+v, want %+v", a, wantAct)
	}
}

const (
	splitMetadata = `name: fern-agent
summary: Ships logs.
description: Ships logs from the principal unit.
subordinate: true
requires:
  host:
    interface: juju-info
    scope: container
  sink: loki_push_api
provides:
  cos-agent:
    interface: cos_agent
    limit: 2
extra-bindings:
  public:
  storage-net:
`
	splitConfig = `options:
  level:
    type: string
    default: info
    description: Log level.
  batch:
    type: int
    description: Lines per batch.
`
	splitActions = `flush:
  description: Flush buffered lines.
  params:
    timeout:
      type: number
      description: Seconds to wait.
  required:
    - timeout
`
	buildOnly = `type: charm
bases:
  - build-on:
      - name: ubuntu
        channel: "22.04"
    run-on:
      - name: ubuntu
        channel: "22.04"
`
)

func TestSplit(t *testing.T) {
	c := Parse(files(".", map[string]string{
		MetadataFile: splitMetadata, ConfigFile: splitConfig, ActionsFile: splitActions, CharmcraftFile: buildOnly,
	}))
	noWarnings(t, c)
	if c.Name != "fern-agent" || !c.Subordinate || c.Dir != "." {
		t.Fatalf("name %q subordinate %v dir %q", c.Name, c.Subordinate, c.Dir)
	}
	if want := (Pos{MetadataFile, lineOf(t, splitMetadata, "name: fern-agent")}); c.NameAt != want {
		t.Errorf("name at %+v, want %+v", c.NameAt, want)
	}
	if want := []string{"actions.yaml", "charmcraft.yaml", "config.yaml", "metadata.yaml"}; !slices.Equal(c.Files, want) {
		t.Errorf("files %v, want %v", c.Files, want)
	}
	host := relation(t, c, "host")
	if host.Scope != "container" || host.Interface != "juju-info" || host.File != "metadata.yaml" || host.Line != lineOf(t, splitMetadata, "host:") {
		t.Errorf("host = %+v", host)
	}
	if sink := relation(t, c, "sink"); sink.Interface != "loki_push_api" || sink.Role != RoleRequires {
		t.Errorf("sink (short form) = %+v", sink)
	}
	if r := relation(t, c, "cos-agent"); r.Limit != 2 {
		t.Errorf("cos-agent = %+v", r)
	}
	wantBind := []Binding{{Name: "public", Pos: Pos{"metadata.yaml", lineOf(t, splitMetadata, "  public:")}},
		{Name: "storage-net", Pos: Pos{"metadata.yaml", lineOf(t, splitMetadata, "  storage-net:")}}}
	if !reflect.DeepEqual(c.ExtraBindings, wantBind) {
		t.Errorf("extra-bindings %+v, want %+v", c.ExtraBindings, wantBind)
	}
	if o := option(t, c, "level"); o.File != "config.yaml" || o.Line != lineOf(t, splitConfig, "level:") || o.Default != "info" {
		t.Errorf("level = %+v", o)
	}
	a := action(t, c, "flush")
	if a.File != "actions.yaml" || a.Line != 1 || !slices.Equal(a.Required, []string{"timeout"}) ||
		len(a.Params) != 1 || a.Params[0].Type != "number" || a.Params[0].Line != lineOf(t, splitActions, "timeout:") {
		t.Errorf("flush = %+v", a)
	}
}

func TestMixed(t *testing.T) {
	cc := buildOnly + `actions:
  flush:
    description: Flush now.
    params:
      force:
        type: boolean
config:
  options:
    shadowed:
      type: string
`
	c := Parse(files("agent", map[string]string{MetadataFile: splitMetadata, ConfigFile: splitConfig, CharmcraftFile: cc}))
	// Actions come from charmcraft.yaml; its config is shadowed by config.yaml.
	a := action(t, c, "flush")
	if a.File != "agent/charmcraft.yaml" || a.Line != lineOf(t, cc, "  flush:") || a.Params[0].Name != "force" {
		t.Errorf("flush = %+v", a)
	}
	if got := cfgNames(c); !slices.Equal(got, []string{"level", "batch"}) {
		t.Errorf("config %v: want config.yaml's options only", got)
	}
	wantWarning(t, c, "agent/charmcraft.yaml:", "config is ignored: config.yaml exists")
	if len(c.Warnings) != 1 {
		t.Errorf("warnings %q", c.Warnings)
	}
}

func TestExtensions(t *testing.T) {
	flask := `name: menu-web
type: charm
base: ubuntu@24.04
platforms:
  amd64:
summary: Menu site.
description: Menu site.
extensions:
  - flask-framework
requires:
  ingress:
    interface: ingress
    limit: 1
  login:
    interface: oauth
config:
  options:
    menu-source:
      type: string
    webserver-workers:
      type: int
      default: 4
`
	c := Parse(files(".", map[string]string{CharmcraftFile: flask}))
	noWarnings(t, c)
	extLine := lineOf(t, flask, "extensions:")
	if !slices.Equal(c.Extensions, []string{"flask-framework"}) {
		t.Fatalf("extensions %v", c.Extensions)
	}
	// ingress is declared by the charm: kept as declared and not repeated.
	if got, want := relNames(c), []string{"ingress", "login", "logging", "metrics-endpoint", "grafana-dashboard", "secret-storage"}; !slices.Equal(got, want) {
		t.Errorf("relations %v, want %v", got, want)
	}
	if r := relation(t, c, "ingress"); r.Extension != "" || r.Line != lineOf(t, flask, "  ingress:") {
		t.Errorf("declared ingress = %+v", r)
	}
	want := Relation{Name: "metrics-endpoint", Role: RoleProvides, Interface: "prometheus_scrape", Extension: "flask-framework", Pos: Pos{"charmcraft.yaml", extLine}}
	if r := relation(t, c, "metrics-endpoint"); r != want {
		t.Errorf("metrics-endpoint = %+v, want %+v", r, want)
	}
	if r := relation(t, c, "secret-storage"); r.Role != RolePeers {
		t.Errorf("secret-storage = %+v", r)
	}
	if o := option(t, c, "webserver-workers"); o.Extension != "" || o.Default != "4" {
		t.Errorf("declared webserver-workers = %+v", o)
	}
	if o := option(t, c, "flask-secret-key"); o.Extension != "flask-framework" || o.Line != extLine || o.Type != "string" {
		t.Errorf("flask-secret-key = %+v", o)
	}
	if o := option(t, c, "login-redirect-path"); o.Default != "/callback" || !o.HasDefault {
		t.Errorf("oauth option = %+v", o)
	}
	option(t, c, "login-scopes")
	if n := strings.Count(strings.Join(cfgNames(c), " "), "webserver-workers"); n != 1 {
		t.Errorf("webserver-workers appears %d times", n)
	}
	if a := action(t, c, "rotate-secret-key"); a.Extension != "flask-framework" || a.Line != extLine {
		t.Errorf("rotate-secret-key = %+v", a)
	}
	if len(c.Containers) != 1 || c.Containers[0].Name != "flask-app" || c.Containers[0].Resource != "flask-app-image" {
		t.Errorf("containers %+v", c.Containers)
	}
	if len(c.Resources) != 1 || c.Resources[0].Type != "oci-image" {
		t.Errorf("resources %+v", c.Resources)
	}

	django := strings.NewReplacer("flask", "django", "ubuntu@24.04", "ubuntu@26.04").Replace(flask)
	c = Parse(files(".", map[string]string{CharmcraftFile: django}))
	if len(c.Containers) != 1 || c.Containers[0].Name != "app" {
		t.Errorf("django on 26.04 containers %+v, want app", c.Containers)
	}
	su := action(t, c, "create-superuser")
	if !slices.Equal(su.Required, []string{"username", "email"}) || len(su.Params) != 2 || su.Params[0].Line != extLine {
		t.Errorf("create-superuser = %+v", su)
	}
	option(t, c, "django-allowed-hosts")

	goApp := strings.Replace(flask, "flask-framework", "go-framework", 1)
	c = Parse(files(".", map[string]string{CharmcraftFile: goApp}))
	if len(c.Containers) != 1 || c.Containers[0].Name != "app" {
		t.Errorf("go containers %+v, want app", c.Containers)
	}
	if o := option(t, c, "app-port"); o.Default != "8080" {
		t.Errorf("app-port = %+v", o)
	}

	unknown := strings.Replace(flask, "flask-framework", "cobol-framework", 1)
	c = Parse(files(".", map[string]string{CharmcraftFile: unknown}))
	wantWarning(t, c, "charmcraft.yaml:8:", `unknown extension "cobol-framework"`)
	if got := relNames(c); !slices.Equal(got, []string{"ingress", "login"}) {
		t.Errorf("relations %v", got)
	}
}

// billionLaughs nests ten lists of ten aliases nine deep: 10^9 nodes once expanded.
func billionLaughs(tail string) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		p := "*l" + string(rune('0'+i-1))
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	return b.String() + tail
}

func TestBroken(t *testing.T) {
	const head = "name: b\nsummary: s\ndescription: d\n"
	cases := []struct {
		name  string
		files map[string]string
		warn  []string // one warning must contain all of these
		check func(t *testing.T, c Charm)
	}{{
		name:  "syntax error keeps what comes before",
		files: map[string]string{MetadataFile: head + "requires:\n  db:\n    interface: mysql\n   bad: 1\nprovides:\n  web: {}\n"},
		warn:  []string{"metadata.yaml:7:", "read only the first 6 lines"},
		check: func(t *testing.T, c Charm) {
			if got := relNames(c); !slices.Equal(got, []string{"db"}) || c.Name != "b" {
				t.Errorf("name %q relations %v", c.Name, got)
			}
		},
	}, {
		name:  "unclosed flow mapping",
		files: map[string]string{MetadataFile: head + "requires:\n  db: {interface: mysql\n  other:\n    interface: x\n"},
		warn:  []string{"metadata.yaml:5:", "read only the first 4 lines"},
		check: func(t *testing.T, c Charm) {
			if c.Name != "b" || len(c.Relations) != 0 {
				t.Errorf("name %q relations %v", c.Name, relNames(c))
			}
		},
	}, {
		name:  "broken from line 1",
		files: map[string]string{ConfigFile: "\toptions: {}\n"},
		warn:  []string{"config.yaml:1:", "nothing read"},
	}, {
		name:  "empty options beside a misplaced option",
		files: map[string]string{CharmcraftFile: head + "config:\n  options:\n  port:\n    type: int\n"},
		warn:  []string{"charmcraft.yaml:5:", "options is empty, and the config has other keys beside it (port)"},
		check: func(t *testing.T, c Charm) {
			if c.Config != nil {
				t.Errorf("config %+v", c.Config)
			}
		},
	}, {
		name:  "action without body",
		files: map[string]string{CharmcraftFile: head + "actions:\n  pause:\n"},
		warn:  []string{"charmcraft.yaml:5:", `action pause is empty`},
		check: func(t *testing.T, c Charm) {
			if a := action(t, c, "pause"); a.Line != 5 {
				t.Errorf("pause = %+v", a)
			}
		},
	}, {
		name:  "endpoint without body",
		files: map[string]string{MetadataFile: head + "requires:\n  db:\n"},
		warn:  []string{"metadata.yaml:5:", "requires db: endpoint has no interface"},
		check: func(t *testing.T, c Charm) {
			if r := relation(t, c, "db"); r.Interface != "" || r.Line != 5 {
				t.Errorf("db = %+v", r)
			}
		},
	}, {
		name:  "endpoint mapping without interface",
		files: map[string]string{MetadataFile: head + "provides:\n  web:\n    limit: 1\n"},
		warn:  []string{"metadata.yaml:5:", "provides web: endpoint has no interface"},
	}, {
		name:  "top level is a list",
		files: map[string]string{MetadataFile: "- name: x\n- summary: y\n"},
		warn:  []string{"metadata.yaml:1:", "expected a mapping at the top level, got a list"},
	}, {
		name:  "top level is a scalar",
		files: map[string]string{ActionsFile: "just some text\n"},
		warn:  []string{"actions.yaml:1:", "expected a mapping at the top level"},
	}, {
		name:  "empty file",
		files: map[string]string{MetadataFile: "# nothing here\n"},
		warn:  []string{"metadata.yaml:1:", "file is empty"},
	}, {
		name:  "a null document is empty too",
		files: map[string]string{MetadataFile: "# nothing here\n~\n"},
		warn:  []string{"metadata.yaml:2:", "file is empty (null)"},
	}, {
		name:  "duplicate keys: the last one wins",
		files: map[string]string{MetadataFile: head + "requires:\n  db:\n    interface: mysql\n  db:\n    interface: postgresql_client\n"},
		warn:  []string{"metadata.yaml:5:", `duplicate key "db" (again on line 7)`},
		check: func(t *testing.T, c Charm) {
			if len(c.Relations) != 1 || c.Relations[0].Interface != "postgresql_client" || c.Relations[0].Line != 7 {
				t.Errorf("relations %+v", c.Relations)
			}
		},
	}, {
		name:  "billion laughs",
		files: map[string]string{MetadataFile: billionLaughs(head + "requires:\n  db: {interface: *l8}\n")},
		warn:  []string{"metadata.yaml:1:", "an alias counting as what it expands to) or 10000 aliases; not read"},
		check: func(t *testing.T, c Charm) {
			if c.Name != "" || c.Relations != nil {
				t.Errorf("a refused file was read: %+v", c)
			}
		},
	}, {
		name:  "billion laughs inside charmcraft config",
		files: map[string]string{CharmcraftFile: billionLaughs(head + "config:\n  options:\n    big:\n      default: *l8\n")},
		warn:  []string{"charmcraft.yaml:1:", "an alias counting as what it expands to) or 10000 aliases; not read"},
		check: func(t *testing.T, c Charm) {
			if c.Config != nil {
				t.Errorf("config %+v", c.Config)
			}
		},
	}, {
		name:  "alias cycle",
		files: map[string]string{MetadataFile: "name: &n [*n]\n"},
		warn:  []string{"metadata.yaml:1:", "not read"},
	}, {
		name: "wrong types",
		files: map[string]string{MetadataFile: head + `subordinate: maybe
requires:
  db:
    interface: mysql
    limit: lots
    optional: perhaps
    scope: galaxy
  cache: [redis]
provides: just-text
storage:
  data: 5
`},
		warn: []string{"metadata.yaml:4:", "subordinate: expected true or false"},
		check: func(t *testing.T, c Charm) {
			wantWarning(t, c, "metadata.yaml:8:", "requires db limit: expected an integer")
			wantWarning(t, c, "metadata.yaml:9:", "requires db optional: expected true or false")
			wantWarning(t, c, "metadata.yaml:10:", `scope "galaxy" is neither global nor container`)
			wantWarning(t, c, "metadata.yaml:11:", "requires cache: expected a mapping, got a list")
			wantWarning(t, c, "metadata.yaml:12:", "provides: expected a mapping")
			wantWarning(t, c, "metadata.yaml:14:", "storage data: expected a mapping")
			// juju rejects the file for the first of these, which is already said, with its line
			if slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "juju would reject") }) {
				t.Errorf("juju's rejection repeats a field already reported: %q", c.Warnings)
			}
			if got := relNames(c); !slices.Equal(got, []string{"db", "cache"}) || relation(t, c, "db").Interface != "mysql" {
				t.Errorf("relations %v", got)
			}
		},
	}, {
		name: "wrong types in config and actions",
		files: map[string]string{
			ConfigFile:  "options:\n  a: [1, 2]\n  b:\n    type: int\n    default: [1]\n    description: {x: y}\n",
			ActionsFile: "go:\n  params: [x]\n  required: 5\nstop:\n  params:\n    p: {type: {x: 1}}\n",
		},
		warn: []string{"config.yaml:2:", "option a: expected a mapping, got a list"},
		check: func(t *testing.T, c Charm) {
			wantWarning(t, c, "config.yaml:5:", "option b default: expected a single value")
			wantWarning(t, c, "config.yaml:6:", "option b description: expected text")
			wantWarning(t, c, "actions.yaml:2:", "action go params: expected a mapping")
			wantWarning(t, c, "actions.yaml:6:", "action stop param p type: expected text")
			if o := option(t, c, "b"); !o.HasDefault || o.Default != "" {
				t.Errorf("b = %+v", o)
			}
			if got := actNames(c); !slices.Equal(got, []string{"go", "stop"}) {
				t.Errorf("actions %v", got)
			}
			if a := action(t, c, "go"); !slices.Equal(a.Required, []string{"5"}) {
				t.Errorf("go = %+v", a)
			}
		},
	}, {
		name:  "second document",
		files: map[string]string{MetadataFile: head + "---\nname: other\n"},
		warn:  []string{"metadata.yaml:4:", "more than one YAML document"},
		check: func(t *testing.T, c Charm) {
			if c.Name != "b" {
				t.Errorf("name %q", c.Name)
			}
		},
	}, {
		name:  "non-scalar key",
		files: map[string]string{MetadataFile: head + "requires:\n  ? [a, b]\n  : {interface: x}\n  db: mysql\n"},
		warn:  []string{"metadata.yaml:5:", "key is a list, not a name"},
		check: func(t *testing.T, c Charm) {
			if got := relNames(c); !slices.Equal(got, []string{"db"}) {
				t.Errorf("relations %v", got)
			}
		},
	}, {
		name:  "metadata keys in charmcraft.yaml beside metadata.yaml",
		files: map[string]string{MetadataFile: head, CharmcraftFile: "type: charm\nrequires:\n  x: {interface: y}\n"},
		warn:  []string{"charmcraft.yaml:2:", "requires is ignored: metadata.yaml exists"},
		check: func(t *testing.T, c Charm) {
			if len(c.Relations) != 0 {
				t.Errorf("relations %v", relNames(c))
			}
		},
	}, {
		name:  "file too large",
		files: map[string]string{ConfigFile: "options:\n" + strings.Repeat("#", maxFileSize)},
		warn:  []string{"config.yaml:1:", "larger than"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse(files(".", tc.files))
			wantWarning(t, c, tc.warn...)
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}

func TestEmptyActions(t *testing.T) {
	// An empty actions.yaml declares no actions, as Juju reads it: no warning. An empty
	// config.yaml is a mistake Juju refuses.
	c := Parse(files(".", map[string]string{MetadataFile: "name: e\nsummary: s\ndescription: d\n", ActionsFile: "# none yet\n", ConfigFile: ""}))
	for _, w := range c.Warnings {
		if strings.Contains(w, ActionsFile) {
			t.Errorf("warning for an empty actions.yaml: %s", w)
		}
	}
	wantWarning(t, c, "config.yaml:1:", "file is empty")
	if len(c.Actions) != 0 || len(c.Incomplete) != 0 {
		t.Errorf("actions %v incomplete %v", c.Actions, c.Incomplete)
	}
}

func TestMergeKeys(t *testing.T) {
	cfg := `defaults: &str
  type: string
  default: none
options:
  a:
    <<: *str
    description: A.
  b:
    <<: *str
    default: other
`
	c := Parse(files(".", map[string]string{ConfigFile: cfg}))
	noWarnings(t, c)
	if a := option(t, c, "a"); a.Type != "string" || a.Default != "none" || a.Description != "A." {
		t.Errorf("a = %+v", a)
	}
	if b := option(t, c, "b"); b.Default != "other" {
		t.Errorf("b = %+v: an explicit key overrides a merged one", b)
	}
}

func TestJuju(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string // the whole warnings, in order; none for nil
	}{{
		name:  "meta missing summary and description: summary first",
		files: map[string]string{MetadataFile: "name: x\nprovides:\n  juju-web: {interface: http}\n"},
		want:  []string{"metadata.yaml: juju would reject: metadata: summary: expected string, got nothing"},
	}, {
		name:  "reserved endpoint names, several problems: each at its line, in YAML order",
		files: map[string]string{MetadataFile: "name: x\nsummary: s\ndescription: d\nprovides:\n  juju-web: {interface: http}\n  juju-db: {interface: db}\n"},
		want: []string{`metadata.yaml:5: juju would reject: charm "x" using a reserved relation name: "juju-web"`,
			`metadata.yaml:6: juju would reject: charm "x" using a reserved relation name: "juju-db"`},
	}, {
		name: "subordinate is checked with its requires",
		files: map[string]string{MetadataFile: `name: x
summary: s
description: d
subordinate: true
requires:
  host: {interface: juju-info, scope: container}
provides:
  juju-info: {interface: juju-info}
`},
		want: []string{`metadata.yaml:8: juju would reject: charm "x" using a reserved relation name: "juju-info"`},
	}, {
		name: "containers are checked with resources and storage",
		files: map[string]string{CharmcraftFile: `name: x
summary: s
description: d
containers:
  app: {resource: img, mounts: [{storage: data, location: /d}]}
resources:
  img: {type: oci-image}
storage:
  data: {type: filesystem, location: /d}
peers:
  juju-p: {interface: p}
`},
		want: []string{`charmcraft.yaml:11: juju would reject: charm "x" using a reserved relation name: "juju-p"`},
	}, {
		name:  "config: every bad option, at its line",
		files: map[string]string{ConfigFile: "options:\n  a:\n    type: integer\n  b:\n    type: float\n    default: nan-ish\n  c:\n    type: stringy\n"},
		want: []string{`config.yaml:2: juju would reject: invalid config: option "a" has unknown type "integer"`,
			`config.yaml:4: juju would reject: invalid config default: option "b" expected float, got "nan-ish"`,
			`config.yaml:7: juju would reject: invalid config: option "c" has unknown type "stringy"`},
	}, {
		name:  "config: keys beside options are not rejected for want of options",
		files: map[string]string{ConfigFile: "name: x\nprovides:\n  db: {interface: x}\noptions:\n  o: {type: int, default: ten}\n"},
		want:  []string{`config.yaml:5: juju would reject: invalid config default: option "o" expected int, got "ten"`},
	}, {
		name:  "config in charmcraft.yaml",
		files: map[string]string{CharmcraftFile: "name: x\nsummary: s\ndescription: d\nconfig:\n  options:\n    n:\n      type: int\n      default: ten\n"},
		want:  []string{`charmcraft.yaml:6: juju would reject: invalid config default: option "n" expected int, got "ten"`},
	}, {
		name:  "actions: every bad name",
		files: map[string]string{ActionsFile: "ok:\n  description: fine\nBad_Name:\n  description: x\njuju-run:\n  description: y\n"},
		want: []string{"actions.yaml:3: juju would reject: bad action name Bad_Name",
			`actions.yaml:5: juju would reject: cannot use action name juju-run: the "juju-" prefix is reserved`},
	}, {
		name: "unified charmcraft.yaml: each section's problems",
		files: map[string]string{CharmcraftFile: "name: x\nsummary: s\ndescription: d\nconfig:\n  options:\n    n:\n      type: int\n      default: ten\n" +
			"actions:\n  Bad_Name:\n    description: x\n"},
		want: []string{`charmcraft.yaml:6: juju would reject: invalid config default: option "n" expected int, got "ten"`,
			"charmcraft.yaml:10: juju would reject: bad action name Bad_Name"},
	}, {
		name:  "actions in charmcraft.yaml with an alias from outside the section",
		files: map[string]string{CharmcraftFile: "name: x\nsummary: s\ndescription: &d Does things.\nactions:\n  go:\n    description: *d\n"},
	}, {
		name:  "a field our reading already flags, with its line, is not reported again",
		files: map[string]string{MetadataFile: "name: [a, b]\nsummary: s\ndescription: d\nrequires:\n  db: [1, 2]\n"},
	}, {
		name: "a subordinate's container-scoped juju-info requirer is checked with subordinate: true",
		files: map[string]string{CharmcraftFile: `name: x
summary: s
description: d
subordinate: true
requires:
  juju-info: {interface: juju-info, scope: container}
provides:
`},
		want: []string{`charmcraft.yaml:7: juju would reject: metadata: provides: expected map, got nothing`},
	}, {
		name: "a null section is reported once, at its own line, not again at the key checked with it",
		files: map[string]string{CharmcraftFile: `name: x
summary: s
description: d
containers:
  app: {resource: img, mounts: [{storage: data, location: /d}]}
resources:
  img: {type: oci-image}
storage:
`},
		want: []string{`charmcraft.yaml:8: juju would reject: metadata: storage: expected map, got nothing`},
	}, {
		// rev91: Juju names either problem of the entry, by map order; and the containers
		// tried with storage failed the same way, at random, and were reported too
		name: "an entry with two problems: one message, the same every run, at the entry",
		files: map[string]string{MetadataFile: `name: x
summary: s
description: d
containers:
  app:
    resource: img
resources:
  img: {type: oci-image}
storage:
  data:
    type: tmpfs
    shared: maybe
`},
		want: []string{`metadata.yaml:10: juju would reject: metadata: storage.data.shared: expected bool, got text`},
	}, {
		// rev91: requires: tried without subordinate: also failed on juju-info, and each entry
		// alone lacked the container-scoped one: reported at subordinate:, requires: and the
		// entries at random
		name: "a subordinate's reserved name: at its entry only",
		files: map[string]string{MetadataFile: `name: x
summary: s
description: d
subordinate: true
requires:
  juju-info:
    interface: juju-info
    scope: container
  database:
    interface: db
  juju-db:
    interface: db
`},
		want: []string{`metadata.yaml:11: juju would reject: charm "x" using a reserved relation name: "juju-db"`},
	}, {
		// rev91: no piece fails alone, and the verdict on the whole had no line
		name: "a relation name in requires and peers: at the second",
		files: map[string]string{MetadataFile: `name: x
summary: s
description: d
requires:
  database:
    interface: db
peers:
  database:
    interface: p
`},
		want: []string{`metadata.yaml:8: juju would reject: charm "x" using a duplicated relation name: "database"`},
	}, {
		name:  "accepted",
		files: map[string]string{MetadataFile: splitMetadata, ConfigFile: splitConfig, ActionsFile: splitActions},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first := Parse(files(".", tc.files))
			var got []string
			for _, w := range first.Warnings {
				if strings.Contains(w, "juju") {
					got = append(got, w)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("juju warnings %q, want %q", got, tc.want)
			}
			// Juju iterates Go maps; the warning must not depend on their order.
			for range 20 {
				if again := Parse(files(".", tc.files)); !reflect.DeepEqual(again, first) {
					t.Fatalf("not deterministic:\n%q\n%q", again.Warnings, first.Warnings)
				}
			}
		})
	}
}

func TestIsCharm(t *testing.T) {
	for _, tc := range []struct {
		f    Files
		want bool
	}{
		{Files{Metadata: []byte{}}, true},
		{Files{Charmcraft: []byte("name: x\ntype: charm\n")}, true},
		{Files{Charmcraft: []byte("type: charm\nparts: {}\n")}, false},
		{Files{Charmcraft: []byte("name:\ntype: charm\n")}, false},
		{Files{Charmcraft: []byte("type: bundle\nname: [x]\n")}, false},
		{Files{Config: []byte("options: {}\n")}, false},
		{Files{Charmcraft: []byte("name: x\n: : broken")}, true},
	} {
		if got := tc.f.IsCharm(); got != tc.want {
			t.Errorf("IsCharm(%q) = %v, want %v", tc.f.Charmcraft, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p, text string) { t.Helper(); writeFile(t, root, p, text) }
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	write("metadata.yaml", splitMetadata)
	write("shared/config.yaml", splitConfig)
	link("shared/config.yaml", "config.yaml") // inside the root: followed
	write("k8s/charmcraft.yaml", unifiedCharmcraft)
	if err := os.WriteFile(filepath.Join(outside, "actions.yaml"), []byte(splitActions), 0o644); err != nil {
		t.Fatal(err)
	}
	link(filepath.Join(outside, "actions.yaml"), "k8s/actions.yaml") // leads out: not read
	write("build/charmcraft.yaml", buildOnly)
	link(outside, "escape")
	write("dirfile/metadata.yaml/x", "")

	c, ok, err := Load(root, ".")
	if err != nil || !ok {
		t.Fatalf("Load(.) = %v, %v", ok, err)
	}
	noWarnings(t, c)
	if o := option(t, c, "level"); o.File != "config.yaml" {
		t.Errorf("level = %+v", o)
	}
	if want := []string{"config.yaml", "metadata.yaml"}; !slices.Equal(c.Files, want) {
		t.Errorf("files %v, want %v", c.Files, want)
	}

	c, ok, err = Load(root, "k8s")
	if err != nil || !ok {
		t.Fatalf("Load(k8s) = %v, %v", ok, err)
	}
	wantWarning(t, c, "k8s/actions.yaml:1:", "symbolic link leads out of the root")
	if got := actNames(c); !slices.Equal(got, []string{"export", "reindex"}) {
		t.Errorf("actions %v: want charmcraft.yaml's, since actions.yaml was not read", got)
	}
	if r := relation(t, c, "database"); r.File != "k8s/charmcraft.yaml" {
		t.Errorf("database = %+v", r)
	}

	// A config.yaml that cannot be read (here a symbolic link loop) costs the config options,
	// not the charm.
	write("looped/metadata.yaml", splitMetadata)
	link("config.yaml", "looped/config.yaml")
	c, ok, err = Load(root, "looped")
	if err != nil || !ok {
		t.Fatalf("Load(looped) = %v, %v; want the charm", ok, err)
	}
	wantWarning(t, c, "looped/config.yaml:1:", "cannot read: ")
	if len(c.Relations) == 0 || len(c.Config) != 0 {
		t.Errorf("looped: %d relations, %d options; want metadata's relations and no options", len(c.Relations), len(c.Config))
	}
	for _, w := range c.Warnings {
		if strings.Contains(w, root) {
			t.Errorf("warning names the machine's path: %q", w)
		}
	}

	for _, dir := range []string{"build", "shared", "escape", "missing", "dirfile/metadata.yaml/x"} {
		if _, ok, err := Load(root, dir); ok || err != nil {
			t.Errorf("Load(%s) = %v, %v; want not a charm", dir, ok, err)
		}
	}
	// a charmcraft.yaml that YAML cannot read at all (one Latin-1 byte in a comment) still
	// marks a charm by its name line, and the problem is reported, not the charm lost
	write("latin/charmcraft.yaml", "# Ren\xe9\n"+unifiedCharmcraft)
	write("nameless/charmcraft.yaml", "# Ren\xe9\n"+buildOnly)
	if c, ok, err := Load(root, "latin"); !ok || err != nil || c.Name != "recipe-box" {
		t.Errorf("Load(latin) = %v, %v, name %q; want the charm", ok, err, c.Name)
	} else {
		wantWarning(t, c, "latin/charmcraft.yaml:1:", "UTF-8")
	}
	if _, ok, err := Load(root, "nameless"); ok || err != nil {
		t.Errorf("Load(nameless) = %v, %v; want not a charm", ok, err)
	}
	write("quoted/charmcraft.yaml", "# Ren\xe9\nname: \"quoted-app\"\ntype: charm\n")
	write("badname/charmcraft.yaml", "name: caf\xe9\ntype: charm\n") // no name to give it
	if c, ok, err := Load(root, "quoted"); !ok || err != nil || c.Name != "quoted-app" {
		t.Errorf("Load(quoted) = %v, %v, name %q", ok, err, c.Name)
	}
	if _, ok, err := Load(root, "badname"); ok || err != nil {
		t.Errorf("Load(badname) = %v, %v; want not a charm", ok, err)
	}
	// a charmcraft.yaml broken on its name line is still a charm's, with its problem, unnamed
	write("brokenname/charmcraft.yaml", "name: [my-charm\ntype: charm\n")
	write("brokenlater/charmcraft.yaml", "type: charm\nname: [my-charm\n")
	for _, dir := range []string{"brokenname", "brokenlater"} {
		if c, ok, err := Load(root, dir); !ok || err != nil || c.Name != "" || len(c.Warnings) == 0 {
			t.Errorf("Load(%s) = %v, %v, name %q, warnings %q", dir, ok, err, c.Name, c.Warnings)
		}
	}
	// a metadata.yaml that is not a file still marks a charm, whose declarations are lost
	if c, ok, err := Load(root, "dirfile"); !ok || err != nil || !slices.Equal(c.Incomplete, []string{"dirfile/metadata.yaml"}) || len(c.Warnings) != 1 {
		t.Errorf("Load(dirfile) = %v, %v, incomplete %q, warnings %q", ok, err, c.Incomplete, c.Warnings)
	}
	if _, _, err := Load(root, "../x"); err == nil {
		t.Error("Load(../x): want an error")
	}
	if _, ok, err := Load(filepath.Join(root, "nope"), "."); ok || err != nil {
		t.Errorf("missing root: %v, %v", ok, err)
	}
}

func TestDeterministic(t *testing.T) {
	f := files("d", map[string]string{
		CharmcraftFile: strings.Replace(unifiedCharmcraft, "platforms:", "extensions: [django-framework]\nplatforms:", 1),
		ActionsFile:    "Bad:\n  x: 1\njuju-y: {}\n",
	})
	first := Parse(f)
	for range 10 {
		if again := Parse(f); !reflect.DeepEqual(again, first) {
			t.Fatal("Parse is not deterministic")
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(splitMetadata), []byte(splitConfig), []byte(splitActions), []byte(unifiedCharmcraft), uint8(15))
	f.Add([]byte("requires: {db:}\n"), []byte("options:\n"), []byte("a: {params: {p: }}\n"), []byte("name: x\nextensions: [flask-framework]\n"), uint8(15))
	f.Add([]byte(billionLaughs("name: x\n")), []byte{}, []byte{}, []byte("a: &a [*a]\nconfig: *a\n"), uint8(9))
	f.Add([]byte("name: b\nrequires:\n  db:\n    interface: mysql\n   bad: 1\n"), []byte("options: {a: {<<: [{type: int}]}}"), []byte("- x"), []byte("\t"), uint8(7))
	f.Fuzz(func(t *testing.T, meta, cfg, acts, cc []byte, present uint8) {
		in := Files{Dir: "c"}
		for i, p := range []*[]byte{&in.Metadata, &in.Config, &in.Actions, &in.Charmcraft} {
			if present&(1<<i) != 0 {
				*p = []byte{}
				*p = append(*p, [][]byte{meta, cfg, acts, cc}[i]...)
			}
		}
		c := Parse(in)
		check := func(kind, name string, p Pos) {
			if p.Line < 1 || !strings.HasPrefix(p.File, "c/") {
				t.Fatalf("%s %q at %+v", kind, name, p)
			}
		}
		for _, r := range c.Relations {
			check("relation", r.Name, r.Pos)
		}
		for _, o := range c.Config {
			check("option", o.Name, o.Pos)
		}
		for _, a := range c.Actions {
			check("action", a.Name, a.Pos)
			for _, p := range a.Params {
				check("param", p.Name, p.Pos)
			}
		}
		for _, x := range c.Containers {
			check("container", x.Name, x.Pos)
		}
		for _, x := range c.Storage {
			check("storage", x.Name, x.Pos)
		}
		for _, x := range c.Resources {
			check("resource", x.Name, x.Pos)
		}
		for _, w := range c.Warnings {
			if strings.Contains(w, "\n") || !strings.HasPrefix(w, "c/") {
				t.Fatalf("bad warning %q", w)
			}
		}
		if again := Parse(in); !reflect.DeepEqual(again, c) {
			t.Fatalf("not deterministic:\n%+v\n%+v", c, again)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	f := files(".", map[string]string{MetadataFile: splitMetadata, ConfigFile: splitConfig, ActionsFile: splitActions, CharmcraftFile: unifiedCharmcraft})
	unified := files(".", map[string]string{CharmcraftFile: unifiedCharmcraft})
	b.Run("split", func(b *testing.B) {
		for b.Loop() {
			Parse(f)
		}
	})
	b.Run("unified", func(b *testing.B) {
		for b.Loop() {
			Parse(unified)
		}
	})
	// The share of juju/charm in the unified case: the three readers alone.
	cc := readDoc("charmcraft.yaml", unified.Charmcraft, new([]string))
	top := warner{warns: new([]string)}.entries(cc.root, "")
	cfg, _ := find(top, "config")
	acts, _ := find(top, "actions")
	cfgYAML, actsYAML := encode(expand(cfg.v)), encode(expand(acts.v))
	b.Run("juju-only", func(b *testing.B) {
		for b.Loop() {
			if jujuMeta.read(unified.Charmcraft) != nil || jujuConfig.read(cfgYAML) != nil || jujuActions("recipe-box").read(actsYAML) != nil {
				b.Fatal("rejected")
			}
		}
	})
}

func TestExplicitlyEmptyOptions(t *testing.T) {
	// `options: {}` says "no options" on purpose (charm templates write it), and so does a bare
	// `options:` alone (Juju reads it so; a bash charm's config.yaml): no warning.
	for _, cfg := range []string{"options: {}\n", "options:\n"} {
		c := Parse(files(".", map[string]string{MetadataFile: "name: demo\nsummary: s\ndescription: d\n", ConfigFile: cfg}))
		if len(c.Config) != 0 || len(c.Warnings) != 0 {
			t.Errorf("%q: config %+v warnings %q", cfg, c.Config, c.Warnings)
		}
	}
}

// TestPlainValues: juju/charm's schema errors print Go values; the warning says YAML's kind.
func TestPlainValues(t *testing.T) {
	for in, want := range map[string]string{
		`metadata: name: expected string, got []interface {}([]interface {}{"a", "b"})`:               "metadata: name: expected string, got a list",
		`metadata: requires.db: expected map, got map[string]interface {}(map[string]interface {}{})`: "metadata: requires.db: expected map, got a mapping",
		`metadata: subordinate: expected bool, got int(5)`:                                            "metadata: subordinate: expected bool, got a number",
		`metadata: summary: expected string, got nothing`:                                             "metadata: summary: expected string, got nothing",
	} {
		if got := plainValues(in); got != want {
			t.Errorf("plainValues(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWarningsDeterministicWithManyProblems: a file with several problems juju would reject
// gives the same warnings on every parse (juju's own first complaint follows its map order).
func TestWarningsDeterministicWithManyProblems(t *testing.T) {
	meta := "name: b\nsummary: s\ndescription: d\nsubordinate: maybe\nrequires:\n  db:\n    interface: mysql\n    limit: lots\n    optional: perhaps\n    scope: galaxy\n  cache: [redis]\nprovides: just-text\nstorage:\n  data: 5\n"
	first := Parse(files(".", map[string]string{MetadataFile: meta})).Warnings
	for range 50 {
		if again := Parse(files(".", map[string]string{MetadataFile: meta})).Warnings; !slices.Equal(again, first) {
			t.Fatalf("warnings differ between parses:\n%q\n%q", first, again)
		}
	}
}

func TestActionScripts(t *testing.T) {
	// An executable actions/<name> runs the action, also through a link to another script of
	// the charm; a file without the execute bit, a link to the charm's entry point or a hook
	// (an old ops charm's) or out of the charm, and an action without one have no script.
	root := t.TempDir()
	write := func(p, text string, mode os.FileMode) {
		t.Helper()
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("metadata.yaml", "name: demo\nsummary: s\ndescription: d\n", 0o644)
	write("actions.yaml", "flush:\n  description: f\nnotes:\n  description: n\nbackup:\n  description: b\nplain:\n  description: p\n"+
		"linked:\n  description: l\nhooked:\n  description: h\nout:\n  description: o\n", 0o644)
	write("actions/linked_script.py", "#!/usr/bin/env python3\n", 0o755)
	write("hooks/install", "#!/bin/sh\n", 0o755)
	for link, target := range map[string]string{"linked": "linked_script.py", "hooked": "../hooks/install", "out": "/bin/sh"} {
		if err := os.Symlink(target, filepath.Join(root, "actions", link)); err != nil {
			t.Fatal(err)
		}
	}
	write("src/charm.py", "#!/usr/bin/env python3\n", 0o755)
	write("actions/flush", "#!/bin/sh\nservice cache flush\n", 0o755)
	write("actions/notes", "not a script\n", 0o644)
	if err := os.Symlink("../src/charm.py", filepath.Join(root, "actions", "backup")); err != nil {
		t.Fatal(err)
	}
	c, ok, err := Load(root, ".")
	if err != nil || !ok {
		t.Fatalf("Load = %v, %v", ok, err)
	}
	var got []string
	for _, a := range c.Actions {
		got = append(got, a.Name+"="+a.Script)
	}
	// a link to another script inside the charm runs it; to a hook or out of the charm, not
	if want := []string{"flush=actions/flush", "notes=", "backup=", "plain=", "linked=actions/linked_script.py", "hooked=", "out="}; !slices.Equal(got, want) {
		t.Errorf("scripts %v, want %v", got, want)
	}
}

func TestMisspelledKeys(t *testing.T) {
	// Juju ignores a top-level key it does not know: one a letter or two from a section that
	// declares interfaces (or the same but for case) is reported where it is; other unknown
	// keys are a tool's own (x-*, services, two letters from the short "devices").
	meta := `name: probe
summary: s
description: d
providers:
  metrics:
    interface: prometheus_scrape
peer:
  replicas:
    interface: probe_peers
Requires:
  db:
    interface: pgsql
x-team-owner: telemetry
x-requires: {}
services: {}
docs: https://example.com/docs
`
	cc := "type: charm\naction:\n  run: {}\nREQUIRES: {}\noptions:\n  port: {type: int}\n"
	c := Parse(files(".", map[string]string{MetadataFile: meta, CharmcraftFile: cc}))
	want := []string{
		fmt.Sprintf(`metadata.yaml:%d: unknown key "providers" (did you mean "provides"?): Juju ignores it and everything under it`, lineOf(t, meta, "providers:")),
		fmt.Sprintf(`metadata.yaml:%d: unknown key "peer" (did you mean "peers"?): Juju ignores it and everything under it`, lineOf(t, meta, "peer:")),
		fmt.Sprintf(`metadata.yaml:%d: unknown key "Requires" (did you mean "requires"?): Juju ignores it and everything under it`, lineOf(t, meta, "Requires:")),
		`charmcraft.yaml:2: unknown key "action" (did you mean "actions"?): what it declares is not read`,
		`charmcraft.yaml:4: unknown key "REQUIRES" (did you mean "requires"?): what it declares is not read`,
		`charmcraft.yaml:5: unknown key "options" (config options go under "config:"): what it declares is not read`,
	}
	if !slices.Equal(c.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Relations) != 0 {
		t.Errorf("relations %+v: Juju reads none of them", c.Relations)
	}
	// the names written under them, which a report of code using one can point at
	var got []string
	for _, m := range c.Misfiled {
		got = append(got, fmt.Sprintf("%s:%d %s %s->%s", m.File, m.Line, m.Name, m.Key, m.Section))
	}
	wantMisfiled := []string{
		fmt.Sprintf("metadata.yaml:%d metrics providers->provides", lineOf(t, meta, "metrics:")),
		fmt.Sprintf("metadata.yaml:%d replicas peer->peers", lineOf(t, meta, "replicas:")),
		fmt.Sprintf("metadata.yaml:%d db Requires->requires", lineOf(t, meta, "db:")),
		"charmcraft.yaml:3 run action->actions",
		"charmcraft.yaml:6 port options->config",
	}
	if !slices.Equal(got, wantMisfiled) {
		t.Errorf("misfiled:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantMisfiled, "\n"))
	}
}

func TestMisspelledParamSchemaKeys(t *testing.T) {
	// JSON schema ignores a keyword it does not know: a parameter's key near one is reported
	// where it is, and the parameter has no type; other keys (x-*, a tool's own, OpenAPI's
	// example and nullable) are left alone.
	actions := `rotate:
  params:
    cidr:
      typoe: string
      description: the network
    count:
      type: integer
      defualt: 3
      x-hint: small
      widget: slider
      example: 2
      nullable: false
    mode:
      type: string
      enumerate: [system, cookie]
`
	c := Parse(files(".", map[string]string{MetadataFile: "name: probe\nsummary: s\ndescription: d\n", ActionsFile: actions}))
	want := []string{
		`actions.yaml:4: action rotate param cidr: unknown key "typoe" (did you mean "type"?): Juju ignores it`,
		`actions.yaml:8: action rotate param count: unknown key "defualt" (did you mean "default"?): Juju ignores it`,
		`actions.yaml:15: action rotate param mode: unknown key "enumerate" (did you mean "enum"?): Juju ignores it`,
	}
	if !slices.Equal(c.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Actions) != 1 || len(c.Actions[0].Params) != 3 || c.Actions[0].Params[0].Type != "" || c.Actions[0].Params[1].Type != "integer" {
		t.Errorf("actions %+v", c.Actions)
	}
}

func TestMisspelledActionParamsKey(t *testing.T) {
	// An action's parameters under a key Juju does not read (`parameters:`, `parms:`) are not
	// declared: the key is reported, and the action has no parameters; keys Juju reads, JSON
	// schema keywords and x-* keys are left alone.
	actions := `get-summary:
  description: d
  parameters:
    output: {type: string}
rotate:
  parms:
    cidr: {type: string}
backup:
  params:
    to: {type: string}
  additionalProperties: false
  execution-group: g
  x-note: n
`
	c := Parse(files(".", map[string]string{MetadataFile: "name: probe\nsummary: s\ndescription: d\n", ActionsFile: actions}))
	want := []string{
		`actions.yaml:3: action get-summary: unknown key "parameters" (did you mean "params"?): Juju ignores it, and the parameters under it are not declared`,
		`actions.yaml:6: action rotate: unknown key "parms" (did you mean "params"?): Juju ignores it, and the parameters under it are not declared`,
	}
	if !slices.Equal(c.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Actions) != 3 || len(c.Actions[0].Params) != 0 || len(c.Actions[2].Params) != 1 {
		t.Errorf("actions %+v", c.Actions)
	}
}

func TestMisspelledKeyKeepsJujuVerdict(t *testing.T) {
	// A near-miss key is reported after Juju has read the sections, so that its warning does
	// not hold back Juju's own on the same file.
	cc := "name: n\nsummary: s\ndescription: d\nproviders:\n  m: {interface: x}\nconfig:\n  options:\n    port:\n      type: integr\n"
	c := Parse(files(".", map[string]string{CharmcraftFile: cc}))
	var juju, near bool
	for _, w := range c.Warnings {
		juju = juju || strings.Contains(w, "juju would reject")
		near = near || strings.Contains(w, `unknown key "providers"`)
	}
	if !juju || !near {
		t.Errorf("warnings %q: want Juju's rejection of the option's type and the near-miss key", c.Warnings)
	}
}

func TestLayerIncludes(t *testing.T) {
	// A reactive charm's layer.yaml names the layers `charm build` merges in: Load reads its
	// includes, with their lines, quietly (a broken layer.yaml is a build file's problem, not
	// a declaration's), and lists the file with the charm's YAML.
	root := t.TempDir()
	for name, text := range map[string]string{
		"src/metadata.yaml":     "name: lb\nsummary: s\ndescription: d\n",
		"src/layer.yaml":        "repo: https://github.com/example/bundle-kubeflow.git\nincludes:\n  - layer:openstack-api\n  - interface:keystone\n  - 7\noptions:\n  basic:\n    use_venv: true\n",
		"old/metadata.yaml":     "name: old\nsummary: s\ndescription: d\n",
		"old/layer.yaml":        "includes: [layer:basic\n",
		"built/metadata.yaml":   "name: built\nsummary: s\ndescription: d\n",
		"built/layer.yaml":      "includes:\n  - layer:openstack-api\n",
		"built/.build.manifest": "{}\n",
	} {
		writeFile(t, root, name, text)
	}
	c, ok, err := LoadSkipping(root, "src", nil)
	want := []Layer{{Name: "layer:openstack-api", Pos: Pos{File: "src/layer.yaml", Line: 3}}, {Name: "interface:keystone", Pos: Pos{File: "src/layer.yaml", Line: 4}}}
	if err != nil || !ok || !slices.Equal(c.Layers, want) || len(c.Warnings) != 0 {
		t.Errorf("src: layers %+v warnings %q ok %v err %v", c.Layers, c.Warnings, ok, err)
	}
	if !slices.Contains(c.Files, "src/layer.yaml") {
		t.Errorf("files %v: no layer.yaml", c.Files)
	}
	// its words are what it holds, not its keys or its repository's address
	if ws := c.Words["src/layer.yaml"]; !slices.Contains(ws, "keystone") || !slices.Contains(ws, "use_venv") || slices.Contains(ws, "bundle") || slices.Contains(ws, "github") || slices.Contains(ws, "includes") || slices.Contains(ws, "options") {
		t.Errorf("words %v", ws)
	}
	c, _, _ = LoadSkipping(root, "old", nil)
	if c.Layers != nil || len(c.Warnings) != 0 {
		t.Errorf("old: layers %v warnings %q", c.Layers, c.Warnings)
	}
	// a charm charm build has built holds the merged YAML already
	if c, _, _ = LoadSkipping(root, "built", nil); c.Layers != nil {
		t.Errorf("built: layers %v", c.Layers)
	}
}

func TestLayerFolder(t *testing.T) {
	// A reactive layer's repository: a layer.yaml, its config.yaml or actions.yaml, and no
	// metadata.yaml naming a charm. Its options and actions are read, marked as a layer's;
	// Juju's check of a nameless metadata.yaml (a layer's partial one) is not made.
	root := t.TempDir()
	for name, text := range map[string]string{
		"cuda/layer.yaml":     "includes: ['layer:basic']\n",
		"cuda/config.yaml":    "options:\n  cuda-version:\n    type: string\n    default: '9.1'\n    description: d\n",
		"kv/layer.yaml":       "includes: ['layer:basic']\n",
		"kv/metadata.yaml":    "requires:\n  vault-kv:\n    interface: vault-kv\n",
		"kv/actions.yaml":     "rotate:\n  description: d\n",
		"tmpl/config.yaml":    "options:\n  a:\n    type: string\n",
		"lone/layer.yaml":     "includes: ['layer:basic']\n",
		"charm/layer.yaml":    "includes: ['layer:basic']\n",
		"charm/metadata.yaml": "name: real\nsummary: s\ndescription: d\n",
		"charm/config.yaml":   "options:\n  a:\n    type: string\n",
	} {
		writeFile(t, root, name, text)
	}
	c, ok, err := LoadSkipping(root, "cuda", nil)
	if err != nil || !ok || !c.Layer || c.Name != "" || len(c.Config) != 1 || len(c.Warnings) != 0 {
		t.Errorf("cuda: ok %v err %v %+v", ok, err, c)
	}
	c, ok, err = LoadSkipping(root, "kv", nil)
	if err != nil || !ok || !c.Layer || len(c.Relations) != 1 || len(c.Actions) != 1 || len(c.Warnings) != 0 {
		t.Errorf("kv: ok %v err %v %+v", ok, err, c)
	}
	// a config.yaml alone (a template), a layer.yaml alone: nothing to read
	for _, dir := range []string{"tmpl", "lone"} {
		if _, ok, err := LoadSkipping(root, dir, nil); ok || err != nil {
			t.Errorf("%s: ok %v err %v", dir, ok, err)
		}
	}
	if c, ok, _ := LoadSkipping(root, "charm", nil); !ok || c.Layer || c.Name != "real" {
		t.Errorf("charm: %+v", c)
	}
}

func TestMisnamedDeclarationFiles(t *testing.T) {
	// A file named like a missing declaration file is ignored by Juju and charmcraft: a
	// warning says so. Not when the real file is there, not a GitHub action's action.yml,
	// not a name two edits away, not a file an ignore file leaves out.
	root := t.TempDir()
	for name, text := range map[string]string{
		"a/layer.yaml":     "includes: ['layer:basic']\n",
		"a/config.yaml":    "options: {}\n",
		"a/metdata.yaml":   "name: logstash\n",
		"a/action.yml":     "runs: {}\n",
		"a/conf.yaml":      "x: 1\n",
		"b/metadata.yaml":  "name: b\nsummary: s\ndescription: d\n",
		"b/config.yml":     "options: {}\n",
		"b/metadata.yml":   "name: old\n",
		"b/charmcraf.yaml": "type: charm\n",
		"b/actons.yaml":    "x: {}\n",
	} {
		writeFile(t, root, name, text)
	}
	c, ok, err := LoadSkipping(root, "a", nil)
	if err != nil || !ok || len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], "a/metdata.yaml:1: named like metadata.yaml, which is missing") {
		t.Errorf("a: ok %v err %v warnings %q", ok, err, c.Warnings)
	}
	c, _, _ = LoadSkipping(root, "b", func(rel string) bool { return rel == "b/actons.yaml" })
	var got []string
	for _, w := range c.Warnings {
		if strings.Contains(w, "named like") {
			got = append(got, w[:strings.Index(w, ":")])
		}
	}
	if !slices.Equal(got, []string{"b/charmcraf.yaml", "b/config.yml"}) {
		t.Errorf("b: warnings %q", c.Warnings)
	}
}

// writeFile writes text to rel (slash-separated) under root, making its folders.
func writeFile(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBuildSources(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want []string
	}{
		{"parts:\n  charm:\n    source: src/\n    plugin: reactive\n", []string{"src"}},
		{"parts:\n  charm:\n    source: .\n    source-subdir: src\n", []string{"src"}},
		{"parts:\n  charm:\n    source-subdir: ./layer/\n", []string{"layer"}},
		{"parts:\n  charm:\n    plugin: charm\n", nil},                                // builds the folder itself
		{"parts:\n  a:\n    source: https://x/y.git\n  b:\n    source: ../up\n", nil}, // remote, out of the folder
		{"parts:\n  a:\n    source: b\n  c:\n    source: a\n  d:\n    source: a/\n", []string{"a", "b"}},
		{"parts: [broken\n", nil},
		{"parts:\n  a:\n    source: [x]\n  b:\n    source: src\n  c: 3\n", []string{"src"}}, // a bad part spoils only itself
	} {
		if got := BuildSources([]byte(tc.yaml)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("BuildSources(%q) = %q, want %q", tc.yaml, got, tc.want)
		}
	}
}

// A project's build file read for the charm below it (Files.CharmcraftPath) is named by its
// own path, and a section it repeats names the charm's own file by its path too.
func TestBuildFileOfAnotherFolder(t *testing.T) {
	c := Parse(Files{Dir: "src", Metadata: []byte("name: demo\n"), Config: []byte("options: {}\n"),
		Charmcraft: []byte("type: charm\nconfig:\n  options: {}\nparts:\n  charm:\n    source: src\n"), CharmcraftPath: "charmcraft.yaml"})
	if len(c.Parts) != 1 || c.Parts[0].File != "charmcraft.yaml" || !slices.Contains(c.Files, "charmcraft.yaml") {
		t.Errorf("parts %+v, files %q", c.Parts, c.Files)
	}
	if !slices.Contains(c.Warnings, "charmcraft.yaml:2: config is ignored: src/config.yaml exists") {
		t.Errorf("warnings %q", c.Warnings)
	}
}

func TestNameAt(t *testing.T) {
	// Where the name is declared: metadata.yaml's name:, charmcraft.yaml's when metadata.yaml
	// has none, and the name: line of a file that could not be parsed.
	c := Parse(files("ch", map[string]string{MetadataFile: "summary: s\n", CharmcraftFile: "type: charm\nname: demo\n"}))
	if c.Name != "demo" || c.NameAt != (Pos{"ch/charmcraft.yaml", 2}) {
		t.Errorf("from charmcraft.yaml: %q at %+v", c.Name, c.NameAt)
	}
	root := t.TempDir()
	writeFile(t, root, "broken/metadata.yaml", "# c\n\tbroken: [\nname: broken\n")
	c, ok, err := Load(root, "broken")
	if err != nil || !ok || c.Name != "broken" || c.NameAt != (Pos{"broken/metadata.yaml", 3}) {
		t.Errorf("unreadable: %q at %+v (%v, %v)", c.Name, c.NameAt, ok, err)
	}
}

func TestJujuLargeConfigAtItsLine(t *testing.T) {
	// A config.yaml too large to narrow within the budget: Juju's rejection is still reported
	// at the option it names, not at the value it quotes last (review rev104: "enabled").
	var b strings.Builder
	b.WriteString("options:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "  opt-%d:\n    type: string\n    default: value %d\n    description: an option of the test, long enough to make the file large\n", i, i)
	}
	b.WriteString("  prefer-ipv6:\n    type: boolean\n    default: \"enabled\"\n")
	line := 2 + 400*4
	c := Parse(Files{Dir: ".", Config: []byte(b.String())})
	want := fmt.Sprintf(`config.yaml:%d: juju would reject: invalid config default: option "prefer-ipv6" expected boolean, got "enabled"`, line)
	if len(b.String()) < 32<<10 || !slices.Contains(c.Warnings, want) {
		t.Errorf("%d bytes: warnings %q, want %q", len(b.String()), c.Warnings, want)
	}
}
