package protocol

import (
	"bytes"
	"fmt"
)

// Unions: a member the model does not know (a newer service's) is kept in
// the document form with its name and value, and refused when sent back.

// unknownMemberKey is the document-form key of a union member the model
// does not know, as decoded from a response: {"$unknown": [name, value]}
// (the form of the AWS SDK for JavaScript v3).
const unknownMemberKey = "$unknown"

// appendUnknownMember writes a union's unknown member in the document form,
// "$unknown":["name",value], value being JSON.
func appendUnknownMember(dst, name, value []byte) []byte {
	dst = appendString(dst, unknownMemberKey)
	dst = append(dst, ":["...)
	dst = appendString(dst, name)
	dst = append(dst, ',')
	dst = append(dst, value...)
	return append(dst, ']')
}

// unknownMemberInput refuses the unknown member of union sc found in an
// input at s: its value was never decoded, so it cannot be written (the
// AWS SDKs refuse to send it too).
func unknownMemberInput(s *scanner, sc *shapeCodec) error {
	raw, err := s.document()
	if err != nil {
		return err
	}
	name := "?"
	sub := scanner{data: raw}
	_ = sub.array(func(i int) error { // the name is only for the message
		if i == 0 {
			name, err = sub.str()
			return err
		}
		_, err := sub.skip()
		return err
	})
	return badValue(fmt.Sprintf("union %s: member %q is one this model does not know (%s, as received from the service); it cannot be sent", sc.shape.ID, name, unknownMemberKey))
}

// keepUnknown reports whether the member key, which the union does not
// know, is kept as the union's unknown member: not when it is null, nor
// when it is __type (the JSON protocols say to ignore it in a union).
func keepUnknown(key, value []byte) bool {
	return string(key) != "__type" && !bytes.Equal(value, []byte("null"))
}
