package respond

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/internal/jsonstr"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// Object checks doc, a value of structure s in the document form (empty
// or null: {}), against the model and reads it: with protocol.CheckValue,
// or protocol.CheckMembers when partial (a part of a value, as a match on
// some input members). For smithy.api#Unit doc must hold no member. The
// stubs (client/stub) and the mock server's fixtures (serve) read the
// values they are given with it.
func Object(m *model.Model, s *model.Shape, doc []byte, partial bool) (map[string]any, error) {
	if t := strings.TrimSpace(string(doc)); t == "" || t == "null" {
		doc = []byte("{}")
	}
	if msg := jsonstr.CheckText(doc); msg != "" {
		return nil, fmt.Errorf("the value is %s", msg)
	}
	if s.ID != model.UnitID {
		check := protocol.CheckValue
		if partial {
			check = protocol.CheckMembers
		}
		if err := check(m, s.ID, doc); err != nil {
			return nil, err
		}
	}
	v, err := Decode(doc)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	if s.ID == model.UnitID && len(obj) > 0 {
		return nil, fmt.Errorf("the operation has none (smithy.api#Unit), found %d members", len(obj))
	}
	return obj, nil
}
