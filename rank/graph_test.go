package rank

import (
	"path"
	"strings"
	"testing"
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
