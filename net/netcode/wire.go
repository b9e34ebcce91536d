package netcode

import (
	"encoding/binary"
	"errors"
)

// Message kinds: the first byte of every WebSocket message. Client to
// server kinds are below 0x80, server to client ones above.
const (
	kindHello   byte = 0x01 // client: magic, version, rules fingerprint, token
	kindAck     byte = 0x02 // client: last applied tick, view checksum verdict
	kindInput   byte = 0x03 // client: tick-stamped inputs
	kindResync  byte = 0x04 // client: asks for a reset
	kindWelcome byte = 0x81 // server: client id, tick, limits
	kindState   byte = 0x82 // server: one tick's changes
)

// helloMagic opens every Hello, so that a stray client is refused before
// anything else is read.
const helloMagic = "TSRA"

// ProtocolVersion is the version of the wire protocol this package
// speaks. A client and a server of different versions refuse each other
// with CloseBadHello.
const ProtocolVersion = 1

// errMessage is the error every malformed message gives: the peer is told
// nothing more (the reason sent on close is a constant).
var errMessage = errors.New("netcode: malformed message")

// reader reads a message, keeping the first error: every read past the
// end or of a bad number returns zero and sets err, so decoders check err
// once, at the end, and never panic on any bytes.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errMessage
	}
}

func (r *reader) left() int { return len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return x
}

// count reads a count of items that take at least min bytes each, and
// fails when the rest of the message cannot hold them: a count never
// allocates more than the message's size.
func (r *reader) count(min int) int {
	x := r.uvarint()
	if r.err != nil {
		return 0
	}
	if x > uint64(len(r.b)/max(min, 1)) || min == 0 && x > 1<<24 {
		r.fail()
		return 0
	}
	return int(x)
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) uint64() uint64 {
	b := r.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// done fails when bytes are left over: a message holds exactly its fields.
func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	return r.err
}

func appendUvarint(b []byte, x uint64) []byte { return binary.AppendUvarint(b, x) }

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// zigzag maps signed residuals to unsigned ones, small magnitudes to
// small numbers (as Protocol Buffers' sint64).
func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// hello is the client's first message.
type hello struct {
	version     uint64
	fingerprint uint64
	token       string
	resume      uint64 // the client id of a previous connection, or 0
}

func (h *hello) append(b []byte) []byte {
	b = append(b, kindHello)
	b = append(b, helloMagic...)
	b = appendUvarint(b, h.version)
	b = binary.LittleEndian.AppendUint64(b, h.fingerprint)
	b = appendString(b, h.token)
	return appendUvarint(b, h.resume)
}

// errBadMagic and errBadVersion tell a stray or older client apart from a
// malformed message.
var (
	errBadMagic   = errors.New("netcode: not a Tessera hello")
	errBadVersion = errors.New("netcode: another protocol version")
)

func decodeHello(msg []byte) (hello, error) {
	r := reader{b: msg}
	var h hello
	if r.byte() != kindHello || string(r.bytes(len(helloMagic))) != helloMagic {
		return h, errBadMagic
	}
	if h.version = r.uvarint(); r.err == nil && h.version != ProtocolVersion {
		return h, errBadVersion
	}
	h.fingerprint = r.uint64()
	h.token = string(r.bytes(r.count(1)))
	h.resume = r.uvarint()
	return h, r.done()
}

// welcome is the server's answer to a hello.
type welcome struct {
	client     uint64 // the client's id on this server
	tick       uint64 // the server's tick
	tickRate   uint64 // ticks per second, 0 if the server does not say
	maxMessage uint64 // the largest message the server sends, in bytes
}

func (m *welcome) append(b []byte) []byte {
	b = append(b, kindWelcome)
	for _, x := range [...]uint64{m.client, m.tick, m.tickRate, m.maxMessage} {
		b = appendUvarint(b, x)
	}
	return b
}

func decodeWelcome(msg []byte) (welcome, error) {
	r := reader{b: msg}
	var m welcome
	if r.byte() != kindWelcome {
		return m, errMessage
	}
	m.client, m.tick, m.tickRate, m.maxMessage = r.uvarint(), r.uvarint(), r.uvarint(), r.uvarint()
	return m, r.done()
}

// ack tells the server the last tick a client applied.
type ack struct {
	tick     uint64
	mismatch bool // the client's view checksum differed from the server's
}

func (a *ack) append(b []byte) []byte {
	b = append(b, kindAck)
	b = appendUvarint(b, a.tick)
	if a.mismatch {
		return append(b, 1)
	}
	return append(b, 0)
}

func decodeAck(msg []byte) (ack, error) {
	r := reader{b: msg[1:]}
	a := ack{tick: r.uvarint()}
	switch r.byte() {
	case 0:
	case 1:
		a.mismatch = true
	default:
		r.fail()
	}
	return a, r.done()
}
