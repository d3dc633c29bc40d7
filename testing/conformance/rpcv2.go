package conformance

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// RPCv2CBOR runs the smithy.protocols#rpcv2Cbor client cases (those of
// smithy-protocol-tests and the awsQueryCompatible ones of
// smithy-aws-protocol-tests).
func RPCv2CBOR(shared string) Result {
	return runRPC(shared, "rpcv2Cbor", protocol.RPCv2CBOR, protocol.NewRPCv2CBOR)
}

// RPCv2JSON runs the smithy.protocols#rpcv2Json client cases.
func RPCv2JSON(shared string) Result {
	return runRPC(shared, "rpcv2Json", protocol.RPCv2JSON, protocol.NewRPCv2JSON)
}

// isCBOR reports whether a media type is CBOR.
func isCBOR(mediaType string) bool { return strings.Contains(mediaType, "cbor") }

// caseBody is the body of a test case: CBOR bodies are written in base64.
func caseBody(tc model.Node) []byte {
	body := field(tc, "body")
	if isCBOR(field(tc, "bodyMediaType")) {
		if b, err := base64.StdEncoding.DecodeString(body); err == nil {
			return b
		}
	}
	return []byte(body)
}

// cborDiff compares two CBOR bodies as values (map order, integer and float
// widths ignored; a float and an integer of the same value are equal) and
// describes the first difference.
func cborDiff(got []byte, wantB64 string) string {
	want, err := base64.StdEncoding.DecodeString(wantB64)
	if err != nil {
		return fmt.Sprintf("expected body is not base64: %v", err)
	}
	if len(want) == 0 || len(got) == 0 {
		if len(want) != len(got) {
			return fmt.Sprintf("body %s, want %s", cbor.Diagnostic(got), cbor.Diagnostic(want))
		}
		return ""
	}
	g, err := cborTree(got)
	if err != nil {
		return fmt.Sprintf("invalid CBOR body: %v (%s)", err, cbor.Diagnostic(got))
	}
	w, err := cborTree(want)
	if err != nil {
		return fmt.Sprintf("invalid expected CBOR: %v", err)
	}
	if d := treeDiff("", g, w); d != "" {
		return fmt.Sprintf("body: %s (got %s, want %s)", d, cbor.Diagnostic(got), cbor.Diagnostic(want))
	}
	return ""
}

type cborTagged struct {
	tag uint64
	v   any
}

func cborTree(b []byte) (any, error) {
	r := cbor.NewReader(b)
	v, err := cborItem(r)
	if err == nil && !r.AtEnd() {
		err = fmt.Errorf("data after the first item")
	}
	return v, err
}

func cborItem(r *cbor.Reader) (any, error) {
	if r.IsNull() {
		return nil, nil
	}
	major, info, err := r.Peek()
	if err != nil {
		return nil, err
	}
	switch major {
	case cbor.MajorText:
		s, err := r.Text()
		return string(s), err
	case cbor.MajorBytes:
		b, err := r.Bytes()
		return b, err
	case cbor.MajorArray:
		out := []any{}
		err := r.Array(func(int) error {
			v, err := cborItem(r)
			out = append(out, v)
			return err
		})
		return out, err
	case cbor.MajorMap:
		out := map[string]any{}
		err := r.Map(func(k []byte) error {
			v, err := cborItem(r)
			out[string(k)] = v
			return err
		})
		return out, err
	case cbor.MajorSimple:
		if info == 20 || info == 21 {
			return r.Bool()
		}
	case cbor.MajorTag:
		if info != cbor.TagPosBignum && info != cbor.TagNegBignum && info != cbor.TagDecimal {
			tag, _, err := r.Tag()
			if err != nil {
				return nil, err
			}
			v, err := cborItem(r)
			return cborTagged{tag, v}, err
		}
	}
	return r.Number()
}

func treeDiff(path string, g, w any) string {
	at := orRoot(path)
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %v, want a map", at, g)
		}
		keys := make([]string, 0, len(wv))
		for k := range wv {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			y, ok := gv[k]
			if !ok {
				return fmt.Sprintf("%s.%s: missing", at, k)
			}
			if d := treeDiff(path+"."+k, y, wv[k]); d != "" {
				return d
			}
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				return fmt.Sprintf("%s.%s: unexpected", at, k)
			}
		}
		return ""
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", at, g, w)
		}
		for i := range wv {
			if d := treeDiff(fmt.Sprintf("%s[%d]", path, i), gv[i], wv[i]); d != "" {
				return d
			}
		}
		return ""
	case cborTagged:
		gv, ok := g.(cborTagged)
		if !ok || gv.tag != wv.tag {
			return fmt.Sprintf("%s: got %v, want tag %d", at, g, wv.tag)
		}
		return treeDiff(fmt.Sprintf("%s(%d)", path, wv.tag), gv.v, wv.v)
	case []byte:
		if gv, ok := g.([]byte); !ok || !bytes.Equal(gv, wv) {
			return fmt.Sprintf("%s: got %v, want h'%x'", at, g, wv)
		}
		return ""
	case cbor.Number:
		gv, ok := g.(cbor.Number)
		if !ok || !numEqual(gv, wv) {
			return fmt.Sprintf("%s: got %v, want %s", at, g, cbor.AppendNumber(nil, wv))
		}
		return ""
	}
	if fmt.Sprintf("%T %v", g, g) != fmt.Sprintf("%T %v", w, w) {
		return fmt.Sprintf("%s: got %v, want %v", at, g, w)
	}
	return ""
}

// numEqual compares numbers by value; floats of different widths compare
// at the narrower width, NaN equals NaN.
func numEqual(a, b cbor.Number) bool {
	if a.Kind == cbor.NumFloat && b.Kind == cbor.NumFloat {
		if math.IsNaN(a.F) || math.IsNaN(b.F) {
			return math.IsNaN(a.F) && math.IsNaN(b.F)
		}
		if a.Bits <= 32 || b.Bits <= 32 {
			return float32(a.F) == float32(b.F)
		}
		return a.F == b.F
	}
	x, ok1 := numBig(a)
	y, ok2 := numBig(b)
	return ok1 && ok2 && x.Cmp(y) == 0
}

func numBig(n cbor.Number) (*big.Float, bool) {
	switch n.Kind {
	case cbor.NumFloat:
		if math.IsNaN(n.F) || math.IsInf(n.F, 0) {
			return nil, false
		}
		return new(big.Float).SetFloat64(n.F), true
	case cbor.NumDecimal:
		f, _, err := big.ParseFloat(string(cbor.AppendNumber(nil, n)), 10, 512, big.ToNearestEven)
		return f, err == nil
	}
	return new(big.Float).SetPrec(512).SetInt(n.BigInt()), true
}
