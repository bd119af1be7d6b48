package pyextract

import (
	"fmt"
	"strings"
	"testing"
)

func parseFacts(t *testing.T, src string) Facts {
	t.Helper()
	flat, _, ok := parseTree([]byte(src), nil, nil)
	if !ok {
		t.Fatal("not parsed")
	}
	return factsOf(&flat, nil)
}

func TestFactsObserves(t *testing.T) {
	f := parseFacts(t, `
class C(CharmBase):
    def __init__(self, *args):
        self.framework.observe(self.on.install, self._on_install)
        observe = self.framework.observe
        observe(self.on["db"].relation_changed, self._on_db)
        if self.unit.is_leader():
            self.framework.observe(bound_event=getattr(self.on, "x_action"), observer=self._x)
`)
	want := []struct {
		line       int
		event, obs string
		cond       bool
	}{
		{4, "self.on.install", "self._on_install", false},
		{6, `self.on["db"].relation_changed`, "self._on_db", false},
		{8, "self.on.x_action", "self._x", true},
	}
	if len(f.Observes) != len(want) {
		t.Fatalf("observes = %+v", f.Observes)
	}
	for i, w := range want {
		o := f.Observes[i]
		if o.Line != w.line || o.Event.String() != w.event || o.Handler.String() != w.obs || o.Conditional != w.cond ||
			o.Class != "C" || o.Func != "__init__" {
			t.Errorf("observe %d = %+v (event %s, handler %s), want %+v", i, o, o.Event, o.Handler, w)
		}
	}
}

func assignStrings(f Facts) []string {
	var out []string
	for _, a := range f.Assigns {
		s := a.Class + "|" + a.Func + "|" + a.Target.String() + "=" + a.Value.String()
		if a.Annotation != "" {
			s += ":" + a.Annotation
		}
		if a.Conditional {
			s += "?"
		}
		out = append(out, s)
	}
	return out
}

func TestFactsAssigns(t *testing.T) {
	f := parseFacts(t, `
PEER = "cluster"
A = B = "both"
x, y = 1, 2
class Cfg(BaseModel):
    log_level: str = "info"
    port: int
    on = MyEvents()
    def __init__(self, charm, relation_name: str = "db"):
        self.relation_name = relation_name
        self.n = 3
        self.db = DatabaseRequires(self, relation_name="db")
        self.x = compute(a, b)
        alias = self.config
        unused = self.other
        self.unit.status = ActiveStatus()
        for rel in (PEER, "other"):
            self.framework.observe(self.on[rel].relation_changed, self._x)
        alias["k"]
        for key in OPTIONS:
            self.config[key]
        for fn, (key2, other) in [(check, "port"), (check2, "host")]:
            fn(self.config[key2])
        for name, ep in ENDPOINTS.items():
            self.model.get_relation(ep)
        settings = {k: self.config[k] for k in KEYS if k}
        self.peer = names.get("peer", "cluster")
        self.data = names.get("peer", {})
        for n in range(3):
            pass
OPTIONS = ["port", "host"]
`)
	got := strings.Join(assignStrings(f), "\n")
	want := strings.Join([]string{
		`||PEER="cluster"`,
		`||A="both"`,
		`||B="both"`,
		`Cfg||log_level="info":str`,
		`Cfg||port=:int`,
		`Cfg||on=MyEvents()`,
		`Cfg|__init__|self.relation_name=relation_name`,
		`Cfg|__init__|self.db=DatabaseRequires(self, relation_name="db")`,
		`Cfg|__init__|self.x=compute()`,
		`Cfg|__init__|alias=self.config`,
		`Cfg|__init__|rel=PEER`,
		`Cfg|__init__|rel="other"`,
		`Cfg|__init__|key=OPTIONS[…]`,
		`Cfg|__init__|ep=ENDPOINTS.items()[…][1]`,
		`Cfg|__init__|k=KEYS[…]`,
		`Cfg|__init__|self.peer=names.get("peer", "cluster")`,
		`Cfg|__init__|self.data=names.get()`,
		`||OPTIONS=["port", "host"]`,
	}, "\n")
	if got != want {
		t.Errorf("assigns:\n%s\nwant:\n%s", got, want)
	}
}

