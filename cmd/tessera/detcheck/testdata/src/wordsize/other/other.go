// Package other declares types that another package keeps in a world.
package other

type Score struct {
	Points int
	bonus  int
}

type Level struct{ N uint }
