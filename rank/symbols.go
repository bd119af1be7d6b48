package rank

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// symbolFlows spreads each file's rank over the names it references, the way aider ranks
// definitions: flows[f][name] is the rank flowing into file f through references to name.
func (r *ranker) symbolFlows(a adjacency, pr []float64) []float64 {
	flows := make([]float64, r.numSlots)
	for _, e := range r.refs {
		flows[e.slot] += pr[e.from] * e.w / a.outW[e.from]
	}
	return flows
}

// pySymbols orders a Python file's definitions by importance: kind, visibility, whether the
// linker tied it to the YAML, whether the task names it (or shares words with its name), how
// much rank reaches its name from other files and whether the file itself uses it. Ties go
// to the earlier line.
func (r *ranker) pySymbols(i int, flows []float64) []Symbol {
	f := r.nodes[i].py
	used := map[int]bool{} // name index → the file uses it (how often does not count: refWeight)
	maxFlow := 0.0
	for k, ref := range f.Refs {
		if id := r.refIDs[i][k]; r.slot(id, i) >= 0 && ref.Count > 0 {
			used[id] = true
		}
	}
	// A symbol's flow is what reaches its name; a class also gets what reaches its most used
	// member, since a class is used through its methods (self._patroni.member_started).
	flow := make([]float64, len(f.Symbols))
	slots := make([]int, len(f.Symbols))
	classes := map[string]int{}
	for k, s := range f.Symbols {
		// (a method named like a dict's, list's or string's, get or items, takes no rank from
		// other files' uses of the name: those are calls on their own values)
		if slots[k] = r.slot(r.symIDs[i][k], i); slots[k] >= 0 && !(s.Kind == pyextract.KindMethod && (builtinMethods[ident(s.Name)] || opsAttributes[ident(s.Name)])) {
			flow[k] = flows[slots[k]]
		}
		if s.Kind == pyextract.KindClass {
			classes[s.Name] = k
		}
	}
	member := make([]float64, len(f.Symbols))
	for k, s := range f.Symbols {
		if c, ok := classes[s.Qualifier]; ok && s.Qualifier != "" && c != k {
			member[c] = max(member[c], flow[k])
		}
	}
	for k := range flow {
		flow[k] += member[k]
	}
	for _, x := range flow {
		maxFlow = max(maxFlow, x)
	}
	body, bodyWords := r.bodyMatch(f)
	seconds := secondaryDefs(f.Symbols)
	syms := make([]Symbol, 0, len(f.Symbols))
	seen := map[[4]string]bool{}
	for k, s := range f.Symbols {
		// A definition repeated with the same signature (the branches of `if pydantic v1:
		// class _DatabagModel … else: class _DatabagModel …`) is shown once.
		d := [4]string{s.Kind, s.Qualifier, s.Name, s.Signature}
		if seen[d] {
			continue
		}
		seen[d] = true
		id := r.symIDs[i][k]
		key := r.nodes[i].path + "\x00" + s.Name
		sym := Symbol{Name: s.Name, Kind: s.Kind, Qualifier: s.Qualifier, Signature: s.Signature, Digest: s.Digest, Line: s.Line,
			Links: slices.Clone(r.handlerS[key])}
		var w weighing
		w.base(SigSymKind, pyKindWeight(s.Kind), s.Kind)
		if v := visibility(ident(s.Name)); v != 1 {
			w.mul(SigSymVisibility, v, "")
		}
		switch {
		case s.Kind != pyextract.KindClass:
		case isException(s):
			w.mul(SigSymException, ExceptionClassWeight, "")
		case isCharmClass(s):
			w.mul(SigSymCharmClass, CharmClassWeight, "")
		}
		if libBookkeeping(s, r.nodes[i].class) {
			w.mul(SigSymBookkeeping, LibraryBookkeepingWeight, "")
		}
		if note := seconds[k]; note != "" {
			w.mul(SigSymSecondary, SecondaryDefWeight, note)
		}
		if c, ok := classes[s.Qualifier]; ok && s.Kind == pyextract.KindMethod && eventPlumbing[ident(s.Name)] && isEventClass(f.Symbols[c]) {
			w.mul(SigSymEventPlumbing, EventPlumbingWeight, "")
		}
		if r.nodes[i].class == ClassLib && id >= 0 && r.usedByCharm()[id] && len(r.info[id].defs) <= 2 && !commonMethods[ident(s.Name)] {
			// (a name many files define, or a dict's or list's method, says nothing of which
			// definition the charm uses)
			w.mul(SigSymLibUsed, LibraryUsedSymbolWeight, "")
		}
		if len(sym.Links) > 0 && !(r.nodes[i].class == ClassLib && strings.HasPrefix(ident(s.Name), "_")) {
			// (a vendored library's own private observers, _on_rabbitmq_relation_changed, are
			// its plumbing, which the charm never calls: its public API comes first)
			w.mul(SigSymHandler, HandlerSymbolWeight, strings.Join(sym.Links, ", "))
		} else if r.readerS[key] {
			w.mul(SigSymReader, ReaderSymbolWeight, "")
		}
		if id >= 0 && r.info[id].mention || r.hotSym[key] {
			w.mul(SigSymMention, MentionSymbolWeight, "")
		} else if share := r.taskWordShare(ident(s.Name)); share > 0 {
			w.mul(SigSymTaskWords, 1+SymbolWordBoost*share, "")
		}
		if body != nil && body[k] > 0 {
			w.mul(SigSymBody, 1+SymbolBodyBoost*body[k], "")
			if body[k] >= BodyNoteShare {
				sym.TaskWords = bodyWords[k]
			}
		}
		rel, note := 1.0, ""
		if maxFlow > 0 && flow[k] > 0 {
			rel += RefBoost * flow[k] / maxFlow
			note = "other files' uses " + strconv.FormatFloat(flow[k]/maxFlow, 'g', 3, 64) + " of the file's most"
		}
		if used[id] {
			rel += SelfRefBoost
			note = strings.TrimPrefix(note+"; used in its file", "; ")
		}
		if rel != 1 {
			w.mul(SigSymRefs, rel, note)
		}
		sym.Score, sym.Signals = roundSig(w.v), w.sig
		syms = append(syms, sym)
	}
	sortSymbols(syms)
	return syms
}

