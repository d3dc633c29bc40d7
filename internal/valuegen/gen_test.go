package valuegen

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// TestFromPattern: strings written from a pattern match it.
func TestFromPattern(t *testing.T) {
	g := New(nil, 1)
	for _, p := range []string{`^[0-9a-f-]{36}$`, `^arn:aws[a-z-]*:iam::\d{12}:role/[\w+=,.@-]+$`, `^(GET|PUT)/[A-Z][a-z]{2,5}$`,
		`^\S+@\S+\.\S+$`, `^[^\x00-\x1f]{1,10}$`, `^a?b*c+$`} {
		re := regexp.MustCompile(p)
		for i := 0; i < 20; i++ {
			s, ok := g.fromPattern(p)
			if !ok || !re.MatchString(s) {
				t.Errorf("%s: %q (%v)", p, s, ok)
			}
		}
	}
	if _, ok := g.fromPattern(`^(?=a)a$`); ok {
		t.Errorf("a lookahead is not Go's: want ok false")
	}
}

// TestPlain: plain constrained outputs of the Todo example fit the model,
// patterns included, and a seed gives the same values again, from New and
// from NewLight with a Patterns cache.
func TestPlain(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "..", "examples", "todo"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.todo#Todos")
	if err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`^[0-9a-f-]{36}$`)
	var patterns Patterns
	for _, op := range svc.Operations {
		for seed := int64(0); seed < 40; seed++ {
			out := func() []byte {
				g := New(m, seed)
				if seed%2 == 1 { // the light source, the patterns cached
					g = NewLight(m, seed)
					g.Patterns = &patterns
				}
				g.Constrained, g.Plain = true, true
				v := g.Output(op)
				if g.Unsat {
					t.Errorf("%s seed %d: a pattern was not met", op.Name, seed)
				}
				if s, ok := v["id"].(string); ok && !id.MatchString(s) {
					t.Errorf("%s seed %d: id %q", op.Name, seed, s)
				}
				return respond.Encode(v)
			}
			a, b := out(), out()
			if string(a) != string(b) {
				t.Errorf("%s seed %d: %s then %s", op.Name, seed, a, b)
			}
			if err := protocol.CheckValue(m, op.Output.ID, a); op.Output.ID != model.UnitID && err != nil {
				t.Errorf("%s seed %d: %s: %v", op.Name, seed, a, err)
			}
		}
	}
}
