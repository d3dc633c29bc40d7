package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// A fixtures file is a JSON object keyed by operation name; each holds a
// list of entries, the first whose match the request meets answers it:
//
//	{
//	  "GetTodo": [
//	    {"match": {"id": "1"}, "output": {"id": "1", "title": "Buy milk", "done": false}},
//	    {"match": {"id": "404"}, "error": "TodoNotFound", "members": {"message": "no such item"}},
//	    {"output": {"id": "2", "title": "Anything else", "done": true}}
//	  ],
//	  "Ticker": [{"output": {"symbol": "X"}, "events": [{"tick": {"n": 1}}, {"tick": {"n": 2}}]}]
//	}
//
// An entry's fields:
//
//   - match: input members the request must have, each with an equal
//     value (deep; numbers by value; the other members are not looked
//     at). No match meets every request.
//   - output: the output; or error, a modeled error of the operation (its
//     name or shape id), with members.
//   - events: the events of an event-stream output (values of its union).
//   - status: the HTTP status instead of the protocol's; headers: headers
//     added to the response ({"Name": "value"}).
//
// Values are in the document form (smithycurl call's JSON: blobs in
// base64, timestamps as RFC 3339 strings or epoch seconds). Every value is
// checked against the model when the file is loaded; an error names the
// file, the operation, the entry and the member.
type fixtureEntry struct {
	Match   json.RawMessage   `json:"match,omitempty"`
	Output  json.RawMessage   `json:"output,omitempty"`
	Error   string            `json:"error,omitempty"`
	Members json.RawMessage   `json:"members,omitempty"`
	Events  []json.RawMessage `json:"events,omitempty"`
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// entry is a checked fixture or example: the answer of the requests whose
// input matches.
type entry struct {
	match  map[string]any
	answer Answer
}

func (e *entry) matches(input map[string]any) bool { return matchAll(e.match, input) }

// fixtures answers from a fixtures file (an Answerer).
type fixtures struct {
	ops map[*model.Operation][]entry
}

func (f *fixtures) Answer(_ context.Context, op *model.Operation, input []byte) (*Answer, error) {
	list := f.ops[op]
	if len(list) == 0 {
		return nil, nil
	}
	in, err := decodeObject(input)
	if err != nil {
		return nil, fmt.Errorf("the decoded input: %w", err)
	}
	for i := range list {
		if list[i].matches(in) {
			return &list[i].answer, nil
		}
	}
	return nil, nil
}

// read returns the source's content; what names it in an error.
func (src fixtureSource) read(what string) ([]byte, error) {
	if src.data != nil {
		return src.data, nil
	}
	data, err := os.ReadFile(src.name)
	if err != nil {
		return nil, fmt.Errorf("serve: %s: %w", what, err)
	}
	return data, nil
}

// loadFixtures reads and checks a fixtures file.
func (s *Server) loadFixtures(src fixtureSource) (*fixtures, error) {
	data, err := src.read("fixtures")
	if err != nil {
		return nil, err
	}
	var file map[string][]json.RawMessage
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("serve: fixtures %s: not an object of operation names to lists of entries: %w", src.name, err)
	}
	f := &fixtures{ops: map[*model.Operation][]entry{}}
	for name, list := range file {
		op, err := s.svc.Operation(name)
		if err != nil {
			return nil, fmt.Errorf("serve: fixtures %s: %w", src.name, err)
		}
		for i, raw := range list {
			e, err := s.checkEntry(op, raw)
			if err != nil {
				return nil, fmt.Errorf("serve: fixtures %s: operation %s, entry %d: %w", src.name, op.Name, i+1, err)
			}
			if err := s.prerender(op, &e); err != nil {
				return nil, fmt.Errorf("serve: fixtures %s: operation %s, entry %d: the answer does not render: %w", src.name, op.Name, i+1, err)
			}
			f.ops[op] = append(f.ops[op], e)
		}
	}
	return f, nil
}

