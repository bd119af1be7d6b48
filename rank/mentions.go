package rank

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// mentions is what the task text names: raw identifiers, normalised words, word n-grams (for
// multi-word interface names) and path-like tokens.
type mentions struct {
	idents map[string]bool // identifiers as written, e.g. "external_url", "GrafanaMetadataAppData"
	words  map[string]bool // normalised words (lower case, stopwords dropped, plural 's' cut)
	forms  map[string]bool // the inflected words as written, where stem changed them ("prefixed")
	// written maps each stem of words to the word as the task first writes it ("handl" →
	// "handling"), for naming matches to a reader
	written map[string]string
	grams   map[string]bool // normalised '_'-joined runs of 1-3 words and whole tokens ("shared_db")
	// inner are the grams met only inside an identifier, after its first word
	// ("agent" of jenkins_agent_executors, not of "agent relation" or agent_relation_changed):
	// such a run is part of another name, not an interface's.
	inner map[string]bool
	// common are the grams met only right after an article or possessive ("after a restart",
	// "its data"), or as the verb that opens a line ("Enable vTPM support", leadVerbs):
	// there the words are common nouns or verbs, not an interface's name
	common map[string]bool
	joined map[string]bool // runs of 2-3 words written together ("rolling-ops" → "rollingops"), for file stems
	paths  []string        // tokens that look like paths or file names ("src/charm.py", "tls.py")
	// configOptionOnly is set when the text writes "config" and every time as a word of its
	// own right before "option" or "options": the kind of an interface, not a file's name
	configOptionOnly bool
}

// hasAny reports whether the text has one of words (as a word or a run of words).
func (m mentions) hasAny(words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return m.grams[w] })
}

// subject is the first line of one task text (a commit's or PR's title; the body of a
// squashed PR lists every chore) with its mentions: the library and dependency intents read
// only subjects.
type subject struct {
	text   string
	m      mentions
	scopes map[string]bool // the names its commit scope holds (commitScopes), nil for none
	adds   bool            // it adds a kind of interface (additionKinds)
}

// subjectsOf parses the subject line of each text. A merge commit's first line names only
// the branch ("Merge pull request #149 from canonical/IAM-700-update-hydra-version"); the pull
// request's title follows it ("Bump hydra to 2.2.0") and is a subject too.
func subjectsOf(texts []string) []subject {
	out := make([]subject, 0, len(texts))
	for _, t := range texts {
		for _, line := range SubjectLines(t) {
			out = append(out, subject{text: line, m: parseMentions([]string{line}), scopes: commitScopes(line)})
		}
	}
	return out
}

// SubjectLines returns the subject of a task text: its first line, and for a merge commit's
// first line also the pull request's title that follows it.
func SubjectLines(text string) []string {
	line, rest, _ := strings.Cut(strings.TrimSpace(text), "\n")
	out := []string{strings.TrimSpace(line)}
	if mergeLine.MatchString(out[0]) {
		title, _, _ := strings.Cut(strings.TrimSpace(rest), "\n")
		if title = strings.TrimSpace(title); title != "" {
			out = append(out, title)
		}
	}
	return out
}

// mergeLine matches the first line git and GitHub write for a merge commit.
var mergeLine = regexp.MustCompile(`^Merge (pull request #\d+ from |branch |remote-tracking branch )`)

// surface is a lexical query term as the task writes it: a stem's first written word, or an
// inflected form ("=prefixed") itself.
func (m mentions) surface(term string) string {
	if f, ok := strings.CutPrefix(term, "="); ok {
		return f
	}
	return m.written[term]
}

func (m mentions) empty() bool {
	return len(m.idents) == 0 && len(m.words) == 0 && len(m.paths) == 0
}

