// Package repomap runs the pipeline: it discovers a tree's files, owns the per-file parse
// cache, and runs the stages in order (charmyaml, pyextract, templates → linker → rank);
// render and the commands consume what it returns.
//
// Decisions:
//   - Python parse results are cached per file in CacheFile, in the shape Cantrip reads (see
//     cache.go). A file whose mtime, size and ctime match its entry is not read (ctime, as git
//     compares it, catches a copy that kept the mtime); one whose stat changed but whose bytes
//     hash the same costs a hash, not a parse. A file stamped within racyWindow of the run
//     is checked by its bytes next time, and the run's output and links are not remembered
//     (git's racily clean files: a filesystem's coarse stamps may not move with an edit).
//   - Charm YAML is re-read on every run: a handful of small files, cheaper to parse than to
//     validate against a cache.
//   - Parsing runs on all cores; results are ordered by path so output never depends on timing.
//   - The cache is written only when something in it changed, atomically.
package repomap

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"math/big"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/internal/clock"
	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
	"github.com/cantrip-dev/charmcraft-map/internal/testdirs"
	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
	"github.com/cantrip-dev/charmcraft-map/rank"
	"github.com/cantrip-dev/charmcraft-map/templates"
)

// Options say which tree to load and how to use the cache.
type Options struct {
	Root    string
	Scope   []string // root-relative folders; empty maps the whole tree
	NoCache bool     // neither read nor write the cache
	Refresh bool     // ignore the cache's contents, reparse everything, then write it
	// MemoKey, when set, asks for a remembered output: if the cache remembers one for this key
	// and the tree is unchanged (same files, mtimes, ctimes, sizes and modes, same binary: see
	// fingerprint), Load returns a Tree with only Memo set. Otherwise it loads the tree and
	// leaves the cache write to Save, so the new output can be remembered in the same write.
	MemoKey string
	// Progress, when set, is called as files are parsed (from one goroutine at a time).
	Progress func(done, total int)
	// SaveLater, with no MemoKey, leaves the cache write to the caller's Save, as MemoKey does,
	// so that the links the run computes (Link) are remembered in the same write.
	SaveLater bool
	// NeedCharm is set by a command that fails without a charm (interfaces, check): when the
	// tree declares none, Load returns it with its warnings and no Python, parsing nothing and
	// writing no cache, so that a run in the wrong folder ($HOME, say) says so at once and
	// leaves nothing behind.
	NeedCharm bool
}

// Tree is a loaded tree: its charms and Python files, ready for the linker and the ranker.
type Tree struct {
	Root   string
	Charms []charmyaml.Charm
	Files  []pyextract.File // sorted by path
	// Templates are the charms' templates (Discovered.Templates, at most templates.MaxFiles)
	// and the option names each uses, sorted by path; they are small text files, read on every
	// run rather than cached. One too large or unreadable has no uses.
	Templates []templates.File
	Warnings  []string // one line each, for stderr
	Stats     Stats
	// Skipped are the Python files listed but not read (unreadable, over the size limit, not
	// Python): in Files with nothing extracted, never a file to suggest editing.
	Skipped map[string]bool
	// UnreadDirs are the folders the walk could not read (Discovered.UnreadDirs).
	UnreadDirs []string
	lostCode   []string // the Python files of Skipped that may hold code (LostCode)
	notPython  []string // the .py files of Skipped that hold binary data (UnreadCode)
	// Scopes are Options.Scope as root-relative '/'-paths ("./k8s/" and "k8s" are "k8s").
	Scopes []string
	// MetadataVariants are, when no charm was found, the YAML files beside a nameless
	// charmcraft.yaml named like a metadata.yaml kept under another name (k8s_metadata.yaml,
	// which a build copies in place): what the error should name.
	MetadataVariants []string
	// Memo is the remembered output when Options.MemoKey hit; nothing else is loaded then.
	Memo *Memo
	// TokenMemo is opaque data the caller keeps in the cache (render's token counts): Load
	// reads it, Save writes what it holds then.
	TokenMemo []byte

	pending *pendingWrite // the cache write Save performs (MemoKey set, cache on)
	// unreadable: a file could not be read; what is printed then is not remembered, since
	// fixing the permission need not change what the memo's fingerprint sees
	unreadable bool // set by parseAll and from loadCharms
	// racy: an input's mtime or ctime is within racyWindow of the run's start (start, in
	// nanoseconds), so its next edit may leave its stat as it is: what is printed and linked
	// is not remembered either, and its cache entry is written for the next run to rehash
	racy      bool
	start     int64
	sameLinks map[string]string   // Discovered.SameLinks: what Link reports once
	hookLinks map[string]string   // Discovered.HookLinks: hooks Juju runs a mapped script for
	hookRuns  map[string][]string // Discovered.HookRuns: the scripts a hook's shell script runs
	shellCode []string            // Discovered.ShellCode: the charms' code that is not Python
	rocks     []string            // Discovered.Rocks: rock projects' folders (rank Input.Rocks)
	fp        string              // the fingerprint of the tree's state (fingerprint)
	links     []byte              // the links the cache remembers for fp (links.go), or nil
}

// Stats count what a load did, for tests and benchmarks.
type Stats struct {
	Files        int  // Python files mapped
	Parsed       int  // parsed with tree-sitter
	Rehashed     int  // read and hashed but found unchanged
	Reused       int  // taken from the cache without reading
	CacheWritten bool // the cache file was (re)written
	// LinksRemembered: Link returned the links the cache remembers for this state of the
	// tree, without running the linker.
	LinksRemembered bool
}

// UsageError is a problem with what the caller asked for (exit code 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// InputError is a tree that cannot be read (a root without read or search permission): the
// input's fault, not the caller's or the tool's (exit code 2, JSON code "input").
type InputError struct {
	Msg string
	Err error // the cause, for errors.Is (fs.ErrPermission)
}

func (e *InputError) Error() string { return e.Msg }
func (e *InputError) Unwrap() error { return e.Err }

// stat is what the cache compares for one input file.
type stat struct {
	mtime, size int64
	// exact is the mtime in nanoseconds, in decimal, when it does not fit in an int64 (a date
	// past 2262 or before 1678, from an archive with bogus dates), where mtime wraps around;
	// "" otherwise. Cantrip compares the exact value.
	exact string
	// ctime is the status-change time, as git compares it: a copy that keeps the mtime (cp -p,
	// rsync -a, touch -r, an archive's timestamps) changes it, so same-size content under an
	// old mtime is not taken for what was parsed.
	ctime int64
	mode  fs.FileMode // in the fingerprint: chmod changes what can be read, not the mtime
	err   error
}

