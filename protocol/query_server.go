package protocol

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// The server half of awsQuery and ec2Query: the inverse of
// queryCodec.EncodeRequest. The form's keys are split at their dots into
// a tree, which is read down the input's compiled shapes by the naming
// rules the encoder writes with (keyOf, listItems, mapEntries).

// queryServer routes and reads the requests of a query protocol.
type queryServer struct {
	c   *queryCodec
	ops map[string]*model.Operation // by Action
}

// The common errors of the AWS query APIs.
var queryServerCodes = serverCodes{unknownStatus: 400, unknown: "InvalidAction",
	syntax: "InvalidParameterValue", required: "MissingParameter", mediaType: "UnsupportedMediaType"}

const formMediaType = "application/x-www-form-urlencoded"

// newQueryServer is the server of codec c, which it makes a server's
// (strict: see jsonOptions).
func newQueryServer(c *queryCodec) *queryServer {
	c.json.strict = true
	s := &queryServer{c: c, ops: make(map[string]*model.Operation, len(c.svc.Operations))}
	for _, op := range c.svc.Operations {
		s.ops[op.Name] = op
	}
	return s
}

func (s *queryServer) Protocol() model.ShapeID { return s.c.protocol }

// form is the request's parameters: the body of a POST, the query string
// of a GET.
func form(req *wire.Request) string {
	if req.Method == "GET" {
		_, q, _ := strings.Cut(req.Path, "?")
		return q
	}
	return string(req.Body)
}

// formParams calls f with each parameter of a form, unescaped, until f
// returns false.
func formParams(form string, f func(k, v string) bool) error {
	for form != "" {
		var pair string
		pair, form, _ = strings.Cut(form, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, err := url.QueryUnescape(k)
		if err != nil {
			return fmt.Errorf("form key %q: %w", pair, err)
		}
		if v, err = url.QueryUnescape(v); err != nil {
			return fmt.Errorf("form value of %s: %w", k, err)
		}
		if !f(k, v) {
			return nil
		}
	}
	return nil
}

func (s *queryServer) Route(req *wire.Request) (*model.Operation, error) {
	if req.Method != "POST" && req.Method != "GET" {
		return nil, refuse(nil, 400, queryServerCodes.unknown, fmt.Errorf("method %s, the protocol's requests are POSTs", req.Method))
	}
	var action, version string
	var haveVersion bool
	// The body is read as it is: a gzip body (@requestCompression) is
	// inflated before its Action can be found.
	body := req.Body
	if req.Method == "POST" && header(req.Header, "Content-Encoding") != "" {
		var err error
		if body, err = requestBody(nil, req, queryServerCodes); err != nil {
			return nil, err
		}
	}
	f := string(body)
	if req.Method == "GET" {
		f = form(req)
	}
	err := formParams(f, func(k, v string) bool {
		switch k {
		case "Action":
			action = v
		case "Version":
			version, haveVersion = v, true
		}
		return action == "" || !haveVersion
	})
	if err != nil {
		return nil, refuse(nil, 400, "MalformedQueryString", err)
	}
	if action == "" {
		return nil, refuse(nil, 400, "MissingAction", fmt.Errorf("the request has no Action"))
	}
	op, ok := s.ops[action]
	if !ok {
		return nil, refuse(nil, 400, "InvalidAction", fmt.Errorf("%s has no operation %q", s.c.svc.Shape.ID.Name(), action))
	}
	if haveVersion && version != s.c.svc.Shape.Version {
		return nil, refuse(op, 400, "NoSuchVersion", fmt.Errorf("Version %q, the service's is %q", version, s.c.svc.Shape.Version))
	}
	return op, nil
}

func (s *queryServer) DecodeRequest(ctx context.Context, op *model.Operation, req *wire.Request) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := s.c.plans.get(op)
	if err != nil {
		return nil, fmt.Errorf("operation %s: %w", op.Shape.ID, err)
	}
	f := form(req)
	if req.Method != "GET" {
		if ct := header(req.Header, "Content-Type"); len(req.Body) > 0 && ct != "" && !mediaTypeIs(ct, formMediaType) {
			return nil, refuse(op, 415, queryServerCodes.mediaType, fmt.Errorf("Content-Type %q, want %s", ct, formMediaType))
		}
		body, err := requestBody(op, req, queryServerCodes)
		if err != nil {
			return nil, err
		}
		f = string(body)
	}
	root, err := parseForm(f)
	if err != nil {
		return nil, refuse(op, 400, "MalformedQueryString", err)
	}
	doc, err := s.structure(make([]byte, 0, len(f)+16), root, p.in)
	if err != nil {
		return nil, refuse(op, 400, queryServerCodes.syntax, err)
	}
	if err := checkInput(&s.c.cfg, op, p.in, doc, queryServerCodes); err != nil {
		return nil, err
	}
	return doc, nil
}

// formNode is a key of a form split at its dots: the value given for the
// key so far, and the keys that continue it by one more part.
type formNode struct {
	value    string
	hasValue bool
	kids     map[string]*formNode
}

