// Package kvserver serves the key-value store of kv.smithy (namespace
// smithycurl.kv) in both Smithy RPC v2 protocols on one handler: service
// KVCbor speaks rpcv2Cbor, KVJson rpcv2Json, at
// POST /service/{Service}/operation/{Operation}. It is a second, independent
// implementation of the wire formats (fxamacker/cbor and encoding/json
// with strict decoding: unknown members, duplicate keys and wrong types are
// refused), so a client that gets a success sent the right bytes.
//
// Inputs that produce the service's errors:
//
//	Get, Delete  unknown key                       NotFound (400)
//	Put          ifVersion not the stored version  Conflict (400)
//	any          key "unavailable"                 Unavailable (503, retryable)
//	any          malformed input                   400, __type ValidationException (not modeled)
package kvserver

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fxamacker/cbor/v2"
)

// Model is kv.smithy, the model of the services.
//
//go:embed kv.smithy
var Model []byte

// Namespace is the model's namespace; the services are Namespace#KVCbor
// and Namespace#KVJson.
const Namespace = "smithycurl.kv"

// Server holds the items. Its Handler is safe for concurrent use.
type Server struct {
	mu    sync.Mutex
	items map[string]*item
	now   func() time.Time
}

// New returns an empty store.
func New() *Server {
	return &Server{items: map[string]*item{}, now: func() time.Time { return time.Now().Truncate(time.Millisecond) }}
}

// format is one protocol's body encoding.
type format struct {
	protocol  string // Smithy-Protocol header
	mediaType string
	unmarshal func([]byte, any) error
	marshal   func(any) ([]byte, error)
}

var (
	cborDec, _ = cbor.DecOptions{
		DupMapKey:         cbor.DupMapKeyEnforcedAPF,
		ExtraReturnErrors: cbor.ExtraDecErrorUnknownField,
		MaxNestedLevels:   32,
		MaxArrayElements:  1 << 16,
		MaxMapPairs:       1 << 16,
		TimeTag:           cbor.DecTagRequired,
		BigIntDec:         cbor.BigIntDecodePointer,
	}.DecMode()
	cborEnc, _ = cbor.EncOptions{
		Time:          cbor.TimeUnixDynamic,
		TimeTag:       cbor.EncTagRequired,
		BigIntConvert: cbor.BigIntConvertShortest,
	}.EncMode()
)

var formats = map[string]format{
	"KVCbor": {"rpc-v2-cbor", "application/cbor", cborDec.Unmarshal, cborEnc.Marshal},
	"KVJson": {"rpc-v2-json", "application/json", func(b []byte, v any) error {
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if err := d.Decode(v); err != nil {
			return err
		}
		if d.More() {
			return errors.New("data after the JSON value")
		}
		return nil
	}, json.Marshal},
}

type item struct {
	Key     string            `cbor:"key" json:"key"`
	Value   []byte            `cbor:"value,omitempty" json:"value,omitempty"`
	Tags    map[string]string `cbor:"tags,omitempty" json:"tags,omitempty"`
	Score   *float64          `cbor:"score,omitempty" json:"score,omitempty"`
	Size    *BigInt           `cbor:"size,omitempty" json:"size,omitempty"`
	Ratio   *Decimal          `cbor:"ratio,omitempty" json:"ratio,omitempty"`
	Expires *Stamp            `cbor:"expires,omitempty" json:"expires,omitempty"`
	Version int64             `cbor:"version" json:"version"`
	Stored  Stamp             `cbor:"stored" json:"stored"`
}

type putInput struct {
	Key       *string           `cbor:"key" json:"key"`
	Value     []byte            `cbor:"value" json:"value"`
	Tags      map[string]string `cbor:"tags" json:"tags"`
	Score     *float64          `cbor:"score" json:"score"`
	Size      *BigInt           `cbor:"size" json:"size"`
	Ratio     *Decimal          `cbor:"ratio" json:"ratio"`
	Expires   *Stamp            `cbor:"expires" json:"expires"`
	Secret    *string           `cbor:"secret" json:"secret"`
	IfVersion *int64            `cbor:"ifVersion" json:"ifVersion"`
}

type keyInput struct {
	Key *string `cbor:"key" json:"key"`
}

type listInput struct {
	Prefix *string `cbor:"prefix" json:"prefix"`
}

// serviceError is an error response: its status and body members.
type serviceError struct {
	status int
	body   map[string]any
}

