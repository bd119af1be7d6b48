package repomap

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// CacheFile is the cache's name in the root; Cantrip reads and writes the same file.
const CacheFile = ".cantrip-repomap.json"

// cacheVersion is the top-level "version" Cantrip and we agree on (CONTRACT §6).
const cacheVersion = 1

// ourVersion stamps the data we keep under ourKey. Bump it whenever pyextract's output for the
// same bytes changes: entries with another stamp are reparsed, never trusted.
const ourVersion = 1

// ourKey holds our own per-entry data; Cantrip ignores keys it does not know.
const ourKey = "x_charmcraft_map"

// maxCacheBytes bounds the cache file we are willing to read.
const maxCacheBytes = 256 << 20

// cantripKinds are the definition kinds Cantrip knows; it drops an entry holding any other.
var cantripKinds = map[string]bool{
	"class": true, "function": true, "method": true, "config-option": true, "action": true,
	"relation": true, "container": true, "storage": true, "resource": true,
}

// cacheDoc is the file as written. Unknown top-level keys are not kept: the file is a cache.
type cacheDoc struct {
	Version     int          `json:"version"`
	GeneratedAt float64      `json:"generated_at"`
	Entries     []cacheEntry `json:"entries"`
}

// cacheEntry is one parsed file in Cantrip's shape plus our data under ourKey.
type cacheEntry struct {
	File        string     `json:"file"`
	MtimeNS     int64      `json:"mtime_ns"`
	Definitions []cacheDef `json:"definitions"`
	References  []string   `json:"references"`
	Ours        *ourEntry  `json:"x_charmcraft_map,omitempty"`
}

type cacheDef struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Signature string `json:"signature"`
	Qualifier string `json:"qualifier"`
}

// ourEntry is what we need to skip a parse: a stamp, the size and content hash that prove the
// bytes are the ones parsed, and the full extraction.
type ourEntry struct {
	V    int             `json:"v"`
	Size int64           `json:"size"`
	Hash string          `json:"sha256"`
	Py   *pyextract.File `json:"py"`
}

// cache is the decoded cache: our usable entries by file, and every entry as raw JSON so that
// entries we do not touch (out of scope, or not ours) can be written back unchanged.
type cache struct {
	ours map[string]*cacheEntry
	raw  map[string]json.RawMessage
}

// loadCache reads the cache. Anything unreadable, malformed, foreign or of another version
// yields an empty or partial cache and a warning, never an error: a cache is only a speed-up.
func loadCache(root string) (cache, string) {
	c := cache{ours: map[string]*cacheEntry{}, raw: map[string]json.RawMessage{}}
	p := filepath.Join(root, CacheFile)
	fi, err := os.Lstat(p)
	if err != nil {
		return c, ""
	}
	if !fi.Mode().IsRegular() {
		return c, fmt.Sprintf("%s: not a regular file; cache not used", CacheFile)
	}
	if fi.Size() > maxCacheBytes {
		return c, fmt.Sprintf("%s: larger than %d MiB; ignored", CacheFile, maxCacheBytes>>20)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return c, fmt.Sprintf("%s: %v; ignored", CacheFile, unwrapPathErr(err))
	}
	var top struct {
		Version json.RawMessage   `json:"version"`
		Entries []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return c, fmt.Sprintf("%s: unreadable (%v); rebuilding", CacheFile, err)
	}
	if v, err := strconv.Atoi(string(bytes.TrimSpace(top.Version))); err != nil || v != cacheVersion {
		return c, fmt.Sprintf("%s: version %s is not %d; rebuilding", CacheFile, top.Version, cacheVersion)
	}
	for _, raw := range top.Entries {
		var e cacheEntry
		if json.Unmarshal(raw, &e) != nil || e.File == "" {
			continue
		}
		c.raw[e.File] = raw
		if e.Ours != nil && e.Ours.V == ourVersion && e.Ours.Py != nil && e.Ours.Py.Path == e.File {
			c.ours[e.File] = &e
		}
	}
	return c, ""
}

// newEntry builds the cache entry for a parsed Python file.
func newEntry(f *pyextract.File, mtime, size int64, hash string) *cacheEntry {
	e := &cacheEntry{File: f.Path, MtimeNS: mtime, Definitions: []cacheDef{}, References: cantripRefs(f)}
	for _, s := range f.Symbols {
		if !cantripKinds[s.Kind] {
			continue // module constants live in our data only
		}
		e.Definitions = append(e.Definitions, cacheDef{Name: s.Name, Kind: s.Kind, File: f.Path,
			Line: s.Line, Signature: s.Signature, Qualifier: s.Qualifier})
	}
	e.Ours = &ourEntry{V: ourVersion, Size: size, Hash: hash, Py: f}
	return e
}

// cantripRefs lists each referenced name once per occurrence, as Cantrip expects.
func cantripRefs(f *pyextract.File) []string {
	refs := []string{}
	for _, r := range f.Refs {
		for i := 0; i < r.Count; i++ {
			refs = append(refs, r.Name)
		}
	}
	return refs
}

// yamlEntry is a charm YAML file's entry: its interfaces as Cantrip definitions. YAML is
// re-read on every run (a handful of small files), so no data of ours is stored.
func yamlEntry(file string, mtime int64, defs []cacheDef) *cacheEntry {
	if defs == nil {
		defs = []cacheDef{}
	}
	return &cacheEntry{File: file, MtimeNS: mtime, Definitions: defs, References: []string{}}
}

func hashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// writeCache writes entries (plus kept raw entries) atomically: a temporary file in the root,
// then a rename, so readers see the old or the new file, never a torn one, and concurrent
// writers never corrupt it (the last rename wins). It refuses to replace anything but a
// regular file or nothing, so it never writes through a symbolic link.
func writeCache(root string, entries []*cacheEntry, keep map[string]json.RawMessage) error {
	p := filepath.Join(root, CacheFile)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; not writing the cache", CacheFile)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	type keyed struct {
		file string
		raw  json.RawMessage
	}
	all := make([]keyed, 0, len(entries)+len(keep))
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		all = append(all, keyed{e.File, b})
	}
	for file, raw := range keep {
		all = append(all, keyed{file, raw})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].file < all[j].file })
	raws := make([]json.RawMessage, len(all))
	for i, k := range all {
		raws[i] = k.raw
	}
	doc := struct {
		Version     int               `json:"version"`
		GeneratedAt float64           `json:"generated_at"`
		Entries     []json.RawMessage `json:"entries"`
	}{cacheVersion, float64(time.Now().UnixNano()) / 1e9, raws}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(root, CacheFile+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
