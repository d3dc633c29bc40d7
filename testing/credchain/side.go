// Package credchain is the differential test of smithycurl's credential
// chain and AWS settings against botocore's (oracle.py): a matrix of
// set-ups (a HOME with the AWS CLI's files, an environment, fake STS, SSO,
// SSO-OIDC, container and IMDS endpoints on 127.0.0.1), each resolved by
// both in a process of its own, compared.
package credchain

import (
	"context"
	"errors"
	"strconv"
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
	NotFound bool   `json:"not_found,omitempty"`
	Region   string `json:"region"`
	// Settings are the other settings, normalized: max_attempts,
	// retry_mode (legacy reads as standard, the default), use_fips_endpoint
	// and use_dualstack_endpoint ("true", "false" or "" when unset),
	// ca_bundle.
	Settings map[string]string `json:"settings,omitempty"`
	// RegionError: reading the settings failed (the region's or another's).
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
			r.Settings = map[string]string{"max_attempts": "", "retry_mode": "standard", "ca_bundle": st.CABundle.V,
				"use_fips_endpoint": boolSetting(st.UseFIPS), "use_dualstack_endpoint": boolSetting(st.UseDualStack)}
			if st.MaxAttempts.IsSet() {
				r.Settings["max_attempts"] = strconv.Itoa(st.MaxAttempts.V)
			}
			if st.RetryMode.IsSet() {
				r.Settings["retry_mode"] = st.RetryMode.V
			}
			return r
		}
	}
	r.RegionError, r.EndpointError = err.Error(), err.Error()
	return r
}

func boolSetting(v awsconfig.Value[bool]) string {
	if !v.IsSet() {
		return ""
	}
	return strconv.FormatBool(v.V)
}
