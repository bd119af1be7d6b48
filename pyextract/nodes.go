package pyextract

import (
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// pyLang is the tree-sitter Python grammar, shared by every parser.
var pyLang = python.GetLanguage()

// nodeKind is a small code for the node types pyextract looks at. Comparing codes looked up
// by symbol avoids Node.Type(), which copies the type name out of C on every call.
type nodeKind uint8

const (
	kOther nodeKind = iota
	kError
	kIdentifier
	kAttribute
	kSubscript
	kCall
	kArgumentList
	kKeywordArgument
	kString
	kConcatenatedString
	kParenthesized
	kModule
	kBlock
	kFunctionDef
	kClassDef
	kDecoratedDef
	kDecorator
	kExpressionStatement
	kAssignment
	kParameters
	kLambdaParameters
	kTypedParameter
	kDefaultParameter
	kTypedDefaultParameter
	kListSplatPattern
	kDictSplatPattern
	kImport
	kImportFrom
	kFutureImport
	kAliasedImport
	kWildcardImport
	kDottedName
	kRelativeImport
	kComment
	kKeywordSeparator
	kPositionalSeparator
	// statements whose blocks may hold module- or class-level definitions
	kIf
	kElif
	kElse
	kTry
	kExcept
	kFinally
	kWith
	kFor
	kWhile
	kDictionary
	kDictComprehension
	kPair
	kList
	kTuple
	kDictionarySplat
	kAssert
	kAugmentedAssignment
	kPatternList
)

// namedKinds maps the grammar's named node types to kinds.
var namedKinds = map[string]nodeKind{
	"identifier":               kIdentifier,
	"attribute":                kAttribute,
	"subscript":                kSubscript,
	"call":                     kCall,
	"argument_list":            kArgumentList,
	"keyword_argument":         kKeywordArgument,
	"string":                   kString,
	"concatenated_string":      kConcatenatedString,
	"parenthesized_expression": kParenthesized,
	"module":                   kModule,
	"block":                    kBlock,
	"function_definition":      kFunctionDef,
	"class_definition":         kClassDef,
	"decorated_definition":     kDecoratedDef,
	"decorator":                kDecorator,
	"expression_statement":     kExpressionStatement,
	"assignment":               kAssignment,
	"parameters":               kParameters,
	"lambda_parameters":        kLambdaParameters,
	"typed_parameter":          kTypedParameter,
	"default_parameter":        kDefaultParameter,
	"typed_default_parameter":  kTypedDefaultParameter,
	"list_splat_pattern":       kListSplatPattern,
	"dictionary_splat_pattern": kDictSplatPattern,
	"import_statement":         kImport,
	"import_from_statement":    kImportFrom,
	"future_import_statement":  kFutureImport,
	"aliased_import":           kAliasedImport,
	"wildcard_import":          kWildcardImport,
	"dotted_name":              kDottedName,
	"relative_import":          kRelativeImport,
	"comment":                  kComment,
	"keyword_separator":        kKeywordSeparator,
	"positional_separator":     kPositionalSeparator,
	"if_statement":             kIf,
	"elif_clause":              kElif,
	"else_clause":              kElse,
	"try_statement":            kTry,
	"except_clause":            kExcept,
	"except_group_clause":      kExcept,
	"finally_clause":           kFinally,
	"with_statement":           kWith,
	"for_statement":            kFor,
	"while_statement":          kWhile,
	"dictionary":               kDictionary,
	"dictionary_comprehension": kDictComprehension,
	"assert_statement":         kAssert,
	"pair":                     kPair,
	"list":                     kList,
	"tuple":                    kTuple,
	"dictionary_splat":         kDictionarySplat,
	"augmented_assignment":     kAugmentedAssignment,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kPatternList,
}

// kinds is indexed by grammar symbol. Only named symbols get a kind, so the anonymous
// keyword "lambda" and similar never look like the named node of the same name.
var kinds = func() []nodeKind {
	n := pyLang.SymbolCount()
	ks := make([]nodeKind, n)
	for s := uint32(0); s < n; s++ {
		sym := sitter.Symbol(s)
		if pyLang.SymbolType(sym) != sitter.SymbolTypeRegular {
			continue
		}
		ks[s] = namedKinds[pyLang.SymbolName(sym)]
	}
	return ks
}()

// errorSymbol is tree-sitter's ERROR node symbol.
const errorSymbol = 0xFFFF

// Field ids of the grammar fields pyextract reads.
var (
	fAlias          = fieldID("alias")
	fArguments      = fieldID("arguments")
	fAttribute      = fieldID("attribute")
	fBody           = fieldID("body")
	fDefinition     = fieldID("definition")
	fFunction       = fieldID("function")
	fKey            = fieldID("key")
	fLeft           = fieldID("left")
	fModuleName     = fieldID("module_name")
	fName           = fieldID("name")
	fObject         = fieldID("object")
	fParameters     = fieldID("parameters")
	fReturnType     = fieldID("return_type")
	fRight          = fieldID("right")
	fSubscript      = fieldID("subscript")
	fSuperclasses   = fieldID("superclasses")
	fType           = fieldID("type")
	fTypeParameters = fieldID("type_parameters")
	fValue          = fieldID("value")
)

func fieldID(name string) uint16 {
	for id := 1; ; id++ {
		switch pyLang.FieldName(id) {
		case name:
			return uint16(id)
		case "":
			panic("pyextract: the Python grammar has no field " + name)
		}
	}
}

// symKind is the kind of a grammar symbol.
func symKind(sym uint16) nodeKind {
	if int(sym) < len(kinds) {
		return kinds[sym]
	}
	if sym == errorSymbol {
		return kError
	}
	return kOther
}

// interner interns the names and words of the files one scratch parses (a parse worker's): they
// repeat across a tree's functions and files (a 10,000-file tree's functions keep 7 million
// words of a few thousand distinct ones), and what pyextract returns stays in memory until
// the map is rendered. A map per worker, not package unique: its lookups cost less than half
// of unique.Make's (0.47 s against 1.1 s of CPU in a cold run of 2,000 synthetic files), and a
// few copies of a word (one per worker) cost nothing. A nil interner interns nothing.
type interner map[string]string

// maxNames bounds an interner: past it the map starts again (the strings already handed out
// stay valid), so that a long-lived worker's map stays small.
const maxNames = 1 << 16

// maxInternLen bounds the texts bytes interns: names and words, not prose.
const maxInternLen = 64

// bytes returns b as a valid string, interned when it is a valid name-sized text.
func (n interner) bytes(b []byte) string {
	if n == nil || len(b) == 0 || len(b) > maxInternLen || !utf8.Valid(b) {
		return validString(b)
	}
	if s, ok := n[string(b)]; ok {
		return s
	}
	return n.add(string(b))
}

// str returns w interned.
func (n interner) str(w string) string {
	if n == nil || len(w) > maxInternLen {
		return w
	}
	if s, ok := n[w]; ok {
		return s
	}
	return n.add(w)
}

func (n interner) add(s string) string {
	if len(n) >= maxNames {
		clear(n)
	}
	n[s] = s
	return s
}

func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// oneLine renders source text on one line: it drops comments and line continuations,
// collapses every run of whitespace (newlines included, also inside string literals) to one
// space, drops the space a line break leaves just inside brackets and a trailing comma
// before a closing bracket, and truncates the result to max runes with "…". The result
// is valid UTF-8.
func oneLine(b []byte, max int) string {
	var sb strings.Builder
	sb.Grow(min(len(b), max+4))
	space, runes := false, 0
	var quote byte // the quote character while inside a string literal
	triple := false
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			space = true
			i++
			continue
		case quote == 0 && c == '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			space = true
			continue
		case quote == 0 && c == '\\' && continuation(b[i+1:]):
			space = true
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		n, quoted := size, quote != 0
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
			triple = i+2 < len(b) && b[i+1] == c && b[i+2] == c
			if triple {
				n = 3
			}
		case quote != 0 && c == '\\' && i+1 < len(b) && b[i+1] < utf8.RuneSelf && b[i+1] != '\n' && b[i+1] != '\r':
			n = 2 // an escape: \" does not end the string
		case quote != 0 && c == quote:
			if !triple {
				quote = 0
			} else if i+2 < len(b) && b[i+1] == c && b[i+2] == c {
				quote, n = 0, 3
			}
		}
		if space && sb.Len() > 0 {
			out := sb.String()
			switch {
			case !quoted && (c == ')' || c == '}' || c == ']') && out[len(out)-1] == ',':
				// a trailing comma left by a multi-line list
				sb.Reset()
				sb.WriteString(out[:len(out)-1])
				runes--
			case quoted || (!noSpaceAfter(out) && !noSpaceBefore(r)):
				sb.WriteByte(' ')
				runes++
			}
		}
		space = false
		if runes >= max {
			sb.WriteString("…")
			return sb.String()
		}
		if r == utf8.RuneError && size == 1 {
			sb.WriteString("\uFFFD")
		} else {
			sb.Write(b[i : i+n])
		}
		runes += n - size + 1
		i += n
	}
	return sb.String()
}

// continuation reports whether the bytes after a backslash start a new line.
func continuation(rest []byte) bool {
	for _, c := range rest {
		switch c {
		case ' ', '\t', '\r':
			continue
		case '\n':
			return true
		}
		return false
	}
	return true
}

// noSpaceAfter and noSpaceBefore drop the space a line break leaves inside brackets, so
// "def f(\n    a,\n)" becomes "def f(a)" rather than "def f( a, )".
func noSpaceAfter(s string) bool {
	c := s[len(s)-1]
	return c == '(' || c == '[' || c == '{'
}

func noSpaceBefore(r rune) bool { return r == ')' || r == ']' || r == '}' }
