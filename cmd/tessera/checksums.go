package main

import (
	"bufio"
	"os"

	"github.com/tessera-ecs/tessera/desync"
	"github.com/tessera-ecs/tessera/ecs"
)

// checksumLog writes the world's checksums after every tick, one line each
// (package desync's format): the tick's number (from 1 in each run),
// World.Checksum in 16 hex digits, then a tab-separated column per part
// of the world (World.Checksums: the entity index, each component type,
// relation, resource and event queue). Two runs that should agree (two
// machines, two worker counts, a straight run and one that saved and
// loaded) are compared line by line; the first line that differs is the
// first tick that diverged, and its columns name the types
// (tessera desync A B says both).
type checksumLog struct {
	f   *os.File
	buf *bufio.Writer
	log *desync.Writer
}

// createChecksumLog creates (or truncates) the file at path.
func createChecksumLog(path string) (*checksumLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	buf := bufio.NewWriter(f)
	return &checksumLog{f: f, buf: buf, log: desync.NewWriter(buf)}, nil
}

// add records w's checksums after tick; the first write error is kept for close.
func (l *checksumLog) add(tick int, w *ecs.World) {
	_ = l.log.Write(uint64(tick), w) // the error comes back from close
}

// close flushes and closes the file, returning the first error met.
func (l *checksumLog) close() error {
	err := l.log.Flush()
	if e := l.buf.Flush(); err == nil {
		err = e
	}
	if e := l.f.Close(); err == nil {
		err = e
	}
	return err
}
