package repomap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cantrip-dev/charmcraft-map/linker"
)

// fixtureCopy copies the fixture charm name from testdata/charms to a temporary folder.
func fixtureCopy(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "charms", name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// editCacheTop rewrites the cache file of root with edit applied to its top-level members.
func editCacheTop(t *testing.T, root string, edit func(top map[string]json.RawMessage)) {
	t.Helper()
	cacheFile := filepath.Join(root, CacheFile)
	data, err := os.ReadFile(cacheFile)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	edit(top)
	data, _ = json.Marshal(top)
	if err := os.WriteFile(cacheFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLinksRemembered(t *testing.T) {
	// The links of a run are remembered with the cache it writes; a later run over the same
	// state of the tree (a new task text: the output memo misses) returns them without
	// linking, identical to a fresh link, nil and empty slices and the fields the JSON
	// documents leave out included. An edit, a --refresh or a damaged blob makes the linker run
	// again; so does --no-cache, which leaves no blob.
	root := fixtureCopy(t, "inconsistent")
	fresh := func() linker.Result {
		t.Helper()
		tr, err := Load(Options{Root: root, NoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		return tr.Link()
	}
	turn := func(key string, refresh bool) (*Tree, linker.Result) {
		t.Helper()
		tr, err := Load(Options{Root: root, MemoKey: key, Refresh: refresh})
		if err != nil {
			t.Fatal(err)
		}
		res := tr.Link()
		tr.Save(&Memo{Key: key, Out: "out " + key})
		return tr, res
	}
	want := fresh()
	if len(want.Charms) == 0 || len(want.Charms[0].Findings) == 0 {
		t.Fatal("the fixture has no findings to compare")
	}
	tr, got := turn("1", false)
	if tr.Stats.LinksRemembered || !reflect.DeepEqual(got, want) {
		t.Fatalf("first run: remembered %v, equal %v", tr.Stats.LinksRemembered, reflect.DeepEqual(got, want))
	}
	tr, got = turn("2", false)
	if !tr.Stats.LinksRemembered || !reflect.DeepEqual(got, want) {
		t.Fatalf("second run: remembered %v, equal %v", tr.Stats.LinksRemembered, reflect.DeepEqual(got, want))
	}
	if tr, _ = turn("3", true); tr.Stats.LinksRemembered {
		t.Error("--refresh used the remembered links")
	}

	// a damaged blob (one byte of the compressed result) is not used, and is replaced
	editCacheTop(t, root, func(top map[string]json.RawMessage) {
		var blob []byte
		if err := json.Unmarshal(top[linksKey], &blob); err != nil || len(blob) < 50 {
			t.Fatalf("no links remembered: %v", err)
		}
		blob[len(blob)-10] ^= 1
		top[linksKey], _ = json.Marshal(blob)
	})
	if tr, got = turn("4", false); tr.Stats.LinksRemembered || !reflect.DeepEqual(got, want) {
		t.Fatalf("damaged blob: remembered %v, equal %v", tr.Stats.LinksRemembered, reflect.DeepEqual(got, want))
	}
	if tr, _ = turn("5", false); !tr.Stats.LinksRemembered {
		t.Error("the damaged blob was not replaced")
	}

	// an edit changes the state: the linker runs on the new files
	charm := filepath.Join(root, "src", "charm.py")
	src, err := os.ReadFile(charm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(charm, append(src, "\n\ndef _on_added_relation_changed(event):\n    pass\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	want = fresh()
	if tr, got = turn("6", false); tr.Stats.LinksRemembered || !reflect.DeepEqual(got, want) {
		t.Fatalf("after an edit: remembered %v, equal %v", tr.Stats.LinksRemembered, reflect.DeepEqual(got, want))
	}
}

func TestLinksBlobChecks(t *testing.T) {
	// A blob is used only for its own fingerprint, whole: cut anywhere, with a byte changed
	// anywhere, or under another fingerprint, decodeLinks refuses it.
	res := linker.Result{Charms: []linker.CharmLinks{{Name: "a", Dir: ".", NoCode: true, UnlinkedCode: "hooks/x.py",
		Interfaces: []linker.Interface{{Kind: linker.KindRelation, Name: "db", Handlers: []linker.Handler{}}}}}}
	b := encodeLinks("fp1", &res)
	got, ok := decodeLinks(b, "fp1")
	if !ok || !reflect.DeepEqual(got, res) {
		t.Fatalf("round trip: ok %v, got %+v", ok, got)
	}
	if got.Charms[0].Interfaces[0].Handlers == nil || got.Charms[0].Interfaces[0].Reads != nil {
		t.Error("nil and empty slices not kept apart")
	}
	if linksFingerprint(b) != "fp1" {
		t.Errorf("fingerprint %q", linksFingerprint(b))
	}
	if _, ok := decodeLinks(b, "fp2"); ok {
		t.Error("used under another fingerprint")
	}
	for i := range b {
		if _, ok := decodeLinks(b[:i], "fp1"); ok {
			t.Fatalf("used cut at %d of %d", i, len(b))
		}
		c := append([]byte(nil), b...)
		c[i] ^= 0x40
		if _, ok := decodeLinks(c, "fp1"); ok {
			t.Fatalf("used with byte %d changed", i)
		}
	}
}

func TestOptionalValuesOfAnotherType(t *testing.T) {
	// A remembered-links or token-memo value that is not a base64 string is dropped alone:
	// the entries are still used, with no warning.
	root := fixtureCopy(t, "inconsistent")
	tr, err := Load(Options{Root: root, MemoKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	tr.Link()
	tr.Save(&Memo{Key: "k", Out: "x"})
	for _, v := range []string{`123`, `{"a":1}`, `"!!!"`, `null`} {
		editCacheTop(t, root, func(top map[string]json.RawMessage) {
			top[linksKey], top[tokensKey] = json.RawMessage(v), json.RawMessage(v)
		})
		tr, err := Load(Options{Root: root, NoCache: false})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Warnings) != 0 || tr.Stats.Parsed != 0 || tr.Stats.Reused == 0 {
			t.Errorf("%s: warnings %q, parsed %d, reused %d", v, tr.Warnings, tr.Stats.Parsed, tr.Stats.Reused)
		}
	}
}
