package protocol

import (
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// decodeError identifies the error shape of an error response and reads it.
func (c *restCodec) decodeError(p *opPlan, resp *wire.Response) error {
	code := c.d.errorType(resp)
	match := errorNamed(p.errors, func(e *errorPlan) *model.Shape { return e.shape }, code)
	if match == nil && code == "" && c.d.byStatus {
		for i := range p.errors {
			if p.errors[i].status == resp.Status {
				if match != nil {
					match = nil
					break
				}
				match = &p.errors[i]
			}
		}
	}
	errResp := resp
	if c.d.errorBody != nil {
		// The members are in an element of the body (restXml's <Error>).
		cp := *resp
		cp.Body = c.d.errorBody(resp.Body)
		errResp = &cp
	}
	if match == nil {
		e := &ServiceError{Code: code, Status: resp.Status, Members: resp.Body}
		if c.d.errorBody != nil {
			e.Message, _ = childText(errResp.Body, "Message")
		} else {
			e.Message = messageOf(resp.Body)
		}
		return e
	}
	members, err := c.decodeBound(match.b, errResp, nil)
	if err != nil {
		return &ResponseError{Operation: p.op.Shape.ID, Status: resp.Status, Err: fmt.Errorf("error %s: %w", match.shape.ID, err)}
	}
	var msg string
	if c.d.errorBody != nil {
		// An error shape without a message member (S3's NoSuchKey): the
		// envelope's <Message>, as for an unmodeled error.
		msg = messageOf(members)
		if msg == "" {
			msg, _ = childText(errResp.Body, "Message")
		}
	} else {
		msg = errorMessage(members, resp.Body)
	}
	return &ServiceError{Shape: match.shape.ID, Code: match.shape.ID.Name(), Status: resp.Status, Members: members, Message: msg}
}

// errorMessage is the message of a modeled error: its message member, else
// the body's message, Message or errorMessage property, which the service
// sends for an error shape that models no message (as botocore and the AWS
// SDK for Go read it).
func errorMessage(members, body []byte) string {
	if m := messageOf(members); m != "" {
		return m
	}
	return messageOf(body)
}

// messageOf returns the message or Message property of a JSON object.
func messageOf(body []byte) string {
	s := scanner{data: body}
	var msg string
	s.object(func(key []byte) error {
		k := string(key)
		if (k == "message" || k == "Message" || k == "errorMessage") && s.peek() == '"' && msg == "" {
			v, err := s.str()
			msg = v
			return err
		}
		_, err := s.skip()
		return err
	})
	return msg
}
