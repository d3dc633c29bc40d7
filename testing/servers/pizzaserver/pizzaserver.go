// Package pizzaserver is an HTTP server of alloy's PizzaAdminService
// (namespace alloy.test, in the shared conformance folder under
// disneystreaming-alloy/modules/protocol-tests) speaking alloy#simpleRestJson
// on the wire: routes, labels, query and headers as the operations' @http
// traits say, JSON bodies, and errors with their @httpError status (400 for
// client errors without one) and an X-Error-Type header naming the shape.
// Menus live in memory.
//
// It checks what it receives (Content-Type, required members, the union,
// enum and primitive formats), so a client that gets a success also sent
// the right bytes. Some inputs are reserved to produce the service's errors:
//
//	AddMenuItem   price <= 0                  PriceError (400, X-CODE header)
//	GetMenu       unknown restaurant          NotFoundError (404)
//	GetMenu       restaurant "fallback"       FallbackError (400)
//	AddMenuItem   restaurant "boom"           GenericServerError (502)
//	Health        query "fail"                UnknownServerError (500)
//	any           malformed input             GenericClientError (418)
package pizzaserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Version is what the Version operation returns.
const Version = "1.0.0"

// Server holds the menus. Its Handler is safe for concurrent use.
type Server struct {
	mu     sync.Mutex
	menus  map[string]map[string]json.RawMessage // restaurant -> item id -> MenuItem JSON
	nextID int
	now    func() time.Time
	mux    *http.ServeMux
}

// New returns a server with empty menus.
func New() *Server {
	s := &Server{menus: map[string]map[string]json.RawMessage{}, now: time.Now, mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /restaurant/{restaurant}/menu/item", s.addMenuItem)
	s.mux.HandleFunc("GET /restaurant/{restaurant}/menu", s.getMenu)
	s.mux.HandleFunc("GET /version", s.version)
	s.mux.HandleFunc("GET /health", s.health)
	s.mux.HandleFunc("POST /headers", s.headerEndpoint)
	s.mux.HandleFunc("POST /headers/{$}", s.headerEndpoint)
	s.mux.HandleFunc("POST /roundTrip/{label}", s.roundTrip)
	s.mux.HandleFunc("GET /get-enum/{aa}", s.getEnum)
	s.mux.HandleFunc("GET /get-int-enum/{aa}", s.getIntEnum)
	s.mux.HandleFunc("GET /custom-code/{code}", s.customCode)
	s.mux.HandleFunc("PUT /httpPayloadWithDefault", s.echoStringPayload)
	s.mux.HandleFunc("PUT /httpPayloadRequiredWithDefault", s.echoStringPayload)
	s.mux.HandleFunc("PUT /openUnions", s.openUnions)
	s.mux.HandleFunc("POST /primitive/encoding", s.primitives)
	s.mux.HandleFunc("POST /preserveKeyOrder", s.preserveOrder)
	return s
}

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// SetClock replaces time.Now (for the X-ADDED-AT header) in tests.
func (s *Server) SetClock(now func() time.Time) { s.now = now }

// ---- wire helpers ------------------------------------------------------

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	if len(body) > 0 {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	w.Write(body)
}

// writeError sends an error shape: its status, X-Error-Type, and members.
func writeError(w http.ResponseWriter, status int, shape string, members any) {
	w.Header().Set("X-Error-Type", shape)
	writeJSON(w, status, members)
}

// badInput answers GenericClientError, the service's error for bad input.
func badInput(w http.ResponseWriter, format string, args ...any) {
	writeError(w, 418, "GenericClientError", map[string]string{"message": fmt.Sprintf(format, args...)})
}

// readJSON reads a JSON request body (Content-Type application/json); an
// empty body gives nil.
func readJSON(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		badInput(w, "reading the body: %v", err)
		return nil, false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, true
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		badInput(w, "Content-Type %q, want application/json", r.Header.Get("Content-Type"))
		return nil, false
	}
	if !json.Valid(body) {
		badInput(w, "the body is not JSON")
		return nil, false
	}
	return body, true
}

// decodeStrict decodes body into v, rejecting unknown fields.
func decodeStrict(body []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	d.UseNumber()
	return d.Decode(v)
}

// ---- menus -----------------------------------------------------------------

type menuItem struct {
	Food  map[string]json.RawMessage `json:"food"`
	Price *json.Number               `json:"price"`
}

type pizza struct {
	Name     *string  `json:"name"`
	Base     *string  `json:"base"`
	Toppings []string `json:"toppings"`
}

type salad struct {
	Name        *string  `json:"name"`
	Ingredients []string `json:"ingredients"`
}

var ingredients = map[string]bool{
	"TOMATO": true, "CHEESE": true, "PINEAPPLE": true, "BACON": true, "CHICKEN": true, "Salad": true,
	"MUSHROOM": true, "OLIVES": true, "ONIONS": true, "PEPPERONI": true, "PEPPERS": true,
}

