package safetext

import "testing"

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"src/charm.py":                    "src/charm.py",
		"x\n::error file=a::injected.py":  `x\n::error file=a::injected.py`,
		"esc\x1b[31mred.py":               `esc\x1b[31mred.py`,
		"tab\there\r\x7f\u0085 ünïcode ✓": `tab\there\r\x7f\u0085 ünïcode ✓`,
		"":                                "",
		"lat\xe9.py":                      `lat\xe9.py`,
		"kept\ufffd.py":                   "kept\ufffd.py",
		"v\u2028src/fake.py:\u2029x":      `v\u2028src/fake.py:\u2029x`,
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	for _, c := range []struct {
		in   string
		seps []string
		want string
	}{
		{"src/charm.py", nil, "src/charm.py"},
		{"src/a b.py", nil, "src/a b.py"},
		{"src/ünï.py", nil, "src/ünï.py"},
		{"x\ny.py", nil, `"x\ny.py"`},
		{"lat\xe9.py", nil, `"lat\xe9.py"`},
		{`back\slash.py`, nil, `"back\\slash.py"`},
		{" lead.py", nil, `" lead.py"`},
		{"\u00a0nbsp.py", nil, `"\u00a0nbsp.py"`},
		{"\ufeffbom.py", nil, `"\ufeffbom.py"`},
		{`"q.py`, nil, `"\"q.py"`},
		{"a -> b.py", []string{" -> "}, `"a -> b.py"`},
		{"a -> b.py", []string{" (", ": "}, "a -> b.py"},
	} {
		if got := Path(c.in, c.seps...); got != c.want {
			t.Errorf("Path(%q, %q) = %q, want %q", c.in, c.seps, got, c.want)
		}
	}
}
