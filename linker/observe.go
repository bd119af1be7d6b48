package linker

// Observers: the observe calls of the charm's code (framework.observe(self.on.db_relation_changed,
// self._on_db_changed), self.on["db"].relation_joined, events handed on by a wrapper or a
// reconciler that observes every event), the handler each names, the charm's custom events,
// and the events its code names that ops would not define for its YAML (unknown-event).

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/cantrip-dev/charmcraft-map/charmyaml"
	"github.com/cantrip-dev/charmcraft-map/pyextract"
)

// observeThroughCallers links an observe call whose event is a parameter of its function (a
// wrapper: def _observe_action(self, on_action, fn): self.framework.observe(on_action, fn))
// at each recorded call of the function, as the observe call that call makes, with the event
// that call passes. The handler: when it is a parameter too, the one the call passes, named
// in the caller's code; else the one the wrapper names, in the wrapper's code (charm._on_changed
// of its parameter charm; a missing one is reported there, once, and links nothing); a
// handler the linker cannot name (getattr(self, name)) is the wrapper itself. It reports
// whether any call was found. A call of the wrapper from another wrapper is not followed.
func (l *charmLinker) observeThroughCallers(fi *fileInfo, o *pyextract.Observe, c *ctx) bool {
	sym := fi.funcSyms[funcKey{o.Class, o.Func}]
	calls := l.callsOf(c)
	if sym == nil || len(calls) == 0 {
		return false
	}
	first := firstPositional(c)
	argOf := func(call *pyextract.Value, name string) *pyextract.Value {
		i, p, ok := paramOf(sym, name)
		if !ok {
			return nil
		}
		return argValue(call, 0, i-first+1, p)
	}
	handlerParam := isParam(fi, o.Scope, &o.Handler)
	var own *handlerRef // the handler the wrapper names
	if !handlerParam {
		h, missing := l.handler(&o.Handler, c)
		switch {
		case missing != "":
			if !fi.vendored {
				l.find(FindMissingHandler, missing, siteAt(fi, o.Scope, "", ""))
			}
		case h != nil:
			own = h
		default:
			own = &handlerRef{sym, fi}
		}
	}
	found := false
	for _, s := range calls {
		ev := argOf(s.value, o.Event.Chain[0].Name)
		if ev == nil {
			continue
		}
		found = true
		at := pyextract.Observe{
			Scope: pyextract.Scope{Class: className(s.cls), Func: s.fn, Line: s.line, Conditional: s.cond || o.Conditional,
				InLoop: s.loop, AfterReturn: s.after},
			Event: *ev,
		}
		var hv *pyextract.Value
		if handlerParam {
			hv = argOf(s.value, o.Handler.Chain[0].Name)
		}
		for _, cc := range l.contexts(s.file, s.cls, s.fn) {
			h := own
			if hv != nil {
				var missing string
				h, missing = l.handler(hv, cc)
				if missing != "" && !s.file.vendored {
					l.find(FindMissingHandler, missing, siteAt(s.file, at.Scope, "", ""))
				}
			}
			l.observeEvent(s.file, &at, cc, h)
		}
	}
	return found
}

// checkEventArgs reports the charm's events its own code hands to a call other than observe
// (MetricsEndpointProvider(self, refresh_event=[self.on.grafana_pebble_ready]), a library
// object that observes them): reading an event ops does not define for the YAML raises
// AttributeError there, as in an observe call. Only the charm's code is held to it; the
// library's observe of what it was given is not linked here.
func (l *charmLinker) checkEventArgs() {
	for _, fi := range l.scope {
		if fi.vendored || fi.library || fi.test {
			continue
		}
		args := func(sc pyextract.Scope, call *pyextract.Value) {
			var vals []*pyextract.Value
			for j := range call.Args {
				vals = append(vals, &call.Args[j])
			}
			for j := range call.Kwargs {
				vals = append(vals, &call.Kwargs[j].Value)
			}
			for _, v := range vals {
				if v.Kind == pyextract.ValSeq { // [self.on.a, self.on.b]
					for k := range v.Args {
						l.checkEventArg(fi, sc, &v.Args[k])
					}
				} else {
					l.checkEventArg(fi, sc, v)
				}
			}
		}
		for i := range fi.Facts.Calls {
			args(fi.Facts.Calls[i].Scope, &fi.Facts.Calls[i].Value)
		}
		for i := range fi.Facts.Assigns { // self.metrics = MetricsEndpointProvider(...)
			if a := &fi.Facts.Assigns[i]; a.Value.Kind == pyextract.ValCall {
				args(a.Scope, &a.Value)
			}
		}
	}
}

