package gogen

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// OperationNames are the Go names of an operation in a generated package.
type OperationNames struct {
	Operation     string // the Smithy name
	Method        string // the Client's method
	Input, Output string // the types; "" for smithy.api#Unit (no parameter, no result)
	// Paginator is the method iterating the pages of a @paginated
	// operation ("PaginateListTodos"); "" when it is not paginated.
	Paginator string
	// Waiters are the WaitX methods of the operation's waiters.
	Waiters []WaiterNames
	// Stream is the method taking an io.Reader and/or io.Writer for its
	// streaming blob payloads ("GetObjectStream"); "" when none.
	Stream string
	// Events is the method opening its output event stream ("TickEvents");
	// "" when none.
	Events string
	// Presign is the method presigning it ("PresignGetObject"), for a
	// service signed with SigV4 (aws.auth#sigv4); "" otherwise or for an
	// event stream.
	Presign string
}

// Names returns the Go names Generate gives the operations of svc, in the
// order of svc.Operations.
func Names(m *model.Model, svc *model.Service) []OperationNames {
	return newGen(m, svc).operationNames()
}

func newGen(m *model.Model, svc *model.Service) *gen {
	g := &gen{m: m, svc: svc, names: map[model.ShapeID]string{}, pkgNS: namespace{"Client": true, "New": true, "ServiceID": true}}
	g.collect()
	g.nameTypes()
	if codec, err := protocol.New(m, svc); err == nil {
		g.proto = codec.Protocol()
	}
	return g
}

// blobPayloads are the fields of op's blob payloads, "" when none: the
// methods give and take their bytes beside the document
// (client.WithPayload, WithPayloadOutput), never as base64 text.
func (g *gen) blobPayloads(op *model.Operation) (in, out string) {
	if name := protocol.BlobPayload(g.m, g.proto, op, false); name != "" {
		in = g.fieldName(op.Input, name)
	}
	if name := protocol.BlobPayload(g.m, g.proto, op, true); name != "" {
		out = g.fieldName(op.Output, name)
	}
	return in, out
}

func (g *gen) operationNames() []OperationNames {
	methods := namespace{"Close": true, "Untyped": true}
	out := make([]OperationNames, len(g.svc.Operations))
	for i, op := range g.svc.Operations {
		out[i] = OperationNames{Operation: op.Name, Method: methods.take(exportedName(op.Name))}
		if op.Input.ID != model.UnitID {
			out[i].Input = g.names[op.Input.ID]
		}
		if op.Output.ID != model.UnitID {
			out[i].Output = g.names[op.Output.ID]
		}
	}
	// After every operation's method: an operation named PaginateX keeps
	// its name.
	for i, op := range g.svc.Operations {
		if _, ok, err := g.m.Pagination(g.svc, op); ok && err == nil && out[i].Output != "" {
			out[i].Paginator = methods.take("Paginate" + out[i].Method)
		}
	}
	g.extraNames(out, methods)
	return out
}

