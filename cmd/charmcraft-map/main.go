// Command charmcraft-map builds a ranked, token-budgeted map of a Juju charm and checks that
// the charm's YAML and code agree. This file is the cobra wiring only: flags become an options
// struct from package app, whose run function does the work.
//
// The reference pages under docs/cli are generated from these commands; after changing a
// command, its flags or its help, regenerate them with `go generate ./cmd/charmcraft-map`
// (TestDocs fails while they are stale).
package main

//go:generate go test -run TestDocs . -update

import (
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cantrip-dev/charmcraft-map/app"
)

// defaultMemoryLimit is the Go heap's soft limit unless GOMEMLIMIT says otherwise. A cold run
// on a very large tree keeps every file's extraction alive until the cache is written, and
// with the default GOGC the heap may grow to twice that. Near the limit the collector runs
// more often (Go caps the CPU it then takes, so a bigger tree is slower, never stuck); below
// the live heap it only burns CPU. Session 2 set 400 MiB (10,000-file tree: 440 MB peak instead
// of 630-660 MB); since then the live heap of such a tree has grown past it, and session 23
// measured (bench/run.sh, 10,000 synthetic files, one run each): 400 MiB cold 36.8 s, touched
// 5.5 s, warm 121 ms, peak 819 MB; 600 MiB 25.0 s, 832 MB; 1 GiB 19.5 s, touched 2.5 s, warm
// 69 ms, 1,060 MB (the 203-charm corpus as one root, 7,900 files: 25.3 s / 955 MB, 16.7 s /
// 1,082 MB; no limit 15.4 s / 1,408 MB). A charm of a few hundred files never nears it.
const defaultMemoryLimit = 1 << 30

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	out := app.NewColorWriter(os.Stdout)
	io := app.IO{Out: os.Stdout, Err: os.Stderr, ErrIsTerminal: isTerminal(os.Stderr)}
	if app.ColorEnabled(isTerminal(os.Stdout), os.Getenv) {
		io.CheckOut = out // only check's text report is coloured
	}
	stopOnSignal()
	code := run(os.Args[1:], io)
	out.Flush()
	os.Exit(code)
}

// run executes the command line and returns the exit code.
func run(args []string, io app.IO) int {
	out := &firstErrWriter{w: io.Out}
	io.Out = out
	common := &app.Common{}
	root := newRootCmd(common, io)
	root.SetArgs(args)
	err := execute1(root)
	if err == nil && out.err != nil { // cobra's help and usage text ignore write errors
		err = out.err
	}
	if err != nil {
		format := common.Format
		if format != "json" {
			format = formatArg(args)
		}
		app.ReportError(io, format, err)
	}
	return app.ExitCode(err)
}

// firstErrWriter passes writes on to w and keeps the first error: cobra prints help without
// looking at what the write returned, and `--help > /dev/full` must not exit 0.
type firstErrWriter struct {
	w   interface{ Write([]byte) (int, error) }
	err error
}

func (f *firstErrWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// execute1 runs the command line; a panic on the command's goroutine becomes app.Panicked
// (the parser's workers recover their own: repomap's safeParse).
func execute1(root *cobra.Command) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = app.Panicked(r)
		}
	}()
	return root.Execute()
}

// formatArg is the last --format value in args. A flag error stops parsing before a later
// --format is seen, yet a caller that asked for JSON still gets its error document.
func formatArg(args []string) string {
	format := ""
	for i, a := range args {
		switch {
		case a == "--":
			return format
		case a == "--format" && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "--format="):
			format = strings.TrimPrefix(a, "--format=")
		}
	}
	return format
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// noArgs rejects positional arguments (and so unknown commands) as a usage error, exit 2. A
// folder given as an argument (`check ./my-charm`, as many linters take it) is told to go
// in --root.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 1 && readsTree(cmd) {
		if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
			dir := args[0]
			if strings.ContainsAny(dir, " \t'\"$`\\") {
				dir = "'" + strings.ReplaceAll(dir, "'", `'\''`) + "'"
			}
			return app.Usagef("the charm's folder is given as --root, not as an argument: %s --root %s",
				cmd.CommandPath(), dir)
		}
	}
	if err := cobra.NoArgs(cmd, args); err != nil {
		return app.Usagef("%v (see '%s --help')", err, cmd.CommandPath())
	}
	return nil
}