// checkEventArg reports v, an argument at sc, when it is an event of the charm's on (written
// <x>.on.<event>) that the charm does not have.
func (l *charmLinker) checkEventArg(fi *fileInfo, sc pyextract.Scope, v *pyextract.Value) {
	n := len(v.Chain)
	if v.Kind != pyextract.ValChain || n < 3 || v.Chain[n-2].Name != "on" || v.Chain[n-1].Name == "" {
		return
	}
	for _, c := range l.contexts(fi, fi.classes[sc.Class], sc.Func) {
		for _, ev := range l.eval(v, c.at(sc.Line)) {
			if ev.kind != aEvent || ev.key != "" || ev.dyn || ev.loose {
				continue
			}
			if custom := l.custom(ev.cls); custom.names[ev.str] || custom.open {
				continue
			}
			at := siteAt(fi, sc, "", "")
			switch kind, name, ok := eventKind(ev.str); {
			case ok && (kind == KindLifecycle || kind == KindSecret || kind == KindStatus):
			case ok:
				if _, declared := l.lookup(kind, name); !declared {
					l.findIn(undeclaredKind[kind], strings.ReplaceAll(name, "_", "-"), at, c)
				}
			case l.eventsKnown(ev.cls) && !l.definesEvents():
				l.findIn(FindUnknownEvent, ev.str, at, c)
			}
		}
	}
}

// linkObserves links every observe call in scope, under each context its class runs in.
func (l *charmLinker) linkObserves() {
	for _, fi := range l.scope {
		for i := range fi.Facts.Observes {
			o := &fi.Facts.Observes[i]
			for _, c := range l.contexts(fi, fi.classes[o.Class], o.Func) {
				l.observe(fi, o, c)
			}
		}
	}
}

func (l *charmLinker) observe(fi *fileInfo, o *pyextract.Observe, c *ctx) {
	if isParam(fi, o.Scope, &o.Event) && c.fn != "__init__" && l.observeThroughCallers(fi, o, c) {
		return
	}
	hv := unwrapHandler(&o.Handler)
	h, missing := l.handler(hv, c)
	if h == nil && missing == "" {
		if m := l.observerMethod(o, hv, c); m != nil {
			h, missing = l.handler(m, c)
		}
	}
	if missing != "" && !fi.vendored {
		l.find(FindMissingHandler, missing, siteAt(fi, o.Scope, "", ""))
	}
	if l.misspeltFramework(fi, o, c) {
		l.find(FindMisspeltFramework, o.Receiver, siteAt(fi, o.Scope, "", ""))
	}
	// a near miss under a base from outside the tree (handler) may still be the base's: the
	// event stays observed (review rev106)
	if h == nil && (missing == "" || l.nearMiss[nearKey(fi.Path, className(c.cls), missing)] != "") && opaque(o) && !isParam(fi, o.Scope, &o.Handler) && !l.calledHandler(&o.Handler, c) {
		h = opaqueHandler(fi, o)
	}
	l.observeEvent(fi, o, c, h)
}

// observerMethod returns, for an observe call given an object rather than a method
// (`self.framework.observe(self.on.db_relation_joined, self)`, the ops before 1.0 way), the
// method ops calls on it: on_<event kind> (self.on_db_relation_joined); nil when hv does not
// evaluate to an object only, or the event's kind is not known. Asked only when hv names no
// method (handler).
func (l *charmLinker) observerMethod(o *pyextract.Observe, hv *pyextract.Value, c *ctx) *pyextract.Value {
	if hv.Kind != pyextract.ValChain || len(hv.Chain) == 0 || hv.Chain[len(hv.Chain)-1].Call {
		return nil
	}
	objs := l.chain(hv.Chain, c)
	if len(objs) == 0 || slices.ContainsFunc(objs, func(a aval) bool { return a.kind != aCharm && !(a.kind == aObj && a.cls != nil) }) {
		return nil
	}
	oc := *c
	oc.line = o.Line
	for _, ev := range l.eval(&o.Event, &oc) {
		if (ev.kind != aEvent && ev.kind != aObjEvent) || ev.str == "" {
			continue
		}
		kind := ev.str
		if ev.kind == aEvent && ev.key != "" {
			kind = strings.ReplaceAll(ev.key, "-", "_") + "_" + kind
		}
		return &pyextract.Value{Kind: pyextract.ValChain, Chain: append(slices.Clone(hv.Chain), pyextract.Step{Name: "on_" + kind})}
	}
	return nil
}

// lambdaCall matches a lambda that calls a method of self: `lambda event: self._on_db(event)`.
var lambdaCall = regexp.MustCompile(`^lambda\b[^:]*:\s*self\.([A-Za-z_]\w*)\s*\(`)

