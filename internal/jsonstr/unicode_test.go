package jsonstr

import (
	"strings"
	"testing"
)

func TestLoneSurrogateAt(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want int
	}{
		{`{"a":"plain"}`, -1},
		{`{"a":"\u00e9\n\"\\"}`, -1},
		{`{"a":"\ud83d\ude00"}`, -1},        // a pair
		{`{"a":"\uD83D\uDE00x\ud800"}`, 19}, // a pair, then a lone high one
		{`{"a":"\ud800"}`, 6},
		{`{"a":"\ud800x"}`, 6},
		{`{"a":"\ud800\u0041"}`, 6}, // a high one followed by no low one
		{`{"a":"\ud800\ud800"}`, 6},
		{`{"a":"\ude00"}`, 6},   // a low one first
		{`{"a":"\\ud800"}`, -1}, // an escaped backslash, then text
		{`{"a":"\\\ud800"}`, 8}, // an escaped backslash, then the escape
		{`{"\udc00":1}`, 2},     // in a key
		{`{"a":"\ud800\u`, 6},   // cut short (not JSON; still no panic)
		{`"\ud83d\ude0`, 1},     // cut inside the low half
	} {
		if got := LoneSurrogateAt([]byte(c.doc)); got != c.want {
			t.Errorf("LoneSurrogateAt(%s) = %d, want %d", c.doc, got, c.want)
		}
	}
}

func TestPointerAt(t *testing.T) {
	doc := `{"a":1,"b":{"c":[10,"x\ud800",{"d/e~":"\ud800"}]},"f":"g"}`
	for _, c := range []struct {
		at   string // the text whose first byte is the offset
		want string
	}{
		{`1,`, "/a"},
		{`10`, "/b/c/0"},
		{`"x\ud800"`, "/b/c/1"},
		{`"\ud800"}`, "/b/c/2/d~1e~0"},
		{`"g"`, "/f"},
	} {
		off := strings.Index(doc, c.at)
		if got := PointerAt([]byte(doc), off); got != c.want {
			t.Errorf("PointerAt(%q) = %q, want %q", c.at, got, c.want)
		}
	}
	// A key that is not Unicode text is named as written.
	bad := `{"k":{"\udc00x":"\ud800"}}`
	if got := PointerAt([]byte(bad), strings.LastIndex(bad, `\ud800`)); got != `/k/\udc00x` {
		t.Errorf("PointerAt in a key with a lone surrogate = %q", got)
	}
	if got := PointerAt([]byte(`"s"`), 0); got != "" {
		t.Errorf("PointerAt of a top-level string = %q, want \"\"", got)
	}
	if got := PointerAt([]byte(`{"a":`), 5); got != "" {
		t.Errorf("PointerAt of broken JSON = %q, want \"\"", got)
	}
}
