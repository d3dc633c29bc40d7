package protocol

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// binding is a structure bound to an HTTP message by the HTTP binding traits.
type binding struct {
	sc          *shapeCodec
	labels      []*memberCodec
	query       []*memberCodec
	queryParams *memberCodec
	headers     []*memberCodec
	prefix      []*memberCodec
	payload     *memberCodec
	status      *memberCodec
	body        []*memberCodec // members in the document body
	idemToken   *memberCodec
	unwrapped   bool // @s3UnwrappedXmlOutput: the body is the one member
}

// bind sorts the members of sc by location; in responses labels and query
// members have no meaning and go to the body.
func bind(sc *shapeCodec, response bool) *binding {
	b := &binding{sc: sc}
	for _, mc := range sc.members {
		loc := mc.loc
		if response && (loc == inLabel || loc == inQuery || loc == inQueryParams) {
			loc = inBody
		}
		if !response && loc == inStatus {
			loc = inBody
		}
		switch loc {
		case inLabel:
			b.labels = append(b.labels, mc)
		case inQuery:
			b.query = append(b.query, mc)
		case inQueryParams:
			b.queryParams = mc
		case inHeader:
			b.headers = append(b.headers, mc)
		case inPrefixHeaders:
			b.prefix = append(b.prefix, mc)
		case inPayload:
			b.payload = mc
		case inStatus:
			b.status = mc
		default:
			b.body = append(b.body, mc)
		}
		if mc.idemToken {
			b.idemToken = mc
		}
	}
	return b
}

// uriSegment is a literal path segment or a label.
type uriSegment struct {
	literal string
	label   *memberCodec
	greedy  bool
}

type errorPlan struct {
	shape  *model.Shape
	b      *binding
	status int
}

// opPlan is an operation compiled for the REST JSON protocols.
type opPlan struct {
	op          *model.Operation
	method      string
	segments    []uriSegment
	literalQry  [][2]string // query pairs written in the URI pattern
	code        int
	in, out     *binding
	errors      []errorPlan
	host        []hostSegment
	checksum    bool
	compression []string
	acceptJSON  bool // API Gateway's Accept header (customizations.go)
}

func compileOperation(c *compiler, op *model.Operation) (*opPlan, error) {
	p := &opPlan{op: op, code: 200}
	h, ok := op.Shape.Trait(tHTTP)
	if !ok {
		return nil, fmt.Errorf("operation %s has no @http trait", op.Shape.ID)
	}
	p.method = strField(h, "method")
	if n, ok := h.Get("code"); ok {
		if v, ok := n.Int64(); ok {
			p.code = int(v)
		}
	}
	p.in = bind(c.shape(op.Input.ID), false)
	p.out = bind(c.shape(op.Output.ID), true)
	p.out.unwrapped = op.Shape.HasTrait(tS3Unwrapped)
	uri := strField(h, "uri")
	path, query, _ := strings.Cut(uri, "?")
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			name := seg[1 : len(seg)-1]
			greedy := strings.HasSuffix(name, "+")
			name = strings.TrimSuffix(name, "+")
			mc, ok := p.in.sc.byName[name]
			if !ok {
				return nil, fmt.Errorf("operation %s: label {%s} has no input member", op.Shape.ID, name)
			}
			if c.bucketInEndpoint && name == "Bucket" && !greedy && len(p.segments) == 0 {
				continue // the endpoint holds the bucket
			}
			p.segments = append(p.segments, uriSegment{label: mc, greedy: greedy})
			continue
		}
		p.segments = append(p.segments, uriSegment{literal: seg})
	}
	if query != "" {
		for _, kv := range strings.Split(query, "&") {
			k, v, _ := strings.Cut(kv, "=")
			p.literalQry = append(p.literalQry, [2]string{k, v})
		}
	}
	if e, ok := op.Shape.Trait(tEndpoint); ok {
		host, err := parseHostPrefix(op, p.in.sc, strField(e, "hostPrefix"))
		if err != nil {
			return nil, err
		}
		p.host = host
	}
	p.checksum = op.Shape.HasTrait(tChecksumRequired)
	if hc, ok := op.Shape.Trait(tHTTPChecksum); ok {
		// aws.protocols#httpChecksum with requestChecksumRequired (S3's
		// PutBucketTagging, DeleteObjects): Content-MD5, which S3 takes
		// for every such operation.
		if v, ok := hc.Get("requestChecksumRequired"); ok && v.AsBool() {
			p.checksum = true
		}
	}
	p.acceptJSON = inAPIGateway(c.m, op)
	p.compression = compressions(op)
	for _, es := range op.Errors {
		p.errors = append(p.errors, errorPlan{shape: es, b: bind(c.shape(es.ID), true), status: errorStatus(es)})
	}
	return p, nil
}

