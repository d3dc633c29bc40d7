// Package slotserver serves the Slot service (slot.smithy): it keeps the
// last body PUT in one buffer allocated once and answers it to a GET with
// its CRC32, so that a test can check bodies byte for byte and count the
// bytes its client allocates (the server allocates none per body). GET of
// key "missing" is a 404; the first PUT of a key starting with "503" is a
// 503.
package slotserver

import (
	_ "embed"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Model is the service's Smithy model.
//
//go:embed slot.smithy
var Model string

// Service is the service's shape id.
const Service = "smithycurl.test.slot#Slot"

// Server is one Slot service holding bodies of up to its size.
type Server struct {
	mu     sync.Mutex
	slot   []byte
	n      int
	puts   int
	failed map[string]bool
}

// New returns a server for bodies of up to size bytes.
func New(size int) *Server { return &Server{slot: make([]byte, size), failed: map[string]bool{}} }

// Handler serves the operations.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/d/{key}", s.serve)
	mux.HandleFunc("/s/{key}", s.serve)
	mux.HandleFunc("/ping", func(http.ResponseWriter, *http.Request) {})
	return mux
}

// Body returns a copy of the body kept and the number of PUTs served.
func (s *Server) Body() ([]byte, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.slot[:s.n]...), s.puts
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case "PUT":
		s.puts++
		if r.ContentLength < 0 || r.ContentLength > int64(len(s.slot)) {
			http.Error(w, "no Content-Length, or too large", 400)
			return
		}
		n, err := io.ReadFull(r.Body, s.slot[:r.ContentLength])
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		if strings.HasPrefix(key, "503") && !s.failed[key] {
			s.failed[key] = true
			w.WriteHeader(503)
			return
		}
		s.n = n
		w.Header().Set("x-size", strconv.Itoa(n))
		w.Header().Set("x-type", r.Header.Get("Content-Type"))
	case "GET":
		if key == "missing" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(404)
			io.WriteString(w, `{"message": "no such key"}`)
			return
		}
		body := s.slot[:s.n]
		w.Header().Set("x-size", strconv.Itoa(s.n))
		w.Header().Set("x-amz-checksum-crc32", base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(body))))
		w.Header().Set("Content-Length", strconv.Itoa(s.n))
		w.Write(body)
	default:
		w.WriteHeader(405)
	}
}

// AllocCase is a call whose allocations CheckAllocs bounds.
type AllocCase struct {
	Name string
	Max  int // bytes allocated per call, at most
	Call func() error
}

// CheckAllocs runs each case once (connections, plans), then 4 times,
// and fails tb when the bytes the process allocated per call exceed the
// case's Max (the server allocates none per body: the rest is the
// client's; the race detector adds its own).
func CheckAllocs(tb testing.TB, cases ...AllocCase) {
	tb.Helper()
	for _, c := range cases {
		if err := c.Call(); err != nil {
			tb.Fatalf("%s: %v", c.Name, err)
		}
		const n = 4
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := 0; i < n; i++ {
			if err := c.Call(); err != nil {
				tb.Fatalf("%s: %v", c.Name, err)
			}
		}
		runtime.ReadMemStats(&after)
		if got := int(after.TotalAlloc-before.TotalAlloc) / n; got > c.Max {
			tb.Errorf("%s: %d bytes allocated per call, more than %d", c.Name, got, c.Max)
		} else {
			tb.Logf("%s: %d bytes allocated per call (bound %d)", c.Name, got, c.Max)
		}
	}
}
