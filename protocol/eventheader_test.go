package protocol_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/protocol"
)

// An event header's integer is checked against its member's type as any
// output number is: a long header may carry a value an integer member
// cannot hold. (Before, only byte/short/integer widths were checked, in
// words of their own, and an intEnum took any long.)
func TestEventHeaderNumbersAreChecked(t *testing.T) {
	for _, r := range rpcTickers(t) {
		es := r.codec.(protocol.EventStreams)
		tick := r.message(t, "event", "tick", map[string]string{"message": "hi"},
			eventstream.Header{Name: "seq", Value: eventstream.Value{Type: eventstream.Long, Int: 1 << 40}})
		_, err := es.DecodeEvent(context.Background(), r.op, tick)
		if err == nil || !strings.Contains(err.Error(), "1099511627776 is out of range (integer: -2147483648 to 2147483647)") {
			t.Errorf("%s: %v, want an error saying 1099511627776 is out of range", r.name, err)
		}
	}
}
