package linker

import (
	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// aKind is the kind of an abstract value: what an expression may evaluate to.
type aKind uint8

const (
	aStr      aKind = iota // a string: str
	aCharm                 // the charm instance (cls: its class when known)
	aObj                   // an object: inst (nil for the current self of a helper), cls
	aClass                 // a class: cls
	aModule                // a module: file
	aModel                 // ops Model
	aConfig                // the charm config (ConfigData or a typed config instance)
	aOn                    // charm.on (cls: the charm class when known)
	aOnIdx                 // charm.on[str]
	aEvent                 // a charm event: str = event attribute, key = on[key] or ""
	aObjOn                 // obj.on
	aObjEvent              // an event of an object: str = event attribute
	// aSeq is a list, tuple, set or dict display (seq), to be evaluated in at: what a for
	// loop runs over.
	aSeq
	// aRelations is model.relations or meta.relations: a loop over it runs over the names
	// of the charm's declared relations.
	aRelations
	// aContainers is meta.containers: a loop over it runs over the names
	// of the charm's declared containers (loki's LogForwarder observes each one's
	// <name>_pebble_ready).
	aContainers
	// aConfigNames is meta.config: a loop over it runs over the names of the charm's
	// declared options (for name in self.meta.config: self.config.get(name) reads each).
	aConfigNames
	aMeta // charm.meta
	// aYAMLDoc is a YAML document the code loads (yaml.safe_load(f)), taken for the charm's
	// own: indexed by "options", the names of its options; by "provides", "requires" or
	// "peers", those of its relations of that role; by "containers", its containers; by
	// "config", the document again (charmcraft.yaml's config.options). Which file f is, is
	// not checked: in a charm's code, a YAML document with such keys is its metadata's.
	aYAMLDoc
	// aItems is a dict or list the code fills item by item (self.relations[rel] =
	// DatabaseRequires(self, rel)): elems are the values put in it; any index of it is one
	// of them.
	aItems
	// aUnknown is an argument a call passes whose value the linker cannot tell: it stands
	// for the parameter, so that the parameter's default is not taken instead (a relation
	// name passed on from a caller nobody constructs is not the default "remote").
	aUnknown
)

// aval is an abstract value.
type aval struct {
	kind aKind
	str  string
	key  string // aEvent: on[key] or ""; aItems: the literal key the items were put under, or ""
	via  string // aEvent: ViaObserve, ViaIndex or ViaGetattr
	cls  *classInfo
	inst *instance
	file *fileInfo // aModule: the module's file, nil when not in the tree
	from *fileInfo // aModule: the file that imports it
	self bool      // aObj/aObjOn/aObjEvent: the current self
	dyn  bool      // aOnIdx/aEvent: the endpoint (or getattr) name could not be resolved
	// origin is, for a string a call passed to a parameter, that call (argsFromCallers): a
	// name read through a helper is reported where the helper is called with it.
	origin *site
	// loose marks a value that is only one of those an expression may take: an element a
	// loop runs over (`for key in OPTIONS: self.config[key]`, and the loop may skip some:
	// `if key not in self.config: continue`), one side of `a or b` or `a if c else b`, a
	// get's default, a keyword of an unread class's call. A loose name links when declared
	// and is never a finding.
	loose bool
	// every marks a name taken from every declared relation or container (a loop over
	// self.model.relations), and what is built on it: aOnIdx, aEvent.
	every bool
	// member marks a string that is an Enum class's member (Endpoint.STORE): its .value is it
	member bool
	seq    *pyextract.Value // aSeq
	at     *ctx             // aSeq
	elems  []aval           // aItems
}

// instance is an object built by a call: Cls(self, relation_name="db").
type instance struct {
	cls  *classInfo // nil when the class is not in the tree
	call *pyextract.Value
	at   *ctx // where the call is evaluated
	// cond is the construction when it runs only under a condition (after an early return in
	// the charm's __init__): what the object observes is observed only then. Nil otherwise.
	cond *site
	// libCond: built under a condition inside a vendored library (cond stays nil there: the
	// library's choices are no handler-conditional info), which still makes what the object
	// does wrong conditional
	libCond bool
}

// builtUnderCondition returns the construction of the object of c, or of one that built it,
// that runs only under a condition, or nil.
func (c *ctx) builtUnderCondition() *site {
	for k := 0; c != nil && c.inst != nil && k < maxDepth; k++ {
		if c.inst.cond != nil {
			return c.inst.cond
		}
		c = c.inst.at
	}
	return nil
}

// builtUnderAnyCondition reports whether the object of c, or one that built it, is built
// only under a condition, the vendored libraries' conditions included.
func (c *ctx) builtUnderAnyCondition() bool {
	for k := 0; c != nil && c.inst != nil && k < maxDepth; k++ {
		if c.inst.cond != nil || c.inst.libCond {
			return true
		}
		c = c.inst.at
	}
	return false
}

// ctx is where an expression is evaluated: a file, a class and function, and the instance
// whose constructor arguments bind the class's __init__ parameters (nil: use defaults).
type ctx struct {
	file *fileInfo
	cls  *classInfo
	fn   string
	inst *instance
	// line is where in fn the expression being evaluated is (0: anywhere): it picks the
	// loop that binds a reused loop variable there (fileInfo.local)
	line int
}

// at is c read at line (where a call passes an argument, a key is read): a copy when the
// line differs.
func (c *ctx) at(line int) *ctx {
	if c.line == line {
		return c
	}
	cp := *c
	cp.line = line
	return &cp
}

// Bounds that keep evaluation finite on any input.
const (
	maxDepth = 24 // nested evaluations
	maxVals  = 32 // alternatives kept per expression
	// maxCallerVals bounds the values a parameter takes from its callers: a helper such as
	// get_string_config(key) is called with every option of the charm (vault: 93 calls).
	maxCallerVals = 256
)

// evaluator evaluates expressions for one charm.
type evaluator struct {
	ix       *index
	charm    int
	charmCls []*classInfo // charm classes in the charm's scope
	depth    int
	memo     map[memoKey][]aval
	globals  map[globalKey][]aval
	// busy marks the locals and members being evaluated: a name whose value refers to
	// itself (node = node.parent) evaluates to nothing instead of recursing.
	busy map[any]bool
	// concreteOf memoises concrete.
	concreteOf map[*classInfo]*classInfo
	// callerArgs evaluates what the callers of the function in c pass to its parameter i;
	// subclassArgs what the subclasses' super().__init__(...) pass to parameter i of the
	// __init__ of c, a charm class's.
	callerArgs   func(c *ctx, i int, p pyextract.Param) []aval
	subclassArgs func(c *ctx, i int, p pyextract.Param) []aval
}

type busyLocal struct {
	file *fileInfo
	inst *instance
	localKey
}

type busyMember struct {
	cls  *classInfo
	inst *instance
	name string
}

type globalKey struct {
	file *fileInfo
	name string
}

type memoKey struct {
	inst      *instance
	cls       *classInfo
	fn, param string
}

func (e *evaluator) eval(v *pyextract.Value, c *ctx) []aval {
	switch v.Kind {
	case pyextract.ValStr:
		return []aval{{kind: aStr, str: v.Str}}
	case pyextract.ValChain:
		return e.chain(v.Chain, c)
	case pyextract.ValCall:
		return e.call(v, c)
	case pyextract.ValFStr:
		return e.fstring(v.Str, c)
	case pyextract.ValSeq, pyextract.ValDict:
		return []aval{{kind: aSeq, seq: v, at: c}}
	case pyextract.ValElem:
		return e.elements(v, c)
	case pyextract.ValConcat:
		return e.concat(v, c)
	case pyextract.ValOr: // one of them; loose: which one runs is not known
		var out []aval
		for i := range v.Args {
			out = append(out, loosen(e.eval(&v.Args[i], c))...)
		}
		return limit(out)
	}
	return nil
}

// concat evaluates A + B (or [*A, "x"]): the sequences the operands are, when every operand is
// one, whose elements together are the joined sequence's; the strings they join, when every
// operand is a string; nothing otherwise.
func (e *evaluator) concat(v *pyextract.Value, c *ctx) []aval {
	if !e.enter() {
		return nil
	}
	defer e.leave()
	var seqs []aval
	strs := []string{""}
	allSeq, allStr := true, true
	for i := range v.Args {
		vals := e.eval(&v.Args[i], c)
		if len(vals) == 0 {
			return nil
		}
		var next []string
		for _, a := range vals {
			isSeq := a.kind == aSeq || e.declaredNames(a) != nil // list(meta["provides"]) + list(meta["requires"])
			allSeq = allSeq && isSeq
			allStr = allStr && a.kind == aStr
			if isSeq {
				seqs = append(seqs, a)
			}
			if a.kind == aStr {
				for _, p := range strs {
					if len(next) < maxVals {
						next = append(next, p+a.str)
					}
				}
			}
		}
		strs = next
	}
	switch {
	case allSeq:
		return limit(seqs)
	case allStr:
		out := make([]aval, len(strs))
		for i, s := range strs {
			out[i] = aval{kind: aStr, str: s}
		}
		return out
	}
	return nil
}

// elements evaluates a name a for loop binds (ValElem): the elements of the sequences and
// the keys of the dicts the loop's iterable evaluates to (its values or pairs through
// .values() and .items()), item Pos-1 of each element with a tuple target. They are loose.
func (e *evaluator) elements(v *pyextract.Value, c *ctx) []aval {
	if len(v.Args) == 0 || !e.enter() {
		return nil
	}
	defer e.leave()
	it, view := &v.Args[0], ""
	if n := len(it.Chain); it.Kind == pyextract.ValCall && n == 1 && len(it.Args) == 0 && len(it.Kwargs) == 0 {
		return e.elementsOf(e.moduleReturned(it.Chain[0].Name, c), v, "") // for name in _options():
	}
	if n := len(it.Chain); it.Kind == pyextract.ValCall && n >= 2 && len(it.Args) == 0 && len(it.Kwargs) == 0 {
		switch view = it.Chain[n-1].Name; view {
		case "items", "keys", "values":
			it = &pyextract.Value{Kind: pyextract.ValChain, Chain: it.Chain[:n-1]}
			switch {
			case n == 4 && it.Chain[2].Call:
				// self._options().items(): what the method returns (returned)
				it = &pyextract.Value{Kind: pyextract.ValCall, Chain: it.Chain[:2]}
			case n == 3 && it.Chain[1].Call && it.Chain[0].Name != "":
				// _options().items(): what the module's function returns
				return e.elementsOf(e.moduleReturned(it.Chain[0].Name, c), v, view)
			}
		default:
			if n != 2 || it.Chain[0].Name != "self" && it.Chain[0].Name != "cls" {
				return nil
			}
			view = "" // for name in self._options(): what the method returns (returned)
		}
	}
	return e.elementsOf(e.eval(it, c), v, view)
}

// elementsOf is elements for the values vals of the loop's iterable, seen through view
// ("", "items", "keys" or "values").
func (e *evaluator) elementsOf(vals []aval, v *pyextract.Value, view string) []aval {
	var out []aval
	add := func(x *pyextract.Value, at *ctx) { out = append(out, loosen(e.eval(x, at))...) }
	for _, a := range vals {
		if names := e.declaredNames(a); names != nil {
			if v.Pos == 0 && (view == "" || view == "keys") || v.Pos == 1 && view == "items" {
				for _, n := range names {
					out = append(out, aval{kind: aStr, str: n, loose: true, every: true})
				}
			}
			continue
		}
		if a.kind == aItems { // for r in self.relations.values(), for k, r in ....items()
			if v.Pos == 0 && view == "values" || v.Pos == 2 && view == "items" {
				out = append(out, loosen(slices.Clone(a.elems))...)
			}
			continue
		}
		if a.kind != aSeq {
			continue
		}
		switch {
		case a.seq.Kind == pyextract.ValSeq && view == "":
			for i := range a.seq.Args {
				switch x := &a.seq.Args[i]; {
				case v.Pos == 0:
					add(x, a.at)
				case x.Kind == pyextract.ValSeq && len(x.Args) >= v.Pos:
					add(&x.Args[v.Pos-1], a.at)
				}
			}
		case a.seq.Kind == pyextract.ValDict:
			keys := v.Pos == 0 && (view == "" || view == "keys") || v.Pos == 1 && view == "items"
			vals := v.Pos == 0 && view == "values" || v.Pos == 2 && view == "items"
			for i := range a.seq.Kwargs {
				kw := &a.seq.Kwargs[i]
				switch {
				case keys && kw.Name != "":
					add(&pyextract.Value{Kind: pyextract.ValStr, Str: kw.Name}, a.at)
				case keys && kw.Key != nil: // {CONFIG_METRICS: ...}: the constant's value
					add(kw.Key, a.at)
				case vals:
					add(&kw.Value, a.at)
				}
			}
		}
	}
	return limit(out)
}

// declaredNames are the names a loop over a collection of the charm's declarations runs over
// (model.relations, meta.containers, meta.config; meta.requires: the relations of one role),
// nil for any other kind of value.
func (e *evaluator) declaredNames(a aval) []string {
	ch := &e.ix.charms[e.charm]
	out := []string{}
	switch a.kind {
	case aRelations:
		for _, r := range ch.Relations {
			if a.str == "" || r.Role == a.str {
				out = append(out, r.Name)
			}
		}
	case aContainers:
		for _, c := range ch.Containers {
			out = append(out, c.Name)
		}
	case aConfigNames:
		for _, o := range ch.Config {
			out = append(out, o.Name)
		}
	default:
		return nil
	}
	return out
}

// fstring evaluates an f-string whose {...} parts are names or attribute chains.
func (e *evaluator) fstring(s string, c *ctx) []aval {
	outs := []string{""}
	loose := false
	for s != "" {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			outs = appendAll(outs, []string{s})
			break
		}
		if strings.HasPrefix(s[open:], "{{") {
			outs = appendAll(outs, []string{s[:open+1]})
			s = s[open+2:]
			continue
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			return nil
		}
		expr := s[open+1 : open+end]
		ch := pyextract.Chain{}
		for _, part := range strings.Split(expr, ".") {
			if !isIdent(part) {
				return nil
			}
			ch = append(ch, pyextract.Step{Name: part})
		}
		vals, ok := e.strVals(&pyextract.Value{Kind: pyextract.ValChain, Chain: ch}, c)
		if !ok {
			return nil
		}
		parts := make([]string, 0, len(vals))
		for _, v := range vals {
			parts = append(parts, v.str)
			loose = loose || v.loose
		}
		outs = appendAll(outs, []string{s[:open]})
		outs = appendAll(outs, parts)
		s = s[open+end+1:]
	}
	out := make([]aval, 0, len(outs))
	for _, o := range outs {
		out = append(out, aval{kind: aStr, str: o, loose: loose})
	}
	return out
}

