// Package check turns the linker's links between a charm's YAML and its Python code into CI
// diagnostics (CONTRACT §4, §5) and writes them as text, JSON, GitHub Actions workflow
// commands or SARIF 2.1.0.
//
// Input: the charms (charmyaml) and the linker Result. Output: a Report, diagnostics sorted by
// file, line and rule, plus counts. Every rule, with its default severity and the reason it
// exists, is in the Rules table (rules.go), which also feeds the SARIF rule descriptions.
//
// Decisions:
//   - The undeclared-* and missing-handler findings come from the linker, which resolves the
//     names; check only names, grades and words them. A finding at a site that runs only under
//     a condition is graded one step down (error → warning), because that code may never run
//     where the interface is missing.
//   - In a monorepo, code in a shared folder (outside every charm's directory) is checked
//     with each charm that imports it. A use there of an interface this charm does not declare
//     but a sibling charm does, in code that runs only under a condition, is not reported: the
//     condition is the substrate or charm switch (kafka's shared events get the "kafka"
//     container only when not on a VM, and only the k8s charm declares it). Unconditional uses
//     are still reported for every charm that lacks the interface.
//   - The unhandled-*/unused-* rules read the links: a declared interface with neither
//     handlers nor reads. A charm directory whose code holds no charm class, no charm-helpers
//     hook function or script and no reactive handler (a unit test's metadata.yaml fixture
//     beside its helpers) is not held to them; it gets an unlinked-code info, or an
//     unread-code error, instead. Lookups count as
//     handling, so a peer relation that is only looked up is handled. Interfaces a
//     charmcraft extension adds are the framework's business and
//     never reported; so are, in a 12-factor charm, the relations whose interface the
//     framework wires to the workload and every config option (passed to it as environment
//     variables). When the charm has dynamic names the linker could not resolve, which
//     might be the missing handler or read, these findings are graded down to info.
//   - Unresolved dynamic names are never errors: each is an info at its site and the summary
//     counts them.
//   - Options.Strict grades every warning up to an error, like a compiler's -Werror, so all
//     formats show what fails the run.
package check

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/linker"

	"github.com/cantrip-dev/charmcraft-map/internal/pathtail"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
)

// Options tune a run.
type Options struct {
	Strict bool // report warnings as errors
	// Lost are the root-relative Python files (or folders) of the tree that were not read
	// (unreadable, over the size limit): code there may handle or read what no code read
	// seems to, so those findings of a charm that may hold such code are infos that name the
	// file.
	Lost []string
	// Unread are Lost and the .py files skipped as binary data (repomap Tree.UnreadCode): a
	// charm with no charm class, hook function or reactive handler whose folder holds one of
	// them may have lost them all, and is reported (unread-code), not passed in silence.
	Unread []string
	// Lines returns the lines of a root-relative file, for the suppression comments
	// (suppress.go); nil when the file cannot be read. Nil Lines reads nothing: no finding
	// is silenced.
	Lines func(file string) []string
}

// Diagnostic is one finding (CONTRACT §3).
type Diagnostic struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	File     string `json:"file"` // root-relative (GitHub and SARIF output: from the repository's top, app.fromRepoTop); "" when there is no place
	Line     int    `json:"line"` // 1-based; 0 when unknown
	Subject  string `json:"subject"`
}

// Summary counts the diagnostics by severity, and the sites whose names could not be resolved.
type Summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Unresolved int `json:"unresolved"`
	// Suppressed counts the findings a `# charmcraft-map: ignore` comment silenced; they are
	// not in the report.
	Suppressed int `json:"suppressed"`
	// Hidden counts the findings left out of the report for being below the severity asked
	// for (AtLeast: `check --min-severity warning`); they are still counted above.
	Hidden int `json:"hidden"`
}

// Report is the result of a run.
type Report struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Summary     Summary      `json:"summary"`
}

// severityRank orders the severities, infos lowest.
var severityRank = map[string]int{SeverityInfo: 0, SeverityWarning: 1, SeverityError: 2}

// ValidSeverity reports a severity name AtLeast accepts.
func ValidSeverity(s string) bool {
	_, ok := severityRank[s]
	return ok
}

// AtLeast returns the report with only the diagnostics of severity min or above (infos are
// noise in a CI log of a large monorepo); the summary still counts every finding, and Hidden
// how many were left out. The exit code does not change: it reads the counts.
func (r Report) AtLeast(min string) Report {
	out := Report{Summary: r.Summary, Diagnostics: []Diagnostic{}}
	for _, d := range r.Diagnostics {
		if severityRank[d.Severity] >= severityRank[min] {
			out.Diagnostics = append(out.Diagnostics, d)
		} else {
			out.Summary.Hidden++
		}
	}
	return out
}

// ExitCode is the process exit code of `check` (CONTRACT §5): 1 when there are errors, or
// warnings and strict is set; else 0.
func (r Report) ExitCode(strict bool) int {
	if r.Summary.Errors > 0 || strict && r.Summary.Warnings > 0 {
		return 1
	}
	return 0
}

// Run checks every charm against its links: each charm's YAML alone (checkYAML), the names no
// code could resolve, then each charm's findings, interfaces and conditional registrations,
// and last what shared code reported for several charms at once.
func Run(charms []charmyaml.Charm, links linker.Result, opt Options) Report {
	c := newChecker(charms, links, opt)
	for i := range charms {
		checkYAML(charms[i], c.addFor(charms[i].Dir))
	}
	c.unresolvedSites()
	for _, cl := range links.Charms {
		unread := c.ownUnread(cl)
		c.findings(cl, unread)
		if cl.NoCode && cl.Classic == "" && cl.Reactive == "" {
			c.unchecked(cl, unread)
			continue
		}
		c.interfaces(cl)
	}
	c.sharedConstructions()
	return c.finish()
}

// checker is one Run's state: the report so far and the indexes of the links it reads.
type checker struct {
	links linker.Result
	opt   Options
	r     Report

	byDir      map[string]*charmyaml.Charm // charm dir → its declarations
	dirs       []string                    // every charm's dir, in the links' order
	nameOf     map[string]string           // charm dir → name
	declaredBy map[[2]string][]string      // (kind, name) → the charm dirs declaring it
	dynamic    map[string]map[string]int   // charm dir → interface kind → unresolved sites

	sharedBuilt map[string][]charmDiagnostic // construction in shared code → each charm's report
	heldBy      map[Diagnostic][]string      // an undeclared name in shared code → the charms whose YAML lacks it
}

// charmDiagnostic is one charm's report of a construction in shared code.
type charmDiagnostic struct {
	charm string
	d     Diagnostic
	files []string // the files of the handlers the construction registers
}

// construction is where an object is built, or an early return is, in a file.
type construction struct {
	file string
	line int
}

func newChecker(charms []charmyaml.Charm, links linker.Result, opt Options) *checker {
	c := &checker{links: links, opt: opt, r: Report{Diagnostics: []Diagnostic{}},
		byDir: map[string]*charmyaml.Charm{}, nameOf: map[string]string{}, declaredBy: map[[2]string][]string{},
		dynamic: map[string]map[string]int{}, sharedBuilt: map[string][]charmDiagnostic{}, heldBy: map[Diagnostic][]string{}}
	for i := range charms {
		c.byDir[charms[i].Dir] = &charms[i]
	}
	for _, cl := range links.Charms {
		c.dirs = append(c.dirs, cl.Dir)
		c.nameOf[cl.Dir] = cl.Name
		for _, in := range cl.Interfaces {
			k := [2]string{in.Kind, in.Name}
			c.declaredBy[k] = append(c.declaredBy[k], cl.Dir)
		}
	}
	return c
}

func (c *checker) add(d Diagnostic) { c.r.Diagnostics = append(c.r.Diagnostics, d) }

// addFor adds what the charm in dir reports: an integration test's dummy charm is a fixture,
// never shipped, often declared loosely on purpose, and no reason to fail the real charm's
// pipeline, so its findings are infos, wherever the file is (shared code too).
func (c *checker) addFor(dir string) func(Diagnostic) {
	if !testCharm(dir) {
		return c.add
	}
	return func(d Diagnostic) {
		if d.Severity != SeverityInfo {
			d.Severity = SeverityInfo
			d.Message += " (in a test charm)"
		}
		c.add(d)
	}
}

// countDynamic counts an unresolved site against the charm in dir, by the interface kinds it
// may name.
func (c *checker) countDynamic(dir string, s linker.Site) {
	if c.dynamic[dir] == nil {
		c.dynamic[dir] = map[string]int{}
	}
	for _, k := range dynamicKinds(s) {
		c.dynamic[dir][k]++
	}
}

