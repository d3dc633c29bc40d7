// Package credchain is the differential test of smithycurl's credential
// chain and AWS settings against botocore's (oracle.py): a matrix of
// set-ups (a HOME with the AWS CLI's files, an environment, fake STS, SSO,
// SSO-OIDC, container and IMDS endpoints on 127.0.0.1), each resolved by
// both in a process of its own, compared.
package credchain

import (
	"context"
	"errors"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/credentials"
)

// Result is one side's answer, the same JSON from Go and from oracle.py.
type Result struct {
	AKID       string `json:"akid,omitempty"`
	Token      bool   `json:"token,omitempty"`
	Method     string `json:"method,omitempty"`
	CredsError string `json:"creds_error,omitempty"`
	// NotFound: no provider had credentials (botocore: get_credentials()
	// is None; smithycurl: the error wraps ErrNotFound).
	NotFound          bool   `json:"not_found,omitempty"`
	Region            string `json:"region"`
	RegionError       string `json:"region_error,omitempty"`
	Endpoint          string `json:"endpoint"`
	EndpointError     string `json:"endpoint_error,omitempty"`
	EndpointSupported bool   `json:"endpoint_supported"`
	Botocore          string `json:"botocore,omitempty"`
}

// Side resolves smithycurl's credentials and settings from the process's
// environment: the default chain (profile: as --profile) and the
// settings of the service whose sdkId is sdkID.
func Side(profile, sdkID string) Result {
	r := Result{EndpointSupported: true}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	creds, err := credentials.DefaultChain(credentials.Options{Profile: profile}).Retrieve(ctx)
	if err != nil {
		r.CredsError = err.Error()
		r.NotFound = errors.Is(err, credentials.ErrNotFound)
	} else {
		r.AKID, r.Token, r.Method = creds.AccessKeyID, creds.SessionToken != "", creds.Source
	}
	cfg, err := awsconfig.Load(awsconfig.Env{})
	if err == nil {
		var st awsconfig.Settings
		if st, err = cfg.Settings(profile, sdkID); err == nil {
			r.Region, r.Endpoint = st.Region.V, st.EndpointURL.V
			return r
		}
	}
	r.RegionError, r.EndpointError = err.Error(), err.Error()
	return r
}