// bodyMatch scores each function and method of f by the task words its body has
// (pyextract Symbol.Words), each weighted by how few of the file's functions have it
// (ln(1 + n/df), n the file's functions): "prefixed topic names" finds add_acl and
// remove_acl, which build a prefixed topic's ACL, among AuthManager's twenty methods, where
// "topic" alone is everywhere. Scores are relative to the file's best, 0 to 1; words are,
// per symbol whose body has two task words or more, those words as the task writes them,
// rarest first (at most lexNoteWords). Nil without task words or when no body has one.
func (r *ranker) bodyMatch(f *pyextract.File) (scores []float64, words [][]string) {
	if len(r.ment.words) == 0 {
		return nil, nil
	}
	hits := make([][]string, len(f.Symbols)) // per symbol, the task words (stems) of its body
	df := map[string]int{}
	n := 0
	for k, s := range f.Symbols {
		if len(s.Words) == 0 {
			continue
		}
		n++
		seen := map[string]bool{}
		for _, w := range s.Words {
			for _, st := range r.words.words(w) {
				if r.ment.words[st] && !seen[st] {
					seen[st] = true
					hits[k] = append(hits[k], st)
					df[st]++
				}
			}
		}
	}
	if len(df) == 0 {
		return nil, nil
	}
	scores, words = make([]float64, len(f.Symbols)), make([][]string, len(f.Symbols))
	best := 0.0
	for k, hs := range hits {
		for _, st := range hs {
			scores[k] += math.Log(1 + float64(n)/float64(df[st]))
		}
		best = max(best, scores[k])
		if len(hs) < 2 {
			continue // one word ("names" in __init__) is too little to send a reader there
		}
		slices.SortStableFunc(hs, func(a, b string) int { return cmp.Or(cmp.Compare(df[a], df[b]), strings.Compare(a, b)) })
		for _, st := range hs {
			if w := r.ment.surface(st); w != "" && len(words[k]) < lexNoteWords && !slices.Contains(words[k], w) {
				words[k] = append(words[k], w)
			}
		}
	}
	for k := range scores {
		scores[k] /= best
	}
	return scores, words
}

// taskWordShare is the share of a name's words that are words of the task text
// (_on_list_backups_action: "list", "backup", "action" of "list-backups action fails"); 0
// without a task.
func (r *ranker) taskWordShare(name string) float64 {
	ws := r.words.words(name)
	if len(ws) == 0 || len(r.ment.words) == 0 {
		return 0
	}
	n := 0
	for _, w := range ws {
		if r.ment.words[w] {
			n++
		}
	}
	return float64(n) / float64(len(ws))
}

