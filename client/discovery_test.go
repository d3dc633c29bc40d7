package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/timestreamserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// discoveryClient is a client of service id of the model at path whose
// configured endpoint (AWS_ENDPOINT_URL, not one given to New) is the
// fake's regional one, with env's other variables.
func discoveryClient(t *testing.T, m *model.Model, id model.ShapeID, srv *timestreamserver.Server, env map[string]string, opts ...client.Option) *client.Client {
	t.Helper()
	vars := map[string]string{"AWS_ENDPOINT_URL": srv.URL, "AWS_REGION": "us-east-1"}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := awsconfig.Load(awsconfig.Env{Home: t.TempDir(), Lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]client.Option{client.WithAWSConfig(cfg),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDDISCOVERY", SecretAccessKey: "secret"})}, opts...)
	c, err := client.New(m, id, "", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func startTimestream(t *testing.T) *timestreamserver.Server {
	t.Helper()
	srv, err := timestreamserver.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

func callOK(t *testing.T, c *client.Client, op, in string) string {
	t.Helper()
	out, err := c.Call(context.Background(), op, []byte(in))
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return string(out)
}

func wantStats(t *testing.T, srv *timestreamserver.Server, describes, cell int) {
	t.Helper()
	if got := srv.Stats(); got.Describes != describes || got.Cell != cell {
		t.Errorf("DescribeEndpoints %d, cell calls %d; want %d and %d", got.Describes, got.Cell, describes, cell)
	}
}

// TestEndpointDiscoveryTimestream: Timestream Write's operations, which
// require discovery, go to the cell DescribeEndpoints names (the regional
// endpoint refuses them), cached for CachePeriodInMinutes, discovered
// again when it is over and after InvalidEndpointException; an endpoint
// given to New turns discovery off, and turning it off fails them.
func TestEndpointDiscoveryTimestream(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "aws-models", "timestream-write.json"))
	if err != nil {
		t.Fatal(err)
	}
	const id = "com.amazonaws.timestreamwrite#Timestream_20181101"
	srv := startTimestream(t)

	srv.Set(10, 0) // the cache is honoured
	c := discoveryClient(t, m, id, srv, nil)
	if out := callOK(t, c, "ListDatabases", "{}"); !strings.Contains(out, "cell-db") {
		t.Errorf("ListDatabases = %s", out)
	}
	callOK(t, c, "DescribeDatabase", `{"DatabaseName":"d"}`)
	wantStats(t, srv, 1, 2)

	srv.Set(10, 1) // InvalidEndpointException: discovered again, sent again
	if out := callOK(t, c, "DescribeDatabase", `{"DatabaseName":"d"}`); !strings.Contains(out, `"DatabaseName":"d"`) {
		t.Errorf("DescribeDatabase = %s", out)
	}
	wantStats(t, srv, 1, 1)

	srv.Set(0, 0) // CachePeriodInMinutes 0: every call discovers again
	c = discoveryClient(t, m, id, srv, nil)
	callOK(t, c, "ListDatabases", "{}")
	callOK(t, c, "ListDatabases", "{}")
	wantStats(t, srv, 2, 2)

	// An endpoint given to New: no discovery, the regional endpoint answers.
	srv.Set(10, 0)
	direct, err := client.New(m, id, srv.URL, client.WithRegion("us-east-1"), client.WithoutRetries(),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKIDDISCOVERY", SecretAccessKey: "secret"}))
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	_, err = direct.Call(context.Background(), "ListDatabases", nil)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Kind != client.KindService || ce.Status != 421 {
		t.Errorf("with an explicit endpoint: %v, want the regional endpoint's 421", err)
	}
	wantStats(t, srv, 0, 0)

	// Turned off (the environment): an operation that requires it fails.
	off := discoveryClient(t, m, id, srv, map[string]string{"AWS_ENABLE_ENDPOINT_DISCOVERY": "false"})
	_, err = off.Call(context.Background(), "ListDatabases", nil)
	if !errors.As(err, &ce) || ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "requires endpoint discovery, which is turned off") {
		t.Errorf("discovery off: %v", err)
	}
	wantStats(t, srv, 0, 0)
}

// TestEndpointDiscoveryTimestreamQuery: Timestream Query's Query through
// its discovered cell.
func TestEndpointDiscoveryTimestreamQuery(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), shareddata.Path(t, "aws-models", "timestream-query.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := startTimestream(t)
	c := discoveryClient(t, m, "com.amazonaws.timestreamquery#Timestream_20181101", srv, nil)
	if out := callOK(t, c, "Query", `{"QueryString":"SELECT 1"}`); !strings.Contains(out, `"QueryId":"q-1"`) {
		t.Errorf("Query = %s", out)
	}
	wantStats(t, srv, 1, 1)
}

const optionalDiscoveryModel = `$version: "2"
namespace fake.ts
use aws.api#clientDiscoveredEndpoint
use aws.api#clientEndpointDiscoveryId

@aws.protocols#awsJson1_0
@aws.api#service(sdkId: "Fake TS")
@aws.api#clientEndpointDiscovery(operation: DescribeEndpoints, error: InvalidEndpointException)
service Timestream_20181101 { version: "1", operations: [DescribeEndpoints, DescribeDatabase] }

operation DescribeEndpoints {
    input := { Operation: String, Identifiers: Ids }
    output := { @required Endpoints: Endpoints }
}
map Ids { key: String, value: String }
list Endpoints { member: Endpoint }
structure Endpoint {
    @required
    Address: String
    @required
    CachePeriodInMinutes: Long = 0
}

@clientDiscoveredEndpoint(required: false)
operation DescribeDatabase {
    input := { @clientEndpointDiscoveryId DatabaseName: String }
    output := { Database: Database }
    errors: [InvalidEndpointException]
}
structure Database { DatabaseName: String }

@error("client") @httpError(421)
structure InvalidEndpointException { message: String }
`

// TestEndpointDiscoveryOptional: an operation that supports discovery
// without requiring it discovers only when it is turned on (the option,
// or the environment), keyed by its discovery ids too.
func TestEndpointDiscoveryOptional(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("ts.smithy", []byte(optionalDiscoveryModel))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const id = "fake.ts#Timestream_20181101"
	srv := startTimestream(t)
	ctx := context.Background()

	auto := discoveryClient(t, m, id, srv, nil, client.WithoutRetries())
	_, err = auto.Call(ctx, "DescribeDatabase", []byte(`{"DatabaseName":"a"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Shape != "fake.ts#InvalidEndpointException" {
		t.Errorf("auto: %v, want the regional endpoint's InvalidEndpointException", err)
	}
	wantStats(t, srv, 0, 0)

	for _, c := range []*client.Client{
		discoveryClient(t, m, id, srv, nil, client.WithEndpointDiscovery(client.EndpointDiscoveryEnabled)),
		discoveryClient(t, m, id, srv, map[string]string{"AWS_ENABLE_ENDPOINT_DISCOVERY": "TRUE"}),
	} {
		srv.Set(10, 0)
		callOK(t, c, "DescribeDatabase", `{"DatabaseName":"a"}`)
		callOK(t, c, "DescribeDatabase", `{"DatabaseName":"b"}`) // another id: another key
		callOK(t, c, "DescribeDatabase", `{"DatabaseName":"a"}`)
		wantStats(t, srv, 2, 3)
	}

	if _, err := client.New(m, id, "http://127.0.0.1:1", client.WithEndpointDiscovery("sometimes")); err == nil || !strings.Contains(err.Error(), `endpoint discovery "sometimes"`) {
		t.Errorf("a bad mode: %v", err)
	}
}
