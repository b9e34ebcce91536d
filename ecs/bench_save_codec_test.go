package ecs_test

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// SaveCodec benchmarks: what writing and reading one value costs, for a
// plain packed type (its bytes are its memory) and for a padded one
// (written field by field).

// scVec is the packed type of the benchmarks.
type scVec struct{ X, Y float32 }

// scSink keeps the results of the kernels alive.
var scSink int

// scAppendVec writes one scVec into buf, reusing its room.
//
//go:noinline
func scAppendVec(c *ecs.SaveCodec[scVec], buf []byte, v *scVec) []byte {
	return c.Append(buf[:0], v)
}

// scDecodeVec reads one scVec from b.
//
//go:noinline
func scDecodeVec(c *ecs.SaveCodec[scVec], b []byte, v *scVec) int {
	n, err := c.Decode(b, v, nil)
	if err != nil {
		panic(err)
	}
	return n
}

// scAppendHealth writes one codecHealth into buf, reusing its room.
//
//go:noinline
func scAppendHealth(c *ecs.SaveCodec[codecHealth], buf []byte, v *codecHealth) []byte {
	return c.Append(buf[:0], v)
}

// scDecodeHealth reads one codecHealth from b.
//
//go:noinline
func scDecodeHealth(c *ecs.SaveCodec[codecHealth], b []byte, v *codecHealth) int {
	n, err := c.Decode(b, v, nil)
	if err != nil {
		panic(err)
	}
	return n
}

func BenchmarkSaveCodec(b *testing.B) {
	vc, err := ecs.NewSaveCodec[scVec]()
	if err != nil {
		b.Fatal(err)
	}
	hc, err := ecs.NewSaveCodec[codecHealth]()
	if err != nil {
		b.Fatal(err)
	}
	vec := scVec{X: 1.5, Y: -2}
	health := codecHealth{HP: 40, MaxHP: 100, Status: 3}
	buf := make([]byte, 0, 64)
	vecBytes := vc.Append(nil, &vec)
	healthBytes := hc.Append(nil, &health)
	b.Run("Append/Vec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = scAppendVec(vc, buf, &vec)
		}
		scSink = len(buf)
	})
	b.Run("Decode/Vec", func(b *testing.B) {
		b.ReportAllocs()
		var v scVec
		n := 0
		for b.Loop() {
			n += scDecodeVec(vc, vecBytes, &v)
		}
		scSink = n
	})
	b.Run("Append/Health", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = scAppendHealth(hc, buf, &health)
		}
		scSink = len(buf)
	})
	b.Run("Decode/Health", func(b *testing.B) {
		b.ReportAllocs()
		var v codecHealth
		n := 0
		for b.Loop() {
			n += scDecodeHealth(hc, healthBytes, &v)
		}
		scSink = n
	})
}
