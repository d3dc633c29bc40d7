package typed

import (
	"bytes"
	"fmt"
)

// UnionMember reads a union's document form, an object with one member,
// and returns the member's name and value ("" for null, or an object
// whose members are all null).
func UnionMember(b []byte) (tag string, value []byte, err error) {
	if t := bytes.TrimSpace(b); len(t) == 0 || string(t) == "null" {
		return "", nil, nil
	}
	var members map[string]Document
	if err := JSON.Unmarshal(b, &members); err != nil {
		return "", nil, fmt.Errorf("union: %w", err)
	}
	for k, v := range members {
		if len(v) == 0 || string(v) == "null" {
			continue
		}
		if tag != "" {
			return "", nil, fmt.Errorf("union: members %q and %q are both set", tag, k)
		}
		tag, value = k, v
	}
	return tag, value, nil
}

// MarshalUnionMember writes a union's document form: {tag: value}.
func MarshalUnionMember(tag string, value Document) ([]byte, error) {
	v, err := value.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return JSON.Marshal(map[string]Document{tag: v})
}
