package repomap

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// writeIndex writes a git index tracking paths into root/.git.
func writeIndex(t *testing.T, root string, paths ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	idx := &index.Index{Version: 2}
	for _, p := range paths {
		idx.Entries = append(idx.Entries, &index.Entry{Name: p})
	}
	f, err := os.Create(filepath.Join(root, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := index.NewEncoder(f).Encode(idx); err != nil {
		t.Fatal(err)
	}
}

// TestTrackedFilesAreNotGitignored: git ignores only untracked files, so a charm that keeps the
// Python template's "lib/" line in .gitignore and commits lib/charms/ anyway has its libraries
// mapped; untracked files there, and .charmcraft-map-ignore, still leave files out. A root
// with no repository of its own (a tree exported from git) reads .gitignore as written, except
// that charm libraries under lib/charms/ are mapped: they are committed by convention, and an
// export holds only what was committed.
func TestTrackedFilesAreNotGitignored(t *testing.T) {
	files := map[string]string{
		"metadata.yaml":                 smallCharm,
		"src/charm.py":                  smallPy,
		".gitignore":                    "lib/\n*.gen.py\n",
		IgnoreFile:                      "src/skip.py\n",
		"lib/charms/demo/v0/client.py":  "X = 1\n",
		"lib/charms/demo/v0/scratch.py": "Y = 1\n",
		"src/models.gen.py":             "Z = 1\n",
		"src/skip.py":                   "W = 1\n",
		"lib/python3/site.py":           "V = 1\n",
	}
	plain := writeTree(t, files)
	d, err := Discover(plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lib/charms/demo/v0/client.py", "lib/charms/demo/v0/scratch.py", "src/charm.py"}; !slices.Equal(d.Python, want) {
		t.Errorf("no repository: Python = %v, want %v", d.Python, want)
	}

	repo := writeTree(t, files)
	writeIndex(t, repo, ".gitignore", "lib/charms/demo/v0/client.py", "metadata.yaml", "src/charm.py", "src/models.gen.py", "src/skip.py")
	d, err = Discover(repo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"lib/charms/demo/v0/client.py", "src/charm.py", "src/models.gen.py"}; !slices.Equal(d.Python, want) {
		t.Errorf("repository: Python = %v, want %v", d.Python, want)
	}

	// A corrupt index is no index.
	if err := os.WriteFile(filepath.Join(repo, ".git", "index"), []byte("DIRC\x00\x00\x00\x02garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err = Discover(repo, nil); err != nil || !slices.Equal(d.Python, []string{"lib/charms/demo/v0/client.py", "lib/charms/demo/v0/scratch.py", "src/charm.py"}) {
		t.Errorf("corrupt index: Python = %v (%v), want the charm libraries and src/charm.py", d.Python, err)
	}
}

// TestCharmFolderOfRepository: a root that is a folder of a repository (a charm of a
// monorepo) is read as git reads it: the .gitignore files of the folders above it and the
// repository's info/exclude apply, matched from the repository's top, and the index there
// says what is tracked (tracked files are never ignored, also under the template's "lib/").
func TestCharmFolderOfRepository(t *testing.T) {
	top := writeTree(t, map[string]string{
		".gitignore":                            "*.gen.py\n/charms/a/scratch/\n",
		"charms/.gitignore":                     "debug_*.py\n",
		"charms/a/metadata.yaml":                smallCharm,
		"charms/a/src/charm.py":                 smallPy,
		"charms/a/src/models.gen.py":            "X = 1\n", // ignored from the top
		"charms/a/src/debug_hooks.py":           "X = 1\n", // ignored from charms/
		"charms/a/src/debug_tracked.py":         "X = 1\n", // ignored, but tracked
		"charms/a/scratch/try.py":               "X = 1\n", // anchored at the top
		"charms/a/src/local.py":                 "X = 1\n", // info/exclude
		"charms/a/src/.gitignore":               "gen_*.py\n",
		"charms/a/src/gen_x.py":                 "X = 1\n", // a .gitignore inside the root
		"charms/a/gen_y.py":                     "X = 1\n", // not under that .gitignore
		"charms/a/.gitignore":                   "lib/\n",
		"charms/a/lib/charms/other/v0/other.py": "X = 1\n", // tracked
		"charms/a/lib/charms/mine/v0/mine.py":   "X = 1\n", // not tracked
		"scratch/try.py":                        "X = 1\n", // outside the root
	})
	writeIndex(t, top, "charms/a/metadata.yaml", "charms/a/src/charm.py", "charms/a/src/debug_tracked.py",
		"charms/a/lib/charms/other/v0/other.py")
	if err := os.MkdirAll(filepath.Join(top, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, ".git", "info", "exclude"), []byte("local.py\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Discover(filepath.Join(top, "charms", "a"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gen_y.py", "lib/charms/other/v0/other.py", "src/charm.py", "src/debug_tracked.py"}; !slices.Equal(d.Python, want) {
		t.Errorf("Python = %v, want %v", d.Python, want)
	}
	// the same files, mapped from the top
	d, err = Discover(top, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"charms/a/gen_y.py", "charms/a/lib/charms/other/v0/other.py", "charms/a/src/charm.py", "charms/a/src/debug_tracked.py", "scratch/try.py"}; !slices.Equal(d.Python, want) {
		t.Errorf("from the top: Python = %v, want %v", d.Python, want)
	}
}

// TestRootTheRepositoryIgnores: a charm folder that the repository around it ignores (a
// dotfiles repository in the home folder ignoring "*") is not that repository's: its own
// files are mapped. A linked worktree's info/exclude is the main checkout's.
func TestRootTheRepositoryIgnores(t *testing.T) {
	home := writeTree(t, map[string]string{
		".gitignore":                 "*\n!.bashrc\n",
		"work/mycharm/metadata.yaml": smallCharm,
		"work/mycharm/src/charm.py":  smallPy,
	})
	writeIndex(t, home, ".gitignore")
	d, err := Discover(filepath.Join(home, "work", "mycharm"), nil)
	if err != nil || !slices.Equal(d.Python, []string{"src/charm.py"}) || !slices.Equal(d.CharmDirs, []string{"."}) {
		t.Errorf("Python = %v, charms %v (%v)", d.Python, d.CharmDirs, err)
	}

	main := writeTree(t, map[string]string{".git/info/exclude": "local.py\n"})
	wt := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy, "src/local.py": "X = 1\n",
		".gitignore": "*.log\n"})
	gitDir := filepath.Join(main, ".git", "worktrees", "wt")
	if err := os.MkdirAll(gitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gitDir, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitDir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d, err := Discover(wt, nil); err != nil || !slices.Equal(d.Python, []string{"src/charm.py"}) {
		t.Errorf("worktree: Python = %v (%v), want info/exclude applied", d.Python, err)
	}
}
