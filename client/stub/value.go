package stub

import (
	"bytes"

	"github.com/smithycurl/smithycurl/internal/respond"
)

// canonical is JSON b compact, with sorted object keys: two inputs with
// the same values read the same.
func canonical(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}")
	}
	v, err := respond.Decode(b)
	if err != nil {
		return nil, err
	}
	return respond.Encode(v), nil
}
