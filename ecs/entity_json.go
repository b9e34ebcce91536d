package ecs

import (
	"encoding/json"
	"fmt"
)

// entityJSON is the JSON form of an Entity.
type entityJSON struct {
	Index      uint32 `json:"index"`
	Generation uint32 `json:"generation"`
}

// MarshalJSON writes e as {"index": 42, "generation": 3}, without the
// world's tag, so equal entities of two worlds read the same.
func (e Entity) MarshalJSON() ([]byte, error) {
	return json.Marshal(entityJSON{e.index, e.gen & genMask})
}

// UnmarshalJSON reads the form MarshalJSON writes. The entity it makes has
// no world's tag, so it is not alive in a world with another tag until the
// world gives it one: [World.LoadJSON] does so for every entity it loads,
// also those inside component values. Returns an error for a generation
// above 2^24-1.
func (e *Entity) UnmarshalJSON(data []byte) error {
	var v entityJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.Generation > genMask {
		return fmt.Errorf("ecs: entity generation %d above the largest, %d", v.Generation, genMask)
	}
	*e = Entity{v.Index, v.Generation}
	return nil
}
