package treecopy

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(src, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/charm.py", "import ops\n")
	write(".git/HEAD", "ref\n")
	write(".cache.json", "{}")
	if err := os.Symlink("src/charm.py", filepath.Join(src, "link.py")); err != nil {
		t.Fatal(err)
	}
	if err := Copy(src, dst, ".cache.json"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "src/charm.py")); err != nil || string(b) != "import ops\n" {
		t.Errorf("src/charm.py: %q, %v", b, err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "link.py")); err != nil || target != "src/charm.py" {
		t.Errorf("link.py: %q, %v", target, err)
	}
	for _, gone := range []string{".git", ".cache.json"} {
		if _, err := os.Lstat(filepath.Join(dst, gone)); !os.IsNotExist(err) {
			t.Errorf("%s was copied", gone)
		}
	}
}
