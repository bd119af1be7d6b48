package charmyaml

import (
	"slices"
	"strconv"
	"strings"
)

// The charmcraft 12-factor extensions, as charmcraft's extensions/app.py defines them (checked
// against charmcraft main, August 2026). Each one adds to the charm, besides build settings:
//   - requires logging (loki_push_api) and ingress (ingress, limit 1); provides
//     metrics-endpoint (prometheus_scrape) and grafana-dashboard (grafana_dashboard); peers
//     secret-storage (secret-storage);
//   - a workload container and its oci-image resource: "<framework>-app" and
//     "<framework>-app-image" for flask and django on Ubuntu 22.04/24.04, "app" and
//     "app-image" otherwise (the other frameworks, and every framework's v2 extension on
//     Ubuntu 26.04 and later);
//   - the action rotate-secret-key, and the framework's own config options and actions;
//   - for each requires endpoint with interface "oauth", the options
//     "<endpoint>-redirect-path" and "<endpoint>-scopes" (spring-boot adds a third).
//
// Descriptions here are our own one-line summaries.

type framework struct {
	prefixedContainer bool // "<framework>-app" on bases before Ubuntu 26.04
	options           []ConfigOption
	actions           []Action
	oauth             []ConfigOption // "{endpoint}" in Name and Default is the endpoint's name
}

func opt(name, typ, def, desc string) ConfigOption {
	return ConfigOption{Name: name, Type: typ, Default: def, HasDefault: def != "", Description: desc}
}

var (
	gunicornOptions = []ConfigOption{
		opt("webserver-keepalive", "int", "", "Seconds the web server waits for requests on a keep-alive connection."),
		opt("webserver-threads", "int", "", "Threads per web server worker."),
		opt("webserver-timeout", "int", "", "Seconds before a silent web server worker is restarted."),
		opt("webserver-workers", "int", "", "Number of web server worker processes."),
		opt("webserver-worker-class", "string", "", "Web server worker class: gevent or sync."),
	}
	appPortOption  = opt("app-port", "int", "8080", "Port the application listens on.")
	metricsOptions = []ConfigOption{
		opt("metrics-port", "int", "8080", "Port Prometheus scrapes metrics from."),
		opt("metrics-path", "string", "/metrics", "Path Prometheus scrapes metrics from."),
	}
	secretOptions = []ConfigOption{
		opt("app-secret-key", "string", "", "Secret shared by all units (sessions, CSRF)."),
		opt("app-secret-key-id", "secret", "", "Juju secret ID holding app-secret-key."),
	}
	oauthOptions = []ConfigOption{
		opt("{endpoint}-redirect-path", "string", "/callback", "Path the user returns to after logging in."),
		opt("{endpoint}-scopes", "string", "openid profile email", "OAuth scopes, separated by spaces."),
	}
	rotateSecretKey = Action{Name: "rotate-secret-key", Description: "Rotate the secret key; users must log in again."}
)

// AppFramework is the 12-factor framework extension the charm uses ("flask-framework"), or "".
func (c *Charm) AppFramework() string {
	for _, e := range c.Extensions {
		if _, ok := frameworks[e]; ok {
			return e
		}
	}
	return ""
}

// AppIntegrations are the relation interfaces the 12-factor charm library (paas-charm) wires
// to the workload itself, as environment variables: a 12-factor charm declares such an
// endpoint and writes no handler for it. Every config option the charm declares is passed
// to the workload the same way.
var AppIntegrations = []string{"postgresql_client", "mysql_client", "mongodb_client", "redis", "s3", "saml",
	"rabbitmq", "tracing", "smtp", "openfga", "oauth", "ldap", "http_proxy"}

var frameworks = map[string]framework{
	"flask-framework": {prefixedContainer: true, oauth: oauthOptions, actions: []Action{rotateSecretKey},
		options: slices.Concat(gunicornOptions, []ConfigOption{
			opt("flask-application-root", "string", "", "Path the application is mounted at (FLASK_APPLICATION_ROOT)."),
			opt("flask-debug", "boolean", "", "Whether Flask debug mode is on."),
			opt("flask-env", "string", "", "Environment the Flask app runs in."),
			opt("flask-permanent-session-lifetime", "int", "", "Seconds before a permanent session cookie expires."),
			opt("flask-preferred-url-scheme", "string", "HTTPS", "Scheme for external URLs outside a request."),
			opt("flask-secret-key", "string", "", "Secret key for signing session cookies (FLASK_SECRET_KEY)."),
			opt("flask-secret-key-id", "secret", "", "Juju secret ID holding flask-secret-key."),
			opt("flask-session-cookie-secure", "boolean", "", "Whether session cookies are marked secure."),
		})},
	"django-framework": {prefixedContainer: true, oauth: oauthOptions,
		actions: []Action{rotateSecretKey, {
			Name: "create-superuser", Description: "Create a Django superuser.", Required: []string{"username", "email"},
			Params: []Param{{Name: "username", Type: "string"}, {Name: "email", Type: "string"}},
		}},
		options: slices.Concat(gunicornOptions, []ConfigOption{
			opt("django-debug", "boolean", "false", "Whether Django debug mode is on."),
			opt("django-secret-key", "string", "", "Secret key for signing session cookies (DJANGO_SECRET_KEY)."),
			opt("django-secret-key-id", "secret", "", "Juju secret ID holding django-secret-key."),
			opt("django-allowed-hosts", "string", "", "Comma-separated host names the site serves (DJANGO_ALLOWED_HOSTS)."),
		})},
	"fastapi-framework": {oauth: oauthOptions, actions: []Action{rotateSecretKey},
		options: slices.Concat([]ConfigOption{
			opt("webserver-workers", "int", "1", "Number of uvicorn workers (WEB_CONCURRENCY)."),
			opt("webserver-port", "int", "8080", "Port uvicorn binds to (UVICORN_PORT)."),
			opt("webserver-log-level", "string", "info", "uvicorn log level (UVICORN_LOG_LEVEL)."),
		}, metricsOptions, secretOptions)},
	"go-framework": {oauth: oauthOptions, actions: []Action{rotateSecretKey},
		options: slices.Concat([]ConfigOption{appPortOption}, metricsOptions, secretOptions)},
	"expressjs-framework": {oauth: oauthOptions, actions: []Action{rotateSecretKey},
		options: slices.Concat([]ConfigOption{appPortOption}, metricsOptions, secretOptions)},
	"spring-boot-framework": {actions: []Action{rotateSecretKey},
		options: slices.Concat([]ConfigOption{
			appPortOption,
			opt("app-profiles", "string", "", "Comma-separated Spring Boot active profiles."),
			opt("metrics-port", "int", "8080", "Port Prometheus scrapes metrics from."),
			opt("metrics-path", "string", "/actuator/prometheus", "Path Prometheus scrapes metrics from."),
		}, secretOptions),
		oauth: []ConfigOption{
			opt("{endpoint}-redirect-path", "string", "/login/oauth2/code/{endpoint}", "Path the user returns to after logging in."),
			oauthOptions[1],
			opt("{endpoint}-user-name-attribute", "string", "sub", "UserInfo attribute that names the user."),
		}},
}

