package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
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

// -responses: the same seed gives the same response cases; each has a
// status, the output or error members it carries and the input that makes
// the call, and an operation with modeled errors has an error case too.
func TestEmitResponses(t *testing.T) {
	const file = "models/aws/dynamodb.json"
	path := shareddata.Path(t, file)
	var runs [2]bytes.Buffer
	for i := range runs {
		w := bufio.NewWriter(&runs[i])
		if err := emitResponses(w, path, file, 5, 1, "DescribeTable"); err != nil {
			t.Fatal(err)
		}
		w.Flush()
	}
	if !bytes.Equal(runs[0].Bytes(), runs[1].Bytes()) || runs[0].Len() == 0 {
		t.Fatalf("two runs with seed 5 differ (or are empty)")
	}
	var outputs, errs int
	for _, l := range bytes.Split(bytes.TrimSpace(runs[0].Bytes()), []byte("\n")) {
		var got responseLine
		if err := json.Unmarshal(l, &got); err != nil || got.Operation == "" || got.Status == 0 || got.Input == nil || got.Expected == nil {
			t.Fatalf("line %s: %+v %v", l, got, err)
		}
		if got.Error == "" {
			outputs++
			if got.Status/100 != 2 {
				t.Errorf("output case with status %d", got.Status)
			}
		} else {
			errs++
			if got.Status < 400 || !bytes.Contains(got.Body, []byte(got.Error.Name())) {
				t.Errorf("error case %s: status %d, body %q", got.Error, got.Status, got.Body)
			}
		}
	}
	if outputs == 0 || errs == 0 {
		t.Errorf("%d output cases, %d error cases", outputs, errs)
	}
}
