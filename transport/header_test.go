package transport

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smithycurl/smithycurl/wire"
)

// httpbinHeader is the header block of go-httpbin's GET /ip, as libcurl
// hands it over (the bench-c call).
const httpbinHeader = "HTTP/1.1 200 OK\r\n" +
	"Access-Control-Allow-Credentials: true\r\n" +
	"Access-Control-Allow-Origin: *\r\n" +
	"Content-Type: application/json; charset=utf-8\r\n" +
	"Date: Mon, 30 Nov 2026 12:40:00 GMT\r\n" +
	"Content-Length: 30\r\n" +
	"\r\n"

func TestParseHeaderBlock(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     wire.Header
	}{
		{"empty", "", wire.Header{}},
		{"status only", "HTTP/1.1 204 No Content\r\n\r\n", wire.Header{}},
		{"no newline", "HTTP/1.1 200 OK", wire.Header{}},
		{"httpbin", httpbinHeader, wire.Header{
			"Access-Control-Allow-Credentials": {"true"},
			"Access-Control-Allow-Origin":      {"*"},
			"Content-Type":                     {"application/json; charset=utf-8"},
			"Date":                             {"Mon, 30 Nov 2026 12:40:00 GMT"},
			"Content-Length":                   {"30"},
		}},
		{"repeats, folding, case, junk", "HTTP/1.1 200 OK\r\n" +
			"set-cookie: a=1\r\n" +
			"X-Amzn-RequestId: r1\r\n" +
			"Set-Cookie: b=2\r\n" +
			"X-Long: one\r\n" +
			" \ttwo \r\n" +
			"no colon here\r\n" +
			": empty name\r\n" +
			"X-Pad \t:  \tv \t\r\n" +
			"set-COOKIE: c=3\r\n" +
			"\r\n" +
			"After: the blank line\r\n",
			wire.Header{
				"Set-Cookie":       {"a=1", "b=2", "c=3"},
				"X-Amzn-Requestid": {"r1"},
				"X-Long":           {"one two"},
				"X-Pad":            {"v"},
			}},
		{"bare LF, no final blank line", "HTTP/1.1 200 OK\nA: 1\nB: 2", wire.Header{"A": {"1"}, "B": {"2"}}},
	} {
		if got, _ := parseHeaderBlock(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %#v, want %#v", tc.name, got, tc.want)
		}
	}
	// Values are independent slices: appending to one does not touch another.
	h, _ := parseHeaderBlock(httpbinHeader)
	h["Date"] = append(h["Date"], "x")
	if got := h.Values("Content-Type"); len(got) != 1 || got[0] != "application/json; charset=utf-8" {
		t.Errorf("append to one value changed another: %q", got)
	}
}

// BenchmarkParseHeader parses the response header of bench-c's call.
func BenchmarkParseHeader(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		parseHeaderBlock(httpbinHeader)
	}
}

// TestAcceptEncoding checks the Accept-Encoding line Do writes itself: the
// value libcurl would send, once; none of ours when the caller or a default
// header sets one.
func TestAcceptEncoding(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header["Accept-Encoding"])
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, "decoded")
		zw.Close()
	}))
	defer srv.Close()
	if acceptEncoding == "" {
		newT(t, Config{}) // runs globalInit
	}
	if !strings.HasPrefix(acceptEncoding, "Accept-Encoding: deflate, gzip") {
		t.Fatalf("acceptEncoding = %q", acceptEncoding)
	}
	want := strings.TrimPrefix(acceptEncoding, "Accept-Encoding: ")
	check := func(name string, tr *Curl, req *Request, want []string) {
		t.Helper()
		got.Store([]string(nil))
		resp, err := tr.Do(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(resp.Body) != "decoded" {
			t.Errorf("%s: body %q, want it decoded", name, resp.Body)
		}
		if g := got.Load().([]string); !reflect.DeepEqual(g, want) {
			t.Errorf("%s: Accept-Encoding %q, want %q", name, g, want)
		}
	}
	tr := newT(t, Config{})
	check("plain", tr, &Request{URL: srv.URL}, []string{want})
	check("POST", tr, &Request{Method: "POST", URL: srv.URL, Body: []byte("x")}, []string{want})
	check("caller's", tr, &Request{URL: srv.URL, Header: wire.Header{"accept-encoding": {"gzip"}}}, []string{"gzip"})
	trd := newT(t, Config{DefaultHeader: wire.Header{"Accept-Encoding": {"gzip"}}})
	check("default", trd, &Request{URL: srv.URL}, []string{"gzip"})
	check("caller's over default", trd, &Request{URL: srv.URL, Header: wire.Header{"Accept-Encoding": {"deflate"}}}, []string{"deflate"})
}

