package ecs

import (
	"fmt"
	"testing"
	"unsafe"
)

// Types of every copy plan (planCopy): 8-byte words, 4-byte words, and
// types that must take the typed call (pointers, odd sizes, 2-byte
// alignment, too large).
type (
	plan8x2  struct{ A, B float64 }
	plan4x1  struct{ A float32 }
	plan4x2  struct{ X, Y float32 }
	plan4x3  struct{ X, Y, Z float32 }
	plan4x4  struct{ X, Y, Z, W int32 }
	plan4x5  struct{ A, B, C, D, E float32 }
	planOdd  struct{ A [3]byte }
	planI16  struct{ A, B int16 }
	planPtr  struct{ P *int }
	planMove struct{} // the tag whose add and remove move rows between tables
)

func TestCopyPlanCodes(t *testing.T) {
	cases := []struct {
		pointerFree bool
		size, align uintptr
		want        copyPlan
	}{
		{true, 8, 8, copy8x1}, {true, 32, 8, copy8x4}, {true, 40, 8, copyTyped},
		{true, 4, 4, copy4x1}, {true, 8, 4, copy4x2}, {true, 12, 4, copy4x3}, {true, 16, 4, copy4x4}, {true, 20, 4, copyTyped},
		{true, 3, 1, copyTyped}, {true, 4, 2, copyTyped}, {true, 0, 1, copyTyped},
		{false, 8, 8, copyTyped}, {false, 16, 8, copyTyped},
	}
	for _, c := range cases {
		if got := planCopy(c.pointerFree, c.size, c.align); got != c.want {
			t.Errorf("planCopy(pointerFree=%v, size=%d, align=%d) = %d, want %d", c.pointerFree, c.size, c.align, got, c.want)
		}
	}
}

// TestCopyPlansKeepValues moves rows of every plan's type through the three
// places that use the plan (swap-remove on despawn, a move between tables,
// the clearing of a reused row) and checks every surviving value.
func TestCopyPlansKeepValues(t *testing.T) {
	checkPlan(t, copy8x2, func(i int) plan8x2 { return plan8x2{float64(i), -float64(i)} })
	checkPlan(t, copy4x1, func(i int) plan4x1 { return plan4x1{float32(i)} })
	checkPlan(t, copy4x2, func(i int) plan4x2 { return plan4x2{float32(i), 2 * float32(i)} })
	checkPlan(t, copy4x3, func(i int) plan4x3 { return plan4x3{float32(i), 1, -float32(i)} })
	checkPlan(t, copy4x4, func(i int) plan4x4 { return plan4x4{int32(i), 7, -int32(i), int32(i) * 3} })
	checkPlan(t, copyTyped, func(i int) plan4x5 { return plan4x5{float32(i), 1, 2, 3, -float32(i)} })
	checkPlan(t, copyTyped, func(i int) planOdd { return planOdd{[3]byte{byte(i), 1, byte(i >> 8)}} })
	checkPlan(t, copyTyped, func(i int) planI16 { return planI16{int16(i), -int16(i)} })
	targets := make([]int, 250)
	checkPlan(t, copyTyped, func(i int) planPtr { return planPtr{&targets[i]} })
}

func checkPlan[T comparable](t *testing.T, wantPlan copyPlan, value func(int) T) {
	var zero T
	t.Run(fmt.Sprintf("%T", zero), func(t *testing.T) {
		w := NewWorld()
		m := NewMap[T](w)
		tag := NewMap[planMove](w)
		if got := m.info.words; got != wantPlan {
			t.Fatalf("%T (size %d, align %d): plan %d, want %d", zero, unsafe.Sizeof(zero), unsafe.Alignof(zero), got, wantPlan)
		}
		const n = 200
		es := make([]Entity, n)
		for i := range es {
			es[i] = m.Spawn(value(i))
		}
		live := map[Entity]int{}
		for i, e := range es {
			switch i % 4 {
			case 0:
				w.Despawn(e) // swap-remove: the last row moves into e's
			case 1:
				tag.Add(e, planMove{}) // a move to another table
				live[e] = i
			case 2:
				tag.Add(e, planMove{})
				tag.Remove(e) // and back
				live[e] = i
			default:
				live[e] = i
			}
		}
		// Spawns reuse despawned rows, which the plan cleared or left
		// stale: each new value must read back exactly.
		for i := n; i < n+n/4; i++ {
			live[m.Spawn(value(i))] = i
		}
		for e, i := range live {
			got, ok := m.TryGet(e)
			if !ok || *got != value(i) {
				t.Fatalf("%v: got %v (ok %v), want %v", e, got, ok, value(i))
			}
		}
		if w.Len() != len(live) {
			t.Fatalf("Len() = %d, want %d", w.Len(), len(live))
		}
	})
}
