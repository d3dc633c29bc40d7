package describe_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/model"
)

// TestTimestampDefaultsAreRFC3339: the operation description (what the
// Python generator and the run-time classes read) gives every timestamp
// default as an RFC 3339 string, whatever form the model wrote it in: an
// http-date default once made the generated Python package fail to import.
func TestTimestampDefaultsAreRFC3339(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../codegen/testdata/gen/defaults.smithy")
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service(m.Services()[0])
	op, _ := svc.Operation("PutNote")
	var d struct {
		Shapes map[string]struct {
			Members []struct {
				Name    string          `json:"name"`
				Default json.RawMessage `json:"default"`
			} `json:"members"`
		} `json:"shapes"`
	}
	if err := json.Unmarshal(describe.Operation(m, svc, op), &d); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"httpDate": `"2024-05-23T10:20:30Z"`, "headerDate": `"2024-05-23T10:20:31Z"`,
		"iso": `"2024-05-23T10:20:32.5Z"`, "epoch": `"2024-05-23T10:20:33Z"`, "epochFraction": `"2024-05-23T10:20:34.25Z"`}
	for _, mem := range d.Shapes["smithycurl.test.gen#Note"].Members {
		if w, ok := want[mem.Name]; ok {
			if string(mem.Default) != w {
				t.Errorf("%s: default %s, want %s", mem.Name, mem.Default, w)
			}
			delete(want, mem.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("members not described: %v", want)
	}
}

// TestBlobPayloads: the operation description names the blob payloads
// that smithycurl_call_payload passes as bytes, streaming (Upload,
// Download) or not (Echo), as the client does (client.BlobPayloads): the
// Python bindings read it to choose the bytes path.
func TestBlobPayloads(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../testing/servers/extraserver/extras.smithy")
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service(m.Services()[0])
	for op, want := range map[string]string{"Echo": `{"input":"body","output":"body"}`,
		"Upload": `{"input":"body"}`, "Download": `{"output":"body"}`, "GetJob": ``} {
		o, _ := svc.Operation(op)
		var d struct {
			BlobPayload json.RawMessage `json:"blob_payload"`
		}
		if err := json.Unmarshal(describe.Operation(m, svc, o), &d); err != nil {
			t.Fatal(err)
		}
		if string(d.BlobPayload) != want {
			t.Errorf("%s: blob_payload %s, want %s", op, d.BlobPayload, want)
		}
	}
}