// unwrapHandler returns the method an observer wraps: the first argument of a
// functools.partial (partial(self._on_db, "db")), the method a lambda calls (lambda e:
// self._on_db(e)); v itself otherwise.
func unwrapHandler(v *pyextract.Value) *pyextract.Value {
	switch {
	case v.Kind == pyextract.ValCall && len(v.Chain) > 0 && v.Chain[len(v.Chain)-1].Name == "partial" && len(v.Args) > 0:
		return &v.Args[0]
	case v.Kind == pyextract.ValOther:
		if m := lambdaCall.FindStringSubmatch(v.Str); m != nil {
			return &pyextract.Value{Kind: pyextract.ValChain, Chain: pyextract.Chain{{Name: "self"}, {Name: m[1]}}}
		}
	}
	return v
}

// opaque reports an observer that is a handler, though one the linker cannot name: a lambda,
// a call (functools.partial of something unknown), an attribute of self; not a name a loop
// binds or a collection's element, whose handlers are not known (a dynamic name).
func opaque(o *pyextract.Observe) bool {
	v := &o.Handler
	if loopElement(o) {
		return false
	}
	switch v.Kind {
	case pyextract.ValOther:
		return strings.HasPrefix(v.Str, "lambda")
	case pyextract.ValCall:
		return true
	case pyextract.ValChain:
		return len(v.Chain) == 2 && v.Chain[0].Name == "self" && v.Chain[1].Index == nil
	}
	return false
}

// calledHandler reports an observer that calls a handler instead of passing it:
// self._on_db(), a method of the tree taking an event, whose None observe gets (review rev92:
// such a call was taken for a handler, and the relation for observed). A factory's call
// (self._handler_for("db")) is not one.
func (l *charmLinker) calledHandler(v *pyextract.Value, c *ctx) bool {
	if v.Kind != pyextract.ValCall || len(v.Chain) == 0 {
		return false
	}
	h, _ := l.handler(&pyextract.Value{Kind: pyextract.ValChain, Chain: v.Chain}, c)
	return h != nil && slices.ContainsFunc(h.Params, func(p pyextract.Param) bool { return pyextract.EventName(p.Name) })
}

// opaqueHandler stands for a handler the linker cannot name (a lambda, a name a class body
// binds to a method, a method of a base from outside the tree): the event is observed all
// the same, by the code at the observe call, so the interface is handled (review rev91:
// such a relation was reported as observed by no code, an error under --strict). Its symbol
// is the handler's text, on one line and short.
func opaqueHandler(fi *fileInfo, o *pyextract.Observe) *handlerRef {
	name := o.Handler.String()
	if r := []rune(name); len(r) > 40 {
		name = string(r[:39]) + "…"
	}
	return &handlerRef{&pyextract.Symbol{Name: name, Kind: "function", Line: o.Line}, fi}
}

// linkReconcilers links the calls of cosl.reconciler's observe_events(self, all_events,
// self._reconcile) and observe_all(self, ALL_EVENTS, self._reconcile) (pyextract
// ReconcilerObservers): the handler observes every event of the charm, each declared
// relation's, container's and storage's among them, and the lifecycle's (config-changed,
// update-status, leader-elected, ...), as a catch-all (Handler.Loose and CatchAll) that is
// none's own. cosl's reconcilable_events_k8s (every event but remove, upgrade-charm and custom
// notices) counts as every event; reconcilable_events_machine and _k8s_workloadless leave
// out the Pebble events too, so no container's pebble-ready. A call given a set of its own
// written out as ops' event classes (observe_events(self, (ops.InstallEvent,
// ops.UpgradeCharmEvent), self._setup): otel-ebpf-profiler, review rev103) observes those
// events: a lifecycle or secret event as its own handler, a relation's, container's or
// storage's kind of event as a catch-all of every one declared. Another set of its own
// (a name the linker does not know) is left alone: which events it holds is not read.
func (l *charmLinker) linkReconcilers() {
	for _, fi := range l.scope {
		if fi.library {
			continue
		}
		for i := range fi.Facts.Calls {
			c := &fi.Facts.Calls[i]
			hv, pebble, classes, ok := reconcilerHandler(&c.Value)
			if !ok {
				continue
			}
			for _, cc := range l.contexts(fi, fi.classes[c.Class], c.Func) {
				h, missing := l.handler(hv, cc)
				if missing != "" {
					l.find(FindMissingHandler, missing, siteAt(fi, c.Scope, "", ""))
				}
				if h == nil {
					continue
				}
				add := func(kind, name, event string) {
					it := l.iface(kind, name)
					hd := Handler{Event: event, Symbol: h.Name, File: h.file.Path, Line: h.Line, Via: ViaObserve,
						ObserveFile: fi.Path, ObserveLine: c.Line, Conditional: c.Conditional, Loose: true, CatchAll: true,
						AfterReturn: afterReturn(c.Conditional, c.AfterReturn)}
					if classes != nil && (kind == KindLifecycle || kind == KindSecret) {
						// named by its class: this event's own (not all_events', review rev106)
						hd.Loose, hd.CatchAll = false, false
					}
					if !slices.ContainsFunc(it.Handlers, func(x Handler) bool { return x.Symbol == hd.Symbol && x.Event == hd.Event }) {
						it.Handlers = append(it.Handlers, hd)
					}
				}
				if classes != nil {
					for _, ev := range classes {
						l.addClassEvent(ev, add)
					}
					continue
				}
				for _, r := range l.ch.Relations {
					add(KindRelation, r.Name, strings.ReplaceAll(r.Name, "-", "_")+"_relation_changed")
				}
				for _, k := range l.ch.Containers {
					if pebble {
						add(KindContainer, k.Name, strings.ReplaceAll(k.Name, "-", "_")+"_pebble_ready")
					}
				}
				for _, st := range l.ch.Storage {
					add(KindStorage, st.Name, strings.ReplaceAll(st.Name, "-", "_")+"_storage_attached")
				}
				for _, ev := range []string{"config_changed", "update_status", "leader_elected", "leader_settings_changed"} {
					add(KindLifecycle, strings.ReplaceAll(ev, "_", "-"), ev)
				}
			}
		}
	}
}

