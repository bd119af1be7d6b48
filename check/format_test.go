package check

import (
	"encoding/json"
	"strings"
	"testing"
)

func sample() Report {
	return Report{
		Diagnostics: []Diagnostic{
			{Rule: RuleUndeclaredRelation, Severity: SeverityError, Message: "C uses relation endpoint \"db\"", File: "src/charm.py", Line: 12, Subject: "db"},
			{Rule: RuleUnusedConfig, Severity: SeverityWarning, Message: "100% unused,\nreally", File: "dir,with:odd%/config.yaml", Line: 3, Subject: "x"},
			{Rule: RuleUnresolvedName, Severity: SeverityInfo, Message: "dynamic", File: "src/charm.py", Subject: "self.on[n]"},
			{Rule: RuleYAMLProblem, Severity: SeverityWarning, Message: "no place"},
		},
		Summary: Summary{Errors: 1, Warnings: 2, Infos: 1, Unresolved: 1},
	}
}

func TestWriteTextLocations(t *testing.T) {
	var b strings.Builder
	if err := WriteText(&b, sample()); err != nil {
		t.Fatal(err)
	}
	// one line per diagnostic: a newline in a message (or a file name) is written as "\n",
	// so that no line of ours starts with what a CI log reads as a command ("::error")
	want := `src/charm.py:12: error: C uses relation endpoint "db" [undeclared-relation]
dir,with:odd%/config.yaml:3: warning: 100% unused,\nreally [unused-config]
src/charm.py: info: dynamic [unresolved-name]
warning: no place [yaml-problem]
1 error, 2 warnings, 1 info; 1 dynamic name not resolved statically
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestWriteJSON(t *testing.T) {
	var b strings.Builder
	if err := WriteJSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SchemaVersion *int             `json:"schema_version"`
		Diagnostics   []map[string]any `json:"diagnostics"`
		Summary       map[string]int   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion == nil || *doc.SchemaVersion != 1 {
		t.Errorf("schema_version missing: %s", b.String())
	}
	if len(doc.Diagnostics) != 4 {
		t.Fatalf("diagnostics: %v", doc.Diagnostics)
	}
	for _, k := range []string{"rule", "severity", "message", "file", "line", "subject"} {
		if _, ok := doc.Diagnostics[0][k]; !ok {
			t.Errorf("diagnostic lacks %q", k)
		}
	}
	if doc.Diagnostics[0]["rule"] != "undeclared-relation" || doc.Diagnostics[0]["line"] != 12.0 {
		t.Errorf("first diagnostic %v", doc.Diagnostics[0])
	}
	if doc.Summary["errors"] != 1 || doc.Summary["warnings"] != 2 || doc.Summary["infos"] != 1 || doc.Summary["unresolved"] != 1 {
		t.Errorf("summary %v", doc.Summary)
	}

	b.Reset()
	if err := WriteJSON(&b, Report{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"diagnostics": []`) {
		t.Errorf("empty report must have an empty list: %s", b.String())
	}
}

func TestWriteGitHub(t *testing.T) {
	var b strings.Builder
	if err := WriteGitHub(&b, sample()); err != nil {
		t.Fatal(err)
	}
	want := `::error file=src/charm.py,line=12,title=undeclared-relation::C uses relation endpoint "db"
::warning file=dir%2Cwith%3Aodd%25/config.yaml,line=3,title=unused-config::100%25 unused,%0Areally
::notice file=src/charm.py,title=unresolved-name::dynamic
::warning title=yaml-problem::no place
1 error, 2 warnings, 1 info; 1 dynamic name not resolved statically
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestWriteGitHubPathWithALineBreak(t *testing.T) {
	// a line break in a file's name is escaped as GitHub reads it (%0A), not written "\n"
	r := Report{Diagnostics: []Diagnostic{{Rule: RuleUnusedConfig, Severity: SeverityWarning, Message: "m", File: "odd\nname/config.yaml", Line: 2}},
		Summary: Summary{Warnings: 1}}
	var b strings.Builder
	if err := WriteGitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "::warning file=odd%0Aname/config.yaml,line=2,title=unused-config::m\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("got %q, want it to start %q", b.String(), want)
	}
}

func TestEscape(t *testing.T) {
	if got := escapeData("a%b\r\nc:d,e"); got != "a%25b%0D%0Ac:d,e" {
		t.Errorf("data %q", got)
	}
	if got := escapeProperty("a%b\r\nc:d,e"); got != "a%25b%0D%0Ac%3Ad%2Ce" {
		t.Errorf("property %q", got)
	}
}

// The SARIF log decodes into the 2.1.0 shape, with every field code scanning requires.
func TestWriteSARIF(t *testing.T) {
	var b strings.Builder
	if err := WriteSARIF(&b, sample()); err != nil {
		t.Fatal(err)
	}
	type text struct {
		Text string `json:"text"`
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name           string `json:"name"`
					InformationURI string `json:"informationUri"`
					Rules          []struct {
						ID                   string `json:"id"`
						ShortDescription     text   `json:"shortDescription"`
						FullDescription      text   `json:"fullDescription"`
						DefaultConfiguration struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Message   text   `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	dec := json.NewDecoder(strings.NewReader(b.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&log); err != nil {
		t.Fatalf("decode: %v\n%s", err, b.String())
	}
	if !strings.Contains(log.Schema, "sarif-schema-2.1.0") || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("header: %q %q runs=%d", log.Schema, log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "charmcraft-map" || !strings.HasPrefix(run.Tool.Driver.InformationURI, "https://") {
		t.Errorf("driver %+v", run.Tool.Driver)
	}
	levels := map[string]string{}
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" {
			t.Errorf("rule %+v incomplete", r)
		}
		levels[r.ID] = r.DefaultConfiguration.Level
	}
	if len(levels) != len(Rules) || levels[RuleUndeclaredRelation] != "error" || levels[RuleUnusedConfig] != "warning" || levels[RuleUnresolvedName] != "note" {
		t.Errorf("rule levels %v", levels)
	}
	if len(run.Results) != 4 {
		t.Fatalf("results %d", len(run.Results))
	}
	r0, r1, r2, r3 := run.Results[0], run.Results[1], run.Results[2], run.Results[3]
	if r0.RuleID != RuleUndeclaredRelation || r0.Level != "error" || r0.Message.Text == "" ||
		r0.Locations[0].PhysicalLocation.ArtifactLocation.URI != "src/charm.py" || r0.Locations[0].PhysicalLocation.Region.StartLine != 12 {
		t.Errorf("result 0 %+v", r0)
	}
	// a colon in the first segment is disambiguated with "./"
	if r1.Level != "warning" || r1.Locations[0].PhysicalLocation.ArtifactLocation.URI != "./dir,with:odd%25/config.yaml" {
		t.Errorf("result 1 %+v", r1)
	}
	if r2.Level != "note" || r2.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("result 2: a line-less site has no region: %+v", r2)
	}
	if len(r3.Locations) != 0 {
		t.Errorf("result 3: a place-less diagnostic has no location: %+v", r3)
	}
	if !strings.Contains(b.String(), `"results": [`) {
		t.Error("results must be a list")
	}
}