// topLevel splits the input object into the raw JSON of each member
// (indexed like sc.members; nil when absent or null).
func topLevel(sc *shapeCodec, input []byte) ([][]byte, error) {
	vals := make([][]byte, len(sc.members))
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return vals, nil
	}
	s := scanner{data: input}
	err := s.object(func(key []byte) error {
		mc, ok := sc.byName[string(key)]
		if !ok {
			if sc.shape == nil || sc.kind == kUnit {
				return fmt.Errorf("the operation takes no input, found member %q", key)
			}
			return fmt.Errorf("%s has no member %q", sc.shape.ID, key)
		}
		raw, err := s.skip()
		if err != nil {
			return fmt.Errorf("member %s: %w", mc.name, err)
		}
		if string(raw) != "null" {
			vals[memberIndex(sc, mc)] = raw
		}
		return nil
	})
	if err == nil && !s.atEnd() {
		err = s.errorf("unexpected data after the input object")
	}
	return vals, err
}

// encodeRequest builds the request of p from input.
func (c *restCodec) encodeRequest(p *opPlan, input []byte) (*wire.Request, error) {
	in := p.in
	vals, err := c.cfg.inputValues(p.op, in.sc, in.idemToken, input)
	if err != nil {
		return nil, err
	}
	val := func(mc *memberCodec) []byte { return vals[memberIndex(in.sc, mc)] }
	req := &wire.Request{Method: p.method, Header: wire.Header{}}
	if p.acceptJSON {
		req.Header.Set("Accept", "application/json")
	}

	// Path.
	var path []byte
	for _, seg := range p.segments {
		path = append(path, '/')
		if seg.label == nil {
			path = append(path, seg.literal...)
			continue
		}
		raw := val(seg.label)
		if raw == nil {
			return inputFailure(p.op, fmt.Errorf("label member %s is required", seg.label.name))
		}
		text, err := memberText(raw, seg.label, formatDateTime)
		if err != nil {
			return inputFailure(p.op, err)
		}
		if text == "" {
			return inputFailure(p.op, fmt.Errorf("label member %s must not be empty", seg.label.name))
		}
		if seg.greedy {
			parts := strings.Split(text, "/")
			for i, part := range parts {
				if i > 0 {
					path = append(path, '/')
				}
				path = wire.AppendEscaped(path, part, false) // dot segments kept, as S3's tests ask (the transport sends the path as is)
			}
		} else {
			path = appendSegment(path, text)
		}
	}
	if len(path) == 0 {
		path = append(path, '/')
	}

	// Query.
	var qry []byte
	addQuery := func(k, v string) {
		if len(qry) > 0 {
			qry = append(qry, '&')
		}
		qry = wire.AppendEscaped(qry, k, false)
		qry = append(qry, '=')
		qry = wire.AppendEscaped(qry, v, false)
	}
	for _, kv := range p.literalQry {
		if len(qry) > 0 {
			qry = append(qry, '&')
		}
		qry = append(qry, kv[0]...)
		if kv[1] != "" || strings.Contains(kv[0], "=") {
			qry = append(qry, '=')
			qry = append(qry, kv[1]...)
		}
	}
	setByQuery := map[string]bool{}
	for _, mc := range in.query {
		raw := val(mc)
		if raw == nil {
			continue
		}
		setByQuery[mc.locName] = true
		if mc.target.kind == kList {
			items, err := listTexts(raw, mc, formatDateTime)
			if err != nil {
				return inputFailure(p.op, err)
			}
			for _, it := range items {
				addQuery(mc.locName, it)
			}
			continue
		}
		text, err := memberText(raw, mc, formatDateTime)
		if err != nil {
			return inputFailure(p.op, err)
		}
		addQuery(mc.locName, text)
	}
	if qp := in.queryParams; qp != nil && val(qp) != nil {
		s := scanner{data: val(qp)}
		if s.peek() != '{' {
			return inputFailure(p.op, inMember(typeError("a map"), qp.name))
		}
		err := s.object(func(key []byte) error {
			k := string(key)
			if setByQuery[k] {
				_, err := s.skip()
				return err
			}
			if null, err := nullItem(&s, qp.target); null || err != nil {
				return inKey(err, key)
			}
			raw, err := s.skip()
			if err != nil {
				return err
			}
			if qp.target.elem.target.kind == kList {
				items, err := listTexts(raw, qp.target.elem, formatDateTime)
				if err != nil {
					return inKey(err, key)
				}
				for _, it := range items {
					addQuery(k, it)
				}
				return nil
			}
			text, err := scalarText(raw, qp.target.elem, formatDateTime)
			if err != nil {
				return inKey(err, key)
			}
			addQuery(k, text)
			return nil
		})
		if err != nil {
			return inputFailure(p.op, inMember(err, qp.name))
		}
	}
	if len(qry) > 0 {
		path = append(path, '?')
		path = append(path, qry...)
	}
	req.Path = string(path)

	// Headers; specific headers win over prefix headers.
	for _, mc := range in.prefix {
		raw := val(mc)
		if raw == nil {
			continue
		}
		s := scanner{data: raw}
		if s.peek() != '{' {
			return inputFailure(p.op, inMember(typeError("a map"), mc.name))
		}
		err := s.object(func(key []byte) error {
			if null, err := nullItem(&s, mc.target); null || err != nil {
				return inKey(err, key)
			}
			if s.peek() != '"' {
				return inKey(typeError("a string"), key)
			}
			v, err := s.str()
			if err != nil {
				return inKey(badValue(err.Error()), key)
			}
			return setHeader(req.Header, mc.locName+string(key), v)
		})
		if err != nil {
			return inputFailure(p.op, inMember(err, mc.name))
		}
	}

	for _, mc := range in.headers {
		raw := val(mc)
		if raw == nil {
			continue
		}
		if mc.target.kind == kList {
			items, err := listTexts(raw, mc, formatHTTPDate)
			if err != nil {
				return inputFailure(p.op, err)
			}
			quote := mc.target.elem.target.kind == kString || mc.target.elem.target.kind == kEnum
			for i, it := range items {
				if quote && strings.ContainsAny(it, `,"`) {
					items[i] = quoteHeaderItem(it)
				}
			}
			if err := setHeader(req.Header, mc.locName, strings.Join(items, ", ")); err != nil {
				return inputFailure(p.op, err)
			}
			continue
		}
		text, err := memberText(raw, mc, formatHTTPDate)
		if err != nil {
			return inputFailure(p.op, err)
		}
		if mc.mediaType != "" && mc.target.kind == kString {
			text = base64.StdEncoding.EncodeToString([]byte(text))
		}
		if err := setHeader(req.Header, mc.locName, text); err != nil {
			return inputFailure(p.op, err)
		}
	}
	// Body.
	if pm := in.payload; pm != nil {
		raw := val(pm)
		switch pm.target.kind {
		case kBlob:
			if raw != nil {
				s := scanner{data: raw}
				b64, err := s.strBytes()
				if err != nil {
					return inputFailure(p.op, inMember(typeError("a base64 string"), pm.name))
				}
				if err := checkBase64(b64); err != nil {
					return inputFailure(p.op, inMember(err, pm.name))
				}
				body, err := base64.StdEncoding.DecodeString(string(b64))
				if err != nil {
					return inputFailure(p.op, inMember(badValue("invalid base64: "+err.Error()), pm.name))
				}
				req.Body = body
			}
			if raw != nil || pm.streaming {
				setDefault(req.Header, "Content-Type", orDefault(pm.mediaType, "application/octet-stream"))
			}
		case kString, kEnum:
			if raw != nil {
				s := scanner{data: raw}
				v, err := s.str()
				if err != nil {
					return inputFailure(p.op, inMember(typeError("a string"), pm.name))
				}
				if c.d.jsonStringPayload && pm.mediaType == "" {
					req.Body = appendString(nil, v)
					setDefault(req.Header, "Content-Type", "application/json")
				} else {
					req.Body = []byte(v)
					setDefault(req.Header, "Content-Type", orDefault(pm.mediaType, "text/plain"))
				}
			}
		default:
			if pm.streaming && pm.target.kind == kUnion && raw == nil {
				// An input event stream: the body is its messages.
				setDefault(req.Header, "Content-Type", EventStreamMediaType)
				break
			}
			if raw != nil {
				body, err := c.body.encodePayload(pm, raw)
				if err != nil {
					return inputFailure(p.op, inMember(err, pm.name))
				}
				req.Body = body
				setDefault(req.Header, "Content-Type", orDefault(pm.mediaType, c.body.mediaType()))
			} else if e := c.body.emptyPayload(); pm.target.kind == kStruct && e != nil {
				req.Body = e
				setDefault(req.Header, "Content-Type", c.body.mediaType())
			}
		}
	} else if len(in.body) > 0 {
		body, err := c.body.encodeMembers(in, val)
		if err != nil {
			return inputFailure(p.op, err)
		}
		req.Body = body
		setDefault(req.Header, "Content-Type", c.body.mediaType())
	}

	// Host prefix.
	if req.HostPrefix, err = c.cfg.hostPrefix(p.host, val); err != nil {
		return inputFailure(p.op, err)
	}

	if p.checksum {
		sum := md5.Sum(req.Body)
		req.Header.Set("Content-Md5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	if len(req.Body) > 0 || (in.payload != nil && in.payload.streaming && val(in.payload) != nil) {
		for _, enc := range p.compression {
			if enc == "gzip" && !(in.payload != nil && in.payload.streaming) {
				req.Body = gzipBody(req.Header, req.Body)
				break
			}
		}
		setBody(req, req.Body)
	}
	return req, nil
}

// setHeader sets a header bound to an input member. Control characters
// (CR and LF above all) are refused: a value must not add headers.
func setHeader(h wire.Header, name, value string) error {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c == ':' || c >= 0x7f {
			return fmt.Errorf("header name %q is not a valid HTTP field name", name)
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return fmt.Errorf("header %s: control character %q in the value", name, c)
		}
	}
	h.Set(name, value)
	return nil
}

