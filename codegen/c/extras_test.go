package cgen_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/codegen/c"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/testing/servers/extraserver"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestTypedCExtras: the typed paginator, waiter and streamed calls of the
// Extras service (bindings/c/typed/extras_typed.c).
func TestTypedCExtras(t *testing.T) {
	needCC(t)
	libDir(t)
	gen := t.TempDir()
	dir := filepath.Join(gen, "model")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extras.smithy"), []byte(extraserver.Model), 0o644); err != nil {
		t.Fatal(err)
	}
	generate(t, gen, "ex", "", dir)
	runC(t, gen, "ex", "extras_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(extraserver.New().Handler())
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_EXTRAS_URL=" + srv.URL, "SMITHYCURL_EXTRAS_MODEL=" + dir}
	})
}

// TestTypedCTicker: typed event streams of the Ticker service
// (bindings/c/typed/ticker_typed.c).
func TestTypedCTicker(t *testing.T) {
	needCC(t)
	libDir(t)
	gen := t.TempDir()
	model, _ := filepath.Abs(filepath.Join("..", "..", "testing", "servers", "eventserver", "ticker.smithy"))
	generate(t, gen, "ticker", "", model)
	runC(t, gen, "ticker", "ticker_typed", func(t *testing.T) []string {
		srv := httptest.NewServer(eventserver.Service{}.Handler())
		t.Cleanup(srv.Close)
		return []string{"SMITHYCURL_TICKER_URL=" + srv.URL, "SMITHYCURL_TICKER_MODEL=" + model}
	})
}

// TestTypedCDynamoDB: DynamoDB's typed ListTables paginator and
// TableExists/TableNotExists waiters against dynalite
// (bindings/c/typed/ddb_typed.c).
func TestTypedCDynamoDB(t *testing.T) {
	needCC(t)
	libDir(t)
	emu := awse2e.Start(t)
	model := filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json")
	gen := t.TempDir()
	generate(t, gen, "ddb", "", model)
	runC(t, gen, "ddb", "ddb_typed", func(t *testing.T) []string {
		c := awse2e.Credentials
		// The variants run at once on one dynalite: each its own tables.
		prefix := fmt.Sprintf("typedc-%s-%d-", strings.ReplaceAll(filepath.Base(t.Name()), "+", "-"), time.Now().UnixNano()%100000)
		return []string{"SMITHYCURL_DYNALITE_URL=" + emu.DynamoDB, "SMITHYCURL_DDB_MODEL=" + model, "SMITHYCURL_DDB_PREFIX=" + prefix,
			"AWS_ACCESS_KEY_ID=" + c.AccessKeyID, "AWS_SECRET_ACCESS_KEY=" + c.SecretAccessKey, "AWS_REGION=" + c.Region}
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	awse2e.Stop() // the emulators TestTypedCDynamoDB started, if any
	os.Exit(code)
}

// TestExtrasNames: the names and prototypes of the typed paginator,
// waiter, streamed calls and event stream, and the exception event among
// the modeled errors.
func TestExtrasNames(t *testing.T) {
	for _, c := range []struct {
		prefix, model string
		want          []string
	}{
		{"ex", filepath.Join("..", "..", "testing", "servers", "extraserver", "extras.smithy"), []string{
			"typedef struct ex_list_items_paginator ex_list_items_paginator;",
			"int ex_list_items_paginator_new(smithycurl_client *client, const ex_list_items_input *input, long long max_items, long long page_size,\n    unsigned flags, smithycurl_cancel_token *cancel, ex_list_items_paginator **out);",
			"int ex_list_items_paginator_next(ex_list_items_paginator *paginator, ex_list_items_output **page, smithycurl_result **err);",
			"void ex_list_items_paginator_free(ex_list_items_paginator *paginator);",
			"int ex_wait_job_done(smithycurl_client *client, const ex_get_job_input *input, long long max_wait_ms,\n    smithycurl_cancel_token *cancel, ex_get_job_output **out, smithycurl_result **err);",
			"int ex_upload_stream(smithycurl_client *client,\n    const ex_upload_input *input,\n    smithycurl_read_fn read,\n    void *read_data,\n    long long body_size,\n    smithycurl_cancel_token *cancel,\n    ex_upload_output **out,\n    smithycurl_result **err);",
			"int ex_download_stream(smithycurl_client *client,\n    const ex_download_input *input,\n    smithycurl_write_fn write,\n    void *write_data,\n    smithycurl_cancel_token *cancel,",
		}},
		{"ticker", filepath.Join("..", "..", "testing", "servers", "eventserver", "ticker.smithy"), []string{
			"int ticker_tick_events_open(smithycurl_client *client, const ticker_tick_input *input, smithycurl_cancel_token *cancel,\n    ticker_tick_output **initial, ticker_tick_events **stream, smithycurl_result **err);",
			"int ticker_tick_events_next(ticker_tick_events *stream, ticker_tick_stream **event, smithycurl_result **err);",
			"void ticker_tick_events_free(ticker_tick_events *stream);",
			"TICKER_ERROR_TOO_FAST = 3,",
			"int ticker_error_as_too_fast(smithycurl_result *result, ticker_too_fast **out);",
			"read it with ticker_tick_events_open()",
		}},
	} {
		m, svc := loadService(t, "", c.model)
		h, _, err := cgen.Generate(m, svc, cgen.Options{Prefix: c.prefix})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(h), w) {
				t.Errorf("%s.h lacks %q", c.prefix, w)
			}
		}
	}
}

