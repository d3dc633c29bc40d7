package protocol

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The server half of the REST protocols (restJson1, simpleRestJson,
// restXml): routing (route_http.go) and the request's input, read by the
// same compiled plans and body decoders as responses, with the strict
// reading a server owes its clients (jsonOptions.strict).

// Error codes of refused requests, as Smithy's servers name them.
const (
	codeSerialization    = "SerializationException"
	codeUnknownOperation = "UnknownOperationException"
	codeUnsupportedMedia = "UnsupportedMediaTypeException"
	codeNotAcceptable    = "NotAcceptableException"
)

// restServer is the Server of a REST protocol for one service.
type restServer struct {
	c      *restCodec
	svc    *model.Service
	routes *routeTable
	// xml is set for restXml: text/xml is also a document body.
	xml bool
}

// newRestServer compiles the routes of svc's operations with a server's
// codec of dialect d.
func newRestServer(m *model.Model, svc *model.Service, d dialect, xml bool, opts []Option) (*restServer, error) {
	c := newRestCodec(m, d, opts)
	c.json.strict = true
	if xml {
		c.body = xmlBody{o: &c.json, svcNS: nsOf(svc.Shape.Traits)}
	}
	routes, err := compileRoutes(c, svc)
	if err != nil {
		return nil, err
	}
	return &restServer{c: c, svc: svc, routes: routes, xml: xml}, nil
}

func (s *restServer) Protocol() model.ShapeID { return s.c.d.protocol }

func (s *restServer) Route(req *wire.Request) (*model.Operation, error) {
	r, err := s.routes.route(req)
	if err != nil {
		status := 404
		if !errors.Is(err, errNoRoute) {
			status = 400 // a query string that is not percent-encoding
		}
		return nil, &RequestError{Status: status, Code: codeUnknownOperation, Err: fmt.Errorf("%s %s: %w", req.Method, pathOnly(req.Path), err)}
	}
	return r.p.op, nil
}

// pathOnly is a request path without its query, for messages.
func pathOnly(p string) string {
	p, _, _ = strings.Cut(p, "?")
	return p
}

func (s *restServer) DecodeRequest(ctx context.Context, op *model.Operation, req *wire.Request) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := s.routes.byOp[op]
	if r == nil {
		return nil, fmt.Errorf("operation %s is not an operation of service %s", op.Shape.ID, s.svc.Shape.ID)
	}
	p := r.p
	fail := func(status int, code string, err error) error {
		return &RequestError{Operation: op.Shape.ID, Status: status, Code: code, Err: err}
	}
	if err := s.checkContentType(p.in, req); err != nil {
		return nil, fail(415, codeUnsupportedMedia, err)
	}
	if err := s.checkAccept(p.out, req); err != nil {
		return nil, fail(406, codeNotAcceptable, err)
	}
	target, err := parseTarget(req.Path)
	if err != nil {
		return nil, fail(400, codeSerialization, err)
	}
	labels, ok := r.match(target)
	if !ok {
		return nil, fail(400, codeSerialization, fmt.Errorf("%s %s does not match the operation's URI pattern", req.Method, pathOnly(req.Path)))
	}
	header, body, err := decompress(req.Header, req.Body)
	if err != nil {
		status := 400
		if errors.Is(err, errBodyTooLarge) {
			status = 413
		}
		return nil, fail(status, codeSerialization, err)
	}
	// The headers, payload and body read as a response's are, by the
	// same code; then labels and query.
	doc, err := s.c.decodeBound(p.in, &wire.Response{Header: header, Body: body}, nil)
	if err != nil {
		return nil, fail(400, codeSerialization, err)
	}
	if doc, err = s.addURIMembers(doc, r, labels, target); err != nil {
		return nil, fail(400, codeSerialization, err)
	}
	vals, err := topLevel(p.in.sc, doc)
	if err != nil {
		return nil, fail(400, codeSerialization, err)
	}
	v := validator{constraints: s.c.cfg.validate, smithy: true}
	if vs := v.input(p.in.sc, vals); len(vs) > 0 {
		if s.c.cfg.validate {
			return nil, &ValidationError{Operation: op.Shape.ID, Violations: vs}
		}
		return nil, fail(400, codeSerialization, errors.New(vs[0].Message))
	}
	return doc, nil
}

