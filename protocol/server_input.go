package protocol

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// What the RPC and query servers (rpc_server.go, query_server.go) share:
// how a refused request is described, the request's body (gzip undone)
// and the checks of a decoded input.

// MaxInflatedBody bounds a gzip request body once inflated: a larger one
// is refused with 413 rather than held in memory.
const MaxInflatedBody = 64 << 20

// serverCodes are the error codes a protocol's server answers a bad
// request with.
type serverCodes struct {
	unknownStatus int
	unknown       string // no operation of the service is called
	syntax        string // the body is not the protocol's format, or a value not its type
	required      string // a @required member is missing (without WithValidation)
	mediaType     string // the Content-Type is not the protocol's (415)
}

// refuse is request failure err of op (nil when no operation was found)
// answered with status and code; a value error names its member.
func refuse(op *model.Operation, status int, code string, err error) *RequestError {
	re := &RequestError{Status: status, Code: code, Err: err}
	if op != nil {
		re.Operation = op.Shape.ID
	}
	var ve *valueError
	if errors.As(err, &ve) && len(ve.rev) > 0 {
		re.Member = ve.path()
	}
	return re
}

// header is the first value of header name in h, any case of the name
// (a request's header names need not be canonical), "" when absent.
func header(h wire.Header, name string) string {
	if v, ok := headerValues(h, name); ok && len(v) > 0 {
		return v[0]
	}
	return ""
}

// mediaTypeIs reports whether Content-Type value ct is media type want,
// parameters (charset) aside.
func mediaTypeIs(ct, want string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), want)
}

// requestBody is req's body with a gzip Content-Encoding undone (at most
// MaxInflatedBody bytes); other encodings are refused with 415.
func requestBody(op *model.Operation, req *wire.Request, codes serverCodes) ([]byte, error) {
	enc := strings.TrimSpace(header(req.Header, "Content-Encoding"))
	switch {
	case enc == "" || strings.EqualFold(enc, "identity"):
		return req.Body, nil
	case !strings.EqualFold(enc, "gzip"):
		return nil, refuse(op, 415, codes.mediaType, fmt.Errorf("Content-Encoding %q is not supported (gzip is)", enc))
	}
	zr, err := gzip.NewReader(bytes.NewReader(req.Body))
	if err != nil {
		return nil, refuse(op, 400, codes.syntax, fmt.Errorf("gzip body: %w", err))
	}
	body, err := io.ReadAll(io.LimitReader(zr, MaxInflatedBody+1))
	if err != nil {
		return nil, refuse(op, 400, codes.syntax, fmt.Errorf("gzip body: %w", err))
	}
	if len(body) > MaxInflatedBody {
		return nil, refuse(op, 413, codes.syntax, fmt.Errorf("gzip body inflates to more than %d bytes", MaxInflatedBody))
	}
	return body, nil
}

// checkInput checks input doc of op (structure in) as a server must: a
// missing @required member is a *RequestError; with WithValidation every
// violation, required members and constraint traits alike, is returned in
// one *ValidationError, in the words of Smithy's ValidationException.
func checkInput(cfg *config, op *model.Operation, in *shapeCodec, doc []byte, codes serverCodes) error {
	vals, err := topLevel(in, doc)
	if err != nil {
		return refuse(op, 400, codes.syntax, err)
	}
	// A ValidationError speaks as a Smithy server's ValidationException;
	// a RequestError's member path is in the client's words.
	v := validator{constraints: cfg.validate, smithy: cfg.validate}
	vs := v.input(in, vals)
	switch {
	case len(vs) == 0:
		return nil
	case cfg.validate:
		return &ValidationError{Operation: op.Shape.ID, Violations: vs}
	}
	return &RequestError{Operation: op.Shape.ID, Status: 400, Code: codes.required, Member: vs[0].Path,
		Err: fmt.Errorf("%s: %s", vs[0].Path, vs[0].Message)}
}
