package pyextract

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	src := `"""Manages ACLs for prefixed topic names."""
import os

LOG_DIRS_KEY = "log.dirs"


class AuthManager:
    """Handles SASL users."""

    def update(self, topic: str) -> None:
        # a comment is not a string
        path = f"{self.base_dir}/server.properties\n"
        os.environ["KAFKA_OPTS"] = b"-Djava.security"
        raise ValueError(f"unknown {topic!r} in log.dirs={self.log_dirs}")
`
	got := Parse("src/managers/auth.py", []byte(src)).Words
	want := []string{"acls", "dirs", "djava", "for", "handles", "in", "kafka", "log", "manages",
		"names", "opts", "prefixed", "properties", "sasl", "security", "server", "topic", "unknown", "users"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("words\n got %q\nwant %q", got, want)
	}
	// Comments, identifiers and the code inside interpolations are not words.
	for _, w := range got {
		switch w {
		case "comment", "base", "dir", "self", "update", "auth", "manager":
			t.Errorf("%q is not in a string", w)
		}
	}
}

func TestComments(t *testing.T) {
	src := `#!/usr/bin/env python3
# Copyright 2024 Canonical Ltd.
"""Snap revisions."""

# MySQL 8.0.37 (the snap revisions below)
SNAP_REVISION = "110"  # type: ignore[assignment]
x = 1  # noqa: E501
`
	f := Parse("src/constants.py", []byte(src))
	// Words the strings have ("snap", "revisions") are not repeated; directives and the
	// shebang are not comments.
	// "MySQL" splits like an identifier; one-character words ("8", "0") are dropped.
	want := []string{"2024", "37", "below", "canonical", "copyright", "ltd", "my", "sql", "the"}
	if !reflect.DeepEqual(f.Comments, want) {
		t.Errorf("comments\n got %q\nwant %q", f.Comments, want)
	}
	if want := []string{"110", "revisions", "snap"}; !reflect.DeepEqual(f.Words, want) {
		t.Errorf("words %q, want %q", f.Words, want)
	}
}

func TestWordsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("DATA = [\n")
	for i := range MaxWords + 100 {
		fmt.Fprintf(&b, "    \"w%05d and again w%05d\",\n", MaxWords+100-i, MaxWords+100-i)
	}
	b.WriteString("]\n")
	got := Parse("src/data.py", []byte(b.String())).Words
	if len(got) != MaxWords {
		t.Fatalf("%d words, want the cap %d", len(got), MaxWords)
	}
	// The first words in source order are kept ("w00700" down to "w00102", "and", "again"),
	// sorted.
	if got[0] != "again" || got[1] != "and" || got[2] != fmt.Sprintf("w%05d", 103) || got[len(got)-1] != fmt.Sprintf("w%05d", MaxWords+100) {
		t.Errorf("kept %q … %q", got[:3], got[len(got)-1])
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string]string{
		"GrafanaMetadataAppData": "grafana metadata app data",
		"HTTPServer":             "http server",
		"log.dirs={x}":           "log dirs x",
		"charmed-mysql_snap v2":  "charmed mysql snap v2",
		"getIDs ACLs URLsFor":    "get ids acls urls for",
		"":                       "",
	} {
		if got := strings.Join(SplitWords(in), " "); got != want {
			t.Errorf("SplitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSymbolWords(t *testing.T) {
	// A function's or method's words are those of the names, strings and comments on its
	// lines ("self", keywords such as None and one-letter words aside); a class, a constant
	// and module-level code have none, nor a function whose words are all one letter long
	// (nil, as a class's).
	src := `TOPIC_PREFIX = "app"


class AuthManager:
    """Handles SASL users."""

    def add_acl(self, resource_name: str) -> None:
        # a trailing star asks for a prefixed pattern
        pattern = "PREFIXED" if resource_name.endswith("*") else "LITERAL"
        self.workload.run_bin_command(f"--resource-pattern-type={pattern}")

    def users(self):
        return ["listen\nport"]


def main():
    AuthManager().add_acl(TOPIC_PREFIX)


def g(x):
    return x
`
	f := Parse("src/managers/auth.py", []byte(src))
	got := map[string][]string{}
	for _, s := range f.Symbols {
		if s.Words != nil {
			got[s.Name] = s.Words
		}
	}
	want := map[string][]string{
		"AuthManager.add_acl": {"acl", "add", "asks", "bin", "command", "endswith", "for", "literal", "name",
			"pattern", "prefixed", "resource", "run", "star", "str", "trailing", "type", "workload"},
		"AuthManager.users": {"listen", "port", "users"}, // an escape sequence separates words
		"main":              {"acl", "add", "auth", "main", "manager", "prefix", "topic"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("symbol words\n got %q\nwant %q", got, want)
	}
}

func TestSymbolWordsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("def build():\n    return [\n")
	for i := range MaxSymbolWords + 20 {
		fmt.Fprintf(&b, "        \"w%03d\",\n", i)
	}
	b.WriteString("    ]\n")
	f := Parse("src/data.py", []byte(b.String()))
	if len(f.Symbols) != 1 || len(f.Symbols[0].Words) != MaxSymbolWords {
		t.Fatalf("symbols %d, words %d: want one with the cap %d", len(f.Symbols), len(f.Symbols[0].Words), MaxSymbolWords)
	}
	if w := f.Symbols[0].Words; w[0] != "build" || w[len(w)-1] != fmt.Sprintf("w%03d", MaxSymbolWords-2) {
		t.Errorf("kept %q … %q: want the first in source order", w[0], w[len(w)-1])
	}
}

func TestParamsHanded(t *testing.T) {
	// A parameter used only as an attribute's object (event.set_results, event.params) is
	// not handed on; one passed to a call, stored, returned or put in a list is; self, cls
	// and a keyword's name do not count; locals() and __dict__ hand them all on.
	src := `class C:
    def only_attrs(self, event):
        event.set_results({"a": event.id})
        self.x = self.y

    def passed(self, event):
        self._w.do(event)

    def stored(self, event):
        self._e = event

    def returned(self, evt):
        return evt

    def listed(self, *args):
        run([args])

    def keyword_name(self, event):
        f(event=1)
        event.log("x")

    def all_locals(self, event):
        render("t.j2", **locals())

    def its_dict(self, event):
        log(event.__dict__)

    def a_local_named_locals(self, event):
        self.locals = event.id

    def selfs_dict(self, event):
        log(self.__dict__)
        event.set_results({})

def module_func(event, other):
    go(other)
`
	f := Parse("x.py", []byte(src))
	want := map[string]bool{"C.only_attrs": false, "C.passed": true, "C.stored": true, "C.returned": true,
		"C.listed": true, "C.keyword_name": false, "C.all_locals": true, "C.its_dict": true,
		"C.a_local_named_locals": false, "C.selfs_dict": false, "module_func": true}
	for _, s := range f.Symbols {
		if w, ok := want[s.Name]; ok {
			if s.ParamsHanded != w {
				t.Errorf("%s: ParamsHanded %v, want %v", s.Name, s.ParamsHanded, w)
			}
			delete(want, s.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("symbols not found: %v", want)
	}
}
