package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/eventserver"
	"github.com/smithycurl/smithycurl/transport"
)

// rpcTickers are the ticker's services in the RPC protocols, where the
// initial response is the stream's first message.
var rpcTickers = []string{"TickerJson10", "TickerJson11", "TickerCbor", "TickerRpcJson"}

const rpcNS = "smithycurl.test.events.rpc"

// Response event streams of the four RPC protocols: the initial response
// from the initial-response event, events in JSON or CBOR as they arrive,
// every ending (exception event, error message, cut, corrupt, unknown
// event), an error response, over HTTP/1.1 and h2c.
func TestCallStreamRPC(t *testing.T) {
	for _, svc := range rpcTickers {
		t.Run(svc, func(t *testing.T) {
			for _, v := range []struct {
				name string
				v    transport.HTTPVersion
			}{{"HTTP1.1", transport.HTTPVersion1}, {"h2c", transport.HTTPVersion2PriorKnowledge}} {
				t.Run(v.name, func(t *testing.T) {
					c := eventClient(t, eventserver.RPCModel, rpcNS+"#"+svc, client.WithHTTPVersion(v.v))
					testRPCTicks(t, c)
					testEndings(t, c, rpcNS)
					_, err := c.CallStream(context.Background(), "Tick", []byte(`{"count":1,"fail":"refuse"}`))
					var e *client.Error
					if !errors.As(err, &e) || e.Kind != client.KindService || e.Shape != rpcNS+"#BadRequest" || e.Status != 400 ||
						!strings.Contains(e.Error(), "refused as asked") {
						t.Errorf("refused: %v", err)
					}
				})
			}
		})
	}
}

func testRPCTicks(t *testing.T, c *client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	s, err := c.CallStream(ctx, "Tick", []byte(`{"count":3,"intervalMs":150}`))
	if err != nil {
		t.Fatal(err)
	}
	opened := time.Since(start)
	defer s.Close()
	if string(s.Initial()) != `{"session":"s-1"}` {
		t.Errorf("initial %s", s.Initial())
	}
	got, at, err := collect(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("events %v", got)
	}
	for i, ev := range got {
		if ev != tickDoc(i) {
			t.Errorf("event %d: %s, want %s", i, ev, tickDoc(i))
		}
	}
	if d := at[2].Sub(at[0]); d < 200*time.Millisecond {
		t.Errorf("the events came together (%v apart), not as they were sent: opened after %v, events at %v, %v, %v after the call", d, opened,
			at[0].Sub(start), at[1].Sub(start), at[2].Sub(start))
	}
}
