package protocol

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Output values are checked against their types as inputs are
// (typecheck.go), in every protocol: a value a typed client cannot hold is
// a decode error naming the member path, the value and the type's range.
// Before, the document form carried 1.5 and 2147483648 in integer members
// and 1e400 in a double (Python read inf into an int field).

const outputCheckModel = `$version: "2"
namespace example.out

use aws.protocols#restJson1
use aws.protocols#awsJson1_0
use aws.protocols#restXml
use aws.protocols#awsQuery
use aws.protocols#ec2Query
use smithy.protocols#rpcv2Cbor

@restJson1 service RestJ { version: "1", operations: [Scan] }
@awsJson1_0 service AwsJ { version: "1", operations: [Scan] }
@restXml service RestX { version: "1", operations: [Scan] }
@awsQuery @xmlNamespace(uri: "https://example.com/") service Query { version: "1", operations: [Scan] }
@ec2Query @xmlNamespace(uri: "https://example.com/") service Ec2 { version: "1", operations: [Scan] }
@rpcv2Cbor service Cbor { version: "1", operations: [Scan] }

@http(method: "POST", uri: "/scan")
operation Scan {
    output: ScanOutput
}

structure ScanOutput {
    Count: Integer
    Small: Byte
    Short: Short
    Long: Long
    Level: Level
    Ratio: Float
    Total: Double
    Big: BigInteger
    Dec: BigDecimal
    Data: Blob
    When: Timestamp
    Ok: Boolean
    Counts: Counts
    @httpHeader("X-Count") HCount: Integer
    @httpHeader("X-Ratio") HRatio: Float
    @httpHeader("X-Data") HData: Blob
    @httpHeader("X-Counts") HCounts: Counts
}

intEnum Level {
    LOW = 1
    HIGH = 2
}
list Counts { member: Integer }
`