// clientFile writes the Client, its operations and the error lookup.
func (g *gen) clientFile() ([]byte, error) {
	var w writer
	svcName := g.svc.Shape.ID
	w.p("//go:embed model.json")
	w.p("var modelJSON []byte")
	w.p("")
	w.p("// loadModel loads the embedded model once, on first use.")
	w.p("var loadModel = typed.NewModel(modelJSON)")
	w.p("")
	w.p("// ServiceID is the service this package calls.")
	w.p("const ServiceID model.ShapeID = %q", svcName)
	w.p("")
	paras := []string{fmt.Sprintf("Client calls the operations of %s. It is safe for concurrent use.", svcName)}
	if d, ok := g.svc.Shape.Trait(model.TraitDocumentation); ok {
		paras = append(paras, paragraphs(d.Str())...)
	}
	w.comment("", paras...)
	w.p("type Client struct {")
	w.p("\tc *client.Client")
	w.p("}")
	w.p("")
	w.p("// New returns a client for the service at endpoint (\"https://host:port\").")
	w.p("// The options are those of the client package (auth, timeouts, retries...).")
	w.p("func New(endpoint string, options ...client.Option) (*Client, error) {")
	w.p("\tm, err := loadModel()")
	w.p("\tif err != nil {")
	w.p("\t\treturn nil, err")
	w.p("\t}")
	w.p("\tc, err := client.New(m, ServiceID, endpoint, options...)")
	w.p("\tif err != nil {")
	w.p("\t\treturn nil, err")
	w.p("\t}")
	w.p("\treturn &Client{c: c}, nil")
	w.p("}")
	w.p("")
	w.p("// Close releases the client's connections.")
	w.p("func (c *Client) Close() error { return c.c.Close() }")
	w.p("")
	w.p("// Untyped returns the client.Client the typed methods run on (Call with JSON).")
	w.p("func (c *Client) Untyped() *client.Client { return c.c }")
	w.p("")
	for i, names := range g.operationNames() {
		op := g.svc.Operations[i]
		method, in, out := names.Method, names.Input, names.Output
		w.doc("", method, op.Shape.Traits, fmt.Sprintf("calls %s.", op.Shape.ID))
		if len(op.Errors) > 0 {
			var names []string
			for _, e := range op.Errors {
				names = append(names, "*"+g.names[e.ID])
			}
			w.comment("", "", "Its modeled errors: "+strings.Join(names, ", ")+".")
		}
		blobIn, blobOut := g.blobPayloads(op)
		if blobIn != "" || blobOut != "" {
			w.comment("", "", "Its blob payload is sent and received as the bytes of the body, never as base64 text (client.WithPayload, client.WithPayloadOutput).")
		}
		if names.Events != "" {
			w.comment("", "", fmt.Sprintf("Its output is an event stream, which %s reads; this method fails with a usage error.", names.Events))
		}
		params := "ctx context.Context"
		inArg := "nil"
		if in != "" {
			params += ", in *" + in
			inArg = "in"
		}
		params += ", opts ...client.CallOption"
		payloadIn := func() {
			if blobIn == "" {
				return
			}
			w.p("\tif in.%s != nil { // the body as it is, not base64 in the document", blobIn)
			w.p("\t\topts = append(opts[:len(opts):len(opts)], client.WithPayload(in.%s))", blobIn)
			w.p("\t\tdoc := *in")
			w.p("\t\tdoc.%s = nil", blobIn)
			w.p("\t\tin = &doc")
			w.p("\t}")
		}
		if out == "" {
			w.p("func (c *Client) %s(%s) error {", method, params)
			if in != "" {
				w.p("\tif in == nil {")
				w.p("\t\tin = new(%s)", in)
				w.p("\t}")
			}
			payloadIn()
			w.p("\treturn typed.Invoke(ctx, c.c, %q, %s, nil, errorFor, opts...)", op.Name, inArg)
			w.p("}")
			w.p("")
			g.extras(&w, op, names)
			continue
		}
		w.p("func (c *Client) %s(%s) (*%s, error) {", method, params, out)
		if in != "" {
			w.p("\tif in == nil {")
			w.p("\t\tin = new(%s)", in)
			w.p("\t}")
		}
		payloadIn()
		w.p("\tout := new(%s)", out)
		if blobOut != "" {
			w.p("\topts = append(opts[:len(opts):len(opts)], client.WithPayloadOutput(&out.%s))", blobOut)
		}
		w.p("\tif err := typed.Invoke(ctx, c.c, %q, %s, out, errorFor, opts...); err != nil {", op.Name, inArg)
		w.p("\t\treturn nil, err")
		w.p("\t}")
		w.p("\treturn out, nil")
		w.p("}")
		w.p("")
		if names.Paginator != "" {
			g.paginator(&w, op, names)
		}
		g.extras(&w, op, names)
	}
	w.p("// errorFor returns a new value of the error type of shape id, nil when none.")
	w.p("func errorFor(id model.ShapeID) typed.ModeledError {")
	w.p("\tswitch id {")
	for _, s := range g.shapes {
		if s.Type == model.StructureType && s.HasTrait(model.TraitError) {
			w.p("\tcase %q:", s.ID)
			w.p("\t\treturn new(%s)", g.names[s.ID])
		}
	}
	w.p("\t}")
	w.p("\treturn nil")
	w.p("}")
	return w.file(g.pkg, "client.go", []string{"context", "_ embed", "github.com/smithycurl/smithycurl/client", "github.com/smithycurl/smithycurl/model"})
}

// paginator writes the method iterating the pages of a @paginated
// operation.
func (g *gen) paginator(w *writer, op *model.Operation, names OperationNames) {
	w.comment("", fmt.Sprintf("%s calls %s page after page (its @paginated trait), each with the continuation token of the page before, and yields each page's output; the pages end at an absent or empty token, after client.WithMaxItems, or at the first error, which is yielded.", names.Paginator, op.Name))
	params, inArg := "ctx context.Context", "nil"
	if names.Input != "" {
		params += ", in *" + names.Input
		inArg = "in"
	}
	w.p("func (c *Client) %s(%s, opts ...client.PaginateOption) iter.Seq2[*%s, error] {", names.Paginator, params, names.Output)
	if names.Input != "" {
		w.p("\tif in == nil {")
		w.p("\t\tin = new(%s)", names.Input)
		w.p("\t}")
	}
	w.p("\treturn typed.Paginate[%s](ctx, c.c, %q, %s, errorFor, opts...)", names.Output, op.Name, inArg)
	w.p("}")
	w.p("")
}
