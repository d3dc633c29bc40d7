package sigv4

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// maxSignatureLen bounds a signature in hex: an ECDSA P-256 signature in
// ASN.1 DER is at most 72 bytes.
const maxSignatureLen = 2 * 72

// p256NMinus2 is the order n of P-256 minus 2, big-endian: a derived
// candidate below it is a private key once 1 is added. A constant, so
// package start-up does not set up crypto/elliptic's curves
// (TestP256NMinus2 checks it against elliptic.P256()).
var p256NMinus2 = [32]byte{
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x4f,
}

// deriveECDSAKey is the SigV4a private key of an access key pair, as the
// AWS SDKs derive it: the NIST SP 800-108 KDF in counter mode with
// HMAC-SHA256 keyed by "AWS4A"+secret, label AWS4-ECDSA-P256-SHA256 and
// context accessKeyID+counter, 256 bits out; the first candidate below
// n-2 (counter 1, 2, ...) plus 1.
func deriveECDSAKey(accessKeyID, secret string) (*ecdsa.PrivateKey, error) {
	mac := hmac.New(sha256.New, []byte("AWS4A"+secret))
	var candidate [sha256.Size]byte
	for counter := 1; counter <= 0xff; counter++ {
		mac.Reset()
		mac.Write([]byte{0, 0, 0, 1}) // the KDF's block counter: one block gives the 256 bits
		mac.Write([]byte(algorithmECDSA))
		mac.Write([]byte{0})
		mac.Write([]byte(accessKeyID))
		mac.Write([]byte{byte(counter)})
		mac.Write(binary.BigEndian.AppendUint32(nil, 256)) // L, the bits out
		mac.Sum(candidate[:0])
		if !lessConstantTime(candidate[:], p256NMinus2[:]) {
			continue
		}
		addOne(candidate[:])
		key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), candidate[:])
		if err != nil {
			return nil, fmt.Errorf("sigv4a: the derived key: %w", err)
		}
		return key, nil
	}
	return nil, errors.New("sigv4a: no key derived from the access key pair in 255 candidates")
}

// lessConstantTime reports whether a < b, both big-endian of one length,
// in time independent of their values (a is secret).
func lessConstantTime(a, b []byte) bool {
	var borrow uint32
	for i := len(a) - 1; i >= 0; i-- {
		borrow = (uint32(a[i]) - uint32(b[i]) - borrow) >> 31
	}
	return borrow == 1
}

// addOne adds 1 to the big-endian number b (which is below 2^len(b)-1).
func addOne(b []byte) {
	carry := uint16(1)
	for i := len(b) - 1; i >= 0; i-- {
		v := uint16(b[i]) + carry
		b[i], carry = byte(v), v>>8
	}
}

// ecdsaKey is the SigV4a key of s's credentials, from s.Keys when set.
func (s *Signer) ecdsaKey() (*ecdsa.PrivateKey, error) {
	return s.Keys.ECDSAKey(s.Credentials.AccessKeyID, s.Credentials.SecretAccessKey)
}

// appendECDSASignature appends the hex ASN.1 DER ECDSA signature of the
// SHA-256 of toSign to dst.
func (s *Signer) appendECDSASignature(dst, toSign []byte) ([]byte, error) {
	key, err := s.ecdsaKey()
	if err != nil {
		return dst, err
	}
	digest := sha256.Sum256(toSign)
	sig, err := ecdsa.SignASN1(rand.Reader, key, digest[:])
	if err != nil {
		return dst, fmt.Errorf("sigv4a: signing: %w", err)
	}
	return hex.AppendEncode(dst, sig), nil
}

// verifyECDSA checks the hex ASN.1 DER signature of toSign with the public
// key of s's credentials.
func (s *Signer) verifyECDSA(toSign []byte, signature string) error {
	key, err := s.ecdsaKey()
	if err != nil {
		return err
	}
	sig, err := hex.DecodeString(signature)
	if err != nil {
		return fmt.Errorf("sigv4a: the signature is not hex: %w", err)
	}
	digest := sha256.Sum256(toSign)
	if !ecdsa.VerifyASN1(&key.PublicKey, digest[:], sig) {
		return errors.New("sigv4a: the signature does not verify with the credentials' public key")
	}
	return nil
}
