package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/proptest"
)

// responseLine is one response case (-responses): a wire response rendered
// by the property tests' renderer (proptest.Protocol.RenderResponse, or
// RenderError for a modeled error) from a random valid output, with an
// input that makes the call, and the output (or error members) the
// response carries in the document form.
type responseLine struct {
	Model     string              `json:"model"`
	Service   model.ShapeID       `json:"service"`
	Protocol  model.ShapeID       `json:"protocol"`
	Operation string              `json:"operation"`
	Seed      int64               `json:"seed"`
	Input     json.RawMessage     `json:"input"`
	Error     model.ShapeID       `json:"error,omitempty"` // the error shape of an error case
	Status    int                 `json:"status"`
	Headers   map[string][]string `json:"headers"`
	Body      []byte              `json:"body"` // base64 in the JSON
	Expected  json.RawMessage     `json:"expected"`
}

// emitResponses writes n response cases per operation of the services of
// the model at path whose protocol the property tests render
// (proptest.ResponderOf), each followed, when the operation has modeled
// errors, by an error case of one of them.
func emitResponses(out *bufio.Writer, path, name string, seed int64, n int, only string) error {
	var notXML int
	defer func() {
		if notXML > 0 {
			fmt.Fprintf(os.Stderr, "geninputs: %s: %d cases left out, with a value XML 1.0 cannot carry\n", name, notXML)
		}
	}()
	return emitResponsesOf(out, path, name, seed, n, only, &notXML)
}

func emitResponsesOf(out *bufio.Writer, path, name string, seed int64, n int, only string, notXML *int) error {
	m, err := load(path)
	if err != nil {
		return err
	}
	for _, sid := range m.Services() {
		svc, err := m.Service(sid)
		if err != nil {
			return err
		}
		p := proptest.ResponderOf(svc)
		if p == nil {
			continue // no renderer of its protocol
		}
		for _, op := range svc.Operations {
			if only != "" && !strings.Contains(op.Name, only) {
				continue
			}
			for i := 0; i < n; i++ {
				cs := caseSeed(seed, name, op.Name+"/response", i)
				in := proptest.NewGen(m, cs)
				in.Locate = respond.LocateHTTP
				input := proptest.Encode(in.Input(op))
				g := proptest.NewGen(m, cs)
				g.Locate = p.Locate
				g.StatusMin, g.StatusMax = p.Status()
				o := g.Output(op)
				resp, err := p.RenderResponse(m, op, o)
				if errors.Is(err, respond.ErrNotXML) {
					*notXML++
					continue
				}
				if err != nil {
					return fmt.Errorf("%s: render: %w", op.Name, err)
				}
				ln := responseLine{name, sid, p.Trait(), op.Name, cs, input, "", resp.Status, resp.Header, resp.Body, proptest.Encode(o)}
				if err := writeLine(out, ln); err != nil {
					return fmt.Errorf("%s: %w", op.Name, err)
				}
				if len(op.Errors) == 0 {
					continue
				}
				errs := append([]*model.Shape(nil), op.Errors...)
				sort.Slice(errs, func(a, b int) bool { return errs[a].ID < errs[b].ID })
				e := errs[g.R.Intn(len(errs))]
				members := g.Error(e)
				resp, err = p.RenderError(m, op, e, members)
				if errors.Is(err, respond.ErrNotXML) {
					*notXML++
					continue
				}
				if err != nil {
					return fmt.Errorf("%s: render %s: %w", op.Name, e.ID, err)
				}
				respond.AddQueryErrorHeader(svc, e, resp)
				ln = responseLine{name, sid, p.Trait(), op.Name, cs, input, e.ID, resp.Status, resp.Header, resp.Body, proptest.Encode(members)}
				if err := writeLine(out, ln); err != nil {
					return fmt.Errorf("%s: %w", op.Name, err)
				}
			}
		}
	}
	return nil
}

func writeLine(out *bufio.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out.Write(b)
	return out.WriteByte('\n')
}
