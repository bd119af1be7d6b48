package pyextract

import (
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// factKind codes the few node types only fact extraction looks at (nodes.go has the rest).
type factKind uint8

const (
	fkOther factKind = iota
	fkReturn
	fkRaise
	fkSequence // list, tuple, set or a bare a, b expression list
	fkMatch
	fkAugmented
)

var factKinds = func() []factKind {
	names := map[string]factKind{
		"return_statement":     fkReturn,
		"raise_statement":      fkRaise,
		"list":                 fkSequence,
		"tuple":                fkSequence,
		"set":                  fkSequence,
		"expression_list":      fkSequence,
		"match_statement":      fkMatch,
		"augmented_assignment": fkAugmented,
	}
	n := pyLang.SymbolCount()
	ks := make([]factKind, n)
	for s := uint32(0); s < n; s++ {
		sym := sitter.Symbol(s)
		if pyLang.SymbolType(sym) == sitter.SymbolTypeRegular {
			ks[s] = names[pyLang.SymbolName(sym)]
		}
	}
	return ks
}()

func factKindOf(n *sitter.Node) factKind {
	if s := int(n.Symbol()); s < len(factKinds) {
		return factKinds[s]
	}
	return fkOther
}

// maxAnnotationLen bounds Assign.Annotation.
const maxAnnotationLen = 80

// funcState is what fact extraction tracks per function body.
type funcState struct {
	name string
	// returned is set once a return under a condition has been seen: the facts after it
	// may not run ("fast exit" guards in helper constructors).
	returned bool
	observe  map[string]bool // local aliases of a framework observe method
	keyed    map[string]bool // local names bound to a chain keyedObject accepts
}

// factFrame is one pending node of the iterative walk.
type factFrame struct {
	n     *sitter.Node
	class string
	fn    *funcState
	cond  bool
	// noCall: the node, if a call, is an assigned value or a raised exception, not a Call fact.
	noCall bool
	// callee: the node is the callee of a call (x.get in x.get("k")), not an attribute read.
	callee bool
}

type factWalker struct {
	src   []byte
	out   Facts
	stack []factFrame
}

// extractFacts walks a parsed module and returns the linker facts (see Facts). The walk
// uses an explicit stack, so nesting depth costs memory, not Go stack.
//
// Refinements over the Facts doc, which the linker relies on:
//   - Conditional is also set after a `return` under a condition in the same function (a
//     guard that exits early), and it is not set for the body of a `for` over a literal
//     list/tuple/set, which always runs. A try body is not conditional; except/else are.
//   - `for x in (A, B):` records one Assign of x per element, so x resolves to A or B.
//   - Calls of `__init__` (super().__init__(...), Base.__init__(self, ...)) and of
//     `<x>.resources.fetch(...)` are Call facts too; calls that are raised, or whose callee
//     ends in Error, Exception or Status, are not.
//   - In functions, only `x = ...` and `self.x = ...` are recorded; values that are neither a
//     string, f-string, chain nor call are dropped, and the arguments of a call whose callee
//     is neither a class nor a lookup are dropped (the callee alone says what x is).
//   - Keys and AttrReads are recorded on chains whose last name ends in "config", "params"
//     or "cfg" (Keys also: relations, storages, containers), or on a local name bound to
//     such a chain in the same function.
func extractFacts(root *sitter.Node, src []byte) Facts {
	if root == nil {
		return Facts{}
	}
	w := &factWalker{src: src}
	w.push(factFrame{n: root})
	for len(w.stack) > 0 {
		f := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.visit(f)
	}
	return w.out
}

func (w *factWalker) push(f factFrame) {
	if f.n != nil {
		w.stack = append(w.stack, f)
	}
}

// pushChildren pushes n's named children so that they pop in source order.
func (w *factWalker) pushChildren(f factFrame, n *sitter.Node) {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		c := n.NamedChild(i)
		if kindOf(c) != kComment {
			w.push(factFrame{n: c, class: f.class, fn: f.fn, cond: f.cond})
		}
	}
}

