//go:build linux && (amd64 || arm64)

package repomap

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestMtimePast2262(t *testing.T) {
	// A file dated past 2262 (an archive with bogus dates) has an st_mtime_ns beyond 64 bits:
	// the entry carries the exact value Cantrip computes, and Cantrip's entry for such a
	// file is kept, where decoding it into an int64 failed and dropped it.
	js := `{"file": "web/app.js", "mtime_ns": 10413792000000000001, "definitions": [], "references": []}`
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, "web/app.js": "class App {}\n",
		CacheFile: `{"version": 1, "generated_at": 1.5, "entries": [` + js + `]}`})
	// os.Chtimes goes through UnixNano, which wraps around past 2262: set the time directly
	when := syscall.Timespec{Sec: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), Nsec: 123}
	for _, f := range []string{"src/charm.py", "metadata.yaml"} {
		if err := syscall.UtimesNano(filepath.Join(root, f), []syscall.Timespec{when, when}); err != nil {
			t.Skipf("no such date here: %v", err)
		}
	}
	for range 2 { // written, then read back and written again
		if _, err := Load(Options{Root: root}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(root, CacheFile))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(js)) {
			t.Errorf("Cantrip's entry not kept:\n%s", data)
		}
		var doc struct {
			Entries []struct {
				File    string      `json:"file"`
				MtimeNS json.Number `json:"mtime_ns"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range doc.Entries {
			got[e.File] = e.MtimeNS.String()
		}
		for _, f := range []string{"src/charm.py", "metadata.yaml"} {
			if got[f] != "10413792000000000123" { // Python: os.stat(f).st_mtime_ns
				t.Errorf("%s: mtime_ns %s", f, got[f])
			}
		}
	}
	if tr, err := Load(Options{Root: root}); err != nil || tr.Stats.Parsed != 0 || tr.Stats.Rehashed != 0 {
		t.Errorf("warm run: %+v (%v)", tr.Stats, err)
	}
}