// readsTree reports a command that maps a charm's tree (not version, completion, help).
func readsTree(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		switch c.Name() {
		case "version", "completion", "help":
			return false
		}
	}
	return true
}

func newRootCmd(common *app.Common, io app.IO) *cobra.Command {
	mapOpts := &app.MapOptions{}
	root := &cobra.Command{
		Use:   "charmcraft-map [map]",
		Short: "A ranked, token-budgeted map of a Juju charm, and a YAML/code consistency check",
		Long: `charmcraft-map reads a Juju charm's YAML (metadata.yaml, config.yaml, actions.yaml or a
unified charmcraft.yaml) and its Python, links each declared relation, action, container,
storage and config option to the code that handles it, ranks files and symbols with PageRank,
and prints a compact map that fits a token budget. Without a subcommand it runs "map".

Configuration is the flags below and a .charmcraft-map-ignore file in the root (gitignore
syntax) listing paths to leave out. Parse results are cached in .cantrip-repomap.json in the
root (add .cantrip-repomap.json* to .gitignore; --no-cache neither reads nor writes it).

Exit codes:
  0              success
  1              check found errors (or warnings, with --strict)
  2              the tool could not do its job (a bad flag, a missing root, no charm where
                 one is needed); the message is on stderr, one line
  130, 143, 129  stopped by SIGINT, SIGTERM or SIGHUP (141: a reader closed the output early)`,
		Example: `  # the compact view of the charm in the current directory
  charmcraft-map
  # the view an agent receives, within 1500 tokens
  charmcraft-map map --full --tokens 1500 --root ./my-charm`,
		Args:          noArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			mapOpts.Common = *common
			mapOpts.BudgetFlags = budgetFlags(cmd)
			return app.RunMap(*mapOpts, io)
		},
	}
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	pf := root.PersistentFlags()
	pf.StringVar(&common.Root, "root", ".", "the charm repository to map")
	pf.StringVar(&common.Format, "format", "text", "output format: text or json (check also: github, sarif)")
	pf.BoolVar(&common.NoCache, "no-cache", false, "neither read nor write the cache file")
	_ = root.MarkPersistentFlagDirname("root")
	_ = root.RegisterFlagCompletionFunc("format", func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if cmd.Name() == "check" {
			return []cobra.Completion{"text", "json", "github", "sarif"}, cobra.ShellCompDirectiveNoFileComp
		}
		return []cobra.Completion{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if textAsFlag(err) {
			return app.Usagef("%v: a text that starts with '-' reads as flags; put -- before it (%s -- TEXT)", err, cmd.CommandPath())
		}
		return app.Usagef("%s (see '%s --help')", plainFlagError(err), cmd.CommandPath())
	})
	bindMapFlags(root, mapOpts)

	root.AddCommand(newMapCmd(common, io, false), newMapCmd(common, io, true),
		newInterfacesCmd(common, io), newCheckCmd(common, io), newLocateCmd(common, io), newDiffCmd(common, io),
		newVersionCmd(common, io))
	addDefaultCommands(root)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "diff", "version":
			hideInherited(c, "root", "no-cache") // they read no tree
		case "completion":
			hideInherited(c, "root", "no-cache", "format")
			for _, sh := range c.Commands() {
				hideInherited(sh, "root", "no-cache", "format")
			}
		}
	}
	return root
}

// hideInherited leaves the named persistent flags of the root out of cmd's help and generated page,
// where they would mean nothing (diff and version read no tree): cmd gets hidden flags of the
// same names, which shadow the root's. They are still accepted, and ignored, as scripts may pass
// --root to every command.
func hideInherited(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		f := cmd.Root().PersistentFlags().Lookup(n)
		if f == nil {
			continue
		}
		if f.Value.Type() == "bool" {
			cmd.Flags().Bool(n, false, f.Usage)
		} else {
			cmd.Flags().String(n, f.DefValue, f.Usage)
		}
		_ = cmd.Flags().MarkHidden(n)
	}
}

