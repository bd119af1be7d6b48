package pyextract

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// Bounds that keep a Value small and its conversion cheap whatever the input.
const (
	maxValueDepth = 6   // nesting of calls/indexes converted; deeper values become ValOther
	maxArgs       = 32  // positional and keyword arguments kept per call
	maxStrLen     = 512 // longer string literals become ValOther (truncated)
	maxOtherLen   = 80  // runes of source text kept in ValOther
)

// String renders the chain as Python-like text: self.on["db"].x, f().y, getattr(a, N).
func (c Chain) String() string {
	var sb strings.Builder
	for i, s := range c {
		switch {
		case s.Call:
			sb.WriteString("()")
		case s.Index != nil:
			sb.WriteByte('[')
			sb.WriteString(s.Index.String())
			sb.WriteByte(']')
		case s.GetAttr != nil:
			prev := sb.String()
			sb.Reset()
			sb.WriteString("getattr(" + prev + ", " + s.GetAttr.String() + ")")
		default:
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(s.Name)
		}
	}
	return sb.String()
}

// String renders the value as short Python-like text (string literals quoted).
func (v Value) String() string {
	switch v.Kind {
	case ValStr:
		return `"` + v.Str + `"`
	case ValFStr:
		return `f"` + v.Str + `"`
	case ValChain:
		return v.Chain.String()
	case ValCall:
		parts := make([]string, 0, len(v.Args)+len(v.Kwargs))
		for _, a := range v.Args {
			parts = append(parts, a.String())
		}
		for _, kw := range v.Kwargs {
			parts = append(parts, kw.Name+"="+kw.Value.String())
		}
		return v.Chain.String() + "(" + strings.Join(parts, ", ") + ")"
	case ValDict:
		parts := make([]string, 0, len(v.Kwargs))
		for _, kw := range v.Kwargs {
			k := "…"
			if kw.Name != "" {
				k = `"` + kw.Name + `"`
			} else if kw.Key != nil {
				k = kw.Key.String()
			}
			parts = append(parts, k+": "+kw.Value.String())
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case ValOr, ValConcat:
		parts := make([]string, 0, len(v.Args))
		for _, a := range v.Args {
			parts = append(parts, a.String())
		}
		if v.Kind == ValConcat {
			return strings.Join(parts, " + ")
		}
		return strings.Join(parts, " or ")
	case ValSeq:
		parts := make([]string, 0, len(v.Args))
		for _, a := range v.Args {
			parts = append(parts, a.String())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ValElem: // an element of the iterable, item Pos-1 of it with a tuple target
		s := "…"
		if len(v.Args) > 0 {
			s = v.Args[0].String()
		}
		if v.Pos > 0 {
			return s + "[…][" + strconv.Itoa(v.Pos-1) + "]"
		}
		return s + "[…]"
	}
	return v.Str
}

// value converts the expression node i into a Value:
//   - a string literal (or an implicit concatenation of them) → ValStr with the text between
//     the quotes as written (escapes are not decoded); a bytes literal → ValOther;
//   - an f-string (or a concatenation holding one) → ValFStr, {...} kept;
//   - a name, attribute, subscript or call chain → ValChain (see chain), except that a call
//     whose callee is a chain → ValCall with Chain = callee, Args and Kwargs (*args and
//     **kw arguments are ValOther Args); getattr(x, "a") is the chain x.a, not a call;
//   - a string literal formatted by str.format or % ("os-{}-network".format(kind),
//     "%s-peers" % name) → ValFStr, as the f-string it spells (see formatCall, percentFormat);
//   - a dict display → ValDict (see dictValue);
//   - `a + b` of names, chains or displays → ValConcat (see concatenation), and a display
//     with a starred part → ValConcat of its parts (see splatDisplay);
//   - a list, tuple or set display → ValSeq with its first maxArgs elements as Args;
//   - a list or set comprehension or a generator expression → ValSeq whose one Arg is its
//     body ([p.relation for p in policies]: the for clause binds p, see Facts);
//   - anything else → ValOther with the expression's source on one line, truncated.
//
// depth counts the enclosing calls and indexes already converted.
func (t *tree) value(i int32, depth int) Value {
	if i < 0 {
		return Value{Kind: ValOther}
	}
	if depth < maxValueDepth {
		switch t.kind(i) {
		case kString, kConcatenatedString:
			if v, ok := t.stringValue(i); ok {
				return v
			}
		case kIdentifier, kAttribute, kSubscript, kParenthesized:
			if c, ok := t.chain(i, depth); ok {
				return Value{Kind: ValChain, Chain: c}
			}
			if t.kind(i) == kParenthesized { // ("a long" "name"): the expression inside
				if c := t.namedChild(i, 0); c >= 0 && t.namedChild(i, 1) < 0 {
					return t.value(c, depth+1)
				}
			}
		case kCall:
			if v, ok := t.formatCall(i); ok {
				return v
			}
			if v, ok := t.collectionCall(i, depth); ok {
				return v
			}
			if v, ok := t.callValue(i, depth); ok {
				return v
			}
		case kDictionary:
			return t.dictValue(i, depth)
		case kDictComprehension:
			// {loc: f"extra-{loc}-links" for loc in LOCATIONS}: a map to names, one pair, its
			// body, as a list comprehension is its body (the f-string's text still fits the
			// options it names); not a map to anything else ({k: self.config.get(k) for k in
			// NAMES} is config values, as the local it is assigned to says)
			if body := t.child(i, fBody); body >= 0 && t.kind(body) == kPair {
				if kw := t.pairValue(body, depth); kw.Value.Kind == ValStr || kw.Value.Kind == ValFStr {
					return Value{Kind: ValDict, Kwargs: []Kwarg{kw}}
				}
			}
		}
		if v, ok := t.alternatives(i, depth); ok {
			return v
		}
		if v, ok := t.concatenation(i, depth); ok {
			return v
		}
		if v, ok := t.percentFormat(i); ok {
			return v
		}
		if t.factKind(i) == fkCompr { // [p.relation for p in policies]: one element, its body
			if body := t.child(i, fBody); body >= 0 {
				return Value{Kind: ValSeq, Args: []Value{t.value(body, depth+1)}}
			}
		}
		if t.factKind(i) == fkSequence && t.hasSplat(i) {
			return t.splatDisplay(i, depth)
		}
		if t.factKind(i) == fkSequence {
			v := Value{Kind: ValSeq}
			for c := range t.children(i) {
				if len(v.Args) == maxArgs {
					break
				}
				v.Args = append(v.Args, t.value(c, depth+1))
			}
			return v
		}
	}
	return t.other(i)
}

// collectionCall is the display a built-in collection is made from, as that display:
// frozenset(["db", "db-admin"]) and tuple(["a", "b"]) hold the same names as the list; and
// the name or attribute chain it copies (list(metadata["provides"]), sorted(self.names)).
func (t *tree) collectionCall(i int32, depth int) (Value, bool) {
	fn, args := t.child(i, fFunction), t.child(i, fArguments)
	if fn < 0 || args < 0 || t.kind(fn) != kIdentifier || t.kind(args) != kArgumentList {
		return Value{}, false
	}
	switch t.text(fn) {
	case "frozenset", "set", "tuple", "list", "sorted":
	default:
		return Value{}, false
	}
	a := t.namedChild(args, 0)
	if a < 0 || t.namedChild(args, 1) >= 0 {
		return Value{}, false
	}
	switch t.kind(a) {
	case kIdentifier, kAttribute, kSubscript:
		// list(metadata["provides"]): the collection a name holds, whose elements it copies
		if c, ok := t.chain(a, depth+1); ok {
			return Value{Kind: ValChain, Chain: c}, true
		}
		return Value{}, false
	}
	if t.factKind(a) != fkSequence {
		return Value{}, false
	}
	return t.value(a, depth+1), true
}

// alternatives converts `a or b` and `a if c else b` to ValOr: the value is one of a and b
// (`relation_names or DEFAULT_NAMES`, `"a" if k8s else "b"`). `a and b` is not converted.
func (t *tree) alternatives(i int32, depth int) (Value, bool) {
	var a, b int32
	switch t.factKind(i) {
	case fkBoolOp:
		a, b = t.child(i, fLeft), t.child(i, fRight)
		if a < 0 || b < 0 || int(t.nodes[b].start) > len(t.src) || operator(t.src[t.nodes[a].end:t.nodes[b].start]) != "or" {
			return Value{}, false
		}
	case fkCondExpr:
		a, b = t.namedChild(i, 0), t.namedChild(i, 2)
		if a < 0 || b < 0 {
			return Value{}, false
		}
	default:
		return Value{}, false
	}
	v := Value{Kind: ValOr}
	for _, c := range []int32{a, b} {
		x := t.value(c, depth+1)
		if x.Kind == ValOr {
			v.Args = append(v.Args, x.Args...)
		} else {
			v.Args = append(v.Args, x)
		}
	}
	if len(v.Args) > maxArgs {
		v.Args = v.Args[:maxArgs]
	}
	return v, true
}

// concatenation converts `a + b` whose operands are names, chains or displays (not string
// literals or numbers: "x-" + name stays an expression) to ValConcat; `a + b + c` flattens.
func (t *tree) concatenation(i int32, depth int) (Value, bool) {
	if t.factKind(i) != fkBinOp {
		return Value{}, false
	}
	a, b := t.child(i, fLeft), t.child(i, fRight)
	if a < 0 || b < 0 || int(t.nodes[b].start) > len(t.src) || operator(t.src[t.nodes[a].end:t.nodes[b].start]) != "+" {
		return Value{}, false
	}
	v := Value{Kind: ValConcat}
	for _, c := range []int32{a, b} {
		x := t.value(c, depth+1)
		switch x.Kind {
		case ValConcat:
			v.Args = append(v.Args, x.Args...)
		case ValChain, ValSeq:
			v.Args = append(v.Args, x)
		default:
			return Value{}, false
		}
	}
	if len(v.Args) > maxArgs {
		return Value{}, false
	}
	return v, true
}

// hasSplat reports whether display i holds a starred part (*A).
func (t *tree) hasSplat(i int32) bool {
	for c := range t.children(i) {
		if t.factKind(c) == fkSplat {
			return true
		}
	}
	return false
}

// splatDisplay converts a display with starred parts, [*A, "x", *B], to ValConcat of A, the
// ValSeq ["x"] and B; a starred part that is not a name or chain leaves it ValOther.
func (t *tree) splatDisplay(i int32, depth int) Value {
	v := Value{Kind: ValConcat}
	var run []Value
	flush := func() {
		if len(run) > 0 {
			v.Args = append(v.Args, Value{Kind: ValSeq, Args: run})
			run = nil
		}
	}
	for c := range t.children(i) {
		if t.factKind(c) != fkSplat {
			if len(run) < maxArgs {
				run = append(run, t.value(c, depth+1))
			}
			continue
		}
		x := t.value(t.namedChild(c, 0), depth+1)
		if x.Kind != ValChain {
			return t.other(i)
		}
		flush()
		v.Args = append(v.Args, x)
	}
	flush()
	if len(v.Args) > maxArgs {
		return t.other(i)
	}
	return v
}

// operator is the source between two operands without comments and spaces.
func operator(between []byte) string {
	var out []byte
	for _, line := range bytes.Split(between, []byte("\n")) {
		if k := bytes.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		out = append(out, bytes.TrimSpace(line)...)
	}
	return string(out)
}

// dictValue converts a dict display: its key: value pairs (up to maxArgs; ** entries and
// comprehensions are left out) as Kwargs, each named by its key when that is a plain string
// literal ({"cluster": "tempo-cluster"}: the endpoints a library is given by role).
func (t *tree) dictValue(i int32, depth int) Value {
	v := Value{Kind: ValDict}
	for p := i + 1; p < t.nodes[i].last && len(v.Kwargs) < maxArgs; p = t.nodes[p].last {
		if t.kind(p) != kPair {
			continue
		}
		v.Kwargs = append(v.Kwargs, t.pairValue(p, depth))
	}
	return v
}

// pairValue is the key and value of a dict display's pair p.
func (t *tree) pairValue(p int32, depth int) Kwarg {
	kw := Kwarg{Value: t.value(t.child(p, fValue), depth+1)}
	if k := t.child(p, fKey); k >= 0 && t.kind(k) == kString {
		if s, ok := t.stringValue(k); ok && s.Kind == ValStr {
			kw.Name = s.Str
		}
	} else if k >= 0 && (t.kind(k) == kIdentifier || t.kind(k) == kAttribute) {
		if kv := t.value(k, depth+1); kv.Kind == ValChain {
			kw.Key = &kv
		}
	}
	return kw
}

// other is node i as ValOther.
func (t *tree) other(i int32) Value {
	return Value{Kind: ValOther, Str: oneLine(t.raw(i), maxOtherLen)}
}

// callValue converts a call whose callee is a chain. getattr(x, y) is a chain.
func (t *tree) callValue(i int32, depth int) (Value, bool) {
	fn, args := t.child(i, fFunction), t.child(i, fArguments)
	if fn < 0 || args < 0 || t.kind(args) != kArgumentList {
		return Value{}, false // a generator argument: f(x for x in y)
	}
	if _, _, ok := t.getattrArgs(fn, args); ok {
		c, ok := t.chain(i, depth)
		return Value{Kind: ValChain, Chain: c}, ok
	}
	if c := t.wrappedClass(fn); c >= 0 {
		fn = c
	}
	callee, ok := t.chain(fn, depth)
	if !ok {
		return Value{}, false
	}
	v := Value{Kind: ValCall, Chain: callee}
	for a := args + 1; a < t.nodes[args].last; a = t.nodes[a].last {
		switch t.kind(a) {
		case kComment:
		case kKeywordArgument:
			name := t.child(a, fName)
			if name >= 0 && len(v.Kwargs) < maxArgs {
				v.Kwargs = append(v.Kwargs, Kwarg{Name: t.text(name), Value: t.value(t.child(a, fValue), depth+1)})
			}
		default:
			if len(v.Args) < maxArgs {
				v.Args = append(v.Args, t.value(a, depth+1))
			}
		}
	}
	return v, true
}

// wrappedClass is the class a call of a wrapper builds, X in `wrap(X)(...)` or
// `tracing.trace_type(mod.X)(...)`: a callee that is itself a call of a plain name or
// attribute chain with one positional argument only, a name or attribute chain whose last
// name is capitalised (a class). Such wrappers (a tracing decorator applied at the call
// site) return the class or a stand-in taking its arguments, so the call constructs X with
// them. -1 for any other callee.
func (t *tree) wrappedClass(fn int32) int32 {
	if fn < 0 || t.kind(fn) != kCall {
		return -1
	}
	inner, args := t.child(fn, fFunction), t.child(fn, fArguments)
	if inner < 0 || args < 0 || t.kind(inner) != kIdentifier && t.kind(inner) != kAttribute || t.kind(args) != kArgumentList {
		return -1
	}
	arg := t.namedChild(args, 0)
	if arg < 0 || t.namedChild(args, 1) >= 0 {
		return -1
	}
	last := arg
	switch t.kind(arg) {
	case kAttribute:
		last = t.child(arg, fAttribute)
	case kIdentifier:
	default:
		return -1
	}
	if last < 0 || !upperInitial(t.text(last)) {
		return -1
	}
	return arg
}

// getattrArgs returns the object and attribute-name arguments of getattr(obj, name[, default]).
func (t *tree) getattrArgs(fn, args int32) (obj, name int32, ok bool) {
	if t.kind(fn) != kIdentifier || string(t.raw(fn)) != "getattr" {
		return -1, -1, false
	}
	obj, name = -1, -1
	npos := 0
	for a := args + 1; a < t.nodes[args].last; a = t.nodes[a].last {
		switch t.kind(a) {
		case kComment:
			continue
		case kKeywordArgument:
			return -1, -1, false
		}
		switch npos {
		case 0:
			obj = a
		case 1:
			name = a
		}
		npos++
	}
	return obj, name, npos == 2 || npos == 3
}

// chain converts a name/attribute/subscript/call expression into a Chain:
// self.on["db"].relation_joined → [self, on, ["db"], relation_joined];
// getattr(self.on, "x") → [self, on, x]; getattr(self.on, NAME) → [self, on, getattr(NAME)];
// f(a).b → [f, (), b]. Parentheses are looked through. ok is false for anything else.
// It walks down the left spine (the object of an attribute, the value of a subscript, the
// callee of a call) without recursion, then reverses the steps.
func (t *tree) chain(i int32, depth int) (Chain, bool) {
	var steps Chain
	for cur := i; cur >= 0; {
		switch t.kind(cur) {
		case kIdentifier:
			steps = append(steps, Step{Name: t.text(cur)})
			for a, b := 0, len(steps)-1; a < b; a, b = a+1, b-1 {
				steps[a], steps[b] = steps[b], steps[a]
			}
			return steps, true
		case kAttribute:
			attr := t.child(cur, fAttribute)
			if attr < 0 {
				return nil, false
			}
			steps = append(steps, Step{Name: t.text(attr)})
			cur = t.child(cur, fObject)
		case kSubscript:
			sub := t.child(cur, fSubscript)
			if sub < 0 || depth >= maxValueDepth {
				return nil, false
			}
			idx := t.value(sub, depth+1)
			if next := t.nodes[sub].last; next < t.nodes[cur].last && t.kind(next) != kComment {
				// a[1, 2]: the whole index as text
				end := max(t.nodes[sub].start, t.nodes[cur].end-1)
				idx = Value{Kind: ValOther, Str: oneLine(t.src[t.nodes[sub].start:end], maxOtherLen)}
			}
			steps = append(steps, Step{Index: &idx})
			cur = t.child(cur, fValue)
		case kCall:
			fn, args := t.child(cur, fFunction), t.child(cur, fArguments)
			if fn < 0 || args < 0 {
				return nil, false
			}
			if obj, name, ok := t.getattrArgs(fn, args); ok {
				if depth >= maxValueDepth {
					return nil, false
				}
				v := t.value(name, depth+1)
				if v.Kind == ValStr {
					steps = append(steps, Step{Name: v.Str})
				} else {
					steps = append(steps, Step{GetAttr: &v})
				}
				cur = obj
				continue
			}
			steps = append(steps, Step{Call: true})
			cur = fn
		case kParenthesized:
			cur = t.namedChild(cur, 0)
		default:
			return nil, false
		}
	}
	return nil, false
}

// stringValue converts a string literal or an implicit concatenation of string literals.
// ok is false for bytes literals and strings longer than maxStrLen.
func (t *tree) stringValue(i int32) (Value, bool) {
	if t.kind(i) == kString {
		s, f, ok := stringParts(t.raw(i))
		if !ok {
			return Value{}, false
		}
		if f {
			return Value{Kind: ValFStr, Str: s}, true
		}
		return Value{Kind: ValStr, Str: s}, true
	}
	var sb strings.Builder
	kind := ValStr
	for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
		switch t.kind(c) {
		case kComment:
			continue
		case kString:
		default:
			return Value{}, false
		}
		s, f, ok := stringParts(t.raw(c))
		if !ok || sb.Len()+len(s) > maxStrLen {
			return Value{}, false
		}
		if f {
			kind = ValFStr
		}
		sb.WriteString(s)
	}
	return Value{Kind: kind, Str: sb.String()}, true
}

// stringParts splits a string literal's text into its content (between the quotes, as
// written) and whether it is an f-string. ok is false for bytes literals and long strings.
func stringParts(lit []byte) (content string, fstr, ok bool) {
	i := 0
	for i < len(lit) && lit[i] != '"' && lit[i] != '\'' {
		switch lit[i] {
		case 'b', 'B':
			return "", false, false
		case 'f', 'F':
			fstr = true
		}
		i++
	}
	if i == len(lit) {
		return "", false, false
	}
	q := lit[i : i+1]
	if len(lit)-i >= 6 && lit[i+1] == lit[i] && lit[i+2] == lit[i] {
		q = lit[i : i+3]
	}
	body := lit[i+len(q):]
	if len(body) >= len(q) && string(body[len(body)-len(q):]) == string(q) {
		body = body[:len(body)-len(q)]
	}
	if len(body) > maxStrLen {
		return "", false, false
	}
	return validString(body), fstr, true
}

// formatCall converts `"lit {} {name}".format(a, name=b)` on a plain string literal to the
// f-string it spells, f"lit {a} {b}": charm-helpers charms build option and relation names
// this way (config('os-{}-network'.format(addr_type))). A string literal argument becomes
// text, and one that is not a name or a dotted name a placeholder the linker cannot
// evaluate ({…}), which still fits names by the literal text around it (fieldSource). Not
// converted, since the text would differ: *args or **kwargs, a field indexed or an attribute
// of a field ({0[x]}, {0.y}), a field with no argument, a conversion or a format spec ({!r},
// {:>3}), a literal brace ({{).
func (t *tree) formatCall(i int32) (Value, bool) {
	fn, args := t.child(i, fFunction), t.child(i, fArguments)
	if fn < 0 || args < 0 || t.kind(fn) != kAttribute || t.kind(args) != kArgumentList {
		return Value{}, false
	}
	obj, attr := t.child(fn, fObject), t.child(fn, fAttribute)
	if obj < 0 || attr < 0 || t.text(attr) != "format" || t.kind(obj) != kString && t.kind(obj) != kConcatenatedString {
		return Value{}, false
	}
	tmpl, ok := t.stringValue(obj)
	if !ok || tmpl.Kind != ValStr {
		return Value{}, false
	}
	var pos []string
	named := map[string]string{}
	for a := args + 1; a < t.nodes[args].last; a = t.nodes[a].last {
		switch t.kind(a) {
		case kComment:
		case kKeywordArgument:
			if name := t.child(a, fName); name >= 0 {
				named[t.text(name)] = t.fieldSource(t.child(a, fValue))
			}
		default:
			if t.factKind(a) == fkSplat || t.kind(a) == kDictionarySplat {
				return Value{}, false
			}
			pos = append(pos, t.fieldSource(a))
		}
	}
	var sb strings.Builder
	auto := 0
	for rest := tmpl.Str; rest != ""; {
		k := strings.IndexAny(rest, "{}")
		if k < 0 {
			sb.WriteString(rest)
			break
		}
		sb.WriteString(rest[:k])
		end := strings.IndexByte(rest[k:], '}')
		if rest[k] == '}' || end < 0 || strings.HasPrefix(rest[k:], "{{") {
			return Value{}, false // a literal brace: no name of a charm holds one
		}
		field := rest[k+1 : k+end]
		if strings.ContainsAny(field, "!:") {
			return Value{}, false // a conversion or a spec ({!r}, {:>3}) changes the text
		}
		var src string
		switch {
		case field == "":
			if auto >= len(pos) {
				return Value{}, false
			}
			src = pos[auto]
			auto++
		case strings.Trim(field, "0123456789") == "":
			n, _ := strconv.Atoi(field)
			if n >= len(pos) {
				return Value{}, false
			}
			src = pos[n]
		case isIdentifier(field):
			var found bool
			if src, found = named[field]; !found {
				return Value{}, false
			}
		default:
			return Value{}, false
		}
		sb.WriteString(src)
		rest = rest[k+end+1:]
	}
	return Value{Kind: ValFStr, Str: sb.String()}, true
}

// percentFormat converts `"lit %s" % a` and `"%s-%s" % (a, b)` on a plain string literal to
// the f-string it spells, as formatCall does; %% is a percent sign. Only %s, %d and %i
// fields: a mapping key (%(name)s), a flag, width or precision, %r, a literal brace, or a
// count of fields that the operand does not match leaves it unconverted.
func (t *tree) percentFormat(i int32) (Value, bool) {
	if t.factKind(i) != fkBinOp {
		return Value{}, false
	}
	a, b := t.child(i, fLeft), t.child(i, fRight)
	if a < 0 || b < 0 || t.kind(a) != kString && t.kind(a) != kConcatenatedString ||
		int(t.nodes[b].start) > len(t.src) || operator(t.src[t.nodes[a].end:t.nodes[b].start]) != "%" {
		return Value{}, false
	}
	tmpl, ok := t.stringValue(a)
	if !ok || tmpl.Kind != ValStr {
		return Value{}, false
	}
	var args []string
	if t.factKind(b) == fkSequence && t.kind(b) == kTuple {
		for c := range t.children(b) {
			args = append(args, t.fieldSource(c))
		}
	} else {
		args = []string{t.fieldSource(b)}
	}
	var sb strings.Builder
	n := 0
	s := tmpl.Str
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case c == '{' || c == '}':
			return Value{}, false // a literal brace: no name of a charm holds one
		case c != '%':
			sb.WriteByte(c)
		case k+1 < len(s) && s[k+1] == '%':
			sb.WriteByte('%')
			k++
		default:
			// %s, %d and %i only: flags, widths, precisions and %r change the text
			if k+1 >= len(s) || strings.IndexByte("sdi", s[k+1]) < 0 || n >= len(args) {
				return Value{}, false
			}
			sb.WriteString(args[n])
			n++
			k++
		}
	}
	if n != len(args) {
		return Value{}, false
	}
	return Value{Kind: ValFStr, Str: sb.String()}, true
}

// fieldSource is what a formatted string's field holds, as f-string text: a plain string
// literal's text itself ("%s-port" % "admin" is "admin-port"), a name or dotted name as a
// placeholder ({self.name}), anything else the placeholder {…}, which no evaluator resolves.
func (t *tree) fieldSource(i int32) string {
	if i >= 0 && (t.kind(i) == kString || t.kind(i) == kConcatenatedString) {
		if v, ok := t.stringValue(i); ok && v.Kind == ValStr && !strings.ContainsAny(v.Str, "{}") {
			return v.Str
		}
	}
	if i >= 0 && (t.kind(i) == kIdentifier || t.kind(i) == kAttribute) {
		if c, ok := t.chain(i, 0); ok && !slices.ContainsFunc(c, func(s Step) bool { return s.Name == "" }) {
			return "{" + c.String() + "}"
		}
	}
	return "{…}"
}
