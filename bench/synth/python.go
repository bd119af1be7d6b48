package synth

import (
	"fmt"
	"slices"
	"strings"
)

// pyFile accumulates one Python file and counts its lines.
type pyFile struct {
	b     strings.Builder
	lines int
	depth int
}

func (f *pyFile) line(s string) {
	if s != "" {
		f.b.WriteString(strings.Repeat("    ", f.depth))
		f.b.WriteString(s)
	}
	f.b.WriteByte('\n')
	f.lines++
}

func (f *pyFile) linef(format string, a ...any) { f.line(fmt.Sprintf(format, a...)) }

func (f *pyFile) in()  { f.depth++ }
func (f *pyFile) out() { f.depth-- }

// scope is what generated statements may use: readable names, callables, self attributes.
type scope struct {
	vars    []string // local names that are bound
	method  bool     // inside a method: self is available
	selfFns []string // methods callable on self
	fns     []string // functions callable by bare name (module level or imported)
	attrs   []string // self attributes holding plain state, read and assigned
	objs    []string // self attributes holding objects (library objects, managers), only read
	err     string   // exception class to raise
	// domain, when set, emits one statement specific to the file's role (a config read, a
	// relation lookup, a Harness call) and reports whether it did.
	domain func(f *pyFile, s *scope) bool
}

func (s *scope) fork() *scope {
	c := *s
	c.vars = append([]string(nil), s.vars...)
	return &c
}

// arg is an expression built from what the scope can read.
func (g *gen) arg(s *scope) string {
	switch {
	case len(s.vars) > 0 && g.chance(0.7):
		return g.pick(s.vars)
	case s.method && len(s.attrs) > 0 && g.chance(0.5):
		return "self." + g.pick(s.attrs)
	case s.method && len(s.objs) > 0 && g.chance(0.3):
		return "self." + g.pick(s.objs)
	case g.chance(0.5):
		return fmt.Sprintf("%q", g.pick(nouns)+"-"+g.pick(nouns))
	default:
		return fmt.Sprint(g.intn(600))
	}
}

// callee is something callable from the scope.
func (g *gen) callee(s *scope) string {
	switch {
	case s.method && len(s.selfFns) > 0 && g.chance(0.6):
		return "self." + g.pick(s.selfFns)
	case len(s.fns) > 0 && g.chance(0.7):
		return g.pick(s.fns)
	default:
		return g.pick([]string{"sorted", "len", "str", "json.dumps", "json.loads", "dict", "list", "set"})
	}
}

func (g *gen) call(s *scope) string {
	args := make([]string, g.between(0, 2))
	for i := range args {
		args[i] = g.arg(s)
	}
	if g.chance(0.25) {
		args = append(args, fmt.Sprintf("%s=%s", g.pick(nouns), g.arg(s)))
	}
	return fmt.Sprintf("%s(%s)", g.callee(s), strings.Join(args, ", "))
}

// newVar binds a local name not yet bound in s. Fresh names keep the generated code free of
// reassignment cycles (a = b ... b = a), which real charm code does not have.
func (g *gen) newVar(s *scope) string {
	v := g.pick(nouns)
	if g.chance(0.4) {
		v = g.pick(adjectives) + "_" + v
	}
	for i := 2; slices.Contains(s.vars, v); i++ {
		v = fmt.Sprintf("%s_%d", strings.TrimRight(v, "_0123456789"), i)
	}
	s.vars = append(s.vars, v)
	return v
}

func (g *gen) cond(s *scope) string {
	a := g.arg(s)
	switch g.intn(5) {
	case 0:
		return a + " is None"
	case 1:
		return "not " + a
	case 2:
		if s.method && len(s.attrs) > 0 {
			return fmt.Sprintf("%s in self.%s", a, g.pick(s.attrs))
		}
		return fmt.Sprintf("%s in (%q, %q)", a, g.pick(nouns), g.pick(nouns))
	case 3:
		return fmt.Sprintf("len(%s) > %d", a, g.intn(8))
	default:
		return fmt.Sprintf("isinstance(%s, %s)", a, g.pick([]string{"dict", "str", "list", "int"}))
	}
}

// stmts writes n statements (at least one) at the current depth.
func (g *gen) stmts(f *pyFile, s *scope, n int) {
	for i := 0; i < max(n, 1); i++ {
		g.stmt(f, s)
	}
}

