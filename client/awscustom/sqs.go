package awscustom

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/smithycurl/smithycurl/model"
)

// SQS answers a message sent or received with the MD5 of its body and of
// its attributes; the SDKs check them (aws-sdk-go-v2 and the JavaScript
// SDK the body's, the Java SDK the attributes' too). A mismatch is an
// error, never retried: the message was sent.

type sqsAttribute struct {
	DataType         string   `json:"DataType"`
	StringValue      *string  `json:"StringValue"`
	BinaryValue      []byte   `json:"BinaryValue"` // base64 in the document
	StringListValues []string `json:"StringListValues"`
	BinaryListValues [][]byte `json:"BinaryListValues"`
}

type sqsAttributes map[string]sqsAttribute

// sqsSent is a message as sent (SendMessage's input, an entry of
// SendMessageBatch's).
type sqsSent struct {
	ID               string        `json:"Id"`
	Body             *string       `json:"MessageBody"`
	Attributes       sqsAttributes `json:"MessageAttributes"`
	SystemAttributes sqsAttributes `json:"MessageSystemAttributes"`
}

// sqsSentResult is SendMessage's output, or an entry of SendMessageBatch's.
type sqsSentResult struct {
	ID                  string  `json:"Id"`
	MessageID           string  `json:"MessageId"`
	MD5Body             *string `json:"MD5OfMessageBody"`
	MD5Attributes       *string `json:"MD5OfMessageAttributes"`
	MD5SystemAttributes *string `json:"MD5OfMessageSystemAttributes"`
}

// check compares the MD5s the service sent with those of s.
func (r sqsSentResult) check(s sqsSent) error {
	var errs []error
	if s.Body != nil {
		errs = append(errs, sqsCompare("MD5OfMessageBody", r.MD5Body, []byte(*s.Body)))
	}
	if len(s.Attributes) > 0 {
		errs = append(errs, sqsCompare("MD5OfMessageAttributes", r.MD5Attributes, s.Attributes.digestInput()))
	}
	if len(s.SystemAttributes) > 0 {
		errs = append(errs, sqsCompare("MD5OfMessageSystemAttributes", r.MD5SystemAttributes, s.SystemAttributes.digestInput()))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("message %s: %w", r.MessageID, err)
	}
	return nil
}

// sqsCompare checks the hex MD5 got (not checked when absent) against data.
func sqsCompare(member string, got *string, data []byte) error {
	if got == nil {
		return nil
	}
	sum := md5.Sum(data)
	if want := hex.EncodeToString(sum[:]); *got != want {
		return fmt.Errorf("%s is %s, the MD5 of what was sent is %s", member, *got, want)
	}
	return nil
}

// digestInput is what SQS hashes for MD5OfMessageAttributes: for each
// attribute by name, the name, the data type, a transport type byte (1
// string, 2 binary, 3 string list, 4 binary list) and the value, each
// string preceded by its length (4 bytes, big-endian).
func (a sqsAttributes) digestInput() []byte {
	names := make([]string, 0, len(a))
	for n := range a {
		names = append(names, n)
	}
	sort.Strings(names)
	var b []byte
	field := func(v []byte) {
		b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	for _, n := range names {
		v := a[n]
		field([]byte(n))
		field([]byte(v.DataType))
		switch {
		case v.StringValue != nil:
			b = append(b, 1)
			field([]byte(*v.StringValue))
		case v.BinaryValue != nil:
			b = append(b, 2)
			field(v.BinaryValue)
		case v.StringListValues != nil:
			b = append(b, 3)
			for _, s := range v.StringListValues {
				field([]byte(s))
			}
		case v.BinaryListValues != nil:
			b = append(b, 4)
			for _, s := range v.BinaryListValues {
				field(s)
			}
		}
	}
	return b
}

func sqsSendMessage(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{output: []func(in, out []byte) ([]byte, error){checkOnly(func(in, out []byte) error {
		var s sqsSent
		var r sqsSentResult
		if json.Unmarshal(in, &s) != nil || json.Unmarshal(out, &r) != nil {
			return nil // the codec has checked both
		}
		return r.check(s)
	})}}
}

func sqsSendMessageBatch(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{output: []func(in, out []byte) ([]byte, error){checkOnly(func(in, out []byte) error {
		var s struct {
			Entries []sqsSent `json:"Entries"`
		}
		var r struct {
			Successful []sqsSentResult `json:"Successful"`
		}
		if json.Unmarshal(in, &s) != nil || json.Unmarshal(out, &r) != nil {
			return nil
		}
		sent := make(map[string]sqsSent, len(s.Entries))
		for _, e := range s.Entries {
			sent[e.ID] = e
		}
		var errs []error
		for _, res := range r.Successful {
			if e, ok := sent[res.ID]; ok {
				errs = append(errs, res.check(e))
			}
		}
		return errors.Join(errs...)
	})}}
}

func sqsReceiveMessage(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{output: []func(in, out []byte) ([]byte, error){checkOnly(func(_, out []byte) error {
		var r struct {
			Messages []struct {
				MessageID     string        `json:"MessageId"`
				Body          *string       `json:"Body"`
				MD5Body       *string       `json:"MD5OfBody"`
				Attributes    sqsAttributes `json:"MessageAttributes"`
				MD5Attributes *string       `json:"MD5OfMessageAttributes"`
			} `json:"Messages"`
		}
		if json.Unmarshal(out, &r) != nil {
			return nil
		}
		var errs []error
		for _, m := range r.Messages {
			var e []error
			if m.Body != nil {
				e = append(e, sqsCompare("MD5OfBody", m.MD5Body, []byte(*m.Body)))
			}
			if len(m.Attributes) > 0 {
				e = append(e, sqsCompare("MD5OfMessageAttributes", m.MD5Attributes, m.Attributes.digestInput()))
			}
			if err := errors.Join(e...); err != nil {
				errs = append(errs, fmt.Errorf("message %s: %w", m.MessageID, err))
			}
		}
		return errors.Join(errs...)
	})}}
}

// checkOnly is an Output hook that checks and changes nothing.
func checkOnly(check func(in, out []byte) error) func(in, out []byte) ([]byte, error) {
	return func(in, out []byte) ([]byte, error) {
		if err := check(in, out); err != nil {
			return nil, err
		}
		return out, nil
	}
}
