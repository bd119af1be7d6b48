package synth

import (
	"fmt"
	"strings"
)

const (
	copyright  = "# Copyright 2024 Canonical Ltd.\n# See LICENSE file for licensing details.\n"
	stdImports = "import json\nimport logging\nfrom typing import Any, Dict, List, Optional, Set\n"
)

// relRef is how charm code names a relation: its constant when it has one, else the literal.
func relRef(r *relation) string {
	if r.constName != "" {
		return r.constName
	}
	return fmt.Sprintf("%q", r.name)
}

func (c *charm) peerRef() string {
	if c.consts {
		return "PEER"
	}
	return fmt.Sprintf("%q", c.peer)
}

// handler is one event handler method of the charm or a helper manager.
type handler struct {
	name, kind, event string
	action            *action
}

// charmDomain emits the statements charm code is made of: config reads, relation lookups,
// status updates, container and storage access. self is "self" in the charm class and
// "self.charm" in helpers.
func (g *gen) charmDomain(c *charm, self string) func(f *pyFile, s *scope) bool {
	return func(f *pyFile, s *scope) bool {
		switch g.intn(6) {
		case 0, 1:
			o := g.pick(optionNames(c))
			switch g.intn(3) {
			case 0:
				f.linef("%s = %s.config[%q]", g.newVar(s), self, o)
			case 1:
				f.linef("%s = %s.config.get(%q)", g.newVar(s), self, o)
			default:
				f.linef("%s = %s.model.config[%q]", g.newVar(s), self, o)
			}
		case 2:
			r := c.relations[g.intn(len(c.relations))]
			if g.chance(0.5) {
				f.linef("%s = %s.model.get_relation(%s)", g.newVar(s), self, relRef(r))
			} else {
				f.linef("%s = %s.model.relations[%s]", g.newVar(s), self, relRef(r))
			}
		case 3:
			st := g.pick([]string{"ActiveStatus", "MaintenanceStatus", "WaitingStatus", "BlockedStatus"})
			f.linef("%s.unit.status = ops.%s(%q)", self, st, g.sentence(2, 5))
		case 4:
			if c.container == "" {
				return false
			}
			v := g.newVar(s)
			f.linef("%s = %s.unit.get_container(%q)", v, self, c.container)
			f.linef("if not %s.can_connect():", v)
			f.in()
			f.line("return")
			f.out()
		default:
			if c.storage == "" {
				return false
			}
			f.linef("%s = %s.model.storages[%q]", g.newVar(s), self, c.storage)
		}
		return true
	}
}

func optionNames(c *charm) []string {
	out := make([]string, len(c.config))
	for i, o := range c.config {
		out[i] = o.name
	}
	return out
}

// handlerBody writes the statements a handler starts with for its kind, then generic ones.
func (g *gen) handlerBody(f *pyFile, c *charm, self string, h handler, s *scope) {
	s = s.fork()
	s.vars = append(s.vars, "event")
	f.linef("def %s(self, event: %s) -> None:", h.name, eventType(h))
	f.in()
	f.linef(`"""Handle the %s event."""`, strings.ReplaceAll(h.event, "_", " "))
	switch h.kind {
	case "action":
		for _, p := range h.action.params {
			if g.chance(0.5) {
				f.linef("%s = event.params[%q]", g.newVar(s), p.name)
			} else {
				f.linef("%s = event.params.get(%q)", g.newVar(s), p.name)
			}
		}
		g.stmts(f, s, g.between(2, 8))
		f.linef("event.set_results({%q: %s})", g.pick(nouns), g.arg(s))
		f.out()
		return
	case "config":
		for range g.between(2, 4) {
			f.linef("%s = %s.config[%q]", g.newVar(s), self, g.pick(optionNames(c)))
		}
	case "relation":
		f.linef("if not %s.unit.is_leader():", self)
		f.in()
		f.line("return")
		f.out()
		f.linef("event.relation.data[%s.app][%q] = json.dumps(%s)", self, g.pick(nouns), g.arg(s))
	case "pebble":
		f.line("container = event.workload")
		f.linef("container.add_layer(%q, self._pebble_layer, combine=True)", c.container)
		f.line("container.replan()")
	}
	g.stmts(f, s, g.between(2, 10))
	f.out()
}

