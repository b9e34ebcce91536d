package persist

import (
	"fmt"
	"regexp"
)

// Kind says what a row is measured as: the floor of its comparison,
// another plain-Go form shown beside it, Tessera, or a peer.
type Kind int

// The kinds of row.
const (
	// Floor is the plain-Go form of the work every ratio is taken to.
	Floor Kind = iota
	// Raw is plain Go putting the same data through bytes as memory, the
	// least that work can cost, shown beside a floor that goes through a
	// standard encoder.
	Raw
	// Tessera is Tessera doing the work.
	Tessera
	// Peer is another ECS library doing the same work.
	Peer
)

// Row is one measured operation: Run does it once, through a
// //go:noinline kernel.
type Row struct {
	Name string // as the report names it, e.g. "World.Snapshot"
	Kind Kind
	// What says exactly what one Run does, for the report.
	What string
	// Bytes is how many bytes one Run moves: the state copied or hashed,
	// or the encoded size written or read (each side's own). Zero where
	// it has no meaning.
	Bytes int64
	// Run does the operation once; its result is dropped.
	Run func()
}

// Comparison is one operation measured on a floor and on Tessera (and a
// peer, where one does the same work).
type Comparison struct {
	Name string // short and stable: "snapshot", "binary_save", ...
	// Doc says what is compared and why, for the report.
	Doc string
	// Entities is how many entities the world holds: the divisor of the
	// time per entity.
	Entities int
	// Goal is the target stated for Tessera's rows, or empty.
	Goal string
	Rows []Row // the floor first
}

// Floor returns the comparison's floor row.
func (c *Comparison) Floor() *Row { return &c.Rows[0] }

// Row returns the index of c's first row of kind k, or -1.
func (c *Comparison) Row(k Kind) int {
	for i, r := range c.Rows {
		if r.Kind == k {
			return i
		}
	}
	return -1
}

// Suite is every comparison at one size, built by [NewSuite]. Close
// releases what it holds (the particle scenario's scheduler); call it when
// the measurements are done.
type Suite struct {
	Comparisons []*Comparison
	closers     []func()
}

// Close releases the suite's worlds' resources.
func (s *Suite) Close() {
	for _, c := range s.closers {
		c()
	}
	s.closers = nil
}

// Pick keeps the comparisons whose name matches expr.
func (s *Suite) Pick(expr string) error {
	re, err := regexp.Compile(expr)
	if err != nil {
		return err
	}
	var kept []*Comparison
	for _, c := range s.Comparisons {
		if re.MatchString(c.Name) {
			kept = append(kept, c)
		}
	}
	s.Comparisons = kept
	return nil
}

// NewSuite builds the worlds, floors and rows of every comparison at n
// entities. What the rows read (the worlds, a warm snapshot, the files the
// load rows load) is made here, outside any measurement.
func NewSuite(n int) (*Suite, error) {
	if n < 10 {
		return nil, fmt.Errorf("persist: %d entities: want at least 10", n)
	}
	s := &Suite{}
	pw, err := newParticleWorld(n)
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, pw.close)
	s.Comparisons = append(s.Comparisons, snapshotComparison(pw), checksumComparison(pw))
	bin, err := binaryComparisons(pw)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Comparisons = append(s.Comparisons, bin...)
	js, err := jsonComparisons(pw)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Comparisons = append(s.Comparisons, js...)
	s.Comparisons = append(s.Comparisons, entitiesComparison(n))
	return s, nil
}
