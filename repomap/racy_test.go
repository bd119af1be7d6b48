package repomap

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cantrip-dev/charmcraft-map/internal/clock"
)

// atClock runs the test's loads with the clock at the given offset from now (the files the
// test writes are stamped now); main_test.go's clock is restored after.
func atClock(t *testing.T, offset time.Duration) {
	t.Helper()
	saved := clock.Now
	clock.Now = func() time.Time { return time.Now().Add(offset) }
	t.Cleanup(func() { clock.Now = saved })
}

func TestRacyFilesAreCheckedAgain(t *testing.T) {
	// A file stamped within racyWindow of a run may change again, at the same size, within
	// its filesystem's tick (a second on ext4 with small inodes, HFS+, NFS): its stamps stay
	// as the run saw them. So its entry is written for the next run to compare the bytes, and
	// the run remembers neither its output nor its links: the next run, whose stat may be the
	// same, reads the file again. Settled files are reused and remembered as before.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": smallPy})
	atClock(t, 500*time.Millisecond) // the files were written half a second before the run
	racy, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if !racy.racy || racy.Stats.Parsed != 1 {
		t.Fatalf("a fresh tree: racy %v, stats %+v", racy.racy, racy.Stats)
	}
	racy.Link()
	racy.Save(&Memo{Key: "k", Out: "map"})
	if !racy.Stats.CacheWritten {
		t.Fatal("the parse was not cached")
	}
	next, _ := Load(Options{Root: root, MemoKey: "k"})
	if next.Memo != nil {
		t.Fatal("a racy run's output was remembered")
	}
	if next.Stats.Reused != 0 || next.Stats.Rehashed != 1 {
		t.Fatalf("a racy file's entry was trusted by its stat: %+v", next.Stats)
	}
	if next.Link(); next.Stats.LinksRemembered {
		t.Fatal("a racy run's links were remembered")
	}

	// The same tree an hour later: settled, reused by stat, its output and links remembered.
	atClock(t, time.Hour)
	settled, _ := Load(Options{Root: root, MemoKey: "k"})
	if settled.racy || settled.Stats.Rehashed != 1 || settled.Memo != nil {
		t.Fatalf("settled run: racy %v, memo %v, stats %+v", settled.racy, settled.Memo, settled.Stats)
	}
	settled.Link()
	settled.Save(&Memo{Key: "k", Out: "map"})
	again, _ := Load(Options{Root: root, MemoKey: "k2"})
	if again.Stats.Reused != 1 || again.Stats.Rehashed != 0 {
		t.Fatalf("a settled file was not reused: %+v", again.Stats)
	}
	if again.Link(); !again.Stats.LinksRemembered {
		t.Fatal("a settled run's links were not remembered")
	}
	if hit, _ := Load(Options{Root: root, MemoKey: "k"}); hit.Memo == nil {
		t.Fatal("a settled run's output was not remembered")
	}

	// Stamps far in the future (an archive's bogus dates) are not racy: an edit stamps now.
	future := time.Now().Add(48 * time.Hour)
	os.Chtimes(filepath.Join(root, "src/charm.py"), future, future)
	os.Chtimes(filepath.Join(root, "metadata.yaml"), future, future)
	atClock(t, 10*time.Second) // the ctime Chtimes set is now
	if tr, _ := Load(Options{Root: root}); tr.racy {
		t.Error("stamps two days ahead taken for racy")
	}
}

func TestRehashedFileKeepsItsWarning(t *testing.T) {
	// A file whose stamps moved but whose bytes did not (touch, a racy entry) is not parsed
	// again; its warning (here a syntax error) is still given, and remembered with the
	// output.
	root := writeTree(t, map[string]string{"metadata.yaml": smallCharm, "src/charm.py": "def f(:\n    pass\n"})
	first, _ := Load(Options{Root: root})
	touchLater(root, "src/charm.py")
	tr, _ := Load(Options{Root: root})
	if tr.Stats.Rehashed != 1 {
		t.Fatalf("stats %+v", tr.Stats)
	}
	if len(first.Warnings) == 0 || !slices.Equal(tr.Warnings, first.Warnings) {
		t.Fatalf("warnings after a touch %q, before %q", tr.Warnings, first.Warnings)
	}
}
