package rank

// Every weight the ranker uses, with the reason for its value. A Signal's Name is the kebab-case
// form of the constant that produced it (SigPageRank → "pagerank"). Change a value only with a
// measurement behind it (see docs/ for the dev-case figures).
//
// The measurements cited here and across rank/ and render/ are in docs/eval.md, which is
// organised by round ("Round N"). "session N" is the working session named at the top of a
// round (from "Session 3." in round 5 on, session N is round N+2); "revNN" is a helper review
// whose report a round sums up; "heldN" (held3, heldE, …) is a set of held-out cases, drawn
// from charms' history with bench/eval/make_heldout.py (recipes in
// bench/eval/heldout-sets.txt).

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
	// important because it implements a declared interface. Was 2 until session 52, when review
	// rev111 found valkey's events/base_events.py, handling eight interfaces, below its modules
	// of constants and exceptions; measured over the 18 sets (allsets.sh, map / LOCATE=1):
	// 2 0.8129 / 0.8101, 4 0.8139, 5 0.8151, 6 0.8159 / 0.8131, 8 0.8161 / 0.8132, 10 0.8152.
	// Past 6 the gain is flat: 6, the least of the plateau.
	LinkEdgeWeight = 6.0
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

// Lexical match of the task text (BM25 over identifier words, see lexical.go).
const (
	// A file's words: its path and the names it defines say what it is; the names it uses
	// say what it touches, and there are many of them.
	LexPathWeight = 3.0
	LexDefWeight  = 2.0
	LexRefWeight  = 1.0
	// LexDocWeight is for a word of the file's strings and docstrings (pyextract File.Words,
	// each counted once): prose says what a module is about where its names do not
	// ("prefixed" only in a docstring, "log.dirs" only in f-strings).
	// It also weighs a word only the comments have (File.Comments: "# MySQL 8.0.37" beside
	// a snap revision), except in vendored libraries: their comments are upstream's notes
	// and the boilerplate every library repeats (LIBAPI, LIBPATCH, "charmcraft
	// publish-lib"), and a library is edited upstream anyway. Dev cases (comments 0 → 0.5):
	// MRR 0.855 → 0.860, off-hub 0.473 → 0.491 (mysql afe665 rank 3 → 2, 1fb61c 3 → 2);
	// flat from 0.4 to 1. Below 0.4, or with libraries' comments counted, recall fell to
	// 0.995 (kafka ddad7c: config.yaml, 18th, drops out of the 1500-token map).
	LexDocWeight = 0.5
	// LexYAMLTextWeight is for a word of a charm YAML file's whole text (charmyaml
	// Charm.Words: keys, values, comments), beside the declared names and descriptions that
	// already count at LexDefWeight/LexRefWeight. It is what finds charmcraft.yaml for a
	// dependency bump ("Update dependency uv to v0.5.20", "rust-lang/rust"): the build parts
	// name the tools. Half the weight of Python prose, as most of those words repeat a
	// description already counted. Held-out cases (0 → 0.25): hit@5 0.726 → 0.774, MRR 0.580
	// → 0.607 (dependency bumps: charmcraft.yaml rank 13-25 → 2-4); dev cases unchanged.
	// At 0.5 the dev MRR fell 0.891 → 0.884 (metadata.yaml's long descriptions, counted twice,
	// set the lexical scale).
	LexYAMLTextWeight = 0.25
	// LexProblemWeight is for a word of a problem our reading of a charm YAML file found
	// (charmyaml's warnings: `requires: duplicate key "certificates"`): a change fixing it
	// says what is wrong in the same words ("remove duplicated key"). Held17 (karapace):
	// metadata.yaml rank 11 → 1; no other case of 17 sets moved, at 1 or 2.
	LexProblemWeight = 1.0
	// LexFormWeight: an inflected task word ("prefixed", "endpoints") is also a term as
	// written, beside its stem, counted at this share of the word's weight where a file has
	// the same form (Lucene's keyword_repeat before a stemmer): the stem finds "prefix" and
	// "endpoint" too, the form says which file speaks of the same thing. Its idf is what it
	// adds to the stem's (idf(form) − idf(stem), lexical.go): a form as common as its stem
	// ("template", "message") would otherwise count the word twice. Measured (session 8,
	// fasteval, MRR, off → on): dev 0.906 → 0.914, held3-11 0.718 → 0.719, 0.815 → 0.817,
	// 0.791 → 0.803, 0.791, 0.814, 0.861 → 0.862, 0.696 → 0.693, 0.813 → 0.814, 0.780;
	// held12 (not read) 0.758 → 0.757; held13 (fresh) 0.810 → 0.806. With the form's own idf
	// instead, dev 0.910 but held13 0.786 (haproxy "template", "units" counted twice); with
	// -ed and -ing forms only, no change anywhere.
	LexFormWeight = 1.0
	// BM25K1 and BM25B are the usual BM25 saturation and length normalisation.
	BM25K1 = 1.2
	BM25B  = 0.75
)

