package rank

// Every weight the ranker uses, with the reason for its value. A Signal's Name is the kebab-case
// form of the constant that produced it (SigPageRank → "pagerank"). Change a value only with a
// measurement behind it (see docs/ for the dev-case figures).

// PageRank over the file graph.
const (
	// Damping is the classic PageRank damping factor: the share of rank that follows edges;
	// the rest teleports according to the prior and the personalisation.
	Damping = 0.85
	// Tolerance stops the power iteration when the L1 change of the rank vector falls below it;
	// far below the 6 significant digits scores are rounded to.
	Tolerance = 1e-12
	// MaxIterations bounds the power iteration; with Damping 0.85 the error shrinks by ~0.85 a
	// step, so 200 steps reach 1e-14 from any start.
	MaxIterations = 200
)

// Reference edges: file A references a name that file B defines (aider's repo-map recipe).
const (
	// DistinctiveIdentWeight is the weight of a reference to a compound name of 8+ characters
	// (snake_case, camelCase) or a capitalised name of 5+ (a class or constant): such names are
	// specific, a reference to one is a real dependency.
	DistinctiveIdentWeight = 1.0
	// PlainIdentWeight is the weight of a reference to a short or single-word name (get, name,
	// run, data): those collide across unrelated objects, so a match says little (aider: ×0.1).
	PlainIdentWeight = 0.1
	// PrivateIdentWeight multiplies references to _private names: used across files they are
	// usually a different object's private member with the same name.
	PrivateIdentWeight = 0.1
	// ManyDefinersThreshold and ManyDefinersWeight: a name defined in more than this many files
	// (setUp, reconcile, _on_install) is a convention, not a dependency.
	ManyDefinersThreshold = 5
	ManyDefinersWeight    = 0.1
	// MaxDefiners drops names defined in more files than this altogether: their edges would be
	// O(referencers × definers) and carry almost no signal.
	MaxDefiners = 32
	// ImportEdgeWeight is the weight of "A imports module B", added once per imported module: an
	// import is an explicit dependency even when the names used through it are generic.
	ImportEdgeWeight = 1.0
	// MentionEdgeWeight multiplies edges to the definers of identifiers named in the task text
	// (aider uses ×10 for mentioned identifiers).
	MentionEdgeWeight = 10.0
)

// Charm edges from the linker: YAML declarations and the code that handles or reads them.
const (
	// LinkEdgeWeight is the weight (per sqrt of the handler count) of YAML ↔ handler-file edges,
	// both directions: the YAML file is important because code handles it, and a handler file is
	// important because it implements a declared interface.
	LinkEdgeWeight = 2.0
	// ReadEdgeWeight is the same for config/param reads and endpoint lookups: weaker than an
	// observed handler, still a real tie between the YAML and the code.
	ReadEdgeWeight = 0.5
)

// Teleport prior: where a random surfer restarts. Relative masses by class; normalised.
const (
	// PriorSource: first-party code is what the agent edits.
	PriorSource = 1.0
	// PriorYAML: the charm's YAML declares its whole interface and changes with most features.
	PriorYAML = 1.0
	// PriorOther: scripts and docs helpers are rarely edited with the charm.
	PriorOther = 0.1
	// PriorLib: vendored libraries are ~85% of the Python; restart mass there would crowd out the
	// charm's own code.
	PriorLib = 0.02
	// PriorTest: tests are rarely what the agent needs to see to make a change.
	PriorTest = 0.02
	// PriorHub multiplies the prior of a charm's entry point (src/charm.py): most changes touch it.
	PriorHub = 4.0
)