// vendored reports a file of a vendored library (ClassLib): not the charm's own code.
func (r *ranker) vendored(file string) bool {
	i, ok := r.byPath[cleanPath(file)]
	return ok && r.nodes[i].class == ClassLib
}

// yamlSymbols lists the interfaces a YAML file declares, by importance: kind, whether code
// handles or reads them (and how much), whether the task names them or shares words with
// their names.
func (r *ranker) yamlSymbols(p string) []Symbol {
	syms := []Symbol{}
	var uses []float64
	maxUse := 0.0
	for _, k := range r.declsOf[p] {
		d := r.decls[k]
		u := 0.0
		if d.iface != nil && !initOnly(d.iface) {
			// templates count once: an option's lines in every release's copy of a
			// template (src/templates/<release>/) are one use, not one per copy
			// a vendored library's handlers and lookups count a tenth: the library serves its
			// relation whatever the charm does with it (wireguard's cos-agent, handled by
			// cos_agent's COSAgentProvider and looked up three times in it, led the block over
			// the relations the charm's own reconcile handles: review rev99)
			reads, inTemplates, lib := 0, 0, 0
			for _, s := range d.iface.Reads {
				switch {
				case s.Via == linker.ViaTemplate:
					inTemplates = 1
				case r.vendored(s.File):
					lib++
				default:
					reads++
				}
			}
			handlers := 0
			for _, h := range d.iface.Handlers {
				if r.vendored(h.File) {
					lib++
				} else {
					handlers++
				}
			}
			u = math.Sqrt(float64(handlers+reads+inTemplates) + float64(lib)/10)
		}
		s := d.sym
		s.Links = slices.Clone(s.Links)
		syms, uses = append(syms, s), append(uses, u)
		maxUse = max(maxUse, u)
	}
	ws := make([]weighing, len(syms))
	for k := range syms {
		w := &ws[k]
		w.base(SigSymKind, yamlKindWeight(syms[k].Kind), syms[k].Kind)
		if lk := r.decls[r.declsOf[p][k]].lkind; lk != "" && r.added[lk] {
			w.mul(SigSymAddedKind, AddedKindSymbolWeight, "")
		}
		if uses[k] > 0 {
			w.mul(SigSymHandler, HandlerSymbolWeight, "")
			w.mul(SigSymRefs, 1+RefBoost*uses[k]/maxUse, "handlers and readers "+strconv.FormatFloat(uses[k]/maxUse, 'g', 3, 64)+" of the file's most")
		}
		if r.hotSym[p+"\x00"+syms[k].Kind+" "+syms[k].Name] {
			w.mul(SigSymMention, MentionSymbolWeight, "")
		} else if share := r.taskWordShare(syms[k].Name); share > 0 {
			w.mul(SigSymTaskWords, 1+SymbolWordBoost*share, "")
		}
	}
	// each line of a kind weighs KindRepeatDecay less than the one before it, so that the
	// block's first lines show each kind the file declares (etcd-benchmark's twelve options
	// all hid behind its relations and actions, review rev115)
	order := make([]int, len(syms))
	for k := range order {
		order[k] = k
	}
	// (by rounded scores: no floating noise)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(roundSig(ws[b].v), roundSig(ws[a].v)) })
	// (a build part counts as one line after a base, when the file has bases: the second base
	// ties it and comes first by line, "[base] ubuntu@24.04, [base] ubuntu@22.04, [part]
	// charm", not the part between the bases, review rev124; and the part stays above a
	// third base, not after every base, review rev128)
	hasBase := slices.ContainsFunc(syms, func(s Symbol) bool { return s.Kind == SymBase })
	before := map[string]int{} // kind → its lines already placed
	for _, k := range order {
		n := before[syms[k].Kind]
		note := strconv.Itoa(n) + " of its kind before it"
		if syms[k].Kind == SymPart && hasBase {
			n++
			note = strconv.Itoa(n-1) + " of its kind before it, and a base"
		}
		if n > 0 {
			ws[k].mul(SigSymKindRepeat, math.Pow(KindRepeatDecay, float64(n)), note)
		}
		before[syms[k].Kind]++
	}
	for k := range syms {
		syms[k].Score, syms[k].Signals = roundSig(ws[k].v), ws[k].sig
	}
	if len(syms) == 0 { // a charm that declares nothing yet: its metadata file still names it
		for k := range r.in.Charms {
			if c := &r.in.Charms[k]; c.Name != "" && metadataYAML(c) == p {
				line := 1 // named after its folder: the file's top
				if cleanPath(c.NameAt.File) == p {
					line = c.NameAt.Line
				}
				syms = append(syms, Symbol{Name: c.Name, Kind: SymCharm, Signature: "[charm] " + c.Name, Line: line, Score: 1})
			}
		}
	}
	sortSymbols(syms)
	return syms
}

