package client

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
)

// eventSigner signs the messages of an input event stream as SigV4 does
// for event streams (x-amz-content-sha256:
// STREAMING-AWS4-HMAC-SHA256-EVENTS): each message travels as the payload
// of an outer message with a :date header and a :chunk-signature header,
// the HMAC of
//
//	AWS4-HMAC-SHA256-PAYLOAD \n <date> \n <scope> \n <prior signature> \n
//	hex(sha256(the :date header's bytes)) \n hex(sha256(payload))
//
// with the day's signing key; the prior signature of the first message is
// the request's own (the seed), and an empty signed message ends the
// stream.
type eventSigner struct {
	secret, region, service string
	prior                   string // hex
	now                     func() time.Time
	day                     string // the day of key
	key                     []byte // the signing key of day
}

// newEventSigner returns the signer of the events of a request that sv
// signed: the chain starts from the request's signature (its
// Authorization header).
func newEventSigner(sv *sigV4, auth string) (*eventSigner, error) {
	_, sig, ok := strings.Cut(auth, "Signature=")
	if !ok || len(sig) != 64 {
		return nil, fmt.Errorf("signing an event stream: the request's signature is missing")
	}
	return &eventSigner{secret: sv.creds.SecretAccessKey, region: sv.region, service: sv.service, prior: sig, now: time.Now}, nil
}

// sign wraps payload (an encoded message, or nil for the final one) in a
// signed message and appends its encoding to dst.
func (s *eventSigner) sign(dst, payload []byte) ([]byte, error) {
	t := s.now().UTC().Truncate(time.Millisecond)
	date := eventstream.Header{Name: ":date", Value: eventstream.TimeValue(t)}
	enc, err := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{date}})
	if err != nil {
		return dst, err
	}
	dateHeader := enc[12 : 12+binary.BigEndian.Uint32(enc[4:8])]
	day := t.Format("20060102")
	scope := day + "/" + s.region + "/" + s.service + "/aws4_request"
	headerSum := sha256.Sum256(dateHeader)
	payloadSum := sha256.Sum256(payload)
	toSign := "AWS4-HMAC-SHA256-PAYLOAD\n" + t.Format("20060102T150405Z") + "\n" + scope + "\n" + s.prior + "\n" +
		hex.EncodeToString(headerSum[:]) + "\n" + hex.EncodeToString(payloadSum[:])
	if day != s.day {
		s.day, s.key = day, signingKey(s.secret, day, s.region, s.service)
	}
	sig := hmacSHA256(s.key, toSign)
	s.prior = hex.EncodeToString(sig)
	return eventstream.Append(dst, eventstream.Message{Headers: []eventstream.Header{
		date, {Name: ":chunk-signature", Value: eventstream.Value{Type: eventstream.Bytes, Bytes: sig}},
	}, Payload: payload})
}
