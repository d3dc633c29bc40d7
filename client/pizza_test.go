package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/pizzaserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

const pizzaService = "alloy.test#PizzaAdminService"

// pizzaModel loads alloy's PizzaAdminService from the shared folder: alloy's
// own traits and shapes, the protocol tests' models, and smithy.test (which
// they use). Without the shared folder the test skips, and fails in CI.
func pizzaModel(t *testing.T) *model.Model {
	t.Helper()
	shared := shareddata.Path(t)
	alloy := filepath.Join(shared, "conformance", "disneystreaming-alloy", "modules")
	m, err := model.LoadPaths(context.Background(),
		filepath.Join(alloy, "core", "resources", "META-INF", "smithy"),
		filepath.Join(alloy, "protocol-tests", "resources", "META-INF", "smithy"),
		filepath.Join(shared, "conformance", "smithy-lang-smithy", "smithy-protocol-test-traits",
			"src", "main", "resources", "META-INF", "smithy", "smithy.test.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// pizzaCall calls op and checks that the output is the JSON want (compared
// as values); want "" skips the check. It returns the output.
func pizzaCall(t *testing.T, c *client.Client, op, input, want string) map[string]any {
	t.Helper()
	out, err := c.Call(context.Background(), op, []byte(input))
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: output %s: %v", op, out, err)
	}
	if want != "" {
		var w map[string]any
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatalf("bad want %s: %v", want, err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s(%s) = %s, want %s", op, input, out, want)
		}
	}
	return got
}

// pizzaErr calls op, expects a modeled service error, and checks its shape,
// status and members (JSON, compared as values).
func pizzaErr(t *testing.T, c *client.Client, op, input, shape string, status int, members string) *client.Error {
	t.Helper()
	_, err := c.Call(context.Background(), op, []byte(input))
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s(%s): err = %v, want a %s", op, input, err, shape)
	}
	if e.Kind != client.KindService || string(e.Shape) != shape || e.Status != status {
		t.Errorf("%s(%s): %s error %s status %d, want service error %s status %d: %v", op, input, e.Kind, e.Shape, e.Status, shape, status, err)
	}
	var got, want any
	if json.Unmarshal(e.Members, &got) != nil || json.Unmarshal([]byte(members), &want) != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%s(%s): members %s, want %s", op, input, e.Members, members)
	}
	return e
}

