package templates

import (
	"reflect"
	"testing"
)

func TestScan(t *testing.T) {
	src := `[DEFAULT]
debug = {{ options.debug }}
{% if options.trove_ip_regex -%}
ip_regex = {{ options.trove_ip_regex }}
{% endif -%}
level = {{ config['log-level'] }} {{ config.get("region") }}
# options.not_in_jinja is text, {{ other.name }} another object
{%- for h in config.hosts
      if options.multi %}{{ h }}{% endfor %}
`
	got := Scan("templates/x.conf", []byte(src)).Uses
	want := []Use{{"debug", 2}, {"trove_ip_regex", 3}, {"trove_ip_regex", 4}, {"log-level", 6}, {"region", 6},
		{"hosts", 8}, {"multi", 9}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("uses\n got %v\nwant %v", got, want)
	}
	vars := Scan("templates/y.conf", []byte(`{% if pci_alias %}
alias = {{ pci_alias }}
{%- if not use_syslog -%}{{ workers | default(4) }}{% elif x == 2 %}{% endif %}
{{ ctx.port }} {{ hosts[0] }} {{ render() }} {{ loop.index }} {{ true }} {{ options.debug }}
{% for h in hosts %}{{ h }}{% endfor %}
`)).Vars
	wantVars := []Use{{"pci_alias", 1}, {"pci_alias", 2}, {"use_syslog", 3}, {"workers", 3}, {"x", 3}, {"hosts", 5}} // not the loop's h
	if !reflect.DeepEqual(vars, wantVars) {
		t.Errorf("vars\n got %v\nwant %v", vars, wantVars)
	}
	// Every free variable of an expression: a for's iterable (a string's method called on
	// it), what a set assigns, an operand of in, a ternary's condition, a filter's or a
	// call's argument, a test's subject; not an object's, a function's, a filter's, a test's,
	// a keyword argument's, a string literal's words, a for's targets or a set's name
	// (review rev126: filebeat's logpath, read only by {% for p in logpath %}).
	vars = Scan("templates/z.conf", []byte(`{% for p in logpath.split() if p != skip %}{{ p }}{% endfor %}
{% set level = log_level or "info" %}{{ level }}
{{ "on" if debug else 'off quoted' }} {% if "x" in features and not (mode == "a") %}{% endif %}
{{ name | replace("a", b=sep) }} {{ lookup(key, default=fallback) }} {% if port is not defined %}{% endif %}
{{ obj.attr }} {{ arr[1] }} {{ 42 }} {% include "other.j2" %}{% macro m(arg) %}{{ arg }}{% endmacro %}
{%- for k, v in pairs | dictsort -%}{{ k }}{{ v }}{% endfor %}
`)).Vars
	wantVars = []Use{{"logpath", 1}, {"skip", 1}, {"log_level", 2}, {"debug", 3}, {"features", 3}, {"mode", 3},
		{"fallback", 4}, {"key", 4}, {"name", 4}, {"port", 4}, {"sep", 4}, {"pairs", 6}}
	if !reflect.DeepEqual(vars, wantVars) {
		t.Errorf("free vars\n got %v\nwant %v", vars, wantVars)
	}
	// A ; or a brace inside a string is the expression's own (review rev128).
	if vars := Scan("templates/a.conf", []byte(`hosts = {{ allowed_hosts | join("; ") }} {{ "{" ~ port ~ "}" }}`)).Vars; !reflect.DeepEqual(vars, []Use{{"allowed_hosts", 1}, {"port", 1}}) {
		t.Errorf("vars with ; in a string %v", vars)
	}
	// A Python format template's escaped braces hold no expression.
	if vars := Scan("templates/nginx.tmpl", []byte("server {{\n    listen {PORT};\n    server_name name;\n}}\n")).Vars; vars != nil {
		t.Errorf("format template vars %v", vars)
	}
	// the attributes its expressions read, once each; not a dotted word of the text outside
	if attrs := Scan("templates/x.conf", []byte(src)).Attrs; !reflect.DeepEqual(attrs, []string{"debug", "get", "hosts", "multi", "name", "trove_ip_regex"}) {
		t.Errorf("attrs %v", attrs)
	}
	if u := Scan("templates/b.bin", []byte("{{ options.x }}\x00")).Uses; u != nil {
		t.Errorf("binary: %v", u)
	}
}

func TestIsTemplate(t *testing.T) {
	for p, want := range map[string]bool{
		"templates/nginx.conf.j2":           true,
		"src/templates/ussuri/octavia.conf": true,
		"charms/a/templates/config.yaml":    true,
		"templates/render.py":               false,
		"templates/logo.png":                false,
		"templates/.keep":                   false,
		"src/charm.py":                      false,
		"templates.conf":                    false,
		"docs/my-templates/x.conf":          false,
		"src/nginx.conf.j2":                 true,
		"files/app.ini.tmpl":                true,
		"src/config.js.template":            true,
		"src/gen.py.j2":                     false,
		"src/notes.txt":                     false,
	} {
		if got := IsTemplate(p); got != want {
			t.Errorf("IsTemplate(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestRenderedName(t *testing.T) {
	for name, want := range map[string]string{"trove.conf.j2": "trove.conf", "Nginx.Conf.TMPL": "nginx.conf", "trove.conf": "trove.conf",
		"motd.j2": "motd.j2", "config.yaml": "config.yaml"} {
		if got := RenderedName(name); got != want {
			t.Errorf("RenderedName(%q) = %q, want %q", name, got, want)
		}
	}
}