// reconcilerHandler returns the handler of a call of a ReconcilerObservers function given the
// charm first and every event (its event set absent, None, or named like cosl's all_events,
// ALL_EVENTS, ALL_EVENTS_K8S, reconcilable_events_k8s): the argument after the charm that is a
// method of self, or the handler= or callback= keyword; pebble is false for the sets without
// the Pebble events (reconcilable_events_machine, reconcilable_events_k8s_workloadless).
func reconcilerHandler(v *pyextract.Value) (handler *pyextract.Value, pebble bool, classes []string, ok bool) {
	ch := v.Chain
	if v.Kind != pyextract.ValCall || len(ch) == 0 || !pyextract.ReconcilerObservers[ch[len(ch)-1].Name] || len(v.Args) == 0 ||
		v.Args[0].Kind != pyextract.ValChain || len(v.Args[0].Chain) != 1 || v.Args[0].Chain[0].Name != "self" {
		return nil, false, nil, false
	}
	var events *pyextract.Value
	for i := range v.Args[1:] {
		a := &v.Args[1+i]
		switch {
		case a.Kind == pyextract.ValChain && len(a.Chain) == 2 && a.Chain[0].Name == "self":
			handler = a
		case events == nil:
			events = a
		}
	}
	for i := range v.Kwargs {
		switch kw := &v.Kwargs[i]; kw.Name {
		case "handler", "callback":
			handler = &kw.Value
		case "events", "include":
			events = &kw.Value
		}
	}
	if handler == nil {
		return nil, false, nil, false
	}
	if events == nil || events.Kind == pyextract.ValOther && events.Str == "None" {
		return handler, true, nil, true
	}
	if classes := eventClasses(events); classes != nil {
		return handler, false, classes, true
	}
	if events.Kind != pyextract.ValChain || len(events.Chain) == 0 {
		return nil, false, nil, false
	}
	switch last := strings.ToLower(events.Chain[len(events.Chain)-1].Name); {
	case last == "none" || strings.HasPrefix(last, "all_events"):
		return handler, true, nil, true
	case strings.HasPrefix(last, "reconcilable_events"):
		return handler, !strings.Contains(last, "machine") && !strings.Contains(last, "workloadless"), nil, true
	}
	return nil, false, nil, false
}

// eventClasses reads a literal set of ops' event classes, (ops.InstallEvent,
// ops.charm.UpgradeCharmEvent), as the events' attribute names on a charm's `on` (install,
// upgrade_charm); nil when the value is no such display or an element is anything else.
func eventClasses(v *pyextract.Value) []string {
	if v.Kind != pyextract.ValSeq || len(v.Args) == 0 {
		return nil
	}
	var out []string
	for _, a := range v.Args {
		if a.Kind != pyextract.ValChain || len(a.Chain) == 0 {
			return nil
		}
		stem, ok := strings.CutSuffix(a.Chain[len(a.Chain)-1].Name, "Event")
		if !ok || stem == "" {
			return nil
		}
		out = append(out, strings.Join(pyextract.SplitWords(stem), "_"))
	}
	return out
}

// addClassEvent links ev, an event named by its class (eventClasses), with add: a lifecycle
// or secret event as itself, a relation's, container's or storage's kind of event
// (relation_changed, pebble_ready) for every one the charm declares; any other is left alone.
func (l *charmLinker) addClassEvent(ev string, add func(kind, name, event string)) {
	switch {
	case slices.Contains(lifecycleEvents, ev):
		add(KindLifecycle, strings.ReplaceAll(ev, "_", "-"), ev)
	case slices.Contains(secretEvents, ev):
		add(KindSecret, strings.ReplaceAll(ev, "_", "-"), ev)
	case slices.Contains(relationEvents, ev):
		for _, r := range l.ch.Relations {
			add(KindRelation, r.Name, strings.ReplaceAll(r.Name, "-", "_")+"_"+ev)
		}
	case slices.Contains(containerEvents, ev):
		for _, k := range l.ch.Containers {
			add(KindContainer, k.Name, strings.ReplaceAll(k.Name, "-", "_")+"_"+ev)
		}
	case slices.Contains(storageEvents, ev):
		for _, st := range l.ch.Storage {
			add(KindStorage, st.Name, strings.ReplaceAll(st.Name, "-", "_")+"_"+ev)
		}
	}
}

