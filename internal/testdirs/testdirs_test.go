package testdirs

import "testing"

func TestIn(t *testing.T) {
	for dir, want := range map[string]bool{
		"tests/unit": true, "k8s/test": true, "unit_tests": true, "src/unit_tests/x": true,
		"src": false, ".": false, "": false, "testsuite": false, "src/contest": false,
	} {
		if got := In(dir); got != want {
			t.Errorf("In(%q) = %v, want %v", dir, got, want)
		}
	}
}
