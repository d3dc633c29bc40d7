package sigv4

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/sha256"
	"sync"
)

// KeyCache keeps the signing key last derived (four HMACs, half the cost
// of a signature), as the AWS SDKs do: a client signs for one secret,
// region and service, and the key changes once a day; and the SigV4a key
// of the access key last used (a scalar multiplication). Safe for
// concurrent use; the zero value is ready.
type KeyCache struct {
	mu                           sync.Mutex
	secret, day, region, service string
	key                          []byte // read-only once stored

	ecdsaID, ecdsaSecret string
	ecdsa                *ecdsa.PrivateKey // read-only once stored
}

// ECDSAKey returns the SigV4a private key of an access key pair. A nil
// cache derives it.
func (c *KeyCache) ECDSAKey(accessKeyID, secret string) (*ecdsa.PrivateKey, error) {
	if c == nil {
		return deriveECDSAKey(accessKeyID, secret)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ecdsa == nil || c.ecdsaID != accessKeyID || c.ecdsaSecret != secret {
		key, err := deriveECDSAKey(accessKeyID, secret)
		if err != nil {
			return nil, err
		}
		c.ecdsa, c.ecdsaID, c.ecdsaSecret = key, accessKeyID, secret
	}
	return c.ecdsa, nil
}

// Key returns the signing key of secret, day (yyyymmdd), region and
// service. A nil cache derives it.
func (c *KeyCache) Key(secret, day, region, service string) []byte {
	if c == nil {
		return signingKey(secret, day, region, service)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == nil || c.day != day || c.secret != secret || c.region != region || c.service != service {
		c.key = signingKey(secret, day, region, service)
		c.secret, c.day, c.region, c.service = secret, day, region, service
	}
	return c.key
}

// signingKey is the SigV4 signing key of a day (yyyymmdd), region and
// service.
func signingKey(secret, day, region, service string) []byte {
	key := hmacSHA256([]byte("AWS4"+secret), day)
	for _, part := range []string{region, service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	return key
}

func hmacSHA256(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}