func TestFactsConditional(t *testing.T) {
	f := parseFacts(t, `
class H(Object):
    def __init__(self, charm):
        try:
            charm.unit.get_container("a")
        except Exception:
            charm.unit.get_container("b")
        finally:
            charm.unit.get_container("i")
        while x:
            charm.unit.get_container("c")
        for r in rels:
            charm.unit.get_container("d")
        for r in ["x", "y"]:
            charm.unit.get_container("e")
        charm.unit.get_container("f")
        if not ready:
            return
        charm.unit.get_container("g")
    def other(self):
        self.charm.unit.get_container("h")
`)
	want := map[string]bool{"a": true, "b": true, "i": false, "c": true, "d": true, "e": false, "f": false, "g": true, "h": false}
	if len(f.Calls) != len(want) {
		t.Fatalf("calls = %+v", f.Calls)
	}
	for _, c := range f.Calls {
		name := c.Value.Args[0].Str
		if c.Conditional != want[name] {
			t.Errorf("call %s conditional = %v, want %v", name, c.Conditional, want[name])
		}
		// g is conditional only because of the early return on line 18
		if after := map[string]int{"g": 18}[name]; c.AfterReturn != after {
			t.Errorf("call %s after return %d, want %d", name, c.AfterReturn, after)
		}
	}
}

func TestFactsConditionalExpressionAndExceptReturn(t *testing.T) {
	// Both arms of `a if c else b` run only under its condition, the condition itself always.
	// A return in an except clause ends the run only when the try's body raised: what follows
	// the try is conditional (a handler registered there is registered only when it did not
	// raise) but on the usual path (ExceptReturn), until a return outside an except clause.
	f := parseFacts(t, `
class H(Object):
    def __init__(self, charm):
        self.c = charm.unit.get_container("a") if charm.get_container("t") else charm.unit.get_container("b")
        try:
            cfg = charm.config
        except Exception:
            logger.error("no config")
            return
        charm.unit.get_container("f")
        if x:
            charm.unit.get_container("h")
        if not cfg:
            return
        charm.unit.get_container("g")
`)
	type flags struct{ cond, usual bool }
	want := map[string]flags{"a": {true, false}, "t": {false, false}, "b": {true, false},
		"f": {true, true}, "h": {true, false}, "g": {true, false}}
	got := map[string]flags{}
	for _, c := range f.Calls {
		if len(c.Value.Args) == 1 && c.Value.Args[0].Kind == ValStr {
			got[c.Value.Args[0].Str] = flags{c.Conditional, c.ExceptReturn}
		}
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("call %s: (conditional, except return) %+v (recorded %v), want %+v", name, g, ok, w)
		}
	}
}

func TestFactsGuardedTry(t *testing.T) {
	// A try body whose handlers catch none of the errors a missing name raises is guarded:
	// conditional, and Guarded when that is its only condition. A handler of KeyError,
	// NameError, Exception (also in a tuple, or dotted), or a bare except, makes it a plain
	// condition; an if inside a guarded body, and a return there, are conditions of their own.
	// CatchesModelError marks a try body (and what nests in it, but not its handlers) whose
	// handlers catch ModelError, Exception or everything.
	f := parseFacts(t, `
class H(Object):
    def __init__(self, charm):
        try:
            charm.unit.get_container("a")
            if x:
                charm.unit.get_container("b")
        except ops.ModelError:
            charm.unit.get_container("c")
        else:
            charm.unit.get_container("d")
        try:
            charm.unit.get_container("e")
        except (ModelError, builtins.NameError) as err:
            pass
        try:
            charm.unit.get_container("f")
        except:
            pass
        try:
            charm.unit.get_container("g")
            return
        except subprocess.CalledProcessError:
            pass
        charm.unit.get_container("h")
        try:
            try:
                charm.unit.get_container("i")
            except KeyError:
                charm.unit.get_container("j")
        except Exception:
            pass
`)
	type flags struct{ cond, guarded, model bool }
	want := map[string]flags{"a": {true, true, true}, "b": {true, false, true}, "c": {true, false, false},
		"d": {true, false, false}, "e": {true, false, true}, "f": {true, false, true}, "g": {true, true, false},
		"h": {true, false, false}, "i": {true, false, true}, "j": {true, false, true}}
	if len(f.Calls) != len(want) {
		t.Fatalf("calls = %+v", f.Calls)
	}
	for _, c := range f.Calls {
		name := c.Value.Args[0].Str
		if got := (flags{c.Conditional, c.Guarded, c.CatchesModelError}); got != want[name] {
			t.Errorf("call %s (conditional, guarded, catches ModelError) = %v, want %v", name, got, want[name])
		}
	}
}

