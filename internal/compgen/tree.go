package compgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is a JSON value with the place it starts at, so that every later
// check can point at what it checks.
type node struct {
	pos  Pos
	kind nodeKind
	// object: keys in order, with their places and values
	keys   []string
	keyPos []Pos
	vals   []*node
	elems  []*node // array
	str    string  // string
	num    json.Number
	b      bool
}

type nodeKind uint8

const (
	objectNode nodeKind = iota
	arrayNode
	stringNode
	numberNode
	boolNode
	nullNode
)

func (k nodeKind) String() string {
	return [...]string{"an object", "an array", "a string", "a number", "a boolean", "null"}[k]
}

// parseTree reads one JSON value, the whole of data, into a tree of nodes.
// A syntax error, or a value past MaxValues or nested past MaxJSONDepth,
// is returned with its place; nothing else is checked. Time and memory are
// linear in len(data).
func parseTree(file string, data []byte) (*node, *Error) {
	li := newLineIndex(file, data)
	values := 0
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// start is the offset of the next token: past the separators the
	// decoder has not consumed yet.
	start := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
			off++
		}
		return off
	}
	fail := func(err error, at int) *Error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			at = min(int(se.Offset), len(data)-1) // the offending byte
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &Error{li.pos(len(data)), "unexpected end of the file"}
		}
		return &Error{li.pos(at), "invalid JSON: " + err.Error()}
	}
	var value func(depth int) (*node, *Error)
	value = func(depth int) (*node, *Error) {
		at := start()
		p := li.pos(at)
		if depth > MaxJSONDepth {
			return nil, &Error{p, fmt.Sprintf("nested deeper than %d levels", MaxJSONDepth)}
		}
		if values++; values > MaxValues {
			return nil, &Error{p, fmt.Sprintf("more than %d JSON values in one file (compgen.MaxValues)", MaxValues)}
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err, at)
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' {
				n := &node{pos: p, kind: objectNode}
				for dec.More() {
					kat := start()
					kt, err := dec.Token()
					if err != nil {
						return nil, fail(err, kat)
					}
					key, _ := kt.(string)
					v, e := value(depth + 1)
					if e != nil {
						return nil, e
					}
					n.keys, n.keyPos, n.vals = append(n.keys, key), append(n.keyPos, li.pos(kat)), append(n.vals, v)
				}
				if _, err := dec.Token(); err != nil {
					return nil, fail(err, start())
				}
				return n, nil
			}
			n := &node{pos: p, kind: arrayNode}
			for dec.More() {
				v, e := value(depth + 1)
				if e != nil {
					return nil, e
				}
				n.elems = append(n.elems, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fail(err, start())
			}
			return n, nil
		case string:
			return &node{pos: p, kind: stringNode, str: t}, nil
		case json.Number:
			return &node{pos: p, kind: numberNode, num: t}, nil
		case bool:
			return &node{pos: p, kind: boolNode, b: t}, nil
		}
		return &node{pos: p, kind: nullNode}, nil
	}
	root, e := value(0)
	if e != nil {
		return nil, e
	}
	if at := start(); at < len(data) {
		return nil, &Error{li.pos(at), "data after the JSON value"}
	}
	return root, nil
}
