package repomap

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/klauspost/compress/zstd"
)

// CacheFile is the cache's name in the root; Cantrip reads and writes the same file.
const CacheFile = ".cantrip-repomap.json"

// cacheVersion is the top-level "version" Cantrip and we agree on (CONTRACT §6).
const cacheVersion = 1

// ourVersion stamps the data we keep under ourKey. Bump it whenever pyextract's output for the
// same bytes changes (a change of its types changes the stamp by itself, see fileBlob):
// entries with another stamp are reparsed, never trusted.
const ourVersion = 127

// ourKey holds our own per-entry data; Cantrip ignores keys it does not know.
const ourKey = "x_charmcraft_map"

// writeBatch is the entries writeCache encodes before writing them.
const writeBatch = 256

// maxCacheBytes bounds the cache file we are willing to read (a variable for the tests).
var maxCacheBytes int64 = 256 << 20

// cantripKinds are the definition kinds Cantrip knows; it drops an entry holding any other.
var cantripKinds = map[string]bool{
	"class": true, "function": true, "method": true, "config-option": true, "action": true,
	"relation": true, "container": true, "storage": true, "resource": true,
}

// memoKey is the top-level key of the output memo; it is written first so that a warm run
// reads only it (see decodeMemo).
const memoKey = "x_charmcraft_map_memo"

// memoDoc remembers the last outputs printed for one state of the tree: Fingerprint covers
// every input file's path, mtime, ctime, size and mode (Python, charm YAML, templates), the
// walk's warnings, the root and the binary (see fingerprint), so a hit proves that rerunning
// the pipeline would print the same bytes.
type memoDoc struct {
	Fingerprint string `json:"fingerprint"`
	Outputs     []Memo `json:"outputs"`
	// Sum is memoSum of the rest, also written as the file's last key (endKey): a memo whose
	// sum differs was edited, and a file that does not end with it was cut short, so neither
	// is served (CONTRACT §6: a malformed file is treated as empty).
	Sum string `json:"sum,omitempty"`
}

// endKey is the cache file's last top-level key; its value is the memo's Sum and, after a
// dot, the length of the file before the key, in twelve digits (endTrailer).
const endKey = "x_charmcraft_map_end"

// memoSum is a digest of the memo's fingerprint and outputs.
func memoSum(m *memoDoc) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q", m.Fingerprint)
	for _, o := range m.Outputs {
		fmt.Fprintf(h, "\x00%q\x00%q\x00%q", o.Key, o.Out, o.Err)
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:16])
}

// endTrailer is how a cache file with memo m ends, when size bytes come before it: the
// memo's Sum and that size, so that a file added to, or doubled, is not served either.
func endTrailer(m *memoDoc, size int64) string {
	return fmt.Sprintf(",%q:\"%s.%012d\"}", endKey, m.Sum, size)
}

// Memo is one remembered output: what a command printed for a key (its flags).
type Memo struct {
	Key string `json:"key"`
	Out string `json:"out"`
	Err string `json:"err,omitempty"`
}

// maxMemos bounds the outputs remembered for one state of the tree, and maxMemoBytes their
// size. A warm run reads the memo before anything else and every remembered output is
// rewritten with the cache, so the memo stays small: an output over maxMemoOut (a JSON
// document listing every file's symbols, hundreds of kilobytes on a large charm) is printed
// but not remembered, since rewriting it on every call costs more than computing it again.
const (
	maxMemos     = 8
	maxMemoOut   = 64 << 10
	maxMemoBytes = 256 << 10
)

// cacheEntry is one file's entry in Cantrip's shape (a Python file's adds our data, see
// encode).
type cacheEntry struct {
	File string `json:"file"`
	// MtimeNS is the file's mtime in nanoseconds as Python's st_mtime_ns gives it, which
	// Cantrip compares: any integer (a date past 2262 needs more than 64 bits).
	MtimeNS     json.Number `json:"mtime_ns"`
	Definitions []cacheDef  `json:"definitions"`
	References  []string    `json:"references"`
}

type cacheDef struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Signature string `json:"signature"`
	Qualifier string `json:"qualifier"`
}

// cache is the decoded cache: our usable entries by file, and every entry as raw JSON so that
// entries we do not touch (unchanged, out of scope, or not ours) are written back unchanged.
type cache struct {
	ours   map[string]*usable
	raw    map[string]json.RawMessage
	memo   memoDoc
	tokens []byte
	links  []byte // the remembered links (links.go), unchecked
}

