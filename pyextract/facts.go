package pyextract

import (
	"bytes"
	"path"
	"regexp"
	"slices"
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
	fkBoolOp   // a and b, a or b
	fkCondExpr // a if c else b
	fkForIn    // a comprehension's for ... in ... clause
	fkPattern  // a tuple target of a for loop: a, b and (a, b) and [a, b]
	fkCompr    // a list or set comprehension or a generator expression
	fkCompare  // a comparison: a in b, a == b, ...
	fkBinOp    // a binary operator: a + b, ...
	fkSplat    // *a in a list, tuple or set display
)

var factKinds = func() []factKind {
	names := map[string]factKind{
		"return_statement":       fkReturn,
		"raise_statement":        fkRaise,
		"list":                   fkSequence,
		"tuple":                  fkSequence,
		"set":                    fkSequence,
		"expression_list":        fkSequence,
		"match_statement":        fkMatch,
		"augmented_assignment":   fkAugmented,
		"boolean_operator":       fkBoolOp,
		"conditional_expression": fkCondExpr,
		"for_in_clause":          fkForIn,
		"pattern_list":           fkPattern,
		"tuple_pattern":          fkPattern,
		"list_pattern":           fkPattern,
		"list_comprehension":     fkCompr,
		"set_comprehension":      fkCompr,
		"generator_expression":   fkCompr,
		"comparison_operator":    fkCompare,
		"binary_operator":        fkBinOp,
		"list_splat":             fkSplat,
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

// Field ids only fact extraction reads.
var (
	fCondition   = fieldID("condition")
	fConsequence = fieldID("consequence")
	fSubject     = fieldID("subject")
)

func (t *tree) factKind(i int32) factKind {
	if s := int(t.nodes[i].sym); s < len(factKinds) {
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
	returned   bool
	returnLine int // the line of the first such return
	// exitReturned is set once such a return outside an except clause has been seen: until
	// then, the only returns are in except clauses, and what follows them is the function's
	// usual path (Scope.ExceptReturn).
	exitReturned bool
	property     bool             // decorated @property (or functools.cached_property)
	observe      map[string]bool  // local aliases of a framework observe method
	getters      map[string]Chain // local aliases of a config's get (config = self.model.config.get): the config
	keyed        map[string]bool  // local names bound to a chain keyedName accepts, and parameters annotated ConfigData
	params       map[string]bool  // the other parameters (self and cls aside)
	bound        map[string]bool  // names a for loop binds to the elements of what it runs over
	dicts        map[string]int32 // local names assigned a dict, list or tuple display: the display's node (-1: reassigned or changed since: sealTable)
	paths        map[string]bool  // the absolute paths recorded in it (Facts.Paths)
	// pairLoops are the loops over a table of (event, handler) pairs seen (pairLoop): an
	// observe of the pair's two items in one's body is one Observe per pair of the table
	pairLoops []pairLoop
}

// pairLoop is a for loop over the pairs of a table (node dict): a dict display's items, its
// target names key and val (`for k, v in {...}.items()`), or a list or tuple display of
// 2-tuples, its target names key and val (`for ev, h in [(a, b), ...]`) or one name elem whose
// items the body indexes (`for p in pairs: observe(p[0], p[1])`); its node spans [start, end).
type pairLoop struct {
	key, val, elem string
	dict           int32
	start, end     int32
}

// newFuncState is the state of function def at its start: its parameters sorted into those
// annotated as the charm config (src: ops.ConfigData), whose reads are facts as a config's
// are, and the others, whose string-keyed reads are facts too (a helper handed the config
// under any name: craft(src, ...) reading src["kube-proxy-extra-args"]); the linker follows
// them to the callers' arguments and keeps only those that are the config.
func (w *factWalker) newFuncState(def int32) *funcState {
	t := w.t
	fs := &funcState{name: t.text(t.child(def, fName)), property: def == w.propertyDef}
	ps := t.child(def, fParameters)
	if ps < 0 {
		return fs
	}
	for c := range t.children(ps) {
		var name, typ int32 = -1, -1
		switch t.kind(c) {
		case kIdentifier:
			name = c
		case kTypedParameter:
			name, typ = t.namedChild(c, 0), t.child(c, fType)
		case kDefaultParameter:
			name = t.child(c, fName)
		case kTypedDefaultParameter:
			name, typ = t.child(c, fName), t.child(c, fType)
		}
		if name < 0 || t.kind(name) != kIdentifier {
			continue
		}
		switch n := t.text(name); {
		case n == "self" || n == "cls":
		case typ >= 0 && configDataType(string(t.raw(typ))):
			fs.keyed = setName(fs.keyed, n)
		default:
			fs.params = setName(fs.params, n)
		}
	}
	return fs
}

// configDataType reports an annotation naming ops' ConfigData (ConfigData, ops.ConfigData,
// ops.model.ConfigData, "ConfigData", Optional[ConfigData], ConfigData | None).
func configDataType(annotation string) bool {
	return slices.Contains(strings.FieldsFunc(annotation, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}), "ConfigData")
}

// flow is how a node runs within its function. cond: under a condition; loop: in the body
// of a for loop over something other than a literal (conditional too, but see
// Scope.InLoop); outer: cond where the outermost such loop is, so that a condition inside
// the loop (dispatch on its elements) is told apart; guard: in the body of a try whose
// handlers catch no lookup error (conditional too, but see Scope.Guarded); model: in the
// body of a try a handler of which catches ops' ModelError (Scope.CatchesModelError);
// leader: every condition above is the body of an `if ….is_leader():` (Scope.Leader).
type flow struct{ cond, loop, outer, guard, model, leader bool }

// factFrame is one pending node of the iterative walk.
type factFrame struct {
	i     int32
	class string
	fn    *funcState
	flow
	// noCall: the node, if a call, is an assigned value or a raised exception, not a Call fact.
	noCall bool
	// callee: the node is the callee of a call (x.get in x.get("k")), not an attribute read.
	callee bool
}

type factWalker struct {
	t     *tree
	out   Facts
	stack []factFrame
	fills []fillGuard
	// propertyDef is the node of the last function definition seen decorated as a property
	// (0, the module, when none)
	propertyDef int32
}

// fillGuard is the body of an `if not NAME:` or `if NAME is None:` in a function: an
// assignment to NAME inside it fills in a value the caller did not give (Assign.Fills).
type fillGuard struct {
	class, fn, name string
	start, end      int // 1-based lines of the body
}

// factsOf walks a flattened module (whole, from the module node) and returns the linker facts
// (see Facts). The walk runs
// over the flattened tree with an explicit stack, so nesting depth costs memory, not Go
// stack, and no node costs a call into C.
//
// Refinements over the Facts doc, which the linker relies on:
//   - Conditional is also set after a `return` under a condition in the same function (a
//     guard that exits early), and it is not set for the body of a `for` over a literal
//     list/tuple/set, or over a table of (event, handler) pairs (pairLoop), which always
//     runs. A `finally` block is not conditional.
//   - `for x in (A, B):` records one Assign of x per element, so x resolves to A or B.
//   - Calls of `__init__` (super().__init__(...), Base.__init__(self, ...)), of
//     `<x>.resources.fetch(...)`, and calls passing a config-like chain as an argument
//     (Settings.from_config(self.config)) are Call facts too; calls that are raised, or
//     whose callee ends in Error, Exception or Status, are not.
//   - In functions, only `x = ...` and `self.x = ...` are recorded; values that are neither a
//     string, f-string, chain nor call are dropped, and the arguments of a call whose callee
//     is neither a class nor a lookup and that passes no config-like chain are dropped (the
//     callee alone says what x is).
//   - Keys and Attrs are recorded on chains whose last name ends in "config", "params"
//     or "cfg" (Keys also: relations, storages, containers), or on a local name bound to
//     such a chain, or to a call of config() without arguments (charm-helpers' whole
//     config: conf = hookenv.config()), in the same function.
//
// w, when not nil, is a walker whose buffers are reused; what factsOf returns is copied out of
// them, so that a File holds no spare capacity.
func factsOf(t *tree, w *factWalker) Facts {
	if len(t.nodes) == 0 {
		return Facts{}
	}
	if w == nil {
		w = new(factWalker)
	}
	w.t = t
	w.fills, w.propertyDef = w.fills[:0], 0
	w.push(factFrame{i: 0})
	for len(w.stack) > 0 {
		f := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.visit(f)
	}
	midParse()
	for k := range w.out.Assigns {
		a := &w.out.Assigns[k]
		a.Fills = len(a.Target) == 1 && slices.ContainsFunc(w.fills, func(g fillGuard) bool {
			return g.class == a.Class && g.fn == a.Func && g.name == a.Target[0].Name && g.start <= a.Line && a.Line <= g.end
		})
	}
	assigns := usedLocals(w.out)
	clear(w.out.Assigns)
	w.out.Assigns = w.out.Assigns[:0]
	slices.Sort(w.out.HandlerStrings)
	slices.Sort(w.out.DispatchOn)
	slices.Sort(w.out.FileNames)
	w.out.FileNames = slices.Compact(w.out.FileNames)
	w.out.FileNames = w.out.FileNames[:min(len(w.out.FileNames), MaxFileNames)]
	out := Facts{Observes: own(&w.out.Observes), Assigns: assigns, Calls: own(&w.out.Calls),
		Keys: own(&w.out.Keys), Stores: own(&w.out.Stores), Attrs: own(&w.out.Attrs), Narrows: own(&w.out.Narrows), Returns: own(&w.out.Returns),
		Dispatch: w.out.Dispatch, HandlerDispatch: w.out.HandlerDispatch, HandlerStrings: slices.Compact(own(&w.out.HandlerStrings)),
		DispatchOn: slices.Compact(own(&w.out.DispatchOn)), Paths: own(&w.out.Paths), FileNames: own(&w.out.FileNames)}
	w.out.Dispatch, w.out.HandlerDispatch = false, false
	w.t = nil
	return out
}

// own returns a copy of *buf (nil when empty) and empties *buf for reuse.
func own[T any](buf *[]T) []T {
	s := *buf
	if len(s) == 0 {
		return nil
	}
	c := slices.Clone(s)
	clear(s)
	*buf = s[:0]
	return c
}

// usedLocals returns, in a new array, out.Assigns without the assignments of local names that
// no fact of their function refers to (directly or through another kept local), unless the
// value is a fact by itself (a lookup, a class-like call, a call passing the config, a config
// helper's call with arguments: x = self._get_config("port") names the option read). Local
// assignments are most of the facts of a file; few of them matter to the linker.
func usedLocals(out Facts) []Assign {
	type fnKey struct{ class, fn string }
	used := map[fnKey]map[string]bool{}
	mark := func(sc Scope, v *Value) {
		k := fnKey{sc.Class, sc.Func}
		if used[k] == nil {
			used[k] = map[string]bool{}
		}
		v.names(used[k])
	}
	for i := range out.Observes {
		mark(out.Observes[i].Scope, &out.Observes[i].Event)
		mark(out.Observes[i].Scope, &out.Observes[i].Handler)
	}
	for i := range out.Calls {
		mark(out.Calls[i].Scope, &out.Calls[i].Value)
	}
	for _, keys := range [][]KeyAccess{out.Keys, out.Stores} {
		for i := range keys {
			k := &keys[i]
			mark(k.Scope, &Value{Kind: ValChain, Chain: k.Object})
			mark(k.Scope, &k.Key)
		}
	}
	for i := range out.Attrs {
		mark(out.Attrs[i].Scope, &Value{Kind: ValChain, Chain: out.Attrs[i].Object})
	}
	for i := range out.Narrows { // with_default = ["gpu"]; if key in with_default: ...
		mark(out.Narrows[i].Scope, &out.Narrows[i].Value)
	}
	for i := range out.Returns {
		mark(out.Returns[i].Scope, &out.Returns[i].Value)
	}
	local := func(a *Assign) bool { return a.Func != "" && len(a.Target) == 1 }
	keep := make([]bool, len(out.Assigns))
	for i := range out.Assigns {
		a := &out.Assigns[i]
		if !local(a) || standalone(a.Value) {
			keep[i] = true
			mark(a.Scope, &a.Value)
		}
	}
	for changed := true; changed; { // a kept local keeps the locals its value names
		changed = false
		for i := range out.Assigns {
			a := &out.Assigns[i]
			if !keep[i] && used[fnKey{a.Class, a.Func}][a.Target[0].Name] {
				keep[i], changed = true, true
				mark(a.Scope, &a.Value)
			}
		}
	}
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	kept := make([]Assign, 0, n)
	for i, a := range out.Assigns {
		if keep[i] {
			kept = append(kept, a)
		}
	}
	return kept
}

// standalone reports whether a local's value matters whatever the local is used for.
func standalone(v Value) bool {
	if v.Kind != ValCall || len(v.Chain) == 0 {
		return false
	}
	n := len(v.Chain)
	last := v.Chain[n-1].Name
	return isLookup(last) || upperInitial(last) || passesKeyed(v) || (last == "fetch" && n > 1 && v.Chain[n-2].Name == "resources") ||
		configHelper(last) && len(v.Args)+len(v.Kwargs) > 0
}

// names adds the names v refers to (the first name of each chain in it) to set.
func (v *Value) names(set map[string]bool) {
	switch v.Kind {
	case ValChain, ValCall, ValSeq, ValElem, ValDict, ValOr, ValConcat:
		v.Chain.names(set)
		for i := range v.Args {
			v.Args[i].names(set)
		}
		for i := range v.Kwargs {
			v.Kwargs[i].Value.names(set)
		}
	case ValFStr:
		for s := v.Str; ; {
			open := strings.IndexByte(s, '{')
			if open < 0 {
				return
			}
			s = s[open+1:]
			end := strings.IndexFunc(s, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if end < 0 {
				end = len(s)
			}
			set[s[:end]] = true
		}
	}
}

func (c Chain) names(set map[string]bool) {
	if len(c) > 0 && c[0].Name != "" {
		set[c[0].Name] = true
	}
	for _, s := range c {
		if s.Index != nil {
			s.Index.names(set)
		}
		if s.GetAttr != nil {
			s.GetAttr.names(set)
		}
	}
}

func (w *factWalker) push(f factFrame) {
	if f.i >= 0 {
		w.stack = append(w.stack, f)
	}
}

// leaderCall matches a test that the unit is the leader: self.unit.is_leader(),
// self.model.unit.is_leader(), self._charm.unit.is_leader(), charm-helpers' is_leader().
var leaderCall = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*\.)*is_leader\(\)$`)

// leaderTest reports an if's condition that is a test that the unit is the leader.
func (w *factWalker) leaderTest(cond int32) bool {
	return cond >= 0 && leaderCall.MatchString(string(w.t.raw(cond)))
}

// condRule says which children of a statement run conditionally.
type condRule uint8

const (
	condInherit    condRule = iota // as the statement
	condBut                        // all but the children in one field (an if's condition)
	condButFinally                 // all but a finally clause
	condHandlers                   // a try's except and else clauses; its body is guarded
)

// pushChildren pushes i's children other than comments and names (visit ignores both) so
// that they pop in source order, conditional by rule (keep is condBut's field).
func (w *factWalker) pushChildren(f factFrame, i int32, rule condRule, keep uint16) {
	t := w.t
	base := len(w.stack)
	for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
		if k := t.kind(c); k == kComment || k == kIdentifier {
			continue
		}
		cond, added := f.cond, false // added: a condition of this statement's own (a handler's body: a guard, below)
		switch rule {
		case condBut:
			added = t.nodes[c].field != keep
			cond = cond || added
		case condButFinally:
			added = t.kind(c) != kFinally
			cond = cond || added
		case condHandlers:
			added = t.kind(c) != kFinally
		}
		leader := f.leader && !added // (a new condition, whatever cond was, ends a leader-only body)
		if rule == condBut && t.kind(i) == kIf && t.nodes[c].field == fConsequence && !f.loop && !f.guard && (!f.cond || f.leader) && w.leaderTest(t.child(i, fCondition)) {
			leader = true
		}
		guard, model := f.guard, f.model
		if t.kind(i) == kTry && t.kind(c) == kBlock && !model {
			model = w.catchesModelError(i) // the try's body
		}
		if rule == condHandlers {
			handler := t.kind(c) == kExcept || t.kind(c) == kElse
			cond = cond || handler
			guard = guard || !handler && t.kind(c) != kFinally // the try's body
		}
		w.stack = append(w.stack, factFrame{i: c, class: f.class, fn: f.fn, flow: flow{cond, f.loop, f.outer, guard, model, leader}})
	}
	slices.Reverse(w.stack[base:])
}

func (w *factWalker) scope(f factFrame, i int32) Scope {
	s := Scope{Class: f.class, Line: int(w.t.nodes[i].row) + 1, Conditional: f.cond || f.loop}
	if f.fn != nil {
		s.Func = f.fn.name
		if f.fn.returned && !f.cond && !f.guard { // a loop body after the return too: it runs only when the function did not return
			s.AfterReturn = f.fn.returnLine
		}
		s.ExceptReturn = f.fn.returned && !f.fn.exitReturned && !s.Conditional && !f.guard
		s.Conditional = s.Conditional || f.fn.returned
		s.InLoop = f.loop && !f.outer && !f.fn.returned
		s.LoopAfterReturn = f.loop && s.AfterReturn > 0
	}
	s.Leader = f.leader && f.cond && !f.loop && !f.guard
	s.Guarded = f.guard && !s.Conditional
	s.Conditional = s.Conditional || f.guard
	s.CatchesModelError = f.model
	return s
}

// lookupErrors are the exceptions whose handler makes a try's body a probe for a name: what
// ops and Python raise for a name that is not there, and their bases.
var lookupErrors = map[string]bool{"KeyError": true, "LookupError": true, "NameError": true, "AttributeError": true,
	"Exception": true, "BaseException": true}

// catchesLookups reports whether a handler of the try statement i catches a lookupErrors
// exception (by its last name: ops.ModelError is ModelError), or everything (a bare except).
func (w *factWalker) catchesLookups(i int32) bool {
	return w.catches(i, lookupErrors)
}

// modelErrors are ops' ModelError and its bases.
var modelErrors = map[string]bool{"ModelError": true, "Exception": true, "BaseException": true}

// catchesModelError reports whether a handler of the try statement i catches ops'
// ModelError (by its last name), a base of it, or everything.
func (w *factWalker) catchesModelError(i int32) bool {
	return w.catches(i, modelErrors)
}

// catches reports whether a handler of the try statement i names one of errs (by its last
// name) or is a bare except.
func (w *factWalker) catches(i int32, errs map[string]bool) bool {
	t := w.t
	for c := range t.children(i) {
		if t.kind(c) != kExcept {
			continue
		}
		named := false
		for d := c + 1; d < t.nodes[c].last; d++ {
			if t.kind(d) == kBlock {
				break
			}
			if t.kind(d) == kIdentifier {
				named = true
				if errs[t.text(d)] {
					return true
				}
			}
		}
		if !named {
			return true // except: catches everything
		}
	}
	return false
}

// visit records the facts of one node and pushes the children to walk, each with the flow
// (condition, loop, guard) it runs under.
func (w *factWalker) visit(f factFrame) {
	t, i := w.t, f.i
	switch t.kind(i) {
	case kComment, kIdentifier:
		return
	case kClassDef:
		if name := t.child(i, fName); name >= 0 {
			w.push(factFrame{i: t.child(i, fBody), class: t.text(name), flow: f.flow})
		}
		return
	case kFunctionDef:
		if name := t.child(i, fName); name >= 0 {
			w.push(factFrame{i: t.child(i, fBody), class: f.class, fn: w.newFuncState(i)})
		}
		return
	case kDecoratedDef:
		def := t.child(i, fDefinition)
		if def >= 0 && isProperty(t, i) {
			w.propertyDef = def // walked next: newFuncState reads it
		}
		w.push(factFrame{i: def, class: f.class, fn: f.fn, flow: f.flow})
		return
	case kIf, kElif, kWhile:
		if t.kind(i) == kIf && f.fn != nil {
			w.fillGuard(f, i)
		}
		if t.kind(i) != kWhile && f.fn != nil {
			w.narrowing(f, i)
		}
		w.pushChildren(f, i, condBut, fCondition)
		return
	case kTry:
		// a try's body is conditional; when no handler catches what a missing name raises
		// (KeyError, NameError, ..., Exception), it is guarded only (Scope.Guarded)
		rule := condHandlers
		if w.catchesLookups(i) {
			rule = condButFinally
		}
		w.pushChildren(f, i, rule, 0)
		return
	case kElse, kExcept:
		w.pushChildren(f, i, condButFinally, 0)
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
	case kDictionary:
		// {**self.config, "x": 1}: a copy of every option, as dict(self.config) is
		for c := range t.children(i) {
			if t.kind(c) == kDictionarySplat {
				if obj := w.handedOn(c, f); obj >= 0 {
					w.addKey(f, c, obj, -1, "all")
				}
			}
		}
	case kString:
		if w.visitString(f) {
			return
		}
	case kSubscript:
		w.visitSubscript(f)
		return
	case kAttribute:
		w.visitAttribute(f)
		return
	case kPair:
		// {"config": self.config}: the whole config handed on in a dict (a template's
		// context), read by whatever reads the dict; so every option, as render(options=...)
		if v := t.child(i, fValue); f.fn != nil && v >= 0 && (t.kind(v) == kAttribute || t.kind(v) == kIdentifier) &&
			w.keyedObject(v, f, false) {
			w.addKey(f, i, v, -1, "all")
		}
	}
	switch t.factKind(i) {
	case fkCompare:
		w.membership(f, i)
	case fkReturn:
		w.visitReturn(f)
	case fkRaise:
		for c := range t.children(i) {
			w.push(factFrame{i: c, class: f.class, fn: f.fn, flow: f.flow, noCall: true})
		}
		return
	case fkMatch:
		w.pushChildren(f, i, condBut, fSubject)
		return
	case fkAugmented:
		w.unsealTable(f, t.child(i, fLeft)) // pairs += [...]
		w.push(factFrame{i: t.child(i, fRight), class: f.class, fn: f.fn, flow: f.flow})
		return
	case fkBoolOp: // a or b, a and b: b runs only as a's value says
		w.pushChildren(f, i, condBut, fLeft)
		return
	case fkCondExpr: // a if c else b: a runs only when c holds, b only when it does not
		base, test := len(w.stack), t.namedChild(i, 1)
		for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
			if k := t.kind(c); k != kComment && k != kIdentifier {
				w.stack = append(w.stack, factFrame{i: c, class: f.class, fn: f.fn, flow: flow{f.cond || c != test, f.loop, f.outer, f.guard, f.model, f.leader && c == test}})
			}
		}
		slices.Reverse(w.stack[base:])
		return
	case fkCompr:
		w.bindComprehension(f)
	case fkForIn:
		w.visitForIn(f)
	}
	w.pushChildren(f, i, condInherit, 0)
}

// visitString records a string literal's facts: a private name (a handler named in a string)
// and an absolute path, once per function. It reports a plain string, whose children are not
// walked.
func (w *factWalker) visitString(f factFrame) bool {
	t, i := w.t, f.i
	v := t.value(i, 0)
	if v.Kind != ValStr {
		return false
	}
	if privateName.MatchString(v.Str) {
		w.out.HandlerStrings = append(w.out.HandlerStrings, v.Str)
	}
	if len(v.Str) <= 200 && filePath.MatchString(v.Str) {
		w.out.FileNames = append(w.out.FileNames, path.Base(v.Str))
	}
	if f.fn != nil && absPath(v.Str) && !f.fn.paths[v.Str] {
		if f.fn.paths == nil {
			f.fn.paths = map[string]bool{}
		}
		f.fn.paths[v.Str] = true
		w.out.Paths = append(w.out.Paths, PathString{Scope: w.scope(f, i), Path: v.Str})
	}
	return true
}

// visitReturn records a return's facts: an early return under a condition (what follows runs
// only when it does not return), the whole config handed to the caller, and a returned
// value the linker resolves names through.
func (w *factWalker) visitReturn(f factFrame) {
	t, i := w.t, f.i
	if f.fn == nil {
		return
	}
	if f.cond || f.loop || f.guard {
		if !f.fn.returned {
			f.fn.returned, f.fn.returnLine = true, int(t.nodes[i].row)+1
		}
		f.fn.exitReturned = f.fn.exitReturned || !w.inExcept(i)
	}
	c := t.namedChild(i, 0)
	if c < 0 {
		return
	}
	// return self.charm.config: the whole config handed to the caller (a template's
	// context, ops-sunbeam's CharmConfigContext.context; a getter, adapter.get_config()),
	// whose reads the linker does not follow through a call; so every option, as in
	// render(options=self.config). Not from a property named for the config (@property
	// def _config(self): return self.model.config): self._config["x"] is a read of its own.
	if t.kind(c) == kAttribute && !(f.fn.property && keyedName(f.fn.name, false)) && w.keyedObject(c, f, false) {
		w.addKey(f, i, c, -1, "all")
	}
	if v := t.value(c, 0); v.Kind == ValStr || v.Kind == ValFStr || v.Kind == ValChain || selfCall(v) || construction(v) {
		w.out.Returns = append(w.out.Returns, Return{Scope: w.scope(f, i), Value: v})
	}
}

// bindComprehension binds the names of a comprehension's for clauses before its body is
// walked: the body comes first in the tree ([self._fetch(res) for res in RESOURCES]), and a
// call passing one is to be recorded as a call passing a loop's name is.
func (w *factWalker) bindComprehension(f factFrame) {
	t, i := w.t, f.i
	if f.fn == nil {
		return
	}
	for c := range t.children(i) {
		if t.factKind(c) != fkForIn {
			continue
		}
		left := t.child(c, fLeft)
		if left >= 0 && t.kind(left) == kIdentifier {
			f.fn.bound = setName(f.fn.bound, t.text(left))
		} else if left >= 0 && t.factKind(left) == fkPattern {
			for n := range t.children(left) {
				if t.kind(n) == kIdentifier {
					f.fn.bound = setName(f.fn.bound, t.text(n))
				}
			}
		}
	}
}

// visitForIn records a comprehension's for clause: its names, as a loop's, bound from the
// comprehension's first line to its last, so that two comprehensions reusing a name each bind
// their own (fileInfo.local picks by LoopEnd).
func (w *factWalker) visitForIn(f factFrame) {
	t, i := w.t, f.i
	left, right := t.child(i, fLeft), t.child(i, fRight)
	if f.fn == nil || left < 0 || right < 0 {
		return
	}
	start, line, end := len(w.out.Assigns), 0, 0
	if p := t.parent(i); p >= 0 {
		line, end = int(t.nodes[p].row)+1, int(t.nodes[p].endRow)+1
	}
	w.elements(f, i, left, right, end)
	for k := start; k < len(w.out.Assigns) && line > 0; k++ {
		w.out.Assigns[k].Line = line
	}
}

// inExcept reports a node inside an except clause of its function: a return there ends the
// run only when the try's body raised, and what follows the try is the function's usual
// path (Scope.ExceptReturn).
func (w *factWalker) inExcept(i int32) bool {
	t := w.t
	for p := t.parent(i); p >= 0; p = t.parent(p) {
		switch t.kind(p) {
		case kExcept:
			return true
		case kFunctionDef, kClassDef:
			return false
		}
	}
	return false
}

// fillGuard records the body of if statement i when its condition is `not NAME` or
// `NAME is None`.
func (w *factWalker) fillGuard(f factFrame, i int32) {
	t := w.t
	cond, body := t.child(i, fCondition), t.child(i, fConsequence)
	if cond < 0 || body < 0 {
		return
	}
	text := strings.Join(strings.Fields(t.text(cond)), " ")
	name, ok := strings.CutPrefix(text, "not ")
	if !ok {
		name, ok = strings.CutSuffix(text, " is None")
	}
	if !ok || !isIdentifier(name) {
		return
	}
	w.fills = append(w.fills, fillGuard{class: f.class, fn: f.fn.name, name: name,
		start: int(t.nodes[body].row) + 1, end: int(t.nodes[body].endRow) + 1})
}

// narrowing records the body of if or elif clause i when its condition is `NAME in X`,
// `NAME == X` or `X == NAME` (NAME a plain name, X a value pyextract records): inside it,
// NAME holds one of X's elements, or X. `a == b` with two names gives one Narrowing each.
func (w *factWalker) narrowing(f factFrame, i int32) {
	t := w.t
	cond, body := t.child(i, fCondition), t.child(i, fConsequence)
	if cond < 0 || body < 0 || t.factKind(cond) != fkCompare {
		return
	}
	left, right, op, ok := t.comparison(cond)
	if !ok {
		return
	}
	n := Narrowing{Scope: w.scope(f, i), Start: int(t.nodes[body].row) + 1, End: int(t.nodes[body].endRow) + 1}
	add := func(name, value int32) {
		if t.kind(name) != kIdentifier {
			return
		}
		v := t.value(value, 0)
		if v.Kind == ValOther || v.Kind == ValDict {
			return
		}
		n.Name, n.Value = t.text(name), v
		w.out.Narrows = append(w.out.Narrows, n)
	}
	switch op {
	case "in":
		n.In = true
		add(left, right)
	case "==":
		add(left, right)
		add(right, left)
	}
}

// membership records `KEY in X` and `KEY not in X`, X an object whose keys are facts
// (keyedObject: self.config, self.model.storages, event.params), as a KeyAccess of KEY with
// Via "in": the code names the key, and tests for it rather than reads it, so an undeclared
// one is a test that is always false, not a KeyError; unless it is what an assert asserts
// (Asserted), which then always fails.
func (w *factWalker) membership(f factFrame, i int32) {
	t := w.t
	left, right, op, ok := t.comparison(i)
	if !ok || op != "in" && op != "not in" || !w.keyedObject(right, f, true) {
		return
	}
	n := len(w.out.Keys)
	w.addKey(f, i, right, left, "in")
	if p := t.parent(i); len(w.out.Keys) > n && op == "in" && p >= 0 && t.kind(p) == kAssert && t.namedChild(p, 0) == i {
		w.out.Keys[n].Asserted = true
	}
}

// comparison splits the comparison i of two operands into them and its operator as written,
// spaces folded ("in", "not in", "=="); not ok for a chained comparison (a < b < c).
func (t *tree) comparison(i int32) (left, right int32, op string, ok bool) {
	left, right = t.namedChild(i, 0), t.namedChild(i, 1)
	if left < 0 || right < 0 || t.namedChild(i, 2) >= 0 || t.nodes[left].end > t.nodes[right].start ||
		int(t.nodes[right].start) > len(t.src) {
		return -1, -1, "", false
	}
	return left, right, strings.Join(strings.Fields(string(t.src[t.nodes[left].end:t.nodes[right].start])), " "), true
}

// absPath reports a string that reads as an absolute path of some depth ("/data",
// "/var/lib/app/"): a slash, then a name; no space, no second slash in a row, and short.
func absPath(s string) bool {
	if len(s) < 2 || len(s) > 200 || s[0] != '/' || s[1] == '/' || strings.Contains(s, "//") {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '{' || r == '%' || r == '*' })
}

// selfCall reports self.m() or cls.m() without arguments, a value a getter may return
// (return self._get_workload_container_name(): a template method a subclass overrides).
func selfCall(v Value) bool {
	return v.Kind == ValCall && len(v.Chain) == 2 && (v.Chain[0].Name == "self" || v.Chain[0].Name == "cls") &&
		v.Chain[1].Name != "" && len(v.Args) == 0 && len(v.Kwargs) == 0
}

// construction reports a call that builds an object: of a class (a CapWords last name,
// State(port=1), models.State(...)) or of cls, in a classmethod (`return cls(port=...)`): a
// factory such as State.from_charm(charm) returns an object of its class.
func construction(v Value) bool {
	if v.Kind != ValCall || len(v.Chain) == 0 {
		return false
	}
	last := strings.TrimLeft(v.Chain[len(v.Chain)-1].Name, "_")
	return len(v.Chain) == 1 && last == "cls" || last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// isIdentifier reports a plain Python name.
func isIdentifier(s string) bool {
	for k, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || k > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// visitFor records `for x in <literal sequence of plain values>` as one Assign of x per
// element; the body of such a loop always runs, as does a loop over a table of pairs
// (pairLoop, whose observe calls pairObserves reads); the body of any other loop is
// conditional.
// Any other loop gives each name of its target (a name, or a tuple of names) one ValElem
// Assign: `for fn, key in CHECKS` binds key to the second item of each element of CHECKS,
// whatever CHECKS turns out to be.
func (w *factWalker) visitFor(f factFrame) {
	t, i := w.t, f.i
	left, right := t.child(i, fLeft), t.child(i, fRight)
	var elems []Value
	literal := right >= 0 && t.factKind(right) == fkSequence
	if literal {
		for c := range t.children(right) {
			v := t.value(c, 0)
			if v.Kind == ValOther || v.Kind == ValSeq || v.Kind == ValDict {
				literal = false
				break
			}
			elems = append(elems, v)
		}
		literal = literal && len(elems) > 0
	}
	always := literal
	if pl, ok := w.pairLoop(f, i, left, right); ok {
		f.fn.pairLoops = append(f.fn.pairLoops, pl)
		always = true // a loop over a table's pairs runs over every pair, always
	}
	switch {
	case left < 0 || right < 0:
	case literal && t.kind(left) == kIdentifier:
		target := Chain{{Name: t.text(left)}}
		if f.fn != nil {
			f.fn.bound = setName(f.fn.bound, target[0].Name)
		}
		for _, v := range elems {
			w.out.Assigns = append(w.out.Assigns, Assign{Scope: w.scope(f, i), Target: target, Value: v, LoopEnd: int(t.nodes[i].endRow) + 1})
		}
	case f.fn != nil:
		w.elements(f, i, left, right, int(t.nodes[i].endRow)+1)
	}
	base := len(w.stack)
	for c := range t.children(i) {
		if c != left {
			cond := f.cond || t.kind(c) == kElse
			loop, outer := f.loop, f.outer
			if t.kind(c) == kBlock && !always && !loop {
				loop, outer = true, f.cond || f.guard
			}
			w.stack = append(w.stack, factFrame{i: c, class: f.class, fn: f.fn, flow: flow{cond, loop, outer, f.guard, f.model, f.leader && cond == f.cond && loop == f.loop}})
		}
	}
	slices.Reverse(w.stack[base:])
}

// pairLoop recognises, in a function, a loop over an event-to-handler table: `for k, v in
// D.items():`, D a dict display or a local name assigned one ({self.on.install:
// self._on_install, ...}), and `for k, v in S:` or `for p in S:`, S a list or tuple display
// of 2-tuples or a local name assigned one ([(self.on.start, self._on_start), ...]).
func (w *factWalker) pairLoop(f factFrame, i, left, right int32) (pairLoop, bool) {
	t := w.t
	if f.fn == nil || left < 0 || right < 0 {
		return pairLoop{}, false
	}
	display := func(d int32, kinds ...nodeKind) int32 {
		if d >= 0 && t.kind(d) == kIdentifier {
			n, ok := f.fn.dicts[t.text(d)]
			if !ok {
				return -1
			}
			d = n
		}
		if d < 0 || !slices.Contains(kinds, t.kind(d)) {
			return -1
		}
		return d
	}
	pl := pairLoop{start: i, end: t.nodes[i].last}
	if t.kind(left) == kIdentifier {
		pl.elem, pl.dict = t.text(left), display(right, kList, kTuple)
		return pl, pl.dict >= 0 && pairsOnly(t, pl.dict)
	}
	var names []string
	if t.factKind(left) == fkPattern {
		for c := range t.children(left) {
			if t.kind(c) != kIdentifier {
				return pairLoop{}, false
			}
			names = append(names, t.text(c))
		}
	}
	if len(names) != 2 {
		return pairLoop{}, false
	}
	pl.key, pl.val = names[0], names[1]
	if t.kind(right) != kCall {
		pl.dict = display(right, kList, kTuple)
		return pl, pl.dict >= 0 && pairsOnly(t, pl.dict)
	}
	fn, args := t.child(right, fFunction), t.child(right, fArguments)
	if fn < 0 || t.kind(fn) != kAttribute || w.lastName(fn) != "items" || args < 0 || t.namedChild(args, 0) >= 0 {
		return pairLoop{}, false
	}
	pl.dict = display(t.child(fn, fObject), kDictionary)
	return pl, pl.dict >= 0 && !hasChildKind(t, pl.dict, kDictionarySplat) // {**base, ...}: base's pairs are not known
}

// hasChildKind reports whether node i has a direct child of kind k.
func hasChildKind(t *tree, i int32, k nodeKind) bool {
	for c := range t.children(i) {
		if t.kind(c) == k {
			return true
		}
	}
	return false
}

// tableMutators are the methods that change a list or dict in place.
var tableMutators = map[string]bool{"append": true, "extend": true, "insert": true, "update": true, "setdefault": true,
	"pop": true, "remove": true, "clear": true, "__setitem__": true}

// sealTable records what local name n of the function is assigned (value, -1 for none): a
// dict, list or tuple display is a table pairLoop may read; anything else leaves n no table.
func (w *factWalker) sealTable(f factFrame, n string, value int32) {
	if f.fn == nil {
		return
	}
	if value >= 0 && slices.Contains([]nodeKind{kDictionary, kList, kTuple}, w.t.kind(value)) {
		if f.fn.dicts == nil {
			f.fn.dicts = map[string]int32{}
		}
		f.fn.dicts[n] = value
	} else if _, ok := f.fn.dicts[n]; ok {
		f.fn.dicts[n] = -1 // reassigned: no longer the display
	}
}

// unsealTable marks the local name at node obj, if it holds a table, as changed in place
// (pairs.append(...), pairs += [...], table[k] = v): its display no longer says what it
// holds, so pairLoop does not read it.
func (w *factWalker) unsealTable(f factFrame, obj int32) {
	if f.fn == nil || obj < 0 || w.t.kind(obj) != kIdentifier {
		return
	}
	if _, ok := f.fn.dicts[w.t.text(obj)]; ok {
		f.fn.dicts[w.t.text(obj)] = -1
	}
}

// pairsOnly reports a list or tuple display whose elements are all 2-tuples (or 2-lists).
func pairsOnly(t *tree, seq int32) bool {
	n := 0
	for c := range t.children(seq) {
		if _, _, ok := pairItems(t, c); !ok {
			return false
		}
		n++
	}
	return n > 0
}

// pairItems returns the two items of a 2-tuple or 2-list display c.
func pairItems(t *tree, c int32) (a, b int32, ok bool) {
	if k := t.kind(c); k != kTuple && k != kList {
		return -1, -1, false
	}
	a, b = t.namedChild(c, 0), t.namedChild(c, 1)
	return a, b, a >= 0 && b >= 0 && t.namedChild(c, 2) < 0
}

// pairObserves returns one Observe per pair of the table of a pair loop around call i whose
// event argument ev is, or holds, the loop's key name (the loop's element indexed 0), and
// whose handler argument h is, or holds, its value name (the element indexed 1): each
// pair's key and value take their places (self.on[rel].relation_changed with rel "db" is
// self.on["db"].relation_changed; getattr(self, meth) with meth "_on_db" is self._on_db).
// nil otherwise.
func (w *factWalker) pairObserves(f factFrame, i, ev, h int32) []Observe {
	t := w.t
	if f.fn == nil || ev < 0 || h < 0 {
		return nil
	}
	for k := len(f.fn.pairLoops) - 1; k >= 0; k-- {
		pl := f.fn.pairLoops[k]
		if i <= pl.start || i >= pl.end {
			continue
		}
		isKey, isVal := func(v *Value) bool { return isLoopName(v, pl.key) }, func(v *Value) bool { return isLoopName(v, pl.val) }
		if pl.elem != "" {
			isKey, isVal = func(v *Value) bool { return isElemItem(v, pl.elem, "0") }, func(v *Value) bool { return isElemItem(v, pl.elem, "1") }
		}
		evv, hv := t.value(ev, 0), t.value(h, 0)
		if _, ok := substitute(evv, isKey, Value{}); !ok {
			continue
		}
		if _, ok := substitute(hv, isVal, Value{}); !ok {
			continue
		}
		var out []Observe
		for p := pl.dict + 1; p < t.nodes[pl.dict].last; p = t.nodes[p].last {
			key, val := int32(-1), int32(-1)
			if t.kind(p) == kPair {
				key, val = t.child(p, fKey), t.child(p, fValue)
			} else if a, b, ok := pairItems(t, p); ok {
				key, val = a, b
			}
			if key >= 0 && val >= 0 {
				e, _ := substitute(evv, isKey, t.value(key, 0))
				hd, _ := substitute(hv, isVal, t.value(val, 0))
				out = append(out, Observe{Scope: w.scope(f, i), Event: e, Handler: hd})
			}
		}
		return out
	}
	return nil
}

// isLoopName reports v as the bare name n.
func isLoopName(v *Value, n string) bool {
	return n != "" && v.Kind == ValChain && len(v.Chain) == 1 && v.Chain[0].Name == n
}

// isElemItem reports v as elem[idx], idx an integer literal.
func isElemItem(v *Value, elem, idx string) bool {
	return v.Kind == ValChain && len(v.Chain) == 2 && v.Chain[0].Name == elem && v.Chain[1].Index != nil &&
		v.Chain[1].Index.Kind == ValOther && v.Chain[1].Index.Str == idx
}

// substitute returns v with every part that match reports (v itself, an index or getattr
// name of its chain, an argument) replaced by with, and whether any was; v is not changed.
func substitute(v Value, match func(*Value) bool, with Value) (Value, bool) {
	if match(&v) {
		return with, true
	}
	found := false
	sub := func(x *Value) *Value {
		if x == nil {
			return nil
		}
		y, ok := substitute(*x, match, with)
		if !ok {
			return x
		}
		found = true
		return &y
	}
	if len(v.Chain) > 0 {
		c := slices.Clone(v.Chain)
		for j := range c {
			c[j].Index, c[j].GetAttr = sub(c[j].Index), sub(c[j].GetAttr)
			if g := c[j].GetAttr; g != nil && g.Kind == ValStr && identName.MatchString(g.Str) {
				c[j].Name, c[j].GetAttr = g.Str, nil // getattr(self, "_on_db") is self._on_db, as written
			}
		}
		v.Chain = c
	}
	if len(v.Args) > 0 {
		a := slices.Clone(v.Args)
		for j := range a {
			a[j] = *sub(&a[j])
		}
		v.Args = a
	}
	if len(v.Kwargs) > 0 {
		kw := slices.Clone(v.Kwargs)
		for j := range kw {
			kw[j].Value = *sub(&kw[j].Value)
		}
		v.Kwargs = kw
	}
	return v, found
}

// elements records one ValElem Assign per name of the target left of the for loop or
// comprehension clause i over right; loopEnd is the last line of the for statement or of the
// comprehension.
func (w *factWalker) elements(f factFrame, i, left, right int32, loopEnd int) {
	t := w.t
	iter := t.value(right, 0)
	if iter.Kind == ValOther {
		return
	}
	elem := func(name int32, pos int) {
		if f.fn != nil {
			f.fn.bound = setName(f.fn.bound, t.text(name))
		}
		w.out.Assigns = append(w.out.Assigns, Assign{Scope: w.scope(f, i), Target: Chain{{Name: t.text(name)}},
			Value: Value{Kind: ValElem, Args: []Value{iter}, Pos: pos}, LoopEnd: loopEnd})
	}
	if t.kind(left) == kIdentifier {
		elem(left, 0)
		return
	}
	if t.factKind(left) != fkPattern {
		return
	}
	pos := 0
	for c := range t.children(left) {
		pos++
		if t.kind(c) == kIdentifier {
			elem(c, pos)
		}
	}
}

func (w *factWalker) visitAssign(f factFrame) {
	t, i := w.t, f.i
	left, right, typ := t.child(i, fLeft), t.child(i, fRight), t.child(i, fType)
	value := right
	for value >= 0 && t.kind(value) == kAssignment { // a = b = v: both get v
		value = t.child(value, fRight)
	}
	recorded, dropped := false, false
	if left >= 0 && t.kind(left) == kSubscript {
		w.unsealTable(f, t.child(left, fValue)) // table[k] = v
		if obj, key := t.child(left, fValue), t.child(left, fSubscript); key >= 0 && w.keyedObject(obj, f, true) {
			if c, ok := t.chain(obj, 0); ok { // config["vhost-ready"] = True: stored, not read
				w.out.Stores = append(w.out.Stores, KeyAccess{Scope: w.scope(f, i), Object: c, Key: t.value(key, 0), Via: "store"})
			}
		}
		if target, ok := t.chain(t.child(left, fValue), 0); ok && f.fn != nil && len(target) == 2 && target[0].Name == "self" && plainChain(target) && value >= 0 {
			// self.relations[rel] = DatabaseRequires(self, rel): an item of self.relations
			if v := t.value(value, 0); v.Kind != ValOther {
				recorded = true
				v, dropped = leanCall(v)
				a := Assign{Scope: w.scope(f, i), Target: target, Value: v, Item: true}
				if k := t.child(left, fSubscript); k >= 0 {
					kv := t.value(k, 0)
					a.Key = &kv
				}
				w.out.Assigns = append(w.out.Assigns, a)
			}
		}
	}
	if target, ok := t.chain(left, 0); ok && plainChain(target) {
		v := Value{Kind: ValOther}
		if value >= 0 {
			v = t.value(value, 0)
		}
		switch {
		case f.fn == nil:
			recorded = len(target) == 1
		case len(target) == 2 && target[0].Name == "self", len(target) == 1:
			if len(target) == 1 {
				w.sealTable(f, target[0].Name, value)
			}
			recorded = v.Kind != ValOther
			v, dropped = leanCall(v)
			if len(target) == 1 && v.Kind == ValChain {
				last := v.Chain[len(v.Chain)-1].Name
				if last == "observe" && len(v.Chain) > 1 {
					f.fn.observe = setName(f.fn.observe, target[0].Name)
				}
				if last == "get" && len(v.Chain) > 1 && w.keyedChain(v.Chain[:len(v.Chain)-1], f) {
					if f.fn.getters == nil {
						f.fn.getters = map[string]Chain{}
					}
					f.fn.getters[target[0].Name] = v.Chain[:len(v.Chain)-1]
				}
				if w.keyedChain(v.Chain, f) {
					f.fn.keyed = setName(f.fn.keyed, target[0].Name)
				}
			}
			if len(target) == 1 && v.Kind == ValCall && !dropped && len(v.Args)+len(v.Kwargs) == 0 && len(v.Chain) > 0 && v.Chain[len(v.Chain)-1].Name == "config" {
				// conf = hookenv.config(): charm-helpers' whole config, a dict of the options
				f.fn.keyed = setName(f.fn.keyed, target[0].Name)
			}
			if len(target) == 1 && paramsDict(v) {
				// args = action_get() (or action_get() or {}): the running action's
				// parameters, a dict whose keys the linker reads as parameters
				f.fn.keyed = setName(f.fn.keyed, target[0].Name)
			}
		}
		if paramsCall(v) && len(v.Args)+len(v.Kwargs) > 0 {
			dropped = true // x = action_get("name"), in a function or not: a Call fact too
		}
		if recorded {
			a := Assign{Scope: w.scope(f, i), Target: target, Value: v}
			if typ >= 0 {
				a.Annotation = oneLine(t.raw(typ), maxAnnotationLen)
			}
			w.out.Assigns = append(w.out.Assigns, a)
		}
	}
	// an assigned call is a Call fact too when the Assign dropped its arguments
	// (admin = self._secret_value("admin-password", ...)): the call's own rules decide
	w.push(factFrame{i: right, class: f.class, fn: f.fn, flow: f.flow, noCall: recorded && !dropped && right >= 0 && t.kind(right) == kCall})
}

// paramsDict reports charm-helpers' action_get() or function_get() without a name (every
// parameter), alone or as the left side of `or`.
func paramsDict(v Value) bool {
	if v.Kind == ValOr && len(v.Args) > 0 {
		v = v.Args[0]
	}
	return paramsCall(v) && len(v.Args)+len(v.Kwargs) == 0
}

// paramsCall reports a call of a function named like charm-helpers' action_get or
// function_get.
func paramsCall(v Value) bool {
	if v.Kind != ValCall || len(v.Chain) == 0 {
		return false
	}
	return paramsGetters[v.Chain[len(v.Chain)-1].Name]
}

// paramsGetters are the names of charm-helpers' accessors of the running action's
// parameters: action_get and function_get, its newer name.
var paramsGetters = map[string]bool{"action_get": true, "function_get": true}

// plainChain reports whether c is a name followed by attribute names only.
func plainChain(c Chain) bool {
	for _, s := range c {
		if s.Name == "" {
			return false
		}
	}
	return len(c) > 0
}

// isProperty reports whether decorated definition p carries @property,
// @functools.cached_property or the like.
func isProperty(t *tree, p int32) bool {
	for c := p + 1; c < t.nodes[p].last; c = t.nodes[c].last {
		if t.kind(c) == kDecorator && strings.HasSuffix(strings.TrimSpace(string(t.raw(c))), "property") {
			return true
		}
	}
	return false
}

func setName(m map[string]bool, name string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[name] = true
	return m
}

// leanCall drops the arguments of a call whose callee looks neither like a class nor like a
// lookup nor like a config helper and that passes on no config-like chain: the linker only
// needs to know the value came from that call. (An action_get("x") keeps its argument, so
// that the linker tells it from action_get(), the dict of every parameter.) dropped reports
// whether it had arguments to drop.
func leanCall(v Value) (_ Value, dropped bool) {
	if n := len(v.Chain); v.Kind == ValCall && n > 0 {
		last := v.Chain[n-1].Name
		fetch := last == "fetch" && n > 1 && v.Chain[n-2].Name == "resources"
		strMethod := last == "replace" || last == "lower" || last == "upper" // name.replace("-", "_"): the linker evaluates it
		if !isLookup(last) && !upperInitial(last) && !fetch && !passesKeyed(v) && !configHelper(last) && !defaultedGet(v) && !strMethod && !paramsCall(v) {
			dropped = len(v.Args)+len(v.Kwargs) > 0
			v.Args, v.Kwargs = nil, nil
		}
	}
	return v, dropped
}

// defaultedGet reports m.get(key, default) with a default that may be a name
// (relation_names.get("prometheus", "downstream-prometheus-scrape")): the linker reads it.
func defaultedGet(v Value) bool {
	if len(v.Args) != 2 || len(v.Kwargs) != 0 || len(v.Chain) < 2 || v.Chain[len(v.Chain)-1].Name != "get" {
		return false
	}
	k := v.Args[1].Kind
	return k == ValStr || k == ValFStr || k == ValChain
}

// passesKeyed reports whether a call passes a chain whose last name is config-like
// (settings.from_config(self.config)): the linker follows such arguments into the callee.
func passesKeyed(v Value) bool {
	keyed := func(a Value) bool {
		return a.Kind == ValChain && len(a.Chain) > 0 && keyedName(a.Chain[len(a.Chain)-1].Name, false)
	}
	for _, a := range v.Args {
		if keyed(a) {
			return true
		}
	}
	for _, kw := range v.Kwargs {
		if keyed(kw.Value) {
			return true
		}
	}
	return false
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
	for _, r := range strings.TrimLeft(name, "_") { // a private class too: _PeerStore
		return unicode.IsUpper(r)
	}
	return false
}

// lastName is the attribute or identifier name node i ends with ("" for anything else).
func (w *factWalker) lastName(i int32) string {
	if i < 0 {
		return ""
	}
	switch w.t.kind(i) {
	case kIdentifier:
		return w.t.text(i)
	case kAttribute:
		if a := w.t.child(i, fAttribute); a >= 0 {
			return w.t.text(a)
		}
	}
	return ""
}

// privateName matches a string that may name a private method by literal (getattr(self,
// "_configure"), patch.object(Charm, "_on_start")): Facts.HandlerStrings, which also keeps any
// name given to getattr, hasattr or setattr (visitCall).
var privateName = regexp.MustCompile(`^_[A-Za-z][A-Za-z0-9_]*$`)

// filePath matches a string that is a file's name or path whose last element has an
// extension (Facts.FileNames): no spaces, no URL's scheme.
var filePath = regexp.MustCompile(`^[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.[A-Za-z0-9][A-Za-z0-9._-]*$`)

// identName matches a string that is a Python name (getattr's second argument).
var identName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// dottedName matches a dotted name as written (self._stored, logger): Facts.DispatchOn.
var dottedName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// dispatchCall reports a call that may reach a method no code names: getattr(x, name) and
// the like with a name that is no string literal, or a listing of an object's members; and
// whether that name is built on "_on_" (a handler's); and literal, the name getattr, hasattr
// or setattr is given as a plain string literal (getattr(self, "configure")).
func (w *factWalker) dispatchCall(args int32, name, class string) (dispatch, handlers bool, literal string) {
	t := w.t
	nameArg := func(k int) (bool, bool, string) { // the k-th argument: not a plain string literal, or its text
		a := t.namedChild(args, k)
		if a < 0 {
			return false, false, ""
		}
		if t.kind(a) == kString {
			if v := t.value(a, 0); v.Kind == ValStr {
				return false, false, v.Str
			}
		}
		return true, bytes.Contains(t.raw(a), []byte("_on_")), ""
	}
	switch name {
	case "getattr", "hasattr":
		d, h, lit := nameArg(1)
		if obj := t.namedChild(args, 0); d && obj >= 0 && (t.kind(obj) == kIdentifier || t.kind(obj) == kAttribute) {
			if o := t.text(obj); dottedName.MatchString(o) {
				if (o == "self" || o == "cls") && class != "" {
					o += "@" + class // getattr(self, x) in a method of class: that class's members
				}
				w.out.DispatchOn = append(w.out.DispatchOn, o)
				d = false
			}
		}
		return d, h, lit
	case "setattr": // sets, never calls, by a computed name: only its literal name is of use
		_, _, s := nameArg(1)
		return false, false, s
	case "methodcaller", "attrgetter", "__getattribute__":
		d, h, _ := nameArg(0)
		return d, h, ""
	case "getmembers", "vars", "dir":
		return true, false, ""
	}
	return false, false, ""
}

func (w *factWalker) visitCall(f factFrame) {
	t, i := w.t, f.i
	fn, args := t.child(i, fFunction), t.child(i, fArguments)
	name := w.lastName(fn)
	if fn >= 0 && t.kind(fn) == kAttribute && tableMutators[name] {
		w.unsealTable(f, t.child(fn, fObject)) // pairs.append((ev, h))
	}
	if fn >= 0 && args >= 0 && t.kind(args) == kArgumentList {
		d, h, literal := w.dispatchCall(args, name, f.class)
		w.out.Dispatch = w.out.Dispatch || d
		w.out.HandlerDispatch = w.out.HandlerDispatch || h
		isAttr := t.kind(fn) == kAttribute
		if !isAttr && identName.MatchString(literal) {
			// getattr(self, "configure"): a method named by a string, public or not
			w.out.HandlerStrings = append(w.out.HandlerStrings, literal)
		}
		switch {
		case isAttr && name == "observe", !isAttr && f.fn != nil && f.fn.observe[name]:
			ev, h := w.callArgs(args, "bound_event", "observer")
			if pairs := w.pairObserves(f, i, ev, h); pairs != nil {
				w.out.Observes = append(w.out.Observes, pairs...)
				return
			}
			o := Observe{Scope: w.scope(f, i), Event: t.value(ev, 0), Handler: t.value(h, 0)}
			if isAttr {
				if c, ok := t.chain(t.child(fn, fObject), 0); ok && len(c) == 2 && c[0].Name == "self" && c[1].Name != "framework" && plainChain(c) {
					o.Receiver = c[1].Name
				}
			}
			w.out.Observes = append(w.out.Observes, o)
			return
		case !isAttr && f.fn != nil && f.fn.getters[name] != nil:
			// config = self.model.config.get; config("debug"): a get on the config
			if k, _ := w.callArgs(args, "key", ""); k >= 0 {
				w.out.Keys = append(w.out.Keys, KeyAccess{Scope: w.scope(f, i), Object: f.fn.getters[name], Key: t.value(k, 0), Via: "get"})
			}
		case isAttr && name == "get":
			obj := t.child(fn, fObject)
			if k, _ := w.callArgs(args, "key", ""); k >= 0 && (w.keyedObject(obj, f, true) || w.paramKey(obj, k, f)) {
				w.addKey(f, i, obj, k, "get")
			}
		case isAttr && name == "pop" && t.namedChild(args, 0) >= 0 && t.kind(t.namedChild(args, 0)) != kKeywordArgument:
			// config.pop("provider-release", None) on a copy of the config (review rev117): a
			// get with a default, an index without one (KeyError)
			obj, k := t.child(fn, fObject), t.namedChild(args, 0)
			if via := "index"; w.keyedObject(obj, f, true) {
				if t.namedChild(args, 1) >= 0 {
					via = "get"
				}
				w.addKey(f, i, obj, k, via)
			}
		case isAttr && (name == "changed" || name == "previous"):
			// charm-helpers' config.changed("port"), config.previous("port"): a read of the
			// option, which a name the charm does not declare never changes
			obj := t.child(fn, fObject)
			if k, _ := w.callArgs(args, "key", ""); k >= 0 && t.kind(k) == kString && w.keyedObject(obj, f, true) {
				w.addKey(f, i, obj, k, "get")
			}
		case isAttr && (name == "items" || name == "keys" || name == "values") && t.namedChild(args, 0) < 0:
			// self.config.items(): every option is read
			if obj := t.child(fn, fObject); w.keyedObject(obj, f, false) {
				w.addKey(f, i, obj, -1, "all")
			}
		case !isAttr && name == "dict" && t.namedChild(args, 0) >= 0 && t.namedChild(args, 1) < 0:
			// dict(self.config): every option is read
			if obj := t.namedChild(args, 0); w.keyedObject(obj, f, false) {
				w.addKey(f, i, obj, -1, "all")
			}
		}
		for a := range t.children(args) {
			// [self.config], (self.config,), **self.config: the whole config handed on, in a
			// container or unpacked, to code that may read any option (a pydantic model's
			// validation); which ones is not known, so every option, as config.items() reads.
			// So is the config given to a template object's render(options=self.config): the
			// template reads what it reads.
			obj := w.handedOn(a, f)
			if obj < 0 {
				// an action's params given whole to a call (IdentityParams.model_validate(event.params),
				// self._run(event.params)): the callee reads what it reads, which parameters is not
				// known (review of unused-action-param: kratos's reset-password)
				v := a
				if t.kind(v) == kKeywordArgument {
					v = t.child(v, fValue)
				}
				if k := t.kind(v); v >= 0 && (k == kAttribute || k == kIdentifier) && strings.HasSuffix(strings.ToLower(w.lastName(v)), "params") &&
					w.keyedObject(v, f, false) {
					obj = v
				}
			}
			if obj < 0 && !isAttr && name == "dict" && t.kind(a) == kKeywordArgument {
				obj = w.renderedConfig(a, f) // dict(config=self.config), as {"config": self.config}
			}
			if obj < 0 && isAttr && name == "render" { // template.render(...): a function render(cfg) of the tree is followed instead
				obj = w.renderedConfig(a, f)
			}
			if obj >= 0 {
				w.addKey(f, i, obj, -1, "all")
			}
		}
		callee, calleeName := fn, name
		if c := t.wrappedClass(fn); c >= 0 { // trace_type(X)(...) builds an X (callValue)
			callee, calleeName = c, w.lastName(c)
		}
		if !f.noCall && w.callFact(callee, args, calleeName, f.fn) {
			if v := t.value(i, 0); v.Kind == ValCall {
				w.out.Calls = append(w.out.Calls, Call{Scope: w.scope(f, i), Value: v})
			}
		}
	}
	w.push(factFrame{i: args, class: f.class, fn: f.fn, flow: f.flow})
	w.push(factFrame{i: fn, class: f.class, fn: f.fn, flow: f.flow, callee: true})
}

// handedOn returns the config object that argument a hands on whole inside a list or tuple
// literal or unpacked with **, or -1.
func (w *factWalker) handedOn(a int32, f factFrame) int32 {
	t := w.t
	switch t.kind(a) {
	case kList, kTuple:
		for c := range t.children(a) {
			if k := t.kind(c); (k == kAttribute || k == kIdentifier) && w.keyedObject(c, f, false) {
				return c
			}
		}
	case kDictionarySplat:
		if c := t.namedChild(a, 0); c >= 0 && w.keyedObject(c, f, false) {
			return c
		}
	}
	return -1
}

// renderedConfig is the config given as argument a (positional or keyword) of a render call,
// or -1.
func (w *factWalker) renderedConfig(a int32, f factFrame) int32 {
	t := w.t
	if t.kind(a) == kKeywordArgument {
		a = t.child(a, fValue)
	}
	if k := t.kind(a); a >= 0 && (k == kAttribute || k == kIdentifier) && w.keyedObject(a, f, false) {
		return a
	}
	return -1
}

// callFact reports whether a call with this callee is recorded as a Call fact.
func (w *factWalker) callFact(fn, args int32, name string, fs *funcState) bool {
	obj := int32(-1)
	if w.t.kind(fn) == kAttribute {
		obj = w.t.child(fn, fObject) // -1 in a broken tree: `.import()`
	}
	selfMethod := obj >= 0 && w.t.kind(obj) == kIdentifier && w.t.text(obj) == "self"
	// a method of an object the charm keeps (self.provider.update_address("database", ...)):
	// the linker follows the name into the object's class as into self's
	selfAttrMethod := obj >= 0 && w.t.kind(obj) == kAttribute && w.selfAttribute(obj)
	// a function given the charm first: address_of(self, PEER), net.binding(self, "cluster"),
	// or, in a helper function, the charm it was given (def seed(charm): address_of(charm,
	// PEER); rev89: slurmdbd's peer relation so looked up was reported unhandled)
	charmFunc := !selfMethod && w.t.kind(fn) != kCall && (firstArgSelf(w.t, args) || w.firstArgCharmParam(args, fs))
	// a function of the module, or of a module by its name: f(x), mod.f(x)
	plainCallee := w.t.kind(fn) == kIdentifier || obj >= 0 && w.t.kind(obj) == kIdentifier && w.t.text(obj) != "self"
	switch {
	case isLookup(name), name == "__init__", name == RelationValidator:
		return true
	case ReconcilerObservers[name] && charmFunc:
		// cosl.reconciler's observe_events(self, all_events, self._reconcile): every event
		// of the charm observed by one handler (linker linkReconcilers)
		return true
	case name == "define_event":
		// charm.on.define_event("reload_bind", ...): events defined at run time, which the
		// linker tells from a library object's own (self.on.define_event in its class)
		return true
	case name == "fetch":
		// model.resources.fetch("x"), and a helper's self._resources.fetch("x") of the
		// Resources it was given (the linker's ownerName)
		return strings.TrimLeft(w.lastName(w.t.child(fn, fObject)), "_") == "resources"
	case configHelper(name) && w.t.namedChild(args, 0) >= 0:
		return true
	case name == "config" && w.t.namedChild(args, 0) >= 0 && w.t.kind(w.t.namedChild(args, 0)) != kKeywordArgument:
		// charm-helpers' config("x"), hookenv.config("x"): the linker reads the import. The
		// name may be a constant (rabbitmq-server's config(rabbit.CLUSTER_MODE_KEY), defined
		// in rabbit_utils as 'cluster-partition-handling'), which the linker resolves, or a
		// name it cannot, an unresolved read.
		return true
	case name == "configure_sources":
		// charm-helpers' configure_sources(True, "apt-repo-spec", "apt-repo-keys"): it reads
		// the options it names (install_sources, install_keys when it names none)
		return true
	case name == "resource_get" && w.t.namedChild(args, 0) >= 0:
		// charm-helpers' resource_get("x"): the linker reads the import, then the resource x
		return true
	case paramsGetters[name] && w.t.namedChild(args, 0) >= 0:
		// charm-helpers' action_get("x") or action_get(key="x") (function_get, its newer
		// name): the linker reads the import, then the parameter x of the action the code
		// runs for
		return true
	case upperInitial(name):
		for _, suffix := range []string{"Error", "Exception", "Status"} {
			if strings.HasSuffix(name, suffix) {
				return false
			}
		}
		// with no arguments too: a vendored charm-helpers context built bare in keystone's
		// resource map ([context.SyslogContext(), ...]) is the only sign its __call__, and the
		// config('use-syslog') in it, runs. (Across the 203 corpus trees this records 3,220
		// more calls, 6 % more, a third of them test mocks, and check moves by nothing.)
		return true
	}
	for a := range w.t.children(args) {
		if w.t.kind(a) == kKeywordArgument {
			a = w.t.child(a, fValue)
		}
		if a >= 0 && (w.t.kind(a) == kAttribute || w.t.kind(a) == kIdentifier) && keyedName(w.lastName(a), false) {
			return true
		}
		if a >= 0 && w.t.kind(a) == kIdentifier && fs != nil && fs.keyed[w.t.text(a)] {
			return true // a local name or parameter holding the config, handed on
		}
		if a >= 0 && (selfMethod || charmFunc) && (w.namedArg(a, fs) || w.eventArg(a)) {
			return true
		}
		if a >= 0 && (selfMethod || charmFunc) && w.t.kind(a) == kIdentifier && fs != nil && fs.params[w.t.text(a)] {
			// a parameter handed on to a method of self (self._hook_refresh(refresh_event)
			// in a library object's __init__), or to a function given the charm
			// (collect(self, event)): the linker follows it to the callers' arguments, and an
			// action's event into the helper that reads its parameters
			return true
		}
		if a >= 0 && selfAttrMethod && w.t.kind(a) == kString && w.t.value(a, 0).Kind == ValStr {
			return true
		}
		if a >= 0 && plainCallee && w.t.kind(a) == kIdentifier && fs != nil && fs.params[w.t.text(a)] && EventName(w.t.text(a)) {
			// an event handed on to a function, of the module or imported
			// (handle_fetch(event), actions.fetch(event, self.client)): an action's handler
			// whose helper reads the parameters, which the linker follows
			return true
		}
	}
	return false
}

// EventName reports a parameter named like an event (event, evt, e, action_event).
func EventName(name string) bool {
	name = strings.TrimLeft(name, "_")
	return name == "event" || name == "evt" || name == "ev" || name == "e" || strings.HasSuffix(name, "_event")
}

// eventArg reports an argument that is an event of an `on` (self.on.get_health_action,
// charm.on["db"].relation_changed): a method of self called with one
// (self._observe_action(self.on.rotate_key_action, ...)) may observe it, so it is a Call fact
// and the linker can tell which events the method's parameter takes.
func (w *factWalker) eventArg(a int32) bool {
	t := w.t
	if t.kind(a) != kAttribute {
		return false
	}
	obj := t.child(a, fObject)
	if obj >= 0 && t.kind(obj) == kSubscript {
		obj = t.child(obj, fValue)
	}
	return w.lastName(obj) == "on"
}

// namedArg reports an argument that names something the linker can resolve: a constant
// (PEER_RELATION, const.PEER), a string or a loop's element (for rel in [DB, CACHE]: ...(rel)). A
// method of self called with one (self._relation_created(N2_RELATION_NAME)) is a Call fact,
// so the linker can tell which names the method's parameter takes.
func (w *factWalker) namedArg(a int32, fs *funcState) bool {
	t := w.t
	switch t.kind(a) {
	case kIdentifier:
		return constantName(t.raw(a)) || fs != nil && fs.bound[t.text(a)]
	case kAttribute:
		return constantName([]byte(w.lastName(a)))
	case kString:
		return t.value(a, 0).Kind == ValStr // self._relation_created("cache"); not an f-string
	}
	return false
}

// selfAttribute reports an attribute of self, self.x (not self.x.y).
func (w *factWalker) selfAttribute(a int32) bool {
	o := w.t.child(a, fObject)
	return o >= 0 && w.t.kind(o) == kIdentifier && w.t.text(o) == "self"
}

// firstArgSelf reports a call whose first argument is the name self.
func firstArgSelf(t *tree, args int32) bool {
	a := t.namedChild(args, 0)
	return a >= 0 && t.kind(a) == kIdentifier && t.text(a) == "self"
}

// firstArgCharmParam reports a call whose first argument is a parameter of the function fs
// named for the charm (charm, _charm, parent_charm): what the linker takes for the charm
// when no caller says otherwise.
func (w *factWalker) firstArgCharmParam(args int32, fs *funcState) bool {
	a := w.t.namedChild(args, 0)
	if a < 0 || fs == nil || w.t.kind(a) != kIdentifier {
		return false
	}
	name := w.t.text(a)
	return fs.params[name] && strings.Contains(strings.ToLower(name), "charm")
}

// configHelper reports a function or method whose name says it reads the charm's config
// (get_string_config, _get_config_value, config_get): charms wrap config.get(key) in such
// helpers, and the linker takes the option names from the calls' arguments.
func configHelper(name string) bool {
	n := strings.ToLower(name)
	return n != "config" && n != "load_config" && strings.Contains(n, "config") &&
		(strings.Contains(n, "get") || strings.Contains(n, "read") || strings.Contains(n, "value"))
}

// callArgs returns the first and second arguments of a call, positional or by keyword
// (-1 when absent).
func (w *factWalker) callArgs(args int32, kw1, kw2 string) (a1, a2 int32) {
	a1, a2 = -1, -1
	pos := 0
	for c := range w.t.children(args) {
		if w.t.kind(c) == kKeywordArgument {
			name := w.t.child(c, fName)
			if name < 0 {
				continue
			}
			switch string(w.t.raw(name)) {
			case kw1:
				a1 = w.t.child(c, fValue)
			case kw2:
				a2 = w.t.child(c, fValue)
			}
			continue
		}
		switch pos {
		case 0:
			a1 = c
		case 1:
			a2 = c
		}
		pos++
	}
	return a1, a2
}

func (w *factWalker) visitSubscript(f factFrame) {
	t, i := w.t, f.i
	obj, sub := t.child(i, fValue), t.child(i, fSubscript)
	if sub >= 0 && t.nodes[sub].last == t.nodes[i].last && (w.keyedObject(obj, f, true) || w.paramKey(obj, sub, f)) {
		w.addKey(f, i, obj, sub, "index")
	}
	w.push(factFrame{i: sub, class: f.class, fn: f.fn, flow: f.flow})
	w.push(factFrame{i: obj, class: f.class, fn: f.fn, flow: f.flow})
}

func (w *factWalker) addKey(f factFrame, at, obj, key int32, via string) {
	c, ok := w.t.chain(obj, 0)
	if !ok {
		return
	}
	// Every key is kept, an expression (ValOther, ValCall: name + "-port", key_of(x)) too: the
	// linker cannot resolve it, and says so, rather than miss that the code reads some option.
	k := Value{Kind: ValOther}
	if key >= 0 {
		k = w.t.value(key, 0)
	}
	w.out.Keys = append(w.out.Keys, KeyAccess{Scope: w.scope(f, at), Object: c, Key: k, Via: via})
}

// ModelDumps are the methods of a pydantic model that dump it whole (cfg.model_dump(),
// cfg.dict(), .json()): called on a config object, they are recorded as its Attrs, and the
// linker reads every option from them.
var ModelDumps = map[string]bool{"dict": true, "model_dump": true, "json": true, "model_dump_json": true}

func (w *factWalker) visitAttribute(f factFrame) {
	t, i := w.t, f.i
	obj := t.child(i, fObject)
	if attr := t.child(i, fAttribute); attr >= 0 && t.text(attr) == "__dict__" && t.text(obj) != "self" && t.text(obj) != "other" {
		// an instance's own __dict__ holds its attributes, not its class's methods
		// (hash((type(self),) + tuple(self.__dict__.values())), __eq__'s
		// self.__dict__ == other.__dict__ call none)
		w.out.Dispatch = true
	}
	// (a called attribute is a method, but for a typed config's whole dump: cfg.model_dump(),
	// cfg.dict(), which reads every option)
	dump := f.callee && t.child(i, fAttribute) >= 0 && ModelDumps[t.text(t.child(i, fAttribute))]
	if (!f.callee || dump) && (w.keyedObject(obj, f, false) || w.lastName(obj) == "options") {
		if attr := t.child(i, fAttribute); attr >= 0 {
			if c, ok := t.chain(obj, 0); ok {
				w.out.Attrs = append(w.out.Attrs, AttrRead{Scope: w.scope(f, i), Object: c, Attr: t.text(attr)})
			}
		}
	}
	w.push(factFrame{i: obj, class: f.class, fn: f.fn, flow: f.flow})
}

// keyedObject reports whether key or attribute reads on obj are facts: obj's last name ends
// in config/params/cfg, is relations/storages/containers (keys only), or is a local name
// bound to such a chain, or (keys only) a local name or parameter with the word config in it
// (configWord).
func (w *factWalker) keyedObject(obj int32, f factFrame, keys bool) bool {
	if w.configCall(obj) {
		return true
	}
	name := w.lastName(obj)
	if name == "" {
		return false
	}
	if w.t.kind(obj) == kIdentifier && f.fn != nil && (f.fn.keyed[name] || keys && configWord(name)) {
		return true
	}
	return keyedName(name, keys)
}

// configCall reports a call of config with no arguments, charm-helpers' `hookenv.config()`
// or an imported `config()`, read in place: hookenv.config()["port"], config().get("x"). It
// returns the whole config as a dict; the linker tells from the import whether it is
// charm-helpers'. So do action_get() and function_get(), the running action's parameters
// (action_get().get("dry-run")).
func (w *factWalker) configCall(obj int32) bool {
	t := w.t
	if obj < 0 || t.kind(obj) != kCall {
		return false
	}
	fn, args := t.child(obj, fFunction), t.child(obj, fArguments)
	if fn < 0 || args < 0 || t.kind(args) != kArgumentList || t.namedChild(args, 0) >= 0 {
		return false
	}
	name := w.lastName(fn)
	return name == "config" || paramsGetters[name]
}

// paramKey reports a read of a plain parameter of the function by a string key
// (data["port"], data.get(f"{name}-port")): which parameters hold the config only the
// callers tell, so the linker decides.
func (w *factWalker) paramKey(obj, key int32, f factFrame) bool {
	if f.fn == nil || w.t.kind(obj) != kIdentifier || !f.fn.params[w.t.text(obj)] {
		return false
	}
	k := w.t.kind(key)
	return k == kString || k == kConcatenatedString
}

func (w *factWalker) keyedChain(c Chain, f factFrame) bool {
	last := c[len(c)-1].Name
	if len(c) == 1 && f.fn.keyed[last] {
		return true
	}
	return last != "" && keyedName(last, true)
}

// configWord reports a local name or parameter with the word config in it
// ("config_object", "charm_config_data"): a helper given the charm config under such a name
// reads options from it (config_object.get(param)); the linker tells whether it is the config.
func configWord(name string) bool {
	return slices.ContainsFunc(strings.Split(strings.ToLower(name), "_"), func(w string) bool { return w == "config" || w == "cfg" })
}

func keyedName(name string, keys bool) bool {
	if keys {
		switch name {
		case "relations", "storages", "containers", "interfaces": // (interfaces: serialized_data_interface's get_interfaces)
			return true
		}
	}
	l := strings.ToLower(strings.TrimRight(name, "_"))
	return strings.HasSuffix(l, "config") || strings.HasSuffix(l, "params") || strings.HasSuffix(l, "cfg")
}