// stopwords are English function words and generic verbs of task texts and commit messages:
// they would match half the identifiers of any tree. The verbs' -ing forms count too ("fix
// getting address from interface" matched a `getting` in a comment; the stemmer leaves
// "gett"): held-out mean MRR 0.8086 -> 0.8090 (docs/eval.md, round 34). "support" and
// "implement" say a feature is added, not which file has it ("added stripprefix support" led
// with a YAML comment's "supported options", reviews rev115, rev119): held-out mean MRR
// 0.8169 -> 0.8171 (round 55); the addition rules read them from the grams all the same.
//
// The second block is the rest of NLTK's English list (the usual one in retrieval work),
// less "up down out off over under", which name what a charm does ("scale down", "tear
// down"). "during" and the "re" of "re-enable" matched docstrings and prose all over a tree
// and lifted files that only shared them with the task. Held-out sets (docs/eval.md,
// round 12): MRR summed over held3-14 +0.009, no set lower; dev unchanged.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or not no of to in on at by for from with
		without into onto as is are be been was were it its this that these those when then than
		if else do does did done use used using via per all any some each so we you i our
		add added adds fix fixed fixes update updated updates change changed changes make
		remove removed drop dropped dropping drops delete deleted deletes deleting bump bumped bumps bumping new old now also only more less after before instead should can
		get set self cls none true false
		support supports supported supporting implement implements implemented implementing implementation
		adding fixing updating changing making removing getting gets

		non me my myself ours ourselves your yours yourself yourselves he him his himself she her
		hers herself itself they them their theirs themselves what which who whom am being
		have has had having doing but because until while about against between through
		during above below again further once here there where why how both few most other
		such nor own same too very will just don d ll m o re s t ve y ain aren couldn didn
		doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn`) {
		stopwords[w] = true
	}
}

// urlPattern matches a web address. Task texts link the issue, the pull request or the CI run
// they come from ("Ported from https://github.com/canonical/mysql-router-operator/pull/133"):
// the address names a repository, a tracker and an issue number, not the code to change, and
// its repository name matches the charm's own containers and relations.
var urlPattern = regexp.MustCompile(`(?i)\b(?:https?|ftp)://[^\s<>()\[\]]*`)

// ticketPattern matches a tracker's issue key ("[DPE-6575]", "CSS-12081:", the "IAM-1321" of a
// branch name): a project code in capitals and an issue number. About one task in ten carries
// one, and the code names the team, not the change; but it is also a word of the code it
// works on ("dpe_benchmark", a "kf" namespace, "css" folders) and lifted those files. The
// number has two digits or more, so that "UTF-8" stays; techKeys are keys of standards.
var ticketPattern = regexp.MustCompile(`\b[A-Z][A-Z0-9]*[A-Z]-[0-9]{2,}\b`)

// lpPattern matches a Launchpad bug or branch reference ("LP: #1730567", "[LP#2046508]",
// "lp:1883549", a branch "lp-1827409/...", "lp:~stub/charms/..."), which OpenStack and older
// Canonical charms put in their subjects: it names the tracker, and "lp" is a word of their
// code too (CHARM_HELPERS_BRANCH = 'lp:charm-helpers' lifted a sync script over the change).
var lpPattern = regexp.MustCompile(`(?i)\blp\s*[:#/-]\s*#?\s*[0-9]{5,}\b|\blp:~\S+`)

// issuePattern matches a forge's issue or pull request number ("(#76)" ending most squashed
// subjects, "FIX #49", "closes #12"): the number names the forge's thread, not the code, and as
// a task word it matched port numbers and line counts ("has task words 76", review rev113).
var issuePattern = regexp.MustCompile(`\(?#[0-9]+\b\)?`)

// forgeActions matches GitHub's CI product ("GitHub Actions", "github-actions", "gh action"):
// its "actions" are workflows, not the charm's actions (held10's "Adds github actions SVG,
// and renames to github-runner" lifted actions.yaml, review rev113). The forge's name stays.
var forgeActions = regexp.MustCompile(`(?i)\b(github|gh)[ _-]actions?\b`)

// techKeys are standards written like an issue key ("SHA-256", "ISO-8601"): they are words of
// the task.
var techKeys = map[string]bool{"SHA": true, "ISO": true, "RFC": true, "AES": true, "RSA": true, "ECDSA": true, "PKCS": true,
	"IEEE": true, "UTF": true, "PEP": true, "HTTP": true, "TLS": true, "FIPS": true}

