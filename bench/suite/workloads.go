package suite

// Spec names one workload of a Candidate for the driver and the tests.
type Spec struct {
	Name string // as in the go-ecs-benchmarks project, with "/batch" for batch variants
	Get  func(c *Candidate) Workload
	// Once: measured at the first size only, as the project measures it at
	// one size (create_world, whose n is ignored).
	Once bool
}

// Specs lists every workload in report order.
var Specs = []Spec{
	{Name: "query2", Get: func(c *Candidate) Workload { return c.Query2 }},
	{Name: "query_frag_inner", Get: func(c *Candidate) Workload { return c.QueryFragInner }},
	{Name: "query_frag_outer", Get: func(c *Candidate) Workload { return c.QueryFragOuter }},
	{Name: "random_access", Get: func(c *Candidate) Workload { return c.RandomAccess }},
	{Name: "create2", Get: func(c *Candidate) Workload { return c.Create2 }},
	{Name: "create2/batch", Get: func(c *Candidate) Workload { return c.Create2Batch }},
	{Name: "create2_alloc", Get: func(c *Candidate) Workload { return c.Create2Alloc }},
	{Name: "create2_alloc/batch", Get: func(c *Candidate) Workload { return c.Create2AllocBatch }},
	{Name: "create10", Get: func(c *Candidate) Workload { return c.Create10 }},
	{Name: "create10/batch", Get: func(c *Candidate) Workload { return c.Create10Batch }},
	{Name: "add_remove", Get: func(c *Candidate) Workload { return c.AddRemove }},
	{Name: "add_remove/batch", Get: func(c *Candidate) Workload { return c.AddRemoveBatch }},
	{Name: "add_remove_large", Get: func(c *Candidate) Workload { return c.AddRemoveLarge }},
	{Name: "add_remove_large/batch", Get: func(c *Candidate) Workload { return c.AddRemoveLargeBatch }},
	{Name: "delete2", Get: func(c *Candidate) Workload { return c.Delete2 }},
	{Name: "delete2/batch", Get: func(c *Candidate) Workload { return c.Delete2Batch }},
	{Name: "delete10", Get: func(c *Candidate) Workload { return c.Delete10 }},
	{Name: "delete10/batch", Get: func(c *Candidate) Workload { return c.Delete10Batch }},
	{Name: "create_world", Get: func(c *Candidate) Workload { return c.CreateWorld }, Once: true},
}

// Sizes are the entity counts of the go-ecs-benchmarks project (the N of
// every benchmark's run.go but new_world's, which is 1).
var Sizes = []int{1, 4, 16, 64, 256, 1024, 16_000, 256_000, 1_000_000}
