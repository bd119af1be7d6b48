package linker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

// BenchmarkDeadChain links a charm with a dead chain of 1,500 methods, each defined before
// the one calling it, beside 150 small modules (review rev118): liveness must flow once
// through the chain, not pass over every helper once per link of it (8.3 s before, on the
// tool's check of the same tree).
func BenchmarkDeadChain(b *testing.B) {
	var chain strings.Builder
	chain.WriteString("import ops\n\nclass C(ops.CharmBase):\n    def __init__(self, framework):\n        super().__init__(framework)\n\n")
	chain.WriteString("    def f0(self):\n        return self.config['prot']\n\n")
	for i := 1; i < 1500; i++ {
		fmt.Fprintf(&chain, "    def f%d(self):\n        return self.f%d()\n\n", i, i-1)
	}
	in := files{"src/charm.py": chain.String()}
	for i := range 150 {
		in[fmt.Sprintf("src/m%d.py", i)] = fmt.Sprintf("def g%d(x):\n    return x\n", i)
	}
	parsed := in.parse()
	c := charm("demo", ".", "config:port")
	for b.Loop() {
		res := Link(Input{Charms: []charmyaml.Charm{c}, Files: parsed})
		if f := res.Charms[0].Findings; len(f) != 1 || !f[0].DeadCallers {
			b.Fatalf("findings: %+v", res.Charms[0].Findings)
		}
	}
}
