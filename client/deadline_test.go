package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/identity"
)

// TestDeadlineEachPhase: a call's deadline that passes in any phase (before
// the request is sent, while the credentials are retrieved, waiting for
// the engine's transfer slot, during the transfer; the caller's deadline
// or the client's timeout counted from QueuedSince, as the C API's
// asynchronous calls use it) fails the call KindTimeout with one message
// saying which time ran out, never Go's raw "context deadline exceeded".
func TestDeadlineEachPhase(t *testing.T) {
	release := make(chan struct{})
	started, hang := hangGets(release)
	todos := todoClient(t, hang, client.WithEngine(), client.WithEngineLimits(1, 0), client.WithoutRetries(), client.WithTimeout(20*time.Second))
	defer close(release)
	get := []byte(`{"id": "x"}`)

	// Credentials whose provider waits as long as its ctx lets it.
	hs := httptest.NewServer(http.NotFoundHandler())
	defer hs.Close()
	slow := identity.ProviderFunc[identity.AWS](func(ctx context.Context) (identity.AWS, error) {
		<-ctx.Done()
		return identity.AWS{}, ctx.Err()
	})
	signed, err := client.New(loadIDL(t, secretsModel), "t#S", hs.URL, client.WithAWSCredentialsProvider(slow),
		client.WithRegion("eu-west-1"), client.WithoutRetries(), client.WithTimeout(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer signed.Close()

	const callers = "(the caller's deadline)"
	check := func(phase, which string, err error) {
		t.Helper()
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindTimeout {
			t.Errorf("%s: %v, want a KindTimeout *client.Error", phase, err)
			return
		}
		msg := e.Message()
		t.Logf("%s: %s", phase, msg)
		if !strings.HasPrefix(msg, "timed out after ") || !strings.Contains(msg, which) || strings.Contains(msg, "context deadline exceeded") {
			t.Errorf("%s: message %q, want \"timed out after … %s\"", phase, msg, which)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v is not context.DeadlineExceeded", phase, err)
		}
	}
	withDeadline := func(d time.Duration) (context.Context, context.CancelFunc) {
		return context.WithDeadline(context.Background(), time.Now().Add(d))
	}

	ctx, cancel := withDeadline(-time.Second)
	_, err = todos.Call(ctx, "GetTodo", get)
	cancel()
	check("before sending", callers, err)

	ctx, cancel = withDeadline(200 * time.Millisecond)
	_, err = signed.Call(ctx, "Sig", []byte(`{}`))
	cancel()
	check("credentials, the caller's deadline", callers, err)

	_, err = signed.Call(context.Background(), "Sig", []byte(`{}`), client.QueuedSince(time.Now()))
	check("credentials, the client's timeout", "(the call's timeout, 300ms)", err)

	// The only transfer slot held: the next call waits for it.
	held := make(chan error, 1)
	hctx, hcancel := context.WithCancel(context.Background())
	defer hcancel()
	go func() {
		_, err := todos.Call(hctx, "GetTodo", get)
		held <- err
	}()
	for end := time.Now().Add(10 * time.Second); started.Load() < 1 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if started.Load() < 1 {
		t.Fatal("the first call never reached the server")
	}
	ctx, cancel = withDeadline(200 * time.Millisecond)
	_, err = todos.Call(ctx, "GetTodo", get)
	cancel()
	check("waiting for a transfer slot", callers, err)
	hcancel()
	<-held

	// In the transfer: the server never answers in time.
	ctx, cancel = withDeadline(200 * time.Millisecond)
	_, err = todos.Call(ctx, "GetTodo", get)
	cancel()
	check("in the transfer", callers, err)
}
