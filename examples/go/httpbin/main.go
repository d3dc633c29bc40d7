// The seed's example in Go: GET /ip, then POST /anything with a query
// parameter and a required member, against an httpbin server.
//
//	go run ./examples/go/httpbin -endpoint http://127.0.0.1:8080
package main

import (
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

func main() {
	endpoint := flag.String("endpoint", "http://127.0.0.1:8080", "httpbin base URL")
	modelPath := flag.String("model", "examples/httpbin", "the httpbin Smithy model")
	flag.Parse()
	ctx := context.Background()

	m, err := model.LoadPaths(ctx, *modelPath)
	if err != nil {
		log.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", *endpoint)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ip, err := c.Call(ctx, "GetIp", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("GetIp: %s\n", ip)

	out, err := c.Call(ctx, "Anything", []byte(`{"id": 25, "test": "yo", "queryParam": "hello"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Anything: %s\n", out)
}
