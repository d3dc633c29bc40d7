package sigv4

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/smithycurl/smithycurl/eventstream"
)

// EventSigner signs the messages of an input event stream as SigV4 does
// for event streams (payload hash StreamingEventsPayload): each message
// travels as the payload of an outer message with a :date header and a
// :chunk-signature header, the HMAC of
//
//	AWS4-HMAC-SHA256-PAYLOAD \n <date> \n <scope> \n <prior signature> \n
//	hex(sha256(the :date header's bytes)) \n hex(sha256(payload))
//
// with the day's signing key; the prior signature of the first message is
// the request's own (the seed), and an empty signed message ends the
// stream. Not safe for concurrent use: the messages form a chain.
type EventSigner struct {
	secret, region, service string
	prior                   string // hex
	day                     string // the day of key
	key                     []byte // the signing key of day
}

// EventSigner returns the signer of the events of a request s signed;
// seed is that request's signature (hex), where the chain starts.
func (s *Signer) EventSigner(seed string) *EventSigner {
	return &EventSigner{secret: s.Credentials.SecretAccessKey, region: s.Region, service: s.Service, prior: seed}
}

// Sign wraps payload (an encoded message, or nil for the final one) in a
// message signed as of t and appends its encoding to dst.
func (s *EventSigner) Sign(dst, payload []byte, t time.Time) ([]byte, error) {
	t = t.UTC().Truncate(time.Millisecond)
	date := eventstream.Header{Name: ":date", Value: eventstream.TimeValue(t)}
	enc, err := eventstream.Append(nil, eventstream.Message{Headers: []eventstream.Header{date}})
	if err != nil {
		return dst, err
	}
	dateHeader := enc[12 : 12+binary.BigEndian.Uint32(enc[4:8])]
	day := t.Format(dayFormat)
	scope := credentialScope(day, s.region, s.service)
	headerSum := sha256.Sum256(dateHeader)
	payloadSum := sha256.Sum256(payload)
	toSign := "AWS4-HMAC-SHA256-PAYLOAD\n" + t.Format(timeFormat) + "\n" + scope + "\n" + s.prior + "\n" +
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