// trailerLine matches a commit message's trailer ("Signed-off-by: Jane Doe <jane@ubuntu.com>",
// "Co-authored-by: …", "Change-Id: I3f…", "Closes-Bug: #1234"): about one task in six ends
// with some, and their names, e-mail domains and ids ("ubuntu", "canonical", "github") are
// words of the code too.
var trailerLine = regexp.MustCompile(`(?im)^[ \t*-]*(?:signed-off-by|co-authored-by|reviewed-by|reviewed-on|acked-by|tested-by|reported-by|suggested-by|helped-by|assisted-by|cc|change-id|depends-on|closes-bug|partial-bug|related-bug|func-test-pr|agent-logs-url):.*$`)

// mergeBoilerplate matches the words git, GitHub and Gerrit write around a merge's branch or
// title: "Merge pull request #22 from canonical/" before the branch, "Merge branch '" or
// "Merge remote-tracking branch '" and the quote after it, "Merge \"" around a Gerrit change's
// title. About one held-out case in six starts so (580 of 3,712); "pull request" matched every `_request` of a
// tree and the owner ("canonical") its strings. What is left is the branch ("rework-data-
// locations", its '/' a space: "feature integration", not a path) or the title.
var mergeBoilerplate = regexp.MustCompile(`(?m)^[ \t]*Merge (?:pull request #\d+ from [^/\s]+/(\S*)|(?:remote-tracking )?branch '([^']*)'(?: of \S+)?(?: into \S+)?|"(.*)"[ \t]*$)`)

// dropMergeBoilerplate keeps, of each merge line, its branch (slashes made spaces) or title.
func dropMergeBoilerplate(text string) string {
	return mergeBoilerplate.ReplaceAllStringFunc(text, func(line string) string {
		m := mergeBoilerplate.FindStringSubmatch(line)
		return strings.ReplaceAll(m[1]+m[2], "/", " ") + m[3]
	})
}

// emailPattern matches an e-mail address, which names a person, not the change.
var emailPattern = regexp.MustCompile(`[\w.+-]+@[a-zA-Z][\w-]*(?:\.[a-zA-Z][\w-]*)+`)

// dropRefs removes what names the task's origin rather than its content: trailers
// (trailerLine), e-mail and web addresses (emailPattern, urlPattern), Launchpad references
// (lpPattern) and issue keys (ticketPattern).
func dropRefs(text string) string {
	text = trailerLine.ReplaceAllString(text, " ")
	text = dropMergeBoilerplate(text)
	text = urlPattern.ReplaceAllString(text, " ") // first: an address may hold user@host
	text = emailPattern.ReplaceAllString(text, " ")
	text = lpPattern.ReplaceAllString(text, " ")
	text = issuePattern.ReplaceAllString(text, " ")
	text = forgeActions.ReplaceAllString(text, "$1")
	return ticketPattern.ReplaceAllStringFunc(text, func(k string) string {
		if code, _, _ := strings.Cut(k, "-"); techKeys[code] {
			return k
		}
		return " "
	})
}

