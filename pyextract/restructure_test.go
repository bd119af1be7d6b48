package pyextract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// brokenBase is a charm written for these tests: a class whose __init__ observes its handlers,
// a nested class, a helper class after it and a module function, so that a definition that
// leaves its class, or a class that leaves the file, shows.
const brokenBase = `"""A charm to break."""

import logging

import ops

logger = logging.getLogger(__name__)
PEER = "cluster"


class DemoCharm(ops.CharmBase):
    """The charm."""

    def __init__(self, framework):
        super().__init__(framework)
        framework.observe(self.on.start, self._on_start)
        framework.observe(self.on.config_changed, self._on_config)
        framework.observe(self.on[PEER].relation_changed, self._on_peer)
        for name in ("a", "b"):
            logger.debug("name %s", name)
        framework.observe(self.on.update_status, self._on_status)

    def _on_start(self, event):
        if not self.unit.is_leader():
            event.defer()
            return
        self.unit.status = ops.ActiveStatus()

    def _on_config(self, event):
        level = self.config.get("log-level", "info")
        try:
            self._apply(level)
        except ValueError as e:
            logger.error("bad level: %s", e)

    class Nested:
        def inner(self):
            return {"a": [1, 2], "b": (3, 4)}

    def _on_peer(self, event):
        data = event.relation.data[self.app]
        data["ready"] = "yes"

    @property
    def _peers(self):
        return self.model.get_relation(PEER)

    def _apply(self, level):
        with open("/tmp/level", "w") as f:
            f.write(level)

    def _on_status(self, event):
        self.unit.status = ops.ActiveStatus(f"level {self.config['log-level']}")


class Helper(ops.Object):
    def __init__(self, charm):
        super().__init__(charm, "helper")

    def run(self):
        return 1


def main():
    ops.main(DemoCharm)


if __name__ == "__main__":
    main()
`

