package sigv4

import (
	"bytes"
	"crypto/elliptic"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// exampleTime is the date of the AWS signing test suite's requests.
var exampleTime = time.Date(2015, 8, 30, 12, 36, 0, 0, time.UTC)

// The SigV4a key of the example credentials has the public key the AWS
// signing test suite gives for them (public-key.json of its v4a cases).
func TestECDSAKeyDerivation(t *testing.T) {
	key, err := deriveECDSAKey(exampleCreds.AccessKeyID, exampleCreds.SecretAccessKey)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	const wantX = "b6618f6a65740a99e650b33b6b4b5bd0d43b176d721a3edfea7e7d2d56d936b1"
	const wantY = "865ed22a7eadc9c5cb9d2cbaca1b3699139fedc5043dc6661864218330c8e518"
	if got := hex.EncodeToString(pub); got != "04"+wantX+wantY {
		t.Errorf("public key %s, want 04 %s %s", got, wantX, wantY)
	}
	// The cache derives once per access key pair.
	keys := &KeyCache{}
	k1, _ := keys.ECDSAKey("AKIDEXAMPLE", exampleCreds.SecretAccessKey)
	k2, _ := keys.ECDSAKey("AKIDEXAMPLE", exampleCreds.SecretAccessKey)
	k3, _ := keys.ECDSAKey("AKIDOTHER", exampleCreds.SecretAccessKey)
	k4, _ := keys.ECDSAKey("AKIDOTHER", "other-secret")
	if k1 != k2 || !k1.Equal(key) || k3.Equal(key) || k4.Equal(k3) {
		t.Error("KeyCache.ECDSAKey: a key not reused, or reused for another access key pair")
	}
}

// A SigV4a signature: the algorithm and a scope without region in
// Authorization, X-Amz-Region-Set signed, the string to sign of the test
// suite's get-vanilla case; it verifies, and fails to once the request
// changes.
func TestSignA(t *testing.T) {
	s := &Signer{Service: "service", RegionSet: []string{"us-east-1"}, Credentials: exampleCreds, Region: "ignored",
		DisableURIPathEscaping: true}
	h := wire.Header{}
	r := Request{Method: "GET", URL: "https://example.amazonaws.com/", Header: h, PayloadHash: PayloadHash(nil)}
	sig, err := s.Sign(r, exampleTime)
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE/20150830/service/aws4_request, " +
		"SignedHeaders=host;x-amz-date;x-amz-region-set, Signature="
	if auth := h.Get("Authorization"); !strings.HasPrefix(auth, prefix) || !strings.HasSuffix(auth, sig) || len(sig) < 140 {
		t.Errorf("Authorization %q (signature %q)", auth, sig)
	}
	if got := h.Get(RegionSetHeader); got != "us-east-1" {
		t.Errorf("X-Amz-Region-Set %q", got)
	}
	u, _ := url.Parse(r.URL)
	canon, _ := s.canonicalRequest(r.Method, u, h, r.PayloadHash)
	want := "AWS4-ECDSA-P256-SHA256\n20150830T123600Z\n20150830/service/aws4_request\n" +
		"cf59db423e841c8b7e3444158185aa261b724a5c27cbe762676f3eed19f4dc02"
	if got := stringToSign(s.algorithm(), "20150830T123600Z", s.scope("20150830"), canon); string(got) != want {
		t.Errorf("string to sign\n%s\nwant\n%s", got, want)
	}
	h.Del("Authorization")
	if err := s.Verify(r, exampleTime, sig); err != nil {
		t.Errorf("Verify: %v", err)
	}
	for name, change := range map[string]func(){
		"region set": func() { h.Set(RegionSetHeader, "*") },
		"query":      func() { r.URL += "?x=1" },
	} {
		change()
		if err := s.Verify(r, exampleTime, sig); err == nil {
			t.Errorf("Verify accepted the signature after a change of %s", name)
		}
	}
	other := *s
	other.Credentials.SecretAccessKey = "another"
	if err := other.Verify(Request{Method: "GET", URL: "https://example.amazonaws.com/", Header: wire.Header{
		"X-Amz-Date": {"20150830T123600Z"}, RegionSetHeader: {"us-east-1"}}, PayloadHash: PayloadHash(nil)}, exampleTime, sig); err == nil {
		t.Error("Verify accepted the signature with another key")
	}
}

// Verify checks a SigV4 signature too.
func TestVerifySigV4(t *testing.T) {
	s := &Signer{Region: "us-east-1", Service: "iam", Credentials: exampleCreds}
	h := wire.Header{}
	r := Request{Method: "GET", URL: "https://iam.amazonaws.com/?Action=ListUsers", Header: h, PayloadHash: PayloadHash(nil)}
	sig, err := s.Sign(r, exampleTime)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(r, exampleTime, sig); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if err := s.Verify(r, exampleTime.Add(time.Second), sig); err == nil {
		t.Error("Verify accepted the signature at another time")
	}
}

// Paths lose their dot segments and empty segments but for S3.
func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{
		"/": "/", "": "", "/a/b": "/a/b", "/example/..": "/", "/example1/example2/../..": "/",
		"/./": "/", "//": "/", "/./example": "/example", "//example//": "/example/", "/a/b/..": "/a/",
		"/a/./b/../c": "/a/c", "/a/.b/..c": "/a/.b/..c", "/../a": "/a",
	} {
		if got := normalizePath(in); got != want {
			t.Errorf("normalizePath(%q) = %q, want %q", in, got, want)
		}
	}
	h := wire.Header{}
	s3 := &Signer{Region: "us-east-1", Service: "s3", Credentials: exampleCreds, DisableURIPathEscaping: true, DisableURIPathNormalization: true}
	u, _ := url.Parse("https://b.s3.amazonaws.com/a/../k")
	if canon, _ := s3.canonicalRequest("GET", u, h, ""); !bytes.HasPrefix(canon, []byte("GET\n/a/../k\n")) {
		t.Errorf("S3 canonical request\n%s", canon)
	}
}

