// Package uuid makes random UUIDs (RFC 9562 version 4): idempotency
// tokens, the AWS SDKs' invocation ids.
package uuid

import "crypto/rand"

// V4 returns a random UUID version 4 in its 36-character text form.
func V4() string {
	var b [16]byte
	rand.Read(b[:]) // never fails: it would crash the program instead
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	var out [36]byte
	j := 0
	for i, x := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hex[x>>4], hex[x&0xf]
		j += 2
	}
	return string(out[:])
}
