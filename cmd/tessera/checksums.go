package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/tessera-ecs/tessera/ecs"
)

// checksumLog writes the world's checksum after every tick, one line each:
// the tick's number (from 1 in each run) and World.Checksum in 16 hex
// digits. Two runs that should agree (two machines, two worker counts, a
// straight run and one that saved and loaded) are compared line by line;
// the first line that differs is the first tick that diverged.
type checksumLog struct {
	f   *os.File
	buf *bufio.Writer
	err error
}

// createChecksumLog creates (or truncates) the file at path.
func createChecksumLog(path string) (*checksumLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &checksumLog{f: f, buf: bufio.NewWriter(f)}, nil
}

// add records w's checksum after tick; the first write error is kept for close.
func (l *checksumLog) add(tick int, w *ecs.World) {
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.buf, "%d %016x\n", tick, w.Checksum())
	}
}

// close flushes and closes the file, returning the first error met.
func (l *checksumLog) close() error {
	if err := l.buf.Flush(); l.err == nil {
		l.err = err
	}
	if err := l.f.Close(); l.err == nil {
		l.err = err
	}
	return l.err
}
