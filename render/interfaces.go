package render

import (
	"cmp"
	"fmt"
	"github.com/cantrip-dev/charmcraft-map/internal/jsonout"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/linker"

	"github.com/cantrip-dev/charmcraft-map/internal/safetext"
)

// InterfacesText writes the `interfaces` view: per charm, per kind (in the linker's order),
// one row per interface (name, role and interface, where it is declared) followed by its
// handlers (`Class.method (event) file:line [via]`) and the places that read or look it up.
func InterfacesText(w io.Writer, res linker.Result) error {
	var b strings.Builder
	for ci, ch := range res.Charms {
		if ci > 0 {
			b.WriteByte('\n')
		}
		unnamed := "(unnamed charm)"
		if ch.Layer {
			unnamed = "(layer)"
		}
		fmt.Fprintf(&b, "%s (%s)\n", cmp.Or(safetext.Line(ch.Name), unnamed), safetext.Line(ch.Dir))
		switch {
		case ch.UnlinkedCode != "":
			fmt.Fprintf(&b, "  (its code, %s, runs in a way the linker does not follow, so nothing is linked)\n", safetext.Line(ch.UnlinkedCode))
		case ch.ShellCode != "":
			fmt.Fprintf(&b, "  (its code, %s, is not Python: the linker reads only Python, so nothing is linked)\n", safetext.Line(ch.ShellCode))
		}
		if len(ch.Interfaces) == 0 {
			b.WriteString("  (no interfaces)\n")
		}
		for start := 0; start < len(ch.Interfaces); {
			end := start + 1
			for end < len(ch.Interfaces) && ch.Interfaces[end].Kind == ch.Interfaces[start].Kind {
				end++
			}
			ifaceKindText(&b, ch.Interfaces[start:end])
			start = end
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ifaceKindText writes the rows of one kind, with the name and role columns aligned.
func ifaceKindText(b *strings.Builder, group []linker.Interface) {
	fmt.Fprintf(b, "  %s:\n", group[0].Kind)
	nameW, roleW := 0, 0
	for _, in := range group {
		nameW = max(nameW, len(safetext.Line(in.Name)))
		roleW = max(roleW, len(ifaceRole(in)))
	}
	for _, in := range group {
		row := fmt.Sprintf("    %-*s", nameW, safetext.Line(in.Name))
		if roleW > 0 {
			row += fmt.Sprintf("  %-*s", roleW, ifaceRole(in))
		}
		if in.File != "" {
			row += "  " + ifaceLoc(in.File, in.Line)
		}
		b.WriteString(strings.TrimRight(row, " ") + "\n")
		seen := map[string]bool{}
		for _, h := range in.Handlers {
			tags := h.Via
			switch {
			case h.CatchAll && in.Kind == linker.KindRelation: // a loop over the relations, or a reconciler
				tags += ", every relation"
			case h.CatchAll: // a reconciler observes every event
				tags += ", every event"
			}
			if h.Conditional {
				tags += ", conditional"
				if h.BuiltFile != "" {
					tags += " (built at " + ifaceLoc(h.BuiltFile, h.BuiltLine) + ")"
				}
			}
			// A handler observed twice for one event (two observe calls) is one row, here and in
			// the JSON. (ops runs it once: the second notice is a duplicate.)
			line := fmt.Sprintf("      handler %s (%s) %s [%s]\n", safetext.Line(h.Symbol), safetext.Line(h.Event), ifaceLoc(h.File, h.Line), tags)
			if !seen[line] {
				b.WriteString(line)
			}
			seen[line] = true
		}
		var reads, lookups, delegates []linker.Site
		packages := map[string][]linker.Site{} // module → its imports (linker ViaPackage)
		for _, s := range in.Reads {
			switch s.Via {
			case linker.ViaLookup:
				lookups = append(lookups, s)
			case linker.ViaPackage:
				packages[s.Detail] = append(packages[s.Detail], s)
			case linker.ViaDelegate, linker.ViaBase:
				delegates = append(delegates, s)
			default:
				reads = append(reads, s)
			}
		}
		ifaceSitesText(b, "read", reads)
		ifaceSitesText(b, "lookup", lookups)
		verb := "handled" // what code outside the tree may do with it: an option is read
		if in.Kind == linker.KindConfig {
			verb = "read"
		}
		for _, mod := range slices.Sorted(maps.Keys(packages)) {
			fmt.Fprintf(b, "      maybe %s by package %s, imported at %s\n", verb, safetext.Line(mod), ifaceSites(packages[mod]))
		}
		for _, d := range delegates {
			if d.Via == linker.ViaBase {
				fmt.Fprintf(b, "      maybe %s by %s, the base of %s at %s\n", verb, safetext.Line(d.Detail), safetext.Line(d.Symbol), ifaceLoc(d.File, d.Line))
				continue
			}
			fmt.Fprintf(b, "      maybe %s by package %s, given the charm at %s\n", verb, safetext.Line(d.Detail), ifaceLoc(d.File, d.Line))
		}
		switch {
		case in.Script != "": // what runs it, whatever else was found or guessed
			fmt.Fprintf(b, "      (run by its script %s)\n", safetext.Line(in.Script))
		case len(in.Handlers)+len(in.Reads) > 0:
		case in.Extension != "":
			fmt.Fprintf(b, "      (handled by the %s extension)\n", safetext.Line(in.Extension))
		case len(in.ImageOf) > 0:
			names := make([]string, len(in.ImageOf))
			for i, n := range in.ImageOf {
				names[i] = safetext.Line(n)
			}
			word := "container"
			if len(names) > 1 {
				word = "containers"
			}
			fmt.Fprintf(b, "      (the image of %s %s)\n", word, strings.Join(names, ", "))
		default:
			b.WriteString("      (nothing linked)\n")
		}
	}
}

// ifaceSitesText writes sites on one line, lines of one file together: `reads a.py:3, 9; b.py:4`.
func ifaceSitesText(b *strings.Builder, label string, sites []linker.Site) {
	if len(sites) == 0 {
		return
	}
	if len(sites) > 1 {
		label += "s"
	}
	fmt.Fprintf(b, "      %s %s\n", label, ifaceSites(sites))
}

// ifaceSites lists sites, lines of one file together: `a.py:3, 9; b.py:4`.
func ifaceSites(sites []linker.Site) string {
	var b strings.Builder
	for i, s := range sites {
		switch {
		case i == 0:
			b.WriteString(ifaceLoc(s.File, s.Line))
		case s.File == sites[i-1].File && s.Line == sites[i-1].Line: // two reads on one line: one place
		case s.File == sites[i-1].File:
			b.WriteString(", " + strconv.Itoa(s.Line))
		default:
			b.WriteString("; " + ifaceLoc(s.File, s.Line))
		}
	}
	return b.String()
}

func ifaceRole(in linker.Interface) string {
	return safetext.Line(strings.TrimSpace(in.Role + " " + in.Interface))
}

func ifaceLoc(file string, line int) string {
	if line <= 0 {
		return safetext.Line(file)
	}
	return safetext.Line(file) + ":" + strconv.Itoa(line)
}

// The `interfaces` JSON document of CONTRACT §3: exactly these fields, lists never null.
type (
	ifaceDoc struct {
		SchemaVersion int              `json:"schema_version"`
		Charms        []ifaceCharmJSON `json:"charms"`
	}
	ifaceCharmJSON struct {
		Name  string `json:"name"`
		Dir   string `json:"dir"`
		Layer bool   `json:"layer,omitempty"`
		// Unlinked: the charm's first own code file the linker cannot follow (code it runs
		// some other way, or code that is not Python), when it has no code it can: nothing is
		// linked, whatever the interfaces say (an addition to CONTRACT §3, left out otherwise).
		Unlinked   string      `json:"unlinked,omitempty"`
		Interfaces []ifaceJSON `json:"interfaces"`
	}
	ifaceJSON struct {
		Kind      string             `json:"kind"`
		Name      string             `json:"name"`
		Role      string             `json:"role"`
		Interface string             `json:"interface"`
		File      string             `json:"file"`
		Line      int                `json:"line"`
		Handlers  []ifaceHandlerJSON `json:"handlers"`
		Reads     []ifaceReadJSON    `json:"reads"`
		// Extension: the charmcraft extension that handles the interface for the charm (an
		// addition to CONTRACT §3's fields, left out when there is none).
		Extension string `json:"extension,omitempty"`
		// Script: the action's own executable, actions/<name>, which runs it (an addition
		// too, left out when there is none).
		Script string `json:"script,omitempty"`
		// ImageOf: for a resource, the containers whose image it is (an addition too, left
		// out when none).
		ImageOf []string `json:"image_of,omitempty"`
	}
	ifaceHandlerJSON struct {
		Event  string `json:"event"`
		Symbol string `json:"symbol"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Via    string `json:"via"`
		// Conditional: the observe call runs only under a condition (an addition to
		// CONTRACT §3's fields, left out when false).
		Conditional bool `json:"conditional,omitempty"`
		// CatchAll: observed in a loop over every relation (for r in self.model.relations), so
		// it handles this relation among all others (an addition too, left out when false).
		CatchAll bool `json:"catch_all,omitempty"`
	}
	// ifaceReadJSON is one read, binding, lookup or guess. Via (an addition to CONTRACT §3's
	// fields) tells them apart, with the linker's names: config-read, param-read, library (an
	// object bound to the endpoint), lookup, mount-path, template, and so on; the guesses are package (a
	// package named after the interface is imported there), delegate (an outside package's
	// object is given the charm there) and charm-base (the charm's class derives from an
	// outside base charm class there), and Detail names that package or base class; it is
	// also "var" for a template's bare variable and "flag" for a read or lookup through
	// charms.reactive or charm-helpers (a flag, relation_ids, storage_list).
	ifaceReadJSON struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Via    string `json:"via"`
		Detail string `json:"detail,omitempty"`
		Key    string `json:"key,omitempty"`
		Dead   bool   `json:"dead,omitempty"` // in code that never runs (linker Site.Dead)
		// CatchAll: a lookup of every relation (linker Site.CatchAll)
		CatchAll bool `json:"catch_all,omitempty"`
	}
)

// InterfacesJSON renders the `interfaces` JSON document (CONTRACT §3), indented, with a
// trailing newline. Order is the linker's: charms, then interfaces by kind and YAML order,
// handlers and reads by file and line.
func InterfacesJSON(res linker.Result) ([]byte, error) {
	doc := ifaceDoc{SchemaVersion: 1, Charms: make([]ifaceCharmJSON, len(res.Charms))}
	for i, ch := range res.Charms {
		c := ifaceCharmJSON{Name: ch.Name, Dir: ch.Dir, Layer: ch.Layer, Unlinked: cmp.Or(ch.UnlinkedCode, ch.ShellCode),
			Interfaces: make([]ifaceJSON, len(ch.Interfaces))}
		for j, in := range ch.Interfaces {
			o := ifaceJSON{Kind: in.Kind, Name: in.Name, Role: in.Role, Interface: in.Interface, File: in.File, Line: in.Line, Extension: in.Extension, Script: in.Script, ImageOf: in.ImageOf,
				Handlers: make([]ifaceHandlerJSON, 0, len(in.Handlers)), Reads: make([]ifaceReadJSON, len(in.Reads))}
			for _, h := range in.Handlers {
				// one record per handler and event, as in the text (two observe calls are one)
				if r := (ifaceHandlerJSON{Event: h.Event, Symbol: h.Symbol, File: h.File, Line: h.Line, Via: h.Via,
					Conditional: h.Conditional, CatchAll: h.CatchAll}); !slices.Contains(o.Handlers, r) {
					o.Handlers = append(o.Handlers, r)
				}
			}
			for k, s := range in.Reads {
				o.Reads[k] = ifaceReadJSON{File: s.File, Line: s.Line, Via: s.Via, Dead: s.Dead, CatchAll: s.CatchAll}
				switch {
				case s.Via == linker.ViaPackage, s.Via == linker.ViaDelegate, s.Via == linker.ViaBase, s.Via == linker.ViaCallback,
					s.Via == linker.ViaTemplate && s.Detail == "var", // a template's bare variable
					s.Detail == "flag": // a read or lookup through charms.reactive or charm-helpers
					o.Reads[k].Detail = s.Detail
				case s.Via == linker.ViaParam:
					o.Reads[k].Key = s.Key // the parameter
				}
			}
			c.Interfaces[j] = o
		}
		doc.Charms[i] = c
	}
	return jsonout.Marshal(doc)
}