func TestFactsLeaderBody(t *testing.T) {
	// The body of `if ….is_leader():` is conditional and Leader when that is its only
	// condition (nested in another leader test too); its else, a condition inside it, a loop,
	// a try guard, `is_leader() and x` and a leader test under another condition are not.
	f := parseFacts(t, `
class C(CharmBase):
    def _on_x(self, event):
        if self.unit.is_leader():
            self.unit.get_container("a")
            if self.model.unit.is_leader():
                self.unit.get_container("b")
            if x:
                self.unit.get_container("c")
            for r in rels:
                self.unit.get_container("d")
            try:
                self.unit.get_container("e")
            except ValueError:
                pass
        else:
            self.unit.get_container("f")
        if x:
            if is_leader():
                self.unit.get_container("g")
        if self.unit.is_leader() and x:
            self.unit.get_container("h")
        if hookenv.is_leader():
            self.unit.get_container("i")
        self.unit.get_container("j")
`)
	type flags struct{ cond, leader bool }
	want := map[string]flags{"a": {true, true}, "b": {true, true}, "c": {true, false}, "d": {true, false},
		"e": {true, false}, "f": {true, false}, "g": {true, false}, "h": {true, false}, "i": {true, true}, "j": {false, false}}
	if len(f.Calls) != len(want) {
		t.Fatalf("calls = %+v", f.Calls)
	}
	for _, c := range f.Calls {
		name := c.Value.Args[0].Str
		if got := (flags{c.Conditional, c.Leader}); got != want[name] {
			t.Errorf("call %s (conditional, leader) = %v, want %v", name, got, want[name])
		}
	}
}

func TestFactsCalls(t *testing.T) {
	f := parseFacts(t, `
class C(CharmBase):
    def __init__(self, *args):
        super().__init__(*args)
        ClusterObserver(self, "x")
        Plain()
        ValueError()
        NotFoundError()
        self.model.get_relation(PEER)
        path = self.model.resources.fetch("img")
        tmpl = self._resources.fetch("tmpl")
        other.fetch("y")
        event.add_status(BlockedStatus("no"))
        rel = self.model.get_relation("db")
        raise MyThing("boom")
        render(self.config, x)
        settings = Settings.from_config(config=self.config)
        plain = helper(a, b)
        used = helper(a, b)
        self.model.get_relation(used)
`)
	var got []string
	for _, c := range f.Calls {
		got = append(got, c.Value.String())
	}
	// a class built without arguments is a construction too (keystone's context.SyslogContext()
	// in its resource map); an exception is not
	want := `super().__init__(*args)|ClusterObserver(self, "x")|Plain()|self.model.get_relation(PEER)|self._resources.fetch("tmpl")|render(self.config, x)|self.model.get_relation(used)`
	if strings.Join(got, "|") != want {
		t.Errorf("calls = %q, want %q", strings.Join(got, "|"), want)
	}
	as := strings.Join(assignStrings(f), "\n")
	// assigned lookups stay in Assigns with their arguments; an unused local goes
	for _, want := range []string{`path=self.model.resources.fetch("img")`, `rel=self.model.get_relation("db")`,
		`settings=Settings.from_config(config=self.config)`, `used=helper()`} {
		if !strings.Contains(as, want) {
			t.Errorf("assigns lack %s:\n%s", want, as)
		}
	}
	if strings.Contains(as, "plain=") {
		t.Errorf("unused local kept:\n%s", as)
	}
}

