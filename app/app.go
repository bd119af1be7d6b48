// Package app holds one options struct and one run function per command, apart from the
// cobra wiring in cmd/charmcraft-map, so that commands are tested without a terminal (the
// github.com/cli/cli pattern). Run functions write the command's output to Out and warnings
// to Err, and return an error whose ExitCode the caller uses (CONTRACT §5).
//
// "CONTRACT §n" in comments is section n of the outside contract, summarised in
// docs/contract.md.
package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"io"
	"io/fs"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/repomap"

	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
)

// SchemaVersion is the "schema_version" of every JSON document we print.
const SchemaVersion = 1

// Exit codes (CONTRACT §5).
const (
	ExitOK       = 0
	ExitFindings = 1 // check found errors (or warnings with --strict)
	ExitFailure  = 2 // the tool could not do its job
)

// IO is where a command writes.
type IO struct {
	Out io.Writer
	// CheckOut, when set, takes check's text report instead of Out: main's ColorWriter on a
	// terminal. Nothing else is coloured (a map's bytes must be the same on a terminal).
	CheckOut io.Writer
	Err      io.Writer
	// ErrIsTerminal enables the progress indicator on Err.
	ErrIsTerminal bool
}

// Common are the flags every command shares.
type Common struct {
	Root    string
	Format  string
	NoCache bool
}

// Error is a failure with an exit code and a stable code for the JSON error document.
type Error struct {
	Code string // usage, input, internal, findings
	Exit int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// ExitCode maps any error returned by a run function to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Exit
	}
	return ExitFailure
}

// Usagef builds a usage error (exit 2).
func Usagef(format string, args ...any) error {
	return &Error{Code: "usage", Exit: ExitFailure, Msg: fmt.Sprintf(format, args...)}
}

// Panicked is the error for a panic a command hit (a bug of ours): an internal error, one
// line and exit 2 like any other failure, never a stack trace in the caller's terminal.
func Panicked(r any) error {
	return &Error{Code: "internal", Exit: ExitFailure, Msg: fmt.Sprintf("internal error (a bug; please report it): %v", r)}
}

// errFindings is returned by check when it found errors; nothing more is printed for it.
var errFindings = &Error{Code: "findings", Exit: ExitFindings, Msg: ""}

// classify turns a library error into an *Error.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var u *repomap.UsageError
	if errors.As(err, &u) {
		return &Error{Code: "usage", Exit: ExitFailure, Msg: u.Msg}
	}
	var ie *repomap.InputError
	var pe *fs.PathError
	if errors.As(err, &ie) || errors.As(err, &pe) { // the tree cannot be read (permissions): the input, not a bug
		return &Error{Code: "input", Exit: ExitFailure, Msg: err.Error()}
	}
	return &Error{Code: "internal", Exit: ExitFailure, Msg: err.Error()}
}

// ReportError prints a failure: the JSON error document on Out when format is json, and the
// message on Err as one line. A findings "error" prints nothing.
func ReportError(io IO, format string, err error) {
	err = classify(err)
	var e *Error
	if !errors.As(err, &e) || e.Msg == "" {
		return
	}
	if format == "json" {
		// schema_version first, as in every other document; one line, <, > and & as written
		doc := struct {
			SchemaVersion int `json:"schema_version"`
			Error         struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}{SchemaVersion: SchemaVersion}
		doc.Error.Code, doc.Error.Message = e.Code, e.Msg
		enc := json.NewEncoder(io.Out)
		enc.SetEscapeHTML(false)
		enc.Encode(doc)
	}
	fmt.Fprintf(io.Err, "charmcraft-map: %s\n", oneLine(e.Msg))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(safetext.Line(s)), " ")
}

// saveCache writes the cache a load with SaveLater prepared, with the links the run computed,
// printing Save's own warnings (a cache that could not be written).
func saveCache(t *repomap.Tree, io IO) {
	n := len(t.Warnings)
	t.Save(nil)
	for _, w := range t.Warnings[n:] {
		fmt.Fprintf(io.Err, "warning: %s\n", oneLine(w))
	}
}

// loadMemo loads the tree, or only a remembered output when memoKey hits (see
// repomap.Options.MemoKey); it prints nothing.
func loadMemo(c Common, io IO, refresh bool, scope []string, memoKey string) (*repomap.Tree, error) {
	return loadTree(c, io, repomap.Options{Scope: scope, Refresh: refresh, MemoKey: memoKey})
}

// loadTree loads the tree at c.Root with the options of c (root, cache) added to opt.
func loadTree(c Common, io IO, opt repomap.Options) (*repomap.Tree, error) {
	// an empty --root is a variable left unset ("--root $CHARM_DIR"), not the current folder,
	// where the run would map and cache whatever is there
	if strings.TrimSpace(c.Root) == "" {
		return nil, Usagef("--root is empty: give the charm's folder (. for the current one)")
	}
	opt.Root, opt.NoCache = c.Root, c.NoCache
	if io.ErrIsTerminal {
		opt.Progress = progressPrinter(io.Err)
	}
	t, err := repomap.Load(opt)
	return t, classify(err)
}

// warnings formats a tree's warnings for stderr, one line each, except those in skip.
func warnings(t *repomap.Tree, skip map[string]bool) string {
	var b strings.Builder
	for _, w := range t.Warnings {
		if !skip[w] {
			fmt.Fprintf(&b, "warning: %s\n", oneLine(w))
		}
	}
	return b.String()
}

// progressPrinter draws "parsing n/total" on a terminal for long runs only.
func progressPrinter(w io.Writer) func(done, total int) {
	const minFiles = 500 // below this a run is too short for a progress line to help
	return func(done, total int) {
		if total < minFiles {
			return
		}
		if done%100 == 0 || done == total {
			fmt.Fprintf(w, "\rparsing %d/%d files", done, total)
			if done == total {
				fmt.Fprint(w, "\r\033[K")
			}
		}
	}
}

func checkFormat(format string, allowed ...string) error {
	for _, a := range allowed {
		if format == a {
			return nil
		}
	}
	return Usagef("unknown --format %q (want %s)", format, strings.Join(allowed, ", "))
}

// writeJSON writes v as a JSON document (jsonout).
func writeJSON(w io.Writer, v any) error { return jsonout.Write(w, v) }

// RemoveTempFiles deletes the temporary cache files the running process is writing (see
// repomap.RemoveTempFiles); the command calls it when stopped by a signal.
func RemoveTempFiles() { repomap.RemoveTempFiles() }
