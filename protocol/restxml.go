package protocol

import (
	"bytes"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol trait id of restXml, and the S3 customization it reads.
const (
	RestXML model.ShapeID = "aws.protocols#restXml"

	// TraitS3UnwrappedXMLOutput makes an operation's output body its one
	// member's element, without the output's root (S3's GetBucketLocation).
	TraitS3UnwrappedXMLOutput model.ShapeID = "aws.customizations#s3UnwrappedXmlOutput"
)

// TraitHTTPChecksum is an operation's request and response checksums.
const TraitHTTPChecksum model.ShapeID = "aws.protocols#httpChecksum"

// NewRestXML returns the codec of aws.protocols#restXml for service svc of
// model m: the REST HTTP bindings of restJson1 with XML documents. Error
// responses are <ErrorResponse><Error><Code>…, or <Error><Code>… with the
// protocol's noErrorWrapping (S3).
func NewRestXML(m *model.Model, svc *model.Service, opts ...Option) Codec {
	c := newRestCodec(m, restXMLDialect(svc), opts)
	c.body = xmlBody{o: &c.json, svcNS: nsOf(svc.Shape.Traits)}
	return c
}

// restXMLDialect is restXml as svc's trait configures it.
func restXMLDialect(svc *model.Service) dialect {
	d := dialect{
		protocol:   RestXML,
		errorType:  restXMLErrorType,
		errorBody:  xmlErrorElement,
		successMax: 299,
	}
	if t, ok := svc.Shape.Trait(RestXML); ok {
		if v, ok := t.Get("noErrorWrapping"); ok && v.AsBool() {
			// S3: a 200 whose document is <Error> is an error.
			d.errorIn200 = isXMLError
		}
	}
	return d
}

// xmlErrorElement returns the <Error> element of an error response: the
// root itself, or the <Error> child of the root (<ErrorResponse>); nil when
// there is none.
func xmlErrorElement(body []byte) []byte {
	if start, end, ok, err := findElement(body, "Error"); err == nil && ok {
		return body[start:end]
	}
	if start, end, ok, err := findElement(body, "", "Error"); err == nil && ok {
		return body[start:end]
	}
	return nil
}

// isXMLError reports whether body is an XML document whose root element
// is <Error>.
func isXMLError(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '<' {
		return false
	}
	r := newXMLReader(b, nil)
	root, err := r.root()
	return err == nil && string(local(root.name)) == "Error"
}

// restXMLErrorType reads the Code of an XML error response, else the
// X-Amzn-Errortype header.
func restXMLErrorType(resp *wire.Response) string {
	if elem := xmlErrorElement(resp.Body); elem != nil {
		if code, err := childText(elem, "Code"); err == nil && code != "" {
			return sanitizeErrorType(code)
		}
	}
	if v, ok := headerValues(resp.Header, "X-Amzn-Errortype"); ok && len(v) > 0 {
		return sanitizeErrorType(v[0])
	}
	if resp.Status == 404 && len(bytes.TrimSpace(resp.Body)) == 0 {
		// A HEAD request's 404 has no body: S3 models it as NotFound
		// (HeadObject, HeadBucket), as the AWS SDKs name it.
		return "NotFound"
	}
	return ""
}

// xmlBody is the XML body of restXml.
type xmlBody struct {
	o     *jsonOptions
	svcNS *xmlNS // the service's xmlNamespace, for root elements
}

func (xmlBody) mediaType() string    { return "application/xml" }
func (xmlBody) emptyPayload() []byte { return nil }

// rootNS is the namespace of a root element: its own, else the service's.
func (x xmlBody) rootNS(ns ...*xmlNS) *xmlNS {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return x.svcNS
}

// rootName is the element name of a structure at the root: its @xmlName,
// else its shape name.
func rootName(sc *shapeCodec) string {
	if sc.xml.name != "" {
		return sc.xml.name
	}
	if sc.shape != nil {
		return sc.shape.ID.Name()
	}
	return "Input"
}

func (x xmlBody) encodeMembers(b *binding, val func(*memberCodec) []byte) ([]byte, error) {
	vals := make([][]byte, len(b.sc.members))
	for _, mc := range b.body {
		vals[mc.index] = val(mc)
	}
	return xmlEncoder{}.structure(nil, rootName(b.sc), x.rootNS(b.sc.xml.ns), b.sc, vals)
}

func (x xmlBody) encodePayload(pm *memberCodec, raw []byte) ([]byte, error) {
	name := rootName(pm.target)
	if pm.xml.renamed {
		name = pm.xml.name
	}
	s := scanner{data: raw}
	return xmlEncoder{}.value(nil, name, x.rootNS(pm.xml.ns, pm.target.xml.ns), &s, pm)
}

func (x xmlBody) decodeMembers(w *objectWriter, b *binding, body []byte) error {
	r := newXMLReader(body, x.o)
	r.rest = true
	root, err := r.root()
	if err != nil {
		return err
	}
	if b.unwrapped && len(b.body) == 1 {
		// @s3UnwrappedXmlOutput: the root element is the one member.
		mc := b.body[0]
		mark := len(w.dst)
		n := w.n
		w.member(mc)
		if w.dst, err = r.value(w.dst, mc, root); err != nil {
			w.dst, w.n = w.dst[:mark], n
			return inMember(err, mc.name)
		}
		w.seen.add(mc.index)
		return nil
	}
	return r.decodeFields(w, b.sc, root, nil)
}

func (x xmlBody) decodePayload(dst []byte, pm *memberCodec, body []byte) ([]byte, bool, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return dst, false, nil
	}
	r := newXMLReader(body, x.o)
	root, err := r.root()
	if err != nil {
		return dst, false, err
	}
	out, err := r.value(dst, pm, root)
	return out, true, inMember(err, pm.name)
}
