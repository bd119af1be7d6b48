package check

import (
	"fmt"
	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
)

// WriteText writes one line per diagnostic, `file:line: severity: message [rule]`, then a
// summary line.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		if loc := location(d); loc != "" {
			b.WriteString(safetext.Line(loc) + ": ")
		}
		fmt.Fprintf(&b, "%s: %s [%s]\n", d.Severity, safetext.Line(d.Message), d.Rule)
	}
	b.WriteString(summaryLine(r.Summary) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// location is "file:line", "file" or "".
func location(d Diagnostic) string {
	if d.File == "" || d.Line <= 0 {
		return d.File
	}
	return d.File + ":" + strconv.Itoa(d.Line)
}

func summaryLine(s Summary) string {
	line := fmt.Sprintf("%s, %s, %s", plural(s.Errors, "error"), plural(s.Warnings, "warning"), plural(s.Infos, "info"))
	if s.Unresolved > 0 {
		line += fmt.Sprintf("; %s not resolved statically", plural(s.Unresolved, "dynamic name"))
	}
	if s.Suppressed > 0 {
		line += fmt.Sprintf("; %s silenced by charmcraft-map: ignore comments", plural(s.Suppressed, "finding"))
	}
	if s.Hidden > 0 {
		line += fmt.Sprintf("; %s below --min-severity not shown", plural(s.Hidden, "finding"))
	}
	return line
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// WriteJSON writes the `check` JSON document of CONTRACT §3.
func WriteJSON(w io.Writer, r Report) error {
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	return writeJSON(w, struct {
		SchemaVersion int `json:"schema_version"`
		Report
	}{1, r})
}

func writeJSON(w io.Writer, v any) error { return jsonout.Write(w, v) }

// WriteGitHub writes each diagnostic as a GitHub Actions workflow command
// (`::error file=F,line=L,title=RULE::MESSAGE`; info becomes `::notice`), then the summary
// line as plain log output.
func WriteGitHub(w io.Writer, r Report) error {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		cmd := d.Severity
		if cmd == SeverityInfo {
			cmd = "notice"
		}
		var props []string
		if d.File != "" {
			props = append(props, "file="+escapeProperty(lines(d.File))) // a line break in a path too: %0A
			if d.Line > 0 {
				props = append(props, "line="+strconv.Itoa(d.Line))
			}
		}
		props = append(props, "title="+escapeProperty(d.Rule))
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(lines(d.Message)))
	}
	b.WriteString(summaryLine(r.Summary) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// lines is s with the control characters of each line escaped (safetext), its line breaks
// kept: an annotation's message may span lines (%0A), an escape sequence may not act.
func lines(s string) string {
	ls := strings.Split(s, "\n")
	for i := range ls {
		ls[i] = safetext.Line(ls[i])
	}
	return strings.Join(ls, "\n")
}

// escapeData escapes a workflow command's message.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a workflow command's property value.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace

// SARIF 2.1.0, the subset code scanning tools read.
const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifToolURI = "https://github.com/cantrip-dev/charmcraft-map"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations,omitempty"`
	Results     []sarifResult     `json:"results"`
}

// sarifInvocation says that the run failed, and why (WriteSARIFFailure).
type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifText    `json:"shortDescription"`
	FullDescription      sarifText    `json:"fullDescription"`
	DefaultConfiguration sarifRuleCfg `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRuleCfg struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(severity string) string {
	if severity == SeverityInfo {
		return "note"
	}
	return severity
}

// sarifDriverOf describes the tool and every rule.
func sarifDriverOf() sarifDriver {
	driver := sarifDriver{Name: "charmcraft-map", InformationURI: sarifToolURI, Rules: make([]sarifRule, len(Rules))}
	for i, rule := range Rules {
		driver.Rules[i] = sarifRule{ID: rule.Name, ShortDescription: sarifText{rule.Short},
			FullDescription: sarifText{rule.Short + " " + rule.Why}, DefaultConfiguration: sarifRuleCfg{sarifLevel(rule.Severity)}}
	}
	return driver
}

// WriteSARIFFailure writes the SARIF log of a check that could not run (exit 2: no charm, an
// unreadable tree, a bad flag): no results, and an invocation that failed with the message.
// A CI step uploading the log finds a valid one that says why, not an empty file.
func WriteSARIFFailure(w io.Writer, message string) error {
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool:        sarifTool{sarifDriverOf()},
		Invocations: []sarifInvocation{{Notifications: []sarifNotification{{Level: "error", Message: sarifText{message}}}}},
		Results:     []sarifResult{},
	}}})
}

// WriteGitHubFailure writes the workflow command of a check that could not run: an error
// annotation with the message, which the run's summary shows.
func WriteGitHubFailure(w io.Writer, message string) error {
	_, err := fmt.Fprintf(w, "::error title=charmcraft-map::%s\n", escapeData(lines(message)))
	return err
}

// WriteSARIF writes the report as a SARIF 2.1.0 log with one run, describing every rule.
func WriteSARIF(w io.Writer, r Report) error {
	driver := sarifDriverOf()
	results := make([]sarifResult, len(r.Diagnostics))
	for i, d := range r.Diagnostics {
		results[i] = sarifResult{RuleID: d.Rule, Level: sarifLevel(d.Severity), Message: sarifText{d.Message}}
		if d.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{(&url.URL{Path: d.File}).String()}}}
			if d.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{d.Line}
			}
			results[i].Locations = []sarifLocation{loc}
		}
	}
	return writeJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0",
		Runs: []sarifRun{{Tool: sarifTool{driver}, Results: results}}})
}
