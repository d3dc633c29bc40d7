package cbor

import (
	"encoding/hex"
	"math/big"
	"testing"
)

// Examples of RFC 8949 appendix A, in diagnostic notation.
func TestDiagnosticRFCExamples(t *testing.T) {
	for hexIn, want := range map[string]string{
		"00":                         "0",
		"1903e8":                     "1000",
		"1bffffffffffffffff":         "18446744073709551615",
		"3bffffffffffffffff":         "-18446744073709551616",
		"c249010000000000000000":     "2(h'010000000000000000')",
		"f90000":                     "0.0",
		"f93c00":                     "1.0",
		"f97bff":                     "65504.0",
		"f90001":                     "5.960464477539063e-08",
		"f97c00":                     "Infinity",
		"f97e00":                     "NaN",
		"f9fc00":                     "-Infinity",
		"fb3ff199999999999a":         "1.1",
		"fb7e37e43c8800759c":         "1e+300",
		"f4":                         "false",
		"f7":                         "undefined",
		"f0":                         "simple(16)",
		"c11a514b67b0":               "1(1363896240)",
		"4401020304":                 "h'01020304'",
		"62225c":                     `"\"\\"`,
		"83010203":                   "[1, 2, 3]",
		"a201020304":                 "{1: 2, 3: 4}",
		"5f42010243030405ff":         "(_ h'0102', h'030405')",
		"7f657374726561646d696e67ff": `(_ "strea", "ming")`,
		"9fff":                       "[_ ]",
		"bf61610161629f0203ffff":     `{_ "a": 1, "b": [_ 2, 3]}`,
		"c48221196ab3":               "4([-2, 27315])",
		"8301":                       "[] <error: CBOR at byte 1: declared length 3 is longer than the data>",
	} {
		b, _ := hex.DecodeString(hexIn)
		if got := Diagnostic(b); got != want {
			t.Errorf("%s: got %s, want %s", hexIn, got, want)
		}
	}
}

func TestNumbersAndJSON(t *testing.T) {
	for hexIn, want := range map[string]string{
		"c48221196ab3":           "273.15",
		"c249010000000000000000": "18446744073709551616",
		"c349010000000000000000": "-18446744073709551617",
		"f93e00":                 "1.5",
		"fa7f800000":             `"Infinity"`,
		"a26161f6616282f5f4":     `{"a":null,"b":[true,false]}`,
		"4401020304":             `"AQIDBA=="`,
		"c11a514b67b0":           "1363896240",
	} {
		b, _ := hex.DecodeString(hexIn)
		r := NewReader(b)
		out, err := r.AppendJSON(nil)
		if err != nil || string(out) != want {
			t.Errorf("%s: got %s %v, want %s", hexIn, out, err, want)
		}
	}
}

func TestWriterShortestHeads(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{3, "83"}, {24, "9818"}, {300, "99012c"}} {
		dst, mark := StartContainer([]byte{0xaa})
		for i := 0; i < tc.n; i++ {
			dst = append(dst, 0)
		}
		dst = EndContainer(dst, mark, MajorArray, tc.n)
		if got := hex.EncodeToString(dst[:1+len(tc.want)/2]); got != "aa"+tc.want || len(dst) != 1+len(tc.want)/2+tc.n {
			t.Errorf("%d items: head %s, len %d", tc.n, got, len(dst))
		}
	}
	v, _ := new(big.Int).SetString("-18446744073709551617", 10)
	if got := hex.EncodeToString(AppendBigInt(nil, v)); got != "c349010000000000000000" {
		t.Errorf("bignum %s", got)
	}
}

func TestLimits(t *testing.T) {
	deep := make([]byte, MaxDepth+1)
	for i := range deep {
		deep[i] = 0x81
	}
	deep = append(deep, 0)
	if err := NewReader(deep).Skip(); err == nil {
		t.Error("nesting past MaxDepth was read")
	}
	huge, _ := hex.DecodeString("9bffffffffffffffff")
	if err := NewReader(huge).Skip(); err == nil {
		t.Error("an array of 2^64-1 items in 9 bytes was read")
	}
}