// The factor of a file's BM25 score s is exp(LexBoost·min(s/max, 1)), max being the best
// score among the charm's code and YAML (tests and vendored libraries, full of the task's
// words, must not set the scale and shrink every factor): the best match is multiplied by
// e² ≈ 7.4, a file scoring half as well by e ≈ 2.7. The exponential replaced
// 1 + 8·(s/max)³, which let a near-best match (0.8 of the best: ×5 against ×9) fall far
// behind; dev cases: MRR 0.815 → 0.838, gains in mysql and traefik, no repo worse. LexBoost
// 1.5 and 2.5 did no better. A test file's max is the best among the code, the YAML and the
// tests: a task about tests matches tests far better than code (its word "tests" matches only
// them), and capped at the code's best every test with a word of the task tied at e², so
// locate's test picks fell to PageRank and path order (review rev110: etcd's
// tests/integration/helpers.py picked over ha/test_storage_reuse.py for "add integration
// tests for storage reuse"); with no code matching, the tests still get their factors.
const LexBoost = 2.0

// Final multipliers on the PageRank score.
const (
	// PageRankPower: a file's structural score is its PageRank to this power. Centrality
	// says which files matter to read, much less which file a change edits: modules every
	// file imports (literals, models, constants) lead PageRank and are rarely the edit,
	// while large logic modules only the entry point calls get little rank. Square-rooted,
	// the graph still orders the files but the task's words and the class factors decide
	// more. Dev cases (1 → 0.5): MRR 0.832 → 0.838, recall 0.986 → 1.000, off-hub MRR
	// 0.389 → 0.410; kafka 0.648 → 0.693, mysql 0.787 → 0.778, others unchanged.
	PageRankPower = 0.5
	// HubBoost multiplies a charm entry point's score: it is referenced by nothing (it is the
	// root of the call tree) yet it is the file most changes touch. HubLead below already
	// keeps it first when the task says nothing, so the boost only decides how strongly the
	// task's words must point elsewhere to pass it. 3 → 1.5 (session 3), measured on the dev
	// cases and on 84 held-out changes of 7 other charms (docs/eval.md, round 5): MRR 0.877 →
	// 0.891 and 0.553 → 0.580, off-hub 0.552 → 0.605 and 0.342 → 0.381; 1.25 to 1.75 is a
	// plateau on both sets, 1 loses hub cases.
	HubBoost = 1.5
	// HubLead raises an entry point to at least this multiple of the best other file's score
	// (before the task's lexical factor): where the charm delegates to modules that everything
	// imports (models, literals), PageRank alone puts those first, yet most changes still touch
	// the entry point (3 in 4 of the dev cases).
	HubLead = 1.2
	// LibPenalty multiplies a vendored library's score: the charm calls into libraries a lot,
	// so they collect rank, but they are edited upstream, not here.
	LibPenalty = 0.1
	// LibIntentFactor replaces LibPenalty when the task is about libraries ("chore: update
	// charm libraries"): the vendored libraries are then what changes, and they must make the
	// map; 0.5 lets them do so without taking the lead from the charm's own code.
	LibIntentFactor = 0.5
	// LibUpdateLead: in a library-update task ("chore: update charm libraries") a vendored
	// library scores (LibUpdateLead + its size / the largest library's) × the best other file:
	// all of them above the charm's code, since such a commit touches nothing else, the
	// largest first (more code, more upstream patches; which one changed cannot be known from
	// the tree). Dev cases: the 7 such tasks (all in catalogue) moved the edited library from
	// rank 8-13 to rank 1-4; catalogue MRR 0.438 → 0.653.
	LibUpdateLead = 1.0
	// LibUpdateDirectLead is added to LibUpdateLead for a library the charm's own code
	// imports: those lead the ones only other libraries import (a superseded major version
	// kept for a helper library, tls_certificates v3 beside cert_handler). Dev cases (0 → 1):
	// the 6 catalogue library updates, edited library's rank 2,2,2,4,2,4 → 2,2,1,3,1,3;
	// MRR 0.860 → 0.877, off-hub 0.491 → 0.553.
	LibUpdateDirectLead = 1.0
	// DependencyUpdateLead: in a dependency bump ("Update dependency uv to v0.5.20", see
	// dependencies.go) a charm YAML file whose text names the dependency scores this multiple
	// of the best other file: such a commit edits the build recipe and nothing the map shows
	// besides. Held-out cases: 4 renovate bumps of charmcraft.yaml, rank 2-3 → 1.
	DependencyUpdateLead = 1.2
	// BuildIntentLead: a subject line about building the charm (dependencies.go buildWords:
	// "Switching to poetry", "Add more platforms") lifts charmcraft.yaml to this multiple of
	// the best other file, like DependencyUpdateLead. Measured (session 4, fasteval): dev
	// cases unchanged (none is about building); held-out MRR 0.678 → 0.689 and 0.780 → 0.808
	// (charmcraft.yaml rank 11, 2, 3, 6 → 1; no case worse); then on a set drawn after the
	// rule was written (60 changes of vault-k8s, mysql-router-k8s, s3-integrator, hydra,
	// prometheus-pushgateway-k8s; make_heldout.py --seed 23) 0.729 → 0.753: three rank 2 → 1,
	// one 4 → 5 ("build: Static check all the code", a build type that is about linting).
	BuildIntentLead = 1.2
	// WorkloadPinLead: a subject line about upgrading the workload ("Upgrade MySQL to 8.0.37",
	// "Update snap"; workload.go) lifts the files that pin its release (a snap revision
	// constant, an oci-image upstream-source) to this multiple of the best other file.
	WorkloadPinLead = 1.2
	// DeclarationIntentLead: a subject line naming a declared interface and a field of its
	// declaration ("Update `resume-upgrade` action `force` description"; dependencies.go
	// declarationWords) lifts the YAML file that declares it to this multiple of the best
	// other file. Held-out (session 5): actions.yaml rank 5 → 1 on the one such case of 357;
	// no dev or held-out subject names an interface with these words otherwise.
	DeclarationIntentLead = 1.2
	// AdditionIntentLead: a subject line adding an interface ("Add config option for …",
	// declarations.go additionKinds) lifts the YAML file declaring that kind to this multiple
	// of the best other file: second, under the entry point that usually changes with it.
	AdditionIntentLead = 0.9
	// ConfigClassLead: a subject line adding a config option lifts, as well, the file of the
	// class the charm loads its options into (config_type, load_config(Cls): the linker's
	// reads of its fields), where the new option's field goes, to this multiple of the best
	// other file (cassandra's src/core/config.py, 8th for "Add a config option ...": review
	// rev99).
	ConfigClassLead = 0.8
	// SubjectFileLead: a file the subject line names by path or file name ("Fix bug in
	// lifecycle.py for subordinate charms"; rank.go subjectFileTargets) is lifted to this
	// multiple of the best other file, over every other intent: the title says which file the
	// change is about. Over the dev and 24 held-out sets (1,863 cases), 38 subjects name such
	// a file of the tree (not a test, not a vendored library, its name unique), and all 38
	// edited it; 37 already ranked it first, "Adding unit tests for exporter.py file." had it
	// 4th (under src/charm.py, whose text matches "unit", "py" and "file" too) → 1.
	// A stem counts too where the subject writes it as its conventional commit's scope
	// ("fix(telemetry_correlation): …") or as an identifier of two or more words ("fix:
	// Handles empty fiveg_rfsim api version"), one file has it and it is no charm's name
	// (session 29; with the same stems waiving a file's class penalty, uniqueFileNames): 36
	// sets 0.8017 → 0.8025 (held26 +0.009, held10 +0.008, held24 +0.008, held27 +0.007; held4
	// and held28 -0.007: a body naming the library the change moved code from, a subject
	// naming the file beside the edited config.yaml); dev unchanged. A method written with
	// its class (Class.method), or a snake_case function or method name, that one file
	// defines names that file too (review rev126, session 55).
	SubjectFileLead = 1.2
	// DocsDescriptionLead: in a documentation task that lifts the charm's metadata file
	// (declaration-intent-lead), its other YAML declaring actions or options (actions.yaml,
	// config.yaml, whose descriptions are documentation too; docsTargets) is lifted to this
	// multiple of the best other file, the metadata file: second and third. Review rev127's
	// prototype over the 18 sets: three cases up (README 14 -> 2, "minor doc fixes" 8 -> 2,
	// "Prepare Kafka v.4 initial documentation" 27 -> 3), one down (7 -> 8).
	DocsDescriptionLead = 0.9
	// UntestedFactor multiplies the score of a source module with functions that no test
	// covers (tests.go), when a subject line says only that tests change ("test: update unit
	// tests"): new tests are written for the modules that have none, and the module is
	// edited with them.
	UntestedFactor = 2.0
	// NamedCharmFactor multiplies the score of every file of a charm the task names in a tree
	// of several charms (charms.go namedCharms): "feat(kfp-ui): ..." is about charms/kfp-ui,
	// not the kfp-api beside it, whose entry point, YAML and words look the same.
	// The same factor lifts the files of a folder that is no charm when a commit's scope
	// names it (namedFolders: "feat(slurm-ops): ..." for internal/slurm-ops/).
	NamedCharmFactor = 3.0
	// ExceptionModuleFactor multiplies a module of the charm's code that defines only
	// exception classes: the modules that raise and catch them give it PageRank, but 2 of
	// 1,636 eval cases edit one, while at small budgets it took a block of the map above the
	// charm's YAML (review rev110: etcd's src/common/exceptions.py).
	ExceptionModuleFactor = 0.5
	// ConfigModuleMin: a module reading this many of the charm's options or more may be where
	// a new option is read (declarations.go configModule).
	ConfigModuleMin = 3
	// EmptyModuleFactor multiplies a file of the charm's code that defines, imports and uses
	// nothing (an empty __init__.py): it has no code to edit, yet its package's imports gave it
	// the rank of a module (review rev110: etcd's three empty __init__.py files ranked above
	// its config.yaml).
	EmptyModuleFactor = 0.2
	// NameEdgeExponent is the power of the summed weights of the names one file uses of
	// another that makes their edge: a module of forty constants every module uses
	// (literals.py) drew forty times the rank of a class used once, and led the maps of the
	// charms that keep their names in one place. The square root, as aider counts a name's
	// uses: allsets 0.8112 -> 0.8118 (31 cases up, 23 down), LOCATE 0.8084 -> 0.8088; 0.3 and
	// 0.7 did no better (0.8106 each, before the exception-module factor).
	NameEdgeExponent = 0.5
	// TestPenalty multiplies a test file's score.
	TestPenalty = 0.05
	// YAMLFactor multiplies a charm YAML file's score: the YAML declares everything and so
	// collects a large PageRank, but it changes only with the code that handles it, which is
	// ranked above it (9 of 69 dev cases edit a YAML file, 8 of them with src/charm.py).
	// Interfaces named in the task still lift it (mention-interface). Dev cases (1 → 0.5):
	// MRR 0.834 → 0.838, off-hub 0.399 → 0.410 (kafka), recall unchanged; 0.3 no better.
	YAMLFactor = 0.5
	// OwnLibPenalty multiplies the charm's own library (lib/charms/<its name>/): its published
	// API for other charms, versioned and changed deliberately, and large, so that it wins
	// PageRank and the task's words (it speaks the relation's vocabulary) far more often than
	// it is edited. Dev cases (1 → 0.3): MRR 0.809 → 0.838; mysql 0.704 → 0.778, traefik
	// 0.861 → 1.000, kafka 0.690 → 0.693, catalogue 0.653 → 0.637 (a change to its library).
	// 0.3 → 0.5 (session 9), for the held-out sets, where charms whose library is their
	// product (smtp-integrator, bind, saml-integrator) edit it more often than the dev
	// charms do: the eleven sets held3-13 gain 0.041 MRR in sum (seven up, one down 0.003),
	// held14 (never read) 0.747 → 0.750; dev 0.914 → 0.908 (two mysql cases 2 → 4, 3 → 5),
	// off-hub 0.686 → 0.666. 0.4: +0.019, 0.6: +0.025, 1: -0.034 over held3-13.
	OwnLibPenalty = 0.5
	// CoOwnedLibPenalty replaces LibPenalty for a vendored library that imports the charm's
	// own code (coOwnLibraries): a family's shared library, developed in each of its charms
	// as the charm's own is. Review rev126: mongos' lib/charms/mongodb/*, edited in 3 of 7
	// of its commits, lost to files with no tie to the task. Session 55, on held15 (the only
	// set with such libraries, 12 mongos cases): OwnLibPenalty's 0.5 cost the map one case
	// (11 -> 17) and locate two (its libraries, tied by a word or two, crowded the YAML out
	// of the edit picks); 0.3 one each; 0.2, with locate picking them only when closely
	// tied (closelyTied), none, and rev126's "fix secret removal" lists the edited library.
	CoOwnedLibPenalty = 0.2
	// OwnLibIntentFactor replaces OwnLibPenalty when the task's subject line is about a
	// library without naming one or an update ("feat: add library description for
	// listing"): the library a charm's own change touches is the one it publishes; the
	// vendored libraries get LibIntentFactor as for any task about libraries. Dev cases: 1
	// task (catalogue), its library moved from rank 7 to 3; no other subject is like it.
	// It also replaces the penalty when the task writes out a name only the library defines
	// and only code writes (ranker.codeName: "emit SmtpDataAvailableEvent", "`bind_password`"):
	// the penalty is for a library that wins on the relation's vocabulary, not on its own
	// names. Held-out sets (session 17): three cases rank 2 → 1 (smtp-integrator,
	// traefik-route, glauth), none down; dev unchanged.
	OwnLibIntentFactor = 1.0
	// OwnLibSupersededPenalty replaces OwnLibPenalty for a major version of the charm's own
	// library that a newer one replaces and no code of the tree imports (supersededOwnLibs):
	// kept for older consumers, it is as seldom edited as a vendored library, and gets its
	// factor (LibPenalty).
	OwnLibSupersededPenalty = LibPenalty
	// OtherPenalty multiplies scripts and helpers outside the charm's code.
	OtherPenalty = 0.3
	// DocsToolingPenalty multiplies, besides OtherPenalty, the Python of a documentation
	// folder or a hidden one (docs/conf.py, docs/.sphinx/update_sp.py of the Sphinx starter
	// pack, .github/scripts/): nothing of the charm uses it, yet its few references to its
	// own helpers ranked it above the libraries the charm binds to its relations and filled
	// the end of mlflow's map (review rev124).
	DocsToolingPenalty = 0.3
	// ScoreDigits is the number of significant digits scores are rounded to before sorting, so
	// floating noise never swaps two files (ties fall back to the path).
	ScoreDigits = 6
)

