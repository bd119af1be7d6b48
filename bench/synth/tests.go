package synth

import (
	"fmt"
	"strings"
)

// testPy writes a unit test module (a Harness fixture and test functions driving the charm's
// relations, config and actions) or an integration test module (async pytest-operator tests).
// Package __init__.py files are empty.
func (g *gen) testPy(c *charm, t testFile) string {
	if t.lines == 0 {
		return ""
	}
	f := &pyFile{}
	f.b.WriteString(copyright)
	f.lines += 2
	f.line("")
	f.line("import json")
	f.line("import logging")
	s := &scope{vars: []string{}, err: "AssertionError"}
	if t.integration {
		f.line("from pathlib import Path")
		f.line("")
		f.line("import pytest")
		f.line("import yaml")
		f.line("from pytest_operator.plugin import OpsTest")
		f.line("")
		f.line("logger = logging.getLogger(__name__)")
		f.line("")
		f.line(`METADATA = yaml.safe_load(Path("./metadata.yaml").read_text())`)
		f.line(`APP_NAME = METADATA["name"]`)
		s.vars = append(s.vars, "APP_NAME")
		s.domain = g.integrationDomain(c)
	} else {
		f.line("from unittest.mock import MagicMock, patch")
		f.line("")
		f.line("import ops")
		f.line("import pytest")
		f.line("from ops.testing import Harness")
		f.line("")
		f.linef("from charm import %s", c.class)
		for _, h := range c.helpers {
			if h.lines > 0 && g.chance(0.3) {
				f.linef("from %s import %s", h.module, h.funcs[0])
				s.fns = append(s.fns, h.funcs[0])
			}
		}
		f.line("")
		f.line("logger = logging.getLogger(__name__)")
		f.line("")
		f.line("")
		f.line("@pytest.fixture")
		f.line("def harness():")
		f.linef("    harness = Harness(%s)", c.class)
		f.line("    harness.set_leader(True)")
		f.line("    harness.begin()")
		f.line("    yield harness")
		f.line("    harness.cleanup()")
		s.vars = append(s.vars, "harness")
		s.domain = g.unitDomain(c)
	}
	names := g.namer()
	first := true
	for first || f.lines < t.lines {
		f.line("")
		f.line("")
		in := s.fork()
		if t.integration {
			if first {
				f.line("@pytest.mark.abort_on_fail")
			}
			f.linef("async def test_%s(ops_test: OpsTest) -> None:", names.snake(verbs, nouns))
			in.vars = append(in.vars, "ops_test")
		} else {
			arg := "harness"
			if len(s.fns) > 0 && g.chance(0.3) {
				f.linef("@patch(%q)", "charm."+g.pick(s.fns))
				arg += ", _mock"
			}
			f.linef("def test_%s(%s):", names.snake(verbs, nouns), arg)
		}
		first = false
		f.in()
		if g.chance(0.5) {
			f.linef(`"""%s."""`, g.sentence(4, 10))
		}
		for range g.between(3, 14) {
			if !g.chance(0.6) || !in.domain(f, in) {
				g.stmt(f, in)
			}
		}
		f.linef("assert %s", g.cond(in))
		f.out()
	}
	return f.b.String()
}

// unitDomain emits Harness calls: relations, config, actions, status assertions.
func (g *gen) unitDomain(c *charm) func(f *pyFile, s *scope) bool {
	return func(f *pyFile, s *scope) bool {
		switch g.intn(6) {
		case 0:
			o := c.config[g.intn(len(c.config))]
			f.linef("harness.update_config({%q: %s})", o.name, pyValue(o))
		case 1:
			r := c.relations[g.intn(len(c.relations))]
			f.linef("rel_id = harness.add_relation(%q, %q)", r.name, "remote-"+g.pick(nouns))
			f.linef("harness.add_relation_unit(rel_id, %q)", "remote-"+g.pick(nouns)+"/0")
			s.vars = append(s.vars, "rel_id")
		case 2:
			a := c.actions[g.intn(len(c.actions))]
			args := []string{}
			for _, p := range a.params {
				args = append(args, fmt.Sprintf("%q: %q", p.name, g.pick(nouns)))
			}
			f.linef("output = harness.run_action(%q, {%s})", a.name, strings.Join(args, ", "))
			s.vars = append(s.vars, "output")
		case 3:
			f.line("harness.charm.on.config_changed.emit()")
		case 4:
			f.linef("assert harness.charm.unit.status == ops.%s()", g.pick([]string{"ActiveStatus", "BlockedStatus", "WaitingStatus"}))
		default:
			if c.container == "" {
				return false
			}
			f.linef("harness.container_pebble_ready(%q)", c.container)
		}
		return true
	}
}

// integrationDomain emits pytest-operator calls against a deployed model.
func (g *gen) integrationDomain(c *charm) func(f *pyFile, s *scope) bool {
	return func(f *pyFile, s *scope) bool {
		switch g.intn(4) {
		case 0:
			r := c.relations[g.intn(len(c.relations))]
			f.linef("await ops_test.model.integrate(f\"{APP_NAME}:%s\", %q)", r.name, g.pick(nouns))
		case 1:
			f.line(`await ops_test.model.wait_for_idle(apps=[APP_NAME], status="active", timeout=1000)`)
		case 2:
			a := c.actions[g.intn(len(c.actions))]
			f.line("unit = ops_test.model.applications[APP_NAME].units[0]")
			f.linef("action = await unit.run_action(%q)", a.name)
			f.line("result = await action.wait()")
			s.vars = append(s.vars, "unit", "result")
		default:
			f.line("async with ops_test.fast_forward():")
			f.in()
			f.linef("await ops_test.model.applications[APP_NAME].set_config({%q: %q})", c.config[0].name, g.pick(nouns))
			f.out()
		}
		return true
	}
}

// pyValue is a Python literal for a config option's type.
func pyValue(o option) string {
	switch o.typ {
	case "int":
		return "8080"
	case "boolean":
		return "True"
	case "float":
		return "1.5"
	}
	return `"value"`
}
