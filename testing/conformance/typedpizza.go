package conformance

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/testing/servers/pizzaserver"
)

const pizzaService = "alloy.test#PizzaAdminService"

// typedPizza calls alloy's PizzaAdminService on the in-repo server, over
// real HTTP and libcurl, through its generated Go client: unions, floats,
// maps of structures and timestamps both ways, and modeled errors as their
// Go types.
func typedPizza(call TypedCall) Result {
	r := Result{Suite: "PizzaAdminService end to end (typed Go)"}
	ps := pizzaserver.New()
	ps.SetClock(func() time.Time { return time.Unix(1576540098, 0) })
	srv := httptest.NewServer(ps.Handler())
	defer srv.Close()
	opts := []client.Option{client.WithoutRetries(), client.WithTimeout(10 * time.Second)}
	margherita := `{"food": {"pizza": {"name": "margharita", "base": "T", "toppings": ["MUSHROOM", "TOMATO"]}}, "price": 9.0}`
	salad := `{"food": {"salad": {"name": "caesar", "ingredients": ["Salad", "CHEESE", "CHICKEN"]}}, "price": 7.5}`
	for _, c := range []struct {
		op, in, out      string
		errShape, errOut string
		status           int
	}{
		{op: "AddMenuItem", in: `{"restaurant": "uncle:mikes", "menuItem": ` + margherita + `}`, out: `{"itemId": "1", "added": "2019-12-16T23:48:18Z"}`},
		{op: "AddMenuItem", in: `{"restaurant": "uncle:mikes", "menuItem": ` + salad + `}`, out: `{"itemId": "2", "added": "2019-12-16T23:48:18Z"}`},
		{op: "GetMenu", in: `{"restaurant": "uncle:mikes"}`, out: `{"menu": {"1": ` + margherita + `, "2": ` + salad + `}}`},
		{op: "AddMenuItem", in: `{"restaurant": "bobs", "menuItem": {"food": {"salad": {"name": "air", "ingredients": []}}, "price": 0}}`,
			errShape: "alloy.test#PriceError", status: 400, errOut: `{"message": "Price must be greater than 0", "code": 400}`},
		{op: "GetMenu", in: `{"restaurant": "nowhere"}`, errShape: "alloy.test#NotFoundError", status: 404, errOut: `{"name": "nowhere"}`},
	} {
		id := c.op + " " + c.in
		err := guard(caseTimeout, func() error {
			out, err := call(context.Background(), pizzaService, c.op, srv.URL, opts, []byte(c.in))
			if c.errShape == "" {
				if err != nil {
					return err
				}
				if d := jsonDiff(out, []byte(c.out)); d != "" {
					return errors.New(d)
				}
				return nil
			}
			var me typed.ModeledError
			if !errors.As(err, &me) {
				return fmt.Errorf("want %s, got %v", c.errShape, err)
			}
			if string(me.Meta().Shape) != c.errShape || me.Meta().Status != c.status {
				return fmt.Errorf("error %s status %d, want %s status %d", me.Meta().Shape, me.Meta().Status, c.errShape, c.status)
			}
			members, err := typed.JSON.Marshal(me)
			if err != nil {
				return err
			}
			if d := jsonDiff(members, []byte(c.errOut)); d != "" {
				return fmt.Errorf("error members: %s", d)
			}
			return nil
		})
		if err != nil {
			r.fail(id, "%v", err)
			continue
		}
		r.Passed++
	}
	return r
}
