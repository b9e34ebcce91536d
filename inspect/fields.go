package inspect

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// jsonField is a field of a struct as encoding/json reads it: by its
// exact JSON name.
type jsonField struct {
	name   string
	typ    reflect.Type
	quoted bool // the ",string" option: the value is a JSON string
}

// fieldCache holds jsonFields' answers by type.
var fieldCache sync.Map // reflect.Type -> map[string]jsonField

// jsonFields returns the fields encoding/json reads and writes for the
// struct type t, by JSON name, under its rules: exported fields, named by
// their json tag or their Go name, "-" left out, and the fields of an
// embedded struct without a tag name promoted, where a shallower field
// hides a deeper one of the same name and, at the same depth, a tagged
// one an untagged one; two that tie are both left out.
func jsonFields(t reflect.Type) map[string]jsonField {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]jsonField)
	}
	type candidate struct {
		jsonField
		depth  int
		tagged bool
	}
	var all []candidate
	seen := map[reflect.Type]bool{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		for _, st := range level {
			if seen[st] {
				continue
			}
			seen[st] = true
			for i := range st.NumField() {
				f := st.Field(i)
				ft := f.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if f.Anonymous {
					if !f.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !f.IsExported() {
					continue
				}
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				tagged := name != ""
				if !tagged {
					name = f.Name
				}
				quoted := slices.Contains(strings.Split(opts, ","), "string")
				all = append(all, candidate{jsonField{name, f.Type, quoted}, depth, tagged})
			}
		}
		level = next
	}
	slices.SortStableFunc(all, func(a, b candidate) int {
		return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(a.depth, b.depth))
	})
	out := map[string]jsonField{}
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		// all[i:j] share a name, shallowest first.
		var top []candidate
		for _, c := range all[i:j] {
			if c.depth == all[i].depth {
				top = append(top, c)
			}
		}
		if len(top) > 1 {
			var tagged []candidate
			for _, c := range top {
				if c.tagged {
					tagged = append(tagged, c)
				}
			}
			top = tagged
		}
		if len(top) == 1 {
			out[top[0].name] = top[0].jsonField
		}
		i = j
	}
	m, _ := fieldCache.LoadOrStore(t, out)
	return m.(map[string]jsonField)
}

// nearName returns the name of fields that name differs from only in case
// (how a misspelling such as "hp" for "HP" usually looks), or the one at
// the smallest edit distance when it is at most 2, or "".
func nearName(fields map[string]jsonField, name string) string {
	best, bestDist := "", 3
	for _, n := range slices.Sorted(maps.Keys(fields)) {
		if strings.EqualFold(n, name) {
			return n
		}
		if d := editDistance(strings.ToLower(n), strings.ToLower(name)); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes;
// names longer than 64 bytes count as far apart.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
