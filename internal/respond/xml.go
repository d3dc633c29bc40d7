package respond

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

const queryResponseXMLN = "https://doc.example/2010-03-31/"

// Query renders awsQuery responses by the Smithy awsQuery spec: the
// output's members in <{Op}Result> inside <{Op}Response>, errors as
// <ErrorResponse><Error><Type/><Code/>... (no namespace, as the protocol
// tests have them) with the code of @awsQueryError or the shape's name.
type Query struct {
	// NS is the namespace of a response's root: the service's
	// @xmlNamespace (For sets it), else queryResponseXMLN.
	NS string
	// restXML writes a structure member's element in its target's
	// @xmlNamespace when it has none of its own (restXml); awsQuery and
	// ec2Query take only the members' (awsQuery's XmlNamespaces case).
	restXML bool
	// RequestID is written in <ResponseMetadata><RequestId> and an error's
	// <RequestId> (WithRequestID sets it); "" writes none.
	RequestID string
}

// ServiceNS is the uri of service svc's @xmlNamespace, "" when none.
func ServiceNS(svc *model.Service) string {
	n, _ := svc.Shape.Trait(model.TraitXMLNamespace)
	u, _ := n.Get("uri")
	return u.Str()
}

func rootNS(ns, def string) string {
	if ns == "" {
		return def
	}
	return ns
}

func xmlName(mem *model.Member) string {
	if n, ok := mem.Traits.Get(model.TraitXMLName); ok && n.Str() != "" {
		return n.Str()
	}
	return mem.Name()
}

func (p Query) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, op.Name, rootNS(p.NS, queryResponseXMLN))
	if op.Output != nil && TypeOf(op.Output) != "unit" {
		fmt.Fprintf(&b, "<%sResult>", op.Name)
		if err := p.members(&b, View{m}, op.Output, out); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "</%sResult>", op.Name)
	}
	if err := idElement(&b, "<ResponseMetadata><RequestId>", p.RequestID, "</RequestId></ResponseMetadata>"); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "</%sResponse>", op.Name)
	h := wire.Header{}
	h.Set("Content-Type", "text/xml")
	return &wire.Response{Status: 200, Header: h, Body: []byte(b.String())}, nil
}

