package protocol_test

import (
	"context"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// TestListHeaderItemsKeepSpaces: string items of a list header that start
// or end with white space, are empty, or hold a comma or a quote are sent
// quoted, so that they read back as they were (items with spaces were sent
// bare and read back trimmed); quoted items of a response are read back
// unquoted, with their spaces.
func TestListHeaderItemsKeepSpaces(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("h.smithy", []byte(`$version: "2"
namespace h
@aws.protocols#restJson1
service S { operations: [Op] }
@http(method: "POST", uri: "/op")
operation Op {
    input := { @httpHeader("X-List") list: Strings }
    output := { @httpHeader("X-List") list: Strings }
}
list Strings { member: String }
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service("h#S")
	op, _ := svc.Operation("Op")
	c, err := protocol.New(m, svc)
	if err != nil {
		t.Fatal(err)
	}
	req, err := c.EncodeRequest(context.Background(), op, []byte(`{"list": [" lead", "trail ", "", "a,b", "say \"hi\"", "plain", "in side"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `" lead", "trail ", "", "a,b", "say \"hi\"", plain, in side`
	if got := req.Header.Get("X-List"); got != want {
		t.Errorf("X-List: %s\nwant     %s", got, want)
	}
	out, err := c.DecodeResponse(context.Background(), op, &wire.Response{Status: 200,
		Header: wire.Header{"X-List": {want}}, Body: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if w := `{"list":[" lead","trail ","","a,b","say \"hi\"","plain","in side"]}`; string(out) != w {
		t.Errorf("output %s\nwant   %s", out, w)
	}
}