// Personalisation (--focus, --mention): extra restart mass, normalised among the targets.
const (
	// PersonalShare is the share of the restart mass given to focus and mention targets when
	// there are any; the rest keeps the prior so the charm's core stays on the map.
	PersonalShare = 0.7
	// FocusTeleport is the personal mass of a focused file.
	FocusTeleport = 1.0
	// FocusCallerTeleport is the mass spread over the files that reference a focused file (by
	// edge weight): "what uses them" rises with "what they use".
	FocusCallerTeleport = 0.5
	// MentionFileTeleport is the mass of a file named in the task text (path or file name).
	MentionFileTeleport = 1.0
	// MentionIdentTeleport is the mass per identifier named exactly in the task text, split over
	// the files defining it.
	MentionIdentTeleport = 1.0
	// MentionWordsTeleport is the same for an identifier whose words all appear in the task text
	// (`rebalance action` → _on_rebalance_action): a weaker match than the exact name.
	MentionWordsTeleport = 0.3
	// MentionInterfaceTeleport is the mass per charm interface named in the task text, split
	// over its declaring YAML file and its handler files.
	MentionInterfaceTeleport = 1.0
)

// Final multipliers on the PageRank score.
const (
	// HubBoost multiplies a charm entry point's score: it is referenced by nothing (it is the
	// root of the call tree) yet it is the file most changes touch.
	HubBoost = 3.0
	// LibPenalty multiplies a vendored library's score: the charm calls into libraries a lot,
	// so they collect rank, but they are edited upstream, not here.
	LibPenalty = 0.1
	// TestPenalty multiplies a test file's score.
	TestPenalty = 0.05
	// OtherPenalty multiplies scripts and helpers outside the charm's code.
	OtherPenalty = 0.3
	// ScoreDigits is the number of significant digits scores are rounded to before sorting, so
	// floating noise never swaps two files (ties fall back to the path).
	ScoreDigits = 6
)

// Symbol importance within a file: kind weight × visibility × handler × mention ×
// (1 + RefBoost·refShare + SelfRefBoost·selfShare).
const (
	// A class or module function is what other files import; a method is reached through its
	// class, whose line the full view prints as context anyway. Kind only tips the balance:
	// how much the rest of the tree uses a name (RefBoost) decides most of the order.
	KindClassWeight    = 2.0
	KindFunctionWeight = 1.5
	KindMethodWeight   = 1.0
	KindConstantWeight = 0.5 // constants matter when referenced, which RefBoost rewards
	// ExceptionClassWeight multiplies exception classes (named *Error/*Exception or derived
	// from one): one-line definitions with no API, however often they are raised.
	ExceptionClassWeight = 0.3
	// YAML interfaces: relations and actions carry the most behaviour; config options are many
	// and each small.
	KindRelationWeight  = 1.0
	KindActionWeight    = 0.9
	KindContainerWeight = 0.9
	KindStorageWeight   = 0.8
	KindConfigWeight    = 0.7
	KindResourceWeight  = 0.6
	// PrivateSymbolWeight multiplies _private names (other than __init__, whose signature is the
	// class's constructor API).
	PrivateSymbolWeight = 0.5
	// DunderSymbolWeight multiplies dunder methods other than __init__ (__repr__, __eq__ ...).
	DunderSymbolWeight = 0.2
	// HandlerSymbolWeight multiplies a method the linker tied to a YAML interface, and a YAML
	// interface that has handlers or readers: the charm's behaviour lives there.
	HandlerSymbolWeight = 2.0
	// MentionSymbolWeight multiplies a symbol named in the task text (or an interface named
	// there) so that it leads its file: 50 × PrivateSymbolWeight exceeds the largest score of
	// an unnamed symbol (class 2 × handler 2 × (1 + 2 + 0.5) = 14).
	MentionSymbolWeight = 50.0
	// RefBoost weighs the rank flowing into a symbol's name from other files (relative to the
	// most referenced symbol of the file).
	RefBoost = 2.0
	// SelfRefBoost weighs uses of the name inside its own file (relative, sqrt-damped).
	SelfRefBoost = 0.5
)

// Signal names (the kebab-case names of the weights above, for --explain).
const (
	SigPageRank         = "pagerank"
	SigHub              = "hub-entrypoint"
	SigLib              = "lib-penalty"
	SigTest             = "test-penalty"
	SigOther            = "other-penalty"
	SigFirstPartyImport = "first-party-import" // outside the charm dirs, imported by charm code
	SigFocus            = "focus"
	SigFocusCaller      = "focus-caller"
	SigMentionFile      = "mention-file"
	SigMentionIdent     = "mention-ident"
	SigMentionInterface = "mention-interface"
	SigLinkHandler      = "link-handler"
)
