package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/serve"
	"github.com/smithycurl/smithycurl/wire"
)

// restJson1's httpMalformedRequestTests, run through the mock server
// (serve.New, an http.Handler) as users get it: each case's request, its
// testParameters expanded (one case per index), must be answered with the
// case's status and headers, and its body must meet the assertion (the
// exact JSON, or a regex on its message).

const traitMalformedTests model.ShapeID = "smithy.test#httpMalformedRequestTests"

// malformedCase is one expanded case.
type malformedCase struct {
	id  string
	op  *model.Operation
	svc model.ShapeID
	tc  model.Node          // the case as written
	arg map[string]string   // its test parameters at this index
	sub func(string) string // substitutes them into a string of the case
}

// MalformedRestJSON1 runs restJson1's malformed request cases.
func MalformedRestJSON1(shared string) Result {
	r := Result{Suite: "restJson1 malformed requests (server)"}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	excl := readExclusions("restJson1-malformed.tsv")
	written := 0
	for _, sid := range m.Services() {
		s, _ := m.Shape(sid)
		if !s.HasTrait(protocol.RestJSON1) {
			continue
		}
		svc, err := m.Service(sid)
		if err != nil {
			r.fail(string(sid), "%v", err)
			continue
		}
		cases, n := malformedCases(svc, protocol.RestJSON1)
		if len(cases) == 0 {
			continue
		}
		written += n
		h, err := serve.New(m, svc)
		if err != nil {
			r.fail(string(sid), "%v", err)
			continue
		}
		for _, c := range cases {
			_, excluded := excl[c.id]
			r.record(c.id, excluded, guard(caseTimeout, func() error { return checkMalformed(h, c) }))
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("restJson1 malformed requests: %d cases, %d with their testParameters expanded", written, r.Passed+r.Failed+r.Skipped))
	return r
}

// malformedCases expands the malformed request cases of svc's operations
// for protocol proto; n is how many cases are written.
func malformedCases(svc *model.Service, proto model.ShapeID) (out []malformedCase, n int) {
	for _, op := range svc.Operations {
		list, ok := op.Shape.Traits.Get(traitMalformedTests)
		if !ok {
			continue
		}
		for _, tc := range list.Items() {
			if field(tc, "protocol") != string(proto) {
				continue
			}
			n++
			id := field(tc, "id")
			params, _ := tc.Get("testParameters")
			if params.Len() == 0 {
				// "$$" is a dollar sign here too, as the cases write it
				// (RestJsonMalformedPatternReDOSString).
				out = append(out, malformedCase{id: id, op: op, svc: svc.Shape.ID, tc: tc, sub: func(s string) string { return substitute(s, nil) }})
				continue
			}
			count := 0
			for i := 0; i < params.Len(); i++ {
				_, vs := params.Entry(i)
				count = max(count, vs.Len())
			}
			for k := 0; k < count; k++ {
				arg := map[string]string{}
				for i := 0; i < params.Len(); i++ {
					name, vs := params.Entry(i)
					if items := vs.Items(); k < len(items) {
						arg[name] = items[k].Str()
					}
				}
				out = append(out, malformedCase{id: id + "#" + strconv.Itoa(k), op: op, svc: svc.Shape.ID, tc: tc, arg: arg,
					sub: func(s string) string { return substitute(s, arg) }})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, n
}

// substitute writes the test parameters into s by the conventions of
// Smithy's CodeWriter: $name:L is the value as it is, $name:S the value as
// a quoted string literal, $$ a dollar sign.
func substitute(s string, arg map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		v, ok := arg[s[i+1:j]]
		if !ok || j+1 >= len(s) || s[j] != ':' || (s[j+1] != 'L' && s[j+1] != 'S') {
			b.WriteByte('$')
			continue
		}
		if s[j+1] == 'S' {
			q, _ := json.Marshal(v)
			v = string(bytes.ReplaceAll(q, []byte(`\u0026`), []byte("&")))
		}
		b.WriteString(v)
		i = j + 1
	}
	return b.String()
}

// checkMalformed sends the case's request to the handler and checks the
// answer.
func checkMalformed(h http.Handler, c malformedCase) error {
	reqDef, _ := c.tc.Get("request")
	respDef, _ := c.tc.Get("response")
	target := c.sub(field(reqDef, "uri"))
	if q, ok := reqDef.Get("queryParams"); ok && q.Len() > 0 {
		var pairs []string
		for _, p := range q.Items() {
			pairs = append(pairs, c.sub(p.Str()))
		}
		target += "?" + strings.Join(pairs, "&")
	}
	path, query, _ := strings.Cut(target, "?")
	req := &http.Request{
		Method:     field(reqDef, "method"),
		URL:        &url.URL{Opaque: path, RawQuery: query},
		RequestURI: target,
		Header:     http.Header{},
		Host:       "127.0.0.1",
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}
	if hs, ok := reqDef.Get("headers"); ok {
		for i := 0; i < hs.Len(); i++ {
			k, v := hs.Entry(i)
			req.Header.Add(k, c.sub(v.Str()))
		}
	}
	body := []byte(c.sub(field(reqDef, "body")))
	req.Body = httpBody(body)
	req.ContentLength = int64(len(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := &wire.Response{Status: rec.Code, Header: wire.Header(rec.Header()), Body: rec.Body.Bytes()}

	var diffs []string
	if v, ok := respDef.Get("code"); ok {
		if n, _ := v.Int64(); int(n) != resp.Status {
			diffs = append(diffs, fmt.Sprintf("status %d, want %d", resp.Status, n))
		}
	}
	if hs, ok := respDef.Get("headers"); ok {
		for i := 0; i < hs.Len(); i++ {
			k, v := hs.Entry(i)
			if got, want := resp.Header.Get(k), c.sub(v.Str()); got != want {
				diffs = append(diffs, fmt.Sprintf("header %s = %q, want %q", k, got, want))
			}
		}
	}
	if b, ok := respDef.Get("body"); ok {
		assertion, _ := b.Get("assertion")
		if contents, ok := assertion.Get("contents"); ok {
			if d := compareBody(resp.Body, c.sub(contents.Str()), field(b, "mediaType")); d != "" {
				diffs = append(diffs, d)
			}
		}
		if re, ok := assertion.Get("messageRegex"); ok {
			if d := matchMessage(resp.Body, c.sub(re.Str())); d != "" {
				diffs = append(diffs, d)
			}
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s %s: %s (body %s)", req.Method, target, strings.Join(diffs, "; "), resp.Body)
	}
	return nil
}

// matchMessage checks the message of a JSON error body against a regex.
func matchMessage(body []byte, expr string) string {
	re, err := regexp.Compile(expr)
	if err != nil {
		return fmt.Sprintf("the case's messageRegex %q: %v", expr, err)
	}
	var v struct {
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Message == nil {
		return fmt.Sprintf("no message in the body %q", body)
	}
	if !re.MatchString(*v.Message) {
		return fmt.Sprintf("message %q does not match %q", *v.Message, expr)
	}
	return ""
}

// bodyReader is a request body for the handler.
type bodyReader struct{ *bytes.Reader }

func (bodyReader) Close() error { return nil }

func httpBody(b []byte) bodyReader { return bodyReader{bytes.NewReader(b)} }
