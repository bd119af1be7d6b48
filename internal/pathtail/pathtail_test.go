package pathtail

import "testing"

func TestSharedAndPrefix(t *testing.T) {
	for _, c := range []struct {
		copy, canonical, prefix string
		shared                  int
	}{
		{"k8s/.vendored/vault-package/vault/x.py", "vault-package/vault/x.py", "k8s/.vendored/", 3},
		{"machine/.vendored/pkg/m/v.py", "k8s/.vendored/pkg/m/v.py", "machine/", 4},
		{"k8s/src/charm.py", "machine/src/charm.py", "k8s/", 2},
		{"a/x.py", "a/x.py", "a/x.py", 2},
	} {
		if got := Shared(c.copy, c.canonical); got != c.shared {
			t.Errorf("Shared(%q, %q) = %d, want %d", c.copy, c.canonical, got, c.shared)
		}
		if got := Prefix(c.copy, c.canonical); got != c.prefix {
			t.Errorf("Prefix(%q, %q) = %q, want %q", c.copy, c.canonical, got, c.prefix)
		}
	}
}
