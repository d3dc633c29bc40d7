// Package describe writes the JSON descriptions of a model's services and
// operations: the schemas smithycurl_model_services_json and
// smithycurl_model_operation_json return (documented in
// include/smithycurl.h), and `smithycurl describe --json` prints.
package describe

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client/awscustom"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Protocol and auth traits smithycurl knows even when their definitions are
// not loaded (alloy, aws.protocols and aws.auth are kept as opaque traits).
var (
	knownProtocols = []model.ShapeID{protocol.SimpleRestJSON, protocol.RestJSON1, protocol.AWSJSON1_0,
		protocol.AWSJSON1_1, protocol.RestXML, protocol.AWSQuery, protocol.EC2Query,
		protocol.RPCv2CBOR, protocol.RPCv2JSON}
	knownAuth = []model.ShapeID{model.TraitSigV4, model.TraitHTTPAPIKeyAuth, model.TraitHTTPBasicAuth,
		model.TraitHTTPBearerAuth, model.TraitHTTPDigestAuth}
)

type serviceJSON struct {
	ID            model.ShapeID   `json:"id"`
	Name          string          `json:"name"`
	Version       string          `json:"version,omitempty"`
	Documentation string          `json:"documentation,omitempty"`
	Protocols     []model.ShapeID `json:"protocols,omitempty"`
	Auth          []model.ShapeID `json:"auth,omitempty"`
	Operations    []operationJSON `json:"operations"`
}

type operationJSON struct {
	Name          string          `json:"name"`
	ID            model.ShapeID   `json:"id"`
	Documentation string          `json:"documentation,omitempty"`
	HTTP          json.RawMessage `json:"http,omitempty"`
	Readonly      bool            `json:"readonly,omitempty"`
	Idempotent    bool            `json:"idempotent,omitempty"`
	Deprecated    bool            `json:"deprecated,omitempty"`
	Input         model.ShapeID   `json:"input"`
	Output        model.ShapeID   `json:"output"`
	Errors        []model.ShapeID `json:"errors,omitempty"`
	Waiters       []string        `json:"waiters,omitempty"` // smithy.waiters#waitable names, sorted
	// ExtraInput: string members the input may have beyond the model's,
	// which the client's AWS customizations take (awscustom.Hooks.ExtraInput).
	ExtraInput []string `json:"extra_input,omitempty"`
	// Paginated is the @paginated trait, the service's merged in.
	Paginated *model.Pagination `json:"paginated,omitempty"`
}

// Docs is what a description holds of the @documentation traits.
type Docs int

const (
	DocsRaw   Docs = iota // as the model writes them (HTML in AWS models)
	DocsNone              // left out (a quarter of the size, for bindings that read it only when asked)
	DocsPlain             // as plain text (DocText), what the generators write
)

// text is a documentation value as d says.
func (d Docs) text(s string) string {
	switch d {
	case DocsNone:
		return ""
	case DocsPlain:
		if strings.ContainsAny(s, "<&") {
			return DocText(s)
		}
	}
	return s
}

// Services describes every service of m with its operations, their
// documentation as docs says.
func Services(m *model.Model, docs Docs) []byte {
	out := struct {
		Services []serviceJSON `json:"services"`
	}{Services: []serviceJSON{}}
	for _, id := range m.Services() {
		svc, err := m.Service(id)
		if err != nil {
			continue
		}
		s := serviceJSON{ID: id, Name: id.Name(), Version: svc.Shape.Version, Operations: []operationJSON{}}
		s.Documentation = docs.text(svc.Shape.Traits.Documentation())
		for _, t := range svc.Shape.Traits {
			if isDefinedAs(m, t.ID, model.TraitProtocolDefinition, knownProtocols) {
				s.Protocols = append(s.Protocols, t.ID)
			}
		}
		if v, ok := svc.Shape.Trait(model.TraitAuth); ok {
			for _, item := range v.Items() {
				s.Auth = append(s.Auth, model.ShapeID(item.Str()))
			}
		} else {
			for _, t := range svc.Shape.Traits {
				if isDefinedAs(m, t.ID, model.TraitAuthDefinition, knownAuth) {
					s.Auth = append(s.Auth, t.ID)
				}
			}
			sort.Slice(s.Auth, func(i, j int) bool { return s.Auth[i] < s.Auth[j] })
		}
		for _, op := range svc.Operations {
			s.Operations = append(s.Operations, describeOperationSummary(m, svc, op, docs))
		}
		out.Services = append(out.Services, s)
	}
	b, _ := json.Marshal(out)
	return b
}

