package desync_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/desync"
	"github.com/tessera-ecs/tessera/ecs"
)

func TestLogRoundTrip(t *testing.T) {
	_, r := logRun(t, 100, 1, noFault)
	var buf bytes.Buffer
	l := desync.NewWriter(&buf)
	for tick := uint64(1); tick <= 3; tick++ {
		r.s.Run()
		if err := l.Write(tick, r.w); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	frames, err := desync.ReadLog(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 3 || frames[2].Tick != 3 || frames[2].World != r.w.Checksum() {
		t.Fatalf("frames %+v", frames)
	}
	want := r.w.Checksums(nil)
	got := frames[2].Parts
	if len(ecs.DiffChecksums(want, got)) != 0 || len(got) != len(want) {
		t.Fatalf("parts read back %v, want %v", got, want)
	}
}

func TestReadLogAcceptsWorldChecksumsAlone(t *testing.T) {
	frames, err := desync.ReadLog(strings.NewReader("# a comment\n1 00000000000000aa\n\n2 00000000000000bb\r\n"))
	if err != nil || len(frames) != 2 || frames[1].World != 0xbb || len(frames[1].Parts) != 0 {
		t.Fatalf("frames %+v, err %v", frames, err)
	}
	other := []desync.Frame{{Tick: 1, World: 0xaa}, {Tick: 2, World: 0xbc}}
	d, ok := desync.FirstDivergence(frames, other)
	if !ok || d.Tick != 2 || d.Index != 1 || !strings.Contains(d.String(), "first divergent tick 2") {
		t.Fatalf("divergence %v %v", d, ok)
	}
	if _, ok := desync.FirstDivergence(frames, frames[:1]); ok {
		t.Fatalf("a log that stops early diverges")
	}
}

func TestReadLogNamesTheBadLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 00000000000000aa\nx 00000000000000aa\n", "line 2: tick \"x\""},
		{"1 abc\n", "line 1: checksum \"abc\""},
		{"1\n", "line 1: want a tick"},
		{"1 00000000000000aa\tcomponent:x\n", "part \"component:x\""},
		{"1 00000000000000aa\tthing:x=00000000000000aa\n", "unknown kind \"thing\""},
		{"1 00000000000000aa\tcomponent:x=12\n", "checksum \"12\""},
		{strings.Repeat("1", 17<<20), "token too long"},
	} {
		_, err := desync.ReadLog(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadLog(%.40q) = %v; want an error with %q", c.in, err, c.want)
		}
	}
}

func TestFirstDivergenceSkipsTicksOneLogLacks(t *testing.T) {
	p := func(sum uint64) []ecs.PartChecksum {
		return []ecs.PartChecksum{{Kind: ecs.PartComponent, Name: "c", Sum: sum}}
	}
	a := []desync.Frame{{Tick: 1, World: 1, Parts: p(1)}, {Tick: 3, World: 3, Parts: p(3)}, {Tick: 4, World: 4, Parts: p(4)}}
	b := []desync.Frame{{Tick: 2, World: 9, Parts: p(9)}, {Tick: 3, World: 3, Parts: p(3)}, {Tick: 4, World: 4, Parts: p(5)}}
	d, ok := desync.FirstDivergence(a, b)
	if !ok || d.Tick != 4 || len(d.Parts) != 1 || d.Parts[0].Sum != 4 {
		t.Fatalf("divergence %+v %v; want tick 4, part c", d, ok)
	}
}

func FuzzReadLog(f *testing.F) {
	f.Add([]byte("1 00000000000000aa\tcomponent:x=00000000000000bb\n"))
	f.Add([]byte("# c\n2 00000000000000aa\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		frames, err := desync.ReadLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What reads back writes out to a log that reads back the same.
		var out []byte
		for _, fr := range frames {
			out = desync.AppendFrame(out, fr)
		}
		again, err := desync.ReadLog(bytes.NewReader(out))
		if err != nil || len(again) != len(frames) {
			t.Fatalf("re-read: %v, %d frames of %d", err, len(again), len(frames))
		}
	})
}
