package gogen

import "testing"

func TestExportedName(t *testing.T) {
	for in, want := range map[string]string{
		"queueUrl": "QueueURL", "Id": "ID", "arn": "ARN", "KmsKeyId": "KmsKeyID", "HTTPServer": "HTTPServer",
		"httpServer": "HTTPServer", "type": "Type", "foo_bar": "FooBar", "S3Bucket": "S3Bucket", "utf8": "UTF8",
		"_x": "X", "TableARNs": "TableARNs", "SSEDescription": "SSEDescription", "": "X",
	} {
		if got := exportedName(in); got != want {
			t.Errorf("exportedName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"IN_PROGRESS": "InProgress", "us-east-1": "UsEast1", "1x": "V1x", "": "Value", "arn": "ARN", "fooBar": "FooBar",
		"é": "Value",
	} {
		if got := enumConstName(in); got != want {
			t.Errorf("enumConstName(%q) = %q, want %q", in, got, want)
		}
	}
	ns := namespace{"Client": true}
	if a, b, c := ns.take("Client"), ns.take("Client"), ns.take("Foo"); a != "Client2" || b != "Client3" || c != "Foo" {
		t.Errorf("namespace: %s %s %s", a, b, c)
	}
}
