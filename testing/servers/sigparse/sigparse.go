// Package sigparse reads what a request says of its AWS signature (SigV4 or
// SigV4a), in its Authorization header or its query (a presigned URL), for
// the fake endpoints that verify them (sigv4aserver, s3expressserver).
package sigparse

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/wire"
)

// Signature is a request's signature as it says it.
type Signature struct {
	Alg, Credential, SignedHeaders, Sig string
	Date, RegionSet                     string
	URL                                 string // as signed: without X-Amz-Signature
	Presigned                           bool
	Expires                             time.Duration // a presigned URL's
}

// Read reads r's signature: from its query when it has X-Amz-Algorithm,
// else from its Authorization header.
func Read(r *http.Request) (Signature, error) {
	u := "http://" + r.Host + r.URL.RequestURI()
	q := r.URL.Query()
	if q.Get("X-Amz-Algorithm") == "" {
		alg, rest, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		fields := map[string]string{}
		for _, f := range strings.Split(rest, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
			fields[k] = v
		}
		return Signature{Alg: alg, Credential: fields["Credential"], SignedHeaders: fields["SignedHeaders"], Sig: fields["Signature"],
			Date: r.Header.Get("X-Amz-Date"), RegionSet: r.Header.Get("X-Amz-Region-Set"), URL: u}, nil
	}
	sig := q.Get("X-Amz-Signature")
	signedURL, ok := strings.CutSuffix(u, "&X-Amz-Signature="+sig)
	if !ok {
		return Signature{}, fmt.Errorf("the query does not end with X-Amz-Signature")
	}
	secs, err := strconv.Atoi(q.Get("X-Amz-Expires"))
	if err != nil {
		return Signature{}, fmt.Errorf("X-Amz-Expires: %v", err)
	}
	return Signature{Alg: q.Get("X-Amz-Algorithm"), Credential: q.Get("X-Amz-Credential"), SignedHeaders: q.Get("X-Amz-SignedHeaders"),
		Sig: sig, Date: q.Get("X-Amz-Date"), RegionSet: q.Get("X-Amz-Region-Set"), URL: signedURL,
		Presigned: true, Expires: time.Duration(secs) * time.Second}, nil
}

// Header is r's signed headers but host, as received.
func (s Signature) Header(r *http.Request) wire.Header {
	h := wire.Header{}
	for _, name := range strings.Split(s.SignedHeaders, ";") {
		if name != "host" {
			for _, v := range r.Header.Values(name) {
				h.Add(name, v)
			}
		}
	}
	return h
}
