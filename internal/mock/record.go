package mock

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// A recording (WithRecordFile writes it, WithReplayFile reads it) is JSON
// Lines, one exchange a line, in the order the server answered them:
//
//	{"operation":"GetItem","input":{"id":"pen"},"response":{"status":200,
//	"headers":{"Content-Type":["application/x-amz-json-1.0"]},"body":"{\"id\":\"pen\"}"}}
//
// (one line in the file). Its fields:
//
//   - operation: the operation's name in the service.
//   - input: the request's input in the document form, as the server read
//     it, with two changes: a @sensitive value (a member or a shape) is
//     its digest, the string "sha256:" and the hex SHA-256 of its JSON,
//     enough to match it again and no more; an @idempotencyToken member is
//     left out (the client makes a new one each time).
//   - response: the upstream's response as received: its status, its
//     headers but the hop-by-hop ones and Set-Cookie, and its body, as
//     "body" when it is UTF-8, else "bodyBase64". The response is kept
//     whole, @sensitive output values included: replaying needs them.
//
// No request header is written: the caller's Authorization,
// X-Amz-Security-Token and any other credential of the request never
// reach the file, nor does its query string.
type recordLine struct {
	Operation string          `json:"operation"`
	Input     json.RawMessage `json:"input"`
	Response  recordResponse  `json:"response"`
}

type recordResponse struct {
	Status     int                 `json:"status"`
	Headers    map[string][]string `json:"headers,omitempty"`
	Body       *string             `json:"body,omitempty"`
	BodyBase64 *string             `json:"bodyBase64,omitempty"`
}

// sensitiveDigest is the recorded form of a @sensitive value.
func sensitiveDigest(v any) string {
	sum := sha256.Sum256(respond.Encode(v))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// matchKey is the canonical recorded form of an input of op: the form
// the recording holds and the replay compares.
func matchKey(m *model.Model, op *model.Operation, input []byte) ([]byte, error) {
	v, err := respond.Decode(input)
	if err != nil {
		return nil, fmt.Errorf("the decoded input: %w", err)
	}
	return respond.Encode(redact(m, op.Input, v)), nil
}

// redact returns v, a value of shape s, with its @sensitive values
// replaced by their digests and its @idempotencyToken members left out.
func redact(m *model.Model, s *model.Shape, v any) any {
	if s == nil {
		return v
	}
	if s.HasTrait(model.TraitSensitive) {
		return sensitiveDigest(v)
	}
	switch s.Type {
	case model.StructureType, model.UnionType:
		obj, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(obj))
		for k, x := range obj {
			mem, ok := s.Member(k)
			if !ok {
				out[k] = x
				continue
			}
			if mem.Traits.Has(model.TraitIdempotencyToken) {
				continue
			}
			if mem.Traits.Has(model.TraitSensitive) {
				out[k] = sensitiveDigest(x)
				continue
			}
			t, _ := m.Target(mem)
			out[k] = redact(m, t, x)
		}
		return out
	case model.ListType, model.SetType:
		list, ok := v.([]any)
		mem, _ := s.Member("member")
		if !ok || mem == nil {
			return v
		}
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = redactMember(m, mem, x)
		}
		return out
	case model.MapType:
		obj, ok := v.(map[string]any)
		mem, _ := s.Member("value")
		if !ok || mem == nil {
			return v
		}
		out := make(map[string]any, len(obj))
		for k, x := range obj {
			out[k] = redactMember(m, mem, x)
		}
		return out
	}
	return v
}

func redactMember(m *model.Model, mem *model.Member, v any) any {
	if mem.Traits.Has(model.TraitSensitive) {
		return sensitiveDigest(v)
	}
	t, _ := m.Target(mem)
	return redact(m, t, v)
}

// recorder appends exchanges to a recording file, a line each, the file
// opened and closed per exchange so that what is written is complete
// whenever the server stops.
type recorder struct {
	path string
	mu   sync.Mutex
}

// newRecorder starts an empty recording at path.
func newRecorder(path string) (*recorder, error) {
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		return nil, fmt.Errorf("serve: record: %w", err)
	}
	return &recorder{path: path}, nil
}