func isDefinedAs(m *model.Model, trait, definition model.ShapeID, known []model.ShapeID) bool {
	if sh, ok := m.Shape(trait); ok && sh.HasTrait(definition) {
		return true
	}
	for _, k := range known {
		if k == trait {
			return true
		}
	}
	return false
}

func describeOperationSummary(m *model.Model, svc *model.Service, op *model.Operation, docs Docs) operationJSON {
	o := operationJSON{Name: op.Name, ID: op.Shape.ID,
		Readonly: op.Shape.HasTrait(model.TraitReadonly), Idempotent: op.Shape.HasTrait(model.TraitIdempotent),
		Deprecated: op.Shape.HasTrait(model.TraitDeprecated), Input: op.Input.ID, Output: op.Output.ID}
	o.Documentation = docs.text(op.Shape.Traits.Documentation())
	if v, ok := op.Shape.Trait(model.TraitHTTP); ok {
		o.HTTP = json.RawMessage(v.JSON())
	}
	for _, e := range op.Errors {
		o.Errors = append(o.Errors, e.ID)
	}
	if v, ok := op.Shape.Trait(model.TraitWaitable); ok {
		o.Waiters = v.Keys()
		sort.Strings(o.Waiters)
	}
	if p, ok, err := m.Pagination(svc, op); ok && err == nil {
		o.Paginated = &p
	}
	o.ExtraInput = awscustom.For(m, svc, op).ExtraInput()
	return o
}

type shapeJSON struct {
	Type          model.ShapeType `json:"type"`
	Documentation string          `json:"documentation,omitempty"`
	Sensitive     bool            `json:"sensitive,omitempty"`
	Deprecated    bool            `json:"deprecated,omitempty"`
	Streaming     bool            `json:"streaming,omitempty"`
	Error         string          `json:"error,omitempty"`
	HTTPError     int64           `json:"http_error,omitempty"`
	Members       []memberJSON    `json:"members,omitempty"`
	Member        *memberJSON     `json:"member,omitempty"`
	Key           *memberJSON     `json:"key,omitempty"`
	Value         *memberJSON     `json:"value,omitempty"`
	Values        []enumValueJSON `json:"values,omitempty"`
	Constraints   json.RawMessage `json:"constraints,omitempty"`
	Traits        json.RawMessage `json:"traits,omitempty"`
}

type memberJSON struct {
	Name          string           `json:"name,omitempty"`
	Target        model.ShapeID    `json:"target"`
	Type          model.ShapeType  `json:"type"`
	Required      bool             `json:"required,omitempty"`
	Default       json.RawMessage  `json:"default,omitempty"`
	Sensitive     bool             `json:"sensitive,omitempty"`
	Deprecated    bool             `json:"deprecated,omitempty"`
	Streaming     string           `json:"streaming,omitempty"`
	Documentation string           `json:"documentation,omitempty"`
	HTTP          *httpBindingJSON `json:"http,omitempty"`
	Constraints   json.RawMessage  `json:"constraints,omitempty"`
	Traits        json.RawMessage  `json:"traits,omitempty"`
}

type httpBindingJSON struct {
	Location string `json:"location"`
	Name     string `json:"name,omitempty"`
}

type blobPayloadJSON struct {
	Input  string `json:"input,omitempty"`
	Output string `json:"output,omitempty"`
}

type enumValueJSON struct {
	Name          string          `json:"name"`
	Value         json.RawMessage `json:"value"`
	Documentation string          `json:"documentation,omitempty"`
}

// Operation describes op of svc: its input, output and errors, and every
// shape they use (the prelude's excepted). An IDL 1.0 string with @enum is
// described as an enum shape, its definitions as the values (named after
// the value where the model gives no name), as the generators make it.
func Operation(m *model.Model, svc *model.Service, op *model.Operation) []byte {
	return OperationDocs(m, svc, op, DocsRaw)
}

