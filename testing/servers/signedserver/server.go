// Package signedserver serves com.example#Signed (signed.smithy beside it)
// on 127.0.0.1 for the tests of custom auth schemes and digest auth:
// POST /echo checks the hmacAuth signature that the model describes,
// with key id KeyID and secret Secret; /digest-auth/... is go-httpbin's.
package signedserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"
)

// The key the server knows.
const (
	KeyID  = "test-key"
	Secret = "test-secret"
)

// Signature is the hmacAuth signature of a request, as signed.smithy
// defines it.
func Signature(secret, method, pathQuery, date string, body []byte) string {
	sum := sha256.Sum256(body)
	mac := hmac.New(sha256.New, []byte(secret))
	io.WriteString(mac, method+"\n"+pathQuery+"\n"+date+"\n"+hex.EncodeToString(sum[:]))
	return hex.EncodeToString(mac.Sum(nil))
}

// Server counts the signed requests it accepted.
type Server struct {
	Accepted atomic.Int64
}

// Handler serves the service.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/digest-auth/", httpbin.New().Handler())
	mux.HandleFunc("POST /echo", s.echo)
	return mux
}

func (s *Server) echo(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if msg := check(r, body); msg != "" {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Error-Type", "Unauthorized")
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]string{"message": msg})
		return
	}
	s.Accepted.Add(1)
	var in struct{ Message string }
	if len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"message": in.Message, "signedBy": KeyID})
}

// check returns why r's signature is refused, or "".
func check(r *http.Request, body []byte) string {
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "HMAC-SHA256 ")
	if !ok {
		return "no HMAC-SHA256 Authorization header"
	}
	var keyID, sig string
	for _, part := range strings.Split(auth, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "keyId":
			keyID = v
		case "signature":
			sig = v
		}
	}
	if keyID != KeyID {
		return "unknown key id"
	}
	date := r.Header.Get("X-Example-Date")
	t, err := time.Parse(time.RFC3339, date)
	if err != nil || time.Since(t).Abs() > 5*time.Minute {
		return "X-Example-Date is missing or too far from the server's clock"
	}
	want := Signature(Secret, r.Method, r.URL.RequestURI(), date, body)
	if !hmac.Equal([]byte(sig), []byte(want)) {
		return "signature mismatch"
	}
	return ""
}