// usable is what we need to skip a parse: the mtime, size and content hash that prove the
// bytes are the ones parsed, and the extraction.
type usable struct {
	mtime int64
	exact string // the mtime in nanoseconds when it does not fit mtime (stat.exact)
	ctime int64  // the status-change time (stat.ctime)
	size  int64
	hash  string
	file  pyextract.File
}

// readCacheFile returns the cache file's bytes, or a warning when it cannot be used.
func readCacheFile(root string) ([]byte, string) {
	p := filepath.Join(root, CacheFile)
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, ""
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Sprintf("%s: not a regular file; not read or written", CacheFile)
	}
	if fi.Size() > maxCacheBytes {
		return nil, fmt.Sprintf("%s: larger than %d MiB; ignored", CacheFile, maxCacheBytes>>20)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Sprintf("%s: %v; ignored", CacheFile, unwrapPathErr(err))
	}
	return data, ""
}

// peekMemo reads the memo straight from the cache file, reading no further than it: on a
// large tree the file is many megabytes, the memo a few kilobytes.
func peekMemo(root string) memoDoc {
	p := filepath.Join(root, CacheFile)
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCacheBytes {
		return memoDoc{} // too large a file is ignored (readCacheFile says so), not scanned
	}
	f, err := os.Open(p)
	if err != nil {
		return memoDoc{}
	}
	defer f.Close()
	m := decodeMemo(io.LimitReader(f, maxCacheBytes))
	if m.Fingerprint == "" {
		return memoDoc{}
	}
	// the file must end as writeCache ends it: a cut or appended file is not served
	fi, err := f.Stat()
	if err != nil {
		return memoDoc{}
	}
	want := endTrailer(&m, fi.Size()-int64(len(endTrailer(&m, 0))))
	if fi.Size() < int64(len(want)) {
		return memoDoc{}
	}
	tail := make([]byte, len(want))
	if _, err := f.ReadAt(tail, fi.Size()-int64(len(want))); err != nil || string(tail) != want {
		return memoDoc{}
	}
	return m
}

// decodeMemo decodes only the memo, which we write as the first key: the rest of the file is
// never scanned, so a warm run costs a read of the file's head, not a parse of it. A file
// written by someone else (no memo first) yields no memo.
func decodeMemo(r io.Reader) memoDoc {
	var m memoDoc
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return m
	}
	if t, err := dec.Token(); err != nil || t != memoKey {
		return m
	}
	if dec.Decode(&m) != nil || m.Sum != memoSum(&m) {
		return memoDoc{}
	}
	return m
}

// cacheTop is the top level of a cache file, its entries left undecoded.
type cacheTop struct {
	Version json.RawMessage   `json:"version"`
	Entries []json.RawMessage `json:"entries"`
	Memo    memoDoc           `json:"x_charmcraft_map_memo"`
	// Tokens (Tree.TokenMemo) and Links (the remembered links, links.go) are base64 strings,
	// decoded by optionalBytes: a value of another type is dropped, not the whole file
	Tokens json.RawMessage `json:"x_charmcraft_map_tokens"`
	Links  json.RawMessage `json:"x_charmcraft_map_links"`
}

// tokensKey is the top-level key of Tree.TokenMemo, written after the memo.
const tokensKey = "x_charmcraft_map_tokens"

