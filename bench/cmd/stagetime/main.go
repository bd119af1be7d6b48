// Command stagetime prints how long each pipeline stage takes on one tree (a profiling aid).
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/cantrip-dev/charmcraft-map/render"
	"github.com/cantrip-dev/charmcraft-map/repomap"
)

func main() {
	root := flag.String("root", ".", "tree")
	noCache := flag.Bool("no-cache", false, "")
	flag.Parse()
	t0 := time.Now()
	t, err := repomap.Load(repomap.Options{Root: *root, NoCache: *noCache})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	t1 := time.Now()
	links := t.Link()
	t2 := time.Now()
	r := t.Rank(links, nil, nil)
	t3 := time.Now()
	out, err := render.Render(r, render.Options{View: "full", Tokens: 1500, Tokenizer: "cl100k", Top: 10})
	t4 := time.Now()
	fmt.Printf("load %v (%+v)\nlink %v\nrank %v\nrender %v (%d tokens, err %v)\n", t1.Sub(t0), t.Stats, t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), out.UsedTokens, err)
}
