package sched

import (
	"reflect"
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
)

// A fold kernel is the inner loop of an Output's in-place fold written out
// for a built-in merge, so that folding a value costs a lookup and an add
// (or a compare, or a store) instead of a lookup and a call through the
// merge's function value, which Go cannot inline. The kernels compute what
// the merge computes: Sum[T] adds with T's own arithmetic and Max[T] is
// the built-in max on T, and a type's arithmetic is that of its underlying
// kind, so a kernel reads T as that kind.

// foldKernel holds the two loops of a built-in merge for T.
type foldKernel[T any] struct {
	// inPlace folds the values of buf into the entities that have T and
	// appends the others to rest; it returns rest.
	inPlace func(m *ecs.Map[T], buf, rest []emitted[T]) []emitted[T]
	// scan folds, in order, the values of buf whose component (at the
	// same index of ptrs, nil for none) falls to share k of shares
	// (foldShare); it returns how many it folded.
	scan func(ptrs []*T, buf []emitted[T], k, shares int) int
}

// number is a kind that Sum and Max can be written out for.
type number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// kernelFor returns the kernel of the built-in merge named name ("LastWins",
// "Sum" or "Max", as builtinMerge gives it) for T, or nil when there is
// none: for a merge of the program's own, and for Sum and Max on strings.
func kernelFor[T any](name string) *foldKernel[T] {
	switch name {
	case "LastWins":
		return &foldKernel[T]{inPlace: lastWinsInPlace[T], scan: lastWinsScan[T]}
	case "Sum", "Max":
		sum := name == "Sum"
		switch reflect.TypeFor[T]().Kind() {
		case reflect.Int:
			return numericKernel[T, int](sum)
		case reflect.Int8:
			return numericKernel[T, int8](sum)
		case reflect.Int16:
			return numericKernel[T, int16](sum)
		case reflect.Int32:
			return numericKernel[T, int32](sum)
		case reflect.Int64:
			return numericKernel[T, int64](sum)
		case reflect.Uint:
			return numericKernel[T, uint](sum)
		case reflect.Uint8:
			return numericKernel[T, uint8](sum)
		case reflect.Uint16:
			return numericKernel[T, uint16](sum)
		case reflect.Uint32:
			return numericKernel[T, uint32](sum)
		case reflect.Uint64:
			return numericKernel[T, uint64](sum)
		case reflect.Uintptr:
			return numericKernel[T, uintptr](sum)
		case reflect.Float32:
			return numericKernel[T, float32](sum)
		case reflect.Float64:
			return numericKernel[T, float64](sum)
		}
	}
	return nil
}

// numericKernel returns the Sum (sum) or Max kernel for T, read as N. The
// caller has checked that T's kind is N's.
func numericKernel[T any, N number](sum bool) *foldKernel[T] {
	if sum {
		return &foldKernel[T]{inPlace: sumInPlace[T, N], scan: sumScan[T, N]}
	}
	return &foldKernel[T]{inPlace: maxInPlace[T, N], scan: maxScan[T, N]}
}

// as reads the T at p as N.
func as[N, T any](p *T) *N {
	// SAFETY: kernelFor pairs T with N only when T's kind is N, so they
	// have one size and one representation.
	return (*N)(unsafe.Pointer(p))
}

func lastWinsInPlace[T any](m *ecs.Map[T], buf, rest []emitted[T]) []emitted[T] {
	for i := range buf {
		it := &buf[i]
		p, ok := m.TryGet(it.e)
		if !ok {
			rest = append(rest, *it)
			continue
		}
		*p = it.v
	}
	return rest
}

func lastWinsScan[T any](ptrs []*T, buf []emitted[T], k, shares int) int {
	n := 0
	buf = buf[:len(ptrs)]
	for i, p := range ptrs {
		// SAFETY: the address is only hashed into a share (foldShare).
		if p != nil && foldShare(unsafe.Pointer(p), shares) == k {
			*p = buf[i].v
			n++
		}
	}
	return n
}

func sumInPlace[T any, N number](m *ecs.Map[T], buf, rest []emitted[T]) []emitted[T] {
	for i := range buf {
		it := &buf[i]
		p, ok := m.TryGet(it.e)
		if !ok {
			rest = append(rest, *it)
			continue
		}
		*as[N](p) += *as[N](&it.v)
	}
	return rest
}

func sumScan[T any, N number](ptrs []*T, buf []emitted[T], k, shares int) int {
	n := 0
	buf = buf[:len(ptrs)]
	for i, p := range ptrs {
		// SAFETY: the address is only hashed into a share (foldShare).
		if p != nil && foldShare(unsafe.Pointer(p), shares) == k {
			*as[N](p) += *as[N](&buf[i].v)
			n++
		}
	}
	return n
}

func maxInPlace[T any, N number](m *ecs.Map[T], buf, rest []emitted[T]) []emitted[T] {
	for i := range buf {
		it := &buf[i]
		p, ok := m.TryGet(it.e)
		if !ok {
			rest = append(rest, *it)
			continue
		}
		q := as[N](p)
		*q = max(*q, *as[N](&it.v))
	}
	return rest
}

func maxScan[T any, N number](ptrs []*T, buf []emitted[T], k, shares int) int {
	n := 0
	buf = buf[:len(ptrs)]
	for i, p := range ptrs {
		// SAFETY: the address is only hashed into a share (foldShare).
		if p != nil && foldShare(unsafe.Pointer(p), shares) == k {
			q := as[N](p)
			*q = max(*q, *as[N](&buf[i].v))
			n++
		}
	}
	return n
}