func (e *serviceError) Error() string { return fmt.Sprint(e.body["message"]) }

func modeled(status int, shape, message string, members ...any) *serviceError {
	body := map[string]any{"__type": Namespace + "#" + shape, "message": message}
	for i := 0; i+1 < len(members); i += 2 {
		body[members[i].(string)] = members[i+1]
	}
	return &serviceError{status, body}
}

func invalid(format string, args ...any) *serviceError {
	return &serviceError{400, map[string]any{"__type": Namespace + "#ValidationException", "message": fmt.Sprintf(format, args...)}}
}

// Handler serves both services.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /service/{service}/operation/{operation}", s.serve)
	return mux
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	f, ok := formats[r.PathValue("service")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Smithy-Protocol", f.protocol)
	out, err := s.operation(f, r, body)
	status := http.StatusOK
	if err != nil {
		var se *serviceError
		if !errors.As(err, &se) {
			se = invalid("%v", err)
		}
		status, out = se.status, se.body
	}
	if out == nil { // a Unit output: no body
		w.WriteHeader(status)
		return
	}
	data, err := f.marshal(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", f.mediaType)
	w.WriteHeader(status)
	w.Write(data)
}

// operation checks the request's headers, decodes its input and runs it.
func (s *Server) operation(f format, r *http.Request, body []byte) (any, error) {
	if got := r.Header.Get("Smithy-Protocol"); got != f.protocol {
		return nil, invalid("Smithy-Protocol %q, want %q", got, f.protocol)
	}
	if got := r.Header.Get("Accept"); got != f.mediaType {
		return nil, invalid("Accept %q, want %q", got, f.mediaType)
	}
	op := r.PathValue("operation")
	if op == "Ping" {
		if len(body) != 0 || r.Header.Get("Content-Type") != "" {
			return nil, invalid("Ping takes no body")
		}
		return nil, nil
	}
	if got := r.Header.Get("Content-Type"); got != f.mediaType {
		return nil, invalid("Content-Type %q, want %q", got, f.mediaType)
	}
	decode := func(in any) error {
		if err := f.unmarshal(body, in); err != nil {
			return invalid("%s input: %v", op, err)
		}
		return nil
	}
	switch op {
	case "Put":
		var in putInput
		if err := decode(&in); err != nil {
			return nil, err
		}
		return s.put(&in)
	case "Get", "Delete":
		var in keyInput
		if err := decode(&in); err != nil {
			return nil, err
		}
		if err := checkKey(in.Key); err != nil {
			return nil, err
		}
		return s.getOrDelete(*in.Key, op == "Delete")
	case "List":
		var in listInput
		if err := decode(&in); err != nil {
			return nil, err
		}
		return s.list(in.Prefix), nil
	}
	return nil, invalid("no operation %q", op)
}

func checkKey(key *string) error {
	switch {
	case key == nil:
		return invalid("key is required")
	case len(*key) == 0 || len(*key) > 256:
		return invalid("key: length %d not in 1..256", len(*key))
	case *key == "unavailable":
		return modeled(http.StatusServiceUnavailable, "Unavailable", "try again later")
	}
	return nil
}

func (s *Server) put(in *putInput) (any, error) {
	if err := checkKey(in.Key); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var version int64
	if old := s.items[*in.Key]; old != nil {
		version = old.Version
	}
	if in.IfVersion != nil && *in.IfVersion != version {
		return nil, modeled(http.StatusBadRequest, "Conflict", "version mismatch", "current", version)
	}
	it := &item{Key: *in.Key, Value: in.Value, Tags: in.Tags, Score: in.Score, Size: in.Size,
		Ratio: in.Ratio, Expires: in.Expires, Version: version + 1, Stored: Stamp(s.now())}
	s.items[it.Key] = it
	return map[string]any{"version": it.Version, "stored": it.Stored}, nil
}

func (s *Server) getOrDelete(key string, del bool) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.items[key]
	if it == nil {
		return nil, modeled(http.StatusBadRequest, "NotFound", "no item "+key, "key", key)
	}
	if del {
		delete(s.items, key)
		return map[string]any{}, nil
	}
	return map[string]any{"item": it}, nil
}

func (s *Server) list(prefix *string) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []*item{}
	for k, it := range s.items {
		if prefix == nil || strings.HasPrefix(k, *prefix) {
			items = append(items, it)
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Key < items[j].Key })
	return map[string]any{"items": items}
}

