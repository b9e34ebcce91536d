package relations

import (
	"fmt"
	"regexp"
)

// Kind says whose row a row is: Tessera's or a peer's.
type Kind int

// The kinds of row.
const (
	// Tessera is Tessera doing the work.
	Tessera Kind = iota
	// Peer is another ECS library doing the same work.
	Peer
)

// Row is one measured way of doing a comparison's operation: Run does it
// once, through a //go:noinline kernel.
type Row struct {
	Name string // as the report names it, e.g. "Tessera Hierarchy.SetParent"
	Kind Kind
	// Lib is the library: "Tessera", "Ark" or "donburi".
	Lib string
	// What says exactly what one Run does, for the report.
	What string
	// Plain marks a row whose world holds no relation at all: the
	// baseline its library's row with relations is judged against (the
	// query comparison). Plain rows take no part in the peer ratio.
	Plain bool
	// Aside, when not empty, says why the row takes no part in the peer
	// ratio: it does work the others cannot, such as relying on the
	// workload's known shape.
	Aside string
	// Baseline names the Plain row of the same comparison this row is
	// judged against, or is empty.
	Baseline string
	// Run does the operation once.
	Run func()
	// Reset, when not nil, puts the world back before each Run, outside
	// the timing (a cascade despawn rebuilds the tree it despawned).
	Reset func()
}

// Comparison is one operation measured on Tessera and on the peers that
// can do it.
type Comparison struct {
	Name string // short and stable: "reparent", "children", ...
	// Doc says what is compared and how each library does it, for the
	// report.
	Doc string
	// Unit names what one Run is divided into ("operation", "visited
	// source", "entity"), and PerRun says how many of them one Run does:
	// the report's time per unit is the time per Run over PerRun.
	Unit   string
	PerRun int
	// Sizes gives the sizes the text's letters stand for, e.g.
	// "N = 10,000 children, M = 1,000 parents".
	Sizes string
	// Goal is the target stated for Tessera's rows, or empty.
	Goal string
	Rows []Row
}

// Config holds the sizes of every workload; [Full] gives those of the
// report, [Quick] a smoke run's.
type Config struct {
	// Reparent: ReparentChildren children spread over ReparentParents
	// parents.
	ReparentChildren, ReparentParents int
	// Children iteration: ChildTargets targets with ChildSources sources
	// each.
	ChildTargets, ChildSources int
	// Cascade: a tree of CascadeNodes nodes, CascadeBranch children per
	// inner node, and CascadeBystanders entities outside it.
	CascadeNodes, CascadeBranch, CascadeBystanders int
	// Query: QueryEntities entities with Position and Velocity, of which
	// QueryParents are parents of the others.
	QueryEntities, QueryParents int
	// Transform propagation: TransformTrees trees, each a root with
	// TransformBranch children per node down to TransformLevels levels.
	TransformTrees, TransformBranch, TransformLevels int
	// Prefab: PrefabInstances instances of a root with three children.
	PrefabInstances int
}

// Full is the report's configuration: the sizes of the workloads as
// stated.
func Full() Config {
	return Config{
		ReparentChildren: 10_000, ReparentParents: 1_000,
		ChildTargets: 1_000, ChildSources: 100,
		CascadeNodes: 1_000, CascadeBranch: 3, CascadeBystanders: 100,
		QueryEntities: 100_000, QueryParents: 10_000,
		TransformTrees: 90, TransformBranch: 10, TransformLevels: 4,
		PrefabInstances: 10_000,
	}
}

// Quick is a smoke run's configuration: every workload, about a tenth of
// the size.
func Quick() Config {
	return Config{
		ReparentChildren: 1_000, ReparentParents: 100,
		ChildTargets: 100, ChildSources: 10,
		CascadeNodes: 100, CascadeBranch: 3, CascadeBystanders: 10,
		QueryEntities: 10_000, QueryParents: 1_000,
		TransformTrees: 9, TransformBranch: 10, TransformLevels: 4,
		PrefabInstances: 1_000,
	}
}

// count writes n with thousands separators: 100,000.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// check rejects sizes the workloads cannot be built with.
func (c Config) check() error {
	switch {
	case c.ReparentParents < 2 || c.ReparentChildren < c.ReparentParents:
		return fmt.Errorf("relations: reparent: %d children among %d parents: want at least 2 parents and a child each",
			c.ReparentChildren, c.ReparentParents)
	case c.ChildTargets < 1 || c.ChildSources < 1:
		return fmt.Errorf("relations: children: %d targets of %d sources", c.ChildTargets, c.ChildSources)
	case c.CascadeNodes < 2 || c.CascadeBranch < 1 || c.CascadeBystanders < 0:
		return fmt.Errorf("relations: cascade: %d nodes, %d children each", c.CascadeNodes, c.CascadeBranch)
	case c.QueryParents < 1 || c.QueryEntities < 2*c.QueryParents:
		return fmt.Errorf("relations: query: %d entities, %d parents: want at least one child per parent",
			c.QueryEntities, c.QueryParents)
	case c.TransformTrees < 1 || c.TransformBranch < 1 || c.TransformLevels < 2:
		return fmt.Errorf("relations: transform: %d trees, %d children each, %d levels", c.TransformTrees, c.TransformBranch,
			c.TransformLevels)
	case c.PrefabInstances < 1:
		return fmt.Errorf("relations: prefab: %d instances", c.PrefabInstances)
	}
	return nil
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
	{"reparent", reparentComparison},
	{"children", childrenComparison},
	{"children_read", childrenReadComparison},
	{"cascade", cascadeComparison},
	{"query", queryComparison},
	{"transform", transformComparison},
	{"prefab", prefabComparison},
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
// the sizes of c. What the rows read is made here, outside any
// measurement.
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
		if re.MatchString(b.name) {
			s.Comparisons = append(s.Comparisons, b.build(c))
		}
	}
	return s, nil
}
