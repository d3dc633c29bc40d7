package protocol

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

const queryServerTestModel = `$version: "2"
namespace example.qs

use aws.protocols#awsQuery
use aws.protocols#ec2Query
use aws.protocols#ec2QueryName

@awsQuery service Query { version: "2020-01-01", operations: [Put, Ping] }
@ec2Query service Ec2 { version: "2020-01-01", operations: [Put, Ping] }

operation Ping {}

operation Put {
    input := {
        @required name: String
        @length(max: 3) tag: String
        count: Integer
        on: Boolean
        when: Timestamp
        @timestampFormat("epoch-seconds") epoch: Timestamp
        data: Blob
        strings: Strings
        @xmlFlattened flat: Strings
        @xmlName("Renamed") named: String
        @ec2QueryName("EcTwo") both: String
        items: Items
        attrs: Attrs
        @xmlFlattened flatAttrs: Attrs
        nested: Nested
        pick: Pick
        deep: Deep
    }
}

structure Nested {
    @required id: String
    level: Integer = 2
}
list Strings { member: String }
list Items { @xmlName("Item") member: Nested }
map Attrs { @xmlName("K") key: String, @xmlName("V") value: Strings }
union Pick { a: String, b: Integer }
structure Deep { next: Deep, v: Integer }
`

func queryServerPair(t testing.TB, svcID model.ShapeID, opts ...Option) (Codec, Server, *model.Service) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("query_server_test.smithy", []byte(queryServerTestModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rpcServerPair(t, m, svcID, opts...)
}

// A request the client encodes is routed to its operation and read back
// to the input, in both query protocols.
func TestQueryServerReadsWhatTheClientSends(t *testing.T) {
	input := `{"name":"a b&c=d","tag":"xyz","count":-3,"on":true,"when":"2020-01-02T03:04:05.5Z","epoch":"1970-01-01T00:00:10Z",
		"data":"AAEC","strings":["s1","s2"],"flat":["f1"],"named":"r","both":"b2",
		"items":[{"id":"i1"},{"id":"i2","level":5}],"attrs":{"k1":["v1","v2"],"k2":[]},"flatAttrs":{"f":["x"]},
		"nested":{"id":"x"},"pick":{"b":4},"deep":{"next":{"next":{"v":1}}}}`
	want := `{"name":"a b&c=d","tag":"xyz","count":-3,"on":true,"when":"2020-01-02T03:04:05.5Z","epoch":"1970-01-01T00:00:10Z",
		"data":"AAEC","strings":["s1","s2"],"flat":["f1"],"named":"r","both":"b2",
		"items":[{"id":"i1","level":2},{"id":"i2","level":5}],"attrs":{"k1":["v1","v2"],"k2":[]},"flatAttrs":{"f":["x"]},
		"nested":{"id":"x","level":2},"pick":{"b":4},"deep":{"next":{"next":{"v":1}}}}`
	for _, id := range []model.ShapeID{"example.qs#Query", "example.qs#Ec2"} {
		t.Run(id.Name(), func(t *testing.T) {
			c, s, svc := queryServerPair(t, id)
			readsBack(t, c, s, svc, input, want)
		})
	}
	// The same request as a GET with the form in the query string.
	c, s, svc := queryServerPair(t, "example.qs#Query")
	req := encode(t, c, svc, "Put", `{"name":"n","strings":["a"]}`)
	req.Method, req.Path, req.Body = "GET", "/?"+string(req.Body), nil
	doc, _, err := serve(s, req)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(doc), `{"name":"n","strings":["a"]}`)
}