// loopElement reports an observe call inside a loop whose event is a plain local name or an
// item of one (ev, pair[0]): an element of what the loop runs over.
func loopElement(o *pyextract.Observe) bool {
	ch := o.Event.Chain
	if !o.InLoop || o.Event.Kind != pyextract.ValChain || len(ch) == 0 || len(ch) > 2 || ch[0].Name == "self" {
		return false
	}
	return len(ch) == 1 || ch[1].Index != nil
}

// observeEvent links the event of the observe call o, running in c, to the handler h (nil:
// none to link).
func (l *charmLinker) observeEvent(fi *fileInfo, o *pyextract.Observe, c *ctx, h *handlerRef) {
	at := siteAt(fi, o.Scope, ViaObserve, o.Event.String())
	cond := o.Conditional // of the event being linked
	loose := false        // of the event being linked
	every := false        // of the event being linked: from every declared relation or container
	// where the object observing was built under a condition (nil: it was not)
	built := c.builtUnderCondition()
	var builtFile, builtClass string
	var builtLine, builtAfter int
	if built != nil {
		builtFile, builtLine, builtAfter = built.file.Path, built.line, built.after
		if built.target != nil {
			builtClass = built.target.name
		}
	}
	add := func(kind, name, event, via string) {
		if h == nil {
			return
		}
		l.observedFor(h, fi, o, true)
		if kind == KindAction {
			k := scopeKey{h.file.Path, h.Qualifier, strings.TrimPrefix(h.Name, h.Qualifier+".")}
			l.actions[k] = appendUniq(l.actions[k], name)
		}
		it := l.iface(kind, name)
		it.Handlers = append(it.Handlers, Handler{
			Event: event, Symbol: h.Name, File: h.file.Path, Line: h.Line, Via: via,
			ObserveFile: fi.Path, ObserveLine: o.Line, Conditional: cond, BuiltFile: builtFile, BuiltLine: builtLine, BuiltClass: builtClass, Loose: loose, CatchAll: every, Vendored: fi.vendored,
			AfterReturn: afterReturn(cond && built == nil, o.AfterReturn), BuiltAfterReturn: builtAfter,
		})
	}
	oc := *c
	oc.line = o.Line // a loop variable reused by two loops is the one of the loop around the call
	events := l.eval(&o.Event, &oc)
	if loopElement(o) && !fi.library && (h == nil || !slices.ContainsFunc(events, func(a aval) bool { return a.kind == aEvent || a.kind == aObjEvent })) {
		// for ev, h in self._more(): observe(ev, h): the events, or their handlers, are a
		// collection's the linker cannot read (or one the code changes in place:
		// pairs.append(...)); what they name is not known (check counts it as a dynamic name)
		l.unresolved = append(l.unresolved, at)
	}
	for _, ev := range events {
		loose, every = ev.loose, ev.every
		// An event taken from a collection a loop runs over (for event in EVENTS: observe,
		// for name in self.model.relations: observe(self.on[name]...)) is observed whenever
		// the loop runs, and the linker has read that it is not empty; a condition inside
		// such a loop picks among its elements (dispatch), and is not reported either.
		cond = o.Conditional && !(o.InLoop && ev.loose) || built != nil
		switch ev.kind {
		case aEvent:
			via := ev.via
			switch {
			case fi.library:
				via = ViaLibInner
			case c.cls != nil && !l.isCharm(c.cls):
				via = ViaHelper
			}
			if ev.dyn {
				// charm.on[self._relation_name] in a library object is its endpoint; a name
				// taken from a collection in a loop (for relation in policies) is not
				if kind, _ := indexedKind(ev.str); fi.library && c.inst != nil && kind == KindRelation && !o.InLoop {
					for _, ep := range l.endpoints(c.inst).names {
						if d, ok := l.lookup(KindRelation, ep.name); ok {
							add(KindRelation, d, ev.str, via)
						}
					}
				} else if !fi.library {
					u := at
					u.NameKind = kind // on[name].relation_departed names a relation
					l.unresolved = append(l.unresolved, u)
				}
				continue
			}
			kind, name, ok := "", ev.key, false
			if ev.key != "" {
				kind, ok = indexedKind(ev.str)
				// on["db"].relation_cahnged looks up db_relation_cahnged on the charm's on:
				// no event ops defines, nor one of the charm's own (review rev104)
				attr := strings.ReplaceAll(ev.key, "-", "_") + "_" + ev.str
				_, _, fixed := eventKind(attr) // on["update"].status is update_status
				if custom := l.custom(ev.cls); !ok && !fixed && !custom.open && !custom.names[attr] && !fi.vendored && !fi.library && !ev.loose &&
					l.eventsKnown(ev.cls) && !l.definesEvents() {
					l.findIn(FindUnknownEvent, attr, siteAt(fi, o.Scope, "", ""), c)
				}
			} else {
				custom := l.custom(ev.cls)
				if custom.names[ev.str] {
					// a custom event named after a declared relation (redis_relation_updated, which
					// the redis library's handlers of that relation emit) is that relation's: its
					// observer handles the relation; an undeclared prefix is no finding
					if ep, _, found := strings.Cut(ev.str, "_relation_"); found && ep != "" {
						if d, declared := l.lookup(KindRelation, ep); declared {
							add(KindRelation, d, ev.str, via)
						}
					}
					continue
				}
				kind, name, ok = eventKind(ev.str)
				if ok && custom.open && kind != KindLifecycle && kind != KindSecret && kind != KindStatus {
					if _, declared := l.lookup(kind, name); !declared {
						continue // may be a custom event of an events class we cannot read
					}
				}
				if !ok && !custom.open && !fi.vendored && !fi.library && !ev.loose && l.eventsKnown(ev.cls) && !l.definesEvents() {
					// self.on.cos_agent_joined: no event ops defines for the charm, and none
					// of its own: the attribute lookup raises AttributeError
					l.findIn(FindUnknownEvent, ev.str, siteAt(fi, o.Scope, "", ""), c)
				} else if near := nearFixedEvent(ev.str); !ok && near != "" && !custom.names[ev.str] && !fi.vendored && !fi.library && !ev.loose {
					// self.on.instlal under a base from outside the tree (paas_charm's Charm,
					// OSBaseCharm), which may add events, but not one spelt like ops' own
					// (review rev109): a warning that names it
					f := siteAt(fi, o.Scope, "", "near")
					f.Key = near
					l.findIn(FindUnknownEvent, ev.str, f, c)
				}
			}
			if !ok {
				continue
			}
			switch kind {
			case KindLifecycle, KindSecret, KindStatus:
				add(kind, name, ev.str, via)
			default:
				if d, declared := l.lookup(kind, name); declared {
					add(kind, d, ev.str, via)
				} else if !fi.vendored && !ev.loose {
					// the YAML's spelling: an attribute's name hyphenated, and a key too, which ops
					// reads with - as _ (on["osd_disk"] is the storage osd-disk)
					name = strings.ReplaceAll(name, "_", "-")
					l.findIn(undeclaredKind[kind], name, siteAt(fi, o.Scope, "", ""), c)
					l.observedFor(h, fi, o, false)
				}
			}
		case aObjEvent:
			if ev.self && fi.library && c.inst != nil && h != nil && !h.file.library {
				// a library object observing its own event (DataUpgrade's upgrade_granted) with a
				// method the charm's subclass overrides: the charm's code reacting to the
				// object's relation
				for _, d := range l.eventEndpoints(l.endpoints(c.inst)) {
					add(KindRelation, d, ev.str, ViaLibInner)
				}
				continue
			}
			if ev.self || ev.inst == nil {
				continue
			}
			if !fi.vendored && !fi.library && !ev.loose && l.noSuchObjectEvent(ev.inst.cls, ev.str) {
				// cert_transfer.on.certificate_removed of a library whose events class (v1)
				// defines certificates_removed: AttributeError while the charm is constructed
				if f := l.findIn(FindUnknownEvent, ev.str, siteAt(fi, o.Scope, "", ev.inst.cls.name), c); f != nil {
					f.Events = slices.Sorted(maps.Keys(l.custom(ev.inst.cls).names))
				}
				continue
			}
			eps := l.endpoints(ev.inst)
			if eps.dyn && len(eps.names) == 0 && !fi.library {
				u := at
				u.NameKind = KindRelation // an object bound to an endpoint it was given
				l.unresolved = append(l.unresolved, u)
			}
			via := ViaLibrary
			if fi.library {
				via = ViaLibInner
			}
			for _, d := range l.eventEndpoints(eps) {
				add(KindRelation, d, ev.str, via)
			}
		}
	}
}