// checkMenuItem validates a MenuItem in its wire form.
func checkMenuItem(body []byte) (float64, error) {
	var it menuItem
	if err := decodeStrict(body, &it); err != nil {
		return 0, fmt.Errorf("MenuItem: %v", err)
	}
	if it.Price == nil {
		return 0, fmt.Errorf("MenuItem.price is required")
	}
	price, err := it.Price.Float64()
	if err != nil {
		return 0, fmt.Errorf("MenuItem.price: %v", err)
	}
	if len(it.Food) != 1 {
		return 0, fmt.Errorf("MenuItem.food must have exactly one member, has %d", len(it.Food))
	}
	checkIngredients := func(list []string) error {
		for _, in := range list {
			if !ingredients[in] {
				return fmt.Errorf("unknown ingredient %q", in)
			}
		}
		return nil
	}
	for k, v := range it.Food {
		switch k {
		case "pizza":
			var p pizza
			if err := decodeStrict(v, &p); err != nil {
				return 0, fmt.Errorf("Pizza: %v", err)
			}
			if p.Name == nil || p.Base == nil || p.Toppings == nil {
				return 0, fmt.Errorf("Pizza: name, base and toppings are required")
			}
			if *p.Base != "C" && *p.Base != "T" {
				return 0, fmt.Errorf("PizzaBase %q", *p.Base)
			}
			if err := checkIngredients(p.Toppings); err != nil {
				return 0, err
			}
		case "salad":
			var sd salad
			if err := decodeStrict(v, &sd); err != nil {
				return 0, fmt.Errorf("Salad: %v", err)
			}
			if sd.Name == nil || sd.Ingredients == nil {
				return 0, fmt.Errorf("Salad: name and ingredients are required")
			}
			if err := checkIngredients(sd.Ingredients); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("Food has no member %q", k)
		}
	}
	return price, nil
}

func (s *Server) addMenuItem(w http.ResponseWriter, r *http.Request) {
	restaurant := r.PathValue("restaurant")
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	if body == nil {
		badInput(w, "menuItem is required")
		return
	}
	price, err := checkMenuItem(body)
	if err != nil {
		badInput(w, "%v", err)
		return
	}
	if restaurant == "boom" {
		writeError(w, 502, "GenericServerError", map[string]string{"message": "the oven exploded"})
		return
	}
	if price <= 0 {
		w.Header().Set("X-CODE", "400")
		writeError(w, 400, "PriceError", map[string]string{"message": "Price must be greater than 0"})
		return
	}
	s.mu.Lock()
	s.nextID++
	id := strconv.Itoa(s.nextID)
	if s.menus[restaurant] == nil {
		s.menus[restaurant] = map[string]json.RawMessage{}
	}
	s.menus[restaurant][id] = append(json.RawMessage(nil), body...)
	s.mu.Unlock()
	w.Header().Set("X-ADDED-AT", strconv.FormatInt(s.now().Unix(), 10))
	writeJSON(w, 201, id) // @httpPayload itemId: a JSON string
}

func (s *Server) getMenu(w http.ResponseWriter, r *http.Request) {
	restaurant := r.PathValue("restaurant")
	if restaurant == "fallback" {
		writeError(w, 400, "FallbackError", map[string]string{"error": "no menu, try the place next door"})
		return
	}
	s.mu.Lock()
	menu, ok := s.menus[restaurant]
	var out []byte
	if ok {
		out, _ = json.Marshal(menu)
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, 404, "NotFoundError", map[string]string{"name": restaurant})
		return
	}
	writeRaw(w, 200, out)
}

// ---- the other operations ------------------------------------------------

func (s *Server) version(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, Version) }

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()["query"]
	if len(q) > 1 {
		badInput(w, "query given %d times", len(q))
		return
	}
	if len(q) == 1 && len(q[0]) > 5 {
		badInput(w, "query longer than 5")
		return
	}
	if len(q) == 1 && q[0] == "fail" {
		writeError(w, 500, "UnknownServerError", map[string]string{
			"errorCode": "server.error", "description": "health check failed", "stateHash": "abc123",
		})
		return
	}
	writeJSON(w, 200, map[string]string{"status": "ok"})
}

var endpointHeaders = []struct{ name, member string }{
	{"X-UPPERCASE-HEADER", "uppercaseHeader"},
	{"X-Capitalized-Header", "capitalizedHeader"},
	{"x-lowercase-header", "lowercaseHeader"},
	{"x-MiXeD-hEaDEr", "mixedHeader"},
}

func (s *Server) headerEndpoint(w http.ResponseWriter, r *http.Request) {
	if _, ok := readJSON(w, r); !ok {
		return
	}
	for _, h := range endpointHeaders {
		if v := r.Header.Values(h.name); len(v) > 0 {
			w.Header()[h.name] = v // as the model spells it
		}
	}
	writeRaw(w, 200, nil)
}

func (s *Server) roundTrip(w http.ResponseWriter, r *http.Request) {
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	var in struct {
		Body *string `json:"body"`
	}
	if body != nil {
		if err := decodeStrict(body, &in); err != nil {
			badInput(w, "RoundTripData: %v", err)
			return
		}
	}
	out := map[string]string{"label": r.PathValue("label")}
	if q := r.URL.Query(); q.Has("query") {
		out["query"] = q.Get("query")
	}
	if in.Body != nil {
		out["body"] = *in.Body
	}
	if h := r.Header.Get("HEADER"); h != "" {
		w.Header().Set("HEADER", h)
	}
	writeJSON(w, 200, out)
}

