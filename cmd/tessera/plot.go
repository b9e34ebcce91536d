package main

import (
	"fmt"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writePlot draws the tick times in milliseconds against the tick number
// and saves the plot to path; the extension (.svg or .png) picks the
// format.
func writePlot(path, name string, times []time.Duration) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("tessera demo: %s scenario, time per tick", name)
	p.X.Label.Text = "tick"
	p.Y.Label.Text = "milliseconds"
	pts := make(plotter.XYs, len(times))
	for i, t := range times {
		pts[i] = plotter.XY{X: float64(i + 1), Y: float64(t) / float64(time.Millisecond)}
	}
	line, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	p.Add(line, plotter.NewGrid())
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}