// unresolvedSites reports each name no code could resolve, an info at its site, and counts it
// against the charm whose folder holds it, or, in shared code, each charm whose code reaches
// it (it may be one of theirs).
func (c *checker) unresolvedSites() {
	for _, s := range c.links.Unresolved {
		c.add(Diagnostic{Rule: RuleUnresolvedName, Severity: SeverityInfo, File: s.File, Line: s.Line, Subject: s.Detail,
			Message: fmt.Sprintf("%s uses a name that cannot be resolved statically (%s); what it names is not checked", who(s.Symbol), cmp.Or(s.Detail, "expression unknown"))})
		c.countDynamic(charmDirOf(s.File, c.dirs), s)
	}
	for _, cl := range c.links.Charms {
		for _, s := range cl.Unresolved {
			if charmDirOf(s.File, c.dirs) != "" {
				continue // counted above, for the charm whose folder holds it
			}
			c.countDynamic(cl.Dir, s)
		}
	}
}

// ownUnread returns the charm's own Python files left unread (lostFor), which may have held
// its charm class.
func (c *checker) ownUnread(cl linker.CharmLinks) []string {
	return slices.DeleteFunc(lostFor(c.opt.Unread, cl.Dir, c.dirs), func(p string) bool { return charmDirOf(p, c.dirs) != cl.Dir })
}

// findings words and grades the linker's findings of one charm.
func (c *checker) findings(cl linker.CharmLinks, unread []string) {
	add := c.addFor(cl.Dir)
	decl := c.byDir[cl.Dir]
	// no charm class, @hooks.hook function, reactive handler or hooks/ code of its own, and
	// nothing unread: no code of the tree runs as this charm (a library's repository with a
	// placeholder charmcraft.yaml, whose classes take their names from the charms that use them)
	runsNothing := cl.NoCode && cl.Classic == "" && cl.Reactive == "" && cl.UnlinkedCode == "" && len(unread) == 0
	for _, f := range cl.Findings {
		kind, undeclared := undeclaredKinds[f.Kind]
		shared := charmDirOf(f.File, c.dirs) != cl.Dir
		if undeclared && f.Conditional && shared &&
			slices.ContainsFunc(c.declaredBy[[2]string{kind, f.Subject}], func(d string) bool { return d != cl.Dir }) {
			continue // shared code, serving the sibling charm that declares it (see Decisions)
		}
		d := findingDiagnostic(f)
		if f.Kind == linker.FindUndeclaredConfig && f.Detail == "get" && d.Severity == SeverityError && shared {
			// an option shared code reads with .get(), which tolerates its absence, and a
			// sibling charm declares: an opt-in the charm leaves out (sunbeam's
			// experimental-devmode), a feature it lacks by design, not a crash nor a
			// mistake to fail a --strict pipeline on (the same read under a condition is
			// not reported at all: see the first test of this loop)
			if by := siblingNames(c.declaredBy[[2]string{linker.KindConfig, f.Subject}], cl.Dir, c.nameOf); len(by) > 0 {
				d.Severity = SeverityInfo
				d.Message += fmt.Sprintf(" (in code shared with charms that declare it: %s)", firstFew(by))
			}
		}
		if m := misfiled(decl, kind, f.Subject); m != nil {
			// the cause, where the author will look for it: the declaration is there, under a
			// key Juju ignores (the yaml-problem warning at the key says so once)
			meant := fmt.Sprintf("%q", m.Section)
			if m.Key == "options" { // config.yaml's shape in metadata.yaml or charmcraft.yaml
				meant = `"options" under "config"`
			}
			d.Message += fmt.Sprintf(" (%s:%d has it under %q, a key Juju ignores; %s would declare it)", m.File, m.Line, m.Key, meant)
		} else if hint := declaredInstead(decl, f); hint != "" {
			d.Message += " (" + hint + ")"
		}
		if lost := lostHolders(decl, kind); len(lost) > 0 {
			// the declaration may be in what could not be read: the yaml-problem error says so
			d.Severity = SeverityInfo
			d.Message += fmt.Sprintf(" (%s could not be read whole and may declare it)", strings.Join(lost, ", "))
		} else if decl != nil && decl.Layer && kind != "" && d.Severity != SeverityInfo && !nearDeclared(decl, kind, f.Subject) && !f.Joined {
			// a layer's code runs in the charms that include it, whose YAML is merged with
			// the layer's (a misspelt name, near a declared one, stays)
			d.Severity = SeverityInfo
			d.Message = mayBeDeclared(strings.Replace(d.Message, "the charm's YAML does not declare", "the layer's YAML does not declare", 1)) +
				" (a layer: the charms that include it may declare it)"
		} else if layers := includedLayers(decl, kind, f.Subject); layers != "" && kind != "" && d.Severity != SeverityInfo &&
			!nearDeclared(decl, kind, f.Subject) && !f.Joined {
			// (a flag joined from two literals names no option any layer declares: it stays)
			// `charm build` merges the included layers' YAML into the charm's
			if f.Kind == linker.FindUndeclaredConfig && f.Registered != "" {
				// a handler of an option's flag that a layer declares (layer:nagios's
				// nagios_context) runs as written: nothing to say (a misspelt one, near a
				// declared option, stays)
				continue
			}
			d.Severity = SeverityInfo
			d.Message = mayBeDeclared(d.Message) + fmt.Sprintf(" (layer.yaml includes %s, whose YAML the built charm merges in and may declare it)", layers)
		}
		if undeclared && len(c.links.Charms) > 1 && shared && !testCharm(cl.Dir) {
			// shared code: one diagnostic, where first found, naming the charms it is held against
			if _, seen := c.heldBy[d]; !seen {
				add(d)
			}
			c.heldBy[d] = append(c.heldBy[d], cl.Name)
			continue
		}
		if runsNothing && d.Severity != SeverityInfo {
			d.Severity = SeverityInfo
			d.Message += fmt.Sprintf(" (charm %q has no charm class, hook or reactive handler that would run it)", cl.Name)
		}
		add(d)
	}
}

// unchecked reports a charm with no charm class, no hook functions and no reactive handlers (a
// unit test's fixture YAML, say; nothing could handle anything). A charm with code of its own
// runs its hooks some other way: say that it was not checked. One whose own code was not read
// may have lost its charm class: it was not checked either, which CI must see.
func (c *checker) unchecked(cl linker.CharmLinks, unread []string) {
	add := c.addFor(cl.Dir)
	ch := c.byDir[cl.Dir]
	if ch == nil {
		return
	}
	// the charm by its name, at its name's line; a layer (no name of its own), or a charm
	// whose name line was lost, at its layer.yaml, else its first file: a SARIF result with
	// no location makes GitHub's code scanning refuse the whole upload (rev91)
	who, file, line := fmt.Sprintf("charm %q", cl.Name), ch.NameAt.File, ch.NameAt.Line
	switch {
	case ch.Layer:
		who = layerName(ch.Dir)
	case cl.Name == "":
		who = fmt.Sprintf("the charm in %q", ch.Dir)
	}
	if file == "" && len(ch.Files) > 0 {
		file, line = ch.Files[0], 1
		if i := slices.IndexFunc(ch.Files, func(f string) bool { return path.Base(f) == charmyaml.LayerFile }); i >= 0 {
			file = ch.Files[i]
		}
	}
	switch {
	case len(unread) > 0 && !testCharm(cl.Dir):
		add(Diagnostic{Rule: RuleUnreadCode, Severity: ruleSeverity(RuleUnreadCode), File: file, Line: line, Subject: unread[0],
			Message: fmt.Sprintf("%s has no charm class, @hooks.hook function or reactive handler that could be read: %s, so its YAML was not checked against its code", who, lostNames(unread))})
	case cl.UnlinkedCode != "":
		add(Diagnostic{Rule: RuleUnlinkedCode, Severity: SeverityInfo, File: file, Line: line, Subject: cl.UnlinkedCode,
			Message: fmt.Sprintf("%s has code (%s) but no charm class, @hooks.hook function or reactive handler: its hooks are dispatched in a way the linker does not follow, so its YAML is not checked against its code", who, cl.UnlinkedCode)})
	case cl.ShellCode != "":
		// hooks in shell (a charm older than ops, a bash reactive layer): what runs is
		// not Python, and a report of no findings would read as "checked"
		add(Diagnostic{Rule: RuleUnlinkedCode, Severity: SeverityInfo, File: file, Line: line, Subject: cl.ShellCode,
			Message: fmt.Sprintf("%s runs code that is not Python (%s), which the linker does not read: its YAML is not checked against its code", who, cl.ShellCode)})
	}
}

