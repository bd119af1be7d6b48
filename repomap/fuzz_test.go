package repomap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Tokens a fuzz input may hold. They are replaced by facts of the fuzz tree, so that the
// fuzzer reaches the paths where the cache is trusted (mtime and size match: reused; content
// hash matches: rehashed; fingerprint matches: a memo is replayed), not only the paths where
// it is thrown away.
const (
	tokMtime     = "$MTIME"  // src/charm.py's mtime in ns
	tokSize      = "$SIZE"   // its size
	tokHash      = "$HASH"   // its content hash
	tokYAMLMtime = "$YMTIME" // metadata.yaml's mtime in ns
	tokVersion   = "$V"      // ourVersion, so that seeds outlive its bumps
	tokPrint     = "$FP"     // the tree's fingerprint
)

// FuzzCacheDecode reads arbitrary bytes as .cantrip-repomap.json. loadCache must never panic
// and must keep only well-formed entries of ours; a Load asking for a memo must not fail; the
// Load that follows must succeed, link and rank what it loaded, and leave a cache that
// Cantrip's reader accepts and that makes the next run parse nothing.
//
// Run it longer with: go test ./repomap -run '^$' -fuzz '^FuzzCacheDecode$' -fuzztime 10m
func FuzzCacheDecode(f *testing.F) {
	root := f.TempDir()
	for p, content := range map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	pyInfo, err := os.Stat(filepath.Join(root, "src", "charm.py"))
	if err != nil {
		f.Fatal(err)
	}
	// Seed: the cache a real run writes, remembering an output, with its facts turned back
	// into tokens.
	tr, err := Load(Options{Root: root, MemoKey: "map"})
	if err != nil {
		f.Fatal(err)
	}
	tr.Save(&Memo{Key: "map", Out: "remembered\n"})
	written, err := os.ReadFile(filepath.Join(root, CacheFile))
	if err != nil {
		f.Fatal(err)
	}
	fp := decodeMemo(bytes.NewReader(written)).Fingerprint
	if fp == "" {
		f.Fatal("the cache holds no memo")
	}
	facts := []string{
		tokMtime, strconv.FormatInt(pyInfo.ModTime().UnixNano(), 10),
		tokYAMLMtime, strconv.FormatInt(statFile(root, "metadata.yaml").mtime, 10),
		tokHash, hashBytes([]byte(smallPy)),
		tokPrint, fp,
		tokSize, strconv.FormatInt(pyInfo.Size(), 10),
		tokVersion, strconv.Itoa(ourVersion),
	}
	tokens := strings.NewReplacer(facts...)
	var untokens []string
	for i := 0; i < 8; i += 2 { // the long facts only: a size or version would hit other numbers
		untokens = append(untokens, facts[i+1], facts[i])
	}
	f.Add([]byte(strings.NewReplacer(untokens...).Replace(string(written))))
	for _, s := range []string{
		"", "null", "{}", "[]", `"x"`, "\x00\xff",
		`{"version": 1, "entries": null}`,
		`{"version": 1.0, "entries": []}`,
		`{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 1`,
		`{"version": 1, "entries": [{"file": 3}, "x", null, {"file": "src/charm.py", "mtime_ns": "no"}]}`,
		`{"version": 1, "entries": [{"file": "gone.py", "mtime_ns": 1, "definitions": [], "references": []}, {"file": "../../etc/passwd"}]}`,
		// Our stamp with the real content hash (the rehash path) and odd extraction data.
		`{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 0, "definitions": [], "references": ["x", ""], "x_charmcraft_map": {"v": $V, "size": $SIZE, "sha256": "$HASH", "ref_counts": [-3, 0], "py": {"path": "src/charm.py", "lines": 1, "symbols": [{"name": "A.b", "kind": "method", "line": -1, "end_line": -5, "signature": "def b(\n"}], "facts": {"observes": [{"line": 0, "event": {"kind": "chain"}, "handler": {"kind": "call"}}], "calls": [{"value": {"kind": "call"}}], "keys": [{"object": [], "key": {"kind": "chain"}, "via": "get"}], "attrs": [{"object": [{}], "attr": ""}], "assigns": [{"target": [], "value": {"kind": "other"}}]}}}}]}`,
		// An entry trusted by mtime and size (the reuse path) that Cantrip would drop.
		`{"version": 1, "generated_at": 0, "entries": [{"file": "src/charm.py", "mtime_ns": $MTIME, "definitions": [{"name": "Z", "kind": "module"}], "references": [], "x_charmcraft_map": {"v": $V, "size": $SIZE, "sha256": "", "ref_counts": [], "py": {"path": "src/charm.py", "symbols": [{"name": "", "kind": "", "line": 99}]}}}]}`,
		// The same file twice: ours first, a foreign entry last (the last one wins).
		`{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": $MTIME, "definitions": [], "references": [], "x_charmcraft_map": {"v": $V, "size": $SIZE, "sha256": "", "ref_counts": [], "py": {"path": "src/charm.py"}}}, {"file": "src/charm.py", "mtime_ns": $MTIME}]}`,
		// A huge reference count on a trusted entry: once expanded into gigabytes of references.
		`{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": 0, "definitions": [], "references": ["x"], "x_charmcraft_map": {"v": $V, "size": $SIZE, "sha256": "$HASH", "ref_counts": [3000000000], "py": {"path": "src/charm.py"}}}]}`,
		// Reference names and counts that disagree in length.
		`{"version": 1, "entries": [{"file": "src/charm.py", "mtime_ns": $MTIME, "definitions": [], "references": ["a", "b"], "x_charmcraft_map": {"v": $V, "size": $SIZE, "sha256": "$HASH", "ref_counts": [1], "py": {"path": "src/charm.py"}}}]}`,
		// Memos that hit, first and not first, and memos of the wrong shape.
		`{"x_charmcraft_map_memo": {"fingerprint": "$FP", "outputs": [{"key": "map", "out": "forged\n", "err": "warning: x\n"}]}, "version": 1, "entries": []}`,
		`{"version": 1, "entries": [], "x_charmcraft_map_memo": {"fingerprint": "$FP", "outputs": [{"key": "map"}]}}`,
		`{"x_charmcraft_map_memo": {"fingerprint": ["$FP"], "outputs": {"key": "map"}}, "version": 1}`,
		`{"x_charmcraft_map_memo": null, "x_charmcraft_map_memo": {"fingerprint": "$FP", "outputs": [null, {}]}}`,
		strings.Repeat("[", 20000),
	} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		in := []byte(tokens.Replace(string(data)))
		writeCacheBytes(t, root, in)
		c, warn := loadCache(root)
		if strings.Contains(warn, "\n") {
			t.Fatalf("warning is not one line: %q", warn)
		}
		for file, u := range c.ours {
			if u.file.Path != file {
				t.Fatalf("entry %q kept as ours: %+v", file, u)
			}
			if _, ok := c.raw[file]; !ok {
				t.Fatalf("entry %q is ours but has no raw form", file)
			}
		}

		memo, err := Load(Options{Root: root, MemoKey: "map"})
		if err != nil {
			t.Fatalf("Load for a memo: %v", err)
		}
		if memo.Memo == nil {
			memo.Save(nil)
		}
		writeCacheBytes(t, root, in)

		tr, err := Load(Options{Root: root})
		if err != nil {
			t.Fatalf("Load: %v", err)
		}
		tr.Rank(tr.Link(), []string{"src/charm.py"}, []string{"database"})
		if tr.Stats.Reused+tr.Stats.Rehashed == 0 && symbolSig(tr, "DemoCharm") != "class DemoCharm(ops.CharmBase):" {
			t.Fatalf("reparsed file lost its class: %+v", tr.Files)
		}
		checkWrittenCache(t, root, in, tr.Stats.CacheWritten)

		again, err := Load(Options{Root: root})
		if err != nil {
			t.Fatalf("second Load: %v", err)
		}
		if again.Stats.Parsed != 0 || again.Stats.Rehashed != 0 || again.Stats.CacheWritten {
			t.Fatalf("the cache left behind does not serve the next run: %+v", again.Stats)
		}
	})
}

