package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/tessera-ecs/tessera/internal/scenario"
)

// terminalWidth returns the width of the terminal on standard output, or
// 80 columns when it is not a terminal.
func terminalWidth() int {
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}

// spriteRank orders sprites for downsampling: a cell shows the most
// telling sprite of the block it stands for.
var spriteRank = [256]int{'@': 5, 'k': 4, 'h': 3, '|': 2, '_': 1}

// printFrame prints the frame scaled down to at most cols columns, keeping
// its aspect with characters about twice as tall as wide, inside a border.
func printFrame(w io.Writer, f *scenario.Frame, cols int) {
	cols = max(min(cols-2, scenario.FrameWidth), 8)
	scale := (scenario.FrameWidth + cols - 1) / cols // frame columns per character
	out := scenario.FrameWidth / scale
	rows := scenario.FrameHeight / (2 * scale)
	fmt.Fprintf(w, "frame %dx%d, one character per %dx%d cells:\n", scenario.FrameWidth, scenario.FrameHeight, scale, 2*scale)
	border := make([]byte, out+2)
	for i := range border {
		border[i] = '-'
	}
	border[0], border[out+1] = '+', '+'
	fmt.Fprintf(w, "%s\n", border)
	line := make([]byte, out+2)
	for r := range rows {
		line[0], line[out+1] = '|', '|'
		for c := range out {
			best := byte(' ')
			for y := r * 2 * scale; y < (r+1)*2*scale; y++ {
				for x := c * scale; x < (c+1)*scale; x++ {
					if ch := f[y][x]; spriteRank[ch] > spriteRank[best] {
						best = ch
					}
				}
			}
			line[c+1] = best
		}
		fmt.Fprintf(w, "%s\n", line)
	}
	fmt.Fprintf(w, "%s\n", border)
}
