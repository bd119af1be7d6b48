package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cantrip-dev/charmcraft-map/app"
)

const charmsDir = "../../testdata/charms"

// execute runs a command line as main does and returns its exit code, stdout and stderr.
func execute(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, app.IO{Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

// commands lists every command a user can run, the root first, found by walking the tree, so
// commands added later are covered without editing this test.
func commands() []*cobra.Command {
	root := newRootCmd(&app.Common{}, app.IO{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		all = append(all, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return all
}

func TestEveryCommandHelpHasExample(t *testing.T) {
	cmds := commands()
	seen := map[string]bool{}
	for _, c := range cmds {
		seen[c.Name()] = true
		path := strings.Fields(c.CommandPath())[1:]
		code, out, errs := execute(append(path, "--help")...)
		if code != 0 || errs != "" {
			t.Errorf("%s --help: exit %d, stderr %q", c.CommandPath(), code, errs)
		}
		i := strings.Index(out, "Examples:\n")
		if i < 0 || !strings.Contains(out[i:], "charmcraft-map") {
			t.Errorf("%s --help shows no example:\n%s", c.CommandPath(), out)
		}
	}
	for _, want := range []string{"map", "refresh", "interfaces", "check", "version", "completion",
		"bash", "zsh", "fish", "powershell", "help"} {
		if !seen[want] {
			t.Errorf("command %q not found among %d commands", want, len(cmds))
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	marks := map[string]string{
		"bash":       "complete -o default -F __start_charmcraft-map charmcraft-map",
		"zsh":        "#compdef charmcraft-map",
		"fish":       "complete -c charmcraft-map",
		"powershell": "Register-ArgumentCompleter -CommandName 'charmcraft-map'",
	}
	for sh, mark := range marks {
		code, out, errs := execute("completion", sh)
		if code != 0 || errs != "" || !strings.Contains(out, mark) {
			t.Errorf("completion %s: exit %d, stderr %q, %d bytes without %q", sh, code, errs, len(out), mark)
		}
	}
}

func TestFlagValueCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "check", "--format", ""}, []string{"text", "json", "github", "sarif"}},
		{[]string{"__complete", "map", "--tokenizer", ""}, []string{"cl100k", "o200k", "chars4"}},
		{[]string{"__complete", "refresh", "--tokenizer", ""}, []string{"cl100k", "o200k", "chars4"}},
	} {
		code, out, _ := execute(tc.args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		got := lines[:len(lines)-1] // the last line is the directive
		if code != 0 || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%v: exit %d, got %q, want %q", tc.args, code, got, tc.want)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := execute("version")
	want := "charmcraft-map " + app.ReadVersion().Version
	if code != 0 || errs != "" || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("version: exit %d, stdout %q, stderr %q; want one line starting %q", code, out, errs, want)
	}
	code, out, _ = execute("version", "--format", "json")
	var doc struct {
		SchemaVersion int    `json:"schema_version"`
		Version       string `json:"version"`
		Go            string `json:"go"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 || doc.SchemaVersion != 1 ||
		doc.Version == "" || !strings.HasPrefix(doc.Go, "go") {
		t.Errorf("version --format json: exit %d, %q (%v)", code, out, err)
	}
}

func TestUnknownFlagIsOneLineUsageError(t *testing.T) {
	for _, args := range [][]string{{"--bogus"}, {"check", "--bogus"}, {"map", "--tokens", "many"}, {"interfaces", "extra"},
		{"completion"}, {"completion", "nope"}} {
		code, out, errs := execute(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "charmcraft-map: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out, errs)
		}
	}
	// a value of the wrong type says what the flag wants, not what strconv said
	for flag, want := range map[string]string{"--tokens": "want a whole number", "--pressure": "want a number", "--no-cache": "want true or false"} {
		_, _, errs := execute("map", flag+"=many")
		if !strings.Contains(errs, `invalid argument "many" for "`+flag+`" flag: `+want) || strings.Contains(errs, "strconv") {
			t.Errorf("map %s=many: stderr %q", flag, errs)
		}
	}
	// a whole number too large for one says so
	if _, _, errs := execute("map", "--tokens=99999999999999999999"); !strings.Contains(errs, "want a whole number in range") {
		t.Errorf("--tokens out of range: stderr %q", errs)
	}
}

// TestTextStartingWithDash: a task text that starts with '-' (a commit body's bullet) is
// parsed as short flags; the error says to put -- before it, and with -- the text is read.
func TestTextStartingWithDash(t *testing.T) {
	root := filepath.Join(charmsDir, "split")
	text := "- fix: the database relation\n- more"
	code, out, errs := execute("locate", "--root", root, "--no-cache", text)
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "put -- before it (charmcraft-map locate -- TEXT)") {
		t.Errorf("locate %q: exit %d, stdout %q, stderr %q; want exit 2 and the -- hint", text, code, out, errs)
	}
	if code, _, errs = execute("locate", "--root", root, "--bogus"); code != 2 || strings.Contains(errs, "put --") {
		t.Errorf("locate --bogus: exit %d, stderr %q; want a plain unknown-flag error", code, errs)
	}
	if code, out, errs = execute("locate", "--root", root, "--no-cache", "--", text); code != 0 || out == "" {
		t.Errorf("locate -- %q: exit %d, stdout %q, stderr %q", text, code, out, errs)
	}
}

// TestJSONErrorDocument: with --format json a failure prints the error document on stdout,
// also when the bad flag comes before --format and stops flag parsing.
func TestJSONErrorDocument(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	spaced := filepath.Join(t.TempDir(), "my charm")
	if err := os.Mkdir(spaced, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code string
		msg  string
	}{
		{[]string{"map", "--format", "json", "--root", missing}, "usage", "does not exist"},
		{[]string{"check", "--format=json", "--root", missing}, "usage", "does not exist"},
		{[]string{"--bogus", "--format", "json"}, "usage", "unknown flag: --bogus"},
		{[]string{"map", "extra", "--format", "json"}, "usage", `unknown command "extra"`},
		{[]string{"check", filepath.Dir(missing), "--format", "json"}, "usage", "the charm's folder is given as --root, not as an argument: charmcraft-map check --root " + filepath.Dir(missing)},
		{[]string{"interfaces", spaced, "--format", "json"}, "usage", "charmcraft-map interfaces --root '" + spaced + "'"},
		{[]string{"version", filepath.Dir(missing), "--format", "json"}, "usage", `unknown command "` + filepath.Dir(missing) + `"`}, // no tree to root
		{[]string{"map", "--format", "json", "--pressure", "2"}, "usage", "--pressure"},
		{[]string{"locate", "x", "--format", "json", "--root", ""}, "usage", "--root is empty"}, // an unset variable
	} {
		code, out, errs := execute(tc.args...)
		var doc struct {
			SchemaVersion int `json:"schema_version"`
			Error         struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%v: stdout is not a JSON document: %q (%v)", tc.args, out, err)
			continue
		}
		if !strings.HasPrefix(out, `{"schema_version":1,"error":`) { // first, as in every document
			t.Errorf("%v: the error document does not start with its schema_version: %q", tc.args, out)
		}
		if code != 2 || doc.SchemaVersion != 1 || doc.Error.Code != tc.code || !strings.Contains(doc.Error.Message, tc.msg) {
			t.Errorf("%v: exit %d, document %+v; want exit 2, code %q, message with %q", tc.args, code, doc, tc.code, tc.msg)
		}
		if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: stderr %q, want the message on one line", tc.args, errs)
		}
	}
}

func TestFormatArg(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"map", "--format", "json"}, "json"},
		{[]string{"--format=json", "--format", "text"}, "text"},
		{[]string{"--format"}, ""},
		{[]string{"--", "--format", "json"}, ""},
	} {
		if got := formatArg(tc.args); got != tc.want {
			t.Errorf("formatArg(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Help that cannot be written is a failure, as any other output is: exit 2 with the reason.
func TestHelpWriteErrorFails(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help", "check"}, {"map", "-h"}, {"version"}} {
		var errb bytes.Buffer
		if code := run(args, app.IO{Out: fullWriter{}, Err: &errb}); code != 2 || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%q to a full device: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// --format completes to what the command accepts: github and sarif for check only.
func TestFormatCompletion(t *testing.T) {
	for cmd, want := range map[string]string{"check": "text\njson\ngithub\nsarif\n:4\n", "map": "text\njson\n:4\n",
		"locate": "text\njson\n:4\n"} {
		if code, out, _ := execute("__complete", cmd, "--format", ""); code != 0 || out != want {
			t.Errorf("completing %s --format: exit %d, %q, want %q", cmd, code, out, want)
		}
	}
}

func TestHelpTopics(t *testing.T) {
	// help on a command prints its help; on an unknown topic it is a usage error (exit 2)
	if code, out, _ := execute("help", "check"); code != 0 || !strings.Contains(out, "CI lint") {
		t.Errorf("help check: exit %d, stdout %q", code, out)
	}
	if code, out, errs := execute("help", "bogus"); code != 2 || out != "" || !strings.Contains(errs, `unknown help topic "bogus"`) {
		t.Errorf("help bogus: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestCheckExitCodes runs check through the command line on fixture charms: a consistent
// charm exits 0, one with errors 1 (broken: its metadata.yaml is read only partly), and
// --strict turns warnings into a failure (warned: an option no code reads).
func TestIgnoredBudgetFlagsWarn(t *testing.T) {
	// --all has no budget and --full no --top: the flags are valid for map, so the run
	// succeeds, and a warning says they were not used (with no subcommand too).
	root := "../../testdata/charms/unified"
	for _, tc := range []struct {
		args []string
		warn string
	}{
		{[]string{"map", "--all", "--tokens", "0", "--root", root}, "--all prints every file without a budget: --tokens not used"},
		{[]string{"--all", "--top=3", "--pressure", "0.96", "--root", root}, "--top and --pressure not used"},
		{[]string{"map", "--full", "--top", "3", "--root", root}, "--full fills the token budget, not a number of files: --top not used"},
		{[]string{"map", "--full", "--tokens", "300", "--root", root}, ""},
	} {
		code, out, errs := execute(append(tc.args, "--no-cache")...)
		if code != 0 || out == "" || tc.warn != "" && !strings.Contains(errs, "warning: ") || !strings.Contains(errs, tc.warn) || tc.warn == "" && errs != "" {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errs)
		}
	}
	// the JSON budget of --all says it has none
	for args, want := range map[string]bool{"--all": true, "--full": false} {
		_, out, _ := execute("map", args, "--format", "json", "--root", root, "--no-cache")
		if got := strings.Contains(out, `"unbounded": true`); got != want {
			t.Errorf("map %s: unbounded %v, want %v", args, got, want)
		}
	}
}

func TestCheckExitCodes(t *testing.T) {
	warned := t.TempDir()
	for name, text := range map[string]string{
		"metadata.yaml": "name: warned\n",
		"config.yaml":   "options:\n  unread:\n    type: string\n    default: x\n",
		"src/charm.py":  "import ops\n\nclass WarnedCharm(ops.CharmBase):\n    pass\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(warned, name)), 0o755)
		if err := os.WriteFile(filepath.Join(warned, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		has  string // a severity the report must hold
	}{
		{[]string{"check", "--root", filepath.Join(charmsDir, "unified")}, 0, "0 errors"},
		{[]string{"check", "--root", filepath.Join(charmsDir, "inconsistent")}, 1, "error:"},
		{[]string{"check", "--root", filepath.Join(charmsDir, "broken")}, 1, "error:"},
		{[]string{"check", "--root", warned}, 0, "warning:"},
		{[]string{"check", "--strict", "--root", warned}, 1, "error:"},
	} {
		code, out, _ := execute(append(tc.args, "--no-cache")...)
		if code != tc.code || !strings.Contains(out, tc.has) {
			t.Errorf("%v: exit %d, want %d; stdout:\n%s", tc.args, code, tc.code, out)
		}
	}
}

func TestCheckThatCannotRunSaysSoInItsFormat(t *testing.T) {
	// a CI step uploading the SARIF log, or reading the annotations, finds why the check
	// failed, not an empty file; stderr has the one line as for every format
	empty := t.TempDir()
	code, out, errs := execute("check", "--no-cache", "--root", empty, "--format", "sarif")
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string                `json:"level"`
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []any `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 2 || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("sarif: exit %d, %v, stdout %q", code, err, out)
	}
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) != 1 || inv.Notifications[0].Level != "error" ||
		!strings.Contains(inv.Notifications[0].Message.Text, "no charm found") || log.Runs[0].Results == nil || log.Version != "2.1.0" {
		t.Errorf("sarif: %+v", log)
	}
	if !strings.Contains(errs, "no charm found") || strings.Count(errs, "\n") != 1 {
		t.Errorf("sarif: stderr %q", errs)
	}
	code, out, _ = execute("check", "--no-cache", "--root", empty, "--format", "github")
	if code != 2 || !strings.HasPrefix(out, "::error title=charmcraft-map::no charm found") || strings.Count(out, "\n") != 1 {
		t.Errorf("github: exit %d, stdout %q", code, out)
	}
}

func TestCheckMinSeverity(t *testing.T) {
	// --min-severity leaves lower findings out of the report, still counted in the summary;
	// the exit code reads the counts (an error left out would still fail the run, though
	// --min-severity never leaves errors out).
	root := filepath.Join(charmsDir, "inconsistent")
	for _, tc := range []struct {
		args       []string
		code       int
		has, lacks string
	}{
		{[]string{"--min-severity", "error"}, 1, "below --min-severity not shown", "warning:"},
		{[]string{"--min-severity", "warning"}, 1, "warning:", "info:"},
		{[]string{"--min-severity", "info"}, 1, "info:", "not shown"},
		{[]string{"--min-severity", "loud"}, 2, "", "error:"},
	} {
		code, out, errOut := execute(append([]string{"check", "--root", root, "--no-cache"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out, tc.has) || strings.Contains(out, tc.lacks) {
			t.Errorf("%v: exit %d, want %d; stdout:\n%s\nstderr: %s", tc.args, code, tc.code, out, errOut)
		}
	}
	code, out, _ := execute("check", "--root", root, "--no-cache", "--min-severity", "error", "--format", "json")
	var doc struct {
		Diagnostics []struct{ Severity string }
		Summary     struct{ Errors, Warnings, Infos, Hidden int }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 {
		t.Fatalf("json: exit %d, %v:\n%s", code, err, out)
	}
	if len(doc.Diagnostics) != doc.Summary.Errors || doc.Summary.Hidden != doc.Summary.Warnings+doc.Summary.Infos || doc.Summary.Hidden == 0 {
		t.Errorf("json: %d diagnostics, summary %+v", len(doc.Diagnostics), doc.Summary)
	}
}

// TestReadmeExamples: every `$ charmcraft-map ...` example in the README prints what the README
// shows (run from the repository root, without the cache): the whole output, or, where the
// example elides lines with a line holding only "…", the lines shown, in order. `check` may exit
// 1 (it found errors); every other example exits 0.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range strings.Split(string(readme), "```\n$ charmcraft-map ")[1:] {
		cmdline, rest, _ := strings.Cut(block, "\n")
		want, _, _ := strings.Cut(rest, "```")
		args := strings.Fields(cmdline)
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = "../../" + a
			}
		}
		code, out, errs := execute(append(args, "--no-cache")...)
		okCode := code == 0 || code == 1 && args[0] == "check"
		if !okCode || !shows(out, want) {
			t.Errorf("$ charmcraft-map %s: exit %d, stderr %q\ngot:\n%s\nREADME shows:\n%s", cmdline, code, errs, out, want)
		}
		n++
	}
	if n < 3 {
		t.Errorf("found %d examples in the README", n)
	}
}

// shows reports whether out is what a README example shows: want itself, or, when want has
// lines holding only "…", want's other lines in order, the first and last in place.
func shows(out, want string) bool {
	if !strings.Contains(want, "\n…\n") {
		return out == want
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	lines := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	if len(got) == 0 || got[0] != lines[0] || got[len(got)-1] != lines[len(lines)-1] {
		return false
	}
	i := 0
	for _, l := range lines {
		if l == "…" {
			continue
		}
		for i < len(got) && got[i] != l {
			i++
		}
		if i == len(got) {
			return false
		}
		i++
	}
	return true
}

func TestPanicIsAnInternalError(t *testing.T) {
	// A panic in a command (a bug of ours) is one line on stderr and exit 2, and the JSON error
	// document under --format json: never a stack trace.
	cmd := &cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("index out of range") }}
	cmd.SetArgs(nil)
	err := execute1(cmd)
	if app.ExitCode(err) != app.ExitFailure {
		t.Fatalf("exit %d for %v", app.ExitCode(err), err)
	}
	var out, errOut bytes.Buffer
	app.ReportError(app.IO{Out: &out, Err: &errOut}, "json", err)
	var doc struct {
		Error struct{ Code, Message string }
	}
	if json.Unmarshal(out.Bytes(), &doc) != nil || doc.Error.Code != "internal" || !strings.Contains(doc.Error.Message, "index out of range") ||
		strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

func TestHelpLeavesOutFlagsACommandDoesNotUse(t *testing.T) {
	// diff and version read no tree, completion no tree and no format: their help does not
	// offer --root or --no-cache (review rev86), yet a script passing them to every command
	// still works. The commands that read the tree keep them.
	for _, tc := range []struct {
		args      []string
		hide, has []string
	}{
		{[]string{"version", "--help"}, []string{"--root", "--no-cache"}, []string{"--format"}},
		{[]string{"diff", "--help"}, []string{"--root", "--no-cache"}, []string{"--format"}},
		{[]string{"completion", "bash", "--help"}, []string{"--root", "--no-cache", "--format"}, nil},
		{[]string{"map", "--help"}, nil, []string{"--root", "--no-cache", "--format"}},
		{[]string{"check", "--help"}, nil, []string{"--root", "--no-cache", "--format"}},
	} {
		code, out, _ := execute(tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", tc.args, code)
		}
		for _, f := range tc.hide {
			if strings.Contains(out, f+" ") {
				t.Errorf("%v offers %s", tc.args, f)
			}
		}
		for _, f := range tc.has {
			if !strings.Contains(out, f+" ") {
				t.Errorf("%v does not offer %s", tc.args, f)
			}
		}
	}
	if code, out, errs := execute("version", "--root", "/nonexistent", "--no-cache"); code != 0 || !strings.HasPrefix(out, "charmcraft-map ") {
		t.Errorf("version --root --no-cache: exit %d %q %q", code, out, errs)
	}
}
