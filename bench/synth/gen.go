package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// gen draws every random choice from one seeded source, in a fixed order, so the same seed
// always yields the same tree.
type gen struct{ r *rand.Rand }

func newGen(seed int64) *gen {
	return &gen{r: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
}

func (g *gen) intn(n int) int { return g.r.IntN(n) }

// between returns an int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// lognormal draws a size with the given median and spread, clamped to [lo, hi]: file sizes in
// real charms are roughly log-normal (many small files, a long tail of big libraries).
func (g *gen) lognormal(median, sigma float64, lo, hi int) int {
	v := int(math.Round(median * math.Exp(sigma*g.r.NormFloat64())))
	return min(max(v, lo), hi)
}

// words returns n words drawn from pool, as a slice.
func (g *gen) words(pool []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.pick(pool)
	}
	return out
}

// sentence is a short prose sentence, capitalised, without the final full stop.
func (g *gen) sentence(lo, hi int) string {
	s := strings.Join(g.words(prose, g.between(lo, hi)), " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// namer hands out names unique within one scope (a charm, a class, a module).
type namer struct {
	g    *gen
	used map[string]bool
}

func (g *gen) namer() *namer { return &namer{g: g, used: map[string]bool{}} }

// take returns name, or name with a numeric suffix when it is taken.
func (n *namer) take(name, sep string) string {
	out := name
	for i := 2; n.used[out]; i++ {
		out = fmt.Sprintf("%s%s%d", name, sep, i)
	}
	n.used[out] = true
	return out
}

// reserve marks names as taken.
func (n *namer) reserve(names ...string) {
	for _, s := range names {
		n.used[s] = true
	}
}

// snake draws a snake_case name from the pools (e.g. verb+noun) unique in this namer.
func (n *namer) snake(pools ...[]string) string {
	parts := make([]string, len(pools))
	for i, p := range pools {
		parts[i] = n.g.pick(p)
	}
	return n.take(strings.Join(parts, "_"), "_")
}

// camel turns snake_case or kebab-case into CamelCase.
func camel(s string) string {
	var b strings.Builder
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' }) {
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

// snakeOf turns kebab-case into snake_case (YAML names into event attributes).
func snakeOf(s string) string { return strings.ReplaceAll(s, "-", "_") }

// upper turns a name into a CONSTANT_NAME.
func upper(s string) string { return strings.ToUpper(snakeOf(s)) }