// checkEntry reads one fixture entry and checks it against op.
func (s *Server) checkEntry(op *model.Operation, raw json.RawMessage) (entry, error) {
	m := s.m
	var fe fixtureEntry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fe); err != nil {
		return entry{}, fmt.Errorf("not an entry (match, output, error, members, events, status, headers): %w", err)
	}
	var e entry
	var err error
	if e.match, err = checked(m, op.Input, fe.Match, "match", true); err != nil {
		return entry{}, err
	}
	switch {
	case fe.Error != "" && present(fe.Output):
		return entry{}, fmt.Errorf("both an output and an error")
	case fe.Error != "":
		shape, err := errorShape(op, fe.Error)
		if err != nil {
			return entry{}, err
		}
		e.answer.Error = string(shape.ID)
		if e.answer.Members, err = checked(m, shape, fe.Members, "error "+shape.ID.Name(), false); err != nil {
			return entry{}, err
		}
	case present(fe.Members):
		return entry{}, fmt.Errorf("members without an error")
	default:
		if e.answer.Output, err = checked(m, op.Output, fe.Output, "output", false); err != nil {
			return entry{}, err
		}
	}
	if len(fe.Events) > 0 {
		stream := s.outputStream(op)
		if stream == nil || fe.Error != "" {
			return entry{}, fmt.Errorf("events, but operation %s has no event stream in its output", op.Name)
		}
		for i, ev := range fe.Events {
			// An event is checked as the output holding it alone.
			doc := []byte(`{"` + stream.Name() + `":` + string(ev) + `}`)
			v, err := checked(m, op.Output, doc, fmt.Sprintf("event %d", i+1), true)
			if err != nil {
				return entry{}, err
			}
			ev, _ := v[stream.Name()].(map[string]any)
			e.answer.Events = append(e.answer.Events, ev)
		}
	}
	if fe.Status != 0 && (fe.Status < 100 || fe.Status > 599) {
		return entry{}, fmt.Errorf("status %d is not an HTTP status", fe.Status)
	}
	e.answer.Status = fe.Status
	for k, v := range fe.Headers {
		if e.answer.Header == nil {
			e.answer.Header = map[string][]string{}
		}
		wire.Header(e.answer.Header).Add(k, v)
	}
	return e, nil
}

// present reports whether a field was given a value other than null.
func present(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t != "null"
}

// checked checks doc, a value of structure s, against the model and reads
// it; partial when it may leave out @required members.
func checked(m *model.Model, s *model.Shape, doc []byte, what string, partial bool) (map[string]any, error) {
	v, err := respond.Object(m, s, doc, partial)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// loadExamples reads the @examples of svc's operations whose values fit the
// model (the model's validator checks them too).
func (s *Server) loadExamples() (map[*model.Operation][]entry, error) {
	out := map[*model.Operation][]entry{}
	for _, op := range s.svc.Operations {
		ex, ok := op.Shape.Trait(model.TraitExamples)
		if !ok {
			continue
		}
		for i, x := range ex.Items() {
			fe := fixtureEntry{}
			if in, ok := x.Get("input"); ok {
				fe.Match = json.RawMessage(in.JSON())
			}
			if o, ok := x.Get("output"); ok {
				fe.Output = json.RawMessage(o.JSON())
			}
			if e, ok := x.Get("error"); ok {
				id, _ := e.Get("shapeId")
				fe.Error = id.Str()
				c, _ := e.Get("content")
				fe.Members = json.RawMessage(c.JSON())
			}
			raw, err := json.Marshal(fe)
			if err != nil {
				return nil, fmt.Errorf("serve: operation %s, example %d: %w", op.Name, i+1, err)
			}
			e, err := s.checkEntry(op, raw)
			if err == nil {
				err = s.prerender(op, &e)
			}
			if err != nil {
				// An example that does not fit (allowConstraintErrors, an
				// input the server cannot match) is not served.
				continue
			}
			out[op] = append(out[op], e)
		}
	}
	return out, nil
}
