package eventstream

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"testing"
)

// FuzzEventStreamDecode feeds arbitrary bytes to the decoder: it never
// panics, never reads past a bound, and every message it accepts encodes
// back to the bytes it came from.
func FuzzEventStreamDecode(f *testing.F) {
	seed, _ := base64.StdEncoding.DecodeString(multipleHeaders)
	f.Add(seed)
	f.Add(append(append([]byte{}, seed...), seed[:20]...))
	f.Add(prelude(0x7fffffff, 0))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(bytes.NewReader(data), Limits{MaxMessageLen: 1 << 16})
		off := 0
		for i := 0; i < 1000; i++ {
			msg, err := d.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var fe *Error
				if !errors.As(err, &fe) {
					t.Fatalf("error %v is not an *Error", err)
				}
				return
			}
			again, err := Append(nil, msg)
			if err != nil {
				t.Fatalf("re-encode: %v", err)
			}
			if !bytes.Equal(again, data[off:off+len(again)]) {
				t.Fatalf("re-encoded %x, read %x", again, data[off:off+len(again)])
			}
			off += len(again)
		}
	})
}
