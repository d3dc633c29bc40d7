package proptest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// Protocol is one protocol as the tests read and write its messages. A new
// protocol (rpcv2Cbor, restXml, ...) plugs in by implementing it and being
// listed in Protocols.
type Protocol interface {
	// Trait is the protocol trait of the services that speak it.
	Trait() model.ShapeID
	// NewCodec returns the library's codec under test.
	NewCodec(m *model.Model, svc *model.Service, opts ...protocol.Option) protocol.Codec
	// Locate is where a top-level member travels (nil: the body).
	Locate(mem *model.Member, response bool) Loc
	// Status bounds the success statuses of the protocol.
	Status() (min, max int)
	// FillsNestedDefaults reports whether requests carry the defaults of
	// absent members of nested structures.
	FillsNestedDefaults() bool
	// ReadRequest reads a request back into the input in the document form.
	ReadRequest(m *model.Model, svc *model.Service, op *model.Operation, req *wire.Request) (map[string]any, error)
	// RenderResponse renders the response carrying output out.
	RenderResponse(m *model.Model, op *model.Operation, out map[string]any) (*wire.Response, error)
	// RenderError renders an error response of error shape e with members.
	RenderError(m *model.Model, op *model.Operation, e *model.Shape, members map[string]any) (*wire.Response, error)
}

// Protocols lists every protocol the library speaks.
func Protocols() []Protocol {
	return []Protocol{
		restProto{Rest: respond.RestJSON1, nestedDefaults: true},
		restProto{Rest: respond.SimpleRestJSON},
		awsJSONProto{respond.AWSJSON1_0},
		awsJSONProto{respond.AWSJSON1_1},
	}
}

// ProtocolOf returns the protocol of service svc, or nil.
func ProtocolOf(svc *model.Service) Protocol {
	for _, p := range Protocols() {
		if svc.Shape.HasTrait(p.Trait()) {
			return p
		}
	}
	return nil
}

// body returns a request body, gunzipped when it says gzip.
func body(h wire.Header, b []byte) ([]byte, error) {
	if strings.Contains(h.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("gzip body: %v", err)
		}
		return io.ReadAll(zr)
	}
	return b, nil
}

// readHostPrefix matches a host prefix against the endpoint trait's
// template, filling the host label members.
func readHostPrefix(v view, op *model.Operation, prefix string, out map[string]any) error {
	e, ok := op.Shape.Trait(model.TraitEndpoint)
	if !ok {
		if prefix != "" {
			return fmt.Errorf("host prefix %q without an endpoint trait", prefix)
		}
		return nil
	}
	tpl, _ := e.Get("hostPrefix")
	t := tpl.Str()
	rest := prefix
	for t != "" {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			if rest != t {
				return fmt.Errorf("host prefix %q does not match %q", prefix, tpl.Str())
			}
			return nil
		}
		if !strings.HasPrefix(rest, t[:i]) {
			return fmt.Errorf("host prefix %q does not match %q", prefix, tpl.Str())
		}
		rest = rest[i:]
		j := strings.IndexByte(t, '}')
		name := t[i+1 : j]
		t = t[j+1:]
		// The label runs to the next literal of the template.
		next := t
		if k := strings.IndexByte(next, '{'); k >= 0 {
			next = next[:k]
		}
		end := len(rest)
		if next != "" {
			end = strings.Index(rest, next)
			if end < 0 {
				return fmt.Errorf("host prefix %q does not match %q", prefix, tpl.Str())
			}
		}
		if _, ok := op.Input.Member(name); !ok {
			return fmt.Errorf("host label %s has no member", name)
		}
		out[name] = rest[:end]
		rest = rest[end:]
	}
	if rest != "" {
		return fmt.Errorf("host prefix %q does not match %q", prefix, tpl.Str())
	}
	return nil
}
