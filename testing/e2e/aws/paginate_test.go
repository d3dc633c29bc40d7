package awse2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// TestDynamoDBListTablesPages pages through dynalite's ListTables (the
// model's @paginated: ExclusiveStartTableName, LastEvaluatedTableName,
// Limit, TableNames), two tables a page.
func TestDynamoDBListTablesPages(t *testing.T) {
	emu := Start(t)
	c := newClient(t, "dynamodb.json", dynamoDBService, emu.DynamoDB)
	prefix := fmt.Sprintf("smithycurl-pages-%d-", time.Now().UnixNano())
	var names []string
	for i := range 5 {
		name := fmt.Sprintf("%s%d", prefix, i)
		names = append(names, name)
		call(t, c, "CreateTable", fmt.Sprintf(`{"TableName": %q,
			"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
			"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
			"BillingMode": "PAY_PER_REQUEST"}`, name))
	}
	defer func() {
		for _, name := range names {
			call(t, c, "DeleteTable", fmt.Sprintf(`{"TableName": %q}`, name))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// Start just before the prefix so other tests' tables come after ours.
	start := fmt.Sprintf(`{"ExclusiveStartTableName": %q}`, strings.TrimSuffix(prefix, "-"))
	var got []string
	pages := 0
	for page, err := range c.Paginate(ctx, "ListTables", []byte(start), client.WithPageSize(2)) {
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ TableNames []string }
		if err := json.Unmarshal(page, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.TableNames) > 2 {
			t.Errorf("page of %d tables with Limit 2", len(out.TableNames))
		}
		for _, n := range out.TableNames {
			if strings.HasPrefix(n, prefix) {
				got = append(got, n)
			}
		}
		if pages++; pages > 100 {
			t.Fatal("more than 100 pages")
		}
	}
	if strings.Join(got, ",") != strings.Join(names, ",") || pages < 3 {
		t.Errorf("%d pages, tables %v", pages, got)
	}

	// Items across pages, cut at max items.
	var items []string
	for item, err := range c.PaginateItems(ctx, "ListTables", []byte(start), client.WithPageSize(2), client.WithMaxItems(3)) {
		if err != nil {
			t.Fatal(err)
		}
		var name string
		if err := json.Unmarshal(item, &name); err != nil {
			t.Fatal(err)
		}
		items = append(items, name)
	}
	if strings.Join(items, ",") != strings.Join(names[:3], ",") {
		t.Errorf("items: %v", items)
	}
}