// initOnly reports a relation whose only tie is a read in a constructor: handed in __init__
// to a library object (Coordinator(self, endpoints={...}), a pip-installed library the tree
// does not hold), whose handlers the map cannot show. It weighs as one no code handles, below
// the relations whose handling code the map shows. Not a config option or a container: read
// in __init__, they are read (self._port = self.config["port"]).
func initOnly(iface *linker.Interface) bool {
	if iface.Kind != linker.KindRelation || len(iface.Handlers) > 0 || len(iface.Reads) == 0 {
		return false
	}
	return !slices.ContainsFunc(iface.Reads, func(s linker.Site) bool { return !strings.HasSuffix(s.Symbol, ".__init__") })
}

// weighing is a symbol's score as it is made: the product of its factors, each recorded as a
// Signal for --explain.
type weighing struct {
	v   float64
	sig []Signal
}

// base starts the product at the kind's weight.
func (w *weighing) base(name string, v float64, note string) {
	w.v, w.sig = v, append(w.sig, Signal{Name: name, Kind: SignalBase, Value: v, Note: note})
}

// mul multiplies the product by a factor.
func (w *weighing) mul(name string, v float64, note string) {
	w.v *= v
	w.sig = append(w.sig, Signal{Name: name, Kind: SignalFactor, Value: roundSig(v), Note: note})
}

