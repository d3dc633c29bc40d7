package protocol

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/internal/b64"
	"github.com/smithycurl/smithycurl/wire"
)

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
func (c *restCodec) decodeResponse(p *opPlan, resp *wire.Response, alloc Alloc) ([]byte, error) {
	if resp.Status < 200 || resp.Status > c.d.successMax {
		return nil, c.decodeError(p, resp)
	}
	// An error in a 200 (S3's CopyObject, UploadPartCopy and
	// CompleteMultipartUpload failing after they started): the body is a
	// document, also a structure payload (CopyObjectResult), never a blob.
	if c.d.errorIn200 != nil && (p.out.payload == nil || p.out.payload.target.kind == kStruct) && c.d.errorIn200(resp.Body) {
		return nil, c.decodeError(p, resp)
	}
	out, err := c.decodeBound(p.out, resp, alloc)
	if err != nil {
		return nil, outputFailure(p.op, resp.Status, p.out.sc, err)
	}
	return out, nil
}

// decodeBound reads a structure bound to a response.
// The structure is written into memory alloc gives when it does
// (OutputDecoder).
func (c *restCodec) decodeBound(b *binding, resp *wire.Response, alloc Alloc) ([]byte, error) {
	size := len(resp.Body) + len(resp.Body)/4 + 64
	if pm := b.payload; pm != nil && pm.target.kind == kBlob && !resp.Streamed {
		// The body as base64, and room for the headers' members: the
		// megabytes are written once, never grown.
		size = b64.EncodedLen(len(resp.Body)) + 4<<10
	}
	w := objectWriter{dst: alloc.buffer(size)}
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
			// Every error of headerScalar is a *valueError: the member
			// path goes before the header's name.
			if ve, ok := err.(*valueError); ok {
				ve.msg = "header " + mc.locName + ": " + ve.msg
			}
			return nil, inMember(err, mc.name)
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
		case c.json.strict && emptyPayload(resp.Body, pm, c.body.emptyPayload()):
			// A request without a payload: what a client sends for
			// none (an empty body, "{}" for a JSON structure).
		case pm.target.kind == kBlob:
			// An empty body is an empty blob, not an absent one (Lambda's
			// Invoke returns an empty Payload; boto3 gives b"").
			mark(pm)
			w.key(pm.name)
			w.dst = append(w.dst, '"')
			w.dst = b64.AppendEncode(w.dst, resp.Body)
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
			} else if len(resp.Body) > 0 || resp.Header.Get("Content-Type") != "" {
				// An empty body that has a Content-Type is the empty
				// string, as the encoder sends one (botocore gives "");
				// without either, there is no payload.
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

// emptyPayload reports whether body holds no payload pm: it is empty, or
// for a structure what a client sends for none (empty, JSON's "{}").
func emptyPayload(body []byte, pm *memberCodec, empty []byte) bool {
	if len(body) == 0 {
		return true
	}
	return pm.target.kind == kStruct && empty != nil && bytes.Equal(bytes.TrimSpace(body), empty)
}

// headerScalar reads one header value into the document form: a string
// with a media type is base64.
func (c *restCodec) headerScalar(v string, mc *memberCodec) ([]byte, error) {
	if mc.mediaType != "" && mc.target.kind == kString {
		dec, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return nil, badValue(fmt.Sprintf("invalid base64: %v", err))
		}
		v = string(dec)
	}
	return c.json.textScalar(v, mc, formatHTTPDate)
}

// textScalar reads a scalar written as text (a header, label or query
// value, a query protocol's form value; defFormat is the location's
// timestamp format) into the document form. A server's codec
// (jsonOptions.strict) takes only the exact forms: true and false,
// timestamps in their format.
func (o *jsonOptions) textScalar(v string, mc *memberCodec, defFormat string) ([]byte, error) {
	switch mc.target.kind {
	case kString, kEnum, kBlob:
		if mc.target.kind == kBlob {
			if err := checkBase64([]byte(v)); err != nil {
				return nil, err
			}
		}
		return appendString(nil, v), nil
	case kBool:
		b := v
		if !o.strict {
			b = strings.ToLower(v)
		}
		switch b {
		case "true":
			return []byte("true"), nil
		case "false":
			return []byte("false"), nil
		}
		return nil, badValue(fmt.Sprintf("%q is not a boolean", v))
	case kInt, kBigInt, kIntEnum, kFloat, kBigDec:
		return appendNumberText(nil, v, mc.target, false)
	case kTimestamp:
		format := orDefault(mc.tsFormat, defFormat)
		var t timestamp
		var err error
		if o.strict {
			t, err = parseStrictTimestamp(format, v)
		} else {
			t, err = parseTimestampText(format, v)
		}
		if err != nil {
			return nil, badValue(err.Error())
		}
		return o.appendDocTimestamp(nil, t), nil
	}
	return nil, badValue(fmt.Sprintf("a %s cannot be read from text", kindName(mc.target)))
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
			return nil, inIndex(err, i)
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
