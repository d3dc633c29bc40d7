package client

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// checksumPlan is an operation's aws.protocols#httpChecksum trait, with
// the headers its members are bound to.
type checksumPlan struct {
	algHeader    string   // header of requestAlgorithmMember ("" when none)
	modeHeader   string   // header of requestValidationModeMember ("" when none)
	responseAlgs []string // responseAlgorithms, in the model's order
	required     bool     // requestChecksumRequired, or @httpChecksumRequired
	md5Member    string   // the input member bound to Content-MD5 ("" when none)
}

func planChecksum(m *model.Model, op *model.Operation) checksumPlan {
	var p checksumPlan
	p.required = op.Shape.HasTrait(model.TraitHTTPChecksumRequired)
	for _, mem := range op.Input.Members {
		if h, ok := mem.Traits.Get(model.TraitHTTPHeader); ok && strings.EqualFold(h.Str(), "Content-MD5") {
			p.md5Member = mem.Name()
		}
	}
	t, ok := op.Shape.Trait(protocol.TraitHTTPChecksum)
	if !ok {
		return p
	}
	header := func(field string) string {
		v, ok := t.Get(field)
		if !ok {
			return ""
		}
		for _, mem := range op.Input.Members {
			if mem.Name() == v.Str() {
				h, _ := mem.Traits.Get(model.TraitHTTPHeader)
				return h.Str()
			}
		}
		return ""
	}
	p.algHeader = header("requestAlgorithmMember")
	p.modeHeader = header("requestValidationModeMember")
	if v, ok := t.Get("requestChecksumRequired"); ok && v.AsBool() {
		p.required = true
	}
	if v, ok := t.Get("responseAlgorithms"); ok {
		for _, alg := range responsePriority {
			for _, a := range v.Items() {
				if strings.EqualFold(a.Str(), alg) {
					p.responseAlgs = append(p.responseAlgs, alg)
				}
			}
		}
	}
	return p
}

// responsePriority is the order in which a response's checksums are
// chosen, botocore's (_ALGORITHMS_PRIORITY_LIST): the CRCs, cheapest to
// compute, first.
var responsePriority = []string{"CRC64NVME", "CRC32C", "CRC32", "SHA1", "SHA256"}

// The CRC tables are built at the first checksum that needs them, not at
// package start-up (0.3 ms of a one-call process's CPU between them).
var (
	castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })
	// CRC-64/NVME (reflected polynomial; crc64 inverts before and after,
	// as the algorithm's init and xorout ask).
	nvme = sync.OnceValue(func() *crc64.Table { return crc64.MakeTable(0x9a6c9329ac4bc9b5) })
)

// checksumAlgorithms are the algorithms of httpChecksum, by their name in
// the model's enums; each digest is sent big-endian in base64.
var checksumAlgorithms = map[string]func() hash.Hash{
	"CRC32":     func() hash.Hash { return crc32.NewIEEE() },
	"CRC32C":    func() hash.Hash { return crc32.New(castagnoli()) },
	"CRC64NVME": func() hash.Hash { return crc64.New(nvme()) },
	"SHA1":      sha1.New,
	"SHA256":    sha256.New,
}

// checksumHeaders are the headers that carry each algorithm's checksum,
// canonical (wire.Header's Get and Set use them as they are: no
// allocation per call).
var checksumHeaders = func() map[string]string {
	m := make(map[string]string, len(checksumAlgorithms))
	for alg := range checksumAlgorithms {
		m[alg] = textproto.CanonicalMIMEHeaderKey("X-Amz-Checksum-" + alg)
	}
	return m
}()

// checksumHeader is the header that carries a checksum of alg.
func checksumHeader(alg string) string {
	if h, ok := checksumHeaders[alg]; ok {
		return h
	}
	return textproto.CanonicalMIMEHeaderKey("X-Amz-Checksum-" + alg)
}

