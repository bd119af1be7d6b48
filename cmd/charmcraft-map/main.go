// Command charmcraft-map builds a ranked, token-budgeted map of a Juju charm and checks that
// the charm's YAML and code agree. This file is the cobra wiring only: flags become an options
// struct from package app, whose run function does the work.
package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/cantrip-dev/charmcraft-map/app"
)

func main() {
	os.Exit(run(os.Args[1:], app.IO{Out: os.Stdout, Err: os.Stderr, ErrIsTerminal: isTerminal(os.Stderr)}))
}

// run executes the command line and returns the exit code.
func run(args []string, io app.IO) int {
	common := &app.Common{}
	root := newRootCmd(common, io)
	root.SetArgs(args)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	err := root.Execute()
	if err != nil {
		app.ReportError(io, common.Format, err)
	}
	return app.ExitCode(err)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newRootCmd(common *app.Common, io app.IO) *cobra.Command {
	mapOpts := &app.MapOptions{}
	root := &cobra.Command{
		Use:   "charmcraft-map [map]",
		Short: "A ranked, token-budgeted map of a Juju charm, and a YAML/code consistency check",
		Long: `charmcraft-map reads a Juju charm's YAML (metadata.yaml, config.yaml, actions.yaml or a
unified charmcraft.yaml) and its Python, links each declared relation, action, container,
storage and config option to the code that handles it, ranks files and symbols with PageRank,
and prints a compact map that fits a token budget. Without a subcommand it runs "map".`,
		Example: `  # the compact view of the charm in the current directory
  charmcraft-map
  # the view an agent receives, within 1500 tokens
  charmcraft-map map --full --tokens 1500 --root ./my-charm`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			mapOpts.Common = *common
			return app.RunMap(*mapOpts, io)
		},
	}
	root.CompletionOptions.HiddenDefaultCmd = false
	pf := root.PersistentFlags()
	pf.StringVar(&common.Root, "root", ".", "the charm repository to map")
	pf.StringVar(&common.Format, "format", "text", "output format: text or json (check also: github, sarif)")
	pf.BoolVar(&common.NoCache, "no-cache", false, "neither read nor write the cache file")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return app.Usagef("%v", err) })
	bindMapFlags(root, mapOpts)

	root.AddCommand(newMapCmd(common, io, false), newMapCmd(common, io, true),
		newInterfacesCmd(common, io), newCheckCmd(common, io), newVersionCmd(common, io))
	return root
}

func bindMapFlags(cmd *cobra.Command, o *app.MapOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.Full, "full", false, "the view the agent receives: signatures file by file, within the budget")
	f.BoolVar(&o.All, "all", false, "every file with every symbol, no budget")
	f.IntVar(&o.Top, "top", 10, "files in the compact view")
	f.IntVar(&o.Tokens, "tokens", app.DefaultTokens, "token budget (0 prints nothing)")
	f.StringVar(&o.Tokenizer, "tokenizer", "cl100k", "token counter: cl100k, o200k or chars4")
	f.Float64Var(&o.Pressure, "pressure", 0, "share of the agent's context already used (0-1): halves the budget at 0.80, empties it at 0.95")
	f.StringArrayVar(&o.Focus, "focus", nil, "a file the agent is working on (repeatable)")
	f.StringArrayVar(&o.Mention, "mention", nil, "the user's task text (repeatable)")
	f.StringArrayVar(&o.Scope, "scope", nil, "map only files under this folder (repeatable)")
	f.BoolVar(&o.Explain, "explain", false, "after each file, the signals behind its score")
}

func newMapCmd(common *app.Common, io app.IO, refresh bool) *cobra.Command {
	o := &app.MapOptions{Refresh: refresh}
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Print the map (compact view by default)",
		Example: `  charmcraft-map map --top 5
  charmcraft-map map --full --tokens 1500 --focus src/charm.py --mention "fix the database relation"
  charmcraft-map map --all --format json > map.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Common = *common
			return app.RunMap(*o, io)
		},
	}
	if refresh {
		cmd.Use = "refresh"
		cmd.Short = "Discard the cache, reparse everything, then print the map"
		cmd.Example = `  charmcraft-map refresh --full`
	}
	bindMapFlags(cmd, o)
	return cmd
}

func newInterfacesCmd(common *app.Common, io app.IO) *cobra.Command {
	return &cobra.Command{
		Use:   "interfaces",
		Short: "List the charm's declared interfaces and the code linked to each",
		Example: `  charmcraft-map interfaces
  charmcraft-map interfaces --format json | jq '.charms[].interfaces[] | select(.kind=="relation")'`,
		Args: cobra.NoArgs,
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
		Example: `  charmcraft-map check
  charmcraft-map check --strict --format github
  charmcraft-map check --format sarif > charmcraft-map.sarif`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Common = *common
			return app.RunCheck(*o, io)
		},
	}
	cmd.Flags().BoolVar(&o.Strict, "strict", false, "fail on warnings too")
	return cmd
}

func newVersionCmd(common *app.Common, io app.IO) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version and VCS revision",
		Example: `  charmcraft-map version`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return app.RunVersion(*common, io)
		},
	}
}
