package client

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	awscredentials "github.com/smithycurl/smithycurl/credentials"
	"github.com/smithycurl/smithycurl/identity"
)

// defaultAWSProvider is where a SigV4 service's credentials come from when
// the caller gave none: the AWS default chain (credentials.DefaultChain:
// environment, the profile of WithProfile or AWS_PROFILE, web identity,
// container, instance metadata) over the configuration New loaded. A
// provider whose error wraps credentials.ErrNotFound is as none: the call
// takes its next auth scheme, or none (see foundNone).
func defaultAWSProvider(o *options) (identity.Provider[identity.AWS], error) {
	return awscredentials.DefaultChain(awscredentials.Options{Config: o.awsConfig, Profile: o.profile, Region: o.endpoint.region}), nil
}

// foundNone reports whether err is the default provider finding no
// credentials.
func foundNone(err error) bool { return errors.Is(err, awscredentials.ErrNotFound) }

// searchOnce remembers that p found no credentials, so that the search
// (files, container and instance metadata endpoints) is made once per
// client, as botocore resolves a client's credentials once.
type searchOnce struct {
	p    identity.Provider[identity.AWS]
	none atomic.Pointer[error]
}

func (s *searchOnce) String() string {
	if n, ok := s.p.(fmt.Stringer); ok {
		return n.String()
	}
	return "the default credential chain"
}

func (s *searchOnce) Retrieve(ctx context.Context) (identity.AWS, error) {
	if err := s.none.Load(); err != nil {
		return identity.AWS{}, *err
	}
	a, err := s.p.Retrieve(ctx)
	if foundNone(err) {
		s.none.Store(&err)
	}
	return a, err
}
