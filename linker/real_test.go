package linker_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cantrip-dev/charmcraft-map/linker"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

// TestRealCharms is a measurement aid, skipped unless REALCHARM names a charm tree: it prints
// every interface's handlers (and with READS=1 its reads; KIND=relation limits the kinds),
// the findings, the unresolved sites and the best of 20 Link timings.
func TestRealCharms(t *testing.T) {
	root := os.Getenv("REALCHARM")
	if root == "" {
		t.Skip()
	}
	tr, err := repomap.Load(repomap.Options{Root: root, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var res linker.Result
	el := time.Hour
	for range 20 {
		st := time.Now()
		res = linker.Link(linker.Input{Charms: tr.Charms, Files: tr.Files})
		el = min(el, time.Since(st))
	}
	for _, c := range res.Charms {
		fmt.Printf("== %s (%s)\n", c.Name, c.Dir)
		for _, it := range c.Interfaces {
			if os.Getenv("KIND") != "" && it.Kind != os.Getenv("KIND") {
				continue
			}
			var hs []string
			for _, h := range it.Handlers {
				hs = append(hs, fmt.Sprintf("%s>%s[%s]", h.Event, h.Symbol, h.Via))
			}
			var rs []string
			for _, r := range it.Reads {
				rs = append(rs, fmt.Sprintf("%s:%d/%s/%s%s", r.File, r.Line, r.Via, r.Detail, r.Key))
			}
			fmt.Printf("%-9s %-28s R:%d H: %s\n", it.Kind, it.Name, len(rs), strings.Join(hs, " "))
			if len(rs) > 0 && os.Getenv("READS") != "" {
				fmt.Printf("%-38s R: %s\n", "", strings.Join(rs, " "))
			}
		}
		for _, f := range c.Findings {
			fmt.Printf("FINDING %s %s %s:%d cond=%v\n", f.Kind, f.Subject, f.File, f.Line, f.Conditional)
		}
	}
	for _, u := range res.Unresolved {
		fmt.Printf("UNRESOLVED %s:%d %s %s\n", u.File, u.Line, u.Via, u.Detail)
	}
	fmt.Printf("files=%d link=%v\n", len(tr.Files), el)
}