// pendingWrite is a cache write prepared by Load.
type pendingWrite struct {
	fresh  map[string]*usable         // Python entries to write, encoded as they are written
	keep   map[string]json.RawMessage // entries written as they are
	dirty  bool
	fp     string
	memo   memoDoc
	tokens []byte // the TokenMemo as loaded
	// links are the remembered links to write (links.go): the loaded ones while they are the
	// tree's (others are dropped with the next write), or those Link computed
	links []byte
}

// Load discovers, reads and parses the tree at opt.Root.
func Load(opt Options) (*Tree, error) {
	began := time.Now() // real time, for checkpoints (clock.Now is the racy rule's, which tests set)
	root, err := checkRoot(opt.Root)
	if err != nil {
		return nil, err
	}
	scopes, err := cleanScopes(root, opt.Scope)
	if err != nil {
		return nil, err
	}
	disc, err := Discover(root, scopes)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && filepath.Clean(pe.Path) == filepath.Clean(root) {
			err = pe.Err // "reading /x: permission denied", not "reading /x: open /x: permission denied"
		}
		return nil, &InputError{Msg: fmt.Sprintf("reading %s: %v", root, err), Err: err}
	}
	t := &Tree{Root: root, Warnings: disc.Warnings, UnreadDirs: disc.UnreadDirs, Scopes: scopes, start: clock.Now().UnixNano()}
	stats, yamlStats, tmplStats := statAll(root, disc)
	t.racy = slices.ContainsFunc(stats, t.racyStat) || slices.ContainsFunc(tmplStats, t.racyStat) ||
		slices.ContainsFunc(slices.Collect(maps.Values(yamlStats)), t.racyStat)
	fp := fingerprint(root, disc, stats, yamlStats, tmplStats)

	var c cache
	if !opt.NoCache {
		// a run killed while writing the cache (an agent's timeout sends SIGKILL) leaves its
		// temporary file, megabytes beside the user's code: any run that uses the cache,
		// not only one that writes it, removes those older than staleTempAge
		removeStaleTemps(root)
	}
	if !opt.NoCache && opt.MemoKey != "" && !opt.Refresh {
		if m := peekMemo(root); m.Fingerprint == fp {
			for i := range m.Outputs {
				if m.Outputs[i].Key == opt.MemoKey {
					t.Memo = &m.Outputs[i]
					return t, nil
				}
			}
		}
	}

	// The charms' YAML is read while the cache is decoded and the Python parsed.
	charmsDone := make(chan charmLoad, 1)
	go func() {
		var cl charmLoad
		defer func() {
			if r := recover(); r != nil {
				cl = charmLoad{crash: r} // raised again below, on this goroutine
			}
			charmsDone <- cl
		}()
		cl = loadCharms(root, disc, yamlStats)
	}()

	var stamp fileStamp // the cache file as read, for checkpoints (checkpointer)
	if !opt.NoCache {
		stamp = cacheStamp(root)
		data, warn := readCacheFile(root)
		var warn2 string
		c, warn2 = decodeCache(data)
		for _, w := range []string{warn, warn2} {
			if w != "" {
				t.Warnings = append(t.Warnings, w)
			}
		}
		if opt.Refresh {
			c.ours = map[string]*usable{}
		}
		t.TokenMemo = c.tokens
		if !opt.Refresh && linksFingerprint(c.links) == fp {
			t.links = c.links
		}
	}
	t.fp = fp

	var cl charmLoad
	if opt.NeedCharm {
		if cl = <-charmsDone; cl.crash == nil && len(cl.charms) == 0 {
			t.Warnings = append(t.Warnings, cl.warnings...)
			t.MetadataVariants = cl.variants
			sortWarnings(t.Warnings)
			return t, nil
		}
	}
	var checkpoint func(map[string]*usable)
	if !opt.NoCache {
		ck := &checkpointer{root: root, c: c, seen: stamp}
		checkpoint = ck.write
	}
	files, changed := t.parseAll(disc.Python, stats, c, opt.Progress, checkpoint, began)
	t.Templates = t.readTemplates(root, disc.Templates, tmplStats)
	if !opt.NeedCharm {
		cl = <-charmsDone
	}
	if cl.crash != nil {
		panic(cl.crash)
	}
	t.unreadable = t.unreadable || cl.unreadable
	t.Charms = cl.charms
	t.Warnings = append(t.Warnings, cl.warnings...)
	if len(scopes) == 0 { // a scope leaves the charm's Python out of disc.Python
		t.Warnings = append(t.Warnings, foreignCode(t.Charms, disc.Python)...)
	}
	yamlEntries := cl.entries
	t.Files = dropLinkedModules(files, disc.PyLinks)
	t.sameLinks = disc.SameLinks
	t.hookLinks = disc.HookLinks
	t.hookRuns = disc.HookRuns
	t.shellCode = disc.ShellCode
	t.rocks = disc.Rocks
	t.Stats.Files = len(t.Files)
	if opt.NoCache {
		sortWarnings(t.Warnings)
		return t, nil
	}
	if len(files) == 0 && len(yamlEntries) == 0 {
		// nothing to map: the root is likely not what the user meant (a wrong folder, a
		// checkout being switched), and a cache there, even one we cannot read (Cantrip's
		// of another version), is kept for the real tree; there is nothing to remember
		sortWarnings(t.Warnings)
		return t, nil
	}
	t.pending = prepareWrite(root, scopes, fp, c, files, changed, yamlEntries, opt.Refresh, t.links)
	if opt.MemoKey == "" && !opt.SaveLater {
		t.Save(nil)
	}
	sortWarnings(t.Warnings)
	return t, nil
}

// statAll stats every file Discover found: the Python and the templates in parallel.
func statAll(root string, disc Discovered) (python []stat, yaml map[string]stat, tmpl []stat) {
	python = make([]stat, len(disc.Python))
	parallel(len(disc.Python), func(i int) { python[i] = statFile(root, disc.Python[i]) })
	yaml = make(map[string]stat, len(disc.YAML))
	for _, p := range disc.YAML {
		yaml[p] = statFile(root, p)
	}
	tmpl = make([]stat, len(disc.Templates))
	parallel(len(disc.Templates), func(i int) { tmpl[i] = statFile(root, disc.Templates[i]) })
	return python, yaml, tmpl
}

