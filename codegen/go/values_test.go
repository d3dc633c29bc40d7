package gogen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/codegen/go/internal/badnames"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

func ptr[T any](v T) *T { return &v }

// TestDocumentForm checks every kind of value of a generated package
// against its document form, both ways: NaN and infinities as strings
// (also inside lists, sparse lists and unions), big numbers with every
// digit, base64 blobs, RFC 3339 timestamps, raw documents, recursion and
// a one-member union.
func TestDocumentForm(t *testing.T) {
	kind := badnames.KindAB
	in := &badnames.Client2{
		Type: ptr("t"), Default: ptr("d"), Range: ptr("r"), String: ptr("s"), MarshalJSON2: ptr("m"),
		Req:     math.NaN(),
		ReqNode: &badnames.Node{Next: &badnames.Node{Value: ptr(float32(math.Inf(-1)))}, U: &badnames.OneMemberOnly{Value: math.Inf(1)}},
		ReqList: []float32{1.5, float32(math.Inf(1))},
		Big:     new(big.Int).Lsh(big.NewInt(1), 100),
		Dec:     ptr(typed.Decimal("1.000000000000000000000000001")),
		When:    ptr(time.Date(2024, 5, 1, 12, 0, 0, 500_000_000, time.UTC)),
		Doc:     typed.Document(`{"any":["json",1,null]}`),
		Data:    []byte("hello"),
		Sparse:  []*float64{nil, ptr(math.NaN())},
		One:     &badnames.OneMemberOnly{Value: 2},
		FooBar2: &badnames.FooBar2{B: ptr("b")},
		Kind:    &kind,
		Num:     ptr(badnames.NumString),
	}
	want := `{"type":"t","default":"d","range":"r","String":"s","MarshalJSON":"m",` +
		`"one":{"only":2},"req":"NaN","reqNode":{"next":{"value":"-Infinity"},"u":{"only":"Infinity"}},` +
		`"reqList":[1.5,"Infinity"],"big":1267650600228229401496703205376,"dec":1.000000000000000000000000001,` +
		`"when":"2024-05-01T12:00:00.5Z","doc":{"any":["json",1,null]},"data":"aGVsbG8=","sparse":[null,"NaN"],` +
		`"foo_bar":{"b":"b"},"kind":"a-b","num":2}`
	got, err := typed.JSON.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, got, want) {
		t.Errorf("marshal:\n got %s\nwant %s", got, want)
	}
	var back badnames.Client2
	if err := typed.JSON.Unmarshal([]byte(want), &back); err != nil {
		t.Fatal(err)
	}
	again, err := typed.JSON.Marshal(&back)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, again, want) {
		t.Errorf("round trip:\n got %s\nwant %s", again, want)
	}
	if u, ok := back.ReqNode.U.(*badnames.OneMemberOnly); !ok || !math.IsInf(u.Value, 1) {
		t.Errorf("union in a recursive structure: %#v", back.ReqNode.U)
	}
	if back.Sparse[0] != nil || !math.IsNaN(*back.Sparse[1]) {
		t.Errorf("sparse list %v", back.Sparse)
	}
	// A member this client does not know is kept, and written back in the
	// document form's unknown-member form (which the library refuses to send).
	for _, in := range []string{`{"one":{"$unknown":["newer",{"x":[1]}]}}`, `{"one":{"newer":{"x":[1]}}}`} {
		var unk badnames.Client2
		if err := typed.JSON.Unmarshal([]byte(in), &unk); err != nil {
			t.Fatal(err)
		}
		u, ok := unk.One.(*badnames.OneUnknown)
		if !ok || u.Tag != "newer" || string(u.Value) != `{"x":[1]}` {
			t.Fatalf("unknown member: %#v", unk.One)
		}
		if b, _ := typed.JSON.Marshal(&unk); !sameJSON(t, b, `{"one":{"$unknown":["newer",{"x":[1]}]},"req":0,"reqNode":null,"reqList":null}`) {
			t.Errorf("unknown member written as %s", b)
		}
	}
	var unk badnames.Client2
	if err := typed.JSON.Unmarshal([]byte(`{"one":{"only":1,"newer":2}}`), &unk); err == nil {
		t.Error("a union with two members was accepted")
	}
}

