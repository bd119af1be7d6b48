package repomap

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// The extraction we keep per file is stored in a compact binary form (base64 in the JSON, see
// cache.go): decoding JSON through reflection was most of a run that changed one file.
// The form is derived from the Go types by reflection, so pyextract can add or change fields
// freely: fileBlob().shape hashes the types' layout into every entry's stamp, and an entry
// written for another layout is never decoded.
//
// Layout: bools one byte; signed integers zig-zag varints; unsigned ones varints; floats 8
// bytes; strings a length then the bytes; slices a length+1 (0 for nil, so nil and empty
// survive) then the elements; pointers a 0 or 1 then the element; structs their exported
// fields in order (fields encoding/json skips, `json:"-"`, are skipped too).

// blobMaxDepth bounds the nesting of structs a decode follows, so that a forged entry cannot
// exhaust the stack; deeper data makes the entry unusable (the file is parsed instead).
const blobMaxDepth = 1 << 12

type blobCodec struct {
	enc func(b []byte, v reflect.Value) []byte
	dec func(d *blobDecoder, v reflect.Value)
}

type blobTypes struct {
	codec  *blobCodec
	shape  uint64 // a hash of the layout: field names and kinds, recursively
	arenas int    // slice types, each with an arena in a blobArenas
}

// newBlobTypes compiles the codec of t (hidden: see compileBlob) and hashes its layout.
func newBlobTypes(t reflect.Type, hidden bool) blobTypes {
	var shape strings.Builder
	arenas := 0
	c := compileBlob(t, hidden, map[reflect.Type]*blobCodec{}, &shape, &arenas)
	h := fnv.New64a()
	h.Write([]byte(shape.String()))
	return blobTypes{c, h.Sum64(), arenas}
}

// fileBlob is the codec of pyextract.File, built once.
var fileBlob = sync.OnceValue(func() blobTypes { return newBlobTypes(reflect.TypeFor[pyextract.File](), false) })

// blobArenas hand out short slices (and single elements for pointers) cut from larger
// blocks, one block per slice type at a time: a file's extraction is thousands of tiny
// slices, and allocating each alone was most of a decode. Each cut has its length as its
// capacity, so an append to it copies instead of writing into its neighbour.
type blobArenas []struct {
	block reflect.Value
	used  int
}

// blobArenaBlock is the elements per block; longer slices are allocated alone.
const blobArenaBlock = 256

var arenaPool = sync.Pool{New: func() any { a := make(blobArenas, fileBlob().arenas); return &a }}

func (a blobArenas) cut(k int, t reflect.Type, n int) reflect.Value {
	if n > blobArenaBlock/4 {
		return reflect.MakeSlice(t, n, n)
	}
	ar := &a[k]
	if !ar.block.IsValid() || ar.used+n > ar.block.Len() {
		ar.block, ar.used = reflect.MakeSlice(t, blobArenaBlock, blobArenaBlock), 0
	}
	ar.used += n
	return ar.block.Slice3(ar.used-n, ar.used, ar.used)
}

// appendFileBlob appends f's binary form to b.
func appendFileBlob(b []byte, f *pyextract.File) []byte {
	return fileBlob().codec.enc(b, reflect.ValueOf(f).Elem())
}