// Symbol importance within a file: kind weight × visibility × handler × mention ×
// (1 + RefBoost·refShare + SelfRefBoost when the file itself uses the name).
const (
	// A class or module function is what other files import; a method is reached through its
	// class, whose line the full view prints as context anyway. Kind only tips the balance:
	// how much the rest of the tree uses a name (RefBoost) decides most of the order.
	KindClassWeight    = 2.0
	KindFunctionWeight = 1.5
	KindMethodWeight   = 1.0
	KindConstantWeight = 0.5 // constants matter when referenced, which RefBoost rewards
	// KindFieldWeight is for a class body's fields (a dataclass's, a pydantic model's, a class
	// of names' PEERS = "peers"): below the class's methods, shown when there is room (fields
	// take no part in the reference graph, so no flow reaches them).
	KindFieldWeight = 0.4
	// ExceptionClassWeight multiplies exception classes (named *Error/*Exception or derived
	// from one): one-line definitions with no API, however often they are raised.
	ExceptionClassWeight = 0.3
	// EventPlumbingWeight multiplies an event class's snapshot and restore (eventPlumbing): the
	// framework's storing of a deferred event, written the same way in every event class of a
	// library; its __init__, which names the event's payload, comes first instead. Without it
	// a tls_certificates library showed "def snapshot(self) -> dict:" under each of its six
	// event classes (review rev54).
	EventPlumbingWeight = 0.2
	// CharmClassWeight multiplies the charm class (derived from CharmBase): it is what the
	// entry point is about, yet little outside the file refers to it.
	CharmClassWeight = 3.0
	// YAML interfaces: relations and actions carry the most behaviour; config options are many
	// and each small.
	KindRelationWeight  = 1.0
	KindActionWeight    = 0.9
	KindContainerWeight = 0.9
	KindStorageWeight   = 0.8
	KindConfigWeight    = 0.7
	KindResourceWeight  = 0.6
	// KindPartWeight is for a charmcraft.yaml build part or base: build configuration, shown
	// after the interfaces, for the tasks that bump a build tool or move to a new release.
	KindPartWeight = 0.4
	// PrivateSymbolWeight multiplies _private names (other than __init__, whose signature is the
	// class's constructor API).
	PrivateSymbolWeight = 0.5
	// DunderSymbolWeight multiplies dunder methods other than __init__ (__repr__, __eq__ ...).
	DunderSymbolWeight = 0.2
	// HandlerSymbolWeight multiplies a method the linker tied to a YAML interface, and a YAML
	// interface that has handlers or readers: the charm's behaviour lives there.
	HandlerSymbolWeight = 2.0
	// AddedKindSymbolWeight multiplies, in a YAML file's block, the interfaces of the kind a
	// subject adds ("Add max-global-streams-per-user config option"; additionKinds): the new
	// one is written beside them, after their pattern. Without it, a coordinator's sixteen
	// relations handed to a library object led its four config options. Measured (session 29,
	// review rev54) on the 79 dev and held-out cases whose subject adds a config option or an
	// action: lines of that kind shown 448 → 480, cases showing none 22 → 20; ranks unchanged.
	AddedKindSymbolWeight = 3.0
	// KindRepeatDecay multiplies, in a YAML file's block, each interface by this once per
	// interface of its kind ranked before it: the block's first lines show every kind the
	// file declares (relations, actions, options, containers) before a kind's tenth line.
	// etcd-benchmark's charmcraft.yaml showed three relations and four actions, and its twelve
	// options only as "+15 more" (review rev115).
	KindRepeatDecay = 0.9
	// LibraryBookkeepingWeight multiplies a library's LIBID, and a vendored library's LIBAPI,
	// LIBPATCH and PYDEPS (libBookkeeping): charmcraft's fetch-lib reads them, an agent does
	// not, and a 32-digit LIBID costs a dozen tokens. They come last in their file.
	LibraryBookkeepingWeight = 0.05
	// SecondaryDefWeight multiplies a second definition of a name the file defines plainly too
	// (secondaryDefs): a property's setter or deleter, an `@overload` stub. The getter or the
	// real function says what the name is; kubeflow-dashboard's map spent six of seventeen
	// method lines on three getter/setter pairs, and jenkins-agent's printed two overload
	// stubs before the real signature (reviews rev110, rev111). They come last in their
	// class, and the budgeted views leave them out (`--all` lists them).
	SecondaryDefWeight = 0.05
	// LibraryUsedSymbolWeight multiplies a vendored library's symbol whose name the charm's own
	// code uses (DatabaseRequires, is_resource_created): of data_interfaces' 290 definitions,
	// those are the ones an agent working on the charm calls. (Flow alone let the library's
	// many internal classes lead it.)
	LibraryUsedSymbolWeight = 3.0
	// ReaderSymbolWeight multiplies a method that reads a config option or action parameter,
	// or looks up a relation, container or storage (linker Interface.Reads), when it handles
	// none: the YAML lines name it (`[config] port -> Charm._env`), so the map should show it
	// (seldon-core's _get_env_vars reads 17 options and was left out of its class).
	ReaderSymbolWeight = 1.5
	// MentionSymbolWeight multiplies a symbol named in the task text (or an interface named
	// there) so that it leads its file: 50 × PrivateSymbolWeight exceeds the largest score of
	// an unnamed symbol (a charm class: 2 × 3 × (1 + 2 + 0.5) = 21).
	MentionSymbolWeight = 50.0
	// SymbolWordBoost multiplies a symbol by 1 + SymbolWordBoost × the share of its name's
	// words that are words of the task ("list-backups action fails" lifts
	// _on_list_backups_action within its file), so that the lines a file shows first are the
	// ones the task is about. Measured (session 4) as the share of changes whose edited
	// functions include one the 1500-token map shows, per set (dev, held3-6), 1.5 against 0:
	// 0.812 → 0.812, 0.585 → 0.600, 0.564 → 0.618, 0.636 → 0.697, 0.729 → 0.708; the edited
	// functions shown, on average, 0.664 → 0.664, 0.414 → 0.433, 0.479 → 0.491, 0.520 →
	// 0.581, 0.579 → 0.567. 1 to 2 is a plateau; from 3 the dev figures fall. Files' ranks do
	// not change.
	SymbolWordBoost = 1.5
	// SymbolBodyBoost multiplies a function or method by 1 + SymbolBodyBoost × its body's
	// match of the task words (bodyMatch, 0 to 1 within the file): a task rarely names the
	// function it changes, and the body's words say what the function does. Measured (session
	// 21, bench/eval/symbols.py, mean over dev and held3-held29) as the share of changes with
	// an edited function shown / the mean share of edited functions shown: 0 → 0.822 / 0.715,
	// 1.5 → 0.856 / 0.755, 3 → 0.869 / 0.767, 6 → 0.876 / 0.775, 12 → 0.884 / 0.782; on
	// held30, drawn this session and unseen, 0.911 / 0.873 → 0.950 / 0.918 at 3 and 6 and
	// 0.950 / 0.914 at 12. 6 stays well below MentionSymbolWeight: a function the task names
	// still leads. Files' ranks do not change (28 ranking sets: mean MRR 0.8052 before and after).
	SymbolBodyBoost = 6.0
	// BodyNoteShare is the body match (of the file's best) from which a function's task words
	// are noted (Symbol.TaskWords), for locate to name the functions to read first.
	BodyNoteShare = 0.5
	// RefBoost weighs the rank flowing into a symbol's name from other files (relative to the
	// most referenced symbol of the file).
	RefBoost = 2.0
	// SelfRefBoost is added when the name is used inside its own file (whether, not how
	// often: one more use must not reorder the map, review rev79).
	SelfRefBoost = 0.5
)

