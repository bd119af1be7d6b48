package jsonout

import "testing"

func TestMarshalKeepsArrowsAndIndents(t *testing.T) {
	b, err := Marshal(map[string]any{"why": "a -> b & <c>", "n": []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"n\": [\n    1\n  ],\n  \"why\": \"a -> b & <c>\"\n}\n"; string(b) != want {
		t.Errorf("Marshal = %q, want %q", b, want)
	}
}
