package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

const (
	traitRequestTests  model.ShapeID = "smithy.test#httpRequestTests"
	traitResponseTests model.ShapeID = "smithy.test#httpResponseTests"
	fixedToken                       = "00000000-0000-4000-8000-000000000000"
)

// protocolCase is one client request or response test case.
type protocolCase struct {
	kind string // "request" or "response"
	id   string
	tc   model.Node
	op   *model.Operation
	// svc is the service the case was found in.
	svc model.ShapeID
	// errShape is set for response cases declared on an error structure.
	errShape *model.Shape
}

func (c protocolCase) key() string { return c.kind + ":" + c.id }

// loadProtocolModel loads every model under $shared/conformance.
func loadProtocolModel(shared string) (*model.Model, error) {
	l := model.NewLoader()
	if err := l.AddPath(filepath.Join(shared, "conformance")); err != nil {
		return nil, err
	}
	m, _, err := l.Load(context.Background())
	return m, err
}

// collectCases finds the client cases of protocol on the operations (and
// their errors) of the services that use it.
func collectCases(m *model.Model, proto model.ShapeID) ([]protocolCase, error) {
	return collectSide(m, proto, "client")
}

// collectSide finds the cases of protocol that apply to side ("client" or
// "server"): those without appliesTo, and those that name it.
func collectSide(m *model.Model, proto model.ShapeID, side string) ([]protocolCase, error) {
	var out []protocolCase
	seenErr := map[string]bool{}
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
			add := func(kind string, traits model.Traits, id model.ShapeID, errShape *model.Shape) {
				list, ok := traits.Get(id)
				if !ok {
					return
				}
				for _, tc := range list.Items() {
					if a := field(tc, "appliesTo"); (a != "" && a != side) || field(tc, "protocol") != string(proto) {
						continue
					}
					c := protocolCase{kind: kind, id: field(tc, "id"), tc: tc, op: op, svc: sid, errShape: errShape}
					if errShape != nil {
						k := string(errShape.ID) + "/" + c.id
						if seenErr[k] {
							continue
						}
						seenErr[k] = true
					}
					out = append(out, c)
				}
			}
			add("request", op.Shape.Traits, traitRequestTests, nil)
			add("response", op.Shape.Traits, traitResponseTests, nil)
			for _, e := range op.Errors {
				add("response", e.Traits, traitResponseTests, e)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out, nil
}

func field(n model.Node, key string) string {
	v, _ := n.Get(key)
	return v.Str()
}

// RestJSON1 runs the aws.protocols#restJson1 client cases.
func RestJSON1(shared string) Result {
	r := Result{Suite: "restJson1"}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	cases, err := collectCases(m, protocol.RestJSON1)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	codec := protocol.NewRestJSON1(m, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
	excl := readExclusions("restJson1.tsv")
	cases, custom, s3Addressed := clientCases(m, cases)
	runProtocolCases(&r, m, codec, cases, excl, nil)
	runClientCases(&r, shared, m, custom, s3Addressed, excl)
	return r
}

// SimpleRestJSON runs alloy's own simpleRestJson client cases and the
// restJson1 cases alloy borrows (metadata alloySimpleRestJsonBorrowedTests),
// the latter against the restJson1 operations with the simpleRestJson codec.
func SimpleRestJSON(shared string) Result {
	r := Result{Suite: "simpleRestJson"}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	own, err := collectCases(m, protocol.SimpleRestJSON)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	rj, err := collectCases(m, protocol.RestJSON1)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	rules := borrowRules(m)
	var borrowed []protocolCase
	for _, c := range rj {
		if rules.borrows(c, "client") {
			borrowed = append(borrowed, c)
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("simpleRestJson: %d own cases, %d borrowed restJson1 cases", len(own), len(borrowed)))
	codec := protocol.NewSimpleRestJSON(m, protocol.WithIdempotencyTokens(func() string { return fixedToken }))
	excl := readExclusions("simpleRestJson.tsv")
	runProtocolCases(&r, m, codec, own, excl, nil)
	for i := range borrowed {
		borrowed[i].id = "restJson1/" + borrowed[i].id
	}
	runProtocolCases(&r, m, codec, borrowed, excl, nil)
	return r
}

type borrowRule struct {
	id, appliesTo, testType string
}

type borrowList struct{ allow, deny []borrowRule }

func borrowRules(m *model.Model) borrowList {
	var bl borrowList
	meta, _ := m.Metadata().Get("alloySimpleRestJsonBorrowedTests")
	lists, _ := meta.Get(string(protocol.RestJSON1))
	read := func(key string) []borrowRule {
		v, _ := lists.Get(key)
		var out []borrowRule
		for _, e := range v.Items() {
			out = append(out, borrowRule{id: field(e, "id"), appliesTo: field(e, "appliesTo"), testType: field(e, "testType")})
		}
		return out
	}
	bl.allow, bl.deny = read("allowList"), read("disallowList")
	return bl
}

// borrows reports whether alloy borrows restJson1 case c for side
// ("client" or "server").
func (bl borrowList) borrows(c protocolCase, side string) bool {
	match := func(rules []borrowRule) bool {
		for _, r := range rules {
			if !globMatch(r.id, c.id) {
				continue
			}
			if r.appliesTo != "" && r.appliesTo != side {
				continue
			}
			if r.testType != "" && !strings.EqualFold(r.testType, c.kind) {
				continue
			}
			return true
		}
		return false
	}
	return match(bl.allow) && !match(bl.deny)
}

// globMatch matches s against a pattern where * is any run of characters.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// runProtocolCases runs request and response cases; extra, when not nil,
// checks response cases further.
func runProtocolCases(r *Result, m *model.Model, codec protocol.Codec, cases []protocolCase, excl map[string]string,
	extra func(protocol.Codec, protocolCase) error) {
	for _, c := range cases {
		_, excluded := excl[c.key()]
		r.record(c.key(), excluded, guard(caseTimeout, func() error {
			if c.kind == "request" {
				return checkRequest(m, codec, c)
			}
			if err := checkResponse(m, codec, c); err != nil || extra == nil {
				return err
			}
			return extra(codec, c)
		}))
	}
}

func checkRequest(m *model.Model, codec protocol.Codec, c protocolCase) error {
	params, _ := c.tc.Get("params")
	input := docValue(m, c.op.Input.ID, params, false)
	in := "{}"
	if !input.IsNull() {
		in = input.JSON()
	}
	req, err := codec.EncodeRequest(context.Background(), c.op, []byte(in))
	if err != nil {
		return fmt.Errorf("encode: %v (input %s)", err, in)
	}
	gotPath, gotQuery, _ := strings.Cut(req.Path, "?")
	if _, hostPath, ok := strings.Cut(field(c.tc, "host"), "/"); ok {
		// The endpoint's own path comes before the operation's.
		gotPath = "/" + strings.TrimSuffix(hostPath, "/") + gotPath
	}
	host, _, _ := strings.Cut(field(c.tc, "host"), "/")
	gotHost, hostErr := protocol.JoinHost(req.HostPrefix, host)
	return compareRequest(c, sentRequest{method: req.Method, path: gotPath, query: gotQuery, header: req.Header,
		body: req.Body, host: gotHost, hostErr: hostErr})
}

// sentRequest is a request as sent: its path with the endpoint's path
// first, and the host with any host prefix.
type sentRequest struct {
	method, path, query string
	header              wire.Header
	body                []byte
	host                string
	hostErr             error
}

// compareRequest compares a sent request with what case c expects.
func compareRequest(c protocolCase, req sentRequest) error {
	var diffs []string
	if want := field(c.tc, "method"); !strings.EqualFold(want, req.method) {
		diffs = append(diffs, fmt.Sprintf("method %s, want %s", req.method, want))
	}
	gotPath, gotQuery := req.path, req.query
	wantPath, wantQuery, _ := strings.Cut(field(c.tc, "uri"), "?")
	if gotPath != wantPath {
		diffs = append(diffs, fmt.Sprintf("path %q, want %q", gotPath, wantPath))
	}
	if wantQuery != "" {
		diffs = append(diffs, "uri with a query is not supported by the runner")
	}
	pairs := splitQuery(gotQuery)
	if v, ok := c.tc.Get("queryParams"); ok {
		for _, q := range v.Items() {
			k, val, _ := strings.Cut(q.Str(), "=")
			want := unescapeQuery(k) + "=" + unescapeQuery(val)
			if !containsPair(pairs, want) {
				diffs = append(diffs, fmt.Sprintf("query %q missing (got %q)", q.Str(), gotQuery))
			}
		}
	}
	if v, ok := c.tc.Get("forbidQueryParams"); ok {
		for _, q := range v.Items() {
			if hasQueryKey(pairs, q.Str()) {
				diffs = append(diffs, fmt.Sprintf("query %q is forbidden", q.Str()))
			}
		}
	}
	if v, ok := c.tc.Get("requireQueryParams"); ok {
		for _, q := range v.Items() {
			if !hasQueryKey(pairs, q.Str()) {
				diffs = append(diffs, fmt.Sprintf("query %q is required", q.Str()))
			}
		}
	}
	diffs = append(diffs, checkHeaders(c.tc, req.header)...)
	if v, ok := c.tc.Get("resolvedHost"); ok {
		if req.hostErr != nil {
			diffs = append(diffs, req.hostErr.Error())
		} else if req.host != v.Str() {
			diffs = append(diffs, fmt.Sprintf("host %q, want %q", req.host, v.Str()))
		}
	}
	if v, ok := c.tc.Get("body"); ok {
		mt := field(c.tc, "bodyMediaType")
		if mt == "" {
			if h, ok := c.tc.Get("headers"); ok {
				for i := 0; i < h.Len(); i++ {
					if k, v := h.Entry(i); strings.EqualFold(k, "Content-Type") {
						mt = v.Str()
					}
				}
			}
		}
		if mt == "" {
			mt = req.header.Get("Content-Type")
		}
		if d := compareBody(req.body, v.Str(), mt); d != "" {
			diffs = append(diffs, d)
		}
	}
	if len(diffs) > 0 {
		return errors.New(strings.Join(diffs, "; "))
	}
	return nil
}

func checkHeaders(tc model.Node, h wire.Header) []string {
	var diffs []string
	get := func(name string) ([]string, bool) {
		for k, v := range h {
			if strings.EqualFold(k, name) {
				return v, true
			}
		}
		return nil, false
	}
	if v, ok := tc.Get("headers"); ok {
		for i := 0; i < v.Len(); i++ {
			k, want := v.Entry(i)
			got, ok := get(k)
			if !ok {
				diffs = append(diffs, fmt.Sprintf("header %s missing, want %q", k, want.Str()))
			} else if strings.Join(got, ", ") != want.Str() {
				diffs = append(diffs, fmt.Sprintf("header %s = %q, want %q", k, strings.Join(got, ", "), want.Str()))
			}
		}
	}
	if v, ok := tc.Get("forbidHeaders"); ok {
		for _, k := range v.Items() {
			if _, ok := get(k.Str()); ok {
				diffs = append(diffs, fmt.Sprintf("header %s is forbidden", k.Str()))
			}
		}
	}
	if v, ok := tc.Get("requireHeaders"); ok {
		for _, k := range v.Items() {
			if _, ok := get(k.Str()); !ok {
				diffs = append(diffs, fmt.Sprintf("header %s is required", k.Str()))
			}
		}
	}
	return diffs
}

func splitQuery(q string) []string {
	if q == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(p, "=")
		out = append(out, unescapeQuery(k)+"="+unescapeQuery(v))
	}
	return out
}

func unescapeQuery(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

func containsPair(pairs []string, want string) bool {
	for _, p := range pairs {
		if p == want {
			return true
		}
	}
	return false
}

func hasQueryKey(pairs []string, key string) bool {
	for _, p := range pairs {
		if k, _, _ := strings.Cut(p, "="); k == key {
			return true
		}
	}
	return false
}

// compareBody compares bodies by media type: JSON and CBOR (base64 in the
// tests) as values, else bytes.
func compareBody(got []byte, want, mediaType string) string {
	if isCBOR(mediaType) {
		return cborDiff(got, want)
	}
	if d, ok := compareOtherBody(got, want, mediaType); ok {
		return d
	}
	if strings.Contains(mediaType, "json") && strings.TrimSpace(want) != "" {
		if len(bytes.TrimSpace(got)) == 0 {
			return fmt.Sprintf("body is empty, want %s", want)
		}
		if d := jsonDiff(got, []byte(want)); d != "" {
			return "body: " + d
		}
		return ""
	}
	if string(got) != want {
		return fmt.Sprintf("body %q, want %q", got, want)
	}
	return ""
}

func checkResponse(m *model.Model, codec protocol.Codec, c protocolCase) error {
	resp := &wire.Response{Header: wire.Header{}}
	if v, ok := c.tc.Get("code"); ok {
		n, _ := v.Int64()
		resp.Status = int(n)
	}
	if v, ok := c.tc.Get("headers"); ok {
		for i := 0; i < v.Len(); i++ {
			k, val := v.Entry(i)
			resp.Header[k] = append(resp.Header[k], val.Str())
		}
	}
	resp.Body = caseBody(c.tc)
	out, err := codec.DecodeResponse(context.Background(), c.op, resp)
	params, _ := c.tc.Get("params")
	if c.errShape != nil {
		var se *protocol.ServiceError
		if !errors.As(err, &se) {
			return fmt.Errorf("want error %s, got output %s, err %v", c.errShape.ID, out, err)
		}
		if se.Shape != c.errShape.ID {
			return fmt.Errorf("error %q (code %q), want %s", se.Shape, se.Code, c.errShape.ID)
		}
		want := docValue(m, c.errShape.ID, params, true)
		if d := jsonDiff(se.Members, []byte(orEmptyObject(want))); d != "" {
			return fmt.Errorf("error members: %s", d)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	want := docValue(m, c.op.Output.ID, params, true)
	want = emptyBlobPayload(m, c.op.Output, want, resp.Body)
	if d := jsonDiff(out, []byte(orEmptyObject(want))); d != "" {
		return fmt.Errorf("output: %s", d)
	}
	return nil
}

// emptyBlobPayload adds the empty blob smithycurl returns for a blob
// @httpPayload when the body is empty (as boto3 does: Lambda's Invoke with
// an empty Payload is b"", not None). An empty body is both "no payload"
// and "an empty payload", so the cases that expect no member
// (RestJsonHttpPayloadTraitsWithNoBlobBody) cannot tell the two apart.
func emptyBlobPayload(m *model.Model, out *model.Shape, want model.Node, body []byte) model.Node {
	if len(body) > 0 {
		return want
	}
	for _, mem := range out.Members {
		t, ok := m.Shape(mem.Target)
		if !ok || t.Type != model.BlobType || !mem.Traits.Has(model.TraitHTTPPayload) {
			continue
		}
		if _, set := want.Get(mem.Name()); set {
			return want
		}
		var b model.ObjectBuilder
		for i := 0; i < want.Len(); i++ {
			k, v := want.Entry(i)
			b.Set(k, v)
		}
		b.Set(mem.Name(), model.String(""))
		return b.Build()
	}
	return want
}

func orEmptyObject(n model.Node) string {
	if n.IsNull() {
		return "{}"
	}
	return n.JSON()
}

// docValue converts test params to the document form: blobs (raw text in
// the tests) become base64; on output timestamps become RFC 3339 strings.
func docValue(m *model.Model, id model.ShapeID, n model.Node, output bool) model.Node {
	if n.IsNull() {
		return n
	}
	s, ok := m.Shape(id)
	if !ok {
		return n
	}
	member := func(name string) (model.ShapeID, bool) {
		mem, ok := s.Member(name)
		if !ok {
			return "", false
		}
		return mem.Target, true
	}
	switch s.Type {
	case model.BlobType:
		if n.Kind() == model.StringNode {
			return model.String(base64.StdEncoding.EncodeToString([]byte(n.Str())))
		}
	case model.TimestampType:
		if output && n.Kind() == model.NumberNode && !strings.ContainsAny(n.Literal(), "eE-") {
			whole, frac, _ := strings.Cut(n.Literal(), ".")
			frac = strings.TrimRight(frac, "0")
			sec, _ := n.Int64()
			if frac != "" {
				f := n.Float64()
				sec = int64(f)
				_ = whole
			}
			out := time.Unix(sec, 0).UTC().Format("2006-01-02T15:04:05")
			if frac != "" {
				out += "." + frac
			}
			return model.String(out + "Z")
		}
	case model.ListType, model.SetType:
		t, _ := member("member")
		items := make([]model.Node, 0, n.Len())
		for _, it := range n.Items() {
			items = append(items, docValue(m, t, it, output))
		}
		return model.Array(items...)
	case model.MapType:
		t, _ := member("value")
		var b model.ObjectBuilder
		for i := 0; i < n.Len(); i++ {
			k, v := n.Entry(i)
			b.Set(k, docValue(m, t, v, output))
		}
		return b.Build()
	case model.StructureType, model.UnionType:
		var b model.ObjectBuilder
		for i := 0; i < n.Len(); i++ {
			k, v := n.Entry(i)
			if t, ok := member(k); ok {
				v = docValue(m, t, v, output)
			}
			b.Set(k, v)
		}
		return b.Build()
	}
	return n
}

// jsonDiff compares two JSON texts as values (numbers by value, object key
// order ignored) and describes the first difference.
func jsonDiff(got, want []byte) string {
	var g, w any
	if err := decodeJSON(got, &g); err != nil {
		return fmt.Sprintf("invalid JSON %q: %v", got, err)
	}
	if err := decodeJSON(want, &w); err != nil {
		return fmt.Sprintf("invalid expected JSON %q: %v", want, err)
	}
	if d := valueDiff("", g, w); d != "" {
		return fmt.Sprintf("%s (got %s, want %s)", d, compact(got), compact(want))
	}
	return ""
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func decodeJSON(b []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func valueDiff(path string, g, w any) string {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %v, want an object", orRoot(path), g)
		}
		for k, x := range wv {
			y, ok := gv[k]
			if !ok && x == nil {
				continue // null is the same as absent
			}
			if !ok {
				return fmt.Sprintf("%s.%s: missing", orRoot(path), k)
			}
			if d := valueDiff(path+"."+k, y, x); d != "" {
				return d
			}
		}
		for k := range gv {
			if _, ok := wv[k]; !ok {
				return fmt.Sprintf("%s.%s: unexpected", orRoot(path), k)
			}
		}
		return ""
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Sprintf("%s: got %v, want %v", orRoot(path), g, w)
		}
		for i := range wv {
			if d := valueDiff(fmt.Sprintf("%s[%d]", path, i), gv[i], wv[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		gv, ok := g.(json.Number)
		if ok {
			a, _, e1 := big.ParseFloat(string(gv), 10, 256, big.ToNearestEven)
			b, _, e2 := big.ParseFloat(string(wv), 10, 256, big.ToNearestEven)
			if e1 == nil && e2 == nil && a.Cmp(b) == 0 {
				return ""
			}
		}
		return fmt.Sprintf("%s: got %v, want %v", orRoot(path), g, w)
	default:
		if fmt.Sprint(g) != fmt.Sprint(w) || fmt.Sprintf("%T", g) != fmt.Sprintf("%T", w) {
			return fmt.Sprintf("%s: got %v, want %v", orRoot(path), g, w)
		}
		return ""
	}
}

func orRoot(p string) string {
	if p == "" {
		return "$"
	}
	return "$" + p
}
