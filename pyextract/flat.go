package pyextract

/*
#include <stdbool.h>
#include <stdint.h>

// The subset of tree-sitter's api.h (the copy go-tree-sitter compiles) that parseTree needs.
// The library's symbols are linked in by the go-tree-sitter package; these declarations
// must match its version (TestFlattenMatchesBindings checks them).
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSTree TSTree;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

typedef struct TSParser TSParser;
typedef struct TSLanguage TSLanguage;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *);
bool ts_parser_set_language(TSParser *, const TSLanguage *);
TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
TSNode ts_tree_root_node(const TSTree *);
void ts_tree_delete(TSTree *);
TSLanguage *tree_sitter_python(void); // the grammar go-tree-sitter/python links in
TSTreeCursor ts_tree_cursor_new(TSNode);
void ts_tree_cursor_delete(TSTreeCursor *);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
bool ts_tree_cursor_goto_parent(TSTreeCursor *);
TSSymbol ts_node_symbol(TSNode);
bool ts_node_is_named(TSNode);
bool ts_node_is_missing(TSNode);
uint32_t ts_node_start_byte(TSNode);
uint32_t ts_node_end_byte(TSNode);
TSPoint ts_node_start_point(TSNode);
TSPoint ts_node_end_point(TSNode);
uint32_t ts_node_descendant_count(TSNode);

// pxNode mirrors the Go type node.
typedef struct {
	uint16_t sym, field;
	uint32_t start, end, row, end_row;
	int32_t last;
} pxNode;

// px_flatten copies root and its named descendants (MISSING nodes but root left out) into out in
// preorder, setting each node's last to the index after its subtree. It writes at most cap
// nodes; out must hold cap entries and stack one more than the subtree's depth. It returns the
// number of nodes written and stores the number of ERROR and MISSING nodes it visited in
// *errors, and the first row of a MISSING node (UINT32_MAX: none) in *missing_row.
static uint32_t px_flatten(TSNode root, pxNode *out, uint32_t cap, int32_t *stack, uint32_t *errors, uint32_t *missing_row) {
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t n = 0, depth = 0, errs = 0, mrow = UINT32_MAX;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		TSSymbol sym = ts_node_symbol(node);
		int32_t idx = -1;
		if (sym == (TSSymbol)-1) errs++;
		bool missing = ts_node_is_missing(node);
		if (missing) {
			errs++;
			uint32_t row = ts_node_start_point(node).row;
			if (row < mrow) mrow = row;
		}
		if (n < cap && (depth == 0 || (!missing && ts_node_is_named(node)))) {
			TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
			pxNode *o = &out[n];
			o->sym = sym;
			o->field = ts_tree_cursor_current_field_id(&c);
			o->start = ts_node_start_byte(node);
			o->end = ts_node_end_byte(node);
			o->row = sp.row;
			o->end_row = ep.row;
			idx = (int32_t)n++;
		}
		stack[depth] = idx;
		if (idx >= 0 && ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		for (;;) {
			if (stack[depth] >= 0) out[stack[depth]].last = (int32_t)n;
			if (depth == 0) goto done;
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			ts_tree_cursor_goto_parent(&c);
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	*errors = errs;
	*missing_row = mrow;
	return n;
}

static TSParser *px_parser(void) {
	TSParser *p = ts_parser_new();
	ts_parser_set_language(p, tree_sitter_python());
	return p;
}

// px_parse parses src (not copied: tree-sitter reads it only during the call) and stores the
// root's descendant count in *count. It returns NULL if tree-sitter gave up.
static TSTree *px_parse(TSParser *p, const char *src, uint32_t len, uint32_t *count) {
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (t) *count = ts_node_descendant_count(ts_tree_root_node(t));
	return t;
}

// px_flatten_tree flattens the whole of t like px_flatten, then deletes t.
static uint32_t px_flatten_tree(TSTree *t, pxNode *out, uint32_t cap, int32_t *stack, uint32_t *errors, uint32_t *missing_row) {
	uint32_t n = px_flatten(ts_tree_root_node(t), out, cap, stack, errors, missing_row);
	ts_tree_delete(t);
	return n;
}
*/
import "C"

