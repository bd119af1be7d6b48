// Package jsonout writes the tool's JSON documents one way: indented by two spaces, with a
// trailing newline, and with <, > and & as written (an arrow in a reason is "->", not
// "\u003e": the documents are read by programs and people, not browsers).
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"
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
