package changes

import (
	"fmt"
	"regexp"
)

// Kind says whose row a row is.
type Kind int

// The kinds of row.
const (
	// Tessera is Tessera doing the work.
	Tessera Kind = iota
	// Peer is another ECS library doing the same work.
	Peer
	// Floor is plain Go doing the same work on slices: not a peer, the
	// least the work can cost.
	Floor
)

// Row is one measured way of doing a comparison's work: Run does one tick
// of it, through //go:noinline kernels.
type Row struct {
	Name string // as the report names it, e.g. "Tessera Events.Send"
	Kind Kind
	// Lib is the library: "Tessera", "Ark", "donburi" or "plain Go".
	Lib string
	// What says exactly what one Run does, for the report.
	What string
	// Plain marks a row that does not find the changed entities but visits
	// every one (a system without change detection): the baseline the
	// change-finding rows of its library are judged against. Plain rows
	// take no part in the peer ratio.
	Plain bool
	// Baseline names the Plain row of the same comparison this row is
	// judged against, or is empty.
	Baseline string
	// Run does one tick.
	Run func()
}

// Comparison is one workload measured on Tessera, the peers that can do
// it and the plain-Go floor.
type Comparison struct {
	Name string // short and stable: "events", "changed"
	// Doc says what is compared and how each library does it, for the
	// report.
	Doc string
	// Unit names what one Run is divided into, and PerRun how many of them
	// one Run does: the report's time per unit is a Run's time over
	// PerRun.
	Unit   string
	PerRun int
	// PerChange, when not 0, is how many entities change per Run: the
	// report also gives the time per changed entity.
	PerChange int
	// Sizes gives the sizes the text's letters stand for.
	Sizes string
	Rows  []Row
}

// Config holds the sizes of the workloads; [Full] gives those of the
// report, [Quick] a smoke run's.
type Config struct {
	// Events is how many events are sent per tick; two readers read them.
	Events int
	// Entities is the size of the changed workload's world, and Stride how
	// far apart its changed entities are: every Stride-th one changes per
	// tick (Stride 100 is 1%).
	Entities, Stride int
}

// Full is the report's configuration: 1,000 events per tick; 1,000,000
// entities of which 1% change per tick.
func Full() Config { return Config{Events: 1_000, Entities: 1_000_000, Stride: 100} }

// Quick is a smoke run's configuration: a tenth of the sizes.
func Quick() Config { return Config{Events: 100, Entities: 100_000, Stride: 100} }

// check rejects sizes the workloads cannot be built with.
func (c Config) check() error {
	switch {
	case c.Events < 1:
		return fmt.Errorf("changes: events: %d per tick", c.Events)
	case c.Stride < 1 || c.Entities < c.Stride || c.Entities%c.Stride != 0:
		return fmt.Errorf("changes: changed: %d entities, every %d-th changing: want a multiple of the stride, so that every tick changes as many",
			c.Entities, c.Stride)
	}
	return nil
}

// changedPerTick is how many of the changed workload's entities change in
// each tick: the entities i with i mod Stride equal to the tick's offset.
func (c Config) changedPerTick() int { return c.Entities / c.Stride }

// count writes n with thousands separators: 100,000.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Suite is every comparison, built by [NewSuite].
type Suite struct {
	Config      Config
	Comparisons []*Comparison
}

// builders lists every comparison by name, in report order.
var builders = []struct {
	name  string
	build func(Config) *Comparison
}{
	{"events", eventsComparison},
	{"changed", changedComparison},
}

// Names lists the comparisons' names in report order.
func Names() []string {
	out := make([]string, len(builders))
	for i, b := range builders {
		out[i] = b.name
	}
	return out
}

// NewSuite builds the worlds and rows of the comparisons whose name
// matches the regular expression only (every one when only is empty) at
// the sizes of c, and runs every row's first tick: what the rows read is
// made here, and what a first tick grows (queues, sparse pages, tables)
// too, outside any measurement.
func NewSuite(c Config, only string) (*Suite, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(only)
	if err != nil {
		return nil, err
	}
	s := &Suite{Config: c}
	for _, b := range builders {
		if !re.MatchString(b.name) {
			continue
		}
		cmp := b.build(c)
		for _, r := range cmp.Rows {
			r.Run()
		}
		s.Comparisons = append(s.Comparisons, cmp)
	}
	return s, nil
}