func TestFactsKeysAndAttrs(t *testing.T) {
	// (a test for a key, "data" in self.model.storages, is one too; a chained comparison is
	// not, and a test on .keys() is the .keys() call's, every key)
	f := parseFacts(t, `
class C(CharmBase):
    def _on_action(self, event):
        a = self.config["port"]
        b = self.model.config.get("host", "x")
        c = event.params["user"]
        params = event.params
        d = params.get("force")
        rel = self.model.relations[PEER]
        s = self.meta.storages["data"]
        plain = {"a": 1}["a"]
        e = data.get("k")
        lvl = self.config.log_level.upper()
        self.typed_config.get("z")
        key = self.config[f"{x}-port"]
        on = self._charm.config.get(plugin["config"], False)
        th = self.config[name + "-threshold"]
        conf = hookenv.config()
        f = conf.get("http-proxy")
        if conf.changed("vip") and conf.previous(key="vip"):
            plain.changed("vip")
        other = hookenv.config("x")
        g = other["y"]
        conf["ready"] = True
        totals["n"] = 1
        if "data" in self.model.storages and "x" not in conf and "k" in totals and 1 < 2:
            pass
        ok = "url" in self.config.keys() or "a" in b in self.config
`)
	var keys []string
	for _, k := range f.Keys {
		keys = append(keys, k.Object.String()+"["+k.Key.String()+"]"+k.Via)
	}
	wantKeys := `self.config["port"]index|self.model.config["host"]get|event.params["user"]index|params["force"]get|` +
		`self.model.relations[PEER]index|self.meta.storages["data"]index|self.typed_config["z"]get|self.config[f"{x}-port"]index|` +
		`self._charm.config[plugin["config"]]get|self.config[name + "-threshold"]index|conf["http-proxy"]get|` +
		`conf["vip"]get|conf["vip"]get|` +
		`self.model.storages["data"]in|conf["x"]in|self.config[]all`
	if got := strings.Join(keys, "|"); got != wantKeys {
		t.Errorf("keys = %s\nwant   %s", got, wantKeys)
	}
	// an item stored on such an object is a Store, not a read; on any other, nothing
	if len(f.Stores) != 1 || f.Stores[0].Object.String()+"["+f.Stores[0].Key.String()+"]"+f.Stores[0].Via != `conf["ready"]store` {
		t.Errorf("stores = %+v, want conf[\"ready\"]store", f.Stores)
	}
	var attrs []string
	for _, a := range f.Attrs {
		attrs = append(attrs, a.Object.String()+"."+a.Attr)
	}
	if got := strings.Join(attrs, "|"); got != "self.config.log_level" {
		t.Errorf("attrs = %s", got)
	}
}

func TestFactsReturns(t *testing.T) {
	// A function's returns of a string, an f-string, a chain, a call of a method of self
	// (or cls) without arguments or an object's construction (cls(...), a CapWords class's
	// call) are recorded; other calls and values are not.
	f := parseFacts(t, `
class C:
    def a(self):
        if x:
            return "db"
        return self._name()

    def b(self):
        return self._name(1)

    def c(self):
        return compute()

    @classmethod
    def d(cls):
        return cls._default()

    @classmethod
    def e(cls, charm):
        return cls(port=charm.port)

    def f(self):
        return models.State(1)

    def g(self):
        return make(1)
`)
	var got []string
	for _, r := range f.Returns {
		got = append(got, fmt.Sprintf("%s:%d %s", r.Func, r.Line, r.Value.String()))
	}
	want := `a:5 "db"|a:6 self._name()|d:16 cls._default()|e:20 cls(port=charm.port)|f:23 models.State(1)`
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("returns = %s\nwant      %s", s, want)
	}
}

