package persist

import (
	"hash/maphash"

	"github.com/tessera-ecs/tessera/ecs"
)

// checksumOf returns w's checksum: the Tessera side of the checksum
// comparison.
//
//go:noinline
func checksumOf(w *ecs.World) uint64 { return w.Checksum() }

// hashColumns hashes c's memory, slice by slice in one pass, with
// hash/maphash: the floor of the checksum comparison.
//
//go:noinline
func hashColumns(seed maphash.Seed, c *Columns) uint64 {
	var h maphash.Hash //tessera:nondeterministic-ok the floor is timed, its value never compared
	h.SetSeed(seed)
	for _, b := range c.bytes() {
		h.Write(b)
	}
	return h.Sum64()
}

// checksumComparison times World.Checksum of the particle world against
// maphash over the same data as plain slices.
func checksumComparison(pw *particleWorld) *Comparison {
	seed := maphash.MakeSeed() //tessera:nondeterministic-ok the floor is timed, its value never compared
	c := pw.cols
	return &Comparison{
		Name: "checksum",
		Doc: "World.Checksum hashes the world's whole observable state into 64 bits (the desync check of GGPO and GGRS): " +
			"the entity index and free list, every table's handles and values field by field (padding skipped, every NaN " +
			"one NaN), the sparse sets and the resources. The floor hashes the same data as plain slices with " +
			"hash/maphash, each slice's memory in one Write.",
		Entities: len(c.Ents) + len(c.Emit),
		Rows: []Row{
			{Name: "hash/maphash", Kind: Floor, Bytes: c.Size(), What: "maphash.Hash over each slice's memory, one Write per slice",
				Run: func() { hashColumns(seed, c) }},
			{Name: "World.Checksum", Kind: Tessera, Bytes: c.Size(), What: "w.Checksum()",
				Run: func() { checksumOf(pw.w) }},
		},
	}
}