// oneLineErrors are broken lines an agent leaves while typing (rev91's list): statements
// begun and not finished, brackets and strings left open, Python 2, keywords alone.
var oneLineErrors = []string{
	`x = f"{self.y"`, `x = f'{a'`, `x = f"{a!}"`, `x = f"{"`, `x = f"{x:{y}"`, `@`, `@property(`,
	`<<<<<<< HEAD`, `=======`, `>>>>>>> b`, `x = (`, `x = [1,`, `x = {`, `x = "abc`, `x = lambda:`,
	`if x`, `else:`, `return ]`, `x = )`, `x = }`, `def`, `def f(`, `def f(self`, `class`,
	`class X(`, `async`, `await`, `x = 1 +`, `yield =`, `import`, `from x import (`,
	`from . import`, `print "a"`, `exec "a"`, `x = 0777`, `x = 1__0`, "x = `a`", `x <> y`, `try:`,
	`except:`, `finally:`, `with`, `with x as`, `for x in`, `while`, `match x:`, `case 1:`,
	`x: int =`, `x = *a`, `**kw`, `x = a if b`, `@dataclass`, `del`, `global`, `raise from`,
	`assert`, `x = b"\xff`, `x = r"\"`, `x = "\N{"`, `x = 1 if else 2`, `x = [i for i in]`,
	`x = {**}`, `x = a[`, `x = a.`, `x = .5.`, `x = 1e`, `x = 0x`, `\`, `;`, `:`, `...:`, `->`,
	`:=`, `pass pass`, `type X =`, `type X[T] = `, `def f[T(self):`, `class A[T:`,
	`x = f"{x=!r:}"`, `nonlocal`, `lambda`, `not`, `in`, `is`,
}

// TestOneLineErrorsKeepEveryDefinition inserts each one-line error at each line of a method
// body of brokenBase and requires every definition of the file to be kept, in its class
// (rev91's fuzz: 24 of these lost methods at some line, 20 still did before repairStructure:
// a bare assert ended the class, the methods after it becoming module functions, and check
// then reported their handlers missing). Errors that open a triple-quoted string are left
// out: they turn the rest of the file into a string and the next docstring into code.
func TestOneLineErrorsKeepEveryDefinition(t *testing.T) {
	base := Parse("charm.py", []byte(brokenBase))
	if base.Errors != 0 {
		t.Fatalf("the base has %d errors", base.Errors)
	}
	want := definitions(base, 0)
	lines := strings.SplitAfter(brokenBase, "\n")
	failed := 0
	for _, e := range oneLineErrors {
		for i, line := range lines {
			col := indent([]byte(line))
			if col < 8 || strings.TrimSpace(line) == "" {
				continue // method bodies only
			}
			src := strings.Join(lines[:i], "") + strings.Repeat(" ", col) + e + "\n" + strings.Join(lines[i:], "")
			f := Parse("charm.py", []byte(src))
			got := definitions(f, i+1)
			var lost []string
			for _, d := range want {
				if !slices.Contains(got, d) {
					lost = append(lost, d)
				}
			}
			if len(lost) > 0 {
				if failed++; failed <= 10 {
					t.Errorf("%q before line %d lost %q", e, i+1, lost)
				}
			}
		}
	}
	if failed > 10 {
		t.Errorf("... %d cases in all", failed)
	}
}

// definitions are the file's classes, functions and methods with their lines as written in
// brokenBase, a line having been inserted at line inserted (0: none).
func definitions(f File, inserted int) []string {
	var out []string
	for _, s := range f.Symbols {
		if s.Kind == "class" || s.Kind == "function" || s.Kind == "method" {
			line := s.Line
			if inserted > 0 && line > inserted {
				line--
			}
			out = append(out, fmt.Sprintf("%s %s @%d", s.Kind, s.Name, line))
		}
	}
	return out
}

// TestRepairKeepsTheOtherFacts: the statement blanked is the broken one, so the handlers
// observed around it are still linked.
func TestRepairKeepsTheOtherFacts(t *testing.T) {
	for name, broken := range map[string]string{
		// tree-sitter took the for loop for the assert's expression and closed the class
		"bare assert before a for": "        assert\n",
		// recoverSwallowed's blank, from the bracket to the next header, took the except with
		// it; the repair starts again from the file as written and blanks the one line
		"unclosed paren in a try": "",
	} {
		src := brokenBase
		if broken != "" {
			src = strings.Replace(src, "        for name in", broken+"        for name in", 1)
		} else {
			src = strings.Replace(src, "            self._apply(level)\n", "            self._apply(level)\n            x = (\n", 1)
		}
		f := Parse("charm.py", []byte(src))
		if f.Errors == 0 {
			t.Fatalf("%s: no error", name)
		}
		handlers := observed(f)
		if want := []string{"self._on_start", "self._on_config", "self._on_peer", "self._on_status"}; !slices.Equal(handlers, want) {
			t.Errorf("%s: observed %q, want %q", name, handlers, want)
		}
		syms := symbols(t, f)
		for _, m := range []string{"_on_start", "_on_config", "_on_peer", "_peers", "_apply", "_on_status"} {
			if _, ok := syms["DemoCharm."+m]; !ok {
				t.Errorf("%s: DemoCharm.%s lost; symbols %q", name, m, names(f))
			}
		}
		if s, ok := syms["DemoCharm._on_config"]; ok && s.EndLine != lineOf(src, `logger.error("bad`) {
			t.Errorf("%s: DemoCharm._on_config ends at line %d, not at its except's", name, s.EndLine)
		}
	}
}

// TestLayoutOfQuotedCode: code quoted in a string inside brackets (a test's
// textwrap.dedent("""...""")) is text, not headers, so that a repair never turns it into
// definitions.
func TestLayoutOfQuotedCode(t *testing.T) {
	src := "import textwrap\n\n\ndef test_charm():\n    script = textwrap.dedent(\"\"\"\\\n" +
		"    class AnyCharm(Base):\n        def __init__(self):\n            pass\n    \"\"\")\n" +
		"    assert\n    return script\n\n\ndef after():\n    pass\n"
	lines := lineStarts([]byte(src))
	l := readLayout(&blanker{src: []byte(src), lines: lines})
	var rows []int
	for _, h := range l.headers {
		rows = append(rows, h.row+1)
	}
	if want := []int{lineOf(src, "def test_charm"), lineOf(src, "def after")}; !slices.Equal(rows, want) {
		t.Errorf("headers at lines %v, want %v", rows, want)
	}
	f := Parse("test_charm.py", []byte(src))
	if got := names(f); !slices.Equal(got, []string{"test_charm", "after"}) {
		t.Errorf("symbols %q", got)
	}
}

// TestRepairIsBounded: a file broken everywhere (Python 2 in every method) makes at most
// maxRepairParses parses beyond recoverSwallowed's.
func TestRepairIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Old:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "    def m%d(self):\n        print \"%d\"\n        exec \"x\"\n        assert\n", i, i)
	}
	src := []byte(b.String())
	n := 0
	reparsed = func() { n++ }
	defer func() { reparsed = func() {} }()
	f := Parse("old.py", src)
	if n > maxRecoveryRounds+maxRepairParses {
		t.Errorf("%d parses after the first, want at most %d", n, maxRecoveryRounds+maxRepairParses)
	}
	if f.Errors == 0 || len(f.Symbols) == 0 {
		t.Errorf("errors %d, %d symbols", f.Errors, len(f.Symbols))
	}
	// a large file gets fewer, by the bytes they read (rev93: 560 KB of errors took 18 s)
	for b.Len() < 600<<10 {
		b.WriteString("    def more(self):\n        print \"x\"\n        assert\n")
	}
	n = 0
	Parse("old.py", []byte(b.String()))
	if limit := maxRecoveryRounds + 1 + maxRepairBytes/b.Len(); n > limit {
		t.Errorf("%d KB: %d parses after the first, want at most %d", b.Len()>>10, n, limit)
	}
}

