package serve_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/serve"
)

// TestValidation: an input that breaks a constraint gets the modeled
// smithy.framework#ValidationException naming the member where the service
// has it, else the protocol's error naming it; the log names the member.
func TestValidation(t *testing.T) {
	m := loadShop(t)
	for _, id := range shopServices {
		c, _, logs := mock(t, m, id)
		ce := serviceError(t, c, "PutItem", `{"name": "a name longer than twenty", "count": 3}`)
		if id == shopCBOR || id == shopEC2 || id == shopJSON11 { // no ValidationException modeled
			if ce.Status != 400 || !strings.Contains(ce.Error(), "name") {
				t.Errorf("%s: %v (status %d)", id.Name(), ce, ce.Status)
			}
		} else if ce.Shape != "smithy.framework#ValidationException" || !strings.Contains(string(ce.Members), `"fieldList"`) ||
			!strings.Contains(string(ce.Members), `name"`) {
			t.Errorf("%s: %v %s", id.Name(), ce, ce.Members)
		}
		if l := logs.String(); !strings.Contains(l, "operation=PutItem status=400") || !regexp.MustCompile(`member=/?name`).MatchString(l) {
			t.Errorf("%s: log:\n%s", id.Name(), l)
		}
	}
}

// TestSensitiveNotLogged: the log names a @sensitive member at fault but
// shows none of its value, nor the request's headers.
func TestSensitiveNotLogged(t *testing.T) {
	m := loadShop(t)
	for _, id := range shopServices {
		_, url, logs := mock(t, m, id)
		c, err := client.New(m, id, url, client.WithoutValidation(), client.WithHeader("Authorization", "Bearer tok-SECRET"))
		if err != nil {
			t.Fatal(err)
		}
		serviceError(t, c, "PutItem", `{"name": "n", "secret": "hunter2"}`)
		call(t, c, "PutItem", `{"name": "n", "secret": "pw"}`)
		l := logs.String()
		if strings.Contains(l, "hunter2") || strings.Contains(l, "tok-SECRET") || strings.Contains(l, `"pw"`) ||
			!regexp.MustCompile(`member=/?secret`).MatchString(l) {
			t.Errorf("%s: log:\n%s", id.Name(), l)
		}
	}
}

// rawCall sends a request as it is and returns the status and body.
func rawCall(t *testing.T, method, url string, header map[string]string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBadRequests: bodies not in the protocol's format, invalid UTF-8, deep
// nesting, giant bodies and unknown operations each get an error response
// and a log line; the server goes on.
func TestBadRequests(t *testing.T) {
	m := loadShop(t)
	target := map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "ShopJson.PutItem"}
	c, url, logs := mock(t, m, shopJSON, serve.WithMaxBody(1<<16))
	for _, tc := range []struct {
		name   string
		header map[string]string
		body   string
		status int
	}{
		{"not JSON", target, `{"name": `, 400},
		{"invalid UTF-8", target, "{\"name\": \"\xff\xfe\"}", 400},
		{"deep nesting", target, `{"name": "n", "tags": ` + strings.Repeat(`[`, 50000), 400},
		{"over the bound", target, `{"name": "` + strings.Repeat("x", 1<<17) + `"}`, 413},
		{"unknown operation", map[string]string{"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "ShopJson.Nope"}, `{}`, 0},
	} {
		status, body := rawCall(t, "POST", url, tc.header, strings.NewReader(tc.body))
		if status < 400 || status >= 500 || (tc.status != 0 && status != tc.status) || body == "" {
			t.Errorf("%s: status %d (want %d) %.200s", tc.name, status, tc.status, body)
		}
	}
	if n := strings.Count(logs.String(), "msg=request"); n != 5 {
		t.Errorf("%d log lines for 5 requests:\n%s", n, logs)
	}
	call(t, c, "GetItem", `{"id": "still"}`)
	if !strings.Contains(logs.String(), "status=413") {
		t.Errorf("no 413 in the log:\n%s", logs)
	}
}

// TestUnknownOperation: a REST request no operation's route matches gets
// the protocol's 404.
func TestUnknownOperation(t *testing.T) {
	m := loadShop(t)
	_, url, logs := mock(t, m, shopRest)
	status, body := rawCall(t, "GET", url+"/nowhere/at/all", nil, nil)
	if status != 404 || body == "" {
		t.Errorf("GET /nowhere/at/all: %d %s", status, body)
	}
	if !strings.Contains(logs.String(), "status=404") {
		t.Errorf("log:\n%s", logs)
	}
}

// TestPanicRecovered: a panic while answering is a 500 and a log line,
// and the server answers the next request.
func TestPanicRecovered(t *testing.T) {
	m := loadShop(t)
	boom := serve.AnswerFunc(func(_ context.Context, op *model.Operation, _ []byte) (*serve.Answer, error) {
		if op.Name == "PutItem" {
			panic("the answerer broke")
		}
		return nil, nil
	})
	c, _, logs := mock(t, m, shopJSON, serve.WithAnswerer(boom))
	ce := serviceError(t, c, "PutItem", `{"name": "n"}`)
	if ce.Status != 500 {
		t.Errorf("PutItem: %v (status %d)", ce, ce.Status)
	}
	call(t, c, "GetItem", `{"id": "after"}`)
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "the answerer broke") {
		t.Errorf("log:\n%s", l)
	}
}
