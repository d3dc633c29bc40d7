package respond

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// Rest renders restJson1, simpleRestJson and restXml responses by the
// HTTP binding traits.
type Rest struct {
	Protocol  model.ShapeID
	Simple    bool // simpleRestJson: JSON string payloads, X-Error-Type
	XML       bool // restXml: XML bodies
	StatusMax int  // the highest success status
	// svcTraits are the service's traits, for restXml's @xmlNamespace of
	// root elements (For sets them).
	svcTraits model.Traits
}

// HTTPTrait returns the method, the path and query parts of the uri and
// the success code of an operation's @http trait.
func HTTPTrait(op *model.Operation) (method, path, query string, code int) {
	h, _ := op.Shape.Trait(model.TraitHTTP)
	m, _ := h.Get("method")
	u, _ := h.Get("uri")
	code = 200
	if c, ok := h.Get("code"); ok {
		if n, ok := c.Int64(); ok {
			code = int(n)
		}
	}
	path, query, _ = strings.Cut(u.Str(), "?")
	return m.Str(), path, query, code
}

func (p Rest) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	_, _, _, code := HTTPTrait(op)
	resp, err := p.render(View{m}, op.Output, out, code, nil)
	if err == nil && p.XML && op.Shape.HasTrait(protocol.TraitS3UnwrappedXMLOutput) {
		err = p.unwrapped(View{m}, op.Output, out, resp)
	}
	return withLength(resp, err)
}

// unwrapped writes the body of an @s3UnwrappedXmlOutput operation: its one
// body member as the root element, in the service's namespace unless the
// member has its own.
func (p Rest) unwrapped(v View, s *model.Shape, out map[string]any, resp *wire.Response) error {
	for _, mem := range s.Members {
		val, ok := out[mem.Name()]
		if !ok || val == nil || LocateHTTP(mem, true) != LocBody {
			continue
		}
		name := xmlName(mem)
		var b strings.Builder
		if err := (Query{restXML: true}).member(&b, v, mem, name, val); err != nil {
			return err
		}
		el := b.String()
		if v.nsOf(mem, true) == nil {
			var ns strings.Builder
			xmlNS(&ns, p.svcTraits)
			el = "<" + name + ns.String() + el[len(name)+1:]
		}
		resp.Body = []byte(el)
		return nil
	}
	return nil
}

// bindsHeader reports whether a member of s is bound to header name.
func bindsHeader(s *model.Shape, name string) bool {
	for _, mem := range s.Members {
		if hn, ok := mem.Traits.Get(model.TraitHTTPHeader); ok && strings.EqualFold(hn.Str(), name) {
			return true
		}
	}
	return false
}

// withLength sets the Content-Length of a rendered response, unless an
// output member bound to it did.
func withLength(resp *wire.Response, err error) (*wire.Response, error) {
	if err != nil {
		return nil, err
	}
	setDefault(resp.Header, "Content-Length", strconv.Itoa(len(resp.Body))) // unless a member gave it
	return resp, nil
}

func (p Rest) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	status := ErrorStatus(e)
	h := wire.Header{}
	if p.XML {
		return withLength(p.renderXMLError(View{m}, e, members, status))
	}
	// The shape's name, as restJson1 servers send it (smithy-rs, the
	// protocol tests' server cases); simpleRestJson's own header too, and
	// the restJson1 one alloy's borrowed server cases expect.
	if p.Simple {
		h.Set("X-Error-Type", e.ID.Name())
	}
	h.Set("X-Amzn-Errortype", e.ID.Name())
	return withLength(p.render(View{m}, e, members, status, h))
}

