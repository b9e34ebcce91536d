package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// A server sends one component value to a client, which keeps entities
// of its own for the server's: the value's entities are mapped as it is
// read.
func ExampleSaveCodec() {
	type Target struct {
		Of   ecs.Entity
		Dist float32
	}
	codec, err := ecs.NewSaveCodec[Target]()
	if err != nil {
		panic(err)
	}

	server := ecs.NewWorld()
	enemy := server.Spawn()
	v := Target{Of: enemy, Dist: 12.5}
	msg := codec.Append(nil, &v) // the bytes server.Save writes for v
	fmt.Println(len(msg), codec.Size(), codec.Fields(nil), len(codec.Refs(&v, nil)))

	client := ecs.NewWorld()
	mirror := map[uint32]ecs.Entity{} // the server's index -> the client's entity
	var got Target
	n, err := codec.Decode(msg, &got, func(e ecs.Entity) ecs.Entity {
		m, ok := mirror[e.Index()]
		if !ok {
			m = client.Spawn()
			mirror[e.Index()] = m
		}
		return m
	})
	fmt.Println(n, err, client.Alive(got.Of), got.Dist)

	_, err = codec.Decode(msg[:5], &got, nil)
	fmt.Println(err)
	// Output:
	// 12 12 [4 4 4] 1
	// 12 <nil> true 12.5
	// ecs: SaveCodec[ecs_test.Target].Decode: at byte 0: truncated: 12 bytes needed, 5 left
}