// addURIMembers adds the labels' and query's members to doc, the object
// of the other members.
func (s *restServer) addURIMembers(doc []byte, r *httpRoute, labels []string, t requestTarget) ([]byte, error) {
	in := r.p.in
	// doc is "{...}" as decodeBound writes it: reopened, and closed
	// again after the URI's members.
	w := objectWriter{dst: doc[:len(doc)-1]}
	if len(doc) > 2 {
		w.n = 1
	}
	for i, sg := range r.segments {
		if sg.label == nil {
			continue
		}
		text, err := url.PathUnescape(labels[i])
		if err != nil {
			return nil, inMember(badValue(fmt.Sprintf("label %q: %v", labels[i], err)), sg.label.name)
		}
		v, err := s.c.json.textScalar(text, sg.label, formatDateTime)
		if err != nil {
			return nil, inMember(err, sg.label.name)
		}
		w.member(sg.label)
		w.dst = append(w.dst, v...)
	}
	// The pattern's literal keys select the operation: they are no
	// parameter. @httpQueryParams takes every other key, those of
	// @httpQuery members too.
	literal := map[string]bool{}
	for _, q := range r.query {
		literal[q.key] = true
	}
	for _, mc := range in.query {
		var vals []string
		for _, kv := range t.query {
			if kv[0] == mc.locName {
				vals = append(vals, kv[1])
			}
		}
		if vals == nil {
			continue
		}
		v, err := s.queryValue(vals, mc)
		if err != nil {
			return nil, inMember(err, mc.name)
		}
		w.member(mc)
		w.dst = append(w.dst, v...)
	}
	if qp := in.queryParams; qp != nil {
		v, err := s.queryParams(qp, t, literal)
		if err != nil {
			return nil, inMember(err, qp.name)
		}
		if v != nil {
			w.member(qp)
			w.dst = append(w.dst, v...)
		}
	}
	return append(w.dst, '}'), nil
}

// queryValue reads the values of one query key: a list takes them all, a
// scalar the first.
func (s *restServer) queryValue(vals []string, mc *memberCodec) ([]byte, error) {
	if mc.target.kind != kList {
		return s.c.json.textScalar(vals[0], mc, formatDateTime)
	}
	out := []byte{'['}
	for i, v := range vals {
		if i > 0 {
			out = append(out, ',')
		}
		doc, err := s.c.json.textScalar(v, mc.target.elem, formatDateTime)
		if err != nil {
			return nil, inIndex(err, i)
		}
		out = append(out, doc...)
	}
	return append(out, ']'), nil
}

// queryParams reads an @httpQueryParams map: every query key but those
// of skip, in the order of the query string; nil when there is none.
func (s *restServer) queryParams(qp *memberCodec, t requestTarget, skip map[string]bool) ([]byte, error) {
	var keys []string
	byKey := map[string][]string{}
	for _, kv := range t.query {
		if skip[kv[0]] {
			continue
		}
		if _, seen := byKey[kv[0]]; !seen {
			keys = append(keys, kv[0])
		}
		byKey[kv[0]] = append(byKey[kv[0]], kv[1])
	}
	if keys == nil {
		return nil, nil
	}
	out := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendString(out, k)
		out = append(out, ':')
		v, err := s.queryValue(byKey[k], qp.target.elem)
		if err != nil {
			return nil, inKey(err, []byte(k))
		}
		out = append(out, v...)
	}
	return append(out, '}'), nil
}

// MaxDecompressedBody bounds a gzip request body (@requestCompression)
// once decompressed.
const MaxDecompressedBody = 16 << 20

var errBodyTooLarge = errors.New("body too large")

