// Package maporder ranges over maps: in an order that matters (reported)
// and in ways whose result cannot depend on the order (not reported).
package maporder

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/tessera-ecs/tessera/ecs"
)

type spawner struct {
	byName map[string]int
}

func spawnAll(w *ecs.World, kinds map[string]float64, pos map[int]float64) (float64, []string) {
	sum := 0.0
	for name, v := range kinds { // want `maporder: ranging over a Go map: the order is random and changes from run to run, so whatever the loop feeds .* can differ; range over the sorted keys instead: for _, k := range slices.Sorted\(maps.Keys\(m\)\)`
		fmt.Println(name)
		sum += v
	}
	for k := range pos { // want `maporder: ranging over a Go map`
		fmt.Println(k)
	}
	var names []string
	for name := range kinds { // want `maporder: ranging over a Go map`
		names = append(names, name) // collected but never sorted
	}
	return sum, names
}

func (s *spawner) fields() int {
	last := 0
	for _, v := range s.byName { // want `maporder: ranging over a Go map`
		last = v // which value wins depends on the order
	}
	for name, v := range s.byName { // want `maporder: ranging over a Go map`
		last += v + len(name)
		if v > 3 {
			break
		}
	}
	return last
}

func iterators(m map[string]int, sm *sync.Map, rv reflect.Value) {
	for k := range maps.Keys(m) { // want `maporder: ranging over maps.Keys`
		fmt.Println(k)
	}
	for _, v := range maps.All(m) { // want `maporder: ranging over maps.All`
		fmt.Println(v)
	}
	sm.Range(func(k, v any) bool { return true }) // want `maporder: \(sync.Map\).Range visits entries in a random order`
	_ = rv.MapKeys()                              // want `maporder: \(reflect.Value\).MapKeys yields a map's keys in a random order`
}

// noFix: reported without a fix, as a mechanical rewrite would change
// what the loop does or does not compile.
func noFix(m map[float64]int, byID map[int]int, calls func() map[int]int) {
	// Float keys: NaN cannot be looked up.
	for k := range m { // want `maporder: ranging over a Go map`
		fmt.Println(k)
	}
	// The body writes the map.
	for k, v := range byID { // want `maporder: ranging over a Go map`
		byID[k+1] = v
		fmt.Println(k)
	}
	// The map would be evaluated again.
	for k, v := range calls() { // want `maporder: ranging over a Go map`
		fmt.Println(k, v)
	}
	var k int
	// The key variable is not declared by the loop.
	for k = range byID { // want `maporder: ranging over a Go map`
		fmt.Println(k)
	}
	// The value variable is declared again in the body.
	for k, v := range byID { // want `maporder: ranging over a Go map`
		v := v * 2
		fmt.Println(k, v)
	}
}

// Near misses: the result cannot depend on the order.
func nearMisses(m map[string]int, dead map[int]bool, w *ecs.World) (int, []string, map[string]int) {
	n, total, bits := 0, 0, 0
	for range m { // neither key nor value
		n++
	}
	for _, v := range m {
		total += v // integer sums commute
		bits |= v
	}
	for k, v := range m {
		if v > 10 {
			delete(m, k) // deletes commute
			continue
		}
		n++
	}
	for id := range dead {
		delete(dead, id)
	}
	inverse := make(map[string]int, len(m))
	for k, v := range m {
		inverse[k] = v * 2 // each key written once
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // collected, then sorted
	var ids []int
	for id, alive := range dead {
		if alive {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	var quoted []string
	for k := range m {
		quoted = append(quoted, strconv.Quote(k)) // a pure function
	}
	slices.Sort(quoted)
	found := false
	for k, v := range m {
		if n := len(k); n > v {
			found = true // every iteration writes the same value
		}
	}
	edges := map[string]map[string]bool{}
	for from, tos := range edges {
		for to := range tos {
			edges[to][from] = true
		}
	}
	//tessera:nondeterministic-ok Sprint has no effect, so the order does not matter
	for _, v := range m {
		fmt.Sprint(v)
	}
	_ = found
	return n + total + bits + len(quoted), keys, inverse
}

// moreOrders: bodies that look order-free but are not.
func moreOrders(m map[string]int, edges map[string]map[string]int) (int, string) {
	last, name := 0, ""
	for k, v := range m { // want `maporder: ranging over a Go map`
		n := v * 2
		last = n // the last iteration wins
		_ = k
	}
	for _, tos := range edges { // want `maporder: ranging over a Go map`
		for name = range tos { // the outer variable keeps the last key
		}
	}
	copyOut := map[string]int{}
	for _, tos := range edges { // want `maporder: ranging over a Go map`
		for to, v := range tos {
			copyOut[to] = v // the same inner key may come from two outer entries
		}
	}
	return last + len(copyOut), name
}