// OperationDocs is Operation with the documentation as docs says.
func OperationDocs(m *model.Model, svc *model.Service, op *model.Operation, docs Docs) []byte {
	out := struct {
		Service       model.ShapeID `json:"service"`
		Operation     model.ShapeID `json:"operation"`
		Name          string        `json:"name"`
		Documentation string        `json:"documentation,omitempty"`
		Streaming     bool          `json:"streaming,omitempty"`
		Input         model.ShapeID `json:"input"`
		Output        model.ShapeID `json:"output"`
		// BlobPayload names the input's and output's blob payload members
		// (streaming or not; absent when neither has one): those that
		// smithycurl_call_payload passes as bytes.
		BlobPayload *blobPayloadJSON            `json:"blob_payload,omitempty"`
		Errors      []model.ShapeID             `json:"errors,omitempty"`
		Shapes      map[model.ShapeID]shapeJSON `json:"shapes"`
	}{Service: svc.Shape.ID, Operation: op.Shape.ID, Name: op.Name, Documentation: docs.text(op.Shape.Traits.Documentation()),
		Input: op.Input.ID, Output: op.Output.ID, Shapes: map[model.ShapeID]shapeJSON{}}
	if in, o := protocol.BlobPayloads(m, svc, op); in != "" || o != "" {
		out.BlobPayload = &blobPayloadJSON{Input: in, Output: o}
	}
	for _, io := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range io.Members {
			if Streaming(m, mem) != "" {
				out.Streaming = true
			}
		}
	}
	queue := []*model.Shape{op.Input, op.Output}
	for _, e := range op.Errors {
		out.Errors = append(out.Errors, e.ID)
		queue = append(queue, e)
	}
	for len(queue) > 0 {
		sh := queue[0]
		queue = queue[1:]
		if sh.ID.Namespace() == model.PreludeNamespace {
			continue
		}
		if _, done := out.Shapes[sh.ID]; done {
			continue
		}
		s := describeShape(m, sh, docs)
		out.Shapes[sh.ID] = s
		for _, mem := range sh.Members {
			if t, ok := m.Target(mem); ok {
				queue = append(queue, t)
			}
		}
	}
	b, _ := json.Marshal(out) // maps are written with sorted keys
	return b
}

func describeShape(m *model.Model, sh *model.Shape, docs Docs) shapeJSON {
	s := shapeJSON{Type: sh.Type, Documentation: docs.text(sh.Traits.Documentation()), Sensitive: sh.HasTrait(model.TraitSensitive),
		Deprecated: sh.HasTrait(model.TraitDeprecated), Streaming: sh.HasTrait(model.TraitStreaming),
		Constraints: constraints(sh.Traits, nil), Traits: traitsJSON(sh.Traits)}
	if v, ok := sh.Trait(model.TraitError); ok {
		s.Error = v.Str()
	}
	if v, ok := sh.Trait(model.TraitHTTPError); ok {
		s.HTTPError, _ = v.Int64()
	}
	switch sh.Type {
	case model.StructureType, model.UnionType:
		s.Members = []memberJSON{}
		for _, mem := range sh.Members {
			s.Members = append(s.Members, describeMember(m, mem, true, docs))
		}
	case model.ListType, model.SetType:
		if mem, ok := sh.Member("member"); ok {
			d := describeMember(m, mem, false, docs)
			s.Member = &d
		}
	case model.MapType:
		if mem, ok := sh.Member("key"); ok {
			d := describeMember(m, mem, false, docs)
			s.Key = &d
		}
		if mem, ok := sh.Member("value"); ok {
			d := describeMember(m, mem, false, docs)
			s.Value = &d
		}
	}
	if sh.IsEnum() {
		s.Type = enumType(sh)
		names := map[string]bool{}
		for _, ev := range sh.EnumValues() {
			name := ev.Name
			if name == "" {
				name = enumName(ev.Value.Str())
			}
			for names[name] {
				name += "_"
			}
			names[name] = true
			s.Values = append(s.Values, enumValueJSON{Name: name, Value: json.RawMessage(ev.Value.JSON()),
				Documentation: docs.text(ev.Traits.Documentation())})
		}
	}
	return s
}

// enumType is the type an enum is described as: an IDL 1.0 string with
// @enum is an enum, as in IDL 2.0.
func enumType(sh *model.Shape) model.ShapeType {
	if sh.Type == model.StringType && sh.IsEnum() {
		return model.EnumType
	}
	return sh.Type
}

