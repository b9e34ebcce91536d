package relations

import "math/rand/v2"

// seed fixes every permutation of the suite, so that all candidates get
// the same one in every run.
const seed = 20261124

// permutation returns 0..n-1 in a fixed shuffled order.
func permutation(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// reparentPlan is the sequence of moves of the reparent workload. Child i
// starts under parent i mod parents. Move k takes the child order[k mod
// children] from its parent p to parent (p + stride) mod parents: every
// child moves once per cycle through order, and at the end of each cycle
// every parent has as many children as at the start.
type reparentPlan struct {
	order   []int32 // the children in the order they move
	parent  []int32 // each child's parent now
	parents int32
	stride  int32
	k       int
}

// newReparentPlan returns the plan of children children among parents
// parents, before its first move.
func newReparentPlan(children, parents int) *reparentPlan {
	p := &reparentPlan{order: permutation(children), parent: make([]int32, children), parents: int32(parents),
		stride: coprimeStride(parents)}
	for i := range p.parent {
		p.parent[i] = int32(i % parents)
	}
	return p
}

// next returns the next move: which child goes to which parent, and
// records it.
func (p *reparentPlan) next() (child, parent int32) {
	c := p.order[p.k]
	np := (p.parent[c] + p.stride) % p.parents
	p.parent[c] = np
	if p.k++; p.k == len(p.order) {
		p.k = 0
	}
	return c, np
}

// counts returns how many children each parent has now.
func (p *reparentPlan) counts() []int {
	n := make([]int, p.parents)
	for _, q := range p.parent {
		n[q]++
	}
	return n
}

// coprimeStride returns the least stride of at least n/3 that shares no
// factor with n (1 for n < 3), so that moving by it visits every parent.
func coprimeStride(n int) int32 {
	gcd := func(a, b int) int {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	for s := max(1, n/3); ; s++ {
		if gcd(s, n) == 1 {
			return int32(s)
		}
	}
}

// heapTree returns the parent of each node of a tree of n nodes in which
// node i > 0 is a child of node (i-1)/branch: the shape of a binary heap
// with branch children per node, filled level by level. parent[0] is -1.
func heapTree(n, branch int) []int32 {
	p := make([]int32, n)
	p[0] = -1
	for i := 1; i < n; i++ {
		p[i] = int32((i - 1) / branch)
	}
	return p
}

// treeLevels returns how many levels heapTree(n, branch) has.
func treeLevels(n, branch int) int {
	levels := 0
	for width, seen := 1, 0; seen < n; width *= branch {
		seen += width
		levels++
	}
	return levels
}

// forest is the shape of the transform workload: trees full trees of
// levels levels (the root is level 1), each inner node with branch
// children, numbered tree by tree, each tree level by level, so that a
// node's parent comes before it.
type forest struct {
	parent []int32 // -1 for a root
	roots  []int32
	local  []Local
}

// newForest returns the forest and each node's Local.
func newForest(trees, branch, levels int) *forest {
	perTree, width := 0, 1
	for range levels {
		perTree += width
		width *= branch
	}
	f := &forest{parent: make([]int32, 0, trees*perTree), local: make([]Local, 0, trees*perTree)}
	for range trees {
		base := int32(len(f.parent))
		f.roots = append(f.roots, base)
		for i := range heapTree(perTree, branch) {
			p := int32(-1)
			if i > 0 {
				p = base + int32((i-1)/branch)
			}
			f.parent = append(f.parent, p)
		}
	}
	for i := range f.parent {
		f.local = append(f.local, localOf(i))
	}
	return f
}

// localOf is node i's Local: small values, different for neighbours, so a
// node read in place of another changes the result.
func localOf(i int) Local {
	return Local{X: float64(i%97) * 0.5, Y: float64(float64(i%89)*0.25) - 10}
}

// worlds returns every node's WorldPos computed in plain Go, parents
// first: the answer every candidate must give.
func (f *forest) worlds() []WorldPos {
	out := make([]WorldPos, len(f.parent))
	for i, p := range f.parent {
		l := f.local[i]
		if p < 0 {
			out[i] = WorldPos(l)
			continue
		}
		out[i] = WorldPos{out[p].X + l.X, out[p].Y + l.Y}
	}
	return out
}
