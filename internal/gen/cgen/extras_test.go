package cgen_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	awse2e "github.com/smithycurl/smithycurl/internal/e2e/aws"
	"github.com/smithycurl/smithycurl/internal/eventserver"
	"github.com/smithycurl/smithycurl/internal/extraserver"
	"github.com/smithycurl/smithycurl/internal/shareddata"
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
	model, _ := filepath.Abs(filepath.Join("..", "..", "eventserver", "ticker.smithy"))
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
		return []string{"SMITHYCURL_DYNALITE_URL=" + emu.DynamoDB, "SMITHYCURL_DDB_MODEL=" + model,
			"AWS_ACCESS_KEY_ID=" + c.AccessKeyID, "AWS_SECRET_ACCESS_KEY=" + c.SecretAccessKey, "AWS_REGION=" + c.Region}
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	awse2e.Stop() // the emulators TestTypedCDynamoDB started, if any
	os.Exit(code)
}
