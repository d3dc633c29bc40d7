package gogen_test

import (
	"context"
	"testing"

	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// BenchmarkGenGoSagemaker is what `smithycurl gen go` does for the largest
// model (sagemaker, 3.3 MB): load it, then write the package (in memory).
func BenchmarkGenGoSagemaker(b *testing.B) {
	path := shareddata.Path(b, "models", "aws-large", "sagemaker.json")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m, err := model.LoadPaths(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		svc, err := m.Service(m.Services()[0])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := gogen.Generate(m, svc, "sagemaker"); err != nil {
			b.Fatal(err)
		}
	}
}