func TestFactsAssertedKey(t *testing.T) {
	// A test for a key that an assert asserts is marked; one it negates, or one inside a
	// larger condition, is not.
	f := parseFacts(t, `
def f(self):
    assert "data" in self.model.storages, "missing"
    assert "logs" not in self.model.storages
    assert "db" in self.model.relations and ok
`)
	var got []string
	for _, k := range f.Keys {
		got = append(got, fmt.Sprintf("%s %v", k.Key.String(), k.Asserted))
	}
	if s := strings.Join(got, "|"); s != `"data" true|"logs" false|"db" false` {
		t.Errorf("keys = %s", s)
	}
}

func TestFactsPaths(t *testing.T) {
	// An absolute path written in a function is recorded once per function and path, in
	// source order; not at module level, nor a string that only starts with a slash (a
	// format, a glob, a URL path with a space, "//").
	f := parseFacts(t, `
DATA = "/data"

class C:
    def cmd(self):
        self.c.make_dir("/var/www/html/revocation", make_parents=True)
        return ["server", "/data", "--certs", "/data", "/{}/x", "/a b", "//host", "/*.log", "/"]

def g():
    return "/data"
`)
	var got []string
	for _, p := range f.Paths {
		got = append(got, fmt.Sprintf("%s.%s:%d %s", p.Class, p.Func, p.Line, p.Path))
	}
	want := "C.cmd:6 /var/www/html/revocation|C.cmd:7 /data|.g:10 /data"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("paths = %s\nwant    %s", s, want)
	}
}

func TestFactsFileNames(t *testing.T) {
	// The file names string literals write, at module level too, are the last element of a
	// relative or absolute path with an extension, sorted and distinct; not a sentence, a URL
	// or a name with no extension.
	f := parseFacts(t, `
CONFIG_TEMPLATE = "glauth.cfg.j2"
CONF = "/etc/gnocchi/gnocchi.conf"

def render():
    open("templates/glauth.cfg.j2").read()
    return ["see https://example.com/x.html", "a b.conf", "templates/", "service", "ops.model"]
`)
	if got, want := strings.Join(f.FileNames, "|"), "glauth.cfg.j2|gnocchi.conf|ops.model"; got != want {
		t.Errorf("file names = %s, want %s", got, want)
	}
}