import (
	"iter"
	"runtime"
	"sync"
	"unsafe"
)

// node is one named syntax node copied out of tree-sitter. Its layout matches pxNode.
type node struct {
	sym, field  uint16
	start, end  uint32 // byte offsets
	row, endRow uint32 // 0-based
	last        int32  // index after this node's subtree
}

// tree is a syntax tree flattened in preorder: node 0 is the root, the first child of node i
// (if any) is i+1, and the next sibling of a child c is nodes[c].last. Walking it costs no
// calls into C, which through go-tree-sitter cost an allocation per node.
type tree struct {
	nodes []node
	src   []byte
	stack []int32  // flatten's scratch space, kept for reuse
	names interner // interns the texts of names and words (nil: none)
	// missingRow is the first row of a MISSING node (a token tree-sitter inserted to go on:
	// they are not among nodes), -1 when there is none.
	missingRow int
}

// parser is a tree-sitter parser for Python, reused across files; it is not safe for
// concurrent use.
type parser struct{ c *C.TSParser }

var parsers = sync.Pool{New: func() any {
	p := &parser{c: C.px_parser()}
	runtime.AddCleanup(p, func(c *C.TSParser) { C.ts_parser_delete(c) }, p.c)
	return p
}}

// parseTree parses src and flattens the whole tree, reusing buf and stack when large enough;
// the tree-sitter tree is freed before it returns. It also returns the number of ERROR and
// MISSING nodes; ok is false if tree-sitter gave up.
//
// This is go-tree-sitter's Parse without its copy of src into C memory and without its Go
// wrappers of the tree, which nothing here needs.
func parseTree(src []byte, buf []node, stack []int32) (t tree, errs int, ok bool) {
	p := parsers.Get().(*parser)
	defer parsers.Put(p)
	var count C.uint32_t
	ct := C.px_parse(p.c, (*C.char)(unsafe.Pointer(unsafe.SliceData(src))), C.uint32_t(len(src)), &count)
	if ct == nil {
		return tree{}, 0, false
	}
	n := max(int(count), 1) // count includes the root
	if cap(buf) < n {
		buf = make([]node, n)
	}
	if cap(stack) < n+1 {
		stack = make([]int32, n+1)
	}
	buf, stack = buf[:n], stack[:n+1]
	var cerrs, missingRow C.uint32_t
	got := C.px_flatten_tree(ct, (*C.pxNode)(unsafe.Pointer(&buf[0])), C.uint32_t(n),
		(*C.int32_t)(unsafe.Pointer(&stack[0])), &cerrs, &missingRow)
	t = tree{nodes: buf[:got], src: src, stack: stack, missingRow: -1}
	if missingRow != C.UINT32_MAX {
		t.missingRow = int(missingRow)
	}
	return t, int(cerrs), true
}

func (t *tree) kind(i int32) nodeKind { return symKind(t.nodes[i].sym) }

// raw is node i's source bytes.
func (t *tree) raw(i int32) []byte {
	n := &t.nodes[i]
	if int(n.end) > len(t.src) || n.start > n.end {
		return nil
	}
	return t.src[n.start:n.end]
}

// text is node i's source text as valid UTF-8.
func (t *tree) text(i int32) string { return t.names.bytes(t.raw(i)) }

// child returns the first child of i in field f, or -1.
func (t *tree) child(i int32, f uint16) int32 {
	for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
		if t.nodes[c].field == f {
			return c
		}
	}
	return -1
}

// children yields i's children other than comments, in source order.
func (t *tree) children(i int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
			if t.kind(c) != kComment && !yield(c) {
				return
			}
		}
	}
}

// namedChild returns the k-th child of i that is not a comment, or -1.
func (t *tree) namedChild(i int32, k int) int32 {
	for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
		if t.kind(c) == kComment {
			continue
		}
		if k == 0 {
			return c
		}
		k--
	}
	return -1
}

// parent returns the parent of node i (-1 for the root): the nearest node before i whose
// subtree holds i.
func (t *tree) parent(i int32) int32 {
	for p := i - 1; p >= 0; p-- {
		if t.nodes[p].last > i {
			return p
		}
	}
	return -1
}