// BigInt is a bigInteger: CBOR integers or tags 2 and 3, a JSON string of
// digits (rpcv2Json).
type BigInt struct{ big.Int }

func (b BigInt) MarshalCBOR() ([]byte, error) { return cborEnc.Marshal(&b.Int) }

func (b *BigInt) UnmarshalCBOR(data []byte) error {
	var v any
	if err := cborDec.Unmarshal(data, &v); err != nil {
		return err
	}
	switch n := v.(type) {
	case uint64:
		b.SetUint64(n)
	case int64:
		b.SetInt64(n)
	case *big.Int:
		b.Set(n)
	default:
		return fmt.Errorf("bigInteger: got %T", v)
	}
	return nil
}

func (b BigInt) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

func (b *BigInt) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("bigInteger: %w", err)
	}
	if _, ok := b.SetString(s, 10); !ok {
		return fmt.Errorf("bigInteger: %q", s)
	}
	return nil
}

// Decimal is a bigDecimal, mantissa × 10^exp: CBOR tag 4 [exp, mantissa],
// a JSON string (rpcv2Json).
type Decimal struct {
	Mant big.Int
	Exp  int64
}

func (d Decimal) MarshalCBOR() ([]byte, error) {
	return cborEnc.Marshal(cbor.Tag{Number: 4, Content: []any{d.Exp, &d.Mant}})
}

func (d *Decimal) UnmarshalCBOR(data []byte) error {
	var t cbor.Tag
	if err := cborDec.Unmarshal(data, &t); err != nil {
		return err
	}
	parts, ok := t.Content.([]any)
	if t.Number != 4 || !ok || len(parts) != 2 {
		return fmt.Errorf("bigDecimal: want tag 4 [exponent, mantissa], got tag %d", t.Number)
	}
	exp, ok := parts[0].(int64)
	if u, isU := parts[0].(uint64); isU && u < 1<<63 {
		exp, ok = int64(u), true
	}
	if !ok {
		return fmt.Errorf("bigDecimal: exponent %T", parts[0])
	}
	d.Exp = exp
	switch m := parts[1].(type) {
	case uint64:
		d.Mant.SetUint64(m)
	case int64:
		d.Mant.SetInt64(m)
	case *big.Int:
		d.Mant.Set(m)
	default:
		return fmt.Errorf("bigDecimal: mantissa %T", parts[1])
	}
	return nil
}

// String writes the decimal in plain notation.
func (d Decimal) String() string {
	digits := new(big.Int).Abs(&d.Mant).String()
	sign := ""
	if d.Mant.Sign() < 0 {
		sign = "-"
	}
	if d.Exp >= 0 {
		return sign + digits + strings.Repeat("0", int(d.Exp))
	}
	n := int(-d.Exp)
	if len(digits) <= n {
		digits = strings.Repeat("0", n-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-n] + "." + digits[len(digits)-n:]
}

func (d Decimal) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Decimal) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("bigDecimal: %w", err)
	}
	mant, exp := s, int64(0)
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		if _, err := fmt.Sscan(mant[i+1:], &exp); err != nil {
			return fmt.Errorf("bigDecimal: %q", s)
		}
		mant = mant[:i]
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		exp -= int64(len(mant) - i - 1)
		mant = mant[:i] + mant[i+1:]
	}
	if _, ok := d.Mant.SetString(mant, 10); !ok {
		return fmt.Errorf("bigDecimal: %q", s)
	}
	d.Exp = exp
	return nil
}

// Stamp is a timestamp: CBOR tag 1 epoch seconds, a JSON number of epoch
// seconds.
type Stamp time.Time

func (t Stamp) MarshalCBOR() ([]byte, error) { return cborEnc.Marshal(time.Time(t)) }

func (t *Stamp) UnmarshalCBOR(data []byte) error {
	return cborDec.Unmarshal(data, (*time.Time)(t))
}

func (t Stamp) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(time.Time(t).UnixMilli())/1000, 'f', -1, 64), nil
}

func (t *Stamp) UnmarshalJSON(data []byte) error {
	var secs json.Number
	if err := json.Unmarshal(data, &secs); err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	f, err := secs.Float64()
	if err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	*t = Stamp(time.UnixMilli(int64(f*1000 + 0.5*sign(f))).UTC())
	return nil
}

func sign(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}