// decodeCache decodes the cache. Anything unreadable, malformed, foreign or of another version
// yields an empty or partial cache and a warning, never an error: a cache is only a speed-up.
// The top level is split by splitTop (encoding/json takes over for anything it does not
// expect), and entries are decoded on all cores; a syntax error anywhere makes the whole file
// unreadable, as if encoding/json had read it in one piece.
func decodeCache(data []byte) (cache, string) {
	c := cache{ours: map[string]*usable{}, raw: map[string]json.RawMessage{}}
	if data == nil {
		return c, ""
	}
	top, ok := splitTop(data)
	if !ok {
		top = cacheTop{}
		if err := json.Unmarshal(data, &top); err != nil {
			return c, fmt.Sprintf("%s: unreadable (%s); rebuilding", CacheFile, jsonout.Describe(err))
		}
	}
	if v, err := strconv.Atoi(string(bytes.TrimSpace(top.Version))); err != nil || v != cacheVersion {
		return c, fmt.Sprintf("%s: version %s is not %d; rebuilding", CacheFile, top.Version, cacheVersion)
	}
	type decoded struct {
		file string
		u    *usable
		err  error // a syntax error
	}
	out := make([]decoded, len(top.Entries))
	parallel(len(top.Entries), func(i int) {
		if u, ok := decodeOurs(top.Entries[i]); ok {
			out[i].file, out[i].u = u.file.Path, u
			return
		}
		var e cacheEntry // not ours (Cantrip's, an older stamp's, or altered): only kept
		if err := json.Unmarshal(top.Entries[i], &e); err != nil || e.File == "" {
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				out[i].err = err
			}
			return
		}
		out[i].file = e.File
	})
	for _, d := range out {
		if d.err != nil {
			return cache{ours: map[string]*usable{}, raw: map[string]json.RawMessage{}},
				fmt.Sprintf("%s: unreadable (%s); rebuilding", CacheFile, jsonout.Describe(d.err))
		}
	}
	c.memo, c.tokens, c.links = top.Memo, optionalBytes(top.Tokens), optionalBytes(top.Links)
	if c.memo.Sum != memoSum(&c.memo) { // edited: its outputs are not carried forward
		c.memo = memoDoc{}
	}
	for i, d := range out {
		if d.file == "" {
			continue
		}
		c.raw[d.file] = top.Entries[i] // a later entry for the same file wins, whole
		if d.u != nil {
			c.ours[d.file] = d.u
		} else {
			delete(c.ours, d.file)
		}
	}
	return c, ""
}

// optionalBytes decodes a base64 string of ours that only saves work (the token counts, the
// links): nil when it is anything else.
func optionalBytes(raw json.RawMessage) []byte {
	var b []byte
	if len(raw) == 0 || json.Unmarshal(raw, &b) != nil {
		return nil
	}
	return b
}

// splitTop splits a cache file's top-level object into its members without decoding the
// entries: one pass that only finds where each value ends, instead of encoding/json's two
// (validate, then decode) over many megabytes. The entries are validated when each is
// decoded, every other member here. ok is false for anything but an object with plain keys
// (encoding/json matches keys case-insensitively and unescapes them; those files take its
// path).
func splitTop(data []byte) (top cacheTop, ok bool) {
	s := scanner{b: data}
	if !s.byte('{') {
		return top, false
	}
	for first := true; ; first = false {
		if s.byte('}') {
			break
		}
		if !first && !s.byte(',') {
			return top, false
		}
		k0 := s.skipWS()
		if !s.str() {
			return top, false
		}
		key := string(data[k0+1 : s.i-1])
		if strings.IndexByte(key, '\\') >= 0 || !json.Valid(data[k0:s.i]) || !s.byte(':') {
			return top, false
		}
		v0 := s.skipWS()
		switch {
		case key == "entries":
			if top.Entries != nil { // only the last would be validated
				return top, false
			}
			if top.Entries, ok = s.array(); !ok {
				return top, false
			}
			continue
		case !s.value():
			return top, false
		}
		raw := data[v0:s.i]
		if !json.Valid(raw) {
			return top, false
		}
		switch {
		case key == "version":
			top.Version = raw
		case key == memoKey:
			if json.Unmarshal(raw, &top.Memo) != nil { // merges into a previous memo, as encoding/json does
				return top, false
			}
		case key == tokensKey:
			top.Tokens = raw
		case key == linksKey:
			top.Links = raw
		case strings.EqualFold(key, "entries") || strings.EqualFold(key, "version") || strings.EqualFold(key, memoKey) ||
			strings.EqualFold(key, tokensKey) || strings.EqualFold(key, linksKey):
			return top, false
		}
	}
	s.skipWS()
	return top, s.i == len(data)
}

// scanner finds the ends of JSON values; it checks structure (brackets, strings, commas), not
// the bytes of literals and strings, which json.Valid or a decode checks afterwards.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) skipWS() int {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i
		}
	}
	return s.i
}

