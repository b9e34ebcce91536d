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
// the form [World.SaveJSON] writes component values in, and returns it
// boxed in an any of the component type, ready for [Commands.SetValue].
// Decoding is encoding/json's (fields by name or tag, matched without
// regard to case; a type's own UnmarshalJSON; a JSON array into a Go array
// fills what it has, zeroing the rest), with entities read as {"index": i,
// "generation": g} and given the world's tag wherever the value holds them,
// behind pointers and in maps included. It is stricter than LoadJSON, as an
// editor's input should be: null, a field the type does not have, a second
// JSON value after the first, or a value of the wrong kind is an error
// naming the problem; missing fields are zero. It returns an error, never
// panics, whatever the bytes, and an error too when the world has never met
// c. Complexity: O(len(data)).
func (r Reflection) DecodeValue(c ComponentType, data []byte) (any, error) {
	w := r.w
	info := w.known(c)
	if info == nil {
		return nil, fmt.Errorf("ecs: DecodeValue: %v is not a component type of this world", c)
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, fmt.Errorf("ecs: DecodeValue[%v]: null is not a value", info.typ)
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
	w.tagEntities(p.Elem())
	return p.Elem().Interface(), nil
}
