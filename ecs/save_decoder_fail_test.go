package ecs_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// percent's DecodeSave refuses a value above 100 with SaveDecoder.Fail,
// twice, and records what SaveDecoder.Err said before and after.
type percent struct {
	P  int32
	On bool // padding: not saved as memory, so the codec runs
}

var percentErrs []string // Err before and after each DecodeSave ("" for nil)

func (p *percent) EncodeSave(e *ecs.SaveEncoder) { e.Int32(p.P); e.Bool(p.On) }
func (p *percent) DecodeSave(d *ecs.SaveDecoder) {
	before := d.Err()
	p.P, p.On = d.Int32(), d.Bool()
	if p.P > 100 {
		d.Fail("a percent of %d", p.P)
		d.Fail("a second problem, not reported")
	}
	percentErrs = append(percentErrs, errText(before), errText(d.Err()))
}

type plainPercent percent

// TestSaveDecoderFail: a codec's Fail makes Load return its message, the
// first one recorded, and leave the world empty; Err reports it to the
// codec from then on, and nil before.
func TestSaveDecoderFail(t *testing.T) {
	load := func(vs ...int32) (*ecs.World, error) {
		src := ecs.NewWorld()
		ecs.Register[plainPercent](src, ecs.Name("percent"))
		for _, v := range vs {
			ecs.NewMap[plainPercent](src).Spawn(plainPercent{P: v, On: true})
		}
		dst := ecs.NewWorld()
		ecs.Register[percent](dst, ecs.Name("percent"))
		percentErrs = nil
		return dst, dst.Load(bytes.NewReader(saveOf(t, src)))
	}
	if w, err := load(5, 100); err != nil || w.Len() != 2 {
		t.Fatalf("values in range: %v, %d entities", err, w.Len())
	}
	if len(percentErrs) != 4 || slices.ContainsFunc(percentErrs, func(s string) bool { return s != "" }) {
		t.Fatalf("Err while nothing failed: %q", percentErrs)
	}
	w, err := load(7, 150, 9)
	if err == nil || !strings.Contains(err.Error(), "a percent of 150") || strings.Contains(err.Error(), "second") || w.Len() != 0 {
		t.Fatalf("a value out of range: %v, %d entities; want the first Fail's message and none", err, w.Len())
	}
	if len(percentErrs) < 4 || percentErrs[0] != "" || percentErrs[2] != "" || !strings.Contains(percentErrs[3], "a percent of 150") {
		t.Fatalf("Err before and after each value: %q", percentErrs)
	}
}