func (s *Server) getEnum(w http.ResponseWriter, r *http.Request) {
	aa := r.PathValue("aa")
	if aa != "v1" && aa != "v2" {
		badInput(w, "TheEnum has no value %q", aa)
		return
	}
	writeJSON(w, 200, map[string]string{"result": aa})
}

func (s *Server) getIntEnum(w http.ResponseWriter, r *http.Request) {
	aa := r.PathValue("aa")
	if aa != "1" && aa != "2" {
		badInput(w, "EnumResult has no value %q", aa)
		return
	}
	n, _ := strconv.Atoi(aa)
	writeJSON(w, 200, map[string]int{"result": n})
}

// customCode answers with the status the label names (200 to 399).
func (s *Server) customCode(w http.ResponseWriter, r *http.Request) {
	code, err := strconv.Atoi(r.PathValue("code"))
	if err != nil || code < 200 || code > 399 {
		badInput(w, "code %q: want 200 to 399", r.PathValue("code"))
		return
	}
	if code == 204 || code == 304 {
		w.WriteHeader(code) // no body allowed
		return
	}
	writeRaw(w, code, []byte("{}"))
}

// echoStringPayload echoes a JSON string payload (or its absence).
func (s *Server) echoStringPayload(w http.ResponseWriter, r *http.Request) {
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	if body == nil {
		writeRaw(w, 200, nil)
		return
	}
	var str string
	if err := json.Unmarshal(body, &str); err != nil {
		badInput(w, "the payload must be a JSON string: %v", err)
		return
	}
	writeJSON(w, 200, str)
}

// openUnions checks the wire form of OpenUnionsPayload and echoes it.
func (s *Server) openUnions(w http.ResponseWriter, r *http.Request) {
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	var u map[string]map[string]json.RawMessage
	if err := json.Unmarshal(body, &u); err != nil || len(u) != 1 {
		badInput(w, "OpenUnionsPayload: want an object with one member")
		return
	}
	for k, v := range u {
		switch k {
		case "tagged": // {"str": "..."} or any other single member
			if len(v) != 1 {
				badInput(w, "OpenTaggedUnion: want one member, got %d", len(v))
				return
			}
		case "discriminated": // {"key": "smol", "content": "..."} or unknown keys
			var key string
			if err := json.Unmarshal(v["key"], &key); err != nil {
				badInput(w, "OpenDiscriminatedUnion: no \"key\"")
				return
			}
			if key == "smol" {
				var c string
				if len(v) != 2 || json.Unmarshal(v["content"], &c) != nil {
					badInput(w, "SmallStruct: want exactly a string content")
					return
				}
			}
		default:
			badInput(w, "OpenUnionsPayload has no member %q", k)
			return
		}
	}
	writeRaw(w, 200, body)
}

var (
	uuidRE      = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	localTimeRE = regexp.MustCompile(`^\d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
)

// primitives checks each alloy primitive's format and echoes the body
// byte for byte (so numbers keep every digit).
func (s *Server) primitives(w http.ResponseWriter, r *http.Request) {
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	var in struct {
		UUID           *string      `json:"uuid"`
		LocalDate      *string      `json:"localDate"`
		LocalTime      *string      `json:"localTime"`
		Duration       *json.Number `json:"duration"`
		OffsetDateTime *string      `json:"offsetDateTime"`
	}
	if err := decodeStrict(body, &in); err != nil {
		badInput(w, "PrimitiveEncodings: %v", err)
		return
	}
	switch {
	case in.UUID == nil || !uuidRE.MatchString(*in.UUID):
		badInput(w, "uuid: %v", in.UUID)
	case in.LocalDate == nil || !validDate(*in.LocalDate):
		badInput(w, "localDate: want YYYY-MM-DD")
	case in.LocalTime == nil || !localTimeRE.MatchString(*in.LocalTime):
		badInput(w, "localTime: want HH:MM:SS[.fraction]")
	case in.Duration == nil:
		badInput(w, "duration is required")
	case in.OffsetDateTime == nil || !validDateTime(*in.OffsetDateTime):
		badInput(w, "offsetDateTime: want RFC 3339")
	default:
		writeRaw(w, 200, body)
	}
}

func validDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func validDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// preserveOrder echoes the body as sent, keys in the order they came.
func (s *Server) preserveOrder(w http.ResponseWriter, r *http.Request) {
	body, ok := readJSON(w, r)
	if !ok {
		return
	}
	var in struct {
		Map      map[string]json.Number `json:"map"`
		Document json.RawMessage        `json:"document"`
	}
	if body != nil {
		if err := decodeStrict(body, &in); err != nil {
			badInput(w, "PreserveOrderStruct: %v", err)
			return
		}
	}
	writeRaw(w, 200, body)
}
