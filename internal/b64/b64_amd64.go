package b64

import "github.com/cloudwego/base64x"

// encode writes the base64 of src to dst, which is its length.
func encode(dst, src []byte) { base64x.StdEncoding.Encode(dst, src) }

// decode decodes b into dst (room for len(b)/4*3 bytes); base64x skips
// CR and LF, which the callers' length checks catch.
func decode(dst, b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, true
	}
	n, err := base64x.StdEncoding.Decode(dst[:cap(dst)][:len(b)/4*3], b)
	return n, err == nil
}
