package app

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/render"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// MapOptions are the flags of `map` and `refresh`.
type MapOptions struct {
	Common
	Refresh   bool // `refresh`: discard the cache first
	Full      bool
	All       bool
	Top       int
	Tokens    int
	Tokenizer string
	Pressure  float64
	Focus     []string
	Mention   []string
	Scope     []string
	Explain   bool
	// BudgetFlags are the budget flags (--top, --tokens, --pressure) the caller gave
	// explicitly: --all has no budget and --full no --top, which a warning says.
	BudgetFlags []string
}

// DefaultTokens is the default --tokens budget.
const DefaultTokens = 1500

// RunMap prints the map.
func RunMap(o MapOptions, io IO) error {
	if err := checkFormat(o.Format, "text", "json"); err != nil {
		return err
	}
	switch {
	case o.Tokens < 0:
		return Usagef("--tokens must be 0 or more, not %d", o.Tokens)
	case !(o.Pressure >= 0 && o.Pressure <= 1): // also rejects NaN
		return Usagef("--pressure must be between 0 and 1, not %g", o.Pressure)
	case o.Top < 0:
		return Usagef("--top must be 0 or more, not %d", o.Top)
	case o.Full && o.All:
		return Usagef("--full and --all cannot be combined")
	}
	switch o.Tokenizer {
	case "cl100k", "o200k", "chars4":
	default:
		return Usagef("unknown --tokenizer %q (want cl100k, o200k or chars4)", o.Tokenizer)
	}
	key := memoKey(o)
	t, err := loadMemo(o.Common, io, o.Refresh, o.Scope, key)
	if err != nil {
		return err
	}
	if t.Memo != nil { // the tree is unchanged since this exact output was printed
		fmt.Fprint(io.Err, t.Memo.Err)
		_, err = fmt.Fprint(io.Out, t.Memo.Out)
		return err
	}
	focus, focusWarn := focusPaths(t, o.Focus)
	text, err := renderMap(o, t, focus)
	if err != nil {
		return err
	}
	rest := focusWarn + emptyWarning(t) + ignoredFlagsWarning(o)
	warn := warnings(t, nil) + rest
	n := len(t.Warnings)
	// the remembered output's warnings are the tree's: not one about the cache file this
	// run replaces ("unreadable; rebuilding"), which a later run must not repeat
	t.Save(&repomap.Memo{Key: key, Out: text, Err: warnings(t, cacheWarnings(t)) + rest})
	fmt.Fprint(io.Err, warn)
	for _, w := range t.Warnings[n:] { // from Save itself
		fmt.Fprintf(io.Err, "warning: %s\n", oneLine(w))
	}
	_, err = fmt.Fprint(io.Out, text)
	return err
}

// cacheWarnings are the tree's warnings about the cache file itself.
func cacheWarnings(t *repomap.Tree) map[string]bool {
	out := map[string]bool{}
	for _, w := range t.Warnings {
		if strings.HasPrefix(w, repomap.CacheFile+": ") {
			out[w] = true
		}
	}
	return out
}

// ignoredFlagsWarning says which budget flags the view does not use: --all has no budget,
// and --full fits the budget, not a number of files. A warning, not an error: the flags are
// valid for map (CONTRACT §1), and a caller that always passes them must not fail.
func ignoredFlagsWarning(o MapOptions) string {
	var ignored []string
	for _, f := range o.BudgetFlags {
		if o.All || o.Full && f == "--top" {
			ignored = append(ignored, f)
		}
	}
	if len(ignored) == 0 {
		return ""
	}
	view := "--all prints every file without a budget"
	if !o.All {
		view = "--full fills the token budget, not a number of files"
	}
	return fmt.Sprintf("warning: %s: %s not used\n", view, strings.Join(ignored, " and "))
}

// emptyWarning says why a map or a locate is empty, when nothing was found to map; an empty
// result is still a success.
func emptyWarning(t *repomap.Tree) string {
	if len(t.Files) > 0 || len(t.Charms) > 0 {
		return ""
	}
	where := "the root"
	if len(t.Scopes) > 0 {
		where = "the scope"
	}
	return "warning: nothing to map: no Python files and no charm YAML under " + where + "\n"
}

