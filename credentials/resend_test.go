package credentials

import (
	"context"
	"errors"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/faultserver"
)

// The providers' sends are their own attempts: libcurl does not re-send a
// request on a fresh connection when a reused one dies before any
// response. Each test's server resets a reused connection once; before,
// libcurl's hidden re-send made more sends than the provider's rule.

// wantSends checks how many requests path received.
func wantSends(t *testing.T, s *faultserver.Server, path string, n int) {
	t.Helper()
	if got := s.Hits(path); got != n {
		t.Errorf("%s: %d sends, want %d (one per attempt)", path, got, n)
	}
}

const resendCreds = `{"AccessKeyId": "AK", "SecretAccessKey": "s", "Token": "t", "Expiration": "2030-01-01T00:00:00Z"}`

func TestContainerNoHiddenResend(t *testing.T) {
	s := faultserver.Start()
	defer s.Close()
	vars := map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": s.URL + containerPath}
	// A 500 keeps the connection, the reset is on the reused one.
	script := []faultserver.Fault{faultserver.Status(500), faultserver.Reset(), faultserver.JSON(200, resendCreds)}

	s.Handle(containerPath, script...)
	p := quickContainer(t, vars)
	p.attempts = 2
	if _, err := p.Retrieve(context.Background()); err == nil {
		t.Errorf("2 attempts, the second reset: got credentials")
	}
	wantSends(t, s, containerPath, 2)

	s.Handle(containerPath, script...)
	if _, err := quickContainer(t, vars).Retrieve(context.Background()); err != nil {
		t.Errorf("3 attempts: %v", err)
	}
	wantSends(t, s, containerPath, 3)
}

func TestInstanceMetadataNoHiddenResend(t *testing.T) {
	s := faultserver.Start()
	defer s.Close()
	s.Handle("/latest/api/token", faultserver.Respond(200, nil, "token"))
	s.Handle("/"+imdsRolePath+"role", faultserver.JSON(200, resendCreds))
	// The role name's request goes on the token's connection.
	rolePath := "/" + imdsRolePath
	script := []faultserver.Fault{faultserver.Reset(), faultserver.Respond(200, nil, "role")}

	s.Handle(rolePath, script...)
	if _, err := imdsAt(t, s.URL, 0, nil).Retrieve(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Errorf("1 attempt, reset: got %v, want ErrNotFound", err)
	}
	wantSends(t, s, rolePath, 1)

	s.Handle(rolePath, script...)
	vars := map[string]string{"AWS_METADATA_SERVICE_NUM_ATTEMPTS": "2"}
	if _, err := imdsAt(t, s.URL, 0, vars).Retrieve(context.Background()); err != nil {
		t.Errorf("2 attempts: %v", err)
	}
	wantSends(t, s, rolePath, 2)
}

func TestSTSCallNoHiddenResend(t *testing.T) {
	s := faultserver.Start()
	defer s.Close()
	const answer = `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>AK</AccessKeyId><SecretAccessKey>S</SecretAccessKey><SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`
	ok := faultserver.Respond(200, faultserver.Header{"Content-Type: text/xml"}, answer)
	call := func() error {
		var out stsOutput
		in := webIdentityInput{RoleArn: "arn:aws:iam::123456789012:role/r", RoleSessionName: "s", WebIdentityToken: "tok"}
		return stsService.call(context.Background(), &Options{}, target{url: s.URL}, "AssumeRoleWithWebIdentity", in, nil, &out)
	}
	// The first call leaves a connection to reuse; the second's sends
	// all reset: callAttempts of them, not one more of libcurl's.
	s.Handle("/", ok, faultserver.Reset())
	if err := call(); err != nil {
		t.Fatal(err)
	}
	if err := call(); err == nil {
		t.Errorf("every send reset: no error")
	}
	if n := s.Hits("/") - 1; n != callAttempts {
		t.Errorf("the call made %d sends, want its %d attempts", n, callAttempts)
	}
	// A reset reused connection, then an answer: the second attempt's.
	s.Handle("/", ok, faultserver.Reset(), ok)
	for i := 0; i < 2; i++ {
		if err := call(); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	wantSends(t, s, "/", 3)
}
