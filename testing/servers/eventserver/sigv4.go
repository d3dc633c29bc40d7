package eventserver

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/smithycurl/smithycurl/eventstream"
)

// TestSecretKey is the secret key the server checks event signatures with
// (any access key id is accepted; the request's own signature is not
// checked, only the chain of the events that starts from it).
const TestSecretKey = "ticker-test-secret"

// verifier reads a SigV4-signed input event stream: each message is the
// payload of an outer message whose :chunk-signature chains from the
// request's Authorization signature; an empty one ends the stream.
type verifier struct {
	dec             *eventstream.Decoder
	region, service string
	prev            []byte // the prior signature
	ended           bool
}

func newVerifier(r *http.Request) (*verifier, error) {
	if got := r.Header.Get("X-Amz-Content-Sha256"); got != "STREAMING-AWS4-HMAC-SHA256-EVENTS" {
		return nil, fmt.Errorf("x-amz-content-sha256 %q", got)
	}
	auth := r.Header.Get("Authorization")
	_, cred, _ := strings.Cut(auth, "Credential=")
	cred, _, _ = strings.Cut(cred, ",")
	scope := strings.Split(cred, "/") // AKID/day/region/service/aws4_request
	_, sig, _ := strings.Cut(auth, "Signature=")
	prev, err := hex.DecodeString(strings.TrimSpace(sig))
	if len(scope) != 5 || err != nil || len(prev) != sha256.Size {
		return nil, errors.New("malformed Authorization")
	}
	return &verifier{dec: eventstream.NewDecoder(r.Body, eventstream.Limits{}), region: scope[2], service: scope[3], prev: prev}, nil
}

func mac(key []byte, parts ...string) []byte {
	for _, p := range parts {
		h := hmac.New(sha256.New, key)
		io.WriteString(h, p)
		key = h.Sum(nil)
	}
	return key
}

// next returns the next inner message, io.EOF after the final empty one.
func (v *verifier) next() (eventstream.Message, error) {
	if v.ended {
		return eventstream.Message{}, io.EOF
	}
	outer, err := v.dec.Next()
	if err == io.EOF {
		return outer, errors.New("the stream ended without its final signed message")
	}
	if err != nil {
		return outer, err
	}
	date, ok1 := outer.Get(":date")
	sig, ok2 := outer.Get(":chunk-signature")
	if !ok1 || !ok2 || date.Type != eventstream.Timestamp || sig.Type != eventstream.Bytes {
		return outer, errors.New("a message without :date and :chunk-signature")
	}
	// The bytes of the :date header as sent.
	one, _ := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{{Name: ":date", Value: date}}})
	hdr := one[12 : 12+binary.BigEndian.Uint32(one[4:8])]
	t := date.Time()
	hs, ps := sha256.Sum256(hdr), sha256.Sum256(outer.Payload)
	day := t.Format("20060102")
	want := mac(mac([]byte("AWS4"+TestSecretKey), day, v.region, v.service, "aws4_request"), strings.Join([]string{
		"AWS4-HMAC-SHA256-PAYLOAD", t.Format("20060102T150405Z"), day + "/" + v.region + "/" + v.service + "/aws4_request",
		hex.EncodeToString(v.prev), hex.EncodeToString(hs[:]), hex.EncodeToString(ps[:])}, "\n"))
	if !hmac.Equal(want, sig.Bytes) {
		return outer, errors.New("the event signature does not match")
	}
	v.prev = want
	if len(outer.Payload) == 0 {
		v.ended = true
		return eventstream.Message{}, io.EOF
	}
	return eventstream.NewDecoder(bytes.NewReader(outer.Payload), eventstream.Limits{}).Next()
}
