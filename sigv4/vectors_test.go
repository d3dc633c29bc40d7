package sigv4

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/wire"
)

// vectorsDir is where the AWS signing test suite's SigV4a cases are in the
// shared test data: awslabs/aws-c-auth's tests/aws-signing-test-suite/v4a
// (Apache-2.0, its LICENSE and NOTICE in the folder above), one folder per
// case.
var vectorsDir = []string{"aws-signing-test-suite", "v4a"}

// vectorExclusions are the cases the signer cannot reproduce, with why.
var vectorExclusions = map[string]string{
	"post-x-www-form-urlencoded":            "signs Content-Length, which smithycurl leaves unsigned (libcurl sets it)",
	"post-x-www-form-urlencoded-parameters": "signs Content-Length, which smithycurl leaves unsigned (libcurl sets it)",
}

// vectorContext is a case's context.json.
type vectorContext struct {
	Credentials struct {
		AccessKeyID     string `json:"access_key_id"`
		SecretAccessKey string `json:"secret_access_key"`
		Token           string `json:"token"`
	} `json:"credentials"`
	Normalize        bool      `json:"normalize"`
	Region           string    `json:"region"`
	Service          string    `json:"service"`
	SignBody         bool      `json:"sign_body"`
	Timestamp        time.Time `json:"timestamp"`
	OmitSessionToken bool      `json:"omit_session_token"`
	Expiration       int       `json:"expiration_in_seconds"`
}

// TestV4aVectors runs the AWS signing test suite's SigV4a cases, each in
// its header form (Sign) and its query form (Presign): the derived key's
// public key is the case's; the canonical request and string to sign are
// the case's, our signature verifies, and so does the case's own with the
// derived key. ECDSA signatures are randomized: none is compared. Prints "sigv4a test
// vectors: N passed, N failed, N skipped" (make sigv4a-vectors).
func TestV4aVectors(t *testing.T) {
	shared, err := shareddata.Dir()
	dir := filepath.Join(append([]string{shared}, vectorsDir...)...)
	if err == nil {
		_, err = os.Stat(dir)
	}
	if err != nil {
		// The suite is external data: it comes with the shared test data,
		// which may not have it yet.
		fmt.Printf("sigv4a test vectors: not run, the suite is not in the shared test data (%v)\n", err)
		t.Skipf("the AWS signing test suite's v4a cases are not in the shared test data: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var passed, failed, skipped int
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		caseDir := filepath.Join(dir, name)
		for _, form := range []string{"header", "query"} {
			if reason, ok := vectorExclusions[name]; ok {
				t.Logf("%s (%s): skipped: %s", name, form, reason)
				skipped++
				continue
			}
			if _, err := os.Stat(filepath.Join(caseDir, form+"-canonical-request.txt")); err != nil {
				t.Logf("%s (%s): skipped: the suite gives no expected result", name, form)
				skipped++
				continue
			}
			if err := runVector(caseDir, form); err != nil {
				t.Errorf("%s (%s): %v", name, form, err)
				failed++
			} else {
				passed++
			}
		}
	}
	fmt.Printf("sigv4a test vectors: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if passed == 0 {
		t.Errorf("no case ran from %s", dir)
	}
}

// runVector checks one case in one form, "header" (Sign) or "query"
// (Presign; see TestV4aVectors).
func runVector(dir, form string) error {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err
	}
	var ctx vectorContext
	text, err := read("context.json")
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), &ctx); err != nil {
		return fmt.Errorf("context.json: %v", err)
	}
	creds := Credentials{AccessKeyID: ctx.Credentials.AccessKeyID, SecretAccessKey: ctx.Credentials.SecretAccessKey}
	if !ctx.OmitSessionToken { // else the token is added after signing
		creds.SessionToken = ctx.Credentials.Token
	}
	s := &Signer{Service: ctx.Service, RegionSet: []string{ctx.Region}, Credentials: creds,
		DisableURIPathEscaping: true, DisableURIPathNormalization: !ctx.Normalize}

	if err := checkPublicKey(s, read); err != nil {
		return err
	}

	raw, err := read("request.txt")
	if err != nil {
		return err
	}
	r, err := parseVectorRequest(raw)
	if err != nil {
		return fmt.Errorf("request.txt: %v", err)
	}
	var sig string
	signedURL := r.URL // the URL signed (query form: without X-Amz-Signature)
	if form == "header" {
		if ctx.SignBody {
			r.Header.Set(ContentSHA256Header, r.PayloadHash)
		}
		if sig, err = s.Sign(r, ctx.Timestamp); err != nil {
			return err
		}
	} else {
		p, err := s.Presign(r, ctx.Timestamp, time.Duration(ctx.Expiration)*time.Second)
		if err != nil {
			return err
		}
		sig = p.Signature
		var ok bool
		if signedURL, ok = strings.CutSuffix(p.URL, "&X-Amz-Signature="+sig); !ok {
			return fmt.Errorf("presigned URL %s does not end with its signature", p.URL)
		}
	}
	u, err := url.Parse(signedURL)
	if err != nil {
		return err
	}
	canon, _ := s.canonicalRequest(r.Method, u, r.Header, r.PayloadHash)
	amzDate := ctx.Timestamp.UTC().Format(timeFormat)
	toSign := stringToSign(s.algorithm(), amzDate, s.scope(amzDate[:8]), canon)
	for _, c := range []struct {
		file string
		got  []byte
	}{{form + "-canonical-request.txt", canon}, {form + "-string-to-sign.txt", toSign}} {
		want, err := read(c.file)
		if err != nil {
			return err
		}
		if string(c.got) != want {
			return fmt.Errorf("%s differs:\n%s\nwant\n%s", c.file, c.got, want)
		}
	}
	if err := s.verifyECDSA(toSign, sig); err != nil {
		return fmt.Errorf("our signature: %v", err)
	}
	theirs, err := read(form + "-signature.txt")
	if err != nil {
		return err
	}
	if err := s.verifyECDSA(toSign, strings.TrimSpace(theirs)); err != nil {
		return fmt.Errorf("the suite's signature: %v", err)
	}
	return nil
}

