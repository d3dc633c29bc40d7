package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

const traitEventStreamTests model.ShapeID = "smithy.test#eventStreamTests"

// EventStreamRestJSON1 runs the restJson1 client cases of
// smithy.test#eventStreamTests: the initial request and response, each
// request event encoded (its typed headers and body checked), each response
// event decoded from its bytes, and the expected failures (modeled
// exception events, error messages, malformed messages, error responses).
func EventStreamRestJSON1(shared string) Result {
	r := Result{Suite: "eventStream (restJson1)"}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	cases, err := collectEventCases(m, protocol.RestJSON1)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	codec := protocol.NewRestJSON1(m, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
	excl := readExclusions("eventStream-restJson1.tsv")
	for _, c := range cases {
		_, excluded := excl[c.id]
		r.record(c.id, excluded, guard(caseTimeout, func() error { return checkEventCase(m, codec, c) }))
	}
	return r
}

func collectEventCases(m *model.Model, proto model.ShapeID) ([]protocolCase, error) {
	var out []protocolCase
	for _, sid := range m.Services() {
		svcShape, _ := m.Shape(sid)
		if !svcShape.HasTrait(proto) {
			continue
		}
		svc, err := m.Service(sid)
		if err != nil {
			return nil, err
		}
		for _, op := range svc.Operations {
			list, ok := op.Shape.Traits.Get(traitEventStreamTests)
			if !ok {
				continue
			}
			for _, tc := range list.Items() {
				if field(tc, "appliesTo") == "server" || field(tc, "protocol") != string(proto) {
					continue
				}
				out = append(out, protocolCase{kind: "event", id: field(tc, "id"), tc: tc, op: op, svc: sid})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// checkEventCase runs one case. A case expecting failure passes when some
// step fails (with the named error shape when errorId is set) and fails
// when every step succeeds.
func checkEventCase(m *model.Model, codec protocol.Codec, c protocolCase) error {
	es, ok := codec.(protocol.EventStreams)
	if !ok {
		return fmt.Errorf("codec %s has no event streams", codec.Protocol())
	}
	var wantErr string
	expectFail := false
	if exp, ok := c.tc.Get("expectation"); ok {
		if f, ok := exp.Get("failure"); ok {
			expectFail = true
			wantErr = field(f, "errorId")
		}
	}
	err := runEventCase(m, es, codec, c)
	switch {
	case !expectFail && err != nil:
		return err
	case expectFail && err == nil:
		return fmt.Errorf("succeeded, want a failure")
	case expectFail && wantErr != "":
		var se *protocol.ServiceError
		if !errors.As(err, &se) {
			return fmt.Errorf("error %v, want the service error %s", err, wantErr)
		}
		if se.Shape.Name() != model.ShapeID(wantErr).Name() {
			return fmt.Errorf("error %q (code %q), want %s", se.Shape, se.Code, wantErr)
		}
	}
	return nil
}

func runEventCase(m *model.Model, es protocol.EventStreams, codec protocol.Codec, c protocolCase) error {
	ctx := context.Background()
	if req, ok := c.tc.Get("initialRequest"); ok {
		params, _ := c.tc.Get("initialRequestParams")
		in := orEmptyObject(docValue(m, c.op.Input.ID, params, false))
		got, err := codec.EncodeRequest(ctx, c.op, []byte(in))
		if err != nil {
			return fmt.Errorf("initial request: encode: %w", err)
		}
		var diffs []string
		if want := field(req, "method"); !strings.EqualFold(want, got.Method) {
			diffs = append(diffs, fmt.Sprintf("method %s, want %s", got.Method, want))
		}
		if path, _, _ := strings.Cut(got.Path, "?"); path != field(req, "uri") {
			diffs = append(diffs, fmt.Sprintf("path %q, want %q", path, field(req, "uri")))
		}
		diffs = append(diffs, checkHeaders(req, got.Header)...)
		if len(diffs) > 0 {
			return fmt.Errorf("initial request: %s", strings.Join(diffs, "; "))
		}
	}
	events, _ := c.tc.Get("events")
	hasResponse := false
	for _, ev := range events.Items() {
		hasResponse = hasResponse || field(ev, "type") == "response"
	}
	if resp, ok := c.tc.Get("initialResponse"); ok || hasResponse {
		wr := &wire.Response{Status: 200, Header: wire.Header{}}
		if ok {
			if v, ok := resp.Get("code"); ok {
				n, _ := v.Int64()
				wr.Status = int(n)
			}
			if v, ok := resp.Get("headers"); ok {
				for i := 0; i < v.Len(); i++ {
					k, val := v.Entry(i)
					wr.Header.Add(k, val.Str())
				}
			}
			wr.Body = caseBody(resp)
		}
		out, err := es.DecodeInitialResponse(ctx, c.op, wr)
		if err != nil {
			return fmt.Errorf("initial response: %w", err)
		}
		if params, ok := c.tc.Get("initialResponseParams"); ok {
			want := docValue(m, c.op.Output.ID, params, true)
			if d := jsonDiff(out, []byte(orEmptyObject(want))); d != "" {
				return fmt.Errorf("initial response: output: %s", d)
			}
		}
	}
	for i, ev := range events.Items() {
		var err error
		if field(ev, "type") == "request" {
			err = checkRequestEvent(m, es, c, ev)
		} else {
			err = checkResponseEvent(m, es, c, ev)
		}
		if err != nil {
			return fmt.Errorf("event %d: %w", i, err)
		}
	}
	return nil
}

// streamUnion is the union target of the operation's stream member.
func streamUnion(s *model.Shape, member string) model.ShapeID {
	if mem, ok := s.Member(member); ok {
		return mem.Target
	}
	return ""
}

func checkRequestEvent(m *model.Model, es protocol.EventStreams, c protocolCase, ev model.Node) error {
	params, ok := ev.Get("params")
	if !ok {
		return fmt.Errorf("an unmodeled request event cannot be encoded by a client")
	}
	member, ok := es.InputEventStream(c.op)
	if !ok {
		return fmt.Errorf("operation %s has no input event stream", c.op.Shape.ID)
	}
	in := docValue(m, streamUnion(c.op.Input, member), params, false).JSON()
	msg, err := es.EncodeEvent(context.Background(), c.op, []byte(in))
	if err != nil {
		return fmt.Errorf("encode %s: %w", in, err)
	}
	// Through the framing and back, as a receiver sees it.
	raw, err := eventstream.Append(nil, msg)
	if err != nil {
		return err
	}
	if msg, err = eventstream.NewDecoder(bytes.NewReader(raw), eventstream.Limits{}).Next(); err != nil {
		return err
	}
	var diffs []string
	if hs, ok := ev.Get("headers"); ok {
		for i := 0; i < hs.Len(); i++ {
			name, want := hs.Entry(i)
			got, ok := msg.Get(name)
			if !ok {
				diffs = append(diffs, fmt.Sprintf("header %s missing", name))
			} else if d := headerDiff(got, want); d != "" {
				diffs = append(diffs, fmt.Sprintf("header %s: %s", name, d))
			}
		}
	}
	if fs, ok := ev.Get("forbidHeaders"); ok {
		for _, f := range fs.Items() {
			if _, ok := msg.Get(f.Str()); ok {
				diffs = append(diffs, fmt.Sprintf("header %s is forbidden", f.Str()))
			}
		}
	}
	if rs, ok := ev.Get("requireHeaders"); ok {
		for _, f := range rs.Items() {
			if _, ok := msg.Get(f.Str()); !ok {
				diffs = append(diffs, fmt.Sprintf("header %s is required", f.Str()))
			}
		}
	}
	if _, ok := ev.Get("body"); ok {
		if d := compareBody(msg.Payload, field(ev, "body"), field(ev, "bodyMediaType")); d != "" {
			diffs = append(diffs, d)
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("encoded %s: %s", in, strings.Join(diffs, "; "))
	}
	return nil
}

// headerDiff compares a typed header with the test's {type: value}.
func headerDiff(got eventstream.Value, want model.Node) string {
	if want.Len() != 1 {
		return "the test's header value is not a one-member union"
	}
	typ, v := want.Entry(0)
	var gotType string
	switch got.Type {
	case eventstream.BoolTrue, eventstream.BoolFalse:
		gotType = "boolean"
	case eventstream.Bytes:
		gotType = "blob"
	default:
		gotType = got.Type.String()
	}
	if gotType != typ {
		return fmt.Sprintf("type %s, want %s", gotType, typ)
	}
	var same bool
	switch typ {
	case "boolean":
		same = got.Bool() == v.AsBool()
	case "byte", "short", "integer", "long":
		n, _ := v.Int64()
		same = got.Int == n
	case "blob":
		dec, err := base64.StdEncoding.DecodeString(v.Str())
		same = err == nil && bytes.Equal(dec, got.Bytes)
	case "string":
		same = got.Str() == v.Str()
	case "timestamp":
		var t time.Time
		var err error
		if v.Kind() == model.NumberNode {
			n, _ := v.Int64()
			t = time.Unix(n, 0)
		} else {
			t, err = time.Parse(time.RFC3339Nano, v.Str())
		}
		same = err == nil && t.Equal(got.Time())
	default:
		return "unsupported header type " + typ
	}
	if !same {
		return fmt.Sprintf("value differs (got %+v, want %s)", got, v.JSON())
	}
	return ""
}

func checkResponseEvent(m *model.Model, es protocol.EventStreams, c protocolCase, ev model.Node) error {
	b64 := field(ev, "bytes")
	if b64 == "" {
		return fmt.Errorf("a response event without bytes is not supported by the runner")
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return fmt.Errorf("bytes: %v", err)
	}
	d := eventstream.NewDecoder(bytes.NewReader(raw), eventstream.Limits{})
	msg, err := d.Next()
	if err != nil {
		return err
	}
	if _, err := d.Next(); err == nil {
		return fmt.Errorf("bytes hold more than one message")
	}
	out, err := es.DecodeEvent(context.Background(), c.op, msg)
	if err != nil {
		return err
	}
	member, _ := es.OutputEventStream(c.op)
	params, _ := ev.Get("params")
	if params.IsNull() {
		if out != nil {
			return fmt.Errorf("an unmodeled event gave %s", out)
		}
		return nil
	}
	want := docValue(m, streamUnion(c.op.Output, member), params, true)
	if dd := jsonDiff(out, []byte(want.JSON())); dd != "" {
		return fmt.Errorf("event: %s", dd)
	}
	return nil
}
