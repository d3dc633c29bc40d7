package protocol

import (
	"context"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const xmlBenchModel = `$version: "2"
namespace bench.xml

use aws.protocols#restXml

@restXml
service Bench { version: "1", operations: [Echo] }

@http(method: "POST", uri: "/echo")
operation Echo { input: Doc, output: Doc }

structure Doc {
    Items: Items
    Created: Timestamp
}
list Items { @xmlName("Item") member: Item }
structure Item {
    Id: Long
    Name: String
    Price: Double
    When: Timestamp
    Data: Blob
    Tags: Tags
}
list Tags { member: String }
`

// The encoding/xml equivalent of Doc.
type xmlBenchDoc struct {
	XMLName xml.Name       `xml:"EchoOutput"`
	Items   []xmlBenchItem `xml:"Items>Item"`
	Created time.Time      `xml:"Created"`
}

type xmlBenchItem struct {
	ID    int64     `xml:"Id"`
	Name  string    `xml:"Name"`
	Price float64   `xml:"Price"`
	When  time.Time `xml:"When"`
	Data  []byte    `xml:"Data"`
	Tags  []string  `xml:"Tags>member"`
}

// xmlBenchBody is an EchoOutput document of about size bytes.
func xmlBenchBody(size int) []byte {
	var b strings.Builder
	b.WriteString(`<EchoOutput><Items>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<Item><Id>%d</Id><Name>item &amp; number %d</Name><Price>%d.25</Price><When>2024-05-01T12:00:00.5Z</When>`+
			`<Data>aGVsbG8gd29ybGQ=</Data><Tags><member>red</member><member>blue</member></Tags></Item>`, i, i, i)
	}
	b.WriteString(`</Items><Created>2024-05-01T12:00:00Z</Created></EchoOutput>`)
	return []byte(b.String())
}

func xmlBenchSetup(b *testing.B) (Codec, *model.Operation) {
	l := model.NewLoader()
	l.AddSource("bench.smithy", []byte(xmlBenchModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	svc, _ := m.Service("bench.xml#Bench")
	c, err := New(m, svc)
	if err != nil {
		b.Fatal(err)
	}
	op, _ := svc.Operation("Echo")
	return c, op
}

// BenchmarkXMLDecode compares the restXml decoder (XML to the document
// form, driven by the compiled shapes) with encoding/xml's Unmarshal into
// the equivalent Go struct.
func BenchmarkXMLDecode(b *testing.B) {
	c, op := xmlBenchSetup(b)
	for _, size := range []int{1 << 10, 1 << 20} {
		body := xmlBenchBody(size)
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run(name+"/smithycurl", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: body}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-xml", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var d xmlBenchDoc
				if err := xml.Unmarshal(body, &d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkXMLEncode compares the restXml encoder (document form to XML)
// with encoding/xml's Marshal of the equivalent Go struct.
func BenchmarkXMLEncode(b *testing.B) {
	c, op := xmlBenchSetup(b)
	for _, size := range []int{1 << 10, 1 << 20} {
		body := xmlBenchBody(size)
		doc, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200, Body: body})
		if err != nil {
			b.Fatal(err)
		}
		var typed xmlBenchDoc
		if err := xml.Unmarshal(body, &typed); err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run(name+"/smithycurl", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := c.EncodeRequest(context.Background(), op, doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-xml", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := xml.Marshal(&typed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
