package awse2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// The same DynamoDB flow from the command line and from C: the user-facing
// ways in, run as a user would run them.

func dynamoModelPath(tb testing.TB) string {
	shared := shareddata.Path(tb)
	loadModel(tb, "dynamodb.json") // skips or fails like the Go flows when the model is missing
	return filepath.Join(shared, "models", "aws", "dynamodb.json")
}

// artifact returns a file make builds (the C example), skipping outside CI
// when it has not been built.
func artifact(t *testing.T, rel string) string {
	root, err := shareddata.Root()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing: make test builds it before the Go tests (%v)", rel, err)
		}
		t.Skipf("%s not built (make examples)", rel)
	}
	return p
}

// The smithycurl command, built once for the test run into cliDir (which
// TestMain removes).
var (
	cliOnce sync.Once
	cliDir  string
	cliErr  error
)

// cli builds the smithycurl command (once) and returns a function running
// `call OP --input INPUT [ARGS...]` against endpoint with modelPath and the
// emulators' credentials; it gives stdout and the exit code.
func cli(t *testing.T, modelPath, endpoint string) func(op, input string, args ...string) (string, int) {
	return cliVerb(t, "call", modelPath, endpoint)
}

// cliVerb is cli for another verb taking a name and --input (wait).
func cliVerb(t *testing.T, verb, modelPath, endpoint string) func(name, input string, args ...string) (string, int) {
	run := cliRun(t)
	return func(name, input string, args ...string) (string, int) {
		return run(append([]string{verb, "--model", modelPath, "--endpoint", endpoint, name, "--input", input}, args...)...)
	}
}

// cliRun builds the smithycurl command (once) and returns a function
// running it with args and the emulators' credentials; it gives stdout
// and the exit code.
func cliRun(t *testing.T) func(args ...string) (string, int) {
	cliOnce.Do(func() {
		root, err := shareddata.Root()
		if err != nil {
			cliErr = err
			return
		}
		if cliDir, cliErr = os.MkdirTemp("", "smithycurl-e2e-cli-"); cliErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(cliDir, "smithycurl"), filepath.Join(root, "cmd", "smithycurl")).CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	bin := filepath.Join(cliDir, "smithycurl")
	return func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+Credentials.AccessKeyID,
			"AWS_SECRET_ACCESS_KEY="+Credentials.SecretAccessKey, "AWS_REGION="+Credentials.Region)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
}

func TestDynamoDBFromTheCommandLine(t *testing.T) {
	emu := Start(t)
	modelPath := dynamoModelPath(t)
	run := cli(t, modelPath, emu.DynamoDB)
	table := `"TableName": "cli-flow"`
	if out, code := run("CreateTable", `{`+table+`, "BillingMode": "PAY_PER_REQUEST",
		"AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
		"KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}`); code != 0 || !strings.Contains(out, `"TableStatus"`) {
		t.Fatalf("CreateTable: exit %d: %s", code, out)
	}
	// dynalite makes the table ACTIVE on a timer: wait as a user would.
	if out, code := cliVerb(t, "wait", modelPath, emu.DynamoDB)("TableExists", `{`+table+`}`, "--max-wait", "60s"); code != 0 {
		t.Fatalf("wait TableExists: exit %d: %s", code, out)
	}
	if out, code := run("PutItem", `{`+table+`, "Item": {"id": {"S": "1"}, "n": {"N": "42"}}}`); code != 0 {
		t.Fatalf("PutItem: exit %d: %s", code, out)
	}
	out, code := run("GetItem", `{`+table+`, "Key": {"id": {"S": "1"}}}`)
	var got struct{ Item map[string]map[string]string }
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.Item["n"]["N"] != "42" {
		t.Fatalf("GetItem: exit %d: %s", code, out)
	}
	out, code = run("PutItem", `{`+table+`, "Item": {"id": {"S": "1"}}, "ConditionExpression": "attribute_not_exists(id)"}`)
	var svcErr struct {
		Error  string
		Status int
	}
	if code != 1 || json.Unmarshal([]byte(out), &svcErr) != nil ||
		svcErr.Error != "com.amazonaws.dynamodb#ConditionalCheckFailedException" || svcErr.Status != 400 {
		t.Fatalf("conditional PutItem: exit %d: %s", code, out)
	}
	if out, code := run("DeleteTable", `{`+table+`}`); code != 0 {
		t.Fatalf("DeleteTable: exit %d: %s", code, out)
	}
}

func TestDynamoDBFromC(t *testing.T) {
	emu := Start(t)
	modelPath := dynamoModelPath(t)
	bin := artifact(t, filepath.Join("build", "examples", "dynamodb"))
	cmd := exec.Command(bin, emu.DynamoDB, modelPath)
	cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+Credentials.AccessKeyID,
		"AWS_SECRET_ACCESS_KEY="+Credentials.SecretAccessKey)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("examples/c/dynamodb: %v\n%s", err, out)
	}
	for _, want := range []string{`GetItem: {"Item":{`, `"name":{"S":"from C"}`,
		"PutItem: service error, HTTP 400, com.amazonaws.dynamodb#ConditionalCheckFailedException",
		"100 PutItems in flight at once: 0 failed", `"Count":101`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