// write appends one exchange.
func (r *recorder) write(m *model.Model, op *model.Operation, input []byte, resp *wire.Response) error {
	key, err := matchKey(m, op, input)
	if err != nil {
		return err
	}
	line := recordLine{Operation: op.Name, Input: key, Response: recordResponse{Status: resp.Status}}
	for k, vs := range resp.Header {
		if HopByHop(k) || wire.CanonicalHeaderKey(k) == "Set-Cookie" {
			continue
		}
		if line.Response.Headers == nil {
			line.Response.Headers = map[string][]string{}
		}
		line.Response.Headers[k] = vs
	}
	if utf8.Valid(resp.Body) {
		s := string(resp.Body)
		line.Response.Body = &s
	} else {
		s := base64.StdEncoding.EncodeToString(resp.Body)
		line.Response.BodyBase64 = &s
	}
	data, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("recording %s: %w", op.Name, err)
	}
	data = append(data, '\n')
	r.mu.Lock()
	defer r.mu.Unlock()
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("recording %s: %w", op.Name, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("recording %s to %s: %w", op.Name, r.path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("recording %s to %s: %w", op.Name, r.path, err)
	}
	return nil
}

// replay answers from a recording (an Answerer). The requests of one
// operation with one input get the recorded responses of that operation
// and input in their order; once they are used up, the last one again. A
// request the recording does not hold is an error: answered 500 and
// logged as "not in the recording", so a test learns its recording is
// stale.
type replay struct {
	m     *model.Model
	name  string
	mu    sync.Mutex
	byKey map[string]*replayed
}

type replayed struct {
	responses []*wire.Response
	next      int
}

// loadReplay reads and checks a recording; an error names the file and
// the entry (its line).
func (s *Server) loadReplay(src fixtureSource) (*replay, error) {
	data, err := src.read("replay")
	if err != nil {
		return nil, err
	}
	r := &replay{m: s.m, name: src.name, byKey: map[string]*replayed{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := r.add(s.svc, sc.Bytes()); err != nil {
			return nil, fmt.Errorf("serve: replay %s: entry on line %d: %w", src.name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("serve: replay %s: %w", src.name, err)
	}
	return r, nil
}

// add reads one recorded exchange.
func (r *replay) add(svc *model.Service, line []byte) error {
	var rl recordLine
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rl); err != nil {
		return fmt.Errorf("not an exchange (operation, input, response): %w", err)
	}
	op, err := svc.Operation(rl.Operation)
	if err != nil {
		return err
	}
	in, err := respond.Decode(rl.Input)
	if _, ok := in.(map[string]any); err != nil || !ok {
		return fmt.Errorf("operation %s: the input is not a JSON object", op.Name)
	}
	resp := &wire.Response{Status: rl.Response.Status, Header: wire.Header{}}
	if resp.Status < 100 || resp.Status > 599 {
		return fmt.Errorf("operation %s: status %d is not an HTTP status", op.Name, resp.Status)
	}
	for k, vs := range rl.Response.Headers {
		resp.Header[wire.CanonicalHeaderKey(k)] = vs
	}
	switch {
	case rl.Response.Body != nil && rl.Response.BodyBase64 != nil:
		return fmt.Errorf("operation %s: both body and bodyBase64", op.Name)
	case rl.Response.Body != nil:
		resp.Body = []byte(*rl.Response.Body)
	case rl.Response.BodyBase64 != nil:
		if resp.Body, err = base64.StdEncoding.DecodeString(*rl.Response.BodyBase64); err != nil {
			return fmt.Errorf("operation %s: bodyBase64: %w", op.Name, err)
		}
	default:
		resp.Body = []byte{}
	}
	// The input as the replay compares it: in the canonical form.
	key := string(op.Shape.ID) + "\x00" + string(respond.Encode(in))
	e := r.byKey[key]
	if e == nil {
		e = &replayed{}
		r.byKey[key] = e
	}
	e.responses = append(e.responses, resp)
	return nil
}

// Answer serves the recorded response of op with input.
func (r *replay) Answer(_ context.Context, op *model.Operation, input []byte) (*Answer, error) {
	in, err := matchKey(r.m, op, input)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.byKey[string(op.Shape.ID)+"\x00"+string(in)]
	if e == nil {
		return nil, fmt.Errorf("replay %s: operation %s with this input is not in the recording", r.name, op.Name)
	}
	resp := e.responses[e.next]
	if e.next < len(e.responses)-1 {
		e.next++
	}
	return &Answer{Response: resp}, nil
}
