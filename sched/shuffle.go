package sched

import (
	"context"
	"math/rand/v2"
	"slices"
)

// Shuffle makes the scheduler draw from a generator seeded with seed every
// choice that the declarations leave free, for tests and debugging: a
// program whose world depends on one of these choices has a determinism
// bug (an undeclared access, state shared between systems or between the
// items of a ForEach) that the default order hides. Run the program under
// a few seeds, with one worker and with several, and compare the worlds
// ([ecs.World.Checksum]).
//
// What it changes, every tick:
//   - the order in which the systems of each stage start. A stage's
//     systems conflict with none of each other, so every order is allowed;
//     with [Workers](1) they run one after another in the drawn order, and
//     in [Debug] mode too;
//   - how each [ForEach], and each stage, hands its items to the workers:
//     the order in which the items start, which worker's share each item
//     falls into, and the size of each share (from empty to all of them).
//     With one worker, the items run one after another in the drawn order.
//
// What it does not change: the stages and the order of record (systems
// that conflict, or that Before and After order, run in the same order as
// without it), and everything applied in the order of record at the end
// of a stage or tick: outputs merged, events sent, command buffers
// applied, so entity ids are handed out as without it. Nor the stage's
// change tick. A correct program gives the same world under every seed,
// with any number of workers, as without Shuffle.
//
// The choices of a tick depend only on seed, the tick's number
// ([Scheduler.Ticks]), the stage, and for a ForEach the system and the
// number of the call in that Update (ForEach calls nested in a ForEach's
// items are numbered as they start). So with one worker a seed replays
// the same order on every run, and a failing seed reproduces; with
// several, the goroutines' timing adds its own choices, as always. The
// choices cost a permutation per stage and per ForEach, O(items) time and
// memory: leave Shuffle out of production runs.
func Shuffle(seed uint64) SchedulerOption {
	return func(s *Scheduler) { s.shuffle = &shuffler{seed: seed} }
}

// shuffler draws the free choices of a scheduler made with Shuffle.
type shuffler struct{ seed uint64 }

// Domains of the decisions, so that a stage's generator and a ForEach's
// never share a seed.
const (
	shuffleStage uint64 = iota + 1
	shuffleForEach
)

// rand returns a generator for one decision named by keys, seeded from
// the scheduler's seed and keys alone, so that it draws the same whatever
// the goroutine or the time at which it is made.
func (sh *shuffler) rand(keys ...uint64) *rand.Rand {
	a, b := mix64(sh.seed), mix64(^sh.seed)
	for _, k := range keys {
		a = mix64(a ^ k)
		b = mix64(b + a)
	}
	return rand.New(rand.NewPCG(a, b))
}

// mix64 is SplitMix64's finaliser: a bijection of 64-bit words that
// spreads every input bit over the output.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// shuffleStage sets run, the order in which stage k's systems start this
// tick, to a permutation of st drawn for the tick and stage, and returns
// the generator for the rest of the stage's choices; nil without Shuffle.
func (s *Scheduler) shuffleStage(k int, st, run []*system) *rand.Rand {
	if s.shuffle == nil {
		return nil
	}
	mix := s.shuffle.rand(shuffleStage, s.ticks, uint64(k))
	copy(run, st)
	mix.Shuffle(len(run), func(i, j int) { run[i], run[j] = run[j], run[i] })
	return mix
}

// forEachRand returns the generator of the next ForEach of ctx's system,
// nil without Shuffle.
func (ctx *Context) forEachRand() *rand.Rand {
	sh := ctx.s.shuffle
	if sh == nil {
		return nil
	}
	return sh.rand(shuffleForEach, ctx.s.ticks, uint64(ctx.sys.index), ctx.calls.Add(1))
}

// doShuffled is pool.do with its free choices drawn from mix (plain do
// when mix is nil): the items start in a drawn order, and each
// participant's share is cut at drawn points, so it may hold none of the
// items or all of them.
func (p *pool) doShuffled(mix *rand.Rand, home, n int, run func(i, who int), label func(i int) string, labels context.Context) {
	if mix == nil || n <= 0 {
		p.do(home, n, run, label, labels)
		return
	}
	order := mix.Perm(n)
	cuts := make([]int, p.workers+1)
	for k := 1; k < p.workers; k++ {
		cuts[k] = mix.IntN(n + 1)
	}
	cuts[p.workers] = n
	slices.Sort(cuts[1:p.workers])
	p.doCut(home, n, func(i, who int) { run(order[i], who) }, func(i int) string { return label(order[i]) }, labels, cuts)
}