func TestFactsDeepNesting(t *testing.T) {
	const depth = 5000
	var sb strings.Builder
	sb.WriteString("x = ")
	sb.WriteString(strings.Repeat("f(", depth))
	sb.WriteString(strings.Repeat(")", depth))
	sb.WriteString("\ny = " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n")
	sb.WriteString("def g(self):\n")
	for i := 1; i <= 200; i++ {
		sb.WriteString(strings.Repeat(" ", i) + "if a:\n")
	}
	sb.WriteString(strings.Repeat(" ", 201) + "self.config['k']\n")
	f := parseFacts(t, sb.String())
	if len(f.Keys) != 1 || !f.Keys[0].Conditional || f.Keys[0].Func != "g" {
		t.Errorf("keys = %+v", f.Keys)
	}
}

func TestFactsInLoop(t *testing.T) {
	// InLoop: in the body of a loop over a non-literal that is itself unconditional; a
	// condition inside the loop keeps it, one outside (or an early return) does not.
	f := parseFacts(t, `
class H(Object):
    def __init__(self, charm):
        for r in rels:
            charm.unit.get_container("a")
            if r in special:
                charm.unit.get_container("b")
            for s in r:
                charm.unit.get_container("c")
        if leader:
            for r in rels:
                charm.unit.get_container("d")
        for r in ["x", "y"]:
            charm.unit.get_container("e")
        if not ready:
            return
        for r in rels:
            charm.unit.get_container("f")
`)
	want := map[string][2]bool{ // conditional, in loop
		"a": {true, true}, "b": {true, true}, "c": {true, true}, "d": {true, false}, "e": {false, false}, "f": {true, false},
	}
	if len(f.Calls) != len(want) {
		t.Fatalf("calls = %+v", f.Calls)
	}
	for _, c := range f.Calls {
		name := c.Value.Args[0].Str
		if got := [2]bool{c.Conditional, c.InLoop}; got != want[name] {
			t.Errorf("call %s (conditional, in loop) = %v, want %v", name, got, want[name])
		}
	}
}

// The whole config handed on inside a list or tuple literal, or unpacked with **, or as a dict's
// value ({"config": self.config}, dict(config=self.config)), or unpacked into a dict display
// ({**self.config}: a copy of every option, livepatch's snap settings), is a read of every
// option (Via "all"), as config.items() is; an element that is not the config and the config
// as a plain argument (a Call fact the linker follows) are not.
func TestFactsConfigHandedOn(t *testing.T) {
	f := parseFacts(t, `
class C(CharmBase):
    def _on_config_changed(self, event):
        validate([self.config])
        validate((self.model.config, defaults))
        Settings(**self._charm.config)
        validate([self.unit, defaults])
        merged = {**self.config}
        validate(self.config)
        for k, v in self.config.items():
            pass
        context = {"config": self.config, "unit": self.unit, "port": self.config["port"]}
        render("web.conf", dict(config=self.config, name="web"))
`)
	var keys []string
	for _, k := range f.Keys {
		keys = append(keys, fmt.Sprintf("%s[%s]%s:%d", k.Object, k.Key, k.Via, k.Line))
	}
	want := `self.config[]all:4|self.model.config[]all:5|self._charm.config[]all:6|` +
		`self.config[]all:8|self.config[]all:10|self.config[]all:12|self.config["port"]index:12|self.config[]all:13`
	if got := strings.Join(keys, "|"); got != want {
		t.Errorf("keys = %s\nwant   %s", got, want)
	}
}

// An assignment to a name inside `if not NAME:` or `if NAME is None:` fills in a value the
// caller did not give (Fills); one under any other condition, or to another name, does not.
func TestFactsFills(t *testing.T) {
	f := parseFacts(t, `
class C:
    def __init__(self, charm, refresh=None, extra=None, other=None):
        if not refresh:
            if charm.meta.containers:
                refresh = [charm.on.update_status]
            else:
                refresh = [charm.on.start]
        if extra is None:
            extra = charm.on.leader_elected
            other = charm.on.start
        if extra is not None:
            extra = [extra]
        if not isinstance(refresh, list):
            refresh = [refresh]
        result = refresh
        self.framework.observe(result, self._on_refresh)
        self.framework.observe(extra, self._on_refresh)
        self.framework.observe(other, self._on_refresh)
`)
	var got []string
	for _, a := range f.Assigns {
		got = append(got, fmt.Sprintf("%s:%d:%v", a.Target, a.Line, a.Fills))
	}
	want := "refresh:6:true|refresh:8:true|extra:10:true|other:11:false|extra:13:false|refresh:15:false|result:16:false"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("assigns = %s\nwant      %s", g, want)
	}
}

func TestFactsNarrows(t *testing.T) {
	f := parseFacts(t, `
class C:
    def f(self, key, other):
        if key in OPTIONS:
            return self.g(key)
        elif key == consts.OTHER:
            x = 1
            return x
        elif "plain" == key:
            pass
        if key == other:
            pass
        if key not in SKIPPED or key != "y":
            pass
        while key in LOOPING:
            pass
        if key in self.known():
            pass
        if len(key) in SIZES:
            pass
if MODE == "k8s":
    pass
`)
	var got []string
	for _, n := range f.Narrows {
		got = append(got, fmt.Sprintf("%s.%s:%s:in=%v:%s:%d-%d", n.Class, n.Func, n.Name, n.In, n.Value.Kind, n.Start, n.End))
	}
	want := "C.f:key:in=true:chain:5-5|C.f:key:in=false:chain:7-8|C.f:key:in=false:str:10-10|" +
		"C.f:key:in=false:chain:12-12|C.f:other:in=false:chain:12-12|C.f:key:in=true:call:18-18"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("narrows = %s\nwant      %s", g, want)
	}
}