// parseMentions tokenises the task texts. Web addresses and issue keys are dropped first
// (dropRefs).
func parseMentions(texts []string) mentions {
	m := mentions{idents: map[string]bool{}, words: map[string]bool{}, forms: map[string]bool{}, grams: map[string]bool{}, joined: map[string]bool{}, common: map[string]bool{},
		inner: map[string]bool{}, written: map[string]string{}}
	lead := map[string]bool{} // grams met at the start of a word run of their own
	bare := map[string]bool{} // grams met without an article or possessive before them
	seenPath := map[string]bool{}
	var whole []string // product names whole ("centos" of CentOS), names without their version ("nfs" of NFSv4)
	configs, kindConfigs := 0, 0
	for _, text := range texts {
		var seq []string         // the text's words in order, for n-grams
		var within []bool        // per word of seq: it follows another word of the same identifier
		verbs := map[int]bool{}  // the tokens that open a line as its verb (leadVerbs)
		verbAt := map[int]bool{} // their indexes in seq
		var toks []string
		for _, line := range strings.Split(dropRefs(text), "\n") {
			lt := rawTokens(line)
			if first := rawTokens(commitType.ReplaceAllString(line, "")); len(first) > 0 && leadVerbs[strings.ToLower(first[0])] {
				verbs[len(toks)+len(lt)-len(first)] = true
			}
			toks = append(toks, lt...)
		}
		for ti, tok := range toks {
			if verbs[ti] {
				verbAt[len(seq)] = true
			}
			// a location on the workload's machine ("/var/snap/etcd/common/var/lib/etcd"), not a
			// file of the charm (which a leading '/' may still name: "/src/charm.py"): its
			// words count, but not as a path, and not its system folders (systemDirs: the
			// "lib" of /var/lib would make the text about charm libraries)
			abs := strings.HasPrefix(tok, "/") && strings.Contains(tok[1:], "/") && !strings.HasSuffix(tok, ".py")
			tok = strings.TrimLeft(tok, "/")
			if !abs && (strings.Contains(tok, "/") || strings.HasSuffix(tok, ".py") || strings.HasSuffix(tok, ".yaml")) {
				if p := strings.ToLower(strings.Trim(tok, "/")); !seenPath[p] {
					seenPath[p] = true
					m.paths = append(m.paths, p)
				}
			}
			m.grams[normName(tok)] = true
			for _, part := range tokenParts(tok) {
				if len(part) > 1 && !unicode.IsDigit(rune(part[0])) {
					m.idents[part] = true
				}
				ws := pyextract.SplitWords(part)
				if abs && len(ws) == 1 && systemDirs[ws[0]] {
					continue
				}
				if w := wholeName(part, ws); w != "" {
					whole = append(whole, w)
				}
				seq = append(seq, ws...)
				// a name led by an acronym is one name, even its first word ("HAProxy" is no ha
				// relation, review rev120: haproxy-operator's every subject went to the charm
				// declaring ha); a class's name keeps its words (`PrometheusRemoteWriteProvider`
				// names the remote-write relation it serves), led by an acronym of three letters
				// or more too: `TLSCertificatesRequiresV3`, `LDAPRequirer` (review rev121)
				camel := len(ws) > 1 && !strings.Contains(part, "_") && len(part) > 2 && unicode.IsUpper(rune(part[0])) && unicode.IsUpper(rune(part[1])) &&
					!(len(ws[0]) > 2 && (len(ws) > 2 || classRoleWords[ws[len(ws)-1]]))
				for k := range ws {
					// _on_<name>_… and on_<name>: the handler prefix does not make <name> inner
					within = append(within, camel || k > 0 && !(k == 1 && ws[0] == "on"))
				}
			}
			if id := dottedIdent(tok); id != "" {
				m.idents[id] = true
			}
		}
		for i, w := range seq {
			if w == "config" {
				configs++
				if !within[i] && i+1 < len(seq) && !within[i+1] && (seq[i+1] == "option" || seq[i+1] == "options") {
					kindConfigs++
				}
			}
			for n := 1; n <= 3 && i+n <= len(seq); n++ {
				g := strings.Join(seq[i:i+n], "_")
				m.grams[g] = true
				if within[i] {
					m.inner[g] = true
				} else {
					lead[g] = true
				}
				if i > 0 && determiners[seq[i-1]] && !within[i] || n == 1 && verbAt[i] {
					m.common[g] = true
				} else {
					bare[g] = true
				}
				if n > 1 {
					m.joined[strings.Join(seq[i:i+n], "")] = true
				}
			}
			if w := seq[i]; !stopwords[w] && len(w) > 1 && !isVersionWord(w) {
				st := stem(w)
				m.words[st] = true
				if m.written[st] == "" {
					m.written[st] = w
				}
				if st != w {
					m.forms[w] = true
				}
			}
		}
	}
	for _, w := range whole {
		if st := stem(w); !stopwords[w] && !m.words[st] {
			m.words[st] = true
			if m.written[st] == "" {
				m.written[st] = w
			}
		}
	}
	m.configOptionOnly = configs > 0 && kindConfigs == configs
	delete(m.grams, "")
	for g := range lead {
		delete(m.inner, g)
	}
	for g := range bare {
		delete(m.common, g)
	}
	return m
}

