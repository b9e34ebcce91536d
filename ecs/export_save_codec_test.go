package ecs

// SavedValues returns the entity index and the bytes of each value of the
// component type named name in a binary save file: the rows of each table
// in the file's order, then those of its sparse set, as the file's reader
// (readSave) finds them by the file's own schema. For the SaveCodec
// tests, which check that SaveCodec writes what Save does.
func SavedValues(file []byte, name string) ([]uint32, [][]byte, error) {
	d := &decoder{data: file, op: "SavedValues", budget: loadBudget(len(file))}
	img, err := readSave(d)
	if err != nil {
		return nil, nil, err
	}
	var indices []uint32
	var values [][]byte
	for _, t := range img.tables {
		for _, c := range t.cols {
			if c.typ.name != name {
				continue
			}
			for i, e := range t.entities {
				indices, values = append(indices, e.index), append(values, c.vals.at(i))
			}
		}
	}
	for _, s := range img.sparse {
		if s.typ.name != name {
			continue
		}
		for i, e := range s.entities {
			indices, values = append(indices, e.index), append(values, s.vals.at(i))
		}
	}
	return indices, values, nil
}