// parseForm reads a form into a tree of its keys (the first of duplicate
// keys wins). Keys of more than maxNesting parts are refused, which bounds
// the reader's recursion.
func parseForm(form string) (*formNode, error) {
	root := &formNode{}
	var deep error
	err := formParams(form, func(k, v string) bool {
		if k == "Action" || k == "Version" {
			return true
		}
		n := root
		for depth := 0; ; depth++ {
			if depth == maxNesting {
				deep = fmt.Errorf("form key %.40q... has more than %d parts", k, maxNesting)
				return false
			}
			part, rest, more := strings.Cut(k, ".")
			kid := n.kids[part]
			if kid == nil {
				if n.kids == nil {
					n.kids = map[string]*formNode{}
				}
				kid = &formNode{}
				n.kids[part] = kid
			}
			n = kid
			if !more {
				break
			}
			k = rest
		}
		if !n.hasValue {
			n.value, n.hasValue = v, true
		}
		return true
	})
	if err == nil {
		err = deep
	}
	return root, err
}

// numbered are the kids of n whose keys are item numbers (1, 2, ...), in
// their order; other keys are ignored. Only the keys present are held,
// whatever their numbers.
func numbered(n *formNode) []*formNode {
	type item struct {
		i int
		n *formNode
	}
	items := make([]item, 0, len(n.kids))
	for k, kid := range n.kids {
		if i, err := strconv.Atoi(k); err == nil && i > 0 {
			items = append(items, item{i, kid})
		}
	}
	sort.Slice(items, func(a, b int) bool { return items[a].i < items[b].i })
	out := make([]*formNode, len(items))
	for i, it := range items {
		out[i] = it.n
	}
	return out
}

// given reports whether the keys at and below n give a value of mc: a
// scalar its key's value, a structure or union a key below it (an empty
// one sends nothing), a list or map its key.
func given(n *formNode, mc *memberCodec) bool {
	switch mc.target.kind {
	case kStruct, kUnion, kUnit:
		return len(n.kids) > 0
	case kList, kMap:
		return true
	}
	return n.hasValue
}

// structure reads the members of structure or union sc from the keys
// below n, with the defaults of absent members.
func (s *queryServer) structure(dst []byte, n *formNode, sc *shapeCodec) ([]byte, error) {
	w := objectWriter{dst: append(dst, '{')}
	for _, mc := range sc.members {
		kid := n.kids[s.c.keyOf(mc)]
		if kid == nil || !given(kid, mc) {
			continue
		}
		w.seen.add(mc.index)
		w.member(mc)
		var err error
		if w.dst, err = s.value(w.dst, kid, mc); err != nil {
			return w.dst, inMember(err, mc.name)
		}
	}
	if sc.kind == kUnion {
		if w.n > 1 {
			return w.dst, manyUnionMembers(sc)
		}
	} else {
		s.c.json.addDefaults(&w, sc)
	}
	return append(w.dst, '}'), nil
}

// item reads a list item or map value of collection sc from n (nil when
// absent): a structure, list or map item is read whatever keys it has (an
// empty one sends none: an empty ec2Query list); another absent one is
// null in a @sparse collection, else an error.
func (s *queryServer) item(dst []byte, n *formNode, sc *shapeCodec) ([]byte, error) {
	if n == nil || !given(n, sc.elem) {
		switch k := sc.elem.target.kind; {
		case k == kStruct || k == kList || k == kMap:
			n = &formNode{}
		case sc.sparse:
			return append(dst, "null"...), nil
		default:
			return dst, badValue("no value")
		}
	}
	return s.value(dst, n, sc.elem)
}

// value reads the value of mc from the keys at and below n.
func (s *queryServer) value(dst []byte, n *formNode, mc *memberCodec) ([]byte, error) {
	sc := mc.target
	switch sc.kind {
	case kStruct, kUnion, kUnit:
		return s.structure(dst, n, sc)
	case kList:
		items := n
		if seg := s.c.listItems(mc); seg != "" {
			items = n.kids[seg]
		}
		if items == nil && n.hasValue && n.value != "" {
			return dst, typeError("a list")
		}
		dst = append(dst, '[')
		if items != nil {
			for i, it := range numbered(items) {
				if i > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = s.item(dst, it, sc); err != nil {
					return dst, inIndex(err, i)
				}
			}
		}
		return append(dst, ']'), nil
	case kMap:
		entries := n
		if seg := mapEntries(mc); seg != "" {
			entries = n.kids[seg]
		}
		dst = append(dst, '{')
		if entries != nil {
			for i, e := range numbered(entries) {
				k := e.kids[sc.key.xml.name]
				if k == nil || !k.hasValue {
					return dst, badValue(fmt.Sprintf("map entry %d has no %s", i+1, sc.key.xml.name))
				}
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = appendString(dst, k.value)
				dst = append(dst, ':')
				var err error
				if dst, err = s.item(dst, e.kids[sc.elem.xml.name], sc); err != nil {
					return dst, inKey(err, []byte(k.value))
				}
			}
		}
		return append(dst, '}'), nil
	case kDocument:
		return dst, badValue("documents cannot be sent in a query protocol")
	}
	doc, err := s.c.json.textScalar(n.value, mc, formatDateTime)
	return append(dst, doc...), err
}
