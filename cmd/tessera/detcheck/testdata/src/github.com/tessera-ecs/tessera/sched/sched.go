// Package sched stands in for Tessera's sched package in detcheck's tests:
// the names detcheck looks for, with the real signatures (detcheck's
// api_test.go checks them against the real package).
package sched

import (
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

type Context struct{}

func (c *Context) World() *ecs.World       { return nil }
func (c *Context) Commands() *ecs.Commands { return nil }
func (c *Context) Workers() int            { return 1 }

type System interface{ Update(ctx *Context) }

type Option func()

type Scheduler struct{}

func New(w *ecs.World) *Scheduler                                              { return &Scheduler{} }
func (s *Scheduler) Add(name string, sys System, opts ...Option)               {}
func (s *Scheduler) AddFunc(name string, f func(ctx *Context), opts ...Option) {}
func (s *Scheduler) Workers() int                                              { return 1 }

func ForEach[C any](ctx *Context, items []C, fn func(item C)) {}

type Func func(ctx *Context)

func (f Func) Update(ctx *Context) { f(ctx) }

type Time struct {
	Tick        uint64
	DT, Elapsed float64
}

type FixedLoop struct{}

func NewFixedLoop(s *Scheduler, dt time.Duration) *FixedLoop { return &FixedLoop{} }
func (l *FixedLoop) Advance(real time.Duration) int          { return 0 }
