//go:build typedbench

// The typed Go client (smithycurl gen go) against aws-sdk-go-v2. Its
// package is generated from the shared DynamoDB model into build/ first
// (make bench-aws does it), hence the build tag.

package bench

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smithycurl/smithycurl/bench/build/_typeddynamo"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	awse2e "github.com/smithycurl/smithycurl/testing/e2e/aws"
)

var (
	typedKey  = map[string]typeddynamo.AttributeValue{"pk": &typeddynamo.AttributeValueMemberS{Value: "item-1"}}
	typedItem = map[string]typeddynamo.AttributeValue{
		"pk":    &typeddynamo.AttributeValueMemberS{Value: "item-1"},
		"name":  &typeddynamo.AttributeValueMemberS{Value: "smithycurl"},
		"count": &typeddynamo.AttributeValueMemberN{Value: "42"},
		"tags":  &typeddynamo.AttributeValueMemberSS{Value: []string{"a", "b", "c"}},
		"data":  &typeddynamo.AttributeValueMemberB{Value: []byte{0, 1, 2, 3, 4, 5, 6, 7}},
	}
)

func BenchmarkDynamoDBTyped(b *testing.B) {
	setup(b)
	ctx := context.Background()
	tc, err := typeddynamo.New(endpoint, client.WithAWSCredentials(awse2e.Credentials))
	if err != nil {
		b.Fatal(err)
	}
	defer tc.Close()
	b.Run("GetItem/typed-go", func(b *testing.B) {
		measure(b, func() error {
			out, err := tc.GetItem(ctx, &typeddynamo.GetItemInput{TableName: table, Key: typedKey})
			if err == nil && len(out.Item) == 0 {
				b.Fatal("no item")
			}
			return err
		})
	})
	b.Run("PutItem/typed-go", func(b *testing.B) {
		measure(b, func() error {
			_, err := tc.PutItem(ctx, &typeddynamo.PutItemInput{TableName: table, Item: typedItem})
			return err
		})
	})
}

// BenchmarkTypedJSON is the typed layer alone: the PutItem input to the
// document form and a GetItem output back, with sonic (what generated
// code uses) and with encoding/json on the same types.
func BenchmarkTypedJSON(b *testing.B) {
	in := &typeddynamo.PutItemInput{TableName: table, Item: typedItem}
	doc := []byte(`{"Item":{"pk":{"S":"item-1"},"name":{"S":"smithycurl"},"count":{"N":"42"},"tags":{"SS":["a","b","c"]},"data":{"B":"AAECAwQFBgc="}}}`)
	b.Run("marshal/sonic", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := typed.JSON.Marshal(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := json.Marshal(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal/sonic", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var out typeddynamo.GetItemOutput
			if err := typed.JSON.Unmarshal(doc, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal/encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var out typeddynamo.GetItemOutput
			if err := json.Unmarshal(doc, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