// hasMember reports whether the input document gives member name.
func hasMember(input []byte, name string) bool {
	found := false
	protocol.Members(input, func(n string, raw []byte) bool {
		found = n == name && string(raw) != "null"
		return !found
	})
	return found
}

func digest(h hash.Hash) string { return base64.StdEncoding.EncodeToString(h.Sum(nil)) }

// ChecksumWhen says when a client computes request checksums or checks
// response checksums (aws.protocols#httpChecksum), as the AWS SDKs'
// request_checksum_calculation and response_checksum_validation settings.
type ChecksumWhen string

const (
	// ChecksumWhenSupported: a request checksum (CRC32 unless the input
	// chooses another) whenever the operation supports one, and the
	// response checked whenever the operation can be asked for one (its
	// validation mode member set to ENABLED unless the input sets it).
	// The default, as the AWS SDKs' since 2025.
	ChecksumWhenSupported ChecksumWhen = "when_supported"
	// ChecksumWhenRequired: a request checksum only when the operation
	// requires one or the input chooses an algorithm; the response checked
	// only when the input sets the validation mode member to ENABLED.
	ChecksumWhenRequired ChecksumWhen = "when_required"
)

// checksumOptions are the two settings; "" until New resolves them.
type checksumOptions struct{ request, response ChecksumWhen }

// WithRequestChecksumCalculation sets when request checksums are computed
// (default: AWS_REQUEST_CHECKSUM_CALCULATION, the profile's
// request_checksum_calculation, else ChecksumWhenSupported).
func WithRequestChecksumCalculation(w ChecksumWhen) Option {
	return optionFunc(func(o *options) { o.checksums.request = w })
}

// WithResponseChecksumValidation sets when response checksums are checked
// (default: AWS_RESPONSE_CHECKSUM_VALIDATION, the profile's
// response_checksum_validation, else ChecksumWhenSupported).
func WithResponseChecksumValidation(w ChecksumWhen) Option {
	return optionFunc(func(o *options) { o.checksums.response = w })
}

// resolve gives what is still unset the default and checks the values
// (New, after the AWS settings filled in theirs).
func (c *checksumOptions) resolve() error {
	for _, f := range []struct {
		v      *ChecksumWhen
		option string
	}{{&c.request, "WithRequestChecksumCalculation"}, {&c.response, "WithResponseChecksumValidation"}} {
		switch *f.v {
		case "":
			*f.v = ChecksumWhenSupported
		case ChecksumWhenSupported, ChecksumWhenRequired:
		default:
			return fmt.Errorf("%s(%q): want %q or %q", f.option, string(*f.v), ChecksumWhenSupported, ChecksumWhenRequired)
		}
	}
	return nil
}

// callerChecksum reports whether the request carries a checksum the
// caller gave: an x-amz-checksum-<algorithm> header (from an input member
// or WithCallHeader). It is sent as given, with no second one, as the AWS
// SDKs do.
func callerChecksum(h wire.Header) bool {
	for _, name := range checksumHeaders {
		if h.Get(name) != "" {
			return true
		}
	}
	return false
}