// prepareWrite prepares the cache write of a run: the Python entries parsed afresh (changed),
// the charm YAML's entries, and every entry of the loaded cache c still good (a mapped file
// not reparsed, a file outside the run's scope, Cantrip's entry for a file we do not map);
// dirty when the file would differ from c's.
func prepareWrite(root string, scopes []string, fp string, c cache, files []pyextract.File, changed map[string]*usable,
	yamlEntries map[string]*cacheEntry, refresh bool, links []byte) *pendingWrite {
	w := &pendingWrite{fresh: changed, keep: map[string]json.RawMessage{}, fp: fp, memo: c.memo, tokens: c.tokens, links: links}
	w.dirty = len(changed) > 0 || refresh
	for file, e := range yamlEntries {
		b, _ := json.Marshal(e)
		if old, ok := c.raw[file]; ok && string(old) == string(b) {
			w.keep[file] = old
			continue
		}
		w.keep[file] = b
		w.dirty = true
	}
	mapped := make(map[string]bool, len(files))
	for _, f := range files {
		mapped[f.Path] = true
	}
	for file, raw := range c.raw {
		switch {
		case mapped[file]:
			if changed[file] == nil {
				w.keep[file] = raw
			}
		case yamlEntries[file] != nil:
		case len(scopes) > 0 && !inScope(file, scopes) && exists(root, file):
			w.keep[file] = raw // outside this run's scope: carried over untouched
		case !bytes.Contains(raw, []byte(`"`+ourKey+`"`)) && path.Clean(file) == file && filepath.IsLocal(filepath.FromSlash(file)) && regularFile(root, file):
			// Cantrip's entry for a file we do not map (another language, a file an ignore
			// file leaves out): carried over untouched for Cantrip, never read by us
			w.keep[file] = raw
		default:
			w.dirty = true // the file is gone or no longer mapped
		}
	}
	if len(c.raw) == 0 && (len(files) > 0 || len(yamlEntries) > 0) {
		w.dirty = true
	}
	if w.memo.Fingerprint != fp {
		w.memo = memoDoc{Fingerprint: fp}
	}
	return w
}

// Save writes the cache prepared by Load, remembering m (when not nil) as the output for its
// key. It writes nothing when neither the parse data nor the memo changed, and only once.
func (t *Tree) Save(m *Memo) {
	w := t.pending
	if w == nil {
		return
	}
	t.pending = nil
	if m != nil && memoSize(*m) <= maxMemoOut && !t.unreadable && !t.racy {
		outs, size := []Memo{*m}, memoSize(*m)
		for _, o := range w.memo.Outputs {
			if o.Key != m.Key && len(outs) < maxMemos && size+memoSize(o) <= maxMemoBytes {
				outs = append(outs, o)
				size += memoSize(o)
			}
		}
		w.memo.Outputs = outs
		w.dirty = true
	}
	if !w.dirty && bytes.Equal(t.TokenMemo, w.tokens) {
		return
	}
	var memo *memoDoc
	if len(w.memo.Outputs) > 0 {
		memo = &w.memo
	}
	if err := writeCache(t.Root, w.fresh, w.keep, memo, t.TokenMemo, w.links); err != nil {
		if !errors.Is(err, errNotRegular) { // readCacheFile has said it
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s: not written: %v", CacheFile, withoutTempName(err)))
		}
		return
	}
	t.Stats.CacheWritten = true
}

// withoutTempName is a failed cache write's error without the temporary file's random name
// (a *fs.PathError's or *os.LinkError's), so that the warning is the same on every run.
func withoutTempName(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return unwrapPathErr(err)
}

// memoSize is what remembering m adds to the cache file, near enough.
func memoSize(m Memo) int { return len(m.Key) + len(m.Out) + len(m.Err) }

// fingerprint identifies the state of every input: our version, the root, the binary; each
// Python, charm YAML and template file's path, mtime, ctime, size and mode (an ignore-file
// change shows as a changed file list); the walk's warnings; and every charm YAML name the
// loader tries in a charm folder.
//
// The root is taken where it leads: `--root link` and `--root real` are one tree, whose memo
// tells their outputs apart by key (the caller's key holds the root as given, which the
// JSON document prints).
func fingerprint(root string, d Discovered, stats []stat, yamlStats map[string]stat, tmplStats []stat) string {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\n", ourVersion, root, binaryID())
	for i, p := range d.Python {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00%o\n", p, stats[i].mtime, stats[i].ctime, stats[i].size, uint32(stats[i].mode))
	}
	for _, p := range d.YAML {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00%o\n", p, yamlStats[p].mtime, yamlStats[p].ctime, yamlStats[p].size, uint32(yamlStats[p].mode))
	}
	for i, p := range d.Templates {
		fmt.Fprintf(h, "t\x00%s\x00%d\x00%d\x00%d\x00%o\n", p, tmplStats[i].mtime, tmplStats[i].ctime, tmplStats[i].size, uint32(tmplStats[i].mode))
	}
	// what the walk could not read (a folder that became unreadable changes no file listed)
	for _, w := range d.Warnings {
		fmt.Fprintf(h, "w\x00%s\n", w)
	}
	// what an ignore file leaves out of the charm's reading (an action's script, a YAML file)
	for _, p := range d.SkippedYAML {
		fmt.Fprintf(h, "s\x00%s\n", p)
	}
	// the hooks linked to a script (no file of its own lists them)
	for _, link := range slices.Sorted(maps.Keys(d.HookLinks)) {
		fmt.Fprintf(h, "l\x00%s\x00%s\n", link, d.HookLinks[link])
	}
	// what the hooks that are shell scripts run (a script's edit changes no file listed)
	for _, hook := range slices.Sorted(maps.Keys(d.HookRuns)) {
		fmt.Fprintf(h, "r\x00%s\x00%s\n", hook, strings.Join(d.HookRuns[hook], "\x00"))
	}
	// the code that is not Python (a charm's only code may become or stop being such)
	for _, f := range d.ShellCode {
		fmt.Fprintf(h, "x\x00%s\n", f)
	}
	// every name the charm loader tries, listed or not (a directory called config.yaml, a
	// link the walk left out): a memo must not outlive a change the loader would see
	for _, dir := range d.CharmDirs {
		for _, name := range charmyaml.FileNames {
			rel := path.Join(dir, name)
			if _, listed := yamlStats[rel]; listed {
				continue
			}
			if st := statFile(root, rel); st.err == nil {
				fmt.Fprintf(h, "y\x00%s\x00%d\x00%d\x00%d\x00%o\n", rel, st.mtime, st.ctime, st.size, uint32(st.mode))
			}
		}
		fingerprintLoaderInputs(h, root, dir)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// fingerprintLoaderInputs writes to h what else the charm loader looks at in the charm folder
// dir: whether a .build.manifest is there (a built charm's layer.yaml is not read), and every
// entry of its actions/ folder, with where a link leads and what it leads to (an executable
// actions/<name> is the action's script). Adding, removing, retargeting or chmod-ing one
// changes the map while no file the walk lists changes. So do the names and types of the
// folder's YAML files: one named like a missing declaration file (metdata.yaml) is a warning.
func fingerprintLoaderInputs(h io.Writer, root, dir string) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	if fi, err := os.Lstat(filepath.Join(abs, ".build.manifest")); err == nil {
		fmt.Fprintf(h, "m\x00%s\x00%o\n", dir, uint32(fi.Mode().Type()))
	}
	if entries, err := os.ReadDir(abs); err == nil { // sorted by name
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") {
				fmt.Fprintf(h, "n\x00%s\x00%s\x00%o\n", dir, n, uint32(e.Type()))
			}
		}
	}
	actions := filepath.Join(abs, "actions")
	entries, err := os.ReadDir(actions) // sorted by name
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(actions, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		mtime, _ := unixNanos(fi.ModTime())
		fmt.Fprintf(h, "a\x00%s\x00%s\x00%d\x00%d\x00%o", dir, e.Name(), mtime, changeTime(fi), uint32(fi.Mode()))
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := filepath.EvalSymlinks(p)
			fmt.Fprintf(h, "\x00%s", target)
			if tfi, err := os.Stat(p); err == nil {
				fmt.Fprintf(h, "\x00%o", uint32(tfi.Mode()))
			}
		}
		fmt.Fprintln(h)
	}
}

