// Package b64 is standard base64 with padding (RFC 4648 4) at memory
// speed for large blobs: the document form carries blobs as base64 text,
// and a 1 MiB S3 object is 1.4 MB of it. On amd64 it runs the SIMD code of
// github.com/cloudwego/base64x (which sonic already brings in); elsewhere
// encoding/base64.
//
// Decode and Valid accept exactly padded standard base64 and say only
// whether b was that: callers keep their own checker for the message of a
// refusal, and decode with encoding/base64 whatever text their checker
// accepts and the fast path does not.
package b64

import "encoding/base64"

// EncodedLen is the length of the encoding of n bytes.
func EncodedLen(n int) int { return base64.StdEncoding.EncodedLen(n) }

// AppendEncode appends the base64 of src to dst.
func AppendEncode(dst, src []byte) []byte {
	n := EncodedLen(len(src))
	dst = grow(dst, n)
	encode(dst[len(dst):len(dst)+n], src)
	return dst[:len(dst)+n]
}

// AppendDecode appends the bytes of the base64 text b to dst; ok is false
// (and dst unchanged) when b is not padded standard base64.
func AppendDecode(dst, b []byte) (out []byte, ok bool) {
	size, ok := decodedLen(b)
	if !ok {
		return dst, false
	}
	out = grow(dst, len(b)/4*3) // decode may use the room of the padding
	if n, ok := decode(out[len(dst):len(dst)+size], b); !ok || n != size {
		return dst, false
	}
	return out[:len(dst)+size], true
}

// Valid reports whether b is padded standard base64, decoding it a piece
// at a time into a buffer on the stack.
func Valid(b []byte) bool {
	if _, ok := decodedLen(b); !ok {
		return false
	}
	var buf [chunk / 4 * 3]byte
	for len(b) > chunk {
		if n, ok := decode(buf[:], b[:chunk]); !ok || n != len(buf) {
			return false
		}
		b = b[chunk:]
	}
	size, _ := decodedLen(b)
	n, ok := decode(buf[:], b)
	return ok && n == size
}

// chunk is the piece of text Valid decodes at a time (a multiple of 4).
const chunk = 4096

// decodedLen is the length of what the padded base64 b decodes to; false
// when its length cannot be that of padded base64.
func decodedLen(b []byte) (int, bool) {
	if len(b)%4 != 0 {
		return 0, false
	}
	n := len(b) / 4 * 3
	if len(b) > 0 && b[len(b)-1] == '=' {
		n--
		if b[len(b)-2] == '=' {
			n--
		}
	}
	return n, true
}

// grow returns dst with room for n more bytes.
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n)
	copy(out, dst)
	return out
}
