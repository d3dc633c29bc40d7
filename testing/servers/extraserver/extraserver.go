// Package extraserver serves the Extras service (extras.smithy) on which
// the typed generators' tests call paginated, waitable and streamed
// operations: ListItems pages through "total" items, GetJob answers with a
// job's status as scripted by its id, Upload counts and sums the bytes of
// a streamed body, Download streams n bytes.
package extraserver

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Model is the service's Smithy model.
//
//go:embed extras.smithy
var Model string

// Server is one Extras service; its job counters are its own.
type Server struct {
	mu    sync.Mutex
	polls map[string]int
}

// New returns a server with no job polled yet.
func New() *Server { return &Server{polls: map[string]int{}} }

// Byte is byte i of every Download body.
func Byte(i int64) byte { return byte(i % 251) }

// Handler serves the service's operations.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items", s.items)
	mux.HandleFunc("GET /jobs/{id}", s.job)
	mux.HandleFunc("PUT /blob/{name}", s.upload)
	mux.HandleFunc("GET /blob/{name}", s.download)
	mux.HandleFunc("PUT /echo/{name}", echo)
	return mux
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// items: item-K for K from next (0) up to size (default 2) items of total.
func (s *Server) items(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	total, _ := strconv.Atoi(q.Get("total"))
	size, _ := strconv.Atoi(q.Get("size"))
	if size <= 0 {
		size = 2
	}
	from := 0
	if n := q.Get("next"); n != "" {
		from, _ = strconv.Atoi(strings.TrimPrefix(n, "tok-"))
	}
	out := map[string]any{"items": []string{}}
	var items []string
	for i := from; i < total && i < from+size; i++ {
		items = append(items, fmt.Sprintf("item-%d", i))
	}
	if items != nil {
		out["items"] = items
	}
	if from+size < total {
		out["next"] = fmt.Sprintf("tok-%d", from+size)
	}
	reply(w, 200, out)
}

// job answers by the id's scripted status: "done-N" is running for N-1
// polls, then done; "missing-N" is NoSuchJob for N-1 polls, then done;
// "failed" is failed; "locked" is JobLocked (whose shape models no
// message member: the message is in the body); anything else stays running.
func (s *Server) job(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	s.polls[id]++
	n := s.polls[id]
	s.mu.Unlock()
	kind, count, _ := strings.Cut(id, "-")
	want, _ := strconv.Atoi(count)
	status := "running"
	switch {
	case kind == "failed":
		status = "failed"
	case kind == "missing" && n < want:
		w.Header().Set("X-Amzn-Errortype", "NoSuchJob")
		reply(w, 404, map[string]string{"message": "no job " + id})
		return
	case kind == "locked":
		w.Header().Set("X-Amzn-Errortype", "JobLocked")
		reply(w, 409, map[string]string{"Message": "job " + id + " is held by ann", "holder": "ann"})
		return
	case (kind == "done" || kind == "missing") && n >= want:
		status = "done"
	}
	reply(w, 200, map[string]string{"id": id, "status": status})
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	var size, sum int64
	br := bufio.NewReader(r.Body)
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			reply(w, 400, map[string]string{"message": err.Error()})
			return
		}
		size++
		sum += int64(b)
	}
	reply(w, 200, map[string]int64{"size": size, "sum": sum})
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.ParseInt(r.URL.Query().Get("n"), 10, 64)
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Name", r.PathValue("name"))
	w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	buf := make([]byte, 32<<10)
	for off := int64(0); off < n; {
		k := min(int64(len(buf)), n-off)
		for i := range k {
			buf[i] = Byte(off + i)
		}
		if _, err := w.Write(buf[:k]); err != nil {
			return
		}
		off += k
	}
}

// echo answers with the request's body and its name in x-name.
func echo(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("x-name", r.PathValue("name"))
	w.Write(body)
}
