package synth

import (
	"fmt"
	"strings"
)

// writeYAML writes the charm's declarations, split over metadata/config/actions.yaml with a
// build-only charmcraft.yaml, or all in charmcraft.yaml.
func (g *gen) writeYAML(w *writer, c *charm, at func(string) string) {
	const header = "# Copyright 2024 Canonical Ltd.\n# See LICENSE file for licensing details.\n\n"
	build := "type: charm\nbases:\n  - build-on:\n      - name: ubuntu\n        channel: \"22.04\"\n    run-on:\n      - name: ubuntu\n        channel: \"22.04\"\nparts:\n  charm:\n    charm-binary-python-packages: [pydantic]\n"
	var meta, config, actions strings.Builder
	g.metadataYAML(&meta, c)
	config.WriteString("options:\n")
	g.configYAML(&config, c, "  ")
	g.actionsYAML(&actions, c, "")
	if c.split {
		w.file(at("metadata.yaml"), header+meta.String())
		w.file(at("config.yaml"), header+config.String())
		w.file(at("actions.yaml"), header+actions.String())
		w.file(at("charmcraft.yaml"), header+build)
		return
	}
	var all strings.Builder
	all.WriteString(header + meta.String() + "\n" + build + "\nconfig:\n  options:\n")
	g.configYAML(&all, c, "    ")
	all.WriteString("\nactions:\n")
	g.actionsYAML(&all, c, "  ")
	w.file(at("charmcraft.yaml"), all.String())
}

func (g *gen) metadataYAML(b *strings.Builder, c *charm) {
	fmt.Fprintf(b, "name: %s\ndisplay-name: %s\nsummary: Charmed operator for %s.\ndescription: |\n", c.name, camel(c.name), camel(c.product))
	for range g.between(2, 5) {
		fmt.Fprintf(b, "  %s.\n", g.sentence(6, 14))
	}
	if c.container != "" {
		fmt.Fprintf(b, "\ncontainers:\n  %s:\n    resource: %s-image\n", c.container, c.container)
		if c.storage != "" {
			fmt.Fprintf(b, "    mounts:\n      - storage: %s\n        location: /var/lib/%s\n", c.storage, c.product)
		}
		fmt.Fprintf(b, "\nresources:\n  %s-image:\n    type: oci-image\n    description: OCI image for %s\n", c.container, c.product)
	}
	if c.storage != "" {
		fmt.Fprintf(b, "\nstorage:\n  %s:\n    type: filesystem\n    location: /var/lib/%s\n", c.storage, c.product)
	}
	fmt.Fprintf(b, "\npeers:\n  %s:\n    interface: %s_peers\n", c.peer, snakeOf(c.product))
	for _, role := range []string{"provides", "requires"} {
		first := true
		for _, r := range c.relations {
			if r.role != role {
				continue
			}
			if first {
				fmt.Fprintf(b, "\n%s:\n", role)
				first = false
			}
			fmt.Fprintf(b, "  %s:\n    interface: %s\n", r.name, r.iface)
			if g.chance(0.3) {
				b.WriteString("    limit: 1\n")
			}
			if g.chance(0.3) {
				b.WriteString("    optional: true\n")
			}
		}
	}
}

func (g *gen) configYAML(b *strings.Builder, c *charm, ind string) {
	for _, o := range c.config {
		fmt.Fprintf(b, "%s%s:\n%s  type: %s\n", ind, o.name, ind, o.typ)
		if o.def != "" {
			fmt.Fprintf(b, "%s  default: %s\n", ind, o.def)
		}
		fmt.Fprintf(b, "%s  description: |\n%s    %s.\n", ind, ind, g.sentence(5, 14))
	}
}

func (g *gen) actionsYAML(b *strings.Builder, c *charm, ind string) {
	for _, a := range c.actions {
		fmt.Fprintf(b, "%s%s:\n%s  description: %s.\n", ind, a.name, ind, g.sentence(4, 10))
		if len(a.params) == 0 {
			continue
		}
		fmt.Fprintf(b, "%s  params:\n", ind)
		for _, p := range a.params {
			fmt.Fprintf(b, "%s    %s:\n%s      type: %s\n%s      description: %s.\n", ind, p.name, ind, p.typ, ind, g.sentence(3, 8))
		}
		fmt.Fprintf(b, "%s  required: [%s]\n", ind, a.params[0].name)
	}
}
