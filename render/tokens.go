package render

import (
	"fmt"
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
// additive across lines (see fit), so the budget can be filled line by line.
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

func newCounter(name string) (counter, error) {
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
	c, err := bpe(enc)
	if err != nil {
		return counter{}, err
	}
	return counter{name: name, perToken: 1, units: func(s string) int {
		n, err := c.Count(s)
		if err != nil { // only in strict UTF-8 mode, which we do not set; count bytes to stay safe
			return len(s)
		}
		return n
	}}, nil
}

// tokens converts units to tokens (rounding up).
func (c counter) tokens(units int) int {
	return (units + c.perToken - 1) / c.perToken
}

// Count returns the number of tokens of text under the named tokenizer (cl100k, o200k, chars4).
func Count(text, tokenizerName string) (int, error) {
	c, err := newCounter(tokenizerName)
	if err != nil {
		return 0, err
	}
	return c.tokens(c.units(text)), nil
}
