package jsonstr

import "testing"

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{`plain`, "plain", ""},
		{`a\"b\\c\/d\b\f\n\r\t`, "a\"b\\c/d\b\f\n\r\t", ""},
		{`\u00e9\u20AC`, "é€", ""},
		{`x\ud83d\ude00y`, "x😀y", ""},
		{`\ud83dz`, "\uFFFDz", ""},
		{`\ude00\u0041`, "\uFFFDA", ""},
		{`\q`, "", `invalid escape \q`},
		{`ab\`, "", "unterminated escape"},
		{`\u12`, "", `invalid \u escape`},
		{`\u12g4`, "", `invalid \u escape`},
	} {
		got, err := Unescape(nil, tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("Unescape(%q) err = %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || string(got) != tc.want):
			t.Errorf("Unescape(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