// stmt writes one statement, nesting blocks at most three levels below the function.
func (g *gen) stmt(f *pyFile, s *scope) {
	nest := f.depth < 5
	switch k := g.intn(14); {
	case k <= 2:
		f.linef("%s = %s", g.newVar(s), g.call(s))
	case k == 3:
		f.linef("logger.%s(%q, %s)", g.pick([]string{"debug", "info", "warning"}),
			g.sentence(2, 6)+": %s", g.arg(s))
	case k == 4 && nest:
		f.linef("if %s:", g.cond(s))
		f.in()
		g.stmts(f, s.fork(), g.between(1, 3))
		f.out()
		if g.chance(0.3) {
			f.line("else:")
			f.in()
			g.stmts(f, s.fork(), g.between(1, 2))
			f.out()
		}
	case k == 5 && nest:
		in := s.fork()
		coll := g.arg(s)
		f.linef("for %s in %s:", g.newVar(in), coll)
		f.in()
		g.stmts(f, in, g.between(1, 3))
		f.out()
	case k == 6:
		v := g.newVar(s)
		f.linef("%s = {", v)
		f.in()
		for range g.between(1, 5) {
			f.linef("%q: %s,", g.pick(nouns)+"-"+g.pick(nouns), g.arg(s))
		}
		f.out()
		f.line("}")
	case k == 7 && nest:
		f.line("try:")
		f.in()
		g.stmts(f, s.fork(), g.between(1, 3))
		f.out()
		f.linef("except (%s, %s) as e:", g.pick(exceptions), g.pick(exceptions))
		f.in()
		f.linef("logger.error(%q, e)", g.sentence(2, 5)+": %s")
		f.linef("raise %s(f\"%s: {e}\") from e", s.err, g.sentence(2, 4))
		f.out()
	case k == 8 && s.method && len(s.attrs) > 0:
		f.linef("self.%s = %s", g.pick(s.attrs), g.arg(s))
	case k == 9 && len(s.vars) > 0:
		f.linef("%s = f\"%s/{%s}\"", g.newVar(s), g.pick(nouns), g.pick(s.vars))
	case k == 10:
		f.linef("# %s.", g.sentence(4, 12)) // a comment alone is not a statement
		f.linef("%s = %s", g.newVar(s), g.arg(s))
	case k == 11 && s.domain != nil && s.domain(f, s):
	case k == 12:
		f.line(g.call(s))
	default:
		f.linef("%s = %s", g.newVar(s), g.arg(s))
	}
}

// param is one generated parameter.
type param struct{ name, typ, def string }

func (g *gen) params(n int) []param {
	ps := make([]param, 0, n)
	used := map[string]bool{}
	for range n {
		name := g.pick(nouns)
		if used[name] {
			continue
		}
		used[name] = true
		p := param{name: name, typ: g.pick(pyTypes)}
		if len(ps) > 0 && g.chance(0.3) {
			p.def = g.pick([]string{"None", "0", "False", `""`, fmt.Sprintf("%q", g.pick(nouns))})
		}
		ps = append(ps, p)
	}
	// a parameter without a default may not follow one with a default
	for i := range ps {
		if i > 0 && ps[i-1].def != "" && ps[i].def == "" {
			ps[i].def = "None"
		}
	}
	return ps
}

// function writes a def (or async def) with a docstring and a body of about n statements.
// s gives what the body may use; the function's parameters are added to it.
func (g *gen) function(f *pyFile, name string, s *scope, n int, decorators ...string) {
	s = s.fork()
	ps := g.params(g.between(0, 3))
	args := []string{}
	if s.method {
		args = append(args, "self")
	}
	for _, p := range ps {
		a := p.name + ": " + p.typ
		if p.def != "" {
			a += " = " + p.def
		}
		args = append(args, a)
		s.vars = append(s.vars, p.name)
	}
	ret := g.pick(pyTypes)
	for _, d := range decorators {
		f.line("@" + d)
	}
	f.linef("def %s(%s) -> %s:", name, strings.Join(args, ", "), ret)
	f.in()
	g.docstring(f, ps, n > 8)
	g.stmts(f, s, n)
	if g.chance(0.6) {
		f.linef("return %s", g.arg(s))
	}
	f.out()
}

// docstring writes a one-line docstring, or a Google-style one with Args and Returns.
func (g *gen) docstring(f *pyFile, ps []param, long bool) {
	if !long {
		f.linef(`"""%s."""`, g.sentence(3, 9))
		return
	}
	f.linef(`"""%s.`, g.sentence(3, 9))
	f.line("")
	for range g.between(1, 3) {
		f.line(g.sentence(6, 12) + ".")
	}
	if len(ps) > 0 {
		f.line("")
		f.line("Args:")
		f.in()
		for _, p := range ps {
			f.linef("%s: %s.", p.name, g.sentence(3, 8))
		}
		f.out()
	}
	f.line("")
	f.line("Returns:")
	f.in()
	f.line(g.sentence(3, 8) + ".")
	f.out()
	f.line(`"""`)
}

// class writes a class whose methods call each other and s.fns, with as many methods (2 to
// maxMethods) as bring the file close to target lines. It returns the method names.
func (g *gen) class(f *pyFile, name, base string, s *scope, target, maxMethods, bodyLo, bodyHi int) []string {
	f.linef("class %s(%s):", name, base)
	f.in()
	f.linef(`"""%s.`, g.sentence(4, 10))
	f.line("")
	f.line(g.sentence(8, 14) + ".")
	f.line(`"""`)
	f.line("")
	names := g.namer()
	nattr := g.between(1, 4)
	attrs := make([]string, nattr)
	for i := range attrs {
		attrs[i] = names.take("_"+g.pick(nouns), "_")
	}
	perMethod := 4 + (bodyLo+bodyHi)*9/10 // signature, docstring, ~1.8 lines per statement
	methods := make([]string, min(max((target-f.lines)/perMethod, 2), maxMethods))
	for i := range methods {
		m := names.snake(verbs, nouns)
		if g.chance(0.5) {
			m = "_" + m
		}
		methods[i] = m
	}
	in := s.fork()
	in.method, in.attrs, in.selfFns = true, attrs, methods
	f.line("def __init__(self, *args: Any, **kwargs: Any) -> None:")
	f.in()
	f.line("super().__init__(*args, **kwargs)")
	for _, a := range attrs {
		f.linef("self.%s = %s", a, g.pick([]string{"{}", "[]", "set()", "None", `""`}))
	}
	f.out()
	for _, m := range methods {
		f.line("")
		var dec []string
		if g.chance(0.1) {
			dec = append(dec, "property")
		}
		g.function(f, m, in, g.between(bodyLo, bodyHi), dec...)
	}
	f.out()
	return methods
}
