package credserver

import "net/http"

// Container is a fake container credentials endpoint: a GET of Path
// answers credentials when the Authorization header is the token set
// (none required when it is ""), 401 otherwise, 404 for other paths.
//
//	s := credserver.StartContainer("/v2/credentials/abc", "token")
//	defer s.Close()
//	// AWS_CONTAINER_CREDENTIALS_FULL_URI=s.URL+"/v2/credentials/abc"
type Container struct {
	base
	Path  string
	token string
	auth  []string // the Authorization headers received, in order
}

// StartContainer starts a fake serving path, requiring token; credentials
// live 5 s.
func StartContainer(path, token string) *Container {
	s := &Container{Path: path, token: token}
	s.start("CONTAINER", s.serve)
	return s
}

// SetToken sets the Authorization value required.
func (s *Container) SetToken(t string) { s.mu.Lock(); s.token = t; s.mu.Unlock() }

// Auth lists the Authorization headers received by the fake's handler.
func (s *Container) Auth() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

func (s *Container) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	token := s.token
	s.mu.Unlock()
	switch {
	case r.Method != http.MethodGet:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	case r.URL.Path != s.Path:
		http.NotFound(w, r)
	case token != "" && r.Header.Get("Authorization") != token:
		http.Error(w, `{"code":"AccessDenied"}`, http.StatusUnauthorized)
	default:
		w.Header().Set("Content-Type", "application/json")
		s.issue(w, map[string]string{"RoleArn": "arn:aws:iam::123456789012:role/test"})
	}
}