func eventType(h handler) string {
	switch h.kind {
	case "action":
		return "ops.ActionEvent"
	case "relation":
		return "ops.RelationEvent"
	case "pebble":
		return "ops.PebbleReadyEvent"
	case "lib":
		return camel(h.event) + "Event"
	}
	return "ops." + camel(h.event) + "Event"
}

// charmPy writes src/charm.py: imports of the libraries, constants and helpers, the charm
// class wiring every declared interface, its handlers, properties and other methods.
func (g *gen) charmPy(c *charm) string {
	f := &pyFile{}
	f.line("#!/usr/bin/env python3")
	f.b.WriteString(copyright)
	f.lines += 2
	f.line("")
	f.linef(`"""Charmed operator for %s."""`, camel(c.product))
	f.line("")
	f.b.WriteString(stdImports)
	f.lines += 3
	f.line("")
	f.line("import ops")
	var fns []string
	for _, r := range c.relations {
		if r.lib != nil {
			f.linef("from %s import %s", r.lib.module, libClass(r))
		}
	}
	if c.own != nil {
		f.linef("from %s import %s", c.own.module, strings.Join(c.own.exports, ", "))
	}
	if c.consts {
		names := []string{"PEER"}
		for _, r := range c.relations {
			if r.constName != "" {
				names = append(names, r.constName)
			}
		}
		f.linef("from constants import %s", strings.Join(names, ", "))
	}
	for _, h := range c.helpers {
		if h.lines == 0 {
			continue
		}
		names := append([]string(nil), h.funcs[:min(2, len(h.funcs))]...)
		fns = append(fns, names...)
		if h.manager != "" {
			names = append([]string{h.manager}, names...)
		}
		f.linef("from %s import %s", h.module, strings.Join(names, ", "))
	}
	f.line("")
	f.line("logger = logging.getLogger(__name__)")
	f.line("")
	f.line("")
	f.linef("class %s(ops.CharmBase):", c.class)
	f.in()
	f.linef(`"""Charm the %s workload."""`, c.product)
	f.line("")
	f.line("def __init__(self, *args: Any) -> None:")
	f.in()
	f.line("super().__init__(*args)")
	var objs []string
	for _, r := range c.relations {
		if r.lib == nil {
			continue
		}
		var arg string
		switch {
		case r.name == r.lib.defaultRel && g.chance(0.4):
		case r.constName != "":
			arg = ", relation_name=" + r.constName
		case g.chance(0.5):
			arg = fmt.Sprintf(", relation_name=%q", r.name)
		default:
			arg = fmt.Sprintf(", %q", r.name)
		}
		f.linef("self.%s = %s(self%s)", r.attr, libClass(r), arg)
		objs = append(objs, r.attr)
	}
	if c.own != nil {
		f.linef("self._client = %s(self.app.name)", c.own.exports[0])
		objs = append(objs, "_client")
	}
	for _, h := range c.helpers {
		if h.manager != "" {
			attr := snakeCase(h.manager)
			f.linef("self.%s = %s(self)", attr, h.manager)
			objs = append(objs, attr)
		}
	}
	state := make([]string, g.between(1, 3))
	stateNames := g.namer()
	stateNames.reserve(append(objs, "_peers", "_pebble_layer")...)
	for i := range state {
		state[i] = stateNames.take("_"+g.pick(nouns), "_")
		f.linef("self.%s = %s", state[i], g.pick([]string{"{}", "[]", "None"}))
	}
	observe := "self.framework.observe"
	if g.chance(0.15) {
		f.line("observe = self.framework.observe")
		observe = "observe"
	}
	names := g.namer()
	var hs []handler
	add := func(event, kind string, a *action) string {
		h := handler{name: names.take("_on_"+event, "_"), kind: kind, event: event, action: a}
		hs = append(hs, h)
		return h.name
	}
	seen := map[string]bool{}
	for range g.between(3, 7) {
		ev := g.pick(lifecycleEvents)
		if seen[ev] {
			continue
		}
		seen[ev] = true
		kind := "lifecycle"
		if ev == "config_changed" {
			kind = "config"
		}
		f.linef("%s(self.on.%s, self.%s)", observe, ev, add(ev, kind, nil))
	}
	f.linef("%s(self.on[%s].relation_changed, self.%s)", observe, c.peerRef(), add("peer_relation_changed", "relation", nil))
	for _, r := range c.relations {
		if r.lib != nil {
			for _, ev := range r.lib.events {
				f.linef("%s(self.%s.on.%s, self.%s)", observe, r.attr, ev, add(ev, "lib", nil))
			}
			continue
		}
		ev := g.pick(relationEvents)
		attr := snakeOf(r.name) + "_" + ev
		switch g.intn(4) {
		case 0:
			f.linef("%s(self.on.%s, self.%s)", observe, attr, add(attr, "relation", nil))
		case 1:
			f.linef("%s(getattr(self.on, %q), self.%s)", observe, attr, add(attr, "relation", nil))
		case 2:
			f.linef("%s(self.on[%s].%s, self.%s)", observe, relRef(r), ev, add(attr, "relation", nil))
		default:
			f.linef("%s(self.on[%q].%s, self.%s)", observe, r.name, ev, add(attr, "relation", nil))
		}
	}
	for _, a := range c.actions {
		if a.owner == 0 {
			ev := snakeOf(a.name) + "_action"
			f.linef("%s(self.on.%s, self.%s)", observe, ev, add(ev, "action", a))
		}
	}
	if c.container != "" {
		ev := snakeOf(c.container) + "_pebble_ready"
		f.linef("%s(self.on.%s, self.%s)", observe, ev, add(ev, "pebble", nil))
	}
	if c.storage != "" {
		ev := c.storage + "_storage_attached"
		f.linef("%s(self.on.%s, self.%s)", observe, ev, add(ev, "lifecycle", nil))
	}
	f.out()

	structural := f.lines + 12*len(hs) + 12
	methods := make([]string, max(2, (c.charmLines-structural)/22))
	for i := range methods {
		methods[i] = names.take("_"+g.pick(verbs)+"_"+g.pick(nouns), "_")
	}
	s := &scope{method: true, selfFns: methods, fns: fns, attrs: state, objs: objs, err: "RuntimeError", domain: g.charmDomain(c, "self")}
	for _, h := range hs {
		f.line("")
		g.handlerBody(f, c, "self", h, s)
	}
	f.line("")
	f.line("@property")
	f.line("def _peers(self) -> Optional[ops.Relation]:")
	f.in()
	f.line(`"""The peer relation, None until it is created."""`)
	f.linef("return self.model.get_relation(%s)", c.peerRef())
	f.out()
	if c.container != "" {
		f.line("")
		f.line("@property")
		f.line("def _pebble_layer(self) -> ops.pebble.LayerDict:")
		f.in()
		f.line(`"""The workload's Pebble layer."""`)
		f.line("return {")
		f.in()
		f.linef(`"summary": %q,`, c.product+" layer")
		f.linef(`"services": {%q: {"override": "replace", "command": %q, "startup": "enabled"}},`, c.product, "/usr/bin/"+c.product)
		f.out()
		f.line("}")
		f.out()
	}
	for _, m := range methods {
		f.line("")
		g.function(f, m, s, g.between(4, 16))
	}
	f.out()
	f.line("")
	f.line("")
	f.line(`if __name__ == "__main__":  # pragma: nocover`)
	f.linef("    ops.main(%s)", c.class)
	return f.b.String()
}

