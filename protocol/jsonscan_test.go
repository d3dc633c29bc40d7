package protocol

import (
	"strings"
	"testing"
)

// TestPlainRun: the 8-byte steps of a string's scan stop at the block of
// the first byte that needs a look, wherever it is, and only there.
func TestPlainRun(t *testing.T) {
	for _, nonASCII := range []bool{false, true} {
		for c := 0; c < 256; c++ {
			special := c < 0x20 || c == '"' || c == '\\' || nonASCII && c >= 0x80
			for at := 0; at < 40; at++ {
				b := []byte("abcdefghijklmnopqrstuvwxyz0123456789+/=ABCD")
				b[at] = byte(c)
				for _, from := range []int{0, 3} {
					want := from + (len(b)-from)/8*8 // no stop: the tail
					if special && at >= from {
						want = from + (at-from)/8*8
					}
					if got := plainRun(b, from, nonASCII); got != want {
						t.Fatalf("byte %#x at %d, from %d (nonASCII %v): plainRun %d, want %d", c, at, from, nonASCII, got, want)
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
