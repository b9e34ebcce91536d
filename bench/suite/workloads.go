package suite

// Spec names one workload of a Candidate for the driver and the tests.
type Spec struct {
	Name string // as in the go-ecs-benchmarks project, with "/batch" for batch variants
	Get  func(c *Candidate) Workload
}

// Specs lists every workload in report order.
var Specs = []Spec{
	{"query2", func(c *Candidate) Workload { return c.Query2 }},
	{"query_frag_inner", func(c *Candidate) Workload { return c.QueryFragInner }},
	{"query_frag_outer", func(c *Candidate) Workload { return c.QueryFragOuter }},
	{"random_access", func(c *Candidate) Workload { return c.RandomAccess }},
	{"create2", func(c *Candidate) Workload { return c.Create2 }},
	{"create2/batch", func(c *Candidate) Workload { return c.Create2Batch }},
	{"create2_alloc", func(c *Candidate) Workload { return c.Create2Alloc }},
	{"create10", func(c *Candidate) Workload { return c.Create10 }},
	{"create10/batch", func(c *Candidate) Workload { return c.Create10Batch }},
	{"add_remove", func(c *Candidate) Workload { return c.AddRemove }},
	{"add_remove/batch", func(c *Candidate) Workload { return c.AddRemoveBatch }},
	{"add_remove_large", func(c *Candidate) Workload { return c.AddRemoveLarge }},
	{"add_remove_large/batch", func(c *Candidate) Workload { return c.AddRemoveLargeBatch }},
	{"delete2", func(c *Candidate) Workload { return c.Delete2 }},
	{"delete2/batch", func(c *Candidate) Workload { return c.Delete2Batch }},
	{"delete10", func(c *Candidate) Workload { return c.Delete10 }},
	{"delete10/batch", func(c *Candidate) Workload { return c.Delete10Batch }},
	{"create_world", func(c *Candidate) Workload { return c.CreateWorld }},
}

// Sizes are the entity counts of the go-ecs-benchmarks project.
var Sizes = []int{1, 4, 16, 64, 256, 1 << 10, 16 << 10, 256 << 10, 1 << 20}