// requestChecksum adds the request checksum httpChecksum asks for, as the
// AWS SDKs since 2025:
//   - a checksum the caller gives (an x-amz-checksum-* member or header) is
//     sent as given, and so is a Content-MD5 when the caller chose no
//     algorithm;
//   - else the algorithm the caller chose in requestAlgorithmMember;
//   - else CRC32, when the operation has that member and requires a
//     checksum or when is ChecksumWhenSupported; the member's header says
//     CRC32 then (x-amz-sdk-checksum-algorithm), as botocore sends it;
//   - else Content-MD5 when the operation requires a checksum and has no
//     algorithm member (@httpChecksumRequired).
//
// A streamed body is read through once when it can be rewound (an
// io.Seeker), else its checksum goes in a trailer of the aws-chunked
// encoding; a default CRC32 does so only over https (as botocore: the
// trailer means an unsigned payload) or where the operation requires a
// checksum: else a body that cannot be rewound gets none over http.
// Content-MD5, which has no trailer form, needs a body that can be rewound.
func (b *callBody) requestChecksum(op *model.Operation, cp checksumPlan, when ChecksumWhen, input []byte, req *transport.Request) error {
	if cp.algHeader == "" && !cp.required {
		return nil // no algorithm member and none required: nothing to add, whatever the request holds
	}
	alg := ""
	if cp.algHeader != "" {
		alg = strings.ToUpper(req.Header.Get(cp.algHeader))
	}
	newHash := md5.New
	if alg != "" {
		var ok bool
		if newHash, ok = checksumAlgorithms[alg]; !ok {
			return usageError(op.Shape.ID, "checksum algorithm %q is not one of CRC32, CRC32C, CRC64NVME, SHA1, SHA256", alg)
		}
	}
	if callerChecksum(req.Header) {
		return nil
	}
	defaulted := false
	if alg == "" {
		switch {
		case cp.md5Member != "" && hasMember(input, cp.md5Member):
			return nil // the caller's Content-MD5
		case cp.algHeader != "" && (cp.required || when == ChecksumWhenSupported):
			alg, defaulted, newHash = "CRC32", true, checksumAlgorithms["CRC32"]
			req.Header.Set(cp.algHeader, alg)
		case !cp.required:
			return nil
		}
	}
	name := "Content-Md5"
	if alg != "" {
		name = checksumHeader(alg)
	}
	if b.r == nil {
		if alg == "" {
			return nil // the codec wrote Content-MD5
		}
		h := newHash()
		h.Write(req.Body)
		req.Header.Set(name, digest(h))
		return nil
	}
	if alg == "" {
		delete(req.Header, "Content-Md5") // the codec's, of an empty body
	}
	h := newHash()
	ok, err := b.hashBody(req)(h)
	if err != nil {
		return usageError(op.Shape.ID, "%s checksum: %v", strings.TrimPrefix(name, "X-Amz-Checksum-"), err)
	}
	if ok {
		req.Header.Set(name, digest(h))
		return nil
	}
	if alg == "" {
		return usageError(op.Shape.ID, "operation %s requires a Content-MD5 of its body: give a body reader that is an io.Seeker, or choose a checksum algorithm", op.Name)
	}
	if defaulted && !cp.required && !strings.HasPrefix(req.URL, "https://") {
		req.Header.Del(cp.algHeader)
		return nil
	}
	// The aws-chunked encoding with the checksum in a trailer.
	trailer := strings.ToLower(name)
	if ce := req.Header.Get("Content-Encoding"); ce != "" {
		req.Header.Set("Content-Encoding", ce+", aws-chunked")
	} else {
		req.Header.Set("Content-Encoding", "aws-chunked")
	}
	req.Header.Set("X-Amz-Trailer", trailer)
	req.Header.Set("X-Amz-Content-Sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER")
	if b.size >= 0 {
		req.Header.Set("X-Amz-Decoded-Content-Length", strconv.FormatInt(b.size, 10))
	}
	size := b.size
	b.wrap = func(r io.Reader) (io.Reader, int64) {
		enc := &awsChunked{r: r, h: newHash(), trailer: trailer}
		if size < 0 {
			return enc, -1
		}
		return enc, awsChunkedLen(size, trailer, newHash().Size())
	}
	b.set(req)
	return nil
}

// awsChunkSize is the payload of each aws-chunked chunk but the last.
const awsChunkSize = 64 << 10

// awsChunked encodes r in the aws-chunked encoding without signatures:
// "<hex size>\r\n<data>\r\n" per chunk, then "0\r\n", the checksum
// trailer line and "\r\n".
type awsChunked struct {
	r       io.Reader
	h       hash.Hash
	trailer string
	buf     []byte // the encoded chunk being sent
	off     int
	chunk   []byte
	done    bool
}

