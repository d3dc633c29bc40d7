package credentials

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// ignoredTraits are not part of the wire: documentation, and the endpoint
// rules the providers replace with their fixed endpoints.
func ignoredTrait(id model.ShapeID) bool {
	switch id {
	case model.TraitDocumentation, "smithy.api#examples", "smithy.rules#endpointRuleSet", "smithy.rules#endpointTests",
		"smithy.rules#contextParam", "smithy.rules#staticContextParams", "smithy.rules#clientContextParams":
		return true
	}
	return false
}

func traitsText(ts model.Traits) string {
	var out []string
	for _, t := range ts {
		if !ignoredTrait(t.ID) {
			out = append(out, string(t.ID)+"="+t.Value.JSON())
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// shapeText describes a shape as the wire sees it: its type, traits and
// members (name, target, traits), errors and input/output for operations.
func shapeText(s *model.Shape) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s [%s]", s.Type, s.ID, traitsText(s.Traits))
	for _, m := range s.Members {
		fmt.Fprintf(&b, "\n  %s: %s [%s]", m.Name(), m.Target, traitsText(m.Traits))
	}
	if s.Type == model.OperationType {
		fmt.Fprintf(&b, "\n  input %s output %s errors %v", s.Input, s.Output, s.Errors)
	}
	return b.String()
}

// TestModelsMatchAWS checks the embedded models against the AWS models of
// the shared data: every shape each operation reaches is the same.
func TestModelsMatchAWS(t *testing.T) {
	cases := []struct {
		svc  *awsService
		file string
		ops  []string
	}{
		{stsService, "sts.json", []string{"AssumeRole", "AssumeRoleWithWebIdentity", "GetCallerIdentity"}},
		{ssoService, "sso.json", []string{"GetRoleCredentials"}},
		{oidcService, "sso-oidc.json", []string{"CreateToken"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if err := c.svc.load(); err != nil {
				t.Fatal(err)
			}
			orig, err := model.LoadPaths(context.Background(), shareddata.Path(t, "aws-models", c.file))
			if err != nil {
				t.Fatal(err)
			}
			mine, err := model.LoadPaths(context.Background(), "models/"+strings.TrimSuffix(c.file, ".json")+".smithy")
			if err != nil {
				t.Fatal(err)
			}
			origSvc, err := orig.Service(model.ShapeID(c.svc.id))
			if err != nil {
				t.Fatal(err)
			}
			if got, want := traitsText(c.svc.svc.Shape.Traits), traitsText(origSvc.Shape.Traits); got != want {
				t.Errorf("service traits:\n got %s\nwant %s", got, want)
			}
			if got, want := c.svc.svc.Shape.Version, origSvc.Shape.Version; got != want {
				t.Errorf("version %s, want %s", got, want)
			}
			if sdk, _ := c.svc.svc.Shape.Traits.Get("aws.api#service"); func() string { v, _ := sdk.Get("sdkId"); return v.Str() }() != c.svc.sdkID {
				t.Errorf("sdkId is not %q", c.svc.sdkID)
			}
			var names []string
			for _, o := range c.svc.svc.Operations {
				names = append(names, o.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.ops, ",") {
				t.Errorf("operations %v, want %v", names, c.ops)
			}
			seen := map[model.ShapeID]bool{}
			var walk func(id model.ShapeID)
			walk = func(id model.ShapeID) {
				if seen[id] || strings.HasPrefix(string(id), "smithy.api#") {
					return
				}
				seen[id] = true
				o, ok := orig.Shape(id)
				if !ok {
					t.Errorf("%s is not in the AWS model", id)
					return
				}
				m, ok := mine.Shape(id)
				if !ok {
					t.Errorf("%s is missing", id)
					return
				}
				if got, want := shapeText(m), shapeText(o); got != want {
					t.Errorf("shape differs:\n got %s\nwant %s", got, want)
				}
				for _, mem := range o.Members {
					walk(mem.Target)
				}
				for _, next := range append([]model.ShapeID{o.Input, o.Output}, o.Errors...) {
					if next != "" {
						walk(next)
					}
				}
			}
			for _, op := range c.ops {
				walk(model.ShapeID(strings.Split(c.svc.id, "#")[0] + "#" + op))
			}
			if n := len(mine.ShapesOfType(model.OperationType)); n != len(c.ops) {
				t.Errorf("%d operations in the file", n)
			}
		})
	}
}