func sortSymbols(syms []Symbol) {
	slices.SortStableFunc(syms, func(a, b Symbol) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Line, b.Line); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// isException reports an exception class: named *Error or *Exception, or derived from one.
func isException(s pyextract.Symbol) bool {
	if strings.HasSuffix(s.Name, "Error") || strings.HasSuffix(s.Name, "Exception") {
		return true
	}
	for _, b := range s.Bases {
		if strings.HasSuffix(b, "Error") || strings.HasSuffix(b, "Exception") {
			return true
		}
	}
	return false
}

// eventPlumbing are the methods ops' framework calls to store and reload a deferred event.
var eventPlumbing = map[string]bool{"snapshot": true, "restore": true}

// isEventClass reports an ops event class: derived from EventBase or from another *Event
// class (RelationEvent, a library's own CertificateEvent).
func isEventClass(s pyextract.Symbol) bool {
	return s.Kind == pyextract.KindClass && slices.ContainsFunc(s.Bases, func(b string) bool {
		b = b[strings.LastIndex(b, ".")+1:]
		return strings.HasSuffix(b, "Event") || b == "EventBase"
	})
}

// isCharmClass reports a charm class: derived from ops' CharmBase (or TypedCharmBase[...]),
// or from a base charm class named so (ops_openstack's OSBaseCharm, a family's BaseCharm:
// ceph-dashboard's event classes led its charm.py above the charm class, review rev105).
func isCharmClass(s pyextract.Symbol) bool {
	return slices.ContainsFunc(s.Bases, func(b string) bool {
		name, _, _ := strings.Cut(b[strings.LastIndex(b, ".")+1:], "[")
		return linker.IsCharmBase(b) || len(name) > len("Charm") && strings.HasSuffix(name, "Charm")
	})
}

func pyKindWeight(kind string) float64 {
	switch kind {
	case pyextract.KindClass:
		return KindClassWeight
	case pyextract.KindFunction:
		return KindFunctionWeight
	case pyextract.KindConstant:
		return KindConstantWeight
	case pyextract.KindField:
		return KindFieldWeight
	}
	return KindMethodWeight
}

func yamlKindWeight(kind string) float64 {
	switch kind {
	case SymRelation:
		return KindRelationWeight
	case SymAction:
		return KindActionWeight
	case SymContainer:
		return KindContainerWeight
	case SymStorage:
		return KindStorageWeight
	case SymConfig:
		return KindConfigWeight
	case SymPart, SymBase:
		return KindPartWeight
	}
	return KindResourceWeight
}

// visibility weighs a name by how public it is: __init__ is the constructor API and counts as
// public; other dunders and _private names count less.
func visibility(name string) float64 {
	switch {
	case name == "__init__":
		return 1
	case isDunder(name):
		return DunderSymbolWeight
	case strings.HasPrefix(name, "_"):
		return PrivateSymbolWeight
	}
	return 1
}

// secondaryDefs are, per symbol of syms, why it is a second definition of a name the file
// defines plainly too ("" for none): a property's setter or deleter (`@port.setter def
// port`, beside the `@property def port`), or an `@overload` stub of a function the file
// also defines without one. The plain definition says what the name is; the others repeat it.
func secondaryDefs(syms []pyextract.Symbol) []string {
	type key struct{ qual, name string }
	kindOf := func(s pyextract.Symbol) string {
		n := ident(s.Name)
		for _, d := range s.Decorators {
			switch {
			case d == n+".setter":
				return "setter"
			case d == n+".deleter":
				return "deleter"
			case d == "overload" || strings.HasSuffix(d, ".overload"):
				return "overload"
			}
		}
		return ""
	}
	plain := map[key]bool{}
	kinds := make([]string, len(syms))
	for k, s := range syms {
		if s.Kind != pyextract.KindFunction && s.Kind != pyextract.KindMethod {
			continue
		}
		if kinds[k] = kindOf(s); kinds[k] == "" {
			plain[key{s.Qualifier, s.Name}] = true
		}
	}
	out := make([]string, len(syms))
	for k, s := range syms {
		if kinds[k] != "" && plain[key{s.Qualifier, s.Name}] {
			out[k] = kinds[k]
		}
	}
	return out
}

// libBookkeeping reports the constants charmcraft's library machinery reads: LIBID (a hash)
// anywhere, and LIBAPI, LIBPATCH and PYDEPS of a vendored library, which nobody edits by hand
// (a charm's own library keeps them: a change to it bumps LIBPATCH).
func libBookkeeping(s pyextract.Symbol, class string) bool {
	if s.Kind != pyextract.KindConstant || s.Qualifier != "" {
		return false
	}
	switch s.Name {
	case "LIBID":
		return true
	case "LIBAPI", "LIBPATCH", "PYDEPS":
		return class == ClassLib
	}
	return false
}

// usedByCharm is the set of names (name indexes) the charm's own code uses: its first-party,
// non-test Python files' references. Computed once.
func (r *ranker) usedByCharm() map[int]bool {
	if r.charmRefs != nil {
		return r.charmRefs
	}
	r.charmRefs = map[int]bool{}
	for i, n := range r.nodes {
		if n.py == nil || n.class == ClassLib || n.class == ClassTest {
			continue
		}
		for _, id := range r.refIDs[i] {
			if id >= 0 && !slices.ContainsFunc(r.info[id].defs, func(d int) bool { return r.nodes[d].class != ClassLib }) {
				r.charmRefs[id] = true // (a name the charm defines itself is its own)
			}
		}
	}
	return r.charmRefs
}

// opsAttributes are the attributes charm code names on ops objects everywhere (self.model,
// self.unit, self.app, self.framework, self.on, self.config, self.meta, a helper's
// self.charm) and ops Model's lookups (self.model.get_relation(...)), whatever methods of
// the same names the tree defines (JujuTopology.model, Data.get_relation); and json, which
// code calls on every HTTP response.
var opsAttributes = map[string]bool{"model": true, "unit": true, "app": true, "framework": true, "on": true,
	"charm": true, "meta": true, "config": true, "relations": true, "get_relation": true, "get_secret": true,
	"get_container": true, "get_binding": true, "json": true}

// builtinMethods are the methods of Python's dicts, lists and strings, which code calls on
// its own values everywhere. (Not start, stop, run or remove, which a workload class defines
// and the charm calls.)
var builtinMethods = map[string]bool{"get": true, "items": true, "keys": true, "values": true, "update": true,
	"pop": true, "setdefault": true, "copy": true, "clear": true, "append": true, "extend": true, "insert": true,
	"index": true, "count": true, "sort": true, "format": true, "join": true, "split": true, "strip": true,
	"replace": true, "startswith": true, "endswith": true, "lower": true, "upper": true, "encode": true, "decode": true}

// commonMethods are builtinMethods and the methods of sets and files, and the names every
// object has: charm code calls them on its own values, not on a library's.
var commonMethods = func() map[string]bool {
	m := maps.Clone(builtinMethods)
	for _, n := range []string{"remove", "add", "discard", "read", "write", "close", "open", "data", "name",
		"set", "run", "start", "stop", "load", "dump"} {
		m[n] = true
	}
	return m
}()
