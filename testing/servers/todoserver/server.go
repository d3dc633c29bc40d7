// Package todoserver serves the example Todos service of
// examples/todo/todo.smithy over HTTP in the alloy#simpleRestJson wire
// format, with an in-memory store. The demo and the tests call it on loopback.
package todoserver

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxTodos is how many items the list holds before TooManyTodos.
const MaxTodos = 100

type item struct {
	ID       string     `json:"id"`
	Title    string     `json:"title"`
	Priority string     `json:"priority"`
	Done     bool       `json:"done"`
	Due      *time.Time `json:"due,omitempty"`
	Tags     []string   `json:"tags,omitempty"`
	Created  time.Time  `json:"created"`
}

// Server is the Todos service.
type Server struct {
	mu     sync.Mutex
	items  []*item
	tokens map[string]*item // clientToken -> item it created
}

// New returns an empty service.
func New() *Server { return &Server{tokens: map[string]*item{}} }

// Handler routes the service's operations.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /todos", s.create)
	mux.HandleFunc("GET /todos", s.list)
	mux.HandleFunc("GET /todos/{id}", s.get)
	mux.HandleFunc("PATCH /todos/{id}", s.update)
	mux.HandleFunc("DELETE /todos/{id}", s.delete)
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// fail answers with a modeled error: its name in X-Error-Type, its status,
// and its members as the body.
func fail(w http.ResponseWriter, status int, errorType string, members map[string]any) {
	w.Header().Set("X-Error-Type", errorType)
	writeJSON(w, status, members)
}

func notFound(w http.ResponseWriter, id string) {
	fail(w, http.StatusNotFound, "TodoNotFound", map[string]any{"message": "no to-do item has id " + id, "id": id})
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Title       string        `json:"title"`
		Priority    string        `json:"priority"`
		Due         *epochSeconds `json:"due"`
		Tags        []string      `json:"tags"`
		ClientToken string        `json:"clientToken"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Title == "" {
		msg := "invalid input"
		if err != nil {
			msg += ": " + err.Error()
		}
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, ok := s.tokens[in.ClientToken]; ok && in.ClientToken != "" {
		writeJSON(w, http.StatusCreated, it)
		return
	}
	if len(s.items) >= MaxTodos {
		fail(w, http.StatusConflict, "TooManyTodos", map[string]any{"message": "the list is full", "limit": MaxTodos})
		return
	}
	if in.Priority == "" {
		in.Priority = "NORMAL"
	}
	it := &item{ID: newID(), Title: in.Title, Priority: in.Priority, Due: (*time.Time)(in.Due), Tags: in.Tags, Created: time.Now().UTC().Truncate(time.Second)}
	s.items = append(s.items, it)
	if in.ClientToken != "" {
		s.tokens[in.ClientToken] = it
	}
	writeJSON(w, http.StatusCreated, it)
}

// epochSeconds reads a timestamp as simpleRestJson (like restJson1) writes
// one without @timestampFormat in a body: epoch seconds, a JSON number,
// fractions kept to the nanosecond. CreateTodo's due has no format trait.
type epochSeconds time.Time

func (t *epochSeconds) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, []byte("null")) {
		return nil
	}
	var n json.Number
	if len(data) == 0 || data[0] == '"' || json.Unmarshal(data, &n) != nil {
		return fmt.Errorf("due: want epoch seconds (a number), got %s", data)
	}
	const minEpoch, maxEpoch = -62135596800, 253402300799 // years 0001 to 9999
	f, _ := strconv.ParseFloat(n.String(), 64)
	_, exp, _ := strings.Cut(strings.ToLower(n.String()), "e")
	if e, _ := strconv.Atoi(exp); f < minEpoch || f >= maxEpoch+1 || e > 30 || e < -30 {
		return fmt.Errorf("due: epoch seconds %s out of range (years 0001 to 9999)", n)
	}
	// Exactly: whole seconds (floor), then the nanoseconds left (truncated).
	r, _ := new(big.Rat).SetString(n.String())
	sec := new(big.Int).Div(r.Num(), r.Denom())
	frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(sec))
	nsec := new(big.Int).Div(new(big.Int).Mul(frac.Num(), big.NewInt(1e9)), frac.Denom())
	*t = epochSeconds(time.Unix(sec.Int64(), nsec.Int64()).UTC())
	return nil
}

func (s *Server) find(id string) (int, *item) {
	for i, it := range s.items {
		if it.ID == id {
			return i, it
		}
	}
	return -1, nil
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, it := s.find(r.PathValue("id")); it != nil {
		writeJSON(w, http.StatusOK, it)
		return
	}
	notFound(w, r.PathValue("id"))
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, start := 20, 0
	if v, err := strconv.Atoi(q.Get("limit")); err == nil && v > 0 {
		limit = v
	}
	if v, err := strconv.Atoi(q.Get("nextToken")); err == nil && v > 0 {
		start = v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []*item{}
	next := ""
	for i := start; i < len(s.items); i++ {
		it := s.items[i]
		if d := q.Get("done"); d != "" && strconv.FormatBool(it.Done) != d {
			continue
		}
		if len(items) == limit {
			next = strconv.Itoa(i)
			break
		}
		items = append(items, it)
	}
	out := map[string]any{"items": items}
	if next != "" {
		out["nextToken"] = next
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) update(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Title    *string `json:"title"`
		Priority *string `json:"priority"`
		Done     *bool   `json:"done"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, "invalid input", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, it := s.find(r.PathValue("id"))
	if it == nil {
		notFound(w, r.PathValue("id"))
		return
	}
	if in.Title != nil {
		it.Title = *in.Title
	}
	if in.Priority != nil {
		it.Priority = *in.Priority
	}
	if in.Done != nil {
		it.Done = *in.Done
	}
	writeJSON(w, http.StatusOK, it)
}

func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, it := s.find(r.PathValue("id"))
	if it == nil {
		notFound(w, r.PathValue("id"))
		return
	}
	s.items = append(s.items[:i], s.items[i+1:]...)
	w.WriteHeader(http.StatusNoContent)
}

// newID returns a random UUID v4.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