// A parameter annotated as ops' ConfigData is read like the config (its keys, its
// attributes, and calls that hand it on are facts); a plain parameter's string-keyed reads
// are facts too, for the linker to follow to the callers; other keys, other parameters'
// attribute reads and self are not.
func TestFactsParameterKeys(t *testing.T) {
	f := parseFacts(t, `
def craft(src: ops.ConfigData, dest, names, *args, opt: "Optional[ConfigData]" = None, **kw):
    a = src["kube-proxy-extra-args"]
    b = dest["x"]
    c = dest.get(f"{n}-port")
    d = names[0]
    e = names[key]
    _configure(dest, src)
    _other(dest)
    g = opt.log_level
    h = dest.log_level

class K:
    def m(self, data):
        i = self["a"]
        j = data["b"]
`)
	var keys []string
	for _, k := range f.Keys {
		keys = append(keys, fmt.Sprintf("%s[%s]%s:%d", k.Object, k.Key, k.Via, k.Line))
	}
	want := `src["kube-proxy-extra-args"]index:3|dest["x"]index:4|dest[f"{n}-port"]get:5|data["b"]index:16`
	if got := strings.Join(keys, "|"); got != want {
		t.Errorf("keys = %s\nwant   %s", got, want)
	}
	var attrs []string
	for _, a := range f.Attrs {
		attrs = append(attrs, a.Object.String()+"."+a.Attr)
	}
	if got := strings.Join(attrs, "|"); got != "opt.log_level" {
		t.Errorf("attrs = %s", got)
	}
	var calls []string
	for _, c := range f.Calls {
		calls = append(calls, c.Value.Chain.String())
	}
	if got := strings.Join(calls, "|"); got != "_configure" {
		t.Errorf("calls = %s", got)
	}
}

// A method of self called with a constant, a string or a loop's element is a Call fact (the
// linker reads which names its parameter takes); one called with anything else, and a
// function called with a constant, are not.
func TestFactsSelfCallsWithNames(t *testing.T) {
	f := parseFacts(t, `
class C(CharmBase):
    def __init__(self, *args):
        self._relation_created(N2_RELATION_NAME)
        self._relation_created(name=const.PEER)
        for relation in [DB, CACHE]:
            self._relation_created(relation)
        for rel in self.model.relations:
            self._check(rel)
        self._relation_created(other)
        self._relation_created("literal")
        self._relation_created(f"{x}-literal")
        helper(N2_RELATION_NAME)
`)
	var calls []string
	for _, c := range f.Calls {
		calls = append(calls, fmt.Sprintf("%s:%d", c.Value.Chain, c.Line))
	}
	want := "self._relation_created:4|self._relation_created:5|self._relation_created:7|self._check:9|self._relation_created:11"
	if got := strings.Join(calls, "|"); got != want {
		t.Errorf("calls = %s\nwant   %s", got, want)
	}
}

