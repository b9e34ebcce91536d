package netcode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// Replicated marks the entities a server replicates: an entity without it
// never leaves the server, whatever components it has (as bevy_replicon's
// Replicated component). A client gives it to every entity it makes for a
// server's, so client systems can tell replicated entities from their own.
type Replicated struct{}

// maxRules bounds the component types one Rules replicates: an entering
// entity carries a mask of them in one word.
const maxRules = 64

// Rules lists what a server replicates and a client accepts: the
// component types, in the order they were added, and the input type.
// Server and client build equal Rules; their fingerprint, checked when a
// client joins, covers each type's name and saved layout, so two builds
// that would read each other's bytes wrongly refuse each other instead.
// Rules are built before a Server or Client uses them and not changed
// after.
type Rules struct {
	rules []rule
	names map[string]bool
	input inputRule
}

// NewRules returns empty Rules.
func NewRules() *Rules { return &Rules{names: map[string]bool{}} }

// RuleOption configures one Replicate rule.
type RuleOption func(*ruleOptions)

type ruleOptions struct{ name string }

// Named gives the rule a name of its own instead of T's package path and
// type name, for server and client programs whose types live in
// different packages. Both sides must use the same name.
func Named(name string) RuleOption { return func(o *ruleOptions) { o.name = name } }

// Replicate adds component type T to the replicated types: its values
// travel in the save format (ecs.SaveCodec, through tessera gen's
// BinaryCodec methods where T has them). Returns an error when T has no
// save layout (pointer, map, channel, func or interface fields), when a
// rule of the same name exists, or when the Rules hold 64 types already.
// Entities inside T's values are mapped to the client's own.
func Replicate[T any](r *Rules, opts ...RuleOption) error {
	var o ruleOptions
	for _, opt := range opts {
		opt(&o)
	}
	t := reflect.TypeFor[T]()
	if o.name == "" {
		o.name = typeName(t)
	}
	if r.names[o.name] {
		return fmt.Errorf("netcode: Replicate[%s]: a rule named %q exists", t, o.name)
	}
	if len(r.rules) == maxRules {
		return fmt.Errorf("netcode: Replicate[%s]: at most %d component types replicate", t, maxRules)
	}
	c, err := ecs.NewSaveCodec[T]()
	if err != nil {
		return fmt.Errorf("netcode: Replicate[%s]: %w", t, err)
	}
	r.names[o.name] = true
	r.rules = append(r.rules, &typedRule[T]{name: o.name, codec: c, size: c.Size(), widths: c.Fields(nil), refs: holdsRefs(t)})
	return nil
}

// typeName is T's package path and name, or its description.
func typeName(t reflect.Type) string {
	if t.PkgPath() != "" && t.Name() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	return t.String()
}

// holdsRefs reports whether values of t may hold an ecs.Entity.
func holdsRefs(t reflect.Type) bool {
	if t == reflect.TypeFor[ecs.Entity]() {
		return true
	}
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		return holdsRefs(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsRefs(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// Fingerprint returns the hash (FNV-1a, 64 bits) of the ordered rules:
// each name and saved layout, and the input type's. Equal on every
// machine for the same rules.
func (r *Rules) Fingerprint() uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, x := range r.rules {
		h.Write([]byte(x.ruleName()))
		binary.LittleEndian.PutUint64(b[:], x.schema())
		h.Write(b[:])
	}
	if r.input != nil {
		h.Write([]byte("input:" + r.input.inputName()))
		binary.LittleEndian.PutUint64(b[:], r.input.schema())
		h.Write(b[:])
	}
	return h.Sum64()
}

// errNoRules is returned by NewServer and Dial for Rules with no types.
var errNoRules = errors.New("netcode: the rules replicate no component type")

// rule is one replicated component type, with its type erased.
type rule interface {
	ruleName() string
	schema() uint64
	// fixedSize is the bytes a value takes, or -1 when it varies.
	fixedSize() int
	numberWidths() []uint8
	holdsRefs() bool
	// bind returns the rule's access to w.
	bind(w *ecs.World) boundRule
}

// boundRule is a rule's access to one world.
type boundRule interface {
	// capture writes the values of every replicated entity into img.
	capture(img *ruleImage)
	// set decodes one value from data onto e (adding the component if e
	// lacks it) and returns the bytes used.
	set(e ecs.Entity, data []byte, mapEntity func(ecs.Entity) ecs.Entity) (int, error)
	// remove takes the component from e, if it has it.
	remove(e ecs.Entity)
	// appendValue appends e's value in the save format, or reports false
	// if e lacks the component.
	appendValue(dst []byte, e ecs.Entity) ([]byte, bool)
}

type typedRule[T any] struct {
	name   string
	codec  *ecs.SaveCodec[T]
	size   int
	widths []uint8
	refs   bool
}

func (r *typedRule[T]) ruleName() string      { return r.name }
func (r *typedRule[T]) schema() uint64        { return r.codec.Schema() }
func (r *typedRule[T]) fixedSize() int        { return r.size }
func (r *typedRule[T]) numberWidths() []uint8 { return r.widths }
func (r *typedRule[T]) holdsRefs() bool       { return r.refs }
func (r *typedRule[T]) bind(w *ecs.World) boundRule {
	return &boundTyped[T]{r: r, m: ecs.NewMap[T](w),
		q: ecs.NewQuery1[T](w, ecs.With(ecs.C[Replicated]()))}
}

type boundTyped[T any] struct {
	r *typedRule[T]
	m *ecs.Map[T]
	q *ecs.Query1[T]
	v T
}

func (b *boundTyped[T]) capture(img *ruleImage) {
	c, size := b.r.codec, b.r.size
	for ch := range b.q.Chunks() {
		for i, e := range ch.Entities {
			idx := int(e.Index())
			img.grow(idx)
			img.has[idx>>6] |= 1 << (idx & 63)
			if size >= 0 {
				off := idx * size
				c.Append(img.data[off:off:off+size], &ch.A[i])
			} else {
				img.vals[idx] = c.Append(img.vals[idx][:0], &ch.A[i])
			}
		}
	}
}

func (b *boundTyped[T]) set(e ecs.Entity, data []byte, mapEntity func(ecs.Entity) ecs.Entity) (int, error) {
	n, err := b.r.codec.Decode(data, &b.v, mapEntity)
	if err != nil {
		return 0, err
	}
	b.m.Set(e, b.v)
	return n, nil
}

func (b *boundTyped[T]) remove(e ecs.Entity) {
	if b.m.Has(e) {
		b.m.Remove(e)
	}
}

func (b *boundTyped[T]) appendValue(dst []byte, e ecs.Entity) ([]byte, bool) {
	p, ok := b.m.TryGet(e)
	if !ok {
		return dst, false
	}
	return b.r.codec.Append(dst, p), true
}
