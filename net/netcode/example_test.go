package netcode_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/net/netcode"
)

type Position struct{ X, Y float32 }

// A server replicates a world to a client on the same machine: the
// client's world gets the server's entities, and once it applied the
// last State its checksum equals the server's view of it.
func Example() {
	rules := netcode.NewRules()
	if err := netcode.Replicate[Position](rules); err != nil {
		panic(err)
	}

	// The server's world: three replicated entities and one that is not.
	w := ecs.NewWorld()
	pos := ecs.NewMap2[Position, netcode.Replicated](w)
	for i := range 3 {
		pos.Spawn(Position{float32(i), 0}, netcode.Replicated{})
	}
	ecs.NewMap[Position](w).Spawn(Position{-1, -1}) // stays on the server
	srv, err := netcode.NewServer(w, rules, netcode.Options{Token: "secret", ChecksumEvery: 1})
	if err != nil {
		panic(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	defer srv.Close()

	// The client's world.
	cw := ecs.NewWorld()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + netcode.Path
	c, err := netcode.Dial(ctx, url, cw, rules, netcode.ClientOptions{Token: "secret"})
	if err != nil {
		panic(err)
	}
	defer c.Close()

	// Tick: move the entities, send the changes, let the client apply.
	for c.Tick() < 5 {
		for r := range ecs.NewQuery1[Position](w, ecs.With(ecs.C[netcode.Replicated]())).All() {
			r.A.Y++
		}
		srv.Update()
		time.Sleep(20 * time.Millisecond)
		if _, err := c.Update(); err != nil {
			panic(err)
		}
	}
	// Catch up with the server's last tick, then compare.
	for c.Tick() < srv.Tick() {
		time.Sleep(10 * time.Millisecond)
		if _, err := c.Update(); err != nil {
			panic(err)
		}
	}
	want, _ := srv.ViewChecksum(c.ID())
	fmt.Println("client entities:", cw.Len())
	fmt.Println("checksums agree:", c.Checksum() == want)
	fmt.Println("view checksums checked, mismatched:", c.Stats().Checked > 0, c.Stats().Mismatches)
	// Output:
	// client entities: 3
	// checksums agree: true
	// view checksums checked, mismatched: true 0
}