// binaryID names the running binary: a rebuilt binary may print differently, so its memos
// must not be trusted.
var binaryID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "?"
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s\x00%d\x00%d", exe, fi.ModTime().UnixNano(), fi.Size())
})

// racyWindow is how near a run's start a file's mtime or ctime must be for the run not to
// trust that the file's next edit changes them (git's "racily clean" files): a filesystem
// stamps times in ticks (a second on ext4 with 128-byte inodes, HFS+ and many NFS servers, two
// on FAT, a few milliseconds on Linux before 6.13), and an edit of the same size in the tick
// the run read the file in leaves its mtime, ctime and size as the run saw them. Such a file's
// entry is written to be rehashed (racyCtime), and the run's output and links are not
// remembered, since the fingerprint of the next state may be this one's (review rev90: a
// renamed function kept its old name in every cached map, on a filesystem of 1-second
// stamps). A file whose stamps are far in the future (an archive's bogus dates) is not racy:
// an edit now stamps it now.
const racyWindow = 2 * time.Second

// racyCtime is the ctime written for a racy file's entry: no file has it, so the next run
// reads the file and compares its hash (parseOne), which costs no parse when it is unchanged.
const racyCtime = -1

// racyStat reports an input whose mtime or ctime is within racyWindow of the run's start.
func (t *Tree) racyStat(st stat) bool {
	near := func(ns int64) bool {
		return ns != 0 && ns >= t.start-int64(racyWindow) && ns <= t.start+int64(racyWindow)
	}
	return st.err == nil && st.exact == "" && (near(st.mtime) || near(st.ctime))
}

// parseAll returns the extraction of every file, reusing cache entries where the file is
// unchanged, and the data of the new or updated cache entries by file.
func (t *Tree) parseAll(paths []string, stats []stat, c cache, progress func(int, int), checkpoint func(map[string]*usable), began time.Time) ([]pyextract.File, map[string]*usable) {
	out := make([]pyextract.File, len(paths))
	entries := make([]*usable, len(paths))
	warns := make([]string, len(paths))
	var todo []int
	for i, p := range paths {
		st := stats[i]
		if st.err != nil {
			warns[i] = fmt.Sprintf("%s: skipped: %v", p, unwrapPathErr(st.err))
			out[i] = pyextract.File{Path: p}
			t.unreadable = true
			continue
		}
		if u := c.ours[p]; u != nil && u.mtime == st.mtime && u.size == st.size && u.ctime == st.ctime {
			out[i] = u.file
			warns[i] = fileWarning(u.file, u.size)
			t.Stats.Reused++
			continue
		}
		todo = append(todo, i)
	}
	// Largest first: the workers take files in this order, and a large file taken last would
	// leave the other workers idle while it parses (a charm's few big libraries are most of
	// its parse time). Results go by index, so the order changes nothing else.
	slices.SortStableFunc(todo, func(a, b int) int { return cmp.Compare(stats[b].size, stats[a].size) })
	var mu sync.Mutex
	done := 0
	last, saving := time.Now(), false // the last checkpoint (or the parse's start), one being written
	every := checkpointEvery          // doubled after each checkpoint: the file grows, and each write costs more
	parsed := map[string]*usable{}    // the entries so far, for a checkpoint
	parallel(len(todo), func(k int) {
		i := todo[k]
		p := paths[i]
		f, e, reparsed, warn := parseOne(t.Root, p, stats[i], c.ours[p])
		if e != nil && t.racyStat(stats[i]) {
			e.ctime = racyCtime // no stat matches it: the next run compares the bytes
		}
		out[i], entries[i], warns[i] = f, e, warn
		mu.Lock()
		if e == nil { // could not be read: a state the fingerprint may not see end
			t.unreadable = true
		}
		if reparsed {
			t.Stats.Parsed++
		} else {
			t.Stats.Rehashed++
		}
		done++
		if progress != nil {
			progress(done, len(todo))
		}
		var snapshot map[string]*usable
		if checkpoint != nil {
			if e != nil {
				parsed[p] = e
			}
			if !saving && done < len(todo) && time.Since(last) >= every {
				snapshot, saving = maps.Clone(parsed), true
				every *= 2
			}
		}
		mu.Unlock()
		if snapshot != nil { // written by this worker while the others parse on
			checkpoint(snapshot)
			mu.Lock()
			last, saving = time.Now(), false
			mu.Unlock()
		}
	})
	if checkpoint != nil && len(parsed) > 0 && time.Since(began) >= checkpointEvery {
		// the whole parse, before linking and ranking, which on a large tree take longer than
		// the last files' parse: a run killed in them keeps every file (review rev102: 10,583
		// files, runs killed at 12 s kept 5,193 entries and never got further). Counted from
		// the run's start: reading a large cache takes its time too.
		checkpoint(parsed)
	}
	changed := map[string]*usable{}
	for i, e := range entries {
		if e != nil {
			changed[paths[i]] = e
		}
	}
	for i, w := range warns {
		if w != "" {
			t.Warnings = append(t.Warnings, w)
		}
		if strings.HasPrefix(w, paths[i]+": skipped: ") {
			if t.Skipped == nil {
				t.Skipped = map[string]bool{}
			}
			t.Skipped[paths[i]] = true
			switch w {
			case templateWarning(paths[i]):
			case notPython(paths[i]):
				t.notPython = append(t.notPython, paths[i])
			default:
				t.lostCode = append(t.lostCode, paths[i])
			}
		}
	}
	return out, changed
}

