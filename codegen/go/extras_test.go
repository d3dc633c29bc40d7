package gogen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/codegen/go/internal/extras"
	"github.com/smithycurl/smithycurl/codegen/go/internal/ticker"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/testing/servers/extraserver"
)

func extrasClient(t *testing.T, opts ...client.Option) *extras.Client {
	t.Helper()
	srv := httptest.NewServer(extraserver.New().Handler())
	t.Cleanup(srv.Close)
	c, err := extras.New(srv.URL, append([]client.Option{client.WithWaiterDelays(10*time.Millisecond, 40*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestTypedWaiter: the generated WaitJobDone against the Extras server:
// success after retries (on the output and on a modeled error), a failure
// acceptor, maxWait running out, a cancelled context.
func TestTypedWaiter(t *testing.T) {
	c := extrasClient(t)
	ctx := context.Background()
	out, err := c.WaitJobDone(ctx, &extras.GetJobInput{ID: "done-3"}, 20*time.Second)
	if err != nil || out.Status == nil || *out.Status != "done" || *out.ID != "done-3" {
		t.Fatalf("done-3: %+v, %v", out, err)
	}
	if _, err := c.WaitJobDone(ctx, &extras.GetJobInput{ID: "missing-2"}, 20*time.Second); err != nil {
		t.Fatalf("missing-2: %v", err)
	}
	var ce *client.Error
	_, err = c.WaitJobDone(ctx, &extras.GetJobInput{ID: "failed"}, 20*time.Second)
	if !errors.As(err, &ce) || ce.Kind != client.KindWaiterFailure || !strings.Contains(err.Error(), "JobDone") {
		t.Errorf("failed: %v", err)
	}
	_, err = c.WaitJobDone(ctx, &extras.GetJobInput{ID: "never"}, 300*time.Millisecond)
	if !errors.As(err, &ce) || ce.Kind != client.KindWaiterTimeout {
		t.Errorf("never: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.WaitJobDone(cctx, &extras.GetJobInput{ID: "never"}, 20*time.Second); !errors.As(err, &ce) || ce.Kind != client.KindCancelled {
		t.Errorf("cancelled: %v", err)
	}
}

// TestErrorMessageWithoutMember: JobLocked models no message member; the
// message the service sends in the body is the error's message, from the
// generated client and the dynamic one (it used to be "JobLocked (HTTP 409)").
func TestErrorMessageWithoutMember(t *testing.T) {
	c := extrasClient(t)
	ctx := context.Background()
	const msg = "job locked is held by ann"
	_, err := c.GetJob(ctx, &extras.GetJobInput{ID: "locked"})
	var locked *extras.JobLocked
	if !errors.As(err, &locked) || locked.Message != msg || locked.Holder == nil || *locked.Holder != "ann" ||
		locked.Error() != "JobLocked (status 409): "+msg {
		t.Errorf("typed: %v (%+v)", err, locked)
	}

	srv := httptest.NewServer(extraserver.New().Handler())
	t.Cleanup(srv.Close)
	m, err := model.LoadPaths(ctx, filepath.Join("..", "..", "testing", "servers", "extraserver", "extras.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := client.New(m, "smithycurl.test.extras#Extras", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	_, err = dc.Call(ctx, "GetJob", []byte(`{"id":"locked"}`))
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Message() != msg || !strings.HasSuffix(err.Error(), ": "+msg) {
		t.Errorf("dynamic: %v", err)
	}
}

// TestTypedStreams: UploadStream reads an io.Reader (known and unknown
// size), DownloadStream writes to an io.Writer; without them the body is
// the member.
func TestTypedStreams(t *testing.T) {
	c := extrasClient(t)
	ctx := context.Background()
	body := bytes.Repeat([]byte("0123456"), 50000)
	var sum int64
	for _, b := range body {
		sum += int64(b)
	}
	for _, size := range []int64{int64(len(body)), -1} {
		// io.MultiReader is no io.Seeker: streamed, never re-sent.
		out, err := c.UploadStream(ctx, &extras.UploadInput{Name: "a"}, io.MultiReader(bytes.NewReader(body)), size)
		if err != nil || *out.Size != int64(len(body)) || *out.Sum != sum {
			t.Fatalf("size %d: %+v, %v", size, out, err)
		}
	}
	out, err := c.UploadStream(ctx, &extras.UploadInput{Name: "a", Body: []byte{1, 2, 3}}, nil, 0)
	if err != nil || *out.Size != 3 || *out.Sum != 6 {
		t.Fatalf("member body: %+v, %v", out, err)
	}
	var w bytes.Buffer
	dl, err := c.DownloadStream(ctx, &extras.DownloadInput{Name: "b", N: ptr(int64(200000))}, &w)
	if err != nil || w.Len() != 200000 || dl.Body != nil || *dl.Name != "b" {
		t.Fatalf("download: %d bytes, %+v, %v", w.Len(), dl, err)
	}
	for i, b := range w.Bytes() {
		if b != extraserver.Byte(int64(i)) {
			t.Fatalf("byte %d: %d", i, b)
		}
	}
	dl, err = c.DownloadStream(ctx, &extras.DownloadInput{Name: "b", N: ptr(int64(300))}, nil)
	if err != nil || len(dl.Body) != 300 {
		t.Fatalf("download to the member: %+v, %v", dl, err)
	}
}

// TestTypedPaginatorExtras: PaginateListItems with the trait's pageSize.
func TestTypedPaginatorExtras(t *testing.T) {
	c := extrasClient(t)
	var items []string
	for page, err := range c.PaginateListItems(context.Background(), &extras.ListItemsInput{Total: ptr(int32(7))}, client.WithPageSize(3)) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, page.Items...)
	}
	if fmt.Sprint(items) != "[item-0 item-1 item-2 item-3 item-4 item-5 item-6]" {
		t.Errorf("items %v", items)
	}
}

// TestTypedEventStream: TickEvents against the Ticker server: the typed
// initial output and events, a modeled exception event as its error type,
// an error message, an early Close.
func TestTypedEventStream(t *testing.T) {
	srv := httptest.NewServer(eventserver.Service{}.Handler())
	defer srv.Close()
	c, err := ticker.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	s, err := c.TickEvents(ctx, &ticker.TickInput{Count: 3, Fail: ptr("exception")})
	if err != nil {
		t.Fatal(err)
	}
	if s.Initial().Session == nil || *s.Initial().Session != "s-1" {
		t.Errorf("initial %+v", s.Initial())
	}
	n := 0
	var last error
	for ev, err := range s.Events() {
		if err != nil {
			last = err
			break
		}
		tick, ok := ev.(*ticker.TickStreamMemberTick)
		if !ok || *tick.Value.Seq != int32(n) || *tick.Value.Message != fmt.Sprintf("tick %d", n) ||
			!tick.Value.At.Equal(eventserver.Epoch.Add(time.Duration(n)*time.Second)) {
			t.Errorf("event %d: %#v", n, ev)
		}
		n++
	}
	s.Close()
	var tf *ticker.TooFast
	if n != 3 || !errors.As(last, &tf) || tf.Message == nil || *tf.Message != "slow down" {
		t.Errorf("%d events, then %v", n, last)
	}

	s, err = c.TickEvents(ctx, &ticker.TickInput{Count: 1, Fail: ptr("error")})
	if err != nil {
		t.Fatal(err)
	}
	last = nil
	for _, err := range s.Events() {
		last = err
	}
	var ce *client.Error
	if !errors.As(last, &ce) || ce.Kind != client.KindService || ce.Code != "internal-error" {
		t.Errorf("error message: %v", last)
	}
	s.Close()

	// The plain call refuses the event stream.
	if _, err := c.Tick(ctx, &ticker.TickInput{Count: 1}); !errors.As(err, &ce) || ce.Kind != client.KindUsage {
		t.Errorf("Tick: %v", err)
	}

	// An error response: from TickEvents, typed.
	var br *ticker.BadRequest
	if _, err := c.TickEvents(ctx, &ticker.TickInput{Count: 1, Fail: ptr("refuse")}); !errors.As(err, &br) {
		t.Errorf("refuse: %v", err)
	}

	// Close after one event of a slow stream ends it.
	s, err = c.TickEvents(ctx, &ticker.TickInput{Count: 100, IntervalMs: ptr(int32(50))})
	if err != nil {
		t.Fatal(err)
	}
	for ev, err := range s.Events() {
		if err != nil || ev == nil {
			t.Fatal(ev, err)
		}
		break
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

// TestExtrasUpToDate checks the checked-in extras and ticker packages
// against what gen go writes today.
func TestExtrasUpToDate(t *testing.T) {
	for _, c := range []struct{ pkg, model string }{
		{"extras", filepath.Join("..", "..", "testing", "servers", "extraserver", "extras.smithy")},
		{"ticker", filepath.Join("..", "..", "testing", "servers", "eventserver", "ticker.smithy")},
		{"slot", filepath.Join("..", "..", "testing", "servers", "slotserver", "slot.smithy")},
	} {
		m, err := model.LoadPaths(context.Background(), c.model)
		if err != nil {
			t.Fatal(err)
		}
		svc, err := m.Service(m.Services()[0])
		if err != nil {
			t.Fatal(err)
		}
		files, err := gogen.Generate(m, svc, c.pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			old, err := os.ReadFile(filepath.Join("internal", c.pkg, f.Name))
			if err != nil || !bytes.Equal(old, f.Data) {
				t.Errorf("internal/%s/%s is stale: go run ./cmd/smithycurl gen go --model %s --package %s -o codegen/go/internal/%s",
					c.pkg, f.Name, strings.TrimPrefix(filepath.ToSlash(c.model), "../../"), c.pkg, c.pkg)
			}
		}
	}
}
