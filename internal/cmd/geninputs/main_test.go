package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/smithycurl/smithycurl/internal/shareddata"
)

// The same seed gives the same cases; each line names its model, service,
// protocol and operation and holds an input object; a REST model's inputs
// fill their labels (LocateHTTP), which a required label needs.
func TestEmitIsDeterministic(t *testing.T) {
	for _, c := range []struct{ file, proto string }{
		{"models/aws/dynamodb.json", "aws.protocols#awsJson1_0"},
		{"models/aws/efs.json", "aws.protocols#restJson1"},
	} {
		path := shareddata.Path(t, c.file)
		var runs [2]bytes.Buffer
		for i := range runs {
			w := bufio.NewWriter(&runs[i])
			if err := emit(w, path, c.file, 5, 2, ""); err != nil {
				t.Fatal(err)
			}
			w.Flush()
		}
		if !bytes.Equal(runs[0].Bytes(), runs[1].Bytes()) || runs[0].Len() == 0 {
			t.Fatalf("%s: two runs with seed 5 differ (or are empty)", c.file)
		}
		lines := bytes.Split(bytes.TrimSpace(runs[0].Bytes()), []byte("\n"))
		for _, l := range lines {
			var got struct {
				Model, Protocol, Operation string
				Input                      map[string]any
			}
			if err := json.Unmarshal(l, &got); err != nil || got.Model != c.file || got.Protocol != c.proto ||
				got.Operation == "" || got.Input == nil {
				t.Fatalf("%s: line %s: %+v %v", c.file, l, got, err)
			}
			if got.Operation == "DescribeTags" && got.Input["FileSystemId"] == nil {
				t.Errorf("efs DescribeTags without its label: %s", l)
			}
		}
	}
}