// interfaces checks each interface of a charm with code against its handlers and reads
// (checkInterface), and reports, one info each, the objects built and the early returns under
// a condition that registering handlers depends on.
func (c *checker) interfaces(cl linker.CharmLinks) {
	add := c.addFor(cl.Dir)
	built := map[construction][]string{}      // what its object's handlers handle
	builtCls := map[construction]string{}     // the class built there
	builtFiles := map[construction][]string{} // the files of its handlers
	// the same for the handlers registered after an early return (at: the return)
	after, afterFiles, afterN := map[construction][]string{}, map[construction][]string{}, map[construction]int{}
	// a charm whose code observes nothing reconciles in __init__ on every hook (and action)
	// (a classic charm has no __init__: its hook functions run by name)
	observesNothing := cl.Classic == "" && !slices.ContainsFunc(cl.Interfaces, func(in linker.Interface) bool {
		return slices.ContainsFunc(in.Handlers, func(h linker.Handler) bool { return !h.Vendored })
	})
	lost := lostFor(c.opt.Lost, cl.Dir, c.dirs)
	for _, in := range cl.Interfaces {
		checkInterface(c.byDir[cl.Dir], in, c.dynamic[cl.Dir][in.Kind], lost, cl.Reactive, cl.Classic, observesNothing, add)
		what := fmt.Sprintf("%s %q", in.Kind, in.Name)
		for _, h := range in.Handlers {
			if h.BuiltFile != "" && h.BuiltAfterReturn == 0 { // the charm's own code builds it (a library's object too)
				at := construction{h.BuiltFile, h.BuiltLine}
				if builtCls[at] == "" {
					builtCls[at] = h.BuiltClass
				}
				built[at] = appendNew(built[at], what)
				builtFiles[at] = appendNew(builtFiles[at], h.File)
			}
			// after a fast exit: registered there, or by an object built there
			if at := (construction{h.ObserveFile, h.AfterReturn}); h.AfterReturn > 0 && h.BuiltFile == "" && h.Conditional && !h.Vendored ||
				h.BuiltFile != "" && h.BuiltAfterReturn > 0 {
				if h.BuiltFile != "" {
					at = construction{h.BuiltFile, h.BuiltAfterReturn}
				}
				afterN[at]++
				after[at] = appendNew(after[at], what)
				afterFiles[at] = appendNew(afterFiles[at], h.File)
			}
		}
	}
	// one info per construction or early return, the report sorted by finish; in shared code,
	// checked with each charm importing it, one per charm, merged by sharedConstructions
	report := func(at construction, files []string, msg string) {
		d := Diagnostic{Rule: RuleHandlerConditional, Severity: SeverityInfo, File: at.file, Line: at.line,
			Subject: at.file + ":" + strconv.Itoa(at.line), Message: msg}
		if charmDirOf(at.file, c.dirs) != cl.Dir {
			c.sharedBuilt[d.Subject] = append(c.sharedBuilt[d.Subject], charmDiagnostic{cl.Name, d, files})
			return
		}
		add(d)
	}
	for at, what := range after {
		handlers := "a handler"
		if afterN[at] > 1 {
			handlers = fmt.Sprintf("%d handlers", afterN[at])
		}
		report(at, afterFiles[at], fmt.Sprintf("returns here under a condition before registering %s (of %s): they are registered only when it does not",
			handlers, firstFew(what)))
	}
	for at, what := range built {
		report(at, builtFiles[at], fmt.Sprintf("%s is built here only under a condition: its handlers of %s are registered only then",
			cmp.Or(builtCls[at], "an object"), firstFew(what)))
	}
}

// appendNew appends s to list unless it is there.
func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// sharedConstructions adds the reports of constructions in shared code: one report when every
// charm sees the same, and one per charm, naming it, when they differ (container "kafka" only
// in the k8s charm) or when some charm does not see it under a condition at all.
func (c *checker) sharedConstructions() {
	users := map[string]map[string]bool{} // handler file → the charms with a handler there
	for _, cl := range c.links.Charms {
		for _, in := range cl.Interfaces {
			for _, h := range in.Handlers {
				if users[h.File] == nil {
					users[h.File] = map[string]bool{}
				}
				users[h.File][cl.Name] = true
			}
		}
	}
	for _, ds := range c.sharedBuilt {
		using := map[string]bool{} // the charms running those handlers, conditionally or not
		for _, cd := range ds {
			for _, f := range cd.files {
				maps.Copy(using, users[f])
			}
		}
		if len(ds) == len(using) && !slices.ContainsFunc(ds, func(cd charmDiagnostic) bool { return cd.d.Message != ds[0].d.Message }) {
			c.add(ds[0].d)
			continue
		}
		for _, cd := range ds {
			cd.d.Message += fmt.Sprintf(" (in charm %s)", cd.charm)
			c.add(cd.d)
		}
	}
}

// finish sorts the report, names the charms a shared finding is held against, drops
// duplicates and what a comment silences, folds copies, applies Strict and counts.
func (c *checker) finish() Report {
	r := c.r
	slices.SortFunc(r.Diagnostics, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Subject, b.Subject), cmp.Compare(a.Message, b.Message))
	})
	for i, d := range r.Diagnostics {
		if names, ok := c.heldBy[d]; ok {
			r.Diagnostics[i].Message += " (in " + charmList(names) + ")"
		}
	}
	src := &sources{lines: c.opt.Lines}
	r.Diagnostics = slices.DeleteFunc(slices.Compact(r.Diagnostics), func(d Diagnostic) bool {
		if src.silenced(d) {
			r.Summary.Suppressed++
			return true
		}
		return false
	})
	r.Diagnostics = foldCopies(r.Diagnostics, c.dirs)
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		if c.opt.Strict && d.Severity == SeverityWarning {
			d.Severity = SeverityError
		}
		switch d.Severity {
		case SeverityError:
			r.Summary.Errors++
		case SeverityWarning:
			r.Summary.Warnings++
		default:
			r.Summary.Infos++
		}
	}
	r.Summary.Unresolved = len(c.links.Unresolved)
	return r
}

// mayBeDeclared drops from a finding's message what follows from the name being undeclared
// (": it always finds nothing", ": it never runs for it", up to a hint in brackets), for a
// name that YAML the charm merges in at build time may declare.
func mayBeDeclared(msg string) string {
	const undeclared = "does not declare"
	i := strings.Index(msg, undeclared+": ")
	if i < 0 {
		return msg
	}
	head, rest := msg[:i+len(undeclared)], msg[i+len(undeclared)+2:]
	if j := strings.Index(rest, " ("); j >= 0 {
		return head + rest[j:]
	}
	return head
}

// includedLayers lists, for a charm built with `charm build`, the layers its layer.yaml
// includes that may declare a kind k interface named name ("layer:openstack-api"; interface
// layers add code, not declarations, and so do the base layers of layerDeclares), the first
// four and how many more (firstFew); "" for none.
func includedLayers(ch *charmyaml.Charm, k, name string) string {
	if ch == nil {
		return ""
	}
	var out []string
	for _, l := range ch.Layers {
		if decl, known := layerDeclares[l.Name]; strings.HasPrefix(l.Name, "layer:") && (!known || decl == [2]string{k, name}) {
			out = append(out, l.Name)
		}
	}
	return firstFew(out)
}

// layerDeclares are base layers whose YAML, read at their source, declares nothing (the zero
// value) or one interface (kind and name): layer:basic's metadata.yaml is {}, layer:version's
// declares no interface, layer:status, layer:options and layer:leadership have no YAML,
// layer:debug declares its action debug.
// They cannot declare what a charm including them uses, so they do not soften the finding.
var layerDeclares = map[string][2]string{
	"layer:basic": {}, "layer:status": {}, "layer:options": {}, "layer:leadership": {}, "layer:version": {},
	"layer:debug": {linker.KindAction, "debug"},
}

// nearDeclared reports a name one or two letters from a name the charm declares of that kind
// ("prot" beside "port"): a typo, whatever layers the charm includes. Relations, options,
// actions, resources and storage: the kinds a layer's YAML declares.
func nearDeclared(ch *charmyaml.Charm, kind, name string) bool {
	switch kind {
	case linker.KindConfig, linker.KindRelation, linker.KindAction, linker.KindResource, linker.KindStorage:
		// (a resource or storage a letter or two from the charm's own is its typo, whatever a
		// layer declares: rev109's keystone-saml-mellon idp-metaadta)
	default:
		return false
	}
	return slices.ContainsFunc(declaredNames(ch, kind), func(n string) bool {
		return charmyaml.EditDistance(n, name) <= typoDistance(n)
	})
}

// typoDistance is how many edits from a declared name n another name is still taken for a typo
// of it: "prot" for "port"; not "db" for "mq".
func typoDistance(n string) int { return min(2, max(len(n)-2, 0)) }

// declaredNames are the names of kind (a relation, config option, action, container, storage
// or resource) the charm ch declares, in YAML order.
func declaredNames(ch *charmyaml.Charm, kind string) []string {
	var names []string
	switch kind {
	case linker.KindConfig:
		for _, o := range ch.Config {
			names = append(names, o.Name)
		}
	case linker.KindRelation:
		for _, r := range ch.Relations {
			names = append(names, r.Name)
		}
	case linker.KindAction:
		for _, a := range ch.Actions {
			names = append(names, a.Name)
		}
	case linker.KindContainer:
		for _, c := range ch.Containers {
			names = append(names, c.Name)
		}
	case linker.KindStorage:
		for _, s := range ch.Storage {
			names = append(names, s.Name)
		}
	case linker.KindResource:
		for _, r := range ch.Resources {
			names = append(names, r.Name)
		}
	}
	return names
}