// decompress undoes the gzip of a request body whose Content-Encoding ends
// with it (@requestCompression appends it to the caller's encodings), and
// takes it off the header the input's members read.
func decompress(h wire.Header, body []byte) (wire.Header, []byte, error) {
	v, ok := headerValues(h, "Content-Encoding")
	if !ok {
		return h, body, nil
	}
	encs := strings.Split(strings.Join(v, ","), ",")
	last := len(encs) - 1
	if !strings.EqualFold(trimOWS(encs[last]), "gzip") {
		return h, body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, nil, fmt.Errorf("gzip body: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxDecompressedBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("gzip body: %w", err)
	}
	if len(out) > MaxDecompressedBody {
		return nil, nil, fmt.Errorf("gzip body: %w (%d bytes decompressed)", errBodyTooLarge, MaxDecompressedBody)
	}
	h2 := wire.Header{}
	for k, vs := range h {
		h2[k] = vs
	}
	for k := range h2 {
		if strings.EqualFold(k, "Content-Encoding") {
			delete(h2, k)
		}
	}
	if last > 0 {
		for i := range encs[:last] {
			encs[i] = trimOWS(encs[i])
		}
		h2.Set("Content-Encoding", strings.Join(encs[:last], ", "))
	}
	return h2, out, nil
}

// bodyMediaType is the media type of the body of structure b, "" when it
// has none, and whether any type is taken (a blob payload without
// @mediaType).
func (s *restServer) bodyMediaType(b *binding) (mt string, any bool) {
	if pm := b.payload; pm != nil {
		switch pm.target.kind {
		case kBlob:
			return pm.mediaType, pm.mediaType == ""
		case kString, kEnum:
			if s.c.d.jsonStringPayload && pm.mediaType == "" {
				return "application/json", false
			}
			return orDefault(pm.mediaType, "text/plain"), false
		case kUnion:
			if pm.streaming {
				return EventStreamMediaType, false
			}
		}
		return orDefault(pm.mediaType, s.c.body.mediaType()), false
	}
	if len(b.body) > 0 {
		return s.c.body.mediaType(), false
	}
	return "", false
}

// checkContentType checks the request's Content-Type against the input's
// body: the body's media type when it has one (a body must say it), none
// with a body when the input binds nothing to it.
func (s *restServer) checkContentType(in *binding, req *wire.Request) error {
	ct, has := headerValues(req.Header, "Content-Type")
	got := ""
	if has && len(ct) > 0 {
		got = ct[0]
	}
	want, anyType := s.bodyMediaType(in)
	optional := s.c.d.protocol == SimpleRestJSON // smithy4s reads a body without one
	if want == "" && in.sc.kind != kUnit && len(in.sc.members) == 0 {
		// An input without members: a client may send an empty document.
		want, optional = s.c.body.mediaType(), true
	}
	switch {
	case anyType:
	case want == "":
		if got != "" && len(req.Body) > 0 {
			return fmt.Errorf("the operation takes no body, got Content-Type %q", got)
		}
	case got == "":
		if len(req.Body) > 0 && !optional {
			return fmt.Errorf("a body without a Content-Type, want %s", want)
		}
	case !s.sameMediaType(got, want):
		return fmt.Errorf("Content-Type %q, want %s", got, want)
	}
	return nil
}

// checkAccept checks that the request's Accept, when it has one, takes the
// media type of the output's body.
func (s *restServer) checkAccept(out *binding, req *wire.Request) error {
	acc, ok := headerValues(req.Header, "Accept")
	if !ok {
		return nil
	}
	want, anyType := s.bodyMediaType(out)
	if want == "" || anyType {
		return nil
	}
	wt, ws, _ := strings.Cut(want, "/")
	for _, a := range strings.Split(strings.Join(acc, ","), ",") {
		mt := mediaTypeOf(a)
		t, sub, _ := strings.Cut(mt, "/")
		if mt == "*/*" || (t == wt && (sub == "*" || sub == ws)) || s.sameMediaType(mt, want) {
			return nil
		}
	}
	return fmt.Errorf("Accept %q does not take %s", strings.Join(acc, ", "), want)
}

// mediaTypeOf is the type/subtype of a Content-Type or Accept value, in
// lower case, without parameters.
func mediaTypeOf(v string) string {
	mt, _, _ := strings.Cut(v, ";")
	return strings.ToLower(trimOWS(mt))
}

// sameMediaType compares a received media type with the one expected;
// restXml takes text/xml for application/xml.
func (s *restServer) sameMediaType(got, want string) bool {
	g, w := mediaTypeOf(got), mediaTypeOf(want)
	if g == w {
		return true
	}
	return s.xml && w == "application/xml" && g == "text/xml"
}
