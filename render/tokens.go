package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"math"
	"runtime/debug"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer names (--tokenizer).
const (
	TokCL100k = "cl100k" // OpenAI cl100k_base, the default
	TokO200k  = "o200k"  // OpenAI o200k_base
	TokChars4 = "chars4" // Cantrip's estimate: one token per 4 characters (code points), rounded up
)

// counter measures text in units: tokens for the BPE tokenizers, characters for chars4 (4
// per token). Working in units makes chars4 exact under concatenation, and BPE counts are
// additive across lines in practice (trim counts the whole text again, as BPE merges are not
// guaranteed to respect line ends), so the budget can be filled line by line.
type counter struct {
	name     string
	perToken int // units per token
	units    func(string) int
}

var codecs sync.Map // encoding → *lazyCodec

type lazyCodec struct {
	once  sync.Once
	codec tokenizer.Codec
	err   error
}

// bpe returns the cached codec of an encoding: loading one builds its vocabulary map, which
// is far too slow to repeat per call.
func bpe(enc tokenizer.Encoding) (tokenizer.Codec, error) {
	v, _ := codecs.LoadOrStore(enc, &lazyCodec{})
	lc := v.(*lazyCodec)
	lc.once.Do(func() { lc.codec, lc.err = tokenizer.Get(enc) })
	return lc.codec, lc.err
}

// newCounter returns the counter of a tokenizer. A BPE tokenizer's vocabulary is loaded only
// when a text not in memo (which may be nil) has to be counted.
func newCounter(name string, memo *TokenMemo) (counter, error) {
	var enc tokenizer.Encoding
	switch name {
	case TokChars4:
		return counter{name: name, perToken: 4, units: utf8.RuneCountInString}, nil
	case TokCL100k, "":
		name, enc = TokCL100k, tokenizer.Cl100kBase
	case TokO200k:
		enc = tokenizer.O200kBase
	default:
		return counter{}, fmt.Errorf("unknown tokenizer %q (want %s, %s or %s)", name, TokCL100k, TokO200k, TokChars4)
	}
	return counter{name: name, perToken: 1, units: func(s string) int {
		k := memo.key(name, s)
		if n, ok := memo.get(k); ok {
			return n
		}
		n := len(s) // a token holds at least one byte: never an undercount
		if c, err := bpe(enc); err == nil {
			if m, err := c.Count(s); err == nil { // errors only in strict UTF-8 mode, which we do not set
				n = m
			}
		}
		memo.put(k, n)
		return n
	}}, nil
}

// TokenMemo remembers BPE token counts by a hash of tokenizer and text, so that a later run
// whose lines (and whole text) were counted before does not load the tokenizer's vocabulary,
// which costs more than the rest of rendering. The caller keeps it between runs with Bytes and
// LoadTokenMemo. A nil *TokenMemo remembers nothing. Not safe for concurrent use.
type TokenMemo struct {
	old, used map[tokenKey]int
}

type tokenKey [16]byte

// maxTokenMemo bounds what Bytes keeps: the counts of the last run first, then older ones.
const maxTokenMemo = 1 << 14

// LoadTokenMemo reads what Bytes wrote; anything malformed is dropped, never an error. The
// counts decide what fits the budget, so a memo whose checksum does not match (a damaged
// cache file) is dropped whole.
func LoadTokenMemo(b []byte) *TokenMemo {
	m := &TokenMemo{old: map[tokenKey]int{}, used: map[tokenKey]int{}}
	if len(b) < 4 || binary.LittleEndian.Uint32(b[len(b)-4:]) != crc32.Checksum(b[:len(b)-4], memoCRC) {
		return m
	}
	b = b[:len(b)-4]
	for len(b) > len(tokenKey{}) && len(m.old) < maxTokenMemo {
		var k tokenKey
		copy(k[:], b)
		n, w := binary.Uvarint(b[len(k):])
		if w <= 0 || n > math.MaxInt32 {
			break
		}
		m.old[k] = int(n)
		b = b[len(k)+w:]
	}
	return m
}

// Bytes encodes the memo: every count the last Render used, then older ones, in a stable order,
// then a CRC-32C of them.
func (m *TokenMemo) Bytes() []byte {
	if m == nil {
		return nil
	}
	var b []byte
	add := func(counts, skip map[tokenKey]int) {
		for _, k := range slices.SortedFunc(maps.Keys(counts), func(x, y tokenKey) int { return bytes.Compare(x[:], y[:]) }) {
			if _, dup := skip[k]; !dup && len(b) < maxTokenMemo*(len(k)+5) {
				b = binary.AppendUvarint(append(b, k[:]...), uint64(counts[k]))
			}
		}
	}
	add(m.used, nil)
	add(m.old, m.used)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, memoCRC))
}

var memoCRC = crc32.MakeTable(crc32.Castagnoli)

// tokenizerModule is the version of the tokenizer library this binary was built with (and
// its checksum), part of every count's key: a new version may count a text differently, and
// a count remembered by the old one could put a map over its budget (rev90). "" when the
// build carries no module information (a test binary).
var tokenizerModule = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/tiktoken-go/tokenizer" {
				if d.Replace != nil {
					d = d.Replace
				}
				return d.Version + " " + d.Sum
			}
		}
	}
	return ""
})

func (m *TokenMemo) key(tokenizer, s string) tokenKey {
	if m == nil {
		return tokenKey{}
	}
	h := sha256.New()
	h.Write([]byte(tokenizer))
	h.Write([]byte{0})
	h.Write([]byte(tokenizerModule()))
	h.Write([]byte{0})
	h.Write([]byte(s))
	var k tokenKey
	copy(k[:], h.Sum(nil))
	return k
}

func (m *TokenMemo) get(k tokenKey) (int, bool) {
	if m == nil {
		return 0, false
	}
	n, ok := m.used[k]
	if !ok {
		if n, ok = m.old[k]; ok {
			m.used[k] = n
		}
	}
	return n, ok
}

func (m *TokenMemo) put(k tokenKey, n int) {
	if m != nil {
		m.used[k] = n
	}
}

// tokens converts units to tokens (rounding up).
func (c counter) tokens(units int) int {
	return (units + c.perToken - 1) / c.perToken
}

// budget is a token budget in the counter's units, saturating rather than overflowing for a
// budget near the int maximum (--tokens 2305843009213693952 with chars4).
func (c *counter) budget(tokens int) int {
	if tokens > math.MaxInt/c.perToken {
		return math.MaxInt
	}
	return tokens * c.perToken
}

// Count returns the number of tokens of text under the named tokenizer (cl100k, o200k, chars4).
func Count(text, tokenizerName string) (int, error) {
	c, err := newCounter(tokenizerName, nil)
	if err != nil {
		return 0, err
	}
	return c.tokens(c.units(text)), nil
}