func writeCacheBytes(t *testing.T, root string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, CacheFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkWrittenCache asserts that the cache file in root is what Cantrip's reader accepts
// (CONTRACT §6), lists exactly the mapped files in order, and decodes without a warning.
// Entries copied verbatim from the input (kept because their file is unchanged) are only
// required to decode.
func checkWrittenCache(t *testing.T, root string, in []byte, written bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version     json.RawMessage   `json:"version"`
		GeneratedAt json.RawMessage   `json:"generated_at"`
		Entries     []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("cache is not JSON: %v\n%s", err, b)
	}
	if string(doc.Version) != "1" {
		t.Fatalf("version = %s", doc.Version)
	}
	var at float64
	if len(doc.GeneratedAt) == 0 || string(doc.GeneratedAt) == "null" || json.Unmarshal(doc.GeneratedAt, &at) != nil {
		if !written {
			t.Skip("known gap (SECURITY.md): a cache whose entries are all current is not rewritten by check or interfaces, so a malformed top level (generated_at) is repaired only by a map that remembers an output")
		}
		t.Fatalf("generated_at = %s", doc.GeneratedAt)
	}
	var input struct{ Entries []json.RawMessage }
	json.Unmarshal(in, &input)
	verbatim := map[string]bool{}
	for _, raw := range input.Entries {
		verbatim[canonical(raw)] = true
	}
	var files []string
	for _, raw := range doc.Entries {
		var e struct {
			File        *string   `json:"file"`
			MtimeNS     *int64    `json:"mtime_ns"`
			Definitions *[]cdef   `json:"definitions"`
			References  *[]string `json:"references"`
		}
		if err := json.Unmarshal(raw, &e); err != nil || e.File == nil {
			t.Fatalf("entry %s: %v", raw, err)
		}
		files = append(files, *e.File)
		if verbatim[canonical(raw)] {
			continue
		}
		if e.MtimeNS == nil || e.Definitions == nil || e.References == nil {
			t.Fatalf("entry lacks a Cantrip key: %s", raw)
		}
		for _, d := range *e.Definitions {
			if d.Name == nil || d.Kind == nil || d.File == nil || d.Line == nil || d.Signature == nil || d.Qualifier == nil ||
				!cantripKinds[*d.Kind] || *d.File != *e.File {
				t.Fatalf("definition Cantrip would reject: %s", raw)
			}
		}
	}
	if want := []string{"metadata.yaml", "src/charm.py"}; !sort.StringsAreSorted(files) || strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("entries for %q, want %q", files, want)
	}
	c, warn := loadCache(root)
	if warn != "" || c.ours["src/charm.py"] == nil {
		t.Fatalf("the cache we wrote does not decode: %q", warn)
	}
}

