package b64

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// strict is what the fast paths may accept: what encoding/base64 decodes
// without skipping a CR or LF.
func strict(b []byte) ([]byte, bool) {
	v, err := base64.StdEncoding.DecodeString(string(b))
	return v, err == nil && !bytes.ContainsAny(b, "\r\n")
}

// TestAgainstEncodingBase64 compares Decode and Valid with encoding/base64
// on valid text of every length around the chunk size and on text with
// one byte changed (to any value: CR and LF, which both decoders skip,
// padding in the middle, bytes outside the alphabet).
func TestAgainstEncodingBase64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 2, 3, 4, 5, 100, chunk/4*3 - 1, chunk / 4 * 3, chunk/4*3 + 1, chunk/4*3 + 2, 3 * chunk, 1 << 16}
	for _, n := range sizes {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		enc := AppendEncode([]byte("x"), data)
		if want := "x" + base64.StdEncoding.EncodeToString(data); string(enc) != want {
			t.Fatalf("AppendEncode of %d bytes differs from encoding/base64", n)
		}
		enc = enc[1:]
		got, ok := AppendDecode([]byte("y"), enc)
		if !ok || !bytes.Equal(got[1:], data) || got[0] != 'y' || !Valid(enc) {
			t.Fatalf("%d bytes: AppendDecode ok=%v equal=%v, Valid %v", n, ok, bytes.Equal(got[1:], data), Valid(enc))
		}
		for k := 0; k < 300 && len(enc) > 0; k++ {
			bad := bytes.Clone(enc)
			i := rng.IntN(len(bad))
			bad[i] = byte(rng.IntN(256))
			if k%3 == 0 {
				bad[i] = "\r\n=\"\\ -_"[rng.IntN(8)]
			}
			want, wantOK := strict(bad)
			got, ok := AppendDecode(nil, bad)
			if ok && (!wantOK || !bytes.Equal(got, want)) {
				t.Fatalf("%d bytes, byte %d set to %q: AppendDecode accepts what encoding/base64 does not decode the same", n, i, bad[i])
			}
			if Valid(bad) != ok {
				t.Fatalf("%d bytes, byte %d set to %q: Valid %v, AppendDecode %v", n, i, bad[i], Valid(bad), ok)
			}
		}
	}
	for _, s := range []string{"A", "AA", "AAA", "A===", "====", "AA=A", "=AAA", "AAAA====", "AA==AAAA", "AAA\n", "AA\r\nAAAA"} {
		if _, ok := AppendDecode(nil, []byte(s)); ok || Valid([]byte(s)) {
			t.Errorf("%q accepted", s)
		}
	}
}

func BenchmarkDecode1MB(b *testing.B) {
	data := make([]byte, 1<<20)
	enc := AppendEncode(nil, data)
	dst := make([]byte, 0, len(data)+3)
	b.SetBytes(int64(len(enc)))
	for i := 0; i < b.N; i++ {
		AppendDecode(dst, enc)
	}
}

func BenchmarkValid1MB(b *testing.B) {
	enc := AppendEncode(nil, make([]byte, 1<<20))
	b.SetBytes(int64(len(enc)))
	for i := 0; i < b.N; i++ {
		Valid(enc)
	}
}
