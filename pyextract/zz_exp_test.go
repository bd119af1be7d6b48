package pyextract

import (
	"strings"
	"syscall"
	"bytes"
	"fmt"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

func loadReal(t *testing.T) [][]byte {
	var out [][]byte
	filepath.WalkDir("/work/realcharms", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && filepath.Ext(p) == ".py" {
			b, _ := os.ReadFile(p)
			out = append(out, b)
		}
		return nil
	})
	return out
}

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZExp(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	files := loadReal(t)
	for round := 0; round < 3; round++ {
		ps := sitter.NewParser()
		ps.SetLanguage(pyLang)
		var trees []*sitter.Tree
		st := cpu()
		for _, f := range files {
			tr, _ := ps.ParseCtx(context.Background(), nil, f)
			trees = append(trees, tr)
		}
		parse := cpu() - st
		st = cpu()
		var fts []tree
		for i, tr := range trees {
			ft, _ := flatten(tr.RootNode(), files[i], 0, 0, nil, nil)
			fts = append(fts, ft)
		}
		flat := cpu() - st
		st = cpu()
		for _, ft := range fts {
			e := extractor{t: ft, f: &File{}}
			e.definitions()
			e.references(&scratch{})
		}
		ext := cpu() - st
		st = cpu()
		for i, tr := range trees {
			extractFacts(tr.RootNode(), files[i])
		}
		facts := cpu() - st
		st = cpu()
		errs := 0
		for _, f := range files {
			if Parse("x", f).Errors > 0 {
				errs++
			}
		}
		all := cpu() - st
		t.Logf("cpu: parse %v flatten %v defs+refs %v facts %v | Parse %v (%.2fx parse) files=%d errfiles=%d", parse, flat, ext, facts, all, float64(all)/float64(parse), len(files), errs)
	}
}

func TestZZMany(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	var b bytes.Buffer
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&b, "def f%d(a, b=1):\n    return a\n", i)
	}
	src := b.Bytes()
	ps := sitter.NewParser()
	ps.SetLanguage(pyLang)
	st := time.Now()
	tr, _ := ps.ParseCtx(context.Background(), nil, src)
	t.Logf("raw parse %v", time.Since(st))
	st = time.Now()
	ft, _ := flatten(tr.RootNode(), src, 0, 0, nil, nil)
	t.Logf("flatten %v (%d nodes)", time.Since(st), len(ft.nodes))
	st = time.Now()
	e := extractor{t: ft, f: &File{}}
	e.definitions()
	t.Logf("defs %v", time.Since(st))
	st = time.Now()
	e.references(&scratch{})
	t.Logf("refs %v", time.Since(st))
	st = time.Now()
	extractFacts(tr.RootNode(), src)
	t.Logf("facts %v", time.Since(st))
	st = time.Now()
	Parse("x", src)
	t.Logf("Parse %v", time.Since(st))
}

func TestZZInject(t *testing.T) {
	if os.Getenv("EXP") == "" {
		t.Skip()
	}
	files := loadReal(t)
	injections := map[string]string{"paren": "x = foo(1,", "string": `s = """oops`, "junk": "x = ) $ ? 1 2", "header": "def inner(a, b:", "bracket": "y = [1, {2:"}
	for name, inj := range injections {
		total, kept, cases, perfect := 0, 0, 0, 0
		var worst string
		worstRatio := 2.0
		for fi, src := range files {
			orig := Parse("x", src)
			// pick a method/function body line: line after the def of the middle function
			var fns []Symbol
			for _, s := range orig.Symbols {
				if (s.Kind == KindMethod || s.Kind == KindFunction) && s.EndLine > s.Line+1 {
					fns = append(fns, s)
				}
			}
			if len(fns) < 3 || orig.Errors > 0 {
				continue
			}
			target := fns[(fi*7)%len(fns)]
			lines := strings.SplitAfter(string(src), "\n")
			// find first body line after the signature (line containing ':' end) - use EndLine line
			li := target.EndLine - 1
			ind := len(lines[li]) - len(strings.TrimLeft(lines[li], " \t"))
			if strings.TrimSpace(lines[li]) == "" {
				continue
			}
			lines[li] = lines[li][:ind] + inj + "\n"
			broken := Parse("x", []byte(strings.Join(lines, "")))
			if os.Getenv("CASE") == fmt.Sprintf("%s/%d", name, fi) {
				os.WriteFile("/tmp/case.py", []byte(strings.Join(lines, "")), 0o644)
				t.Logf("target %s at line %d; symbols: %v", target.Name, li+1, names(broken))
			}
			got := map[string]bool{}
			for _, s := range broken.Symbols {
				got[s.Name] = true
			}
			want, have := 0, 0
			for _, s := range orig.Symbols {
				if s.Name == target.Name || strings.HasPrefix(s.Name, target.Name+".") {
					continue
				}
				want++
				if got[s.Name] {
					have++
				}
			}
			cases++
			total += want
			kept += have
			if have == want {
				perfect++
			}
			if r := float64(have) / float64(max(want, 1)); r < worstRatio {
				worstRatio, worst = r, fmt.Sprintf("file %d target %s line %d: %d/%d", fi, target.Name, target.EndLine, have, want)
			}
		}
		t.Logf("%-8s cases %d perfect %d kept %d/%d (%.2f%%) worst %s", name, cases, perfect, kept, total, 100*float64(kept)/float64(total), worst)
	}
}