// libClass is the library class a charm instantiates for a relation in its role.
func libClass(r *relation) string {
	if r.role == "requires" {
		return r.lib.stem + "Requires"
	}
	return r.lib.stem + "Provides"
}

// snakeCase turns camelCase into snake_case.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// constantsPy writes src/constants.py: the peer and relation names, then workload constants.
func (g *gen) constantsPy(c *charm) string {
	f := &pyFile{}
	f.b.WriteString(copyright)
	f.lines += 2
	f.line("")
	f.linef(`"""Constants for the %s charm."""`, c.product)
	f.line("")
	f.linef("PEER = %q", c.peer)
	for _, r := range c.relations {
		if r.constName != "" {
			f.linef("%s = %q", r.constName, r.name)
		}
	}
	names := g.namer()
	for range g.between(5, 40) {
		name := upper(names.snake(nouns, []string{"dir", "port", "user", "file", "timeout", "name", "key", "path"}))
		switch g.intn(4) {
		case 0:
			f.linef("%s = %d", name, g.between(1, 65535))
		case 1:
			f.linef("%s = [%q, %q]", name, g.pick(nouns), g.pick(nouns))
		default:
			f.linef("%s = %q", name, "/var/lib/"+c.product+"/"+g.pick(nouns))
		}
	}
	return f.b.String()
}

