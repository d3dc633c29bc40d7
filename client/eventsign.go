package client

import (
	"crypto/hmac"
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
	prior                   string // hex; "" until the seed is known
	now                     func() time.Time
	day                     string // the day of key
	key                     []byte // the signing key of day
}

// newEventSigner reads the region and service from libcurl's provider
// string ("aws:amz:region:service").
func newEventSigner(provider, secret string) (*eventSigner, error) {
	parts := strings.Split(provider, ":")
	if len(parts) != 4 || parts[2] == "" || parts[3] == "" {
		return nil, fmt.Errorf("signing an event stream needs a region and a service name (provider %q)", provider)
	}
	return &eventSigner{secret: secret, region: parts[2], service: parts[3], now: time.Now}, nil
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
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
		key := hmacSHA256([]byte("AWS4"+s.secret), day)
		for _, part := range []string{s.region, s.service, "aws4_request"} {
			key = hmacSHA256(key, part)
		}
		s.day, s.key = day, key
	}
	sig := hmacSHA256(s.key, toSign)
	s.prior = hex.EncodeToString(sig)
	return eventstream.Append(dst, eventstream.Message{Headers: []eventstream.Header{
		date, {Name: ":chunk-signature", Value: eventstream.Value{Type: eventstream.Bytes, Bytes: sig}},
	}, Payload: payload})
}
