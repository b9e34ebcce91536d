package desync

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// Frame is one line of a log: a tick, the world's checksum after it and the
// checksum of each part.
type Frame struct {
	Tick  uint64
	World uint64
	Parts []ecs.PartChecksum
}

// Writer writes a log, a frame per tick, buffered. Not safe for concurrent
// use.
type Writer struct {
	out   *bufio.Writer
	parts []ecs.PartChecksum
	line  []byte
	err   error
}

// NewWriter returns a Writer that writes to out; call Flush at the end.
func NewWriter(out io.Writer) *Writer { return &Writer{out: bufio.NewWriter(out)} }

// Write appends the frame of w after tick: its [ecs.World.Checksum] and
// [ecs.World.Checksums]. It returns the first write error met so far
// (and keeps returning it). Panics as World.Checksums does. Complexity:
// that of World.Checksum and World.Checksums.
func (l *Writer) Write(tick uint64, w *ecs.World) error {
	if l.err != nil {
		return l.err
	}
	l.parts = w.Checksums(l.parts[:0])
	l.line = AppendFrame(l.line[:0], Frame{Tick: tick, World: w.Checksum(), Parts: l.parts})
	_, l.err = l.out.Write(l.line)
	return l.err
}

// Flush writes what is buffered, and returns the first error met.
func (l *Writer) Flush() error {
	if err := l.out.Flush(); l.err == nil {
		l.err = err
	}
	return l.err
}

// AppendFrame appends f as one line of a log, newline included.
func AppendFrame(dst []byte, f Frame) []byte {
	dst = strconv.AppendUint(dst, f.Tick, 10)
	dst = append(dst, ' ')
	dst = fmt.Appendf(dst, "%016x", f.World)
	for _, p := range f.Parts {
		dst = append(dst, '\t')
		dst = append(dst, p.Kind.String()...)
		dst = append(dst, ':')
		dst = append(dst, p.Name...)
		dst = append(dst, '=')
		dst = fmt.Appendf(dst, "%016x", p.Sum)
	}
	return append(dst, '\n')
}

// maxLine bounds a line of a log read back: a world with thousands of
// types writes lines of a few hundred kilobytes.
const maxLine = 16 << 20

// ReadLog reads a log: a frame per line, in the order of the lines; blank
// lines and lines that start with # are skipped. Lines of world checksums
// alone ("<tick> <hex>") are frames without parts. It returns an error
// naming the line for anything else, and for lines longer than 16 MiB; it
// never panics, whatever the bytes. Complexity: O(bytes).
func ReadLog(r io.Reader) ([]Frame, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var frames []Frame
	kinds := map[string]ecs.PartKind{}
	for k := ecs.PartEntities; k <= ecs.PartEvents; k++ {
		kinds[k.String()] = k
	}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		f, err := parseFrame(line, kinds)
		if err != nil {
			return frames, fmt.Errorf("desync: line %d: %w", n, err)
		}
		frames = append(frames, f)
	}
	if err := sc.Err(); err != nil {
		return frames, fmt.Errorf("desync: after line %d: %w", len(frames), err)
	}
	return frames, nil
}

func parseFrame(line string, kinds map[string]ecs.PartKind) (Frame, error) {
	fields := strings.Split(line, "\t")
	head := strings.Fields(fields[0])
	if len(head) != 2 {
		return Frame{}, fmt.Errorf("want a tick and a 16-digit hex checksum, got %q", short(fields[0]))
	}
	var f Frame
	var err error
	if f.Tick, err = strconv.ParseUint(head[0], 10, 64); err != nil {
		return Frame{}, fmt.Errorf("tick %q is not a number", short(head[0]))
	}
	if f.World, err = parseHex(head[1]); err != nil {
		return Frame{}, err
	}
	for _, field := range fields[1:] {
		colon, eq := strings.IndexByte(field, ':'), strings.LastIndexByte(field, '=')
		if colon < 0 || eq < colon {
			return Frame{}, fmt.Errorf("part %q: want kind:name=checksum", short(field))
		}
		kind, ok := kinds[field[:colon]]
		if !ok {
			return Frame{}, fmt.Errorf("part %q: unknown kind %q", short(field), short(field[:colon]))
		}
		sum, err := parseHex(field[eq+1:])
		if err != nil {
			return Frame{}, err
		}
		f.Parts = append(f.Parts, ecs.PartChecksum{Kind: kind, Name: field[colon+1 : eq], Sum: sum})
	}
	return f, nil
}

func parseHex(s string) (uint64, error) {
	x, err := strconv.ParseUint(s, 16, 64)
	if err != nil || len(s) != 16 {
		return 0, fmt.Errorf("checksum %q: want 16 hex digits", short(s))
	}
	return x, nil
}

// short cuts s for an error message.
func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}