// TestPizzaAdminService calls every operation of alloy's PizzaAdminService
// on the in-repo server, over real HTTP, errors included.
func TestPizzaAdminService(t *testing.T) {
	m := pizzaModel(t)
	noLeaks(t)
	ps := pizzaserver.New()
	ps.SetClock(func() time.Time { return time.Unix(1576540098, 0) })
	srv := httptest.NewServer(ps.Handler())
	t.Cleanup(srv.Close)
	c, err := client.New(m, pizzaService, srv.URL, quickRetries)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// The constraint traits are checked only when asked.
	cv, err := client.New(m, pizzaService, srv.URL, quickRetries, client.WithValidation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cv.Close() })

	svc, _ := m.Service(pizzaService)
	called := map[string]bool{}
	for _, op := range svc.Operations {
		called[op.Name] = false
	}
	mark := func(ops ...string) {
		for _, op := range ops {
			if _, ok := called[op]; !ok {
				t.Fatalf("%s is not an operation of %s", op, pizzaService)
			}
			called[op] = true
		}
	}

	t.Run("menus", func(t *testing.T) {
		mark("AddMenuItem", "GetMenu")
		margherita := `{"food": {"pizza": {"name": "margharita", "base": "T", "toppings": ["MUSHROOM", "TOMATO"]}}, "price": 9.0}`
		pizzaCall(t, c, "AddMenuItem", `{"restaurant": "uncle:mikes", "menuItem": `+margherita+`}`,
			`{"itemId": "1", "added": "2019-12-16T23:48:18Z"}`)
		salad := `{"food": {"salad": {"name": "caesar", "ingredients": ["Salad", "CHEESE", "CHICKEN"]}}, "price": 7.5}`
		pizzaCall(t, c, "AddMenuItem", `{"restaurant": "uncle:mikes", "menuItem": `+salad+`}`,
			`{"itemId": "2", "added": "2019-12-16T23:48:18Z"}`)
		pizzaCall(t, c, "GetMenu", `{"restaurant": "uncle:mikes"}`,
			`{"menu": {"1": `+margherita+`, "2": `+salad+`}}`)

		e := pizzaErr(t, c, "AddMenuItem", `{"restaurant": "bobs", "menuItem": {"food": {"salad": {"name": "air", "ingredients": []}}, "price": 0}}`,
			"alloy.test#PriceError", 400, `{"message": "Price must be greater than 0", "code": 400}`)
		if e.Message() != "Price must be greater than 0" || e.Attempts != 1 {
			t.Errorf("PriceError: message %q, attempts %d", e.Message(), e.Attempts)
		}
		pizzaErr(t, c, "GetMenu", `{"restaurant": "nowhere"}`, "alloy.test#NotFoundError", 404, `{"name": "nowhere"}`)
		pizzaErr(t, c, "GetMenu", `{"restaurant": "fallback"}`, "alloy.test#FallbackError", 400, `{"error": "no menu, try the place next door"}`)
		// A service-level error, on a non-idempotent operation: sent once.
		e = pizzaErr(t, c, "AddMenuItem", `{"restaurant": "boom", "menuItem": `+margherita+`}`,
			"alloy.test#GenericServerError", 502, `{"message": "the oven exploded"}`)
		if e.Attempts != 1 {
			t.Errorf("GenericServerError on AddMenuItem sent %d times, want 1", e.Attempts)
		}
		// A @required member missing is refused before sending, even
		// without validation (which turns off only the constraint traits).
		raw, err := client.New(m, pizzaService, srv.URL, client.WithoutValidation(), client.WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for _, cl := range []*client.Client{raw, c, cv} {
			_, err = cl.Call(context.Background(), "AddMenuItem", []byte(`{"restaurant": "bobs", "menuItem": {"food": {"pizza": {"name": "x", "base": "T"}}, "price": 1}}`))
			if e := wantErr(t, err, client.KindValidation, 0, -1); !strings.Contains(e.Error(), "menuItem.food.pizza.toppings: is required") {
				t.Errorf("missing toppings: %v", e)
			}
		}
	})

	t.Run("version and health", func(t *testing.T) {
		mark("Version", "Health")
		pizzaCall(t, c, "Version", ``, `{"version": "1.0.0"}`)
		pizzaCall(t, c, "Health", `{"query": "hello"}`, `{"status": "ok"}`)
		pizzaCall(t, c, "Health", `{}`, `{"status": "ok"}`)
		// @readonly with a 500: retried, then the modeled error.
		e := pizzaErr(t, c, "Health", `{"query": "fail"}`, "alloy.test#UnknownServerError", 500,
			`{"errorCode": "server.error", "description": "health check failed", "stateHash": "abc123"}`)
		if e.Attempts != 3 {
			t.Errorf("UnknownServerError on @readonly Health sent %d times, want 3", e.Attempts)
		}
		// @length is not enforced by default: the server has the last word.
		pizzaErr(t, c, "Health", `{"query": "too long"}`, "alloy.test#GenericClientError", 418, `{"message": "query longer than 5"}`)
		_, err := cv.Call(context.Background(), "Health", []byte(`{"query": "too long"}`))
		if e := wantErr(t, err, client.KindValidation, 0, -1); !strings.Contains(e.Error(), "query: length 8 is above the maximum 5") {
			t.Errorf("with validation: %v", e)
		}
	})

	t.Run("bindings", func(t *testing.T) {
		mark("HeaderEndpoint", "RoundTrip")
		headers := `{"uppercaseHeader": "UPPERCASE_VALUE", "capitalizedHeader": "Capitalized_value", "lowercaseHeader": "lowercase_value", "mixedHeader": "aLLMiXedUP"}`
		pizzaCall(t, c, "HeaderEndpoint", headers, headers)
		pizzaCall(t, c, "RoundTrip", `{"label": "the label/ü", "header": "the header", "query": "the query&x=1", "body": "the body"}`,
			`{"label": "the label/ü", "header": "the header", "query": "the query&x=1", "body": "the body"}`)
		pizzaCall(t, c, "RoundTrip", `{"label": "only"}`, `{"label": "only"}`)
	})

	t.Run("enums and codes", func(t *testing.T) {
		mark("GetEnum", "GetIntEnum", "CustomCode")
		pizzaCall(t, c, "GetEnum", `{"aa": "v2"}`, `{"result": "v2"}`)
		pizzaCall(t, c, "GetIntEnum", `{"aa": 1}`, `{"result": 1}`)
		// An enum value newer than the model goes out by default.
		pizzaErr(t, c, "GetEnum", `{"aa": "v3"}`, "alloy.test#GenericClientError", 418, `{"message": "TheEnum has no value \"v3\""}`)
		_, err := cv.Call(context.Background(), "GetEnum", []byte(`{"aa": "v3"}`))
		wantErr(t, err, client.KindValidation, 0, -1)
		for _, code := range []string{"200", "201", "299"} {
			pizzaCall(t, c, "CustomCode", `{"code": `+code+`}`, `{"code": `+code+`}`)
		}
		// Status codes the server refuses come back as the service's client error.
		pizzaErr(t, c, "CustomCode", `{"code": 600}`, "alloy.test#GenericClientError", 418, `{"message": "code \"600\": want 200 to 399"}`)
	})

	t.Run("payloads", func(t *testing.T) {
		mark("HttpPayloadWithDefault", "HttpPayloadRequiredWithDefault", "OpenUnions", "Primitives", "PreserveOrder")
		pizzaCall(t, c, "HttpPayloadWithDefault", `{"body": "custom value"}`, `{"body": "custom value"}`)
		pizzaCall(t, c, "HttpPayloadWithDefault", `{}`, `{"body": "default value"}`)
		pizzaCall(t, c, "HttpPayloadRequiredWithDefault", `{"body": "custom value"}`, `{"body": "custom value"}`)
		pizzaCall(t, c, "HttpPayloadRequiredWithDefault", `{}`, `{"body": "default value"}`)

		for _, u := range []string{
			`{"data": {"tagged": {"str": "string value"}}}`,
			`{"data": {"tagged": {"other": {"whatisthis": {"nested": "something different"}}}}}`,
			`{"data": {"discriminated": {"smol": {"content": "some string"}}}}`,
			`{"data": {"discriminated": {"other": {"key": "mysterious_and_important", "extras": 42}}}}`,
		} {
			pizzaCall(t, c, "OpenUnions", u, u)
		}

		prims := `{"uuid": "51216269-c0c8-454a-871e-329513e54e23", "localDate": "2025-08-15", "localTime": "13:26:51.123456789", "duration": 86400.000000001, "offsetDateTime": "2025-08-15T20:26:51Z"}`
		out, err := c.Call(context.Background(), "Primitives", []byte(prims))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "86400.000000001") || !strings.Contains(string(out), `"2025-08-15T20:26:51Z"`) {
			t.Errorf("Primitives = %s", out)
		}

		ordered := `{"map": {"z": 1, "a": 2, "m": 3}, "document": {"zz": [1, 2], "aa": null, "mm": {"b": 1, "a": 2}}}`
		out, err = c.Call(context.Background(), "PreserveOrder", []byte(ordered))
		if err != nil {
			t.Fatal(err)
		}
		if compact(t, out) != compact(t, []byte(ordered)) {
			t.Errorf("PreserveOrder = %s, want the keys in order: %s", out, ordered)
		}
	})

	for op, ok := range called {
		if !ok {
			t.Errorf("operation %s of %s is not tested", op, pizzaService)
		}
	}
}

// compact removes the whitespace of a JSON text, keeping its key order.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return buf.String()
}
