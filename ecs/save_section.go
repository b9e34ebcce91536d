package ecs

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Version 2 of the binary save format cuts the file, after its magic and
// version, into sections: the entity index, the types (with how many
// sections of each kind follow), then one section per table, sparse set,
// resource and event queue. A section is its content's length in 8
// little-endian bytes, the content, and a CRC-32C (Castagnoli) of the
// content followed by the length, in 4 little-endian bytes (content
// first: Save adds blocks of it to the CRC as it writes them, while they
// are in the cache, and knows the length at the end). Load checks a
// section's CRC before it reads the content, so a changed bit anywhere in
// a section is an error naming the section and its bytes, not a world
// with a wrong value. Version 1 files have no sections and no CRCs.

// sectionHeader and sectionTrailer are the bytes a section adds around
// its content: its length, and its CRC.
const (
	sectionHeader  = 8
	sectionTrailer = 4
)

// castagnoli is the CRC-32C table; the crc32 package computes it with the
// machine's CRC instructions where there are some (amd64, arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// crcBlock is how many bytes of a section Save writes before it adds
// them to the section's CRC: few enough to be in the cache still.
const crcBlock = 32 << 10

// beginSection starts a section at the end of e.buf: it reserves the
// length, and returns where the section starts, for endSection.
func (e *encoder) beginSection() int {
	start := len(e.buf)
	e.buf = append(e.buf, make([]byte, sectionHeader)...)
	e.crc, e.crcAt = 0, len(e.buf)
	return start
}

// sum adds what e.buf holds past crcAt to the open section's CRC.
func (e *encoder) sum() {
	e.crc = crc32.Update(e.crc, castagnoli, e.buf[e.crcAt:])
	e.crcAt = len(e.buf)
}

// tick adds the bytes written since the last sum to the open section's
// CRC once they are a block: loops that write many small values call it.
func (e *encoder) tick() {
	if e.crcAt > 0 && len(e.buf)-e.crcAt >= crcBlock {
		e.sum()
	}
}

// endSection ends the section that beginSection started at start: it
// writes the content's length and appends the CRC.
func (e *encoder) endSection(start int) {
	e.sum()
	n := len(e.buf) - start - sectionHeader
	binary.LittleEndian.PutUint64(e.buf[start:], uint64(n))
	crc := crc32.Update(e.crc, castagnoli, e.buf[start:start+sectionHeader])
	e.buf = binary.LittleEndian.AppendUint32(e.buf, crc)
	e.crc, e.crcAt = 0, 0
}

// sectionCRC returns the CRC of a section whose length is the 8 bytes
// head and whose content is content.
func sectionCRC(head, content []byte) uint32 {
	return crc32.Update(crc32.Checksum(content, castagnoli), castagnoli, head)
}

// enterSection reads a section's length and CRC, checks the CRC, and
// limits d to the section's content until leaveSection; what names the
// section in errors. It does nothing in a file of version 1, which has no
// sections, and reports whether d may read on.
func (d *decoder) enterSection(what string) bool {
	if !d.sectioned || d.err != nil {
		return d.err == nil
	}
	start := d.pos
	if d.left() < sectionHeader+sectionTrailer {
		d.fail("%s: truncated: a section takes at least %d bytes, %d left", what, sectionHeader+sectionTrailer, d.left())
		return false
	}
	n := binary.LittleEndian.Uint64(d.data[start:])
	if rest := uint64(d.left() - sectionHeader - sectionTrailer); n > rest {
		d.fail("%s: a section of %d bytes, more than the %d bytes left", what, n, rest)
		return false
	}
	end := start + sectionHeader + int(n)
	want := binary.LittleEndian.Uint32(d.data[end:])
	if got := sectionCRC(d.data[start:start+sectionHeader], d.data[start+sectionHeader:end]); got != want {
		d.fail("%s (bytes %d to %d) is corrupt: its CRC-32C is %08x, the file says %08x", what, start, end+sectionTrailer, got, want)
		return false
	}
	d.pos = start + sectionHeader
	d.whole, d.data, d.section = d.data, d.data[:end], what
	return true
}

// leaveSection ends the section enterSection began: its content must have
// been read to the end. d may read the rest of the file again.
func (d *decoder) leaveSection() {
	if d.whole == nil { // not inside a section (or a file of none)
		return
	}
	if d.err == nil && d.left() != 0 {
		d.fail("%d bytes left at the end of the section", d.left())
	}
	d.data, d.whole, d.section = d.whole, nil, ""
	if d.err == nil {
		d.pos += sectionTrailer
	}
}

// skipSection passes over the rest of the section's content, for a
// section whose content d has no use for (Merge and resources, say).
func (d *decoder) skipSection() {
	if d.whole != nil && d.err == nil {
		d.pos = len(d.data)
	}
}

// sectionCount reads how many sections of a kind follow the types
// section: at most as many as the rest of the file holds, each taking
// its length and CRC at least.
func (d *decoder) sectionCount(kind string) int {
	x := d.uvarint()
	if d.err != nil {
		return 0
	}
	rest := len(d.whole) - len(d.data) - sectionTrailer // the file after this section
	if x > uint64(rest/(sectionHeader+sectionTrailer)) {
		d.fail("%d %s sections, more than the file holds", x, kind)
		return 0
	}
	return int(x)
}

// sectionName names the i-th (from 0) of n sections of a kind in errors:
// "table 3 of 7".
func sectionName(kind string, i, n int) string { return fmt.Sprintf("%s %d of %d", kind, i+1, n) }
