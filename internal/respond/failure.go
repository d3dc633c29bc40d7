package respond

import (
	"errors"
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// ValidationExceptionID is the error the Smithy framework defines for input
// that breaks the model's constraints.
const ValidationExceptionID model.ShapeID = "smithy.framework#ValidationException"

// RequestFailure renders the response to a request a server refused (err
// from protocol.Server: a *protocol.RequestError or a
// *protocol.ValidationError) in r's protocol. A validation failure is a
// smithy.framework#ValidationException (message and fieldList, as the
// Smithy specification says) when op or svc has it among its errors, else
// the protocol's 400 named ValidationException; a request error is the
// protocol's error of its status and code. op is nil for a request that
// calls no operation. Any other err is an error of RequestFailure.
func RequestFailure(r Renderer, m *model.Model, svc *model.Service, op *model.Operation, err error) (*wire.Response, error) {
	var ve *protocol.ValidationError
	var re *protocol.RequestError
	switch {
	case errors.As(err, &ve):
		msg := validationMessage(ve.Violations)
		if e := validationException(svc, op); e != nil {
			fields := make([]any, 0, len(ve.Violations))
			for _, v := range ve.Violations {
				fields = append(fields, map[string]any{"path": v.Path, "message": v.Message})
			}
			return r.RenderError(m, op, e, map[string]any{"message": msg, "fieldList": fields})
		}
		return renderCode(r, m, svc, op, 400, "ValidationException", msg)
	case errors.As(err, &re):
		msg := re.Err.Error()
		if re.Member != "" {
			msg = re.Member + ": " + msg
		}
		return renderCode(r, m, svc, op, re.Status, re.Code, msg)
	}
	return nil, fmt.Errorf("respond: %T is not a request failure: %w", err, err)
}

// validationMessage is the ValidationException message of vs: "1
// validation error detected. <the one message>", or "N validation errors
// detected. <messages joined by "; ">"; a message that does not name its
// member's path follows it ("name: length 25 is above the maximum 20").
func validationMessage(vs []protocol.Violation) string {
	var b strings.Builder
	if len(vs) == 1 {
		b.WriteString("1 validation error detected. ")
	} else {
		fmt.Fprintf(&b, "%d validation errors detected. ", len(vs))
	}
	for i, v := range vs {
		if i > 0 {
			b.WriteString("; ")
		}
		if v.Path != "" && !strings.Contains(v.Message, v.Path) {
			b.WriteString(v.Path + ": ") // the member, when the message does not name it
		}
		b.WriteString(v.Message)
	}
	return b.String()
}

// validationException is smithy.framework#ValidationException when op, or
// another operation of svc, names it among its errors; nil otherwise.
func validationException(svc *model.Service, op *model.Operation) *model.Shape {
	find := func(op *model.Operation) *model.Shape {
		for _, e := range op.Errors {
			if e.ID == ValidationExceptionID {
				return e
			}
		}
		return nil
	}
	if op != nil {
		if e := find(op); e != nil {
			return e
		}
	}
	if svc != nil {
		for _, o := range svc.Operations {
			if e := find(o); e != nil {
				return e
			}
		}
	}
	return nil
}

// renderCode renders an unmodeled error of the protocol: status, the error
// type code and a message, as an error shape of that name in svc's
// namespace with one member, message.
func renderCode(r Renderer, m *model.Model, svc *model.Service, op *model.Operation, status int, code, msg string) (*wire.Response, error) {
	ns := "smithy.framework"
	if svc != nil {
		ns = svc.Shape.ID.Namespace()
	}
	id := model.ShapeID(ns + "#" + code)
	e := &model.Shape{
		ID:   id,
		Type: model.StructureType,
		Traits: model.Traits{
			{ID: model.TraitError, Value: model.String("client")},
			{ID: model.TraitHTTPError, Value: model.Int(int64(status))},
		},
		// <Message> in the XML protocols, where their clients read an
		// error's message (message in JSON).
		Members: []*model.Member{{ID: id + "$message", Target: model.PreludeID("String"),
			Traits: model.Traits{{ID: model.TraitXMLName, Value: model.String("Message")}}}},
	}
	return r.RenderError(m, op, e, map[string]any{"message": msg})
}
