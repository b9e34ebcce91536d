package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestHistogramBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(v uint64) {
		i := bucketOf(v)
		if i < 0 || i >= histLen {
			t.Fatalf("bucket of %d: %d, outside [0, %d)", v, i, histLen)
		}
		low, width := bucketRange(i)
		if v < low || v-low >= width {
			t.Fatalf("%d in bucket %d = [%d, %d+%d)", v, i, low, low, width)
		}
		if v < 1<<subBits && width != 1 || width > 1 && float64(width)/float64(low) > 1.0/(1<<(subBits-1)) {
			t.Fatalf("bucket %d of %d: [%d, %d+%d) too wide", i, v, low, low, width)
		}
	}
	for v := range uint64(5000) {
		check(v)
	}
	for range 100_000 {
		check(r.Uint64N(1 << r.IntN(64)))
	}
	check(1<<63 - 1)
	if bucketOf(1<<63-1) != histLen-1 {
		t.Errorf("the largest duration is in bucket %d, want %d", bucketOf(1<<63-1), histLen-1)
	}
}

// TestTickLogSummary compares the tick log's mean, maximum and
// percentiles with those of the sorted times.
func TestTickLogSummary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 1000, 50_000} {
		l := newTickLog()
		times := make([]time.Duration, n)
		var total time.Duration
		for i := range times {
			// From nanoseconds to seconds, log-uniformly.
			times[i] = time.Duration(r.Int64N(1 << r.IntN(34)))
			total += times[i]
			l.add(times[i])
		}
		sorted := slices.Sorted(slices.Values(times))
		if l.n != n || l.mean() != total/time.Duration(n) || l.max != sorted[n-1] {
			t.Errorf("n=%d: got n %d mean %v max %v, want mean %v max %v", n, l.n, l.mean(), l.max, total/time.Duration(n), sorted[n-1])
		}
		for _, p := range []float64{0, 0.01, 0.5, 0.9, 0.99, 0.999} {
			want := sorted[min(n-1, int(p*float64(n)))]
			got := l.percentile(p)
			tolerance := want / 500 // half a bucket: at most 1/512 of the value
			if want < 1<<subBits {
				tolerance = 0
			}
			if got < want-tolerance || got > want+tolerance {
				t.Errorf("n=%d: p%v = %v, want %v ± %v", n, 100*p, got, want, tolerance)
			}
		}
	}
}

// TestTickLogPoints checks the plot's groups: one per tick up to
// maxPlotPoints ticks, then runs of consecutive ticks, never more than
// maxPlotPoints groups, and nothing lost.
func TestTickLogPoints(t *testing.T) {
	for _, n := range []int{1, 100, maxPlotPoints, maxPlotPoints + 1, 2*maxPlotPoints + 3, 10*maxPlotPoints + 17, 200_000} {
		l := newTickLog()
		for i := range n {
			l.add(time.Duration(i + 1)) // tick i+1 takes i+1 ns
		}
		groups, per := l.points()
		wantPer := 1
		for wantPer*maxPlotPoints < n {
			wantPer *= 2
		}
		if per != wantPer || len(groups) > maxPlotPoints || len(groups) != (n+per-1)/per {
			t.Errorf("%d ticks: %d groups of %d, want %d groups of %d", n, len(groups), per, (n+wantPer-1)/wantPer, wantPer)
			continue
		}
		for i, g := range groups {
			first, last := i*per+1, min(n, (i+1)*per) // the ticks of group i
			if g.n != last-first+1 || g.max != time.Duration(last) || g.sum != time.Duration((first+last)*(last-first+1)/2) {
				t.Errorf("%d ticks: group %d = %+v, want ticks %d to %d", n, i, g, first, last)
				break
			}
		}
	}
}
