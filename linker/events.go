package linker

import (
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
)

// Charm events that are not tied to a declared name, in the order interfaces list them.
var (
	lifecycleEvents = []string{
		"install", "start", "stop", "remove", "config_changed", "update_status", "leader_elected",
		"leader_settings_changed", "upgrade_charm", "pre_series_upgrade", "post_series_upgrade",
		"collect_metrics",
	}
	secretEvents = []string{"secret_changed", "secret_expired", "secret_remove", "secret_rotate"}
	statusEvents = []string{"collect_unit_status", "collect_app_status"}
)

// fixedEvents are the events ops defines for every charm, by kind.
var fixedEvents = []struct {
	kind   string
	events []string
}{{KindLifecycle, lifecycleEvents}, {KindSecret, secretEvents}, {KindStatus, statusEvents}}

// Suffixes of events ops defines per declared relation, action, container and storage.
var (
	relationEvents  = []string{"relation_created", "relation_joined", "relation_changed", "relation_departed", "relation_broken"}
	containerEvents = []string{"pebble_ready", "pebble_custom_notice", "pebble_check_failed", "pebble_check_recovered"}
	storageEvents   = []string{"storage_attached", "storage_detaching"}
	actionEvents    = []string{"action"}
)

// nearFixedEvent is the event ops defines for every charm (install, config_changed,
// secret_changed, collect_unit_status, ...) that attr is a letter or two from (typoOf, or a
// swap of two neighbouring letters; an event of 5 letters or more), or "".
func nearFixedEvent(attr string) string {
	for _, group := range fixedEvents {
		for _, ev := range group.events {
			if len(ev) >= 5 && (typoOf(attr, ev) || transposed(attr, ev)) {
				return ev
			}
		}
	}
	return ""
}

// transposed reports two different strings of one length that differ by one swap of
// neighbouring letters (instlal, install): one slip of the fingers, two edits.
func transposed(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// eventKind classifies an event attribute observed on the charm's `on`: the kind of
// interface and its name (hyphenated for lifecycle/secret/status, the attribute's prefix
// with underscores for the others). ok is false for anything else (custom events).
func eventKind(attr string) (kind, name string, ok bool) {
	for _, group := range fixedEvents {
		for _, ev := range group.events {
			if attr == ev {
				return group.kind, strings.ReplaceAll(attr, "_", "-"), true
			}
		}
	}
	for _, group := range suffixGroups {
		for _, suffix := range group.events {
			if prefix, found := strings.CutSuffix(attr, "_"+suffix); found && prefix != "" {
				return group.kind, prefix, true
			}
		}
	}
	return "", "", false
}

var suffixGroups = []struct {
	kind   string
	events []string
}{
	{KindRelation, relationEvents}, {KindAction, actionEvents},
	{KindContainer, containerEvents}, {KindStorage, storageEvents},
}

// indexedKind classifies the event attribute that follows charm.on[NAME].
func indexedKind(attr string) (kind string, ok bool) {
	for _, group := range suffixGroups {
		for _, ev := range group.events {
			if attr == ev {
				return group.kind, true
			}
		}
	}
	return "", false
}

// eventOrder is the position of a lifecycle/secret/status event name (hyphenated) in the
// tables above, for sorting.
func eventOrder(name string) int {
	attr := strings.ReplaceAll(name, "-", "_")
	i := 0
	for _, list := range [][]string{lifecycleEvents, secretEvents, statusEvents} {
		for _, ev := range list {
			if ev == attr {
				return i
			}
			i++
		}
	}
	return i
}

// kindOrder is the position of an interface kind in the order of the Kind constants.
func kindOrder(kind string) int {
	for i, k := range []string{KindRelation, KindConfig, KindAction, KindContainer, KindStorage,
		KindResource, KindLifecycle, KindSecret, KindStatus} {
		if k == kind {
			return i
		}
	}
	return 99
}

// paramKey folds a parameter or attribute name for the checks below: lower case, without
// leading underscores (_relation_name → relation_name).
func paramKey(name string) string { return strings.ToLower(strings.TrimLeft(name, "_")) }

// norm folds a YAML name and an event-attribute name to the same key.
func norm(name string) string { return strings.ReplaceAll(name, "-", "_") }

// endpointMapParam reports a keyword argument that maps roles to endpoint names
// (endpoints=, relations=, relation_names=, endpoint_names=).
func endpointMapParam(name string) bool {
	n := paramKey(name)
	return n == "endpoints" || n == "relations" || n == "relation_names" || n == "endpoint_names"
}

// roleNameParam reports a keyword argument that may name one more endpoint of an object
// already bound to one (cross_model_mesh_provides_name=): a *_name none of whose words is
// another kind of declared thing (container_name, service_name, app_name).
func roleNameParam(name string) bool {
	n := paramKey(name)
	if !strings.HasSuffix(n, "_name") {
		return false
	}
	for _, w := range strings.Split(n, "_") {
		switch w {
		case "container", "storage", "resource", "action", "config", "secret", "service", "app", "unit":
			return false
		}
	}
	return true
}

// relationParam reports whether a constructor parameter names the relation its object is
// bound to (relation_name, relationship_name, endpoint, tracing_relation_name, ...; Juju's
// newer word, integration_name, as the IS team's http_proxy and charmed-hpc's interfaces
// take it). Not a bare integration=, which is given a Relation object as often as a name,
// nor charm-helpers' rel_name, which every one of its contexts sets to its default relation.
func relationParam(name string) bool {
	n := paramKey(name)
	return n == "relation" || n == "endpoint" || n == "endpoint_name" ||
		strings.HasSuffix(n, "relation_name") || strings.HasSuffix(n, "relationship_name") || strings.HasSuffix(n, "integration_name") ||
		strings.HasSuffix(n, "_relation") || strings.HasSuffix(n, "_endpoint")
}

// EventNames lists the attributes of a charm's on that ops defines for ch: the fixed events,
// then each declared relation's, action's, container's and storage's, in YAML order.
func EventNames(ch *charmyaml.Charm) []string {
	out := slices.Concat(lifecycleEvents, secretEvents, statusEvents)
	add := func(name string, suffixes []string) {
		for _, s := range suffixes {
			out = append(out, norm(name)+"_"+s)
		}
	}
	for _, r := range ch.Relations {
		add(r.Name, relationEvents)
	}
	for _, a := range ch.Actions {
		add(a.Name, actionEvents)
	}
	for _, c := range ch.Containers {
		add(c.Name, containerEvents)
	}
	for _, s := range ch.Storage {
		add(s.Name, storageEvents)
	}
	return out
}
