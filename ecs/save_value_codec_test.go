package ecs_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type codecHealth struct {
	HP, MaxHP int32
	Status    uint8
}

type codecLink struct {
	Target ecs.Entity
	Names  []string
	Path   [2]ecs.Entity
	Ok     bool
}

func TestSaveCodecRoundTripsValues(t *testing.T) {
	hc, err := ecs.NewSaveCodec[codecHealth]()
	if err != nil {
		t.Fatal(err)
	}
	h := codecHealth{HP: -3, MaxHP: 12, Status: 2}
	b := hc.Append([]byte{0xAA}, &h)
	if len(b) != 1+9 || b[0] != 0xAA || hc.Size() != 9 {
		t.Fatalf("Append gave %d bytes %x, Size %d; want 0xAA then 9 bytes", len(b), b, hc.Size())
	}
	if got := hc.Fields(nil); !bytes.Equal(got, []byte{4, 4, 1}) {
		t.Fatalf("Fields = %v, want [4 4 1]", got)
	}
	var back codecHealth
	n, err := hc.Decode(b[1:], &back, nil)
	if err != nil || n != 9 || back != h {
		t.Fatalf("Decode = %v, %d, %v; want %v, 9, nil", back, n, err, h)
	}

	w := ecs.NewWorld()
	a, c := w.Spawn(), w.Spawn()
	lc, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		t.Fatal(err)
	}
	if lc.Size() != -1 || len(lc.Fields(nil)) != 0 {
		t.Fatalf("a layout with a slice has Size %d and Fields %v; want -1 and none", lc.Size(), lc.Fields(nil))
	}
	l := codecLink{Target: a, Names: []string{"x", "yz"}, Path: [2]ecs.Entity{c, {}}, Ok: true}
	if refs := lc.Refs(&l, nil); len(refs) != 2 || refs[0] != a || refs[1] != c {
		t.Fatalf("Refs = %v, want [%v %v]", refs, a, c)
	}
	enc := lc.Append(nil, &l)
	var seen []ecs.Entity
	other := ecs.NewWorld()
	mapped := other.Spawn()
	var got codecLink
	n, err = lc.Decode(enc, &got, func(e ecs.Entity) ecs.Entity { seen = append(seen, e); return mapped })
	if err != nil || n != len(enc) {
		t.Fatalf("Decode: %d of %d bytes, %v", n, len(enc), err)
	}
	if len(seen) != 2 || seen[0].Index() != a.Index() || seen[1].Index() != c.Index() {
		t.Fatalf("mapEntity saw %v, want the indices of %v and %v", seen, a, c)
	}
	if got.Target != mapped || got.Path[0] != mapped || !got.Path[1].IsZero() || !got.Ok || strings.Join(got.Names, ",") != "x,yz" {
		t.Fatalf("Decode gave %+v", got)
	}
	n, err = lc.Decode(enc, &got, nil)
	if err != nil || !got.Target.IsZero() || !got.Path[0].IsZero() || n != len(enc) {
		t.Fatalf("without mapEntity, Decode gave %+v, %v; want zero entities", got, err)
	}
}

func TestSaveCodecDecodeRefusesBadBytes(t *testing.T) {
	lc, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		t.Fatal(err)
	}
	l := codecLink{Names: []string{"abc"}, Ok: true}
	enc := lc.Append(nil, &l)
	for cut := range len(enc) {
		var got codecLink
		got.Ok = true
		if _, err := lc.Decode(enc[:cut], &got, nil); err == nil || got.Ok {
			t.Fatalf("a value cut at %d of %d bytes decoded without error (%+v)", cut, len(enc), got)
		} else if !strings.Contains(err.Error(), "SaveCodec[ecs_test.codecLink].Decode") {
			t.Fatalf("error %q does not name the codec", err)
		}
	}
	bad := bytes.Clone(enc)
	bad[len(bad)-1] = 7 // the bool
	var got codecLink
	if _, err := lc.Decode(bad, &got, nil); err == nil {
		t.Fatal("a bool of 7 decoded")
	}
}

func TestSaveCodecSchemaTellsLayoutsApart(t *testing.T) {
	type a struct{ X, Y float32 }
	type b struct{ Y, X float32 }
	ca, _ := ecs.NewSaveCodec[a]()
	ca2, _ := ecs.NewSaveCodec[a]()
	cb, _ := ecs.NewSaveCodec[b]()
	if ca.Schema() != ca2.Schema() || ca.Schema() == cb.Schema() {
		t.Fatalf("Schema: a %x, a again %x, b %x; want the first two equal and b different", ca.Schema(), ca2.Schema(), cb.Schema())
	}
	if _, err := ecs.NewSaveCodec[struct{ P *int }](); err == nil {
		t.Fatal("a pointer field was accepted")
	}
}

func FuzzSaveCodecDecode(f *testing.F) {
	lc, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(lc.Append(nil, &codecLink{Names: []string{"a", "b"}, Ok: true}))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var v codecLink
		n, err := lc.Decode(data, &v, func(e ecs.Entity) ecs.Entity { return e })
		if err != nil {
			return
		}
		if n > len(data) {
			t.Fatalf("used %d of %d bytes", n, len(data))
		}
		// Varints may come overlong, so the bytes need not repeat; the
		// value must.
		again := lc.Append(nil, &v)
		var w codecLink
		if m, err := lc.Decode(again, &w, func(e ecs.Entity) ecs.Entity { return e }); err != nil || m != len(again) || !reflect.DeepEqual(v, w) {
			t.Fatalf("decoded %+v re-encodes to %x, which decodes to %+v, %v", v, again, w, err)
		}
	})
}
