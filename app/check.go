package app

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/check"
	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
	"github.com/cantrip-dev/charmcraft-map/render"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// InterfacesOptions are the flags of `interfaces`.
type InterfacesOptions struct {
	Common
}

// RunInterfaces prints each charm's declared interfaces and the code linked to them.
func RunInterfaces(o InterfacesOptions, io IO) error {
	if err := checkFormat(o.Format, "text", "json"); err != nil {
		return err
	}
	t, err := loadCharms(o.Common, io, nil)
	if err != nil {
		return err
	}
	links := t.Link()
	saveCache(t, io)
	if o.Format == "json" {
		b, err := render.InterfacesJSON(links)
		if err != nil {
			return classify(err)
		}
		_, err = io.Out.Write(b) // b ends with its newline
		return err
	}
	return render.InterfacesText(io.Out, links)
}

// loadCharms loads the tree for a command whose answer is its charms' declarations
// (interfaces, check; each calls saveCache once it has linked): it fails when there is no
// charm or a declaration file cannot be read, with that one error line; else it prints the
// tree's warnings, but those reported (nil: none) says the command reports itself.
func loadCharms(c Common, io IO, reported func(*repomap.Tree) map[string]bool) (*repomap.Tree, error) {
	t, err := loadTree(c, io, repomap.Options{NeedCharm: true, SaveLater: true})
	if err != nil {
		return nil, err
	}
	if len(t.Charms) == 0 {
		return nil, noCharm(t)
	}
	if err := unreadableDeclarations(t.Charms); err != nil {
		saveCache(t, io) // what was parsed still spares the next run a parse
		return nil, err
	}
	var skip map[string]bool
	if reported != nil {
		skip = reported(t)
	}
	fmt.Fprint(io.Err, warnings(t, skip))
	return t, nil
}

// noCharm is the failure of a command that needs a charm (interfaces, check) under a root
// that holds none; map and locate map any Python tree.
func noCharm(t *repomap.Tree) error {
	msg := fmt.Sprintf("no charm found under %s (no metadata.yaml, or charmcraft.yaml with a name)", t.Root)
	if v := t.MetadataVariants; len(v) > 0 {
		// a charm for several substrates whose build copies one of them to metadata.yaml
		msg += fmt.Sprintf("; %s may be its metadata.yaml under another name: copy the one to check to metadata.yaml first", strings.Join(v, ", "))
	}
	return &Error{Code: "usage", Exit: ExitFailure, Msg: msg}
}

// unreadableDeclarations fails a command whose answer is the charm's declarations
// (interfaces, check) when a declaration file exists and could not be opened or read
// (permissions, an I/O error): what the charm declares is unknown, and check's
// findings would be about the machine, not the charm (CONTRACT §5: unreadable input it cannot
// skip). A file that does not parse is read in part and is a finding, not this. map and
// locate go on with what they could read.
func unreadableDeclarations(charms []charmyaml.Charm) error {
	for _, ch := range charms {
		if len(ch.Unreadable) > 0 {
			return &Error{Code: "input", Exit: ExitFailure, Msg: "cannot read " + safetext.Line(ch.Unreadable[0]) +
				": the charm's declarations are unknown"}
		}
	}
	return nil
}

// CheckOptions are the flags of `check`.
type CheckOptions struct {
	Common
	Strict bool
	// MinSeverity leaves the findings below it out of the report ("info", the default when
	// empty, shows everything; "warning"; "error"); they are still counted in the summary.
	MinSeverity string
}

// RunCheck lints the charm: YAML and code that disagree. It returns errFindings (exit 1) when
// the report has errors, or warnings under --strict.
func RunCheck(o CheckOptions, io IO) error {
	if err := checkFormat(o.Format, "text", "json", "github", "sarif"); err != nil {
		return err
	}
	if o.MinSeverity == "" {
		o.MinSeverity = check.SeverityInfo
	}
	if !check.ValidSeverity(o.MinSeverity) {
		return failedCheck(o.Format, io, Usagef("unknown --min-severity %q: use info, warning or error", safetext.Line(o.MinSeverity)))
	}
	// a charm YAML problem is a finding: once, in the report
	t, err := loadCharms(o.Common, io, reportedYAMLProblems)
	if err != nil {
		return failedCheck(o.Format, io, err)
	}
	// code that could not be read may handle what seems unhandled: those findings are infos
	links := t.Link()
	saveCache(t, io)
	rep := check.Run(t.Charms, links, check.Options{Strict: o.Strict, Lost: t.LostCode(), Unread: t.UnreadCode(), Lines: sourceLines(t.Root)})
	shown := rep.AtLeast(o.MinSeverity)
	switch o.Format {
	case "json":
		err = check.WriteJSON(io.Out, shown)
	case "github":
		err = check.WriteGitHub(io.Out, fromRepoTop(shown, t.Root))
	case "sarif":
		err = check.WriteSARIF(io.Out, fromRepoTop(shown, t.Root))
	default:
		w := io.Out
		if io.CheckOut != nil {
			w = io.CheckOut
		}
		err = check.WriteText(w, shown)
	}
	if err != nil {
		return err
	}
	if rep.ExitCode(o.Strict) != 0 {
		return errFindings
	}
	return nil
}