func setDefault(h wire.Header, k, v string) {
	if h.Get(k) == "" {
		h.Set(k, v)
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// appendSegment writes a (non-greedy) label's path segment. The dot
// segments "." and ".." are percent-encoded as well: sent as is, servers and
// proxies may remove them (RFC 3986 5.2.4) and the request goes to another
// path. Greedy labels keep theirs: a key is a path there (S3's
// S3PreservesLeadingDotSegmentInUriLabel), and the transport sends paths as
// they are (CURLOPT_PATH_AS_IS).
func appendSegment(dst []byte, s string) []byte {
	if s == "." || s == ".." {
		return append(dst, strings.Repeat("%2E", len(s))...)
	}
	return wire.AppendEscaped(dst, s, false)
}

// quoteHeaderItem writes a list item as an RFC 9110 quoted-string: only
// backslash and double quote are escaped (strconv.Quote's \u escapes
// read back as other text).
func quoteHeaderItem(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// scalarText renders a document-form scalar as text for a label, query
// value or header; defFormat is the timestamp format of the location. Errors
// name the member (memberText) or leave the path to the caller.
func scalarText(raw []byte, mc *memberCodec, defFormat string) (string, error) {
	s := scanner{data: raw}
	switch mc.target.kind {
	case kString, kEnum:
		v, err := s.str()
		if err != nil {
			return "", typeError("a string")
		}
		return v, nil
	case kTimestamp:
		t, err := readDocTimestamp(&s)
		if err != nil {
			return "", err
		}
		return string(appendTimestampText(nil, orDefault(mc.tsFormat, defFormat), t)), nil
	case kBool:
		if s.literal("true") {
			return "true", nil
		}
		if s.literal("false") {
			return "false", nil
		}
		return "", typeError("a boolean")
	case kBlob, kFloat, kInt, kBigInt, kBigDec, kIntEnum:
		// Checked and written as in a JSON body, without the quotes.
		var o jsonOptions
		out, err := o.encodeValue(nil, &s, mc)
		if err != nil {
			return "", err
		}
		if len(out) > 0 && out[0] == '"' {
			v := scanner{data: out}
			return v.str()
		}
		return string(out), nil
	}
	return "", badValue(fmt.Sprintf("a %s cannot be sent in a label, query or header", kindName(mc.target)))
}

// readText reads the next value of s, a scalar of mc, as scalarText
// renders it.
func readText(s *scanner, mc *memberCodec, defFormat string) (string, error) {
	raw, err := s.skip()
	if err != nil {
		return "", err
	}
	return scalarText(raw, mc, defFormat)
}

// memberText is scalarText for a member of the input structure.
func memberText(raw []byte, mc *memberCodec, defFormat string) (string, error) {
	text, err := scalarText(raw, mc, defFormat)
	return text, inMember(err, mc.name)
}

func kindName(sc *shapeCodec) string {
	if sc.shape != nil {
		return string(sc.shape.Type)
	}
	return "value"
}

// listTexts renders the list of scalars of member mc.
func listTexts(raw []byte, mc *memberCodec, defFormat string) ([]string, error) {
	var out []string
	s := scanner{data: raw}
	if s.peek() != '[' {
		return nil, inMember(typeError("a list"), mc.name)
	}
	err := s.array(func(i int) error {
		if null, err := nullItem(&s, mc.target); null || err != nil {
			return inIndex(err, i)
		}
		v, err := s.skip()
		if err != nil {
			return err
		}
		t, err := scalarText(v, mc.target.elem, defFormat)
		out = append(out, t)
		return inIndex(err, i)
	})
	if out == nil {
		out = []string{}
	}
	return out, inMember(err, mc.name)
}

// headerValues finds a header by name, any case.
func headerValues(h wire.Header, name string) ([]string, bool) {
	if v, ok := h[wire.CanonicalHeaderKey(name)]; ok {
		return v, true
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// decodeResponse reads the output of p, or an error.
func (c *restCodec) decodeResponse(p *opPlan, resp *wire.Response) ([]byte, error) {
	if resp.Status < 200 || resp.Status > c.d.successMax {
		return nil, c.decodeError(p, resp)
	}
	if c.d.errorIn200 != nil && p.out.payload == nil && c.d.errorIn200(resp.Body) {
		return nil, c.decodeError(p, resp)
	}
	out, err := c.decodeBound(p.out, resp)
	if err != nil {
		return nil, &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: err}
	}
	return out, nil
}

// decodeBound reads a structure bound to a response.
func (c *restCodec) decodeBound(b *binding, resp *wire.Response) ([]byte, error) {
	w := objectWriter{dst: make([]byte, 0, len(resp.Body)+len(resp.Body)/4+64)}
	w.dst = append(w.dst, '{')
	mark := func(mc *memberCodec) { w.seen.add(memberIndex(b.sc, mc)) }
	if b.status != nil {
		mark(b.status)
		w.key(b.status.name)
		w.dst = strconv.AppendInt(w.dst, int64(resp.Status), 10)
	}
	for _, mc := range b.headers {
		vs, ok := headerValues(resp.Header, mc.locName)
		if !ok {
			continue
		}
		joined := strings.Join(vs, ", ")
		var err error
		var doc []byte
		if mc.target.kind == kList {
			doc, err = c.headerList(joined, mc.target.elem)
		} else {
			doc, err = c.headerScalar(trimOWS(joined), mc)
		}
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", mc.locName, err)
		}
		mark(mc)
		w.key(mc.name)
		w.dst = append(w.dst, doc...)
	}
	for _, mc := range b.prefix {
		keys := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			if len(k) >= len(mc.locName) && strings.EqualFold(k[:len(mc.locName)], mc.locName) {
				keys = append(keys, k)
			}
		}
		// No matching header is an empty map, as boto3 gives (S3's
		// Metadata is {} then).
		sort.Strings(keys)
		mark(mc)
		w.key(mc.name)
		w.dst = append(w.dst, '{')
		for i, k := range keys {
			if i > 0 {
				w.dst = append(w.dst, ',')
			}
			// The key as the wire spelled it (x-foo-abc gives "abc"),
			// not Header's canonical form ("Abc").
			w.dst = appendString(w.dst, resp.WireName(k)[len(mc.locName):])
			w.dst = append(w.dst, ':')
			w.dst = appendString(w.dst, strings.Join(resp.Header[k], ", "))
		}
		w.dst = append(w.dst, '}')
	}
	if pm := b.payload; pm != nil {
		switch {
		case resp.Streamed:
			// The body went to the caller's writer: no payload member.
		case pm.target.kind == kBlob:
			// An empty body is an empty blob, not an absent one (Lambda's
			// Invoke returns an empty Payload; boto3 gives b"").
			mark(pm)
			w.key(pm.name)
			w.dst = append(w.dst, '"')
			w.dst = base64.StdEncoding.AppendEncode(w.dst, resp.Body)
			w.dst = append(w.dst, '"')
		case pm.target.kind == kString || pm.target.kind == kEnum:
			if len(resp.Body) > 0 && c.d.jsonStringPayload && pm.mediaType == "" {
				s := scanner{data: resp.Body}
				v, err := s.str()
				if err != nil {
					return nil, fmt.Errorf("payload %s: %w", pm.name, err)
				}
				mark(pm)
				w.key(pm.name)
				w.dst = appendString(w.dst, v)
			} else if len(resp.Body) > 0 {
				mark(pm)
				w.key(pm.name)
				w.dst = appendString(w.dst, string(resp.Body))
			}
		default:
			if len(bytes.TrimSpace(resp.Body)) > 0 {
				v, set, err := c.body.decodePayload(nil, pm, resp.Body)
				if err != nil {
					return nil, err
				}
				if set {
					mark(pm)
					w.key(pm.name)
					w.dst = append(w.dst, v...)
				}
			}
		}
	} else if len(b.body) > 0 && len(bytes.TrimSpace(resp.Body)) > 0 {
		if err := c.body.decodeMembers(&w, b, resp.Body); err != nil {
			return nil, err
		}
	}
	c.json.addDefaults(&w, b.sc)
	return append(w.dst, '}'), nil
}

// headerScalar reads one header value into the document form.
func (c *restCodec) headerScalar(v string, mc *memberCodec) ([]byte, error) {
	switch mc.target.kind {
	case kString, kEnum, kBlob:
		if mc.mediaType != "" && mc.target.kind == kString {
			dec, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				return nil, fmt.Errorf("invalid base64: %v", err)
			}
			v = string(dec)
		}
		return appendString(nil, v), nil
	case kBool:
		switch strings.ToLower(v) {
		case "true":
			return []byte("true"), nil
		case "false":
			return []byte("false"), nil
		}
		return nil, fmt.Errorf("invalid boolean %q", v)
	case kInt, kBigInt, kIntEnum:
		// The text is copied into the output: it must be a JSON number
		// (ParseInt alone takes "00" and "+1").
		if _, err := strconv.ParseInt(v, 10, 64); !isJSONNumber(v) || (err != nil && mc.target.kind != kBigInt) {
			return nil, fmt.Errorf("invalid integer %q", v)
		}
		return []byte(v), nil
	case kFloat, kBigDec:
		switch v {
		case "NaN", "Infinity", "-Infinity":
			return appendString(nil, v), nil
		}
		// ParseFloat alone takes "0x1p3", "inf" and "+1".
		if !isJSONNumber(v) {
			return nil, fmt.Errorf("invalid number %q", v)
		}
		return []byte(v), nil
	case kTimestamp:
		t, err := parseTimestampText(orDefault(mc.tsFormat, formatHTTPDate), v)
		if err != nil {
			return nil, err
		}
		return c.json.appendDocTimestamp(nil, t), nil
	}
	return nil, fmt.Errorf("a %s cannot be read from a header", kindName(mc.target))
}

// isJSONNumber reports whether v is exactly one JSON number.
func isJSONNumber(v string) bool {
	s := scanner{data: []byte(v)}
	_, err := s.number()
	return err == nil && s.pos == len(v)
}

// headerList splits a comma-separated header into a list; quoted items may
// hold commas, and http-date timestamps (which contain one comma each) are
// split at every other comma.
func (c *restCodec) headerList(v string, elem *memberCodec) ([]byte, error) {
	var items []string
	if elem.target.kind == kTimestamp && orDefault(elem.tsFormat, formatHTTPDate) == formatHTTPDate {
		parts := strings.Split(v, ",")
		for i := 0; i+1 < len(parts); i += 2 {
			items = append(items, trimOWS(parts[i]+","+parts[i+1]))
		}
	} else {
		items = splitHeaderList(v)
	}
	out := []byte{'['}
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		doc, err := c.headerScalar(it, elem)
		if err != nil {
			return nil, err
		}
		out = append(out, doc...)
	}
	return append(out, ']'), nil
}

