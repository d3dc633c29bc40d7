package typed

import (
	"bytes"
	"fmt"
)

// unknownKey is the document-form key of a union member the model does not
// know: {"$unknown": [name, value]} (see the README's document form).
const unknownKey = "$unknown"

// UnionMember reads a union's document form, an object with one member,
// and returns the member's name and value ("" for null, or an object
// whose members are all null); for {"$unknown": [name, value]}, a member
// the model does not know, its name and value. value is a slice of b; the
// caller unmarshals it, which checks it.
func UnionMember(b []byte) (tag string, value []byte, err error) {
	tag, value, err = unionMember(b)
	if err != nil || tag != unknownKey {
		return tag, value, err
	}
	var pair []Document
	if err := JSON.Unmarshal(value, &pair); err != nil || len(pair) != 2 {
		return "", nil, fmt.Errorf("union: %s: want [name, value], got %.40q", unknownKey, value)
	}
	if err := JSON.Unmarshal(pair[0], &tag); err != nil {
		return "", nil, fmt.Errorf("union: %s: the name is not a string: %w", unknownKey, err)
	}
	return tag, pair[1], nil
}

func unionMember(b []byte) (tag string, value []byte, err error) {
	i := skipSpace(b, 0)
	if bytes.Equal(bytes.TrimSpace(b[i:]), []byte("null")) {
		return "", nil, nil
	}
	if i >= len(b) || b[i] != '{' {
		return "", nil, fmt.Errorf("union: want an object, got %.20q", b[i:])
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return "", nil, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return "", nil, fmt.Errorf("union: want a member name at byte %d", i)
		}
		end := skipString(b, i)
		if end < 0 {
			return "", nil, fmt.Errorf("union: unterminated member name at byte %d", i)
		}
		key := string(b[i+1 : end-1])
		if bytes.IndexByte(b[i:end], '\\') >= 0 {
			if err := JSON.Unmarshal(b[i:end], &key); err != nil {
				return "", nil, fmt.Errorf("union: member name: %w", err)
			}
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return "", nil, fmt.Errorf("union: want ':' at byte %d", i)
		}
		start := skipSpace(b, i+1)
		end = skipValue(b, start)
		if end < 0 {
			return "", nil, fmt.Errorf("union: member %q: malformed value", key)
		}
		if v := b[start:end]; !bytes.Equal(v, []byte("null")) {
			if tag != "" {
				return "", nil, fmt.Errorf("union: members %q and %q are both set", tag, key)
			}
			tag, value = key, v
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' && len(bytes.TrimSpace(b[i+1:])) == 0 {
			return tag, value, nil
		}
		return "", nil, fmt.Errorf("union: unexpected %.10q at byte %d", b[i:], i)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'),
// or -1 when it does not end.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the JSON value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = skipString(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// UnknownMember is the value of a union member this client does not know:
// a copy of raw, which may be part of a larger input.
func UnknownMember(raw []byte) Document { return Document(bytes.Clone(raw)) }

// MarshalUnionMember writes the document form of a union member the model
// does not know, {"$unknown": [tag, value]}: sent as an input, it is
// refused naming the member path (its value was never decoded).
func MarshalUnionMember(tag string, value Document) ([]byte, error) {
	v, err := value.MarshalJSON()
	if err != nil {
		return nil, err
	}
	name, err := JSON.Marshal(tag)
	if err != nil {
		return nil, err
	}
	return JSON.Marshal(map[string][]Document{unknownKey: {name, v}})
}
