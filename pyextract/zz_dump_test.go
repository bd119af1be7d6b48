package pyextract

import (
	"encoding/json"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

func dumpNode(n *sitter.Node, src []byte, ind int) {
	fld := ""
	s := n.Type()
	if !n.IsNamed() {
		s = fmt.Sprintf("%q", s)
	}
	if n.IsMissing() {
		s = "MISSING " + s
	}
	t := ""
	if n.ChildCount() == 0 {
		t = " " + fmt.Sprintf("%q", n.Content(src))
	}
	fmt.Printf("%s%s%s [%d-%d]%s\n", strings.Repeat("  ", ind), fld, s, n.StartPoint().Row+1, n.EndPoint().Row+1, t)
	for i := 0; i < int(n.ChildCount()); i++ {
		f := n.FieldNameForChild(i)
		if f != "" {
			fmt.Printf("%s%s:\n", strings.Repeat("  ", ind+1), f)
		}
		dumpNode(n.Child(i), src, ind+1)
	}
}

func TestZZDump(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	ps := sitter.NewParser()
	ps.SetLanguage(pyLang)
	tr, _ := ps.ParseCtx(context.Background(), nil, src)
	dumpNode(tr.RootNode(), src, 0)
}

func TestZZShow(t *testing.T) {
	p := os.Getenv("SHOW")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	f := Parse(p, src)
	f.Facts = Facts{}
	b, _ := json.MarshalIndent(f, "", " ")
	fmt.Println(string(b))
}
