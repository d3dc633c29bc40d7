package client

import (
	"os"

	"github.com/smithycurl/smithycurl/identity"
)

// defaultAWSProvider is where a SigV4 service's credentials come from when
// the caller gave none: nil, nil when nowhere; an error fails New. For now
// the AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN
// variables, read once.
func defaultAWSProvider(o *options) (identity.Provider[identity.AWS], error) {
	id, secret := os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	if id == "" || secret == "" {
		return nil, nil
	}
	const name = "the AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY variables"
	return &static[identity.AWS]{name: name, v: identity.AWS{AccessKeyID: id, SecretAccessKey: secret,
		SessionToken: os.Getenv("AWS_SESSION_TOKEN"), Source: name}}, nil
}