// byte consumes c after optional white space.
func (s *scanner) byte(c byte) bool {
	if s.skipWS() < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str consumes a string starting at s.i: up to the first quote not escaped by an odd number
// of backslashes.
func (s *scanner) str() bool {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	for j := s.i + 1; ; j++ {
		k := bytes.IndexByte(s.b[j:], '"')
		if k < 0 {
			return false
		}
		j += k
		n := 0
		for n < j && s.b[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			s.i = j + 1
			return true
		}
	}
}

// value consumes any value starting at s.i.
func (s *scanner) value() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '[', '{':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if !s.str() {
					return false
				}
				continue
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	j := s.i
	for ; j < len(s.b); j++ {
		if c := s.b[j]; c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
	}
	if j == s.i {
		return false
	}
	s.i = j
	return true
}

// array consumes an array starting at s.i and returns its elements.
func (s *scanner) array() ([]json.RawMessage, bool) {
	if !s.byte('[') {
		return nil, false
	}
	out := []json.RawMessage{}
	if s.byte(']') {
		return out, true
	}
	for {
		v0 := s.skipWS()
		if n, ok := ourLen(s.b[v0:]); ok {
			s.i += n // checked by decodeOurs
		} else if !s.value() {
			return nil, false
		}
		out = append(out, s.b[v0:s.i])
		if s.byte(']') {
			return out, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// parallel runs fn(0..n-1) on all cores.
//
// A panic of fn on a worker goroutine is raised again on the caller's goroutine once every
// worker has stopped, so that the caller's recover sees it (a worker's panic would end the
// process with a stack trace).
func parallel(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var crash atomic.Value // the first worker's panic, raised again on the caller's goroutine
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					crash.CompareAndSwap(nil, panicValue{r})
				}
			}()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	if p, ok := crash.Load().(panicValue); ok {
		panic(p.v) // where the command's own recover (cmd/charmcraft-map) turns it into one line
	}
}

// panicValue boxes a recovered value for an atomic.Value, which needs one concrete type.
type panicValue struct{ v any }

// entryOf returns a parsed Python file's entry in Cantrip's shape. Cantrip's "references"
// list a referenced name once per occurrence (CONTRACT §6: Cantrip weighs a file's use of a
// name by how often it occurs), in the order of our counts, and its "definitions" hold the
// symbols of the kinds it knows. size is the file's size: each occurrence of a name takes at
// least the name's length of it, so the occurrences listed never take more than size bytes of
// names, whatever the counts of an entry whose bytes were forged say (a real file's are
// always listed in full).
func entryOf(f *pyextract.File, mtime int64, exact string, size int64) *cacheEntry {
	e := &cacheEntry{File: f.Path, MtimeNS: mtimeNS(mtime, exact), Definitions: []cacheDef{}, References: []string{}}
	budget := max(size, 0)
	for _, r := range f.Refs {
		n := int64(max(r.Count, 1))
		if l := int64(max(len(r.Name), 1)); n*l > budget {
			n = max(budget/l, 1) // at least once: the name is used
		}
		budget = max(budget-n*int64(len(r.Name)), 0)
		for range n {
			e.References = append(e.References, r.Name)
		}
	}
	for _, s := range f.Symbols {
		if cantripKinds[s.Kind] { // module constants live in our data only
			e.Definitions = append(e.Definitions, cacheDef{Name: s.Name, Kind: s.Kind, File: f.Path,
				Line: s.Line, Signature: s.Signature, Qualifier: s.Qualifier})
		}
	}
	return e
}

// ourPrefix starts every entry we write with our data: {"x_charmcraft_map":"<base64>",... so
// that decodeOurs finds it without parsing the entry.
const ourPrefix = `{"` + ourKey + `":"`

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Our data is compressed with zstd (klauspost/compress) at its fastest level: on the
// 2,000-file synthetic tree's 10.8 MB of binary data it keeps 40 % of the bytes, as deflate's
// BestSpeed does, but encodes 2.3 and decodes 3.6 times faster (116 ms and 39 ms against
// 264 ms and 142 ms on one core), and decoding every entry is most of a touched run's cache
// read. Both are safe for concurrent use.
var (
	zenc = sync.OnceValue(func() *zstd.Encoder {
		e, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
		return e // fails only for invalid options
	})
	zdec = sync.OnceValue(func() *zstd.Decoder {
		d, _ := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxBlob))
		return d
	})
)

// maxBlob bounds one entry's decompressed data; a real one is far smaller (the extraction of
// the largest file pyextract reads, 1 MiB of source).
const maxBlob = 64 << 20

