package inspect

import (
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// parseEntity reads an entity id of the form "42v3" (index 42, generation
// 3: what Entity.String prints) and returns the living entity it names in
// w, or a 400 naming the problem.
func parseEntity(w *ecs.World, id string) (ecs.Entity, *httpError) {
	idx, gen, ok := strings.Cut(id, "v")
	i, err1 := strconv.ParseUint(idx, 10, 32)
	g, err2 := strconv.ParseUint(gen, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return ecs.Entity{}, badRequest("entity id %q: want INDEXvGENERATION, such as 42v3", id)
	}
	e, alive := w.Reflect().EntityAt(uint32(i))
	if !alive || uint64(e.Generation()) != g {
		return ecs.Entity{}, badRequest("entity %s is not alive", id)
	}
	return e, nil
}

// component resolves a component name, the stable name or, when only one
// type has it, the Go type name ("scenario.Position"), among w's types.
func component(w *ecs.World, name string) (ecs.ComponentInfo, *httpError) {
	var found []ecs.ComponentInfo
	for _, c := range w.Reflect().Components() {
		if c.Name == name {
			return c, nil
		}
		if c.GoType.String() == name {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return ecs.ComponentInfo{}, badRequest("unknown component %q", name)
	case 1:
		return found[0], nil
	}
	return ecs.ComponentInfo{}, badRequest("component name %q is ambiguous: use the stable name (%s or %s)", name, found[0].Name, found[1].Name)
}

// components resolves the component names of a query parameter's values:
// each value is a comma-separated list (commas inside the brackets of a
// generic type's name, such as Pair[int,string], do not separate), and the
// parameter may repeat. No name gives none.
func components(w *ecs.World, values []string) ([]ecs.ComponentType, *httpError) {
	var out []ecs.ComponentType
	for _, list := range values {
		for _, name := range splitNames(list) {
			c, err := component(w, name)
			if err != nil {
				return nil, err
			}
			out = append(out, c.Type)
		}
	}
	return out, nil
}

// splitNames splits list at the commas outside brackets, trimming spaces
// and dropping empty names.
func splitNames(list string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(list); i++ {
		switch {
		case i == len(list) || list[i] == ',' && depth == 0:
			if name := strings.TrimSpace(list[start:i]); name != "" {
				out = append(out, name)
			}
			start = i + 1
		case list[i] == '[':
			depth++
		case list[i] == ']':
			depth = max(depth-1, 0)
		}
	}
	return out
}
