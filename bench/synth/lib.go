package synth

import (
	"fmt"
	"strings"
)

const apache = `# Copyright 2023 Canonical Ltd.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
# http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
`

// libPy writes a vendored charm library: the licence, a long usage docstring, LIBID/LIBAPI/
// LIBPATCH, then for a relation library its custom events and Requires/Provides classes that
// observe the relation under a default name; then classes and module functions up to size.
func (g *gen) libPy(c *charm, m *libModule) string {
	f := &pyFile{}
	f.b.WriteString(apache)
	f.lines += strings.Count(apache, "\n")
	f.line("")
	f.linef(`"""%s library.`, m.stem)
	f.line("")
	for range g.between(2, 4) {
		for range g.between(2, 5) {
			f.line(g.sentence(8, 14) + ".")
		}
		f.line("")
	}
	if m.defaultRel != "" {
		f.line("```python")
		f.linef("from %s import %sRequires", m.module, m.stem)
		f.line("")
		f.line("class SomeCharm(CharmBase):")
		f.line("    def __init__(self, *args):")
		f.linef("        self.%s = %sRequires(self, relation_name=%q)", snakeOf(m.defaultRel), m.stem, m.defaultRel)
		f.linef("        self.framework.observe(self.%s.on.%s, self._on_%s)", snakeOf(m.defaultRel), m.events[0], m.events[0])
		f.line("```")
	}
	f.line(`"""`)
	f.line("")
	f.b.WriteString(stdImports)
	f.lines += 3
	f.line("")
	f.line("from ops.charm import CharmBase, RelationBrokenEvent, RelationChangedEvent")
	f.line("from ops.framework import EventBase, EventSource, Object, ObjectEvents")
	f.line("from ops.model import Relation")
	f.line("")
	f.line("# The unique Charmhub library identifier, never change it")
	f.linef("LIBID = %q", fmt.Sprintf("%016x%016x", g.r.Uint64(), g.r.Uint64()))
	f.line("")
	f.line("# Increment this major API version when introducing breaking changes")
	f.line("LIBAPI = 0")
	f.line("")
	f.line("# Increment this PATCH version before using `charmcraft publish-lib` or reset")
	f.line("# to 0 if you are raising the major API version")
	f.linef("LIBPATCH = %d", g.between(1, 40))
	f.line("")
	f.line("logger = logging.getLogger(__name__)")
	names := g.namer()
	fns := make([]string, g.between(3, 8))
	for i := range fns {
		fns[i] = names.take("_"+g.pick(verbs)+"_"+g.pick(nouns), "_")
	}
	s := &scope{fns: fns, err: m.stem + "Error"}
	f.line("")
	f.line("")
	f.linef("class %sError(Exception):", m.stem)
	f.linef(`    """%s."""`, g.sentence(3, 8))
	if m.defaultRel != "" {
		g.relationLib(f, m, s)
	} else {
		for _, cls := range m.exports[:len(m.exports)-1] {
			f.line("")
			f.line("")
			g.class(f, cls, "object", s, f.lines+m.lines/2, 30, 3, 14)
		}
	}
	for _, fn := range fns {
		f.line("")
		f.line("")
		g.function(f, fn, s, g.between(3, 14))
	}
	for f.lines < m.lines {
		f.line("")
		f.line("")
		if g.chance(0.6) {
			g.class(f, names.take(camel(g.pick(adjectives)+"_"+g.pick(nouns)), ""), "object", s, m.lines, 12, 3, 14)
		} else {
			g.function(f, names.snake(verbs, nouns), s, g.between(3, 14))
		}
	}
	return f.b.String()
}

// relationLib writes a relation library's events and its Requires and Provides classes.
func (g *gen) relationLib(f *pyFile, m *libModule, s *scope) {
	def := fmt.Sprintf("%q", m.defaultRel)
	if g.chance(0.5) {
		f.line("")
		f.linef("DEFAULT_RELATION_NAME = %s", def)
		def = "DEFAULT_RELATION_NAME"
	}
	for _, ev := range m.events {
		f.line("")
		f.line("")
		f.linef("class %sEvent(EventBase):", camel(ev))
		f.in()
		f.linef(`"""%s."""`, g.sentence(3, 8))
		f.line("")
		f.line("def __init__(self, handle: Any, relation_id: int, data: Optional[Dict[str, str]] = None) -> None:")
		f.line("    super().__init__(handle)")
		f.line("    self.relation_id = relation_id")
		f.line("    self.data = data or {}")
		f.line("")
		f.line("def snapshot(self) -> Dict[str, Any]:")
		f.line(`    """Save the event's state."""`)
		f.line(`    return {"relation_id": self.relation_id, "data": self.data}`)
		f.line("")
		f.line("def restore(self, snapshot: Dict[str, Any]) -> None:")
		f.line(`    """Restore the event's state."""`)
		f.line(`    self.relation_id = snapshot["relation_id"]`)
		f.line(`    self.data = snapshot["data"]`)
		f.out()
	}
	f.line("")
	f.line("")
	f.linef("class %sEvents(ObjectEvents):", m.stem)
	f.in()
	f.linef(`"""Events the %s library emits."""`, m.stem)
	f.line("")
	for _, ev := range m.events {
		f.linef("%s = EventSource(%sEvent)", ev, camel(ev))
	}
	f.out()
	for _, role := range []string{"Requires", "Provides"} {
		f.line("")
		f.line("")
		f.linef("class %s%s(Object):", m.stem, role)
		f.in()
		f.linef(`"""The %s side of the %s relation."""`, strings.ToLower(role), m.defaultRel)
		f.line("")
		f.linef("on = %sEvents()  # pyright: ignore", m.stem)
		f.line("")
		f.linef("def __init__(self, charm: CharmBase, relation_name: str = %s) -> None:", def)
		f.in()
		f.line("super().__init__(charm, relation_name)")
		f.line("self._charm = charm")
		f.line("self._relation_name = relation_name")
		f.line("self.framework.observe(charm.on[relation_name].relation_changed, self._on_relation_changed)")
		f.line("self.framework.observe(charm.on[relation_name].relation_broken, self._on_relation_broken)")
		f.out()
		in := s.fork()
		in.method, in.objs = true, []string{"_relation_name", "_charm"}
		for _, hd := range []struct{ name, typ, ev string }{
			{"_on_relation_changed", "RelationChangedEvent", m.events[0]},
			{"_on_relation_broken", "RelationBrokenEvent", m.events[len(m.events)-1]},
		} {
			f.line("")
			f.linef("def %s(self, event: %s) -> None:", hd.name, hd.typ)
			f.in()
			f.linef(`"""%s."""`, g.sentence(3, 8))
			hs := in.fork()
			hs.vars = append(hs.vars, "event", "data")
			f.line("data = event.relation.data[event.app]")
			g.stmts(f, hs, g.between(2, 8))
			f.linef("self.on.%s.emit(event.relation.id, data)", hd.ev)
			f.out()
		}
		f.line("")
		f.line("@property")
		f.line("def relations(self) -> List[Relation]:")
		f.line(`    """The relations on this endpoint."""`)
		f.line("    return self.model.relations[self._relation_name]")
		f.out()
	}
}
