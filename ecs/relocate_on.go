//go:build tessera_relocate

package ecs

// relocateOnAlloc, on under the tessera_relocate build tag, makes every
// entity allocation move the entity index to a new array, as a growth
// does. A *record kept across a spawn (one a hook made, say) then writes to
// a dead copy at once, and the tests that check the index see the lost
// write, where a normal build would only lose it at the rare spawn that
// grows the index. CI runs the differential and hook tests with it.
const relocateOnAlloc = true
