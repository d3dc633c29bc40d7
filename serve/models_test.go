package serve_test

import (
	"context"
	"testing"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/serve"
)

// TestModels: the project's own services (the Todo example, the key-value
// store in both RPC v2 protocols, alloy's PizzaAdminService) served by the
// mock and called by the client: every operation answers random valid
// inputs with outputs the model accepts, and a paginated operation's
// random output is its last page.
func TestModels(t *testing.T) {
	for _, tc := range projectModels(t) {
		m, err := model.LoadPaths(context.Background(), tc.paths...)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range tc.services {
			t.Run(id.Name(), func(t *testing.T) {
				c, _, logs := mock(t, m, id, serve.WithSeed(3))
				svc, _ := m.Service(id)
				for _, op := range svc.Operations {
					for seed := int64(0); seed < 3; seed++ {
						g := valuegen.New(m, seed)
						g.Constrained, g.Plain = true, true
						if _, rest := respond.For(svc).(respond.Rest); rest {
							g.Locate = respond.LocateHTTP
						}
						in := respond.Encode(g.Input(op))
						out, err := c.Call(context.Background(), op.Name, in)
						if err != nil {
							t.Fatalf("%s %s: %v\n%s", op.Name, in, err, logs)
						}
						if err := protocol.CheckValue(m, op.Output.ID, out); op.Output.ID != model.UnitID && err != nil {
							t.Errorf("%s: %s: %v", op.Name, out, err)
						}
						if p, ok, _ := m.Pagination(svc, op); ok {
							if v, _ := respond.Decode(out); v.(map[string]any)[p.OutputToken] != nil {
								t.Errorf("%s: a random page has a next token: %s", op.Name, out)
							}
						}
					}
				}
			})
		}
	}
}