// maxInflate bounds the expansion we accept: a stored length beyond it is not believed (the
// entry is reparsed), so a forged entry cannot make us allocate more than its size warrants.
// Real entries expand about 2.5 times.
const maxInflate = 1 << 12

// encoder is one goroutine's scratch space for encode.
type encoder struct{ raw, bin []byte }

var encoders = sync.Pool{New: func() any { return &encoder{} }}

// encode returns the cache entry of a parsed Python file, encoded: our data first, as
// one base64 string (Cantrip ignores the key), then Cantrip's keys (entryOf). The data is a
// CRC-32C, the length of the data, the length of the rest of the entry after the string,
// the stamp (ourVersion and the blob layout's hash), the length of what follows once
// decompressed, then, compressed, mtime, ctime, size, content hash and the extraction in binary (blob.go).
// The CRC covers the data and the rest of the entry, so an entry whose bytes differ in any way
// from what we wrote is never trusted, and one that matches is valid JSON without being
// scanned (see ourLen).
func (u *usable) encode() []byte {
	rest, err := json.Marshal(entryOf(&u.file, u.mtime, u.exact, u.size))
	if err != nil {
		panic(err) // strings and integers only: encoding/json cannot fail on them
	}
	rest = rest[1:] // after the "{"
	enc := encoders.Get().(*encoder)
	defer encoders.Put(enc)
	raw := binary.AppendVarint(enc.raw[:0], u.mtime)
	raw = binary.AppendVarint(raw, u.ctime)
	raw = binary.AppendVarint(raw, u.size)
	raw = append(binary.AppendUvarint(raw, uint64(len(u.hash))), u.hash...)
	raw = appendFileBlob(raw, &u.file)
	bin := append(enc.bin[:0], make([]byte, ourHead)...)
	binary.LittleEndian.PutUint32(bin[8:], uint32(len(rest)))
	bin = binary.AppendUvarint(bin, ourVersion)
	bin = binary.LittleEndian.AppendUint64(bin, fileBlob().shape)
	bin = binary.AppendUvarint(bin, uint64(len(raw)))
	bin = zenc().EncodeAll(raw, bin)
	enc.raw, enc.bin = raw, bin
	binary.LittleEndian.PutUint32(bin[4:], uint32(len(bin)))
	binary.LittleEndian.PutUint32(bin, crc32.Update(crc32.Checksum(bin[4:], castagnoli), castagnoli, rest))
	out := make([]byte, 0, len(ourPrefix)+base64.StdEncoding.EncodedLen(len(bin))+2+len(rest))
	out = base64.StdEncoding.AppendEncode(append(out, ourPrefix...), bin)
	return append(append(out, '"', ','), rest...)
}

// ourHead is the size of our data's header: CRC, data length, length of the rest.
const ourHead = 12

// ourSplit finds the base64 data and the rest of an entry of ours, from the lengths in its
// header, without scanning it; ok is false when b does not start like one. What it finds is
// only a guess until decodeOurs checks the CRC: an entry that fails is taken as JSON like any
// other, and a wrong guess makes it malformed.
func ourSplit(b []byte) (b64, rest []byte, ok bool) {
	const headB64 = ourHead / 3 * 4
	if !bytes.HasPrefix(b, []byte(ourPrefix)) || len(b) < len(ourPrefix)+headB64 {
		return nil, nil, false
	}
	b = b[len(ourPrefix):]
	var head [ourHead]byte
	if _, err := base64.StdEncoding.Decode(head[:], b[:headB64]); err != nil {
		return nil, nil, false
	}
	n := base64.StdEncoding.EncodedLen(int(binary.LittleEndian.Uint32(head[4:])))
	m := n + 2 + int(binary.LittleEndian.Uint32(head[8:]))
	if m > len(b) || m < n+3 || b[n] != '"' || b[n+1] != ',' || b[m-1] != '}' {
		return nil, nil, false
	}
	return b[:n], b[n+2 : m], true
}

// ourLen returns the length of the entry of ours b starts with (see ourSplit).
func ourLen(b []byte) (int, bool) {
	b64, rest, ok := ourSplit(b)
	return len(ourPrefix) + len(b64) + 2 + len(rest), ok
}

// strictBase64 decodes our entries: the unused low bits of a last character before its
// padding must be zero, or two spellings of one entry would both pass its CRC (a bit flipped
// there changes no decoded byte).
var strictBase64 = base64.StdEncoding.Strict()

