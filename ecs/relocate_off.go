//go:build !tessera_relocate

package ecs

// relocateOnAlloc is false in normal builds; the tessera_relocate build tag
// turns it on (see relocate_on.go).
const relocateOnAlloc = false