func (p Query) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	code, status := e.ID.Name(), ErrorStatus(e)
	if q, ok := e.Trait(protocol.TraitAWSQueryError); ok {
		if c, ok := q.Get("code"); ok && c.Str() != "" {
			code = c.Str()
		}
		if s, ok := q.Get("httpResponseCode"); ok {
			if n, ok := s.Int64(); ok {
				status = int(n)
			}
		}
	}
	kind := "Sender"
	if v, ok := e.Trait(model.TraitError); ok && v.Str() == "server" {
		kind = "Receiver"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<ErrorResponse><Error><Type>%s</Type><Code>`, kind)
	if err := xmlText(&b, code); err != nil {
		return nil, err
	}
	b.WriteString("</Code>")
	if err := p.members(&b, View{m}, e, members); err != nil {
		return nil, err
	}
	b.WriteString("</Error>")
	if err := idElement(&b, "<RequestId>", p.RequestID, "</RequestId>"); err != nil {
		return nil, err
	}
	b.WriteString("</ErrorResponse>")
	h := wire.Header{}
	h.Set("Content-Type", "text/xml")
	return &wire.Response{Status: status, Header: h, Body: []byte(b.String())}, nil
}

// members writes the members of structure s set in val, in model order.
func (p Query) members(b *strings.Builder, v View, s *model.Shape, val any) error {
	m, _ := val.(map[string]any)
	for _, mem := range s.Members {
		it, ok := m[mem.Name()]
		if !ok || it == nil {
			continue
		}
		if mem.Traits.Has(model.TraitXMLAttribute) {
			continue // in the start tag (xmlAttributes)
		}
		if err := p.member(b, v, mem, xmlName(mem), it); err != nil {
			return fmt.Errorf("%s: %w", mem.Name(), err)
		}
	}
	return nil
}

// member writes <name>value</name> for mem's target (a flattened list or
// map: one element of that name per item or entry).
func (p Query) member(b *strings.Builder, v View, mem *model.Member, name string, val any) error {
	s := v.Target(mem)
	flat := mem.Traits.Has(model.TraitXMLFlattened)
	switch TypeOf(s) {
	case model.ListType:
		items, _ := val.([]any)
		item := Elem(s, "member")
		if flat {
			for _, it := range items {
				if err := p.member(b, v, item, name, it); err != nil {
					return err
				}
			}
			return nil
		}
		b.WriteString("<" + name)
		xmlNS(b, v.nsOf(mem, p.restXML))
		b.WriteString(">")
		for _, it := range items {
			if err := p.member(b, v, item, xmlName(item), it); err != nil {
				return err
			}
		}
		fmt.Fprintf(b, "</%s>", name)
		return nil
	case model.MapType:
		m, _ := val.(map[string]any)
		key, value := Elem(s, "key"), Elem(s, "value")
		if !flat {
			b.WriteString("<" + name)
			xmlNS(b, v.nsOf(mem, p.restXML))
			b.WriteString(">")
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if flat {
				b.WriteString("<" + name)
				xmlNS(b, v.nsOf(mem, p.restXML))
				b.WriteString(">")
			} else {
				b.WriteString("<entry>")
			}
			if err := p.member(b, v, key, xmlName(key), k); err != nil {
				return err
			}
			if m[k] != nil {
				if err := p.member(b, v, value, xmlName(value), m[k]); err != nil {
					return err
				}
			}
			if flat {
				fmt.Fprintf(b, "</%s>", name)
			} else {
				b.WriteString("</entry>")
			}
		}
		if !flat {
			fmt.Fprintf(b, "</%s>", name)
		}
		return nil
	}
	b.WriteString("<" + name)
	xmlNS(b, v.nsOf(mem, p.restXML))
	if TypeOf(s) == model.StructureType {
		if err := xmlAttributes(b, v, s, val); err != nil {
			return err
		}
	}
	b.WriteString(">")
	switch TypeOf(s) {
	case model.StructureType:
		if err := p.members(b, v, s, val); err != nil {
			return err
		}
	case model.UnionType:
		m, _ := val.(map[string]any)
		if u, ok := m[UnknownMember].([]any); ok && len(u) == 2 {
			// Plain text (Gen.UnknownUnionText): its content as written.
			fmt.Fprintf(b, "<%s>", u[0])
			if err := xmlText(b, fmt.Sprint(u[1])); err != nil {
				return err
			}
			fmt.Fprintf(b, "</%s>", u[0])
		}
		for k, it := range m {
			if k == UnknownMember {
				continue
			}
			um, ok := s.Member(k)
			if !ok {
				return fmt.Errorf("union %s has no member %q", s.ID, k)
			}
			if err := p.member(b, v, um, xmlName(um), it); err != nil {
				return err
			}
		}
	case model.TimestampType:
		t, err := DocInstant(val)
		if err != nil {
			return err
		}
		b.WriteString(FormatInstant(v.TSFormat(mem, FmtDateTime), t))
	case model.BlobType:
		raw, err := base64.StdEncoding.DecodeString(fmt.Sprint(val))
		if err != nil {
			return fmt.Errorf("blob: %w", err)
		}
		b.WriteString(base64.StdEncoding.EncodeToString(raw))
	default:
		switch x := val.(type) {
		case string:
			if err := xmlText(b, x); err != nil {
				return err
			}
		case json.Number:
			b.WriteString(string(x))
		case bool:
			fmt.Fprint(b, x)
		default:
			return fmt.Errorf("%s: unexpected %T", s.ID, val)
		}
	}
	fmt.Fprintf(b, "</%s>", name)
	return nil
}

// nsOf is the effective @xmlNamespace of mem: its own, else, with
// target, its structure target's (a member of the list or map it is in
// has none).
func (v View) nsOf(mem *model.Member, target bool) model.Traits {
	if mem.Traits.Has(model.TraitXMLNamespace) {
		return mem.Traits
	}
	if t := v.Target(mem); target && t != nil && TypeOf(t) == model.StructureType {
		return t.Traits
	}
	return nil
}

// xmlNS writes the namespace declaration of an @xmlNamespace trait.
func xmlNS(b *strings.Builder, t model.Traits) {
	ns, ok := t.Get(model.TraitXMLNamespace)
	if !ok {
		return
	}
	uri, _ := ns.Get("uri")
	if pf, ok := ns.Get("prefix"); ok && pf.Str() != "" {
		fmt.Fprintf(b, ` xmlns:%s="%s"`, pf.Str(), uri.Str())
		return
	}
	fmt.Fprintf(b, ` xmlns="%s"`, uri.Str())
}

// xmlAttributes writes the @xmlAttribute members of structure s set in
// val as attributes.
func xmlAttributes(b *strings.Builder, v View, s *model.Shape, val any) error {
	m, _ := val.(map[string]any)
	for _, mem := range s.Members {
		it, ok := m[mem.Name()]
		if !ok || it == nil || !mem.Traits.Has(model.TraitXMLAttribute) {
			continue
		}
		text, err := scalarText(v, mem, it, FmtDateTime)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, ` %s="`, xmlName(mem))
		if err := xmlText(b, text); err != nil {
			return err
		}
		b.WriteString(`"`)
	}
	return nil
}

