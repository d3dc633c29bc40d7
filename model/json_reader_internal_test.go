package model

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
)

// scanStringByBytes is what jsonParser.str does, one byte at a time: the
// string's value, or the offset and message of its error.
func scanStringByBytes(src string) (string, int, string) {
	i := 1
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case c == '"':
			if s := src[1:i]; !utf8.ValidString(s) {
				return "", i + 1, "invalid UTF-8 in string"
			}
			return src[1:i], 0, ""
		case c < 0x20:
			return "", i, "control character in string"
		case c == '\\':
			end := i
			for ; end < len(src) && src[end] != '"'; end++ {
				if src[end] == '\\' {
					end++
				} else if src[end] < 0x20 {
					return "", end, "control character in string"
				}
			}
			if end >= len(src) {
				return "", len(src), "unterminated string"
			}
			buf, err := jsonstr.Unescape(nil, src[1:end])
			if err != nil {
				return "", 1 + err.(*jsonstr.Error).Offset, err.Error()
			}
			if !utf8.Valid(buf) {
				return "", end + 1, "invalid UTF-8 in string"
			}
			return string(buf), 0, ""
		}
	}
	return "", len(src), "unterminated string"
}

// TestJSONStringScan: the parser's string reader, which skips plain runs
// eight bytes at a time, reads every string as a byte-at-a-time reader does:
// quotes, backslashes, control characters and non-ASCII bytes at every
// place of a word, with and without a slab for unescaped strings.
func TestJSONStringScan(t *testing.T) {
	pieces := []string{"a", "b", "0123456", `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\x`, "\x01", "\t",
		"é", "😀", "\xff", "\xc3", `"`, `\`}
	rng := rand.New(rand.NewSource(1))
	for n := range 20000 {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.Intn(12) {
			if rng.Intn(3) == 0 {
				b.WriteString(pieces[rng.Intn(len(pieces))])
			} else {
				b.WriteString(strings.Repeat("x", rng.Intn(9)))
			}
		}
		if rng.Intn(8) != 0 {
			b.WriteByte('"')
		}
		src := b.String()
		want, wantOff, wantMsg := scanStringByBytes(src)
		p := jsonParser{src: src}
		if n%2 == 0 {
			p.bytes = &byteSlab{}
		}
		got, err := p.str()
		gotOff, gotMsg := 0, ""
		if err != nil {
			gotOff, gotMsg = err.(*JSONSyntaxError).Offset, err.(*JSONSyntaxError).Msg
		}
		if got != want || gotOff != wantOff || gotMsg != wantMsg {
			t.Fatalf("%q: got %q, error at %d %q; want %q, error at %d %q", src, got, gotOff, gotMsg, want, wantOff, wantMsg)
		}
	}
}