// pushChildrenCond pushes n's named children, those other than keep under a condition.
func (w *factWalker) pushChildrenCond(f factFrame, n, keep *sitter.Node) {
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		c := n.NamedChild(i)
		if kindOf(c) == kComment {
			continue
		}
		cond := true
		if keep != nil && c.Equal(keep) {
			cond = f.cond
		}
		w.push(factFrame{n: c, class: f.class, fn: f.fn, cond: cond})
	}
}

func (w *factWalker) scope(f factFrame, n *sitter.Node) Scope {
	s := Scope{Class: f.class, Line: int(n.StartPoint().Row) + 1, Conditional: f.cond}
	if f.fn != nil {
		s.Func = f.fn.name
		s.Conditional = s.Conditional || f.fn.returned
	}
	return s
}

func (w *factWalker) visit(f factFrame) {
	n := f.n
	switch kindOf(n) {
	case kComment, kIdentifier:
		return
	case kClassDef:
		if name := field(n, "name"); name != nil {
			w.push(factFrame{n: field(n, "body"), class: text(name, w.src), cond: f.cond})
		}
		return
	case kFunctionDef:
		if name := field(n, "name"); name != nil {
			w.push(factFrame{n: field(n, "body"), class: f.class, fn: &funcState{name: text(name, w.src)}})
		}
		return
	case kDecoratedDef:
		w.push(factFrame{n: field(n, "definition"), class: f.class, fn: f.fn, cond: f.cond})
		return
	case kIf, kElif, kWhile:
		w.pushChildrenCond(f, n, field(n, "condition"))
		return
	case kElse, kExcept:
		w.pushChildrenCond(f, n, nil)
		return
	case kTry:
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			c := n.NamedChild(i)
			k := kindOf(c)
			w.push(factFrame{n: c, class: f.class, fn: f.fn, cond: f.cond || k == kExcept || k == kElse})
		}
		return
	case kFor:
		w.visitFor(f)
		return
	case kAssignment:
		w.visitAssign(f)
		return
	case kCall:
		w.visitCall(f)
		return
	case kSubscript:
		w.visitSubscript(f)
		return
	case kAttribute:
		w.visitAttribute(f)
		return
	}
	switch factKindOf(n) {
	case fkReturn:
		if f.fn != nil && f.cond {
			f.fn.returned = true
		}
	case fkRaise:
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			w.push(factFrame{n: n.NamedChild(i), class: f.class, fn: f.fn, cond: f.cond, noCall: true})
		}
		return
	case fkMatch:
		w.pushChildrenCond(f, n, field(n, "subject"))
		return
	case fkAugmented:
		w.push(factFrame{n: field(n, "right"), class: f.class, fn: f.fn, cond: f.cond})
		return
	}
	w.pushChildren(f, n)
}

// visitFor records `for x in <literal sequence>` as one Assign of x per element; the body of
// such a loop always runs, the body of any other loop is conditional.
func (w *factWalker) visitFor(f factFrame) {
	n := f.n
	left, right := field(n, "left"), field(n, "right")
	literal := right != nil && factKindOf(right) == fkSequence && right.NamedChildCount() > 0
	var elems []Value
	if literal {
		for i, cnt := 0, int(right.NamedChildCount()); i < cnt; i++ {
			c := right.NamedChild(i)
			if kindOf(c) == kComment {
				continue
			}
			v := valueOf(c, w.src)
			if v.Kind == ValOther {
				literal = false
				break
			}
			elems = append(elems, v)
		}
	}
	if literal && left != nil && kindOf(left) == kIdentifier {
		target := Chain{{Name: text(left, w.src)}}
		for _, v := range elems {
			w.out.Assigns = append(w.out.Assigns, Assign{Scope: w.scope(f, n), Target: target, Value: v})
		}
	}
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		c := n.NamedChild(i)
		if kindOf(c) == kComment || (left != nil && c.Equal(left)) {
			continue
		}
		cond := f.cond
		if kindOf(c) == kElse || (kindOf(c) == kBlock && !literal) {
			cond = true
		}
		w.push(factFrame{n: c, class: f.class, fn: f.fn, cond: cond})
	}
}

