package typed_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
)

func init() { benchserver.ServeIfChild() }

// The echo workload's input and output as smithycurl gen go writes them
// (client/testdata/bench.smithy).
type (
	createOrderInput struct {
		Name      *string   `json:"name,omitempty"`
		Size      *int32    `json:"size,omitempty"`
		Crust     *string   `json:"crust,omitempty"`
		Toppings  []string  `json:"toppings,omitempty"`
		Notes     *string   `json:"notes,omitempty"`
		Customer  *customer `json:"customer,omitempty"`
		RequestID *string   `json:"requestId,omitempty"`
	}
	customer struct {
		ID   *string `json:"id,omitempty"`
		Tier *string `json:"tier,omitempty"`
	}
	createOrderOutput struct {
		ID       *string  `json:"id,omitempty"`
		Name     *string  `json:"name,omitempty"`
		Size     *int32   `json:"size,omitempty"`
		Toppings []string `json:"toppings,omitempty"`
		Price    *float32 `json:"price,omitempty"`
	}
)

func ptr[T any](v T) *T { return &v }

// typedEcho is a typed call (typed.Invoke, as generated clients make it)
// of the echo workload, the server in a child process.
func typedEcho(tb testing.TB) func() {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "testdata", "bench.smithy"))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.test.bench#Bench", benchserver.Start(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	in := &createOrderInput{Name: ptr("margherita"), Size: ptr[int32](12), Crust: ptr("thin"),
		Toppings: []string{"basil", "mozzarella", "tomato"}, Notes: ptr("extra basil please, and cut in eight slices"),
		Customer: &customer{ID: ptr("c-0042"), Tier: ptr("gold")}, RequestID: ptr("7f9c2ba4e88f827d")}
	ctx := context.Background()
	return func() {
		out := new(createOrderOutput)
		if err := typed.Invoke(ctx, c, "CreateOrder", in, out, nil); err != nil {
			tb.Fatal(err)
		}
		if out.ID == nil || *out.ID != "a1b2c3d4" || len(out.Toppings) != 3 {
			tb.Fatalf("output %+v", out)
		}
	}
}

// maxTypedAllocs bounds a typed call's allocations in the steady state:
// client.Call's (client's maxCallAllocs), the input's JSON and the output
// struct with its values (32). Before the client's pool it made 55.
const maxTypedAllocs = 34

// TestTypedSteadyAllocs: a steady stream of like typed calls allocates
// little.
func TestTypedSteadyAllocs(t *testing.T) {
	benchserver.CheckSteadyAllocs(t, "a typed call", maxTypedAllocs, typedEcho(t))
}

// BenchmarkTypedEcho is a typed call on the echo workload.
func BenchmarkTypedEcho(b *testing.B) { benchserver.BenchCalls(b, typedEcho(b)) }
