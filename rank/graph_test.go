package rank

import (
	"path"
	"strings"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// TestCommonDirLen compares commonDirLen with its definition: the leading elements shared by
// the two paths' folders, split at "/".
func TestCommonDirLen(t *testing.T) {
	paths := []string{"a.py", "b.py", "x/a.py", "x/b.py", "x/y/a.py", "x/z/a.py", "x/y/z/a.py", "xy/a.py",
		"/a.py", "/x/a.py", "lib/charms/db/v0/db.py", "charms/a/lib/charms/db/v0/db.py", "charms/a/src/charm.py"}
	for _, a := range paths {
		for _, b := range paths {
			as, bs := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
			want := 0
			for want < len(as) && want < len(bs) && as[want] == bs[want] {
				want++
			}
			if got := commonDirLen(a, b); got != want {
				t.Errorf("commonDirLen(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestResolveModuleInsidePackages: a module path suffix that starts inside a package is the
// module only to files in that package's folder. s3/src/utils/logging.py is not the standard
// library's `import logging` of s3/src/charm.py, but utils.logging is; a classic charm's
// hooks/ folder holds an __init__.py (for its unit tests) and is where its scripts run, so
// its hooks still import charmhelpers.core.hookenv and utils, and charm-helpers' own modules
// import each other by the package's name.
func TestResolveModuleInsidePackages(t *testing.T) {
	paths := []string{"s3/src/charm.py", "s3/src/utils/__init__.py", "s3/src/utils/logging.py", "s3/src/utils/other.py",
		"hooks/__init__.py", "hooks/glance_relations.py", "hooks/utils.py", "hooks/charmhelpers/__init__.py",
		"hooks/charmhelpers/core/__init__.py", "hooks/charmhelpers/core/hookenv.py", "hooks/charmhelpers/fetch/__init__.py"}
	b := &graphBuilder{byPath: map[string]int{}}
	for i, p := range paths {
		b.nodes = append(b.nodes, node{path: p, class: ClassSource, py: &pyextract.File{Path: p}})
		b.byPath[p] = i
	}
	idx := b.moduleIndex()
	resolve := func(from, mod string) string {
		var got []string
		for _, j := range b.resolveModule(b.byPath[from], mod, idx) {
			got = append(got, paths[j])
		}
		return strings.Join(got, " ")
	}
	for _, c := range []struct{ from, mod, want string }{
		{"s3/src/charm.py", "logging", ""},
		{"s3/src/charm.py", "utils.logging", "s3/src/utils/logging.py"},
		{"s3/src/utils/other.py", "logging", "s3/src/utils/logging.py"},
		{"hooks/glance_relations.py", "utils", "hooks/utils.py"},
		{"hooks/glance_relations.py", "charmhelpers.core.hookenv", "hooks/charmhelpers/core/hookenv.py"},
		{"hooks/charmhelpers/fetch/__init__.py", "charmhelpers.core.hookenv", "hooks/charmhelpers/core/hookenv.py"},
		{"hooks/glance_relations.py", "hookenv", ""},
	} {
		if got := resolve(c.from, c.mod); got != c.want {
			t.Errorf("%s: import %s = %q, want %q", c.from, c.mod, got, c.want)
		}
	}
}