// addDefaultCommands adds cobra's help and completion commands now rather than at Execute,
// so that they carry examples and appear in the generated docs. Call it after SetOut: the
// completion scripts are written there.
func addDefaultCommands(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Example = "  charmcraft-map help check"
			show := c.Run // cobra's: on an unknown topic it prints the root's help and succeeds
			c.Run = nil
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if target, rest, err := cmd.Root().Find(args); err != nil || target == nil || len(rest) > 0 {
					return app.Usagef("unknown help topic %q (see '%s --help')", strings.Join(args, " "), cmd.Root().Name())
				}
				show(cmd, args)
				return nil
			}
		case "completion":
			c.Example = `  source <(charmcraft-map completion bash)
  charmcraft-map completion zsh > "${fpath[1]}/_charmcraft-map"
  charmcraft-map completion fish > ~/.config/fish/completions/charmcraft-map.fish
  charmcraft-map completion powershell | Out-String | Invoke-Expression`
			c.Args = noArgs
			c.RunE = func(cmd *cobra.Command, args []string) error { // cobra's prints its help and succeeds
				return app.Usagef("completion needs a shell: bash, zsh, fish or powershell (see '%s --help')", cmd.CommandPath())
			}
			for _, sh := range c.Commands() {
				sh.Example = completionExamples[sh.Name()]
				sh.Args = noArgs
			}
		}
	}
}

var completionExamples = map[string]string{
	"bash":       "  source <(charmcraft-map completion bash)",
	"zsh":        "  source <(charmcraft-map completion zsh)",
	"fish":       "  charmcraft-map completion fish | source",
	"powershell": "  charmcraft-map completion powershell | Out-String | Invoke-Expression",
}

// budgetFlags are the budget flags given on the command line (app.MapOptions.BudgetFlags).
func budgetFlags(cmd *cobra.Command) []string {
	var out []string
	for _, name := range []string{"top", "tokens", "pressure"} {
		if cmd.Flags().Changed(name) {
			out = append(out, "--"+name)
		}
	}
	return out
}

func bindMapFlags(cmd *cobra.Command, o *app.MapOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.Full, "full", false, "the view the agent receives: signatures file by file, within the budget (not with --all)")
	f.BoolVar(&o.All, "all", false, "every file with every symbol, no budget (--top, --tokens and --pressure are not used; not with --full)")
	f.IntVar(&o.Top, "top", 10, "files in the compact view (files with nothing to show are left out); 0: no file limit, still within --tokens")
	f.IntVar(&o.Tokens, "tokens", app.DefaultTokens, "token budget, a hard maximum (0 prints nothing)")
	f.StringVar(&o.Tokenizer, "tokenizer", "cl100k", "token counter: cl100k, o200k or chars4 (Cantrip's 4-characters-per-token estimate)")
	f.Float64Var(&o.Pressure, "pressure", 0, "share of the agent's context already used (0-1): halves the budget at 0.80, empties it at 0.95")
	f.StringArrayVar(&o.Focus, "focus", nil, "a file the agent is working on (repeatable): what it uses and what uses it rank higher; not printed but by --all, which prints every file")
	f.StringArrayVar(&o.Mention, "mention", nil, "the user's task text (repeatable): files with its names and words rank higher; a first line naming a kind of change lifts the files such a change edits (a new option's YAML under the entry point)")
	f.StringArrayVar(&o.Scope, "scope", nil, "map only files under this folder, relative to the root (repeatable), with the YAML of its charm")
	f.BoolVar(&o.Explain, "explain", false, "after each file, the signals behind its score (the lines count against --tokens); with --all, after each symbol too")
	_ = cmd.MarkFlagDirname("scope")
	_ = cmd.RegisterFlagCompletionFunc("tokenizer", cobra.FixedCompletions(
		[]string{"cl100k", "o200k", "chars4"}, cobra.ShellCompDirectiveNoFileComp))
}

