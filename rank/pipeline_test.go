package rank

import (
	"slices"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// parsedCharm runs the real earlier stages on a small unified-YAML charm written inline.
func parsedCharm() Input {
	sources := map[string]string{
		"src/charm.py": `import ops
from charms.pg_lib.v0.client import DatabaseRequires
from workload import Workload, render_settings

class ShopCharm(ops.CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        self.db = DatabaseRequires(self, relation_name="database")
        self.workload = Workload(self)
        self.framework.observe(self.on.config_changed, self._on_config_changed)
        self.framework.observe(self.db.on.database_created, self._on_database_created)
        self.framework.observe(self.on.shop_pebble_ready, self._on_pebble_ready)

    def _on_config_changed(self, event):
        self.workload.configure(render_settings(self.config["log-level"]))

    def _on_database_created(self, event):
        self.workload.restart()

    def _on_pebble_ready(self, event):
        self.workload.restart()

if __name__ == "__main__":
    ops.main(ShopCharm)
`,
		"src/workload.py": `class Workload:
    def __init__(self, charm):
        self.charm = charm

    def configure(self, settings: dict) -> None:
        pass

    def restart(self) -> None:
        pass

def render_settings(level: str) -> dict:
    return {"level": level}
`,
		"lib/charms/pg_lib/v0/client.py": `from ops.framework import Object

class DatabaseRequires(Object):
    def __init__(self, charm, relation_name: str = "database"):
        super().__init__(charm, relation_name)

    def fetch_relation_data(self) -> dict:
        return {}

    def is_resource_created(self) -> bool:
        return False
`,
		"tests/unit/test_charm.py": `from charm import ShopCharm

def test_config_changed():
    harness = ShopCharm
`,
	}
	yaml := `name: shop
type: charm
requires:
  database:
    interface: postgresql_client
containers:
  shop:
    resource: shop-image
config:
  options:
    log-level:
      type: string
      default: info
`
	ch := charmyaml.Parse(charmyaml.Files{Dir: ".", Charmcraft: []byte(yaml)})
	var files []pyextract.File
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range sources {
			if !yield(p) {
				return
			}
		}
	}) {
		files = append(files, pyextract.Parse(p, []byte(sources[p])))
	}
	charms := []charmyaml.Charm{ch}
	return Input{Files: files, Charms: charms, Links: linker.Link(linker.Input{Charms: charms, Files: files})}
}

func TestParsedCharm(t *testing.T) {
	r := Rank(parsedCharm())
	if got := paths(r); got[0] != "src/charm.py" || position(r, "src/workload.py") > position(r, "lib/charms/pg_lib/v0/client.py") ||
		position(r, "tests/unit/test_charm.py") != len(got)-1 {
		t.Errorf("order: %v", got)
	}
	yml := fileOf(t, r, "charmcraft.yaml")
	var sigs []string
	for _, s := range yml.Symbols {
		sigs = append(sigs, s.Signature)
		if s.Name == "database" && !slices.Contains(s.Links, "ShopCharm._on_database_created") {
			t.Errorf("database relation links = %v", s.Links)
		}
	}
	for _, want := range []string{"[relation] database (requires postgresql_client)", `[config] log-level (string, default "info")`,
		"[container] shop (resource shop-image)"} {
		if !slices.Contains(sigs, want) {
			t.Errorf("charmcraft.yaml lacks %q: %q", want, sigs)
		}
	}
	wl := fileOf(t, r, "src/workload.py").Symbols
	if wl[0].Name != "Workload" || wl[len(wl)-1].Name == "Workload.restart" {
		t.Errorf("workload symbols: %+v", wl)
	}
	in := parsedCharm()
	in.Mentions = []string{"restart the workload after render_settings"}
	if r := Rank(in); !hasSignal(fileOf(t, r, "src/workload.py"), SigMentionIdent) {
		t.Errorf("mention of render_settings: %+v", fileOf(t, r, "src/workload.py").Signals)
	}
}