// eventsKnown reports whether every event the charm class cls (every charm class when nil)
// has is known: no class up its bases has one from outside the tree but ops' (openBases), so
// none can redefine its on with events of its own.
func (l *charmLinker) eventsKnown(cls *classInfo) bool {
	classes := l.charmCls
	if cls != nil {
		classes = []*classInfo{cls}
	}
	for _, cl := range classes {
		if slices.ContainsFunc(l.mro(cl), func(k *classInfo) bool { return k.openBases }) {
			return false
		}
	}
	return len(classes) > 0
}

// noSuchObjectEvent reports an event name that the events class of cls's on (a library
// object's: on = CertificateTransferEvents()), read whole in the tree, does not define.
func (l *charmLinker) noSuchObjectEvent(cls *classInfo, name string) bool {
	if cls == nil {
		return false
	}
	if _, found := l.lookupClassAttr(cls, "on"); !found {
		return false
	}
	ce := l.custom(cls)
	return !ce.open && len(ce.names) > 0 && !ce.names[name] && !l.definesEvents() &&
		!slices.ContainsFunc(l.mro(cls), func(k *classInfo) bool { return l.ownDefiners[k] })
}

// definesEvents reports code of the charm's (its libraries' too) that defines events at run
// time, charm.on.define_event("reload_bind", ...), or juju_systemd_notices' with
// f"service_{name}_started": any name may then be one of its events. Not a library object
// defining events on its own `on` (data_interfaces' self.on.define_event in DatabaseRequires,
// vendored by 91 of 500 trees: review rev104 found it switching unknown-event off for them),
// which are no charm's: a call on self.on in a class that is no charm class. A use of
// define_event other than such a call (handed on, or called on another object) counts.
func (l *charmLinker) definesEvents() bool {
	if l.defines == 0 {
		l.defines = -1
		l.ownDefiners = map[*classInfo]bool{}
		for _, fi := range l.scope {
			if l.definesCharmEvents(fi) {
				l.defines = 1
			}
		}
	}
	return l.defines > 0
}

