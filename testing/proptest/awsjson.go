package proptest

import (
	"fmt"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// awsJSONProto is awsJson1_0 and awsJson1_1: POST / with X-Amz-Target and
// the whole input as a JSON object keyed by member names.
type awsJSONProto struct{ respond.AWSJSON }

func (p awsJSONProto) Trait() model.ShapeID { return p.Protocol }

func (p awsJSONProto) NewCodec(m *model.Model, svc *model.Service, opts ...protocol.Option) protocol.Codec {
	if p.Protocol == protocol.AWSJSON1_0 {
		return protocol.NewAWSJSON1_0(m, svc, opts...)
	}
	return protocol.NewAWSJSON1_1(m, svc, opts...)
}

func (p awsJSONProto) Locate(*model.Member, bool) Loc { return LocBody }

func (p awsJSONProto) Status() (int, int) { return 200, 200 }

func (p awsJSONProto) FillsNestedDefaults() bool { return true }

func (p awsJSONProto) rules() jsonRules { return jsonRules{} }

func (p awsJSONProto) ReadRequest(m *model.Model, svc *model.Service, op *model.Operation, req *wire.Request) (map[string]any, error) {
	v := view{m}
	if req.Method != "POST" || req.Path != "/" {
		return nil, fmt.Errorf("request line %s %s, want POST /", req.Method, req.Path)
	}
	if got, want := req.Header.Get("X-Amz-Target"), svc.Shape.ID.Name()+"."+op.Name; got != want {
		return nil, fmt.Errorf("X-Amz-Target %q, want %q", got, want)
	}
	if got := req.Header.Get("Content-Type"); got != p.ContentType {
		return nil, fmt.Errorf("Content-Type %q, want %q", got, p.ContentType)
	}
	b, err := body(req.Header, req.Body)
	if err != nil {
		return nil, err
	}
	w, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("body: %v", err)
	}
	out := map[string]any{}
	if typeOf(op.Input) != "unit" {
		if out, err = p.rules().structFromWire(v, op.Input, w); err != nil {
			return nil, err
		}
	}
	hp := map[string]any{}
	if err := readHostPrefix(v, op, req.HostPrefix, hp); err != nil {
		return nil, err
	}
	for k, val := range hp {
		if prev, ok := out[k]; !ok || prev != val {
			return nil, fmt.Errorf("host label %s is %q, member %v", k, val, prev)
		}
	}
	return out, nil
}