// declaredInstead is what the charm ch declares that the undeclared name of finding f
// probably meant, for the finding to say: the interface of exactly one relation endpoint used
// as its name (`"vault-kv" is the interface of relation "vault"`), or the one declared name of
// its kind (an action parameter: of the action it reads for) nearest to it, spelt with '-' for
// '_' or a letter or two off (`did you mean "port"?`); "" when there is none, or two are
// equally near.
func declaredInstead(ch *charmyaml.Charm, f linker.Finding) string {
	name, kind := f.Subject, undeclaredKinds[f.Kind]
	if ch == nil || name == "" {
		return ""
	}
	var names []string
	switch {
	case f.Kind == linker.FindUndeclaredParam && len(f.Actions) == 1:
		for _, a := range ch.Actions {
			if a.Name == f.Actions[0] {
				for _, p := range a.Params {
					names = append(names, p.Name)
				}
			}
		}
	case f.Kind == linker.FindUnknownEvent && f.Events != nil:
		names = f.Events
	case f.Kind == linker.FindUnknownEvent && f.Registered != "":
		for _, n := range linker.EventNames(ch) { // a hook's name: db-relation-changed
			names = append(names, strings.ReplaceAll(n, "_", "-"))
		}
	case f.Kind == linker.FindUnknownEvent:
		names = linker.EventNames(ch)
	case kind == "":
		return ""
	default:
		if kind == linker.KindRelation {
			var by []string
			for _, r := range ch.Relations {
				if r.Interface == name {
					by = append(by, r.Name)
				}
			}
			if len(by) == 1 {
				return fmt.Sprintf("%q is the interface of relation %q", name, by[0])
			}
		}
		names = declaredNames(ch, kind)
	}
	fold := func(s string) string { return strings.ReplaceAll(s, "_", "-") }
	best, bestDist, tied := "", 0, false
	for _, n := range names {
		dist := charmyaml.EditDistance(fold(n), fold(name))
		if f.Kind == linker.FindUnknownEvent && oneWordMore(n, name) {
			dist = 1 // cos_agent_joined for cos_agent_relation_joined
		}
		if n == name || dist > typoDistance(n) {
			continue
		}
		switch {
		case best == "" || dist < bestDist:
			best, bestDist, tied = n, dist, false
		case dist == bestDist && n != best:
			tied = true
		}
	}
	if best == "" || tied {
		return ""
	}
	return fmt.Sprintf("did you mean %q?", best)
}

// oneWordMore reports whether event name n is name with one more '_'-separated word
// (cos_agent_relation_joined of cos_agent_joined, workload_pebble_ready of workload_ready).
func oneWordMore(n, name string) bool {
	a, b := strings.Split(n, "_"), strings.Split(name, "_")
	if len(a) != len(b)+1 {
		return false
	}
	for i := range a {
		if slices.Equal(slices.Concat(a[:i], a[i+1:]), b) {
			return true
		}
	}
	return false
}

// checkYAML applies the rules that need only the declarations.
func checkYAML(ch charmyaml.Charm, add func(Diagnostic)) {
	for _, a := range ch.Actions {
		if a.Extension == "" && strings.Contains(a.Name, "_") {
			add(Diagnostic{Rule: RuleActionNameUnderscore, Severity: SeverityWarning, File: a.File, Line: a.Line, Subject: a.Name,
				Message: fmt.Sprintf("action %q has '_' in its name; Juju convention is %q", a.Name, strings.ReplaceAll(a.Name, "_", "-"))})
		}
	}
	for _, w := range ch.Warnings {
		files := slices.Concat(ch.Files, ch.Incomplete)
		if d := ch.Dir; d != "." && d != "" && strings.HasPrefix(w, d+"/") {
			// a file of the charm's folder its YAML files do not list (a misnamed actions.yml):
			// its name, up to the first colon after the folder's, which may hold spaces (rev92)
			if name, _, ok := strings.Cut(w[len(d)+1:], ":"); ok && !strings.Contains(name, "/") {
				files = append(files, d+"/"+name)
			}
		}
		file, line, msg := splitWarning(w, files...)
		sev := SeverityWarning
		if slices.Contains(ch.Incomplete, file) { // declarations lost: what the charm offers is unknown
			sev = SeverityError
		}
		who := fmt.Sprintf("charm %q", ch.Name)
		switch {
		case ch.Layer:
			who = layerName(ch.Dir)
		case ch.Name == "": // its name was in what could not be read
			who = fmt.Sprintf("the charm in %q", ch.Dir)
		}
		add(Diagnostic{Rule: RuleYAMLProblem, Severity: sev, File: file, Line: line, Subject: ch.Name,
			Message: fmt.Sprintf("%s: %s", who, msg)})
	}
}

// layerName names the reactive layer in dir: "the layer" at the root, the layer in a folder
// otherwise (a layer has no name of its own).
func layerName(dir string) string {
	if dir == "." || dir == "" {
		return "the layer"
	}
	return fmt.Sprintf("the layer in %q", dir)
}

// splitWarning splits a charmyaml warning "file:line: message" (or "file: message"). files
// are the charm's own files, matched first whole: a folder named with a space or a colon
// ("charms/my charm/config.yaml:10: ...") is not cut inside its name (rev91: the problem lost
// its place, and an unreadable file's error became a warning).
func splitWarning(w string, files ...string) (file string, line int, msg string) {
	for _, f := range files {
		rest, ok := strings.CutPrefix(w, f+":")
		if !ok {
			continue
		}
		if m, ok := strings.CutPrefix(rest, " "); ok {
			return f, 0, m
		}
		if l, m, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(l); err == nil {
				return f, n, m
			}
		}
	}
	loc, rest, ok := strings.Cut(w, ": ")
	if !ok || strings.ContainsAny(loc, " \t") {
		return "", 0, w
	}
	if f, l, ok := strings.Cut(loc, ":"); ok {
		if n, err := strconv.Atoi(l); err == nil {
			return f, n, rest
		}
	}
	return loc, 0, rest
}

// checkUnusedParams reports each parameter of an action whose handler never looks at the
// event's params (linker Interface.ParamsUnread), at its declaration.
func checkUnusedParams(decl *charmyaml.Charm, in linker.Interface, add func(Diagnostic)) {
	if in.ParamsUnread == "" || decl == nil {
		return
	}
	i := slices.IndexFunc(decl.Actions, func(a charmyaml.Action) bool { return a.Name == in.Name })
	if i < 0 {
		return
	}
	for _, p := range decl.Actions[i].Params {
		msg := fmt.Sprintf("action %q declares parameter %q, but its handler %s never reads event.params: the value an operator gives is ignored", in.Name, p.Name, in.ParamsUnread)
		if len(in.ParamsNotRead) > 0 {
			if !slices.Contains(in.ParamsNotRead, p.Name) {
				continue
			}
			msg = fmt.Sprintf("action %q declares parameter %q, but its handler %s reads only %s: the value an operator gives for %q is ignored", in.Name, p.Name, in.ParamsUnread, paramsRead(in), p.Name)
			if slices.Contains(decl.Actions[i].Required, p.Name) {
				msg += " (and it is required)"
			}
		}
		add(Diagnostic{Rule: RuleUnusedParam, Severity: ruleSeverity(RuleUnusedParam), File: cmp.Or(p.File, in.File), Line: cmp.Or(p.Line, in.Line),
			Subject: in.Name + "." + p.Name, Message: msg})
	}
}

// paramsRead lists the parameters an action's code reads (its param-read sites' keys), in
// order, quoted.
func paramsRead(in linker.Interface) string {
	var keys []string
	for _, s := range in.Reads {
		if s.Via == linker.ViaParam && !slices.Contains(keys, s.Key) {
			keys = append(keys, s.Key)
		}
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = strconv.Quote(k)
	}
	return firstFew(keys)
}

