package repomap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// ignorer decides which paths the walk leaves out: those the root's .charmcraft-map-ignore
// names, always, and those the .gitignore files and info/exclude of the repository the root is
// in name, as git applies them, unless git tracks them.
type ignorer struct {
	realRoot string
	own      gitignore.Matcher // .charmcraft-map-ignore
	repo     repoOf
	// prefix is the root's folder from the repository's top, split (nil when the root is the
	// top), topRel the same joined: paths are matched from the top
	prefix   []string
	topRel   string
	patterns []gitignore.Pattern // the .gitignore files in force
	// stack remembers how many patterns were in force when each folder was entered, so the
	// patterns of a nested .gitignore apply to that folder's subtree only
	stack   []ignoreFrame
	tracked *trackedSet // loaded at the first .gitignore match
	warn    func(string)
}

type ignoreFrame struct {
	dir string
	n   int
}

// newIgnorer reads the root's own ignore file and the ignore files of the repository above
// the root; warn is told of an ignore file that exists and cannot be read (what it hides would
// be mapped).
func newIgnorer(root, realRoot string, warn func(string)) *ignorer {
	g := &ignorer{realRoot: realRoot, warn: warn}
	if ps, err := readIgnore(filepath.Join(root, IgnoreFile), nil); err == nil && len(ps) > 0 {
		g.own = gitignore.NewMatcher(ps)
	} else if err != nil {
		g.unread(IgnoreFile, err)
	}
	// The repository the root is in, when it is in one: its ignore files above the root and
	// its info/exclude apply as git applies them, and its index says what is tracked.
	g.repo = findRepo(realRoot)
	if r := g.repo.rootRel(realRoot); r != "" {
		g.prefix = splitRel(r)
	}
	if g.repo.gitDir != "" {
		if ps, err := readIgnore(filepath.Join(g.repo.commonDir(), "info", "exclude"), nil); err == nil {
			g.patterns = append(g.patterns, ps...)
		}
		for k := range g.prefix { // the .gitignore files of the folders above the root, top first
			dir := filepath.Join(append([]string{g.repo.top}, g.prefix[:k]...)...)
			if ps, err := readIgnore(filepath.Join(dir, ".gitignore"), slices.Clip(g.prefix[:k])); err == nil {
				g.patterns = append(g.patterns, ps...)
			}
		}
	}
	// A root the repository itself ignores (a charm under a home folder whose dotfiles
	// repository ignores "*") is not that repository's: its own files decide.
	if len(g.prefix) > 0 && len(g.patterns) > 0 {
		m := gitignore.NewMatcher(g.patterns)
		for k := 1; k <= len(g.prefix); k++ {
			if m.Match(g.prefix[:k], true) {
				g.repo, g.prefix, g.patterns = repoOf{}, nil, nil
				break
			}
		}
	}
	g.topRel = path.Join(g.prefix...)
	return g
}

// unread warns of an ignore file that exists and could not be read.
func (g *ignorer) unread(rel string, err error) {
	if !errors.Is(err, fs.ErrNotExist) {
		g.warn(fmt.Sprintf("%s: not read (%v); its patterns are not applied", rel, err))
	}
}

// fromTop is parts (a path under the root) as a path from the repository's top; the root's
// own parts when the root is the top (no copy: it is called for every path walked).
func (g *ignorer) fromTop(parts []string) []string {
	if len(g.prefix) == 0 {
		return parts
	}
	return append(slices.Clip(g.prefix), parts...)
}

// leave drops the patterns of the folders the walk has left, before it visits rel.
func (g *ignorer) leave(rel string) {
	for len(g.stack) > 0 && !within(rel, g.stack[len(g.stack)-1].dir) {
		g.patterns = g.patterns[:g.stack[len(g.stack)-1].n]
		g.stack = g.stack[:len(g.stack)-1]
	}
}

// enter puts in force the .gitignore of the folder p (rel from the root), for its subtree.
func (g *ignorer) enter(p, rel string, parts []string) {
	g.stack = append(g.stack, ignoreFrame{dir: rel, n: len(g.patterns)})
	if ps, err := readIgnore(filepath.Join(p, ".gitignore"), g.fromTop(parts)); err == nil {
		g.patterns = append(g.patterns, ps...)
	} else {
		g.unread(path.Join(rel, ".gitignore"), err)
	}
}

// ignored reports a path (rel, and split as parts) to leave out.
func (g *ignorer) ignored(parts []string, rel string, dir bool) bool {
	if g.own != nil && g.own.Match(parts, dir) {
		return true
	}
	if len(g.patterns) == 0 || !gitignore.NewMatcher(g.patterns).Match(g.fromTop(parts), dir) {
		return false
	}
	if g.tracked == nil {
		g.tracked = loadTracked(g.repo)
	}
	if g.tracked.unknown && charmLibPath(g.realRoot, rel, parts, dir) {
		// no repository to ask: charm libraries are committed (charmcraft fetch-lib), so
		// the template's "lib/" line does not hide lib/charms/ of an exported tree
		return false
	}
	return !g.tracked.has(path.Join(g.topRel, rel), dir)
}

