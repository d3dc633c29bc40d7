//go:build !amd64

package b64

import "encoding/base64"

// encode writes the base64 of src to dst, which is its length.
func encode(dst, src []byte) { base64.StdEncoding.Encode(dst, src) }

// decode decodes b into dst (room for len(b)/4*3 bytes); encoding/base64
// skips CR and LF, which the callers' length checks catch.
func decode(dst, b []byte) (int, bool) {
	n, err := base64.StdEncoding.Decode(dst[:cap(dst)][:len(b)/4*3], b)
	return n, err == nil
}
