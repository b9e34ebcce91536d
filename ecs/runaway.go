package ecs

import (
	"fmt"
	"strings"
	"unsafe"
)

// MaxHookDepth is how deeply hook calls may nest: a hook whose change fires
// a hook at once (a Set inside OnAdd or OnSet firing OnSet) nests one level
// deeper. Going deeper panics with the chain of hooks, outermost first. A
// legitimate chain that deep is unlikely; a hook that sets the component it
// observes on the same entity reaches it at once. Inside a parallel section
// (where OnSet hooks run on several goroutines) the depth is not tracked.
const MaxHookDepth = 256

// MaxCascadeRounds is how many rounds of consequences a structural change
// may have. The changes a loop body or an operation makes are round 0; the
// changes hooks make while round n is applied are round n+1; likewise each
// settling of enter and leave observers is a round. Going further panics
// with the last changes applied. The changes of the runaway cascade not yet
// applied are dropped, so that [World.Recover] (needed after this panic as
// after any panic in a hook) does not restart it. A chain of consequences
// through a hierarchy is one round per level, so this also bounds the depth
// of hierarchies that hooks walk one level at a time.
const MaxCascadeRounds = 1000

// hookKind names what a hook frame is running.
type hookKind uint8

const (
	hookOnAdd hookKind = iota
	hookOnSet
	hookOnRemove
)

func (k hookKind) String() string {
	return [...]string{"OnAdd", "OnSet", "OnRemove"}[k]
}

// hookFrame is one hook call in progress: which hooks, of which type, for
// which entity.
type hookFrame struct {
	kind hookKind
	info *componentInfo
	e    Entity
}

// runHooks calls hooks in registration order with e and v, as one frame of
// kind for the type info describes. Callers raise the world's iteration
// count around it, so structural changes the hooks make are deferred until
// the firing operation is complete. The frame is popped by a defer, so a
// hook's panic leaves no frame behind. In a parallel section (only OnSet
// fires there, on several goroutines) no frame is kept and the depth is not
// limited.
func (w *World) runHooks(kind hookKind, info *componentInfo, hooks []hookFunc, e Entity, v unsafe.Pointer) {
	if w.shared {
		for _, f := range hooks {
			f(e, v)
		}
		return
	}
	w.frames = append(w.frames, hookFrame{kind: kind, info: info, e: e})
	defer w.popFrame()
	if len(w.frames) > MaxHookDepth {
		w.runawayHooks()
	}
	for _, f := range hooks {
		f(e, v)
	}
}

func (w *World) popFrame() {
	if n := len(w.frames); n > 0 {
		w.frames = w.frames[:n-1]
	}
}

// despawningNow reports whether e is being despawned: its OnRemove hooks
// are running. Only one despawn runs hooks at a time: despawns their hooks
// make are deferred.
func (w *World) despawningNow(e Entity) bool { return w.dying == e && !e.IsZero() }

// runawayHooks panics for hook calls nested deeper than MaxHookDepth.
func (w *World) runawayHooks() {
	var b strings.Builder
	n := len(w.frames)
	for i := 0; i < n; i++ {
		if i == 4 && n > 8 {
			fmt.Fprintf(&b, " → … (%d more)", n-8)
			i = n - 4
		}
		if i > 0 {
			b.WriteString(" → ")
		}
		f := w.frames[i]
		fmt.Fprintf(&b, "%v[%s](%v)", f.kind, f.info.label(), f.e)
	}
	last := w.frames[len(w.frames)-1]
	panic(fmt.Sprintf("ecs: hooks nested more than %d deep on entity %v: %s; a hook keeps making a change that fires a hook again at once (for example an OnSet that calls Set on the entity and type it observes); call World.Recover after recovering this panic",
		MaxHookDepth, last.e, b.String()))
}

// runawayCascade panics for a change queued more than MaxCascadeRounds
// rounds after the change that started the cascade, dropping the changes
// of the cascade not yet applied.
func (w *World) runawayCascade(next command) {
	var b strings.Builder
	from := max(w.applied-6, 0)
	for i, c := range w.cmds.cmds[from:w.applied] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w.describeCommand(&c))
	}
	dropped := len(w.cmds.cmds) - w.applied
	w.dropQueued(w.applied)
	panic(fmt.Sprintf("ecs: deferred changes did not settle after %d rounds: hooks keep making changes that fire hooks again; the last changes applied: %s; next: %s (dropped, with the %d other changes of the cascade not yet applied); call World.Recover after recovering this panic",
		MaxCascadeRounds, b.String(), w.describeCommand(&next), dropped))
}

// describeCommand names a deferred change for a message, such as
// "Remove[main.Health] 5v0".
func (w *World) describeCommand(c *command) string {
	typ := func() string {
		if int(c.id) < len(w.reg.infos) {
			return "[" + w.reg.infos[c.id].label() + "]"
		}
		return ""
	}
	switch c.kind {
	case cmdDespawn:
		return "Despawn " + c.e.String()
	case cmdAdd:
		return "Add" + typ() + " " + c.e.String()
	case cmdRemove:
		return "Remove" + typ() + " " + c.e.String()
	case cmdAddAll:
		return "AddMatching" + typ() + " over " + c.q.describe()
	case cmdRemoveAll:
		return "RemoveMatching" + typ() + " over " + c.q.describe()
	case cmdDespawnAll:
		return "DespawnMatching over " + c.q.describe()
	case cmdAddN:
		return "Add" + w.typeList(w.cmds.multi[c.slot:c.slot+2*uint32(c.id)], 2) + " " + c.e.String()
	case cmdRemoveN:
		return "Remove" + w.typeList(w.cmds.multi[c.slot:c.slot+uint32(c.id)], 1) + " " + c.e.String()
	case cmdExchangeN:
		entries := w.cmds.exchangeEntries(c)
		nrm := 1 + int(entries[0])
		return "Exchange" + w.typeList(entries[1:nrm], 1) + " for " + w.typeList(entries[nrm:], 2) + " " + c.e.String()
	case cmdAddAllN:
		return "AddMatching" + w.typeList(w.cmds.multi[c.slot:c.slot+2*uint32(c.id)], 2) + " over " + c.q.describe()
	case cmdRemoveAllN:
		return "RemoveMatching" + w.typeList(w.cmds.multi[c.slot:c.slot+uint32(c.id)], 1) + " over " + c.q.describe()
	case cmdFunc:
		return "a relation change"
	}
	return "Spawn"
}

// typeList names the types of every stride-th id of ids, as
// "[main.Pos,main.Vel]".
func (w *World) typeList(ids []componentID, stride int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < len(ids); i += stride {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(w.reg.infos[ids[i]].label())
	}
	b.WriteByte(']')
	return b.String()
}