// decoder is one goroutine's scratch space for decodeOurs.
type decoder struct{ bin []byte }

var decoders = sync.Pool{New: func() any { return &decoder{} }}

// decodeOurs returns the data of an entry encode wrote with our stamp, or false.
func decodeOurs(raw []byte) (*usable, bool) {
	b64, rest, ok := ourSplit(raw)
	if !ok || len(raw) != len(ourPrefix)+len(b64)+2+len(rest) {
		return nil, false
	}
	dec := decoders.Get().(*decoder)
	defer decoders.Put(dec)
	bin := slices.Grow(dec.bin[:0], base64.StdEncoding.DecodedLen(len(b64)))[:base64.StdEncoding.DecodedLen(len(b64))]
	dec.bin = bin
	n, err := strictBase64.Decode(bin, b64)
	if err != nil || n <= ourHead || n != int(binary.LittleEndian.Uint32(bin[4:])) ||
		binary.LittleEndian.Uint32(bin) != crc32.Update(crc32.Checksum(bin[4:n], castagnoli), castagnoli, rest) {
		return nil, false
	}
	d := &blobDecoder{s: unsafe.String(&bin[ourHead], n-ourHead)} // read before bin is reused
	if d.uvarint() != ourVersion || d.take(8) != string(binary.LittleEndian.AppendUint64(nil, fileBlob().shape)) {
		return nil, false
	}
	size := d.uvarint()
	if d.failed || size == 0 || size > maxBlob || size > uint64(len(d.s)-d.i)*maxInflate { // size > 0: mtime comes first
		return nil, false
	}
	// One zstd frame that holds exactly this size (and states it, when the encoder wrote the
	// size: it does above a few hundred bytes): anything else (a second frame, trailing bytes,
	// a cut) fails. A frame that does not state its size is bounded by zdec's memory limit. The strings of the extraction are cut from
	// the decompressed data, which is never written again: viewing it as a string saves
	// copying every entry's data once more.
	frame := bin[ourHead+d.i : n]
	var h zstd.Header
	if h.Decode(frame) != nil || h.HasFCS && h.FrameContentSize != size {
		return nil, false
	}
	data, err := zdec().DecodeAll(frame, make([]byte, 0, size))
	if err != nil || uint64(len(data)) != size {
		return nil, false
	}
	d = &blobDecoder{s: unsafe.String(&data[0], size)}
	u := &usable{mtime: d.varint(), ctime: d.varint(), size: d.varint()}
	u.hash = d.take(d.length())
	f, ok := decodeFileBlob(d)
	if !ok || d.i != len(d.s) {
		return nil, false
	}
	u.file = f
	return u, true
}

// yamlEntry is a charm YAML file's entry: its interfaces as Cantrip definitions. YAML is
// re-read on every run (a handful of small files), so no data of ours is stored.
func yamlEntry(file string, st stat, defs []cacheDef) *cacheEntry {
	if defs == nil {
		defs = []cacheDef{}
	}
	return &cacheEntry{File: file, MtimeNS: mtimeNS(st.mtime, st.exact), Definitions: defs, References: []string{}}
}

// mtimeNS is the mtime_ns of an entry: exact when set, else mtime.
func mtimeNS(mtime int64, exact string) json.Number {
	if exact != "" {
		return json.Number(exact)
	}
	return json.Number(strconv.FormatInt(mtime, 10))
}

func hashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// temps are the cache files being written by this process, removed by RemoveTempFiles when
// the process is stopped part-way (SIGTERM from a caller's timeout).
var temps sync.Map

// generatedAt is the cache's "generated_at" for t: Unix seconds, a float (CONTRACT §6), so
// always written with its fraction, to the microsecond: the shortest form of a time within
// about 120 ns of a whole second is an integer, which a reader that checks types takes for a
// malformed file (review rev100).
func generatedAt(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMicro())/1e6, 'f', 6, 64)
}

