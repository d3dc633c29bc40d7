package client_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/eventserver"
	"github.com/smithycurl/smithycurl/transport"
)

// Input event streams: Echo answers each say event with a said event at
// once, so each round's event is sent only after the last round's answer
// came back (the request is still open: duplex), in restJson1 (prefix in
// a header) and rpcv2Cbor and awsJson1_1 (prefix in the initial-request
// message), over h2c and HTTP/1.1.
func TestEventStreamSend(t *testing.T) {
	for _, svc := range []struct{ src, id string }{
		{eventserver.Model, "smithycurl.test.events#Ticker"},
		{eventserver.RPCModel, rpcNS + "#TickerCbor"},
		{eventserver.RPCModel, rpcNS + "#TickerJson11"},
	} {
		for _, v := range []struct {
			name string
			v    transport.HTTPVersion
		}{{"h2c", transport.HTTPVersion2PriorKnowledge}, {"HTTP1.1", transport.HTTPVersion1}} {
			t.Run(svc.id+"/"+v.name, func(t *testing.T) {
				c := eventClient(t, svc.src, svc.id, client.WithHTTPVersion(v.v))
				for i := 0; i < 20; i++ {
					if err := echoRounds(t, c, 5); err != nil {
						t.Fatalf("exchange %d: %v", i, err)
					}
				}
				if err := echoRounds(t, c, 100); err != nil {
					t.Fatal(err)
				}
				// The front ends without Send (CallStream) refuse it.
				if _, err := c.CallStream(context.Background(), "Echo", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "CallDuplex") {
					t.Errorf("CallStream of a duplex operation: %v", err)
				}
			})
		}
	}
}

func echoRounds(t *testing.T, c *client.Client, rounds int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.CallDuplex(ctx, "Echo", []byte(`{"prefix":"re:"}`))
	if err != nil {
		return err
	}
	defer s.Close()
	next, stop := iterPull(s)
	defer stop()
	for i := 0; i < rounds; i++ {
		if err := s.Send(ctx, []byte(fmt.Sprintf(`{"say":{"text":"hello %d"}}`, i))); err != nil {
			return fmt.Errorf("send %d: %w", i, err)
		}
		ev, err, ok := next()
		if want := fmt.Sprintf(`{"said":{"message":"re:hello %d"}}`, i); !ok || err != nil || string(ev) != want {
			return fmt.Errorf("round %d: %s %v %v, want %s", i, ev, err, ok, want)
		}
	}
	if err := s.CloseSend(); err != nil {
		return err
	}
	if ev, err, ok := next(); ok {
		return fmt.Errorf("after CloseSend: %s %v", ev, err)
	}
	if err := s.Send(ctx, []byte(`{"say":{"text":"late"}}`)); err == nil {
		return errors.New("Send after CloseSend was taken")
	}
	return nil
}

// iterPull pulls the stream's events one at a time.
func iterPull(s *client.EventStream) (func() ([]byte, error, bool), func()) {
	return iterPull2(s.Events())
}

func iterPull2(seq func(func([]byte, error) bool)) (func() ([]byte, error, bool), func()) {
	next, stop := iter.Pull2(iter.Seq2[[]byte, error](seq))
	return next, stop
}

// A SigV4 service: each input event is signed in a chain that starts from
// the request's signature (libcurl's, read from the headers it sent), and
// an empty signed message ends the stream; the server checks every
// signature with the secret key (and answers an error message on a
// mismatch).
func TestEventStreamSendSigned(t *testing.T) {
	for _, v := range []struct {
		name string
		v    transport.HTTPVersion
	}{{"h2c", transport.HTTPVersion2PriorKnowledge}, {"HTTP1.1", transport.HTTPVersion1}} {
		t.Run(v.name, func(t *testing.T) {
			c := eventClient(t, eventserver.RPCModel, rpcNS+"#SignedTicker", client.WithHTTPVersion(v.v), client.WithRegion("us-east-1"),
				client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: eventserver.TestSecretKey}))
			for i := 0; i < 5; i++ {
				if err := echoRounds(t, c, 5); err != nil {
					t.Fatalf("exchange %d: %v", i, err)
				}
			}
			// A wrong key: the server finds the first event's signature wrong.
			bad := eventClient(t, eventserver.RPCModel, rpcNS+"#SignedTicker", client.WithHTTPVersion(v.v), client.WithRegion("us-east-1"),
				client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wrong"}))
			err := echoRounds(t, bad, 1)
			if err == nil || !strings.Contains(err.Error(), "signature does not match") {
				t.Errorf("a wrong key: %v", err)
			}
		})
	}
}