// checkpointEvery is how often a long parse writes what it has parsed so far into the cache
// (checkpointer): an agent calling us with a timeout kills a cold run of a large tree
// (Python's subprocess.run sends SIGKILL, which no handler sees), and a cache written only at
// the end would then never be written: every later run would start as cold, and be killed
// again (review rev100: a 539-file tree parsing in 3.4 s, under a 2 s timeout, five runs in a
// row). With checkpoints, each run keeps what it parsed. The interval doubles after each (the
// file grows, and each write costs more), and the whole parse is written when it ends, if the
// run has taken checkpointEvery by then. Tests set it to 0.
var checkpointEvery = 2 * time.Second

// checkpointer writes the cache a run has so far (write): the entries parsed (fresh), and
// every entry of the cache it read (c) for the other files, as they were, stale ones too (the
// next run sees their stamps differ, and parses them). No memo and no links: those are the
// whole run's, which Save writes at the end, over this file. Not when another run has written
// the file since this one read it (seen): a checkpoint would replace a finished run's cache
// with a part of this one's (review rev102: a killed cold run's checkpoint over a --scope run's
// saved entries). A write that fails says nothing here: Save will try again, and say why.
type checkpointer struct {
	root string
	c    cache
	seen fileStamp // the cache file when the run read it, then as its last checkpoint left it
}

func (k *checkpointer) write(fresh map[string]*usable) {
	if cacheStamp(k.root) != k.seen {
		return
	}
	keep := make(map[string]json.RawMessage, len(k.c.raw))
	for file, raw := range k.c.raw {
		if fresh[file] == nil {
			keep[file] = raw
		}
	}
	if writeCache(k.root, fresh, keep, nil, k.c.tokens, nil) == nil {
		k.seen = cacheStamp(k.root)
	}
}

// fileStamp is what tells one version of the cache file from another: its size, its mtime
// (nanoseconds) and its inode's change time; zero when there is no such file.
type fileStamp struct{ size, mtime, ctime int64 }

// cacheStamp is the cache file's stamp under root.
func cacheStamp(root string) fileStamp {
	fi, err := os.Lstat(filepath.Join(root, CacheFile))
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{fi.Size(), fi.ModTime().UnixNano(), changeTime(fi)}
}

// parseOne reads and parses one file, or reuses old when the bytes hash the same, and returns
// the data of its cache entry (nil when the file cannot be read). st is the
// file's stat taken before reading: if the file changes meanwhile, the next run sees a newer
// mtime and reparses it.
func parseOne(root, p string, st stat, old *usable) (f pyextract.File, e *usable, reparsed bool, warn string) {
	entry := func(size int64, hash string) *usable {
		return &usable{mtime: st.mtime, exact: st.exact, ctime: st.ctime, size: size, hash: hash, file: f}
	}
	if st.size > pyextract.MaxFileSize {
		f = pyextract.File{Path: p, Errors: 1}
		return f, entry(st.size, ""), true, fileWarning(f, st.size)
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return pyextract.File{Path: p}, nil, false, fmt.Sprintf("%s: skipped: %v", p, unwrapPathErr(err))
	}
	h := hashBytes(src)
	if old != nil && old.hash == h && old.size == int64(len(src)) {
		f = old.file
		return f, entry(int64(len(src)), h), false, fileWarning(f, int64(len(src)))
	}
	f, crash := safeParse(p, src)
	if crash != "" { // not cached: a fixed binary parses it again
		return pyextract.File{Path: p}, nil, true, fmt.Sprintf("%s: skipped: %s", p, crash)
	}
	return f, entry(int64(len(src)), h), true, fileWarning(f, int64(len(src)))
}

// safeParse is pyextract.Parse that turns a panic of the parser (a bug of ours, met on one
// file) into a reason to skip that file, so that one file never takes the whole run down:
// the file is then lost code, as an unreadable one is.
func safeParse(p string, src []byte) (f pyextract.File, crash string) {
	defer func() {
		if r := recover(); r != nil {
			crash = safetext.Line(fmt.Sprintf("internal error while parsing (a bug; please report it): %v", r))
		}
	}()
	return parse(p, src), ""
}

// parse is the parser safeParse calls (a test makes it panic).
var parse = pyextract.Parse

// notPython is the warning for a .py file that holds no Python (binary data).
func notPython(p string) string {
	return fmt.Sprintf("%s: skipped: not Python source (binary data?)", p)
}

// templateWarning is the warning for a .py file that is a Jinja template (pyextract
// File.Template): skipped as not Python, and no lost code either.
func templateWarning(p string) string {
	return fmt.Sprintf("%s: skipped: a Jinja template, not Python", p)
}

// LostCode are the Python files and folders whose code was not read (over the size limit,
// unreadable; not a .py file of binary data, which holds none), sorted: code there may do
// what no code read seems to.
func (t *Tree) LostCode() []string {
	out := slices.Concat(t.lostCode, t.UnreadDirs)
	slices.Sort(out)
	return out
}

// UnreadCode are LostCode and the .py files skipped as binary data, sorted: every file and
// folder that was meant to be the charm's code and was not read. A charm whose entry point is
// one of them cannot be checked at all (check's unread-code).
func (t *Tree) UnreadCode() []string {
	out := slices.Concat(t.lostCode, t.notPython, t.UnreadDirs)
	slices.Sort(out)
	return out
}

// fileWarning says what was lost of a file, from its extraction alone, so that a run that takes
// the file from the cache warns exactly like the run that parsed it.
func fileWarning(f pyextract.File, size int64) string {
	switch {
	case f.Errors == 0:
		return ""
	case size > pyextract.MaxFileSize:
		return fmt.Sprintf("%s: skipped: larger than %d MiB", f.Path, pyextract.MaxFileSize>>20)
	case f.Template:
		return templateWarning(f.Path)
	case len(f.Symbols) == 0 && len(f.Refs) == 0 && len(f.Imports) == 0:
		return notPython(f.Path)
	}
	if f.ErrorLine > 0 {
		return fmt.Sprintf("%s:%d: %d syntax error(s), the first near this line; read what could be parsed", f.Path, f.ErrorLine, f.Errors)
	}
	return fmt.Sprintf("%s: %d syntax error(s); read what could be parsed", f.Path, f.Errors)
}

