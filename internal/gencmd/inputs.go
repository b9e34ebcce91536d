package gencmd

import (
	"fmt"
	"io"
	"os"
)

// readAtMost reads the first n bytes of the file name, or all of it when
// it is shorter: a definition file past the limit is not read whole.
func readAtMost(name string, n int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// sameFiles says which file is given twice, or is both an input and the
// output (which would be overwritten with Go), or "" when none is.
// Names that do not exist are left to the reads and the write to report.
func sameFiles(inputs []string, out string) string {
	stats := make([]os.FileInfo, len(inputs))
	for i, name := range inputs {
		st, err := os.Stat(name)
		if err != nil {
			continue
		}
		for j := range i {
			if stats[j] != nil && os.SameFile(stats[j], st) {
				return fmt.Sprintf("%s is given twice (as %s too)", name, inputs[j])
			}
		}
		stats[i] = st
	}
	if out == "" {
		return ""
	}
	st, err := os.Stat(out)
	if err != nil {
		return ""
	}
	for i, in := range stats {
		if in != nil && os.SameFile(in, st) {
			return fmt.Sprintf("the output %s is the definition file %s; name another with -o", out, inputs[i])
		}
	}
	return ""
}
