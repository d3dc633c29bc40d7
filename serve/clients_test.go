package serve_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/internal/valuegen"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestEveryModeledError: the client against one mock per service (Start)
// whose fixtures give each modeled error of each operation for an input
// of its own, and random outputs otherwise: the Todo example, the
// key-value service, PizzaAdminService and DynamoDB (awsJson1_0, signed).
// Each error decodes as its shape with its status.
func TestEveryModeledError(t *testing.T) {
	cases := projectModels(t)
	cases = append(cases, projectModel{[]string{filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")},
		[]model.ShapeID{"com.amazonaws.dynamodb#DynamoDB_20120810"}})
	for _, tc := range cases {
		m, err := model.LoadPaths(context.Background(), tc.paths...)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range tc.services {
			t.Run(id.Name(), func(t *testing.T) { everyModeledError(t, m, id) })
		}
	}
}

// projectModel is a model of the project's own services and their ids.
type projectModel struct {
	paths    []string
	services []model.ShapeID
}

// projectModels are the Todo example, the key-value store in both RPC v2
// protocols and alloy's PizzaAdminService.
func projectModels(t *testing.T) []projectModel {
	shared := shareddata.Path(t)
	alloy := filepath.Join(shared, "conformance", "disneystreaming-alloy", "modules")
	return []projectModel{
		{[]string{filepath.Join("..", "examples", "todo")}, []model.ShapeID{"smithycurl.examples.todo#Todos"}},
		{[]string{filepath.Join("..", "testing", "servers", "kvserver", "kv.smithy")}, []model.ShapeID{"smithycurl.kv#KVCbor", "smithycurl.kv#KVJson"}},
		{[]string{filepath.Join(alloy, "core", "resources", "META-INF", "smithy"), filepath.Join(alloy, "protocol-tests", "resources", "META-INF", "smithy"),
			filepath.Join(shared, "conformance", "smithy-lang-smithy", "smithy-protocol-test-traits", "src", "main", "resources", "META-INF", "smithy", "smithy.test.smithy")},
			[]model.ShapeID{"alloy.test#PizzaAdminService"}},
	}
}

// errorCase is a modeled error a fixture gives for input.
type errorCase struct {
	op    *model.Operation
	shape *model.Shape
	input []byte
}

func everyModeledError(t *testing.T, m *model.Model, id model.ShapeID) {
	ctx := context.Background()
	svc, err := m.Service(id)
	if err != nil {
		t.Fatal(err)
	}
	gen := func(seed int64) *valuegen.Gen {
		g := valuegen.New(m, seed)
		g.Constrained, g.Plain = true, true
		if _, rest := respond.For(svc).(respond.Rest); rest {
			g.Locate = respond.LocateHTTP
		}
		return g
	}
	// Per error an input of its own, matched on its top-level scalars (an
	// empty match would meet every request), which no earlier entry of the
	// operation's matches (the first match answers).
	fixtures := map[string][]map[string]any{}
	var cases []errorCase
	seed, skipped := int64(1), 0
	for _, op := range svc.Operations {
		var earlier []map[string]any
		for _, e := range op.Errors {
			var in, match map[string]any
			for range 50 {
				seed++
				in = gen(seed).Input(op)
				if sc := scalars(in); len(sc) > 0 && !slices.ContainsFunc(earlier, func(m map[string]any) bool { return meets(sc, m) }) {
					match = sc
					break
				}
			}
			if match == nil {
				skipped++ // no input scalar to tell the requests apart
				continue
			}
			fixtures[op.Name] = append(fixtures[op.Name], map[string]any{
				"match": json.RawMessage(respond.Encode(match)), "error": string(e.ID),
				"members": json.RawMessage(respond.Encode(gen(seed).Error(e)))})
			cases = append(cases, errorCase{op, e, respond.Encode(in)})
			earlier = append(earlier, match)
		}
	}
	doc, err := json.Marshal(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	mock, err := serve.Start(m, svc, serve.WithFixtures(doc), serve.WithSeed(5))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := mock.Stop(); err != nil {
			t.Error(err)
		}
	}()
	c, err := client.New(m, id, mock.URL, client.WithoutRetries(), client.WithoutValidation(),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "secret", Region: "us-east-1"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range cases {
		_, err := c.Call(ctx, tc.op.Name, tc.input)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.Shape != tc.shape.ID || !ce.Modeled() {
			t.Errorf("%s %s: want %s, got %v", tc.op.Name, tc.input, tc.shape.ID, err)
		}
	}
	// Every operation answers an input no fixture matches.
	for _, op := range svc.Operations {
		if _, err := c.Call(ctx, op.Name, respond.Encode(gen(-1).Input(op))); err != nil {
			var ce *client.Error
			if !errors.As(err, &ce) || !ce.Modeled() { // a fixture's match met by chance is a modeled error
				t.Errorf("%s: %v", op.Name, err)
			}
		}
	}
	t.Logf("%d operations, %d modeled errors (%d left out: no input of their own)", len(svc.Operations), len(cases), skipped)
}

// scalars are the top-level strings, numbers and booleans of an input,
// but timestamps (a string the server reads as a time: not matched as one).
func scalars(in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch v := v.(type) {
		case string:
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				out[k] = v
			}
		case bool, float64, int64, int, json.Number:
			out[k] = v
		}
	}
	return out
}

// meets reports whether in has every member of match, equal.
func meets(in, match map[string]any) bool {
	for k, v := range match {
		w, ok := in[k]
		if !ok || string(respond.Encode(v)) != string(respond.Encode(w)) {
			return false
		}
	}
	return true
}