// Link runs the linker over the tree, or returns what it returned for the same state of the
// tree when the cache remembers that (links.go). A result computed before the cache is written
// (Save) is remembered with it. Neither when a file could not be read (see Tree.unreadable).
func (t *Tree) Link() linker.Result {
	var res linker.Result
	ok := false
	if !t.unreadable { // the remembered links may hold what a file no longer readable held
		res, ok = decodeLinks(t.links, t.fp)
	}
	t.Stats.LinksRemembered = ok
	if !ok {
		res = linker.Link(linker.Input{Charms: t.Charms, Files: t.Files, Templates: t.Templates, HookLinks: t.hookLinks, HookRuns: t.hookRuns, ShellCode: t.shellCode})
		if w := t.pending; w != nil && !t.unreadable && !t.racy && t.fp != "" {
			if b := encodeLinks(t.fp, &res); b != nil {
				w.links, w.dirty = b, true
			}
		}
	}
	foldSameLinks(&res, t.sameLinks)
	return res
}

// foldSameLinks drops what the linker found in a file that is a symbolic link to another
// mapped file of the same name (Discovered.SameLinks) when it found the same in the target:
// one module, whose handlers, reads and findings are reported once, at the file itself.
func foldSameLinks(res *linker.Result, links map[string]string) {
	if len(links) == 0 {
		return
	}
	canon := func(f string) string { return cmp.Or(links[f], f) }
	sites := func(ss []linker.Site) []linker.Site {
		return foldLinked(ss, links, func(s linker.Site) string { return s.File }, func(s linker.Site) linker.Site {
			s.File = canon(s.File)
			return s
		})
	}
	for ci := range res.Charms {
		cl := &res.Charms[ci]
		for ii := range cl.Interfaces {
			in := &cl.Interfaces[ii]
			in.Handlers = foldLinked(in.Handlers, links, func(h linker.Handler) string { return h.File }, func(h linker.Handler) linker.Handler {
				h.File, h.ObserveFile, h.BuiltFile = canon(h.File), canon(h.ObserveFile), canon(h.BuiltFile)
				return h
			})
			in.Reads = sites(in.Reads)
		}
		cl.Findings = foldLinked(cl.Findings, links, func(f linker.Finding) string { return f.File }, func(f linker.Finding) linker.Finding {
			f.File = canon(f.File)
			return f
		})
		cl.Unresolved = sites(cl.Unresolved)
	}
	res.Unresolved = sites(res.Unresolved)
}

// foldLinked returns xs (a new slice, in order) without each x whose file is a link (file,
// links) and that is, its files read through the links (canonical), the same as an x whose
// file is none. An empty xs stays as it is (an interface's lists are never null).
func foldLinked[T any](xs []T, links map[string]string, file func(T) string, canonical func(T) T) []T {
	var kept []T
	for _, x := range xs {
		if links[file(x)] != "" {
			c := canonical(x)
			if slices.ContainsFunc(xs, func(o T) bool { return links[file(o)] == "" && reflect.DeepEqual(canonical(o), c) }) {
				continue
			}
		}
		kept = append(kept, x)
	}
	if len(kept) == len(xs) {
		return xs
	}
	if kept == nil {
		kept = xs[:0:0]
	}
	return kept
}

// readTemplates reads and scans the templates at paths (stats theirs). One that cannot be read
// is left out with a warning, one over templates.MaxSize silently: a rendered data file.
func (t *Tree) readTemplates(root string, paths []string, stats []stat) []templates.File {
	if len(paths) > templates.MaxFiles { // a web application's pages, not a charm's templates
		paths = paths[:templates.MaxFiles]
	}
	out := make([]templates.File, len(paths))
	warn := make([]string, len(paths))
	parallel(len(paths), func(i int) {
		out[i].Path = paths[i]
		if stats[i].err != nil || stats[i].size > templates.MaxSize {
			if stats[i].err != nil {
				warn[i] = fmt.Sprintf("%s: skipped: %v", paths[i], unwrapPathErr(stats[i].err))
			}
			return
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(paths[i])))
		if err != nil {
			warn[i] = fmt.Sprintf("%s: skipped: %v", paths[i], unwrapPathErr(err))
			return
		}
		out[i] = templates.Scan(paths[i], src)
	})
	for _, w := range warn {
		if w != "" {
			t.Warnings = append(t.Warnings, w)
			t.unreadable = true
		}
	}
	return out
}

// Rank runs the ranker over the tree and its links.
func (t *Tree) Rank(links linker.Result, focus, mentions []string) rank.Result {
	return rank.Rank(rank.Input{Files: t.Files, Charms: t.Charms, Links: links, Focus: focus, Mentions: mentions, Rocks: t.rocks})
}

// charmLoad is what loadCharms read.
type charmLoad struct {
	charms     []charmyaml.Charm
	warnings   []string
	entries    map[string]*cacheEntry // the YAML files' cache entries
	unreadable bool                   // a charm's YAML could not be read
	variants   []string               // Tree.MetadataVariants
	crash      any                    // what loadCharms panicked with, nil when it returned
}

