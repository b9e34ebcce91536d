package ecs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// DecodeValue reads one value of component type c from the JSON in data,
// the form [World.SaveJSON] writes component values in (fields by name or
// tag, a type's own UnmarshalJSON, entities as {"index": i, "generation":
// g}, which get w's tag), and returns it boxed in an any of the component
// type, ready for [Commands.SetValue]. It is stricter than LoadJSON, as an
// editor's input should be: a field the type does not have, a second JSON
// value after the first, or a value of the wrong kind is an error naming
// the field; missing fields are zero. It returns an error, never panics,
// whatever the bytes, and an error too when w has never met c.
// Complexity: O(len(data)).
func (w *World) DecodeValue(c ComponentType, data []byte) (any, error) {
	info := w.known(c)
	if info == nil {
		return nil, fmt.Errorf("ecs: DecodeValue: %v is not a component type of this world", c)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	p := reflect.New(info.typ)
	if err := dec.Decode(p.Interface()); err != nil {
		return nil, fmt.Errorf("ecs: DecodeValue[%v]: %w", info.typ, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("ecs: DecodeValue[%v]: data after the value", info.typ)
	}
	if walk := entityWalkOf(info.typ); walk != nil {
		tag := w.entities.tag
		walk.rewrite(p.UnsafePointer(), func(e Entity) Entity {
			if e.index == 0 {
				return Entity{}
			}
			return Entity{e.index, e.gen&genMask | tag}
		})
	}
	return p.Elem().Interface(), nil
}
