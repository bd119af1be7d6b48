package pyextract

import (
	"bytes"
	"cmp"
	"hash/fnv"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounds on the work done for one file.
const (
	// MaxFileSize is the largest file Parse reads; larger files, and files with a NUL byte in
	// their first BinarySniff bytes, are returned with no symbols and Errors = 1. The largest
	// Python file in 77 fetched charm repositories is 227 KB (a vendored data_interfaces.py);
	// tree-sitter takes about 3 s on a 1 MiB file of dense tokens (a generated list), so a
	// caller's timeout of 10 s holds even for several such files.
	MaxFileSize = 1 << 20
	BinarySniff = 8 << 10
	// maxSignature is the length in runes of a signature, decorator or base before "…".
	maxSignature = 160
	// maxWiring is that length for a flag decorator (flagDecorators), whose every argument
	// is a hook or flag the linker reads: charm-helpers' @hooks.hook with five
	// -relation-broken names is 180 runes long.
	maxWiring = 2000
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// scratch is the reusable memory of one Parse call.
type scratch struct {
	nodes  []node
	stack  []int32
	index  map[string]int32 // references: stopNames, then this file's names
	counts []int
	names  interner // interned texts, kept across the files this scratch parses
	facts  factWalker
	// the File's symbols and imports, copied out at the end so that the File holds no
	// spare capacity
	syms []Symbol
	imps []Import
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Parse extracts the definitions, references, imports and facts of one Python file. It never
// fails: what cannot be read is skipped and counted in Errors. It is safe for concurrent use.
//
// Decisions:
//   - Symbols are the classes and functions at module level and in class bodies (also under
//     if/try/with/for/while at those levels), methods named "Class.method" and nested classes
//     "Outer.Inner"; definitions inside function bodies are local and left out. Constants
//     are module-level `NAME = value` / `NAME: T = value` assignments whose NAME matches
//     ^_?[A-Z][A-Z0-9_]*$ (lower-case module variables are not constants).
//   - Signatures are the source text of the header on one line (comments dropped, whitespace
//     collapsed), decorators first. A def longer than maxSignature runes keeps its name, its
//     first parameters and its return type with "…" between (header); anything else longer
//     is cut at maxSignature runes with "…".
//   - Params name *args and **kw with their stars and include the bare "*" and "/" markers.
//   - Refs count identifiers (names, attribute names, keyword-argument names) except names
//     being defined (def/class names, parameters, module constants), names in import
//     statements (they are in Imports), and the names in stopNames.
//   - A syntax error that swallows the definitions after it (an unclosed bracket or string)
//     is blanked out and the file parsed again (recover.go); one that moves them (a bare
//     assert ending the class there) too, the statement at fault found by comparing the tree
//     with the nesting the headers' indentation gives (restructure.go). ErrorLine is where
//     the first error was found, in the file as written.
func Parse(path string, src []byte) File {
	f := File{Path: path, Lines: countLines(src)}
	if len(src) > MaxFileSize || bytes.IndexByte(src[:min(len(src), BinarySniff)], 0) >= 0 {
		f.Errors = 1
		return f
	}
	src = fromLatin1(bytes.TrimPrefix(src, utf8BOM))
	sc := scratches.Get().(*scratch)
	parseWith(&f, path, src, sc)
	scratches.Put(sc) // not after a panic: a half-written scratch is dropped, never reused
	return f
}

// parseWith is Parse's work on f, with a scratch from the pool.
func parseWith(f *File, path string, src []byte, sc *scratch) {
	t, errs, ok := parseFlat(src, sc)
	if !ok {
		f.Errors = 1
		return
	}
	f.Errors = errs
	if (errs > 0 || inTemplates(path)) && IsTemplate(src) {
		f.Template = true
		return
	}
	if errs > 0 {
		f.ErrorLine = t.firstError() + 1
		rt, rerrs := recoverSwallowed(t, errs)
		t = repairStructure(rt, rerrs, src)
	}
	if sc.names == nil {
		sc.names = interner{}
	}
	t.names = sc.names

	e := extractor{t: t, f: f, syms: sc.syms, imps: sc.imps}
	e.definitions()
	e.references(sc)
	sc.syms, sc.imps = e.syms, e.imps
	f.Symbols, f.Imports = own(&sc.syms), own(&sc.imps)
	f.Facts = factsOf(&t, &sc.facts) // t is the whole tree, flattened once
	f.Words, f.Comments = words(&t)
	bodyWords(&t, f.Symbols)
	handedParams(&t, f.Symbols)
	bodyCalls(&t, f.Symbols)
}

// midParse runs halfway through a parse, when the scratch holds the file's facts but has not
// handed them out (factsOf): a test panics there.
var midParse = func() {}

// templateLines is how many lines of Jinja markup make a file that does not parse a template.
const templateLines = 3

// IsTemplate reports Jinja markup on at least templateLines lines: a statement line
// ("{% if debug %}") or an expression outside a string ("DEBUG = {{ debug }}"). Parse asks only of a file
// that does not parse, or that lies under a templates/ folder: elsewhere a docstring that
// shows a template, as charm-helpers' has, is valid Python and stays code.
func IsTemplate(src []byte) bool {
	n := 0
	for line := range bytes.Lines(src) {
		t := bytes.TrimLeft(line, " \t")
		open := bytes.Index(line, []byte("{{ "))
		// markup outside a string: "{{ " with no quote before it on the line ("server {{ listen
		// {}; }}", a str.format escape, is a string's)
		expr := open >= 0 && !bytes.ContainsAny(line[:open], `'"`) && bytes.Contains(line[open:], []byte(" }}"))
		if bytes.HasPrefix(t, []byte("{%")) || expr {
			if n++; n >= templateLines {
				return true
			}
		}
	}
	return false
}

// inTemplates reports a path under a folder named templates, where charms keep what they
// render: there Jinja markup that happens to parse ("DEBUG = {{ debug }}", a set of a set)
// is a template too.
func inTemplates(p string) bool {
	return strings.HasPrefix(p, "templates/") || strings.Contains(p, "/templates/")
}

// parseFlat parses src and flattens the tree into sc's buffers; ok is false if tree-sitter
// gave up.
func parseFlat(src []byte, sc *scratch) (tree, int, bool) {
	t, errs, ok := parseTree(src, sc.nodes, sc.stack)
	if ok {
		sc.nodes, sc.stack = t.nodes[:cap(t.nodes)], t.stack
	}
	return t, errs, ok
}

// countLines counts lines as editors number them: a final line without "\n" counts.
func countLines(src []byte) int {
	n := bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

type extractor struct {
	t    tree
	f    *File
	syms []Symbol // f's symbols and imports, in scratch memory
	imps []Import
	// consts are the nodes of the names module constants define, in source order; they are
	// not references.
	consts []int32
}

// classScope is a class body being walked.
type classScope struct {
	end  int32 // index after the class
	name string
}

// definitions walks the module in source order, descending into class bodies and compound
// statements (and ERROR nodes, which can hold whole definitions) but not into functions.
func (e *extractor) definitions() {
	t := &e.t
	var classes []classScope
	for i := int32(1); i < int32(len(t.nodes)); {
		for len(classes) > 0 && i >= classes[len(classes)-1].end {
			classes = classes[:len(classes)-1]
		}
		qual := ""
		if len(classes) > 0 {
			qual = classes[len(classes)-1].name
		}
		switch t.kind(i) {
		case kBlock, kIf, kElif, kElse, kTry, kExcept, kFinally, kWith, kFor, kWhile, kError:
			i++
			continue
		case kDecoratedDef:
			var decorators []string
			def := int32(-1)
			for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
				switch t.kind(c) {
				case kDecorator:
					if d := t.namedChild(c, 0); d >= 0 {
						limit := maxSignature
						if flagDecorator(string(t.raw(d))) {
							limit = maxWiring
						}
						decorators = append(decorators, oneLine(t.raw(d), limit))
					}
				case kFunctionDef, kClassDef:
					def = c
				}
			}
			if def >= 0 {
				if body, name := e.definition(def, t.nodes[i].start, qual, decorators); body >= 0 {
					classes = append(classes, classScope{end: t.nodes[def].last, name: name})
					i = body
					continue
				}
			}
		case kFunctionDef, kClassDef:
			if body, name := e.definition(i, t.nodes[i].start, qual, nil); body >= 0 {
				classes = append(classes, classScope{end: t.nodes[i].last, name: name})
				i = body
				continue
			}
		case kExpressionStatement:
			if qual == "" {
				e.constant(i)
			} else {
				e.field(i, qual)
			}
		case kImportFrom:
			if qual != "" {
				e.classImport(i, qual)
			}
		}
		i = t.nodes[i].last
	}
}

// definition records the class or function at node i, its decorators (if any) starting at
// byte from. For a class it returns the index of its body and its qualified name, for the
// walk to descend into; otherwise body is -1.
func (e *extractor) definition(i int32, from uint32, qual string, decorators []string) (body int32, name string) {
	t := &e.t
	nameNode := t.child(i, fName)
	if nameNode < 0 {
		return -1, ""
	}
	name = t.text(nameNode)
	if qual != "" {
		name = qual + "." + name
	}
	n := &t.nodes[i]
	s := Symbol{
		Name: name, Qualifier: qual, Line: int(n.row) + 1, EndLine: int(n.endRow) + 1,
		Decorators: decorators,
	}
	headerEnd := t.nodes[nameNode].end
	for _, fld := range [...]uint16{fTypeParameters, fParameters, fReturnType, fSuperclasses} {
		if c := t.child(i, fld); c >= 0 {
			headerEnd = max(headerEnd, t.nodes[c].end)
		}
	}
	s.Signature = decoratorPrefix(decorators) + e.header(i, headerEnd)
	s.Digest = digest(s.Signature, t.src[from:headerEnd])
	body = -1
	if t.kind(i) == kClassDef {
		s.Kind = KindClass
		if sup := t.child(i, fSuperclasses); sup >= 0 {
			for c := sup + 1; c < t.nodes[sup].last; c = t.nodes[c].last {
				if k := t.kind(c); k != kComment && k != kKeywordArgument {
					s.Bases = append(s.Bases, oneLine(t.raw(c), maxSignature))
				}
			}
		}
		body = t.child(i, fBody)
	} else {
		s.Kind = KindFunction
		if qual != "" {
			s.Kind = KindMethod
		}
		if p := t.child(i, fParameters); p >= 0 {
			s.Params = e.params(p)
		}
	}
	e.syms = append(e.syms, s)
	return body, name
}

// digest is Symbol.Digest: "" when sig shows all of src, else a hash of src as one line
// (comments and runs of white space as oneLine folds them, so that reformatting is no change).
func digest(sig string, src []byte) string {
	if !strings.Contains(sig, "…") {
		return ""
	}
	h := fnv.New64a()
	h.Write([]byte(oneLine(src, math.MaxInt32)))
	return strconv.FormatUint(h.Sum64(), 16)
}

// header is the one-line header of the def or class at node i, ending at headerEnd, with its
// colon. A def longer than maxSignature runes keeps its name, its first parameters and its
// return type, and elides the parameters in between ("def f(self, *, prefix: str, …) -> dict:"):
// the return type says what a caller gets back, the middle parameters are the least read.
// A class that long is cut at maxSignature with "…".
func (e *extractor) header(i int32, headerEnd uint32) string {
	t := &e.t
	n := &t.nodes[i]
	if sig := oneLine(t.src[n.start:headerEnd], maxSignature); !strings.HasSuffix(sig, "…") {
		return sig + ":"
	}
	p := t.child(i, fParameters)
	if p < 0 || t.nodes[p].end-t.nodes[p].start < 2 {
		return oneLine(t.src[n.start:headerEnd], maxSignature)
	}
	head := oneLine(t.src[n.start:t.nodes[p].start+1], maxSignature) // "def name("
	// a name too long on its own: "def very_long_na…):"
	if strings.HasSuffix(head, "…") {
		return head + "):"
	}
	tail := oneLine(t.src[t.nodes[p].end-1:headerEnd], maxSignature) // ") -> T"
	if utf8.RuneCountInString(tail) > maxSignature/2 {
		// a return type that long keeps its outer name, its brackets closed: "-> Union[…]"
		if r := t.child(i, fReturnType); r >= 0 {
			ret := oneLine(t.raw(r), maxSignature)
			if k := strings.IndexByte(ret, '['); k > 0 && k < maxSignature/2 {
				ret = ret[:k] + "[…]"
			} else if utf8.RuneCountInString(ret) > maxSignature/2 {
				ret = string([]rune(ret)[:maxSignature/2]) + "…"
			}
			tail = ") -> " + ret
		}
	}
	room := maxSignature - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail) - len(", …")
	var kept []string
	all := true
	for c := p + 1; c < t.nodes[p].last; c = t.nodes[c].last {
		if t.kind(c) == kComment {
			continue
		}
		prm := oneLine(t.raw(c), maxSignature)
		if utf8.RuneCountInString(prm)+len(", ") > room {
			// a long default gives way before its parameter does: "extra: Extra = …"; a short
			// one (None, 0, "") is not worth the "= …", which reads as a default of note
			if short := e.shortDefault(c); utf8.RuneCountInString(prm)-utf8.RuneCountInString(short) >= minElidedDefault {
				prm = short
			}
		}
		if room -= utf8.RuneCountInString(prm) + len(", "); prm == "" || room < 0 {
			all = false
			break
		}
		kept = append(kept, prm)
	}
	switch {
	case all: // only the return type was too long
		return head + strings.Join(kept, ", ") + tail + ":"
	case len(kept) == 0:
		return head + "…" + tail + ":"
	}
	return head + strings.Join(kept, ", ") + ", …" + tail + ":"
}

// minElidedDefault is the fewest runes shortDefault must save for a signature to show a
// default as "…" (`s3_tls_ca_chain: Optional[str] = …` for None saved 3).
const minElidedDefault = 6

// shortDefault is parameter c with its default value elided ("extra_config:
// ExtraConfigs = …", "timeout=…"), or "" when c has no default.
func (e *extractor) shortDefault(c int32) string {
	t := &e.t
	name := t.child(c, fName)
	if name < 0 {
		return ""
	}
	switch t.kind(c) {
	case kDefaultParameter:
		return oneLine(t.raw(name), maxSignature) + "=…"
	case kTypedDefaultParameter:
		if typ := t.child(c, fType); typ >= 0 {
			return oneLine(t.raw(name), maxSignature) + ": " + oneLine(t.raw(typ), maxSignature) + " = …"
		}
	}
	return ""
}

// maxDecorator is the length in runes of a decorator shown in a signature; a longer one keeps
// its name ("@retry(…)"). A flag decorator (flagDecorators) may be maxFlagDecorator long.
const (
	maxDecorator     = 48
	maxFlagDecorator = 120
)

// flagDecorators are the decorators whose arguments are a handler's wiring: the reactive
// framework's flags (@when('db.available', 'config.changed.port'), @when_not, @when_any,
// ...) and charm-helpers' hook names (@hooks.hook('install', 'upgrade-charm')). They are to
// a reactive or classic charm what framework.observe is to an ops charm, so they are shown
// whole within maxFlagDecorator, not cut to their name.
var flagDecorators = map[string]bool{"when": true, "when_not": true, "when_any": true, "when_all": true,
	"when_none": true, "when_not_all": true, "when_file_changed": true, "not_unless": true, "hook": true}

// flagDecorator reports a decorator, as written without "@", of flagDecorators
// (`hooks.hook('install')`, `when_any(...)`): the last name before its arguments.
func flagDecorator(d string) bool {
	name, _, called := strings.Cut(d, "(")
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		name = name[dot+1:]
	}
	return called && flagDecorators[strings.TrimSpace(name)]
}

// decoratorPrefix writes a definition's decorators before its header, on the same line
// ("@property ", "@validator(\"mode\") "): they change how the name is used (a property is
// not called, a staticmethod takes no self, a dataclass has an __init__).
func decoratorPrefix(decorators []string) string {
	var sb strings.Builder
	for _, d := range decorators {
		sb.WriteByte('@')
		k := strings.IndexByte(d, '(')
		limit := maxDecorator
		if flagDecorator(d) {
			limit = maxFlagDecorator
		}
		switch n := utf8.RuneCountInString(d); {
		case n <= limit:
			sb.WriteString(d)
		case limit == maxFlagDecorator:
			sb.WriteString(string([]rune(d)[:limit-2]) + "…)") // the first flags, then the cut
		case k > 0 && utf8.RuneCountInString(d[:k]) <= limit:
			sb.WriteString(d[:k] + "(…)")
		default:
			sb.WriteString(string([]rune(d)[:limit-1]) + "…")
		}
		sb.WriteByte(' ')
	}
	return sb.String()
}

// params lists the parameters of a parameters node.
func (e *extractor) params(p int32) []Param {
	t := &e.t
	var ps []Param
	for c := p + 1; c < t.nodes[p].last; c = t.nodes[c].last {
		var prm Param
		switch t.kind(c) {
		case kComment:
			continue
		case kIdentifier, kListSplatPattern, kDictSplatPattern, kKeywordSeparator, kPositionalSeparator:
			prm.Name = compact(t.raw(c))
		case kTypedParameter:
			prm.Name = compact(t.raw(t.namedChild(c, 0)))
		case kDefaultParameter, kTypedDefaultParameter:
			if name := t.child(c, fName); name >= 0 {
				prm.Name = compact(t.raw(name))
			}
			v := t.value(t.child(c, fValue), 0)
			prm.Default = &v
		default: // a syntax error or a Python 2 tuple parameter
			prm.Name = oneLine(t.raw(c), maxOtherLen)
		}
		ps = append(ps, prm)
	}
	return ps
}

// constant records a module-level NAME = value whose NAME is constant-like, or a type a
// factory makes (CharmCredentials = collections.namedtuple(...), keystone's
// hooks/keystone_types.py: the module's one definition).
func (e *extractor) constant(stmt int32) {
	t := &e.t
	a, left, ok := e.nameAssignment(stmt)
	if !ok {
		return
	}
	right := t.child(a, fRight)
	if right < 0 {
		return
	}
	for t.kind(right) == kAssignment { // A = B = value
		if r := t.child(right, fRight); r >= 0 {
			right = r
		} else {
			break
		}
	}
	if !constantName(t.raw(left)) && !(capWords(t.raw(left)) && t.typeFactory(right)) {
		return
	}
	n := &t.nodes[a]
	v := t.value(right, 0)
	sig := pemClipped(oneLine(t.raw(a), maxSignature))
	e.syms = append(e.syms, Symbol{
		Name: t.text(left), Kind: KindConstant, Line: int(n.row) + 1, EndLine: int(n.endRow) + 1,
		Signature: sig, Digest: digest(sig, t.raw(a)), Value: &v,
	})
	e.consts = append(e.consts, left)
}

// pemClipped cuts a constant's signature after the first PEM header it holds (`KEY = """
// -----BEGIN PGP PUBLIC KEY BLOCK-----…`): what follows is base64, which tells a reader
// nothing and costs a map line its budget (review rev110: apptainer's PPA key).
func pemClipped(sig string) string {
	i := strings.Index(sig, "-----BEGIN ")
	if i < 0 {
		return sig
	}
	end := strings.Index(sig[i+len("-----BEGIN "):], "-----")
	if end < 0 {
		return sig
	}
	cut := i + len("-----BEGIN ") + end + len("-----")
	if cut >= len(sig) {
		return sig
	}
	return strings.TrimSuffix(sig[:cut], "…") + "…"
}

// classImport records the names a `from m import f` in a class body binds as methods
// (KindMethod, the import as signature): a charm that keeps its action handlers in modules of
// their own and writes `from actions.enable import on_enable_action` in its class has
// self.on_enable_action as a method, and observing it names no missing handler.
func (e *extractor) classImport(i int32, qual string) {
	t := &e.t
	n := &t.nodes[i]
	sig := oneLine(t.raw(i), maxSignature)
	for _, imp := range e.importsOf(i) {
		name := cmp.Or(imp.Alias, imp.Name)
		if name == "*" || strings.Contains(name, ".") {
			continue
		}
		e.syms = append(e.syms, Symbol{
			Name: qual + "." + name, Qualifier: qual, Kind: KindMethod,
			Line: int(n.row) + 1, EndLine: int(n.endRow) + 1, Signature: sig,
		})
	}
}

// field records an attribute a class body assigns (KindField): an annotated one (a dataclass
// or pydantic field, with or without a value), a constant-like name, a member of an enum
// (`all = "all"` in `class MimirRole(str, Enum)`), or an ops event (eventSource). Other
// plain lower-case assignments (model_config = ConfigDict(...), _stored = StoredState()) are
// machinery, and dunders are Python's.
func (e *extractor) field(stmt int32, qual string) {
	t := &e.t
	a, left, ok := e.nameAssignment(stmt)
	if !ok {
		return
	}
	name := t.raw(left)
	if bytes.HasPrefix(name, []byte("__")) || t.child(a, fType) < 0 && !constantName(name) && !(name[0] != '_' && e.isEnum(qual)) &&
		!e.eventSource(t.child(a, fRight)) {
		return
	}
	n := &t.nodes[a]
	sig := oneLine(t.raw(a), maxSignature)
	e.syms = append(e.syms, Symbol{
		Name: qual + "." + string(name), Qualifier: qual, Kind: KindField, Line: int(n.row) + 1, EndLine: int(n.endRow) + 1,
		Signature: sig, Digest: digest(sig, t.raw(a)),
	})
}

// eventSource reports an ops event declaration, EventSource(SomeEvent) (ops.EventSource,
// ops.framework.EventSource): `connected = EventSource(PeersConnectedEvent)` in a
// CharmEvents or ObjectEvents class is an event the charm observes and emits, the public
// interface of a relation wrapper.
func (e *extractor) eventSource(right int32) bool {
	t := &e.t
	if right < 0 || t.kind(right) != kCall {
		return false
	}
	fn := t.child(right, fFunction)
	if fn < 0 {
		return false
	}
	raw := t.raw(fn)
	return string(raw[bytes.LastIndexByte(raw, '.')+1:]) == "EventSource"
}

// isEnum reports whether the class qual, the last of that name recorded, derives from an
// enum (Enum, StrEnum, IntEnum, enum.Flag ...).
func (e *extractor) isEnum(qual string) bool {
	for i := len(e.syms) - 1; i >= 0; i-- {
		if s := &e.syms[i]; s.Kind == KindClass && s.Name == qual {
			return slices.ContainsFunc(s.Bases, func(b string) bool {
				b = b[strings.LastIndexByte(b, '.')+1:]
				return strings.HasSuffix(b, "Enum") || b == "Flag" || b == "IntFlag"
			})
		}
	}
	return false
}

// nameAssignment returns the assignment statement stmt holds and its target, when the target
// is a plain name (NAME = value, name: T = value, name: T).
func (e *extractor) nameAssignment(stmt int32) (a, left int32, ok bool) {
	t := &e.t
	if a = t.namedChild(stmt, 0); a < 0 || t.kind(a) != kAssignment {
		return a, -1, false
	}
	left = t.child(a, fLeft)
	return a, left, left >= 0 && t.kind(left) == kIdentifier
}

// capWords reports a CapWords name (a class's): a capital, then a lower-case letter somewhere.
func capWords(b []byte) bool {
	return len(b) > 1 && b[0] >= 'A' && b[0] <= 'Z' && bytes.ContainsFunc(b, func(r rune) bool { return r >= 'a' && r <= 'z' })
}

// typeFactories are the calls that make a class: namedtuple("Creds", "user password").
var typeFactories = map[string]bool{"namedtuple": true, "NamedTuple": true, "TypedDict": true, "Enum": true,
	"IntEnum": true, "StrEnum": true, "Flag": true, "IntFlag": true, "make_dataclass": true, "NewType": true}

// typeFactory reports whether node i is a call of a type factory (typeFactories), plain or
// qualified (collections.namedtuple, enum.Enum).
func (t *tree) typeFactory(i int32) bool {
	if t.kind(i) != kCall {
		return false
	}
	fn := t.child(i, fFunction)
	if fn < 0 {
		return false
	}
	name := t.raw(fn)
	if k := bytes.LastIndexByte(name, '.'); k >= 0 {
		name = name[k+1:]
	}
	return typeFactories[string(name)]
}

// constantName matches ^_?[A-Z][A-Z0-9_]*$.
func constantName(b []byte) bool {
	if len(b) > 0 && b[0] == '_' {
		b = b[1:]
	}
	if len(b) == 0 || b[0] < 'A' || b[0] > 'Z' {
		return false
	}
	for _, c := range b {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// compact is b without whitespace and line continuations: "a . b" → "a.b", "* args" → "*args".
func compact(b []byte) string {
	if !bytes.ContainsAny(b, " \t\r\n\\") {
		return validString(b)
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', '\\':
		default:
			out = append(out, c)
		}
	}
	return validString(out)
}

// Uncounted reports a name Refs never counts (stopNames: keywords, builtins): a method so
// named (exec, format, hash, open) may be called though no file's Refs holds its name.
func Uncounted(name string) bool { return stopNames[name] < 0 }

// stopNames are identifiers never counted as references: the names Python binds by itself
// (keywords that tree-sitter reads as identifiers in broken code, the self/cls convention,
// and the builtins charm code uses most). They would link every file to nothing useful.
var stopNames = func() map[string]int32 {
	m := map[string]int32{}
	for _, s := range strings.Fields(`
		self cls True False None _ __name__ __file__ __init__ __class__
		and as assert async await break class continue def del elif else except finally for
		from global if import in is lambda nonlocal not or pass raise return try while with
		yield match case type print exec
		object str int float bool bytes dict list set tuple frozenset len super isinstance
		issubclass getattr setattr hasattr range enumerate zip map filter sorted reversed min
		max sum any all open iter next repr hash id format property staticmethod classmethod
		Exception ValueError KeyError TypeError RuntimeError AttributeError IndexError
		NotImplementedError OSError`) {
		m[s] = -1
	}
	return m
}()

// references counts identifiers and records imports in one pass over the tree, keeping the
// chain of open ancestors to tell definition sites from uses.
func (e *extractor) references(sc *scratch) {
	t := &e.t
	if sc.index == nil {
		sc.index = maps.Clone(stopNames) // stop names map to -1
	}
	index, counts := sc.index, sc.counts[:0]
	defer func() {
		for name, k := range index {
			if k >= 0 {
				delete(index, name)
			}
		}
		sc.counts = counts[:0]
	}()
	anc := sc.stack[:0] // flatten is done with it
	consts := e.consts
	var attrs []string
	defer func() {
		slices.Sort(attrs)
		e.f.Attrs = slices.Compact(attrs)
	}()
	for i := int32(1); i < int32(len(t.nodes)); i++ {
		for len(anc) > 0 && i >= t.nodes[anc[len(anc)-1]].last {
			anc = anc[:len(anc)-1]
		}
		switch t.kind(i) {
		case kImport, kImportFrom, kFutureImport:
			e.imports(i, typeOnly(t, anc), len(anc) > 0)
			i = t.nodes[i].last - 1
			continue
		case kIdentifier:
			if len(consts) > 0 && consts[0] == i {
				consts = consts[1:]
				continue
			}
			if e.definitionSite(i, anc) {
				continue
			}
			if e.selfAttrTarget(i, anc) {
				attrs = append(attrs, string(t.raw(i)))
			}
			b := t.raw(i)
			if !utf8.Valid(b) {
				b = []byte(validString(b))
			}
			if k, ok := index[string(b)]; ok {
				if k >= 0 {
					counts[k]++
				}
			} else {
				index[t.names.bytes(b)] = int32(len(counts))
				counts = append(counts, 1)
			}
			continue
		}
		if t.nodes[i].last > i+1 {
			anc = append(anc, i)
		}
	}
	sc.stack = anc[:0]
	if len(counts) == 0 {
		return
	}
	refs := make([]Ref, 0, len(counts))
	for name, k := range index {
		if k >= 0 {
			refs = append(refs, Ref{Name: name, Count: counts[k]})
		}
	}
	slices.SortFunc(refs, func(a, b Ref) int { return strings.Compare(a.Name, b.Name) })
	e.f.Refs = refs
}

// selfAttrTarget reports whether identifier i is X of a `self.X` that an assignment
// assigns (self.X = v, self.X: T = v, self.X += v, self.a, self.X = pair). anc holds i's
// ancestors, innermost last.
func (e *extractor) selfAttrTarget(i int32, anc []int32) bool {
	t := &e.t
	if len(anc) < 2 || t.nodes[i].field != fAttribute {
		return false
	}
	attr := anc[len(anc)-1]
	if t.kind(attr) != kAttribute {
		return false
	}
	if obj := t.child(attr, fObject); obj < 0 || t.kind(obj) != kIdentifier || string(t.raw(obj)) != "self" {
		return false
	}
	k, node := len(anc)-2, attr
	if t.kind(anc[k]) == kPatternList && k > 0 {
		k, node = k-1, anc[k]
	}
	switch t.kind(anc[k]) {
	case kAssignment, kAugmentedAssignment:
		return t.nodes[node].field == fLeft
	}
	return false
}

// definitionSite reports whether identifier i names what is being defined: a def or class
// name, or a parameter. anc holds i's ancestors, innermost last.
func (e *extractor) definitionSite(i int32, anc []int32) bool {
	if len(anc) == 0 {
		return false
	}
	t := &e.t
	fld := t.nodes[i].field
	switch t.kind(anc[len(anc)-1]) {
	case kFunctionDef, kClassDef, kDefaultParameter, kTypedDefaultParameter:
		return fld == fName
	case kParameters, kLambdaParameters:
		return true
	case kTypedParameter:
		return fld != fType
	case kListSplatPattern, kDictSplatPattern:
		if len(anc) < 2 {
			return false
		}
		switch t.kind(anc[len(anc)-2]) {
		case kParameters, kLambdaParameters, kTypedParameter:
			return true
		}
	}
	return false
}

// typeOnly reports whether an import with ancestors anc sits under `if TYPE_CHECKING:` (or
// typing.TYPE_CHECKING): it is there for type checkers and never runs.
func typeOnly(t *tree, anc []int32) bool {
	for k, a := range anc {
		if t.kind(a) != kIf || k+1 == len(anc) || t.nodes[anc[k+1]].field != fConsequence {
			continue // not in the if's own body (an else: runs at run time)
		}
		if c := t.child(a, fCondition); c >= 0 {
			if cond := string(t.raw(c)); cond == "TYPE_CHECKING" || cond == "typing.TYPE_CHECKING" {
				return true
			}
		}
	}
	return false
}

// imports records the names one import statement imports.
func (e *extractor) imports(i int32, typeOnly, nested bool) {
	for _, imp := range e.importsOf(i) {
		imp.TypeOnly, imp.Nested = typeOnly, nested
		e.imps = append(e.imps, imp)
	}
}

// importsOf is what the import statement at node i imports, one Import per name.
func (e *extractor) importsOf(i int32) []Import {
	t := &e.t
	line := int(t.nodes[i].row) + 1
	module := ""
	switch t.kind(i) {
	case kImportFrom:
		if m := t.child(i, fModuleName); m >= 0 {
			module = compact(t.raw(m))
		}
	case kFutureImport:
		module = "__future__"
	}
	from := t.kind(i) != kImport
	var out []Import
	for c := i + 1; c < t.nodes[i].last; c = t.nodes[c].last {
		if t.nodes[c].field == fModuleName {
			continue
		}
		imp := Import{Module: module, Line: line}
		switch t.kind(c) {
		case kDottedName:
			imp.Name = compact(t.raw(c))
		case kAliasedImport:
			name, alias := t.child(c, fName), t.child(c, fAlias)
			if name < 0 || alias < 0 {
				continue
			}
			imp.Name, imp.Alias = compact(t.raw(name)), compact(t.raw(alias))
		case kWildcardImport:
			imp.Name = "*"
		default:
			continue
		}
		if !from {
			imp.Module, imp.Name = imp.Name, ""
		}
		out = append(out, imp)
	}
	return out
}

// codingLatin1 is a PEP 263 declaration, on one of the first two lines, of a single-byte
// encoding whose bytes are the first 256 code points: latin-1 and its aliases.
var codingLatin1 = regexp.MustCompile(`(?m)\A(?:[^\n]*\n)?[ \t\f]*#.*?coding[:=][ \t]*(?i:latin[-_]?1|iso[-_]?8859[-_]1|l1)\b`)

// fromLatin1 re-encodes a source file that declares a latin-1 encoding and is not valid
// UTF-8 (`# -*- coding: latin-1 -*-`, then `class Café`), as Python would read it; other
// text is returned as is. Lines stay where they were.
func fromLatin1(src []byte) []byte {
	if utf8.Valid(src) || !codingLatin1.Match(src[:min(len(src), 400)]) {
		return src
	}
	out := make([]byte, 0, len(src)+len(src)/8)
	for _, b := range src {
		out = utf8.AppendRune(out, rune(b))
	}
	return out
}