// siblingNames are the names of the charms in dirs other than dir, sorted.
func siblingNames(dirs []string, dir string, nameOf map[string]string) []string {
	var out []string
	for _, d := range dirs {
		if d != dir {
			out = append(out, nameOf[d])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// firstFew joins the first four items, and says how many more there are.
func firstFew(items []string) string {
	if len(items) <= 4 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:4], ", ") + fmt.Sprintf(" and %d more", len(items)-4)
}

// checkInterface applies the rules that read one interface's links. decl is the charm's
// declarations (nil when the linker knows a charm that charmyaml does not); dynamic counts
// the charm's unresolved sites that could name an interface of this kind; lost are the
// Python files that could not be read and may be the charm's (lostFor).
func checkInterface(decl *charmyaml.Charm, in linker.Interface, dynamic int, lost []string, reactive, classic string, observesNothing bool, add func(Diagnostic)) {
	for _, h := range in.Handlers {
		// a handler conditional only because its object is built under a condition, or because
		// its observe call follows an early return, is reported once, at the construction or
		// the return (Run)
		if h.Conditional && !h.Vendored && h.BuiltFile == "" && h.AfterReturn == 0 {
			file, line := cmp.Or(h.ObserveFile, h.File), h.Line
			if h.ObserveFile != "" {
				line = h.ObserveLine
			}
			add(Diagnostic{Rule: RuleHandlerConditional, Severity: SeverityInfo, File: file, Line: line, Subject: in.Name,
				Message: fmt.Sprintf("%s handles %s %q (%s) only under a condition", h.Symbol, in.Kind, in.Name, h.Event)})
		}
	}
	var rule, what string
	var catchAll *linker.Handler // the relation's only handlers are catch-alls: this is the first
	switch in.Kind {
	case linker.KindRelation:
		rule, what = RuleUnhandledRelation, "no code observes, binds or looks up relation"
		if extension(decl, in) != "" || attachesSubordinate(decl, in) || appIntegration(decl, in) || readByCode(in) {
			return
		}
		if len(in.Handlers) > 0 {
			if slices.ContainsFunc(in.Handlers, func(h linker.Handler) bool { return !h.CatchAll }) {
				return
			}
			catchAll = &in.Handlers[0]
		}
	case linker.KindAction:
		rule, what = RuleUnhandledAction, "no code observes action"
		checkUnusedParams(decl, in, add)
		checkParamIndex(decl, in, add)
		if t := in.NotInTable; t != nil && len(in.Handlers) == 0 {
			// its script dispatches through a table that maps the other actions, not this one
			add(Diagnostic{Rule: rule, Severity: ruleSeverity(rule), File: in.File, Line: in.Line, Subject: in.Name,
				Message: fmt.Sprintf("action %q is run by its script %s, whose table %s (line %d) maps other actions but not this one: the script finds no function for it and fails",
					in.Name, in.Script, t.Key, t.Line)})
			return
		}
		if extension(decl, in) != "" || len(in.Handlers) > 0 || in.Script != "" {
			return
		}
	case linker.KindConfig:
		if extension(decl, in) != "" {
			return
		}
		if reactive == "" && classic == "" {
			// charm-helpers' config() (classic and reactive charms) holds every option, an
			// unset one as None (config-get --all): only ops omits it
			checkConfigIndex(decl, in, add)
		}
		rule, what = RuleUnusedConfig, "no code reads config option"
		if readByCode(in) ||
			decl != nil && decl.AppFramework() != "" { // a 12-factor app reads every option
			return
		}
	default:
		return
	}
	d := Diagnostic{Rule: rule, Severity: ruleSeverity(rule), File: in.File, Line: in.Line, Subject: in.Name,
		Message: fmt.Sprintf("%s %q", what, in.Name)}
	verb := "read" // what an outside package may do with it
	if in.Kind == linker.KindAction || in.Kind == linker.KindRelation {
		verb = "handle"
	}
	handlerVerb := verb // what code the check could not follow may do with it
	if in.Kind == linker.KindRelation {
		handlerVerb = "handle"
	}
	if catchAll != nil {
		// a handler observing every relation (a reconciler's, or one registered in a loop
		// over them) runs on its events, but no code names it nor reads its data: declared for
		// later, or left over; the same code may serve it without naming it, so only an info
		d.Severity = SeverityInfo
		d.Message = fmt.Sprintf("no code binds or looks up relation %q, nor observes it by name (only %s, observed for every relation at %s:%d, runs on its events)",
			in.Name, catchAll.Symbol, cmp.Or(catchAll.ObserveFile, catchAll.File), cmp.Or(catchAll.ObserveLine, catchAll.Line))
	} else if said := retired(decl, in); said != "" {
		// the author says so: an option kept, unread, so that existing deployments that set
		// it do not fail on refresh (postgresql's "DEPRECATED and ignored.", grafana's
		// web_external_url) is no mistake to fix
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (its description: %q)", said)
	} else if len(lost) > 0 {
		// code we could not read comes first: nothing else can be said of what it does
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (%s and may %s it)", lostNames(lost), handlerVerb)
	} else if reactive != "" {
		// flags, set by layers mostly outside the tree, run a reactive charm's handlers
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (a reactive charm, importing charms.reactive at %s: handlers of flags its layers set may %s it)", reactive, handlerVerb)
	} else if dynamic > 0 && classic != "" {
		// a classic charm's own unresolved reads of this kind say more than its kind does
		// (config('os-{}-network'.format(addr_type)) in keystone's cluster_joined)
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (%s in this charm could not be resolved and may name it)", plural(dynamic, "dynamic name"))
	} else if classic != "" && in.Kind != linker.KindAction {
		// a classic charm hands its whole configuration to templates and charm-helpers
		// contexts, and may run hooks from scripts that are not Python (an action runs from
		// its actions/<name> script only, which it lacks)
		d.Severity = SeverityInfo
		how := "registering charm-helpers hooks at"
		if f, _, _ := strings.Cut(classic, ":"); charmyaml.HookScriptName(f) {
			how = "with hook scripts such as" // hooks/config-changed:1
			classic = f
		}
		d.Message += fmt.Sprintf(" (a classic charm, %s %s: its templates, contexts given the whole configuration, or hooks it does not follow (scripts that are not Python) may %s it)", how, classic, handlerVerb)
	} else if pkg := featurePackage(in); pkg != nil {
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (package %s, imported at %s:%d, is named after it and may handle it)", pkg.Detail, pkg.File, pkg.Line)
	} else if in.Kind == linker.KindAction && observesNothing {
		d.Severity = SeverityInfo
		d.Message += " (the charm observes no event: every hook, an action's too, runs its __init__)"
	} else if dynamic > 0 {
		// the charm's own unresolved reads of this kind come first: they are in the tree, and
		// more often the reader than an outside class (ceph-dashboard reads its options as
		// self.config[option.charm_option_name], and derives from ops_openstack's OSBaseCharm)
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (%s in this charm could not be resolved and may name it)", plural(dynamic, "dynamic name"))
	} else if base := firstRead(in, linker.ViaBase); base != nil {
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (%s at %s:%d derives from %s, a charm class from outside the tree, which may %s it)", base.Symbol, base.File, base.Line, base.Detail, handlerVerb)
	} else if del := delegate(in); del != nil {
		d.Severity = SeverityInfo
		d.Message += fmt.Sprintf(" (%s builds an object of package %s with the charm at %s:%d, which may %s it)", del.Symbol, del.Detail, del.File, del.Line, verb)
	}
	add(d)
}

// lostFor are the lost paths that may hold code of the charm in dir: under dir, or under no
// charm's folder (code the charms share), and not tests. dirs are every charm's folder.
func lostFor(lost []string, dir string, dirs []string) []string {
	var out []string
	for _, p := range lost {
		if testCharm(p) {
			continue // a test does not run in the charm
		}
		if d := charmDirOf(p, dirs); d == dir || d == "" {
			out = append(out, p)
		}
	}
	return out
}

// lostNames says which files were lost, for a message: the first, and how many more.
func lostNames(lost []string) string {
	if len(lost) == 1 {
		return lost[0] + " was not read"
	}
	return fmt.Sprintf("%s and %d more were not read", lost[0], len(lost)-1)
}

// readByCode reports a read or lookup of the interface by the charm's code, not only the
// import of a package named after it (featurePackage).
func readByCode(in linker.Interface) bool {
	return slices.ContainsFunc(in.Reads, func(s linker.Site) bool {
		return s.Via != linker.ViaPackage && s.Via != linker.ViaDelegate && s.Via != linker.ViaBase
	})
}

// delegate is the construction of an object from a package outside the tree that is given the
// charm, and so may read an option no code reads or handle an action no code handles (linker
// linkDelegates), or nil.
func delegate(in linker.Interface) *linker.Site { return firstRead(in, linker.ViaDelegate) }

// featurePackage is the first import of a package named after an action, relation or config
// option that no code handles or reads (linker linkFeaturePackages: charm_refresh for pre-refresh-check), or nil.
func featurePackage(in linker.Interface) *linker.Site { return firstRead(in, linker.ViaPackage) }

// firstRead is the interface's first read made via, or nil.
func firstRead(in linker.Interface, via string) *linker.Site {
	for i := range in.Reads {
		if in.Reads[i].Via == via {
			return &in.Reads[i]
		}
	}
	return nil
}

// checkConfigIndex reports `config["x"]` reads of an option that has no default. A loose read
// (`for option in OPTIONS: ... config[option]`) is not reported: which options reach it, and
// under which checks, the linker does not follow.
func checkConfigIndex(decl *charmyaml.Charm, in linker.Interface, add func(Diagnostic)) {
	if decl == nil {
		return
	}
	i := slices.IndexFunc(decl.Config, func(o charmyaml.ConfigOption) bool { return o.Name == in.Name })
	if i < 0 || decl.Config[i].HasDefault {
		return
	}
	// code that also reads the option with .get(), or tests for it ("x" in config), knows it
	// may be unset, and usually checks it before the index (ldap-integrator's config_ready()
	// returns early on a missing bind_password): a check the linker does not follow
	checked := indexChecks(in.Reads, func(s linker.Site) (string, bool) { return "", s.Via == linker.ViaConfig })[""]
	for _, s := range in.Reads {
		if s.Detail != "index" || s.Loose {
			continue
		}
		d := Diagnostic{Rule: RuleConfigNoDefaultIndex, Severity: SeverityWarning, File: s.File, Line: s.Line, Subject: in.Name,
			Message: fmt.Sprintf("%s reads config[%q], which has no default and raises KeyError while unset; use .get() or declare a default", who(s.Symbol), in.Name)}
		softenIndex(&d, s, "option", checked)
		add(d)
	}
}

// indexChecks is, per name (key: a read's name, and whether it counts), how the code also
// reads it other than by index: "read with .get()", else "tested for" ("x" in config, an
// assert of it). Code that does knows the name may be missing and usually checks it first.
func indexChecks(reads []linker.Site, key func(linker.Site) (string, bool)) map[string]string {
	checked := map[string]string{}
	for _, s := range reads {
		k, ok := key(s)
		switch {
		case !ok:
		case s.Detail == "get":
			checked[k] = "read with .get()"
		case (s.Detail == "in" || s.Detail == "assert") && checked[k] == "":
			checked[k] = "tested for"
		}
	}
	return checked
}

// softenIndex makes the diagnostic of an index read an info when the read runs only under a
// condition (which may guard it; not after an early return under a condition that tests
// something else, nor in a leader's body: the function's usual path, AfterGuard, rev109's
// parca), or when the name (what: option, parameter) is also checked (indexChecks).
func softenIndex(d *Diagnostic, s linker.Site, what, checked string) {
	switch {
	case s.Conditional && !s.AfterGuard:
		d.Severity = SeverityInfo
		d.Message += " (the read is under a condition, which may guard it)"
	case checked != "":
		d.Severity = SeverityInfo
		d.Message += " (the " + what + " is also " + checked + ", which may check it first)"
	}
}

// checkParamIndex reports the reads by index (params["name"]) of an action's parameter that
// the action neither requires nor gives a default: Juju leaves it out of the params when the
// operator does, and the index raises KeyError (review rev103: identity-platform-admin-ui's
// create-identity password). As for options (checkConfigIndex), an info when the read is under
// a condition or the parameter is also read with .get() or tested for.
func checkParamIndex(decl *charmyaml.Charm, in linker.Interface, add func(Diagnostic)) {
	if decl == nil {
		return
	}
	i := slices.IndexFunc(decl.Actions, func(a charmyaml.Action) bool { return a.Name == in.Name })
	if i < 0 {
		return
	}
	act := decl.Actions[i]
	optional := map[string]bool{}
	for _, p := range act.Params {
		if !p.HasDefault && !slices.Contains(act.Required, p.Name) {
			optional[p.Name] = true
		}
	}
	checked := indexChecks(in.Reads, func(s linker.Site) (string, bool) { return s.Key, s.Via == linker.ViaParam && optional[s.Key] })
	for _, s := range in.Reads {
		if s.Via != linker.ViaParam || s.Detail != "index" || s.Loose || !optional[s.Key] {
			continue
		}
		d := Diagnostic{Rule: RuleParamNoDefaultIndex, Severity: SeverityWarning, File: s.File, Line: s.Line, Subject: in.Name,
			Message: fmt.Sprintf("%s reads params[%q] of action %q, which neither requires it nor gives it a default: when the operator leaves it out, the index raises KeyError; use .get(), a default or required:", who(s.Symbol), s.Key, in.Name)}
		softenIndex(&d, s, "parameter", checked[s.Key])
		add(d)
	}
}

// attachesSubordinate reports a subordinate charm's container-scoped juju-info endpoint: it
// exists so that the charm can be deployed beside any principal (every principal provides
// juju-info), and needs no code.
func attachesSubordinate(decl *charmyaml.Charm, in linker.Interface) bool {
	if decl == nil || !decl.Subordinate || in.Interface != "juju-info" || in.Role != charmyaml.RoleRequires {
		return false
	}
	i := slices.IndexFunc(decl.Relations, func(r charmyaml.Relation) bool { return r.Name == in.Name })
	return i >= 0 && decl.Relations[i].Scope == "container"
}

// appIntegration reports a relation of a 12-factor charm whose interface the framework wires
// to the workload (charmyaml.AppIntegrations): the charm declares it and handles nothing.
func appIntegration(decl *charmyaml.Charm, in linker.Interface) bool {
	return decl != nil && decl.AppFramework() != "" && slices.Contains(charmyaml.AppIntegrations, in.Interface)
}

// extension is the charmcraft extension that adds the interface, or "".
func extension(decl *charmyaml.Charm, in linker.Interface) string {
	ext, _ := declaration(decl, in)
	return ext
}

// declaration is what in's declaration in decl says: the extension that adds it, and its
// description (a relation has none); "" for what decl does not declare.
func declaration(decl *charmyaml.Charm, in linker.Interface) (ext, desc string) {
	if decl == nil {
		return "", ""
	}
	switch in.Kind {
	case linker.KindRelation:
		if i := slices.IndexFunc(decl.Relations, func(r charmyaml.Relation) bool { return r.Name == in.Name }); i >= 0 {
			return decl.Relations[i].Extension, ""
		}
	case linker.KindAction:
		if i := slices.IndexFunc(decl.Actions, func(a charmyaml.Action) bool { return a.Name == in.Name }); i >= 0 {
			return decl.Actions[i].Extension, decl.Actions[i].Description
		}
	case linker.KindConfig:
		if i := slices.IndexFunc(decl.Config, func(o charmyaml.ConfigOption) bool { return o.Name == in.Name }); i >= 0 {
			return decl.Config[i].Extension, decl.Config[i].Description
		}
	}
	return "", ""
}

// retiredWords are what a description says of an option or action kept only for the
// deployments that still set or run it. Words that also describe a value ("ignored when
// empty", "unused connections") are left out: the phrase must be about the interface.
var retiredWords = regexp.MustCompile(`(?i)\b(deprecated|obsolete|no longer (?:used|supported|in use|has any effect|honou?red)|(?:this option |it )?has no effect\.?$|(?:option|setting|it) (?:currently )?does nothing|(?:option|setting) is (?:currently )?(?:ignored|unused))`)

// retired is, for a config option or action whose description says it is retired, that
// description (its first line, cut to 80 characters); "" otherwise.
func retired(decl *charmyaml.Charm, in linker.Interface) string {
	_, desc := declaration(decl, in)
	if !retiredWords.MatchString(desc) {
		return ""
	}
	if r := []rune(desc); len(r) > 80 {
		desc = string(r[:79]) + "…"
	}
	return desc
}

// sectionKinds are the interface kinds of the sections whose names a misspelled key holds
// (charmyaml.Misfiled.Section).
var sectionKinds = map[string]string{
	"requires": linker.KindRelation, "provides": linker.KindRelation, "peers": linker.KindRelation,
	"containers": linker.KindContainer, "storage": linker.KindStorage, "resources": linker.KindResource,
	"actions": linker.KindAction, "config": linker.KindConfig,
}

// misfiled is the name of kind k that ch writes under a misspelled key, nil if none.
func misfiled(ch *charmyaml.Charm, k, name string) *charmyaml.Misfiled {
	if ch == nil || k == "" {
		return nil
	}
	for i, m := range ch.Misfiled {
		if m.Name == name && sectionKinds[m.Section] == k {
			return &ch.Misfiled[i]
		}
	}
	return nil
}

// lostHolders are the files of ch that could not be read whole (Charm.Incomplete) and could
// declare an interface of the linker kind k: a config.yaml holds only options, an
// actions.yaml only actions, a metadata.yaml everything else; charmcraft.yaml, and any other
// file, anything. A lost config.yaml cannot excuse an undeclared relation.
func lostHolders(ch *charmyaml.Charm, k string) []string {
	if ch == nil || k == "" {
		return nil
	}
	var out []string
	for _, f := range ch.Incomplete {
		switch path.Base(f) {
		case "config.yaml":
			if k != linker.KindConfig {
				continue
			}
		case "actions.yaml":
			if k != linker.KindAction {
				continue
			}
		case "metadata.yaml":
			if k == linker.KindConfig || k == linker.KindAction {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// undeclaredKinds maps the linker's undeclared-* findings to the interface kind they name.
var undeclaredKinds = map[string]string{
	linker.FindUndeclaredRelation: linker.KindRelation, linker.FindUndeclaredAction: linker.KindAction,
	linker.FindUndeclaredConfig: linker.KindConfig, linker.FindUndeclaredContainer: linker.KindContainer,
	linker.FindUndeclaredStorage: linker.KindStorage, linker.FindUndeclaredResource: linker.KindResource,
}

// findingMessages word the linker's undeclared-* findings: "<who> <verb> <noun> %q".
var findingMessages = map[string][2]string{
	linker.FindUndeclaredRelation:  {"uses", "relation endpoint"},
	linker.FindUndeclaredAction:    {"observes", "action"},
	linker.FindUndeclaredConfig:    {"reads", "config option"},
	linker.FindUndeclaredContainer: {"uses", "container"},
	linker.FindUndeclaredStorage:   {"uses", "storage"},
	linker.FindUndeclaredResource:  {"fetches", "resource"},
}

// findingDiagnostic turns a linker finding into a diagnostic under the rule of the same name.
func findingDiagnostic(f linker.Finding) Diagnostic {
	d := Diagnostic{Rule: f.Kind, Severity: ruleSeverity(f.Kind), File: f.File, Line: f.Line, Subject: f.Subject}
	switch m, ok := findingMessages[f.Kind]; {
	case f.Kind == linker.FindMissingHandler && f.Detail == "near":
		// a class with a base from outside the tree, which may define the name, but a letter
		// or two from a method of the class's: most likely a misspelling
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s observes an event with handler %q, which its class and its bases in the tree do not define, a letter or two from their method %q (a base from outside the tree is not read)", who(f.Symbol), clip(f.Subject), clip(f.Key))
	case f.Kind == linker.FindMissingHandler:
		d.Message = fmt.Sprintf("%s observes an event with handler %q, which is defined neither in its class nor in its bases", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindRelationMismatch && f.Mismatch == "role-name":
		// DatabaseProvides bound to a requires endpoint: the library checks nothing, but
		// the object plays the other side
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s binds relation endpoint %q to %s, which by its name (and its counterpart's in its module) plays the %s side: the charm's YAML declares it under %s", who(f.Symbol), f.Subject, f.Detail, f.Expected, f.Declared)
	case f.Kind == linker.FindRelationMismatch && f.Mismatch == "role":
		d.Message = fmt.Sprintf("%s binds relation endpoint %q to %s, whose constructor requires it under %s and raises RelationRoleMismatchError: the charm's YAML declares it under %s", who(f.Symbol), f.Subject, f.Detail, f.Expected, f.Declared)
	case f.Kind == linker.FindRelationMismatch:
		d.Message = fmt.Sprintf("%s binds relation endpoint %q to %s, whose constructor requires interface %q and raises RelationInterfaceMismatchError: the charm's YAML declares interface %q", who(f.Symbol), f.Subject, f.Detail, f.Expected, f.Declared)
	case f.Kind == linker.FindUnknownEvent && f.Events != nil:
		d.Message = fmt.Sprintf("%s observes event %q of a %s, whose events class defines no such event: the attribute lookup raises AttributeError", who(f.Symbol), f.Subject, f.Detail)
	case f.Kind == linker.FindUnknownEvent && f.Detail == "near":
		// self.on.instlal under a base from outside the tree: ops' own event, misspelt
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s observes event %q, which ops does not define (a base from outside the tree may add events, but hardly one spelt like ops' own): the attribute lookup raises AttributeError", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindUnknownEvent && f.Registered != "" && f.Joined:
		// @hooks.hook('install' 'config-changed'): one name of two, which nothing fires
		d.Severity = SeverityWarning
		what := "hook"
		if strings.Contains(f.Registered, ".") {
			what = "flag"
		}
		d.Message = fmt.Sprintf("%s is registered for %s %q, two adjacent string literals, which Python joins into one: is a comma missing between them? No %s of that name fires, so it never runs for either", who(f.Symbol), what, f.Registered, what)
	case f.Kind == linker.FindUnknownEvent && f.Registered != "":
		// a hook of no event Juju runs: the function never runs for it, which raises nothing
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s is registered for hook %q, which is no hook Juju runs: the function never runs for it", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindUnknownEvent:
		d.Message = fmt.Sprintf("%s observes event %q, which the charm does not have: ops defines no such event for its YAML, and the attribute lookup raises AttributeError", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindMisspeltFramework:
		d.Message = fmt.Sprintf("%s calls observe on self.%s, which nothing sets (did you mean self.framework?): the attribute lookup raises AttributeError on every hook, and the handler never runs", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindMissingModule:
		d.Message = fmt.Sprintf("imports module %q, which the tree does not have: the import raises ModuleNotFoundError on every hook", f.Subject)
	case f.Kind == linker.FindUnobservedHandler:
		d.Message = fmt.Sprintf("%s is named like an event handler, but no code observes, calls or names it: it never runs", f.Subject)
	case f.Kind == linker.FindUndeclaredParam && f.NoAction:
		d.Message = fmt.Sprintf("%s reads action parameter %q, which no action declares", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindUndeclaredParam && f.SeveralActions:
		d.Message = fmt.Sprintf("%s reads action parameter %q, which none of the actions it runs for (%s) declares", who(f.Symbol), f.Subject, firstFew(f.Actions))
	case f.Kind == linker.FindUndeclaredParam && len(f.Actions) == 1:
		d.Message = fmt.Sprintf("%s reads action parameter %q, which action %q does not declare", who(f.Symbol), f.Subject, f.Actions[0])
	case f.Kind == linker.FindUndeclaredParam:
		d.Message = fmt.Sprintf("%s reads action parameter %q, which the action does not declare", who(f.Symbol), f.Subject)
	case f.Field && f.Required:
		// a typed config's field with no default that names no option: loading the config
		// always fails (pydantic's ValidationError)
		d.Message = fmt.Sprintf("%s, the class the charm loads its options into, has field %q, which names no option the charm's YAML declares and has no default: loading the config fails", f.Symbol, f.Subject)
	case f.Field:
		// a typed config's field that names no option: always its default (pydantic v1's
		// Optional without one too)
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s, the class the charm loads its options into, has field %q, which names no option the charm's YAML declares: it keeps its default, or loading fails without one", f.Symbol, f.Subject)
	case f.Registered != "":
		// a hook or flag of an undeclared endpoint never fires: the function is dead for it,
		// which raises nothing (an ops observe of one raises on every hook)
		d.Severity = SeverityWarning
		what, of := "hook", "relation endpoint"
		if strings.Contains(f.Registered, ".") { // (a hook's name has none: db-relation-joined)
			what = "flag"
		}
		switch f.Kind {
		case linker.FindUndeclaredStorage:
			of = "storage"
		case linker.FindUndeclaredConfig:
			of = "option"
		}
		d.Message = fmt.Sprintf("%s is registered for %s %q of %s %q, which the charm's YAML does not declare: it never runs for it", who(f.Symbol), what, f.Registered, of, f.Subject)
		if f.Joined {
			d.Message += " (two adjacent string literals, which Python joins into one: is a comma missing between them?)"
		}
	case ok && f.LookedUp != "":
		// relation_ids("cache") of an undeclared endpoint: an empty list, which raises nothing
		d.Severity = SeverityWarning
		switch f.LookedUp {
		case "is_relation_made":
			d.Message = fmt.Sprintf("%s tests %s %q with is_relation_made(), which the charm's YAML does not declare: it is never made", who(f.Symbol), m[1], f.Subject)
		case "get_relation_ip":
			// charm-helpers catches the missing binding and falls back
			d.Message = fmt.Sprintf("%s asks get_relation_ip() for the address of binding %q, which the charm's YAML does not declare (no endpoint, extra-binding or juju-info of that name): Juju has no such binding, and the unit's private address comes back instead", who(f.Symbol), f.Subject)
		case "network_get", "network_get_primary_address":
			d.Message = fmt.Sprintf("%s asks %s() for binding %q, which the charm's YAML does not declare (no endpoint, extra-binding or juju-info of that name): Juju has no such binding, and the call raises", who(f.Symbol), f.LookedUp, f.Subject)
		default:
			d.Message = fmt.Sprintf("%s looks up %s %q with %s(), which the charm's YAML does not declare: it always finds nothing", who(f.Symbol), m[1], f.Subject, f.LookedUp)
			if strings.HasPrefix(f.LookedUp, "is_") { // is_flag_set("endpoint.cache.joined")
				d.Message = fmt.Sprintf("%s tests a flag of %s %q with %s(), which the charm's YAML does not declare: the flag is never set", who(f.Symbol), m[1], f.Subject, f.LookedUp)
			}
		}
	case ok && f.Kind == linker.FindUndeclaredConfig && f.Detail == "attr":
		// self.config.log_levle on a typed config: no such field, no such option
		d.Message = fmt.Sprintf("%s reads %q of the charm's typed config, which names no option the charm's YAML declares and no member of the config class: it raises AttributeError", who(f.Symbol), f.Subject)
	case f.Kind == linker.FindUndeclaredAction && f.Detail == "table":
		// ACTIONS = {"pasue": pause, ...}: juju run rejects the name, the entry never runs
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("table %s maps action %q, which the charm's YAML does not declare: `juju run` rejects the name, so its entry never runs", f.Key, f.Subject)
	case ok && f.Detail == "assert":
		// assert "data" in self.model.storages: an AssertionError wherever it runs
		d.Message = fmt.Sprintf("%s asserts that %s %q is there, which the charm's YAML does not declare: the assertion always fails", who(f.Symbol), m[1], f.Subject)
	case ok && f.Kind == linker.FindUndeclaredRelation && f.Detail == "near":
		// MountRequires(self, "mounts"): a positional name a letter or two from a relation's
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s gives relation endpoint %q by position to a library the tree does not hold, which the charm's YAML does not declare", who(f.Symbol), f.Subject)
	case ok && f.Detail == "in":
		// "data" in self.model.storages: a test that is always false, which raises nothing
		d.Severity = SeverityWarning
		d.Message = fmt.Sprintf("%s tests for %s %q, which the charm's YAML does not declare: the test is always false", who(f.Symbol), m[1], f.Subject)
	case ok && f.Detail == "default":
		// def __init__(self, charm, endpoint="calico-enterprises"): one fault, however many
		// lookups use it (linker defaultRepeatsJoined)
		lines := make([]string, len(f.Uses))
		for i, u := range f.Uses {
			lines[i] = strconv.Itoa(u)
		}
		d.Message = fmt.Sprintf("%s defaults parameter %s to %s %q, which the charm's YAML does not declare (used at lines %s)", who(f.Symbol), f.Key, m[1], f.Subject, strings.Join(lines, ", "))
	case ok && f.Kind == linker.FindUndeclaredConfig && f.Detail == "get":
		// config.get("http_proxy", ""): raises nothing, and never reads anything else
		d.Message = fmt.Sprintf("%s reads config option %q with .get(), which the charm's YAML does not declare: it always gets the default", who(f.Symbol), f.Subject)
	case ok:
		d.Message = fmt.Sprintf("%s %s %s %q, which the charm's YAML does not declare", who(f.Symbol), m[0], m[1], f.Subject)
	default:
		d.Message = fmt.Sprintf("%s: %q", f.Kind, f.Subject)
	}
	switch {
	case f.Doubt != "":
		d.Severity = SeverityInfo
		d.Message += " (" + f.Doubt + ")"
	// dead code: an info (an undeclared parameter's warning too, a test's and a tolerant
	// lookup's), since the deployed charm never runs it: a gate that failed on the unused
	// half of a copied library, or on a helper kept after a refactor, would be switched off
	// (a handler nothing observes in a class nothing uses is dead with its class)
	case deadCode(f) != "" && (d.Severity == SeverityError || f.Kind == linker.FindUndeclaredParam || f.Detail == "in" || f.LookedUp != "" ||
		f.Kind == linker.FindUnobservedHandler && f.NotBuilt):
		d.Severity = SeverityInfo
		d.Message += " (" + deadCode(f) + ")"
	case f.Conditional && f.AfterGuard && d.Severity == SeverityError:
		// after an early return under a condition (a leader or lock guard): the function's
		// usual path, which runs whenever the guard lets it (review rev103: an undeclared
		// endpoint after otel's machine-lock guard failed every hook, and CI passed)
		if f.Leader {
			// `if self.unit.is_leader(): ...`: runs whenever the unit leads, as the code
			// after `if not self.unit.is_leader(): return` does (review rev105)
			d.Message += " (in code the leader runs: whenever this unit is the leader)"
		} else {
			d.Message += " (after an early return under a condition: on the function's usual path)"
		}
	case f.Conditional && d.Severity == SeverityError:
		d.Severity = SeverityWarning
		d.Message += " (in code that runs only under a condition)"
	}
	return d
}

// deadCode says why the code of finding f never runs in the deployed charm ("in a class no
// code of the tree uses", "in a method only tests call"), or "" when it may.
func deadCode(f linker.Finding) string {
	what := "function"
	if strings.Contains(f.Symbol, ".") {
		what = "method"
	}
	switch {
	case f.NotBuilt:
		return "in a class no code of the tree uses"
	case f.NotCalled:
		return "in a " + what + " no code of the tree calls"
	case f.DeadCallers:
		return "in a " + what + " only code that never runs calls"
	case f.TestsOnly:
		return "in a " + what + " only tests call"
	}
	return ""
}

// who names the code at a site for a message.
func who(symbol string) string {
	return cmp.Or(symbol, "code")
}

// dynamicKinds are the interface kinds the unresolved site s could name: its NameKind when the
// linker knows it (on[name].relation_departed is a relation), else those its via allows.
func dynamicKinds(s linker.Site) []string {
	if s.NameKind != "" {
		return []string{s.NameKind}
	}
	switch s.Via {
	case linker.ViaConfig:
		return []string{linker.KindConfig}
	case linker.ViaParam:
		return nil
	case linker.ViaLookup:
		return []string{linker.KindRelation, linker.KindContainer, linker.KindStorage}
	case "":
		return []string{linker.KindRelation, linker.KindAction, linker.KindConfig, linker.KindContainer, linker.KindStorage}
	}
	return []string{linker.KindRelation, linker.KindAction, linker.KindContainer, linker.KindStorage}
}

// testCharm reports a charm directory inside a tests/, test/ or unit_tests/ folder.
func testCharm(dir string) bool {
	return testdirs.In(dir)
}

// charmDirOf is the charm directory (of dirs) that holds file: the longest matching one.
func charmDirOf(file string, dirs []string) string {
	best := ""
	found := false
	for _, d := range dirs {
		if (d == "." || d == "" || file == d || strings.HasPrefix(file, d+"/")) && (!found || len(d) > len(best)) {
			best, found = d, true
		}
	}
	return best
}

// foldCopies reports once what is reported alike in copies of the same module: diagnostics
// with the same rule, severity, line and message whose files are the same module at
// different places (one path ends with the other, "k8s/.vendored/vault-package/v.py" and
// "vault-package/v.py", or they share their last three path components,
// "k8s/.vendored/vault-package/vault/v.py" and "machine/.vendored/vault-package/vault/v.py")
// are reported at the shortest path, which names the folders of the others ("(also in
// machine/.vendored/)"), as the map lists a module once. Two charms' own files (dirs: the
// charm folders) at the same place in each, their YAML or their code (metadata.yaml and
// requirer/metadata.yaml, src/charm.py and tester/src/charm.py), are two charms' findings,
// never folded (rev91: the second charm's lost its place). diags is sorted; the result keeps
// that order.
func foldCopies(diags []Diagnostic, dirs []string) []Diagnostic {
	type key struct {
		rule, sev, msg, base string
		line                 int
	}
	groups := map[key][]int{}
	for i, d := range diags {
		if d.File != "" {
			k := key{d.Rule, d.Severity, d.Message, path.Base(d.File), d.Line}
			groups[k] = append(groups[k], i)
		}
	}
	drop := make([]bool, len(diags))
	also := map[int][]string{}
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			canon := -1 // the shortest (then first) other path i's path is a copy of
			for _, j := range idx {
				shorter := len(diags[j].File) < len(diags[i].File) || len(diags[j].File) == len(diags[i].File) && j < i
				if j != i && shorter && sameModule(diags[i].File, diags[j].File) && !ownFiles(diags[i].File, diags[j].File, dirs) &&
					(canon < 0 || len(diags[j].File) < len(diags[canon].File)) {
					canon = j
				}
			}
			if canon >= 0 && !drop[canon] {
				drop[i] = true
				also[canon] = append(also[canon], pathtail.Prefix(diags[i].File, diags[canon].File))
			}
		}
	}
	out := diags[:0:0]
	for i, d := range diags {
		if drop[i] {
			continue
		}
		if dirs := also[i]; len(dirs) > 0 {
			slices.Sort(dirs)
			d.Message += " (also in " + strings.Join(slices.Compact(dirs), ", ") + ")"
		}
		out = append(out, d)
	}
	return out
}

// ownFiles reports whether a and b are two charms' own files at the same place in each: the
// same path under two different charm folders, at the charm's top (its YAML) or under its
// src/, hooks/, actions/ or reactive/ code; not a vendored package or a library, whose
// copies fold.
func ownFiles(a, b string, dirs []string) bool {
	da, db := charmDirOf(a, dirs), charmDirOf(b, dirs)
	if da == db {
		return false
	}
	rel := func(f, d string) string {
		if d == "." || d == "" {
			return f
		}
		return strings.TrimPrefix(f, d+"/")
	}
	ra := rel(a, da)
	if ra != rel(b, db) {
		return false
	}
	top, _, nested := strings.Cut(ra, "/")
	return !nested || top == "src" || top == "hooks" || top == "actions" || top == "reactive"
}

// sameModule reports whether a and b are one module at two places (see foldCopies).
func sameModule(a, b string) bool {
	return strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a) || pathtail.Shared(a, b) >= 3
}

// charmList names the charms a shared-code finding is held against: "charm a", "charms a, b
// and c", "charms a, b, c and 4 more".
func charmList(names []string) string {
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	switch n := len(names); {
	case n == 1:
		return "charm " + names[0]
	case n <= 4:
		return "charms " + strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	default:
		return fmt.Sprintf("charms %s and %d more", strings.Join(names[:3], ", "), n-3)
	}
}

// clip cuts a name from the code to 60 characters, for a message (a 5000-character handler
// name printed twice made a 10 KB line: review rev106).
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}
