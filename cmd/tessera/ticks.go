package main

import (
	"math/bits"
	"time"
)

// The tick-time histogram has 1<<(subBits-1) buckets per power of two above
// 1<<subBits nanoseconds and one bucket per nanosecond below: a percentile
// read from it is exact under 1<<subBits nanoseconds and within 0.2% above, and the
// histogram takes 56 KiB (counts of 32 bits suffice for maxTicks ticks).
const (
	subBits = 9
	histLen = (65 - subBits) << (subBits - 1) // the bucket of the largest int64 is histLen-1
)

// maxPlotPoints bounds the points of the plot: up to that many ticks, one
// point per tick; beyond, each point covers a run of consecutive ticks.
const maxPlotPoints = 4096

// tickLog keeps what the summary and the plot need from the tick times in
// memory that does not grow with the number of ticks: their count, total,
// and maximum, a histogram for the percentiles, and at most maxPlotPoints
// groups of consecutive ticks (mean and maximum) for the plot, merged
// pairwise whenever they would overflow.
type tickLog struct {
	n          int
	total, max time.Duration
	hist       [histLen]uint32

	per    int         // ticks per group: a power of two
	groups []tickGroup // full groups of per ticks each
	cur    tickGroup   // the group being filled
}

// tickGroup summarises n consecutive ticks.
type tickGroup struct {
	n        int
	sum, max time.Duration
}

func (g tickGroup) merge(h tickGroup) tickGroup {
	return tickGroup{n: g.n + h.n, sum: g.sum + h.sum, max: max(g.max, h.max)}
}

func newTickLog() *tickLog { return &tickLog{per: 1} }

// add records the time of the next tick.
func (l *tickLog) add(d time.Duration) {
	d = max(d, 0)
	l.n++
	l.total += d
	l.max = max(l.max, d)
	l.hist[bucketOf(uint64(d))]++
	l.cur = l.cur.merge(tickGroup{n: 1, sum: d, max: d})
	if l.cur.n < l.per {
		return
	}
	if len(l.groups) < maxPlotPoints {
		l.groups = append(l.groups, l.cur)
		l.cur = tickGroup{}
		return
	}
	// Full: halve the groups, doubling the ticks per group; cur is now half
	// of a group.
	for i := range maxPlotPoints / 2 {
		l.groups[i] = l.groups[2*i].merge(l.groups[2*i+1])
	}
	l.groups = l.groups[:maxPlotPoints/2]
	l.per *= 2
}

// mean returns the mean tick time; l must not be empty.
func (l *tickLog) mean() time.Duration { return l.total / time.Duration(l.n) }

// percentile returns the tick time at quantile p in [0, 1): the one at rank
// p*n among the sorted times, to the histogram's precision. l must not be
// empty.
func (l *tickLog) percentile(p float64) time.Duration {
	rank := min(l.n-1, int(p*float64(l.n)))
	seen := 0
	for i, c := range l.hist {
		seen += int(c)
		if seen > rank {
			low, width := bucketRange(i)
			return min(time.Duration(low+(width-1)/2), l.max)
		}
	}
	return l.max
}

// points returns the groups of consecutive ticks for the plot, the last one
// possibly shorter, and the number of ticks per group.
func (l *tickLog) points() ([]tickGroup, int) {
	g := l.groups
	if l.cur.n > 0 {
		g = append(g[:len(g):len(g)], l.cur)
	}
	return g, l.per
}

// bucketOf returns the histogram bucket of v nanoseconds.
func bucketOf(v uint64) int {
	if v < 1<<subBits {
		return int(v)
	}
	shift := bits.Len64(v) - subBits
	return shift<<(subBits-1) + int(v>>shift) // v>>shift is in [1<<(subBits-1), 1<<subBits)
}

// bucketRange returns the smallest value of bucket i and how many values
// it holds.
func bucketRange(i int) (low, width uint64) {
	if i < 1<<subBits {
		return uint64(i), 1
	}
	shift := i>>(subBits-1) - 1
	return uint64(i-shift<<(subBits-1)) << shift, 1 << shift
}