func (a *awsChunked) Read(p []byte) (int, error) {
	for a.off == len(a.buf) {
		if a.done {
			return 0, io.EOF
		}
		if a.chunk == nil {
			a.chunk = make([]byte, awsChunkSize)
			a.buf = make([]byte, 0, awsChunkSize+128)
		}
		n, err := io.ReadFull(a.r, a.chunk)
		a.buf, a.off = a.buf[:0], 0
		if n > 0 {
			a.h.Write(a.chunk[:n])
			a.buf = strconv.AppendInt(a.buf, int64(n), 16)
			a.buf = append(a.buf, "\r\n"...)
			a.buf = append(a.buf, a.chunk[:n]...)
			a.buf = append(a.buf, "\r\n"...)
		}
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			a.buf = append(a.buf, "0\r\n"...)
			a.buf = append(a.buf, a.trailer...)
			a.buf = append(a.buf, ':')
			a.buf = append(a.buf, digest(a.h)...)
			a.buf = append(a.buf, "\r\n\r\n"...)
			a.done = true
		default:
			return 0, err
		}
	}
	n := copy(p, a.buf[a.off:])
	a.off += n
	return n, nil
}

// awsChunkedLen is the encoded length of size bytes.
func awsChunkedLen(size int64, trailer string, digestSize int) int64 {
	chunk := func(n int64) int64 { return int64(len(strconv.FormatInt(n, 16))) + 2 + n + 2 }
	l := (size / awsChunkSize) * chunk(awsChunkSize)
	if r := size % awsChunkSize; r > 0 {
		l += chunk(r)
	}
	return l + 3 + int64(len(trailer)) + 1 + int64(base64.StdEncoding.EncodedLen(digestSize)) + 4
}

// responseChecksum checks a response body against the checksum header the
// service sent, the first of responseAlgorithms it sent in botocore's order
// of preference (responsePriority). Composite
// checksums of multipart objects ("…-N") are not checked, nor a response
// without any.
type responseChecksum struct {
	algs []string
	h    hash.Hash // the streamed body's, once it started
	alg  string
	want string
}

// newResponseChecksum is nil unless the request's validation mode member
// is ENABLED: as the input sets it, else, under ChecksumWhenSupported,
// set here (the header is sent, as botocore sends it).
func newResponseChecksum(cp checksumPlan, when ChecksumWhen, req *transport.Request) *responseChecksum {
	if cp.modeHeader == "" || len(cp.responseAlgs) == 0 {
		return nil
	}
	mode := req.Header.Get(cp.modeHeader)
	if mode == "" && when == ChecksumWhenSupported {
		mode = "ENABLED"
		req.Header.Set(cp.modeHeader, mode)
	}
	if !strings.EqualFold(mode, "ENABLED") {
		return nil
	}
	return &responseChecksum{algs: cp.responseAlgs}
}

// pick finds the checksum to check in header; false when there is none.
func (rc *responseChecksum) pick(header wire.Header) bool {
	rc.alg, rc.want, rc.h = "", "", nil
	for _, alg := range rc.algs {
		v := header.Get(checksumHeader(alg))
		newHash, ok := checksumAlgorithms[alg]
		if v == "" || !ok || strings.Contains(v, "-") {
			continue
		}
		rc.alg, rc.want, rc.h = alg, v, newHash()
		return true
	}
	return false
}

// Write hashes a streamed body.
func (rc *responseChecksum) Write(p []byte) (int, error) {
	if rc.h != nil {
		rc.h.Write(p)
	}
	return len(p), nil
}

// check checks a successful response (its body in memory, or streamed
// through Write).
func (rc *responseChecksum) check(resp *wire.Response) error {
	if !resp.Streamed {
		if !rc.pick(resp.Header) {
			return nil
		}
		rc.h.Write(resp.Body)
	} else if rc.h == nil {
		return nil
	}
	if got := digest(rc.h); got != rc.want {
		return fmt.Errorf("response checksum mismatch: %s is %s, the body's is %s", strings.ToLower(checksumHeader(rc.alg)), rc.want, got)
	}
	return nil
}