func (w *factWalker) visitAssign(f factFrame) {
	n := f.n
	left, right, typ := field(n, "left"), field(n, "right"), field(n, "type")
	value := right
	for value != nil && kindOf(value) == kAssignment { // a = b = v: both get v
		value = field(value, "right")
	}
	recorded := false
	if target, ok := chainOf(left, w.src); ok && plainChain(target) {
		v := Value{Kind: ValOther}
		if value != nil {
			v = valueOf(value, w.src)
		}
		switch {
		case f.fn == nil:
			recorded = len(target) == 1
		case len(target) == 2 && target[0].Name == "self", len(target) == 1:
			recorded = v.Kind != ValOther
			v = leanCall(v)
			if len(target) == 1 && v.Kind == ValChain {
				last := v.Chain[len(v.Chain)-1].Name
				if last == "observe" && len(v.Chain) > 1 {
					f.fn.observe = setName(f.fn.observe, target[0].Name)
				}
				if w.keyedChain(v.Chain, f) {
					f.fn.keyed = setName(f.fn.keyed, target[0].Name)
				}
			}
		}
		if recorded {
			a := Assign{Scope: w.scope(f, n), Target: target, Value: v}
			if typ != nil {
				a.Annotation = oneLine(rawText(typ, w.src), maxAnnotationLen)
			}
			w.out.Assigns = append(w.out.Assigns, a)
		}
	}
	w.push(factFrame{n: right, class: f.class, fn: f.fn, cond: f.cond, noCall: recorded && right != nil && kindOf(right) == kCall})
}

// plainChain reports whether c is a name followed by attribute names only.
func plainChain(c Chain) bool {
	for _, s := range c {
		if s.Name == "" {
			return false
		}
	}
	return len(c) > 0
}

func setName(m map[string]bool, name string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[name] = true
	return m
}

// leanCall drops the arguments of a call whose callee looks neither like a class nor like a
// lookup: the linker only needs to know the value came from that call.
func leanCall(v Value) Value {
	if v.Kind == ValCall && len(v.Chain) > 0 {
		last := v.Chain[len(v.Chain)-1].Name
		if !isLookup(last) && !upperInitial(last) {
			v.Args, v.Kwargs = nil, nil
		}
	}
	return v
}

func isLookup(name string) bool {
	for _, l := range LookupCalls {
		if l == name {
			return true
		}
	}
	return false
}

func upperInitial(name string) bool {
	for _, r := range name {
		return unicode.IsUpper(r)
	}
	return false
}

// lastName is the attribute or identifier name n ends with ("" for anything else).
func (w *factWalker) lastName(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	switch kindOf(n) {
	case kIdentifier:
		return text(n, w.src)
	case kAttribute:
		if a := field(n, "attribute"); a != nil {
			return text(a, w.src)
		}
	}
	return ""
}

func (w *factWalker) visitCall(f factFrame) {
	n := f.n
	fn, args := field(n, "function"), field(n, "arguments")
	name := w.lastName(fn)
	if fn != nil && args != nil && kindOf(args) == kArgumentList {
		isAttr := kindOf(fn) == kAttribute
		switch {
		case isAttr && name == "observe", !isAttr && f.fn != nil && f.fn.observe[name]:
			ev, h := callArgs(args, w.src, "bound_event", "observer")
			w.out.Observes = append(w.out.Observes, Observe{
				Scope: w.scope(f, n), Event: valueOf(ev, w.src), Handler: valueOf(h, w.src),
			})
			return
		case name == "get" && isAttr:
			obj := field(fn, "object")
			if k, _ := callArgs(args, w.src, "key", ""); k != nil && w.keyedObject(obj, f, true) {
				w.addKey(f, n, obj, k, "get")
			}
		}
		if !f.noCall && w.callFact(fn, args, name) {
			if v := valueOf(n, w.src); v.Kind == ValCall {
				w.out.Calls = append(w.out.Calls, Call{Scope: w.scope(f, n), Value: v})
			}
		}
	}
	w.push(factFrame{n: args, class: f.class, fn: f.fn, cond: f.cond})
	w.push(factFrame{n: fn, class: f.class, fn: f.fn, cond: f.cond, callee: true})
}

