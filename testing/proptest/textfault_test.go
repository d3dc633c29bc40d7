package proptest

import (
	"context"
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// textFaults break a valid input's JSON text at byte i, a byte inside a
// string when inString: bytes that are not UTF-8, an escaped lone
// surrogate, a byte deleted, a stray byte of JSON's syntax inserted.
var textFaults = []func(text []byte, i int, r *rand.Rand) []byte{
	func(b []byte, i int, r *rand.Rand) []byte {
		return splice(b, i, i, [][]byte{{0xff}, {0xc3}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}}[r.Intn(4)])
	},
	func(b []byte, i int, r *rand.Rand) []byte {
		return splice(b, i, i, []byte([]string{`\ud800`, `\udfff`, `\ud83d\u0041`, `\ud83d`}[r.Intn(4)]))
	},
	func(b []byte, i int, _ *rand.Rand) []byte { return splice(b, i, i+1, nil) },
	func(b []byte, i int, r *rand.Rand) []byte { return splice(b, i, i, []byte{`{}[],:"\x`[r.Intn(9)]}) },
}

func splice(b []byte, from, to int, with []byte) []byte {
	out := append(append([]byte{}, b[:from]...), with...)
	return append(out, b[to:]...)
}

// stringBytes are the offsets of the bytes inside the strings of text
// (valid JSON).
func stringBytes(text []byte) []int {
	var at []int
	in := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case in && c == '\\':
			at = append(at, i)
			i++
		case c == '"':
			in = !in
		case in:
			at = append(at, i)
		}
	}
	return at
}

// TestTextFaultsRefused: the codec's scan is the only check of an input's
// text (the client and the C API no longer run jsonstr.CheckText or
// json.Valid before it), so every input whose text is not UTF-8, escapes
// a lone surrogate or is not JSON must be refused by EncodeRequest, in
// every protocol: a valid input broken in one byte of its text, in a
// string or anywhere.
func TestTextFaultsRefused(t *testing.T) {
	propertyTests(t)
	tgs := targets(t)
	ran := 0
	codecs := map[*model.Service]protocol.Codec{}
	for _, tg := range tgs {
		codec := codecs[tg.svc]
		if codec == nil {
			codec = tg.p.NewCodec(tg.m, tg.svc, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
			codecs[tg.svc] = codec
		}
		for i := 0; i < *nFlag; i++ {
			g := newGen(tg, caseSeed(*seedFlag, tg, "textfault", i))
			in := g.Input(tg.op)
			if g.Unsat {
				continue
			}
			text := Encode(in)
			if _, err := codec.EncodeRequest(context.Background(), tg.op, text); err != nil {
				continue // refused whole (a property of its own)
			}
			for f, fault := range textFaults {
				at := stringBytes(text)
				if f >= 2 || len(at) == 0 {
					at = nil
					for j := range text {
						at = append(at, j)
					}
				}
				broken := fault(text, at[g.R.Intn(len(at))], g.R)
				if jsonstr.CheckText(broken) == "" && json.Valid(broken) {
					continue // still valid text: not a fault
				}
				ran++
				if req, err := codec.EncodeRequest(context.Background(), tg.op, broken); err == nil {
					t.Errorf("%s: accepted the broken text %q (fault %d): request %s", tg, broken, f, dumpRequest(req))
				}
			}
		}
	}
	t.Logf("%d operations, %d broken texts", len(tgs), ran)
}