func outputCheckCodecs(t *testing.T) (map[string]Codec, *model.Operation) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("out.smithy", []byte(outputCheckModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	codecs := map[string]Codec{}
	var op *model.Operation
	for _, name := range []string{"RestJ", "AwsJ", "RestX", "Query", "Ec2", "Cbor"} {
		svc, err := m.Service(model.ShapeID("example.out#" + name))
		if err != nil {
			t.Fatal(err)
		}
		if codecs[name], err = New(m, svc); err != nil {
			t.Fatal(err)
		}
		if op, err = svc.Operation("Scan"); err != nil {
			t.Fatal(err)
		}
	}
	return codecs, op
}

// xmlOut is the body of an XML protocol's response with one member.
func xmlOut(proto, member, text string) []byte {
	inner := "<" + member + ">" + text + "</" + member + ">"
	switch proto {
	case "Query":
		return []byte(`<ScanResponse xmlns="https://example.com/"><ScanResult>` + inner + `</ScanResult></ScanResponse>`)
	case "Ec2":
		return []byte(`<ScanResponse xmlns="https://example.com/">` + inner + `</ScanResponse>`)
	}
	return []byte(`<ScanOutput>` + inner + `</ScanOutput>`)
}

// cborOut is a CBOR map with one member.
func cborOut(member string, value []byte) []byte {
	return append(cbor.AppendText([]byte{0xa1}, member), value...)
}

func decodeOut(t *testing.T, c Codec, op *model.Operation, resp *wire.Response) ([]byte, error) {
	t.Helper()
	if resp.Header == nil {
		resp.Header = wire.Header{}
	}
	if c.Protocol() == RPCv2CBOR {
		resp.Header.Set("Smithy-Protocol", "rpc-v2-cbor")
	}
	return c.DecodeResponse(context.Background(), op, resp)
}

func TestOutputValuesAreChecked(t *testing.T) {
	codecs, op := outputCheckCodecs(t)
	type bad struct {
		member, json, want string
	}
	// The value in JSON; the XML protocols get it as text (strings
	// unquoted), CBOR as the number it is.
	bads := []bad{
		{"Count", "1.5", "member ScanOutput.Count: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
		{"Count", "2147483648", "member ScanOutput.Count: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
		{"Small", "128", "member ScanOutput.Small: 128 is out of range (byte: -128 to 127)"},
		{"Short", "-32769", "member ScanOutput.Short: -32769 is out of range (short: -32768 to 32767)"},
		{"Long", "9223372036854775808", "member ScanOutput.Long: 9223372036854775808 is out of range (long: -9223372036854775808 to 9223372036854775807)"},
		{"Level", "2147483648", "member ScanOutput.Level: 2147483648 is out of range (intEnum: -2147483648 to 2147483647)"},
		{"Ratio", "1e39", "member ScanOutput.Ratio: 1e39 is out of range (float: ±3.4028234663852886e38)"},
		{"Total", "1e400", "member ScanOutput.Total: 1e400 is out of range (double: ±1.7976931348623157e308)"},
		{"Big", "1.5", "member ScanOutput.Big: 1.5 is not a whole number (bigInteger)"},
		{"Counts", "[1, 1.5]", "member ScanOutput.Counts[1]: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
	}
	jsonOnly := []bad{
		{"Total", `"inf"`, `member ScanOutput.Total: expected a number, "NaN", "Infinity" or "-Infinity"`},
		{"Data", `"not base64!"`, "member ScanOutput.Data: invalid base64"},
		{"Ok", `"yes"`, "member ScanOutput.Ok: expected a boolean"},
		{"When", `"yesterday"`, "member ScanOutput.When: "},
		{"Dec", `"NaN"`, "member ScanOutput.Dec: expected a number"},
	}
	xmlOnly := []bad{
		{"Total", "inf", `member ScanOutput.Total: "inf" is not a number (double)`},
		{"Count", "+1", `member ScanOutput.Count: "+1" is not a number (integer)`},
		{"Data", "not base64!", "member ScanOutput.Data: invalid base64"},
		{"Ok", "yes", `member ScanOutput.Ok: "yes" is not a boolean`},
		{"Dec", "NaN", `member ScanOutput.Dec: "NaN" is not a number (bigDecimal)`},
	}
	check := func(name, what string, resp *wire.Response, want string) {
		t.Helper()
		out, err := decodeOut(t, codecs[name], op, resp)
		var re *ResponseError
		if !errors.As(err, &re) {
			t.Errorf("%s %s: decoded to %s (error %v), want a response error", name, what, out, err)
			return
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s %s: error %q, want it to say %q", name, what, err, want)
		}
	}
	for _, b := range append(bads, jsonOnly...) {
		for _, name := range []string{"RestJ", "AwsJ"} {
			check(name, b.member+"="+b.json, &wire.Response{Status: 200, Body: []byte(`{"` + b.member + `":` + b.json + `}`)}, b.want)
		}
	}
	for _, b := range append(bads, xmlOnly...) {
		if b.member == "Counts" {
			continue
		}
		text := strings.Trim(b.json, `"`)
		for _, name := range []string{"RestX", "Query", "Ec2"} {
			check(name, b.member+"="+text, &wire.Response{Status: 200, Body: xmlOut(name, b.member, text)}, b.want)
		}
	}
	// CBOR: its integers and floats checked by the same rule.
	cbors := []struct {
		member string
		value  []byte
		want   string
	}{
		{"Count", cbor.AppendFloat64(nil, 1.5), "member ScanOutput.Count: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
		{"Count", cbor.AppendInt(nil, 2147483648), "member ScanOutput.Count: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
		{"Small", cbor.AppendInt(nil, -129), "member ScanOutput.Small: -129 is out of range (byte: -128 to 127)"},
		{"Ratio", cbor.AppendFloat64(nil, 1e39), "member ScanOutput.Ratio: 1e+39 is out of range (float: ±3.4028234663852886e38)"},
		{"Count", cbor.AppendFloat64(nil, math.Inf(1)), "member ScanOutput.Count: \"Infinity\" is not a number (integer)"},
	}
	for _, b := range cbors {
		check("Cbor", b.member, &wire.Response{Status: 200, Body: cborOut(b.member, b.value)}, b.want)
	}
	// Headers of the HTTP-binding protocols.
	headers := []struct{ name, value, want string }{
		{"X-Count", "2147483648", "member ScanOutput.HCount: header X-Count: 2147483648 is out of range (integer: -2147483648 to 2147483647)"},
		{"X-Count", "1.5", "member ScanOutput.HCount: header X-Count: 1.5 is not a whole number"},
		{"X-Ratio", "1e39", "member ScanOutput.HRatio: header X-Ratio: 1e39 is out of range (float: ±3.4028234663852886e38)"},
		{"X-Data", "a-b_", "member ScanOutput.HData: header X-Data: invalid base64"},
		{"X-Counts", "1, 99999999999", "member ScanOutput.HCounts[1]: header X-Counts: 99999999999 is out of range"},
	}
	for _, h := range headers {
		for _, name := range []string{"RestJ", "RestX"} {
			check(name, h.name, &wire.Response{Status: 200, Header: wire.Header{h.name: {h.value}}}, h.want)
		}
	}
}

// The edge values of every type still decode, in every protocol.
func TestOutputEdgeValuesDecode(t *testing.T) {
	codecs, op := outputCheckCodecs(t)
	goods := []struct{ member, json, doc string }{
		{"Count", "-2147483648", "-2147483648"},
		{"Count", "2147483647", "2147483647"},
		{"Count", "1.0", "1"},
		{"Count", "1e2", "100"},
		{"Small", "-128", "-128"},
		{"Long", "9223372036854775807", "9223372036854775807"},
		{"Level", "7", "7"},
		{"Ratio", "3.4028234663852886e38", "3.4028234663852886e38"},
		{"Total", `"-Infinity"`, `"-Infinity"`},
		{"Total", `"NaN"`, `"NaN"`},
		{"Total", "1.7976931348623157e308", "1.7976931348623157e308"},
		{"Total", "1e-400", "1e-400"},
		{"Big", "123456789012345678901234567890", "123456789012345678901234567890"},
		{"Dec", "1.5e400", "1.5e400"},
		{"Data", `"aGk="`, `"aGk="`},
	}
	for _, g := range goods {
		for _, name := range []string{"RestJ", "AwsJ", "RestX", "Query"} {
			var resp *wire.Response
			if name == "RestX" || name == "Query" {
				resp = &wire.Response{Status: 200, Body: xmlOut(name, g.member, strings.Trim(g.json, `"`))}
			} else {
				resp = &wire.Response{Status: 200, Body: []byte(`{"` + g.member + `":` + g.json + `}`)}
			}
			out, err := decodeOut(t, codecs[name], op, resp)
			if want := `"` + g.member + `":` + g.doc; err != nil || !strings.Contains(string(out), want) {
				t.Errorf("%s %s=%s: got %s, %v; want %s", name, g.member, g.json, out, err, want)
			}
		}
	}
	out, err := decodeOut(t, codecs["Cbor"], op, &wire.Response{Status: 200, Body: cborOut("Total", cbor.AppendFloat64(nil, math.Inf(1)))})
	if err != nil || !strings.Contains(string(out), `"Total":"Infinity"`) {
		t.Errorf("CBOR infinity: got %s, %v", out, err)
	}
}
