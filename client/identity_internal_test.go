package client

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/identity"
)

// cachedAWS is a cache holding credentials with a session token as long
// as STS's.
func cachedAWS() identity.Provider[identity.AWS] {
	a := identity.AWS{AccessKeyID: "ASIAEXAMPLE", SecretAccessKey: strings.Repeat("s", 40),
		SessionToken: strings.Repeat("t", 1000), Expires: time.Now().Add(time.Hour)}
	c := credentials{aws: &static[identity.AWS]{v: a, name: "test"}}
	c.cache()
	return c.aws
}

// TestAttemptIdentityAllocs: an attempt's credentials, cached and checked,
// cost no allocation.
func TestAttemptIdentityAllocs(t *testing.T) {
	p, ctx := cachedAWS(), context.Background()
	if n := testing.AllocsPerRun(1000, func() {
		if _, err := p.Retrieve(ctx); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per attempt", n)
	}
}

func BenchmarkAttemptIdentity(b *testing.B) {
	p, ctx := cachedAWS(), context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Retrieve(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