// readIgnore reads a gitignore-syntax file whose patterns apply under domain.
func readIgnore(file string, domain []string) ([]gitignore.Pattern, error) {
	fi, err := os.Lstat(file)
	switch {
	case err != nil || fi.Mode()&fs.ModeSymlink != 0:
		// absent; a folder that cannot be read, which the walk reports; or a link, which git
		// does not follow either
		return nil, fs.ErrNotExist
	case !fi.Mode().IsRegular():
		return nil, errors.New("not a regular file")
	case fi.Size() > maxSourceBytes:
		return nil, fmt.Errorf("larger than %d bytes", maxSourceBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxSourceBytes)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps, nil
}

// charmLibPath reports a path of charm libraries: under a lib/charms/ folder, or a lib/ or
// lib/charms/ folder holding them.
func charmLibPath(realRoot, rel string, parts []string, dir bool) bool {
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == "lib" && parts[i+1] == "charms" {
			return true
		}
	}
	if dir && len(parts) > 0 && parts[len(parts)-1] == "lib" {
		fi, err := os.Stat(filepath.Join(realRoot, filepath.FromSlash(rel), "charms"))
		return err == nil && fi.IsDir()
	}
	return false
}

// trackedSet holds the files git tracks (paths from the repository's top) and their folders.
// unknown says nothing tells what is tracked: the root is in no repository, or its index
// could not be read (absent, corrupt, not a regular file, over maxIndexBytes).
type trackedSet struct {
	files, dirs map[string]bool
	unknown     bool
}

func (t *trackedSet) has(rel string, dir bool) bool {
	if dir {
		return t.dirs[rel]
	}
	return t.files[rel]
}

// maxIndexBytes bounds the git index read (a 100,000-file repository's is about 10 MB): a
// larger one is not read (its tracked files are unknown, as in an exported tree), since it
// would be decoded on every run, a warm one too (a 200,000-file index costs about 0.5 s).
const maxIndexBytes = 16 << 20

// repoOf is the git repository a root is in: its top folder and its git folder (a .git
// folder, or the one a .git file points at: "gitdir: ...", worktrees and submodules). Both
// are "" outside any repository; gitDir is "" too when the .git there cannot be followed.
type repoOf struct{ top, gitDir string }

// commonDir is the git folder a linked worktree shares with its main checkout (named by the
// commondir file of its own git folder), which holds info/exclude; gitDir otherwise.
func (r repoOf) commonDir() string {
	p := filepath.Join(r.gitDir, "commondir")
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return r.gitDir
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return r.gitDir
	}
	d := strings.TrimSpace(string(b))
	if !filepath.IsAbs(d) {
		d = filepath.Join(r.gitDir, d)
	}
	return d
}

// RepoRel is root's folder from the top of the git repository that holds it, '/'-separated
// ("charms/api" when a monorepo's charm is mapped on its own), or "" when root is the top or
// lies in no repository: what CI annotations, which a forge resolves from the repository's
// top, put before a root-relative path.
func RepoRel(root string) string {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return ""
	}
	if realRoot, err = filepath.Abs(realRoot); err != nil {
		return ""
	}
	return findRepo(realRoot).rootRel(realRoot)
}

// rootRel is realRoot's folder from the repository's top, '/'-separated; "" when realRoot is
// the top or the repository is none.
func (r repoOf) rootRel(realRoot string) string {
	if r.top == "" || r.top == realRoot {
		return ""
	}
	rel, err := filepath.Rel(r.top, realRoot)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// findRepo looks for the repository holding realRoot, from realRoot up.
func findRepo(realRoot string) repoOf {
	for d := realRoot; ; {
		g := filepath.Join(d, ".git")
		if fi, err := os.Lstat(g); err == nil {
			r := repoOf{top: d}
			switch {
			case fi.IsDir():
				r.gitDir = g
			case fi.Mode().IsRegular() && fi.Size() < 4096:
				if data, err := os.ReadFile(g); err == nil {
					if gd, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
						r.gitDir = strings.TrimSpace(gd)
						if !filepath.IsAbs(r.gitDir) {
							r.gitDir = filepath.Join(d, r.gitDir)
						}
					}
				}
			}
			return r
		}
		p := filepath.Dir(d)
		if p == d {
			return repoOf{}
		}
		d = p
	}
}

// loadTracked reads the git index of the repository repo: the files it tracks, by their
// paths from its top. Without a repository, or with an index it cannot read (unknown),
// nothing is tracked and .gitignore applies to every file, except to charm libraries: see
// charmLibPath.
func loadTracked(repo repoOf) (t *trackedSet) {
	none := func() *trackedSet {
		return &trackedSet{files: map[string]bool{}, dirs: map[string]bool{}, unknown: true}
	}
	t = none()
	defer func() {
		if recover() != nil { // a corrupt index never stops the map
			t = none()
		}
	}()
	gitDir := repo.gitDir
	if gitDir == "" {
		return t
	}
	ip := filepath.Join(gitDir, "index")
	if fi, err := os.Lstat(ip); err != nil || !fi.Mode().IsRegular() { // a FIFO would block the open
		return t
	}
	f, err := os.Open(ip)
	if err != nil {
		return t
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxIndexBytes {
		return t
	}
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return t
	}
	t.unknown = false
	for _, e := range idx.Entries {
		t.files[e.Name] = true
		for d := path.Dir(e.Name); d != "." && !t.dirs[d]; d = path.Dir(d) {
			t.dirs[d] = true
		}
	}
	return t
}