// appendAll returns every prefix followed by every suffix (at most maxVals).
func appendAll(prefixes, suffixes []string) []string {
	out := make([]string, 0, len(prefixes)*len(suffixes))
	for _, p := range prefixes {
		for _, s := range suffixes {
			if len(out) < maxVals {
				out = append(out, p+s)
			}
		}
	}
	return out
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// strMethod evaluates "x".replace(a, b), .lower() and .upper() on string values.
func (e *evaluator) strMethod(v *pyextract.Value, c *ctx) []aval {
	n := len(v.Chain)
	recv, ok := e.strVals(&pyextract.Value{Kind: pyextract.ValChain, Chain: v.Chain[:n-1]}, c)
	if !ok {
		return nil
	}
	var args []string
	for _, a := range v.Args {
		if a.Kind != pyextract.ValStr {
			return nil
		}
		args = append(args, a.Str)
	}
	out := make([]aval, 0, len(recv))
	for _, rv := range recv {
		r := rv.str
		switch {
		case v.Chain[n-1].Name == "replace" && len(args) == 2:
			r = strings.ReplaceAll(r, args[0], args[1])
		case v.Chain[n-1].Name == "lower" && len(args) == 0:
			r = strings.ToLower(r)
		case v.Chain[n-1].Name == "upper" && len(args) == 0:
			r = strings.ToUpper(r)
		default:
			return nil
		}
		out = append(out, aval{kind: aStr, str: r, loose: rv.loose})
	}
	return out
}

// strVals evaluates v to the strings it may be, each as an aStr value, loose when every way to
// it is; ok is false when it may be something else.
func (e *evaluator) strVals(v *pyextract.Value, c *ctx) (out []aval, ok bool) {
	return e.strValsOf(v, c, false)
}

// strValsOrigins is strVals keeping each string's origin (the call that passed it to a
// parameter): a string two callers pass is two values.
func (e *evaluator) strValsOrigins(v *pyextract.Value, c *ctx) (out []aval, ok bool) {
	return e.strValsOf(v, c, true)
}

func (e *evaluator) strValsOf(v *pyextract.Value, c *ctx, origins bool) (out []aval, ok bool) {
	ok = true
	for _, a := range e.eval(v, c) {
		if a.kind != aStr {
			ok = false
			continue
		}
		if !origins {
			a.origin = nil
		}
		if k := slices.IndexFunc(out, func(x aval) bool { return x.str == a.str && x.origin == a.origin }); k >= 0 {
			out[k].loose = out[k].loose && a.loose
			out[k].every = out[k].every && a.every
			continue
		}
		out = append(out, aval{kind: aStr, str: a.str, loose: a.loose, every: a.every, origin: a.origin})
	}
	return out, ok && len(out) > 0
}

func appendUniq(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func (e *evaluator) enter() bool {
	if e.depth >= maxDepth {
		return false
	}
	e.depth++
	return true
}

func (e *evaluator) leave() { e.depth-- }

// call evaluates a call: only class instantiations (callee named in CapWords) give a value.
func (e *evaluator) call(v *pyextract.Value, c *ctx) []aval {
	// charm-helpers' config() without a name is the whole config, a dict of every option
	// (conf = hookenv.config(); conf["x"]), whatever the local in a function is called (not
	// followed: a module-level CONF = config())
	if len(v.Args) == 0 && len(v.Kwargs) == 0 && helpersConfig(v.Chain, c) {
		return []aval{{kind: aConfig}}
	}
	if c != nil && yamlLoad(c.file, v.Chain) {
		return []aval{{kind: aYAMLDoc}} // metadata = yaml.safe_load(f)
	}

	if len(v.Chain) >= 2 && len(v.Kwargs) == 0 {
		switch lastName(v.Chain) {
		case "get":
			if len(v.Args) == 2 && e.enter() {
				defer e.leave()
				return e.mappingGet(v, c)
			}
		case "replace", "lower", "upper":
			if !e.enter() {
				return nil
			}
			defer e.leave()
			return e.strMethod(v, c)
		}
	}
	if len(v.Chain) == 2 && !isUpper(v.Chain[1].Name) && v.Chain[0].Name != "self" && v.Chain[0].Name != "cls" {
		return e.factory(v, c)
	}
	if len(v.Chain) == 2 && len(v.Args) == 0 && len(v.Kwargs) == 0 && !isUpper(v.Chain[1].Name) {
		return e.returned(v.Chain, c)
	}
	if len(v.Chain) == 1 && v.Chain[0].Name == "cls" && c != nil && c.cls != nil && isClassMethod(c.file.funcSyms[funcKey{c.cls.name, c.fn}]) {
		// cls(...) in a classmethod: an object of the class it is called on
		cls := c.cls
		if c.inst != nil && c.inst.cls != nil {
			cls = c.inst.cls
		}
		return []aval{{kind: aObj, cls: cls, inst: &instance{cls: cls, call: v, at: c}}}
	}
	if len(v.Chain) == 0 || !isUpper(v.Chain[len(v.Chain)-1].Name) || builtinCall(v.Chain) || !e.enter() {
		return nil
	}
	defer e.leave()
	var out []aval
	for _, callee := range e.chain(v.Chain, c) {
		if callee.kind == aClass {
			out = append(out, aval{kind: aObj, cls: callee.cls, inst: &instance{cls: callee.cls, call: v, at: c}})
		}
	}
	if len(out) == 0 {
		out = append(out, aval{kind: aObj, inst: &instance{call: v, at: c}})
	}
	return out
}

// factory evaluates Cls.m(...), m a classmethod or staticmethod of a class of the tree: the
// objects m returns (State.from_charm(self), whose `return cls(port=...)` is a State, or a
// subclass's when called on one), so that their attributes evaluate (self.state.service_name,
// a field's default). Nothing for any other call.
func (e *evaluator) factory(v *pyextract.Value, c *ctx) []aval {
	if !e.enter() {
		return nil
	}
	defer e.leave()
	var out []aval
	for _, a := range e.chain(v.Chain[:1], c) {
		if a.kind != aClass || a.cls == nil {
			continue
		}
		for _, k := range e.mro(a.cls) {
			m := k.methods[v.Chain[1].Name]
			if m == nil {
				continue
			}
			if isClassMethod(m) || isStatic(m) {
				for _, r := range e.returns(&ctx{file: k.file, cls: k, fn: v.Chain[1].Name, inst: &instance{cls: a.cls}}) {
					if r.kind == aObj {
						out = append(out, r)
					}
				}
			}
			break
		}
	}
	return limit(out)
}

// isClassMethod reports a method decorated @classmethod.
func isClassMethod(s *pyextract.Symbol) bool {
	return s != nil && slices.Contains(s.Decorators, "classmethod")
}

// returned evaluates self.m() or cls.m() without arguments: what m returns, m found up the
// classes of the object running the code (the concrete charm class for a charm class's code,
// so that a subclass's override answers a base class's call: a template method such as
// _get_db_relation_name, whose override returns DB_RELATION_NAME). Only a string, f-string or
// chain m returns (pyextract Returns) counts, loosely when m has several returns; nothing when
// m is not found or returns nothing such.
func (e *evaluator) returned(chain pyextract.Chain, c *ctx) []aval {
	if (chain[0].Name != "self" && chain[0].Name != "cls") || chain[0].Index != nil || chain[1].Index != nil || c.cls == nil || !e.enter() {
		return nil
	}
	defer e.leave()
	cls := c.cls
	if c.inst != nil && c.inst.cls != nil {
		cls = c.inst.cls
	} else if e.isCharm(cls) {
		cls = e.concrete(cls)
	}
	for _, k := range e.mro(cls) {
		if k.methods[chain[1].Name] != nil {
			return e.returns(&ctx{file: k.file, cls: k, fn: chain[1].Name, inst: c.inst})
		}
	}
	return nil
}

// returns evaluates what function c.fn (a method of c.cls, or of c.file's module when c.cls
// is nil) returns (pyextract Returns), in c: loosely when it has several returns, since
// which one runs is not known.
func (e *evaluator) returns(c *ctx) []aval {
	var out []aval
	n := 0
	for i := range c.file.Facts.Returns {
		if r := &c.file.Facts.Returns[i]; r.Class == className(c.cls) && r.Func == c.fn {
			n++
			out = append(out, e.eval(&r.Value, c)...)
		}
	}
	if n > 1 {
		out = loosen(out)
	}
	return limit(out)
}

// moduleReturned evaluates name(), a function of c's module: what it returns, as returned
// does for a method.
func (e *evaluator) moduleReturned(name string, c *ctx) []aval {
	if c.file == nil || !e.enter() {
		return nil
	}
	defer e.leave()
	if sym := c.file.funcSyms[funcKey{"", name}]; sym == nil || sym.Kind != pyextract.KindFunction {
		return nil
	}
	return e.returns(&ctx{file: c.file, fn: name})
}

// mappingGet evaluates m.get(key, default): the default, and the value under key when m is
// a dict display (relation_names.get("prometheus", "downstream-prometheus-scrape")). Both
// are loose: the mapping a caller passes may hold another name.
func (e *evaluator) mappingGet(v *pyextract.Value, c *ctx) []aval {
	var out []aval
	for _, m := range e.chain(v.Chain[:len(v.Chain)-1], c) {
		if m.kind == aSeq {
			out = append(out, e.index(m, &v.Args[0], c)...)
		}
	}
	return limit(loosen(append(out, e.eval(&v.Args[1], c)...)))
}

// loosen marks every value of vals loose (in place) and returns them.
func loosen(vals []aval) []aval {
	for i := range vals {
		vals[i].loose = true
	}
	return vals
}

// builtinCall reports callees that never build a relation-bound object.
func builtinCall(c pyextract.Chain) bool {
	return len(c) >= 2 && c[len(c)-1].Name == "__init__"
}

// isUpper reports a CapWords name, a class's by convention: private ones too (_PeerStore).
func isUpper(s string) bool {
	s = strings.TrimLeft(s, "_")
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

func (e *evaluator) chain(ch pyextract.Chain, c *ctx) []aval {
	if len(ch) == 0 || ch[0].Name == "" || !e.enter() {
		return nil
	}
	defer e.leave()
	if n := len(ch); n >= 2 && ch[n-1].Call && helpersConfig(ch[:n-1], c) {
		return []aval{{kind: aConfig}} // hookenv.config()["x"], config().get("x"): read in place
	}
	cur, rest := e.name(ch[0].Name, c), ch[1:]
	if k := yamlLoaded(ch, c); k > 0 { // yaml.safe_load(f)["options"]
		cur, rest = []aval{{kind: aYAMLDoc}}, ch[k+1:]
	}
	for _, st := range rest {
		if len(cur) == 0 {
			return nil
		}
		var next []aval
		for _, a := range cur {
			switch {
			case st.Name != "":
				for _, x := range e.attr(a, st.Name, ViaObserve) {
					// an attribute of one of the values a name may take (service.name, for
					// service in SERVICES) is one of those its attribute may take
					x.loose = x.loose || a.loose
					next = append(next, x)
				}
			case st.GetAttr != nil:
				names, ok := e.strVals(st.GetAttr, c)
				if !ok && a.kind == aOn {
					next = append(next, aval{kind: aEvent, cls: a.cls, via: ViaGetattr, dyn: true})
				}
				for _, n := range names {
					for _, x := range e.attr(a, n.str, ViaGetattr) {
						x.loose = x.loose || n.loose
						next = append(next, x)
					}
				}
			case st.Index != nil:
				next = append(next, e.index(a, st.Index, c)...)
			case st.Call:
				if a.kind == aClass {
					next = append(next, aval{kind: aObj, cls: a.cls, inst: &instance{cls: a.cls, at: c}})
				}
			}
		}
		cur = limit(next)
	}
	return cur
}

// yamlLoads are PyYAML's loaders, as importedPath names them.
var yamlLoads = map[string]bool{"yaml.safe_load": true, "yaml.load": true, "yaml.full_load": true, "yaml.unsafe_load": true}

// yamlLoaders are the last names of yamlLoads.
var yamlLoaders = map[string]bool{"safe_load": true, "load": true, "full_load": true, "unsafe_load": true}

// yamlLoaded is the index of the call step of a chain that loads a YAML document with PyYAML
// (yaml.safe_load(f)...: 2), 0 when there is none.
func yamlLoaded(ch pyextract.Chain, c *ctx) int {
	if c.file == nil {
		return 0
	}
	for k := 1; k < len(ch); k++ {
		if ch[k].Call {
			if yamlLoad(c.file, ch[:k]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// yamlLoad reports a callee that is one of PyYAML's loaders (yamlLoads) as fi imports it; the
// last name is checked first, as most calls evaluated are of other functions.
func yamlLoad(fi *fileInfo, callee pyextract.Chain) bool {
	if fi == nil || len(callee) == 0 || !yamlLoaders[callee[len(callee)-1].Name] {
		return false
	}
	full, _ := importedPath(fi, callee)
	return yamlLoads[full]
}

// yamlDocIndex is what a key of the charm's YAML document, as the code loads it (aYAMLDoc),
// holds: a loop over it runs over the names the charm declares there.
func yamlDocIndex(key string) []aval {
	switch key {
	case "options":
		return []aval{{kind: aConfigNames}}
	case charmyaml.RoleProvides, charmyaml.RoleRequires, charmyaml.RolePeers:
		return []aval{{kind: aRelations, str: key}}
	case "containers":
		return []aval{{kind: aContainers}}
	case "config":
		return []aval{{kind: aYAMLDoc}}
	}
	return nil
}

// helpersConfig reports a callee that is charm-helpers' config as importedPath resolves it
// (hookenv.config, or config imported by that name from charmhelpers.core.hookenv), whose call
// without arguments returns the whole config.
func helpersConfig(callee pyextract.Chain, c *ctx) bool {
	if len(callee) == 0 || c == nil || c.file == nil {
		return false
	}
	full, _ := importedPath(c.file, callee)
	return full == hookenvConfig
}

// limit keeps the first maxVals of v, and every name taken from the charm's declarations (a
// loop over all its relations: any-charm looks up each of its 538, review rev123), which
// its YAML bounds.
func limit(v []aval) []aval {
	if len(v) <= maxVals {
		return v
	}
	out, n := make([]aval, 0, maxVals), 0
	for _, a := range v {
		if a.every || n < maxVals {
			out = append(out, a)
			if !a.every {
				n++
			}
		}
	}
	return out
}

// name evaluates a bare name: a local, a parameter, a module constant, class or import.
func (e *evaluator) name(n string, c *ctx) []aval {
	if c.fn != "" {
		k := funcKey{className(c.cls), c.fn}
		sym := c.file.funcSyms[k]
		if n == "self" && c.cls != nil && !isStatic(sym) { // never reassigned: skip the locals
			return []aval{e.self(c)}
		}
		// A local whose value names itself (names = names or DEFAULTS) reads, there, the
		// binding before it: the parameter or the global of that name.
		if as, ok := c.file.local(k, n, c.line); ok && !e.busy[busyLocal{c.file, c.inst, localKey{k, n}}] {
			key := busyLocal{c.file, c.inst, localKey{k, n}}
			e.busy[key] = true
			defer delete(e.busy, key)
			var out []aval
			// A parameter that every assignment rebinds only under a condition may still hold
			// what the caller passed (if not isinstance(x, list): x = [x]); a fallback
			// (if not x: x = [...]) runs only when the caller passed nothing.
			passed := false
			if i, p, ok := paramOf(sym, n); ok && !slices.ContainsFunc(as, func(a *pyextract.Assign) bool { return !a.Conditional }) {
				if i == 0 && c.cls != nil && !isStatic(sym) {
					out = append(out, e.self(c))
				} else {
					pv := e.passed(c, i, p)
					passed = len(pv) > 0
					if !passed {
						pv = e.param(c, i, p)
					}
					out = append(out, pv...)
				}
			}
			for _, a := range as {
				// an object's construction passes its own arguments; the calls of another
				// function are pooled, and one caller's argument says nothing of another's
				if a.Fills && passed && c.fn == "__init__" {
					continue
				}
				ac := c
				if c.line > 0 && a.Line != c.line { // its value is read where it is assigned
					cp := *c
					cp.line = a.Line
					ac = &cp
				}
				out = append(out, e.eval(&a.Value, ac)...)
			}
			return limit(e.narrow(k, n, c, out))
		}
		if sym != nil {
			for i, p := range positional(sym.Params) {
				if p.Name != n {
					continue
				}
				if i == 0 && c.cls != nil && !isStatic(sym) {
					return []aval{e.self(c)}
				}
				return e.narrow(k, n, c, e.param(c, i, p))
			}
		}
	}
	if c.fn == "" && c.cls != nil {
		if attrs, ok := c.cls.attrs[n]; ok {
			return e.classAttrs(c.cls, attrs)
		}
	}
	return e.global(c.file, n)
}

// narrow keeps, of the values vals that local or parameter n of function k holds at c.line,
// those the `if n in X:` / `if n == X:` bodies around that line allow (pyextract.Narrowing),
// when X is known to be strings only: vals' strings that X holds, or, when vals are not all
// known strings, X's strings, loosely (the condition says what n may be, not that it is).
// `elif key in WITH_DEFAULTS: return self._with_default(key)` passes the helper only those
// names, not every option its caller is called with.
func (e *evaluator) narrow(k funcKey, n string, c *ctx, vals []aval) []aval {
	if c.line <= 0 {
		return vals
	}
	for _, g := range c.file.narrowings(k, n, c.line) {
		if c.file.rebinds(k, n, g.Start, c.line) {
			continue // `key = f"{key}-default"` in the body: the guard no longer says what key is
		}
		gc := *c
		gc.line = 0 // X as written, not narrowed again
		allowed, ok := e.guardStrings(g, &gc)
		if !ok {
			continue
		}
		known := len(vals) > 0
		var kept []aval
		for _, v := range vals {
			if v.kind != aStr {
				known = false
			} else if slices.ContainsFunc(allowed, func(a aval) bool { return a.str == v.str }) {
				kept = append(kept, v)
			}
		}
		if !known {
			for _, a := range allowed {
				if !slices.ContainsFunc(kept, func(v aval) bool { return v.str == a.str }) {
					a.loose = true
					kept = append(kept, a)
				}
			}
		}
		vals = kept
	}
	return vals
}

// guardStrings evaluates the X of a Narrowing to every string NAME may then hold; ok is false
// unless all of X is known: `NAME == X` with X only strings, `NAME in X` with X a list, tuple
// or set display (or a name bound to one) whose every element is known strings, or a dict
// display with literal keys. An element that evaluates to nothing (`*BASE`, a call) leaves X
// unknown: narrowing by the part that is known would drop the rest.
func (e *evaluator) guardStrings(g *pyextract.Narrowing, c *ctx) (out []aval, ok bool) {
	if !g.In {
		return e.strVals(&g.Value, c)
	}
	xs := e.eval(&g.Value, c)
	if len(xs) == 0 {
		return nil, false
	}
	for _, x := range xs {
		if x.kind != aSeq {
			return nil, false
		}
		switch x.seq.Kind {
		case pyextract.ValSeq:
			for i := range x.seq.Args {
				vs, ok := e.strVals(&x.seq.Args[i], x.at)
				if !ok {
					return nil, false
				}
				out = append(out, vs...)
			}
		case pyextract.ValDict:
			for _, kw := range x.seq.Kwargs {
				if kw.Name == "" {
					return nil, false
				}
				out = append(out, aval{kind: aStr, str: kw.Name})
			}
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

func isStatic(s *pyextract.Symbol) bool {
	return s != nil && slices.Contains(s.Decorators, "staticmethod")
}

func className(c *classInfo) string {
	if c == nil {
		return ""
	}
	return c.name
}

// global evaluates a module-level name of f (memoized: it does not depend on the context).
func (e *evaluator) global(f *fileInfo, n string) []aval {
	key := globalKey{f, n}
	if v, ok := e.globals[key]; ok {
		return v
	}
	e.globals[key] = nil // cycle guard
	out := e.evalGlobal(f, n)
	e.globals[key] = out
	return out
}

func (e *evaluator) evalGlobal(f *fileInfo, n string) []aval {
	if vals, ok := f.consts[n]; ok {
		mc := &ctx{file: f}
		var out []aval
		for _, v := range vals {
			out = append(out, e.eval(v, mc)...)
		}
		return limit(out)
	}
	if cl := f.classes[n]; cl != nil {
		return []aval{{kind: aClass, cls: cl}}
	}
	if im, ok := f.imports[n]; ok {
		return e.imported(f, im)
	}
	return nil
}

func (e *evaluator) imported(f *fileInfo, im pyextract.Import) []aval {
	if im.Name == "" {
		return e.submodule(f, im.Module)
	}
	if m := e.ix.module(f, im.Module, e.charm); m != nil {
		if out := e.global(m, im.Name); len(out) > 0 {
			return out
		}
	}
	return e.submodule(f, joinModule(im.Module, im.Name))
}

func joinModule(mod, name string) string {
	if strings.HasSuffix(mod, ".") {
		return mod + name
	}
	return mod + "." + name
}

// submodule is the module mod imported by from (file nil when it is not in the tree, as
// for `import a` when only a/b.py exists: a.b then resolves through attr).
func (e *evaluator) submodule(from *fileInfo, mod string) []aval {
	return []aval{{kind: aModule, file: e.ix.module(from, mod, e.charm), str: mod, from: from}}
}

// self is the value of `self` in c: the charm in a charm class, else the object.
func (e *evaluator) self(c *ctx) aval {
	if c.inst == nil && e.isCharm(c.cls) {
		return aval{kind: aCharm, cls: e.concrete(c.cls)}
	}
	cls := c.cls
	if c.inst != nil && c.inst.cls != nil {
		cls = c.inst.cls
	}
	return aval{kind: aObj, cls: cls, inst: c.inst, self: true}
}

// concrete is the charm class whose instance runs the code of charm class cls: the one
// subclass of cls in the charm that no other subclass derives from (a base class's
// self.pairs is the subclass's class attribute), else cls itself.
func (e *evaluator) concrete(cls *classInfo) *classInfo {
	if k, ok := e.concreteOf[cls]; ok {
		return k
	}
	k := e.findConcrete(cls)
	e.concreteOf[cls] = k
	return k
}

func (e *evaluator) findConcrete(cls *classInfo) *classInfo {
	var subs []*classInfo
	for _, k := range e.charmCls {
		if k != cls && slices.Contains(e.mro(k), cls) {
			subs = append(subs, k)
		}
	}
	var leaves []*classInfo
	for _, k := range subs {
		if !slices.ContainsFunc(subs, func(o *classInfo) bool { return o != k && slices.Contains(e.mro(o), k) }) {
			leaves = append(leaves, k)
		}
	}
	if len(leaves) == 1 {
		return leaves[0]
	}
	return cls
}

// param evaluates parameter i (p) of the function in c: an __init__ parameter is bound
// by the instance's constructor call, another function's by the calls to it found in the
// charm's code; unbound ones take their default. A parameter whose name mentions "charm"
// with nothing else to go on is the charm; one named framework, an object whose .model is
// the model (an adapter given the charm's framework: self._framework.model.config).
func (e *evaluator) param(c *ctx, i int, p pyextract.Param) []aval {
	out := e.passed(c, i, p)
	if len(out) == 0 && p.Default != nil {
		out = e.eval(p.Default, &ctx{file: c.file})
	}
	if len(out) == 0 && strings.Contains(strings.ToLower(p.Name), "charm") {
		out = []aval{{kind: aCharm}}
	}
	if len(out) == 0 && strings.HasSuffix(strings.ToLower(p.Name), "framework") {
		out = []aval{{kind: aObj}} // the ops Framework, the charm's first argument: its .model is the model
	}
	return out
}

// passed evaluates what the callers pass to parameter i (p) of the function of c: the
// construction's argument for __init__, the calls' arguments otherwise; nil when no caller
// passes it (memoized per instance).
func (e *evaluator) passed(c *ctx, i int, p pyextract.Param) []aval {
	key := memoKey{c.inst, c.cls, c.fn, p.Name}
	out, done := e.memo[key]
	if !done {
		e.memo[key] = nil // cycle guard
		switch {
		case c.fn == "__init__" && c.cls != nil && c.inst != nil:
			out = e.bind(c.inst, c.cls, i, p)
		case c.fn != "__init__" && e.callerArgs != nil:
			out = e.callerArgs(c, i, p)
		case c.fn == "__init__" && c.cls != nil && c.inst == nil && e.subclassArgs != nil:
			out = e.subclassArgs(c, i, p)
		}
		e.memo[key] = out
	}
	return out
}

// positional yields params with the index each has among the arguments a call passes by
// position: the "/" marker, which ends the positional-only ones (def __init__(self, charm,
// /, integration_name)), is no parameter, and those after it move up one.
func positional(params []pyextract.Param) iter.Seq2[int, pyextract.Param] {
	return func(yield func(int, pyextract.Param) bool) {
		i := 0
		for _, p := range params {
			if p.Name == "/" {
				continue
			}
			if !yield(i, p) {
				return
			}
			i++
		}
	}
}

// eventsAttr reports a class attribute of cls other than on that holds an object's events, an
// instance of a class deriving from ops' ObjectEvents (_on = InfluxDBEvents()): as on would.
func (e *evaluator) eventsAttr(cls *classInfo, name string) bool {
	if name == "on" {
		return false
	}
	vals, ok := e.lookupClassAttr(cls, name)
	return ok && slices.ContainsFunc(vals, func(v aval) bool {
		return v.kind == aObj && v.cls != nil && slices.ContainsFunc(e.mro(v.cls), func(k *classInfo) bool {
			return slices.ContainsFunc(k.sym.Bases, func(b string) bool { return lastSegment(b) == "ObjectEvents" })
		})
	})
}

// paramOf finds the parameter named n of sym, with its positional index (positional).
func paramOf(sym *pyextract.Symbol, n string) (int, pyextract.Param, bool) {
	if sym != nil {
		for i, p := range positional(sym.Params) {
			if p.Name == n {
				return i, p, true
			}
		}
	}
	return 0, pyextract.Param{}, false
}

// bind evaluates the argument that inst's construction passes to parameter i (p) of
// target's __init__, following super().__init__ and Base.__init__(self, ...) calls from the
// instance's class up to target.
func (e *evaluator) bind(inst *instance, target *classInfo, i int, p pyextract.Param) []aval {
	if inst.call == nil {
		return nil
	}
	return e.bindFrom(inst, inst.cls, inst.call, inst.at, 0, target, i, p, 0)
}

// bindFrom: the call args (evaluated in at, the first skip positional args dropped)
// construct cls; find the argument for target's parameter.
func (e *evaluator) bindFrom(inst *instance, cls *classInfo, call *pyextract.Value, at *ctx, skip int, target *classInfo, i int, p pyextract.Param, hops int) []aval {
	if cls == nil || hops > 6 {
		return nil
	}
	if cls == target {
		return e.argFor(call, at, skip, i, p)
	}
	init := cls.methods["__init__"]
	if init == nil {
		for _, b := range e.bases(cls) {
			if out := e.bindFrom(inst, b, call, at, skip, target, i, p, hops+1); len(out) > 0 {
				return out
			}
		}
		return nil
	}
	// cls defines __init__: follow its super().__init__ / Base.__init__(self, ...) calls.
	initCtx := &ctx{file: cls.file, cls: cls, fn: "__init__", inst: inst}
	for ci := range cls.file.Facts.Calls {
		cf := &cls.file.Facts.Calls[ci]
		if cf.Class != cls.name || cf.Func != "__init__" {
			continue
		}
		ch := cf.Value.Chain
		if len(ch) < 2 || ch[len(ch)-1].Name != "__init__" {
			continue
		}
		var next []*classInfo
		nskip := 0
		if isSuperInit(ch) {
			next = e.bases(cls)
		} else {
			for _, a := range e.chain(ch[:len(ch)-1], &ctx{file: cls.file}) {
				if a.kind == aClass {
					next = append(next, a.cls)
				}
			}
			nskip = 1
		}
		nextCall, nextAt := &cf.Value, initCtx
		if forwards(cf.Value, nskip) { // super().__init__(*args, **kwargs): same arguments
			nextCall, nextAt, nskip = call, at, skip
		}
		for _, b := range next {
			if out := e.bindFrom(inst, b, nextCall, nextAt, nskip, target, i, p, hops+1); len(out) > 0 {
				return out
			}
		}
	}
	return nil
}

// isSuperInit reports the chain super().__init__.
func isSuperInit(ch pyextract.Chain) bool {
	return len(ch) == 3 && ch[0].Name == "super" && ch[1].Call && ch[2].Name == "__init__"
}

// forwards reports whether a call passes on only *args/**kwargs (after skip arguments).
func forwards(call pyextract.Value, skip int) bool {
	if len(call.Kwargs) > 0 || len(call.Args) <= skip {
		return false
	}
	for _, a := range call.Args[skip:] {
		if !isSplat(a) {
			return false
		}
	}
	return true
}

func isSplat(v pyextract.Value) bool {
	return v.Kind == pyextract.ValOther && strings.HasPrefix(v.Str, "*")
}

// isNone reports whether a parameter's default is the literal None.
func isNone(v *pyextract.Value) bool {
	return v != nil && v.Kind == pyextract.ValOther && v.Str == "None"
}

// argFor evaluates the argument of call for parameter i (p) of a method (parameter 0 is
// self); skip positional arguments are dropped first (an explicit self).
func (e *evaluator) argFor(call *pyextract.Value, at *ctx, skip, i int, p pyextract.Param) []aval {
	v := argValue(call, skip, i, p)
	if v == nil {
		return nil
	}
	if out := e.eval(v, at); len(out) > 0 {
		return out
	}
	return []aval{{kind: aUnknown}}
}

// argValue is the argument, as written, that call passes to parameter p, the i-th positional
// one (from 1) after the first skip arguments, or by keyword; nil when it passes none or the
// position is unknown (*args before it).
func argValue(call *pyextract.Value, skip, i int, p pyextract.Param) *pyextract.Value {
	for k := range call.Kwargs {
		if call.Kwargs[k].Name == p.Name {
			return &call.Kwargs[k].Value
		}
	}
	for j := skip; j < len(call.Args); j++ {
		if isSplat(call.Args[j]) {
			return nil // *args: positions unknown
		}
		if j-skip == i-1 {
			return &call.Args[j]
		}
	}
	return nil
}

// attr evaluates a.name.
func (e *evaluator) attr(a aval, name, via string) []aval {
	switch a.kind {
	case aStr:
		// an enum member's value (Endpoint.STORE.value, of class Endpoint(str, Enum)): the
		// member is read as its string already; a plain str has no attribute value
		if name == "value" && a.member {
			a.member = false
			return []aval{a}
		}
		return nil
	case aCharm:
		switch name {
		case "on":
			return []aval{{kind: aOn, cls: a.cls}}
		case "config":
			return []aval{{kind: aConfig}}
		case "model":
			return []aval{{kind: aModel}}
		case "meta":
			return []aval{{kind: aMeta}}
		case "framework":
			return []aval{{kind: aObj}} // the ops Framework: its .model is the model
		}
		classes := e.charmCls
		if a.cls != nil {
			classes = []*classInfo{a.cls}
		}
		var out []aval
		for _, cl := range classes {
			out = append(out, e.member(cl, nil, name)...)
		}
		return limit(out)
	case aObj:
		if name == "on" || a.cls != nil && e.eventsAttr(a.cls, name) {
			return []aval{{kind: aObjOn, cls: a.cls, inst: a.inst, self: a.self, loose: a.loose}}
		}
		// SimpleNamespace(peer="replicas").peer, and a field of a class whose constructor is
		// generated from its fields (a pydantic model or dataclass: Policy(relation="oidc")),
		// where the argument overrides the field's default
		kwarg := func() []aval {
			var out []aval
			for i := range a.inst.call.Kwargs {
				if kw := &a.inst.call.Kwargs[i]; kw.Name == name {
					out = append(out, loosen(e.eval(&kw.Value, a.inst.at))...)
				}
			}
			return limit(out)
		}
		built := a.inst != nil && a.inst.call != nil
		if a.cls != nil {
			if built && e.generatedInit(a.cls) {
				// a field the call passes holds what it passes, known or not, never its
				// default (cls(container_name=charm.config["container"]), review rev128)
				if slices.ContainsFunc(a.inst.call.Kwargs, func(kw pyextract.Kwarg) bool { return kw.Name == name }) {
					return kwarg()
				}
				if e.passedByPosition(a.cls, a.inst.call, name) {
					return nil
				}
			}
			if out := e.member(a.cls, a.inst, name); len(out) > 0 {
				return out
			}
		}
		if name == "model" {
			return []aval{{kind: aModel}}
		}
		if a.cls == nil && built {
			if out := kwarg(); len(out) > 0 {
				return out
			}
		}
		if strings.Contains(strings.ToLower(name), "charm") {
			return []aval{{kind: aCharm}}
		}
	case aModel:
		if name == "config" {
			return []aval{{kind: aConfig}}
		}
		if name == "relations" {
			return []aval{{kind: aRelations}}
		}
	case aMeta:
		if name == "relations" {
			return []aval{{kind: aRelations}}
		}
		if name == charmyaml.RoleProvides || name == charmyaml.RoleRequires || name == charmyaml.RolePeers {
			return []aval{{kind: aRelations, str: name}}
		}
		if name == "containers" {
			return []aval{{kind: aContainers}}
		}
		if name == "config" {
			return []aval{{kind: aConfigNames}}
		}
		if name == "name" && e.ix.charms[e.charm].Name != "" { // the YAML's name: (not app.name, the deployed one)
			return []aval{{kind: aStr, str: e.ix.charms[e.charm].Name}}
		}
	case aOn:
		return []aval{{kind: aEvent, str: name, cls: a.cls, via: via}}
	case aOnIdx:
		return []aval{{kind: aEvent, str: name, key: a.str, cls: a.cls, via: ViaIndex, dyn: a.dyn, loose: a.loose, every: a.every}}
	case aObjOn:
		return []aval{{kind: aObjEvent, str: name, cls: a.cls, inst: a.inst, self: a.self, loose: a.loose}}
	case aClass:
		if attrs, ok := e.lookupClassAttr(a.cls, name); ok {
			if e.isEnum(a.cls) {
				attrs = slices.Clone(attrs)
				for i := range attrs {
					attrs[i].member = attrs[i].kind == aStr
				}
			}
			return attrs
		}
		if nc := a.cls.file.classes[a.cls.name+"."+name]; nc != nil { // a nested class: Config.Relations
			return []aval{{kind: aClass, cls: nc}}
		}
	case aModule:
		if a.file != nil {
			if out := e.global(a.file, name); len(out) > 0 {
				return out
			}
		}
		return e.submodule(a.from, joinModule(a.str, name))
	}
	return nil
}

func (e *evaluator) index(a aval, key *pyextract.Value, c *ctx) []aval {
	switch a.kind {
	case aOn:
		names, ok := e.strVals(key, c)
		if !ok {
			return []aval{{kind: aOnIdx, cls: a.cls, dyn: true}}
		}
		out := make([]aval, 0, len(names))
		for _, n := range names {
			out = append(out, aval{kind: aOnIdx, str: n.str, cls: a.cls, loose: n.loose, every: n.every})
		}
		return out
	case aObjOn:
		return []aval{a}
	case aItems: // one of the values put in it, as an element of a collection is
		if a.key != "" { // put under a literal key: read under that key only
			if keys, ok := e.strVals(key, c); ok && !slices.ContainsFunc(keys, func(k aval) bool { return k.str == a.key }) {
				return nil
			}
		}
		return loosen(slices.Clone(a.elems))
	case aYAMLDoc:
		if key.Kind == pyextract.ValStr {
			return yamlDocIndex(key.Str)
		}
		return nil
	case aSeq: // NAMES["ambient"] of a dict display; pair[1] of a tuple display
		if a.seq.Kind == pyextract.ValSeq {
			if n, err := strconv.Atoi(key.Str); err == nil && key.Kind == pyextract.ValOther && n >= 0 && n < len(a.seq.Args) {
				out := e.eval(&a.seq.Args[n], a.at)
				if a.loose {
					out = loosen(slices.Clone(out))
				}
				return out
			}
			return nil
		}
		if a.seq.Kind != pyextract.ValDict {
			return nil
		}
		keys, _ := e.strVals(key, c)
		var out []aval
		for _, k := range keys {
			for i := range a.seq.Kwargs {
				if kw := &a.seq.Kwargs[i]; kw.Name != "" && kw.Name == k.str {
					for _, x := range e.eval(&kw.Value, a.at) {
						x.loose = x.loose || k.loose
						out = append(out, x)
					}
				}
			}
		}
		return limit(out)
	}
	return nil
}

// isEnum reports whether cls derives, through the tree's classes, from a class named like
// the standard library's enums (Enum, StrEnum, IntEnum, enum.Enum, ...).
func (e *evaluator) isEnum(cls *classInfo) bool {
	return e.hasBase(cls, func(b string) bool { return strings.HasSuffix(lastSegment(b), "Enum") })
}

// hasBase reports whether cls or a class of the tree it derives from has a base, as written,
// that pred accepts.
func (e *evaluator) hasBase(cls *classInfo, pred func(base string) bool) bool {
	return slices.ContainsFunc(e.mro(cls), func(k *classInfo) bool { return slices.ContainsFunc(k.sym.Bases, pred) })
}

// member evaluates obj.name for an object of class cls (built as inst, or nil): self.name
// assignments in any method, then class attributes, across the class and its bases.
func (e *evaluator) member(cls *classInfo, inst *instance, name string) []aval {
	key := busyMember{cls, inst, name}
	if e.busy[key] {
		return nil
	}
	e.busy[key] = true
	defer delete(e.busy, key)
	// items put in self.name (self.relations[rel] = ...) add to what self.name is set to,
	// wherever up the classes that is
	var out, items []aval
	for _, k := range e.mro(cls) {
		for _, sa := range k.selfAttrs[name] {
			vals := e.eval(sa.value, &ctx{file: k.file, cls: k, fn: sa.fn, inst: inst})
			if sa.item {
				if len(vals) > 0 {
					it := aval{kind: aItems, elems: vals}
					if sa.key != nil && sa.key.Kind == pyextract.ValStr {
						it.key = sa.key.Str
					}
					items = append(items, it)
				}
				continue
			}
			out = append(out, vals...)
		}
		if len(out) > 0 {
			return limit(append(out, items...))
		}
		if attrs, ok := k.attrs[name]; ok {
			return limit(append(e.classAttrs(k, attrs), items...))
		}
		if m := k.methods[name]; m != nil && isProperty(m) {
			// @property def _peer_name(self): return PEER: what the getter returns, the
			// concrete charm class's override answering a base's (returned)
			self := pyextract.Chain{{Name: "self"}, {Name: name}}
			return limit(append(e.returned(self, &ctx{file: k.file, cls: k, inst: inst}), items...))
		}
	}
	return limit(append(e.keptByExternalBase(cls, inst, name), items...))
}

// isProperty reports a method decorated as a property (@property, @functools.cached_property):
// reading the attribute runs it.
func isProperty(m *pyextract.Symbol) bool {
	return slices.ContainsFunc(m.Decorators, func(d string) bool { return d == "property" || strings.HasSuffix(d, "cached_property") })
}

// keptByExternalBase is the value of self.<name>, a relation-naming attribute no class of
// the tree sets, when an __init__ up the classes takes a parameter of that name and a class
// derives from one outside the tree: that base keeps its constructor's argument under the
// same name (ops_sunbeam's RelationHandler(charm, relation_name, ...) sets
// self.relation_name). Nil otherwise.
func (e *evaluator) keptByExternalBase(cls *classInfo, inst *instance, name string) []aval {
	if inst == nil || !relationParam(name) {
		return nil
	}
	classes := e.mro(cls)
	if !slices.ContainsFunc(classes, func(k *classInfo) bool { return len(k.sym.Bases) > len(e.bases(k)) }) {
		return nil
	}
	for _, k := range classes {
		if init := k.methods["__init__"]; init != nil {
			for i, p := range positional(init.Params) {
				if i > 0 && p.Name == name {
					return e.param(&ctx{file: k.file, cls: k, fn: "__init__", inst: inst}, i, p)
				}
			}
		}
	}
	return nil
}

func (e *evaluator) classAttrs(k *classInfo, attrs []classAttr) []aval {
	var out []aval
	for _, ca := range attrs {
		out = append(out, e.eval(ca.value, &ctx{file: k.file, cls: k})...)
	}
	return limit(out)
}

func (e *evaluator) lookupClassAttr(cls *classInfo, name string) ([]aval, bool) {
	for _, k := range e.mro(cls) {
		if attrs, ok := k.attrs[name]; ok {
			return e.classAttrs(k, attrs), true
		}
	}
	return nil, false
}

// baseChain is a base class as written, as a chain (ops.CharmBase; Generic for Generic[T]);
// nil for a keyword (metaclass=...).
func baseChain(base string) pyextract.Chain {
	expr, _, _ := strings.Cut(base, "[")
	expr = strings.TrimSpace(expr)
	if strings.Contains(expr, "=") {
		return nil
	}
	var ch pyextract.Chain
	for _, part := range strings.Split(expr, ".") {
		ch = append(ch, pyextract.Step{Name: part})
	}
	return ch
}

// bases resolves cls's base classes found in the tree (once).
func (e *evaluator) bases(cls *classInfo) []*classInfo {
	if cls.basesDone {
		return cls.bases
	}
	cls.basesDone = true
	for _, b := range cls.sym.Bases {
		ch := baseChain(b)
		if ch == nil {
			continue
		}
		found := false
		for _, a := range e.chain(ch, &ctx{file: cls.file}) {
			if a.kind == aClass && a.cls != cls {
				cls.bases = append(cls.bases, a.cls)
				found = true
			}
		}
		if !found && !knownBases[ch[len(ch)-1].Name] {
			cls.openBases = true
		}
	}
	return cls.bases
}

// passedByPosition reports a field of cls, whose constructor is generated from its fields, that
// call may pass by position: one of the first len(call.Args) fields (bases' first), or any
// field when an argument is unpacked (*args, **data).
func (e *evaluator) passedByPosition(cls *classInfo, call *pyextract.Value, name string) bool {
	if len(call.Args) == 0 {
		return false
	}
	if slices.ContainsFunc(call.Args, func(v pyextract.Value) bool { return v.Kind == pyextract.ValOther && strings.HasPrefix(v.Str, "*") }) {
		return true
	}
	classes := e.mro(cls)
	var fields []string
	for k := len(classes) - 1; k >= 0; k-- {
		for _, f := range classes[k].fields {
			if !slices.Contains(fields, f.name) {
				fields = append(fields, f.name)
			}
		}
	}
	i := slices.Index(fields, name)
	return i >= 0 && i < len(call.Args)
}

// generatedInit reports a class of the tree that defines no __init__, nor does any base the
// tree holds, and has fields: its constructor takes them by name (a pydantic model, a
// dataclass, a NamedTuple).
func (e *evaluator) generatedInit(cls *classInfo) bool {
	fields := false
	for _, k := range e.mro(cls) {
		if k.methods["__init__"] != nil {
			return false
		}
		fields = fields || len(k.fields) > 0
	}
	return fields
}

// mro lists cls and its bases, depth first, each once.
func (e *evaluator) mro(cls *classInfo) []*classInfo {
	var out []*classInfo
	seen := map[*classInfo]bool{}
	stack := []*classInfo{cls}
	for len(stack) > 0 && len(out) < 64 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k == nil || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
		bs := e.bases(k)
		for i := len(bs) - 1; i >= 0; i-- {
			stack = append(stack, bs[i])
		}
	}
	return out
}

// isCharm reports whether cls is a charm class: a base, written or resolved, is a charm base
// (IsCharmBase), or a class from outside the tree named like one (ops_openstack's
// OSBaseCharm, a framework's base charm class installed from a package).
func (e *evaluator) isCharm(cls *classInfo) bool {
	if cls == nil {
		return false
	}
	outsideCharm := func(base string) bool { return e.ix.outsideCharmName(lastSegment(base)) }
	for _, k := range e.mro(cls) {
		if slices.ContainsFunc(k.sym.Bases, IsCharmBase) || slices.ContainsFunc(k.sym.Bases, outsideCharm) {
			return true
		}
	}
	return false
}

// outsideCharmName reports a class name like a charm class's (OSBaseCharm: longer than
// "Charm" and ending in it) that no class of the tree has: a base charm class from a package.
func (ix *index) outsideCharmName(name string) bool {
	return len(name) > len("Charm") && strings.HasSuffix(name, "Charm") && !ix.classes[name]
}

// IsCharmBase reports whether a base class expression, as written, is a charm base: ops'
// CharmBase (ops.CharmBase, TypedCharmBase[Config], ...), or a framework's class named Charm
// (paas_charm.flask.Charm: a 12-factor charm's base, installed from PyPI, not in the tree).
func IsCharmBase(base string) bool {
	name, _, _ := strings.Cut(base, "[")
	if strings.Contains(name, "CharmBase") {
		return true
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSpace(name) == "Charm"
}
