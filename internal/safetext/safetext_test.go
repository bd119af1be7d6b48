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
