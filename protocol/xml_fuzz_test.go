package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/smithycurl/smithycurl/wire"
)

// FuzzXMLDecode feeds arbitrary bodies to the restXml and awsQuery
// decoders: each must return an output that is valid JSON, a
// *ResponseError or a *ServiceError, never panic or hang.
func FuzzXMLDecode(f *testing.F) {
	for _, s := range []string{
		`<PutTagsOutput><Tag><Key>a</Key><Value>1</Value></Tag><Owner><ID>me</ID><Created>2020-01-02T03:04:05Z</Created></Owner></PutTagsOutput>`,
		`<PublishResponse><PublishResult><MessageId>m</MessageId><Count>3</Count><Items><member>x</member></Items></PublishResult></PublishResponse>`,
		`<Error><Code>NoSuchKey</Code><Message>gone</Message></Error>`,
		`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`,
		`<a><![CDATA[x]]><!-- c --><?pi?></a>`,
	} {
		f.Add([]byte(s), uint16(200))
		f.Add([]byte(s), uint16(404))
	}
	xc, xsvc := restXMLCodecForTest(f)
	qc, qsvc := queryCodecForTest(f)
	put, _ := xsvc.Operation("PutTags")
	get, _ := xsvc.Operation("GetObject")
	pub, _ := qsvc.Operation("Publish")
	f.Fuzz(func(t *testing.T, body []byte, status uint16) {
		resp := &wire.Response{Status: int(status%600) + 100, Body: body, Header: wire.Header{}}
		check := func(out []byte, err error) {
			var re *ResponseError
			var se *ServiceError
			switch {
			case err == nil:
				if !json.Valid(out) {
					t.Fatalf("output is not JSON: %q", out)
				}
			case errors.As(err, &se):
				if se.Modeled() && !json.Valid(se.Members) {
					t.Fatalf("error members are not JSON: %q", se.Members)
				}
			case !errors.As(err, &re):
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
		}
		ctx := context.Background()
		check(xc.DecodeResponse(ctx, put, resp))
		check(xc.DecodeResponse(ctx, get, resp))
		check(qc.DecodeResponse(ctx, pub, resp))
	})
}
