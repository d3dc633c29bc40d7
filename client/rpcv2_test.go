package client_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/cbor"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
)

const rpcv2Model = `$version: "2"
namespace example.kv
use smithy.protocols#rpcv2Cbor

@rpcv2Cbor
service KV { version: "1", operations: [Put, Ping] }

operation Ping {}

operation Put {
    input := {
        @required key: String
        value: Blob
        @sensitive secret: String
        when: Timestamp
        size: BigInteger
    }
    output := {
        @required version: Long
        stored: Timestamp
        @sensitive secret: String
    }
    errors: [Conflict]
}

@error("client")
structure Conflict { message: String, current: Long }
`

// kvServer is a tiny rpcv2Cbor service: Put answers the key's version, or
// Conflict for the key "taken"; Ping answers an empty body.
func kvServer(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.Header.Get("Smithy-Protocol") != "rpc-v2-cbor" || r.Header.Get("Accept") != "application/cbor" {
			http.Error(w, "not rpc-v2-cbor", http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
		switch r.URL.Path {
		case "/api/service/KV/operation/Ping":
			if len(body) != 0 || r.Header.Get("Content-Type") != "" {
				http.Error(w, "Ping takes no body", http.StatusBadRequest)
				return
			}
			w.WriteHeader(200)
		case "/api/service/KV/operation/Put":
			doc, err := cbor.NewReader(body).AppendJSON(nil)
			if err != nil || r.Header.Get("Content-Type") != "application/cbor" {
				http.Error(w, "bad body", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/cbor")
			if strings.Contains(string(doc), `"key":"taken"`) {
				out := cbor.AppendHead(nil, cbor.MajorMap, 3)
				out = cbor.AppendText(out, "__type")
				out = cbor.AppendText(out, "example.kv#Conflict")
				out = cbor.AppendText(out, "message")
				out = cbor.AppendText(out, "key taken")
				out = cbor.AppendText(out, "current")
				out = cbor.AppendInt(out, 9)
				w.WriteHeader(400)
				w.Write(out)
				return
			}
			// Echo what was received as "stored" checks, and a version.
			want := `{"key":"k1","value":"aGk=","secret":"s3cret","when":1700000000.5,"size":12345678901234567890123}`
			if string(doc) != want {
				http.Error(w, "got "+string(doc), http.StatusBadRequest)
				return
			}
			out := cbor.AppendHead(nil, cbor.MajorMap, 3)
			out = cbor.AppendText(out, "version")
			out = cbor.AppendInt(out, 2)
			out = cbor.AppendText(out, "stored")
			out = append(cbor.AppendHead(out, cbor.MajorTag, cbor.TagEpoch), 0xf9, 0x3c, 0x00) // 1(1.0 as a half)
			out = cbor.AppendText(out, "secret")
			out = cbor.AppendText(out, "hidden")
			w.Write(out)
		default:
			http.NotFound(w, r)
		}
	}))
}

// The real client, libcurl and the rpcv2Cbor codec against a loopback
// server: every operation, a modeled error, a transport error.
func TestRPCv2CBOREndToEnd(t *testing.T) {
	srv := kvServer(t)
	defer srv.Close()
	l := model.NewLoader()
	l.AddSource("kv.smithy", []byte(rpcv2Model))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "example.kv#KV", srv.URL+"/api", fastRetries)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	out, err := c.Call(ctx, "Put", []byte(`{"key":"k1","value":"aGk=","secret":"s3cret","when":"2023-11-14T22:13:20.5Z","size":12345678901234567890123}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"version":2,"stored":"1970-01-01T00:00:01Z","secret":"hidden"}` {
		t.Errorf("Put = %s", out)
	}
	if out, err := c.Call(ctx, "Ping", nil); err != nil || string(out) != "{}" {
		t.Errorf("Ping = %s, %v", out, err)
	}
	_, err = c.Call(ctx, "Put", []byte(`{"key":"taken"}`))
	e := asError(t, err, client.KindService)
	if e.Shape != "example.kv#Conflict" || e.Status != 400 || string(e.Members) != `{"message":"key taken","current":9}` {
		t.Errorf("Conflict = %+v", e)
	}
	_, err = c.Call(ctx, "Put", []byte(`{"key":"k","size":1.5}`))
	asError(t, err, client.KindUsage)
	srv.Close()
	_, err = c.Call(ctx, "Put", []byte(`{"key":"k1"}`))
	asError(t, err, client.KindTransport)
}

// Traces show CBOR bodies in diagnostic notation with @sensitive values
// redacted, in requests, responses and modeled errors.
func TestRPCv2CBORTraceBodies(t *testing.T) {
	srv := kvServer(t)
	defer srv.Close()
	l := model.NewLoader()
	l.AddSource("kv.smithy", []byte(rpcv2Model))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies []string
	c, err := client.New(m, "example.kv#KV", srv.URL+"/api", client.WithTrace(func(ev transport.TraceEvent) {
		mu.Lock()
		bodies = append(bodies, ev.Body)
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "Put", []byte(`{"key":"k1","value":"aGk=","secret":"s3cret","when":"2023-11-14T22:13:20.5Z","size":12345678901234567890123}`)); err != nil {
		t.Fatal(err)
	}
	c.Call(context.Background(), "Put", []byte(`{"key":"taken"}`))
	all := strings.Join(bodies, "\n")
	for _, want := range []string{
		`{"key": "k1", "value": h'6869', "secret": "*** sensitive ***", "when": 1(1700000000.5), "size": 2(h'029d42b64e76714244cb')}`,
		`{"version": 2, "stored": 1(1.0), "secret": "*** sensitive ***"}`,
		`{"__type": "example.kv#Conflict", "message": "key taken", "current": 9}`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("trace bodies lack %s:\n%s", want, all)
		}
	}
	if strings.Contains(all, "s3cret") || strings.Contains(all, "hidden") {
		t.Errorf("trace shows a sensitive value:\n%s", all)
	}
}