// loadCharms reads the charms in dirs, with the cache entries of their YAML files.
func loadCharms(root string, disc Discovered, yamlStats map[string]stat) charmLoad {
	l := charmLoad{entries: map[string]*cacheEntry{}}
	dirs, skipped := disc.CharmDirs, disc.SkippedYAML
	skip := func(rel string) bool { _, found := slices.BinarySearch(skipped, rel); return found }
	var nameless []string // charmcraft.yaml files that name no charm, in folders with no metadata.yaml
	for _, dir := range dirs {
		ch, ok, err := charmyaml.LoadSkipping(root, dir, skip)
		if err != nil {
			l.warnings = append(l.warnings, fmt.Sprintf("%s: %v", dir, err))
			l.unreadable = true
			continue
		}
		if !ok {
			if p := path.Join(dir, charmyaml.CharmcraftFile); !skip(p) && namesNoCharm(root, p) {
				nameless = append(nameless, p)
			}
			continue
		}
		l.charms = append(l.charms, ch)
	}
	attached := l.attachBuildFiles(root, nameless, disc.YAMLLinks, skip)
	for _, ch := range l.charms {
		l.warnings = append(l.warnings, ch.Warnings...)
		for file, defs := range charmDefs(ch) {
			st, ok := yamlStats[file]
			if !ok {
				st = statFile(root, file)
			}
			l.entries[file] = yamlEntry(file, st, defs)
		}
	}
	// a charmcraft.yaml cut short, or missing its name, in a tree with no charm but its tests':
	// say why its YAML is not mapped (template-connect-integrator renders its metadata.yaml
	// from a metadata.yaml.j2 at build time: check passed, having read only a unit test's
	// charm, rev101)
	shipped := slices.ContainsFunc(l.charms, func(c charmyaml.Charm) bool { return !testdirs.In(c.Dir) })
	for _, p := range nameless {
		if !shipped && !attached[p] && !testdirs.In(path.Dir(p)) {
			w := p + ":1: names no charm (no name: and no metadata.yaml beside it); its relations, actions and options are not read"
			if alt := metadataVariants(root, path.Dir(p)); len(alt) > 0 {
				// a charm built for several substrates keeps a metadata.yaml for each and has its
				// build or tox copy one in place (rev89: apr-operator's k8s_metadata.yaml)
				w += fmt.Sprintf(" (%s beside it: copy the one to check to metadata.yaml first)", strings.Join(alt, ", "))
				for _, a := range alt {
					l.variants = append(l.variants, path.Join(path.Dir(p), a))
				}
			}
			l.warnings = append(l.warnings, w)
		}
	}
	return l
}

// metadataVariants are the YAML files in dir (root-relative) named like a metadata.yaml kept
// under another name (k8s_metadata.yaml, metadata-machine.yaml, metadata.yaml.tmpl), sorted.
func metadataVariants(root, dir string) []string {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := strings.ToLower(e.Name())
		if e.Type().IsRegular() && n != charmyaml.MetadataFile && strings.Contains(n, "metadata") &&
			(strings.Contains(n, ".yaml") || strings.Contains(n, ".yml")) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// pythonPlugins are the charmcraft part plugins that build a charm from Python (or from
// nothing: nil, dump copies files).
var pythonPlugins = map[string]bool{"": true, "charm": true, "python": true, "reactive": true, "uv": true,
	"poetry": true, "dump": true, "nil": true}

// foreignCode says which charms are built from code in another language (a part's plugin is
// go, rust, ...) and have no Python of their own (tests and charm libraries aside): the map
// shows their YAML only, every interface unlinked, and an agent would otherwise not learn
// why, nor where the code is.
func foreignCode(charms []charmyaml.Charm, python []string) []string {
	var out []string
	for _, c := range charms {
		var plugins []string
		for _, p := range c.Parts {
			if !pythonPlugins[p.Plugin] && !slices.Contains(plugins, p.Plugin) {
				plugins = append(plugins, p.Plugin)
			}
		}
		own := func(f string) bool {
			rel, ok := strings.CutPrefix(f, c.Dir+"/")
			if c.Dir == "." {
				rel, ok = f, true
			}
			return ok && !strings.HasPrefix(rel, "lib/charms/") && !testdirs.In(path.Dir(rel))
		}
		if len(plugins) == 0 || slices.ContainsFunc(python, own) {
			continue
		}
		out = append(out, fmt.Sprintf("charm %s (%s) has no Python code of its own and a part built with the %s plugin: its code is not read, only its YAML is mapped",
			cmp.Or(c.Name, c.Dir), c.Dir, strings.Join(plugins, ", ")))
	}
	return out
}

// attachBuildFiles gives the charms that a project's build file builds (a charmcraft.yaml
// naming no charm, whose parts' source is the charm's folder, "source: src/", or beside a
// metadata.yaml linking to the charm's, as in the OpenStack and bootstack reactive layouts)
// that file, when they have no charmcraft.yaml of their own: its bases and parts are the
// charm's, shown and ranked with it (a change "adding 2024.1 support" edits it), where a file
// of no charm would be mapped by nobody. It returns the files it gave a charm.
func (l *charmLoad) attachBuildFiles(root string, nameless []string, links map[string]string, skip func(string) bool) (attached map[string]bool) {
	attached = map[string]bool{}
	for _, p := range nameless {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		var targets []string
		for _, src := range charmyaml.BuildSources(data) {
			targets = append(targets, path.Join(path.Dir(p), src))
		}
		for link, to := range links {
			if path.Dir(link) == path.Dir(p) {
				targets = append(targets, path.Dir(to))
			}
		}
		slices.Sort(targets)
		var built []int // the charms it builds that have no charmcraft.yaml of their own
		for _, target := range slices.Compact(targets) {
			for k, ch := range l.charms {
				if ch.Dir == target && !slices.Contains(ch.Files, path.Join(target, charmyaml.CharmcraftFile)) {
					built = append(built, k)
				}
			}
		}
		if len(built) != 1 {
			continue // one project builds one charm: a file naming two is no one's (nor mapped twice)
		}
		k := built[0]
		if c, ok, err := charmyaml.LoadBuiltFrom(root, l.charms[k].Dir, p, skip); err == nil && ok {
			l.charms[k] = c
			attached[p] = true
		}
	}
	return attached
}

// namesNoCharm reports whether p (root-relative) is a regular charmcraft.yaml (not a link,
// a pipe or a folder) that is not a bundle's (`type: bundle`: a bundle's names no charm, and
// is none). Only its first MiB is read.
func namesNoCharm(root, p string) bool {
	full := filepath.Join(root, filepath.FromSlash(p))
	if fi, err := os.Lstat(full); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(full)
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	return err == nil && !bundleLine.Match(b)
}

var bundleLine = regexp.MustCompile(`(?m)^type:\s*["']?bundle["']?\s*(#.*)?$`)

// charmDefs lists a charm's interfaces as Cantrip definitions, by declaring file.
func charmDefs(ch charmyaml.Charm) map[string][]cacheDef {
	out := map[string][]cacheDef{}
	add := func(kind, name string, pos charmyaml.Pos, sig string) {
		if pos.File == "" {
			return
		}
		out[pos.File] = append(out[pos.File], cacheDef{Name: name, Kind: kind, File: pos.File, Line: pos.Line, Signature: sig})
	}
	for _, r := range ch.Relations {
		add("relation", r.Name, r.Pos, r.Role+" "+r.Interface)
	}
	for _, o := range ch.Config {
		add("config-option", o.Name, o.Pos, o.Type)
	}
	for _, a := range ch.Actions {
		add("action", a.Name, a.Pos, "")
	}
	for _, c := range ch.Containers {
		add("container", c.Name, c.Pos, c.Resource)
	}
	for _, s := range ch.Storage {
		add("storage", s.Name, s.Pos, s.Type)
	}
	for _, r := range ch.Resources {
		add("resource", r.Name, r.Pos, r.Type)
	}
	for _, f := range ch.Files {
		if _, ok := out[f]; !ok {
			out[f] = nil
		}
	}
	return out
}

// dropLinkedModules keeps one file of each pair that are the same module under two names,
// a symbolic link and its target (Discovered.PyLinks): the one the code imports by name
// (from db_helper import DBHelper, with src/db_helper.py -> helper_impl.py), else the
// target; both when the code imports both names. files are in path order, and stay so;
// files itself is not changed.
func dropLinkedModules(files []pyextract.File, links map[string]string) []pyextract.File {
	if len(links) == 0 {
		return files
	}
	imported := map[string]bool{} // the last part of each module name the code imports
	for i := range files {
		for _, im := range files[i].Imports {
			mod := strings.TrimLeft(im.Module, ".")
			imported[mod[strings.LastIndexByte(mod, '.')+1:]] = true
			if im.Name != "" {
				imported[im.Name] = true // from pkg import module
			}
		}
	}
	stem := func(p string) string { return strings.TrimSuffix(path.Base(p), ".py") }
	drop := map[string]bool{}
	for link, target := range links {
		switch l, t := imported[stem(link)], imported[stem(target)]; {
		case l && t:
		case l:
			drop[target] = true
		default:
			drop[link] = true
		}
	}
	// (a new slice: Load still caches the dropped file's parse)
	return slices.DeleteFunc(slices.Clone(files), func(f pyextract.File) bool { return drop[f.Path] })
}

// statFile stats a root-relative file (following a link Discover already vetted).
func statFile(root, rel string) stat {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return stat{err: err}
	}
	mtime, exact := unixNanos(fi.ModTime())
	return stat{mtime: mtime, exact: exact, ctime: changeTime(fi), size: fi.Size(), mode: fi.Mode()}
}

