package mapimports

import "github.com/tessera-ecs/tessera/sched"

func single(ctx *sched.Context, m map[string]bool) int {
	n := 0
	for k, ok := range m { // want `maporder: ranging over a Go map`
		if ok {
			n = len(k)
		}
	}
	return n
}
