package persist

import (
	"bytes"
	"encoding/json"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// JSONWorld is the particle world as plain Go for encoding/json: one
// struct per entity holding its id and its components. The floor of the
// JSON comparisons.
type JSONWorld struct {
	Particles []ParticleRow
	Emitters  []EmitterRow
}

// ParticleRow is one particle: its entity's index and generation and its
// four components.
type ParticleRow struct {
	Index, Generation uint32
	Position          scenario.Position
	Velocity          scenario.Velocity
	Color             scenario.Color
	Lifetime          scenario.Lifetime
}

// EmitterRow is one emitter: its entity's index and generation and its
// component.
type EmitterRow struct {
	Index, Generation uint32
	Emitter           scenario.Emitter
}

// JSONWorldOf returns c's entities as one struct each.
func JSONWorldOf(c *Columns) *JSONWorld {
	j := &JSONWorld{Particles: make([]ParticleRow, len(c.Pos)), Emitters: make([]EmitterRow, len(c.Emit))}
	for i := range j.Particles {
		j.Particles[i] = ParticleRow{uint32(c.Ents[i]), uint32(c.Ents[i] >> 32), c.Pos[i], c.Vel[i], c.Col[i], c.Life[i]}
	}
	for i := range j.Emitters {
		j.Emitters[i] = EmitterRow{uint32(c.EmitEnts[i]), uint32(c.EmitEnts[i] >> 32), c.Emit[i]}
	}
	return j
}

//go:noinline
func jsonMarshal(j *JSONWorld) []byte {
	data, err := json.Marshal(j)
	if err != nil {
		panic(err)
	}
	return data
}

//go:noinline
func jsonUnmarshal(data []byte) *JSONWorld {
	var j JSONWorld
	if err := json.Unmarshal(data, &j); err != nil {
		panic(err)
	}
	return &j
}

//go:noinline
func saveJSONTo(buf *bytes.Buffer, w *ecs.World) {
	buf.Reset()
	if err := w.SaveJSON(buf); err != nil {
		panic(err)
	}
}

//go:noinline
func loadParticlesJSON(data []byte) *ecs.World {
	w := particleTarget()
	if err := w.LoadJSON(bytes.NewReader(data)); err != nil {
		panic(err)
	}
	return w
}

// jsonComparisons times SaveJSON and LoadJSON of the particle world
// against encoding/json over one plain struct per entity.
func jsonComparisons(pw *particleWorld) ([]*Comparison, error) {
	var file bytes.Buffer
	if err := pw.w.SaveJSON(&file); err != nil {
		return nil, err
	}
	j := JSONWorldOf(pw.cols)
	floorData, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	data := file.Bytes()
	ents := len(pw.cols.Ents) + len(pw.cols.Emit)
	var out bytes.Buffer
	save := &Comparison{
		Name: "json_save",
		Doc: "World.SaveJSON writes the save format's content as JSON (format and version, the generation of every " +
			"index, the free list, the types, each table's entity indices and its columns, each column one " +
			"encoding/json.Marshal of a slice of the component type, the resources), indented by one space, through a " +
			"json.Encoder into a bytes.Buffer emptied first. The floor is json.Marshal of the same entities as one " +
			"plain struct each (index, generation and the components, with Go's field names), unindented. MB/s " +
			"counts each side's own output.",
		Entities: ents,
		Rows: []Row{
			{Name: "json.Marshal", Kind: Floor, Bytes: int64(len(floorData)), What: "json.Marshal of a struct of two []struct",
				Run: func() { jsonMarshal(j) }},
			{Name: "World.SaveJSON", Kind: Tessera, Bytes: int64(len(data)), What: "w.SaveJSON(buf)",
				Run: func() { saveJSONTo(&out, pw.w) }},
		},
	}
	load := &Comparison{
		Name: "json_load",
		Doc: "World.LoadJSON reads a SaveJSON file into a new world with the particle scenario's types and resource " +
			"registered (making it is timed too): encoding/json decodes the file, each column is unmarshalled and the " +
			"world is built through the binary loader's checks. The floor is json.Unmarshal of the floor's file into " +
			"a new value of the plain structs.",
		Entities: ents,
		Rows: []Row{
			{Name: "json.Unmarshal", Kind: Floor, Bytes: int64(len(floorData)), What: "json.Unmarshal into a new struct of two []struct",
				Run: func() { jsonUnmarshal(floorData) }},
			{Name: "World.LoadJSON", Kind: Tessera, Bytes: int64(len(data)), What: "a new world with the types registered, then w.LoadJSON(r)",
				Run: func() { loadParticlesJSON(data) }},
		},
	}
	return []*Comparison{save, load}, nil
}