// compileBlob builds the codec of t, writing its layout to shape; hidden keeps the fields
// encoding/json skips too. It panics on a kind the layout does not cover (maps,
// interfaces...): TestBlobRoundTrip and TestLinksRoundTrip catch that the moment pyextract or
// linker grows one.
func compileBlob(t reflect.Type, hidden bool, seen map[reflect.Type]*blobCodec, shape *strings.Builder, arenas *int) *blobCodec {
	if c, ok := seen[t]; ok {
		fmt.Fprintf(shape, "<%s>", t)
		return c
	}
	c := &blobCodec{}
	seen[t] = c
	fmt.Fprintf(shape, "%s(", t.Kind())
	defer shape.WriteString(")")
	switch t.Kind() {
	case reflect.Bool:
		c.enc = func(b []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(b, 1)
			}
			return append(b, 0)
		}
		c.dec = func(d *blobDecoder, v reflect.Value) { v.SetBool(d.byte() == 1) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.enc = func(b []byte, v reflect.Value) []byte { return binary.AppendVarint(b, v.Int()) }
		c.dec = func(d *blobDecoder, v reflect.Value) { v.SetInt(d.varint()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		c.enc = func(b []byte, v reflect.Value) []byte { return binary.AppendUvarint(b, v.Uint()) }
		c.dec = func(d *blobDecoder, v reflect.Value) { v.SetUint(d.uvarint()) }
	case reflect.Float32, reflect.Float64:
		c.enc = func(b []byte, v reflect.Value) []byte {
			return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
		}
		c.dec = func(d *blobDecoder, v reflect.Value) {
			if s := d.take(8); s != "" {
				v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64([]byte(s))))
			}
		}
	case reflect.String:
		c.enc = func(b []byte, v reflect.Value) []byte {
			return append(binary.AppendUvarint(b, uint64(v.Len())), v.String()...)
		}
		c.dec = func(d *blobDecoder, v reflect.Value) { v.SetString(d.take(d.length())) }
	case reflect.Slice:
		elem := compileBlob(t.Elem(), hidden, seen, shape, arenas)
		arena := *arenas
		*arenas++
		c.enc = func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, 0)
			}
			b = binary.AppendUvarint(b, uint64(v.Len())+1)
			for i := range v.Len() {
				b = elem.enc(b, v.Index(i))
			}
			return b
		}
		c.dec = func(d *blobDecoder, v reflect.Value) {
			n := d.uvarint()
			if n == 0 || d.failed {
				return
			}
			n--
			if n > uint64(len(d.s)-d.i) { // every element takes at least one byte
				d.failed = true
				return
			}
			s := d.arenas.cut(arena, t, int(n))
			for i := range int(n) {
				elem.dec(d, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Pointer:
		elem := compileBlob(t.Elem(), hidden, seen, shape, arenas)
		arena, slice := *arenas, reflect.SliceOf(t.Elem())
		*arenas++
		c.enc = func(b []byte, v reflect.Value) []byte {
			if v.IsNil() {
				return append(b, 0)
			}
			return elem.enc(append(b, 1), v.Elem())
		}
		c.dec = func(d *blobDecoder, v reflect.Value) {
			if d.byte() != 1 || d.failed {
				return
			}
			p := d.arenas.cut(arena, slice, 1).Index(0)
			elem.dec(d, p)
			v.Set(p.Addr())
		}
	case reflect.Struct:
		var fields []int
		var codecs []*blobCodec
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() || !hidden && sf.Tag.Get("json") == "-" {
				continue
			}
			fmt.Fprintf(shape, "%s:", sf.Name)
			fields = append(fields, i)
			codecs = append(codecs, compileBlob(sf.Type, hidden, seen, shape, arenas))
		}
		if len(fields) == 0 {
			panic(fmt.Sprintf("repomap: %s has no fields to store", t)) // would break the slice bound
		}
		c.enc = func(b []byte, v reflect.Value) []byte {
			for k, i := range fields {
				b = codecs[k].enc(b, v.Field(i))
			}
			return b
		}
		c.dec = func(d *blobDecoder, v reflect.Value) {
			if d.depth++; d.depth > blobMaxDepth {
				d.failed = true
			}
			for k, i := range fields {
				if d.failed {
					return
				}
				codecs[k].dec(d, v.Field(i))
			}
			d.depth--
		}
	default:
		panic(fmt.Sprintf("repomap: cannot store %s (kind %s) in the cache", t, t.Kind()))
	}
	return c
}

// blobDecoder reads a blob. Strings are cut from one string holding the whole blob, so a
// decode allocates no string. Any inconsistency sets failed; reads after that return zeros.
type blobDecoder struct {
	s      string
	i      int
	depth  int
	failed bool
	arenas blobArenas
}

func (d *blobDecoder) byte() byte {
	if d.i >= len(d.s) {
		d.failed = true
		return 0
	}
	d.i++
	return d.s[d.i-1]
}

func (d *blobDecoder) uvarint() uint64 {
	var x uint64
	for shift := 0; shift < 64; shift += 7 {
		c := d.byte()
		if d.failed {
			return 0
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x
		}
	}
	d.failed = true
	return 0
}

func (d *blobDecoder) varint() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// length reads a length that must fit in what is left.
func (d *blobDecoder) length() int {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.i) {
		d.failed = true
		return 0
	}
	return int(n)
}

func (d *blobDecoder) take(n int) string {
	if n > len(d.s)-d.i {
		d.failed = true
		return ""
	}
	d.i += n
	return d.s[d.i-n : d.i]
}

// decodeFileBlob decodes what appendFileBlob wrote, reading from d.
func decodeFileBlob(d *blobDecoder) (pyextract.File, bool) {
	a := arenaPool.Get().(*blobArenas)
	defer arenaPool.Put(a)
	d.arenas = *a
	var f pyextract.File
	fileBlob().codec.dec(d, reflect.ValueOf(&f).Elem())
	return f, !d.failed
}