// lessConstantTime agrees with big.Int's comparison.
func TestLessConstantTime(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	a, b := make([]byte, 32), make([]byte, 32)
	for i := 0; i < 2000; i++ {
		for j := range a {
			a[j], b[j] = byte(r.IntN(256)), byte(r.IntN(256))
			if i%3 == 0 && j < 31 {
				b[j] = a[j] // long equal prefixes
			}
		}
		if i%7 == 0 {
			copy(b, a)
		}
		want := new(big.Int).SetBytes(a).Cmp(new(big.Int).SetBytes(b)) < 0
		if got := lessConstantTime(a, b); got != want {
			t.Fatalf("lessConstantTime(%x, %x) = %v", a, b, got)
		}
	}
}

// The cost of a signature, SigV4 and SigV4a (cached keys), and of deriving
// the SigV4a key.
func BenchmarkSign(b *testing.B) {
	for _, bc := range []struct {
		name      string
		regionSet []string
	}{{"SigV4", nil}, {"SigV4a", []string{"*"}}} {
		b.Run(bc.name, func(b *testing.B) {
			s := &Signer{Region: "us-east-1", Service: "events", RegionSet: bc.regionSet, Credentials: exampleCreds, Keys: &KeyCache{}}
			h := wire.Header{"Content-Type": {"application/x-amz-json-1.1"}, "X-Amz-Target": {"AWSEvents.PutEvents"}}
			r := Request{Method: "POST", URL: "https://abcde.veo.endpoint.events.amazonaws.com/", Header: h, PayloadHash: PayloadHash([]byte("{}"))}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := s.Sign(r, exampleTime); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("DeriveECDSAKey", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := deriveECDSAKey(exampleCreds.AccessKeyID, exampleCreds.SecretAccessKey); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestP256NMinus2 checks the constant against crypto/elliptic's P-256.
func TestP256NMinus2(t *testing.T) {
	n := new(big.Int).Sub(elliptic.P256().Params().N, big.NewInt(2))
	if got := new(big.Int).SetBytes(p256NMinus2[:]); got.Cmp(n) != 0 {
		t.Fatalf("p256NMinus2 = %x, want %x", got, n)
	}
}
