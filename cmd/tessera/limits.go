package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Limits on the demo's flags. A value outside them is a usage error (exit
// status 2) that names the flag, the value and the limit.
const (
	// maxEntities caps -n whatever the memory: 100 million entities take
	// about 10 GB in the leanest scenario (the particle system with table
	// storage) and over a minute to build, a hundred times the largest size the
	// benchmarks use.
	maxEntities = 100_000_000

	// maxTicks caps -ticks. The tick times are kept in memory that does not
	// grow with the number of ticks (see tickLog), so the cap does not guard
	// memory but run time: 100 million ticks is a day at the default size,
	// and minutes even for a world of one entity.
	maxTicks = 100_000_000

	// maxWorkers caps -workers. Each worker is a goroutine that polls for
	// jobs, so workers beyond the number of cores only add contention; 1024
	// is far above the core count of the machines the demo runs on and keeps
	// the pool's goroutine stacks and queue to a few megabytes.
	maxWorkers = 1024

	// maxRollback caps -rollback: GGRS' sessions predict at most 8 ticks by
	// default and a few dozen at the very most; each tick back costs one
	// more snapshot of the world in memory and one more tick per tick.
	maxRollback = 64

	// maxHistory caps -history: 100,000 ticks is half an hour at 60 ticks
	// per second; each tick held costs one snapshot of the world in memory
	// (the entity limit counts them).
	maxHistory = 100_000
)

// peakBytesPerEntity estimates the demo's peak resident memory per entity,
// runtime and collector overhead included: the maximum resident set size
// measured on linux/amd64 with 1 and 4 million entities (and 8 million for
// the particle system; 1 and 3 million for the predator-prey world), rounded
// up by about 15%.
func peakBytesPerEntity(scenario, storage string, snapshots int) uint64 {
	// Each snapshot holds the live values, the entity's row handle and
	// its 12-byte index record, rounded up.
	return uint64(snapshots)*snapshotBytesPerEntity(scenario, storage) + basePeakBytesPerEntity(scenario, storage)
}

// snapshotsKept is how many snapshots of the world a run keeps: rollback+1
// for -rollback, and for -history its depth and three the inspector uses
// (the live state while a read looks at the past, a branch's, and the main
// line's while a branch runs).
func snapshotsKept(rollback, history int) int {
	n := 0
	if rollback > 0 {
		n += rollback + 1
	}
	if history > 0 {
		n += history + 3
	}
	return n
}

// snapshotBytesPerEntity is the size of one entity in a snapshot: its
// component values, its handle (8 bytes per table row or sparse value) and
// its index record (12 bytes), rounded up.
func snapshotBytesPerEntity(scenario, storage string) uint64 {
	if scenario == "game" {
		return 128 // about 90 bytes of values
	}
	if scenario == "predator" {
		return 112 // about 48 bytes of values, and Hunting's sparse set
	}
	if storage == "sparse" {
		return 64 // 21 bytes of values, two more handles
	}
	return 48 // 21 bytes of values
}

// basePeakBytesPerEntity is peakBytesPerEntity without snapshots.
func basePeakBytesPerEntity(scenario, storage string) uint64 {
	switch {
	case scenario == "predator":
		return 336 // measured 262 to 294, either storage
	case scenario == "game" && storage == "sparse":
		return 240 // measured 206 to 210
	case scenario == "game":
		return 208 // measured 178 to 179
	case storage == "sparse":
		return 384 // measured 294 to 335
	}
	return 96 // measured 70 to 84
}

// entityLimit is the largest -n the demo accepts for the scenario and
// storage, keeping that many snapshots (snapshotsKept): maxEntities, or fewer if the estimated peak memory of that many
// entities would not fit in the machine's memory. mem is that memory, if
// it is what bounds the limit, or else 0.
func entityLimit(scenario, storage string, snapshots int) (limit int, mem uint64) {
	m, ok := machineMemory()
	if n := m / peakBytesPerEntity(scenario, storage, snapshots); ok && n < maxEntities {
		return int(n), m
	}
	return maxEntities, 0
}

// entityLimitError explains why n entities are too many.
func entityLimitError(n int, scenario, storage string, snapshots int) string {
	limit, mem := entityLimit(scenario, storage, snapshots)
	per := peakBytesPerEntity(scenario, storage, snapshots)
	need := gib(float64(n) * float64(per))
	if mem == 0 {
		return fmt.Sprintf("-n %d out of range: want 1 to %d (the demo's cap; %d entities of the %s scenario with %s storage would need about %s)",
			n, limit, n, scenario, storage, need)
	}
	return fmt.Sprintf("-n %d out of range: want 1 to %d (the %s scenario with %s storage needs about %d bytes per entity at its peak, %s for %d entities, and this machine has %s)",
		n, limit, scenario, storage, per, need, n, gib(float64(mem)))
}

// gib formats a number of bytes in GiB.
func gib(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }

// machineMemory returns the memory the demo can use: the physical memory,
// or the control group's limit if that is lower. It is a variable so that
// tests can pretend to run on a smaller machine.
var machineMemory = readMachineMemory

// readMachineMemory reads MemTotal from /proc/meminfo and the cgroup v2 or
// v1 memory limit, where the system has them; ok is false when it found
// neither.
func readMachineMemory() (mem uint64, ok bool) {
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// "MemTotal:       24683620 kB"
			if fields := strings.Fields(sc.Text()); len(fields) == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" {
				if kb, err := strconv.ParseUint(fields[1], 10, 64); err == nil && kb > 0 {
					mem, ok = kb<<10, true
				}
				break
			}
		}
		f.Close()
	}
	limits := []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}
	if data, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for line := range strings.Lines(string(data)) {
			if p, found := strings.CutPrefix(strings.TrimSpace(line), "0::"); found && p != "/" {
				limits = append(limits, "/sys/fs/cgroup"+p+"/memory.max")
			}
		}
	}
	for _, name := range limits {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		// "max" when there is no limit.
		if n, err := strconv.ParseUint(string(bytes.TrimSpace(data)), 10, 64); err == nil && n > 0 && (!ok || n < mem) {
			mem, ok = n, true
		}
	}
	return mem, ok
}
