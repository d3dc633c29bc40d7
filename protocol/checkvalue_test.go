package protocol_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// TestCheckValue: a value that does not fit its structure is refused with
// the member path to what is wrong.
func TestCheckValue(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("x.smithy", []byte(`$version: "2"
namespace ex
structure Out {
    @required
    id: String
    items: Items
}
list Items { member: Item }
structure Item { n: Integer, when: Timestamp }
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"id":"a","items":[{"n":1},{"n":"two"}]}`, "member items[1].n: "},
		{`{"id":"a","items":[{"m":1}]}`, `member items[0]: ex#Item has no member "m"`},
		{`{"items":[]}`, "member id: is required"},
		{`{"id":"a","items":[{"when":"yesterday"}]}`, "member items[0].when: "},
		{`{"id":"a"} x`, "after the object"},
	} {
		err := protocol.CheckValue(m, "ex#Out", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.doc, err, c.want)
		}
	}
	if err := protocol.CheckValue(m, "ex#Out", []byte(`{"id":"a","items":[{"n":1,"when":1700000000}]}`)); err != nil {
		t.Errorf("a valid value: %v", err)
	}
}

// TestCheckMembers: a part of a value may leave out the structure's
// @required members, not those of the structures in it, and is typed.
func TestCheckMembers(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("x.smithy", []byte(`$version: "2"
namespace ex
structure Out {
    @required
    id: String
    item: Item
}
structure Item {
    @required
    n: Integer
}
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := protocol.CheckMembers(m, "ex#Out", []byte(`{"item":{"n":1}}`)); err != nil {
		t.Errorf("without the required id: %v", err)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"item":{}}`, "member item.n: is required"},
		{`{"id":1}`, "member id: "},
		{`{"nope":1}`, `no member "nope"`},
	} {
		err := protocol.CheckMembers(m, "ex#Out", []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.doc, err, c.want)
		}
	}
}
