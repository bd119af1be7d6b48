package repomap

import (
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"sync"
	"unsafe"

	"github.com/cantrip-dev/charmcraft-map/linker"
)

// The linker's result is remembered in the cache with the fingerprint of the tree it was
// computed from (the output memo's, see fingerprint): an agent's turn with a task text not
// seen before misses the output memo, but its files are the same, and linking them again was
// most of such a turn on a monorepo (sunbeam-charms, 60 charms: over half of the turn's time
// in process). The result depends on nothing but what the fingerprint covers (the charms'
// YAML, the Python, the templates, the hook links and wrappers, the binary), so a blob whose
// fingerprint is the tree's is the result linker.Link would return.
//
// Layout: linksMagic, the fingerprint's length (uvarint) and bytes, the blob layout's hash
// (8 bytes), the result's length once decompressed (uvarint), one zstd frame of the result in
// the cache's binary form (blob.go, with the fields the JSON documents leave out, and nil
// slices told from empty ones), then a CRC-32C of everything before it (big-endian). Anything
// that fails a check is not used: the linker runs instead.

// linksKey is the top-level key of the remembered links (base64, as encoding/json writes
// []byte), written after the token memo.
const linksKey = "x_charmcraft_map_links"

// linksMagic starts the blob; a change of its layout changes it.
const linksMagic = "cml1"

// linksBlob is the codec of linker.Result, built once.
var linksBlob = sync.OnceValue(func() blobTypes { return newBlobTypes(reflect.TypeFor[linker.Result](), true) })

// encodeLinks returns the blob of res for the tree state fp, or nil when the result is too
// large to decode again (maxBlob).
func encodeLinks(fp string, res *linker.Result) []byte {
	raw := linksBlob().codec.enc(nil, reflect.ValueOf(res).Elem())
	if len(raw) > maxBlob {
		return nil
	}
	b := append([]byte(linksMagic), binary.AppendUvarint(nil, uint64(len(fp)))...)
	b = append(b, fp...)
	b = binary.LittleEndian.AppendUint64(b, linksBlob().shape)
	b = binary.AppendUvarint(b, uint64(len(raw)))
	b = zenc().EncodeAll(raw, b)
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// decodeLinks returns the result a blob of encodeLinks holds when it was made for the tree
// state fp by a binary of the same layout and is intact; ok is false otherwise.
func decodeLinks(b []byte, fp string) (res linker.Result, ok bool) {
	got, d := linksHeader(b)
	if d == nil || got != fp || binary.BigEndian.Uint32(b[len(b)-4:]) != crc32.Checksum(b[:len(b)-4], castagnoli) ||
		d.take(8) != string(binary.LittleEndian.AppendUint64(nil, linksBlob().shape)) {
		return res, false
	}
	size := d.uvarint()
	if d.failed || size == 0 || size > maxBlob {
		return res, false
	}
	data, err := zdec().DecodeAll([]byte(d.s[d.i:]), make([]byte, 0, size))
	if err != nil || uint64(len(data)) != size {
		return res, false
	}
	// the result's strings are cut from data, which nothing writes again
	d = &blobDecoder{s: unsafe.String(&data[0], size), arenas: make(blobArenas, linksBlob().arenas)}
	linksBlob().codec.dec(d, reflect.ValueOf(&res).Elem())
	if d.failed || d.i != len(d.s) {
		return linker.Result{}, false
	}
	return res, true
}

// linksFingerprint is the fingerprint a blob of encodeLinks was made for, "" when it is not
// one (decodeLinks checks the rest).
func linksFingerprint(b []byte) string {
	fp, _ := linksHeader(b)
	return fp
}

// linksHeader reads a blob's magic and fingerprint; d reads what follows them, up to the CRC
// (nil when b is no blob of encodeLinks).
func linksHeader(b []byte) (fp string, d *blobDecoder) {
	if len(b) < len(linksMagic)+4 || string(b[:len(linksMagic)]) != linksMagic {
		return "", nil
	}
	d = &blobDecoder{s: string(b[len(linksMagic) : len(b)-4])}
	if fp = d.take(d.length()); d.failed {
		return "", nil
	}
	return fp, d
}