// memoKey identifies everything that shapes the map's output besides the tree itself.
func memoKey(o MapOptions) string {
	// Every string is quoted by strconv (invalid UTF-8 kept as \x escapes: encoding/json would
	// turn two different byte strings into one U+FFFD spelling), and each --focus path also
	// as it resolves now, from the current folder and through symbolic links: what it names,
	// and the warning about it, depend on both.
	quote := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strconv.Quote(s)
		}
		return out
	}
	resolved := make([]string, len(o.Focus))
	for i, p := range o.Focus {
		abs, err := filepath.Abs(p)
		if err == nil {
			if real, err := filepath.EvalSymlinks(abs); err == nil {
				abs = real
			} else {
				abs += "\x00missing"
			}
		}
		resolved[i] = strconv.Quote(abs)
	}
	absRoot, _ := filepath.Abs(cmp.Or(o.Root, ".")) // as repomap's checkRoot makes it
	b, _ := json.Marshal(struct {
		V                     int
		Root                  string // as given, which warnings may quote
		AbsRoot               string // as the JSON document prints it: a linked working folder gives another
		Format, Tokenizer     string
		Full, All, Explain    bool
		Top, Tokens           int
		Pressure              float64
		Focus, Mention, Scope []string
		FocusAt               []string
		BudgetFlags           []string // ignoredFlagsWarning names them
	}{3, strconv.Quote(o.Root), strconv.Quote(absRoot), o.Format, o.Tokenizer, o.Full, o.All, o.Explain, o.Top, o.Tokens, o.Pressure,
		quote(o.Focus), quote(o.Mention), quote(o.Scope), resolved, o.BudgetFlags})
	return string(b)
}

// renderMap runs the stages after loading and returns what map prints; focus holds the
// focused files' root-relative paths (focusPaths).
func renderMap(o MapOptions, t *repomap.Tree, focus []string) (string, error) {
	links := t.Link()
	ranked := t.Rank(links, focus, o.Mention)
	view := "compact"
	if o.Full {
		view = "full"
	} else if o.All {
		view = "all"
	}
	memo := render.LoadTokenMemo(t.TokenMemo)
	top := o.Top
	if top == 0 { // --top 0 lists every file (render's 0 is its default)
		top = max(len(ranked.Files), 1)
	}
	out, err := render.Render(ranked, render.Options{View: view, Tokens: o.Tokens, Pressure: o.Pressure,
		Tokenizer: o.Tokenizer, Top: top, Explain: o.Explain, Focus: focus, TokenMemo: memo, Unread: slices.Sorted(maps.Keys(t.Skipped))})
	if err != nil {
		return "", classify(err)
	}
	t.TokenMemo = memo.Bytes()
	if o.Format == "json" {
		meta := render.MapMeta{Root: t.Root, Tokens: o.Tokens, Pressure: o.Pressure, Tokenizer: o.Tokenizer, Explain: o.Explain,
			Focus: focus, Mention: o.Mention, Scope: t.Scopes}
		for _, c := range t.Charms {
			meta.Charms = append(meta.Charms, render.CharmRef{Name: c.Name, Dir: c.Dir, Layer: c.Layer})
		}
		b, err := render.MapJSON(ranked, out, meta)
		if err != nil {
			return "", classify(err)
		}
		return string(b) + "\n", nil
	}
	return out.Text, nil
}

// focusPaths turns --focus paths into root-relative ones, with a warning line for each that
// names no file the map holds (a typo, a file outside the root or the scope): it is ignored.
func focusPaths(t *repomap.Tree, paths []string) (rel []string, warn string) {
	held := map[string]bool{}
	for _, f := range t.Files {
		held[f.Path] = true
	}
	for _, c := range t.Charms {
		for _, f := range c.Files {
			held[f] = true
		}
	}
	rel = make([]string, 0, len(paths))
	warned := map[string]bool{}
	for _, p := range paths {
		if strings.TrimSpace(p) == "" { // --focus "$FILE" with nothing in $FILE: no path, not the root's "."
			if !warned[""] {
				warned[""] = true
				warn += "warning: --focus is empty; ignored\n"
			}
			continue
		}
		r := relPath(t.Root, p)
		rel = append(rel, r)
		if !held[r] && !warned[p] {
			warned[p] = true
			if abs, err := filepath.Abs(p); err == nil && !filepath.IsAbs(p) && held[relPath(t.Root, abs)] {
				// written from the current folder, below the root: say how to name it
				warn += "warning: --focus " + oneLine(p) + ": paths are relative to the root (this one is " +
					oneLine(relPath(t.Root, abs)) + " there); ignored\n"
				continue
			}
			warn += "warning: --focus " + oneLine(p) + ": not a Python or charm YAML file the map holds; ignored\n"
		}
	}
	return rel, warn
}

// relPath turns a --focus value into a root-relative '/'-path: an absolute path that lies
// in the root (directly or through a symbolic link), or a path taken as root-relative.
func relPath(root, p string) string {
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(root, p); err == nil && inside(rel) {
			return filepath.ToSlash(rel)
		}
		// the root or the path may go through a symbolic link (a linked checkout): compare
		// where both lead
		if r, err := filepath.EvalSymlinks(root); err == nil {
			if q, err := filepath.EvalSymlinks(p); err == nil {
				if rel, err := filepath.Rel(r, q); err == nil && inside(rel) {
					return filepath.ToSlash(rel)
				}
			}
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
}

// inside reports whether rel, a filepath.Rel result, stays in the folder it is relative to:
// not "..", nor under "../" ("..dots.py" is a file inside).
func inside(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
