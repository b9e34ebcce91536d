package main

import (
	"io"

	"github.com/tessera-ecs/tessera/internal/gencmd"
)

// gen runs "tessera gen", the component generator that the command
// github.com/tessera-ecs/tessera/cmd/tessera-gen also runs (package
// internal/gencmd): 0 when the file was written, 1 when the definitions
// have problems or a file cannot be read or written, 2 for bad usage.
func gen(args []string, stdout, stderr io.Writer) int {
	return gencmd.Run("tessera gen", args, stdout, stderr)
}