// FuzzParseHeaderBlock: any header block libcurl hands over parses without
// a panic into canonical names with values free of line breaks.
func FuzzParseHeaderBlock(f *testing.F) {
	f.Add(httpbinHeader)
	f.Add("HTTP/1.1 200 OK\r\nA: 1\r\n folded\r\nB:2\r\nA: 3\r\n\r\nC: after\r\n")
	f.Add("HTTP/2 404\nx-amzn-errortype: Foo:http://x\n\n")
	f.Add("HTTP/1.1 200 OK\r\n: no name\r\n\tfold first\r\n")
	f.Fuzz(func(t *testing.T, block string) {
		h, _ := parseHeaderBlock(block)
		for k, vs := range h {
			if k != wire.CanonicalHeaderKey(k) {
				t.Fatalf("name %q is not canonical", k)
			}
			for _, v := range vs {
				if strings.ContainsAny(v, "\r\n") {
					t.Fatalf("value %q of %s has a line break", v, k)
				}
			}
		}
	})
}

// A bare CR inside a header line reached the caller in the value (found by
// FuzzParseHeaderBlock).
func TestParseHeaderBlockBareCR(t *testing.T) {
	h, _ := parseHeaderBlock("HTTP/1.1 200 OK\r\nX-A: a\rb\r\nX-B: c\r\n d\re\r\n\r\n")
	if got := h.Get("X-A"); got != "a b" {
		t.Errorf("X-A %q, want %q", got, "a b")
	}
	if got := h.Get("X-B"); got != "c d e" {
		t.Errorf("X-B %q, want %q", got, "c d e")
	}
}

// reparseCases are header blocks in pairs: reparseHeaderBlock of each
// after each must give what parseHeaderBlock gives, or decline.
var reparseCases = []string{
	"",
	"HTTP/1.1 200 OK",
	"HTTP/1.1 204 No Content\r\n\r\n",
	httpbinHeader,
	strings.Replace(httpbinHeader, "12:40:00", "12:40:01", 1),
	strings.Replace(httpbinHeader, "Content-Length: 30", "Content-Length: 31", 1),
	strings.Replace(httpbinHeader, "Date:", "date:", 1),
	strings.Replace(httpbinHeader, "Date:", "X-Date:", 1),
	httpbinHeader + "Trailer: after the blank line\r\n",
	"HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n",
	"HTTP/1.1 200 OK\r\nSet-Cookie: b=2\r\nSet-Cookie: a=1\r\n\r\n",
	"HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nX-A: 1\r\n\r\n",
	"HTTP/1.1 200 OK\r\nX-A:  padded \t\r\nX-B:\r\n\r\n",
	"HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nX-B: 2\r\n\r\n",
	"HTTP/1.1 200 OK\r\nX-A: a\rb\r\nX-B: 2\r\n\r\n",
	"HTTP/1.1 200 OK\r\nX-A: 1\r\nno colon\r\nX-B: 2\r\n\r\n",
	"HTTP/2 200\nX-A: 1\nX-B: 2",
	"HTTP/1.1 200 OK\r\nX-A: 1\r\nX-B: 2\r\n\r\n",
}

// checkReparse parses prev, reparses next into it, and compares with next
// parsed afresh (or with prev untouched when reparse declines).
func checkReparse(t *testing.T, prev, next string) {
	t.Helper()
	hdr, _ := parseHeaderBlock(prev)
	before := hdr.Clone()
	fresh, freshNames := parseHeaderBlock(next)
	if reparseHeaderBlock(hdr, []byte(next)) {
		if !reflect.DeepEqual(hdr, fresh) || freshNames != nil {
			t.Fatalf("reparse of %q after %q: %#v, want %#v (names %q)", next, prev, hdr, fresh, freshNames)
		}
	} else if !reflect.DeepEqual(hdr, before) {
		t.Fatalf("declined reparse of %q after %q changed the header: %#v, want %#v", next, prev, hdr, before)
	}
}

// TestReparseHeaderBlock: a response's header refreshed in place is the
// one parsed afresh; the steady state (like responses, a changing Date)
// allocates at most the one string of the block.
func TestReparseHeaderBlock(t *testing.T) {
	for _, prev := range reparseCases {
		for _, next := range reparseCases {
			checkReparse(t, prev, next)
		}
	}
	hdr, _ := parseHeaderBlock(httpbinHeader)
	if !reparseHeaderBlock(hdr, []byte(reparseCases[4])) || hdr.Get("Date") != "Mon, 30 Nov 2026 12:40:01 GMT" {
		t.Fatalf("a new Date was not taken in place: %v", hdr)
	}
	if raceEnabled {
		return // allocation counts are the plain build's
	}
	same, other := []byte(reparseCases[4]), []byte(httpbinHeader)
	if n := testing.AllocsPerRun(100, func() { reparseHeaderBlock(hdr, same) }); n != 0 {
		t.Errorf("the same block again: %v allocations, want 0", n)
	}
	flip := false
	if n := testing.AllocsPerRun(100, func() {
		flip = !flip
		if flip {
			reparseHeaderBlock(hdr, other)
		} else {
			reparseHeaderBlock(hdr, same)
		}
	}); n != 1 {
		t.Errorf("a new Date each time: %v allocations, want 1", n)
	}
}

// FuzzReparseHeaderBlock: reparsing any block into any earlier one gives
// what parsing it afresh does, or declines and changes nothing.
func FuzzReparseHeaderBlock(f *testing.F) {
	for i, prev := range reparseCases {
		f.Add(prev, reparseCases[(i+3)%len(reparseCases)])
	}
	f.Fuzz(checkReparse)
}
