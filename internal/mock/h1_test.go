package mock_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/internal/mock"
	"github.com/smithycurl/smithycurl/model"
)

// The HTTP/1.1 server of Start against Go's net/http client and raw
// connections (what libcurl sends is in serve's and the C and Python
// tests): the edge cases of RFC 9112 a client meets.

const shopRest = "smithycurl.serve.shop#ShopRest"

// names records the names of the PutItem requests the server read.
type names struct {
	mu  sync.Mutex
	got []string
}

func (n *names) Answer(_ context.Context, op *model.Operation, input []byte) (*mock.Answer, error) {
	if op.Name != "PutItem" {
		return nil, nil
	}
	var in struct{ Name string }
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	n.mu.Lock()
	n.got = append(n.got, in.Name)
	n.mu.Unlock()
	return &mock.Answer{Output: map[string]any{"id": "i-" + in.Name, "created": "2026-12-02T00:00:00Z"}}, nil
}

func (n *names) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.got...)
}

// start serves ShopRest (restJson1) with a names answerer.
func start(t *testing.T, opts ...mock.Option) (*mock.Running, *names) {
	t.Helper()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "..", "serve", "testdata", "shop.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service(shopRest)
	if err != nil {
		t.Fatal(err)
	}
	n := &names{}
	r, err := mock.Start(m, svc, append([]mock.Option{mock.WithAnswerer(n)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Stop() })
	return r, n
}

// dial opens a raw connection to r, its reads bounded in time.
func dial(t *testing.T, r *mock.Running) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(r.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(20 * time.Second))
	return c, bufio.NewReader(c)
}

