package ecs

import "sync"

// valueCoders is an encoder and a decoder with their BinaryCodec views,
// for SaveCodec's values that a fixedPlan does not cover (strings,
// slices, BinaryCodec methods). Passed to a method or a function value,
// an encoder or decoder would escape to the heap: one per call of Append
// or Decode. A pool of them costs no allocation once warm.
type valueCoders struct {
	enc encoder
	dec decoder
	se  SaveEncoder
	sd  SaveDecoder
}

var valueCoderPool = sync.Pool{New: func() any {
	k := &valueCoders{}
	k.se.e = &k.enc
	k.sd.d = &k.dec
	return k
}}

// maxPooledFixups is the most entity addresses a pooled decoder keeps
// room for: a value with more gives its room back to the collector.
const maxPooledFixups = 1024

func getValueCoders() *valueCoders { return valueCoderPool.Get().(*valueCoders) }

// putValueCoders returns k to the pool, holding nothing of the caller's:
// no buffer, no bytes and no address of a value.
func putValueCoders(k *valueCoders) {
	k.enc = encoder{}
	fixups := k.dec.fixups
	clear(fixups)
	if cap(fixups) > maxPooledFixups {
		fixups = nil
	}
	k.dec = decoder{fixups: fixups[:0]}
	valueCoderPool.Put(k)
}