// Dispatch: a getattr-like call given a name that is no string literal, or a listing of an
// object's members, may reach any method; a literal name does not. A getattr or hasattr of a
// dotted name records that object instead (DispatchOn), for the linker to judge. HandlerStrings
// keeps the string literals that are a private method's name, not a message that mentions one,
// and the names getattr and hasattr are given.
func TestFactsDispatch(t *testing.T) {
	for src, want := range map[string]string{
		`x = getattr(self, "_on_start")`:                     "",
		`handler = getattr(self, "_on_" + kind)`:             "on self",
		`getattr(self, f"_on_{kind}")(event)`:                "on self",
		`hasattr(self, name)`:                                "on self",
		`v = getattr(self._stored, key, None)`:               "on self._stored",
		`getattr(logger, level)("x")`:                        "on logger",
		`getattr(sys.modules[__name__], name)()`:             "dispatch",
		`getattr(make(), name)()`:                            "dispatch",
		`self.__getattribute__("_on_" + kind)`:               "dispatch",
		`operator.methodcaller("_on_" + kind, event)`:        "dispatch",
		`for n, m in inspect.getmembers(self): pass`:         "dispatch",
		`for n in dir(type(self)): pass`:                     "dispatch",
		`names = vars(cls)`:                                  "dispatch",
		`d = type(self).__dict__`:                            "dispatch",
		`h = hash(tuple(self.__dict__.values()))`:            "",
		`same = self.__dict__ == other.__dict__`:             "",
		`f = module.__dict__[name]`:                          "dispatch",
		`logger.info("_on_config_changed ran")`:              "",
		`patch.object(DemoCharm, "_on_update_status")`:       "",
		"getattr(self, a)\ngetattr(self._stored, b)":         "on self self._stored",
		"hasattr(self._stored, a)\ngetattr(self._stored, b)": "on self._stored",
	} {
		f := parseFacts(t, src)
		got := ""
		switch {
		case f.Dispatch:
			got = "dispatch"
		case len(f.DispatchOn) > 0:
			got = "on " + strings.Join(f.DispatchOn, " ")
		}
		if got != want {
			t.Errorf("%s: dispatch %q, want %q", src, got, want)
		}
	}
	for src, want := range map[string]bool{
		`handler = getattr(self, "_on_" + kind)`: true,
		`getattr(self._charm, f"_on_{kind}")`:    true,
		`hasattr(self, name)`:                    false,
		`for n in dir(type(self)): pass`:         false,
	} {
		if got := parseFacts(t, src).HandlerDispatch; got != want {
			t.Errorf("%s: handler dispatch %v, want %v", src, got, want)
		}
	}
	f := parseFacts(t, "patch.object(C, \"_on_update_status\")\nlogger.info(\"_on_config_changed ran\")\nx = \"_on_start\"\ny = \"_on_start\"\n"+
		"getattr(self, \"configure\")()\nhasattr(self, \"_ready\")\nz = \"port\"\ngetattr(self, \"not a name\")\n")
	if got := strings.Join(f.HandlerStrings, "|"); got != "_on_start|_on_update_status|_ready|configure" {
		t.Errorf("handler strings = %s", got)
	}
}

func TestFactsWrappedConstruction(t *testing.T) {
	// trace_type(Cls)(args) builds a Cls with args (a tracing wrapper applied at the call
	// site), assigned or not; a wrapper given two arguments, a non-class or a call is no
	// construction of its argument.
	f := parseFacts(t, `
class H(Object):
    def setup(self):
        tracing.trace_type(IngressRequirer)(self.charm, self.relation_name)
        iface = trace_type(lib.LogForwarder)(self.charm, relation_name="logging")
        self.framework.observe(iface.on.ready, self._ready)
        partial(Requirer, self.charm)("db")
        wrap(helper)(self.charm, "x")
        wrap(make())(self.charm, "y")
`)
	var got []string
	for _, c := range f.Calls {
		got = append(got, c.Value.String())
	}
	if want := `IngressRequirer(self.charm, self.relation_name)`; strings.Join(got, "|") != want {
		t.Errorf("calls = %q, want %q", strings.Join(got, "|"), want)
	}
	if as := strings.Join(assignStrings(f), "\n"); !strings.Contains(as, `iface=lib.LogForwarder(self.charm, relation_name="logging")`) {
		t.Errorf("assigns lack the wrapped construction:\n%s", as)
	}
}

func TestFactsPairTables(t *testing.T) {
	// observe in a loop over a list or tuple of (event, handler) pairs, unpacked or indexed,
	// is one Observe per pair; an annotated name without a value beside it is no table.
	f := parseFacts(t, `
class C(CharmBase):
    def __init__(self, *args):
        state: int
        pairs = [(self.on.start, self._a), (self.on.x_action, self._b)]
        for ev, h in pairs:
            self.framework.observe(ev, h)
        for p in ((self.on.stop, self._c),):
            self.framework.observe(p[0], p[1])
        for p in [self.on.remove, self._d]:
            self.framework.observe(p[0], p[1])
`)
	var got []string
	for _, o := range f.Observes {
		got = append(got, fmt.Sprintf("%d %s>%s", o.Line, o.Event, o.Handler))
	}
	want := "7 self.on.start>self._a|7 self.on.x_action>self._b|9 self.on.stop>self._c|11 p[0]>p[1]"
	if strings.Join(got, "|") != want {
		t.Errorf("observes = %q, want %q", strings.Join(got, "|"), want)
	}
}