// readResponse reads one response off br, its body whole.
func readResponse(t *testing.T, br *bufio.Reader, method string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

const putPen = `{"name":"pen"}`

// TestH1ChunkedBody: a chunked body (chunk extensions, a trailer) from
// net/http's client and from a raw connection is read whole.
func TestH1ChunkedBody(t *testing.T) {
	r, n := start(t)
	pr, pw := io.Pipe()
	go func() {
		for _, part := range []string{`{"na`, `me":"pe`, `ncil"}`} {
			pw.Write([]byte(part))
		}
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", r.URL+"/items", pr) // unknown length: chunked
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"i-pencil"`) {
		t.Fatalf("chunked PutItem = %s %s", resp.Status, body)
	}
	c, br := dial(t, r)
	fmt.Fprintf(c, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"+
		"5;ext=1\r\n{\"nam\r\n9\r\ne\":\"pen\"}\r\n0\r\nX-Trailer: t\r\n\r\n")
	if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 200 || !strings.Contains(body, `"i-pen"`) {
		t.Fatalf("raw chunked PutItem = %s %s", resp.Status, body)
	}
	if got := n.list(); len(got) != 2 || got[0] != "pencil" || got[1] != "pen" {
		t.Fatalf("names read = %q", got)
	}
}

// TestH1ExpectContinue: a client that waits for 100 Continue gets it and
// sends its body; one whose declared body is over the bound gets 413
// without a 100, and no byte of its body is needed.
func TestH1ExpectContinue(t *testing.T) {
	r, n := start(t, mock.WithMaxBody(64))
	tr := &http.Transport{ExpectContinueTimeout: time.Minute} // without the 100 the request would hang
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest("POST", r.URL+"/items", strings.NewReader(putPen))
	req.Header.Set("Expect", "100-continue")
	req.Header.Set("Content-Type", "application/json")
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"i-pen"`) {
		t.Fatalf("PutItem with Expect = %s %s", resp.Status, body)
	}

	c, br := dial(t, r)
	fmt.Fprintf(c, "POST /items HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
	resp, body2 := readResponse(t, br, "POST")
	if resp.StatusCode != 413 || !resp.Close {
		t.Fatalf("over the bound with Expect = %s (close %v) %s", resp.Status, resp.Close, body2)
	}
	if got := n.list(); len(got) != 1 {
		t.Fatalf("names read = %q", got)
	}

	// Without Expect the raw body over the bound is 413 too, chunked.
	c, br = dial(t, r)
	fmt.Fprintf(c, "POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n%s\r\n0\r\n\r\n", strings.Repeat("x", 80))
	if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 413 {
		t.Fatalf("chunked over the bound = %s %s", resp.Status, body)
	}
}

// TestH1Refusals: what the server answers itself, and closes after.
func TestH1Refusals(t *testing.T) {
	r, _ := start(t)
	for _, tc := range []struct {
		name, req string
		status    int
	}{
		{"header over 1 MiB", "GET /items/a HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 1<<20) + "\r\n\r\n", 431},
		{"long line", "GET /" + strings.Repeat("a", 1<<20) + " HTTP/1.1\r\nHost: x\r\n\r\n", 431},
		{"malformed line", "GET\r\n\r\n", 400},
		{"not a path", "GET items HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"HTTP/2 line", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505},
		{"no Host", "GET /items/a HTTP/1.1\r\n\r\n", 400},
		{"header without colon", "GET /items/a HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n", 400},
		{"space before colon", "GET /items/a HTTP/1.1\r\nHost : x\r\n\r\n", 400},
		{"both framings", "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
		{"two lengths", "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", 400},
		{"bad length", "POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\nabc", 400},
		{"gzip coding", "POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"other expectation", "POST /items HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nContent-Length: 2\r\n\r\n{}", 417},
		{"bad chunk size", "POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
		{"chunk longer than its size", "POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}}\r\n0\r\n\r\n", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, br := dial(t, r)
			go io.WriteString(c, tc.req) // the server may answer before it reads all
			resp, body := readResponse(t, br, "GET")
			if resp.StatusCode != tc.status || !resp.Close {
				t.Fatalf("%s (close %v) %s, want %d", resp.Status, resp.Close, body, tc.status)
			}
			if _, err := br.ReadByte(); err == nil {
				t.Fatal("the connection is open after the refusal")
			}
		})
	}
}

// TestH1Pipelined: requests written at once are answered in their order
// on one connection; Connection: close ends it after its response; HEAD
// gets no body.
func TestH1Pipelined(t *testing.T) {
	r, n := start(t)
	c, br := dial(t, r)
	var reqs bytes.Buffer
	for _, name := range []string{"a", "b", "c"} {
		body := `{"name":"` + name + `"}`
		fmt.Fprintf(&reqs, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	reqs.WriteString("HEAD /items/ex1 HTTP/1.1\r\nHost: x\r\n\r\n")
	reqs.WriteString("GET /items/ex1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	if _, err := c.Write(reqs.Bytes()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b", "c"} {
		if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 200 || resp.Close || !strings.Contains(body, `"i-`+name+`"`) {
			t.Fatalf("pipelined PutItem %s = %s %s", name, resp.Status, body)
		}
	}
	// (GetItem is a GET: the HEAD is an unknown operation's error, without its body.)
	if resp, body := readResponse(t, br, "HEAD"); resp.StatusCode != 404 || resp.ContentLength <= 0 || body != "" {
		t.Fatalf("HEAD = %s %q", resp.Status, body)
	}
	if resp, body := readResponse(t, br, "GET"); resp.StatusCode != 200 || !resp.Close || !strings.Contains(body, "Example item") {
		t.Fatalf("GetItem with Connection: close = %s (close %v) %s", resp.Status, resp.Close, body)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("after Connection: close: %v, want EOF", err)
	}
	if got := n.list(); strings.Join(got, ",") != "a,b,c" {
		t.Fatalf("names read = %q", got)
	}
}

// TestH1KeepAlive: a client's requests share its connections. One after
// another they take one connection; from 4 goroutines at once they reuse
// them too (Go's transport may dial a spare while it waits for an idle
// connection, so only far fewer dials than requests is certain).
func TestH1KeepAlive(t *testing.T) {
	r, _ := start(t)
	var mu sync.Mutex
	dials := 0
	tr := &http.Transport{MaxIdleConnsPerHost: 4, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dials++
		mu.Unlock()
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	get := func() error {
		resp, err := client.Get(r.URL + "/items/ex1")
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "Example item") {
			return fmt.Errorf("GetItem = %s %s", resp.Status, body)
		}
		return nil
	}
	dialed := func() int {
		mu.Lock()
		defer mu.Unlock()
		return dials
	}
	for i := 0; i < 10; i++ {
		if err := get(); err != nil {
			t.Fatal(err)
		}
	}
	if n := dialed(); n != 1 {
		t.Fatalf("10 requests one after another took %d connections, want 1", n)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if err := get(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := dialed(); n > 1+20 {
		t.Fatalf("40 requests of 4 goroutines took %d more connections: they are not kept alive", n-1)
	}
}

// TestH1Stop: Stop closes an idle keep-alive connection at once, lets a
// request under way finish (its response says Connection: close), and
// closes a connection whose request does not end within its wait.
func TestH1Stop(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "..", "serve", "testdata", "shop.smithy"))
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service(shopRest)
	entered := make(chan string, 2)
	release := make(chan struct{})
	slow := mock.AnswerFunc(func(ctx context.Context, op *model.Operation, input []byte) (*mock.Answer, error) {
		if op.Name != "PutItem" {
			return nil, nil
		}
		var in struct{ Name string }
		json.Unmarshal(input, &in)
		entered <- in.Name
		select {
		case <-release:
		case <-ctx.Done(): // Stop gave up waiting
			return nil, ctx.Err()
		}
		return &mock.Answer{Output: map[string]any{"id": "i", "created": "2026-12-02T00:00:00Z"}}, nil
	})
	r, err := mock.Start(m, svc, mock.WithAnswerer(slow))
	if err != nil {
		t.Fatal(err)
	}
	idle, idleR := dial(t, r)
	io.WriteString(idle, "GET /items/ex1 HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp, _ := readResponse(t, idleR, "GET"); resp.StatusCode != 200 || resp.Close {
		t.Fatalf("GetItem = %s", resp.Status)
	}
	busy, busyR := dial(t, r)
	io.WriteString(busy, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n"+putPen)
	waitEntered(t, entered)
	stopped := make(chan error, 1)
	go func() { stopped <- r.Stop() }()
	if _, err := idleR.ReadByte(); err == nil {
		t.Fatal("the idle connection is open after Stop")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(r.URL, "http://"), 5*time.Second); err == nil {
		t.Fatal("the server accepts connections after Stop")
	}
	close(release)
	if resp, body := readResponse(t, busyR, "POST"); resp.StatusCode != 200 || !resp.Close {
		t.Fatalf("the request under Stop = %s (close %v) %s", resp.Status, resp.Close, body)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}

	// A request that does not end: Stop closes it after its wait.
	release = make(chan struct{})
	r, err = mock.Start(m, svc, mock.WithAnswerer(slow))
	if err != nil {
		t.Fatal(err)
	}
	stuck, stuckR := dial(t, r)
	io.WriteString(stuck, "POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n"+putPen)
	waitEntered(t, entered)
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(stuckR, nil)
	if err == nil {
		// The answerer saw its context end: a 500, then the connection closes.
		io.ReadAll(resp.Body)
		if resp.StatusCode != 500 {
			t.Fatalf("the stuck request = %s", resp.Status)
		}
		_, err = stuckR.ReadByte()
	}
	if err == nil {
		t.Fatal("the stuck connection is open after Stop")
	}
}

// waitEntered waits, bounded, for the slow answerer to be called.
func waitEntered(t *testing.T, entered <-chan string) {
	t.Helper()
	select {
	case <-entered:
	case <-time.After(20 * time.Second):
		t.Fatal("the request did not reach the answerer")
	}
}
