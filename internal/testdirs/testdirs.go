// Package testdirs names the folders that hold a charm's tests, for every stage that tells
// test code apart (the linker's links, the ranker's classes, check's test charms, the
// warning about charms with no Python of their own) to agree on them.
package testdirs

import (
	"slices"
	"strings"
)

// Is reports whether a folder named name holds tests: tests/, test/, or OpenStack's
// unit_tests/.
func Is(name string) bool {
	return name == "tests" || name == "test" || name == "unit_tests"
}

// In reports whether any folder of the '/'-separated path dir holds tests.
func In(dir string) bool {
	return slices.ContainsFunc(strings.Split(dir, "/"), Is)
}