// definesCharmEvents reports a file that uses define_event other than on a library object's
// own `on` (definesEvents), and notes the classes that define events on their own `on`
// (ownDefiners: data_interfaces' DatabaseRequires, whose events are named after the
// relation aliases it is given, cluster1_database_created).
func (l *charmLinker) definesCharmEvents(fi *fileInfo) bool {
	defines := fi.refCount("define_event")
	if defines == 0 {
		return false
	}
	own := 0 // calls on a non-charm class's self.on
	for i := range fi.Facts.Calls {
		c := &fi.Facts.Calls[i]
		ch := c.Value.Chain
		if lastName(ch) != "define_event" {
			continue
		}
		if len(ch) != 3 || ch[0].Name != "self" || ch[1].Name != "on" || ch[1].Call || ch[1].Index != nil {
			return true
		}
		cls := fi.classes[c.Class]
		if cls == nil || l.isCharm(cls) || l.inCharmMRO(cls) {
			return true // the charm's on: its class's, or a mixin's of it (review rev106)
		}
		l.ownDefiners[cls] = true
		own++
	}
	return own < defines
}

// inCharmMRO reports a class that a charm class of the charm derives from (a mixin): its self
// is the charm.
func (l *charmLinker) inCharmMRO(cls *classInfo) bool {
	return slices.ContainsFunc(l.charmCls, func(c *classInfo) bool { return slices.Contains(l.mro(c), cls) })
}

