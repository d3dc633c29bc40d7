package protocol

import (
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/internal/b64"
	"github.com/smithycurl/smithycurl/wire"
)

// topLevel splits the input object into the raw JSON of each member
// (indexed like sc.members; nil when absent or null).
func topLevel(sc *shapeCodec, input []byte) ([][]byte, error) {
	vals := make([][]byte, len(sc.members))
	if len(input) == 0 {
		return vals, nil
	}
	// JSON's whitespace only: input that is nothing else is no JSON text.
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

// encodeRequest builds the request of p from input: path and query, then
// headers, body and host prefix, in that order (the first error wins).
// payload, when not nil, is the body: the blob payload member's value,
// which input leaves out (PayloadEncoder).
func (c *restCodec) encodeRequest(p *opPlan, input, payload []byte) (*wire.Request, error) {
	in := p.in
	var given *memberCodec
	if payload != nil {
		given = in.payload
	}
	vals, err := c.cfg.inputValues(p.op, in.sc, in.idemToken, input, given)
	if err != nil {
		return nil, err
	}
	val := func(mc *memberCodec) []byte { return vals[memberIndex(in.sc, mc)] }
	req := &wire.Request{Method: p.method, Header: wire.Header{}, Input: wire.Members{Names: in.sc.names, Values: vals}}
	if p.acceptJSON {
		req.Header["Accept"] = []string{"application/json"} // Set, on the canonical name
	}
	path, err := encodePath(p, val)
	if err != nil {
		return inputFailure(p.op, err)
	}
	qry, err := encodeQuery(p, val)
	if err != nil {
		return inputFailure(p.op, err)
	}
	if len(qry) > 0 {
		path = append(path, '?')
		path = append(path, qry...)
	}
	req.Path = string(path)
	if err := encodeHeaders(req.Header, in, val); err != nil {
		return inputFailure(p.op, err)
	}
	if err := c.encodeBody(req, in, val); err != nil {
		return inputFailure(p.op, err)
	}
	if payload != nil {
		req.Body = payload // in place of the placeholder inputValues gave
	}
	if req.HostPrefix, err = c.cfg.hostPrefix(p.host, val); err != nil {
		return inputFailure(p.op, err)
	}
	finishBody(req, p, val, c.cfg.compression)
	return req, nil
}

// encodePath writes the path: the URI pattern's literal segments and its
// labels' values, "/" when there are none.
func encodePath(p *opPlan, val func(*memberCodec) []byte) ([]byte, error) {
	var path []byte
	for _, seg := range p.segments {
		path = append(path, '/')
		if seg.label == nil {
			path = append(path, seg.literal...)
			continue
		}
		raw := val(seg.label)
		if raw == nil {
			return nil, fmt.Errorf("label member %s is required", seg.label.name)
		}
		text, err := memberText(raw, seg.label, formatDateTime)
		if err != nil {
			return nil, err
		}
		if text == "" {
			return nil, fmt.Errorf("label member %s must not be empty", seg.label.name)
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
	return path, nil
}

// queryString is a query string being written: pairs joined by '&'.
type queryString []byte

// add appends k=v, both percent-encoded.
func (q *queryString) add(k, v string) {
	if len(*q) > 0 {
		*q = append(*q, '&')
	}
	*q = wire.AppendEscaped(*q, k, false)
	*q = append(*q, '=')
	*q = wire.AppendEscaped(*q, v, false)
}

// encodeQuery writes the query string: the URI pattern's literal pairs as
// written, the @httpQuery members, then the @httpQueryParams map, whose
// keys an @httpQuery member set are left out.
func encodeQuery(p *opPlan, val func(*memberCodec) []byte) (queryString, error) {
	var qry queryString
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
	for _, mc := range p.in.query {
		raw := val(mc)
		if raw == nil {
			continue
		}
		setByQuery[mc.locName] = true
		if mc.target.kind == kList {
			items, err := listTexts(raw, mc, formatDateTime)
			if err != nil {
				return nil, err
			}
			for _, it := range items {
				qry.add(mc.locName, it)
			}
			continue
		}
		text, err := memberText(raw, mc, formatDateTime)
		if err != nil {
			return nil, err
		}
		qry.add(mc.locName, text)
	}
	if qp := p.in.queryParams; qp != nil && val(qp) != nil {
		if err := qry.addParams(qp, val(qp), setByQuery); err != nil {
			return nil, inMember(err, qp.name)
		}
	}
	return qry, nil
}

// addParams appends the pairs of an @httpQueryParams map (raw, the value
// of member qp) but those whose key is in skip.
func (q *queryString) addParams(qp *memberCodec, raw []byte, skip map[string]bool) error {
	s := scanner{data: raw}
	if s.peek() != '{' {
		return typeError("a map")
	}
	return s.object(func(key []byte) error {
		k := string(key)
		if skip[k] {
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
				q.add(k, it)
			}
			return nil
		}
		text, err := scalarText(raw, qp.target.elem, formatDateTime)
		if err != nil {
			return inKey(err, key)
		}
		q.add(k, text)
		return nil
	})
}

// encodeHeaders sets the @httpPrefixHeaders maps, then the @httpHeader
// members: a specific header wins over a prefix header.
func encodeHeaders(h wire.Header, in *binding, val func(*memberCodec) []byte) error {
	for _, mc := range in.prefix {
		if raw := val(mc); raw != nil {
			if err := setPrefixHeaders(h, mc, raw); err != nil {
				return inMember(err, mc.name)
			}
		}
	}
	for _, mc := range in.headers {
		if raw := val(mc); raw != nil {
			if err := setMemberHeader(h, mc, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

// setPrefixHeaders sets a header for each entry of the map raw, the value
// of @httpPrefixHeaders member mc: its prefix and key name it.
func setPrefixHeaders(h wire.Header, mc *memberCodec, raw []byte) error {
	s := scanner{data: raw}
	if s.peek() != '{' {
		return typeError("a map")
	}
	return s.object(func(key []byte) error {
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
		return setHeader(h, mc.locName+string(key), v)
	})
}

// setMemberHeader sets the header of @httpHeader member mc to raw, its
// value: a list is one comma-separated value (items quoted where needsQuotes
// says), a string with a media type is base64-encoded.
func setMemberHeader(h wire.Header, mc *memberCodec, raw []byte) error {
	if mc.target.kind == kList {
		items, err := listTexts(raw, mc, formatHTTPDate)
		if err != nil {
			return err
		}
		quote := mc.target.elem.target.kind == kString || mc.target.elem.target.kind == kEnum
		for i, it := range items {
			if quote && needsQuotes(it) {
				items[i] = quoteHeaderItem(it)
			}
		}
		return setHeader(h, mc.locName, strings.Join(items, ", "))
	}
	text, err := memberText(raw, mc, formatHTTPDate)
	if err != nil {
		return err
	}
	if mc.mediaType != "" && mc.target.kind == kString {
		text = base64.StdEncoding.EncodeToString([]byte(text))
	}
	return setHeader(h, mc.locName, text)
}

// encodeBody writes the body and its default Content-Type: the
// @httpPayload member, or else the document of the body members.
func (c *restCodec) encodeBody(req *wire.Request, in *binding, val func(*memberCodec) []byte) error {
	if pm := in.payload; pm != nil {
		if err := c.encodePayloadMember(req, pm, val(pm)); err != nil {
			return inMember(err, pm.name)
		}
		return nil
	}
	if len(in.body) == 0 {
		return nil
	}
	body, err := c.body.encodeMembers(in, val)
	if err != nil {
		return err
	}
	req.Body = body
	setContentType(req.Header, c.body.mediaType())
	return nil
}

// encodePayloadMember writes the body of @httpPayload member pm, whose
// value is raw (nil when absent): a blob as its bytes, a string as text
// (or a JSON string, simpleRestJson), anything else as a document.
func (c *restCodec) encodePayloadMember(req *wire.Request, pm *memberCodec, raw []byte) error {
	switch pm.target.kind {
	case kBlob:
		if raw != nil {
			body, err := blobPayload(raw)
			if err != nil {
				return err
			}
			req.Body = body
		}
		if raw != nil || pm.streaming {
			setContentType(req.Header, orDefault(pm.mediaType, "application/octet-stream"))
		}
	case kString, kEnum:
		if raw != nil {
			s := scanner{data: raw}
			v, err := s.str()
			if err != nil {
				return typeError("a string")
			}
			if c.d.jsonStringPayload && pm.mediaType == "" {
				req.Body = appendString(nil, v)
				setContentType(req.Header, "application/json")
			} else {
				req.Body = []byte(v)
				setContentType(req.Header, orDefault(pm.mediaType, "text/plain"))
			}
		}
	default:
		if pm.streaming && pm.target.kind == kUnion && raw == nil {
			// An input event stream: the body is its messages.
			setContentType(req.Header, EventStreamMediaType)
			return nil
		}
		if raw != nil {
			body, err := c.body.encodePayload(pm, raw)
			if err != nil {
				return err
			}
			req.Body = body
			setContentType(req.Header, orDefault(pm.mediaType, c.body.mediaType()))
		} else if e := c.body.emptyPayload(); pm.target.kind == kStruct && e != nil {
			req.Body = e
			setContentType(req.Header, c.body.mediaType())
		}
	}
	return nil
}

// blobPayload decodes a blob payload's value, a base64 JSON string: a
// string without escapes (raw has been scanned: it is one JSON value)
// goes straight from its base64 to the body.
func blobPayload(raw []byte) ([]byte, error) {
	if n := len(raw); n >= 2 && raw[0] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 {
		if body, ok := b64.AppendDecode(nil, raw[1:n-1]); ok {
			return body, nil
		}
	}
	s := scanner{data: raw}
	b64, err := s.strBytes()
	if err != nil {
		return nil, typeError("a base64 string")
	}
	if err := checkBase64(b64); err != nil {
		return nil, err
	}
	body, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		return nil, badValue("invalid base64: " + err.Error())
	}
	return body, nil
}

// finishBody adds what depends on the whole body: Content-MD5
// (@httpChecksumRequired) unless the input gave it, as botocore and the
// JavaScript SDK keep the caller's; gzip (@requestCompression, as comp
// says; never a streaming payload) and Content-Length.
func finishBody(req *wire.Request, p *opPlan, val func(*memberCodec) []byte, comp compression) {
	if p.checksum && req.Header.Get("Content-Md5") == "" {
		sum := md5.Sum(req.Body)
		req.Header.Set("Content-Md5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	streaming := p.in.payload != nil && p.in.payload.streaming
	if len(req.Body) > 0 || (streaming && val(p.in.payload) != nil) {
		for _, enc := range p.compression {
			if enc == "gzip" && !streaming && comp.applies(len(req.Body)) {
				req.Body = gzipBody(req.Header, req.Body)
				break
			}
		}
		setBody(req, req.Body)
	}
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

// setContentType sets the Content-Type header to v unless h has one
// (h.Get and h.Set on the canonical name: no canonicalisation per call).
func setContentType(h wire.Header, v string) {
	if vs := h["Content-Type"]; len(vs) == 0 || vs[0] == "" {
		h["Content-Type"] = []string{v}
	}
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

// needsQuotes reports whether a string item of a list header must be
// quoted to be read back as it is: it holds a comma or a quote, is empty, or
// starts or ends with white space (which a reader trims from an unquoted
// item, RFC 9110 5.6.1).
func needsQuotes(s string) bool {
	return s == "" || strings.ContainsAny(s, `,"`) || s != trimOWS(s)
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