// RemoveTempFiles deletes the temporary cache files this process is writing. The command calls
// it on SIGINT and SIGTERM before exiting, so that a stopped run leaves the root as it was.
func RemoveTempFiles() {
	temps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// staleTempAge is how old another run's temporary cache file must be to be taken for one left
// by a killed run (kill -9 cannot be caught): a write takes seconds, so no live writer's is.
const staleTempAge = time.Minute

// removeStaleTemps deletes temporary cache files in root older than staleTempAge.
func removeStaleTemps(root string) {
	entries, _ := os.ReadDir(root) // not filepath.Glob: a root may hold [ or * in its path
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), CacheFile+".tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleTempAge {
			os.Remove(filepath.Join(root, e.Name()))
		}
	}
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// errNotRegular: the cache path holds a folder, a symbolic link or another non-regular file,
// which a run neither reads nor replaces (readCacheFile's warning says so, once).
var errNotRegular = errors.New("not a regular file")

// writeCache writes the entries by file (fresh ones, encoded here, and kept ones, written as
// they are; they never share a file) atomically: a temporary file in the root, then a rename,
// so readers see the old or the new file, never a torn one, and concurrent writers never
// corrupt it (the last rename wins). It refuses to replace anything but a regular file or
// nothing, so it never writes through a symbolic link.
func writeCache(root string, fresh map[string]*usable, keep map[string]json.RawMessage, memo *memoDoc, tokens, links []byte) error {
	p := filepath.Join(root, CacheFile)
	keepMode, hadFile := fs.FileMode(0), false // the existing file's permissions, kept: a user's chmod 600 stays
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return errNotRegular
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	} else if err == nil {
		keepMode, hadFile = fi.Mode().Perm(), true
	}
	files := make([]string, 0, len(fresh)+len(keep))
	for file := range fresh {
		files = append(files, file)
	}
	for file := range keep {
		files = append(files, file)
	}
	sort.Strings(files)
	// (stale temporary files a killed run left: Load has removed them, removeStaleTemps)
	tmp, err := createTemp(root)
	if err != nil { // without the random name, so that the warning is the same on every run
		return fmt.Errorf("cannot create a file in the root: %v", unwrapPathErr(err))
	}
	if hadFile { // before a byte is written: the data is never more readable than the user made it
		if err := tmp.Chmod(keepMode); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
	}
	temps.Store(tmp.Name(), true)
	defer func() {
		os.Remove(tmp.Name()) // no-op after a successful rename
		temps.Delete(tmp.Name())
	}()
	// The document is written by hand: kept entries are copied as they were read (each one
	// decoded, so valid JSON), never re-encoded or re-validated; the memo comes first (see
	// decodeMemo).
	counted := &countingWriter{w: tmp}
	w := bufio.NewWriterSize(counted, 1<<16)
	w.WriteByte('{')
	if memo != nil {
		memo.Sum = memoSum(memo)
		m, err := json.Marshal(memo)
		if err != nil {
			tmp.Close()
			return err
		}
		fmt.Fprintf(w, "%q:%s,", memoKey, m)
	}
	if len(tokens) > 0 {
		fmt.Fprintf(w, "%q:%q,", tokensKey, base64.StdEncoding.EncodeToString(tokens))
	}
	if len(links) > 0 {
		fmt.Fprintf(w, "%q:%q,", linksKey, base64.StdEncoding.EncodeToString(links))
	}
	fmt.Fprintf(w, `"version":%d,"generated_at":%s,"entries":[`, cacheVersion, generatedAt(time.Now()))
	// Fresh entries are encoded on all cores a batch at a time and streamed out, so that
	// neither every entry's bytes nor the document is ever held whole.
	batch := make([][]byte, writeBatch)
	for i := 0; i < len(files); i += writeBatch {
		n := min(writeBatch, len(files)-i)
		parallel(n, func(k int) {
			if u := fresh[files[i+k]]; u != nil {
				batch[k] = u.encode()
			} else {
				batch[k] = keep[files[i+k]]
			}
		})
		for k, raw := range batch[:n] {
			if i+k > 0 {
				w.WriteByte(',')
			}
			w.Write(raw)
		}
	}
	w.WriteString("]")
	if memo != nil {
		w.WriteString(endTrailer(memo, counted.n+int64(w.Buffered())))
	} else {
		w.WriteString("}")
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// createTemp creates the temporary cache file, named as os.CreateTemp would (CacheFile +
// ".tmp-" + random digits), with the permissions a new file gets under the user's umask (0666
// less the umask, as for any file the user's tools write), where os.CreateTemp gives 0600 and a
// fixed 0644 would ignore a umask of 077; writeCache narrows them to an existing cache's first.
func createTemp(root string) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(root, CacheFile+".tmp-"+strconv.FormatUint(rand.Uint64(), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}
