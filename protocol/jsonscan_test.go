package protocol

import (
	"strings"
	"testing"
)

// TestPlainRun: the 8-byte steps of a string's scan stop at the first
// byte that needs a look, wherever it is (a second one after it changes
// nothing), and only there; the last bytes, fewer than 8, are left to
// the caller.
func TestPlainRun(t *testing.T) {
	for _, high := range []uint64{0, nonASCII} {
		for c := 0; c < 256; c++ {
			special := c < 0x20 || c == '"' || c == '\\' || high != 0 && c >= 0x80
			for at := 0; at < 40; at++ {
				for _, second := range []int{-1, at + 1, at + 5} {
					b := []byte("abcdefghijklmnopqrstuvwxyz0123456789+/=ABCD")
					b[at] = byte(c)
					if second >= len(b) {
						continue
					}
					if second >= 0 {
						b[second] = '"'
					}
					for _, from := range []int{0, 3} {
						want := from + (len(b)-from)/8*8 // no stop: the tail
						if special && at >= from && at < want {
							want = at
						} else if second >= 0 && second >= from && second < want {
							want = second
						}
						if got := plainRun(b, from, high); got != want {
							t.Fatalf("byte %#x at %d, '\"' at %d, from %d (high %#x): plainRun %d, want %d", c, at, second, from, high, got, want)
						}
					}
				}
			}
		}
	}
}

// TestMembersStringEnd: Members finds where each string value ends past
// escaped quotes and runs of backslashes, and reports a string that does
// not end.
func TestMembersStringEnd(t *testing.T) {
	doc := `{"a":"x\"y","b":"\\","c":"\\\"\\","d":["\"",{"e":"}"}],"f":""}`
	var got []string
	if err := Members([]byte(doc), func(name string, raw []byte) bool {
		got = append(got, name+"="+string(raw))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{`a="x\"y"`, `b="\\"`, `c="\\\"\\"`, `d=["\"",{"e":"}"}]`, `f=""`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Members: %q, want %q", got, want)
	}
	for _, bad := range []string{`{"a":"x\"}`, `{"a":"x`, `{"a":"\\\"}`} {
		if err := Members([]byte(bad), func(string, []byte) bool { return true }); err == nil {
			t.Errorf("Members(%s): no error", bad)
		}
	}
}
