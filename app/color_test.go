package app

import (
	"bytes"
	"testing"
)

func TestColorEnabled(t *testing.T) {
	for _, tc := range []struct {
		terminal bool
		env      map[string]string
		want     bool
	}{
		{true, nil, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"NO_COLOR": ""}, true}, // no-color.org: set and non-empty
		{true, map[string]string{"TERM": "dumb"}, false},
		{true, map[string]string{"TERM": "xterm-256color"}, true},
		{false, map[string]string{"TERM": "xterm-256color"}, false},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := ColorEnabled(tc.terminal, getenv); got != tc.want {
			t.Errorf("ColorEnabled(%v, %v) = %v, want %v", tc.terminal, tc.env, got, tc.want)
		}
	}
}

// colored writes in through a ColorWriter in chunks of n bytes.
func colored(t *testing.T, in string, n int) string {
	t.Helper()
	var b bytes.Buffer
	w := NewColorWriter(&b)
	for s := in; s != ""; {
		k := min(n, len(s))
		if m, err := w.Write([]byte(s[:k])); err != nil || m != k {
			t.Fatalf("Write = %d, %v", m, err)
		}
		s = s[k:]
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestColorWriter(t *testing.T) {
	const (
		B = ansiBold
		R = ansiReset
	)
	for _, tc := range []struct{ name, in, want string }{
		{"check", "src/charm.py:28: error: uses \"audit-log\" [undeclared-relation]\n" +
			"config.yaml: warning: unused [unused-config]\n" +
			"info: a note [r]\n" +
			"1 error, 1 warning, 1 info\n",
			B + "src/charm.py:28" + R + ": " + ansiRed + "error" + R + ": uses \"audit-log\" [undeclared-relation]\n" +
				B + "config.yaml" + R + ": " + ansiYellow + "warning" + R + ": unused [unused-config]\n" +
				ansiCyan + "info" + R + ": a note [r]\n" +
				"1 error, 1 warning, 1 info\n"},
		// a map is left alone: escape codes would count against its token budget
		{"full view", "src/charm.py:\n  class InkwellCharm(ops.CharmBase):\ncharmcraft.yaml:\n  [relation] db",
			"src/charm.py:\n  class InkwellCharm(ops.CharmBase):\ncharmcraft.yaml:\n  [relation] db"},
		{"compact view", "lib/charms/x/v0/y.py — Requires, +3 more\n", "lib/charms/x/v0/y.py — Requires, +3 more\n"},
	} {
		for _, n := range []int{1, 7, len(tc.in)} {
			if got := colored(t, tc.in, n); got != tc.want {
				t.Errorf("%s in chunks of %d:\n got %q\nwant %q", tc.name, n, got, tc.want)
			}
		}
	}
}

// TestColorWriterLeavesOtherOutputAlone: JSON, GitHub annotations, SARIF and help text are
// passed through byte for byte.
func TestColorWriterLeavesOtherOutputAlone(t *testing.T) {
	for _, in := range []string{
		"{\n  \"diagnostics\": [\n    {\n      \"severity\": \"error\",\n      \"file\": \"src/charm.py\"\n",
		"{\"error\":{\"code\":\"usage\",\"message\":\"error: x\"},\"schema_version\":1}\n",
		"::error file=src/charm.py,line=3,title=missing-handler::no method\n",
		"Usage:\n  charmcraft-map check [flags]\n\nExamples:\n  charmcraft-map check\n\nFlags:\n",
		"charmcraft-map (devel) go1.26\n",
	} {
		for _, n := range []int{5, len(in)} {
			if got := colored(t, in, n); got != in {
				t.Errorf("in chunks of %d, changed %q into %q", n, in, got)
			}
		}
	}
}
