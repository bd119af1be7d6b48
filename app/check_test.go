package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/check"
)

func TestHookScriptsFromDisk(t *testing.T) {
	// An old charm's hook scripts, found on disk by their shebang, are mapped and handle their
	// hooks; a link to a module and a repository's git hooks/ are not followed; a built
	// reactive charm's bootstraps are not mapped.
	root := t.TempDir()
	write(t, root, "metadata.yaml", "name: old\nsummary: s\ndescription: d\nrequires:\n  db:\n    interface: mysql\n")
	write(t, root, "config.yaml", "options:\n  port:\n    type: int\n    default: 80\n")
	write(t, root, "hooks/db-relation-changed", "#!/usr/bin/python3\nfrom charmhelpers.core.hookenv import config\n\nprint(config('port'))\n")
	write(t, root, "hooks/install", "#!/usr/bin/env python3\nimport sys\nsys.path.append('lib')\nfrom charms.layer import basic\nbasic.bootstrap_charm_deps()\nfrom charms.reactive import main\nmain()\n")
	write(t, root, "tools/hooks/pre-commit", "#!/usr/bin/env python3\nimport subprocess\n")
	for _, p := range []string{"hooks/db-relation-changed", "hooks/install", "tools/hooks/pre-commit"} {
		if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if err := RunInterfaces(InterfacesOptions{Common: Common{Root: root, NoCache: true, Format: "text"}}, IO{Out: &out, Err: &errb}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "handler hooks/db-relation-changed (db-relation-changed) hooks/db-relation-changed:1 [hook-script]") ||
		!strings.Contains(out.String(), "read hooks/db-relation-changed:4") {
		t.Errorf("interfaces:\n%s", out.String())
	}
	m, _, err := runMap(t, MapOptions{Common: Common{Root: root, NoCache: true}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m, "hooks/db-relation-changed") || strings.Contains(m, "hooks/install") || strings.Contains(m, "pre-commit") {
		t.Errorf("map:\n%s", m)
	}
}

func TestCheckHelpFitsItsWidth(t *testing.T) {
	// check's help lists every rule, its description wrapped under its own column, no line
	// wider than helpWidth (review rev86: lines of 150-330 characters).
	help := CheckHelp()
	for _, line := range strings.Split(help, "\n") {
		if len(line) > helpWidth {
			t.Errorf("%d characters: %s", len(line), line)
		}
	}
	for _, r := range check.Rules {
		if !strings.Contains(help, "\n  "+r.Name+" ") {
			t.Errorf("rule %s not listed", r.Name)
		}
	}
	if got := wrapHelp("aa bb cc dd", 5, "  "); got != "aa bb\n  cc dd" {
		t.Errorf("wrapHelp: %q", got)
	}
}
