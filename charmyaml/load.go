package charmyaml

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Load reads the charm YAML of root/dir (dir root-relative and '/'-separated, "." for the
// root) and parses it. ok is false when dir is not a charm (see Files.IsCharm) or does not
// exist. Symbolic links are followed only while they stay inside root: a YAML file whose link
// leads out of root is left unread, with a warning. err is set only for I/O errors other than
// a missing file, and for a dir that is absolute or climbs out of root.
func Load(root, dir string) (c Charm, ok bool, err error) {
	return LoadSkipping(root, dir, nil)
}

// LoadSkipping is Load with the YAML files skip reports (by root-relative path) treated as
// absent: those an ignore file leaves out.
func LoadSkipping(root, dir string, skip func(rel string) bool) (c Charm, ok bool, err error) {
	return load(root, dir, "", skip)
}

// LoadBuiltFrom is LoadSkipping for a charm folder with no charmcraft.yaml of its own that
// the build file charmcraft (a root-relative charmcraft.yaml naming no charm, in a folder
// above) builds, as its parts' source says (BuildSources): the OpenStack and bootstack
// reactive layouts keep the layer in src/ and build it with the project root's
// charmcraft.yaml. That file's bases, platforms and parts are then the charm's. A folder with
// a charmcraft.yaml of its own is loaded as LoadSkipping loads it.
func LoadBuiltFrom(root, dir, charmcraft string, skip func(rel string) bool) (c Charm, ok bool, err error) {
	return load(root, dir, charmcraft, skip)
}

func load(root, dir, charmcraft string, skip func(rel string) bool) (c Charm, ok bool, err error) {
	dir = path.Clean(dir)
	if path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
		return Charm{}, false, fmt.Errorf("charmyaml: %q is not a directory inside the root", dir)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return Charm{}, false, ignoreNotExist(err)
	}
	realDir, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil || !inside(realRoot, realDir) {
		return Charm{}, false, ignoreNotExist(err)
	}
	if fi, err := os.Stat(realDir); err != nil || !fi.IsDir() {
		return Charm{}, false, ignoreNotExist(err)
	}
	var warns []string
	var lost []string       // files that exist and could not be read (a link out of the root is not one: see readInside)
	var unreadable []string // the declaration files that could not be opened or read, with why (Charm.Unreadable)
	read := func(name string) ([]byte, error) {
		if skip != nil && skip(path.Join(dir, name)) {
			return nil, nil
		}
		return readInside(realRoot, filepath.Join(realDir, name), path.Join(dir, name), &warns, &lost)
	}
	f := Files{Dir: dir}
	// An unreadable metadata.yaml or charmcraft.yaml (permissions, a directory of that name)
	// still marks a charm: its declarations are lost (Incomplete; for an I/O error also
	// Unreadable, which fails check and interfaces), and the code is not held to a YAML nobody
	// could read. Every unreadable file costs its own interfaces only.
	for _, o := range []struct {
		name string
		data *[]byte
	}{{MetadataFile, &f.Metadata}, {CharmcraftFile, &f.Charmcraft}, {ConfigFile, &f.Config}, {ActionsFile, &f.Actions}} {
		if *o.data, err = read(o.name); err != nil {
			warns = append(warns, path.Join(dir, o.name)+":1: cannot read: "+errText(err))
			lost = append(lost, path.Join(dir, o.name))
			unreadable = append(unreadable, path.Join(dir, o.name)+": "+errText(err))
		}
	}
	if charmcraft != "" && f.Charmcraft == nil && !slices.Contains(lost, path.Join(dir, CharmcraftFile)) {
		// the project's file, not the charm's: unreadable now, it is left out without a word
		var quiet, quietLost []string
		if data, err := readInside(realRoot, filepath.Join(realRoot, filepath.FromSlash(charmcraft)), charmcraft, &quiet, &quietLost); err == nil && data != nil {
			f.Charmcraft, f.CharmcraftPath = data, charmcraft
		}
	}
	// a charm `charm build` has built (its .build.manifest lists what the layers added) holds
	// the merged YAML: its layers add nothing more
	if _, err := os.Lstat(filepath.Join(realDir, ".build.manifest")); err != nil && (skip == nil || !skip(path.Join(dir, LayerFile))) {
		// a build file, not a declaration: unreadable, it is left out without a word
		var quiet, quietLost []string
		f.Layer, _ = readInside(realRoot, filepath.Join(realDir, LayerFile), path.Join(dir, LayerFile), &quiet, &quietLost)
	}
	isCharm := f.IsCharm() || slices.ContainsFunc(lost, func(p string) bool {
		return p == path.Join(dir, MetadataFile) || p == path.Join(dir, CharmcraftFile)
	})
	// a reactive layer's folder (Files.layer) with options or actions: what it declares,
	// `charm build` merges into the charms that include it
	if !isCharm && !(f.layer() && (f.Config != nil || f.Actions != nil)) {
		return Charm{}, false, nil
	}
	for _, p := range lost {
		f.Unread = append(f.Unread, path.Base(p))
	}
	c = Parse(f)
	if c.Name == "" { // the YAML could not be read: its name: line may still be
		if n, line := nameLine(f.Metadata); n != "" {
			c.Name, c.NameAt = n, Pos{File: path.Join(dir, MetadataFile), Line: line}
		} else if n, line := nameLine(f.Charmcraft); n != "" {
			c.Name, c.NameAt = n, Pos{File: path.Join(dir, CharmcraftFile), Line: line}
		}
	}
	for i := range c.Actions {
		c.Actions[i].Script = actionScript(realDir, dir, c.Actions[i].Name, skip)
	}
	c.Incomplete = append(c.Incomplete, lost...)
	slices.Sort(c.Incomplete)
	c.Unreadable = unreadable
	c.Warnings = append(warns, c.Warnings...)
	c.Warnings = append(c.Warnings, misnamedFiles(realDir, dir, f, skip)...)
	return c, true, nil
}

