package cgen_test

import "encoding/json"

// outOfTypeBodies are the canned Echo outputs of kinds_typed.c's
// test_out_of_type (bindings/c/typed/kinds_outputs.h), by the input's name:
// each holds a value its type cannot hold.
var outOfTypeBodies = map[string]string{
	"out-of-type tiny":   `{"name": "x", "tiny": 128}`,
	"out-of-type int":    `{"name": "x", "int": 1.5}`,
	"out-of-type long":   `{"name": "x", "long": 9223372036854775808}`,
	"out-of-type size":   `{"name": "x", "size": 2147483648}`,
	"out-of-type float":  `{"name": "x", "float": 1e39}`,
	"out-of-type values": `{"name": "x", "nested": {"values": [1, 2.5]}}`,
	"out-of-type data":   `{"name": "x", "data": "not base64!!"}`,
}

// outOfTypeBody is the canned output for an Echo input, or nil.
func outOfTypeBody(input []byte) []byte {
	var in struct{ Name string }
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	if b, ok := outOfTypeBodies[in.Name]; ok {
		return []byte(b)
	}
	return nil
}
