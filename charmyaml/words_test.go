package charmyaml

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestTextWords(t *testing.T) {
	data := []byte("parts:\n  charm:\n    plugin: uv  # renovate: charmcraft-uv-latest\n    build-snaps: [astral-uv]\n" +
		"options:\n  log_level:\n    default: 8080\n    description: Log level, e.g. \"debug\" (v2)\n")
	want := []string{"parts", "charm", "plugin", "uv", "renovate", "charmcraft", "latest", "build", "snaps", "astral",
		"options", "log_level", "default", "8080", "description", "Log", "level", "debug", "v2"}
	if got := textWords(data); !slices.Equal(got, want) {
		t.Errorf("textWords:\n got %q\nwant %q", got, want)
	}
	many := strings.Repeat("w", 1)
	var b strings.Builder
	for k := range MaxFileWords + 10 {
		b.WriteString(many)
		b.WriteString(strings.Repeat("x", k%7+1))
		b.WriteString(string(rune('a' + k%26)))
		b.WriteString(strings.Repeat("y", k/26+1))
		b.WriteString(" ")
	}
	if got := textWords([]byte(b.String())); len(got) != MaxFileWords {
		t.Errorf("cap: %d words, want %d", len(got), MaxFileWords)
	}
}

func TestParseKeepsWordsPerFile(t *testing.T) {
	c := Parse(Files{Dir: "charm", Metadata: []byte("name: demo\nrequires:\n  db:\n    interface: pg\n"),
		Charmcraft: []byte("type: charm\nparts:\n  charm:\n    plugin: uv\n")})
	if got := c.Words["charm/charmcraft.yaml"]; !slices.Contains(got, "uv") || slices.Contains(got, "pg") {
		t.Errorf("charmcraft.yaml words %q", got)
	}
	if got := c.Words["charm/metadata.yaml"]; !slices.Contains(got, "pg") {
		t.Errorf("metadata.yaml words %q", got)
	}
}

func TestParts(t *testing.T) {
	c := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\ntype: charm\nparts:\n  charm:\n    plugin: uv\n    build-snaps: [astral-uv]\n" +
		"  files:\n    plugin: dump\n    source: https://x.example/v1.2/t.tgz\n  odd: [1, 2]\n  anchored: &a\n    plugin: *x\n")})
	want := []Part{
		{Name: "charm", Plugin: "uv", Pos: Pos{File: "charmcraft.yaml", Line: 4}},
		{Name: "files", Plugin: "dump", Source: "https://x.example/v1.2/t.tgz", Pos: Pos{File: "charmcraft.yaml", Line: 7}},
		{Name: "odd", Pos: Pos{File: "charmcraft.yaml", Line: 10}},
		{Name: "anchored", Pos: Pos{File: "charmcraft.yaml", Line: 11}},
	}
	if got := c.Parts[0].Words; !slices.Equal(got, []string{"plugin", "uv", "build", "snaps", "astral"}) {
		t.Errorf("part charm words %q", got)
	}
	for k := range c.Parts {
		c.Parts[k].Words = nil
	}
	if !reflect.DeepEqual(c.Parts, want) {
		t.Errorf("parts:\n got %+v\nwant %+v", c.Parts, want)
	}
	// Build parts are charmcraft's business: an odd shape is no warning.
	base := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\n")}).Warnings
	if got := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\nparts: [a, b]\n")}).Warnings; !slices.Equal(got, base) {
		t.Errorf("parts as a list: warnings %q, want %q", got, base)
	}
}

func TestCharmLibsAndUpstreamSource(t *testing.T) {
	c := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\ntype: charm\n" +
		"resources:\n  app-image:\n    type: oci-image\n    upstream-source: ghcr.io/canonical/demo:1.2\n" +
		"charm-libs:\n  - lib: tls_certificates_interface.tls_certificates\n    version: \"4\"\n  - odd\n  - lib: tempo_coordinator_k8s.tracing\n")})
	want := []CharmLib{
		{Lib: "tls_certificates_interface.tls_certificates", Version: "4", Pos: Pos{File: "charmcraft.yaml", Line: 8}},
		{Lib: "tempo_coordinator_k8s.tracing", Pos: Pos{File: "charmcraft.yaml", Line: 11}},
	}
	if !reflect.DeepEqual(c.CharmLibs, want) {
		t.Errorf("charm-libs:\n got %+v\nwant %+v", c.CharmLibs, want)
	}
	if len(c.Resources) != 1 || c.Resources[0].UpstreamSource != "ghcr.io/canonical/demo:1.2" {
		t.Errorf("resources %+v", c.Resources)
	}
	base := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\n")}).Warnings
	if got := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\ncharm-libs: {a: 1}\n")}).Warnings; !slices.Equal(got, base) {
		t.Errorf("charm-libs as a mapping: warnings %q, want %q", got, base)
	}
}