// fromRepoTop writes the report's paths from the top of the git repository holding root
// (repomap.RepoRel): GitHub resolves an annotation's file, and code scanning a SARIF
// location, from there, so that the findings of one charm of a monorepo checked on its own
// (--root charms/api) land on its files. Text and JSON keep root-relative paths.
func fromRepoTop(r check.Report, root string) check.Report {
	rel := repomap.RepoRel(root)
	if rel == "" {
		return r
	}
	out := r
	out.Diagnostics = slices.Clone(r.Diagnostics)
	for i := range out.Diagnostics {
		if f := out.Diagnostics[i].File; f != "" {
			out.Diagnostics[i].File = path.Join(rel, f)
		}
	}
	return out
}

// failedCheck returns err, a check that could not run (exit 2), after writing the document
// of a failed run in the sarif and github formats (ReportError writes the json one and the
// line on stderr): a SARIF log whose one invocation failed with the message and has no
// results, or one error annotation. A CI step that uploads or reads the output finds why it
// failed, not an empty file.
func failedCheck(format string, io IO, err error) error {
	var e *Error
	if !errors.As(classify(err), &e) || e.Msg == "" {
		return err
	}
	switch format {
	case "sarif":
		check.WriteSARIFFailure(io.Out, oneLine(e.Msg))
	case "github":
		check.WriteGitHubFailure(io.Out, oneLine(e.Msg))
	}
	return err
}

// reportedYAMLProblems are the tree's warnings check reports as yaml-problem findings: the
// charms' own YAML warnings.
func reportedYAMLProblems(t *repomap.Tree) map[string]bool {
	out := map[string]bool{}
	for _, ch := range t.Charms {
		for _, w := range ch.Warnings {
			out[w] = true
		}
	}
	return out
}

// maxLinesFile bounds a file read for its suppression comments: the tree's files that check
// reports on are charm YAML and Python, which the map reads under tighter limits.
const maxLinesFile = 8 << 20

// sourceLines returns check's Options.Lines for the tree at root: each root-relative file's
// lines, read once; nil for a path outside the root, or a file that cannot be read or is
// larger than maxLinesFile.
func sourceLines(root string) func(string) []string {
	read := map[string][]string{}
	return func(file string) []string {
		if ls, ok := read[file]; ok {
			return ls
		}
		var ls []string
		if p := filepath.FromSlash(file); filepath.IsLocal(p) {
			p = filepath.Join(root, p)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxLinesFile {
				if b, err := os.ReadFile(p); err == nil {
					ls = strings.Split(string(b), "\n")
				}
			}
		}
		read[file] = ls
		return ls
	}
}

// CheckHelp is check's help text: what it does, then every rule with its default severity
// (check.Rules, which the SARIF output describes too), so that a rule to silence with
// "# charmcraft-map: ignore[rule]" can be looked up without running the tool.
func CheckHelp() string {
	var b strings.Builder
	b.WriteString(`CI lint: check links the charm's YAML to its code and reports where they disagree, one finding
per line. It exits 1 when there are errors (with --strict, warnings too), 0 when there are none,
and 2 when it cannot run (no charm, an unreadable declaration file, a bad flag). A finding is
silenced by a comment on its line, or alone on the line above it, in the YAML or the Python:
"# charmcraft-map: ignore[RULE,...]", or "# charmcraft-map: ignore" for every rule.

Rules, with their usual severity (some cases are lowered or raised: a finding in code that runs
only under a condition is a warning, one whose YAML file could not be read is an error).
docs/check.md says what each finding means and when one is only an info; "check --format
sarif" carries each rule's full description:
`)
	w := 0
	for _, r := range check.Rules {
		w = max(w, len(r.Name))
	}
	indent := strings.Repeat(" ", 2+w+2+7+2)
	for _, r := range check.Rules {
		fmt.Fprintf(&b, "  %-*s  %-7s  %s\n", w, r.Name, r.Severity, wrapHelp(r.Short, helpWidth-len(indent), indent))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// helpWidth is the width the rule table of check's help is wrapped to.
const helpWidth = 100

// wrapHelp breaks text into lines of at most width characters at spaces (a longer word keeps
// its own line), each line after the first starting with indent.
func wrapHelp(text string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(word) > width:
			b.WriteString("\n" + indent)
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
