package gogen

import (
	"fmt"

	"github.com/smithycurl/smithycurl/model"
)

// The methods an operation gets besides its call and paginator: a WaitX
// per waiter (smithy.waiters#waitable), XStream for streaming blob
// payloads (an io.Reader and/or io.Writer), XEvents for an output event
// stream (a typed.EventStream of the stream's union) and PresignX for a
// SigV4 service's (a client.Presigned).

// WaiterNames are the Go names of one waiter.
type WaiterNames struct {
	Waiter string // the waiter's name in the model
	Method string // "WaitTableExists"
}

// streamMembers finds op's streaming blob payloads and its output event
// stream's union, as the client does.
func (g *gen) streamMembers(op *model.Operation) (in, out string, events *model.Shape) {
	for i, s := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range s.Members {
			if _, ok := g.m.MemberTrait(mem, model.TraitStreaming); !ok {
				continue
			}
			t := g.target(mem)
			switch {
			case t.Type == model.BlobType && mem.Traits.Has(model.TraitHTTPPayload) && i == 0:
				in = mem.Name()
			case t.Type == model.BlobType && mem.Traits.Has(model.TraitHTTPPayload):
				out = mem.Name()
			case t.Type == model.UnionType && i == 1:
				events = t
			}
		}
	}
	return in, out, events
}

// extraNames names the extra methods, after every operation's method and
// paginator (so those keep their names).
func (g *gen) extraNames(out []OperationNames, methods namespace) {
	for i, op := range g.svc.Operations {
		if t, ok := op.Shape.Trait(model.TraitWaitable); ok {
			for _, name := range t.Keys() {
				out[i].Waiters = append(out[i].Waiters, WaiterNames{Waiter: name, Method: methods.take("Wait" + exportedName(name))})
			}
		}
		in, o, events := g.streamMembers(op)
		if in != "" || o != "" {
			out[i].Stream = methods.take(out[i].Method + "Stream")
		}
		if events != nil && out[i].Output != "" {
			out[i].Events = methods.take(out[i].Method + "Events")
		}
		if events == nil && g.svc.Shape.HasTrait(model.TraitSigV4) {
			out[i].Presign = methods.take("Presign" + out[i].Method)
		}
	}
}

// inParam is the input parameter of an operation's methods and the
// argument passed on ("nil" without input), with the nil-input guard.
func inParam(names OperationNames) (param, arg string) {
	if names.Input == "" {
		return "", "nil"
	}
	return ", in *" + names.Input, "in"
}

func nilGuard(w *writer, names OperationNames) {
	if names.Input != "" {
		w.p("\tif in == nil {")
		w.p("\t\tin = new(%s)", names.Input)
		w.p("\t}")
	}
}

// extras writes the extra methods of op.
func (g *gen) extras(w *writer, op *model.Operation, names OperationNames) {
	param, arg := inParam(names)
	for _, wn := range names.Waiters {
		out := names.Output
		if out == "" {
			out = "struct{}"
		}
		w.comment("", fmt.Sprintf("%s waits with the waiter %s (smithy.waiters#waitable): it calls %s with in until an acceptor reaches the success state, sleeping between attempts as the Smithy specification says, at most maxWait in all, and returns the output of the call that succeeded (empty when the success was an error). A failure acceptor gives a *client.Error of kind client.KindWaiterFailure, maxWait running out client.KindWaiterTimeout; an error no acceptor expects is returned as %s returns it.", wn.Method, wn.Waiter, op.Name, names.Method))
		w.p("func (c *Client) %s(ctx context.Context%s, maxWait time.Duration, opts ...client.WaitOption) (*%s, error) {", wn.Method, param, out)
		nilGuard(w, names)
		w.p("\treturn typed.Wait[%s](ctx, c.c, %q, %q, %s, maxWait, errorFor, opts...)", out, op.Name, wn.Waiter, arg)
		w.p("}")
		w.p("")
	}
	if names.Stream != "" {
		in, o, _ := g.streamMembers(op)
		params, stream := "", ""
		text := fmt.Sprintf("%s calls %s with its streaming blob payload streamed, never held in memory.", names.Stream, op.Name)
		if in != "" {
			params += ", body io.Reader, size int64"
			stream += ", client.WithBodyReader(body, size)"
			text += fmt.Sprintf(" The request's %s is read from body, size bytes (-1: unknown, sent chunked); in.%s must then be nil. A body that is no io.Seeker is never sent twice (the call is not retried once it was read).", in, g.fieldName(op.Input, in))
		}
		if o != "" {
			params += ", w io.Writer"
			stream += ", client.WithBodyWriter(w)"
			text += fmt.Sprintf(" The response's %s is written to w as it arrives (the output's %s is then nil); the call is not retried once w got a byte.", o, g.fieldName(op.Output, o))
		}
		w.comment("", text)
		ret, outArg := "error", "nil"
		if names.Output != "" {
			ret, outArg = fmt.Sprintf("(*%s, error)", names.Output), "out"
		}
		w.p("func (c *Client) %s(ctx context.Context%s%s, opts ...client.CallOption) %s {", names.Stream, param, params, ret)
		nilGuard(w, names)
		w.p("\topts = append(opts[:len(opts):len(opts)]%s)", stream)
		if names.Output == "" {
			w.p("\treturn typed.Invoke(ctx, c.c, %q, %s, nil, errorFor, opts...)", op.Name, arg)
		} else {
			w.p("\tout := new(%s)", names.Output)
			w.p("\tif err := typed.Invoke(ctx, c.c, %q, %s, %s, errorFor, opts...); err != nil {", op.Name, arg, outArg)
			w.p("\t\treturn nil, err")
			w.p("\t}")
			w.p("\treturn out, nil")
		}
		w.p("}")
		w.p("")
	}
	if names.Presign != "" {
		w.comment("", fmt.Sprintf("%s presigns %s with in (client.Client.Presign): its request signed with SigV4 in its URL, valid for expires (1 s to 7 days), for anyone to send without credentials; nothing is sent.", names.Presign, op.Name))
		w.p("func (c *Client) %s(ctx context.Context%s, expires time.Duration, opts ...client.CallOption) (*client.Presigned, error) {", names.Presign, param)
		nilGuard(w, names)
		w.p("	return typed.Presign(ctx, c.c, %q, %s, expires, opts...)", op.Name, arg)
		w.p("}")
		w.p("")
	}
	if names.Events != "" {
		_, _, events := g.streamMembers(op)
		u := g.names[events.ID]
		w.comment("", fmt.Sprintf("%s calls %s and returns its event stream once the initial response is in: Initial() is the output without its stream, Events() yields each %s as it arrives (a modeled exception event is its error type). Close it when done. The call is not retried; ctx bounds the whole stream.", names.Events, op.Name, u))
		w.p("func (c *Client) %s(ctx context.Context%s, opts ...client.CallOption) (*typed.EventStream[%s, %s], error) {", names.Events, param, names.Output, u)
		nilGuard(w, names)
		w.p("\treturn typed.OpenEventStream[%s](ctx, c.c, %q, %s, decode%s, errorFor, opts...)", names.Output, op.Name, arg, u)
		w.p("}")
		w.p("")
	}
}

// fieldName is the Go field of member name of structure s.
func (g *gen) fieldName(s *model.Shape, name string) string {
	for i, f := range g.fieldNames(s) {
		if s.Members[i].Name() == name {
			return f
		}
	}
	return exportedName(name)
}