// wholeName is a second query word for a task token written as a product name, which the
// code writes in lower case but which splitting at case changes cuts into pieces that match
// other things ("CentOS" → cent, os; "MySQL" → my, sql; "OpenStack" → open, stack): the
// token lower-cased, when it is letters only, of mixed case, at most 12 of them, and split
// (ws, its words). And for a name with its version glued on ("NFSv4", "HTTP2", "Python3"),
// which the code writes bare: the name, of three letters or more. "" otherwise.
func wholeName(part string, ws []string) string {
	if len(ws) > 1 && productName.MatchString(part) && part != strings.ToLower(part) && part != strings.ToUpper(part) {
		return strings.ToLower(part)
	}
	if m := versionedName.FindStringSubmatch(part); m != nil {
		name := strings.ToLower(strings.TrimRight(m[1], "vV")) // "NFSv4": nfs; "IPv6": ip, too short
		if len(name) >= 3 && !slices.Contains(ws, name) {
			return name
		}
	}
	return ""
}

// productName matches a token wholeName may join: 1 to 12 ASCII letters.
var productName = regexp.MustCompile(`^[A-Za-z]{1,12}$`)

// versionedName matches a name with its version glued on: "NFSv4", "TLSv1", "HTTP2".
var versionedName = regexp.MustCompile(`^([A-Za-z]{3,})[0-9]+$`)

// leadVerbs are the verbs that open a task's line as its imperative ("Enable vTPM support",
// "fix: restart the workload on config change") and that charms also name actions after:
// there the verb says what to do, and names the action only beside its kind ("Restart action
// fails"). commitType is a conventional commit's type before them ("fix(scope)!: ").
var (
	leadVerbs = map[string]bool{"enable": true, "disable": true, "restart": true, "start": true, "stop": true,
		"pause": true, "resume": true, "upgrade": true, "refresh": true, "backup": true, "restore": true,
		"create": true, "run": true, "reset": true, "rotate": true, "sync": true, "install": true,
		"reconfigure": true, "scale": true, "migrate": true, "promote": true, "recover": true,
		"rebuild": true, "clean": true, "cleanup": true, "purge": true, "reload": true, "register": true,
		"deploy": true, "rollback": true, "renew": true, "drain": true, "flush": true, "trigger": true,
		"check": true, "list": true, "show": true, "configure": true, "expose": true, "publish": true}
	commitType = regexp.MustCompile(`^\s*[A-Za-z]+(\([^)]*\))?!?:\s*`)
)

// determiners make the word after them a common noun: "after a restart", "its data". Not
// "the" ("the database relation", "the certificates" name interfaces).
var determiners = map[string]bool{"a": true, "an": true, "its": true, "their": true, "our": true, "your": true,
	"my": true, "his": true, "her": true, "some": true, "any": true, "each": true, "every": true, "another": true}

// isVersionWord reports a version word ("v0" of "v0.9"): in a task it names a release, and as
// a word of a path it matches every library's folder (lib/charms/x/v0/): "Update dependency
// uv to v0.9" must not pull the libraries up. Plain numbers stay words: "8.0.37" finds the
// comment "# MySQL 8.0.37" beside a snap revision.
func isVersionWord(w string) bool {
	return len(w) > 1 && w[0] == 'v' && strings.Trim(w[1:], "0123456789") == ""
}

