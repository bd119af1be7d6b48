package jsonout

import (
	"encoding/json"
	"testing"
)

func TestMarshalKeepsArrowsAndIndents(t *testing.T) {
	b, err := Marshal(map[string]any{"why": "a -> b & <c>", "n": []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"n\": [\n    1\n  ],\n  \"why\": \"a -> b & <c>\"\n}\n"; string(b) != want {
		t.Errorf("Marshal = %q, want %q", b, want)
	}
}

func TestDescribe(t *testing.T) {
	type file struct {
		Path string `json:"path"`
	}
	type doc struct {
		Files []file `json:"files"`
	}
	for _, tc := range []struct {
		in   string
		into any
		want string
	}{
		{`{"files":[{"path":1}]}`, &doc{}, "files.path is a number, want a string"},
		{`[]`, &map[string]json.RawMessage{}, "the document is an array, want an object"},
		{`{"files":{}}`, &doc{}, "files is an object, want an array"},
		{`{"files": x}`, &doc{}, "invalid character 'x' looking for beginning of value at byte 11"},
		{`{"n": 1.5}`, &struct{ N int }{}, "N is 1.5, want an integer"},
		{`{"n": 99999999999999999999}`, &struct{ N int }{}, "N is 99999999999999999999, want an integer that fits"},
		{`{"files": true}`, &doc{}, "files is a boolean, want an array"},
	} {
		err := json.Unmarshal([]byte(tc.in), tc.into)
		if got := Describe(err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
	if Describe(nil) != "" {
		t.Error("Describe(nil) is not empty")
	}
}