// helperPy writes a src helper module: maybe an ops.Object manager observing charm events,
// plain classes, and functions that call each other and an earlier helper's functions.
func (g *gen) helperPy(c *charm, i int, h *helper) string {
	if h.lines == 0 {
		return ""
	}
	f := &pyFile{}
	f.b.WriteString(copyright)
	f.lines += 2
	f.line("")
	f.linef(`"""%s."""`, g.sentence(4, 10))
	f.line("")
	f.b.WriteString(stdImports)
	f.lines += 3
	f.line("")
	f.line("import ops")
	f.line("")
	fns := append([]string(nil), h.funcs...)
	if c.consts {
		f.line("from constants import PEER")
	}
	if i > 0 && c.helpers[i-1].lines > 0 && g.chance(0.6) {
		prev := c.helpers[g.intn(i)]
		if prev.lines > 0 {
			f.linef("from %s import %s", prev.module, prev.funcs[0])
			fns = append(fns, prev.funcs[0])
		}
	}
	if c.own != nil && g.chance(0.4) {
		f.linef("from %s import %s", c.own.module, c.own.exports[0])
		fns = append(fns, c.own.exports[0])
	}
	f.line("")
	f.line("logger = logging.getLogger(__name__)")
	s := &scope{fns: fns, err: "RuntimeError"}
	if h.manager != "" {
		f.line("")
		f.line("")
		g.manager(f, c, i, h, s)
	}
	for _, cls := range h.classes {
		f.line("")
		f.line("")
		g.class(f, cls, "object", s, f.lines+h.lines/3, 6, 2, 8)
	}
	for _, fn := range h.funcs {
		f.line("")
		f.line("")
		g.function(f, fn, s, g.between(3, 12))
	}
	names := g.namer()
	names.reserve(h.funcs...)
	for f.lines < h.lines {
		f.line("")
		f.line("")
		g.function(f, names.snake(verbs, nouns), s, g.between(3, 12))
	}
	return f.b.String()
}

// manager writes a helper ops.Object class that observes charm events itself (a quarter of
// the observe calls in real charms sit in such classes).
func (g *gen) manager(f *pyFile, c *charm, i int, h *helper, s *scope) {
	f.linef("class %s(ops.Object):", h.manager)
	f.in()
	f.linef(`"""%s."""`, g.sentence(4, 10))
	f.line("")
	f.line("def __init__(self, charm: ops.CharmBase) -> None:")
	f.in()
	f.linef("super().__init__(charm, %q)", strings.TrimSuffix(snakeCase(h.manager), "_manager"))
	f.line("self.charm = charm")
	charmRef := g.pick([]string{"charm", "self.charm"})
	var hs []handler
	f.linef("self.framework.observe(%s.on[%s].relation_departed, self._on_peer_relation_departed)", charmRef, c.peerRef())
	hs = append(hs, handler{name: "_on_peer_relation_departed", kind: "relation", event: "peer_relation_departed"})
	for _, a := range c.actions {
		if a.owner == i+1 {
			ev := snakeOf(a.name) + "_action"
			f.linef("self.framework.observe(%s.on.%s, self._on_%s)", charmRef, ev, ev)
			hs = append(hs, handler{name: "_on_" + ev, kind: "action", event: ev, action: a})
		}
	}
	f.out()
	ms := g.namer()
	methods := make([]string, g.between(1, 4))
	for j := range methods {
		methods[j] = ms.snake(verbs, nouns)
	}
	in := s.fork()
	in.method, in.selfFns, in.domain = true, methods, g.charmDomain(c, "self.charm")
	for _, hd := range hs {
		f.line("")
		g.handlerBody(f, c, "self.charm", hd, in)
	}
	for _, m := range methods {
		f.line("")
		g.function(f, m, in, g.between(3, 12))
	}
	f.out()
}
