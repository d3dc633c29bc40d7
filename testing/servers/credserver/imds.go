package credserver

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// RolePath is IMDS's path of the role name; a role's credentials are below.
const RolePath = "/latest/meta-data/iam/security-credentials/"

// IMDS is a fake instance metadata service: PUT /latest/api/token (the
// X-aws-ec2-metadata-token-ttl-seconds header required, 1 to 21600; 403
// with X-Forwarded-For, as IMDS), GET RolePath (the role name) and
// RolePath+role (credentials). A GET without a valid token is 401 unless
// AllowV1.
//
//	s := credserver.StartIMDS()
//	defer s.Close()
//	// AWS_EC2_METADATA_SERVICE_ENDPOINT=s.URL
type IMDS struct {
	base
	role   string
	v1     bool
	tokens map[string]time.Time // token → expiry
}

// StartIMDS starts a fake with role "test-role", credentials living 5 s
// and IMDSv1 refused.
func StartIMDS() *IMDS {
	s := &IMDS{role: "test-role", tokens: map[string]time.Time{}}
	s.start("IMDS", s.serve)
	return s
}

// SetRole sets the role name served.
func (s *IMDS) SetRole(r string) { s.mu.Lock(); s.role = r; s.mu.Unlock() }

// AllowV1 lets GETs without a token through (IMDSv1).
func (s *IMDS) AllowV1(on bool) { s.mu.Lock(); s.v1 = on; s.mu.Unlock() }

func (s *IMDS) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPut && r.URL.Path == "/latest/api/token" {
		s.token(w, r)
		return
	}
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.Lock()
	role, ok := s.role, s.authorizedLocked(r.Header.Get("X-Aws-Ec2-Metadata-Token"))
	s.mu.Unlock()
	switch {
	case !ok:
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	case r.URL.Path == RolePath:
		fmt.Fprint(w, role)
	case r.URL.Path == RolePath+role:
		w.Header().Set("Content-Type", "text/plain")
		s.issue(w, map[string]string{"Code": "Success", "Type": "AWS-HMAC",
			"LastUpdated": time.Now().UTC().Format(time.RFC3339)})
	default:
		http.NotFound(w, r)
	}
}

func (s *IMDS) token(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Forwarded-For") != "" {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	ttl, err := strconv.Atoi(r.Header.Get("X-Aws-Ec2-Metadata-Token-Ttl-Seconds"))
	if err != nil || ttl < 1 || ttl > 21600 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	tok := fmt.Sprintf("imds-session-token-%d", len(s.tokens)+1)
	s.tokens[tok] = time.Now().Add(time.Duration(ttl) * time.Second)
	s.mu.Unlock()
	w.Header().Set("X-Aws-Ec2-Metadata-Token-Ttl-Seconds", strconv.Itoa(ttl))
	fmt.Fprint(w, tok)
}

func (s *IMDS) authorizedLocked(tok string) bool {
	if tok == "" {
		return s.v1
	}
	exp, ok := s.tokens[tok]
	return ok && time.Now().Before(exp)
}
