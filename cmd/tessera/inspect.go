package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// runInspected serves the inspector of sc's world on o.inspect and runs
// step at o.tps ticks per second until interrupted (SIGINT or SIGTERM) or,
// when -ticks was given, until that many ticks have run.
func runInspected(o demoOptions, sc scenario.Scenario, step func(), ticks func() int, stdout io.Writer) error {
	opts := []inspect.Option{inspect.Scheduler(sc.Scheduler())}
	if o.token != "" {
		opts = append(opts, inspect.Token(o.token))
	}
	if o.inspectHosts != "" {
		opts = append(opts, inspect.AllowRemote(strings.Split(o.inspectHosts, ",")...))
	}
	if o.history > 0 {
		// The inspector saves into the ring after every tick it runs;
		// branches replay with the scheduler's Run, which is the
		// scenario's whole tick.
		opts = append(opts, inspect.History(ecs.NewSnapshotRing(o.history)))
	}
	in := inspect.New(sc.World(), opts...)
	srv, err := in.Listen(o.inspect)
	if err != nil {
		return err
	}
	defer srv.Close()
	writes := "read-only (give -token or $TESSERA_INSPECT_TOKEN to allow writes)"
	if o.token != "" {
		writes = "writes allowed with the token"
	}
	if o.history > 0 {
		writes += fmt.Sprintf("; time travel over the last %d ticks", o.history)
	}
	fmt.Fprintf(stdout, "inspector:        %s  (%s; Ctrl-C stops)\n", srv.URL, writes)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := step
	if o.ticksSet {
		run = func() {
			step()
			if ticks() >= o.ticks {
				cancel()
			}
		}
	}
	in.Run(ctx, o.tps, run)
	return nil
}