// twelveFactorRelations are the endpoints every 12-factor extension adds.
var twelveFactorRelations = []Relation{
	{Name: "logging", Role: RoleRequires, Interface: "loki_push_api"},
	{Name: "ingress", Role: RoleRequires, Interface: "ingress", Limit: 1},
	{Name: "metrics-endpoint", Role: RoleProvides, Interface: "prometheus_scrape"},
	{Name: "grafana-dashboard", Role: RoleProvides, Interface: "grafana_dashboard"},
	{Name: "secret-storage", Role: RolePeers, Interface: "secret-storage"},
}

// applyExtensions adds what c.Extensions contribute, each item with Extension set and its Pos
// at the `extensions:` line of charmcraft.yaml. Items the charm declares itself are kept and
// not repeated.
func (c *Charm) applyExtensions(cc *doc, line int, top []entry) {
	pos := Pos{File: cc.file, Line: line}
	w := cc.warner(c)
	for _, name := range c.Extensions {
		fw, ok := frameworks[name]
		if !ok {
			w.warn(line, "unknown extension %q: what it adds is not known", name)
			continue
		}
		for _, r := range twelveFactorRelations {
			if !hasName(c.Relations, func(x Relation) string { return x.Name }, r.Name) {
				r.Extension, r.Pos = name, pos
				c.Relations = append(c.Relations, r)
			}
		}
		ctr, img := "app", "app-image"
		if fw.prefixedContainer && !onlyNewBases(top) {
			prefix := strings.TrimSuffix(name, "-framework")
			ctr, img = prefix+"-app", prefix+"-app-image"
		}
		if !hasName(c.Containers, func(x Container) string { return x.Name }, ctr) {
			c.Containers = append(c.Containers, Container{Name: ctr, Resource: img, Pos: pos})
		}
		if !hasName(c.Resources, func(x Resource) string { return x.Name }, img) {
			c.Resources = append(c.Resources, Resource{Name: img, Type: "oci-image", Pos: pos})
		}
		options := fw.options
		for _, r := range c.Relations {
			if r.Role == RoleRequires && r.Interface == "oauth" {
				for _, o := range fw.oauth {
					o.Name = strings.ReplaceAll(o.Name, "{endpoint}", r.Name)
					o.Default = strings.ReplaceAll(o.Default, "{endpoint}", r.Name)
					options = append(slices.Clip(options), o)
				}
			}
		}
		for _, o := range options {
			if !hasName(c.Config, func(x ConfigOption) string { return x.Name }, o.Name) {
				o.Extension, o.Pos = name, pos
				c.Config = append(c.Config, o)
			}
		}
		for _, a := range fw.actions {
			if !hasName(c.Actions, func(x Action) string { return x.Name }, a.Name) {
				a.Extension, a.Pos = name, pos
				a.Params = append([]Param(nil), a.Params...)
				for i := range a.Params {
					a.Params[i].Pos = pos
				}
				c.Actions = append(c.Actions, a)
			}
		}
	}
}

func hasName[T any](items []T, name func(T) string, want string) bool {
	for _, it := range items {
		if name(it) == want {
			return true
		}
	}
	return false
}

// onlyNewBases reports whether every base charmcraft.yaml names (`base:`, and the `platforms:`
// labels and build-for entries of the form ubuntu@YY.MM[:arch]) is Ubuntu 26.04 or later:
// charmcraft then uses the v2 12-factor extensions, which name the container "app".
func onlyNewBases(top []entry) bool {
	var bases []string
	if e, ok := find(top, "base"); ok && e.v != nil {
		bases = append(bases, e.v.Value)
	}
	discard := warner{warns: new([]string)}
	if e, ok := find(top, "platforms"); ok {
		for _, p := range discard.entries(e.v, "") {
			bases = append(bases, p.key)
			if b, ok := find(discard.entries(p.v, ""), "build-for"); ok {
				bases = append(bases, discard.strList(b, "")...)
			}
		}
	}
	seen := false
	for _, b := range bases {
		b, _, _ = strings.Cut(b, ":")
		ver, ok := strings.CutPrefix(b, "ubuntu@")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(ver, 64)
		if err != nil || v < 26.04 {
			return false
		}
		seen = true
	}
	_, legacy := find(top, "bases")
	return seen && !legacy
}
