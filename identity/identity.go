// Package identity holds the identities requests are signed with (AWS
// credentials, bearer tokens, API keys), the providers that supply them and
// the cache that keeps them fresh: one refresh at a time, before they
// expire, shared by every call and client that shares the cache.
package identity

import (
	"context"
	"time"
)

// AWS is a set of AWS credentials.
type AWS struct {
	AccessKeyID, SecretAccessKey, SessionToken string
	// Expires is when they stop working; zero for never.
	Expires time.Time
	// Source names the provider and where it read them (a variable, a
	// file and profile, an endpoint), for messages; never a secret.
	Source string
}

// Expiry implements Expiring.
func (a AWS) Expiry() time.Time { return a.Expires }

// Token is a bearer token (httpBearerAuth) or an API key (httpApiKeyAuth).
type Token struct {
	Value   string
	Expires time.Time // zero for never
	Source  string
}

// Expiry implements Expiring.
func (t Token) Expiry() time.Time { return t.Expires }

// Expiring is an identity with an expiry (zero: never).
type Expiring interface{ Expiry() time.Time }

// Provider supplies an identity. Retrieve may be called from many
// goroutines; a Cache in front of it makes it called once per refresh.
type Provider[T Expiring] interface {
	Retrieve(ctx context.Context) (T, error)
}

// ProviderFunc is a function as a Provider.
type ProviderFunc[T Expiring] func(ctx context.Context) (T, error)

// Retrieve calls f.
func (f ProviderFunc[T]) Retrieve(ctx context.Context) (T, error) { return f(ctx) }
