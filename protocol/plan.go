package protocol

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// plans compiles each operation of a codec once, on first use, and keeps
// the plan for every later call; P is the protocol's plan type. Compiling
// (the compiler and its shape cache) happens under mu; reading a plan
// takes no lock.
type plans[P any] struct {
	mu    sync.Mutex
	comp  compiler
	byOp  sync.Map // *model.Operation -> P
	build func(*model.Operation) (P, error)
}

func (ps *plans[P]) init(comp compiler, build func(*model.Operation) (P, error)) {
	ps.comp = comp
	ps.build = build
}

// get returns op's plan, compiling it on first use.
func (ps *plans[P]) get(op *model.Operation) (P, error) {
	if p, ok := ps.byOp.Load(op); ok {
		return p.(P), nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p, ok := ps.byOp.Load(op); ok {
		return p.(P), nil
	}
	p, err := ps.build(op)
	ps.comp.finish()
	if err != nil {
		return p, err
	}
	ps.byOp.Store(op, p)
	return p, nil
}

// opCommon is what the RPC and query protocols compile of any operation
// alike: its input and output shapes, idempotency token, endpoint host
// prefix and whether requests are gzipped (@requestCompression).
type opCommon struct {
	op        *model.Operation
	in, out   *shapeCodec
	idemToken *memberCodec
	host      []hostSegment
	gzip      bool
}

func (p *opCommon) common() *opCommon { return p }

// startRequest is what encoding an RPC or query request begins with: op's
// plan, and the input's top-level members (config.inputValues).
func startRequest[P interface{ common() *opCommon }](ctx context.Context, ps *plans[P], cfg *config, op *model.Operation, input []byte) (P, [][]byte, error) {
	var zero P
	if err := ctx.Err(); err != nil {
		return zero, nil, err
	}
	p, err := ps.get(op)
	if err != nil {
		return zero, nil, err
	}
	c := p.common()
	vals, err := cfg.inputValues(op, c.in, c.idemToken, input, nil)
	return p, vals, err
}

func compileCommon(comp *compiler, op *model.Operation) (opCommon, error) {
	p := opCommon{op: op, in: comp.shape(op.Input.ID), out: comp.shape(op.Output.ID)}
	for _, mc := range p.in.members {
		if mc.idemToken {
			p.idemToken = mc
		}
	}
	if e, ok := op.Shape.Trait(model.TraitEndpoint); ok {
		host, err := parseHostPrefix(op, p.in, strField(e, "hostPrefix"))
		if err != nil {
			return p, err
		}
		p.host = host
	}
	for _, enc := range compressions(op) {
		if enc == "gzip" {
			p.gzip = true
		}
	}
	return p, nil
}

// errorNamed is the error plan (of an operation's errors) whose shape the
// error type code names, by its name or whole shape id; nil when none does
// or code is empty.
func errorNamed[E any](plans []E, shape func(*E) *model.Shape, code string) *E {
	if code == "" {
		return nil
	}
	for i := range plans {
		if s := shape(&plans[i]); s.ID.Name() == code || string(s.ID) == code {
			return &plans[i]
		}
	}
	return nil
}

// compressions are the encodings of op's @requestCompression, in order.
func compressions(op *model.Operation) []string {
	rc, ok := op.Shape.Trait(model.TraitRequestCompression)
	if !ok {
		return nil
	}
	enc, ok := rc.Get("encodings")
	if !ok {
		return nil
	}
	var out []string
	for _, e := range enc.Items() {
		out = append(out, e.Str())
	}
	return out
}

// inputValues splits input into the raw JSON of each top-level member of
// in (topLevel), fills an absent idempotency token (idem, if any) and
// checks @required and, when the codec validates, the constraints: what
// every protocol does first with a caller's input.
func (c *config) inputValues(op *model.Operation, in *shapeCodec, idem *memberCodec, input []byte, given *memberCodec) ([][]byte, error) {
	vals, err := topLevel(in, input)
	if err != nil {
		return nil, &InputError{Operation: op.Shape.ID, Err: err}
	}
	if given != nil {
		// A blob payload given as bytes: the input must leave it out, and
		// an empty placeholder stands for it (required, bound to the body).
		if vals[given.index] != nil {
			return nil, &InputError{Operation: op.Shape.ID, Err: inMember(errors.New("given both in the input and as payload bytes"), given.name)}
		}
		vals[given.index] = []byte(`""`)
	}
	if idem != nil && vals[idem.index] == nil {
		vals[idem.index] = appendString(nil, c.newToken())
	}
	if vs := validateInput(in, vals, c.validate); len(vs) > 0 {
		return nil, &ValidationError{Operation: op.Shape.ID, Violations: vs}
	}
	return vals, nil
}

// inputFailure is the result of a request refused for its input.
func inputFailure(op *model.Operation, err error) (*wire.Request, error) {
	return nil, &InputError{Operation: op.Shape.ID, Err: err}
}

// DefaultMinCompressionBytes is the smallest body @requestCompression
// compresses unless told otherwise, the AWS SDKs' default.
const DefaultMinCompressionBytes = 10240

// compression is when bodies are compressed (WithRequestCompression); the
// zero value is the default: at DefaultMinCompressionBytes and above.
type compression struct {
	off      bool
	minBytes int
	minSet   bool // minBytes given
}

// applies reports whether a body of n bytes is compressed.
func (c compression) applies(n int) bool {
	if c.off {
		return false
	}
	if c.minSet {
		return n >= c.minBytes
	}
	return n >= DefaultMinCompressionBytes
}

// gzipBody compresses body (@requestCompression's gzip), adding gzip to
// the Content-Encoding of h.
func gzipBody(h wire.Header, body []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(body) // writes to a bytes.Buffer do not fail
	zw.Close()
	if prev := h.Get("Content-Encoding"); prev != "" {
		h.Set("Content-Encoding", prev+", gzip")
	} else {
		h.Set("Content-Encoding", "gzip")
	}
	return buf.Bytes()
}

// setBody sets the request body and its Content-Length.
func setBody(req *wire.Request, body []byte) {
	req.Body = body
	req.Header["Content-Length"] = []string{strconv.Itoa(len(body))} // Set, on the canonical name
}
