package proptest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// restProto is restJson1 and alloy#simpleRestJson, read and written by the
// HTTP binding traits.
type restProto struct {
	respond.Rest   // its responses (restXml: only its responses, ResponderOf)
	nestedDefaults bool
}

func (p restProto) Trait() model.ShapeID { return p.Protocol }

func (p restProto) NewCodec(m *model.Model, _ *model.Service, opts ...protocol.Option) protocol.Codec {
	if p.Simple {
		return protocol.NewSimpleRestJSON(m, opts...)
	}
	return protocol.NewRestJSON1(m, opts...)
}

func (p restProto) Status() (int, int) { return 200, p.StatusMax }

func (p restProto) FillsNestedDefaults() bool { return p.nestedDefaults }

func (p restProto) rules() jsonRules { return jsonRules{jsonName: true} }

func (p restProto) Locate(mem *model.Member, response bool) Loc {
	return respond.LocateHTTP(mem, response)
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// pathSegments splits a request path keeping empty segments (a greedy label
// may hold "a//b").
func pathSegments(p string) []string {
	if p == "" || p == "/" {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

func (p restProto) ReadRequest(m *model.Model, svc *model.Service, op *model.Operation, req *wire.Request) (map[string]any, error) {
	v := view{m}
	in := op.Input
	out := map[string]any{}
	method, upath, uquery, _ := respond.HTTPTrait(op)
	if req.Method != method {
		return nil, fmt.Errorf("method %s, want %s", req.Method, method)
	}
	rawPath, rawQuery, _ := strings.Cut(req.Path, "?")
	// Path.
	pat := splitPath(upath)
	got := pathSegments(rawPath)
	// A dot segment is removed by servers and proxies, unless it is part of
	// a greedy label: the codec sends those as they are, as the AWS SDKs do
	// and S3's protocol tests ask (a key is a path).
	dot := func(i int) error {
		if got[i] == "." || got[i] == ".." {
			return fmt.Errorf("path %q has a dot segment outside a greedy label, which clients and servers remove", rawPath)
		}
		return nil
	}
	gi := 0
	for pi, ps := range pat {
		if !strings.HasPrefix(ps, "{") {
			if gi < len(got) {
				if err := dot(gi); err != nil {
					return nil, err
				}
			}
			if gi >= len(got) || got[gi] != ps {
				return nil, fmt.Errorf("path %q does not match %q at %q", rawPath, upath, ps)
			}
			gi++
			continue
		}
		name := strings.Trim(ps, "{}")
		greedy := strings.HasSuffix(name, "+")
		name = strings.TrimSuffix(name, "+")
		mem, ok := in.Member(name)
		if !ok {
			return nil, fmt.Errorf("label %s has no member", name)
		}
		n := 1
		if greedy {
			n = len(got) - gi - (len(pat) - pi - 1)
		}
		if n < 1 || gi+n > len(got) {
			return nil, fmt.Errorf("path %q does not match %q", rawPath, upath)
		}
		if !greedy {
			if err := dot(gi); err != nil {
				return nil, err
			}
		}
		parts := make([]string, n)
		for i := range parts {
			s, err := url.PathUnescape(got[gi+i])
			if err != nil {
				return nil, fmt.Errorf("label %s: %v", name, err)
			}
			parts[i] = s
		}
		gi += n
		val, err := textValue(v, mem, strings.Join(parts, "/"), fmtDateTime)
		if err != nil {
			return nil, fmt.Errorf("label %s: %v", name, err)
		}
		out[name] = val
	}
	if gi != len(got) {
		return nil, fmt.Errorf("path %q is longer than %q", rawPath, upath)
	}
	// Query.
	type pair struct{ k, v string }
	var pairs []pair
	if rawQuery != "" {
		for _, kv := range strings.Split(rawQuery, "&") {
			k, val, _ := strings.Cut(kv, "=")
			uk, err1 := url.PathUnescape(k)
			uv, err2 := url.PathUnescape(val)
			if err1 != nil || err2 != nil || strings.Contains(kv, "+") {
				return nil, fmt.Errorf("query pair %q is not percent-encoded", kv)
			}
			pairs = append(pairs, pair{uk, uv})
		}
	}
	if uquery != "" {
		for _, kv := range strings.Split(uquery, "&") {
			k, val, _ := strings.Cut(kv, "=")
			found := false
			for i, pr := range pairs {
				if pr.k == k && pr.v == val {
					pairs = append(pairs[:i], pairs[i+1:]...)
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("query %q lacks the literal %q", rawQuery, kv)
			}
		}
	}
	values := map[string][]string{}
	var keys []string
	for _, pr := range pairs {
		if _, ok := values[pr.k]; !ok {
			keys = append(keys, pr.k)
		}
		values[pr.k] = append(values[pr.k], pr.v)
	}
	var qpMem *model.Member
	for _, mem := range in.Members {
		if mem.Traits.Has(model.TraitHTTPQueryParams) {
			qpMem = mem
		}
		q, ok := mem.Traits.Get(model.TraitHTTPQuery)
		if !ok {
			continue
		}
		vals, ok := values[q.Str()]
		if !ok {
			continue
		}
		delete(values, q.Str())
		val, err := textList(v, mem, vals, fmtDateTime)
		if err != nil {
			return nil, fmt.Errorf("query %s: %v", q.Str(), err)
		}
		out[mem.Name()] = val
	}
	if len(values) > 0 {
		if qpMem == nil {
			return nil, fmt.Errorf("query %q has keys no member binds", rawQuery)
		}
		qm := map[string]any{}
		vmem := elem(v.target(qpMem), "value")
		for _, k := range keys {
			vals, ok := values[k]
			if !ok {
				continue
			}
			val, err := textList(v, vmem, vals, fmtDateTime)
			if err != nil {
				return nil, fmt.Errorf("query %s: %v", k, err)
			}
			qm[k] = val
		}
		out[qpMem.Name()] = qm
	}
	// Headers.
	claimed := map[string]bool{}
	for _, mem := range in.Members {
		h, ok := mem.Traits.Get(model.TraitHTTPHeader)
		if !ok {
			continue
		}
		name := wire.CanonicalHeaderKey(h.Str())
		claimed[name] = true
		vals, ok := req.Header[name]
		if !ok {
			continue
		}
		val, err := headerValue(v, mem, strings.Join(vals, ", "))
		if err != nil {
			return nil, fmt.Errorf("header %s: %v", name, err)
		}
		out[mem.Name()] = val
	}
	for _, mem := range in.Members {
		pf, ok := mem.Traits.Get(model.TraitHTTPPrefixHeaders)
		if !ok {
			continue
		}
		pm := map[string]any{}
		for k, vals := range req.Header {
			if claimed[k] || !strings.HasPrefix(strings.ToLower(k), strings.ToLower(pf.Str())) || protocolHeader(k) {
				continue
			}
			pm[k[len(pf.Str()):]] = strings.Join(vals, ", ")
		}
		if len(pm) > 0 {
			out[mem.Name()] = pm
		}
	}
	// Body.
	b, err := body(req.Header, req.Body)
	if err != nil {
		return nil, err
	}
	if err := p.readBody(v, in, req.Header, b, out); err != nil {
		return nil, err
	}
	hp := map[string]any{}
	if err := readHostPrefix(v, op, req.HostPrefix, hp); err != nil {
		return nil, err
	}
	for k, val := range hp {
		if prev, ok := out[k]; ok && prev != val {
			return nil, fmt.Errorf("host label %s is %q, member %q", k, val, prev)
		}
		out[k] = val
	}
	return out, nil
}

// protocolHeader reports the headers the codec sets itself.
func protocolHeader(k string) bool {
	switch k {
	case "Content-Type", "Content-Length", "Content-Md5", "Content-Encoding", "Accept":
		return true
	}
	return false
}

// readBody reads the payload or the JSON body of a request or response.
func (p restProto) readBody(v view, s *model.Shape, h wire.Header, b []byte, out map[string]any) error {
	var bodyMembers []*model.Member
	for _, mem := range s.Members {
		if mem.Traits.Has(model.TraitHTTPPayload) {
			return p.readPayload(v, mem, h, b, out)
		}
		if p.Locate(mem, false) == LocBody {
			bodyMembers = append(bodyMembers, mem)
		}
	}
	if len(b) == 0 {
		return nil
	}
	w, err := Decode(b)
	if err != nil {
		return fmt.Errorf("body: %v", err)
	}
	obj, ok := w.(map[string]any)
	if !ok {
		return fmt.Errorf("body is not an object: %s", b)
	}
	st := &model.Shape{ID: s.ID, Type: model.StructureType, Members: bodyMembers}
	d, err := p.rules().structFromWire(v, st, obj)
	if err != nil {
		return err
	}
	for k, val := range d {
		out[k] = val
	}
	return nil
}

func (p restProto) readPayload(v view, mem *model.Member, h wire.Header, b []byte, out map[string]any) error {
	mt := v.str(mem, model.TraitMediaType)
	switch typeOf(v.target(mem)) {
	case model.BlobType:
		if len(b) > 0 || h.Get("Content-Type") != "" {
			out[mem.Name()] = base64.StdEncoding.EncodeToString(b)
		}
	case model.StringType, model.EnumType:
		if p.Simple && mt == "" {
			if len(b) == 0 {
				return nil
			}
			w, err := Decode(b)
			if err != nil {
				return fmt.Errorf("payload: %v", err)
			}
			if _, ok := w.(string); !ok {
				return fmt.Errorf("payload is not a JSON string: %s", b)
			}
			out[mem.Name()] = w
		} else if len(b) > 0 || h.Get("Content-Type") != "" {
			out[mem.Name()] = string(b)
		}
	default:
		if len(b) == 0 {
			return nil
		}
		w, err := Decode(b)
		if err != nil {
			return fmt.Errorf("payload: %v", err)
		}
		d, err := p.rules().fromWire(v, mem, w)
		if err != nil {
			return err
		}
		out[mem.Name()] = d
	}
	return nil
}

// textValue reads a label, query or header text.
func textValue(v view, mem *model.Member, text, defFormat string) (any, error) {
	s := v.target(mem)
	switch t := typeOf(s); t {
	case model.StringType, model.EnumType, model.BlobType:
		return text, nil
	case model.BooleanType:
		switch text {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	case model.ByteType, model.ShortType, model.IntegerType, model.LongType, model.BigIntegerType, model.IntEnumType:
		if r, ok := new(big.Rat).SetString(text); ok && r.IsInt() && !strings.ContainsAny(text, ".eE") {
			return json.Number(text), nil
		}
	case model.FloatType, model.DoubleType, model.BigDecimalType:
		switch text {
		case "NaN", "Infinity", "-Infinity":
			if t != model.BigDecimalType {
				return text, nil
			}
		}
		if _, ok := new(big.Rat).SetString(text); ok {
			return json.Number(text), nil
		}
	case model.TimestampType:
		in, err := respond.ParseInstant(v.tsFormat(mem, defFormat), text)
		if err != nil {
			return nil, err
		}
		return respond.FormatInstant(fmtDateTime, in), nil
	}
	return nil, fmt.Errorf("%q is not a valid %s", text, typeOf(s))
}

// textList reads the values of a query key: a list, or one scalar.
func textList(v view, mem *model.Member, vals []string, defFormat string) (any, error) {
	s := v.target(mem)
	if typeOf(s) == model.ListType {
		out := make([]any, len(vals))
		for i, t := range vals {
			x, err := textValue(v, elem(s, "member"), t, defFormat)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	if len(vals) != 1 {
		return nil, fmt.Errorf("%d values for a scalar", len(vals))
	}
	return textValue(v, mem, vals[0], defFormat)
}

// headerValue reads a header bound to mem (a scalar or a list).
func headerValue(v view, mem *model.Member, text string) (any, error) {
	s := v.target(mem)
	if typeOf(s) != model.ListType {
		if typeOf(s) == model.StringType && v.str(mem, model.TraitMediaType) != "" {
			dec, err := base64.StdEncoding.DecodeString(text)
			if err != nil {
				return nil, fmt.Errorf("media type header is not base64: %v", err)
			}
			text = string(dec)
		}
		return textValue(v, mem, text, fmtHTTPDate)
	}
	item := elem(s, "member")
	var items []string
	if typeOf(v.target(item)) == model.TimestampType && v.tsFormat(item, fmtHTTPDate) == fmtHTTPDate {
		parts := strings.Split(text, ",")
		for i := 0; i+1 < len(parts); i += 2 {
			items = append(items, strings.TrimSpace(parts[i]+","+parts[i+1]))
		}
	} else {
		var err error
		if items, err = splitHeaderItems(text); err != nil {
			return nil, err
		}
	}
	out := make([]any, len(items))
	for i, it := range items {
		x, err := textValue(v, item, it, fmtHTTPDate)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// splitHeaderItems splits a list header at commas outside RFC 9110 quoted
// strings (where a backslash escapes the next character).
func splitHeaderItems(text string) ([]string, error) {
	var items []string
	if strings.Trim(text, " \t") == "" {
		return items, nil
	}
	var cur strings.Builder
	quoted, inQuote, escaped := false, false, false
	flush := func() {
		s := cur.String()
		if !quoted {
			s = strings.Trim(s, " \t")
		}
		items = append(items, s)
		cur.Reset()
		quoted = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case escaped:
			cur.WriteByte(c)
			escaped = false
		case inQuote && c == '\\':
			escaped = true
		case inQuote && c == '"':
			inQuote = false
		case inQuote:
			cur.WriteByte(c)
		case c == '"' && strings.Trim(cur.String(), " \t") == "":
			cur.Reset()
			inQuote, quoted = true, true
		case c == ',':
			flush()
		case quoted && c != ' ' && c != '\t':
			return nil, fmt.Errorf("data after a quoted string in %q", text)
		default:
			if !quoted {
				cur.WriteByte(c)
			}
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quoted string in %q", text)
	}
	flush()
	return items, nil
}

// Rendering responses.

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
