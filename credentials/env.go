package credentials

import (
	"context"
	"fmt"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/identity"
)

// Environment returns the provider of AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN (or AWS_SECURITY_TOKEN) and
// AWS_CREDENTIAL_EXPIRATION, read at each Retrieve. As botocore's
// EnvProvider: no access key id is ErrNotFound (a secret alone too); an
// access key id without a secret is an error naming the missing variable;
// AWS_SECURITY_TOKEN wins over AWS_SESSION_TOKEN (the Go SDK reads only
// the latter).
func Environment(env awsconfig.Env) identity.Provider[identity.AWS] {
	return identity.ProviderFunc[identity.AWS](func(context.Context) (identity.AWS, error) {
		return fromEnvironment(env)
	})
}

const envSource = "environment (AWS_ACCESS_KEY_ID)"

func fromEnvironment(env awsconfig.Env) (identity.AWS, error) {
	get := func(name string) (string, error) {
		v := env.Get(name)
		if err := checkText(name, v); err != nil {
			return "", fmt.Errorf("environment: %w", err)
		}
		return v, nil
	}
	var c identity.AWS
	var err error
	if c.AccessKeyID, err = get("AWS_ACCESS_KEY_ID"); err != nil {
		return c, err
	}
	if c.AccessKeyID == "" {
		return c, fmt.Errorf("environment: AWS_ACCESS_KEY_ID not set: %w", ErrNotFound)
	}
	if c.SecretAccessKey, err = get("AWS_SECRET_ACCESS_KEY"); err != nil {
		return identity.AWS{}, err
	}
	if c.SecretAccessKey == "" {
		return identity.AWS{}, fmt.Errorf("environment: partial credentials: AWS_ACCESS_KEY_ID is set, AWS_SECRET_ACCESS_KEY is not")
	}
	for _, name := range []string{"AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN"} {
		if c.SessionToken, err = get(name); err != nil {
			return identity.AWS{}, err
		}
		if c.SessionToken != "" {
			break
		}
	}
	exp, err := get("AWS_CREDENTIAL_EXPIRATION")
	if err != nil {
		return identity.AWS{}, err
	}
	if exp != "" {
		if c.Expires, err = parseExpiry("AWS_CREDENTIAL_EXPIRATION", exp); err != nil {
			return identity.AWS{}, fmt.Errorf("environment: %w", err)
		}
	}
	c.Source = envSource
	return c, nil
}

// checkText refuses control characters (CR/LF would split a signed
// header); the message names the field, never the value.
func checkText(name, v string) error {
	for i := 0; i < len(v); i++ {
		if b := v[i]; b < 0x20 || b == 0x7f {
			return fmt.Errorf("%s has a control character (byte %d)", name, i)
		}
	}
	return nil
}

// checkCreds checks every field of credentials read from a source.
func checkCreds(c identity.AWS) error {
	if err := checkText("AccessKeyId", c.AccessKeyID); err != nil {
		return err
	}
	if err := checkText("SecretAccessKey", c.SecretAccessKey); err != nil {
		return err
	}
	return checkText("session token", c.SessionToken)
}

// parseExpiry reads an RFC 3339 time; the message does not show the value.
// botocore takes any date dateutil parses; the SDKs write RFC 3339.
func parseExpiry(name, v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s is not an RFC 3339 time", name)
	}
	return t, nil
}