func (p Rest) render(v View, s *model.Shape, out map[string]any, code int, h wire.Header) (*wire.Response, error) {
	if h == nil {
		h = wire.Header{}
	}
	resp := &wire.Response{Status: code, Header: h}
	body := map[string]any{}
	// A JSON body is sent whenever no member is the payload, "{}" for
	// none, as Smithy's servers do; XML only for members in the body.
	hasBody := !p.XML && s.ID != model.UnitID
	rules := jsonRules{jsonName: true, defaults: !p.XML && !p.Simple}
	for _, mem := range s.Members {
		val, ok := out[mem.Name()]
		loc := LocateHTTP(mem, true)
		switch {
		case loc == LocBody:
			hasBody = true
		case loc == LocPayload && !p.XML:
			hasBody = false
		}
		if !ok && loc == LocBody && rules.defaults {
			val, ok = defaultValue(mem)
		}
		if !ok || (val == nil && !mem.Traits.Has(protocol.TraitNullable)) {
			continue
		}
		switch loc {
		case LocStatus:
			n, _ := strconv.Atoi(fmt.Sprint(val))
			resp.Status = n
		case LocHeader:
			hn, _ := mem.Traits.Get(model.TraitHTTPHeader)
			text, err := headerText(v, mem, val)
			if err != nil {
				return nil, err
			}
			h.Set(hn.Str(), text)
		case LocPrefixHeaders:
			pf, _ := mem.Traits.Get(model.TraitHTTPPrefixHeaders)
			mm, _ := val.(map[string]any)
			for k, x := range mm {
				if x != nil {
					h.Set(pf.Str()+k, fmt.Sprint(x))
				}
			}
		case LocPayload:
			if err := p.renderPayload(v, mem, val, resp); err != nil {
				return nil, err
			}
		default:
			if p.XML {
				body[mem.Name()] = val
				continue
			}
			w, err := rules.toWire(v, mem, val)
			if err != nil {
				return nil, err
			}
			body[WireName(mem, true)] = w
		}
	}

	if p.XML && hasBody && resp.Body == nil {
		return resp, renderXMLBody(v, s, p.svcTraits, body, resp)
	}
	if p.XML && resp.Body == nil && s.ID != model.UnitID && !bindsHeader(s, "Content-Type") {
		setDefault(h, "Content-Type", "application/xml")
	}
	if hasBody && resp.Body == nil {
		resp.Body = Encode(body)
		setDefault(h, "Content-Type", "application/json")
	}
	return resp, nil
}

func (p Rest) renderPayload(v View, mem *model.Member, val any, resp *wire.Response) error {
	mt := v.Str(mem, model.TraitMediaType)
	switch TypeOf(v.Target(mem)) {
	case model.BlobType:
		b, err := base64.StdEncoding.DecodeString(val.(string))
		if err != nil {
			return err
		}
		resp.Body = b
		setDefault(resp.Header, "Content-Type", orDefault(mt, "application/octet-stream"))
	case model.StringType, model.EnumType:
		if p.Simple && mt == "" {
			resp.Body = Encode(val)
			setDefault(resp.Header, "Content-Type", "application/json")
		} else {
			resp.Body = []byte(val.(string))
			setDefault(resp.Header, "Content-Type", orDefault(mt, "text/plain"))
		}
	default:
		if p.XML {
			var b strings.Builder
			if err := (Query{restXML: true}).member(&b, v, mem, xmlPayloadName(v, mem), val); err != nil {
				return err
			}
			resp.Body = []byte(b.String())
			setDefault(resp.Header, "Content-Type", orDefault(mt, "application/xml"))
			return nil
		}
		w, err := jsonRules{jsonName: true}.toWire(v, mem, val)
		if err != nil {
			return err
		}
		resp.Body = Encode(w)
		setDefault(resp.Header, "Content-Type", orDefault(mt, "application/json"))
	}
	return nil
}

// headerText renders a header value: a scalar, or a list joined by commas
// with strings quoted when they hold a comma or a quote.
func headerText(v View, mem *model.Member, val any) (string, error) {
	s := v.Target(mem)
	if TypeOf(s) == model.ListType {
		items, _ := val.([]any)
		item := Elem(s, "member")
		parts := make([]string, 0, len(items))
		for _, it := range items {
			if it == nil {
				continue
			}
			t, err := scalarText(v, item, it, FmtHTTPDate)
			if err != nil {
				return "", err
			}
			if k := TypeOf(v.Target(item)); (k == model.StringType || k == model.EnumType) && strings.ContainsAny(t, `,"`) {
				t = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t) + `"`
			}
			parts = append(parts, t)
		}
		return strings.Join(parts, ", "), nil
	}
	t, err := scalarText(v, mem, val, FmtHTTPDate)
	if err != nil {
		return "", err
	}
	if TypeOf(s) == model.StringType && v.Str(mem, model.TraitMediaType) != "" {
		t = base64.StdEncoding.EncodeToString([]byte(t))
	}
	return t, nil
}