// Signal names (the kebab-case names of the weights above, for --explain).
const (
	SigPageRank          = "pagerank"
	SigHub               = "hub-entrypoint"
	SigHubLead           = "hub-lead"
	SigSubjectFile       = "subject-file"
	SigAdditionIntent    = "addition-intent-lead"
	SigConfigClass       = "config-class-lead"
	SigLib               = "lib-penalty"
	SigLibIntent         = "lib-intent"
	SigLibUpdate         = "lib-update-lead"
	SigDependencyUpdate  = "dependency-update-lead"
	SigBuildIntent       = "build-intent-lead"
	SigDeclarationIntent = "declaration-intent-lead"
	SigWorkloadPin       = "workload-pin-lead"
	SigCopies            = "copies" // the number of copies whose scores a canonical file took (copies.go)
	SigTest              = "test-penalty"
	SigUntested          = "untested-module"
	SigOther             = "other-penalty"
	SigExceptionModule   = "exception-module"
	SigEmptyModule       = "empty-module"
	SigOwnLib            = "own-lib-penalty"
	SigCoOwnedLib        = "co-owned-lib" // CoOwnedLibPenalty, noted with the charm's module it imports
	SigOwnLibIntent      = "own-lib-intent"
	SigOwnLibSuperseded  = "own-lib-superseded"
	SigDocsTooling       = "docs-tooling"
	SigYAML              = "yaml-factor"
	SigFirstPartyImport  = "first-party-import" // outside the charm dirs, imported by charm code
	SigNamedCharm        = "named-charm"
	SigNamedFolder       = "named-folder" // NamedCharmFactor on a folder a commit's scope names (namedFolders)
	SigFocus             = "focus"
	SigFocusCaller       = "focus-caller"
	SigFocusDeclares     = "focus-declares" // focus-caller's mass on a charm YAML file, which declares what the focused file handles
	SigMentionFile       = "mention-file"
	SigMentionIdent      = "mention-ident"
	SigMentionInterface  = "mention-interface"
	SigLinkHandler       = "link-handler"
	SigMentionWords      = "mention-words" // the BM25 factor
	SigScoreSum          = "score-sum"     // the divisor: the sum of every file's score before normalising

	// A symbol's signals (Symbol.Signals): its kind's weight, then the factors.
	SigSymKind          = "kind"            // Kind*Weight, noted with the kind
	SigSymVisibility    = "visibility"      // PrivateSymbolWeight or DunderSymbolWeight
	SigSymException     = "exception-class" // ExceptionClassWeight
	SigSymCharmClass    = "charm-class"     // CharmClassWeight
	SigSymBookkeeping   = "lib-bookkeeping" // LibraryBookkeepingWeight
	SigSymSecondary     = "secondary-def"   // SecondaryDefWeight, noted setter, deleter or overload
	SigSymEventPlumbing = "event-plumbing"  // EventPlumbingWeight
	SigSymLibUsed       = "lib-used-symbol" // LibraryUsedSymbolWeight
	SigSymHandler       = "handler"         // HandlerSymbolWeight, noted with the interfaces
	SigSymReader        = "reader"          // ReaderSymbolWeight
	SigSymAddedKind     = "added-kind"      // AddedKindSymbolWeight
	SigSymKindRepeat    = "kind-repeat"     // KindRepeatDecay per line of its kind before it
	SigSymMention       = "mention-symbol"  // MentionSymbolWeight
	SigSymTaskWords     = "task-word-share" // 1 + SymbolWordBoost × share
	SigSymBody          = "task-words-body" // 1 + SymbolBodyBoost × bodyMatch
	SigSymRefs          = "references"      // 1 + RefBoost × flow share (+ SelfRefBoost)
)
