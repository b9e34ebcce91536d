package inspect_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// A world without a loop, served under a mutex: list the entities that
// have a Position, then read one.
func Example() {
	w := ecs.NewWorld()
	pos := ecs.NewMap[Position](w)
	pos.Spawn(Position{X: 1, Y: 2})
	pos.Spawn(Position{X: 3, Y: 4})
	w.Spawn()

	var mu sync.Mutex // held by the program whenever it uses w
	in := inspect.New(w, inspect.Locker(&mu))
	defer in.Close()              // ends the goroutine that serves requests under mu
	srv := httptest.NewServer(in) // or in.Listen("127.0.0.1:7777"), whose Close ends it too
	defer srv.Close()

	for _, path := range []string{"/api/entities?with=inspect_test.Position", "/api/entities/2v0"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(body))
	}
	// Output:
	// 200 {"total":2,"offset":0,"limit":100,"entities":[{"id":"1v0","components":["github.com/tessera-ecs/tessera/inspect_test.Position"]},{"id":"2v0","components":["github.com/tessera-ecs/tessera/inspect_test.Position"]}]}
	// 200 {"id":"2v0","components":[{"name":"github.com/tessera-ecs/tessera/inspect_test.Position","goType":"inspect_test.Position","storage":"table","value":{"X":3,"Y":4}}]}
}

// A game loop that ticks through the inspector: a write with the token
// waits for the loop, which applies it between two ticks.
func ExampleInspector_Tick() {
	w := ecs.NewWorld()
	hp := ecs.NewMap[Health](w)
	e := hp.Spawn(Health{HP: 10})
	ticks := 0
	tick := func() { ticks++ } // the world's systems would run here

	in := inspect.New(w, inspect.Token("let-me-in"))
	srv := httptest.NewServer(in)
	defer srv.Close()

	done := make(chan string)
	go func() { // a client: a browser, curl, a test
		req, _ := http.NewRequest(http.MethodPut, srv.URL+"/api/entities/"+e.String()+"/components/inspect_test.Health", strings.NewReader(`{"HP": 99}`))
		req.Header.Set("Authorization", "Bearer let-me-in")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		done <- resp.Status
	}()
	for { // the game loop, on the world's goroutine
		in.Tick(tick)
		select {
		case status := <-done:
			in.Tick(tick)
			fmt.Println(status, "HP:", hp.Get(e).HP, "ticks ran:", ticks > 0)
			return
		default:
			time.Sleep(time.Millisecond) // the rest of the frame
		}
	}
	// Output: 200 OK HP: 99 ticks ran: true
}

// A hierarchy and a merge patch: list the roots, read a node's children,
// then change one field of a component and leave the others.
func Example_hierarchyAndPatch() {
	w := ecs.NewWorld()
	h := ecs.NewHierarchy(w)
	pos := ecs.NewMap[Position](w)
	ship := pos.Spawn(Position{X: 1, Y: 2})
	turret := w.Spawn()
	h.SetParent(turret, ship)

	var mu sync.Mutex
	in := inspect.New(w, inspect.Locker(&mu), inspect.Token("let-me-in"))
	defer in.Close()
	srv := httptest.NewServer(in)
	defer srv.Close()

	send := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer let-me-in")
		req.Header.Set("Content-Type", "application/merge-patch+json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(out))
	}
	send(http.MethodGet, "/api/hierarchy", "")
	send(http.MethodGet, "/api/hierarchy/1v0?limit=10", "")
	send(http.MethodPatch, "/api/entities/1v0/components/inspect_test.Position", `{"Y": 5}`)
	send(http.MethodPatch, "/api/entities/1v0/components/inspect_test.Position", `{"y": 5}`)
	// Output:
	// 200 {"declared":true,"total":1,"offset":0,"limit":100,"nodes":[{"id":"1v0","childCount":1,"components":["github.com/tessera-ecs/tessera/inspect_test.Position"]}]}
	// 200 {"declared":true,"id":"1v0","total":1,"offset":0,"limit":10,"nodes":[{"id":"2v0","childCount":0,"components":[]}]}
	// 200 {"id":"1v0","components":[{"name":"github.com/tessera-ecs/tessera/inspect_test.Position","goType":"inspect_test.Position","storage":"table","value":{"X":1,"Y":5}}],"children":["2v0"],"childCount":1,"targetOf":[{"relation":"github.com/tessera-ecs/tessera/ecs.ChildOf","goType":"ecs.ChildOf","source":"2v0","target":"1v0"}],"targetOfCount":1}
	// 400 {"error":"component inspect_test.Position: unknown field \"y\" (did you mean \"Y\"?)"}
}
