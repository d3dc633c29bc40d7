package gogen_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/model"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func TestMain(m *testing.M) {
	code := m.Run()
	awse2e.Stop() // the emulators TestTypedDynamoDB started, if any
	os.Exit(code)
}

// dynamoProgram uses the generated DynamoDB package on dynalite:
// CreateTable, WaitTableExists, PaginateListTables one table per page and
// with max items, PresignDescribeTable refused (a JSON body),
// WaitTableNotExists timing out, then DeleteTable and WaitTableNotExists.
const dynamoProgram = `package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"PKG"
)

func main() {
	if err := run(); err != nil {
		fmt.Println("FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}

func run() error {
	ctx := context.Background()
	c, err := ddb.New(os.Getenv("DYNALITE_URL"), client.WithAWSCredentials(client.AWSCredentials{
		AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret", Region: "us-east-1"}),
		client.WithWaiterDelays(50*time.Millisecond, 200*time.Millisecond))
	if err != nil {
		return err
	}
	defer c.Close()
	prefix := fmt.Sprintf("typedgo-%d-", time.Now().UnixNano()%1000000)
	var names []string
	for i := range 3 {
		name := fmt.Sprintf("%s%d", prefix, i)
		names = append(names, name)
		_, err := c.CreateTable(ctx, &ddb.CreateTableInput{TableName: name,
			AttributeDefinitions: []ddb.AttributeDefinition{{AttributeName: "pk", AttributeType: ddb.ScalarAttributeTypeS}},
			KeySchema:            []ddb.KeySchemaElement{{AttributeName: "pk", KeyType: ddb.KeyTypeHash}},
			BillingMode:          ptr(ddb.BillingModePayPerRequest)})
		if err != nil {
			return err
		}
		out, err := c.WaitTableExists(ctx, &ddb.DescribeTableInput{TableName: name}, time.Minute)
		if err != nil {
			return fmt.Errorf("TableExists: %w", err)
		}
		if out.Table == nil || *out.Table.TableName != name || *out.Table.TableStatus != ddb.TableStatusActive {
			return fmt.Errorf("TableExists: %+v", out.Table)
		}
	}
	found, pages := 0, 0
	for page, err := range c.PaginateListTables(ctx, nil, client.WithPageSize(1)) {
		if err != nil {
			return err
		}
		if pages++; pages > 1000 || len(page.TableNames) > 1 {
			return fmt.Errorf("page %d: %v", pages, page.TableNames)
		}
		for _, n := range page.TableNames {
			if strings.HasPrefix(n, prefix) {
				found++
			}
		}
	}
	if found != 3 {
		return fmt.Errorf("ListTables: %d of our tables in %d pages", found, pages)
	}
	pages = 0
	for _, err := range c.PaginateListTables(ctx, nil, client.WithPageSize(1), client.WithMaxItems(2)) {
		if err != nil {
			return err
		}
		pages++
	}
	if pages != 2 {
		return fmt.Errorf("max items 2: %d pages", pages)
	}
	var ce *client.Error
	// Presigning: generated for a SigV4 service; a JSON body cannot be.
	if _, err := c.PresignDescribeTable(ctx, &ddb.DescribeTableInput{TableName: names[0]}, time.Minute); !errors.As(err, &ce) ||
		ce.Kind != client.KindUsage || !strings.Contains(err.Error(), "which a presigned URL cannot carry") {
		return fmt.Errorf("PresignDescribeTable: %v", err)
	}
	_, err = c.WaitTableNotExists(ctx, &ddb.DescribeTableInput{TableName: names[0]}, 300*time.Millisecond)
	if !errors.As(err, &ce) || ce.Kind != client.KindWaiterTimeout {
		return fmt.Errorf("TableNotExists on a table: %v", err)
	}
	for _, name := range names {
		if _, err := c.DeleteTable(ctx, &ddb.DeleteTableInput{TableName: name}); err != nil {
			return err
		}
		if _, err := c.WaitTableNotExists(ctx, &ddb.DescribeTableInput{TableName: name}, time.Minute); err != nil {
			return fmt.Errorf("TableNotExists: %w", err)
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
`

// TestTypedDynamoDB generates the DynamoDB package under build/ (inside
// the module, so that it can import the client) and runs a program on it
// against dynalite: the typed ListTables paginator and the TableExists and
// TableNotExists waiters.
func TestTypedDynamoDB(t *testing.T) {
	emu := awse2e.Start(t)
	root, err := shareddata.Root()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(filepath.Join(root, "build"), "_gogen-ddb-") // "_": not in ./...
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	m, err := model.LoadPaths(context.Background(), filepath.Join(shareddata.Path(t), "models", "aws", "dynamodb.json"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service(m.Services()[0])
	if err != nil {
		t.Fatal(err)
	}
	files, err := gogen.Generate(m, svc, "ddb")
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"ddb", "main"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, "ddb", f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel, _ := filepath.Rel(root, dir)
	prog := strings.Replace(dynamoProgram, "PKG", "github.com/smithycurl/smithycurl/"+filepath.ToSlash(rel)+"/ddb", 1)
	if err := os.WriteFile(filepath.Join(dir, "main", "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./"+filepath.ToSlash(filepath.Join(rel, "main")))
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DYNALITE_URL="+emu.DynamoDB)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("%v\n%s", err, out)
	}
}