// TestPayloadCalls: an operation with a blob payload, streaming or not
// (Echo's is not), is called
// with smithycurl_call_payload (its _async with the bytes copied), the
// input member left out of the JSON and the output's taken from the result,
// never written or read as base64 (bindings/c/typed/extras_typed.c runs it).
func TestPayloadCalls(t *testing.T) {
	m, svc := loadService(t, "", filepath.Join("..", "..", "testing", "servers", "extraserver", "extras.smithy"))
	_, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: "ex"})
	if err != nil {
		t.Fatal(err)
	}
	src := string(c)
	for _, w := range []string{
		"rc = smithycurl_call_payload(c, op, w->buf, w->len, payload, NULL, res);",
		"rc = smithycurl_call_payload_async(c, op, w->buf, w->len, payload, cancel, trampoline, a);",
		"    payload.data = input->body.data;\n    payload.len = input->body.len;\n    in_.body.data = NULL;\n    ex_upload_input__w(&w, &in_);\n",
		"payload.flags = SMITHYCURL_PAYLOAD_COPY;",
		"smithycurl_result_take_payload(res, &data_, &n_)",
		"    payload.data = input->body.data;\n    payload.len = input->body.len;\n    in_.body.data = NULL;\n    ex_echo_input__w(&w, &in_);\n",
	} {
		if !strings.Contains(src, w) {
			t.Errorf("ex.c lacks %q", w)
		}
	}
	for _, fn := range []string{"int ex_upload(", "int ex_download(", "int ex_upload_async(", "int ex_download_async(", "int ex_echo(", "int ex_echo_async("} {
		i := strings.Index(src, fn)
		if i < 0 {
			t.Fatalf("ex.c lacks %s", fn)
		}
		body := src[i : i+strings.Index(src[i:], "\n}\n")]
		if !strings.Contains(body, "&payload") || fn == "int ex_echo(" && !strings.Contains(body, "smithycurl_result_take_payload") {
			t.Errorf("%s...) is not a payload call:\n%s", fn, body)
		}
	}
}

// TestTypedCPresign: the typed presigners of a SigV4 service
// (bindings/c/typed/presign_typed.c): the S3 documentation's presigned URL
// to the byte, a signed header to send, the refusals.
func TestTypedCPresign(t *testing.T) {
	needCC(t)
	libDir(t)
	gen := t.TempDir()
	model, _ := filepath.Abs(filepath.Join("testdata", "presign", "presign.smithy"))
	generate(t, gen, "ps", "", model)
	runC(t, gen, "ps", "presign_typed", func(t *testing.T) []string {
		return []string{"SMITHYCURL_PRESIGN_MODEL=" + model}
	})
}
