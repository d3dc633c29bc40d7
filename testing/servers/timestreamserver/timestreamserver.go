// Package timestreamserver is a fake of Amazon Timestream's endpoint
// discovery, for the Timestream models (timestream-write and
// timestream-query: awsJson1_0, target prefix Timestream_20181101), which
// no emulator has: a regional endpoint that answers DescribeEndpoints with
// the address of a cell (host and port, no scheme, as Timestream answers)
// and every other operation with 421 InvalidEndpointException, and the
// cell, which answers the operations (ListDatabases, DescribeDatabase,
// CreateDatabase, Query; others with {}) and DescribeEndpoints too.
//
// The regional endpoint also serves the tests' controls, plain JSON:
// GET /_stats gives {"describes": n, "cell": m} (the DescribeEndpoints
// answered, the operations the cell answered), and POST
// /_set?period=P&invalidate=K resets them, makes CachePeriodInMinutes P
// and the cell answer its next K operations with 421
// InvalidEndpointException.
package timestreamserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Server is a running fake: URL is its regional endpoint, CellHost the
// host:port it gives as the discovered address.
type Server struct {
	URL      string
	CellHost string

	regional, cell net.Listener

	mu         sync.Mutex
	describes  int
	cellCalls  int
	period     int64
	invalidate int
}

// Stats are what the server counted since the last Set.
type Stats struct {
	Describes int `json:"describes"` // DescribeEndpoints answered
	Cell      int `json:"cell"`      // operations the cell answered
}

// Start serves the fake on two ports of 127.0.0.1, CachePeriodInMinutes
// 10 until Set.
func Start() (*Server, error) {
	s := &Server{period: 10}
	var err error
	if s.regional, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("timestreamserver: %w", err)
	}
	if s.cell, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		s.regional.Close()
		return nil, fmt.Errorf("timestreamserver: %w", err)
	}
	s.URL, s.CellHost = "http://"+s.regional.Addr().String(), s.cell.Addr().String()
	go http.Serve(s.regional, http.HandlerFunc(s.serveRegional))
	go http.Serve(s.cell, http.HandlerFunc(s.serveCell))
	return s, nil
}

// Close stops both listeners.
func (s *Server) Close() {
	s.regional.Close()
	s.cell.Close()
}

// Set resets the counts, makes CachePeriodInMinutes period and the cell
// answer its next invalidate operations with InvalidEndpointException.
func (s *Server) Set(period int64, invalidate int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.describes, s.cellCalls, s.period, s.invalidate = 0, 0, period, invalidate
}

// Stats returns the counts.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Describes: s.describes, Cell: s.cellCalls}
}

// operation is the operation an awsJson request names ("" for none).
func operation(r *http.Request) string {
	_, op, _ := strings.Cut(r.Header.Get("X-Amz-Target"), ".")
	return op
}

func (s *Server) serveRegional(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_stats":
		writeJSON(w, http.StatusOK, s.Stats())
	case r.URL.Path == "/_set" && r.Method == http.MethodPost:
		q := r.URL.Query()
		period, err1 := strconv.ParseInt(q.Get("period"), 10, 64)
		invalidate, err2 := strconv.Atoi(q.Get("invalidate"))
		if err1 != nil || err2 != nil {
			http.Error(w, "want /_set?period=P&invalidate=K", http.StatusBadRequest)
			return
		}
		s.Set(period, invalidate)
		writeJSON(w, http.StatusOK, map[string]any{})
	case operation(r) == "DescribeEndpoints":
		s.describeEndpoints(w)
	default:
		invalidEndpoint(w, "this is the regional endpoint: discover the cell with DescribeEndpoints")
	}
}

func (s *Server) describeEndpoints(w http.ResponseWriter) {
	s.mu.Lock()
	s.describes++
	period := s.period
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"Endpoints": []any{
		map[string]any{"Address": s.CellHost, "CachePeriodInMinutes": period}}})
}

func (s *Server) serveCell(w http.ResponseWriter, r *http.Request) {
	op := operation(r)
	if op == "DescribeEndpoints" {
		s.describeEndpoints(w)
		return
	}
	var in map[string]any
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil && err != io.EOF {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	moved := s.invalidate > 0
	if moved {
		s.invalidate--
	} else {
		s.cellCalls++
	}
	s.mu.Unlock()
	if moved {
		invalidEndpoint(w, "the cell moved: discover it again")
		return
	}
	name, _ := in["DatabaseName"].(string)
	switch op {
	case "ListDatabases":
		writeJSON(w, http.StatusOK, map[string]any{"Databases": []any{map[string]any{"DatabaseName": "cell-db", "TableCount": 0}}})
	case "DescribeDatabase", "CreateDatabase":
		writeJSON(w, http.StatusOK, map[string]any{"Database": map[string]any{"DatabaseName": name, "TableCount": 0}})
	case "Query":
		writeJSON(w, http.StatusOK, map[string]any{"QueryId": "q-1", "Rows": []any{}, "ColumnInfo": []any{}})
	default:
		writeJSON(w, http.StatusOK, map[string]any{})
	}
}

// invalidEndpoint answers 421 with Timestream's InvalidEndpointException.
func invalidEndpoint(w http.ResponseWriter, msg string) {
	writeJSON(w, http.StatusMisdirectedRequest, map[string]any{"__type": "com.amazonaws.timestream.v20181101#InvalidEndpointException", "message": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
