// Package pathtail compares '/'-separated paths from their ends: how copies of one module at
// different places (a package vendored into each charm of a repository) are told apart and
// named, by the map (render) and by check alike.
package pathtail

import "strings"

// Shared is how many trailing path components a and b have in common: 4 for
// ("k8s/.vendored/pkg/m/v.py", "machine/.vendored/pkg/m/v.py"), ".vendored/pkg/m/v.py".
func Shared(a, b string) int {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(pa) && n < len(pb) && pa[len(pa)-1-n] == pb[len(pb)-1-n] {
		n++
	}
	return n
}

// Prefix is the folder copy adds before the components it shares, at its end, with
// canonical: "k8s/.vendored/" for ("k8s/.vendored/vault-package/vault/x.py",
// "vault-package/vault/x.py"). copy itself when it shares all its components (it cannot,
// for two different paths).
func Prefix(copy, canonical string) string {
	pc := strings.Split(copy, "/")
	n := Shared(copy, canonical)
	if n == len(pc) {
		return copy
	}
	return strings.Join(pc[:len(pc)-n], "/") + "/"
}