// callFact reports whether a call with this callee is recorded as a Call fact.
func (w *factWalker) callFact(fn, args *sitter.Node, name string) bool {
	switch {
	case isLookup(name), name == "__init__":
		return true
	case name == "fetch":
		return w.lastName(field(fn, "object")) == "resources"
	case upperInitial(name):
		for _, suffix := range []string{"Error", "Exception", "Status"} {
			if strings.HasSuffix(name, suffix) {
				return false
			}
		}
		return args.NamedChildCount() > 0
	}
	return false
}

// callArgs returns the first and second arguments of a call, positional or by keyword.
func callArgs(args *sitter.Node, src []byte, kw1, kw2 string) (a1, a2 *sitter.Node) {
	pos := 0
	for i, cnt := 0, int(args.NamedChildCount()); i < cnt; i++ {
		c := args.NamedChild(i)
		switch kindOf(c) {
		case kComment:
		case kKeywordArgument:
			name := field(c, "name")
			if name == nil {
				continue
			}
			switch string(rawText(name, src)) {
			case kw1:
				a1 = field(c, "value")
			case kw2:
				a2 = field(c, "value")
			}
		default:
			if pos == 0 {
				a1 = c
			} else if pos == 1 {
				a2 = c
			}
			pos++
		}
	}
	return a1, a2
}

func (w *factWalker) visitSubscript(f factFrame) {
	n := f.n
	obj, sub := field(n, "value"), field(n, "subscript")
	if sub != nil && sub.NextNamedSibling() == nil && w.keyedObject(obj, f, true) {
		w.addKey(f, n, obj, sub, "index")
	}
	w.push(factFrame{n: sub, class: f.class, fn: f.fn, cond: f.cond})
	w.push(factFrame{n: obj, class: f.class, fn: f.fn, cond: f.cond})
}

func (w *factWalker) addKey(f factFrame, at, obj, key *sitter.Node, via string) {
	c, ok := chainOf(obj, w.src)
	if !ok {
		return
	}
	k := valueOf(key, w.src)
	switch k.Kind {
	case ValStr, ValChain, ValFStr:
		w.out.Keys = append(w.out.Keys, KeyAccess{Scope: w.scope(f, at), Object: c, Key: k, Via: via})
	}
}

func (w *factWalker) visitAttribute(f factFrame) {
	n := f.n
	obj := field(n, "object")
	if !f.callee && w.keyedObject(obj, f, false) {
		if attr := field(n, "attribute"); attr != nil {
			if c, ok := chainOf(obj, w.src); ok {
				w.out.Attrs = append(w.out.Attrs, AttrRead{Scope: w.scope(f, n), Object: c, Attr: text(attr, w.src)})
			}
		}
	}
	w.push(factFrame{n: obj, class: f.class, fn: f.fn, cond: f.cond})
}

// keyedObject reports whether key or attribute reads on obj are facts: obj's last name ends
// in config/params/cfg, is relations/storages/containers (keys only), or is a local name
// bound to such a chain.
func (w *factWalker) keyedObject(obj *sitter.Node, f factFrame, keys bool) bool {
	name := w.lastName(obj)
	if name == "" {
		return false
	}
	if kindOf(obj) == kIdentifier && f.fn != nil && f.fn.keyed[name] {
		return true
	}
	return keyedName(name, keys)
}

func (w *factWalker) keyedChain(c Chain, f factFrame) bool {
	last := c[len(c)-1].Name
	if len(c) == 1 && f.fn.keyed[last] {
		return true
	}
	return last != "" && keyedName(last, true)
}

func keyedName(name string, keys bool) bool {
	if keys {
		switch name {
		case "relations", "storages", "containers":
			return true
		}
	}
	l := strings.ToLower(strings.TrimRight(name, "_"))
	return strings.HasSuffix(l, "config") || strings.HasSuffix(l, "params") || strings.HasSuffix(l, "cfg")
}