func newMapCmd(common *app.Common, io app.IO, refresh bool) *cobra.Command {
	o := &app.MapOptions{Refresh: refresh}
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Print the map (compact view by default)",
		Long: `map prints the charm's files in rank order. Three views:
  (default)  the compact view: one line per top file (--top), its top symbol and how many more
  --full     the view an agent receives: each file's path and its signatures, file by file,
             until the token budget (--tokens, a hard maximum) is spent, then the paths of the
             files that did not fit ("more files:"); charm YAML shows each declared relation,
             action, option, container and storage with the code that handles it
  --all      every file with every symbol, no budget

Files rank by PageRank over the code's references and the YAML-to-handler links, personalised
by --focus and --mention; --explain shows how each score was made. The same tree and flags
print the same bytes. Parse results are kept in .cantrip-repomap.json in the root (--no-cache:
neither read nor written), so a warm run reparses only the files that changed.`,
		Example: `  # the ten top-ranked files, one line each
  charmcraft-map map --root ./my-charm
  # what an agent working on src/charm.py receives for a task
  charmcraft-map map --full --tokens 1500 --focus src/charm.py --mention "fix the database relation"
  # why each file ranks where it does
  charmcraft-map map --full --explain
  # one charm of a monorepo, everything, as JSON
  charmcraft-map map --all --scope charms/api --format json > map.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Common = *common
			o.BudgetFlags = budgetFlags(cmd)
			return app.RunMap(*o, io)
		},
	}
	if refresh {
		cmd.Use = "refresh"
		cmd.Short = "Discard the cache, reparse everything, then print the map"
		cmd.Long = `refresh is map, with the same flags and output, run after discarding what the cache file
(.cantrip-repomap.json) remembers: every file is parsed again and the file is rewritten. A
warm run already reparses what changed (by mtime, size and ctime) and never trusts an entry it
did not write, so refresh is for when you doubt that: a file restored with its old mtime and
size, or to time a cold run.`
		cmd.Example = `  charmcraft-map refresh
  charmcraft-map refresh --full --tokens 3000`
	}
	bindMapFlags(cmd, o)
	return cmd
}

func newInterfacesCmd(common *app.Common, io app.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "interfaces",
		Short: "List the charm's declared interfaces and the code linked to each",
		Long: `interfaces lists, for each charm of the tree, everything its YAML declares (relations,
actions, config options, containers, storage, resources) with the file and line declaring
it, then what the linker tied to it:
  handlers     the code that runs for its events, each tagged with how it was found:
               observe, on-index, getattr, library, library-inner, helper, naming (a weak
               match by method name only), action-table, reactive-flag, hook, hook-script;
               "conditional" when the observe call runs only under a condition, "every
               relation" when it is observed in a loop over every relation
  read, lookup where its value is read, an object is bound to it, or the code looks it up
  maybe ...    a guess (a package named after it, an outside base class of the charm's)
  (nothing linked)                 no code of the tree handles or reads it
  (handled by the X extension)     a charmcraft extension does, or added it
  (the image of container X)       a resource Juju runs as a container's workload
A charm whose code the linker cannot follow or read (hooks in shell) says so under its name.
It exits 2 when the tree holds no charm. docs/interfaces.md describes every tag.`,
		Example: `  charmcraft-map interfaces --root ./my-charm
  charmcraft-map interfaces --format json | jq '.charms[].interfaces[] | select(.kind=="relation")'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return app.RunInterfaces(app.InterfacesOptions{Common: *common}, io)
		},
	}
}

func newCheckCmd(common *app.Common, io app.IO) *cobra.Command {
	o := &app.CheckOptions{}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "CI lint: report where the charm's YAML and code disagree (exit 1 on errors)",
		Long:  app.CheckHelp(),
		Example: `  charmcraft-map check --root ./my-charm
  # in GitHub Actions: annotations on the pull request, failing on warnings too
  charmcraft-map check --strict --format github
  # for code scanning (github/codeql-action/upload-sarif)
  charmcraft-map check --format sarif > charmcraft-map.sarif
  # a large monorepo's CI log: errors and warnings only (infos still counted)
  charmcraft-map check --min-severity warning`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Common = *common
			return app.RunCheck(*o, io)
		},
	}
	cmd.Flags().BoolVar(&o.Strict, "strict", false, "fail on warnings too")
	cmd.Flags().StringVar(&o.MinSeverity, "min-severity", "info", "leave out findings below this severity: info, warning or error (the summary still counts them)")
	return cmd
}