// eventEndpoints are the declared relations an object's own events belong to: every endpoint
// it is bound to, except a peer relation beside another one (PrometheusRemoteWriteConsumer's
// peer_relation_name="peers" keeps state among the units; its endpoints_changed is about
// send-remote-write).
func (l *charmLinker) eventEndpoints(eps endpointSet) []string {
	var out, peers []string
	for _, ep := range eps.names {
		d, ok := l.lookup(KindRelation, ep.name)
		switch {
		case !ok || slices.Contains(out, d) || slices.Contains(peers, d):
		case l.isPeer(d):
			peers = append(peers, d)
		default:
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return peers
	}
	return out
}

// isPeer reports whether the declared relation d is a peer relation.
func (l *charmLinker) isPeer(d string) bool {
	return slices.ContainsFunc(l.ch.Relations, func(r charmyaml.Relation) bool { return r.Name == d && r.Role == charmyaml.RolePeers })
}

// custom returns the custom events of the charm class (or of every charm class when nil):
// the attributes of the events class its `on` is redefined with (on = MyEvents()).
func (l *charmLinker) custom(cls *classInfo) customEvents {
	classes := l.charmCls
	if cls != nil {
		classes = []*classInfo{cls}
	}
	out := customEvents{names: map[string]bool{}}
	for _, cl := range classes {
		ce, ok := l.customOn[cl]
		if !ok {
			ce = customEvents{names: map[string]bool{}}
			if vals, found := l.lookupClassAttr(cl, "on"); found {
				ce.open = len(vals) == 0
				for _, v := range vals {
					if v.kind != aObj || v.cls == nil {
						ce.open = true
						continue
					}
					for _, k := range l.mro(v.cls) {
						for name := range k.attrs {
							ce.names[name] = true
						}
						ce.open = ce.open || k.openBases
					}
				}
			}
			l.customOn[cl] = ce
		}
		for n := range ce.names {
			out.names[n] = true
		}
		out.open = out.open || ce.open
	}
	return out
}

type handlerRef struct {
	*pyextract.Symbol
	file *fileInfo
}

// handler resolves an observer to the method or function it names. missing is set when the
// observer is obj.name and no class in the (fully known) hierarchy of obj defines name.
func (l *charmLinker) handler(v *pyextract.Value, c *ctx) (h *handlerRef, missing string) {
	if v.Kind != pyextract.ValChain || len(v.Chain) == 0 {
		return nil, ""
	}
	ch := v.Chain
	name := ch[len(ch)-1].Name
	if name == "" {
		return nil, ""
	}
	if len(ch) == 1 {
		if s := c.file.funcs[name]; s != nil {
			return &handlerRef{s, c.file}, ""
		}
		return nil, ""
	}
	for _, owner := range l.chain(ch[:len(ch)-1], c) {
		var classes []*classInfo
		switch {
		case owner.kind == aCharm && owner.cls != nil:
			classes = []*classInfo{owner.cls}
		case owner.kind == aCharm:
			classes = l.charmCls
		case owner.kind == aObj && owner.cls != nil:
			classes = []*classInfo{owner.cls}
		}
		if len(classes) == 0 {
			return nil, ""
		}
		open, attr := false, false
		for _, cl := range classes {
			for _, k := range l.mro(cl) {
				if s := k.methods[name]; s != nil {
					return &handlerRef{s, k.file}, ""
				}
				_, isAttr := k.attrs[name]
				_, isSelf := k.selfAttrs[name]
				open = open || k.openBases
				attr = attr || isAttr || isSelf
			}
		}
		switch {
		case !open && !attr:
			missing = name
		case !attr:
			// a base from outside the tree may define it, but not a name a letter or two from
			// a method of the tree's classes (review rev104: ceph-dashboard's
			// self._enable_ssl_from_reation beside _enable_ssl_from_relation)
			if near := l.nearMethod(classes, name); near != "" {
				missing = name
				if l.nearMiss == nil {
					l.nearMiss = map[string]string{}
				}
				l.nearMiss[nearKey(c.file.Path, className(c.cls), name)] = near // the observer's (find)
			}
		}
	}
	return nil, missing
}

// noDigits is s without its digits.
func noDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

// typoOf reports a name a letter or two from another, want: at most 1 + len(want)/8 edits
// (charmyaml.EditDistance), and not want itself.
func typoOf(name, want string) bool {
	d := charmyaml.EditDistance(want, name)
	return d > 0 && d <= 1+len(want)/8
}

// nearKey keys a near miss by the observing file and class and the handler's name.
func nearKey(file, class, name string) string { return file + "\x00" + class + "\x00" + name }

// nearMethod is the method of classes (their bases in the tree too) whose name is a letter or
// two from name (typoOf; a name of 8 or more characters),
// "" when there is none or more than one.
func (l *charmLinker) nearMethod(classes []*classInfo, name string) string {
	if len(name) < 8 {
		return ""
	}
	found := ""
	for _, cl := range classes {
		for _, k := range l.mro(cl) {
			for m := range k.methods {
				if strings.TrimLeft(m, "_") == strings.TrimLeft(name, "_") || noDigits(m) == noDigits(name) {
					// on_config beside _on_config: an override scheme, not a typo (review
					// rev106); _on_install_v1 beside _on_install_v2: versions (review rev107)
					return ""
				}
				if typoOf(name, m) {
					if found != "" && found != m {
						return ""
					}
					found = m
				}
			}
		}
	}
	return found
}

// misspeltFramework reports an observe call on self.X (Observe.Receiver), X a letter or two
// from "framework" (ipmi-exporter's self.framwork.observe, review rev123), that neither the
// file nor a class the object's class derives from in the tree sets or defines: the lookup
// raises AttributeError while the charm is being constructed, on every hook. Not in vendored
// code; once per function, at its first such call (observes are linked in source order).
func (l *charmLinker) misspeltFramework(fi *fileInfo, o *pyextract.Observe, c *ctx) bool {
	x := o.Receiver
	if x == "" || fi.vendored || charmyaml.EditDistance(strings.TrimLeft(x, "_"), "framework") > 2 || slices.Contains(fi.Attrs, x) {
		return false
	}
	if c.cls == nil || slices.ContainsFunc(l.mro(c.cls), func(k *classInfo) bool {
		return k.openBases || k.methods[x] != nil || k.attrs[x] != nil || k.selfAttrs[x] != nil || k.file != nil && slices.Contains(k.file.Attrs, x)
	}) {
		return false
	}
	key := [4]string{fi.Path, o.Class, o.Func, x}
	if l.misspelt[key] {
		return false // its first call raised: the others never run
	}
	if l.misspelt == nil {
		l.misspelt = map[[4]string]bool{}
	}
	l.misspelt[key] = true
	return true
}
