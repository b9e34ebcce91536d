// Package mapimports checks the imports that the map-order fix adds.
package mapimports

import (
	"fmt"
	"os"

	"github.com/tessera-ecs/tessera/ecs"
)

var _ *ecs.World

func grouped(m map[uint32]string) {
	for id, name := range m { // want `maporder: ranging over a Go map`
		fmt.Fprintln(os.Stdout, id, name)
	}
}
