package proptest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// checkOutOfType is the out-of-type output property for one response: the
// codec refuses it with a response error that names the broken member.
func checkOutOfType(codec protocol.Codec, op *model.Operation, resp *wire.Response, mu Mutation) error {
	doc, err := codec.DecodeResponse(context.Background(), op, resp)
	if err == nil {
		return fmt.Errorf("accepted (%s): decoded to %s\n  response: %s", mu, doc, dumpResponse(resp))
	}
	var re *protocol.ResponseError
	if !errors.As(err, &re) {
		return fmt.Errorf("error %T %v is not a response error (%s)", err, err, mu)
	}
	if !strings.Contains(err.Error(), mu.Name) {
		return fmt.Errorf("error %q does not name the member %q (%s)\n  response: %s", err, mu.Name, mu, dumpResponse(resp))
	}
	return nil
}

// TestOutOfTypeOutput: a response holding a value its type cannot hold
// (1.5 or 2147483648 for an integer, 1e400 for a double, bad base64, a
// string for a boolean), in any member, list item or map value, in the
// body or a header, of every JSON protocol (the renderers of Protocols)
// and of restXml, awsQuery and ec2Query (the responders of querywire.go),
// is a decode error naming the member. A rendering that cannot carry the
// value (a renderer that types it) is not counted.
func TestOutOfTypeOutput(t *testing.T) {
	propertyTests(t)
	ran, unrendered := 0, 0
	try := func(name string, op *model.Operation, g *Gen, codec protocol.Codec, render func(map[string]any) (*wire.Response, error)) {
		out := g.Output(op)
		mu, ok := OutOfType(g, op, out)
		if !ok {
			return
		}
		resp, err := render(out)
		if err != nil {
			unrendered++
			return
		}
		ran++
		if err := checkOutOfType(codec, op, resp, mu); err != nil {
			t.Errorf("%s %s (seed %d; rerun: go test ./testing/proptest -run %s -args -seed %d -op %s -n %d): %v",
				name, op.Name, *seedFlag, t.Name(), *seedFlag, op.Name, *nFlag, err)
		}
	}
	codecs := map[*model.Service]protocol.Codec{}
	for _, tg := range targets(t) {
		if hasStreaming(tg) {
			continue
		}
		codec := codecs[tg.svc]
		if codec == nil {
			codec = tg.p.NewCodec(tg.m, tg.svc)
			codecs[tg.svc] = codec
		}
		for i := 0; i < *nFlag; i++ {
			g := newGen(tg, caseSeed(*seedFlag, tg, "outoftype", i))
			try(tg.model, tg.op, g, codec, func(out map[string]any) (*wire.Response, error) {
				return tg.p.RenderResponse(tg.m, tg.op, out)
			})
		}
	}
	responderOps(t, func(tm testModel, svc *model.Service, op *model.Operation, r Responder, codec protocol.Codec) {
		tg := target{tm.name, tm.m, svc, op, nil}
		if hasStreaming(tg) {
			return
		}
		for i := 0; i < *nFlag; i++ {
			g := NewGen(tm.m, caseSeed(*seedFlag, tg, "outoftype", i))
			g.Locate = r.Locate
			try(tm.name, op, g, codec, func(out map[string]any) (*wire.Response, error) {
				return r.RenderResponse(tm.m, op, out)
			})
		}
	})
	if ran == 0 {
		t.Fatal("no out-of-type output was rendered")
	}
	t.Logf("%d out-of-type outputs, %d the renderers could not carry", ran, unrendered)
}