func sameJSON(t *testing.T, a []byte, b string) bool {
	t.Helper()
	var x, y any
	for _, c := range []struct {
		text []byte
		v    *any
	}{{a, &x}, {[]byte(b), &y}} {
		d := json.NewDecoder(bytes.NewReader(c.text))
		d.UseNumber() // every digit compared
		if err := d.Decode(c.v); err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
	}
	xa, _ := json.Marshal(x) // sorted keys
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// fakeTransport answers every request with resp and counts them.
type fakeTransport struct {
	resp *wire.Response
	sent int
}

func (f *fakeTransport) Do(context.Context, *transport.Request) (*wire.Response, error) {
	f.sent++
	return f.resp, nil
}

// TestRequiredAndErrors: a required member left nil fails before anything
// is sent and names the member; a modeled error whose members are named
// Error, Meta, Unwrap and Status comes back as its type.
func TestRequiredAndErrors(t *testing.T) {
	ft := &fakeTransport{resp: &wire.Response{Status: 400, Header: wire.Header{"X-Amzn-Errortype": {"Error"}, "X-Amzn-Requestid": {"req-1"}},
		Body: []byte(`{"Error":"e","message":"went wrong","Meta":"m","Status":7}`)}}
	c, err := badnames.New("http://127.0.0.1:1", client.WithTransport(ft), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	_, err = c.DoIt(ctx, &badnames.Client2{ReqList: []float32{}})
	if err == nil || !strings.Contains(err.Error(), "reqNode") || ft.sent != 0 {
		t.Fatalf("missing required member: err %v, sent %d", err, ft.sent)
	}
	_, err = c.DoIt(ctx, &badnames.Client2{ReqNode: &badnames.Node{}, ReqList: []float32{}})
	var e *badnames.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *badnames.Error, got %T %v", err, err)
	}
	if *e.Error2 != "e" || *e.Meta2 != "m" || *e.Status != 7 || *e.Message != "went wrong" {
		t.Errorf("members %+v", e)
	}
	if e.ErrorMeta.Status != 400 || e.ErrorMeta.Message != "went wrong" || e.RequestID != "req-1" || e.Meta().Shape != "test.bad#Error" {
		t.Errorf("meta %+v", e.ErrorMeta)
	}
	if !strings.Contains(err.Error(), "went wrong") {
		t.Errorf("Error() = %q", err.Error())
	}
}

// A union member this model does not know, in a response, came out nil
// (the document form dropped it); it is a OneUnknown with its name and
// value, and sending it back fails naming the member before anything is
// sent.
func TestUnknownUnionMember(t *testing.T) {
	ft := &fakeTransport{resp: &wire.Response{Status: 200, Header: wire.Header{"Content-Type": {"application/json"}},
		Body: []byte(`{"one":{"newer":{"x":[1,"y"]}}}`)}}
	c, err := badnames.New("http://127.0.0.1:1", client.WithTransport(ft), client.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	out, err := c.DoIt(ctx, &badnames.Client2{ReqNode: &badnames.Node{}, ReqList: []float32{}})
	if err != nil {
		t.Fatal(err)
	}
	u, ok := out.One.(*badnames.OneUnknown)
	if !ok || u.Tag != "newer" || !sameJSON(t, u.Value, `{"x":[1,"y"]}`) {
		t.Fatalf("unknown member decoded as %#v", out.One)
	}
	_, err = c.DoIt(ctx, &badnames.Client2{ReqNode: &badnames.Node{U: out.One}, ReqList: []float32{}})
	if err == nil || !strings.Contains(err.Error(), `member reqNode.u: union test.bad#One: member "newer" is one this model does not know`) || ft.sent != 1 {
		t.Errorf("sending it back: err %v, sent %d; want an error naming reqNode.u and newer, nothing sent", err, ft.sent)
	}
}

// TestBadNamesUpToDate checks that the checked-in package is what gen go
// writes from testdata/badnames.smithy.
func TestBadNamesUpToDate(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("testdata", "badnames.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("test.bad#Bad")
	if err != nil {
		t.Fatal(err)
	}
	files, err := gogen.Generate(m, svc, "badnames")
	if err != nil {
		t.Fatal(err)
	}
	types := string(files[0].Data)
	for _, want := range []string{"// Client2: Input of DoIt & more.\ntype Client2 struct", "\t// Use type.\n\t//\n\t// Deprecated: use type (since 2)\n\tDefault "} {
		if !strings.Contains(types, want) {
			t.Errorf("types.go lacks %q", want)
		}
	}
	for _, f := range files {
		old, err := os.ReadFile(filepath.Join("internal", "badnames", f.Name))
		if err != nil || !bytes.Equal(old, f.Data) {
			t.Errorf("internal/badnames/%s is stale: go run ./cmd/smithycurl gen go --model codegen/go/testdata/badnames.smithy --package badnames -o codegen/go/internal/badnames", f.Name)
		}
	}
}