// BenchmarkParseMidEdit is BenchmarkParse's charm with the edits an agent leaves half typed in
// one handler (a bare assert, an unclosed call, a def being typed): what a map costs while a
// file is broken, against BenchmarkParse for the file as it was.
func BenchmarkParseMidEdit(b *testing.B) {
	src := string(syntheticCharm(100))
	at := strings.Index(src, "        relation = self.model.get_relation(PEER)")
	for _, e := range []string{"assert", "self.unit.status = ops.ActiveStatus(", "def helper("} {
		broken := []byte(src[:at] + "        " + e + "\n" + src[at:])
		b.Run(strings.Fields(e)[0], func(b *testing.B) {
			b.SetBytes(int64(len(broken)))
			for b.Loop() {
				Parse("src/charm.py", broken)
			}
		})
	}
}

// TestErrorLine: the warning of a broken file names the line of its first error, where
// tree-sitter found it: the broken line or the next (an outer ERROR node starts where the
// parser began to doubt, the method's def or the class: not that line).
func TestErrorLine(t *testing.T) {
	if f := Parse("charm.py", []byte(brokenBase)); f.ErrorLine != 0 {
		t.Errorf("a valid file's ErrorLine = %d", f.ErrorLine)
	}
	at := lineOf(brokenBase, "        for name in")
	for _, e := range []string{"assert", "x = 1 if else 2", "def f(", "x = [1,", "del"} {
		src := strings.Replace(brokenBase, "        for name in", "        "+e+"\n        for name in", 1)
		if f := Parse("charm.py", []byte(src)); f.ErrorLine < at || f.ErrorLine > at+1 {
			t.Errorf("%q at line %d: ErrorLine = %d", e, at, f.ErrorLine)
		}
	}
}