// actionScript is actions/<name> of the charm in dir (root-relative path), when it is an
// executable regular file not left out by skip, or a link to one inside the charm's folder
// (actions/flush-cache -> flush_cache.py, then the Python module's path, which the map
// shows) that is not the charm's entry point (src/charm.py, dispatch, or a hook, which old
// charms link their actions to so that ops dispatches them); "" otherwise.
func actionScript(realDir, dir, name string, skip func(rel string) bool) string {
	rel := path.Join(dir, "actions", name)
	if strings.ContainsAny(name, `/\`) || skip != nil && skip(rel) {
		return ""
	}
	p := filepath.Join(realDir, "actions", name)
	fi, err := os.Lstat(p)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		target, terr := filepath.EvalSymlinks(p)
		if terr != nil || !inside(realDir, target) {
			return ""
		}
		r, rerr := filepath.Rel(realDir, target)
		if rerr != nil || r == filepath.Join("src", "charm.py") || r == "dispatch" ||
			strings.HasPrefix(r, "hooks"+string(filepath.Separator)) {
			return ""
		}
		if strings.HasSuffix(r, ".py") { // the module the map parses and ranks (actions/add-disk -> add_disk.py)
			rel = path.Join(dir, filepath.ToSlash(r))
		}
		fi, err = os.Stat(target)
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return rel
}

// readInside reads the file p (shown as rel in warnings); nil when it does not exist. A symbolic
// link is followed only when its target is inside realRoot; one leading out is treated as
// absent, as the map treats such a Python file. At most maxFileSize+1 bytes are read: Parse
// refuses larger files. A file that exists and cannot be read is added to lost.
func readInside(realRoot, p, rel string, warns, lost *[]string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, ignoreNotExist(err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, ignoreNotExist(err)
		}
		if !inside(realRoot, target) {
			*warns = append(*warns, rel+":1: symbolic link leads out of the root; not read")
			return nil, nil
		}
		if fi, err = os.Stat(target); err != nil {
			return nil, ignoreNotExist(err)
		}
		p = target
	}
	if !fi.Mode().IsRegular() {
		*warns = append(*warns, rel+":1: not a regular file; not read")
		*lost = append(*lost, rel)
		return nil, nil
	}
	fh, err := os.Open(p)
	if err != nil {
		return nil, ignoreNotExist(err)
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, maxFileSize+1))
}

// inside reports whether p is realRoot or below it (both free of symbolic links).
func inside(realRoot, p string) bool {
	rel, err := filepath.Rel(realRoot, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// errText is err without the absolute path a *fs.PathError carries, which differs between
// machines and would make warnings non-deterministic.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// BuildSources are the folders a charmcraft.yaml's parts build from, relative to its own
// folder and cleaned: each part's source, joined with its source-subdir ("source: src/" and
// "source: ." with "source-subdir: src" both give "src"). Remote sources (a URL, a path out of
// the folder) and the folder itself are left out; nil when the YAML cannot be read.
func BuildSources(data []byte) []string {
	var doc struct {
		Parts map[string]any `yaml:"parts"` // a part that is no mapping spoils only itself
	}
	if len(data) > maxFileSize || yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	str := func(v any) string { s, _ := v.(string); return s }
	var out []string
	for _, v := range doc.Parts {
		part, _ := v.(map[string]any)
		p := struct{ Source, SourceSubdir string }{str(part["source"]), str(part["source-subdir"])}
		if _, set := part["source"]; set && p.Source == "" {
			continue // source: [a], a number: not a folder
		}
		src := cmp.Or(p.Source, ".")
		if strings.Contains(src, "://") || strings.HasPrefix(src, "git@") {
			continue
		}
		d := path.Clean(path.Join(filepath.ToSlash(src), filepath.ToSlash(p.SourceSubdir)))
		if d == "." || path.IsAbs(d) || d == ".." || strings.HasPrefix(d, "../") {
			continue
		}
		out = append(out, d)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// misnamedFiles warns of a file beside the charm's YAML named like a declaration file that is
// missing (metadata.yml, metdata.yaml, action.yaml beside no actions.yaml): Juju and charmcraft
// read only metadata.yaml, config.yaml, actions.yaml and charmcraft.yaml, so what it declares
// is lost without a word (review rev84: layer-logstash's metdata.yaml). A .yaml name one edit
// from the declaration file's counts, and its very name with .yml; a file an ignore file
// leaves out does not.
func misnamedFiles(realDir, dir string, f Files, skip func(rel string) bool) []string {
	present := map[string]bool{MetadataFile: f.Metadata != nil, ConfigFile: f.Config != nil, ActionsFile: f.Actions != nil,
		CharmcraftFile: f.Charmcraft != nil && f.CharmcraftPath == ""}
	entries, err := os.ReadDir(realDir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		stem, ok := strings.CutSuffix(name, ".yaml")
		far := 1 // edits from the declaration file's name
		if !ok {
			// (.yml only with the very name: a GitHub composite action's action.yml beside
			// a charm without actions is no misspelt actions.yaml)
			if stem, ok = strings.CutSuffix(name, ".yml"); !ok {
				continue
			}
			far = 0
		}
		if present[name] || !e.Type().IsRegular() || skip != nil && skip(path.Join(dir, name)) {
			continue
		}
		for _, want := range []string{MetadataFile, ConfigFile, ActionsFile, CharmcraftFile} {
			if !present[want] && name != want && EditDistance(stem, strings.TrimSuffix(want, ".yaml")) <= far {
				out = append(out, fmt.Sprintf("%s:1: named like %s, which is missing: Juju and charmcraft read only %s, so what this file declares is ignored", path.Join(dir, name), want, want))
				break
			}
		}
	}
	return out
}