func newLocateCmd(common *app.Common, io app.IO) *cobra.Command {
	o := &app.LocateOptions{}
	cmd := &cobra.Command{
		Use:   "locate TEXT",
		Short: "Name the files most likely to need editing for a task, and the files to read with them",
		Long: `locate ranks the charm with the task text as a mention and names up to 5 files to edit
(first-party code and YAML; vendored libraries and tests only when the task is about them) and
up to 3 files to read with them (what the edit files use, and what uses them), each with its
score and the reasons, then up to 5 templates the task points to (ones that render an option
it names, whose file name it, or a Python edit pick the task ties, writes, or whose text holds
two rare words of its first line). Several arguments are joined into one task text.

Each pick is its path, its score in parentheses (the map's score, 0 to 1) and one reason per
line; "(none)" stands for an empty list. When nothing in the tree answers the task's words, a
line before the picks says so, and they are only the charm's central files (JSON: "matched":
false). A --focus file can be an edit pick: locate names files, and the one being edited may be
one of them (map leaves it out, as the agent already has it).`,
		Example: `  charmcraft-map locate "the ingress relation does not update the URL when the port changes"
  charmcraft-map locate --focus src/charm.py "add a max-connections config option" --format json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.Usagef("locate needs the task text (see '%s --help')", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Common = *common
			o.Text = strings.Join(args, " ")
			return app.RunLocate(*o, io)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.Focus, "focus", nil, "a file the agent is working on, relative to the root (repeatable)")
	f.StringArrayVar(&o.Scope, "scope", nil, "locate only among files under this folder, relative to the root (repeatable)")
	_ = cmd.MarkFlagDirname("scope")
	return cmd
}

func newDiffCmd(common *app.Common, io app.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "diff OLD.json NEW.json",
		Short: "Symbols added, removed, changed and renamed, files moved, and files whose rank moved, between two saved maps",
		Long: `diff compares two documents saved with "map --all --format json" (any map JSON works: it
lists every file and symbol). It reports:
  - files added and removed, and files moved (git mv): a removed file and an added one that
    hold mostly the same symbols, several of them found in no other file of OLD (a test
    module's TestCharm and setUp say nothing), compared then as one file;
  - symbols added, removed and changed (same name, new signature); a symbol removed here and
    added with its signature in another file says where it went ("(now in src/backup.py)");
  - symbols renamed: same file, kind and class, and the same signature apart from the name.
    When that signature says almost nothing (a class with one base, a handler taking only an
    event), the names must also share a word and pair one to one: on_joined and on_broken are
    a removal and an addition. A renamed property takes its setter and deleter with it;
  - files in the top 30 of either map whose rank moved by 5 places or more, or whose score
    changed by a factor of 2 or more (further down, mostly tests and vendored code, near-equal
    scores trade places on any change).
Lines that only moved are not reported.`,
		Example: `  charmcraft-map map --all --format json > before.json
  # ... edit the charm ...
  charmcraft-map map --all --format json > after.json
  charmcraft-map diff before.json after.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				got := fmt.Sprintf("%d arguments", len(args))
				if len(args) == 1 {
					got = "one"
				}
				return app.Usagef("diff needs two map JSON files, OLD and NEW; got %s (see '%s --help')", got, cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return app.RunDiff(app.DiffOptions{Common: *common, Old: args[0], New: args[1]}, io)
		},
	}
}

func newVersionCmd(common *app.Common, io app.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version and VCS revision",
		Example: `  charmcraft-map version
  charmcraft-map version --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return app.RunVersion(*common, io)
		},
	}
}

// textAsFlag reports an unknown-flag error whose "flag" holds white space: a task text that
// starts with '-' ("- fix: re-enable prefixed topic names", a commit body's bullet), which
// pflag reads as a cluster of short flags.
func textAsFlag(err error) bool {
	msg := err.Error()
	var tok string
	switch {
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		_, tok, _ = strings.Cut(msg, "' in ")
	case strings.HasPrefix(msg, "unknown flag: "):
		tok = strings.TrimPrefix(msg, "unknown flag: ")
	}
	return strings.ContainsAny(tok, " \t\n")
}

// parseFailure is pflag's message for a value its type does not parse, with the strconv error
// it wraps: `invalid argument "abc" for "--tokens" flag: strconv.ParseInt: parsing "abc":
// invalid syntax` (or `value out of range`).
var parseFailure = regexp.MustCompile(`^(invalid argument ".*" for ".*" flag): strconv\.Parse(Int|Uint|Float|Bool): .*$`)

// plainFlagError says what a flag wanted instead of quoting strconv.
func plainFlagError(err error) string {
	m := parseFailure.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number", "Float": "a number", "Bool": "true or false"}[m[2]]
	if strings.HasSuffix(err.Error(), "value out of range") {
		want += " in range" // --tokens 99999999999999999999 is a whole number, too large for one
	}
	return m[1] + ": want " + want
}
