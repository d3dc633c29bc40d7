package conformance

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// s3Service is the service of the S3 customization cases, in the protocol
// tests and in the real S3 model.
const s3Service model.ShapeID = "com.amazonaws.s3#AmazonS3"

// clientCases takes out of cases the request cases the codec alone cannot
// pass, which run through a client instead (runClientCases):
//   - those of an operation with an AWS customization (client/awscustom:
//     Glacier's headers and accountId, Machine Learning's PredictEndpoint),
//     which the client applies around the codec;
//   - S3's cases whose resolvedHost is not their host: the bucket goes into
//     the host name (virtual-host, dual-stack and accelerate addressing) by
//     S3's endpoint rules, which the protocol tests' S3 service lacks.
func clientCases(m *model.Model, cases []protocolCase) (codec, custom, s3Addressed []protocolCase) {
	for _, c := range cases {
		if c.kind != "request" {
			codec = append(codec, c)
			continue
		}
		resolved, ok := c.tc.Get("resolvedHost")
		switch svc, err := m.Service(c.svc); {
		case c.svc == s3Service && ok && resolved.Str() != field(c.tc, "host"):
			s3Addressed = append(s3Addressed, c)
		case err == nil && awscustom.For(m, svc, c.op) != nil:
			custom = append(custom, c)
		default:
			codec = append(codec, c)
		}
	}
	return codec, custom, s3Addressed
}

// runClientCases runs the cases of clientCases: custom through a client of
// their own service (m), s3Addressed through a client of the real S3 model
// (models/aws-large/s3.json), whose endpoint rules get the case's AwsConfig
// (region, addressing style, dual-stack, accelerate) as parameters. The
// request sent is compared as any other.
func runClientCases(r *Result, shared string, m *model.Model, custom, s3Addressed []protocolCase, excl map[string]string) {
	run := func(c protocolCase, f func() error) {
		_, excluded := excl[c.key()]
		r.record(c.key(), excluded, guard(caseTimeout, f))
	}
	for _, c := range custom {
		run(c, func() error { return clientCase(m, m, c, "https://"+hostOf(c), "us-east-1", nil) })
	}
	if len(s3Addressed) == 0 {
		return
	}
	s3, err := model.LoadPaths(context.Background(), filepath.Join(shared, "models", "aws-large", "s3.json"))
	if err != nil {
		r.fail("load", "S3 model: %v", err)
		return
	}
	for _, c := range s3Addressed {
		region, params := s3Config(c.tc)
		run(c, func() error { return clientCase(m, s3, c, "", region, params) })
	}
}

func hostOf(c protocolCase) string {
	if h := field(c.tc, "host"); h != "" {
		return h
	}
	return "example.com"
}

// clientCase calls c's operation on a client of svcModel's service c.svc
// (endpoint "" lets the endpoint rules choose), with the case's params read
// by the protocol tests' model m, and compares the request sent.
func clientCase(m, svcModel *model.Model, c protocolCase, endpoint, region string, params map[string]any) error {
	t := &cannedTransport{resp: cannedResponse(c)}
	opts := []client.Option{client.WithTransport(t), client.WithoutRetries(),
		client.WithCodecOptions(protocol.WithIdempotencyTokens(func() string { return fixedToken })),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET", Region: region})}
	if params != nil {
		opts = append(opts, client.WithEndpointParams(params))
	}
	cl, err := client.New(svcModel, c.svc, endpoint, opts...)
	if err != nil {
		return err
	}
	defer cl.Close()
	caseParams, _ := c.tc.Get("params")
	in := docValue(m, c.op.Input.ID, caseParams, false)
	input := "{}"
	if !in.IsNull() {
		input = in.JSON()
	}
	_, err = cl.Call(context.Background(), c.op.Name, []byte(input))
	if t.got == nil {
		return fmt.Errorf("nothing sent: %v (input %s)", err, input)
	}
	return compareRequest(c, sentRequestOf(t.got))
}

// s3Config reads a case's AwsConfig (vendorParams.scopedConfig: client,
// then operation, which wins) as the region and S3's endpoint rule
// parameters.
func s3Config(tc model.Node) (region string, params map[string]any) {
	params = map[string]any{}
	vp, _ := tc.Get("vendorParams")
	scoped, _ := vp.Get("scopedConfig")
	for _, level := range []string{"client", "operation"} {
		cfg, ok := scoped.Get(level)
		if !ok {
			continue
		}
		if v := field(cfg, "region"); v != "" {
			region = v
		}
		s3, _ := cfg.Get("s3")
		if v := field(s3, "addressing_style"); v != "" {
			params["ForcePathStyle"] = v == "path"
		}
		if v, ok := s3.Get("use_accelerate_endpoint"); ok {
			params["Accelerate"] = v.AsBool()
		}
		if v, ok := s3.Get("use_dualstack_endpoint"); ok {
			params["UseDualStack"] = v.AsBool()
		}
	}
	return region, params
}
