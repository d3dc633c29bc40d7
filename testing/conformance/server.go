package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// The server side of the protocol suites: each request case that applies
// to servers is routed and decoded by the protocol's Server and compared
// with its params; each response case that applies to servers is rendered
// by internal/respond from its params and compared with the case.

// serverSuite is what a protocol's server suite runs.
type serverSuite struct {
	proto model.ShapeID
	excl  string // exclusions file
	// requestID is the request id the suite's responses carry ("" none:
	// only ec2Query's cases write one, "requestid").
	requestID string
}

// RestJSON1Server runs the aws.protocols#restJson1 server cases.
func RestJSON1Server(shared string) Result {
	return runServerSuite(shared, "restJson1 (server)", serverSuite{proto: protocol.RestJSON1, excl: "restJson1-server.tsv"})
}

// RestXMLServer runs the aws.protocols#restXml server cases.
func RestXMLServer(shared string) Result {
	return runServerSuite(shared, "restXml (server)", serverSuite{proto: protocol.RestXML, excl: "restXml-server.tsv"})
}

// SimpleRestJSONServer runs alloy's simpleRestJson server cases (its
// routing cases among them) and the restJson1 cases alloy borrows for
// servers, the latter on a copy of the restJson1 services that speaks
// simpleRestJson.
func SimpleRestJSONServer(shared string) Result {
	r := runServerSuite(shared, "simpleRestJson (server)", serverSuite{proto: protocol.SimpleRestJSON, excl: "simpleRestJson-server.tsv"})
	m, rj, ok := serverCases(&r, shared, protocol.RestJSON1)
	if !ok {
		return r
	}
	rules := borrowRules(m)
	excl := readExclusions("simpleRestJson-server.tsv")
	bySvc := map[model.ShapeID][]protocolCase{}
	for _, c := range rj {
		if rules.borrows(c, "server") {
			c.id = "restJson1/" + c.id
			bySvc[c.svc] = append(bySvc[c.svc], c)
		}
	}
	for sid, cases := range bySvc {
		vm, err := asSimpleRestJSON(m, sid)
		if err != nil {
			r.fail("load", "%s as simpleRestJson: %v", sid, err)
			continue
		}
		runServerCases(&r, vm, sid, relink(vm, cases), excl, "")
	}
	return r
}

// relink points cases at the operations and error shapes of model vm (a
// copy of the model they were collected from).
func relink(vm *model.Model, cases []protocolCase) []protocolCase {
	out := make([]protocolCase, 0, len(cases))
	for _, c := range cases {
		svc, err := vm.Service(c.svc)
		if err != nil {
			continue
		}
		for _, op := range svc.Operations {
			if op.Shape.ID == c.op.Shape.ID {
				c.op = op
			}
		}
		if c.errShape != nil {
			c.errShape, _ = vm.Shape(c.errShape.ID)
		}
		out = append(out, c)
	}
	return out
}

// serverCases loads the protocol test models and the cases of proto that
// apply to servers; ok is false when that failed (a failure of r).
func serverCases(r *Result, shared string, proto model.ShapeID) (*model.Model, []protocolCase, bool) {
	m, err := loadProtocolModel(shared)
	if err == nil {
		var cases []protocolCase
		if cases, err = collectSide(m, proto, "server"); err == nil {
			return m, cases, true
		}
	}
	r.fail("load", "%v", err)
	return nil, nil, false
}

func runServerSuite(shared, name string, s serverSuite) Result {
	r := Result{Suite: name}
	m, cases, ok := serverCases(&r, shared, s.proto)
	if !ok {
		return r
	}
	excl := readExclusions(s.excl)
	bySvc := map[model.ShapeID][]protocolCase{}
	var order []model.ShapeID
	for _, c := range cases {
		if bySvc[c.svc] == nil {
			order = append(order, c.svc)
		}
		bySvc[c.svc] = append(bySvc[c.svc], c)
	}
	for _, sid := range order {
		runServerCases(&r, m, sid, bySvc[sid], excl, s.requestID)
	}
	return r
}

