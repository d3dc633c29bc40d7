package protocol

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bytedance/sonic"
	fxcbor "github.com/fxamacker/cbor/v2"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const benchModel = `$version: "2"
namespace bench

use aws.protocols#restJson1

@restJson1
service Bench { version: "1", operations: [Echo] }

@http(method: "POST", uri: "/echo")
operation Echo { input: Doc, output: Doc }

structure Doc {
    items: Items
    tags: TagMap
    created: Timestamp
    blob: Blob
}
list Items { member: Item }
structure Item {
    id: Long
    name: String
    price: Double
    when: Timestamp
    data: Blob
    attrs: TagMap
    kind: Kind
}
map TagMap { key: String, value: String }
union Kind { text: String, num: Integer }
`

// The typed Go equivalent for sonic's own round trip.
type benchDoc struct {
	Items   []benchItem       `json:"items"`
	Tags    map[string]string `json:"tags"`
	Created time.Time         `json:"created"`
	Blob    []byte            `json:"blob"`
}

type benchItem struct {
	ID    int64             `json:"id"`
	Name  string            `json:"name"`
	Price float64           `json:"price"`
	When  time.Time         `json:"when"`
	Data  []byte            `json:"data"`
	Attrs map[string]string `json:"attrs"`
	Kind  benchKind         `json:"kind"`
}

type benchKind struct {
	Text *string `json:"text,omitempty"`
	Num  *int32  `json:"num,omitempty"`
}

// benchInput builds a document-form input of about size bytes.
func benchInput(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"tags":{"env":"prod","team":"core"},"created":"2024-05-01T12:30:45.123Z","blob":"`)
	b.WriteString(base64.StdEncoding.EncodeToString([]byte("hello blob")))
	b.WriteString(`","items":[`)
	for i := 0; b.Len() < size-220 || i == 0; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		kind := fmt.Sprintf(`{"text":"t%d"}`, i)
		if i%2 == 1 {
			kind = fmt.Sprintf(`{"num":%d}`, i)
		}
		when := time.Unix(int64(1700000000+i), 0).UTC().Format(time.RFC3339)
		fmt.Fprintf(&b, `{"id":%d,"name":"item %d","price":%d.25,"when":"%s","data":"AAECAw==","attrs":{"a":"x","b":"y"},"kind":%s}`,
			i, i, i, when, kind)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func benchRoundTrip(b *testing.B, size int, opts ...Option) {
	benchProtocol(b, size, "", opts...)
}

// benchProtocol round-trips the benchmark document through the codec of
// the Bench service with the given protocol trait ("" for restJson1).
func benchProtocol(b *testing.B, size int, trait model.ShapeID, opts ...Option) {
	src := benchModel
	if trait != "" {
		src = strings.Replace(src, "@restJson1\nservice Bench", "@"+string(trait)+"\nservice Bench", 1)
	}
	l := model.NewLoader()
	l.AddSource("bench.smithy", []byte(src))
	l.AddSource("aws.protocols.smithy", []byte("$version: \"2\"\nnamespace aws.protocols\n@trait(selector: \"service\")\n@protocolDefinition\nstructure restJson1 {}\n"))
	m, _, err := l.Load(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	svc, _ := m.Service("bench#Bench")
	op, _ := svc.Operation("Echo")
	c, err := New(m, svc, opts...)
	if err != nil {
		b.Fatal(err)
	}
	input := benchInput(size)
	ctx := context.Background()
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req, err := c.EncodeRequest(ctx, op, input)
		if err != nil {
			b.Fatal(err)
		}
		resp := wire.Response{Status: 200, Header: wire.Header{"Content-Type": req.Header["Content-Type"],
			"Smithy-Protocol": req.Header["Smithy-Protocol"]}, Body: req.Body}
		if _, err := c.DecodeResponse(ctx, op, &resp); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSonic(b *testing.B, size int) {
	var doc benchDoc
	if err := sonic.Unmarshal(benchInput(size), &doc); err != nil {
		b.Fatal(err)
	}
	data, _ := sonic.Marshal(&doc)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := sonic.Marshal(&doc)
		if err != nil {
			b.Fatal(err)
		}
		var back benchDoc
		if err := sonic.Unmarshal(out, &back); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRoundTrip1KB(b *testing.B)             { benchRoundTrip(b, 1<<10) }
func BenchmarkRoundTrip1MB(b *testing.B)             { benchRoundTrip(b, 1<<20) }
func BenchmarkRoundTrip1KBNoValidation(b *testing.B) { benchRoundTrip(b, 1<<10, WithoutValidation()) }
func BenchmarkRoundTrip1MBNoValidation(b *testing.B) { benchRoundTrip(b, 1<<20, WithoutValidation()) }
func BenchmarkSonicTyped1KB(b *testing.B)            { benchSonic(b, 1<<10) }
func BenchmarkSonicTyped1MB(b *testing.B)            { benchSonic(b, 1<<20) }

func BenchmarkRPCv2CBOR1KB(b *testing.B)   { benchProtocol(b, 1<<10, RPCv2CBOR) }
func BenchmarkRPCv2CBOR1MB(b *testing.B)   { benchProtocol(b, 1<<20, RPCv2CBOR) }
func BenchmarkRPCv2JSON1KB(b *testing.B)   { benchProtocol(b, 1<<10, RPCv2JSON) }
func BenchmarkRPCv2JSON1MB(b *testing.B)   { benchProtocol(b, 1<<20, RPCv2JSON) }
func BenchmarkAWSJSON1KB(b *testing.B)     { benchProtocol(b, 1<<10, AWSJSON1_0) }
func BenchmarkAWSJSON1MB(b *testing.B)     { benchProtocol(b, 1<<20, AWSJSON1_0) }
func BenchmarkFxCBORTyped1KB(b *testing.B) { benchFxCBOR(b, 1<<10) }
func BenchmarkFxCBORTyped1MB(b *testing.B) { benchFxCBOR(b, 1<<20) }

// benchFxCBOR is fxamacker/cbor's own Marshal and Unmarshal of the typed Go
// equivalent of the document (timestamps as tag 1, the decoder limits set
// as for untrusted input).
func benchFxCBOR(b *testing.B, size int) {
	var doc benchDoc
	if err := sonic.Unmarshal(benchInput(size), &doc); err != nil {
		b.Fatal(err)
	}
	em, err := fxcbor.EncOptions{Time: fxcbor.TimeUnixDynamic, TimeTag: fxcbor.EncTagRequired}.EncMode()
	if err != nil {
		b.Fatal(err)
	}
	dm, err := fxcbor.DecOptions{MaxNestedLevels: 512, MaxArrayElements: 1 << 24, MaxMapPairs: 1 << 24}.DecMode()
	if err != nil {
		b.Fatal(err)
	}
	data, _ := em.Marshal(&doc)
	b.SetBytes(int64(len(benchInput(size))))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := em.Marshal(&doc)
		if err != nil {
			b.Fatal(err)
		}
		var back benchDoc
		if err := dm.Unmarshal(out, &back); err != nil {
			b.Fatal(err)
		}
	}
	_ = data
}
