// Package awscustom holds what the AWS SDKs add to some services' protocol
// on the wire: defaults and rewrites of an input, headers and checksums of
// a request, checks of a response and of an output. They are keyed by
// service shape id and operation name in one table (table), and the client
// runs them at four points of a call: Input before serialization, Request
// after it (before signing), Response before deserialization and Output
// after it. Every front end (Go, C, Python, the CLI, the typed clients)
// calls through the client, so all get them.
//
// The customizations of the codecs themselves (API Gateway's Accept
// header, S3's unwrapped GetBucketLocation output and its errors in a 200
// response) stay in the protocol package: the protocol conformance suite
// checks them there.
package awscustom

import (
	"context"
	"io"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Request is what a Request hook may change: the encoded request (method,
// URL, headers) before it is signed, with the input it came from.
type Request struct {
	*transport.Request
	Input []byte
	// HashBody writes the whole body to ws, rewinding a streamed one
	// afterwards; false when the body is a stream that cannot be read
	// twice.
	HashBody func(ws ...io.Writer) (bool, error)
}

// Hooks are the customizations of one operation; nil when it has none.
type Hooks struct {
	input    []func(in []byte) ([]byte, error)
	request  []func(r *Request) error
	response []func(resp *wire.Response) error
	output   []func(in, out []byte) ([]byte, error)
	unsigned bool // sent without auth, whatever the model's
	// crossRegion: input hooks that presign (CrossRegion).
	crossRegion []func(ctx context.Context, in []byte, dest string, presign Presigner) ([]byte, error)
	// extraInput: string members the input may have that the model does
	// not, which the hooks take out (RDS's SourceRegion).
	extraInput []string
}

// ExtraInput returns the string members an input of the operation may
// have beyond its model's, which its customizations take out before it is
// encoded (RDS's SourceRegion); nil when none. Front ends that check
// inputs against the model (describe, then Python) accept these too.
func (h *Hooks) ExtraInput() []string {
	if h == nil {
		return nil
	}
	return h.extraInput
}

// CorruptError is a response whose checksum does not match its body
// (DynamoDB's X-Amz-Crc32): it changed on the way. The request reached
// the server; it may be sent again when the operation is idempotent, or
// Resend says it only reads.
type CorruptError struct {
	Err    error
	Resend bool
}

func (e *CorruptError) Error() string { return e.Err.Error() }
func (e *CorruptError) Unwrap() error { return e.Err }

// customization is one entry of the table: make returns its hooks for an
// operation of the service (nil fields where it does nothing).
type customization struct {
	service model.ShapeID
	ops     []string // the operations it applies to; none for all
	make    func(m *model.Model, svc *model.Service, op *model.Operation) Hooks
}

// For returns the customizations of op, a operation of svc, or nil.
func For(m *model.Model, svc *model.Service, op *model.Operation) *Hooks {
	var h Hooks
	for _, c := range table {
		if c.service != svc.Shape.ID || !applies(c.ops, op.Name) {
			continue
		}
		more := c.make(m, svc, op)
		h.input = append(h.input, more.input...)
		h.request = append(h.request, more.request...)
		h.response = append(h.response, more.response...)
		h.output = append(h.output, more.output...)
		h.unsigned = h.unsigned || more.unsigned
		h.crossRegion = append(h.crossRegion, more.crossRegion...)
		h.extraInput = append(h.extraInput, more.extraInput...)
	}
	if h.input == nil && h.request == nil && h.response == nil && h.output == nil && !h.unsigned && h.crossRegion == nil &&
		h.extraInput == nil {
		return nil
	}
	return &h
}

func applies(ops []string, name string) bool {
	if len(ops) == 0 {
		return true
	}
	for _, o := range ops {
		if o == name {
			return true
		}
	}
	return false
}

// Unsigned reports an operation sent without auth: the service does not
// want it signed, though the model does not say so.
func (h *Hooks) Unsigned() bool { return h != nil && h.unsigned }

// Input rewrites the input document before it is encoded. An error is
// the caller's (a usage error).
func (h *Hooks) Input(in []byte) ([]byte, error) {
	if h == nil {
		return in, nil
	}
	for _, f := range h.input {
		var err error
		if in, err = f(in); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// Request changes the encoded request before it is signed. An error is
// the caller's (a usage error).
func (h *Hooks) Request(r *Request) error {
	if h == nil {
		return nil
	}
	for _, f := range h.request {
		if err := f(r); err != nil {
			return err
		}
	}
	return nil
}

// Response checks a response before it is decoded; a *CorruptError says
// the response was damaged on the way.
func (h *Hooks) Response(resp *wire.Response) error {
	if h == nil {
		return nil
	}
	for _, f := range h.response {
		if err := f(resp); err != nil {
			return err
		}
	}
	return nil
}

// Output checks a decoded output against the input it answers, and may
// rewrite it.
func (h *Hooks) Output(in, out []byte) ([]byte, error) {
	if h == nil {
		return out, nil
	}
	for _, f := range h.output {
		var err error
		if out, err = f(in, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// table is every customization, by service; the README's list of AWS
// customizations says what each does and which SDK does it.
var table = []customization{
	{service: glacier, make: glacierAPIVersion},
	{service: glacier, make: glacierAccountID},
	{service: glacier, ops: []string{"UploadArchive", "UploadMultipartPart"}, make: glacierChecksums},
	{service: route53, make: route53IDs},
	{service: route53, make: route53InvalidChangeBatch},
	{service: dynamoDB, make: dynamoDBCRC32},
	{service: sqs, ops: []string{"SendMessage"}, make: sqsSendMessage},
	{service: sqs, ops: []string{"SendMessageBatch"}, make: sqsSendMessageBatch},
	{service: sqs, ops: []string{"ReceiveMessage"}, make: sqsReceiveMessage},
	{service: s3, make: s3SSECustomerKey},
	{service: s3, ops: []string{"GetBucketLocation"}, make: s3BucketLocation},
	{service: machineLearning, ops: []string{"Predict"}, make: machineLearningPredict},
	{service: cloudSearchDomain, ops: []string{"Search"}, make: cloudSearchDomainPost},
	{service: sts, ops: []string{"AssumeRoleWithSAML", "AssumeRoleWithWebIdentity"}, make: unsigned},
	{service: rds, ops: []string{"CopyDBClusterSnapshot", "CreateDBCluster", "CopyDBSnapshot", "CreateDBInstanceReadReplica",
		"StartDBInstanceAutomatedBackupsReplication"}, make: presignedURL},
	{service: docDB, ops: []string{"CopyDBClusterSnapshot", "CreateDBCluster"}, make: presignedURL},
	{service: neptune, ops: []string{"CopyDBClusterSnapshot", "CreateDBCluster"}, make: presignedURL},
}

// The services customized, by shape id.
const (
	glacier           model.ShapeID = "com.amazonaws.glacier#Glacier"
	route53           model.ShapeID = "com.amazonaws.route53#AWSDnsV20130401"
	dynamoDB          model.ShapeID = "com.amazonaws.dynamodb#DynamoDB_20120810"
	sqs               model.ShapeID = "com.amazonaws.sqs#AmazonSQS"
	s3                model.ShapeID = "com.amazonaws.s3#AmazonS3"
	machineLearning   model.ShapeID = "com.amazonaws.machinelearning#AmazonML_20141212"
	cloudSearchDomain model.ShapeID = "com.amazonaws.cloudsearchdomain#AmazonCloudSearch2013"
	sts               model.ShapeID = "com.amazonaws.sts#AWSSecurityTokenServiceV20110615"
	rds               model.ShapeID = "com.amazonaws.rds#AmazonRDSv19"
	docDB             model.ShapeID = "com.amazonaws.docdb#AmazonRDSv19"
	neptune           model.ShapeID = "com.amazonaws.neptune#AmazonRDSv19"
)