// runServerCases runs the server cases of service sid, its responses
// rendered with request id reqID.
func runServerCases(r *Result, m *model.Model, sid model.ShapeID, cases []protocolCase, excl map[string]string, reqID string) {
	svc, err := m.Service(sid)
	if err != nil {
		r.fail(string(sid), "%v", err)
		return
	}
	srv, err := protocol.NewServer(m, svc, protocol.WithValidation())
	if err != nil {
		r.fail(string(sid), "%v", err)
		return
	}
	rend := respond.WithRequestID(respond.For(svc), reqID)
	for _, c := range cases {
		_, excluded := excl[c.key()]
		r.record(c.key(), excluded, guard(caseTimeout, func() error {
			if c.kind == "request" {
				return checkServerRequest(m, srv, c)
			}
			return checkServerResponse(m, rend, c)
		}))
	}
}

// caseRequest is the HTTP request of a request case as a server receives
// it: its uri with the case's query parameters, its headers and body.
func caseRequest(tc model.Node) *wire.Request {
	req := &wire.Request{Method: field(tc, "method"), Path: field(tc, "uri"), Header: wire.Header{}}
	if q, ok := tc.Get("queryParams"); ok {
		var pairs []string
		for _, p := range q.Items() {
			pairs = append(pairs, p.Str())
		}
		if len(pairs) > 0 {
			sep := "?"
			if strings.Contains(req.Path, "?") {
				sep = "&"
			}
			req.Path += sep + strings.Join(pairs, "&")
		}
	}
	if h, ok := tc.Get("headers"); ok {
		for i := 0; i < h.Len(); i++ {
			k, v := h.Entry(i)
			req.Header[k] = append(req.Header[k], v.Str())
		}
	}
	req.Body = caseBody(tc)
	return req
}

// checkServerRequest routes and decodes a request case and compares the
// input with its params.
func checkServerRequest(m *model.Model, srv protocol.Server, c protocolCase) error {
	req := caseRequest(c.tc)
	completeRPCRequest(srv.Protocol(), c, req)
	op, err := srv.Route(req)
	if err != nil {
		return fmt.Errorf("route: %v", err)
	}
	if op.Shape.ID != c.op.Shape.ID {
		return fmt.Errorf("routed to %s, want %s", op.Shape.ID, c.op.Shape.ID)
	}
	in, err := srv.DecodeRequest(context.Background(), op, req)
	if err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	params, _ := c.tc.Get("params")
	want := docValue(m, c.op.Input.ID, params, true)
	if d := jsonDiff(in, []byte(orEmptyObject(want))); d != "" {
		return fmt.Errorf("input: %s", d)
	}
	return nil
}

// checkServerResponse renders a response case from its params and
// compares status, headers and body with the case.
func checkServerResponse(m *model.Model, rend respond.Renderer, c protocolCase) error {
	params, _ := c.tc.Get("params")
	shape := c.op.Output
	if c.errShape != nil {
		shape = c.errShape
	}
	vals, err := plainValues(docValue(m, shape.ID, params, false))
	if err != nil {
		return err
	}
	var resp *wire.Response
	if c.errShape != nil {
		resp, err = rend.RenderError(m, c.op, c.errShape, vals)
		if svc, serr := m.Service(c.svc); err == nil && serr == nil {
			respond.AddQueryErrorHeader(svc, c.errShape, resp) // as serve does
		}
	} else {
		resp, err = rend.RenderResponse(m, c.op, vals)
	}
	if err != nil {
		return fmt.Errorf("render: %v", err)
	}
	return compareResponse(c.tc, resp, field(c.tc, "body"), field(c.tc, "bodyMediaType"))
}

// plainValues turns a document-form value into the Go values respond
// renders (encoding/json's, numbers as json.Number).
func plainValues(n model.Node) (map[string]any, error) {
	out := map[string]any{}
	if n.IsNull() {
		return out, nil
	}
	d := json.NewDecoder(bytes.NewReader([]byte(n.JSON())))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return nil, fmt.Errorf("params: %v", err)
	}
	return out, nil
}

// compareResponse compares a rendered response with a case's code,
// headers and (when the case gives one) body.
func compareResponse(tc model.Node, resp *wire.Response, body, mediaType string) error {
	var diffs []string
	if v, ok := tc.Get("code"); ok {
		if n, _ := v.Int64(); int(n) != resp.Status {
			diffs = append(diffs, fmt.Sprintf("status %d, want %d", resp.Status, n))
		}
	}
	diffs = append(diffs, checkHeaders(tc, resp.Header)...)
	if _, ok := tc.Get("body"); ok {
		if mediaType == "" {
			mediaType = resp.Header.Get("Content-Type")
		}
		if d := compareBody(resp.Body, body, mediaType); d != "" {
			diffs = append(diffs, d)
		}
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}
