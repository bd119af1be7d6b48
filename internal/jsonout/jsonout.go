// Package jsonout writes the tool's JSON documents one way: indented by two spaces, with a
// trailing newline, and with <, > and & as written (an arrow in a reason is "->", not
// "\u003e": the documents are read by programs and people, not browsers).
package jsonout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Write writes v to w as a JSON document.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Marshal returns v as a JSON document, trailing newline included.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Describe words a decoding error of encoding/json for a person, without Go's type names:
// "files.path is a number, want a string", "schema_version is 1.5, want an integer",
// "invalid character 'x' looking for beginning of value at byte 12", "the document is an
// array, want an object". Other errors are returned as they are.
func Describe(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("%s at byte %d", syn.Error(), syn.Offset)
	case errors.As(err, &typ):
		where := typ.Field
		if where == "" {
			where = "the document"
		}
		got := typ.Value // encoding/json's words: "number 1.5", "bool", "array", "object"
		switch {
		case strings.HasPrefix(got, "number "):
			got = strings.TrimPrefix(got, "number ") // the number itself: "is 1.5"
		case got == "bool":
			got = "a boolean"
		default:
			got = article(got)
		}
		want := article(kindName(typ.Type))
		if want == "an integer" && strings.Trim(got, "-0123456789") == "" {
			want = "an integer that fits" // 99999999999999999999 is one, too large for the field
		}
		return fmt.Sprintf("%s is %s, want %s", where, got, want)
	case err != nil:
		return err.Error()
	}
	return ""
}

// kindName is what a JSON document calls a value of Go type t.
func kindName(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Pointer:
		return kindName(t.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "value"
}

// article puts "a" or "an" before a JSON kind ("an array", "a number").
func article(kind string) string {
	if kind == "" {
		return "a value"
	}
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}
