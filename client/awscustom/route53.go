package awscustom

import (
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// route53IDs keeps the last part of a Route 53 id given with its prefix
// ("/hostedzone/Z1D633PJN98FT9" is "Z1D633PJN98FT9"): an output's Id can
// be the next input's. The members are those whose shape is ResourceId,
// DelegationSetId or ChangeId, as botocore's fix_route53_ids finds them.
func route53IDs(_ *model.Model, _ *model.Service, op *model.Operation) Hooks {
	var names []string
	for _, mem := range op.Input.Members {
		switch mem.Target.Name() {
		case "ResourceId", "DelegationSetId", "ChangeId":
			names = append(names, mem.Name())
		}
	}
	if names == nil {
		return Hooks{}
	}
	return Hooks{input: []func([]byte) ([]byte, error){editStrings(names, func(_, v string) (string, error) {
		return v[strings.LastIndexByte(v, '/')+1:], nil
	})}}
}

// route53InvalidChangeBatch reads Route 53's InvalidChangeBatch error,
// which comes without the <ErrorResponse><Error> envelope of its other
// errors: the body is rewritten into that envelope, so the modeled error
// is decoded with its messages (the model's member is "messages"), and
// its message is theirs, joined.
func route53InvalidChangeBatch(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{response: []func(*wire.Response) error{func(resp *wire.Response) error {
		if resp.Status < 300 || resp.Streamed || !bytes.Contains(resp.Body, []byte("InvalidChangeBatch")) {
			return nil
		}
		var batch struct {
			XMLName   xml.Name
			Messages  []string `xml:"Messages>Message"`
			RequestID string   `xml:"RequestId"`
		}
		if xml.Unmarshal(resp.Body, &batch) != nil || batch.XMLName.Local != "InvalidChangeBatch" {
			return nil
		}
		var b bytes.Buffer
		text := func(s string) { xml.EscapeText(&b, []byte(s)) }
		b.WriteString(`<ErrorResponse><Error><Type>Sender</Type><Code>InvalidChangeBatch</Code><Message>`)
		text(strings.Join(batch.Messages, "; "))
		b.WriteString(`</Message><messages>`)
		for _, m := range batch.Messages {
			b.WriteString(`<Message>`)
			text(m)
			b.WriteString(`</Message>`)
		}
		b.WriteString(`</messages></Error><RequestId>`)
		text(batch.RequestID)
		b.WriteString(`</RequestId></ErrorResponse>`)
		resp.Body = b.Bytes()
		return nil
	}}}
}
