package netcode

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// Input is one client's input for one server tick, as the server's systems
// read it: an event of ecs.EventsOf[Input[I]], sent before the tick runs,
// one per connected client that ever sent an input, in client id order.
// When a client's input for the tick did not arrive in time, its last one
// is repeated with Repeated set (hold-last, as lightyear and Unity's
// Netcode for Entities do).
type Input[I any] struct {
	Client   ClientID
	Tick     uint64
	Value    I
	Repeated bool
}

// UseInput makes I the input type clients send (SendInput) and the
// server delivers as Input[I] events; Named gives it a name of its own for
// the rules' fingerprint. Errors: I has no save layout, or the rules have
// an input type already.
func UseInput[I any](r *Rules, opts ...RuleOption) error {
	if r.input != nil {
		return fmt.Errorf("netcode: UseInput[%s]: the rules have an input type", reflect.TypeFor[I]())
	}
	c, err := ecs.NewSaveCodec[I]()
	if err != nil {
		return fmt.Errorf("netcode: UseInput[%s]: %w", reflect.TypeFor[I](), err)
	}
	o := ruleOptions{name: typeName(reflect.TypeFor[I]())}
	for _, opt := range opts {
		opt(&o)
	}
	r.input = &typedInput[I]{name: o.name, codec: c}
	return nil
}

type inputRule interface {
	inputName() string
	schema() uint64
	bindServer(w *ecs.World) boundInput
}

// boundInput is the input type's access to the server's world.
type boundInput interface {
	// check decodes one input from the front of b and returns its size.
	check(b []byte) (int, error)
	deliver(c ClientID, tick uint64, b []byte, repeated bool)
}

type typedInput[I any] struct {
	name  string
	codec *ecs.SaveCodec[I]
}

func (t *typedInput[I]) inputName() string { return t.name }
func (t *typedInput[I]) schema() uint64    { return t.codec.Schema() }
func (t *typedInput[I]) bindServer(w *ecs.World) boundInput {
	return &serverInput[I]{codec: t.codec, events: ecs.EventsOf[Input[I]](w)}
}

type serverInput[I any] struct {
	codec  *ecs.SaveCodec[I]
	events *ecs.Events[Input[I]]
	v      I
}

func (s *serverInput[I]) check(b []byte) (int, error) { return s.codec.Decode(b, &s.v, nil) }

func (s *serverInput[I]) deliver(c ClientID, tick uint64, b []byte, repeated bool) {
	if _, err := s.codec.Decode(b, &s.v, nil); err != nil {
		return // checked when stored
	}
	s.events.Send(Input[I]{Client: c, Tick: tick, Value: s.v, Repeated: repeated})
}

// Input window: a client's inputs are kept for the next inputWindow
// ticks; one for a tick already run is late and dropped, one further
// ahead is early and dropped, and more than maxEarlyInputs early ones
// close the connection.
const (
	inputWindow     = 32
	maxInputsPerMsg = 8
	maxEarlyInputs  = 100
)

// inputRing is the server's store of one client's inputs, by tick.
type inputRing struct {
	ticks      [inputWindow]uint64
	vals       [inputWindow][]byte
	last       []byte // the last input delivered
	has        bool
	violations int
}

func newInputRing() *inputRing { return &inputRing{} }

var errInput = errors.New("netcode: malformed input")

// store reads an Input message: kind, first tick, count, then the values.
// next is the first tick still to run. It returns the late and early
// inputs it dropped.
func (r *inputRing) store(msg []byte, next uint64, bi boundInput) (late, early int, err error) {
	rd := reader{b: msg[1:]}
	first := rd.uvarint()
	n := rd.count(1)
	if rd.err != nil || n == 0 || n > maxInputsPerMsg {
		return 0, 0, errInput
	}
	for i := range n {
		used, err := bi.check(rd.b)
		if err != nil {
			return late, early, errInput
		}
		v := rd.bytes(used)
		t := first + uint64(i)
		switch {
		case t < next:
			late++
		case t >= next+inputWindow:
			early++
			r.violations++
		default:
			k := t % inputWindow
			r.ticks[k] = t
			r.vals[k] = append(r.vals[k][:0], v...)
		}
	}
	if rd.done() != nil {
		return late, early, errInput
	}
	return late, early, nil
}

// take returns the input for tick: the one stored, or the last one
// repeated; false if the client never sent one.
func (r *inputRing) take(tick uint64) (v []byte, repeated, ok bool) {
	k := tick % inputWindow
	if r.ticks[k] == tick && tick != 0 {
		r.last = append(r.last[:0], r.vals[k]...)
		r.has = true
		return r.last, false, true
	}
	return r.last, true, r.has
}

// deliverInputs sends every client's input for tick as events.
func (s *Server) deliverInputs(tick uint64) {
	for _, c := range s.clients {
		if v, repeated, ok := c.inputs.take(tick); ok {
			s.input.deliver(c.id, tick, v, repeated)
		}
	}
}

// SendInput sends v as the client's input for server tick tick. Inputs
// for ticks the server already ran are dropped there (and counted as
// late), so a client sends ahead of the server tick it last applied
// (Client.Tick, or Client.JoinTick before the first State) by a lead of a
// round trip in ticks plus one; Prediction keeps such a lead itself. Send
// one input per tick, not per frame: a client's messages are limited to
// four per server tick or 150 a second, whichever is more, and a flood is
// closed (CloseRateExceeded). Errors: the rules have no input type I, or
// the connection ended.
func SendInput[I any](c *Client, tick uint64, v I) error {
	t, ok := c.rules.input.(*typedInput[I])
	if !ok {
		return fmt.Errorf("netcode: SendInput[%s]: the rules' input type is another", reflect.TypeFor[I]())
	}
	msg := []byte{kindInput}
	msg = appendUvarint(msg, tick)
	msg = appendUvarint(msg, 1)
	msg = t.codec.Append(msg, &v)
	return c.queue(msg)
}