// dottedIdent is the snake_case attribute a dotted property name is usually held in
// ("log.dirs" → log_dirs, "metadata.log.dir" → metadata_log_dir): workloads configured by
// dotted keys (Kafka, Java properties, Prometheus flags) keep them in charm attributes and
// properties of that name. Paths, file names and version numbers are not property names.
func dottedIdent(tok string) string {
	if !strings.Contains(tok, ".") || strings.Contains(tok, "/") || strings.HasSuffix(tok, ".py") || strings.HasSuffix(tok, ".yaml") {
		return ""
	}
	parts := strings.Split(normName(tok), ".")
	for _, p := range parts {
		if p == "" || !unicode.IsLetter(rune(p[0])) {
			return ""
		}
	}
	return strings.Join(parts, "_")
}

// systemDirs are the standard folders of a Unix file system: in a path on the workload's
// machine they say nothing of what the task is about.
var systemDirs = map[string]bool{"usr": true, "var": true, "lib": true, "lib64": true, "etc": true, "opt": true,
	"bin": true, "sbin": true, "share": true, "local": true, "tmp": true, "run": true, "srv": true, "mnt": true}

// classRoleWords end the name of a class that plays a side of a relation (LDAPRequirer,
// VaultKvProvides): its other words name the relation.
var classRoleWords = map[string]bool{"requires": true, "requirer": true, "provides": true, "provider": true,
	"consumer": true, "peers": true}

// rawTokens returns runs of identifier, path and kebab characters, trimmed of punctuation
// (a leading '/' is kept: it marks an absolute path).
func rawTokens(text string) []string {
	toks := strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r == '.' || r == '-' || r == '/' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	out := toks[:0]
	for _, t := range toks {
		abs := strings.HasPrefix(t, "/")
		if t = strings.Trim(t, ".-/"); t != "" {
			if abs {
				t = "/" + t
			}
			out = append(out, t)
		}
	}
	return out
}

// tokenParts splits a raw token at '.', '/' and '-' ("rolling-ops", "src/charm.py"),
// keeping '_' names whole.
func tokenParts(tok string) []string {
	return strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == '/' || r == '-' })
}

// stem folds inflections so that task words meet identifier words: plural s, -ed, -ing and a
// final e ("prefixed" and "prefix", "names" and "name", "handling" and "handler"'s "handl").
// Crude, but applied alike to both sides, which is all matching needs.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
		w = w[:len(w)-1]
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		w = w[:len(w)-2]
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// normName is the form charm interface names are compared in: lower case, '-' → '_'.
func normName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "-", "_")
}

// identWords returns the stemmed, non-stopword words of an identifier.
func identWords(ident string) []string {
	var out []string
	for _, w := range pyextract.SplitWords(ident) {
		if !stopwords[w] && len(w) > 1 {
			out = append(out, stem(w))
		}
	}
	return out
}

// inflectedWords returns the words of an identifier that stem changes, as written
// ("prefixed" of "PREFIXED", not "prefix").
func inflectedWords(ident string) []string {
	var out []string
	for _, w := range pyextract.SplitWords(ident) {
		if !stopwords[w] && len(w) > 1 && stem(w) != w {
			out = append(out, w)
		}
	}
	return out
}

// wordCache memoises identWords: a tree repeats the same names thousands of times.
type wordCache map[string][]string

func (c wordCache) words(name string) []string {
	ws, ok := c[name]
	if !ok {
		ws = identWords(name)
		c[name] = ws
	}
	return ws
}

// TaskWordsIn returns a matcher of the task texts' words (mentions) against a name outside
// the ranking (a template's file name): the words of the name (split as an identifier, at
// '-', '_', '.' and case changes) that the task writes, as the task writes them, compared
// the way the ranker compares words (lower case, stopwords dropped, inflections cut).
func TaskWordsIn(mentions []string) func(name string) []string {
	m := parseMentions(mentions)
	return func(name string) []string {
		var out []string
		for _, w := range identWords(strings.NewReplacer(".", "_", "-", "_").Replace(name)) {
			if m.words[w] && !slices.Contains(out, m.written[w]) {
				out = append(out, m.written[w])
			}
		}
		return out
	}
}
