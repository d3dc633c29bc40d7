package protocol

import (
	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol trait ids of the Smithy RPC v2 protocols.
const (
	RPCv2CBOR model.ShapeID = "smithy.protocols#rpcv2Cbor"
	RPCv2JSON model.ShapeID = "smithy.protocols#rpcv2Json"
)

// NewRPCv2CBOR returns the codec of smithy.protocols#rpcv2Cbor for service
// svc of model m: requests are POSTs to /service/{Service}/operation/{Op}
// with a CBOR body, timestamps are epoch seconds (tag 1), bigInteger and
// bigDecimal keep every digit (tags 2, 3 and 4), errors are named by the
// body's __type.
func NewRPCv2CBOR(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newRPCCodec(m, svc, rpcv2Dialect(RPCv2CBOR, "rpc-v2-cbor", "application/cbor",
		func(o *jsonOptions) rpcFormat { return cborFormat{o: o} }), opts)
}

// NewRPCv2JSON returns the codec of smithy.protocols#rpcv2Json for service
// svc of model m: as rpcv2Cbor with a JSON body; bigInteger and bigDecimal
// travel as JSON strings, timestamps as epoch seconds.
func NewRPCv2JSON(m *model.Model, svc *model.Service, opts ...Option) Codec {
	return newRPCCodec(m, svc, rpcv2Dialect(RPCv2JSON, "rpc-v2-json", "application/json",
		func(o *jsonOptions) rpcFormat {
			o.bigAsString = true
			return jsonFormat{o: o, errTyp: bodyErrorType}
		}), opts)
}

func rpcv2Dialect(proto model.ShapeID, smithyProtocol, mediaType string, format func(*jsonOptions) rpcFormat) rpcDialect {
	return rpcDialect{
		protocol:    proto,
		contentType: mediaType,
		path:        rpcv2Path,
		header: func(h wire.Header, _ *model.Service, _ *model.Operation) {
			h.Set("Smithy-Protocol", smithyProtocol)
			h.Set("Accept", mediaType)
		},
		unitNoBody:        true,
		streamAccept:      true,
		smithyProtocol:    smithyProtocol,
		newFormat:         format,
		noTimestampFormat: true,
	}
}

// rpcv2Path is the path of an rpcv2 request, after the endpoint's own.
func rpcv2Path(svc *model.Service, op *model.Operation) string {
	return "/service/" + svc.Shape.ID.Name() + "/operation/" + op.Name
}

// bodyErrorType is the sanitised __type of a JSON error body (rpcv2Json:
// the X-Amzn-Errortype header and the code member are not looked at).
func bodyErrorType(resp *wire.Response) string {
	typ := ""
	s := scanner{data: resp.Body}
	s.object(func(key []byte) error {
		if string(key) == "__type" && s.peek() == '"' && typ == "" {
			v, err := s.str()
			typ = v
			return err
		}
		_, err := s.skip()
		return err
	})
	return sanitizeErrorType(typ)
}

// cborFormat is the CBOR body of rpcv2Cbor.
type cborFormat struct{ o *jsonOptions }

func (f cborFormat) encodeInput(in *shapeCodec, vals [][]byte) ([]byte, error) {
	return f.o.encodeCBORInput(in, vals)
}

func (f cborFormat) decodeStruct(sc *shapeCodec, body []byte, alloc Alloc) ([]byte, error) {
	strict := f.o.strict
	w := objectWriter{dst: alloc.buffer(2*len(body) + 16)}
	w.dst = append(w.dst, '{')
	if len(body) > 0 && (sc.kind != kUnit || strict) {
		r := cbor.NewReader(body)
		if err := f.o.decodeCBORFields(&w, r, sc); err != nil {
			return nil, err
		}
		if !r.AtEnd() {
			return nil, badValue("data after the CBOR body")
		}
	}
	f.o.addDefaults(&w, sc)
	if !strict {
		f.o.errorCorrect(&w, sc)
	}
	return append(w.dst, '}'), nil
}

func (f cborFormat) errorType(resp *wire.Response) string {
	typ := ""
	r := cbor.NewReader(resp.Body)
	r.Map(func(key []byte) error {
		if string(key) == "__type" && typ == "" {
			if v, err := r.Text(); err == nil {
				typ = string(v)
				return nil
			}
		}
		return r.Skip()
	})
	return sanitizeErrorType(typ)
}

func (f cborFormat) eventBody() restBody { return cborBody{o: f.o} }

func (f cborFormat) document(body []byte) []byte {
	r := cbor.NewReader(body)
	out, err := r.AppendJSON(nil)
	if err != nil || !r.AtEnd() {
		return nil
	}
	return out
}
