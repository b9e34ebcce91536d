//go:build amd64 || arm64

package ecs_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// An array longer than a file's counts go (2^31-1) is refused by Save,
// never written for Load to refuse; one of 2^31-1 elements of no size
// saves and loads. (A 64-bit test: such arrays do not compile on 32-bit
// machines.)
type (
	longestEmpty struct {
		E [1<<31 - 1]struct{}
		N int32
	}
	tooLongToSave struct {
		E [1 << 31]struct{}
		N int32
	}
)

func TestSaveRefusesArraysLongerThanLoadReads(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[longestEmpty](w).Spawn(longestEmpty{N: 3})
	var file bytes.Buffer
	if err := w.Save(&file); err != nil {
		t.Fatalf("Save of an array of 2^31-1 empty elements: %v", err)
	}
	back := ecs.NewWorld()
	m := ecs.NewMap[longestEmpty](back)
	if err := back.Load(&file); err != nil {
		t.Fatalf("Load of what Save wrote: %v", err)
	}
	if e, _ := back.Reflect().EntityAt(1); m.Get(e).N != 3 {
		t.Fatalf("loaded %+v, want N 3", m.Get(e).N)
	}
	ecs.NewMap[tooLongToSave](w).Spawn(tooLongToSave{})
	if err := w.Save(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "more than the 2147483647 a save file describes") {
		t.Fatalf("Save of an array of 2^31 elements: %v, want it refused", err)
	}
}