// canonical re-encodes a JSON value so that copies differing only in layout compare equal.
func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

type cdef struct {
	Name      *string `json:"name"`
	Kind      *string `json:"kind"`
	File      *string `json:"file"`
	Line      *int    `json:"line"`
	Signature *string `json:"signature"`
	Qualifier *string `json:"qualifier"`
}

// FuzzSplitTop checks splitTop against encoding/json: whenever it splits a document whose
// entries are valid JSON, encoding/json must read the same version, entries and memo.
//
//	go test ./repomap -run '^$' -fuzz '^FuzzSplitTop$' -fuzztime 100000x
func FuzzSplitTop(f *testing.F) {
	for _, s := range []string{
		`{"version":1,"generated_at":1.5,"entries":[{"file":"a.py","x":[1,{"y":"]}\"\\"}]},null,"x"]}`,
		` { "x_charmcraft_map_memo" : {"fingerprint":"f","outputs":[{"key":"k","out":"o"}]} , "version" : 1 , "entries" : [ ] } `,
		`{"version":1,"version":2,"entries":[1],"entries":[2,3]}`,
		`{"Version":1}`, `{"entr\u0069es":[]}`, `{"version":1,}`, `{"version":1 "entries":[]}`,
		`{"version":tru,"entries":[]}`, `{"entries":[{]}`, `{"entries":[1}`, `{"a":"\"}`, `{}`, `{} x`,
		`{"x_charmcraft_map_memo":{"fingerprint":"a"},"x_charmcraft_map_memo":{"outputs":[]}}`,
		`{"x_charmcraft_map_memo":null,"version":1}`, `{"x_charmcraft_map_memo":{"fingerprint":3}}`,
		`{"x_charmcraft_map_tokens":"AAEC","version":1}`, `{"x_charmcraft_map_tokens":"A!","version":1}`, `{"x_charmcraft_map_tokens":[1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		top, ok := splitTop(data)
		if !ok {
			return
		}
		for _, e := range top.Entries {
			if _, ours := decodeOurs(e); ours {
				return // cut by its header, not scanned (see ourLen)
			}
			if !json.Valid(e) {
				return // decodeCache reports the file unreadable
			}
		}
		var want cacheTop
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("split, but encoding/json says %v", err)
		}
		if !bytes.Equal(top.Version, want.Version) || fmt.Sprint(top.Memo) != fmt.Sprint(want.Memo) || !bytes.Equal(top.Tokens, want.Tokens) ||
			len(top.Entries) != len(want.Entries) || (top.Entries == nil) != (want.Entries == nil) {
			t.Fatalf("split %q %v %d entries; encoding/json %q %v %d", top.Version, top.Memo, len(top.Entries),
				want.Version, want.Memo, len(want.Entries))
		}
		for i := range top.Entries {
			if !bytes.Equal(top.Entries[i], want.Entries[i]) {
				t.Fatalf("entry %d: %q, encoding/json %q", i, top.Entries[i], want.Entries[i])
			}
		}
	})
}

// loadCache reads and decodes the cache file as Load does, with its first warning.
func loadCache(root string) (cache, string) {
	data, warn := readCacheFile(root)
	c, warn2 := decodeCache(data)
	if warn == "" {
		warn = warn2
	}
	return c, warn
}
