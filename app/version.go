package app

import (
	"fmt"
	"runtime/debug"
)

// VersionInfo is what `version` prints: the module version (set by `go install module@version`;
// a pseudo-version for a build inside a git checkout; "(devel)" when the build recorded none,
// as with -buildvcs=false) and the VCS revision, which only a build inside a git checkout
// records (not `go install module@version`, nor a build with -buildvcs=false).
type VersionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// ReadVersion reads the build info.
func ReadVersion() VersionInfo {
	v := VersionInfo{Version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// RunVersion prints the version.
func RunVersion(c Common, io IO) error {
	if err := checkFormat(c.Format, "text", "json"); err != nil {
		return err
	}
	v := ReadVersion()
	if c.Format == "json" {
		return writeJSON(io.Out, struct {
			SchemaVersion int `json:"schema_version"`
			VersionInfo
		}{SchemaVersion, v})
	}
	s := "charmcraft-map " + v.Version
	if v.Revision != "" {
		s += " (" + v.Revision
		if v.Modified {
			s += ", modified"
		}
		s += ")"
	}
	_, err := fmt.Fprintf(io.Out, "%s %s\n", s, v.Go)
	return err
}