// TestRepairReviewCases are review rev93's regressions, each a definition the repair moved,
// invented or blanked that the tree it started from had right.
func TestRepairReviewCases(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // the definitions, as names
		observed  []string // the handlers observed
	}{{
		// an unclosed """ pairs with the next docstring's """ alone on its line: the class
		// between is code, not quoted (its header is indented less than the string's opener)
		name: "unclosed triple quote",
		src: "import ops\n\n\nclass Events(ops.CharmEvents):\n    \"\"\"Custom events.\"\"\"\n\n    x = \"\"\"abc\n" +
			"    changed = ops.EventSource(ops.EventBase)\n\n\nclass DemoCharm(ops.CharmBase):\n" +
			"    def __init__(self, framework):\n        super().__init__(framework)\n" +
			"        framework.observe(self.on.start, self._on_start)\n\n    def _helper(self):\n" +
			"        \"\"\"\n        Docstring whose text starts on the next line.\n        \"\"\"\n        return 1\n\n" +
			"    def _on_start(self, event):\n        pass\n",
		want:     []string{"Events", "DemoCharm", "DemoCharm.__init__", "DemoCharm._helper", "DemoCharm._on_start"},
		observed: []string{"self._on_start"},
	}, {
		// code quoted in a string closed by `""" if ... else ""`, and a bare assert elsewhere
		// that tree-sitter took in its stride: the quoted def is no definition
		name: "quoted code and an assert",
		src: "import ops\n\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n" +
			"        super().__init__(framework)\n        framework.observe(self.on.start, self._on_start)\n        assert\n\n" +
			"    def _script(self):\n        code = \"\"\"\ndef injected():\n    pass\n\"\"\" if self.config.get(\"x\") else \"\"\n" +
			"        return code\n\n    def _on_start(self, event):\n        pass\n",
		want:     []string{"DemoCharm", "DemoCharm.__init__", "DemoCharm._script", "DemoCharm._on_start"},
		observed: []string{"self._on_start"},
	}, {
		// the broken line is blanked, not the if block after it that observes a handler
		name: "lambda being typed",
		src: "import ops\n\n\nclass DemoCharm(ops.CharmBase):\n    def __init__(self, framework):\n" +
			"        super().__init__(framework)\n        framework.observe(self.on.install, self._on_install)\n" +
			"        lambda x:\n        if self.config.get(\"enable-start\", True):\n" +
			"            framework.observe(self.on.start, self._on_start)\n\n" +
			"    def _on_install(self, event):\n        pass\n\n    def _on_start(self, event):\n        pass\n",
		want:     []string{"DemoCharm", "DemoCharm.__init__", "DemoCharm._on_install", "DemoCharm._on_start"},
		observed: []string{"self._on_install", "self._on_start"},
	}}
	for _, c := range cases {
		f := Parse("charm.py", []byte(c.src))
		if f.Errors == 0 {
			t.Fatalf("%s: no error", c.name)
		}
		if got := names(f); !slices.Equal(got, c.want) {
			t.Errorf("%s: definitions %q, want %q", c.name, got, c.want)
		}
		if got := observed(f); !slices.Equal(got, c.observed) {
			t.Errorf("%s: observed %q, want %q", c.name, got, c.observed)
		}
	}
}

// TestLayoutWithTabs: a tab indents to the next multiple of 8, as Python reads it, so a def
// indented by a tab in a method indented by four spaces is nested in it.
func TestLayoutWithTabs(t *testing.T) {
	src := "class A:\n    def f(self):\n\tx = 1\n\tdef inner():\n\t    return 2\n\treturn inner\n\n    def g(self):\n\treturn 3\n"
	l := readLayout(&blanker{src: []byte(src), lines: lineStarts([]byte(src))})
	want := []placedHeader{{0, -1}, {1, 0}, {3, 1}, {7, 0}}
	if !slices.Equal(l.headers, want) {
		t.Errorf("headers %v, want %v", l.headers, want)
	}
}