// unixNanos is t in nanoseconds since 1970: UnixNano, and when that does not fit in an int64
// (where Go's UnixNano wraps around), the exact value in decimal as well.
func unixNanos(t time.Time) (int64, string) {
	sec := t.Unix()
	if sec < math.MaxInt64/int64(time.Second) && sec > math.MinInt64/int64(time.Second) {
		return t.UnixNano(), ""
	}
	n := new(big.Int).Mul(big.NewInt(sec), big.NewInt(1e9))
	return t.UnixNano(), n.Add(n, big.NewInt(int64(t.Nanosecond()))).String()
}

// regularFile reports a regular file at rel under root, or a symbolic link to one (Cantrip
// maps a linked file by its own path: rev90, its entries for web/alias.js -> real.js were
// dropped on every run); not a folder.
func regularFile(root, rel string) bool {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular()
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// checkRoot returns the cleaned absolute root, or a UsageError when it is not a directory, or an
// InputError when it is there but permissions keep it from being looked at.
func checkRoot(root string) (string, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &UsageError{fmt.Sprintf("root %q: %v", root, err)}
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil && os.IsNotExist(err):
		return "", &UsageError{fmt.Sprintf("root %q does not exist", root)}
	case errors.Is(err, fs.ErrPermission): // there, but cannot be looked at (a parent folder without search permission)
		return "", &InputError{Msg: fmt.Sprintf("root %q: %v", root, unwrapPathErr(err)), Err: err}
	case err != nil: // a name too long, a loop of links
		return "", &UsageError{fmt.Sprintf("root %q: %v", root, unwrapPathErr(err))}
	case !fi.IsDir():
		return "", &UsageError{fmt.Sprintf("root %q is not a directory", root)}
	}
	return abs, nil
}

// linked reports whether the root-relative path c goes through a symbolic link (it or a
// folder on the way to it) below the root.
func linked(root, c string) bool {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(c)))
	return err == nil && real != filepath.Join(realRoot, filepath.FromSlash(c))
}

// cleanScopes turns --scope values into root-relative '/'-paths inside the root; nil, the
// whole tree, when there are none or one is the root itself.
func cleanScopes(root string, scopes []string) ([]string, error) {
	var out []string
	for _, s := range scopes {
		if strings.TrimSpace(s) == "" { // an unset variable, not the whole tree
			return nil, &UsageError{"scope is empty: give a folder under the root"}
		}
		c := filepath.ToSlash(filepath.Clean(s))
		if filepath.IsAbs(s) {
			rel, err := filepath.Rel(root, s)
			if err != nil {
				return nil, &UsageError{fmt.Sprintf("scope %q is outside the root", s)}
			}
			c = filepath.ToSlash(rel)
		}
		if c == ".." || strings.HasPrefix(c, "../") {
			return nil, &UsageError{fmt.Sprintf("scope %q is outside the root", s)}
		}
		if linked(root, c) {
			// the walk does not follow links, so nothing under it would be mapped
			return nil, &UsageError{fmt.Sprintf("scope %q goes through a symbolic link: give the folder it points to", s)}
		}
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err != nil || !fi.IsDir() {
			if hint := cwdRelative(root, s); hint != "" {
				// written from the current folder, below the root: say how to name it
				return nil, &UsageError{fmt.Sprintf("scope %q: paths are relative to the root (this one is %q there)", s, hint)}
			}
			return nil, &UsageError{fmt.Sprintf("scope %q is not a directory under the root", s)}
		}
		out = append(out, c)
	}
	if slices.Contains(out, ".") { // the whole tree: every value checked all the same
		return nil, nil
	}
	return out, nil
}

// cwdRelative returns the root-relative '/'-path of s taken from the current folder, when s is
// a relative path naming a folder there that lies strictly inside root; else "".
func cwdRelative(root, s string) string {
	if filepath.IsAbs(s) {
		return ""
	}
	abs, err := filepath.Abs(s)
	if err != nil {
		return ""
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return ""
	}
	return filepath.ToSlash(rel)
}

// sortWarnings orders warnings by file, then by line as a number ("metadata.yaml:2: …"
// before "metadata.yaml:29: …"), then by text.
func sortWarnings(ws []string) {
	key := func(w string) (string, int, string) {
		file, rest, ok := strings.Cut(w, ":")
		if !ok {
			return w, 0, ""
		}
		num, msg, ok := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			return file, 0, rest
		}
		return file, n, msg
	}
	slices.SortStableFunc(ws, func(a, b string) int {
		fa, la, ma := key(a)
		fb, lb, mb := key(b)
		return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(la, lb), cmp.Compare(ma, mb), cmp.Compare(a, b))
	})
}