// xmlText writes s escaped as XML character data: a carriage return as a
// reference (a parser reads a raw one as a line feed); characters XML 1.0
// cannot carry are ErrNotXML.
func xmlText(b *strings.Builder, s string) error {
	for _, r := range s {
		switch {
		case r == utf8.RuneError || r == 0xFFFE || r == 0xFFFF || (r < 0x20 && r != '\t' && r != '\n' && r != '\r'):
			return fmt.Errorf("%q: %w", s, ErrNotXML)
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\n':
			b.WriteString("&#xA;") // kept in attribute values too
		case r == '\t':
			b.WriteString("&#x9;")
		case r == '\r':
			b.WriteString("&#xD;")
		default:
			b.WriteRune(r)
		}
	}
	return nil
}

// AddQueryErrorHeader adds to an error response of service svc the
// x-amzn-query-error header ("Code;Fault") an @awsQueryCompatible service
// sends with an error of @awsQueryError (its awsQuery code).
func AddQueryErrorHeader(svc *model.Service, e *model.Shape, resp *wire.Response) {
	q, ok := e.Trait(protocol.TraitAWSQueryError)
	if !ok || !svc.Shape.HasTrait(protocol.TraitAWSQueryCompatible) {
		return
	}
	c, ok := q.Get("code")
	if !ok || c.Str() == "" {
		return
	}
	fault := "Sender"
	if v, ok := e.Trait(model.TraitError); ok && v.Str() == "server" {
		fault = "Receiver"
	}
	resp.Header.Set("X-Amzn-Query-Error", c.Str()+";"+fault)
}

// shapeXMLName is the element name of a structure: its @xmlName, else its
// shape name.
func shapeXMLName(s *model.Shape) string {
	if n, ok := s.Trait(model.TraitXMLName); ok && n.Str() != "" {
		return n.Str()
	}
	return s.ID.Name()
}

// xmlPayloadName is the element of an @httpPayload structure: the
// member's @xmlName, else the target's (restXml).
func xmlPayloadName(v View, mem *model.Member) string {
	if n, ok := mem.Traits.Get(model.TraitXMLName); ok && n.Str() != "" {
		return n.Str()
	}
	return shapeXMLName(v.Target(mem))
}