func TestActionPropertiesAreParams(t *testing.T) {
	// Juju copies an action's top-level `properties:` into its schema: they are its params.
	c := Parse(Files{Dir: ".", Metadata: []byte("name: demo\n"), Actions: []byte(
		"register:\n  properties:\n    username:\n      type: string\n    admin:\n      type: boolean\n" +
			"both:\n  params:\n    a: {type: string}\n  properties:\n    b: {type: string}\n")})
	got := map[string][]string{}
	for _, a := range c.Actions {
		for _, p := range a.Params {
			got[a.Name] = append(got[a.Name], p.Name+":"+p.Type)
		}
	}
	if !slices.Equal(got["register"], []string{"username:string", "admin:boolean"}) || !slices.Equal(got["both"], []string{"a:string"}) {
		t.Errorf("params %v", got)
	}
}

func TestBases(t *testing.T) {
	cc := func(body string) []Base {
		t.Helper()
		return Parse(Files{Dir: ".", Metadata: []byte("name: demo\n"), Charmcraft: []byte(body)}).Bases
	}
	pos := func(line int) Pos { return Pos{File: "charmcraft.yaml", Line: line} }
	cases := []struct {
		name, body string
		want       []Base
	}{
		{"run-on entries merge by base", "type: charm\nbases:\n  - build-on:\n    - name: ubuntu\n      channel: \"22.04\"\n" +
			"    run-on:\n    - name: ubuntu\n      channel: \"22.04\"\n      architectures: [amd64, arm64]\n" +
			"    - name: ubuntu\n      channel: \"20.04\"\n      architectures: [all]\n" +
			"  - build-on:\n    - name: ubuntu\n      channel: \"22.04\"\n    run-on:\n    - name: ubuntu\n      channel: \"22.04\"\n      architectures: [s390x, arm64]\n",
			[]Base{{Name: "ubuntu@22.04", Archs: []string{"amd64", "arm64", "s390x"}, Pos: pos(7)}, {Name: "ubuntu@20.04", Archs: []string{"all"}, Pos: pos(10)}}},
		{"short form and build-on alone", "bases:\n  - name: ubuntu\n    channel: \"24.04\"\n  - build-on:\n    - name: centos\n      channel: \"7\"\n",
			[]Base{{Name: "ubuntu@24.04", Pos: pos(2)}, {Name: "centos@7", Pos: pos(5)}}},
		{"base and platforms", "base: ubuntu@24.04\nbuild-base: ubuntu@24.04\nplatforms:\n  amd64:\n  arm64:\n",
			[]Base{{Name: "ubuntu@24.04", Archs: []string{"amd64", "arm64"}, Pos: pos(1)}}},
		{"platforms that name their base", "platforms:\n  ubuntu@22.04:amd64:\n  jammy-arm:\n    build-on: [ubuntu@22.04:arm64]\n    build-for: [ubuntu@22.04:arm64]\n  ubuntu@24.04:amd64:\n",
			[]Base{{Name: "ubuntu@22.04", Archs: []string{"amd64", "arm64"}, Pos: pos(2)}, {Name: "ubuntu@24.04", Archs: []string{"amd64"}, Pos: pos(6)}}},
		{"odd shapes are skipped", "bases: ubuntu\nplatforms: [amd64]\n", nil},
		{"no bases", "type: charm\nparts:\n  charm:\n    plugin: charm\n", nil},
	}
	for _, tc := range cases {
		if got := cc(tc.body); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	// Bases are charmcraft's business, as parts are: an odd shape is no warning.
	base := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\n")}).Warnings
	if got := Parse(Files{Dir: ".", Charmcraft: []byte("name: demo\nbases: [1, [2]]\nplatforms: {amd64: [x]}\n")}).Warnings; !slices.Equal(got, base) {
		t.Errorf("odd bases: warnings %q, want %q", got, base)
	}
}

func TestMetadataSeries(t *testing.T) {
	// an older charm's metadata series are bases named as written, at their lines, before
	// charmcraft.yaml's own
	meta := "name: demo\nsummary: s\ndescription: d\nseries:\n  - xenial\n  - bionic\n  - xenial\n"
	got := Parse(Files{Dir: ".", Metadata: []byte(meta), Charmcraft: []byte("bases:\n  - name: ubuntu\n    channel: \"22.04\"\n")}).Bases
	md := func(name string, line int) Base { return Base{Name: name, Pos: Pos{File: "metadata.yaml", Line: line}} }
	want := []Base{md("xenial", 5), md("bionic", 6), {Name: "ubuntu@22.04", Pos: Pos{File: "charmcraft.yaml", Line: 2}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("series:\n got %+v\nwant %+v", got, want)
	}
	// one series as a scalar; an odd entry is skipped
	if got := Parse(Files{Dir: ".", Metadata: []byte("name: demo\nseries: focal\n")}).Bases; !reflect.DeepEqual(got, []Base{md("focal", 2)}) {
		t.Errorf("scalar series: %+v", got)
	}
	if got := Parse(Files{Dir: ".", Metadata: []byte("name: demo\nseries: [[a], {b: c}, '', 'x y']\n")}).Bases; len(got) != 0 {
		t.Errorf("odd series: %+v", got)
	}
}

func TestNameLine(t *testing.T) {
	// the name of a charm whose YAML does not parse: a name-like value alone on its line
	for body, want := range map[string]string{
		"name: demo\n": "demo", "name: 'my-charm' # the charm\n": "my-charm", "x: 1\nname: \"db_2.k8s\"\r\n": "db_2.k8s",
		"name: [unclosed\n": "", "name: 'half\n": "", "name: a b\n": "", "  name: nested\n": "",
		"name: [x\nname: other\n": "", "name: demo#x\n": "", "name:demo\n": "", "name: 'null'\n": "null", "name: null\n": "",
		"name: true\n": "", "name: 1.0\n": "", "name: 'true'\n": "true", "name: No\n": "",
	} {
		if got, line := nameLine([]byte(body)); got != want || (want != "") != (line > 0) {
			t.Errorf("nameLine(%q) = %q, %d, want %q", body, got, line, want)
		}
	}
	if got, line := nameLine([]byte("# c\n\tbroken: [\nname: broken\n")); got != "broken" || line != 3 {
		t.Errorf("name on line 3: %q at %d", got, line)
	}
}

func TestNullNameIsNoName(t *testing.T) {
	// `name: ~` is YAML's null: the charm has no name, not one called "~".
	for _, body := range []string{"name: ~\n", "name: null\n", "name:\n"} {
		if c := Parse(Files{Dir: ".", Metadata: []byte(body)}); c.Name != "" {
			t.Errorf("%q: name %q", body, c.Name)
		}
		if got, _ := nameLine([]byte(body)); got != "" {
			t.Errorf("%q: nameLine %q", body, got)
		}
	}
}

func TestMaintainersAreNotWords(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{MetadataFile, "name: demo\nmaintainer: James Page <james.page@ubuntu.com>\ndescription: |\n  Block storage.\n"},
		{MetadataFile, "name: demo\nmaintainers:\n  - James Page <james.page@ubuntu.com>\n\n  - Camille Rodriguez\ndescription: Block storage.\n"},
		{CharmcraftFile, "name: demo\nmaintainers: [James Page]\ndescription: Block storage.\n"},
	} {
		got := textWords(withoutMaintainers(tc.name, []byte(tc.data)))
		if slices.ContainsFunc(got, func(w string) bool { return w == "James" || w == "Page" || w == "Camille" || w == "ubuntu" }) ||
			!slices.Contains(got, "storage") || !slices.ContainsFunc(got, func(w string) bool { return strings.HasPrefix(w, "maintainer") }) {
			t.Errorf("%s %q: words %q", tc.name, tc.data, got)
		}
	}
	// another file's, and a maintainer key below the top level, are its words
	if got := textWords(withoutMaintainers(ConfigFile, []byte("options:\n  maintainer:\n    default: James Page\n"))); !slices.Contains(got, "James") {
		t.Errorf("config.yaml words %q", got)
	}
	if got := textWords(withoutMaintainers(MetadataFile, []byte("name: demo\nlinks:\n  maintainer: James Page\n"))); !slices.Contains(got, "James") {
		t.Errorf("nested key: words %q", got)
	}
}