// enumName is an identifier for an IDL 1.0 enum value without a name
// ("t2.micro": T2_MICRO), as an IDL 2.0 enum member would have.
func enumName(value string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(value) {
		switch {
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	name := strings.TrimSuffix(b.String(), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "V_" + name
	}
	return name
}

func describeMember(m *model.Model, mem *model.Member, named bool, docs Docs) memberJSON {
	d := memberJSON{Target: mem.Target, Required: mem.Traits.Has(model.TraitRequired),
		Deprecated: mem.Traits.Has(model.TraitDeprecated), Traits: traitsJSON(mem.Traits)}
	if named {
		d.Name = mem.Name()
	}
	target, _ := m.Target(mem)
	var targetTraits model.Traits
	if target != nil {
		d.Type = enumType(target)
		targetTraits = target.Traits
	}
	if v, ok := mem.Traits.Get(model.TraitDefault); ok {
		d.Default = json.RawMessage(DefaultJSON(m, mem, v))
	}
	d.Sensitive = mem.Traits.Has(model.TraitSensitive) || targetTraits.Has(model.TraitSensitive)
	d.Streaming = Streaming(m, mem)
	d.Documentation = mem.Traits.Documentation()
	if d.Documentation == "" {
		d.Documentation = targetTraits.Documentation()
	}
	d.Documentation = docs.text(d.Documentation)
	d.HTTP = httpBinding(mem)
	d.Constraints = constraints(mem.Traits, targetTraits)
	return d
}

// DefaultJSON is mem's default v in the document form: a timestamp's as
// an RFC 3339 string (the model may write it as epoch seconds or, with
// @timestampFormat("http-date"), as an http-date), others as written.
func DefaultJSON(m *model.Model, mem *model.Member, v model.Node) string {
	return defaultNode(m, mem, v).JSON()
}

func defaultNode(m *model.Model, mem *model.Member, v model.Node) model.Node {
	if t, ok := m.Target(mem); ok && t.Type == model.TimestampType {
		if tt, ok, err := m.TimestampDefault(mem); ok && err == nil {
			return model.String(tt.Format(time.RFC3339Nano))
		}
	}
	return v
}

// Streaming tells whether mem targets a @streaming shape: "blob" for a
// streaming blob, "events" for an event stream (a @streaming union), else "".
func Streaming(m *model.Model, mem *model.Member) string {
	t, ok := m.Target(mem)
	if !ok || !t.HasTrait(model.TraitStreaming) {
		return ""
	}
	if t.Type == model.UnionType {
		return "events"
	}
	return "blob"
}

func httpBinding(mem *model.Member) *httpBindingJSON {
	for _, b := range []struct {
		trait    model.ShapeID
		location string
	}{
		{model.TraitHTTPLabel, "label"}, {model.TraitHTTPQuery, "query"},
		{model.TraitHTTPQueryParams, "queryParams"}, {model.TraitHTTPHeader, "header"},
		{model.TraitHTTPPrefixHeaders, "prefixHeaders"}, {model.TraitHTTPPayload, "payload"},
		{model.TraitHTTPResponseCode, "responseCode"},
	} {
		if v, ok := mem.Traits.Get(b.trait); ok {
			return &httpBindingJSON{Location: b.location, Name: v.Str()}
		}
	}
	return nil
}

// constraints collects @length, @range, @pattern and @uniqueItems, the
// first traits winning over the fallback's.
func constraints(ts, fallback model.Traits) json.RawMessage {
	var parts []string
	for _, c := range []struct {
		trait model.ShapeID
		key   string
	}{
		{model.TraitLength, "length"}, {model.TraitRange, "range"},
		{model.TraitPattern, "pattern"}, {model.TraitUniqueItems, "unique_items"},
	} {
		v, ok := ts.Get(c.trait)
		if !ok {
			v, ok = fallback.Get(c.trait)
		}
		if !ok {
			continue
		}
		value := v.JSON()
		if c.key == "unique_items" {
			value = "true"
		}
		k, _ := json.Marshal(c.key)
		parts = append(parts, string(k)+":"+value)
	}
	if len(parts) == 0 {
		return nil
	}
	return json.RawMessage("{" + strings.Join(parts, ",") + "}")
}

// traitsJSON writes every trait as {"id": value}, in the model's order.
func traitsJSON(ts model.Traits) json.RawMessage {
	if len(ts) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(string(t.ID))
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(t.Value.JSON())
	}
	b.WriteByte('}')
	return b.Bytes()
}
