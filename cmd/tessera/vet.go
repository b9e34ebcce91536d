package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/tessera-ecs/tessera/cmd/tessera/detcheck"
)

// vetUsage is the help of tessera vet.
const vetUsage = `Usage: tessera vet [go vet flags] [packages]

Runs go vet with Tessera's determinism analyzer (detcheck) as its tool, on
./... when no package is named:

	go vet -vettool=<this tessera binary> [go vet flags] [packages]

It reports, in packages that import Tessera's ecs or sched package, code
that can make a world differ between machines, runs or numbers of workers:

  fma        x*y + z, z - x*y, z += x*y on floats: fused into one
             multiply-add on arm64 and others, so rounded differently
  complex    complex * and /, which expand into fusable multiply-adds
  maporder   range over a Go map or maps.Keys/Values/All, sync.Map.Range,
             reflect's MapKeys and MapRange: random order
  random     math/rand and math/rand/v2 top-level functions, crypto/rand,
             hash/maphash seeds
  wallclock  time.Now, Since, Until, timers and tickers in world code
  goroutine  go statements and WaitGroup.Go in system code
  mathfunc   math.Sin, Cos, Exp, Log, Pow and other approximations whose
             last bit differs by machine
  select     select among several channels in system code
  workers    runtime.NumCPU, GOMAXPROCS and Context.Workers in system code
  address    uintptr(unsafe.Pointer(p)) used as data
  wordsize   int, uint and uintptr fields in components, resources, events
             and relations: 32 bits on 386 and arm, so they wrap earlier

Each report says what, why and the fix. The fma and maporder reports carry
suggested fixes: "tessera vet -fix" applies them, "-fix -diff" shows them
(go vet -fix edits files while it builds others: when a fix adds an import,
a package may fail to build in that run; run it again).
Give flags as -name=value, before the packages.

Silence one report, with a reason, on its line or alone on the line above:

	//tessera:nondeterministic-ok <reason>

Without this command, with the tessera binary on the PATH:

	go vet -vettool=$(command -v tessera) ./...

The exit status is go vet's: 0 when nothing is reported, 1 otherwise.
The rules in full: go doc github.com/tessera-ecs/tessera/cmd/tessera/detcheck
`

// vet runs go vet with this binary as the vet tool.
func vet(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, vetUsage)
		return 0
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "tessera vet: cannot find the tessera binary to hand to go vet: %v\n", err)
		return 1
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		fmt.Fprintf(stderr, "tessera vet: it runs go vet, and the go command is not on the PATH: %v\n", err)
		return 1
	}
	cmd := exec.Command(goCmd, vetArgs(self, args)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintf(stderr, "tessera vet: %v\n", err)
		return 1
	}
	return 0
}

// vetArgs returns the arguments of go vet that run tool on args, adding
// ./... when args name no package.
func vetArgs(tool string, args []string) []string {
	out := append([]string{"vet", "-vettool=" + tool}, args...)
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return out
		}
	}
	return append(out, "./...")
}

// isVetTool reports whether go vet runs this binary as its vet tool: it
// asks for the tool's version (-V=full), its flags (-flags), or hands it
// the configuration of one package (flags, then a *.cfg file).
func isVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	first, last := args[0], args[len(args)-1]
	switch {
	case strings.HasPrefix(first, "-V"), first == "-flags":
		return true
	case strings.HasSuffix(last, ".cfg"):
		return len(args) == 1 || strings.HasPrefix(first, "-")
	}
	return false
}

// runVetTool runs the determinism analyzer as go vet's tool; it does not
// return.
func runVetTool() {
	unitchecker.Main(detcheck.Analyzer)
}
