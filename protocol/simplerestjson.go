package protocol

import (
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// NewSimpleRestJSON returns the codec of alloy#simpleRestJson for model m.
func NewSimpleRestJSON(m *model.Model, opts ...Option) Codec {
	return newRestCodec(m, simpleRestJSONDialect(), opts)
}

func simpleRestJSONDialect() dialect {
	return dialect{
		protocol:          SimpleRestJSON,
		errorType:         simpleRestJSONErrorType,
		byStatus:          true,
		successMax:        399,
		jsonStringPayload: true,
	}
}

// simpleRestJSONErrorType reads the X-Error-Type header (a shape name or an
// absolute shape id).
func simpleRestJSONErrorType(resp *wire.Response) string {
	if v, ok := headerValues(resp.Header, "X-Error-Type"); ok && len(v) > 0 {
		return sanitizeErrorType(v[0])
	}
	return ""
}
