package detcheck

import (
	"reflect"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// These assignments fail to compile if the real ecs and sched packages no
// longer have the names and signatures that detcheck relies on and that the
// stand-ins in testdata/src/github.com/tessera-ecs/tessera copy.
var (
	_ func(*sched.Scheduler, string, func(*sched.Context), ...sched.Option) = (*sched.Scheduler).AddFunc
	_ func(*sched.Scheduler, string, sched.System, ...sched.Option)         = (*sched.Scheduler).Add
	_ func(*sched.Context) int                                              = (*sched.Context).Workers
	_ func(*sched.Scheduler) int                                            = (*sched.Scheduler).Workers
	_ func(*sched.Context) *ecs.World                                       = (*sched.Context).World
	_ func(*sched.Context) *ecs.Commands                                    = (*sched.Context).Commands
	_ func(*sched.Context, []int, func(int))                                = sched.ForEach[int]
	_ func(*sched.FixedLoop, time.Duration) int                             = (*sched.FixedLoop).Advance
	_ sched.System                                                          = sched.Func(nil)
	_ func(*ecs.World, func(ecs.Entity, *int))                              = ecs.OnAdd[int]
	_ func(*ecs.World) *ecs.Map[int]                                        = ecs.NewMap[int]
	_ func(*ecs.World) *ecs.Map2[int, int]                                  = ecs.NewMap2[int, int]
	_ func(*ecs.World, ...ecs.ComponentOption)                              = ecs.Register[int]
	_ func(*ecs.World) *ecs.Resource[int]                                   = ecs.NewResource[int]
	_ func(*ecs.World, *int)                                                = ecs.AddResource[int]
	_ func(*ecs.World) *int                                                 = ecs.GetResource[int]
	_ func(*ecs.World) *ecs.Events[int]                                     = ecs.EventsOf[int]
	_ func(*ecs.World, ...ecs.RelationOption) *ecs.Relation[int]            = ecs.NewRelation[int]
	_ func(*ecs.World, ...ecs.Filter) *ecs.Query1[int]                      = ecs.NewQuery1[int]
	_                                                                       = sched.Time{}.DT
)

// TestPaths checks that the import paths detcheck looks for are those of
// the real packages.
func TestPaths(t *testing.T) {
	if got := reflect.TypeFor[ecs.Entity]().PkgPath(); got != ecsPath {
		t.Errorf("ecs is at %q, detcheck looks for %q", got, ecsPath)
	}
	if got := reflect.TypeFor[sched.Context]().PkgPath(); got != schedPath {
		t.Errorf("sched is at %q, detcheck looks for %q", got, schedPath)
	}
}
