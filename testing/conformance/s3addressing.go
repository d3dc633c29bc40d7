package conformance

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// s3Service is the service of the S3 customization cases, in the protocol
// tests and in the real S3 model.
const s3Service model.ShapeID = "com.amazonaws.s3#AmazonS3"

// splitS3Addressing takes out of cases the S3 request cases whose
// resolvedHost is not their host: the bucket goes into the host name
// (virtual-host, dual-stack and accelerate addressing). S3's endpoint rules
// decide that, and the protocol tests' S3 service carries none.
func splitS3Addressing(cases []protocolCase) (codec, rules []protocolCase) {
	for _, c := range cases {
		resolved, ok := c.tc.Get("resolvedHost")
		if c.svc == s3Service && c.kind == "request" && ok && resolved.Str() != field(c.tc, "host") {
			rules = append(rules, c)
			continue
		}
		codec = append(codec, c)
	}
	return codec, rules
}

// runS3Addressing runs the cases of splitS3Addressing through a client of
// the real S3 model (models/aws-large/s3.json), whose endpoint rules get
// the case's AwsConfig (region, addressing style, dual-stack, accelerate)
// as parameters; the request it sends is compared as any other.
func runS3Addressing(r *Result, shared string, m *model.Model, cases []protocolCase, excl map[string]string) {
	if len(cases) == 0 {
		return
	}
	s3, err := model.LoadPaths(context.Background(), filepath.Join(shared, "models", "aws-large", "s3.json"))
	if err != nil {
		r.fail("load", "S3 model: %v", err)
		return
	}
	for _, c := range cases {
		if _, ok := excl[c.key()]; ok {
			r.Skipped++
			continue
		}
		if err := guard(caseTimeout, func() error { return s3AddressingCase(m, s3, c) }); err != nil {
			r.fail(c.key(), "%v", err)
			continue
		}
		r.Passed++
	}
}

func s3AddressingCase(m, s3 *model.Model, c protocolCase) error {
	region, params := s3Config(c.tc)
	t := &cannedTransport{resp: cannedResponse(c)}
	cl, err := client.New(s3, s3Service, "", client.WithTransport(t), client.WithoutRetries(),
		client.WithEndpointParams(params),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET", Region: region}))
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
