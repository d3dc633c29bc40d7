package mock

import (
	"context"
	"errors"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// HopByHop reports whether header name is one of RFC 9110's connection
// headers, which a proxy does not forward nor a recording keep.
func HopByHop(name string) bool {
	switch wire.CanonicalHeaderKey(name) {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}

// forwarded answers a request through the Forwarder and records the
// exchange when the server could read the request (route and input); a
// request it could not read is forwarded all the same, unrecorded.
func (s *Server) forwarded(ctx context.Context, req *wire.Request, ex *exchange) *wire.Response {
	var op *model.Operation
	var input []byte
	var readErr error
	if op, readErr = s.srv.Route(req); readErr == nil {
		ex.op = op
		input, readErr = s.srv.DecodeRequest(ctx, op, req)
	}
	resp, err := s.forward.Forward(ctx, req, s.maxBody)
	if err != nil {
		ex.err = err
		return s.gatewayError(ex)
	}
	ex.source = "proxy"
	if s.rec == nil {
		return resp
	}
	if readErr != nil {
		// Logged as a refusal is: the member, and no message of a @sensitive one.
		ex.err, ex.member = fmt.Errorf("not recorded: %w", readErr), faultMember(readErr)
		return resp
	}
	if err := s.rec.write(s.m, op, input, resp); err != nil {
		ex.err = err
	}
	return resp
}

// gatewayError is the 502 of a request the upstream did not answer.
func (s *Server) gatewayError(ex *exchange) *wire.Response {
	resp := s.internal(ex)
	if resp.Status == statusInternal {
		resp.Status = statusBadGateway
	}
	return resp
}

// configureForward sets up WithForwarder and WithRecordFile.
func (s *Server) configureForward(c *config) error {
	switch {
	case c.newForward == nil && c.record != "":
		return errors.New("serve: WithRecordFile records what WithProxy forwards: give WithProxy too")
	case c.newForward == nil:
		return nil
	case len(c.replays) > 0:
		return errors.New("serve: WithProxy and WithReplayFile: the server either forwards or replays")
	}
	f, err := c.newForward()
	if err != nil {
		return err
	}
	if c.record != "" {
		if s.rec, err = newRecorder(c.record); err != nil {
			return err
		}
	}
	s.forward = f
	return nil
}
