package protocol

import "bytes"

// restBody is the body format of a REST protocol (JSON for restJson1 and
// simpleRestJson, XML for restXml): the HTTP binding layer
// (httpbinding.go) puts headers, labels, query and status in place and asks
// it for the document body.
type restBody interface {
	// mediaType is the Content-Type of a document body.
	mediaType() string
	// encodeMembers writes the body of the members of b bound to it;
	// val gives the input value of a member (nil when absent).
	encodeMembers(b *binding, val func(*memberCodec) []byte) ([]byte, error)
	// encodePayload writes a structure, union, list, map or document
	// @httpPayload.
	encodePayload(pm *memberCodec, raw []byte) ([]byte, error)
	// emptyPayload is the body sent for an absent structure payload (nil
	// for none).
	emptyPayload() []byte
	// decodeMembers reads the members of b in body into w.
	decodeMembers(w *objectWriter, b *binding, body []byte) error
	// decodePayload reads a structure, union, list, map or document
	// payload; set is false when the body holds none (null).
	decodePayload(dst []byte, pm *memberCodec, body []byte) (out []byte, set bool, err error)
}

// jsonBody is the JSON body of the REST JSON protocols.
type jsonBody struct{ o *jsonOptions }

func (jsonBody) mediaType() string    { return "application/json" }
func (jsonBody) emptyPayload() []byte { return []byte("{}") }

func (j jsonBody) encodeMembers(b *binding, val func(*memberCodec) []byte) ([]byte, error) {
	size := 16
	for _, mc := range b.body {
		size += len(val(mc)) + len(val(mc))/4 + len(mc.wireKey)
	}
	body := make([]byte, 1, size)
	body[0] = '{'
	n := 0
	for _, mc := range b.body {
		raw := val(mc)
		if raw == nil {
			continue
		}
		if n > 0 {
			body = append(body, ',')
		}
		n++
		if mc == b.sc.unknown {
			inner := bytes.TrimSpace(raw)
			if len(inner) > 2 {
				body = append(body, inner[1:len(inner)-1]...)
			} else {
				n--
				if n > 0 {
					body = body[:len(body)-1]
				}
			}
			continue
		}
		body = append(body, mc.wireKey...)
		s := scanner{data: raw}
		var err error
		if body, err = j.o.encodeValue(body, &s, mc); err != nil {
			return nil, inMember(err, mc.name)
		}
	}
	return append(body, '}'), nil
}

func (j jsonBody) encodePayload(pm *memberCodec, raw []byte) ([]byte, error) {
	s := scanner{data: raw}
	return j.o.encodeValue(nil, &s, pm)
}

func (j jsonBody) decodeMembers(w *objectWriter, b *binding, body []byte) error {
	s := scanner{data: body}
	if err := j.o.decodeFields(w, &s, b.sc); err != nil {
		return err
	}
	if j.o.strict && !s.atEnd() {
		return s.errorf("unexpected data after the body's object")
	}
	return nil
}

func (j jsonBody) decodePayload(dst []byte, pm *memberCodec, body []byte) ([]byte, bool, error) {
	s := scanner{data: body}
	if s.isNull() {
		return dst, false, nil
	}
	out, err := j.o.decodeValue(dst, &s, pm)
	if err == nil && j.o.strict && !s.atEnd() {
		err = s.errorf("unexpected data after the payload")
	}
	return out, true, err
}