// trimOWS trims HTTP optional white space (space and tab, RFC 9110 5.6.3)
// and only that: U+00A0 or U+2028 at either end is part of the value.
func trimOWS(s string) string { return strings.Trim(s, " \t") }

func splitHeaderList(v string) []string {
	var items []string
	for i := 0; i < len(v); {
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		if i < len(v) && v[i] == '"' {
			var b strings.Builder
			i++
			for i < len(v) && v[i] != '"' {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
				i++
			}
			i++ // closing quote
			for i < len(v) && v[i] != ',' {
				i++
			}
			items = append(items, b.String())
			i++
			continue
		}
		j := strings.IndexByte(v[i:], ',')
		if j < 0 {
			items = append(items, trimOWS(v[i:]))
			break
		}
		items = append(items, trimOWS(v[i:i+j]))
		i += j + 1
	}
	return items
}

// decodeError identifies the error shape of an error response and reads it.
func (c *restCodec) decodeError(p *opPlan, resp *wire.Response) error {
	code := c.d.errorType(resp)
	match := errorNamed(p.errors, func(e *errorPlan) *model.Shape { return e.shape }, code)
	if match == nil && code == "" && c.d.byStatus {
		for i := range p.errors {
			if p.errors[i].status == resp.Status {
				if match != nil {
					match = nil
					break
				}
				match = &p.errors[i]
			}
		}
	}
	errResp := resp
	if c.d.errorBody != nil {
		// The members are in an element of the body (restXml's <Error>).
		cp := *resp
		cp.Body = c.d.errorBody(resp.Body)
		errResp = &cp
	}
	if match == nil {
		e := &ServiceError{Code: code, Status: resp.Status, Members: resp.Body}
		if c.d.errorBody != nil {
			e.Message, _ = childText(errResp.Body, "Message")
		} else {
			e.Message = messageOf(resp.Body)
		}
		return e
	}
	members, err := c.decodeBound(match.b, errResp)
	if err != nil {
		return &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("error %s: %w", match.shape.ID, err)}
	}
	msg := messageOf(members)
	if msg == "" && c.d.errorBody != nil {
		// An error shape without a message member (S3's NoSuchKey): the
		// envelope's <Message>, as for an unmodeled error.
		msg, _ = childText(errResp.Body, "Message")
	}
	return &ServiceError{Shape: match.shape.ID, Code: match.shape.ID.Name(), Status: resp.Status, Members: members, Message: msg}
}

// messageOf returns the message or Message property of a JSON object.
func messageOf(body []byte) string {
	s := scanner{data: body}
	var msg string
	s.object(func(key []byte) error {
		k := string(key)
		if (k == "message" || k == "Message" || k == "errorMessage") && s.peek() == '"' && msg == "" {
			v, err := s.str()
			msg = v
			return err
		}
		_, err := s.skip()
		return err
	})
	return msg
}