// checkPublicKey compares the public key of s's derived key with the
// case's public-key.json.
func checkPublicKey(s *Signer, read func(string) (string, error)) error {
	text, err := read("public-key.json")
	if err != nil {
		return err
	}
	var want struct{ X, Y string }
	if err := json.Unmarshal([]byte(text), &want); err != nil {
		return fmt.Errorf("public-key.json: %v", err)
	}
	key, err := s.ecdsaKey()
	if err != nil {
		return err
	}
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		return err
	}
	if got := hex.EncodeToString(pub); got != "04"+strings.ToLower(want.X+want.Y) {
		return fmt.Errorf("public key %s, want X %s Y %s", got, want.X, want.Y)
	}
	return nil
}

// parseVectorRequest reads a case's request.txt: "METHOD TARGET HTTP/1.1",
// header lines ("Name:value", a line starting with white space continues
// the value before), a blank line and the body. The target's spaces and
// non-ASCII bytes are percent-encoded, as a client sends them.
func parseVectorRequest(raw string) (Request, error) {
	head, body, _ := strings.Cut(raw, "\n\n")
	sc := bufio.NewScanner(strings.NewReader(head))
	if !sc.Scan() {
		return Request{}, fmt.Errorf("no request line")
	}
	parts := strings.Fields(sc.Text())
	if len(parts) < 3 {
		return Request{}, fmt.Errorf("request line %q", sc.Text())
	}
	method, target := parts[0], strings.Join(parts[1:len(parts)-1], " ")
	type field struct{ name, value string }
	var fields []field
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(fields) > 0 {
			fields[len(fields)-1].value += "\n" + line
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return Request{}, fmt.Errorf("header line %q", line)
		}
		fields = append(fields, field{name, value})
	}
	h := wire.Header{}
	host := ""
	for _, f := range fields {
		if strings.EqualFold(f.name, "host") {
			host = f.value
			continue
		}
		h.Add(f.name, f.value)
	}
	var enc bytes.Buffer
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c >= 0x7f {
			fmt.Fprintf(&enc, "%%%02X", c)
		} else {
			enc.WriteByte(c)
		}
	}
	return Request{Method: method, URL: "https://" + host + enc.String(), Header: h, PayloadHash: PayloadHash([]byte(body))}, nil
}