func TestQueryServerRefusals(t *testing.T) {
	_, s, _ := queryServerPair(t, "example.qs#Query")
	_, ec2, _ := queryServerPair(t, "example.qs#Ec2")
	_, sv, _ := queryServerPair(t, "example.qs#Query", WithValidation())
	post := func(form string) *wire.Request {
		return &wire.Request{Method: "POST", Path: "/", Body: []byte(form),
			Header: wire.Header{"Content-Type": {"application/x-www-form-urlencoded; charset=utf-8"}}}
	}
	const put = "Action=Put&Version=2020-01-01&name=n"
	deep := put + "&deep" + strings.Repeat(".next", maxNesting) + ".v=1"
	for _, tc := range []struct {
		name, form, code, member string
		s                        Server
		status                   int
	}{
		{"no Action", "Version=2020-01-01", "MissingAction", "", s, 400},
		{"unknown Action", "Action=Nope&Version=2020-01-01", "InvalidAction", "", s, 400},
		{"other Version", "Action=Put&Version=2019-01-01", "NoSuchVersion", "", s, 400},
		{"bad escape", "Action=Put&name=%zz", "MalformedQueryString", "", s, 400},
		{"missing required", "Action=Put&tag=t", "MissingParameter", "name", s, 400},
		{"missing nested required", put + "&items.Item.2.level=1", "MissingParameter", "items[0].id", s, 400},
		{"not an integer", put + "&count=1.5", "InvalidParameterValue", "count", s, 400},
		{"not a boolean", put + "&on=yes", "InvalidParameterValue", "on", s, 400},
		{"not a timestamp", put + "&when=yesterday", "InvalidParameterValue", "when", s, 400},
		{"not base64", put + "&data=%25%25", "InvalidParameterValue", "data", s, 400},
		{"two union members", put + "&pick.a=x&pick.b=1", "InvalidParameterValue", "pick", s, 400},
		{"map entry without key", put + "&attrs.entry.1.V.member.1=x", "InvalidParameterValue", "attrs", s, 400},
		{"a list given a value", put + "&strings=x", "InvalidParameterValue", "strings", s, 400},
		{"nesting", deep, "MalformedQueryString", "", s, 400},
		{"ec2 key", "Action=Put&Name=n&Count=x", "InvalidParameterValue", "count", ec2, 400},
		{"ec2 member name", "Action=Put&name=n", "MissingParameter", "name", ec2, 400},
	} {
		_, _, err := serve(tc.s, post(tc.form))
		requestError(t, err, tc.status, tc.code, tc.member)
	}
	// Item numbers need not start at 1 nor follow on: only those given
	// are held, in order (Member.999999999 costs one item).
	doc, _, err := serve(s, post(put+"&strings.member.999999999=last&strings.member.7=first&strings.member.x=ignored&strings.member.99999999999999999999=ignored"))
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, string(doc), `{"name":"n","strings":["first","last"]}`)
	// Constraints with WithValidation only, required members among them.
	_, _, err = serve(sv, post("Action=Put&tag=long"))
	var ve *ValidationError
	if !asValidation(err, &ve) || ve.List() != "/name: Value at '/name' failed to satisfy constraint: Member must not be null; "+
		"/tag: Value with length 4 at '/tag' failed to satisfy constraint: Member must have length less than or equal to 3" {
		t.Errorf("with validation: %v", err)
	}
	req := post(put)
	req.Header.Set("Content-Type", "application/json")
	_, _, err = serve(s, req)
	requestError(t, err, 415, "UnsupportedMediaType", "")
	_, err = s.Route(&wire.Request{Method: "PUT", Path: "/", Header: wire.Header{}})
	requestError(t, err, 400, "InvalidAction", "")
}

func asValidation(err error, ve **ValidationError) bool {
	v, ok := err.(*ValidationError)
	*ve = v
	return ok
}

// Many items and entries are read in one pass, in their numbers' order.
func TestQueryServerManyItems(t *testing.T) {
	_, s, _ := queryServerPair(t, "example.qs#Query")
	var b strings.Builder
	b.WriteString("Action=Put&name=n")
	for i := 1000; i >= 1; i-- {
		fmt.Fprintf(&b, "&strings.member.%d=%d", i, i)
	}
	doc, _, err := serve(s, &wire.Request{Method: "POST", Path: "/", Body: []byte(b.String()), Header: wire.Header{}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(doc), `{"name":"n","strings":["1","2","3",`) || !strings.HasSuffix(string(doc), `"999","1000"]}`) {
		t.Errorf("doc %.80s...", doc)
	}
}
