// Package blobserver serves a small restJson1 service with streaming blob
// payloads (model Model, service smithycurl.test.blobs#Blobs), for the
// streaming tests and benchmarks of every front end: PutBlob reads the
// request body to its end without keeping it (it answers the size, whether
// the bytes were the pattern, and the attempt), GetBlob writes size bytes
// of the pattern as they are made. The pattern: byte i is i % 251.
package blobserver

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// Model is the service's Smithy model (blobs.smithy).
//
//go:embed blobs.smithy
var Model string

// Period is the pattern's period: byte i is i % Period.
const Period = 251

// pattern is Period*256 bytes of the pattern: a whole number of periods,
// so writing it again and again continues it.
var pattern = func() []byte {
	b := make([]byte, Period*256)
	for i := range b {
		b[i] = byte(i % Period)
	}
	return b
}()

// Pattern returns n bytes of the pattern starting at offset off.
func Pattern(off, n int64) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte((off + int64(i)) % Period)
	}
	return out
}

// Server is the Blobs service. Its zero value is not ready: use New.
type Server struct {
	mu       sync.Mutex
	attempts map[string]int
}

// New returns a server.
func New() *Server { return &Server{attempts: map[string]int{}} }

// Handler serves PUT /blobs/{key}, GET /blobs/{size} and the checksum
// operations' PUT and GET /checked/{key}.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /blobs/{key}", s.upload)
	mux.HandleFunc("GET /blobs/{size}", download)
	mux.HandleFunc("PUT /checked/{key}", putChecked)
	mux.HandleFunc("GET /checked/{key}", getChecked)
	return mux
}

// putChecked answers with the checksum headers of the request.
func putChecked(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"crc32": r.Header.Get("X-Amz-Checksum-Crc32"),
		"algorithm": r.Header.Get("X-Amz-Sdk-Checksum-Algorithm")})
}

// CheckedBody is what GetChecked answers.
const CheckedBody = "checked body"

// getChecked answers CheckedBody, with its CRC32 when asked: wrong for the
// key "bad", composite for "parts".
func getChecked(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Amz-Checksum-Mode") == "ENABLED" {
		sum := crc32.ChecksumIEEE([]byte(CheckedBody))
		suffix := ""
		switch r.PathValue("key") {
		case "bad":
			sum++
		case "parts":
			sum, suffix = sum+1, "-2"
		}
		w.Header().Set("X-Amz-Checksum-Crc32", base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, sum))+suffix)
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	io.WriteString(w, CheckedBody)
}

// upload reads the body in pieces, comparing each with the pattern.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	s.mu.Lock()
	s.attempts[key]++
	attempt := s.attempts[key]
	s.mu.Unlock()
	buf := make([]byte, 64<<10)
	var n int64
	intact := true
	for {
		k, err := r.Body.Read(buf)
		if k > 0 {
			if intact {
				off := int(n % Period)
				for done := 0; done < k; {
					m := min(k-done, len(pattern)-off)
					if !bytes.Equal(buf[done:done+m], pattern[off:off+m]) {
						intact = false
						break
					}
					done += m
					off = 0
				}
			}
			n += int64(k)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			http.Error(w, fmt.Sprintf("reading the body: %v", err), http.StatusBadRequest)
			return
		}
	}
	if fail, _ := strconv.Atoi(r.URL.Query().Get("failFirst")); attempt <= fail {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, `{"message": "attempt %d of %s fails (failFirst %d)"}`, attempt, key, fail)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"size": n, "intact": intact, "attempt": attempt})
}

// download writes the pattern, one 62.75 KiB piece at a time.
func download(w http.ResponseWriter, r *http.Request) {
	size, err := strconv.ParseInt(r.PathValue("size"), 10, 64)
	if err != nil || size < 0 {
		http.Error(w, "size: not a length", http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	for size > 0 {
		k := min(size, int64(len(pattern)))
		if _, err := w.Write(pattern[:k]); err != nil {
			return
		}
		size -= k
	}
}
