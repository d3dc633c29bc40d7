package protocol

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// The HTTP binding layer of the REST protocols: the binding of an
// operation's members to the URI, query, headers, status and body, compiled
// here; requests are written in httpbinding_encode.go, responses read in
// httpbinding_decode.go and error responses in httpbinding_errors.go.

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
	h, ok := op.Shape.Trait(model.TraitHTTP)
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
	p.out.unwrapped = op.Shape.HasTrait(TraitS3UnwrappedXMLOutput)
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
	if e, ok := op.Shape.Trait(model.TraitEndpoint); ok {
		host, err := parseHostPrefix(op, p.in.sc, strField(e, "hostPrefix"))
		if err != nil {
			return nil, err
		}
		p.host = host
	}
	p.checksum = op.Shape.HasTrait(model.TraitHTTPChecksumRequired)
	if hc, ok := op.Shape.Trait(TraitHTTPChecksum); ok {
		// aws.protocols#httpChecksum with requestChecksumRequired and no
		// requestAlgorithmMember (S3's PutBucketOwnershipControls):
		// Content-MD5. With that member (PutBucketTagging, DeleteObjects)
		// the client sends a CRC32 instead, as the AWS SDKs since 2025.
		_, chooses := hc.Get("requestAlgorithmMember")
		if v, ok := hc.Get("requestChecksumRequired"); ok && v.AsBool() && !chooses {
			p.checksum = true
		}
		if chooses {
			p.checksum = false
		}
	}
	p.acceptJSON = inAPIGateway(c.m, op)
	p.compression = compressions(op)
	for _, es := range op.Errors {
		p.errors = append(p.errors, errorPlan{shape: es, b: bind(c.shape(es.ID), true), status: errorStatus(es)})
	}
	return p, nil
}
