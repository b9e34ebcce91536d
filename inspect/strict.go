package inspect

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// The inspector reads component values more strictly than encoding/json:
// a field name must be spelt exactly as the type's JSON name (encoding/json
// would take "hp" for "HP", so a misspelling could pass unseen), and a
// value that does not fit its field (a string for a number, 300 for an
// int8, 1.5 for an int) is refused with the field's path, before
// ecs.Reflection.DecodeValue decodes it.

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// parseDocument reads the one JSON value in data in its generic form:
// objects as map[string]any, arrays as []any, numbers as json.Number (so
// every digit is kept), null as nil. A syntax error or data after the
// value is a 400 that names what component it was for.
func parseDocument(c ecs.ComponentInfo, data []byte) (any, *httpError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, badRequest("component %v: %v", c.GoType, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("component %v: data after the value", c.GoType)
	}
	return doc, nil
}

// strictValue decodes data, a whole value of component c (the body of a
// PUT, one component of a spawn), under the strict rules above.
func (in *Inspector) strictValue(c ecs.ComponentInfo, data []byte) (any, *httpError) {
	doc, err := parseDocument(c, data)
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return nil, badRequest("component %v: null is not a value (DELETE removes a component)", c.GoType)
	}
	if p := checkValue(c.GoType, doc, ""); p != nil {
		return nil, p.answer(c)
	}
	return in.decode(c, data)
}

// decode is DecodeValue as a 400 naming the component.
func (in *Inspector) decode(c ecs.ComponentInfo, data []byte) (any, *httpError) {
	v, err := in.w.Reflect().DecodeValue(c.Type, data)
	if err != nil {
		return nil, badRequest("component %v: %v", c.GoType, err)
	}
	return v, nil
}

// fieldProblem is a value that does not fit its place in a component:
// path is the field's path from the component (Pos.X, Items[2],
// Tags["a"]), "" for the whole value.
type fieldProblem struct {
	path, msg string
}

func (p *fieldProblem) answer(c ecs.ComponentInfo) *httpError {
	if p.path == "" {
		return badRequest("component %v: %s", c.GoType, p.msg)
	}
	return badRequest("component %v: field %q: %s", c.GoType, p.path, p.msg)
}

// checkValue checks that doc, in parseDocument's form, fits type t at
// path: every object key of a struct is one of its JSON field names,
// exactly, and every number, string and boolean has a field of its kind
// and range. null fits anywhere (encoding/json leaves the zero value; in
// a merge patch it removes the member). A type with its own UnmarshalJSON
// or UnmarshalText is left to it, as are interface fields.
func checkValue(t reflect.Type, doc any, path string) *fieldProblem {
	if doc == nil || t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkValue(t.Elem(), doc, path)
	case reflect.Struct:
		obj, ok := doc.(map[string]any)
		if !ok {
			return kindProblem(t, doc, path, "an object")
		}
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			f, ok := fields[k]
			if !ok {
				return unknownField(fields, path, k)
			}
			if f.quoted {
				continue // ",string": a JSON string encoding/json reads itself
			}
			if p := checkValue(f.typ, obj[k], join(path, k)); p != nil {
				return p
			}
		}
	case reflect.Map:
		obj, ok := doc.(map[string]any)
		if !ok {
			return kindProblem(t, doc, path, "an object")
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if p := checkValue(t.Elem(), obj[k], path+"["+strconv.Quote(k)+"]"); p != nil {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return nil // []byte: base64 text, read by encoding/json
		}
		arr, ok := doc.([]any)
		if !ok {
			return kindProblem(t, doc, path, "an array")
		}
		for i, x := range arr {
			if p := checkValue(t.Elem(), x, fmt.Sprintf("%s[%d]", path, i)); p != nil {
				return p
			}
		}
	case reflect.Bool:
		if _, ok := doc.(bool); !ok {
			return kindProblem(t, doc, path, "true or false")
		}
	case reflect.String:
		if _, ok := doc.(string); !ok {
			return kindProblem(t, doc, path, "a string")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		n, ok := doc.(json.Number)
		if !ok {
			return kindProblem(t, doc, path, "a number")
		}
		return checkNumber(t, n, path)
	}
	return nil
}

// checkNumber checks that n fits the number type t.
func checkNumber(t reflect.Type, n json.Number, path string) *fieldProblem {
	s := n.String()
	var err error
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		_, err = strconv.ParseFloat(s, t.Bits())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(s, 10, t.Bits())
	default:
		_, err = strconv.ParseUint(s, 10, t.Bits())
	}
	switch {
	case errors.Is(err, strconv.ErrRange), err != nil && strings.HasPrefix(s, "-") && !strings.ContainsAny(s, ".eE"):
		return &fieldProblem{path, fmt.Sprintf("%s is out of range for %v", s, t)}
	case err != nil:
		return &fieldProblem{path, fmt.Sprintf("%s is not written as an integer, as %v needs", s, t)}
	}
	return nil
}

// kindProblem says that doc is not what type t takes.
func kindProblem(t reflect.Type, doc any, path, want string) *fieldProblem {
	return &fieldProblem{path, fmt.Sprintf("want %s (%v), got %s", want, t, describe(doc))}
}

// unknownField says that a struct at path has no JSON field name, and
// which one may have been meant.
func unknownField(fields map[string]jsonField, path, name string) *fieldProblem {
	msg := fmt.Sprintf("unknown field %q", join(path, name))
	if near := nearName(fields, name); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", join(path, near))
	}
	if len(fields) == 0 {
		msg += " (the type has no fields)"
	}
	return &fieldProblem{"", msg}
}

// describe names the kind of a JSON value in parseDocument's form.
func describe(doc any) string {
	switch v := doc.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		if len(v) > 20 {
			v = v[:20] + "…"
		}
		return "the string " + strconv.Quote(v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return strconv.FormatBool(v)
	}
	return "null"
}

// join is the path of field name below path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