// renderXMLBody writes a restXml body: the body members of s (set in
// body) in its root element, in s's @xmlNamespace, else the service's
// (svc, its traits).
func renderXMLBody(v View, s *model.Shape, svc model.Traits, body map[string]any, resp *wire.Response) error {
	var b strings.Builder
	b.WriteString("<" + shapeXMLName(s))
	if s.Traits.Has(model.TraitXMLNamespace) {
		svc = s.Traits
	}
	xmlNS(&b, svc)
	if err := xmlAttributes(&b, v, s, body); err != nil {
		return err
	}
	b.WriteString(">")
	if err := (Query{restXML: true}).members(&b, v, s, body); err != nil {
		return err
	}
	b.WriteString("</" + shapeXMLName(s) + ">")
	resp.Body = []byte(b.String())
	if resp.Header.Get("Content-Type") == "" {
		resp.Header.Set("Content-Type", "application/xml")
	}
	return nil
}

// renderXMLError renders a restXml error: the header-bound members as
// headers, the others in <Error> after its <Code>: the noErrorWrapping
// form of S3, the one restXml model the differential runs (the wrapped
// <ErrorResponse> form is not rendered).
func (p Rest) renderXMLError(v View, e *model.Shape, members map[string]any, status int) (*wire.Response, error) {
	resp, err := p.render(v, e, members, status, nil)
	if err != nil {
		return nil, err
	}
	body := map[string]any{}
	for _, mem := range e.Members {
		if val, ok := members[mem.Name()]; ok && LocateHTTP(mem, true) == LocBody {
			body[mem.Name()] = val
		}
	}
	kind := "Sender"
	if t, ok := e.Trait(model.TraitError); ok && t.Str() == "server" {
		kind = "Receiver"
	}
	var b strings.Builder
	b.WriteString("<Error><Type>" + kind + "</Type><Code>")
	if err := xmlText(&b, e.ID.Name()); err != nil {
		return nil, err
	}
	b.WriteString("</Code>")
	if err := (Query{restXML: true}).members(&b, v, e, body); err != nil {
		return nil, err
	}
	b.WriteString("</Error>")
	resp.Body = []byte(b.String())
	resp.Header.Set("Content-Type", "application/xml")
	return resp, nil
}

// EC2 renders ec2Query responses: the output's members in
// <{Op}Response> (no Result element), errors as
// <Response><Errors><Error><Code/>members</Error></Errors></Response> with
// the shape's name as the code.
type EC2 struct {
	// NS is the namespace of a response's root: the service's
	// @xmlNamespace (For sets it), else ec2ResponseXMLN.
	NS string
	// RequestID is written in a response's <requestId> and an error's
	// <RequestID> (WithRequestID sets it); "" writes none.
	RequestID string
}

const ec2ResponseXMLN = "http://ec2.amazonaws.com/doc/2016-11-15/"

func (p EC2) RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, op.Name, rootNS(p.NS, ec2ResponseXMLN))
	if op.Output != nil && TypeOf(op.Output) != "unit" {
		if err := (Query{}).members(&b, View{m}, op.Output, out); err != nil {
			return nil, err
		}
	}
	if err := idElement(&b, "<requestId>", p.RequestID, "</requestId>"); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "</%sResponse>", op.Name)
	h := wire.Header{}
	h.Set("Content-Type", "text/xml;charset=UTF-8")
	return &wire.Response{Status: 200, Header: h, Body: []byte(b.String())}, nil
}

func (p EC2) RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error) {
	var b strings.Builder
	b.WriteString("<Response><Errors><Error><Code>")
	if err := xmlText(&b, e.ID.Name()); err != nil {
		return nil, err
	}
	b.WriteString("</Code>")
	if err := (Query{}).members(&b, View{m}, e, members); err != nil {
		return nil, err
	}
	b.WriteString("</Error></Errors>")
	if err := idElement(&b, "<RequestID>", p.RequestID, "</RequestID>"); err != nil {
		return nil, err
	}
	b.WriteString("</Response>")
	h := wire.Header{}
	h.Set("Content-Type", "text/xml;charset=UTF-8")
	return &wire.Response{Status: ErrorStatus(e), Header: h, Body: []byte(b.String())}, nil
}
